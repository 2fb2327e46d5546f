"""Random legal Shengji moves for the simulator's bots and the property tests: single-component
leads (SJ2-8.2, SJ3-6.4) and follows that satisfy SJ2-9."""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from . import units
from .cards import Trump, remove_cards
from .combos import (
    PAIR,
    SINGLE,
    TRACTOR,
    _by_class,
    _longest_run,
    _pair_cards,
    _pair_total,
    _take_run,
    _window_tops,
    decompose,
)
from .following import required_tractors


def random_lead(hand: Sequence[str], trump: Trump, rng: random.Random) -> tuple[str, ...]:
    """A random single-component lead (SJ2-8.2) from ``hand``: a single, a pair or a tractor
    of one randomly chosen class."""
    hand = tuple(hand)
    if not hand:
        raise ValueError("an empty hand cannot lead")
    groups = _by_class(hand, trump)
    own = groups[rng.choice(sorted(groups))]
    pairs = _pair_cards(own, trump)
    avail = Counter({pos: len(held) for pos, held in pairs.items()})
    runs = [(length, top) for length in range(2, _longest_run(avail) + 1)
            for top in _window_tops(avail, length)]
    kinds = [SINGLE] + ([PAIR] if pairs else []) + ([TRACTOR] if runs else [])
    kind = rng.choice(kinds)
    if kind == SINGLE:
        return (rng.choice(own),)
    if kind == PAIR:
        card = rng.choice([card for held in pairs.values() for card in held])
        return (card, card)
    length, top = rng.choice(runs)
    return _take_run(pairs, top, length)


def random_follow(lead: Sequence[str], hand: Sequence[str], trump: Trump,
                  rng: random.Random) -> tuple[str, ...]:
    """A random follow that satisfies SJ2-9: the required tractors, then the required pairs from
    the led class, then random cards (of the led class while any are left)."""
    lead, hand = tuple(lead), tuple(hand)
    components = decompose(lead, trump)
    n, cls = len(lead), components[0].cls
    own = [card for card in hand if trump.card_class(card) == cls]
    if len(own) <= n:
        others = [card for card in hand if trump.card_class(card) != cls]
        return tuple(own) + tuple(rng.sample(others, n - len(own)))
    chosen = [card for run in required_tractors(components, own, trump) for card in run]
    rest = list(remove_cards(own, chosen))
    need = min(sum(comp.pairs for comp in components), _pair_total(own)) - len(chosen) // 2
    if need > 0:
        loose_pairs = [card for card, count in Counter(rest).items() for _ in range(count // 2)]
        extra = [card for card in rng.sample(loose_pairs, need) for _ in (1, 2)]
        chosen += extra
        rest = list(remove_cards(rest, extra))
    return tuple(chosen + rng.sample(rest, n - len(chosen)))


def random_component(hand: Sequence[str], trump: Trump, rng: random.Random) -> tuple[str, ...]:
    """A random one-component lead (SJ3-6.4) from ``hand``: a single, pair, triple, tractor or
    triple-tractor of one randomly chosen class."""
    hand = tuple(hand)
    if not hand:
        raise ValueError("an empty hand cannot lead")
    groups = _by_class(hand, trump)
    own = groups[rng.choice(sorted(groups))]
    state = units.columns(own, trump)
    shapes = [(1, 1)] + [(width, length) for width in (2, 3)
                         for length in range(1, units.longest(state, width) + 1)]
    width, length = rng.choice(shapes)
    if width == 1:
        return (rng.choice(own),)
    top = rng.choice(units.tops(state, width, length))
    held = dict(state)
    cards: list[str] = []
    for place in range(top, top - length, -1):
        card = rng.choice([card for card, n in held[place] if n >= width])
        cards += [card] * width
    return tuple(cards)
