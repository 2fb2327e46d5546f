"""Cards: notation (README section 2), decks (SJ2-1.1), points (SJ2-1.5), levels (SJ2-2) and the
trump class and positions (SJ2-3)."""
import pytest

from rules.shengji.cards import (
    JOKERS,
    LEVELS,
    POINTS,
    RANKS,
    SUITS,
    CardError,
    Trump,
    deck,
    level_value,
    missing_cards,
    parse_card,
    parse_cards,
    points,
    remove_cards,
)
from service.cli.common import said, translator


def cards(text):
    return tuple(text.split())


# --- notation -------------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["QH", "TD", "2C", "AS", "BJ", "SJ"])
def test_notation_accepts_rank_then_suit_and_jokers(text):
    assert parse_card(text) == text


@pytest.mark.parametrize("text", ["10H", "qh", "Qh", "H Q", "HQ", "Q♥", "", "Q", "QHH", " QH", "1S",
                                  "RJ", "bj", "JK", None, 12])
def test_notation_rejects_anything_but_exact_cards(text):
    with pytest.raises(CardError) as caught:
        parse_card(text)
    assert caught.value.card == text
    assert isinstance(caught.value, ValueError)


def test_parse_cards_reads_a_list_or_a_space_separated_string():
    assert parse_cards(["QH", "QH", "JH"]) == ("QH", "QH", "JH")
    assert parse_cards("QH QH  JH") == ("QH", "QH", "JH")
    with pytest.raises(CardError) as caught:
        parse_cards(["QH", "10H"])
    assert caught.value.card == "10H"


RANKS_SHOWN = "2 3 4 5 6 7 8 9 T J Q K A"
NOT_A_CARD = {"en": "'10H' is not a card: write rank then suit (ranks " + RANKS_SHOWN +
                    ", suits S H D C) or BJ / SJ",
              "zh": "'10H' 不是一张牌：先写点数再写花色（点数 " + RANKS_SHOWN +
                    "，花色 S H D C），或写 BJ / SJ"}
NOT_A_LEVEL = {"en": "'1' is not a level: use one of " + RANKS_SHOWN,
               "zh": "'1' 不是级数：请用 " + RANKS_SHOWN + " 之一"}


@pytest.mark.parametrize("refused, words", [
    (lambda: parse_card("10H"), NOT_A_CARD),
    (lambda: parse_cards(["QH", "10H"]), NOT_A_CARD),
    (lambda: level_value("1"), NOT_A_LEVEL),
    (lambda: Trump("4", "S").pos("10H"), NOT_A_CARD),
    (lambda: Trump("4", "S").of_class(["QH", "10H"], "H"), NOT_A_CARD),
], ids=["parse_card", "parse_cards", "level_value", "trump_entry", "of_class"])
def test_a_refused_card_is_said_in_its_readers_language_and_prints_as_english(refused, words):
    """Whoever shows the error (a CLI's line: service/cli/common.py said) says it in its
    reader's language; ``str()`` stays the English, for logs and for ``pytest.raises(match=)``."""
    with pytest.raises(CardError) as caught:
        refused()
    assert said(caught.value, translator("zh")) == words["zh"]
    assert said(caught.value, translator("en")) == str(caught.value) == words["en"]


def test_constants():
    assert RANKS == "23456789TJQKA" and SUITS == "SHDC" and JOKERS == ("BJ", "SJ")
    assert LEVELS == tuple(RANKS)


# --- decks, points, levels ------------------------------------------------------------------

def test_sj2_1_1_two_decks_hold_108_cards_each_twice():
    two = deck(2)
    assert sum(two.values()) == 108
    assert len(two) == 54 and set(two.values()) == {2}
    assert two["BJ"] == two["SJ"] == two["TH"] == 2
    assert sum(deck(3).values()) == 162
    with pytest.raises(ValueError):
        deck(0)


def test_sj2_1_5_point_cards_total_200_in_two_decks():
    assert points(deck(2).elements()) == 200
    assert POINTS["5"] == 5 and POINTS["T"] == 10 and POINTS["K"] == 10 and POINTS["Q"] == 0


