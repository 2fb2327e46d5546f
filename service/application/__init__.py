"""The application layer: the use cases of a deployment (:class:`Tournaments`), between the
adapters (HTTP routes, the CLI, the timer) and the log, and the domain errors they raise."""
from __future__ import annotations

from .draws import Pairing
from .errors import Conflict, Invalid, MatchExists, Refusal, TournamentExists
from .tournaments import Permit, RulingPreview, Tournaments

__all__ = ["Conflict", "Invalid", "MatchExists", "Pairing", "Permit", "Refusal",
           "RulingPreview", "TournamentExists", "Tournaments"]
