"""Mahjong tiles: notation, tile sets, multisets and melds.

Rules: shared/rules/README.md section 3 (notation), mahjong-ottawa.md MJO-1.1 (136 tiles, no
flowers) and mahjong-sichuan.md MJS-1.1 (108 tiles, suits only).
A tile is a plain string: ``"1m"``..``"9m"`` characters, ``"1p"``..``"9p"`` dots,
``"1s"``..``"9s"`` bamboo, winds ``"E" "S" "W" "N"``, dragons ``"C" "F" "P"``. A hand, a wall
or a pool is a tuple of such strings, read as a multiset unless a rule gives it an order.
"""
from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from .. import multisets
from ..messages import Message

SUITS = ("m", "p", "s")
WINDS = ("E", "S", "W", "N")
DRAGONS = ("C", "F", "P")
HONOURS = WINDS + DRAGONS
SUITED = tuple(f"{rank}{suit}" for suit in SUITS for rank in range(1, 10))
KINDS = SUITED + HONOURS          # the 34 faces, in the canonical sort order
COPIES = 4                        # README §3: each tile exists 4 times
INDEX = {tile: i for i, tile in enumerate(KINDS)}
MELD_KINDS = ("chow", "pong", "kong")


class TileError(ValueError):
    """Malformed tile notation (README §3); ``tile`` is the offending text, ``text`` the
    sentence that says so (rules/messages.py), ``str()`` of the error its English."""

    def __init__(self, tile: object, message: Message | None = None):
        self.text = message or Message("{tile!r} is not a tile: write 1m..9m, 1p..9p, 1s..9s, "
                                       "a wind E S W N or a dragon C F P", tile=tile)
        super().__init__(str(self.text))
        self.tile = tile


def parse_tile(text: object) -> str:
    """Accept exactly the notation of README §3 (``"5p"``, ``"E"``); ``"5P"``, ``"0m"``,
    ``"east"`` raise :class:`TileError`."""
    if isinstance(text, str) and text in INDEX:
        return text
    raise TileError(text)


def parse_tiles(items: Iterable[str] | str) -> tuple[str, ...]:
    """Parse a list of tiles; a single string is read as a space-separated list."""
    if isinstance(items, str):
        items = items.split()
    return tuple(parse_tile(item) for item in items)


def kinds(tile_count: int) -> tuple[str, ...]:
    """MJO-1.1 / MJS-1.1: the faces of a 136-tile set (34) or of a 108-tile set (27 suited)."""
    if tile_count == 136:
        return KINDS
    if tile_count == 108:
        return SUITED
    raise ValueError(f"a mahjong set has 136 or 108 tiles, not {tile_count!r}")


def tile_set(tile_count: int) -> tuple[str, ...]:
    """MJO-1.1 / MJS-1.1: every tile of the set, four of each face, in sort order."""
    return tuple(tile for tile in kinds(tile_count) for _ in range(COPIES))


def suit(tile: str) -> str | None:
    """The suit letter of a suited tile, None for an honour."""
    return tile[1] if len(tile) == 2 else None


def rank(tile: str) -> int | None:
    """The rank 1..9 of a suited tile, None for an honour."""
    return int(tile[0]) if len(tile) == 2 else None


def shifted(tile: str, step: int) -> str | None:
    """The tile ``step`` ranks away in the same suit (``shifted("4p", 2) == "6p"``), None if
    that falls outside 1..9 or the tile is an honour."""
    r = rank(tile)
    if r is None or not 1 <= r + step <= 9:
        return None
    return f"{r + step}{tile[1]}"


def sort_tiles(tiles: Iterable[str]) -> tuple[str, ...]:
    """Tiles in the canonical order: characters, dots, bamboo by rank, then winds, dragons."""
    return tuple(sorted(tiles, key=INDEX.__getitem__))


def format_tiles(tiles: Iterable[str]) -> str:
    """Space-separated notation in canonical order (``"1m 2m 3m E E"``)."""
    return " ".join(sort_tiles(tiles))


def missing_tiles(hand: Iterable[str], tiles: Iterable[str]) -> tuple[str, ...]:
    """The tiles of ``tiles`` (a multiset) that ``hand`` does not hold, in the order given."""
    return multisets.missing(hand, tiles)


def holds(hand: Iterable[str], tiles: Iterable[str]) -> bool:
    return not missing_tiles(hand, tiles)


