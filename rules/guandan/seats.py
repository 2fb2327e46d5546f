"""Seats, teams and the going-out order of a hand (README section 4; guandan.md GD-1.1, GD-5.4,
GD-5.6).

Seats 0–3 in order of play; team A = seats 0, 2 (team index 0), team B = seats 1, 3 (team 1).
A hand's result is its *going-out order*: the seats in the order they went out, e.g. ``(1, 3)``
(team B 1st and 2nd, double down) or ``(0, 1, 2)`` (seat 3 last); a fourth entry naming the
last seat is accepted too.
"""
from __future__ import annotations

from collections.abc import Iterable

from .cards import violation

TEAM_NAMES = ("A", "B")


def next_seat(seat: int) -> int:
    """README section 4: ``next(s)``, the 下家, who acts after ``s``."""
    return (seat + 1) % 4


def partner(seat: int) -> int:
    """README section 4: ``opp(s)``, the partner across the table (GD-1.1)."""
    return (seat + 2) % 4


def team_of(seat: int) -> int:
    """GD-1.1: team index of a seat, 0 for team A (seats 0, 2) and 1 for team B (seats 1, 3)."""
    return seat % 2


def team_seats(team: int) -> tuple[int, int]:
    """GD-1.1: the two seats of a team."""
    return team, team + 2


def is_finished(order: tuple[int, ...]) -> bool:
    """GD-5.6: the hand ends as soon as both players of one team are out."""
    return any(set(team_seats(t)) <= set(order) for t in (0, 1))


def check_order(order: Iterable[int]) -> tuple[int, ...]:
    """GD-5.4/5.6: a finished hand's going-out order — distinct seats; two entries for a double
    down (the losers are not ranked), otherwise completed with the last seat (four entries)."""
    order = tuple(order)
    if any(s not in (0, 1, 2, 3) for s in order) or len(set(order)) != len(order):
        raise violation("GD-5.4", "going-out order {order} must list distinct seats 0-3",
                                  order=list(order))
    if is_double_down(order):
        return order[:2]
    if len(order) < 3:
        raise violation("GD-5.6", "going-out order {order} is not a finished hand: it "
                                  "ends only when both players of one team are out",
                                  order=list(order))
    return order[:3] + tuple(s for s in range(4) if s not in order[:3])


def is_double_down(order: tuple[int, ...]) -> bool:
    """GD-5.6: 1st and 2nd are partners — the other two are "double down" (双下)."""
    return len(order) >= 2 and team_of(order[0]) == team_of(order[1])
