"""rules/guandan/procedure.py and dealing in hand.py against guandan.md GD-1.1, GD-5.1, GD-8, GD-9."""
import random
from collections import Counter

import pytest

from rules import RuleViolation
from rules.guandan.cards import two_decks
from rules.guandan.hand import apply, deal, play, start_hand
from rules.guandan.procedure import (
    TIME_LIMITS,
    check_hands,
    first_drawer,
    random_deal,
    stacked_deal,
)
from rules.guandan.tribute import tribute_choices


def violated(rule, fn, *args):
    with pytest.raises(RuleViolation) as info:
        fn(*args)
    assert info.value.rule == rule
    return info.value


def test_gd_8_2_first_drawer_counts_from_south_by_the_turned_card():
    assert first_drawer("AS") == 1  # South itself
    assert first_drawer("4D") == 0 and first_drawer("KC") == 1 and first_drawer("TS") == 2
    assert first_drawer("3C") == 3 and first_drawer("2D") == 2


@pytest.mark.parametrize("card", ["BJ", "SJ", "2H"])
def test_gd_8_2_a_joker_or_2h_turned_up_means_cut_again(card):
    assert "cut again" in violated("GD-8.2", first_drawer, card).message


def test_gd_5_1_hand_1_the_holder_of_the_marked_card_leads():
    hands = stacked_deal({2: ["9D"]})
    h = apply(start_hand("2"), "HandDealt", None, {"hands": [list(x) for x in hands],
                                                   "markedCard": "9D", "firstLeader": 2})
    assert h.phase == "play" and h.turn == 2
    violated("GD-5.1", play, h, 3, [hands[3][0]])


def test_gd_8_2_first_leader_must_hold_the_marked_card():
    hands = stacked_deal({2: ["9D", "9D"]})
    assert "does not hold" in violated("GD-8.2", deal, start_hand("2"), hands, "9D", 1).message
    violated("GD-8.2", deal, start_hand("2"), hands, None, None)
    violated("GD-8.2", deal, start_hand("2"), stacked_deal({2: ["2H"]}), "2H", 2)


def test_gd_8_4_every_player_draws_27_cards():
    hands = [list(h) for h in random_deal(random.Random(3))]
    hands[0].append(hands[1].pop())
    assert "28 cards" in violated("GD-8.4", check_hands, hands).message


def test_gd_1_1_the_deal_is_exactly_two_decks():
    hands = [list(h) for h in random_deal(random.Random(3))]
    hands[0][0] = "BJ" if hands[0][0] != "BJ" else "SJ"
    assert "not exactly two decks" in violated("GD-1.1", check_hands, hands).message
    violated("GD-1.1", check_hands, hands[:3])


def test_gd_1_1_a_hand_is_dealt_once():
    h = deal(start_hand("2"), stacked_deal({0: ["9D"]}), "9D", 0)
    violated("GD-1.1", deal, h, stacked_deal({0: ["9D"]}), "9D", 0)


def test_gd_9_time_limits():
    assert TIME_LIMITS == {"tribute": 20, "return": 40, "firstLead": 40, "play": 20}


def test_gd_random_and_stacked_deals_are_legal_two_deck_deals():
    hands = random_deal(random.Random(11))
    assert random_deal(random.Random(11)) == hands
    assert check_hands(hands) == hands
    stacked = stacked_deal({1: ["BJ", "BJ"], 3: ["8C"]}, "8", low_seats=(3,))
    assert Counter(c for h in stacked for c in h) == two_decks()
    assert stacked[1].count("BJ") == 2 and tribute_choices(stacked[3], "8") == ("8C",)
    with pytest.raises(ValueError):
        stacked_deal({0: ["BJ"] * 3})
