"""The invariant of every engine's deadlines (rules/deadlines.py), checked on any match state:
what the timer would append is accepted exactly at its deadline and not a microsecond before."""
from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from rules import RuleViolation, matches
from rules.match_clock import timestamp

US = timedelta(microseconds=1)


def check_deadlines(state) -> tuple:
    """Every pending deadline (keys unique) is accepted at its time — the server's, while the
    match clock runs — refused 1 µs before with its rule, and gone once applied. Returns them."""
    found = matches.deadlines(state)
    assert len({d.key for d in found}) == len(found)
    for d in found:
        assert d.started is None or d.started <= d.due
        due = state.match_clock.wall_time(d.due)
        if due is None:                  # paused: nothing is due until the referee resumes
            continue
        with pytest.raises(RuleViolation) as early:
            matches.apply(state, d.event_type, dict(d.data), timestamp(due - US))
        assert early.value.rule == d.rule, (d, early.value)
        after = matches.apply(state, d.event_type, dict(d.data), timestamp(due))
        assert d.key not in {e.key for e in matches.deadlines(after)}, d
    return found


class FoldedMatch:
    """A match folded through ``rules.matches`` with the server's time moved by the test, and
    the timer's part played by :meth:`fire`."""

    def __init__(self, started: dict, start: datetime):
        self.now = start
        self.state = matches.apply(None, "MatchStarted", started, timestamp(start))

    def post(self, event_type: str, after: float = 1, **data) -> None:
        """``event_type`` recorded ``after`` seconds after the last event."""
        self.now += timedelta(seconds=after)
        self.state = matches.apply(self.state, event_type, data, timestamp(self.now))

    def pending(self) -> dict:
        return {d.key: d for d in matches.deadlines(self.state)}

    def wall(self, d) -> datetime | None:
        """The server's time at which deadline ``d`` (in match time) passes (None: paused)."""
        return self.state.match_clock.wall_time(d.due)

    def fire(self, key: str) -> None:
        """The timer: deadline ``key``'s event recorded exactly at its time."""
        d = self.pending()[key]
        self.now = self.wall(d)
        self.state = matches.apply(self.state, d.event_type, dict(d.data), timestamp(self.now))
