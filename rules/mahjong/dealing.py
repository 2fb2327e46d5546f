"""The deal of a mahjong hand (MJO-2, MJS-1, MJS-2): ``HandDealt`` as four hands (and the
wall), or from the table's walls and dice; the phase play starts in."""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from .hand import Hand, SeatHand, _fail, _seat_arg, _tiles_arg
from .settings import GameSettings
from .tiles import COPIES, format_tiles, over_copies, sort_tiles, tile_set
from .wall import SEATS, break_wall, deal_order, dealt_size, live_wall_size


def _hands_arg(settings: GameSettings, hands: object) -> tuple[tuple[str, ...], ...]:
    if isinstance(hands, Mapping):
        hands = [hands.get(s, hands.get(str(s))) for s in range(SEATS)]
    if not isinstance(hands, Sequence) or len(hands) != SEATS or any(h is None for h in hands):
        raise _fail(settings, "deal", "a deal gives a hand to each of the four seats")
    return tuple(_tiles_arg(settings, h) for h in hands)


_FULL_SET = {count: Counter(tile_set(count)) for count in (136, 108)}  # read, never changed


def _must_be_a_true_set(settings: GameSettings, tiles: Sequence[str], complete: bool) -> None:
    """MJO-1.1: no face more than four times; with the wall recorded, exactly the set."""
    counts = Counter(tiles)
    if max(counts.values(), default=0) > COPIES:  # (over_copies names them)
        raise _fail(settings, "tiles", "the deal has more than four of {over_copies}",
                                       over_copies=' '.join(over_copies(tiles)))
    # compared as plain dicts (in C; neither holds a zero count, so it is Counter equality)
    if complete and (len(tiles) != settings.tileCount or not dict.__eq__(
            counts, _FULL_SET.get(settings.tileCount) or Counter(tile_set(settings.tileCount)))):
        missing = Counter(tile_set(settings.tileCount)) - Counter(tiles)
        raise _fail(settings, "tiles",
                    "hands and wall hold {count} tiles, not the {tileCount} of the set "
                    "(missing {missing})",
                    count=len(tiles), tileCount=settings.tileCount,
                    missing=format_tiles(missing.elements()))


def opening_phase(settings: GameSettings) -> str:
    """MJS-2: 换三张 first where the stage has it, then the void suits; MJO: play at once."""
    if settings.exchangeThree:
        return "exchange"
    return "void" if settings.voidSuit else "discard"


def deal(settings: GameSettings, data: Mapping) -> Hand:
    """``HandDealt`` (MJO-2.3, MJO-2.4): the dealer holds 14 tiles and the others 13; the
    live wall, when recorded, is the rest of the set in draw order. The dealer opens by
    discarding or winning (MJO-3.1) — in MJS after 换三张 and the void suits (MJS-2)."""
    dealer = _seat_arg(settings, data, "dealer")
    hands = _hands_arg(settings, data.get("hands"))
    for seat, hand in enumerate(hands):
        if len(hand) != dealt_size(seat, dealer):
            raise _fail(settings, "deal", "seat {seat} was dealt {count} tiles; the "
                                          "dealer (seat {dealer}) holds 14 and the "
                                          "others 13",
                                          seat=seat, count=len(hand), dealer=dealer)
    wall = data.get("wall")
    wall = None if wall is None else _tiles_arg(settings, wall)
    _must_be_a_true_set(settings, [t for h in hands for t in h] + list(wall or ()),
                        complete=wall is not None)
    return Hand(settings=settings, dealer=dealer,
                seats=tuple(SeatHand(sort_tiles(h)) for h in hands), wall=wall,
                wall_count=live_wall_size(settings.tileCount), turn=dealer,
                phase=opening_phase(settings))


def deal_from_wall(settings: GameSettings, data: Mapping) -> Hand:
    """MJO-2.3: the deal as the table makes it, from the four walls as built (each read from
    its owner's right to left, top tile of a stack first) and the two recorded throws."""
    dealer = _seat_arg(settings, data, "dealer")
    walls = data.get("walls")
    if not isinstance(walls, Sequence) or len(walls) != SEATS:
        raise _fail(settings, "deal", "the table has four walls, one in front of each seat")
    walls = tuple(_tiles_arg(settings, w) for w in walls)
    _must_be_a_true_set(settings, [t for w in walls for t in w], complete=True)
    sequence = break_wall(walls, dealer, data.get("dice") or (), settings)
    hands, live = deal_order(sequence, dealer)
    return deal(settings, {"dealer": dealer, "hands": hands, "wall": live})
