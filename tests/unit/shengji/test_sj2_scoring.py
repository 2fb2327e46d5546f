"""rules/shengji/scoring.py against shengji-2deck.md SJ2-5.3, 11, 12.6, 13, 14 and Ex 5, 6, 7, 10, 11."""
import json

import pytest

from rules.shengji.scoring import (
    SJ2_RESULT_SCALE,
    HandResult,
    ResultScale,
    apply_result,
    final_points,
    hand_result,
    kitty_capture,
    kitty_multiplier,
    level_name,
    level_value,
    match_winner,
    next_dealer,
    next_seat,
    partner,
    side_of,
    time_limit_winner,
)

D, TAKE = "dealer", "defenders"


# ---------------------------------------------------------------- seats, sides, levels

def test_sj2_seats_sides_partner_next():
    assert [side_of(s) for s in range(4)] == ["A", "B", "A", "B"]
    assert [partner(s) for s in range(4)] == [2, 3, 0, 1]
    assert [next_seat(s) for s in range(4)] == [1, 2, 3, 0]
    with pytest.raises(ValueError):
        side_of(4)


def test_sj2_2_1_level_names_and_values():
    assert [level_value(r) for r in "23456789TJQKA"] == list(range(2, 15))
    assert [level_name(v) for v in range(2, 15)] == list("23456789TJQKA")
    assert level_name(15) == "A+1" and level_name(17) == "A+3"
    assert level_value("A+1") == 15 and level_value(level_name(16)) == 16
    for bad in ("1", "X", "10", "A+0", "A+", ""):
        with pytest.raises(ValueError):
            level_value(bad)
    with pytest.raises(ValueError):
        level_name(1)


# ---------------------------------------------------------------- kitty (Ex 5)

@pytest.mark.parametrize("pairs,multiplier", [(0, 2), (1, 4), (2, 8), (3, 16), (4, 32)])
def test_sj2_11_2_kitty_multiplier(pairs, multiplier):
    assert kitty_multiplier(pairs) == multiplier


@pytest.mark.parametrize("winning_play,pairs,capture", [
    ("single", 0, 70), ("pair BJ BJ", 1, 140), ("2-tractor", 2, 280), ("tractor(2) + pair", 3, 560),
])
def test_sj2_ex5_kitty_capture(winning_play, pairs, capture):
    kitty_points = 5 + 10 + 10 + 10  # 5H TD KS KC 3D 4C 8S 9H
    assert kitty_capture(kitty_points, pairs) == capture


def test_sj2_ex5_dealer_side_wins_last_trick_kitty_scores_nothing():
    assert kitty_capture(35, 2, defenders_won_last_trick=False) == 0


def test_sj2_ex5_sixty_trick_points_plus_pair_capture_is_take_plus_three():
    points, steps = final_points(60 + kitty_capture(35, 1), 0, 0, False)
    assert (points, steps) == (200, ())
    assert hand_result(points) == HandResult(TAKE, 3, True)


# ---------------------------------------------------------------- points to result (Ex 6)

@pytest.mark.parametrize("points,expected", [
    (0, (D, 3, False)), (35, (D, 2, False)), (40, (D, 1, False)), (75, (D, 1, False)),
    (80, (TAKE, 0, True)), (115, (TAKE, 0, True)), (120, (TAKE, 1, True)), (155, (TAKE, 1, True)),
    (160, (TAKE, 2, True)), (195, (TAKE, 2, True)), (200, (TAKE, 3, True)), (235, (TAKE, 3, True)),
    (240, (TAKE, 4, True)), (270, (TAKE, 4, True)), (280, (TAKE, 5, True)), (-20, (D, 3, False)),
])
def test_sj2_ex6_points_to_result(points, expected):
    assert hand_result(points) == HandResult(*expected)


@pytest.mark.parametrize("points,levels", [(5, 2), (1, 2), (39, 2), (79, 1), (-1000, 3)])
def test_sj2_13_2_formula_band_edges(points, levels):
    assert hand_result(points) == HandResult(D, levels, False)


