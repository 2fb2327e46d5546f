"""MJO — 136-tile mahjong with the 2-5-8 pair (mahjong-ottawa.md): the preset, the match
settings, the coin payments of a hand, the session's balances and the ranking by coins.

Rules: MJO-7.1 (20 coins each), MJO-7.2 (the payment table), MJO-7.3 (negative balances are
bank loans), MJO-7.4 and tournaments.md T-8 (the session and its ranking), MJO-6.2 (a drawn
hand pays nothing), MJO-2.2 (the next dealer), MJO section 11 (settings).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from ..frozen import evolve
from ..violations import RuleViolation
from .dealer import Rotation, advance, start_rotation
from .hand import Hand
from .settings import (
    ENFORCEMENT,
    MJO_RULE_IDS,
    MULTIPLE_WINNERS,
    GameSettings,
    MatchKeys,
)
from .wall import SEATS

MJO = GameSettings(game="MJO", rule_ids=MJO_RULE_IDS)

# The keys a match may set (MJO section 11, T-8.2); the game's structure is fixed by the preset.
_KEYS = MatchKeys(
    choices={"enforcement": ENFORCEMENT, "multipleWinners": MULTIPLE_WINNERS},
    whole_numbers={"startingCoins": (0, 100_000), "claimWindowSeconds": (0, 60),
                   "sessionHands": (1, 10_000), "sessionMinutes": (1, 24 * 60),
                   "sessionRounds": (1, 100)},
    flags=("lastTileDiscard", "dealerRepeatsOnWin"))
MATCH_KEYS = _KEYS.names


def mjo_settings(raw: Mapping | None = None) -> GameSettings:
    """MJO section 11: the MJO preset with a match's ``MatchStarted.settings``; omitted keys
    take the defaults, an unknown key or a value out of range is refused."""
    raw = dict(raw or {})
    _KEYS.check(raw, MJO.rule("settings"))
    return evolve(MJO, **raw)


def win_payments(dealer: int, winner: int, discarder: int | None) -> tuple[int, ...]:
    """MJO-7.2: the coins each seat gains (+) or pays (−) for one win; ``discarder`` None for a
    self-draw. Dealer wins: on a discard the discarder pays 4 and the others 2 (+8); by
    self-draw each pays 4 (+12). Non-dealer wins: on a discard the dealer pays 2 and the other
    two 1 — the discarder pays only as his role (+4); by self-draw the dealer pays 4 and the
    other two 2 (+8)."""
    deltas = [0] * SEATS
    for seat in range(SEATS):
        if seat == winner:
            continue
        if winner == dealer:
            pay = 4 if discarder is None or seat == discarder else 2
        else:
            base = 2 if discarder is None else 1
            pay = 2 * base if seat == dealer else base
        deltas[seat] -= pay
        deltas[winner] += pay
    return tuple(deltas)


def hand_payments(hand: Hand) -> tuple[int, ...]:
    """MJO-7.2 / MJO-6.2: the coins of a finished hand per seat — each win settled on its own
    (MJO-4.4 ``all``: another winner pays like any loser); a drawn hand pays nothing."""
    rule = hand.settings.rule("payments")
    if not hand.over:
        raise RuleViolation(rule, "the hand is not over: nothing is paid yet ({rule_})",
                                  rule_=rule)
    totals = [0] * SEATS
    for win in hand.wins:
        for seat, delta in enumerate(win_payments(hand.dealer, win.seat, win.from_seat)):
            totals[seat] += delta
    return tuple(totals)


@dataclass(frozen=True)
class HandOutcome:
    """What ``HandCompleted`` reports (MJO section 10, row 9; MJS section 11, row 17):
    ``payments`` between the players, ``deductions`` lost to no one (MJS-10.6), the balances
    after them — changed by a ``tiebreak`` hand, which only orders tied players (T-7.4), by its
    penalties alone (T-7.6) — and the next dealer."""

    hand_no: int
    dealer: int
    result: str
    winners: tuple[int, ...]
    payments: tuple[int, ...]
    balances: tuple[int, ...]
    next_dealer: int
    deductions: tuple[int, ...] = (0,) * SEATS
    tiebreak: bool = False

    def to_dict(self) -> dict:
        return {"handNo": self.hand_no, "dealer": self.dealer, "result": self.result,
                "winners": list(self.winners),
                "payments": {str(s): n for s, n in enumerate(self.payments)},
                "balances": list(self.balances), "nextDealer": self.next_dealer}


@dataclass(frozen=True)
class Session:
    """A table's coin session (T-8): seat balances, the rotation of the deal, the hands done."""

    settings: GameSettings
    balances: tuple[int, ...]
    rotation: Rotation
    outcomes: tuple[HandOutcome, ...] = ()

    @property
    def dealer(self) -> int:
        return self.rotation.dealer

    @property
    def hand_no(self) -> int:
        """The number of the next hand, from 1."""
        return self.rotation.hands_played + 1


