"""rules/guandan/cards.py take_cards: a play's cards taken out of a hand (GD-5.2) — the same as
remove_cards and multisets.missing, in one pass."""
import pytest

from rules import multisets
from rules.guandan.cards import remove_cards, take_cards

HAND = ("2S", "5D", "5D", "9H", "BJ", "QC")


@pytest.mark.parametrize("cards", [
    ("5D",), ("5D", "5D"), ("BJ", "2S", "QC"), ("9H", "5D", "QC", "2S", "BJ", "5D"), (),
])
def test_a_held_play_leaves_the_sorted_rest_and_nothing_missing(cards):
    assert take_cards(HAND, cards) == (remove_cards(HAND, cards), ())


@pytest.mark.parametrize("cards", [
    ("3S",), ("5D", "5D", "5D"), ("SJ", "BJ", "BJ", "7C"),
])
def test_what_the_hand_does_not_hold_is_named_in_the_order_given(cards):
    _, missing = take_cards(HAND, cards)
    assert missing == multisets.missing(HAND, cards)
    assert missing


def test_an_unsorted_hand_comes_back_sorted():
    assert take_cards(["QC", "2S", "5D"], ["5D"]) == (("2S", "QC"), ())
