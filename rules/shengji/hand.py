"""One hand of Shengji, event by event (shengji-2deck.md §16): deal, declarations, the kitty,
twenty-five tricks and the hand's result.

A :class:`Hand` is a frozen value; each function here takes it and one event's data and returns
the next value, or raises :class:`RuleViolation` naming the rule broken. The same functions judge
a new event and replay a stored one. Everything the spec calls *derived* (a failed throw and its
penalty, a trick's winner, a follow error established, the result row) is computed here from the
events, never received.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Mapping

from ..violations import RuleViolation
from . import declaring, scoring
from .cards import Trump, deck, missing_cards, points, remove_cards
from .combos import (
    check_follow,
    check_lead,
    decompose,
    judge_mixed_lead,
    judge_throw,
    pair_count,
    trick_winner,
)
from .declaring import Bidding
from .settings import Settings


@dataclass(frozen=True)
class Variant:
    """What differs between the Shengji games as data: SJ2 plays two decks, 25 cards each and
    an 8-card kitty (SJ2-1.1, SJ2-1.3)."""
    name: str = "SJ2"
    decks: int = 2
    hand_size: int = 25
    kitty_size: int = 8


SJ2 = Variant()

# Phases of a hand, in order. "awaiting_dealer" only in hand 1 without a declaration under
# firstHandNoDeclaration=lotDealer (SJ2-5.2); "correcting_kitty" only after a kitty error in
# record mode (SJ2-12.3).
PHASES = ("declaring", "awaiting_dealer", "kitty", "burying", "correcting_kitty", "playing",
          "completed", "voided")


@dataclass(frozen=True)
class Trick:
    number: int
    leader: int
    plays: tuple[tuple[int, tuple[str, ...]], ...] = ()  # (seat, cards) in order of play
    throw: Mapping | None = None     # a failed throw: attempt, beaten, penalty, forced (SJ2-8.5)
    flagged: tuple[Mapping, ...] = ()  # record mode: follows that broke SJ2-9 (SJ2-12.4)
    winner: int | None = None
    points: int = 0

    @property
    def lead(self) -> tuple[str, ...]:
        return self.plays[0][1]

    @property
    def complete(self) -> bool:
        return len(self.plays) == 4


@dataclass(frozen=True)
class Hand:
    number: int
    level: str                       # the level rank L of this hand (SJ2-2.2)
    dealer: int | None               # None in hand 1 until the window closes (SJ2-5.1)
    settings: Settings
    variant: Variant
    dealt: tuple[tuple[str, ...], ...]   # the four hands as dealt
    dealt_kitty: tuple[str, ...]         # in dealt order (SJ2-1.4)
    hands: tuple[tuple[str, ...], ...]   # what each seat holds now
    kitty: tuple[str, ...]               # face down: as dealt, then as buried
    bidding: Bidding
    phase: str = "declaring"
    trump: Trump | None = None
    trump_source: str | None = None      # "declaration" | "kitty3" (SJ2-4.9)
    tricks: tuple[Trick, ...] = ()       # completed tricks
    trick: Trick | None = None           # the trick in play
    pending: Mapping | None = None       # the last play, if it broke SJ2-9 and may be corrected
    penalties: tuple[Mapping, ...] = ()
    follow_errors: tuple[Mapping, ...] = ()  # established (SJ2-12.4)
    irregularities: tuple[Mapping, ...] = ()
    kitty_error: bool = False
    result: Mapping | None = None
    void_reason: str | None = None

    @property
    def bid_decides_dealer(self) -> bool:
        """Hand 1: the standing bid at the window's close makes the dealer (SJ2-5.1)."""
        return self.number == 1

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
        """Whose play it is (SJ2-8.1, SJ2-9.1), in the playing phase."""
        if self.phase != "playing":
            return None
        if self.trick is None:
            return self.tricks[-1].winner if self.tricks else self.dealer
        return scoring.next_seat(self.trick.plays[-1][0])


# --- the deal (SJ2-1) -----------------------------------------------------------------------

