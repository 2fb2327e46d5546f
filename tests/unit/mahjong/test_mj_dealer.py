"""rules/mahjong/dealer.py against MJO-2.1, MJO-2.2, MJO-1.3 (seat winds) and MJS-1.4 (rounds)."""
import pytest

from rules import RuleViolation
from rules.mahjong import MJO
from rules.mahjong.dealer import (
    Rotation,
    advance,
    first_dealer,
    next_dealer,
    start_rotation,
)


def test_mjo_2_1_the_highest_roll_deals_first():
    assert first_dealer([{0: [3, 4], 1: [6, 5], 2: [1, 1], 3: [2, 6]}], MJO) == 1


def test_mjo_2_1_ties_among_the_highest_roll_again():
    rolls = [{0: [6, 6], 1: [6, 5], 2: [6, 6], 3: [2, 6]}, {0: [1, 2], 2: [4, 4]}]
    assert first_dealer(rolls, MJO) == 2
    assert first_dealer([{"0": [6, 6], "1": [1, 1], "2": [6, 6], "3": [1, 1]},
                         {"0": [3, 3], "2": [3, 3]}, {"0": [5, 3], "2": [3, 3]}], MJO) == 0


@pytest.mark.parametrize("rolls,text", [
    ([{0: [6, 6], 1: [6, 5], 2: [6, 6], 3: [2, 6]}], "still tied"),
    ([{0: [6, 6], 1: [6, 5], 2: [6, 6], 3: [2, 6]}, {0: [1, 2], 1: [4, 4], 2: [3, 3]}],
     "roll 2 is made by seat(s) 0, 2"),
    ([{0: [3, 4], 1: [6, 5], 2: [1, 1]}], "roll 1"),
    ([{0: [3, 9], 1: [6, 5], 2: [1, 1], 3: [1, 1]}], "two dice of 1 to 6"),
])
def test_mjo_2_1_only_the_tied_reroll_and_a_tie_is_not_a_dealer(rolls, text):
    with pytest.raises(RuleViolation) as info:
        first_dealer(rolls, MJO)
    assert info.value.rule == "MJO-2.1" and text in info.value.message


def test_mjo_2_2_the_dealer_keeps_the_deal_after_winning_else_it_passes():
    assert next_dealer(2, (2,), MJO) == 2
    assert next_dealer(2, (1,), MJO) == 3
    assert next_dealer(3, (), MJO) == 0              # exhaustive draw
    assert next_dealer(1, (3, 1), MJO) == 1          # one of several winners


def test_mjs_1_4_a_round_ends_when_the_deal_returns_to_the_first_dealer():
    rotation = start_rotation(2)
    assert rotation.round_wind == "E" and rotation.seat_wind(2) == "E"
    assert [rotation.seat_wind(s) for s in (3, 0, 1)] == ["S", "W", "N"]
    rotation = advance(rotation, (2,), MJO)           # dealer repeats
    assert rotation == Rotation(first_dealer=2, dealer=2, hands_played=1, passes=0)
    for _ in range(3):
        rotation = advance(rotation, (), MJO)
    assert rotation.dealer == 1 and rotation.rounds_completed == 0
    rotation = advance(rotation, (0,), MJO)
    assert rotation.dealer == 2 and rotation.rounds_completed == 1
    assert rotation.round_wind == "S" and rotation.hands_played == 5
