"""rules/shengji/declaring.py against shengji-2deck.md SJ2-4, SJ2-5.1 and Ex 8, Ex 9."""
import json
from datetime import datetime, timedelta, timezone

import pytest

from rules import RuleViolation
from rules.shengji.declaring import (
    Bid,
    Bidding,
    bidding_for_hand,
    close_window,
    deadline,
    deal_completed,
    declare,
    declare_simultaneous,
    first_hand_dealer,
    lots_pending,
    must_be_closed_for_kitty,
    overcall,
    resolve_lots,
    trump_at_close,
)

T0 = datetime(2006, 12, 23, 10, 0, 0, tzinfo=timezone.utc)  # DealCompleted in every test


def t(seconds):
    return T0 + timedelta(seconds=seconds)


def violated(rule, fn, *args):
    with pytest.raises(RuleViolation) as info:
        fn(*args)
    assert info.value.rule == rule, info.value
    assert info.value.message
    return info.value


# The cards each seat holds in the tests (only what matters; shown cards stay in the hand).
HANDS = {
    0: ["2C", "5H", "KS", "BJ", "SJ"],
    1: ["2S", "2S", "2D", "2D", "BJ", "BJ", "7C"],
    2: ["2H", "2H", "2C", "TD"],
    3: ["SJ", "SJ", "2S", "2S", "2C", "2C", "2D"],
}


def declared(seat=2, card="2H", at=-40, **settings):
    return declare(Bidding(level="2", **settings), seat, card, HANDS[seat], t(at))


# ---------------------------------------------------------------- Ex 8, row by row

def test_sj2_ex8_declaration_war():
    b = Bidding(level="2")
    # −40 s: seat 2 TrumpDeclared 2H → trump H; dealer-to-be seat 2.
    b = declare(b, 2, "2H", HANDS[2], t(-40))
    assert (b.standing.suit, b.standing.seat, first_hand_dealer(b), b.first_declarer) == ("H", 2, 2, 2)
    assert deadline(b) is None
    # −10 s: seat 1 TrumpOvercalled 2S 2S → trump S; seat 1.
    b = overcall(b, 1, ["2S", "2S"], HANDS[1], t(-10))
    assert (b.standing.suit, first_hand_dealer(b)) == ("S", 1)
    # 0 s: DealCompleted → deadline max(0 + 15, −10 + 15) = 15 s.
    b = deal_completed(b, t(0))
    assert deadline(b) == t(15)
    # 5 s: seat 1 TrumpOvercalled 2D 2D → rejected SJ2-4.5 (his own declaration stands).
    assert "himself" in violated("SJ2-4.5", overcall, b, 1, ["2D", "2D"], HANDS[1], t(5)).message
    # 9 s: seat 2 TrumpOvercalled 2H 2H → accepted (SJ2-4.6); trump H; seat 2; deadline 24 s.
    b = overcall(b, 2, ["2H", "2H"], HANDS[2], t(9))
    assert (b.standing.suit, first_hand_dealer(b), deadline(b)) == ("H", 2, t(24))
    # 20 s: seat 3 TrumpOvercalled SJ SJ → no-trump; seat 3; deadline 35 s.
    b = overcall(b, 3, ["SJ", "SJ"], HANDS[3], t(20))
    assert (b.no_trump, b.standing.suit, first_hand_dealer(b), deadline(b)) == (True, None, 3, t(35))
    # 30 s: seat 2 TrumpOvercalled 2H 2H → rejected; the spec lists SJ2-4.4/4.6. By default a
    # level pair may overcall no-trump (seed rule 4), so it is the first declarer's return that
    # is barred: SJ2-4.6. With the setting off, SJ2-4.4 (see the tests below).
    assert "no-trump" in violated("SJ2-4.6", overcall, b, 2, ["2H", "2H"], HANDS[2], t(30)).message
    # 33 s: seat 1 TrumpOvercalled BJ BJ → accepted; still no-trump; seat 1; deadline 48 s.
    b = overcall(b, 1, ["BJ", "BJ"], HANDS[1], t(33))
    assert (b.no_trump, first_hand_dealer(b), deadline(b)) == (True, 1, t(48))
    # 40 s: seat 1 KittyTaken → rejected SJ2-4.8 (window open); the window cannot close yet either.
    violated("SJ2-4.8", must_be_closed_for_kitty, b)
    violated("SJ2-4.7", close_window, b, t(40))
    # 48 s: DeclarationWindowClosed → no-trump, dealer seat 1.
    b = close_window(b, t(48))
    must_be_closed_for_kitty(b)
    assert trump_at_close(b, ["4C", "QD", "JH", "7S", "2D", "9C", "KS", "5H"]) == (None, "declaration")
    assert first_hand_dealer(b) == 1
    assert [(bid.seat, bid.suit) for bid in b.history] == [(2, "H"), (1, "S"), (2, "H"), (3, None), (1, None)]
    # After the close a declaration is too late (SJ2-4.7); an overcall needs the window opened
    # again, which the hand does until the kitty is taken (SJ2-4.8, seed rule 4).
    violated("SJ2-4.7", declare, Bidding(level="2", deal_completed_at=t(0), closed=True),
             3, "2C", HANDS[3] + ["2C"], t(49))
    violated("SJ2-4.8", overcall, b, 3, ["SJ", "SJ"], HANDS[3], t(49))