def test_sj2_13_1_result_to_dict_is_json():
    assert json.loads(json.dumps(hand_result(130).to_dict())) == {
        "winner": "defenders", "levels": 1, "deal_passes": True}


def test_sj2_13_result_scale_is_data_a_variant_can_replace():
    assert hand_result(100, SJ2_RESULT_SCALE) == HandResult(TAKE, 0, True)
    three_deck = ResultScale(take_threshold=120, level_step=60, dealer_bands=((60, 1), (1, 2)),
                             dealer_floor_levels=3, dealer_extra_step=60)
    assert hand_result(100, three_deck) == HandResult(D, 1, False)
    assert hand_result(240, three_deck) == HandResult(TAKE, 2, True)
    assert hand_result(-60, three_deck) == HandResult(D, 4, False)


# ---------------------------------------------------------------- next dealer, levels (Ex 7)

@pytest.mark.parametrize("dealer,passes,expected", [
    (0, False, 2), (2, False, 0), (1, False, 3), (3, False, 1),
    (0, True, 1), (1, True, 2), (2, True, 3), (3, True, 0),
])
def test_sj2_5_3_next_dealer(dealer, passes, expected):
    assert next_dealer(dealer, passes) == expected


def test_sj2_ex7_levels_and_next_dealer_over_hands_6_to_8():
    levels = {"A": 8, "B": 5}
    # Hand 6: dealer seat 2 (side A, level 8), P = 65 → A +1 → 9, next dealer opp(2) = 0.
    result = hand_result(65)
    assert result == HandResult(D, 1, False)
    levels = apply_result(levels, 2, result)
    dealer = next_dealer(2, result.deal_passes)
    assert levels == {"A": 9, "B": 5} and dealer == 0
    assert levels[side_of(dealer)] == 9  # hand 7 is played at level 9
    # Hand 7: dealer seat 0, P = 130 → B takes the deal +1 → 6, next dealer next(0) = 1.
    result = hand_result(130)
    assert result == HandResult(TAKE, 1, True)
    levels = apply_result(levels, 0, result)
    dealer = next_dealer(0, result.deal_passes)
    assert levels == {"A": 9, "B": 6} and dealer == 1
    assert level_name(levels[side_of(dealer)]) == "6"  # hand 8 is played at level 6


def test_sj2_13_3_apply_result_does_not_modify_its_input_and_take_without_level_keeps_levels():
    levels = {"A": 4, "B": 7}
    assert apply_result(levels, 1, hand_result(100)) == {"A": 4, "B": 7}
    assert apply_result(levels, 1, hand_result(0)) == {"A": 4, "B": 10}
    assert levels == {"A": 4, "B": 7}


# ---------------------------------------------------------------- adjustments (Ex 10)

def step(rule, kind, before, after):
    return {"rule": rule, "kind": kind, "before": before, "after": after}


def test_sj2_ex10_dealer_follow_error_raw_50_is_90_take():
    points, steps = final_points(50, 0, 1, False)
    assert points == 90 and steps == (step("SJ2-12.4", "dealer_follow_error", 50, 90),)
    assert hand_result(points) == HandResult(TAKE, 0, True)


def test_sj2_ex10_dealer_follow_error_raw_20_is_80_take():
    points, steps = final_points(20, 0, 1, False)
    assert points == 80 and steps == (step("SJ2-12.4", "dealer_follow_error", 20, 80),)
    assert hand_result(points) == HandResult(TAKE, 0, True)


def test_sj2_ex10_defenders_follow_error_raw_130_is_90_take_instead_of_plus_one():
    assert hand_result(130) == HandResult(TAKE, 1, True)
    points, steps = final_points(130, 1, 0, False)
    assert points == 90 and steps == (step("SJ2-12.4", "defenders_follow_error", 130, 90),)
    assert hand_result(points) == HandResult(TAKE, 0, True)


