"""rules/guandan/levels.py against guandan.md GD-1.3, GD-6 and GD-11 (Ex 6, Ex 9, Ex 10)."""
import pytest

from rules import RuleViolation
from rules.guandan.levels import (
    GDGame,
    advance,
    complete_hand,
    extra_hand_winner,
    hand_level,
    time_limit_result,
    upgrade,
)
from rules.guandan.seats import check_order

A, B = 0, 1


# --- Ex 6: places and upgrade ----------------------------------------------------------------

def test_gd_ex6_team_b_first_and_second_gains_three_and_plays_next_at_8():
    game = GDGame(levels=("2", "5"), level_team=B)
    game, outcome = complete_hand(game, (1, 3))
    assert (outcome.winning_team, outcome.upgrade) == (B, 3)
    assert game.levels == ("2", "8") and hand_level(game) == "8"
    assert outcome.places == (1, 3)  # seats 0 and 2 双下, not ranked further


def test_gd_ex6_first_and_third_gains_two_with_seat_3_last():
    game, outcome = complete_hand(GDGame(), (0, 1, 2))
    assert outcome.places == (0, 1, 2, 3) and outcome.upgrade == 2 and game.levels == ("4", "2")


def test_gd_ex6_partner_last_gains_one():
    game, outcome = complete_hand(GDGame(), (0, 1, 3))
    assert outcome.places == (0, 1, 3, 2) and outcome.upgrade == 1 and game.levels == ("3", "2")


def test_gd_ex6_levels_are_capped_at_a():
    game, _ = complete_hand(GDGame(levels=("Q", "2"), level_team=A), (0, 2))
    assert game.levels == ("A", "2")
    assert advance("Q", 3) == "A" and advance("K", 1) == "A" and advance("9", 2) == "J"


@pytest.mark.parametrize("order,expected", [((2, 0), (A, 3)), ((3, 0, 1), (B, 2)), ((3, 0, 2), (B, 1))])
def test_gd_6_1_upgrade_by_places(order, expected):
    assert upgrade(order) == expected


def test_gd_1_3_hand_1_is_played_at_2_then_at_the_winners_level():
    assert hand_level(GDGame()) == "2"
    game, _ = complete_hand(GDGame(levels=("2", "6"), level_team=A), (3, 2, 1))
    assert game.level_team == B and hand_level(game) == "8"


@pytest.mark.parametrize("order", [(0, 0, 1), (0, 5, 1)])
def test_gd_5_4_going_out_order_must_list_distinct_seats(order):
    with pytest.raises(RuleViolation) as info:
        check_order(order)
    assert info.value.rule == "GD-5.4"


def test_gd_5_6_an_unfinished_order_is_rejected():
    with pytest.raises(RuleViolation) as info:
        complete_hand(GDGame(), (0, 1))
    assert info.value.rule == "GD-5.6"


# --- Ex 9: playing A -------------------------------------------------------------------------

def at_a():
    return GDGame(levels=("A", "6"), level_team=A)


def test_gd_ex9_1_first_and_third_at_a_wins_the_game():
    game, outcome = complete_hand(at_a(), (2, 1, 0))
    assert game.winner == A and outcome.game_winner == A


def test_gd_ex9_first_and_second_at_a_wins_the_game_too():
    assert complete_hand(at_a(), (0, 2))[0].winner == A


def test_gd_ex9_2_to_5_three_failed_attempts_send_team_a_back_to_2():
    game, outcome = complete_hand(at_a(), (0, 1, 3))  # seat 2 last: 1-4
    assert outcome.failed_attempt and game.a_failures == (1, 0)
    assert game.levels == ("A", "6") and hand_level(game) == "A" and game.winner is None
    game, outcome = complete_hand(game, (3, 1))  # team B +3
    assert game.a_failures == (2, 0) and game.levels == ("A", "9") and hand_level(game) == "9"
    game, outcome = complete_hand(game, (0, 2))  # team A wins at B's level: no attempt
    assert not outcome.failed_attempt and game.a_failures == (2, 0)
    assert game.winner is None and hand_level(game) == "A"
    game, outcome = complete_hand(game, (1, 0, 3))  # team B wins: failed attempt 3
    assert game.levels == ("2", "J") and game.a_failures == (0, 0)
    assert (outcome.places, outcome.winning_team, outcome.upgrade, outcome.levels,
            outcome.a_failures, outcome.game_winner) == ((1, 0, 3, 2), B, 2, ("2", "J"), (0, 0),
                                                         None)


def test_gd_6_4_failures_before_reset_is_a_setting():
    game, _ = complete_hand(at_a(), (1, 3), {"aFailuresBeforeReset": 1})
    assert game.levels == ("2", "9")


def test_gd_6_3_winning_at_the_other_teams_level_never_wins_the_game():
    game, _ = complete_hand(GDGame(levels=("A", "5"), level_team=B), (0, 2))
    assert game.winner is None and game.levels == ("A", "5") and hand_level(game) == "A"


def test_gd_11_1_no_hand_after_the_game_is_won():
    game, _ = complete_hand(at_a(), (0, 2))
    with pytest.raises(RuleViolation) as info:
        complete_hand(game, (1, 3))
    assert info.value.rule == "GD-11.1"


# --- Ex 10: match clock ----------------------------------------------------------------------

def test_gd_ex10_higher_level_wins_at_60_minutes():
    assert time_limit_result(("9", "J")) == B


def test_gd_ex10_equal_levels_then_overtime_then_one_more_hand():
    assert time_limit_result(("Q", "Q")) == "overtime"
    assert time_limit_result(("K", "K"), overtime=True) == "extraHand"
    assert extra_hand_winner((3, 0, 1)) == B