def test_sj2_ex8_row_30s_with_level_pair_setting_cites_sj2_4_6_for_the_first_declarer():
    b = Bidding(level="2", nt_overcallable_by_level_pair=True)
    b = declare(b, 2, "2H", HANDS[2], t(-40))
    b = overcall(b, 1, ["2S", "2S"], HANDS[1], t(-10))
    b = deal_completed(b, t(0))
    b = overcall(b, 2, ["2H", "2H"], HANDS[2], t(9))
    b = overcall(b, 3, ["SJ", "SJ"], HANDS[3], t(20))
    assert "original suit" in violated("SJ2-4.6", overcall, b, 2, ["2H", "2H"], HANDS[2], t(30)).message
    # with the setting another seat's level pair may overcall no-trump
    b = overcall(b, 1, ["2D", "2D"], HANDS[1], t(30))
    assert (b.no_trump, b.standing.suit, first_hand_dealer(b)) == (False, "D", 1)


# ---------------------------------------------------------------- SJ2-4.1 declaration

def test_sj2_4_1_declaration_makes_the_card_suit_trump_and_the_card_stays_in_hand():
    b = declared(seat=0, card="2C", at=-3)
    assert b.standing == Bid(0, ("2C",), "C", t(-3)) and b.first_declarer == 0 and not b.no_trump


def test_sj2_4_1_declaration_with_a_card_not_held():
    error = violated("SJ2-4.1", declare, Bidding(level="2"), 0, "2H", HANDS[0], t(-5))
    assert "does not hold" in error.message


@pytest.mark.parametrize("card", ["5H", "BJ", "SJ", "2X", "22"])
def test_sj2_4_1_declaration_with_a_non_level_card(card):
    hand = HANDS[0] + [card]
    error = violated("SJ2-4.1", declare, Bidding(level="2"), 0, card, hand, t(-5))
    assert "not a level card" in error.message


def test_sj2_4_1_declaration_at_a_higher_level():
    b = declare(Bidding(level="K"), 0, "KS", HANDS[0], t(-5))
    assert b.standing.suit == "S"
    violated("SJ2-4.1", declare, Bidding(level="K"), 2, "2H", HANDS[2], t(-5))


def test_sj2_4_1_no_second_declaration_once_one_stands():
    b = declared()
    assert "overcall" in violated("SJ2-4.1", declare, b, 0, "2C", HANDS[0], t(-30)).message


# ---------------------------------------------------------------- SJ2-4.3 overcall

def test_sj2_4_3_overcall_when_nothing_stands():
    violated("SJ2-4.3", overcall, Bidding(level="2"), 1, ["2S", "2S"], HANDS[1], t(-5))


@pytest.mark.parametrize("cards", [["2S", "2D"], ["BJ", "SJ"], ["2S"], ["2S", "2S", "2S"]])
def test_sj2_4_3_overcall_with_two_different_cards_or_not_two_cards(cards):
    hand = HANDS[1] + ["SJ", "2S"]
    assert "pair" in violated("SJ2-4.3", overcall, declared(), 1, cards, hand, t(-5)).message


def test_sj2_4_3_overcall_with_a_pair_that_is_not_level_cards():
    hand = HANDS[1] + ["7C"]
    assert "neither" in violated("SJ2-4.3", overcall, declared(), 1, ["7C", "7C"], hand, t(-5)).message


