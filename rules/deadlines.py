"""Deadlines: what a match's clocks will close, warn of or call next, derived from its state.

Every time rule of the games is a :class:`Deadline`: when ``due`` passes, the timer appends
``event_type`` with ``data`` through the same path as any client, and the engine that folds that
event applies the consequence (a closed window, a warning, 20 points, the end of a match), exactly
as for a referee who posts it by hand. The timer decides nothing.

Each engine module offers ``deadlines(state) -> tuple[Deadline, ...]``: the deadlines pending
now, in *match time* — the server's time less the time the match clock stood paused
(:mod:`rules.match_clock`), the only time the engines know. A deadline's ``key`` names the
occurrence (hand, trick, play, seat), so the same wait gives the same key however often it is
computed, and the timer's event id can be derived from it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Mapping


@dataclass(frozen=True)
class Deadline:
    key: str                  # the occurrence, unique in the match: "h3/declaration", "h3/p17/follow"
    due: datetime             # match time at which it passes
    event_type: str           # what the timer appends then
    data: Mapping = field(default_factory=dict)  # ... with this data
    rule: str = ""            # the rule that sets the limit, e.g. "SJ2-4.7"
    label: str = ""           # what a table clock shows: "declaration window", "seat 2 to follow"
    seat: int | None = None   # whose time is running, if a seat's
    started: datetime | None = None  # when this clock started (match time), for a countdown
    # the match's or session's own time (not a move's or a window's): a ruling made meanwhile
    # does not restart it (rules.matches.deadlines)
    whole_match: bool = False

    def as_dict(self) -> dict:
        return {"key": self.key, "rule": self.rule, "label": self.label, "seat": self.seat,
                "event_type": self.event_type, "data": dict(self.data)}
