"""One hand of Shengji, event by event (shengji-2deck.md §16, shengji-3deck.md §13): deal,
declarations, the kitty, the tricks and the hand's result.

A :class:`Hand` is a frozen value; each function here takes it and one event's data and returns
the next value, or raises :class:`RuleViolation` naming the rule broken. The same functions judge
a new event and replay a stored one. Everything the spec calls *derived* (a failed throw and its
penalty, a trick's winner, a follow error established, the result row) is computed here from the
events, never received.

The games differ as data (:class:`Variant`): the decks and sizes, the rule IDs cited, the
result table, and a few named switches for the rules SJ3 puts differently — reveals by count
until the kitty (SJ3-3), throws with a stated structure judged at 20 points with the next seat
designating (SJ3-7), the follow obligations of SJ3-8, reneges open until the next lead and
punished by the outcome (SJ3-11.2), the kitty hidden from the dealer once buried (SJ3-5.1).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from types import MappingProxyType
from typing import Mapping

from ..frozen import evolve
from ..violations import RuleViolation
from . import declaring, obligations, scoring
from .cards import JOKERS, Trump, deck, missing_cards, points, remove_cards
from .combos import (
    Component,
    beatable_components,
    check_follow,
    check_lead,
    decompose,
    default_throw_choice,
    judge_mixed_lead,
    judge_throw,
    lead_components,
    must_play_lead_size,
    pair_count,
    shape_of,
    throw_options,
    trick_winner,
)
from .declaring import Bidding
from .scoring import SJ2_RESULT_SCALE, SJ3_RESULT_SCALE, ResultScale

SJ2_RULES = MappingProxyType({
    "deck": "SJ2-1.1", "deal": "SJ2-1.3", "lifecycle": "SJ2-16", "lead_turn": "SJ2-8.1",
    "follow_turn": "SJ2-9.1", "follow_count": "SJ2-9.1", "bury": "SJ2-6.1",
    "kitty_cut_off": "SJ2-4.8", "renege": "SJ2-12.4", "first_drawer": "SJ2-16",
})
SJ3_RULES = MappingProxyType({
    "deck": "SJ3-1.1", "deal": "SJ3-1.3", "lifecycle": "SJ3-13", "lead_turn": "SJ3-11.7",
    "follow_turn": "SJ3-11.7", "follow_count": "SJ3-8.1", "bury": "SJ3-5.1",
    "kitty_cut_off": "SJ3-3.6", "renege": "SJ3-11.2", "first_drawer": "SJ3-1.4",
})


@dataclass(frozen=True)
class Variant:
    """What differs between the Shengji games, as data: SJ2 plays two decks, 25 cards each and
    an 8-card kitty (SJ2-1.1, SJ2-1.3); SJ3 three decks, 39 each and 6 (SJ3-1.1, SJ3-1.3)."""
    name: str = "SJ2"
    decks: int = 2
    hand_size: int = 25
    kitty_size: int = 8
    rules: Mapping[str, str] = field(default_factory=lambda: SJ2_RULES, hash=False)
    result_scale: ResultScale = SJ2_RESULT_SCALE
    reveals_by_count: bool = False          # SJ3-3 (SJ2-4: pairs overcall, a window, lots)
    stated_throws: bool = False             # SJ3-7, SJ3-8 (SJ2-8, SJ2-9: canonical reading)
    renege_until_next_lead: bool = False    # SJ3-11.2 (SJ2-12.4: until the next card)
    outcome_penalties: bool = False         # SJ3-10, SJ3-11.2 (SJ2-11, SJ2-12.6: points)
    kitty_correction: bool = True           # SJ2-12.3 (SJ3: a wrong kitty is refused)
    dealer_sees_buried_kitty: bool = True   # SJ2-6.3 (SJ3-5.1: 「此后庄家不得查看」)
    own_tricks_visible: str = "all"         # SJ2-15.2 (SJ3-5.3: "last", 「可以查看自己上一圈的牌」)
    no_trump: bool = True                   # SJ2-3.2 (SJ3-2.2: 「不打无将牌」)
    counts_first_drawer: bool = False       # SJ3-1.3 / 1.4 (SJ2 records no drawing order)
    forfeit_by_ruling: bool = False         # SJ3-11.9: a disqualification forfeits the round

    def rule(self, key: str) -> str:
        return self.rules[key]


SJ2 = Variant()
SJ3 = Variant(name="SJ3", decks=3, hand_size=39, kitty_size=6, rules=SJ3_RULES,
              result_scale=SJ3_RESULT_SCALE, reveals_by_count=True, stated_throws=True,
              renege_until_next_lead=True, outcome_penalties=True, kitty_correction=False,
              dealer_sees_buried_kitty=False, own_tricks_visible="last", no_trump=False,
              counts_first_drawer=True, forfeit_by_ruling=True)

# Phases of a hand, in order. "awaiting_dealer" only in hand 1 without a declaration under
# firstHandNoDeclaration=lotDealer (SJ2-5.2); "correcting_kitty" only after a kitty error in
# record mode (SJ2-12.3). SJ3 goes from "declaring" to "burying" at KittyTaken, or through
# "kitty" when DeclarationWindowClosed ends the dealer's pause first (SJ3-3.6).
PHASES = ("declaring", "awaiting_dealer", "kitty", "burying", "correcting_kitty", "playing",
          "completed", "voided")

POINTS_PENALTY = 20  # SJ3-7.3, 11.5, 11.7, 11.8: 「一次扣罚20分」
# SJ3-11.8 (seed 二十三): burying and the first lead 60 s from KittyTaken, a lead 15 s from the
# end of the trick before, a follow, discard or trump 10 s from the play before
MOVE_SECONDS = MappingProxyType({"kitty": 60, "lead": 15, "follow": 10})


@dataclass(frozen=True)
class Trick:
    number: int
    leader: int
    plays: tuple[tuple[int, tuple[str, ...]], ...] = ()  # (seat, cards) in order of play
    throw: Mapping | None = None     # a failed throw: attempt, beaten, penalty, forced (SJ2-8.5)
    flagged: tuple[Mapping, ...] = ()  # record mode: follows that broke SJ2-9 / SJ3-8
    winner: int | None = None
    points: int = 0
    components: tuple[Component, ...] | None = None  # SJ3: the lead as stated (SJ3-6.6)

    @property
    def lead(self) -> tuple[str, ...]:
        return self.plays[0][1]

    @property
    def complete(self) -> bool:
        return len(self.plays) == 4

    @property
    def awaiting_choice(self) -> bool:
        """SJ3-7.3: a failed throw waits for the thrower's next seat to designate the play."""
        return not self.plays and self.throw is not None