def test_sj2_4_3_overcall_needs_both_cards_in_hand():
    hand = ["2S", "BJ"]
    violated("SJ2-4.3", overcall, declared(), 1, ["2S", "2S"], hand, t(-5))
    violated("SJ2-4.3", overcall, declared(), 1, ["BJ", "BJ"], hand, t(-5))


def test_sj2_4_3_overcall_in_the_current_trump_suit_is_allowed():
    b = overcall(declared(seat=2, card="2H"), 1, ["2S", "2S"], HANDS[1], t(-20))
    b = overcall(b, 3, ["2S", "2S"], HANDS[3], t(-10))
    assert (b.standing.suit, b.standing.seat) == ("S", 3)


@pytest.mark.parametrize("joker", ["BJ", "SJ"])
def test_sj2_4_3_joker_pair_makes_no_trump(joker):
    hand = [joker, joker]
    b = overcall(declared(), 1, [joker, joker], hand, t(-5))
    assert b.no_trump and b.standing.suit is None


# ---------------------------------------------------------------- SJ2-4.4 no-trump

def no_trump_by_seat_3():
    return overcall(declared(seat=2, card="2H"), 3, ["SJ", "SJ"], HANDS[3], t(-20))


def test_sj2_4_4_no_trump_only_joker_pair_with_the_setting_off():
    b = overcall(declared(nt_overcallable_by_level_pair=False), 3, ["SJ", "SJ"], HANDS[3], t(-20))
    violated("SJ2-4.4", overcall, b, 1, ["2S", "2S"], HANDS[1], t(-10))
    b = overcall(b, 1, ["BJ", "BJ"], HANDS[1], t(-10))
    assert b.no_trump and b.standing.seat == 1


def test_sj2_4_4_no_trump_can_be_overcalled_by_level_pair_with_the_setting():
    b = overcall(declared(nt_overcallable_by_level_pair=True), 3, ["SJ", "SJ"], HANDS[3], t(-20))
    b = overcall(b, 1, ["2S", "2S"], HANDS[1], t(-10))
    assert not b.no_trump and b.standing.suit == "S"


def test_sj2_4_4_with_the_setting_first_declarer_never_returns_to_his_suit_even_after_leaving_no_trump():
    b = overcall(declared(nt_overcallable_by_level_pair=True), 3, ["SJ", "SJ"], HANDS[3], t(-20))
    b = overcall(b, 1, ["2S", "2S"], HANDS[1], t(-10))
    violated("SJ2-4.6", overcall, b, 2, ["2H", "2H"], HANDS[2], t(-5))


def test_sj2_4_4_with_the_setting_first_declarer_may_overcall_no_trump_with_another_suit():
    b = overcall(declared(nt_overcallable_by_level_pair=True), 3, ["SJ", "SJ"], HANDS[3], t(-20))
    b = overcall(b, 2, ["2C", "2C"], HANDS[2] + ["2C"], t(-10))
    assert (b.standing.suit, b.standing.seat) == ("C", 2)


# ---------------------------------------------------------------- SJ2-4.5 / 4.6

def test_sj2_4_5_standing_declarer_may_not_overcall_himself_partner_may():
    b = declared(seat=2, card="2H")
    violated("SJ2-4.5", overcall, b, 2, ["2H", "2H"], HANDS[2], t(-30))
    b = overcall(b, 0, ["BJ", "BJ"], ["BJ", "BJ"], t(-30))
    assert b.standing.seat == 0


def test_sj2_4_5_overcalled_player_may_overcall_again():
    b = overcall(declared(seat=2, card="2H"), 1, ["2S", "2S"], HANDS[1], t(-30))
    b = overcall(b, 3, ["2C", "2C"], HANDS[3], t(-20))
    b = overcall(b, 1, ["2D", "2D"], HANDS[1], t(-10))
    assert (b.standing.seat, b.standing.suit) == (1, "D")


def test_sj2_4_6_first_declarer_returns_to_his_suit_with_the_card_he_showed():
    b = overcall(declared(seat=2, card="2H"), 3, ["2C", "2C"], HANDS[3], t(-20))
    b = overcall(b, 2, ["2H", "2H"], HANDS[2], t(-10))
    assert (b.standing.seat, b.standing.suit, b.first_declarer) == (2, "H", 2)


def test_sj2_4_6_no_return_to_the_first_suit_once_no_trump():
    b = no_trump_by_seat_3()
    violated("SJ2-4.6", overcall, b, 2, ["2H", "2H"], HANDS[2], t(-10))


# ---------------------------------------------------------------- SJ2-4.7 window