def deal(number: int, level: str, dealer: int | None, settings: Settings, variant: Variant,
         data: Mapping) -> Hand:
    """HandDealt: four hands and the ordered kitty, together exactly the decks of the variant
    (SJ2-1.1), 25 cards each and 8 in the kitty (SJ2-1.3)."""
    hands = tuple(tuple(cards) for cards in data["hands"])
    kitty = tuple(data["kitty"])
    for seat, cards in enumerate(hands):
        if len(cards) != variant.hand_size:
            raise RuleViolation("SJ2-1.3", f"seat {seat} is dealt {len(cards)} cards; each player "
                                           f"receives {variant.hand_size}")
    if len(kitty) != variant.kitty_size:
        raise RuleViolation("SJ2-1.3", f"the kitty is dealt {len(kitty)} cards; it holds "
                                       f"{variant.kitty_size}")
    _must_be_the_decks([card for cards in hands for card in cards] + list(kitty), variant)
    bidding = declaring.bidding_for_hand(level, settings.to_dict())
    return Hand(number=number, level=level, dealer=dealer, settings=settings, variant=variant,
                dealt=hands, dealt_kitty=kitty, hands=hands, kitty=kitty, bidding=bidding)


def _must_be_the_decks(cards: list[str], variant: Variant) -> None:
    dealt, wanted = Counter(cards), deck(variant.decks)
    surplus, missing = dealt - wanted, wanted - dealt
    if surplus or missing:
        parts = []
        if surplus:
            parts.append("too many " + _counted(surplus, wanted))
        if missing:
            parts.append("missing " + " ".join(sorted(missing.elements())))
        raise RuleViolation("SJ2-1.1", f"the deal is not exactly {variant.decks} decks of 54 cards: "
                                       + "; ".join(parts))


def _counted(surplus, wanted) -> str:
    return ", ".join(f"{card} ×{surplus[card] + wanted[card]} (the decks hold {wanted[card]})"
                     for card in sorted(surplus))


# --- declarations and the kitty (SJ2-4, SJ2-5, SJ2-6) ----------------------------------------

def _in_phase(h: Hand, event: str, *phases: str) -> None:
    if h.phase not in phases:
        raise RuleViolation("SJ2-16", f"{event} cannot come now: hand {h.number} is in the "
                                      f"{h.phase.replace('_', ' ')} phase")


_BEFORE_THE_KITTY = ("declaring", "awaiting_dealer", "kitty")


def _before_the_kitty(h: Hand, event: str) -> None:
    """SJ2-4.8: once the dealer has taken the kitty no one may declare or overcall."""
    if h.phase not in _BEFORE_THE_KITTY and h.in_play:
        raise RuleViolation("SJ2-4.8", f"the dealer has taken the kitty of hand {h.number}; "
                                       f"{event} is no longer possible")
    _in_phase(h, event, *_BEFORE_THE_KITTY)


def declare(h: Hand, data: Mapping, at: datetime) -> Hand:
    """TrumpDeclared (SJ2-4.1), or a declaration made at the same time as the standing one and
    disputed (SJ2-4.2: ``simultaneous``, then lots decide). Once the window has closed without a
    declaration, none is possible (SJ2-4.9)."""
    _before_the_kitty(h, "a declaration")
    if h.phase != "declaring" and h.bidding.standing is None:
        raise RuleViolation("SJ2-4.9", f"the window of hand {h.number} closed without a "
                                       "declaration: kitty card #3 fixed trump")
    seat, card = data["seat"], data["card"]
    decide = declaring.declare_simultaneous if data.get("simultaneous") else declaring.declare
    return _bid(h, decide(h.bidding, seat, card, h.hands[seat], at))


def overcall(h: Hand, data: Mapping, at: datetime) -> Hand:
    """TrumpOvercalled (SJ2-4.3 – 4.8): until the dealer takes the kitty, even after the window
    has closed (seed rule 4: the 15 s are the least wait, the kitty the cut-off), which opens it
    again — trump, and in hand 1 the dealer, are fixed at its next close."""
    _before_the_kitty(h, "an overcall")
    seat, bidding = data["seat"], h.bidding
    if h.phase == "kitty" and bidding.standing is not None:
        bidding = declaring.reopen(bidding)
        h = replace(h, phase="declaring", trump=None, trump_source=None,
                    dealer=None if h.bid_decides_dealer else h.dealer)
    return _bid(h, declaring.overcall(bidding, seat, tuple(data["cards"]), h.hands[seat], at))


def _bid(h: Hand, bidding: Bidding) -> Hand:
    return replace(h, bidding=bidding)


