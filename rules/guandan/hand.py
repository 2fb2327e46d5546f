"""One hand of 掼蛋 as a fold: a frozen :class:`GDHand` and pure transitions
``(state, …) -> state`` for the input events of guandan.md section 12 — ``HandDealt``,
``AntiTributeDeclared``, ``TributePaid``, ``TributeAssigned`` (only when the winners choose),
``TributeReturned``, ``CardsPlayed`` and ``Passed``. :func:`apply` dispatches an event.

The engine's derived events are read off the state after each transition: ``anti`` (AntiTribute),
``assigned`` (TributeAssigned), ``phase == "play"`` with ``first_leader`` (ReturnsRevealed),
``last_trick`` (TrickEnded), ``order`` (PlayerFinished), ``phase == "over"`` (HandCompleted:
pass ``order`` to :func:`rules.guandan.levels.complete_hand`).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from ..frozen import evolve
from ..messages import N_
from .cards import (
    parse_card,
    parse_cards,
    parse_level,
    remove_cards,
    show,
    take_cards,
    violation,
)
from .combos import check_beats, classify_parsed
from .play import Trick, after_pass, after_play, check_pass, check_turn, public_counts
from .procedure import check_first_leader, check_hands
from .seats import is_finished
from .settings import GDSettings, settings_from
from .tribute import (
    TributePlan,
    anti_tribute,
    assign_tributes,
    assignment_needs_choice,
    check_return,
    check_tribute,
    describe_anti_tribute,
    first_leader,
    tribute_plan,
)

DEAL, TRIBUTE, RETURN, PLAY, OVER = "deal", "tribute", "return", "play", "over"
# GD-5.1: a play or pass before play has begun, by the stage the hand is at
_NOT_BEGUN = {DEAL: N_("play has not begun: the hand is at the deal stage"),
              TRIBUTE: N_("play has not begun: the hand is at the tribute stage"),
              RETURN: N_("play has not begun: the hand is at the return stage")}


@dataclass(frozen=True)
class GDHand:
    """The state of one hand (guandan.md section 12). ``paid``: payer → tribute card;
    ``assigned``: payer → receiver; ``returned``: receiver → card (hidden until all returns are in); ``order``: going-out
    order; ``plays``: number of plays so far; ``last_trick``: (next leader, 接风) when the last
    event ended a trick."""
    level: str
    plan: TributePlan
    settings: GDSettings
    phase: str = DEAL
    hands: tuple[tuple[str, ...], ...] = ((), (), (), ())
    anti: tuple[int, ...] = ()
    paid: Mapping[int, str] = field(default_factory=dict)
    assigned: Mapping[int, int] = field(default_factory=dict)
    returned: Mapping[int, str] = field(default_factory=dict)
    first_leader: int | None = None
    trick: Trick | None = None
    order: tuple[int, ...] = ()
    plays: int = 0
    last_trick: tuple[int, bool] | None = None

    @property
    def counts(self) -> tuple[int, ...]:
        return tuple(map(len, self.hands))

    def public_counts(self) -> dict[int, int]:
        """GD-5.7: the card counts the backend publishes (10 or fewer)."""
        return public_counts(self.counts)

    @property
    def turn(self) -> int | None:
        """GD-5.2: the seat to act, once play has begun."""
        return self.trick.turn if self.trick else None


def start_hand(level: str, previous_order: Iterable[int] | None = None,
               settings: GDSettings | Mapping | None = None) -> GDHand:
    """``HandStarted`` (GD-1.3, GD-7.1): a hand at ``level`` with the tribute case decided by the
    previous hand's going-out order (None for hand 1)."""
    conf = settings_from(settings)
    return GDHand(parse_level(level), tribute_plan(previous_order, conf), conf)


def _start_play(state: GDHand, leader: int, **changes) -> GDHand:
    """GD-5.1/7.7: play begins with ``leader`` on lead."""
    return evolve(state, phase=PLAY, first_leader=leader, trick=Trick(leader), **changes)


def deal(state: GDHand, hands: Iterable[Iterable[str]], marked_card: str | None = None,
         first_leader_seat: int | None = None) -> GDHand:
    """``HandDealt`` (GD-1.1, GD-8.2, GD-8.4, GD-7.5): check the deal; in hand 1 the holder of
    the marked card leads; later hands go to tribute unless there is none or anti-tribute
    (automatic by default) applies, in which case P1 leads."""
    if state.phase != DEAL:
        raise violation("GD-1.1", "this hand has already been dealt")
    hands = check_hands(hands)
    state = evolve(state, hands=hands)
    if state.plan.first is None:
        return _start_play(state, check_first_leader(hands, marked_card, first_leader_seat))
    if not state.plan.payers:
        return _start_play(state, state.plan.first)
    anti = anti_tribute(state.plan, hands)
    if anti and state.settings.anti_tribute_mode == "auto":
        return _start_play(state, state.plan.first, anti=anti)
    return evolve(state, phase=TRIBUTE)


