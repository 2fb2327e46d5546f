"""The value of a winning hand (MJS-6): patterns, pure one suit, 根, the situational fans, the
reading of highest value, the cap; and the settings that change them (MJS section 12)."""
from dataclasses import replace

import pytest
from mjs_states import MJS, act, arranged

from rules import RuleViolation
from rules.mahjong.sichuan import (
    draw_checks,
    hand_value,
    points_for,
    settings_dict,
    sichuan_settings,
)
from rules.mahjong.tiles import parse_meld, parse_tiles


def value(tiles: str, melds: str = "", settings=MJS, fans=()):
    parsed = tuple(parse_meld(f"[{m.strip()}") for m in melds.split("[") if m.strip())
    return hand_value(parse_tiles(tiles), parsed, settings, fans)


@pytest.mark.parametrize("fan, points", [(0, 2), (1, 4), (2, 8), (3, 16), (4, 32), (5, 32),
                                         (9, 32)])
def test_mjs_6_3_the_fan_table_and_the_cap(fan, points):
    assert points_for(fan, MJS) == points


def test_mjs_6_1_the_cap_is_a_setting():
    assert points_for(5, replace(MJS, cap=64)) == 64


def test_mjs_5_2_all_pongs_counts_melded_pongs_and_kongs():
    v = value("5p 5p 5p 9s 9s 2s 2s 2s", "[pong 3p] [kong 8s]")
    assert v.pattern == "allPongs" and dict(v.fans) == {"allPongs": 1, "gen": 1}


def test_mjs_5_4_pure_one_suit_combines_with_the_patterns():
    assert dict(value("1m 2m 3m 4m 5m 6m 7m 8m 9m 2m 3m 4m 6m 6m").fans) == {"pure": 2}
    assert value("1p 1p 1p 3p 3p 3p 5p 5p 5p 7p 7p 7p 9p 9p").points == 16   # pure all pongs


def test_mjs_6_1_the_reading_of_highest_value_is_scored():
    # two chows twice and a pair, or seven pairs: seven pairs is worth more
    v = value("1m 1m 2m 2m 3m 3m 4p 4p 5p 5p 6p 6p 9p 9p")
    assert v.pattern == "sevenPairs" and v.points == 8


def test_mjs_6_2_gen_counts_four_held_unless_the_setting_says_only_kongs():
    hand = "2m 2m 2m 2m 3m 4m 5p 6p 7p 8p 8p 8p 9p 9p"      # 2m ×4 used as pung + chow
    assert dict(value(hand).fans).get("gen") == 1
    only_kongs = replace(MJS, genCountsUndeclaredFour=False)
    assert "gen" not in dict(value(hand, settings=only_kongs).fans)
    assert dict(value("5m 6m 7m 1p 2p 3p 9p 9p", "[pong 4p] [kong 2m]", only_kongs).fans) == \
        {"gen": 1}
    # a pong and its fourth in hand is a 根 too
    assert dict(value("4p 5p 6p 1m 2m 3m 7m 8m 9m 9p 9p", "[pong 4p]").fans).get("gen") == 1


def test_mjs_6_2_situational_fans_each_add_one():
    base = "1m 2m 3m 4m 5m 6m 7s 8s 9s 5s 6s 7s 2s 2s"
    for fans, points in (([], 2), (["selfDraw"], 4), (["selfDraw", "kongFlower"], 8),
                         (["afterKong"], 4), (["robKong"], 4), (["selfDraw", "lastTile"], 8)):
        assert value(base, fans=fans).points == points


def test_not_a_winning_hand_has_no_value():
    with pytest.raises(ValueError):
        value("1m 2m 4m 4m 5m 6m 7s 8s 9s 5s 6s 7s 2s 2s")


def test_mjs_8_4_the_draw_value_pattern_fans_and_gen_highest_unless_set_to_lowest():
    shanpon = "5m 5m 5m 7m 7m 7m 2p 2p 2p 9m 9m 6p 6p"          # 9m or 6p: all pongs, 4
    mixed = "1m 2m 3m 5m 5m 5m 7m 7m 7m 9m 9m 6p 6p"             # 9m or 6p: basic, 2
    state = act(arranged({0: (shanpon, ""), 1: (mixed, "")}, voids="ssss", turn=0,
                         wall_count=0), "DrawGame")
    checks = {c.seat: c for c in draw_checks(state)}
    assert checks[0].waits == ("9m", "6p") and checks[0].value.points == 4
    assert checks[1].value.points == 2
    # on 9m the hand holds four 9m (根, 4); on 3m, 6m or 1p it is basic (2)
    hand = "1m 2m 3m 4m 5m 6m 7m 8m 9m 9m 9m 1p 1p"
    state = arranged({0: (hand, "")}, voids="ssss", turn=0, wall_count=0)
    high = draw_checks(act(state, "DrawGame"))[0]
    low_settings = replace(MJS, drawSettlementValue="lowest")
    low = draw_checks(act(replace(state, settings=low_settings), "DrawGame"))[0]
    assert high.waits == ("3m", "6m", "9m", "1p") and (high.value.points, low.value.points) == (4, 2)


def test_mjs_12_settings_defaults_and_refusals():
    shown = settings_dict(sichuan_settings({}))
    assert shown["cap"] == 32 and shown["kongConcealed"] == 4 and shown["exchangeThree"] is False
    assert shown["lastDiscardWinnable"] is True and shown["sessionRounds"] == 4
    assert sichuan_settings({"final": True}).exchangeThree is True
    assert sichuan_settings({"final": True, "exchangeThree": False}).exchangeThree is False
    assert sichuan_settings({"lastDiscardWinnable": False}).lastTileDiscard is False
    for bad in ({"cap": "32"}, {"disclosurePayee": "all"}, {"chow": True}, {"final": 1}):
        with pytest.raises(RuleViolation) as info:
            sichuan_settings(bad)
        assert info.value.rule == "MJS-12"
