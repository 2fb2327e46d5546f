"""Guards: the rules an event must meet that look beyond its own stream.

A draw for the next knockout round needs the results of the matches of the last one, which live
in the match streams; a match may start only between the teams its draw paired. A guard reads
the log (inside the write transaction, as it stood before the batch) through the projections and
asks the pure rules; it raises :class:`rules.RuleViolation` to refuse the event.
"""
from __future__ import annotations

from typing import Callable

from events.catalogue import Catalogue
from events.store import Tail

from . import brackets
from .streams import StreamCache

Guard = Callable[[Tail, Catalogue, str, dict, "StreamCache | None"], None]

GUARDS: dict[str, Guard] = {
    "LotsDrawn": brackets.guard_draw,            # T-2.1 – 2.3: a round fits the bracket
    "ResultRecorded": brackets.guard_result,     # T-9.3: a drawn, undecided match
    "MatchStarted": brackets.guard_match_start,  # T-2.1: the teams the draw paired
}


def guard_for(event_type: str) -> Guard | None:
    return GUARDS.get(event_type)