@dataclass(frozen=True)
class Hand:
    number: int
    level: str                       # the level rank L of this hand (SJ2-2.2)
    dealer: int | None               # None in a first deal until the bids decide (SJ2-5.1, SJ3-4.1)
    settings: object                 # the game's settings (settings.py)
    variant: Variant
    dealt: tuple[tuple[str, ...], ...]   # the four hands as dealt
    dealt_kitty: tuple[str, ...]         # in dealt order (SJ2-1.4)
    hands: tuple[tuple[str, ...], ...]   # what each seat holds now
    kitty: tuple[str, ...]               # face down: as dealt, then as buried
    bidding: Bidding
    phase: str = "declaring"
    trump: Trump | None = None
    trump_source: str | None = None      # "declaration" | "kitty3" (SJ2-4.9); "reveal" | "kittyFirstNonJoker" (SJ3-3.7)
    tricks: tuple[Trick, ...] = ()       # completed tricks
    trick: Trick | None = None           # the trick in play
    pending: tuple[Mapping, ...] = ()    # plays that broke SJ2-9 / SJ3-8 and may still be corrected
    penalties: tuple[Mapping, ...] = ()
    follow_errors: tuple[Mapping, ...] = ()  # established (SJ2-12.4, SJ3-11.2)
    irregularities: tuple[Mapping, ...] = ()
    kitty_error: bool = False
    result: Mapping | None = None
    void_reason: str | None = None
    first_deal: bool = False             # the bids make the dealer (hand 1: SJ2-5.1, SJ3-4.1)
    first_drawer: int | None = None      # SJ3-1.3 / 1.4
    clock: datetime | None = None        # the last move a time limit counts from (SJ3-11.8)
    overrun_at: datetime | None = None   # the clock of the last wait reported overrun

    @property
    def dealer_side(self) -> str | None:
        return None if self.dealer is None else scoring.side_of(self.dealer)

    @property
    def defenders(self) -> str | None:
        return None if self.dealer is None else scoring.other_side(self.dealer_side)

    @property
    def in_play(self) -> bool:
        return self.phase not in ("completed", "voided")

    def turn(self) -> int | None:
        """Whose play it is (SJ2-8.1, SJ2-9.1), in the playing phase; None while a failed throw
        waits for its designator (SJ3-7.3)."""
        if self.phase != "playing":
            return None
        if self.trick is None:
            return self.tricks[-1].winner if self.tricks else self.dealer
        if self.trick.awaiting_choice:
            return None
        return scoring.next_seat(self.trick.plays[-1][0])


# --- the deal (SJ2-1, SJ3-1) ------------------------------------------------------------------

def deal(number: int, level: str, dealer: int | None, settings, variant: Variant,
         data: Mapping) -> Hand:
    """HandDealt: four hands and the ordered kitty, together exactly the decks of the variant
    (SJ2-1.1 / SJ3-1.1), 25 cards each and 8 in the kitty (SJ2-1.3), 39 and 6 (SJ3-1.3)."""
    hands = tuple(tuple(cards) for cards in data["hands"])
    kitty = tuple(data["kitty"])
    rule = variant.rule("deal")
    for seat, cards in enumerate(hands):
        if len(cards) != variant.hand_size:
            raise RuleViolation(rule, f"seat {seat} is dealt {len(cards)} cards; each player "
                                      f"receives {variant.hand_size}")
    if len(kitty) != variant.kitty_size:
        raise RuleViolation(rule, f"the kitty is dealt {len(kitty)} cards; it holds "
                                  f"{variant.kitty_size}")
    _must_be_the_decks([card for cards in hands for card in cards] + list(kitty), variant)
    if variant.reveals_by_count:
        bidding = declaring.bidding_for_reveals(level, settings.counterRevealRestartsPause)
    else:
        bidding = declaring.bidding_for_hand(level, settings.to_dict())
    return Hand(number=number, level=level, dealer=dealer, settings=settings, variant=variant,
                dealt=hands, dealt_kitty=kitty, hands=hands, kitty=kitty, bidding=bidding,
                first_deal=dealer is None, first_drawer=_first_drawer(variant, dealer, data))


def _must_be_the_decks(cards: list[str], variant: Variant) -> None:
    dealt, wanted = Counter(cards), deck(variant.decks)
    surplus, missing = dealt - wanted, wanted - dealt
    if surplus or missing:
        parts = []
        if surplus:
            parts.append("too many " + _counted(surplus, wanted))
        if missing:
            parts.append("missing " + " ".join(sorted(missing.elements())))
        raise RuleViolation(variant.rule("deck"), f"the deal is not exactly {variant.decks} "
                                                  "decks of 54 cards: " + "; ".join(parts))


def _counted(surplus, wanted) -> str:
    return ", ".join(f"{card} ×{surplus[card] + wanted[card]} (the decks hold {wanted[card]})"
                     for card in sorted(surplus))


# SJ3-1.4 Interpretation: the number a turned card counts (A = 1 … K = 13; a joker is turned again)
_COUNTS = {rank: n for n, rank in enumerate("A23456789TJQK", start=1)}


def first_drawer(turner: int, card: str) -> int:
    """SJ3-1.4 (「任意一家翻牌点，自他开始按逆时针方向来决定由谁先摸第一张牌」): counting from the
    player who turned up ``card`` as 1, the card's number names the first drawer —
    ``(turner + number − 1) mod 4``. A joker has no number: it is turned again."""
    if card in JOKERS:
        raise RuleViolation("SJ3-1.4", "a joker has no number: it is turned again")
    return (turner + _COUNTS[card[0]] - 1) % 4


def _first_drawer(variant: Variant, dealer: int | None, data: Mapping) -> int | None:
    """SJ3-1.3 / 1.4: the dealer draws first; in a first deal the card turned up decides
    (``turned_by`` and ``turned_card`` of HandDealt, informational)."""
    turned = [key for key in ("turned_by", "turned_card") if key in data]
    if turned and not variant.counts_first_drawer:
        raise RuleViolation(variant.rule("first_drawer"), f"{variant.name} deals have no card "
                                                          "turned up for the first drawer")
    if turned and dealer is not None:
        raise RuleViolation("SJ3-1.4", f"the dealer, seat {dealer}, draws first: a card is turned "
                                       "up only for the first deal of a match")
    if len(turned) == 1:
        raise RuleViolation("SJ3-1.4", "turned_by and turned_card come together: who turned up "
                                       "which card")
    if turned:
        return first_drawer(data["turned_by"], data["turned_card"])
    return dealer if variant.counts_first_drawer else None


# --- declarations and the kitty (SJ2-4, SJ2-5, SJ2-6; SJ3-3, SJ3-4, SJ3-5) -------------------

def _in_phase(h: Hand, event: str, *phases: str) -> None:
    if h.phase not in phases:
        raise RuleViolation(h.variant.rule("lifecycle"),
                            f"{event} cannot come now: hand {h.number} is in the "
                            f"{h.phase.replace('_', ' ')} phase")


_BEFORE_THE_KITTY = ("declaring", "awaiting_dealer", "kitty")


def _before_the_kitty(h: Hand, event: str) -> None:
    """SJ2-4.8 / SJ3-3.6: once the dealer has taken the kitty no one may declare or overcall."""
    if h.phase not in _BEFORE_THE_KITTY and h.in_play:
        raise RuleViolation(h.variant.rule("kitty_cut_off"),
                            f"the dealer has taken the kitty of hand {h.number}; "
                            f"{event} is no longer possible")
    _in_phase(h, event, *_BEFORE_THE_KITTY)


