"""One hand of Shengji (shengji-2deck.md §16, shengji-3deck.md §13): the value a hand is, and
what every phase of it checks the same way (the phase, the cards held).

A :class:`Hand` is a frozen value; each function of the phase modules takes it and one event's
data and returns the next value, or raises :class:`RuleViolation` naming the rule broken. The
same functions judge a new event and replay a stored one. Everything the spec calls *derived* (a
failed throw and its penalty, a trick's winner, a follow error established, the result row) is
computed from the events, never received.

The games differ as data (:class:`Variant`): the decks and sizes, the rule IDs cited, the
result table, and a few named switches for the rules SJ3 puts differently — reveals by count
until the kitty (SJ3-3), throws with a stated structure judged at 20 points with the next seat
designating (SJ3-7), the follow obligations of SJ3-8, reneges open until the next lead and
punished by the outcome (SJ3-11.2), the kitty hidden from the dealer once buried (SJ3-5.1).

The phases are folded by their own modules: ``dealing`` (the deal, declarations and overcalls,
trump fixed), ``kitty`` (taken, buried, corrected), ``tricks`` (leads, throws, follows, tricks
won, corrections and move times), ``irregularities`` (penalties, irregularities, voiding) and
``hand_result`` (the end of the hand and its result).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from types import MappingProxyType
from typing import Mapping

from ..messages import N_, Message
from ..violations import RuleViolation
from . import scoring
from .cards import Trump, missing_cards
from .combos import Component
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

    def rule(self, key: str) -> str:
        return self.rules[key]


SJ2 = Variant()


SJ3 = Variant(name="SJ3", decks=3, hand_size=39, kitty_size=6, rules=SJ3_RULES,
              result_scale=SJ3_RESULT_SCALE, reveals_by_count=True, stated_throws=True,
              renege_until_next_lead=True, outcome_penalties=True, kitty_correction=False,
              dealer_sees_buried_kitty=False, own_tricks_visible="last", no_trump=False,
              counts_first_drawer=True)


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
    void_reason: str | None = None  # a code, the rules' words (a Sentence) or the referee's
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


# --- what every phase checks alike ----------------------------------------------------------

# the phases by name, for messages ("hand 3 is in the burying phase")
_PHASE_NAMES = MappingProxyType({
    "declaring": Message("the declaring phase"),
    "awaiting_dealer": Message("the awaiting dealer phase"),
    "kitty": Message("the kitty phase"),
    "burying": Message("the burying phase"),
    "correcting_kitty": Message("the correcting kitty phase"),
    "playing": Message("the playing phase"),
    "completed": Message("the completed phase"),
    "voided": Message("the voided phase"),
})


def in_phase(h: Hand, event: str | Message, *phases: str) -> None:
    """An event comes only in the phases that take it (SJ2-16, SJ3-13). ``event`` is an event
    type, or what it does (``Message("a play")``)."""
    if h.phase not in phases:
        raise RuleViolation(h.variant.rule("lifecycle"),
                            "{event} cannot come now: hand {number} is in {phase}",
                            event=event, number=h.number, phase=_PHASE_NAMES[h.phase])


# what a seat cannot do with cards he does not hold, by ``must_hold``'s ``doing``
_CANNOT = MappingProxyType({
    "play": N_("seat {seat} does not hold {missing} and cannot play it"),
    "bury": N_("seat {seat} does not hold {missing} and cannot bury it"),
    "move to the kitty": N_("seat {seat} does not hold {missing} and cannot move to the kitty "
                            "it"),
})


def must_hold(h: Hand, seat: int, cards: tuple[str, ...], doing: str) -> None:
    """A player can only play cards he holds: refused in every enforcement mode. ``doing``:
    "play", "bury" or "move to the kitty"."""
    if len(cards) == 1 and cards[0] in h.hands[seat]:  # a single held (most plays)
        return
    missing = missing_cards(h.hands[seat], cards)
    if not missing:
        return
    most = h.variant.decks
    over = [card for card, n in Counter(cards).items() if n > most]
    if over:
        raise RuleViolation(h.variant.rule("deck"), "{card} appears {count} times; {most} "
                                                    "decks hold only {most}",
                                                    card=over[0], count=Counter(cards)[over[0]],
                                                    most=most)
    raise RuleViolation(h.variant.rule("lifecycle"), _CANNOT[doing],
                        seat=seat, missing=" ".join(missing))


def with_holding(hands: tuple, seat: int, cards) -> tuple:
    """The four holdings with ``seat``'s replaced by ``cards``."""
    return hands[:seat] + (tuple(cards),) + hands[seat + 1:]
