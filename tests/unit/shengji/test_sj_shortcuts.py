"""The counted shortcuts of the SJ3 searches agree with the searches they skip, on random cards
of three decks (SJ3-1.1): units.fits of pairs and triples (_fits_sets) with the placement search,
a pair or triple led (SJ3-8.3, 8.4: obligations._meets_set) with required_units, the throw
pre-check (SJ3-7.1: stated_leads._may_merge) with the union search, and cards.remove_cards with
multisets.without."""
import random

import pytest

from rules import multisets
from rules.shengji import obligations, stated_leads, units
from rules.shengji.cards import Trump, remove_cards
from rules.shengji.combos import PAIR, TRIPLE

TRUMPS = (Trump("9", "C", chain=False), Trump("9", None), Trump("2", "H"))
ONE_DECK = [r + s for s in "SHDC" for r in "23456789TJQKA"] + ["BJ", "SJ"]


def _draws(seed: int, count: int):
    """``count`` trials: the generator, a trump, and a class of it to draw cards from."""
    rng = random.Random(seed)
    for _ in range(count):
        trump = rng.choice(TRUMPS)
        yield rng, trump, trump.card_class(rng.choice(ONE_DECK))


def _cards(rng: random.Random, trump: Trump, cls: str, n: int) -> tuple[str, ...]:
    pool = [card for card in ONE_DECK if trump.card_class(card) == cls] * 3
    return tuple(rng.sample(pool, min(n, len(pool))))


@pytest.mark.parametrize("seed", range(4))
def test_counted_sets_fit_as_the_search_places(seed):
    for rng, trump, cls in _draws(seed, 400):
        state = units.columns(_cards(rng, trump, cls, rng.randint(0, 14)), trump)
        wanted = tuple(rng.choice(((2, 1), (3, 1))) for _ in range(rng.randint(0, 4)))
        assert units._fits_sets(state, wanted) == (units.place(state, wanted) is not None)


@pytest.mark.parametrize("seed", range(4))
def test_a_pair_or_triple_led_counted_as_required_units(seed):
    for rng, trump, cls in _draws(seed, 400):
        width = rng.choice((2, 3))
        led = stated_leads.single_component(_cards(rng, trump, cls, 1) * width, trump)
        assert led.kind == (PAIR if width == 2 else TRIPLE)
        own = _cards(rng, trump, cls, rng.randint(width + 1, 12))
        play = tuple(rng.sample(own, width))
        needed = obligations.required_units((led,), own, trump)
        searched = not needed or units.place(units.columns(play, trump), needed) is not None
        assert obligations._meets_set(width, own, play) == searched


def _merged_by_search(parts, trump):
    for width in (2, 3):
        fitting = [i for i, part in enumerate(parts) if part.width <= width]
        for start in fitting:
            if stated_leads._grow(parts, fitting, frozenset({start}), width, trump,
                                  set()) is not None:
                return True
    return False


@pytest.mark.parametrize("seed", range(4))
def test_a_throw_that_cannot_merge_is_not_searched(seed):
    for rng, trump, cls in _draws(seed, 300):
        parts = []
        for _ in range(rng.randint(2, 4)):
            card = _cards(rng, trump, cls, 1)
            part = stated_leads.single_component(card * rng.choice((1, 2, 3)), trump)
            parts.append(part)
        if _merged_by_search(parts, trump):
            assert stated_leads._may_merge(parts, trump)
        if not stated_leads._may_merge(parts, trump):
            assert stated_leads.merged_parts(parts, trump) is None


def test_remove_cards_as_multisets_without():
    rng = random.Random(7)
    for _ in range(2000):
        hand = tuple(rng.sample(ONE_DECK * 3, rng.randint(0, 39)))
        cards = tuple(rng.sample(hand, rng.randint(0, len(hand)))) if hand and rng.random() < .8 \
            else tuple(rng.sample(ONE_DECK, rng.randint(1, 4)))
        try:
            expected = multisets.without(hand, cards)
        except ValueError as error:
            with pytest.raises(ValueError, match=str(error)):
                remove_cards(hand, cards)
        else:
            assert remove_cards(hand, cards) == expected