def test_sj2_4_7_deadline_is_none_before_deal_completed_and_15s_after_it():
    b = Bidding(level="2")
    assert deadline(b) is None
    assert deadline(deal_completed(b, t(0))) == t(15)


def test_sj2_4_7_first_declaration_after_deal_completed_restarts_the_window():
    b = deal_completed(Bidding(level="2"), t(0))
    b = declare(b, 0, "2C", HANDS[0], t(12))
    assert deadline(b) == t(27)
    off = deal_completed(Bidding(level="2", first_declaration_restarts_window=False), t(0))
    assert deadline(declare(off, 0, "2C", HANDS[0], t(12))) == t(15)


def test_sj2_4_7_first_declaration_before_deal_completed_does_not_move_the_deadline():
    b = deal_completed(declared(at=-2), t(0))
    assert deadline(b) == t(15)


def test_sj2_4_7_window_seconds_setting():
    b = bidding_for_hand("2", {"declarationWindowSeconds": 20, "ntOvercallableByLevelPair": True})
    assert b.window_seconds == 20 and b.nt_overcallable_by_level_pair and b.first_declaration_restarts_window
    b = overcall(declare(deal_completed(b, t(0)), 2, "2H", HANDS[2], t(5)), 1, ["2S", "2S"], HANDS[1], t(10))
    assert deadline(b) == t(30)


def test_sj2_4_7_declaring_at_the_deadline_is_allowed_after_it_rejected():
    b = deal_completed(Bidding(level="2"), t(0))
    assert declare(b, 0, "2C", HANDS[0], t(15)).standing.seat == 0
    assert "closed" in violated("SJ2-4.7", declare, b, 0, "2C", HANDS[0], t(15.001)).message
    # an overcall after the deadline but before the close still stands (seed rule 4: the 15 s
    # are the least wait; only taking the kitty ends overcalls, SJ2-4.8)
    b = declare(b, 0, "2C", HANDS[0], t(10))
    assert overcall(b, 1, ["2S", "2S"], HANDS[1], t(25.5)).standing.seat == 1


def test_sj2_4_7_close_window_needs_the_deal_complete_and_the_deadline_reached_once():
    violated("SJ2-4.7", close_window, declared(), t(100))
    b = deal_completed(Bidding(level="2"), t(0))
    violated("SJ2-4.7", close_window, b, t(14))
    b = close_window(b, t(15))
    assert b.closed
    violated("SJ2-4.7", close_window, b, t(16))
    violated("SJ2-4.7", declare, b, 0, "2C", HANDS[0], t(15))


def test_sj2_4_7_deal_completed_once():
    b = deal_completed(Bidding(level="2"), t(0))
    violated("SJ2-4.7", deal_completed, b, t(1))


# ---------------------------------------------------------------- SJ2-4.9 kitty card 3 (Ex 9)

def closed_without_declaration(level="9"):
    return close_window(deal_completed(Bidding(level=level), t(0)), t(15))


def test_sj2_ex9_kitty_card_3_fixes_trump():
    b = closed_without_declaration()
    assert trump_at_close(b, ["4C", "QD", "JH", "7S", "2D", "9C", "KS", "5H"]) == ("H", "kitty3")
    assert trump_at_close(b, ["4C", "QD", "SJ", "7S", "2D", "9C", "KS", "5H"]) == (None, "kitty3")
    assert trump_at_close(b, ["4C", "QD", "BJ", "7S", "2D", "9C", "KS", "5H"]) == (None, "kitty3")
    assert trump_at_close(b, ["4C", "QD", "9S", "7S", "2D", "9C", "KS", "5H"]) == ("S", "kitty3")


def test_sj2_4_9_trump_is_fixed_only_after_the_close():
    with pytest.raises(ValueError):
        trump_at_close(declared(), ["4C", "QD", "JH"])


def test_sj2_4_9_standing_declaration_wins_over_the_kitty():
    b = close_window(deal_completed(declared(), t(0)), t(15))
    assert trump_at_close(b, ["4C", "QD", "SJ", "7S", "2D", "9C", "KS", "5H"]) == ("H", "declaration")


# ---------------------------------------------------------------- SJ2-5.1 / 5.2

def test_sj2_5_1_first_hand_dealer_is_the_standing_bidder_at_close():
    b = overcall(declared(seat=2), 3, ["2S", "2S"], HANDS[3], t(-5))
    assert first_hand_dealer(close_window(deal_completed(b, t(0)), t(15))) == 3