def test_sj2_ex10_defenders_follow_error_raw_30_is_0_dealer_plus_three():
    points, steps = final_points(30, 1, 0, False)
    assert points == 0 and steps == (step("SJ2-12.4", "defenders_follow_error", 30, 0),)
    assert hand_result(points) == HandResult(D, 3, False)


def test_sj2_ex10_defenders_follow_error_and_kitty_error_raw_10_is_80():
    points, steps = final_points(10, 1, 0, True)
    assert points == 80
    assert steps == (step("SJ2-12.4", "defenders_follow_error", 10, 0),
                     step("SJ2-12.3", "kitty_error", 0, 80))
    assert json.loads(json.dumps(steps)) == list(steps)


def test_sj2_12_6_order_defenders_errors_first_then_dealer_side_one_step_per_error():
    points, steps = final_points(150, 2, 2, True)
    # step 2: 150 → 110 → 70; step 3: 70 → 110 → 150 → 190 (kitty error last)
    assert points == 190
    assert [(s["kind"], s["after"]) for s in steps] == [
        ("defenders_follow_error", 110), ("defenders_follow_error", 70),
        ("dealer_follow_error", 110), ("dealer_follow_error", 150), ("kitty_error", 190)]


def test_sj2_12_6_negative_raw_points_kept_and_read_as_zero_by_the_table():
    assert final_points(-30, 0, 0, False) == (-30, ())
    assert final_points(-30, 1, 0, False)[0] == 0
    assert hand_result(-30) == HandResult(D, 3, False)


def test_sj2_12_6_error_counts_must_be_whole_numbers():
    with pytest.raises(ValueError):
        final_points(50, -1, 0, False)


# ---------------------------------------------------------------- match result (Ex 11, SJ2-14)

def test_sj2_ex11_whole_hand_ends_the_match_on_target():
    trick_points = 4 * 5 + 3 * 10 + 2 * 10
    assert trick_points == 70
    capture = kitty_capture(10 + 10 + 5, pairs=2)  # KC TS 5H, won with QD QD JD JD
    assert capture == 200
    points, _ = final_points(trick_points + capture, 0, 0, False)
    assert points == 270
    result = hand_result(points)
    assert result == HandResult(TAKE, 4, True)
    levels = apply_result({"A": 9, "B": 7}, 2, result)
    assert levels == {"A": 9, "B": 11} and level_name(levels["B"]) == "J"
    assert match_winner(levels, hands_played=14) == ("B", "target")


def test_sj2_ex11_hand_20_with_equal_levels_goes_to_lots():
    assert match_winner({"A": 9, "B": 9}, hands_played=20) == (None, "lots")


def test_sj2_14_1_after_max_hands_the_higher_level_wins():
    assert match_winner({"A": 9, "B": 8}, hands_played=20) == ("A", "maxHands")
    assert match_winner({"A": 6, "B": 10}, hands_played=20) == ("B", "maxHands")
    assert match_winner({"A": 6, "B": 10}, hands_played=12, max_hands=12) == ("B", "maxHands")


def test_sj2_14_match_goes_on_before_the_limit_and_at_exactly_the_target():
    assert match_winner({"A": 10, "B": 9}, hands_played=19) == (None, None)
    assert match_winner({"A": 10, "B": 10}, hands_played=5) == (None, None)


def test_sj2_14_2_multi_level_jump_past_target_and_past_ace_wins():
    assert match_winner({"A": 13, "B": 4}, hands_played=3) == ("A", "target")
    assert match_winner({"A": 16, "B": 4}, hands_played=3) == ("A", "target")
    assert match_winner({"A": 11, "B": 4}, hands_played=20) == ("A", "target")


def test_sj2_14_2_target_level_setting():
    assert match_winner({"A": 12, "B": 4}, 3, target_level=level_value("Q")) == (None, None)
    assert match_winner({"A": 13, "B": 4}, 3, target_level=level_value("Q")) == ("A", "target")


def test_sj2_14_4_time_limit_winner():
    assert time_limit_winner({"A": 7, "B": 8}) == ("B", "time")
    assert time_limit_winner({"A": 8, "B": 8}) == (None, "lots")
