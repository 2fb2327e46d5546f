"""The dealer: the first dealer by dice, who deals next, and the rounds (圈) of a session.

Rules: MJO-2.1 (the highest roll deals first; **interpretation:** two dice each, ties among
the highest re-roll), MJO-2.2 (the dealer keeps the deal after a win, else it passes to
``next(dealer)``; setting ``dealerRepeatsOnWin``), MJO-4.4 (with several winners the dealer
keeps the deal if he is one of them); MJS-1.3, MJS-1.4 (a round ends when the deal comes back
to the seat that dealt first).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..frozen import evolve
from ..violations import RuleViolation
from .settings import GameSettings
from .tiles import WINDS
from .wall import SEATS, next_seat, roll_total


def first_dealer(rolls: Sequence[Mapping[int, Sequence[int]]], settings: GameSettings) -> int:
    """MJO-2.1: the first dealer from the recorded ``DiceRolled`` rounds — every seat rolls two
    dice in the first round; while several share the highest total, exactly those re-roll."""
    rule = settings.rule("firstDealer")
    rolling = set(range(SEATS))
    for number, round_ in enumerate(rolls, start=1):
        seats = {int(s) for s in round_}
        if seats != rolling:
            raise RuleViolation(rule, "roll {number} is made by seat(s) {rolling}, not {seats} "
                                      "({rule_})",
                                      number=number, rolling=', '.join(map(str, sorted(rolling))),
                                      seats=', '.join(map(str, sorted(seats))), rule_=rule)
        totals = {int(s): roll_total(d, settings, "firstDealer") for s, d in round_.items()}
        best = max(totals.values())
        rolling = {s for s, t in totals.items() if t == best}
        if len(rolling) == 1:
            return rolling.pop()
    raise RuleViolation(rule, "seats {rolling} are still tied for the highest roll and roll "
                              "again ({rule_})",
                              rolling=', '.join(map(str, sorted(rolling))), rule_=rule)


def next_dealer(dealer: int, winners: Sequence[int], settings: GameSettings) -> int:
    """MJO-2.2 / MJO-4.4: the dealer deals again if he is among the hand's winners (and
    ``dealerRepeatsOnWin``); after another player's win or an exhaustive draw the deal passes
    to ``next(dealer)``."""
    if settings.dealerRepeatsOnWin and dealer in winners:
        return dealer
    return next_seat(dealer)


@dataclass(frozen=True)
class Rotation:
    """Where a session stands in its deals: the first dealer, the current dealer, the hands
    played and how often the deal has passed. Four passes make a round (圈)."""

    first_dealer: int
    dealer: int
    hands_played: int = 0
    passes: int = 0

    @property
    def rounds_completed(self) -> int:
        """MJS-1.4: rounds completed — the deal has gone from the fourth seat back to the
        first dealer this many times."""
        return self.passes // SEATS

    @property
    def round_wind(self) -> str:
        """The prevailing wind of the current round, East first (MJO-1.3: winds carry no
        score in MJO; shown for the record)."""
        return WINDS[self.rounds_completed % len(WINDS)]

    def seat_wind(self, seat: int) -> str:
        """MJO-1.3: the dealer is East, ``next(dealer)`` South, then West and North."""
        return WINDS[(seat - self.dealer) % SEATS]


def start_rotation(first: int) -> Rotation:
    return Rotation(first_dealer=first, dealer=first)


def advance(rotation: Rotation, winners: Sequence[int], settings: GameSettings) -> Rotation:
    """MJO-2.2: the rotation after a hand with these winners (none for a draw)."""
    dealer = next_dealer(rotation.dealer, winners, settings)
    return evolve(rotation, dealer=dealer, hands_played=rotation.hands_played + 1,
                   passes=rotation.passes + (dealer != rotation.dealer))