def test_sj2_ex5_kitty_points():
    assert points(cards("5H TD KS KC 3D 4C 8S 9H")) == 35
    assert points(cards("BJ SJ AH")) == 0


def test_level_values():
    assert [level_value(r) for r in "23456789TJQKA"] == list(range(2, 15))
    with pytest.raises(ValueError):
        level_value("10")


def test_missing_and_remove_cards_are_multiset_operations():
    hand = cards("QH QH JH 5S")
    assert missing_cards(hand, cards("QH QH")) == ()
    assert missing_cards(hand, cards("QH QH QH JH JH")) == ("QH", "JH")
    assert missing_cards(hand, ()) == ()
    assert remove_cards(hand, cards("QH 5S")) == ("QH", "JH")
    with pytest.raises(ValueError):
        remove_cards(hand, cards("JH JH"))


# --- trump class and positions (SJ2-3) -----------------------------------------------------

def test_sj2_3_4_level_4_trump_spades_table():
    t = Trump("4", "S")
    plain = {"A": 12, "K": 11, "Q": 10, "J": 9, "T": 8, "9": 7, "8": 6, "7": 5, "6": 4, "5": 3, "3": 2, "2": 1}
    for suit in "SHDC":
        for rank, pos in plain.items():
            assert t.pos(rank + suit) == pos
    assert (t.pos("BJ"), t.pos("SJ"), t.pos("4S")) == (16, 15, 14)
    assert t.pos("4H") == t.pos("4D") == t.pos("4C") == 13
    assert t.card_class("AS") == "trump" and t.card_class("4H") == "trump"
    assert t.card_class("AH") == "H" and t.card_class("2C") == "C"


def test_sj2_ex1_level_7_trump_hearts_table():
    t = Trump("7", "H")
    expected = {"7H": 14, "7S": 13, "7D": 13, "7C": 13, "AH": 12, "KH": 11, "QH": 10, "JH": 9, "TH": 8,
                "9H": 7, "8H": 6, "6H": 5, "5H": 4, "4H": 3, "3H": 2, "2H": 1}
    assert {card: t.pos(card) for card in expected} == expected
    assert all(t.is_trump(card) for card in expected)
    assert not t.is_trump("KS") and t.pos("KS") == 11 and t.pos("8S") == 6


def test_level_a_table_skips_the_ace():
    t = Trump("A", "D")
    assert (t.pos("AD"), t.pos("AS"), t.pos("KD"), t.pos("KS"), t.pos("2D")) == (14, 13, 12, 12, 1)
    assert t.card_class("AC") == "trump" and t.card_class("KC") == "C"


def test_level_2_table():
    t = Trump("2", "C")
    assert (t.pos("AH"), t.pos("3H"), t.pos("2C"), t.pos("2H"), t.pos("3C")) == (12, 1, 14, 13, 1)


def test_sj2_3_2_no_trump_only_jokers_and_level_cards_are_trump():
    t = Trump("4", None)
    assert (t.pos("BJ"), t.pos("SJ")) == (3, 2)
    assert {t.pos("4" + s) for s in SUITS} == {1}
    assert all(t.is_trump("4" + s) for s in SUITS)
    for suit in SUITS:
        assert t.card_class("A" + suit) == suit and t.pos("A" + suit) == 12 and t.pos("5" + suit) == 3


def test_trump_rejects_bad_levels_suits_and_cards():
    with pytest.raises(ValueError):
        Trump("10", "S")
    with pytest.raises(ValueError):
        Trump("4", "X")
    with pytest.raises(CardError):
        Trump("4", "S").pos("10S")


def test_trump_is_a_hashable_value():
    assert Trump("4", "S") == Trump("4", "S") and hash(Trump("4", None)) == hash(Trump("4", None))
    assert Trump("4", "S") != Trump("4", "H")


def test_format_cards_puts_trumps_first_then_suits_high_to_low():
    t = Trump("4", "S")
    assert t.format_cards(cards("2C AH 4D BJ 3S 4S KH SJ 4H 5D")) == "BJ SJ 4S 4H 4D 3S AH KH 5D 2C"
    assert Trump("4", None).format_cards(cards("AS 4S SJ 4H")) == "SJ 4S 4H AS"
