"""An independent judge of mahjong hands for tests, written apart from ``rules/mahjong/winning.py``:
it works on the tile strings themselves, by plain backtracking — take the smallest tile left; it
must open a pung or a chow — and knows nothing of the engine's count tables or readings.

``verdict(concealed, meld_count)`` says what MJO makes of a hand: ``"win"``, or the rule that
fails: ``MJO-5.1`` (not 14 tiles, or no four-sets-and-a-pair reading), ``MJO-5.2`` (readings
exist, but none with a 2, 5 or 8 pair), ``MJO-5.3`` (seven pairs, and nothing else).
"""
from __future__ import annotations

from functools import cache

_ORDER = {t: k for k, t in enumerate(
    [f"{r}{s}" for s in "mps" for r in range(1, 10)] + list("ESWNCFP"))}


def _next_in_suit(tile: str, step: int) -> str | None:
    if len(tile) != 2:
        return None
    rank = int(tile[0]) + step
    return f"{rank}{tile[1]}" if rank <= 9 else None


@cache
def _all_sets(tiles: tuple[str, ...]) -> bool:
    """Whether ``tiles`` (sorted) split into pungs and chows."""
    if not tiles:
        return True
    first, rest = tiles[0], list(tiles[1:])
    if rest[:2] == [first, first] and _all_sets(tuple(rest[2:])):
        return True
    second, third = _next_in_suit(first, 1), _next_in_suit(first, 2)
    if second in rest and third in rest:
        rest.remove(second)
        rest.remove(third)
        return _all_sets(tuple(rest))
    return False


def pairs_that_work(concealed) -> set[str]:
    """Every tile that can be the pair of a four-sets-and-a-pair reading of ``concealed``."""
    tiles = sorted(concealed, key=_ORDER.__getitem__)
    found = set()
    for pair in set(tiles):
        if tiles.count(pair) >= 2:
            rest = list(tiles)
            rest.remove(pair)
            rest.remove(pair)
            if _all_sets(tuple(rest)):
                found.add(pair)
    return found


def is_two_five_eight(tile: str) -> bool:
    return len(tile) == 2 and tile[0] in "258"


def is_seven_pairs(concealed) -> bool:
    tiles = sorted(concealed, key=_ORDER.__getitem__)
    return len(tiles) == 14 and all(tiles[k] == tiles[k + 1] for k in range(0, 14, 2))


def verdict(concealed, meld_count: int = 0) -> str:
    concealed = list(concealed)
    if len(concealed) + 3 * meld_count != 14:
        return "MJO-5.1"
    pairs = pairs_that_work(concealed)
    if any(is_two_five_eight(p) for p in pairs):
        return "win"
    if pairs:
        return "MJO-5.2"
    if meld_count == 0 and is_seven_pairs(concealed):
        return "MJO-5.3"
    return "MJO-5.1"
