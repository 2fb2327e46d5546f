"""Closing the team event (T-6.11): ``TeamEventClosed``, the chief referee's closing of an event
whose next round cannot be paired by the rules."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from ..violations import RuleViolation
from .event import CLOSING, Closed, TeamEvent
from .pairings import proposal
from .rounds import ended, played


def check_close(ev: TeamEvent, data: Mapping) -> None:
    """``TeamEventClosed`` (T-6.11): the chief referee closes the event early — after round 1
    at the earliest, once, every round paired played, and only when the next round cannot be
    paired by the rules (no pairing without a rematch, T-6.4) and no manual pairing is wanted.
    An event whose rounds are all played, or with fewer than two teams left, has ended by
    itself."""
    if ev.closed is not None:
        raise RuleViolation(CLOSING, "the event was already closed after round {after_round} "
                                     "({reason})",
                                     after_round=ev.closed.after_round, reason=ev.closed.reason)
    if not ev.rounds:
        raise RuleViolation(CLOSING, "no round has been paired: the event is closed after "
                                     "round 1 at the earliest")
    if not played(ev):
        waiting = [t for m in ev.rounds[-1].meetings for t in m.tables if t not in ev.results]
        raise RuleViolation(CLOSING, "round {round} is still being played ({waiting} without a "
                                     "result); the event is closed after a round has been "
                                     "played",
                                     round=len(ev.rounds), waiting=', '.join(waiting))
    over = ended(ev)
    if over is not None:
        raise RuleViolation(CLOSING, "the event has already ended after round {after_round} "
                                     "({reason})",
                                     after_round=over.after_round, reason=over.why)
    if proposal(ev) is None:
        raise RuleViolation(CLOSING, "round {round} can be paired by the rules (POST "
                                     "…/pairings): the chief referee closes the event early "
                                     "only when a round cannot be paired (T-6.4)",
                                     round=len(ev.rounds) + 1)


def record_close(ev: TeamEvent, data: Mapping) -> TeamEvent:
    return replace(ev, closed=Closed(len(ev.rounds), data["reason"]))