def deal_completed(h: Hand, at: datetime) -> Hand:
    """DealCompleted starts the declaration window's clock (SJ2-4.7); while lots between
    simultaneous declarations are pending, drawing is paused (SJ2-4.2)."""
    _in_phase(h, "DealCompleted", "declaring")
    declaring.must_not_await_lots(h.bidding)
    return _bid(h, declaring.deal_completed(h.bidding, at))


def close_window(h: Hand, at: datetime) -> Hand:
    """DeclarationWindowClosed (SJ2-4.7): trump is fixed (SJ2-4.9) and, in hand 1, the dealer
    (SJ2-5.1); hand 1 without any declaration is void or waits for lots (SJ2-5.2)."""
    _in_phase(h, "DeclarationWindowClosed", "declaring")
    bidding = declaring.close_window(h.bidding, at)
    suit, source = declaring.trump_at_close(bidding, h.dealt_kitty)
    h = replace(h, bidding=bidding, trump=Trump(h.level, suit), trump_source=source)
    if h.dealer is not None:
        return replace(h, phase="kitty")
    dealer = declaring.first_hand_dealer(bidding)
    if dealer is not None:
        return replace(h, dealer=dealer, phase="kitty")
    if h.settings.firstHandNoDeclaration == "redeal":
        return replace(h, phase="voided", void_reason="noDeclarationFirstHand")
    return replace(h, phase="awaiting_dealer")


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
    return replace(h, dealer=data["winner"], phase="kitty")


def take_kitty(h: Hand) -> Hand:
    """KittyTaken: the dealer picks up the kitty, only once the window has closed (SJ2-4.8)."""
    declaring.must_be_closed_for_kitty(h.bidding)
    _in_phase(h, "KittyTaken", "kitty")
    hands = _with(h.hands, h.dealer, h.hands[h.dealer] + h.kitty)
    return replace(h, hands=hands, kitty=(), phase="burying")