def test_sj2_5_2_no_declaration_no_first_hand_dealer():
    assert first_hand_dealer(closed_without_declaration("2")) is None


# ---------------------------------------------------------------- SJ2-4.2 simultaneous declarations

def contested():
    b = declared(seat=2, card="2H", at=-40)
    return declare_simultaneous(b, 3, "2D", HANDS[3], t(-40))


def test_sj2_4_2_simultaneous_declaration_waits_for_lots():
    b = contested()
    assert lots_pending(b) and b.standing.seat == 2 and len(b.history) == 2
    violated("SJ2-4.2", overcall, b, 1, ["2S", "2S"], HANDS[1], t(-30))
    b = deal_completed(b, t(0))
    violated("SJ2-4.2", close_window, b, t(20))


def test_sj2_4_2_lots_winner_stands_the_other_is_void():
    b = resolve_lots(contested(), [3, 2], winner=3)
    assert not lots_pending(b)
    assert b.standing == Bid(3, ("2D",), "D", t(-40)) and b.history == (b.standing,)
    assert b.first_declarer == 3
    # the loser may now overcall; the winner is the first declarer for SJ2-4.6
    b = overcall(b, 2, ["2H", "2H"], HANDS[2], t(-30))
    b = overcall(b, 3, ["2D", "2D"], HANDS[3] + ["2D"], t(-20))
    assert (b.standing.seat, b.standing.suit) == (3, "D")


def test_sj2_4_2_lots_when_the_standing_seat_wins_keep_its_bid():
    b = resolve_lots(contested(), [2, 3], winner=2)
    assert b.standing.seat == 2 and b.first_declarer == 2 and len(b.history) == 1


def test_sj2_4_2_declarations_are_simultaneous_only_while_the_cards_are_drawn():
    b = deal_completed(declared(seat=2), t(0))
    assert "drawn" in violated("SJ2-4.2", declare_simultaneous, b, 3, "2D", HANDS[3], t(1)).message


def test_sj2_4_2_lots_candidates_must_be_exactly_the_competing_seats():
    b = declare_simultaneous(contested(), 0, "2C", HANDS[0], t(-40))
    violated("SJ2-4.2", resolve_lots, b, [2, 3], 2)
    violated("SJ2-4.2", resolve_lots, b, [0, 2, 3], 1)
    assert resolve_lots(b, [0, 2, 3], 0).standing.seat == 0


def test_sj2_4_2_lots_without_simultaneous_declarations():
    violated("SJ2-4.2", resolve_lots, declared(), [2], 2)
    violated("SJ2-4.2", resolve_lots, Bidding(level="2"), [0, 1], 0)


def test_sj2_4_2_simultaneous_declaration_only_against_a_first_declaration():
    violated("SJ2-4.2", declare_simultaneous, Bidding(level="2"), 3, "2D", HANDS[3], t(-40))
    b = overcall(declared(), 1, ["2S", "2S"], HANDS[1], t(-30))
    violated("SJ2-4.2", declare_simultaneous, b, 3, "2D", HANDS[3], t(-30))
    violated("SJ2-4.2", declare_simultaneous, declared(seat=2), 2, "2C", HANDS[2], t(-40))
    violated("SJ2-4.1", declare_simultaneous, declared(seat=2), 3, "SJ", HANDS[3], t(-40))


# ---------------------------------------------------------------- to_dict

def test_sj2_4_bidding_to_dict_is_json_with_z_times():
    b = overcall(deal_completed(declared(), t(0)), 3, ["SJ", "SJ"], HANDS[3], t(3))
    data = json.loads(json.dumps(b.to_dict()))
    assert data["standing"] == {"seat": 3, "cards": ["SJ", "SJ"], "suit": None,
                                "at": "2006-12-23T10:00:03.000000Z"}
    assert data["history"][0]["at"] == "2006-12-23T09:59:20.000000Z"
    assert data["deadline"] == "2006-12-23T10:00:18.000000Z"
    assert (data["first_declarer"], data["no_trump"], data["closed"], data["level"]) == (2, True, False, "2")
    assert data["deal_completed_at"] == "2006-12-23T10:00:00.000000Z"
    assert data["settings"] == {"declarationWindowSeconds": 15,
                                "firstDeclarationAfterDealRestartsWindow": True,
                                "ntOvercallableByLevelPair": True}
    assert Bidding(level="2").to_dict()["deadline"] is None
