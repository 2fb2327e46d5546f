"""The cases listed in the acceptance of the 掼蛋 issue (level L, cards → expected), on the pure
rules. Where a set of cards can be read as two types (a straight or a straight flush), GD-2.4
and guandan.md Ex 2 require the play to state its reading (``wildAs``): such a case is checked
with the reading and refused without it."""
from itertools import pairwise

import pytest

from rules import RuleViolation
from rules.guandan.combos import beats, classify
from rules.guandan.levels import upgrade


def refused(rule, cards, level):
    with pytest.raises(RuleViolation) as info:
        classify(cards, level)
    assert info.value.rule == rule


def test_l2_ten_to_ace_of_spades_with_the_wildcard_as_king_is_a_straight_flush_to_a():
    combo = classify("TS JS QS 2H AS", "2", ["KS"])
    assert (combo.type, combo.rank, combo.is_bomb) == ("straightFlush", "A", True)
    refused("GD-2.4", "TS JS QS 2H AS", "2")  # read as KH it is a plain straight


def test_l7_ace_to_four_of_spades_with_the_wildcard_as_five_is_a_straight_flush_to_5():
    combo = classify("AS 2S 3S 4S 7H", "7", ["5S"])
    assert (combo.type, combo.rank, combo.key) == ("straightFlush", "5", 5)
    refused("GD-2.4", "AS 2S 3S 4S 7H", "7")


def test_l2_small_and_big_joker_are_not_a_pair():
    refused("GD-3.4", "SJ BJ", "2")


def test_l2_two_small_and_two_big_jokers_are_the_four_joker_bomb():
    combo = classify("SJ SJ BJ BJ", "2")
    assert combo.type == "fourJokers" and combo.ladder() == (5,)


def test_l2_two_kings_and_two_wildcards_are_a_four_card_bomb_of_kings():
    combo = classify("KS KC 2H 2H", "2")
    assert (combo.type, combo.rank, combo.size, combo.wild_as) == ("bomb", "K", 4, ("KH", "KH"))


def test_l7_full_house_of_level_sevens_beats_full_house_of_aces():
    sevens, aces = classify("7S 7C 7D KS KC", "7"), classify("AS AC AD 2S 2C", "7")
    assert sevens.type == aces.type == "fullHouse"
    assert beats(sevens, aces) and not beats(aces, sevens)


L5_LADDER = [
    "2S 2C 2D 2H",                       # 4-card bomb of 2s
    "AS AC AD AH",                       # 4-card bomb of As
    "5S 5C 5D 5H",                       # 4-card bomb of the level rank (5H as itself)
    "2S 2S 2C 2D 2H",                    # 5-card bomb of 2s
    "6S 7S 8S 9S TS",                    # straight flush 6-10
    "TS JS QS KS AS",                    # straight flush to A
    "3S 3S 3C 3C 3D 3D",                 # 6-card bomb of 3s
    "4S 4S 4C 4C 4D 4D 4H",              # 7 cards
    "6S 6S 6C 6C 6D 6D 6H 6H",           # 8 cards
    "7S 7S 7C 7C 7D 7D 7H 7H 5H",        # 9 cards (a wildcard as a 7)
    "8S 8S 8C 8C 8D 8D 8H 8H 5H 5H",     # 10 cards (both wildcards)
    "BJ BJ SJ SJ",                       # the four jokers
]


def test_l5_the_bomb_ladder_from_four_2s_to_the_four_jokers():
    combos = [classify(cards, "5") for cards in L5_LADDER]
    assert all(c.is_bomb for c in combos)
    for lower, higher in pairwise(combos):
        assert beats(higher, lower) and not beats(lower, higher), (lower.describe(),
                                                                     higher.describe())
    assert [c.size for c in combos[-5:-1]] == [7, 8, 9, 10]


@pytest.mark.parametrize("order, steps", [([0, 2, 1, 3], 3), ([0, 1, 2, 3], 2),
                                          ([0, 1, 3, 2], 1)])
def test_finishing_orders_of_teams_0_2_and_1_3_upgrade_3_2_1(order, steps):
    assert upgrade(order) == (0, steps)
