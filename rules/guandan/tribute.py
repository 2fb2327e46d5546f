"""Tribute (进贡), anti-tribute (抗贡), return card (还贡) and the first lead (guandan.md GD-7).

From hand 2 the previous hand's going-out order decides who pays whom (:func:`tribute_plan`);
the newly dealt hands decide anti-tribute (:func:`anti_tribute`); each payer's card must be his
highest (:func:`tribute_choices`); double-down tributes are assigned by rank
(:func:`assign_tributes`); each receiver returns a card (:func:`return_choices`); and the first
leader follows (:func:`first_leader`).
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from ..messages import Message
from .cards import (
    BIG_JOKER,
    JOKERS,
    is_wildcard,
    natural_value,
    rank_of,
    show,
    sort_cards,
    value,
    violation,
)
from .seats import check_order, is_double_down, next_seat, partner
from .settings import GDSettings, settings_from

NO_TRIBUTE, DOUBLE_DOWN, SINGLE_DOWN, PARTNER_LAST = "none", "double", "single", "partnerLast"


@dataclass(frozen=True)
class TributePlan:
    """GD-7.1: the tribute case of a hand (``HandStarted.tributeCase``), its payers and receivers
    (P1, and P2 after a double down) and ``first``, the previous hand's P1 (None in hand 1)."""
    case: str = NO_TRIBUTE
    payers: tuple[int, ...] = ()
    receivers: tuple[int, ...] = ()
    first: int | None = None


def tribute_plan(previous_order: Iterable[int] | None,
                 settings: GDSettings | Mapping | None = None) -> TributePlan:
    """GD-7.1: who pays whom, from the previous hand's going-out order (None for hand 1).

    Double down → both losers pay, to P1 and P2 (assigned by GD-7.3); single down → P4 pays P1;
    P1 and P4 partners → setting ``tributeWhenPartnerLast``: P3 pays P1 (``thirdPays``, the
    default), P4 pays P1 (``lastPays``) or no tribute (``none``)."""
    if previous_order is None:
        return TributePlan()
    order = check_order(previous_order)
    p1 = order[0]
    if is_double_down(order):
        return TributePlan(DOUBLE_DOWN, (next_seat(p1), partner(next_seat(p1))), order[:2], p1)
    if order[2] == partner(p1):
        return TributePlan(SINGLE_DOWN, (order[3],), (p1,), p1)
    rule = settings_from(settings).tribute_when_partner_last
    if rule == "none":
        return TributePlan(NO_TRIBUTE, first=p1)
    return TributePlan(PARTNER_LAST, (order[2] if rule == "thirdPays" else order[3],), (p1,), p1)


def anti_tribute(plan: TributePlan, hands: tuple[tuple[str, ...], ...]) -> tuple[int, ...]:
    """GD-7.5: the payers who show big jokers when they hold both between them (double down:
    one each or one both; otherwise the single payer holds both) — no tribute then. Empty when
    there is no anti-tribute; one big joker alone never exempts (GD-7.6)."""
    holders = tuple(s for s in plan.payers if BIG_JOKER in hands[s])
    if plan.payers and sum(hands[s].count(BIG_JOKER) for s in plan.payers) == 2:
        return holders
    return ()


def tribute_choices(hand: Iterable[str], level: str) -> tuple[str, ...]:
    """GD-7.2/7.6: the cards a payer may pay — his highest by GD-2.1, any suit of that rank,
    never a heart level card."""
    cards = [c for c in hand if not is_wildcard(c, level)]
    if not cards:
        return ()
    top = max(value(c, level) for c in cards)
    return tuple(dict.fromkeys(sort_cards((c for c in cards if value(c, level) == top), level)))


def check_tribute(plan: TributePlan, seat: int, card: str, hand: Iterable[str], level: str) -> None:
    """GD-7.1/7.2/7.6: ``TributePaid`` by a payer of this hand with his highest card."""
    if seat not in plan.payers:
        if not plan.payers:
            raise violation("GD-7.1", "seat {seat} pays no tribute this hand: nobody pays "
                                      "tribute",
                                      seat=seat)
        raise violation("GD-7.1", "seat {seat} pays no tribute this hand: only seat(s) "
                                  "{payers} pay",
                                  seat=seat, payers=list(plan.payers))
    hand = tuple(hand)
    if is_wildcard(card, level):
        raise violation("GD-7.6", "seat {seat} offers {card}, a heart level card; "
                                  "those are never paid as tribute",
                                  seat=seat, card=card)
    if card not in hand:
        raise violation("GD-7.2", "seat {seat} does not hold {card}",
                                  seat=seat, card=card)
    allowed = tribute_choices(hand, level)
    if card not in allowed:
        raise violation("GD-7.2", "seat {seat} must pay his highest card other than a "
                                  "heart level card ({allowed}), not {card}",
                                  seat=seat, allowed=_either(allowed), card=card)


def _either(cards: tuple[str, ...]) -> str | Message:
    """"QH or QS": the cards one after another, "or" between them."""
    if not cards:
        return ""
    said = cards[0]
    for card in cards[1:]:
        said = Message("{cards} or {card}", cards=said, card=card)
    return said