def declare(h: Hand, data: Mapping, at: datetime) -> Hand:
    """TrumpDeclared (SJ2-4.1, SJ3-3.1), or a declaration made at the same time as the standing
    one and disputed (SJ2-4.2: ``simultaneous``, then lots decide). Once the window has closed
    without a declaration, none is possible (SJ2-4.9). In SJ3 a reveal after the pause, before
    the kitty is taken, opens the window again (SJ3-3.6)."""
    _before_the_kitty(h, "a declaration")
    seat, card = data["seat"], data["card"]
    if h.variant.reveals_by_count:
        if data.get("simultaneous"):
            raise RuleViolation("SJ3-3.1", "the first to show a level card reveals "
                                           "(「谁先揭出该点数的牌」): there are no simultaneous reveals")
        h = _reopened(h) if h.phase == "kitty" else h
        return _bid(h, declaring.reveal(h.bidding, seat, card, h.hands[seat], at))
    if h.phase != "declaring" and h.bidding.standing is None:
        raise RuleViolation("SJ2-4.9", f"the window of hand {h.number} closed without a "
                                       "declaration: kitty card #3 fixed trump")
    decide = declaring.declare_simultaneous if data.get("simultaneous") else declaring.declare
    return _bid(h, decide(h.bidding, seat, card, h.hands[seat], at))


def overcall(h: Hand, data: Mapping, at: datetime) -> Hand:
    """TrumpOvercalled (SJ2-4.3 – 4.8; SJ3-3.2 – 3.5): until the dealer takes the kitty. In SJ2
    even after the window has closed (seed rule 4: the 15 s are the least wait, the kitty the
    cut-off), which opens it again — trump, and in hand 1 the dealer, are fixed at its next
    close. So in SJ3 after the dealer's pause (seed 004 〈4〉: no counter-reveal once the dealer
    has taken the kitty)."""
    _before_the_kitty(h, "an overcall")
    seat, cards = data["seat"], tuple(data["cards"])
    if h.variant.reveals_by_count:
        h = _reopened(h) if h.phase == "kitty" else h
        return _bid(h, declaring.counter_reveal(h.bidding, seat, cards, h.hands[seat], at,
                                                seize=h.first_deal))
    if h.phase == "kitty" and h.bidding.standing is not None:
        h = _reopened(h)
    return _bid(h, declaring.overcall(h.bidding, seat, cards, h.hands[seat], at))


def _bid(h: Hand, bidding: Bidding) -> Hand:
    return evolve(h, bidding=bidding)


def _reopened(h: Hand) -> Hand:
    """A bid after DeclarationWindowClosed, before KittyTaken (SJ2-4.8, SJ3-3.6): the window is
    open again; trump, and in a first deal the dealer, wait for its next close."""
    return evolve(h, bidding=declaring.reopen(h.bidding), phase="declaring", trump=None,
                   trump_source=None, dealer=None if h.first_deal else h.dealer)


def deal_completed(h: Hand, at: datetime) -> Hand:
    """DealCompleted (SJ2-4.7) starts the declaration window's clock; while lots between
    simultaneous declarations are pending, drawing is paused (SJ2-4.2). DrawingEnded (SJ3-3.6)
    starts the dealer's 5-second pause."""
    _in_phase(h, "the end of the deal", "declaring")
    declaring.must_not_await_lots(h.bidding)
    if h.variant.reveals_by_count and h.bidding.deal_completed_at is not None:
        raise RuleViolation("SJ3-3.6", "drawing has already ended")
    return _bid(h, declaring.deal_completed(h.bidding, at))


def close_window(h: Hand, at: datetime) -> Hand:
    """DeclarationWindowClosed (SJ2-4.7): trump is fixed (SJ2-4.9) and, in hand 1, the dealer
    (SJ2-5.1); hand 1 without any declaration is void or waits for lots (SJ2-5.2). SJ3:
    :func:`_close_reveals`."""
    _in_phase(h, "DeclarationWindowClosed", "declaring")
    if h.variant.reveals_by_count:
        return _close_reveals(h, at)
    bidding = declaring.close_window(h.bidding, at)
    suit, source = declaring.trump_at_close(bidding, h.dealt_kitty)
    h = evolve(h, bidding=bidding, trump=Trump(h.level, suit), trump_source=source)
    if h.dealer is not None:
        return evolve(h, phase="kitty")
    dealer = declaring.first_hand_dealer(bidding)
    if dealer is not None:
        return evolve(h, dealer=dealer, phase="kitty")
    if h.settings.firstHandNoDeclaration == "redeal":
        return evolve(h, phase="voided", void_reason="noDeclarationFirstHand")
    return evolve(h, phase="awaiting_dealer")


def lots(h: Hand, data: Mapping, at: datetime) -> Hand:
    """LotsDrawn in a hand: between simultaneous declarations (SJ2-4.2) or, in hand 1 without a
    declaration under lotDealer, for the dealer (SJ2-5.2)."""
    if data["purpose"] == "declaration":
        _in_phase(h, "lots between declarations", "declaring")
        return _bid(h, declaring.resolve_lots(h.bidding, data["candidates"], data["winner"]))
    _in_phase(h, "lots for the dealer", "awaiting_dealer")
    if sorted(data["candidates"]) != [0, 1, 2, 3]:
        raise RuleViolation("SJ2-5.2", "lots for the dealer are drawn among all four seats")
    if data["winner"] not in data["candidates"]:
        raise RuleViolation("SJ2-5.2", f"seat {data['winner']} is not one of the candidates")
    return evolve(h, dealer=data["winner"], phase="kitty")


def take_kitty(h: Hand, data: Mapping, at: datetime | None = None) -> Hand:
    """KittyTaken: the dealer picks up the kitty, only once the window has closed (SJ2-4.8), or
    in SJ3 after the 5-second pause, which fixes trump and, in a first deal, the dealer
    (SJ3-3.6, 3.7, 4.1) — unless DeclarationWindowClosed has fixed them at the pause's end.
    ``seat`` (default the dealer) names who took it: in SJ3 anyone else hands the deal over
    (SJ3-4.3)."""
    if h.variant.reveals_by_count:
        h = h if h.phase == "kitty" else _fix_at_kitty(h, at)
    else:
        declaring.must_be_closed_for_kitty(h.bidding)
        _in_phase(h, "KittyTaken", "kitty")
    taker = data.get("seat", h.dealer)
    if taker != h.dealer:
        if not h.variant.reveals_by_count:
            raise RuleViolation(h.variant.rule("lifecycle"), f"the dealer, seat {h.dealer}, "
                                                             f"takes the kitty, not seat {taker}")
        return _deal_transferred(h, taker)
    hands = _with(h.hands, h.dealer, h.hands[h.dealer] + h.kitty)
    return evolve(h, hands=hands, kitty=(), phase="burying")


