"""rules/mahjong/winning.py against MJO-5.1 to 5.5 (worked examples 1 to 5 and 12) and the
settings a Sichuan game would use (MJS-5.1 to 5.3)."""
from dataclasses import replace

import pytest

from rules import RuleViolation
from rules.mahjong import MJO
from rules.mahjong.tiles import parse_meld, parse_tiles
from rules.mahjong.winning import (
    is_winning_hand,
    must_be_winning_hand,
    set_readings,
    waits,
    winning_readings,
)


def tiles(text):
    return parse_tiles(text)


def melds(*texts):
    return tuple(parse_meld(t) for t in texts)


def rejected(rule, hand, exposed=(), settings=MJO):
    with pytest.raises(RuleViolation) as info:
        must_be_winning_hand(tiles(hand), exposed, settings)
    assert info.value.rule == rule
    assert f"({rule})" in info.value.message
    return info.value


def test_mjo_ex1_valid_win():
    (reading,) = winning_readings(tiles("1m 2m 3m 4p 5p 6p 7s 8s 9s C C C 5m 5m"), (), MJO)
    assert reading.pair == "5m"
    assert sorted(reading.sets) == [("1m", "2m", "3m"), ("4p", "5p", "6p"), ("7s", "8s", "9s"),
                                    ("C", "C", "C")]


def test_mjo_ex2_pair_of_the_wrong_rank():
    hand = "1m 2m 3m 4p 5p 6p 7s 8s 9s C C C 3m 3m"
    assert not is_winning_hand(tiles(hand), (), MJO)
    assert "3m3m" in rejected("MJO-5.2", hand).message


def test_mjo_ex3_the_search_finds_the_258_reading():
    hand = tiles("2m 2m 2m 3m 4m 5p 5p 5p 6s 7s 8s E E E")
    (reading,) = winning_readings(hand, (), MJO)
    assert reading.pair == "2m" and ("2m", "3m", "4m") in reading.sets


def test_mjo_ex4_seven_pairs_are_not_a_win():
    hand = "2m 2m 5m 5m 8m 8m 2p 2p 5p 5p 8p 8p E E"
    assert not is_winning_hand(tiles(hand), (), MJO)
    assert "seven pairs" in rejected("MJO-5.3", hand).message


def test_mjo_ex5_single_wait():
    assert waits(tiles("1m 2m 3m 4m 5m 6m 7p 8p 9p E E E 8s"), (), MJO) == ("8s",)
    assert is_winning_hand(tiles("1m 2m 3m 4m 5m 6m 7p 8p 9p E E E 8s 8s"), (), MJO)
    assert waits(tiles("1m 2m 3m 4m 5m 6m 7p 8p 9p E E E 4s"), (), MJO) == ()


def test_mjo_ex12_four_identical_tiles_as_a_pung_and_part_of_a_chow():
    hand = tiles("7m 8m 9m 9m 9m 9m 2p 3p 4p 5s 6s 7s 5p 5p")
    readings = winning_readings(hand, (), MJO)
    assert any(("9m", "9m", "9m") in r.sets and ("7m", "8m", "9m") in r.sets for r in readings)


def test_mjo_5_1_a_winning_hand_has_fourteen_tiles():
    assert "13 tiles" in rejected("MJO-5.1", "1m 2m 3m 4p 5p 6p 7s 8s 9s C C C 5m").message
    rejected("MJO-5.1", "1m 2m 3m 4p 5p 6p 7s 8s 9s C C C 5m 5m", melds("[pong E]"))


def test_mjo_5_1_a_hand_that_is_not_sets_and_a_pair():
    rejected("MJO-5.1", "1m 4m 7m 2p 5p 8p 3s 6s 9s E S W N C")


def test_mjo_5_2_honour_pairs_do_not_count():
    assert "2, 5 or 8" in rejected("MJO-5.2", "1m 2m 3m 4p 5p 6p 7s 8s 9s C C C E E").message


@pytest.mark.parametrize("pair", ["2m", "5p", "8s"])
def test_mjo_5_2_any_suit_of_two_five_or_eight(pair):
    assert is_winning_hand(tiles(f"1m 2m 3m 4p 5p 6p 7s 8s 9s C C C {pair} {pair}"), (), MJO)


def test_mjo_5_5_exposed_melds_stay_fixed_sets():
    # 2m 2m 2m 3m 4m would read as pair 2m + chow 234m, but the pong is exposed and fixed.
    concealed = tiles("3m 4m 6p 7p 8p 5s 5s 5s E E E")
    assert not is_winning_hand(concealed, melds("[pong 2m]"), MJO)
    assert is_winning_hand(tiles("2m 2m 2m 3m 4m 6p 7p 8p 5s 5s 5s E E E"), (), MJO)
    (reading,) = winning_readings(tiles("2m 2m 5p 5p 5p 6s 7s 8s E E E"), melds("[chow 2m3m4m]"),
                                  MJO)
    assert reading.melds == melds("[chow 2m3m4m]") and reading.pair == "2m"


def test_mjo_5_5_every_reading_is_found():
    # 1m1m1m 2m2m2m 3m3m3m: three pungs or three chows, with 5p 5p and a pung of E.
    readings = set_readings(tiles("1m 1m 1m 2m 2m 2m 3m 3m 3m 5p 5p E E E"))
    shapes = {tuple(sorted(r.sets)) for r in readings}
    assert (("1m", "1m", "1m"), ("2m", "2m", "2m"), ("3m", "3m", "3m"), ("E", "E", "E")) in shapes
    assert (("1m", "2m", "3m"),) * 3 + (("E", "E", "E"),) in shapes
    assert len(readings) == len(shapes) == 2


def test_kongs_count_as_sets_and_winning_hand_counts_each_meld_as_three():
    exposed = melds("[kong 6m concealed]")
    assert is_winning_hand(tiles("1m 2m 3m 7p 8p 9p 4p 4p 4p 5m 5m"), exposed, MJO)


def test_mjs_5_3_seven_pairs_where_the_game_allows_them():
    sichuan = replace(MJO, sevenPairs=True, pairRanks=None, tileCount=108)
    hand = tiles("1s 1s 3s 3s 3s 3s 5s 5s 7s 7s 9s 9s 8s 8s")
    (reading,) = winning_readings(hand, (), sichuan)
    assert reading.form == "sevenPairs" and reading.pairs.count("3s") == 2
    assert not is_winning_hand(hand, (), replace(sichuan, fourAsTwoPairs=False))
    # seven pairs are fully concealed
    assert not is_winning_hand(tiles("1s 1s 3s 3s 5s 5s 7s 7s 9s 9s 8s"), melds("[pong 2s]"),
                               sichuan)


def test_mjs_waits_include_seven_pairs_and_ignore_the_pair_rank_without_it():
    sichuan = replace(MJO, sevenPairs=True, pairRanks=None, tileCount=108)
    assert waits(tiles("1m 1m 2m 2m 3m 3m 5m 5m 7m 7m 9m 9m 4p"), (), sichuan) == ("4p",)
    assert waits(tiles("1m 2m 3m 4p 5p 6p 7s 8s 9s 1s 1s 1s 3m"), (), sichuan) == ("3m",)


def test_a_fifth_copy_is_never_a_wait():
    assert "1m" not in waits(tiles("1m 1m 1m 1m 2m 3m 4p 5p 6p 7s 8s 9s 5s"), (), MJO)
