"""rules/guandan/cards.py and settings.py against guandan.md GD-1, GD-2.1–2.3 (Ex 1) and
section 14."""
import pytest

from rules import RuleViolation
from rules.guandan.cards import (
    is_wildcard,
    natural_value,
    parse_cards,
    parse_level,
    sort_cards,
    two_decks,
    value,
    wildcard,
)
from rules.guandan.settings import GDSettings, settings_from


def test_gd_ex1_order_at_level_7():
    cards = ["2S", "AS", "7S", "BJ", "KD", "3C", "SJ", "7C", "8H", "6D", "TC", "QS", "JD", "9C", "4H", "5D"]
    ordered = sort_cards(cards, "7")
    assert ordered[:4] == ("BJ", "SJ", "7S", "7C")
    assert "".join(c[0] for c in ordered[4:]) == "AKQJT9865432"  # 7 removed from its natural place
    assert value("7S", "7") == value("7H", "7") == value("7D", "7") == 15


def test_gd_ex1_wildcards_are_the_two_hearts_of_the_level():
    assert wildcard("7") == "7H" and is_wildcard("7H", "7") and not is_wildcard("7S", "7")
    assert wildcard("T") == "TH" and not is_wildcard("TH", "7")


def test_gd_2_1_values_at_level_10():
    assert [value(c, "T") for c in ["BJ", "SJ", "TS", "AS", "KS", "9S", "2S"]] == [17, 16, 15, 14, 13, 9, 2]


def test_gd_2_2_natural_values_put_the_level_rank_in_its_place():
    assert natural_value("T") == 10 and natural_value("A") == 14 and natural_value("2") == 2


def test_gd_1_1_two_decks_of_108_cards():
    pack = two_decks()
    assert sum(pack.values()) == 108 and pack["BJ"] == 2 and pack["7H"] == 2


@pytest.mark.parametrize("text", ["10H", "qh", "Q♥", "RJ", 7])
def test_gd_1_1_bad_card_notation_is_rejected(text):
    with pytest.raises(RuleViolation) as info:
        parse_cards([text])
    assert info.value.rule == "GD-1.1"


def test_gd_1_2_levels_are_ranks_2_to_a():
    assert parse_level("A") == "A"
    with pytest.raises(RuleViolation) as info:
        parse_level("1")
    assert info.value.rule == "GD-1.2"


def test_gd_settings_defaults_follow_section_14():
    s = settings_from(None)
    assert s == GDSettings()
    assert (s.full_house_joker_pair, s.a_failures_before_reset, s.tribute_when_partner_last,
            s.equal_tribute_assignment, s.return_single, s.return_may_be_tribute_card,
            s.anti_tribute_mode, s.jiefeng, s.auto_pass_on_timeout, s.match_minutes,
            s.overtime_minutes) == (True, 3, "thirdPays", "rightSideToFirst", "natural2to10",
                                    True, "optional", True, False, 60, 30)  # GD-7.4/7.5: seed


def test_gd_settings_read_camel_case_keys_and_ignore_other_games():
    s = settings_from({"aFailuresBeforeReset": 2, "jiefeng": False, "enforcement": "record", "kitty": 8})
    assert s.a_failures_before_reset == 2 and s.jiefeng is False


@pytest.mark.parametrize("key,bad,rule", [
    ("tributeWhenPartnerLast", "firstPays", "GD-7.1"),
    ("aFailuresBeforeReset", 0, "GD-6.4"),
    ("fullHouseJokerPair", "yes", "GD-3.3"),
    ("antiTributeMode", "never", "GD-7.5"),
    ("equalTributeAssignment", "lots", "GD-7.3"),
])
def test_gd_settings_outside_the_allowed_values_are_rejected(key, bad, rule):
    with pytest.raises(RuleViolation) as info:
        settings_from({key: bad})
    assert info.value.rule == rule and key in info.value.message