def declare_anti_tribute(state: GDHand, seat: int) -> GDHand:
    """``AntiTributeDeclared`` (GD-7.5, ``antiTributeMode: optional``): a payer who has not paid
    refuses tribute by showing the big jokers — even when his partner has already paid, the seed
    (「输方每人各有一张大王或者一人有两张大王，可抗贡」) setting no moment for it; a tribute already
    paid stays with its payer (cards move only once all are in). P1 leads."""
    if state.phase != TRIBUTE or seat in state.paid or seat not in state.plan.payers:
        raise violation("GD-7.5", "seat {seat} cannot declare anti-tribute now: only a "
                                  "payer who has not paid, while tribute is being paid",
                                  seat=seat)
    anti = anti_tribute(state.plan, state.hands)
    if not anti:
        raise violation("GD-7.5", describe_anti_tribute(state.plan, state.hands))
    return _start_play(state, state.plan.first, anti=anti, paid={})


def _move(hands: tuple[tuple[str, ...], ...], giver: int, taker: int,
          card: str) -> tuple[tuple[str, ...], ...]:
    """One card passes from ``giver`` to ``taker``."""
    new = list(hands)
    new[giver] = remove_cards(new[giver], [card])
    new[taker] = tuple(sorted(new[taker] + (card,)))
    return tuple(new)


def _assign(state: GDHand, assigned: dict[int, int]) -> GDHand:
    """GD-7.3: the tributes go to their receivers; the returns are due."""
    hands = state.hands
    for payer, receiver in assigned.items():
        hands = _move(hands, payer, receiver, state.paid[payer])
    return evolve(state, phase=RETURN, assigned=assigned, hands=hands)


def _choice_pending(state: GDHand) -> bool:
    """GD-7.3: all tributes are in, equal, and the winners choose who receives which."""
    return assignment_needs_choice(state.plan, state.paid, state.level, state.settings)


def pay_tribute(state: GDHand, seat: int, card: str) -> GDHand:
    """``TributePaid`` (GD-7.1/7.2/7.5/7.6): a payer pays his highest card; when all are in the
    tributes are assigned (GD-7.3), unless the winners must still choose."""
    card = parse_card(card)
    if state.anti:
        raise violation("GD-7.5", "anti-tribute: seats {anti} showed the big jokers, "
                                  "so no tribute is paid this hand",
                                  anti=list(state.anti))
    if seat in state.paid:
        raise violation("GD-7.1", "seat {seat} has already paid", seat=seat)
    if state.phase != TRIBUTE:
        raise violation("GD-7.1", "seat {seat} owes no tribute now", seat=seat)
    check_tribute(state.plan, seat, card, state.hands[seat], state.level)
    state = evolve(state, paid={**state.paid, seat: card})
    if len(state.paid) < len(state.plan.payers) or _choice_pending(state):
        return state
    return _assign(state, assign_tributes(state.plan, state.paid, state.level, state.settings))


def choose_tribute_assignment(state: GDHand, seat: int, to_first: int) -> GDHand:
    """``TributeAssigned`` by a winner (GD-7.3, ``equalTributeAssignment: winnersChoose``):
    equal double-down tributes; ``to_first`` is the payer whose card goes to P1."""
    if state.phase != TRIBUTE or not _choice_pending(state):
        raise violation("GD-7.3", "there is no choice of tribute assignment to make now")
    if seat not in state.plan.receivers:
        raise violation("GD-7.3", "seat {seat} is not a winner; the winners choose",
                                  seat=seat)
    return _assign(state, assign_tributes(state.plan, state.paid, state.level, state.settings, to_first))