def start_session(settings: GameSettings, first_dealer: int) -> Session:
    """MJO-7.1: every player starts with ``startingCoins`` (20); the first dealer comes from
    the dice (MJO-2.1, :func:`.dealer.first_dealer`)."""
    return Session(settings, (settings.startingCoins,) * SEATS, start_rotation(first_dealer))


def hand_outcome(session: Session, hand: Hand) -> HandOutcome:
    """``HandCompleted`` (MJO-7.2, 7.3, 2.2): payments, the new signed balances — a player may
    go below zero, borrowing from the bank — and the next dealer."""
    if hand.dealer != session.dealer:
        rule = session.settings.rule("dealer")
        raise RuleViolation(rule, "the hand was dealt by seat {dealer}, but seat {dealer2} "
                                  "deals this hand ({rule_})",
                                  dealer=hand.dealer, dealer2=session.dealer, rule_=rule)
    payments = hand_payments(hand)
    balances = tuple(b + p for b, p in zip(session.balances, payments, strict=True))
    following = advance(session.rotation, hand.winners, session.settings)
    return HandOutcome(session.hand_no, hand.dealer, hand.result, hand.winners, payments,
                       balances, following.dealer)


def complete_hand(session: Session, hand: Hand, outcome: HandOutcome | None = None) -> Session:
    """The session after a finished hand (MJO-7.2, MJO-2.2) — scored by ``outcome`` when the
    game scores it otherwise (MJS: :func:`.sichuan.hand_outcome`)."""
    outcome = outcome or hand_outcome(session, hand)
    return evolve(session, balances=outcome.balances, outcomes=session.outcomes + (outcome,),
                   rotation=advance(session.rotation, hand.winners, session.settings))


def session_over(session: Session, time_limit_reached: bool = False) -> bool:
    """T-8.2: the session ends after ``sessionHands`` hands, after ``sessionRounds`` rounds of
    winds (T-7.2, MJS-1.4), or once the recorded time limit (``sessionMinutes``, posted by the
    timer) has passed; the hand in progress is always finished first, so this is asked between
    hands."""
    settings = session.settings
    if settings.sessionHands is not None and session.rotation.hands_played >= settings.sessionHands:
        return True
    if (settings.sessionRounds is not None
            and session.rotation.rounds_completed >= settings.sessionRounds):
        return True
    return settings.sessionMinutes is not None and time_limit_reached


@dataclass(frozen=True)
class Standing:
    place: int
    player: str
    coins: int
    tied: bool


def rank_by_coins(balances: Mapping[str, int], lots: Sequence[str] = (),
                  tiebreaks: Mapping[str, Sequence] = MappingProxyType({})
                  ) -> tuple[Standing, ...]:
    """MJO-7.4 / T-8.3: all players of the event ranked by final balance, most coins first
    (bank loans are negative balances). Equal balances share a place — ``tied`` — unless
    ``tiebreaks`` (per player, a sequence compared in order, higher first: the results of a
    final's extra hands, T-7.4, or dice, T-7.2) or ``lots`` (players in the order their lots
    were drawn) separate them."""
    drawn = {player: k for k, player in enumerate(lots)}

    def key(player: str) -> tuple:
        return (-balances[player], tuple(-x for x in tiebreaks.get(player, ())),
                drawn.get(player, len(drawn)))

    order = sorted(balances, key=key)
    keys = [key(p) for p in order]
    return tuple(Standing(place=keys.index(k) + 1, player=p, coins=balances[p],
                          tied=keys.count(k) > 1) for p, k in zip(order, keys, strict=True))
