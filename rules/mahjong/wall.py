"""The wall: breaking it from recorded dice, the deal, and the draw order.

Rules: MJO-1.2 (each player builds a wall of stacks two tiles high), MJO-2.3 (two rolls; the
second roller; the opening stack; dealer 14 tiles, others 13), MJO-2.4 (the deal arrives as a
recorded fact), MJO-6.1 (the whole wall is drawn, no dead wall); MJS-1.2 (108 tiles, 55 left).

Nothing random happens here: dice and the order of the tiles are recorded facts.

Geometry (**interpretation** of MJO-2.3, which the seed describes physically): ``walls[s]`` is
the wall in front of seat ``s`` read from the player's right end to his left end, two tiles
per stack, the top tile first. The player on one's right is ``next(s)`` (README §4), so reading
a wall right to left and going on along the wall of ``prev(s)`` follows the table clockwise —
the direction in which the wall is consumed, while turns pass counter-clockwise. The roll sum
is counted right to left along the second roller's wall, going on to the next wall clockwise
if it is longer than his wall; the counted stack is the first the dealer takes.
"""
from __future__ import annotations

from collections.abc import Sequence

from ..violations import RuleViolation
from .settings import GameSettings

SEATS = 4
DEALER_TILES = 14
PLAYER_TILES = 13
DEALT = DEALER_TILES + 3 * PLAYER_TILES   # 53


def next_seat(seat: int) -> int:
    """README §4: ``next(s) = (s+1) mod 4``, the 下家."""
    return (seat + 1) % SEATS


def roll_total(dice: Sequence[int], settings: GameSettings, key: str = "deal") -> int:
    """MJO-2.1 / MJO-2.3: the sum of one throw of two dice, each 1..6."""
    if (not isinstance(dice, Sequence) or len(dice) != 2
            or any(type(d) is not int or not 1 <= d <= 6 for d in dice)):
        raise RuleViolation(settings.rule(key), "a throw is two dice of 1 to 6, not {dice!r} "
                                                "({rule_})",
                                                dice=dice, rule_=settings.rule(key))
    return dice[0] + dice[1]


def second_roller(dealer: int, total: int) -> int:
    """MJO-2.3: counting counter-clockwise from the dealer as 1, the seat that rolls second —
    East (the dealer) on 5 and 9, South on 2, 6, 10, West on 3, 7, 11, North on 4, 8, 12."""
    return (dealer + total - 1) % SEATS


def break_wall(walls: Sequence[Sequence[str]], dealer: int,
               dice: Sequence[Sequence[int]], settings: GameSettings) -> tuple[str, ...]:
    """MJO-2.3: every tile of the four walls in the order they are taken, starting at the
    opening stack found by the two recorded throws (see the module's geometry note)."""
    if len(dice) != 2:
        raise RuleViolation(settings.rule("deal"),
                            "breaking the wall takes two throws, not {count} ({rule_})",
                            count=len(dice), rule_=settings.rule('deal'))
    first = roll_total(dice[0], settings)
    count = first + roll_total(dice[1], settings)
    if len(walls) != SEATS or any(len(w) % 2 for w in walls):
        raise RuleViolation(settings.rule("deal"),
                            "the table has four walls of whole stacks (two tiles each) "
                            "({rule_})",
                            rule_=settings.rule('deal'))
    roller = second_roller(dealer, first)
    ring: list[str] = []
    for step in range(SEATS):           # the roller's wall, then clockwise: prev, prev(prev)...
        ring.extend(walls[(roller - step) % SEATS])
    start = 2 * (count - 1) % len(ring)
    return tuple(ring[start:] + ring[:start])


def deal_order(sequence: Sequence[str], dealer: int) -> tuple[tuple[tuple[str, ...], ...],
                                                               tuple[str, ...]]:
    """MJO-2.3: the hands dealt from the tiles in the order taken, and the live wall left.
    The dealer takes two stacks (4 tiles), then each player in turn 4, three rounds (12
    each); then the dealer takes the top tiles of the next stack and of the one after it
    (跳牌), and the others one each in turn: the bottom of the first of those stacks, then
    the top and the bottom of the skipped stack. The live wall starts with the bottom tile
    left under the dealer's second top tile."""
    hands: list[list[str]] = [[] for _ in range(SEATS)]
    order = [(dealer + k) % SEATS for k in range(SEATS)]
    for block in range(12):                          # 3 rounds x 4 seats, 4 tiles each
        hands[order[block % SEATS]].extend(sequence[4 * block:4 * block + 4])
    hands[order[0]].extend((sequence[48], sequence[52]))
    for k, seat in enumerate(order[1:]):
        hands[seat].append(sequence[49 + k])
    return tuple(tuple(h) for h in hands), tuple(sequence[DEALT:])


def dealt_size(seat: int, dealer: int) -> int:
    """MJO-2.3: the dealer holds 14 tiles, the others 13."""
    return DEALER_TILES if seat == dealer else PLAYER_TILES


def live_wall_size(tile_count: int) -> int:
    """MJO-6.1 / MJS-1.2: tiles left to draw after the deal (83 of 136, 55 of 108); there is
    no dead wall."""
    return tile_count - DEALT