def return_tribute(state: GDHand, seat: int, card: str) -> GDHand:
    """``TributeReturned`` (GD-7.4): each receiver returns one card to his payer; when all are
    in they are shown and play begins with the leader of GD-7.7."""
    card = parse_card(card)
    payer = next((p for p, r in state.assigned.items() if r == seat), None)
    if state.phase != RETURN or payer is None or seat in state.returned:
        raise violation("GD-7.4", "seat {seat} owes no return card now",
                                  seat=seat)
    check_return(state.plan, seat, card, state.hands[seat], state.paid[payer], state.level,
                 state.settings)
    state = evolve(state, returned={**state.returned, seat: card})
    if len(state.returned) < len(state.assigned):
        return state
    hands = state.hands
    for payer, receiver in state.assigned.items():
        hands = _move(hands, receiver, payer, state.returned[receiver])
    return _start_play(state, first_leader(state.plan, state.paid, state.level), hands=hands)


def _check_playing(state: GDHand) -> str:
    """GD-5.1/5.6: plays and passes only while the hand is being played; the rule that governs
    whose turn it is (GD-5.1 hand 1's first lead, GD-7.7 a later first lead, else GD-5.2)."""
    if state.phase == OVER:
        raise violation("GD-5.6", "the hand is over: both players of a team are out")
    if state.phase != PLAY:
        raise violation("GD-5.1", _NOT_BEGUN[state.phase])
    if state.plays:
        return "GD-5.2"
    return "GD-5.1" if state.plan.first is None else "GD-7.7"


def play(state: GDHand, seat: int, cards: Iterable[str] | str,
         wild_as: Iterable[str] | None = None, read_as: str | None = None) -> GDHand:
    """``CardsPlayed`` (GD-5.2, GD-2.4, GD-3, GD-4, GD-5.4, GD-5.6): the player on turn plays
    cards he holds, making a combination under the stated (or inferred) reading — ``wild_as``,
    and ``read_as`` its type — that beats the top play; with his last card he goes out; the
    hand ends when a team is out."""
    if state.phase != PLAY or seat != state.trick.turn:  # the checks, when one must fail
        check_turn(state.trick, seat, _check_playing(state))
    cards = parse_cards(cards)
    if not cards:
        raise violation("GD-5.2", "seat {seat} plays no cards; to decline, pass",
                                  seat=seat)
    left, missing = take_cards(state.hands[seat], cards)
    if missing:
        raise violation("GD-5.2", "seat {seat} does not hold {show}",
                                  seat=seat, show=show(missing))
    # the cards are parsed above and the level when the hand started (start_hand)
    combo = classify_parsed(cards, state.level, wild_as, state.settings.full_house_joker_pair,
                            read_as)
    if state.trick.top is not None:
        check_beats(combo, state.trick.top, seat)
    hands = list(state.hands)
    hands[seat] = left
    # one new state for the whole step (a copy per change was most of a play's cost)
    changes = {"hands": tuple(hands), "plays": state.plays + 1, "last_trick": None}
    if not hands[seat]:
        changes["order"] = order = state.order + (seat,)
        if is_finished(order):
            return evolve(state, phase=OVER, trick=Trick(None, combo, seat), **changes)
    trick = after_play(state.trick, seat, combo, tuple(map(len, hands)))
    return evolve(state, trick=trick, **changes)


def pass_turn(state: GDHand, seat: int) -> GDHand:
    """``Passed`` (GD-5.2/5.3/5.5): the player on turn declines; when every other player still
    holding cards has passed, the author of the top play leads (or his partner, 接风)."""
    trick = state.trick
    if state.phase != PLAY or seat != trick.turn or trick.top is None:  # one check must fail
        check_pass(trick, seat, _check_playing(state))
    trick, ended = after_pass(trick, seat, tuple(map(len, state.hands)), state.settings.jiefeng)
    return evolve(state, trick=trick, last_trick=ended)


def apply(state: GDHand, event_type: str, seat: int | None, payload: Mapping) -> GDHand:
    """Section 12: the next state after one event of the hand (``seat`` = ``by.seat``). Derived and
    informational events (TrickEnded, PlayerFinished, TimeLimitExceeded, …) leave it unchanged."""
    if event_type == "HandDealt":
        return deal(state, payload["hands"], payload.get("markedCard"), payload.get("firstLeader"))
    if event_type == "AntiTributeDeclared":
        return declare_anti_tribute(state, seat)
    if event_type == "TributePaid":
        return pay_tribute(state, seat, payload["card"])
    if event_type == "TributeAssigned" and "toFirst" in payload:
        return choose_tribute_assignment(state, seat, payload["toFirst"])
    if event_type == "TributeReturned":
        return return_tribute(state, seat, payload["card"])
    if event_type == "CardsPlayed":
        return play(state, seat, payload["cards"], payload.get("wildAs"), payload.get("readAs"))
    if event_type == "Passed":
        return pass_turn(state, seat)
    return state
