"""A match's clock: the referee may stop it and start it again (``MatchClockPaused``,
``MatchClockResumed``), e.g. while a ruling is made, and every limit of the match moves by the
time it stood.

The engines measure every limit on the recorded times of the events. The match stream's fold
(:mod:`rules.matches`) hands them *match time* instead: the server's time less the time the clock
has stood paused, and while it stands, the moment it stopped. So a pause moves every deadline —
a move's, a window's, the match's own time limit — by exactly the paused time, in every game,
without any engine knowing of pauses. Times kept inside an engine's state are match times; a
deadline is turned back into the server's time by :meth:`MatchClock.wall_time`.

Rule IDs: T-1.5 (the committee's and referees' handling of cases the rules leave open) for the
pause itself; no game rule is paused, only its clock.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Mapping

from .frozen import evolve
from .deadlines import Deadline
from .violations import RuleViolation

PAUSE_RULE = "T-1.5"


def moment(at: str) -> datetime:
    """A recorded time (``2026-11-29T16:18:40.123456Z``) as an aware datetime."""
    return datetime.fromisoformat(at.replace("Z", "+00:00"))


def maybe_moment(at: str | None) -> datetime | None:
    """``moment``, or None for no time (an event folded without one)."""
    return None if at is None else moment(at)


def timestamp(when: datetime) -> str:
    """The recorded-time form of ``when`` (UTC, microseconds, ``Z``), the one form every rule,
    message and view writes a time in; a naive time is read as UTC (never the machine's zone)."""
    utc = when.replace(tzinfo=timezone.utc) if when.tzinfo is None else \
        when.astimezone(timezone.utc)
    return utc.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def maybe_timestamp(when: datetime | None) -> str | None:
    """``timestamp``, or None for no time."""
    return None if when is None else timestamp(when)


@dataclass(frozen=True)
class MatchClock:
    paused_total: timedelta = timedelta(0)   # the time of every finished pause
    paused_since: datetime | None = None     # server time the running pause began
    pauses: tuple[Mapping, ...] = ()         # every pause: paused_at, resumed_at, reason
    ruled_at: datetime | None = None         # match time of the latest ruling with effects

    @property
    def running(self) -> bool:
        return self.paused_since is None

    def match_time(self, wall: datetime) -> datetime:
        """Server time ``wall`` as the match's clock shows it (frozen while paused)."""
        if self.paused_since is not None:
            wall = min(wall, self.paused_since)
        return wall - self.paused_total

    def stood(self, wall: datetime) -> timedelta:
        """The time the clock has stood paused by server time ``wall``, the running pause included."""
        running_pause = timedelta(0) if self.paused_since is None else \
            max(wall - self.paused_since, timedelta(0))
        return self.paused_total + running_pause

    def wall_time(self, match_time: datetime) -> datetime | None:
        """When the match's clock will show ``match_time``: None while it stands paused."""
        return None if self.paused_since is not None else match_time + self.paused_total


def pause(clock: MatchClock, wall: datetime, reason: str | None) -> MatchClock:
    """``MatchClockPaused``: only a running clock stops."""
    if not clock.running:
        raise RuleViolation(PAUSE_RULE, "the match clock is already paused, since {timestamp}",
                                        timestamp=timestamp(clock.paused_since))
    entry = {"paused_at": timestamp(wall), "resumed_at": None, "reason": reason}
    return evolve(clock, paused_since=wall, pauses=(*clock.pauses, entry))


def resume(clock: MatchClock, wall: datetime) -> MatchClock:
    """``MatchClockResumed``: only a paused clock starts again; every deadline moves by the
    time it stood."""
    if clock.running:
        raise RuleViolation(PAUSE_RULE, "the match clock is running: there is no pause to resume")
    stood = max(wall - clock.paused_since, timedelta(0))
    last = {**clock.pauses[-1], "resumed_at": timestamp(wall)}
    return evolve(clock, paused_total=clock.paused_total + stood, paused_since=None,
                   pauses=(*clock.pauses[:-1], last))


def restarted(deadline: Deadline, clock: MatchClock) -> Deadline:
    """A move's or a window's time restarts at a ruling with effects made while it ran: the
    players wait while the committee decides, and a ruling that changes the hand (a play voided,
    a card substituted, a penalty) leaves the wait counting from the ruling, not from a move
    made long before. A ruling in words only changes nothing at the table; the match's own time
    runs on."""
    if deadline.whole_match or clock.ruled_at is None or deadline.started is None or \
            deadline.started >= clock.ruled_at:
        return deadline
    shift = clock.ruled_at - deadline.started
    return evolve(deadline, started=clock.ruled_at, due=deadline.due + shift)
