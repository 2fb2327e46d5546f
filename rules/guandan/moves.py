"""Legal plays from a hand, for bots and property tests (GD-3, GD-4, GD-5.2).

:func:`legal_plays` yields, for every combination (type, size, key) the hand can make that may
be played on the table, at least one play — natural cards first, wildcards only where needed
(full houses: every triple with every pair). Each play is built with an explicit reading and
passed through :func:`classify` and :func:`beats`, so it yields only what the checks accept.
At most a few hundred candidates are tried for a 27-card hand.
"""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping

from .cards import (
    JOKERS,
    RANKS,
    SUITS,
    parse_cards,
    parse_level,
    rank_of,
    rank_value,
    wildcard,
)
from .combos import (
    BOMB_TYPES,
    FULL_HOUSE,
    PAIR,
    PAIR_RUN,
    SINGLE,
    STRAIGHT,
    TRIPLE,
    TRIPLE_RUN,
    Combination,
    beats,
    classify,
    run_ranks,
)
from .settings import GDSettings, settings_from

Build = tuple[tuple[str, ...], tuple[str, ...]]  # (cards played, wildAs)


class _Pool:
    """A hand split into natural cards by rank and its wildcards (GD-2.3)."""

    def __init__(self, hand: tuple[str, ...], level: str):
        self.level = level
        self.wild = wildcard(level)
        self.wilds = hand.count(self.wild)
        self.held = Counter(c for c in hand if c != self.wild)
        self.by_rank: dict[str, list[str]] = {}
        for card in sorted(self.held.elements(), key=lambda c: (SUITS.find(c[-1]), c)):
            self.by_rank.setdefault(rank_of(card), []).append(card)

    def build(self, parts: Iterable[tuple[str, int]]) -> Build | None:
        """Cards for ``n`` of each rank, natural ones first; a missing card is a wildcard standing
        for that rank in hearts (itself when the rank is the level). None if it cannot be done."""
        cards: list[str] = []
        wild_as: list[str] = []
        used = 0
        for rank, n in parts:
            natural = self.by_rank.get(rank, [])[:n]
            short = n - len(natural)
            if short and rank in JOKERS:
                return None
            used += short
            cards += natural + [self.wild] * short
            if rank != self.level:
                wild_as += [rank + "H"] * short
        return (tuple(cards), tuple(wild_as)) if used <= self.wilds else None


def _ranks_by_value(level: str, jokers: bool = True) -> list[str]:
    ranks = list(RANKS) + (list(JOKERS) if jokers else [])
    return sorted(ranks, key=lambda r: rank_value(r, level))


def _of_a_kind(pool: _Pool, n: int) -> Iterator[Build]:
    """GD-3.1 singles, pairs, triples."""
    for rank in _ranks_by_value(pool.level, jokers=n < 3):
        built = pool.build([(rank, n)])
        if built:
            yield built


def _full_houses(pool: _Pool, joker_pair: bool) -> Iterator[Build]:
    """GD-3.1/3.3 every triple with every pair of another rank."""
    for triple in _ranks_by_value(pool.level, jokers=False):
        for pair in _ranks_by_value(pool.level, jokers=joker_pair):
            built = pair != triple and pool.build([(triple, 3), (pair, 2)])
            if built:
                yield built


def _runs(pool: _Pool, width: int, length: int) -> Iterator[Build]:
    """GD-3.1 pair runs (width 2, three ranks) and triple runs (width 3, two ranks)."""
    for top in range(length, 15):
        built = pool.build([(rank, width) for rank in run_ranks(RANKS[top - 2], length)])
        if built:
            yield built


def _straights(pool: _Pool) -> Iterator[Build]:
    """GD-3.1/3.2 plain straights: one card per rank, not all five of one suit."""
    for top in range(5, 15):
        built = pool.build([(rank, 1) for rank in run_ranks(RANKS[top - 2], 5)])
        if built:
            mixed = _mixed_suits(pool, built)
            if mixed:
                yield mixed


