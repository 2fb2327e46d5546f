"""Runs of identical cards at consecutive places (SJ2-7.1/7.2, SJ3-6.1/6.2): where a pair, a
triple, a tractor or a triple-tractor can be taken from cards of one class, and whether several
can be taken at once, disjointly.

A *unit* is ``(width, length)``: ``length`` consecutive run places (``Trump.run_pos``), each
holding ``width`` identical cards — a pair ``(2, 1)``, a triple ``(3, 1)``, a k-tractor
``(2, k)``, a triple-tractor ``(3, k)``. Cards of one class are searched as *columns*: each run
place with the identical cards held there and their counts, an immutable value so that the
searches can be memoised. Several different cards share a place only at the 副级牌 position
(SJ2-3.4); cards of one place with equal counts are interchangeable, so the search tries one of
them.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from functools import lru_cache
from itertools import product

from .cards import Trump

Columns = tuple[tuple[int, tuple[tuple[str, int], ...]], ...]
Unit = tuple[int, int]


def columns(cards: Sequence[str], trump: Trump) -> Columns:
    """The cards (of one class) by run place: ((place, ((card, count), ...)), ...), sorted."""
    counts: dict[str, int] = {}
    for card in cards:
        counts[card] = counts.get(card, 0) + 1
    by_place: dict[int, list[tuple[str, int]]] = {}
    for card in sorted(counts):
        by_place.setdefault(trump.run_pos(card), []).append((card, counts[card]))
    return tuple(sorted((place, tuple(held)) for place, held in by_place.items()))


def unit_counts(state: Columns, width: int) -> Counter:
    """place -> how many disjoint sets of ``width`` identical cards the place holds."""
    return Counter({place: sum(n // width for _, n in held) for place, held in state
                    if any(n >= width for _, n in held)})


def tops(state: Columns, width: int, length: int) -> list[int]:
    """The top places of every run of ``length`` consecutive places each holding ``width``
    identical cards, highest first."""
    # the columns are sorted by place: read backwards, highest first (no Counter: every step of
    # a search asks this)
    held = [place for place, cards in reversed(state) if any(n >= width for _, n in cards)]
    if length == 1:
        return held
    have = set(held)
    return [top for top in held if all(top - step in have for step in range(1, length))]


def longest(state: Columns, width: int) -> int:
    """The longest run of places each holding ``width`` identical cards (0 if none)."""
    best = run = 0
    previous = None
    for place in sorted(unit_counts(state, width)):
        run = run + 1 if previous == place - 1 else 1
        best, previous = max(best, run), place
    return best


def _choices(state: Columns, top: int, width: int, length: int) -> Iterator[tuple[str, ...]]:
    """Ways to take the run ``top`` … ``top - length + 1``: one card per place (top first) with
    at least ``width`` copies; of the cards of one place with equal counts only the first."""
    held = dict(state)
    options = []
    for place in range(top, top - length, -1):
        seen, cards = set(), []
        for card, count in held[place]:
            if count >= width and count not in seen:
                seen.add(count)
                cards.append(card)
        options.append(cards)
    return product(*options)


def _take(state: Columns, chosen: tuple[str, ...], width: int) -> Columns:
    wanted = set(chosen)
    taken = []
    for column in state:
        place, held = column
        if not any(card in wanted for card, _ in held):
            taken.append(column)  # a place the run does not touch: kept as it is
            continue
        left = tuple((card, count - width if card in wanted else count) for card, count in held)
        left = tuple((card, count) for card, count in left if count > 0)
        if left:
            taken.append((place, left))
    return tuple(taken)


def _ordered(units: Sequence[Unit]) -> tuple[Unit, ...]:
    """Longest, then widest first: the most constrained units are placed first."""
    return tuple(sorted(units, key=lambda unit: (-unit[1], -unit[0])))


def place(state: Columns, units: Sequence[Unit]) -> tuple[tuple[str, ...], ...] | None:
    """The cards of each unit (in the order given back: longest, widest first), taken disjointly
    from ``state``, or None if they cannot all be taken."""
    return _place(state, _ordered(units))


@lru_cache(maxsize=16384)
def _place(state: Columns, units: tuple[Unit, ...]) -> tuple[tuple[str, ...], ...] | None:
    if not units:
        return ()
    (width, length), rest = units[0], units[1:]
    if sum(w * l for w, l in units) > sum(n for _, held in state for _, n in held):
        return None
    for top in tops(state, width, length):
        for chosen in _choices(state, top, width, length):
            tail = _place(_take(state, chosen, width), rest)
            if tail is not None:
                return (tuple(card for card in chosen for _ in range(width)),) + tail
    return None


def fits(state: Columns, units: Sequence[Unit]) -> bool:
    """Whether all ``units`` can be taken from ``state`` at once."""
    if all(length == 1 for _, length in units):  # pairs and triples only (most obligations)
        counted = _fits_sets(state, units)
        if counted is not None:
            return counted
    return place(state, units) is not None


def _fits_sets(state: Columns, units: Sequence[Unit]) -> bool | None:
    """:func:`fits` for pairs and triples alone, by counting: with at most three copies of a
    card (three decks, SJ3-1.1) a card gives one set at most (a triple, or a pair of two or
    three), so the triples need as many cards held three times and all the sets as many held
    twice or more. None when that does not hold (more copies, or another width): search."""
    triples = pairs = 0
    for width, _ in units:
        if width == 3:
            triples += 1
        elif width == 2:
            pairs += 1
        else:
            return None
    threes = twos = 0
    for _, held in state:
        for _, n in held:
            if n >= 2:
                if n > 3:
                    return None
                twos += 1
                threes += n == 3
    return threes >= triples and twos >= triples + pairs


@lru_cache(maxsize=16384)
def best_top(state: Columns, key: Unit, rest: tuple[Unit, ...]) -> int | None:
    """SJ2-10.2 / SJ3-9.2: the highest top place of the ``key`` unit over every way of taking
    ``key`` and all of ``rest`` from ``state``; None if there is no way."""
    width, length = key
    ordered = _ordered(rest)
    for top in tops(state, width, length):
        for chosen in _choices(state, top, width, length):
            if _place(_take(state, chosen, width), ordered) is not None:
                return top
    return None


@lru_cache(maxsize=16384)
def best_tops(state: Columns, units: tuple[Unit, ...]) -> tuple[int, ...] | None:
    """SJ3-9.2 with seed 十六 (「先比较拖拉机，三条，单张的级别大小」): over every way of taking
    ``units`` (in key order) and leaving the rest as singles, the greatest tuple of the units' top
    places in that order followed by the singles' places, highest first; None if the units cannot
    all be taken. Compared as tuples, two plays of one shape rank by their key component, then
    by the next component, …, then by their singles."""
    if not units:
        return tuple(sorted((place for place, held in state for _, n in held
                             for _ in range(n)), reverse=True))
    (width, length), rest = units[0], units[1:]
    ordered = _ordered(rest)
    for top in tops(state, width, length):  # highest first: the first top that fits is best
        tails = []
        for chosen in _choices(state, top, width, length):
            left = _take(state, chosen, width)
            if _place(left, ordered) is not None:
                tails.append(best_tops(left, rest))
        if tails:
            return (top, *max(tails))
    return None