def _fix_at_kitty(h: Hand, at: datetime | None) -> Hand:
    """SJ3-3.6, 3.7, 4.1: after the pause the reveals end; the standing reveal fixes trump and,
    in a first deal, the dealer; with none, the kitty's first non-joker card fixes trump — or,
    in a first deal (or under ``noRevealRule: redeal``), the hand must be dealt again."""
    _in_phase(h, "KittyTaken", "declaring")
    declaring.must_have_paused(h.bidding, _table_time(h, at))
    fixed = _fixed_by_reveals(h, declaring.close_at_kitty(h.bidding))
    if fixed is None:
        raise RuleViolation("SJ3-3.7", f"no one has revealed trump in hand {h.number}: there is "
                                       "no dealer or trump, and the hand is dealt again "
                                       "(HandVoided)")
    return fixed


def _table_time(h: Hand, at: datetime | None) -> datetime | None:
    """The pause is judged on the server's clock when it is the table's (strict); a scorer
    transcribing a physical table records at his own pace (None: not judged)."""
    return at if h.settings.strict else None


def _fixed_by_reveals(h: Hand, bidding: Bidding) -> Hand | None:
    """SJ3-3.7, 4.1: the standing reveal fixes trump and, in a first deal, the dealer; with none,
    the kitty's first non-joker card fixes trump — None when the hand must be dealt again (a
    first deal, or ``noRevealRule: redeal``)."""
    fixed = declaring.trump_at_kitty(bidding, h.dealt_kitty, h.first_deal, h.settings.noRevealRule)
    if fixed is None:
        return None
    suit, source = fixed
    dealer = h.dealer if h.dealer is not None else bidding.standing.seat
    return evolve(h, bidding=bidding, dealer=dealer, trump_source=source,
                   trump=Trump(h.level, suit, h.settings.trumpChainAdjacency))


def _close_reveals(h: Hand, at: datetime | None) -> Hand:
    """DeclarationWindowClosed in SJ3 (SJ3-3.6, the timer's at the end of the dealer's pause):
    trump is fixed as KittyTaken would fix it, and in a first deal the dealer (SJ3-3.7, 4.1);
    the dealer then takes the kitty. Nobody revealed in a first deal (or under ``noRevealRule:
    redeal``): the hand is void and dealt again (SJ3-3.7)."""
    bidding = declaring.close_pause(h.bidding, _table_time(h, at))
    fixed = _fixed_by_reveals(h, bidding)
    if fixed is None:
        return evolve(h, bidding=bidding, phase="voided",
                       void_reason="SJ3-3.7: no one revealed trump during the dealer's pause")
    return evolve(fixed, phase="kitty")


def _deal_transferred(h: Hand, taker: int) -> Hand:
    """SJ3-4.3 (「庄家不能让庄给其同伴…有意或无意让庄（拿完底牌为准）一旦成立，防家自动上台」):
    established when another seat has taken the kitty — refused in strict mode; in record mode
    the hand ends there (**Interpretation**): the defenders take the deal, no level changes."""
    if h.settings.strict:
        raise RuleViolation("SJ3-4.3", f"the dealer, seat {h.dealer}, takes the kitty; the deal "
                                       f"cannot be handed to seat {taker}")
    entry = {"rule": "SJ3-4.3", "seat": taker,
             "detail": f"seat {taker} took the kitty of dealer seat {h.dealer}: the defenders "
                       "take the deal"}
    result = {"ended": "dealTransfer", "rule": "SJ3-4.3", "final_outcome": 0,
              "result": scoring.result_of(0)}
    return evolve(h, irregularities=h.irregularities + (entry,), phase="completed",
                   result=result)


def bury_kitty(h: Hand, data: Mapping) -> Hand:
    """KittyBuried: the dealer buries 8 of his 33 cards (SJ2-6.1; any cards, SJ2-6.2), 6 of 45
    in SJ3 (SJ3-5.1). Another count is rejected in strict mode — and always in SJ3, which has no
    rule to correct it; in SJ2's record mode it is a kitty error (SJ2-12.3), to be put right by
    KittyCorrected before play."""
    _in_phase(h, "KittyBuried", "burying")
    cards = tuple(data["cards"])
    _must_hold(h, h.dealer, cards, "bury")
    size = h.variant.kitty_size
    if len(cards) != size and (h.settings.strict or not h.variant.kitty_correction):
        raise RuleViolation(h.variant.rule("bury"),
                            f"the dealer must bury exactly {size} cards, not {len(cards)}")
    h = evolve(h, hands=_with(h.hands, h.dealer, remove_cards(h.hands[h.dealer], cards)),
                kitty=cards)
    if len(cards) == size:
        return evolve(h, phase="playing")
    flag = {"rule": "SJ2-12.3", "seat": h.dealer, "detail": f"the dealer buried {len(cards)} "
                                                            f"cards instead of {size}"}
    return evolve(h, kitty_error=True, irregularities=h.irregularities + (flag,),
                   phase="correcting_kitty")


def correct_kitty(h: Hand, data: Mapping) -> Hand:
    """KittyCorrected (SJ2-12.3): the defenders draw the surplus from the kitty into the dealer's
    hand, or the shortfall from his hand into the kitty; then both hold the right count."""
    _in_phase(h, "KittyCorrected", "correcting_kitty")
    to_dealer, to_kitty = tuple(data["to_dealer"]), tuple(data["to_kitty"])
    if missing := missing_cards(h.kitty, to_dealer):
        raise RuleViolation("SJ2-12.3", f"the kitty does not hold {' '.join(missing)}")
    _must_hold(h, h.dealer, to_kitty, "move to the kitty")
    kitty = remove_cards(h.kitty, to_dealer) + to_kitty
    held = remove_cards(h.hands[h.dealer], to_kitty) + to_dealer
    if len(kitty) != h.variant.kitty_size or len(held) != h.variant.hand_size:
        raise RuleViolation("SJ2-12.3", f"after the correction the kitty must hold "
                                        f"{h.variant.kitty_size} cards and the dealer "
                                        f"{h.variant.hand_size}, not {len(kitty)} and {len(held)}")
    return evolve(h, kitty=kitty, hands=_with(h.hands, h.dealer, held), phase="playing")


# --- play (SJ2-8, SJ2-9, SJ2-10; SJ3-6 – SJ3-9) ----------------------------------------------

def play(h: Hand, data: Mapping) -> Hand:
    """CardsPlayed by the seat on turn: a lead (SJ2-8, SJ3-6/7) or a follow (SJ2-9, SJ3-8). A
    follow error left uncorrected is established when the next card is played (SJ2-12.4), or in
    SJ3 when the next trick is led (SJ3-11.2)."""
    _in_phase(h, "a play", "playing")
    seat, cards = data["seat"], tuple(data["cards"])
    _must_not_await_choice(h)
    _must_be_on_turn(h, seat)
    _must_hold(h, seat, cards, "play")
    structure = data.get("structure")
    _must_state_structure_only_when_leading(h, structure)
    if h.trick is None or not h.variant.renege_until_next_lead:
        h = _establish_pending(h)
    if h.trick is None:
        h = _lead(h, seat, cards, structure)
    else:
        h = _follow(h, seat, cards)
    return _after_play(h)


