"""Playing a hand: turns, passing, the end of a trick, 接风, going out, 报牌 (guandan.md GD-5).

A trick is a frozen :class:`Trick`; :func:`after_play` and :func:`after_pass` return the next one.
``counts`` is always the tuple of the four players' card counts *after* the event.
"""
from __future__ import annotations

from dataclasses import dataclass

from .cards import violation
from .combos import Combination
from .seats import partner

ANNOUNCE_AT = 10  # GD-5.7: counts of 10 or fewer are announced


@dataclass(frozen=True)
class Trick:
    """GD-5.2/5.3: whose turn it is (None once the hand is over), the top play and its author
    (None at a new lead), and the seats that passed since the top play."""
    turn: int | None
    top: Combination | None = None
    top_seat: int | None = None
    passed: frozenset[int] = frozenset()

    @property
    def is_lead(self) -> bool:
        return self.top is None


def next_to_act(seat: int, counts: tuple[int, ...]) -> int | None:
    """GD-5.2: the next seat after ``seat``, in seat order, that still holds cards (a player who
    is out is skipped)."""
    for step in (1, 2, 3):
        other = (seat + step) % 4
        if counts[other] > 0:
            return other
    return None


def check_turn(trick: Trick, seat: int, rule: str = "GD-5.2") -> None:
    """GD-5.2: only the player on turn plays or passes (``rule`` GD-5.1 / GD-7.7 for the first
    lead of a hand)."""
    if seat != trick.turn:
        if trick.is_lead:
            raise violation(rule, "it is seat {turn}'s turn to lead, not seat {seat}'s",
                                  turn=trick.turn, seat=seat)
        raise violation(rule, "it is seat {turn}'s turn to play or pass, not seat {seat}'s",
                              turn=trick.turn, seat=seat)


def check_pass(trick: Trick, seat: int, rule: str = "GD-5.2") -> None:
    """GD-5.2: the player on turn may pass, except the leader of a new trick."""
    check_turn(trick, seat, rule)
    if trick.is_lead:
        raise violation("GD-5.2", "seat {seat} leads a new trick and must play a "
                                  "combination; a leader cannot pass",
                                  seat=seat)


def after_play(trick: Trick, seat: int, combo: Combination, counts: tuple[int, ...]) -> Trick:
    """GD-5.2: the play becomes the top play; passes start again; the next player still holding
    cards is on turn."""
    return Trick(next_to_act(seat, counts), combo, seat, frozenset())


def trick_over(trick: Trick, counts: tuple[int, ...]) -> bool:
    """GD-5.3: every other player still holding cards has passed since the top play."""
    return _all_passed(trick.top_seat, trick.passed, counts)


def _all_passed(top_seat: int | None, passed: frozenset[int], counts: tuple[int, ...]) -> bool:
    if top_seat is None:
        return False
    return all(s in passed for s in range(4) if s != top_seat and counts[s] > 0)


def next_leader(top_seat: int, counts: tuple[int, ...], jiefeng: bool = True) -> tuple[int, bool]:
    """GD-5.3/5.5: (leader of the next trick, whether by 接风). The author of the top play
    leads; if he is out, his partner leads (接风, setting ``jiefeng``; without it the next
    player still holding cards)."""
    if counts[top_seat] > 0:
        return top_seat, False
    if jiefeng and counts[partner(top_seat)] > 0:
        return partner(top_seat), True
    return next_to_act(top_seat, counts), False


def after_pass(trick: Trick, seat: int, counts: tuple[int, ...],
               jiefeng: bool = True) -> tuple[Trick, tuple[int, bool] | None]:
    """GD-5.2/5.3/5.5: the next trick state after ``seat`` passes, and — when the pass ends the
    trick — (next leader, 接风) as for ``TrickEnded``."""
    passed, top_seat = trick.passed | {seat}, trick.top_seat
    if _all_passed(top_seat, passed, counts):  # trick_over with this pass, no Trick built
        leader, by_jiefeng = next_leader(top_seat, counts, jiefeng)
        return Trick(leader), (leader, by_jiefeng)
    return Trick(next_to_act(seat, counts), trick.top, top_seat, passed), None


def public_counts(counts: tuple[int, ...]) -> dict[int, int]:
    """GD-5.7: 报牌 — the exact card count of every player holding 10 or fewer cards is public
    (a player who is out shows 0)."""
    return {seat: n for seat, n in enumerate(counts) if n <= ANNOUNCE_AT}
