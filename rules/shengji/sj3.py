"""The engine of SJ3 matches (rules/matches.py ``ENGINES``): the one Shengji match fold of
``match.py`` — ``MatchStarted.game`` picks the SJ3 variant — with SJ3's settings (SJ3-15) and
seating (SJ3-1.2)."""
from __future__ import annotations

from typing import Mapping

from . import match
from .match import apply, deadlines  # noqa: F401  (the engine's fold step, its time rules)
from .settings import SJ3Settings, parse_settings


def check_settings(raw: Mapping) -> None:
    """SJ3-15: the match settings a tournament gives its SJ3 matches."""
    parse_settings(raw, SJ3Settings)


def seat_players(players: Mapping[str, list[str]]) -> list[str]:
    """SJ3-1.2: side A at seats 0 and 2, side B at 1 and 3."""
    return match.seat_players(players, rule="SJ3-1.2")
