"""Revealing and counter-revealing trump in three-deck Shengji (SJ3-3; seed 004 articles 七, 八 and
反揭原则〈1〉–〈4〉): worked example 1 — hand 1 at level 2 and hand 4 at level 6 — and the pause."""
from datetime import datetime, timedelta, timezone

import pytest

from rules.shengji import declaring, reveals
from rules.violations import RuleViolation

T0 = datetime(2006, 5, 27, 9, 0, tzinfo=timezone.utc)
HAND = ["2D", "2D", "2C", "2C", "2C", "2H", "2H", "2S", "2S", "2S", "6H", "6H", "6S", "6S",
        "6D", "6D", "6D"]  # every seat is dealt all of these here: only the counts matter


def refused(rule: str, step, *args) -> None:
    with pytest.raises(RuleViolation) as caught:
        step(*args)
    assert caught.value.rule == rule, caught.value


def test_sj3_ex1_reveals_and_counter_reveals_in_hand_1():
    b = reveals.bidding_for_reveals("2")
    b = reveals.reveal(b, 2, "2D", HAND, T0)
    assert (b.standing.suit, b.standing.seat) == ("D", 2)
    b = reveals.counter_reveal(b, 3, ["2C", "2C"], HAND, T0, seize=True)
    assert (b.standing.suit, b.standing.seat) == ("C", 3)
    refused("SJ3-3.4", reveals.counter_reveal, b, 0, ["2H", "2H"], HAND, T0, True)
    refused("SJ3-3.4", reveals.counter_reveal, b, 2, ["2D", "2D"], HAND, T0, True)  # reinforcing
    b = reveals.counter_reveal(b, 0, ["2S", "2S", "2S"], HAND, T0, seize=True)
    assert (b.standing.suit, b.standing.seat) == ("S", 0)
    refused("SJ3-3.4", reveals.counter_reveal, b, 3, ["2C", "2C", "2C"], HAND, T0, True)


def test_sj3_ex1_hand_4_a_counter_reveal_must_change_the_suit_after_hand_1():
    b = reveals.bidding_for_reveals("6")
    b = reveals.reveal(b, 3, "6H", HAND, T0)
    refused("SJ3-3.3", reveals.counter_reveal, b, 0, ["6H", "6H"], HAND, T0, False)
    b = reveals.counter_reveal(b, 0, ["6S", "6S"], HAND, T0, seize=False)
    b = reveals.counter_reveal(b, 3, ["6D", "6D", "6D"], HAND, T0, seize=False)
    assert (b.standing.suit, b.standing.seat) == ("D", 3)  # his first reveal no longer stood
    refused("SJ3-3.5", reveals.counter_reveal, b, 3, ["6S", "6S", "6S"], HAND, T0, False)


def test_sj3_3_3_in_hand_1_the_same_suit_seizes_the_deal():
    b = reveals.reveal(reveals.bidding_for_reveals("2"), 1, "2H", HAND, T0)
    b = reveals.counter_reveal(b, 2, ["2H", "2H"], HAND, T0, seize=True)
    assert (b.standing.suit, b.standing.seat) == ("H", 2)


def test_sj3_3_5_the_partner_may_counter_reveal():
    b = reveals.reveal(reveals.bidding_for_reveals("6"), 0, "6H", HAND, T0)
    b = reveals.counter_reveal(b, 2, ["6S", "6S"], HAND, T0, seize=False)
    assert b.standing.seat == 2


@pytest.mark.parametrize("cards, why", [
    (["6S", "6H"], "not identical"), (["BJ", "BJ"], "jokers never reveal (SJ3-2.2)"),
    (["7S", "7S"], "not level cards"), (["6S"] * 4, "four cards"),
])
def test_sj3_3_2_a_counter_reveal_is_two_or_three_identical_level_cards(cards, why):
    b = reveals.reveal(reveals.bidding_for_reveals("6"), 0, "6H", HAND, T0)
    refused("SJ3-3.2", reveals.counter_reveal, b, 1, cards, HAND + ["BJ", "BJ", "7S", "7S"],
            T0, False)


def test_sj3_3_2_cards_not_held_do_not_counter_reveal():
    b = reveals.reveal(reveals.bidding_for_reveals("6"), 0, "6H", HAND, T0)
    refused("SJ3-3.2", reveals.counter_reveal, b, 1, ["6C", "6C"], HAND, T0, False)


def test_sj3_3_1_a_reveal_is_one_held_level_card_and_only_while_none_stands():
    b = reveals.bidding_for_reveals("6")
    refused("SJ3-3.1", reveals.reveal, b, 0, "7H", ["7H"], T0)
    refused("SJ3-3.1", reveals.reveal, b, 0, "BJ", ["BJ"], T0)
    refused("SJ3-3.1", reveals.reveal, b, 0, "6C", HAND, T0)
    b = reveals.reveal(b, 0, "6H", HAND, T0)
    refused("SJ3-3.2", reveals.reveal, b, 1, "6S", HAND, T0)


def test_sj3_ex1_the_kitty_after_a_5_second_pause_and_no_reveal_after_it():
    b = declaring.deal_completed(reveals.bidding_for_reveals("2"), T0)
    refused("SJ3-3.6", reveals.must_have_paused, b, T0 + timedelta(seconds=3))
    reveals.must_have_paused(b, T0 + timedelta(seconds=5))
    b = reveals.close_at_kitty(reveals.reveal(b, 0, "2S", HAND, T0 + timedelta(seconds=1)))
    refused("SJ3-3.6", reveals.counter_reveal, b, 1, ["2C", "2C"], HAND, T0, True)
    refused("SJ3-3.6", reveals.reveal, reveals.close_at_kitty(
        reveals.bidding_for_reveals("2")), 1, "2C", HAND, T0)


def test_sj3_3_6_a_counter_reveal_restarts_the_pause_only_with_the_setting():
    for restarts, wait in ((False, 5), (True, 9)):
        b = declaring.deal_completed(reveals.bidding_for_reveals("2", restarts), T0)
        b = reveals.reveal(b, 0, "2S", HAND, T0)
        b = reveals.counter_reveal(b, 1, ["2C", "2C"], HAND, T0 + timedelta(seconds=4), True)
        refused("SJ3-3.6", reveals.must_have_paused, b, T0 + timedelta(seconds=wait - 0.5))
        reveals.must_have_paused(b, T0 + timedelta(seconds=wait))


def test_sj3_3_7_without_a_reveal_the_first_non_joker_kitty_card_or_a_redeal():
    b = reveals.bidding_for_reveals("5")
    kitty = ["BJ", "SJ", "KH", "TD", "5S", "3C"]
    assert reveals.trump_at_kitty(b, kitty, False, "kittyFirstNonJoker") == \
        ("H", "kittyFirstNonJoker")
    assert reveals.trump_at_kitty(b, kitty, True, "kittyFirstNonJoker") is None  # hand 1
    assert reveals.trump_at_kitty(b, kitty, False, "redeal") is None