def _must_state_structure_only_when_leading(h: Hand, structure) -> None:
    """SJ3-6.6: only a lead states its structure (a follow is read by its best arrangement);
    SJ2-7.3: an SJ2 lead is read by its canonical decomposition."""
    if structure is None or (h.variant.stated_throws and h.trick is None):
        return
    if h.variant.stated_throws:
        raise RuleViolation("SJ3-6.6", "only a lead states a structure: a follow is read by its "
                                       "best arrangement")
    raise RuleViolation("SJ2-7.3", "an SJ2 lead is read by its canonical decomposition; it "
                                   "states no structure")


def _must_not_await_choice(h: Hand) -> None:
    if h.trick is not None and h.trick.awaiting_choice:
        throw = h.trick.throw
        raise RuleViolation("SJ3-7.3", f"seat {throw['designator']} must first designate what "
                                       f"seat {throw['seat']} plays for his failed throw "
                                       "(ThrowPenaltyChoice)")


def _must_be_on_turn(h: Hand, seat: int) -> None:
    turn = h.turn()
    if seat != turn:
        rule = h.variant.rule("lead_turn" if h.trick is None else "follow_turn")
        doing = "lead" if h.trick is None else "play"
        raise RuleViolation(rule, f"it is seat {turn}'s turn to {doing}, not seat {seat}'s")


def _must_hold(h: Hand, seat: int, cards: tuple[str, ...], doing: str) -> None:
    """A player can only play cards he holds: refused in every enforcement mode."""
    missing = missing_cards(h.hands[seat], cards)
    if not missing:
        return
    most = h.variant.decks
    over = [card for card, n in Counter(cards).items() if n > most]
    if over:
        raise RuleViolation(h.variant.rule("deck"), f"{over[0]} appears {Counter(cards)[over[0]]} "
                                                    f"times; {most} decks hold only {most}")
    raise RuleViolation(h.variant.rule("lifecycle"), f"seat {seat} does not hold "
                                                     f"{' '.join(missing)} and cannot {doing} it")


def _lead(h: Hand, seat: int, cards: tuple[str, ...], structure) -> Hand:
    """SJ2-8.2 one class; SJ2-8.3 – 8.5 a throw that fails is penalised and replaced by its
    lowest beatable component. A released lead is not taken back (SJ2-12.5): in record mode a
    lead that mixes classes is judged as a failed throw; in strict mode it is refused. SJ3:
    :func:`_stated_lead`."""
    if h.variant.stated_throws:
        return _stated_lead(h, seat, cards, structure)
    number = len(h.tricks) + 1
    played, throw = cards, None
    rule, verdict = _judge_lead(h, seat, cards)
    if verdict is not None and verdict.failed:
        played = verdict.forced
        throw = {**_throw_record(seat, cards, verdict), "rule": rule}
        if verdict.penalty_cards:
            h = evolve(h, penalties=h.penalties + (_throw_penalty(seat, verdict, number, rule),))
    trick = Trick(number, seat, plays=((seat, played),), throw=throw)
    return evolve(h, trick=trick, hands=_with(h.hands, seat, remove_cards(h.hands[seat], played)))


def _judge_lead(h: Hand, seat: int, cards: tuple[str, ...]):
    """(rule, verdict): a throw judged by SJ2-8.5, a mixed lead in record mode by SJ2-12.5; a
    single component needs no judgement (verdict None)."""
    if len(h.trump.classes(cards)) > 1 and not h.settings.strict:
        return "SJ2-12.5", judge_mixed_lead(cards, h.trump, _throw_checkers(h, seat))
    check_lead(cards, h.trump)
    if len(decompose(cards, h.trump)) > 1:
        return "SJ2-8.5", judge_throw(cards, h.trump, _throw_checkers(h, seat))
    return None, None


def _throw_checkers(h: Hand, seat: int) -> list[tuple[str, ...]]:
    """SJ2-8.4 / SJ3-7.2: the hands a throw is checked against (setting throwCheckAgainst)."""
    others = [s for s in range(4) if s != seat]
    if h.settings.throwCheckAgainst == "opponents":
        others = [s for s in others if scoring.side_of(s) != scoring.side_of(seat)]
    return [h.hands[s] for s in others]


def _throw_record(seat: int, attempt, verdict) -> dict:
    return {"seat": seat, "attempt": list(attempt),
            "beaten": [list(c.cards) for c in verdict.beaten],
            "penalty": 10 * verdict.penalty_cards, "forced": list(verdict.forced)}


def _throw_penalty(seat: int, verdict, trick_no: int, rule: str) -> dict:
    """SJ2-8.5 / SJ2-12.2 (and SJ2-12.5 for a wrong lead): 10 points per card of every beatable
    component, against the thrower's side."""
    what = "lead mixed classes" if rule == "SJ2-12.5" else "throw failed"
    return {"rule": rule, "side": scoring.side_of(seat), "points": 10 * verdict.penalty_cards,
            "trick": trick_no, "source": "engine",
            "reason": f"seat {seat}'s {what}: {len(verdict.beaten)} component(s) beatable"}


def _stated_lead(h: Hand, seat: int, cards: tuple[str, ...], structure) -> Hand:
    """SJ3-6.4, 6.5, 7: a lead is one component, or a throw whose structure is stated. A throw
    with a component an opponent could beat fails (甩错牌): 20 points against the thrower's side
    whatever its size, and the thrower's next seat designates, among the lowest component of each
    type stated, what he plays (SJ3-7.3); with one type there is no choice. Judged by the backend
    in both modes."""
    components = lead_components(cards, h.trump, structure)
    number = len(h.tricks) + 1
    beaten = beatable_components(components, h.trump, _throw_checkers(h, seat))
    if not beaten:
        trick = Trick(number, seat, plays=((seat, cards),), components=components)
        return evolve(h, trick=trick, hands=_with(h.hands, seat, remove_cards(h.hands[seat], cards)))
    options = throw_options(components)
    designator = scoring.next_seat(seat)
    penalty = {"rule": "SJ3-7.3", "side": scoring.side_of(seat), "points": POINTS_PENALTY,
               "trick": number, "source": "engine",
               "reason": f"seat {seat}'s throw failed: {len(beaten)} component(s) beatable"}
    throw = {"rule": "SJ3-7.3", "seat": seat, "attempt": list(cards),
             "structure": [list(c.cards) for c in components],
             "beaten": [list(c.cards) for c in beaten], "penalty": POINTS_PENALTY,
             "options": [list(o.cards) for o in options], "designator": designator,
             "forced": None, "chosen": None}
    h = evolve(h, penalties=h.penalties + (penalty,), trick=Trick(number, seat, throw=throw))
    if len(options) == 1:
        return _forced_lead(h, options[0], "only")
    return h


def _forced_lead(h: Hand, component: Component, how: str) -> Hand:
    """SJ3-7.3: the failed throw's designated component is led; the other cards stay in the
    thrower's hand."""
    trick, seat = h.trick, h.trick.throw["seat"]
    throw = {**trick.throw, "forced": list(component.cards), "chosen": how}
    trick = evolve(trick, plays=((seat, component.cards),), components=(component,), throw=throw)
    return evolve(h, trick=trick,
                   hands=_with(h.hands, seat, remove_cards(h.hands[seat], component.cards)))