def assign_tributes(plan: TributePlan, paid: Mapping[int, str], level: str,
                    settings: GDSettings | Mapping | None = None,
                    to_first: int | None = None) -> dict[int, int]:
    """GD-7.3: payer → receiver once every tribute is in. Single payer → P1. Double down: the
    higher card to P1, the lower to P2; equal ranks → setting ``equalTributeAssignment``:
    ``next(P1)`` gives to P1 (default) or the winners choose (``to_first``: the payer whose card
    goes to P1)."""
    if plan.case not in (DOUBLE_DOWN,):
        return {payer: plan.receivers[0] for payer in plan.payers}
    p1, p2 = plan.receivers
    a, b = plan.payers
    va, vb = value(paid[a], level), value(paid[b], level)
    if va != vb:
        high = a if va > vb else b
    elif settings_from(settings).equal_tribute_assignment == "rightSideToFirst":
        high = next_seat(p1)
    elif to_first in plan.payers:
        high = to_first
    else:
        raise violation("GD-7.3", "the tributes {paid_a} and {paid_b} are equal: the "
                                  "winners must name which payer ({a} or {b}) gives to "
                                  "seat {p1}",
                                  paid_a=paid[a], paid_b=paid[b], a=a, b=b, p1=p1)
    return {high: p1, (b if high == a else a): p2}


def assignment_needs_choice(plan: TributePlan, paid: Mapping[int, str], level: str,
                            settings: GDSettings | Mapping | None = None) -> bool:
    """GD-7.3: both double-down tributes are in, of equal rank, and the winners choose."""
    if plan.case != DOUBLE_DOWN or any(p not in paid for p in plan.payers):
        return False
    a, b = plan.payers
    return (value(paid[a], level) == value(paid[b], level)
            and settings_from(settings).equal_tribute_assignment == "winnersChoose")


def _low_cards(cards: list[str], level: str, rule: str) -> list[str]:
    """GD-7.4: the cards "10 or lower" — natural rank 2–10, and (``natural2to10NotLevel``) not a
    level card."""
    return [c for c in cards if c not in JOKERS and natural_value(rank_of(c)) <= 10
            and (rule == "natural2to10" or rank_of(c) != level)]


def return_choices(plan: TributePlan, hand: Iterable[str], tribute_card: str, level: str,
                   settings: GDSettings | Mapping | None = None) -> tuple[str, ...]:
    """GD-7.4: the cards a receiver (holding ``hand``, the tribute included) may return.
    Double down: any card. Otherwise a card "10 or lower" (setting ``returnSingle``) — or, with
    none, his lowest card — and, unless ``returnMayBeTributeCard``, not the tribute card itself
    (another copy of the same card is fine)."""
    hand = tuple(hand)
    if plan.case == DOUBLE_DOWN:
        return tuple(dict.fromkeys(sort_cards(hand, level)))
    conf = settings_from(settings)
    pool = Counter(hand)
    if not conf.return_may_be_tribute_card:
        pool[tribute_card] -= 1
    cards = list((+pool).elements())
    low = _low_cards(cards, level, conf.return_single)
    if not low and cards:
        bottom = min(value(c, level) for c in cards)
        low = [c for c in cards if value(c, level) == bottom]
    return tuple(dict.fromkeys(sort_cards(low, level)))


def check_return(plan: TributePlan, seat: int, card: str, hand: Iterable[str], tribute_card: str,
                 level: str, settings: GDSettings | Mapping | None = None) -> None:
    """GD-7.4: ``TributeReturned`` — the receiver returns an allowed card he holds."""
    hand = tuple(hand)
    if card not in hand:
        raise violation("GD-7.4", "seat {seat} does not hold {card}",
                                  seat=seat, card=card)
    allowed = return_choices(plan, hand, tribute_card, level, settings)
    if card in allowed:
        return
    conf = settings_from(settings)
    if card == tribute_card and hand.count(card) == 1 and not conf.return_may_be_tribute_card:
        raise violation("GD-7.4", "seat {seat} may not return {card}, the tribute card "
                                  "just received",
                                  seat=seat, card=card)
    if conf.return_single == "natural2to10":
        raise violation("GD-7.4", "seat {seat} must return a card of 10 or lower (2-10; his "
                                  "lowest card if he has none) — one of {show} — not {card}",
                                  seat=seat, show=show(allowed), card=card)
    raise violation("GD-7.4", "seat {seat} must return a card of 10 or lower (2-10, not a "
                              "level card; his lowest card if he has none) — one of {show} — "
                              "not {card}",
                              seat=seat, show=show(allowed), card=card)


def first_leader(plan: TributePlan, paid: Mapping[int, str], level: str,
                 anti: bool = False) -> int | None:
    """GD-7.7: who leads first. Anti-tribute → P1; double down → the payer of the higher card,
    equal → ``next(P1)``; single down / P1–P4 case → the payer. No tribute after hand 1
    (``tributeWhenPartnerLast: none``) → P1; hand 1 → None (the marked card decides, GD-8.2)."""
    if plan.first is None:
        return None
    if anti or plan.case == NO_TRIBUTE:
        return plan.first
    if plan.case == DOUBLE_DOWN:
        a, b = plan.payers
        va, vb = value(paid[a], level), value(paid[b], level)
        return next_seat(plan.first) if va == vb else (a if va > vb else b)
    return plan.payers[0]


def describe_anti_tribute(plan: TributePlan, hands: tuple[tuple[str, ...], ...]) -> Message:
    """Plain English for a refused anti-tribute declaration (GD-7.5). It says only that the rule
    does not hold: how many big jokers a partner holds is hidden information (README §5)."""
    if plan.payers:
        return Message("GD-7.5 does not hold: anti-tribute needs both big jokers with the "
                       "payer(s)")
    return Message("nobody pays tribute this hand")

