"""Hands, kitties, walls and plays are multisets of card or tile strings (two decks hold each
card twice, a mahjong set each tile four times): what one does not hold of another, and what is
left when some are taken out."""
from __future__ import annotations

from collections import Counter
from typing import Iterable


def missing(held: Iterable[str], wanted: Iterable[str]) -> tuple[str, ...]:
    """The items of ``wanted`` (a multiset) that ``held`` does not hold, in the order given."""
    left = Counter(held)
    absent = []
    for item in wanted:
        if left[item] > 0:
            left[item] -= 1
        else:
            absent.append(item)
    return tuple(absent)


def without(held: Iterable[str], taken: Iterable[str]) -> tuple[str, ...]:
    """``held`` minus ``taken`` as multisets, in ``held``'s order. What is taken must be held
    (a ValueError names what is not)."""
    held, taken = tuple(held), tuple(taken)
    absent = missing(held, taken)
    if absent:
        raise ValueError(f"cannot remove {' '.join(absent)}: not in the hand")
    count = Counter(taken)
    kept = []
    for item in held:
        if count[item] > 0:
            count[item] -= 1
        else:
            kept.append(item)
    return tuple(kept)