def _options_of(h: Hand) -> tuple[Component, ...]:
    throw = h.trick.throw
    return throw_options(lead_components(throw["attempt"], h.trump, throw["structure"]))


def choose_throw_component(h: Hand, data: Mapping) -> Hand:
    """ThrowPenaltyChoice (SJ3-7.3): the thrower's next seat designates one of the options — the
    lowest component of a type stated in the failed throw."""
    _in_phase(h, "ThrowPenaltyChoice", "playing")
    if h.trick is None or not h.trick.awaiting_choice:
        raise RuleViolation("SJ3-7.3", "no failed throw is waiting for a designation")
    throw, seat = h.trick.throw, data["seat"]
    if seat != throw["designator"]:
        raise RuleViolation("SJ3-7.3", f"seat {throw['designator']}, the thrower's next seat, "
                                       f"designates the play, not seat {seat}")
    wanted = Counter(data["component"])
    for option in _options_of(h):
        if Counter(option.cards) == wanted:
            return _forced_lead(h, option, "designator")
    raise RuleViolation("SJ3-7.3", f"{' '.join(data['component'])} is not one of the options: "
                                   + "; ".join(" ".join(o) for o in throw["options"]))


def default_throw_component(h: Hand) -> Hand:
    """SJ3-7.3 **Interpretation**: the designator did not choose in time — the lowest single,
    else the smallest component, is led."""
    return _forced_lead(h, default_throw_choice(_options_of(h)), "default")


def _follow(h: Hand, seat: int, cards: tuple[str, ...]) -> Hand:
    """SJ2-9 / SJ3-8: a non-compliant follow is refused in strict mode; in record mode it is
    stored, flagged, and may be corrected before the next card is played (SJ2-12.4) or the next
    trick is led (SJ3-11.2). A wrong number of cards is refused in both modes."""
    flagged, pending = h.trick.flagged, h.pending
    must_play_lead_size(h.trick.lead, cards, h.trump, f"seat {seat}",
                        rule=h.variant.rule("follow_count"))
    try:
        _check_follow(h, h.trick, h.hands[seat], seat, cards)
    except RuleViolation as violation:
        if h.settings.strict:
            raise
        entry = {"seat": seat, "trick": h.trick.number,
                 "rule": violation.rule, "message": violation.message}
        flagged, pending = flagged + (entry,), pending + (entry,)
    trick = evolve(h.trick, plays=h.trick.plays + ((seat, cards),), flagged=flagged)
    return evolve(h, trick=trick, pending=pending,
                   hands=_with(h.hands, seat, remove_cards(h.hands[seat], cards)))


def _check_follow(h: Hand, trick: Trick, hand: tuple[str, ...], seat: int,
                  cards: tuple[str, ...]) -> None:
    player = f"seat {seat}"
    must_play_lead_size(trick.lead, cards, h.trump, player, rule=h.variant.rule("follow_count"))
    if h.variant.stated_throws:
        obligations.check_follow(trick.components, hand, cards, h.trump, player=player)
    else:
        check_follow(trick.lead, hand, cards, h.trump, player=player)


def _after_play(h: Hand) -> Hand:
    """SJ2-10 / SJ3-9: when the fourth play is in, the trick is won; after the last trick, the
    hand ends."""
    if h.trick is None or not h.trick.complete:
        return h
    trick = _judged(h.trick, h.trump)
    h = evolve(h, trick=None, tricks=h.tricks + (trick,))
    if any(h.hands):
        return h
    return _finish(_establish_pending(h))


def _judged(trick: Trick, trump: Trump) -> Trick:
    """SJ2-10.1 – 10.4 / SJ3-9: the winner and the trick's point cards."""
    return evolve(trick, winner=trick.plays[_winning_index(trick, trump)][0],
                   points=points(card for _, cards in trick.plays for card in cards))


def winning_so_far(trick: Trick, trump: Trump) -> int | None:
    """SJ2-10.3, §17: the seat whose play holds the trick in play so far."""
    if not trick.plays:
        return None
    return trick.plays[_winning_index(trick, trump)][0]


def _winning_index(trick: Trick, trump: Trump) -> int:
    """SJ2-10 by the key component; SJ3-9 (the tricks that carry their stated lead, SJ3-6.6) by
    the components in key order, seed 十六 「先比较拖拉机，三条，单张的级别大小」."""
    return trick_winner([cards for _, cards in trick.plays], trump, trick.components,
                        in_order=trick.components is not None)


def _establish_pending(h: Hand) -> Hand:
    """SJ2-12.4 / SJ3-11.2: follow errors not corrected in time are established."""
    if not h.pending:
        return h
    errors = tuple({**entry, "side": scoring.side_of(entry["seat"])} for entry in h.pending)
    return evolve(h, pending=(), follow_errors=h.follow_errors + errors)


def correct_play(h: Hand, data: Mapping) -> Hand:
    """PlayCorrected (SJ2-12.4, SJ3-11.2; record mode): a flagged follow, replaced by a legal one
    before the next card is played (SJ2) or the next trick is led (SJ3); the error then carries
    no penalty."""
    rule = h.variant.rule("renege")
    if h.settings.strict:
        raise RuleViolation(rule, "in strict mode an illegal play is refused when posted; "
                                  "there is nothing to correct")
    _in_phase(h, "PlayCorrected", "playing")
    if data.get("structure") is not None:
        raise RuleViolation(rule, "a correction replaces a follow; it states no structure")
    trick, reopened = _last_trick(h)
    seat, cards = data["seat"], tuple(data["cards"])
    entry = next((p for p in h.pending if p["seat"] == seat), None)
    if entry is None:
        when, which = ("the next trick is led", "play in this trick") \
            if h.variant.renege_until_next_lead else ("the next card is played", "last play")
        raise RuleViolation(rule, f"only a follow error can be corrected, before {when}; "
                                  f"seat {seat}'s {which} is not one")
    index = next(i for i, (s, _) in enumerate(trick.plays) if s == seat)
    before = _with(h.hands, seat, h.hands[seat] + trick.plays[index][1])
    _must_hold(evolve(h, hands=before), seat, cards, "play")
    _check_follow(h, trick, before[seat], seat, cards)
    flagged = tuple(f if f is not entry else {**f, "corrected": True} for f in trick.flagged)
    plays = trick.plays[:index] + ((seat, cards),) + trick.plays[index + 1:]
    trick = evolve(trick, plays=plays, flagged=flagged, winner=None, points=0)
    h = evolve(h, hands=_with(before, seat, remove_cards(before[seat], cards)),
                pending=tuple(p for p in h.pending if p is not entry))
    if reopened:  # the correction may change who won the trick just completed
        return evolve(h, tricks=h.tricks[:-1] + (_judged(trick, h.trump),))
    return evolve(h, trick=trick)


def _last_trick(h: Hand) -> tuple[Trick | None, bool]:
    """The trick holding the last play: the one in play, or the one just completed."""
    if h.trick is not None and h.trick.plays:
        return h.trick, False
    return (h.tricks[-1], True) if h.tricks else (None, False)


