"""The match clock (rules/match_clock.py, T-1.5): a pause holds match time still, a resume
moves it on by the time the clock stood, and only a running clock pauses, only a paused one
resumes, never once the match is over."""
from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta, timezone

import pytest

from rules import RuleViolation, matches
from rules.match_clock import MatchClock, pause, resume

T0 = datetime(2026, 11, 29, 9, 0, tzinfo=timezone.utc)


def seconds(n: float) -> timedelta:
    return timedelta(seconds=n)


def test_a_clock_never_paused_shows_the_server_time():
    clock = MatchClock()
    assert clock.match_time(T0) == T0 and clock.wall_time(T0) == T0


def test_match_time_stands_still_while_paused_and_moves_on_after_by_the_time_it_stood():
    clock = pause(MatchClock(), T0 + seconds(10), "a ruling")
    assert clock.match_time(T0 + seconds(70)) == T0 + seconds(10)
    assert clock.wall_time(T0 + seconds(30)) is None  # no deadline passes while it stands
    assert clock.stood(T0 + seconds(70)) == seconds(60)
    clock = resume(clock, T0 + seconds(70))
    assert clock.match_time(T0 + seconds(80)) == T0 + seconds(20)
    assert clock.wall_time(T0 + seconds(30)) == T0 + seconds(90)  # a deadline 60 s later
    assert clock.pauses == ({"paused_at": "2026-11-29T09:00:10.000000Z",
                             "resumed_at": "2026-11-29T09:01:10.000000Z", "reason": "a ruling"},)


def test_pauses_add_up():
    clock = resume(pause(MatchClock(), T0, None), T0 + seconds(5))
    clock = resume(pause(clock, T0 + seconds(20), None), T0 + seconds(27))
    assert clock.paused_total == seconds(12)
    assert clock.match_time(T0 + seconds(40)) == T0 + seconds(28)


def test_a_paused_clock_does_not_pause_again_and_a_running_one_does_not_resume():
    with pytest.raises(RuleViolation) as refused:
        resume(MatchClock(), T0)
    assert refused.value.rule == "T-1.5"
    with pytest.raises(RuleViolation) as refused:
        pause(pause(MatchClock(), T0, None), T0 + seconds(1), None)
    assert refused.value.rule == "T-1.5"


def _started_sj2(settings: dict | None = None):
    return matches.apply(None, "MatchStarted", {
        "match_id": "R1-1", "game": "SJ2", "teams": {"A": "east", "B": "west"},
        "seats": ["甲", "丙", "乙", "丁"], "settings": settings or {}},
        "2026-11-29T09:00:00.000000Z")


def test_the_engines_see_match_time_after_a_pause():
    """SJ2-14.4: with a 60-minute limit, a 15-minute pause puts the limit at 10:15."""
    state = _started_sj2({"timeLimitMinutes": 60})
    state = matches.apply(state, "MatchClockPaused", {}, "2026-11-29T09:10:00.000000Z")
    state = matches.apply(state, "MatchClockResumed", {}, "2026-11-29T09:25:00.000000Z")
    with pytest.raises(RuleViolation) as early:
        matches.apply(state, "TimeLimitReached", {"limit_minutes": 60},
                      "2026-11-29T10:14:59.999999Z")
    assert early.value.rule == "SJ2-14.4"
    called = matches.apply(state, "TimeLimitReached", {"limit_minutes": 60},
                           "2026-11-29T10:15:00.000000Z")
    assert called.time_called == 60


def test_a_match_that_is_over_is_not_paused():
    state = replace(_started_sj2(), status="completed")
    with pytest.raises(RuleViolation) as refused:
        matches.apply(state, "MatchClockPaused", {}, "2026-11-29T09:10:00.000000Z")
    assert refused.value.rule == "T-1.5" and "over" in refused.value.message
    assert matches.deadlines(state) == ()