def remove_tiles(hand: Iterable[str], tiles: Iterable[str]) -> tuple[str, ...]:
    """``hand`` minus ``tiles`` as multisets, in canonical order. The tiles must be held (a
    :class:`ValueError` names the ones that are not)."""
    return sort_tiles(multisets.without(hand, tiles))


def add_tiles(hand: Iterable[str], tiles: Iterable[str]) -> tuple[str, ...]:
    return sort_tiles((*hand, *tiles))


# A seat's concealed tiles are always in canonical order (dealt sorted, every change sorts):
# a draw or a discard, the most frequent changes, keep that order without sorting again.

def with_one(hand: tuple[str, ...], tile: str) -> tuple[str, ...]:
    """:func:`add_tiles` of one tile to a hand in canonical order: the tile after its equals."""
    at = bisect_right(hand, INDEX[tile], key=INDEX.__getitem__)
    return hand[:at] + (tile,) + hand[at:]


def without_one(hand: tuple[str, ...], tile: str) -> tuple[str, ...]:
    """:func:`remove_tiles` of one held tile from a hand in canonical order: its first copy
    taken out (a ValueError if it is not held)."""
    at = hand.index(tile)
    return hand[:at] + hand[at + 1:]


def over_copies(tiles: Iterable[str]) -> tuple[str, ...]:
    """MJO-1.1: the faces that occur more than four times in ``tiles`` (a set has four)."""
    return tuple(t for t, n in sorted(Counter(tiles).items(), key=lambda kv: INDEX[kv[0]])
                 if n > COPIES)


@dataclass(frozen=True)
class Meld:
    """An exposed (or, for a concealed kong, declared) set — README §3 ``[pong 5p]``,
    ``[chow 3m4m5m]``, ``[kong 7s concealed]``. ``claimed`` is the discard taken and
    ``from_seat`` its discarder; both None for a concealed kong. An added kong keeps the
    claimed tile and discarder of the pong it grew from."""

    kind: str
    tiles: tuple[str, ...]
    claimed: str | None = None
    from_seat: int | None = None
    concealed: bool = False

    def __str__(self) -> str:
        return format_meld(self)


def format_meld(meld: Meld) -> str:
    """README §3 notation of a meld."""
    if meld.kind == "chow":
        return f"[chow {''.join(sort_tiles(meld.tiles))}]"
    return f"[{meld.kind} {meld.tiles[0]}{' concealed' if meld.concealed else ''}]"


def parse_meld(text: str) -> Meld:
    """Read ``[pong 5p]``, ``[chow 3m4m5m]``, ``[kong 7s]`` or ``[kong 7s concealed]``."""
    if not (isinstance(text, str) and text.startswith("[") and text.endswith("]")):
        raise TileError(text, Message("{text!r} is not a meld: write e.g. [pong 5p] or "
                                      "[chow 3m4m5m]", text=text))
    words = text[1:-1].split()
    if len(words) not in (2, 3) or words[0] not in MELD_KINDS:
        raise TileError(text, Message("{text!r} is not a meld: write e.g. [pong 5p] or "
                                      "[chow 3m4m5m]", text=text))
    kind, body = words[0], words[1]
    concealed = words[2:] == ["concealed"]
    if len(words) == 3 and not (concealed and kind == "kong"):
        raise TileError(text, Message("{text!r}: only a kong can be marked concealed",
                                      text=text))
    if kind == "chow":
        tiles = sort_tiles(parse_tiles([body[i:i + 2] for i in range(0, len(body), 2)]))
        if len(tiles) != 3 or not is_chow(tiles):
            raise TileError(text, Message("{text!r}: a chow is three consecutive tiles of one "
                                          "suit", text=text))
        return Meld("chow", tiles)
    tile = parse_tile(body)
    return Meld(kind, (tile,) * (3 if kind == "pong" else 4), concealed=concealed)


def is_chow(tiles: Iterable[str]) -> bool:
    """Three consecutive tiles of one suit (MJO-5.1)."""
    t = sort_tiles(tiles)
    return (len(t) == 3 and rank(t[0]) is not None
            and t[1] == shifted(t[0], 1) and t[2] == shifted(t[0], 2))


def meld_tiles(melds: Iterable[Meld]) -> tuple[str, ...]:
    return tuple(tile for meld in melds for tile in meld.tiles)
