"""Score-sheet recording of a 掼蛋 match (match setting ``recording: "sheet"``, GD-14):
a scorer posts one ``GDHandResultRecorded`` row per hand — the going-out order and whether
anti-tribute freed the losers of the tribute — and the hand is completed by the same rules as a
hand played card by card (``match.completed``: GD-6 upgrade, the A rules, the match's end), so
the tribute of the next hand (GD-7.1), the bracket and the standings follow it unchanged.

**Interpretation (GD-14: the spec is silent on score sheets).** The row must be one the rules
make possible, else it is refused citing the rule it breaks: the hand number is the next hand's
(GD-12), the match is not over (GD-11.1); ``order`` is a permutation of the four seats, first
out to last (GD-5.4: a double down's losers are listed too, though they are not ranked, GD-5.6);
``antiTribute`` only in a hand that owes tribute (GD-7.5: by the previous hand's order, GD-7.1).
A sheet match has no cards: every card event is refused naming the setting, its hands hold no
cards to read or replay, and no time limit is fired by the server's timer (a sheet is often
entered after the round: a referee posts ``TimeLimitReached``).
"""
from __future__ import annotations

from collections.abc import Mapping

from ..frozen import evolve
from ..violations import RuleViolation
from .hand import OVER, GDHand
from .seats import is_finished
from .settings import GDSettings

RULE = "GD-14"
SETTING = "recording"
ROW_EVENT = "GDHandResultRecorded"


def not_by_sheet(settings: GDSettings, event_type: str) -> None:
    """A card event is refused in a match recorded from score sheets."""
    if settings.by_sheet:
        raise RuleViolation(RULE, 'setting {SETTING} is "sheet": this match is recorded from '
                                  "score sheets, one {ROW_EVENT} per hand; {event_type} "
                                  "records cards",
                                  SETTING=SETTING, ROW_EVENT=ROW_EVENT, event_type=event_type)


def by_sheet_only(settings: GDSettings) -> None:
    """A result row is refused in a match recorded card by card."""
    if not settings.by_sheet:
        raise RuleViolation(RULE, 'setting {SETTING} is "cards": this match\'s hands are '
                                  "recorded card by card and completed by their plays; "
                                  '{ROW_EVENT} is taken only with {SETTING} "sheet"',
                                  SETTING=SETTING, ROW_EVENT=ROW_EVENT)


def finished_hand(state: GDHand, data: Mapping) -> GDHand:
    """The hand state ``state`` (started at its level with its tribute plan, ``start_hand``)
    as the row says it ended: its going-out order as a played hand records it — up to the
    moment both players of a team are out (GD-5.6) — and the anti-tribute."""
    order = data["order"]
    if sorted(order) != [0, 1, 2, 3]:
        raise RuleViolation("GD-5.4", "order {order} must be a permutation of the four seats "
                                      "0-3, first out to last",
                                      order=list(order))
    anti = bool(data.get("antiTribute"))
    if anti and not state.plan.payers:
        raise RuleViolation("GD-7.5", "anti-tribute frees losers of their tribute: no tribute "
                                      "is due in this hand (GD-7.1)")
    out = next(order[:n] for n in range(2, 5) if is_finished(tuple(order[:n])))
    return evolve(state, phase=OVER, order=tuple(out), anti=state.plan.payers if anti else ())
