"""The engine of a Sichuan (MJS) table's match stream for ``rules.matches``: the mahjong session of
:mod:`.session` — whose ``MatchStarted`` names the game, so one fold serves MJO and MJS — with the
match settings checked against the MJS preset (mahjong-sichuan.md section 12)."""
from __future__ import annotations

from collections.abc import Mapping

from .session import apply, deadlines
from .table import TEAM_KEYS, seat_players
from .table import check_settings as _check_settings

__all__ = ["TEAM_KEYS", "apply", "check_settings", "deadlines", "seat_players"]


def check_settings(raw: Mapping) -> None:
    """MJS section 12: the table settings a tournament gives its tables."""
    _check_settings(raw, "MJS")
