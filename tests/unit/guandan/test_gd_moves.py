"""rules/guandan/moves.py: the legal-play generator yields only plays the checks accept, and
covers every combination a hand can make (brute force over small hands)."""
import random
from collections import Counter
from itertools import product

import pytest

from rules.guandan.combos import beats, classify, readings
from rules.guandan.moves import can_beat, legal_plays, random_legal_play
from rules.guandan.procedure import random_deal


def sub_multisets(hand):
    counts = sorted(Counter(hand).items())
    for picks in product(*(range(n + 1) for _, n in counts)):
        cards = [card for (card, _), k in zip(counts, picks) for _ in range(k)]
        if cards:
            yield cards


def every_combination(hand, level):
    """Brute force: (type, size, key) of every reading of every part of the hand."""
    return {(c.type, c.size, c.key) for cards in sub_multisets(hand) for c in readings(cards, level)}


def small_hand(rng, level, size=8):
    """A random hand drawn from a pool rich in wildcards, runs and jokers."""
    pool = [f"{level}H", f"{level}H", "BJ", "SJ", "SJ"]
    pool += [r + s for r in "A2345TJQK" for s in "SD"] + ["5S", "QS", "TS", "3D"]
    return rng.sample(pool, size)


@pytest.mark.parametrize("seed", range(12))
def test_gd_legal_plays_cover_every_combination_of_small_hands(seed):
    rng = random.Random(seed)
    level = rng.choice("27TA")
    hand = small_hand(rng, level, size=9)
    made = {(c.type, c.size, c.key) for c in legal_plays(hand, level)}
    assert made == every_combination(hand, level)


@pytest.mark.parametrize("seed", range(8))
def test_gd_legal_plays_on_a_table_are_exactly_the_combinations_that_beat_it(seed):
    rng = random.Random(100 + seed)
    level = "7"
    hand = small_hand(rng, level)
    table = classify(rng.choice(["3S", "9C 9D", "5C 5C 5D", "3C 4C 5D 6D 7S", "4C 4D 4S 4H",
                                 "4D 4D 5S 5S 6C 6C", "2S 2D 2C 3C 3D"]), level)
    made = {(c.type, c.size, c.key) for c in legal_plays(hand, level, table)}
    expected = {(c.type, c.size, c.key) for cards in sub_multisets(hand)
                for c in readings(cards, level) if beats(c, table)}
    assert made == expected


@pytest.mark.parametrize("seed", range(5))
def test_gd_legal_plays_of_full_hands_pass_every_check(seed):
    rng = random.Random(seed)
    level = rng.choice("23456789TJQKA")
    hand = random_deal(rng)[0]
    leads = list(legal_plays(hand, level))
    assert leads
    for combo in leads:
        assert not (Counter(combo.cards) - Counter(hand))
        again = classify(combo.cards, level, combo.wild_as)
        assert (again.type, again.key, again.size) == (combo.type, combo.key, combo.size)
    table = rng.choice(leads)
    for combo in legal_plays(hand, level, table):
        assert beats(classify(combo.cards, level, combo.wild_as), table)


def test_gd_legal_plays_use_wildcards_only_where_needed():
    plays = {(c.type, c.key): c for c in legal_plays("QS QD 7H 5C", "7")}
    assert sorted(plays[("pair", 12)].cards) == ["QD", "QS"] and plays[("pair", 12)].wild_as == ()
    assert plays[("pair", 5)].wild_as == ("5H",)
    assert plays[("triple", 12)].wild_as == ("QH",)


def test_gd_straight_of_one_suit_uses_a_spare_wildcard_to_stay_a_plain_straight():
    plays = list(legal_plays("3S 4S 5S 6S 7S 9H", "9"))
    straights = [c for c in plays if c.type == "straight"]
    assert straights and all(len({c[1] for c in s.cards}) > 1 for s in straights)
    assert any(c.type == "straightFlush" for c in plays)


def test_gd_random_legal_play_is_reproducible_and_none_when_nothing_beats():
    hand = random_deal(random.Random(5))[1]
    first = random_legal_play(hand, "8", None, random.Random(9))
    assert first == random_legal_play(hand, "8", None, random.Random(9))
    assert random_legal_play(["3S", "4D"], "8", classify("9S 9D", "8"), random.Random(1)) is None
    assert not can_beat(["3S", "4D"], "8", classify("9S 9D", "8"))
    assert can_beat(["3S", "4D", "3D"], "8", classify("2S 2D", "8"))


def test_gd_legal_plays_find_the_four_jokers_and_the_biggest_bomb():
    hand = ["A" + suit for suit in "SHDC"] * 2 + ["BJ", "BJ", "SJ", "SJ", "7H", "7H"]
    plays = list(legal_plays(hand, "7"))
    assert any(c.type == "fourJokers" for c in plays)
    assert max(c.size for c in plays if c.type == "bomb") == 10