def bury_kitty(h: Hand, data: Mapping) -> Hand:
    """KittyBuried: the dealer buries 8 of his 33 cards (SJ2-6.1; any cards, SJ2-6.2). Another
    count is rejected in strict mode; in record mode it is a kitty error (SJ2-12.3), to be put
    right by KittyCorrected before play."""
    _in_phase(h, "KittyBuried", "burying")
    cards = tuple(data["cards"])
    _must_hold(h, h.dealer, cards, "bury")
    size = h.variant.kitty_size
    h = replace(h, hands=_with(h.hands, h.dealer, remove_cards(h.hands[h.dealer], cards)),
                kitty=cards)
    if len(cards) == size:
        return replace(h, phase="playing")
    if h.settings.strict:
        raise RuleViolation("SJ2-6.1", f"the dealer must bury exactly {size} cards, not {len(cards)}")
    flag = {"rule": "SJ2-12.3", "seat": h.dealer, "detail": f"the dealer buried {len(cards)} "
                                                            f"cards instead of {size}"}
    return replace(h, kitty_error=True, irregularities=h.irregularities + (flag,),
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
    return replace(h, kitty=kitty, hands=_with(h.hands, h.dealer, held), phase="playing")


# --- play (SJ2-8, SJ2-9, SJ2-10) --------------------------------------------------------------

def play(h: Hand, data: Mapping) -> Hand:
    """CardsPlayed by the seat on turn: a lead (SJ2-8) or a follow (SJ2-9). A follow error left
    uncorrected is established when the next card is played (SJ2-12.4)."""
    _in_phase(h, "a play", "playing")
    seat, cards = data["seat"], tuple(data["cards"])
    _must_be_on_turn(h, seat)
    _must_hold(h, seat, cards, "play")
    h = _establish_pending(h)
    if h.trick is None:
        h = _lead(h, seat, cards)
    else:
        h = _follow(h, seat, cards)
    return _after_play(replace(h))


def _must_be_on_turn(h: Hand, seat: int) -> None:
    turn = h.turn()
    if seat != turn:
        rule = "SJ2-8.1" if h.trick is None else "SJ2-9.1"
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
        raise RuleViolation("SJ2-1.1", f"{over[0]} appears {Counter(cards)[over[0]]} times; "
                                       f"{most} decks hold only {most}")
    raise RuleViolation("SJ2-16", f"seat {seat} does not hold {' '.join(missing)} and cannot "
                                  f"{doing} it")


def _lead(h: Hand, seat: int, cards: tuple[str, ...]) -> Hand:
    """SJ2-8.2 one class; SJ2-8.3 – 8.5 a throw that fails is penalised and replaced by its
    lowest beatable component. A released lead is not taken back (SJ2-12.5): in record mode a
    lead that mixes classes is judged as a failed throw; in strict mode it is refused."""
    number = len(h.tricks) + 1
    trick, played = Trick(number, seat), cards
    rule, verdict = _judge_lead(h, seat, cards)
    if verdict is not None and verdict.failed:
        played = verdict.forced
        trick = replace(trick, throw={**_throw_record(seat, cards, verdict), "rule": rule})
        if verdict.penalty_cards:
            h = replace(h, penalties=h.penalties + (_throw_penalty(seat, verdict, number, rule),))
    trick = replace(trick, plays=((seat, played),))
    return replace(h, trick=trick, hands=_with(h.hands, seat, remove_cards(h.hands[seat], played)))


def _judge_lead(h: Hand, seat: int, cards: tuple[str, ...]):
    """(rule, verdict): a throw judged by SJ2-8.5, a mixed lead in record mode by SJ2-12.5; a
    single component needs no judgement (verdict None)."""
    if len({h.trump.card_class(card) for card in cards}) > 1 and not h.settings.strict:
        return "SJ2-12.5", judge_mixed_lead(cards, h.trump, _throw_checkers(h, seat))
    check_lead(cards, h.trump)
    if len(decompose(cards, h.trump)) > 1:
        return "SJ2-8.5", judge_throw(cards, h.trump, _throw_checkers(h, seat))
    return None, None


def _throw_checkers(h: Hand, seat: int) -> list[tuple[str, ...]]:
    """SJ2-8.4: the hands a throw is checked against (setting throwCheckAgainst)."""
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


def _follow(h: Hand, seat: int, cards: tuple[str, ...]) -> Hand:
    """SJ2-9: a non-compliant follow is refused in strict mode; in record mode it is stored,
    flagged, and may be corrected before the next card is played (SJ2-12.4)."""
    flagged, pending = h.trick.flagged, None
    try:
        check_follow(h.trick.lead, h.hands[seat], cards, h.trump, player=f"seat {seat}")
    except RuleViolation as violation:
        if h.settings.strict or violation.rule == "SJ2-9.1":
            raise
        pending = {"seat": seat, "trick": h.trick.number,
                   "rule": violation.rule, "message": violation.message}
        flagged = flagged + (pending,)
    trick = replace(h.trick, plays=h.trick.plays + ((seat, cards),), flagged=flagged)
    return replace(h, trick=trick, pending=pending,
                   hands=_with(h.hands, seat, remove_cards(h.hands[seat], cards)))


def _after_play(h: Hand) -> Hand:
    """SJ2-10: when the fourth play is in, the trick is won; after the last trick, the hand ends."""
    if not h.trick.complete:
        return h
    trick = _judged(h.trick, h.trump)
    h = replace(h, trick=None, tricks=h.tricks + (trick,))
    if any(h.hands):
        return h
    return _finish(_establish_pending(h))


def _judged(trick: Trick, trump: Trump) -> Trick:
    """SJ2-10.1 – 10.4: the winner and the trick's point cards."""
    index = trick_winner([cards for _, cards in trick.plays], trump)
    return replace(trick, winner=trick.plays[index][0],
                   points=points(card for _, cards in trick.plays for card in cards))


def winning_so_far(trick: Trick, trump: Trump) -> int:
    """SJ2-10.3, §17: the seat whose play holds the trick in play so far."""
    return trick.plays[trick_winner([cards for _, cards in trick.plays], trump)][0]


def _establish_pending(h: Hand) -> Hand:
    """SJ2-12.4: a follow error not corrected before the next play is established."""
    if h.pending is None:
        return h
    error = {**h.pending, "side": scoring.side_of(h.pending["seat"])}
    return replace(h, pending=None, follow_errors=h.follow_errors + (error,))


def correct_play(h: Hand, data: Mapping) -> Hand:
    """PlayCorrected (SJ2-12.4, record mode): the last follow, replaced by a legal one before the
    next card is played; the flagged error then carries no penalty."""
    if h.settings.strict:
        raise RuleViolation("SJ2-12.4", "in strict mode an illegal play is refused when posted; "
                                        "there is nothing to correct")
    _in_phase(h, "PlayCorrected", "playing")
    trick, reopened = _last_trick(h)
    seat, cards = data["seat"], tuple(data["cards"])
    if h.pending is None or h.pending["seat"] != seat:
        raise RuleViolation("SJ2-12.4", f"only a follow error can be corrected, before the next "
                                        f"card is played; seat {seat}'s last play is not one")
    before = _with(h.hands, seat, h.hands[seat] + trick.plays[-1][1])
    _must_hold(replace(h, hands=before), seat, cards, "play")
    check_follow(trick.lead, before[seat], cards, h.trump, player=f"seat {seat}")
    flagged = tuple(f if f is not h.pending else {**f, "corrected": True} for f in trick.flagged)
    trick = replace(trick, plays=trick.plays[:-1] + ((seat, cards),), flagged=flagged,
                    winner=None, points=0)
    h = replace(h, hands=_with(before, seat, remove_cards(before[seat], cards)), pending=None)
    if reopened:  # the correction may change who won the trick just completed
        return replace(h, tricks=h.tricks[:-1] + (_judged(trick, h.trump),))
    return replace(h, trick=trick)


def _last_trick(h: Hand) -> tuple[Trick | None, bool]:
    """The trick holding the last play: the one in play, or the one just completed."""
    if h.trick is not None:
        return h.trick, False
    return (h.tricks[-1], True) if h.tricks else (None, False)


# --- penalties, irregularities, voiding -------------------------------------------------------

def assess_penalty(h: Hand, data: Mapping) -> Hand:
    """PenaltyAssessed by a referee: N points against a side (SJ2-12.1)."""
    _in_phase(h, "a penalty", *PHASES[:6])
    penalty = {"rule": data["rule"], "side": data["side"], "points": data["points"],
               "trick": len(h.tricks) + (h.trick is not None), "source": "referee",
               "reason": data.get("reason")}
    return replace(h, penalties=h.penalties + (penalty,))


def report_irregularity(h: Hand, data: Mapping) -> Hand:
    """IrregularityReported: recorded with the hand; a kitty error (SJ2-12.3) also sets the
    end-of-hand adjustment — only in record mode, since in strict mode the kitty is checked when
    it is buried; communication (SJ2-12.7) is left to the committee."""
    _in_phase(h, "an irregularity", *PHASES[:6])
    if data["rule"] == "SJ2-12.3" and h.settings.strict:
        raise RuleViolation("SJ2-12.3", "in strict mode the kitty is checked when it is buried; "
                                        "a kitty error cannot arise")
    if data["rule"] == "SJ2-12.3" and h.phase not in ("correcting_kitty", "playing"):
        raise RuleViolation("SJ2-12.3", "a kitty error is found in a buried kitty; this hand's "
                                        "kitty has not been buried yet")
    entry = {"rule": data["rule"], "seat": data.get("seat"), "detail": data["detail"]}
    return replace(h, irregularities=h.irregularities + (entry,),
                   kitty_error=h.kitty_error or data["rule"] == "SJ2-12.3")


def void(h: Hand, data: Mapping) -> Hand:
    """HandVoided by a referee: the hand does not count and is dealt again."""
    _in_phase(h, "HandVoided", *PHASES[:6])
    return replace(h, phase="voided", void_reason=data["reason"])


# --- the end of the hand (SJ2-11, SJ2-12.6, SJ2-13) ----------------------------------------------

def _finish(h: Hand) -> Hand:
    """SJ2-12.6: P = trick points + kitty capture + point penalties; then the follow-error and
    kitty-error adjustments; then the table of SJ2-13.1."""
    defenders = h.defenders
    trick_points = sum(t.points for t in h.tricks if scoring.side_of(t.winner) == defenders)
    last = h.tricks[-1]
    captured = scoring.side_of(last.winner) == defenders
    winning_play = next(cards for seat, cards in last.plays if seat == last.winner)
    pairs = pair_count(winning_play, h.trump) if captured else 0
    kitty_points = points(h.kitty)
    capture = scoring.kitty_capture(kitty_points, pairs, captured)
    penalty_points = sum(p["points"] if p["side"] != defenders else -p["points"]
                         for p in h.penalties)
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
    return replace(h, phase="completed", result=result)


def _with(hands: tuple, seat: int, cards) -> tuple:
    return hands[:seat] + (tuple(cards),) + hands[seat + 1:]