def _mixed_suits(pool: _Pool, built: Build) -> Build | None:
    """GD-3.2: five cards of one suit are a straight flush; change one card so that the suits
    differ — another natural card of its rank, or a spare wildcard (a heart)."""
    cards, wild_as = built
    suits = {c[1] for c in cards}
    if len(suits) > 1:
        return built
    suit = suits.pop()
    for i, card in enumerate(cards):
        if card == pool.wild:
            continue
        other = next((c for c in pool.by_rank[card[0]] if c[1] != suit), None)
        if other:
            return cards[:i] + (other,) + cards[i + 1:], wild_as
    if suit != "H" and cards.count(pool.wild) < pool.wilds:
        i = next(i for i, card in enumerate(cards) if card != pool.wild)
        extra = () if cards[i][0] == pool.level else (cards[i][0] + "H",)
        return cards[:i] + (pool.wild,) + cards[i + 1:], wild_as + extra
    return None


def _straight_flushes(pool: _Pool) -> Iterator[Build]:
    """GD-3.1 straight flushes of every suit; a missing card is a wildcard standing for it."""
    for top in range(5, 15):
        for suit in SUITS:
            cards, wild_as = [], []
            for rank in run_ranks(RANKS[top - 2], 5):
                card = rank + suit
                if card != pool.wild and pool.held[card]:
                    cards.append(card)
                    continue
                cards.append(pool.wild)
                if card != pool.wild:
                    wild_as.append(card)
            if cards.count(pool.wild) <= pool.wilds:
                yield tuple(cards), tuple(wild_as)


def _bombs(pool: _Pool) -> Iterator[Build]:
    """GD-3.1 bombs of 4–10 cards of each rank."""
    for rank in _ranks_by_value(pool.level, jokers=False):
        most = min(10, len(pool.by_rank.get(rank, [])) + pool.wilds)
        for size in range(4, most + 1):
            built = pool.build([(rank, size)])
            if built:
                yield built


def _four_jokers(pool: _Pool) -> Iterator[Build]:
    """GD-3.1 the four jokers."""
    if pool.held["BJ"] == 2 and pool.held["SJ"] == 2:
        yield ("BJ", "BJ", "SJ", "SJ"), ()


def _candidates(pool: _Pool, table: Combination | None, joker_pair: bool) -> Iterator[Build]:
    """Only the types that can be played on the table (GD-4.2/4.3)."""
    plain = {SINGLE: lambda: _of_a_kind(pool, 1), PAIR: lambda: _of_a_kind(pool, 2),
             TRIPLE: lambda: _of_a_kind(pool, 3), FULL_HOUSE: lambda: _full_houses(pool, joker_pair),
             STRAIGHT: lambda: _straights(pool), PAIR_RUN: lambda: _runs(pool, 2, 3),
             TRIPLE_RUN: lambda: _runs(pool, 3, 2)}
    if table is None:
        wanted = list(plain)
    elif table.type in BOMB_TYPES:
        wanted = []
    else:
        wanted = [table.type]
    for kind in wanted:
        yield from plain[kind]()
    yield from _bombs(pool)
    yield from _straight_flushes(pool)
    yield from _four_jokers(pool)


def legal_plays(hand: Iterable[str] | str, level: str, table: Combination | None = None,
                settings: GDSettings | Mapping | None = None) -> Iterator[Combination]:
    """GD-5.2: plays the hand may make on ``table`` (a lead when None), each a
    :class:`Combination` with its reading in ``wild_as`` — at least one for every (type, size,
    key) the hand can make (see the module docstring)."""
    hand, level, conf = parse_cards(hand), parse_level(level), settings_from(settings)
    seen: set[Build] = set()
    for cards, wild_as in _candidates(_Pool(hand, level), table, conf.full_house_joker_pair):
        mark = (tuple(sorted(cards)), tuple(sorted(wild_as)))
        if mark in seen:
            continue
        seen.add(mark)
        combo = classify(cards, level, wild_as, conf)
        if table is None or beats(combo, table):
            yield combo


def random_legal_play(hand: Iterable[str] | str, level: str, table: Combination | None,
                      rng: random.Random,
                      settings: GDSettings | Mapping | None = None) -> Combination | None:
    """GD-5.2: one of :func:`legal_plays`, chosen with ``rng``; None when the hand cannot beat
    the table (the player must pass)."""
    plays = list(legal_plays(hand, level, table, settings))
    return rng.choice(plays) if plays else None


def can_beat(hand: Iterable[str] | str, level: str, table: Combination,
             settings: GDSettings | Mapping | None = None) -> bool:
    """GD-4.2/4.3: whether any play of the hand beats the table."""
    return next(iter(legal_plays(hand, level, table, settings)), None) is not None
