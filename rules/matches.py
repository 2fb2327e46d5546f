"""The fold step of every match stream: ``MatchStarted`` names the game, and the game's engine
folds the rest. Each engine is a module with ``apply(state, event type, data, recorded_at)``."""
from __future__ import annotations

from types import MappingProxyType
from typing import Any

from .guandan import match as guandan
from .mahjong import session as mahjong
from .mahjong import sichuan_engine as sichuan
from .shengji import match as shengji
from .shengji import sj3
from .violations import RuleViolation

ENGINES = MappingProxyType({"SJ2": shengji, "SJ3": sj3, "MJO": mahjong, "MJS": sichuan,
                            "GD": guandan})


def engine_of(game: str):
    try:
        return ENGINES[game]
    except KeyError:
        raise RuleViolation("T-1.1", f"{game} matches are not played on this backend yet; "
                                     f"games with an engine: {', '.join(ENGINES)}") from None


def team_keys(game: str) -> tuple[str, ...]:
    """The keys of ``MatchStarted.teams`` in the game: an engine that seats other entrants
    than the two sides A and B of the card games names them (a mahjong table: seats 0-3)."""
    return tuple(getattr(engine_of(game), "TEAM_KEYS", ("A", "B")))


def apply(state: Any, event_type: str, data: dict, at: str | None = None) -> Any:
    if state is None:
        if event_type != "MatchStarted":
            raise RuleViolation("T-1.3", "a match stream starts with MatchStarted")
        return engine_of(data["game"]).apply(None, event_type, data, at)
    return engine_of(state.game).apply(state, event_type, data, at)
