"""The fold step of every match stream: ``MatchStarted`` names the game, and the game's engine
folds the rest. Each engine is a module with ``apply(state, event type, data, recorded_at)``."""
from __future__ import annotations

from types import MappingProxyType
from typing import Any

from .shengji import match as shengji
from .violations import RuleViolation

ENGINES = MappingProxyType({"SJ2": shengji})


def engine_of(game: str):
    try:
        return ENGINES[game]
    except KeyError:
        raise RuleViolation("T-1.1", f"{game} matches are not played on this backend yet; "
                                     f"games with an engine: {', '.join(ENGINES)}") from None


def apply(state: Any, event_type: str, data: dict, at: str | None = None) -> Any:
    if state is None:
        if event_type != "MatchStarted":
            raise RuleViolation("T-1.3", "a match stream starts with MatchStarted")
        return engine_of(data["game"]).apply(None, event_type, data, at)
    return engine_of(state.game).apply(state, event_type, data, at)
