"""Hands, kitties, walls and plays are multisets of card or tile strings (two decks hold each
card twice, a mahjong set each tile four times): what one does not hold of another, and what is
left when some are taken out; and a draw's roll call, where a list must name each of a field
exactly once."""
from __future__ import annotations

from collections import Counter
from typing import Iterable, Mapping, Sequence

from .messages import Message


def missing(held: Iterable[str], wanted: Iterable[str]) -> tuple[str, ...]:
    """The items of ``wanted`` (a multiset) that ``held`` does not hold, in the order given."""
    held = held if isinstance(held, (tuple, list)) else tuple(held)
    wanted = wanted if isinstance(wanted, (tuple, list)) else tuple(wanted)
    if len(wanted) == 1 and wanted[0] in held or _holds_all(held, wanted):
        return ()
    left = Counter(held)
    absent = []
    for item in wanted:
        if left[item] > 0:
            left[item] -= 1
        else:
            absent.append(item)
    return tuple(absent)


def _holds_all(held: Sequence[str], wanted: Sequence[str]) -> bool:
    """Whether ``held`` holds every item of ``wanted`` as often as it is wanted — the common
    case of every play and discard, checked without counting the whole of ``held`` (a play is
    a few cards, a hand dozens)."""
    for item in (wanted if len(wanted) < 2 else set(wanted)):
        if held.count(item) < wanted.count(item):
            return False
    return True


def without(held: Iterable[str], taken: Iterable[str]) -> tuple[str, ...]:
    """``held`` minus ``taken`` as multisets, in ``held``'s order. What is taken must be held
    (a ValueError names what is not)."""
    held, taken = tuple(held), tuple(taken)
    if len(taken) == 1 and taken[0] in held:  # a discard, a single: the first copy goes
        index = held.index(taken[0])
        return held[:index] + held[index + 1:]
    if not _holds_all(held, taken):
        absent = missing(held, taken)
        raise ValueError(f"cannot remove {' '.join(absent)}: not in the hand")
    count = {}
    for item in taken:
        count[item] = count.get(item, 0) + 1
    kept = []
    for item in held:
        n = count.get(item)
        if n:
            count[item] = n - 1
        else:
            kept.append(item)
    return tuple(kept)


def roll_call(named: Sequence[str], expected: Iterable[str],
              labels: Mapping[str, str]) -> Message | None:
    """What is wrong with ``named`` as a list of each of ``expected`` exactly once, in words:
    the names given more than once (``labels["twice"]``), left out (``labels["missing"]``) and
    not expected (``labels["extra"]``), each sorted, in the order of ``labels``; None if none.
    A label is a sentence with the blank ``{names}``, marked for the catalogues where it is
    written (``N_("left out: {names}")``)."""
    expected = set(expected)
    found = {"twice": sorted({n for n in named if named.count(n) > 1}),
             "missing": sorted(expected - set(named)),
             "extra": sorted(set(named) - expected)}
    return listed([Message(label, names=", ".join(found[kind]))
                   for kind, label in labels.items() if found[kind]])


def listed(parts: Sequence[Message | str]) -> Message | str | None:
    """``parts`` said one after another, separated by semicolons ("a; b; c"), each in the
    reader's language; None if there are none."""
    if not parts:
        return None
    said = parts[0]
    for part in parts[1:]:
        said = Message("{earlier}; {later}", earlier=said, later=part)
    return said
