"""The fold step of every match stream: ``MatchStarted`` names the game, and the game's engine
folds the rest. Each engine is a module with ``apply(state, event type, data, recorded_at)``."""
from __future__ import annotations

from types import MappingProxyType
from typing import Any

from .frozen import evolve
from . import match_clock
from .deadlines import Deadline
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
        raise RuleViolation("T-1.1", "{game} matches are not played on this backend yet; games "
                                     "with an engine: {games}",
                                     game=game, games=', '.join(ENGINES)) from None


def team_keys(game: str) -> tuple[str, ...]:
    """The keys of ``MatchStarted.teams`` in the game: an engine that seats other entrants
    than the two sides A and B of the card games names them (a mahjong table: seats 0-3)."""
    return tuple(getattr(engine_of(game), "TEAM_KEYS", ("A", "B")))


CLOCK_EVENTS = frozenset({"MatchClockPaused", "MatchClockResumed"})


def apply(state: Any, event_type: str, data: dict, at: str | None = None) -> Any:
    """The next state of a match stream. The referee's pause and resume are the match clock's
    (the same in every game); everything else is the engine's, on match time."""
    if state is None:
        if event_type != "MatchStarted":
            raise RuleViolation("T-1.3", "a match stream starts with MatchStarted")
        return engine_of(data["game"]).apply(None, event_type, data, at)
    if event_type in CLOCK_EVENTS:
        return _set_clock(state, event_type, data, at)
    now = _match_time(state.match_clock, at)
    after = engine_of(state.game).apply(state, event_type, data, now)
    if event_type == "RulingRecorded" and data.get("effects") and now is not None:
        after = evolve(after, match_clock=evolve(after.match_clock,
                                                   ruled_at=match_clock.moment(now)))
    return after


def deadlines(state: Any) -> tuple[Deadline, ...]:
    """The match's pending deadlines, in match time: none before it starts or once it is over,
    and those its engine derives otherwise (rules.deadlines), a move's or a window's restarted
    at a ruling made while it ran (rules.match_clock.restarted)."""
    if state is None or state.status == "completed":
        return ()
    find = getattr(engine_of(state.game), "deadlines", None)
    if find is None:
        return ()
    return tuple(match_clock.restarted(d, state.match_clock) for d in find(state))


def _set_clock(state: Any, event_type: str, data: dict, at: str | None) -> Any:
    if state.status == "completed":
        raise RuleViolation(match_clock.PAUSE_RULE, "the match is over: its clock has stopped "
                                                    "for good")
    if at is None:
        raise RuleViolation(match_clock.PAUSE_RULE, "a pause is measured on the server's time")
    wall = match_clock.moment(at)
    if event_type == "MatchClockPaused":
        clock = match_clock.pause(state.match_clock, wall, data.get("reason"))
    else:
        clock = match_clock.resume(state.match_clock, wall)
    return evolve(state, match_clock=clock)


def _match_time(clock: match_clock.MatchClock, at: str | None) -> str | None:
    """``at`` as the match's clock shows it; unchanged (the same text) when it never stopped."""
    if at is None or (clock.running and not clock.paused_total):
        return at
    return match_clock.timestamp(clock.match_time(match_clock.moment(at)))