# --- time limits (SJ3-11.8, SJ3-7.3) ----------------------------------------------------------

def move_clock(h: Hand, at: datetime | None) -> Hand:
    """The time a move's limit counts from: KittyTaken (burying and the first lead), each play
    (the next follow, or the lead after a trick), a failed throw and its designation."""
    return evolve(h, clock=at)


def waiting_for(h: Hand) -> tuple[str, int, int] | None:
    """SJ3-11.8 / 7.3: the wait in progress — (kind, seat, seconds): "kitty" (the dealer buries
    and leads, 60 s), "lead" (15 s), "follow" (10 s), "throwChoice" (the designator,
    ``throwChoiceSeconds``); None when nobody is being waited for."""
    if h.phase == "burying" or (h.phase == "playing" and h.trick is None and not h.tricks):
        return "kitty", h.dealer, MOVE_SECONDS["kitty"]
    if h.phase != "playing":
        return None
    if h.trick is None:
        return "lead", h.turn(), MOVE_SECONDS["lead"]
    if h.trick.awaiting_choice:
        return "throwChoice", h.trick.throw["designator"], h.settings.throwChoiceSeconds
    return "follow", h.turn(), MOVE_SECONDS["follow"]


def overrun(h: Hand, data: Mapping, at: datetime | None) -> Hand:
    """SJ3TimeLimitExceeded: only a true report — the seat and kind of the wait in progress, once
    per wait, and in strict mode (the server's clock is the table's) not before the limit has
    passed. A designator's overrun plays the default (SJ3-7.3); the warning or penalty of a
    move's overrun is the match's (it counts per side, SJ3-11.8)."""
    kind, seat = data["kind"], data["seat"]
    rule = "SJ3-7.3" if kind == "throwChoice" else "SJ3-11.8"
    waiting = waiting_for(h)
    if waiting is None or waiting[:2] != (kind, seat):
        now = "nobody is being waited for" if waiting is None else \
            f"the wait in progress is seat {waiting[1]}'s {waiting[0]}"
        raise RuleViolation(rule, f"seat {seat} has no {kind} wait running: {now}")
    if h.overrun_at is not None and h.overrun_at == h.clock:
        raise RuleViolation(rule, f"seat {seat}'s overrun of this {kind} has already been "
                                  "reported")
    if h.settings.strict and at is not None and h.clock is not None and \
            at < h.clock + timedelta(seconds=waiting[2]):
        raise RuleViolation(rule, f"seat {seat} has {waiting[2]} s for the {kind}, until "
                                  f"{declaring._iso(h.clock + timedelta(seconds=waiting[2]))}")
    h = evolve(h, overrun_at=h.clock)
    if kind == "throwChoice":
        return move_clock(default_throw_component(h), at)
    return h


# --- penalties, irregularities, voiding -------------------------------------------------------

def assess_penalty(h: Hand, data: Mapping) -> Hand:
    """PenaltyAssessed by a referee: N points against a side (SJ2-12.1, SJ3-11.1)."""
    _in_phase(h, "a penalty", *PHASES[:6])
    return add_penalty(h, data["rule"], data["side"], data["points"], "referee",
                       data.get("reason"))


def add_penalty(h: Hand, rule: str, side: str, amount: int, source: str,
                reason: str | None) -> Hand:
    """A point penalty against ``side`` in this hand (SJ2-12.1, SJ3-11.1)."""
    penalty = {"rule": rule, "side": side, "points": amount,
               "trick": len(h.tricks) + (h.trick is not None), "source": source,
               "reason": reason}
    return evolve(h, penalties=h.penalties + (penalty,))


# SJ3 irregularities with a fixed consequence (SJ3-11): -20 points, or the outcome floor
_POINTS_IRREGULARITIES = ("SJ3-11.5", "SJ3-11.7")   # exposed card, out-of-turn play
_OUTCOME_IRREGULARITIES = ("SJ3-11.9",)              # light illicit signals


def report_irregularity(h: Hand, data: Mapping) -> Hand:
    """IrregularityReported: recorded with the hand. SJ2: a kitty error (SJ2-12.3) also sets the
    end-of-hand adjustment — only in record mode, since in strict mode the kitty is checked when
    it is buried; communication (SJ2-12.7) is left to the committee. SJ3 (in both modes: the
    referee saw it): an exposed card (SJ3-11.5) or an out-of-turn play (SJ3-11.7) costs 20
    points; light illicit signals (SJ3-11.9) put the offender's outcome floor on the hand; a card
    count mismatch (SJ3-11.6) stops the hand."""
    _in_phase(h, "an irregularity", *PHASES[:6])
    rule = data["rule"]
    if h.variant.outcome_penalties:
        return _sj3_irregularity(h, data)
    if rule == "SJ2-12.3" and h.settings.strict:
        raise RuleViolation("SJ2-12.3", "in strict mode the kitty is checked when it is buried; "
                                        "a kitty error cannot arise")
    if rule == "SJ2-12.3" and h.phase not in ("correcting_kitty", "playing"):
        raise RuleViolation("SJ2-12.3", "a kitty error is found in a buried kitty; this hand's "
                                        "kitty has not been buried yet")
    entry = {"rule": rule, "seat": data.get("seat"), "detail": data["detail"]}
    return evolve(h, irregularities=h.irregularities + (entry,),
                   kitty_error=h.kitty_error or rule == "SJ2-12.3")


# SJ3-13 row 13: the irregularities a referee reports, each with the consequence the engine
# applies (a deal handed over, SJ3-4.3, is recorded by KittyTaken; a renege, SJ3-11.2, is derived;
# time, SJ3-11.8, is the timer's SJ3TimeLimitExceeded; a disqualification a RulingRecorded)
_SJ3_REPORTED = tuple(sorted(_POINTS_IRREGULARITIES + ("SJ3-11.6",) + _OUTCOME_IRREGULARITIES))


def _sj3_irregularity(h: Hand, data: Mapping) -> Hand:
    rule, seat = data["rule"], data.get("seat")
    if rule == "SJ3-4.3":
        raise RuleViolation("SJ3-4.3", "a deal handed over is established by KittyTaken with the "
                                       "seat that took the kitty")
    if rule not in _SJ3_REPORTED:
        raise RuleViolation("SJ3-13", f"{rule} is not an irregularity a referee reports in SJ3: "
                                      f"IrregularityReported is for {', '.join(_SJ3_REPORTED)} "
                                      "(exposed card, card count mismatch, out-of-turn play, "
                                      "light illicit signals); other rulings are RulingRecorded "
                                      "or PenaltyAssessed")
    if "seat" in data and "seats" in data:
        raise RuleViolation(rule, "name the seat at fault (seat) or, for a card count "
                                  "mismatch, the seats whose count is wrong (seats), not both")
    if rule == "SJ3-11.6":
        return count_mismatch(h, data)
    if "seats" in data:
        raise RuleViolation(rule, f"an irregularity of {rule} names the one seat that committed "
                                  "it (seat); seats are for a card count mismatch (SJ3-11.6)")
    if seat is None:
        raise RuleViolation(rule, f"an irregularity of {rule} names the seat that committed it")
    entry = {"rule": rule, "seat": seat, "detail": data["detail"]}
    h = evolve(h, irregularities=h.irregularities + (entry,))
    if rule in _POINTS_IRREGULARITIES:
        what = "exposed a card" if rule == "SJ3-11.5" else "played out of turn"
        h = add_penalty(h, rule, scoring.side_of(seat), POINTS_PENALTY, "engine",
                        f"seat {seat} {what}")
    return h


