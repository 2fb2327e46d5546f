"""Pending deadlines and the table clock: the time rules of a match, as the server's clock will
see them (the one clock every time limit is judged on).

The engines give each match's deadlines in match time (rules.matches.deadlines); here they
become server times through the match clock, which moves them by every pause and holds them
while the clock stands. Nothing here is stored: the timer and the clock read both derive it
from the folded stream, so a restart, a second process or a replay computes the same.
"""
from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from functools import cached_property

from events.envelope import NewEvent
from rules import matches
from rules.deadlines import Deadline
from rules.match_clock import timestamp

from .streams import StreamState

# Timer events get ids derived from what expires and when, so that the same deadline fired
# twice (two processes, a restart) is one event: the store takes the second as a retry.
TIMER_IDS = uuid.UUID("6d1f8a52-3c0e-4e39-9a57-1b0f7f3c2a10")
TIMER_ACTOR = "timer"


@dataclass(frozen=True)
class PendingDeadline:
    tournament_id: str
    stream: str
    deadline: Deadline
    due: datetime              # server time at which it passes

    @cached_property
    def due_text(self) -> str:
        return timestamp(self.due)

    @cached_property
    def event_id(self) -> str:
        return str(uuid.uuid5(TIMER_IDS, f"{self.stream}|{self.deadline.key}|{self.due_text}"))

    def event(self) -> NewEvent:
        """The event the timer appends: role ``system``, the deadline it fires for in meta (the
        recorded time is the firing's, later than the deadline after a restart)."""
        return NewEvent(type=self.deadline.event_type, stream=self.stream,
                        data=dict(self.deadline.data), id=self.event_id,
                        meta={"actor": TIMER_ACTOR, "role": "system", "deadline": self.due_text})


def tournament_of(stream: str) -> str:
    """``match-<tid>:<mid>`` → ``<tid>``."""
    return stream[len("match-"):].split(":", 1)[0]


def pending_deadlines(folded: StreamState) -> tuple[PendingDeadline, ...]:
    """The deadlines of a match stream that will fire, in order: none while its clock stands."""
    state = folded.state
    if state is None:
        return ()
    clock = state.match_clock
    if not clock.running:
        return ()
    tid = tournament_of(folded.stream)
    found = (PendingDeadline(tid, folded.stream, d, clock.wall_time(d.due))
             for d in matches.deadlines(state))
    return tuple(sorted(found, key=lambda p: (p.due, p.deadline.key)))


def clock_view(folded: StreamState, now: datetime) -> dict:
    """What a table clock shows at server time ``now``: running or paused (since when, for how
    long in all), and each running limit — whose, which rule, when it started and passes, and
    the seconds left (frozen while paused)."""
    state = folded.state
    clock = state.match_clock
    shown_now = clock.match_time(now)
    limits = []
    for d in sorted(matches.deadlines(state), key=lambda d: (d.due, d.key)):
        limits.append({
            **d.as_dict(),
            "started_at": None if d.started is None else _wall(clock, d.started),
            "deadline": _wall(clock, d.due),
            "remaining_seconds": round(max((d.due - shown_now).total_seconds(), 0.0), 3),
        })
    return {
        "match_id": state.match_id, "game": state.game, "status": state.status,
        "version": folded.version, "position": folded.position, "now": timestamp(now),
        "running": clock.running,
        "paused_since": None if clock.running else timestamp(clock.paused_since),
        "paused_seconds": round(clock.stood(now).total_seconds(), 3),
        "pauses": [dict(p) for p in clock.pauses],
        "clocks": limits,
    }


COUNTDOWN = ("now", "paused_seconds")  # with each clock's remaining_seconds: what time moves


def without_countdown(view: dict) -> dict:
    """A clock view less what the passing time changes: the same while the log stays the same
    (its deadlines are absolute)."""
    return {**{k: v for k, v in view.items() if k not in COUNTDOWN},
            "clocks": [{k: v for k, v in c.items() if k != "remaining_seconds"}
                       for c in view["clocks"]]}


def _wall(clock, match_time: datetime) -> str | None:
    wall = clock.wall_time(match_time)
    return None if wall is None else timestamp(wall)