def count_mismatch(h: Hand, data: Mapping) -> Hand:
    """SJ3-11.6 (「牌张数目不符，当比赛中途发现某家牌张数目不符，无错方升级。如双方均错，则重新该局比赛」):
    the hand stops; the side without fault levels up (**Interpretation:** +1 — dealer side at
    fault: the defenders take the deal and +1; defenders at fault: the dealer side +1); both at
    fault: the hand is void and dealt again, dealer and levels kept. **Interpretation:** in a
    first deal before the reveals have made a dealer there is no dealer side to level, so the
    deal is void and dealt again too. ``seats`` (or ``seat``) are the players whose count is
    wrong."""
    seats = sorted(set(data.get("seats") or ([data["seat"]] if data.get("seat") is not None else [])))
    if not seats:
        raise RuleViolation("SJ3-11.6", "a card count mismatch names the seat(s) whose count is "
                                        "wrong")
    entry = {"rule": "SJ3-11.6", "seat": seats[0] if len(seats) == 1 else None, "seats": seats,
             "detail": data["detail"]}
    h = evolve(h, irregularities=h.irregularities + (entry,))
    at_fault = sorted({scoring.side_of(s) for s in seats})
    if len(at_fault) == 2:
        return evolve(h, phase="voided", void_reason="SJ3-11.6: both sides' card counts are wrong")
    if h.dealer is None:
        return evolve(h, phase="voided", void_reason="SJ3-11.6: a card count is wrong before "
                                                      "the first dealer is known")
    faultless = scoring.other_side(at_fault[0])
    result = {"ended": "countMismatch", "rule": "SJ3-11.6", "sides_at_fault": at_fault,
              "faultless_side": faultless}
    final = 1 if faultless == h.dealer_side else -1
    return evolve(h, phase="completed", result={**result, "final_outcome": final,
                                                 "result": scoring.result_of(final)})


def void(h: Hand, data: Mapping) -> Hand:
    """HandVoided by a referee: the hand does not count and is dealt again."""
    _in_phase(h, "HandVoided", *PHASES[:6])
    return evolve(h, phase="voided", void_reason=data["reason"])


# --- the end of the hand (SJ2-11, SJ2-12.6, SJ2-13; SJ3-10, SJ3-11) ----------------------------

def _finish(h: Hand) -> Hand:
    """SJ2-12.6: P = trick points + kitty capture + point penalties; then the follow-error and
    kitty-error adjustments; then the table of SJ2-13.1. SJ3: :func:`_finish_by_outcome`."""
    if h.variant.outcome_penalties:
        return _finish_by_outcome(h)
    defenders = h.defenders
    trick_points = _defender_trick_points(h)
    last = h.tricks[-1]
    captured = scoring.side_of(last.winner) == defenders
    pairs = pair_count(_winning_play(last), h.trump) if captured else 0
    kitty_points = points(h.kitty)
    capture = scoring.kitty_capture(kitty_points, pairs, captured)
    penalty_points = _penalty_points(h)
    raw = trick_points + capture + penalty_points
    errors = [e["side"] for e in h.follow_errors]
    final, adjustments = scoring.final_points(raw, errors.count(defenders),
                                              errors.count(h.dealer_side), h.kitty_error)
    outcome = scoring.hand_result(final)
    result = {"trick_points": trick_points, "kitty_points": kitty_points,
              "kitty_captured": captured, "multiplier": scoring.kitty_multiplier(pairs)
              if captured else 0, "kitty_capture": capture, "penalty_points": penalty_points,
              "raw_points": raw, "adjustments": list(adjustments), "final_points": final,
              "result": outcome}
    return evolve(h, phase="completed", result=result)


def _defender_trick_points(h: Hand) -> int:
    """SJ2-11.1 / SJ3-10.1: point cards in the tricks the defenders won."""
    return sum(t.points for t in h.tricks if scoring.side_of(t.winner) == h.defenders)


def _penalty_points(h: Hand) -> int:
    """SJ2-12.1 / SJ3-11.1: against the defenders subtracts from P, against the dealer side adds."""
    return sum(p["points"] if p["side"] != h.defenders else -p["points"] for p in h.penalties)


def _winning_play(trick: Trick) -> tuple[str, ...]:
    return next(cards for seat, cards in trick.plays if seat == trick.winner)


def _capture_multiplier(h: Hand) -> int:
    """SJ3-10.2: only a defender winning the last trick with trump captures (「主牌才可以抠底」),
    multiplied by the type of the winning play's key component — the lead's key component, which
    the winning play was arranged into (SJ3-9.1); 0 when nothing is captured."""
    last = h.tricks[-1]
    play = _winning_play(last)
    if scoring.side_of(last.winner) != h.defenders or not all(map(h.trump.is_trump, play)):
        return 0
    key = shape_of(last.components).units
    return scoring.sj3_kitty_multiplier(*key[0]) if key else scoring.sj3_kitty_multiplier(1, 0)


def offending_sides(h: Hand) -> set[str]:
    """SJ3-11.2 / 11.9: the sides whose established renege or light illicit signals floor the
    outcome."""
    sides = {e["side"] for e in h.follow_errors}
    sides |= {scoring.side_of(i["seat"]) for i in h.irregularities
              if i["rule"] in _OUTCOME_IRREGULARITIES}
    return sides


def _finish_by_outcome(h: Hand) -> Hand:
    """SJ3-10, SJ3-11.2: P = the defenders' trick points + the kitty captured × its multiplier +
    point penalties (no floor); the normal outcome by the table of SJ3-10.3, then the renege
    floors (the hand is scored normally, 「比赛仍需继续（按正常计分法）」)."""
    trick_points = _defender_trick_points(h)
    multiplier = _capture_multiplier(h)
    kitty_points = points(h.kitty)
    penalty_points = _penalty_points(h)
    total = trick_points + kitty_points * multiplier + penalty_points
    normal = scoring.outcome(scoring.hand_result(total, h.variant.result_scale))
    offenders = offending_sides(h)
    final, floors = scoring.floored_outcome(normal, h.dealer_side in offenders,
                                            h.defenders in offenders)
    result = {"trick_points": trick_points, "kitty_points": kitty_points,
              "kitty_captured": multiplier > 0, "multiplier": multiplier,
              "kitty_capture": kitty_points * multiplier, "penalty_points": penalty_points,
              "points": total, "normal_outcome": normal, "outcome_floors": floors,
              "final_outcome": final, "result": scoring.result_of(final)}
    return evolve(h, phase="completed", result=result)


def _with(hands: tuple, seat: int, cards) -> tuple:
    return hands[:seat] + (tuple(cards),) + hands[seat + 1:]
