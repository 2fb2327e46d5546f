"""rules/guandan/play.py and the play transitions of hand.py against guandan.md GD-5 (Ex 5)."""
import pytest

from rules import RuleViolation
from rules.guandan.hand import GDHand, apply, pass_turn, play
from rules.guandan.play import (
    Trick,
    next_leader,
    next_to_act,
    public_counts,
)
from rules.guandan.settings import settings_from
from rules.guandan.tribute import TributePlan


def playing(hands, leader, level="2", settings=None, first_lead_made=True):
    """A hand in play with small hands (seat order 0-3), ``leader`` on lead."""
    return GDHand(level=level, plan=TributePlan(first=0), settings=settings_from(settings),
                  phase="play", hands=tuple(tuple(h.split()) for h in hands), first_leader=leader,
                  trick=Trick(leader), plays=1 if first_lead_made else 0)


def violated(rule, fn, *args, **kwargs):
    with pytest.raises(RuleViolation) as info:
        fn(*args, **kwargs)
    assert info.value.rule == rule
    return info.value


def test_gd_ex5_trick_goes_to_the_last_player_who_beat_it():
    h = playing(["5C 6C", "KD KS 3C", "4S 4D 8D", "9C 9H 3D"], leader=2)
    h = play(h, 2, "4S 4D")
    h = play(h, 3, "9C 9H")
    h = pass_turn(h, 0)
    h = play(h, 1, "KD KS")
    assert h.turn == 2
    h = pass_turn(pass_turn(h, 2), 3)
    assert h.last_trick is None and h.turn == 0
    h = pass_turn(h, 0)
    assert h.last_trick == (1, False)
    assert h.turn == 1 and h.trick.is_lead


def test_gd_ex5_jiefeng_partner_of_the_out_player_leads():
    h = playing(["9D 3C", "AS", "BJ 5S", "6S 7S"], leader=0)
    h = play(h, 0, "9D")
    h = play(h, 1, "AS")
    assert h.order == (1,)
    h = pass_turn(pass_turn(pass_turn(h, 2), 3), 0)
    assert h.last_trick == (3, True)
    assert h.turn == 3 and h.trick.is_lead


def test_gd_ex5_had_seat_2_beaten_the_ace_play_simply_continues():
    h = playing(["9D 3C", "AS", "BJ 5S", "6S 7S"], leader=0)
    h = play(play(play(h, 0, "9D"), 1, "AS"), 2, "BJ")
    assert h.turn == 3 and h.trick.top_seat == 2
    h = pass_turn(pass_turn(h, 3), 0)  # seat 1 is out and skipped
    assert h.last_trick == (2, False) and h.turn == 2


def test_gd_5_5_without_jiefeng_the_next_player_holding_cards_leads():
    h = playing(["9D 3C", "AS", "BJ 5S", "6S 7S"], leader=0, settings={"jiefeng": False})
    h = pass_turn(pass_turn(pass_turn(play(play(h, 0, "9D"), 1, "AS"), 2), 3), 0)
    assert h.last_trick == (2, False)


def test_gd_5_2_finished_player_is_skipped():
    assert next_to_act(0, (3, 0, 2, 1)) == 2
    assert next_to_act(3, (3, 0, 2, 1)) == 0
    assert next_leader(1, (3, 0, 2, 1)) == (3, True)
    assert next_leader(1, (3, 0, 2, 1), jiefeng=False) == (2, False)


def test_gd_5_2_playing_out_of_turn_is_rejected():
    h = playing(["5C 6C", "KD KS", "4S 4D", "9C 9H"], leader=2)
    assert "seat 2's turn" in violated("GD-5.2", play, h, 3, "9C").message


def test_gd_5_2_the_leader_of_a_new_trick_cannot_pass():
    h = playing(["5C 6C", "KD KS", "4S 4D", "9C 9H"], leader=2)
    assert "cannot pass" in violated("GD-5.2", pass_turn, h, 2).message


def test_gd_5_2_passing_out_of_turn_is_rejected():
    h = play(playing(["5C 6C", "KD KS", "4S 4D", "9C 9H"], leader=2), 2, "4S 4D")
    violated("GD-5.2", pass_turn, h, 0)


def test_gd_5_2_cards_the_player_does_not_hold_are_rejected():
    h = playing(["5C 6C", "KD KS", "4S 4D", "9C 9H"], leader=2)
    assert "does not hold 4C" in violated("GD-5.2", play, h, 2, "4S 4C").message


def test_gd_5_2_an_empty_play_is_rejected():
    violated("GD-5.2", play, playing(["5C", "KD", "4S", "9C"], leader=2), 2, [])


def test_gd_4_2_a_play_that_does_not_beat_the_table_is_rejected_in_the_hand():
    h = play(playing(["7S 7D 3C", "KD KS", "9S 9C 4D", "9D 9H"], leader=2), 2, "9S 9C")
    error = violated("GD-4.2", play, pass_turn(h, 3), 0, "7S 7D")
    assert "seat 0 plays a pair of 7s, which does not beat a pair of 9s" in error.message


def test_gd_5_2_a_combination_check_applies_to_plays():
    h = playing(["5C 6C", "KD KS", "4S 4D", "9C 9H"], leader=0)
    violated("GD-3.4", play, h, 0, "5C 6C")


def test_gd_5_6_hand_ends_when_both_players_of_a_team_are_out():
    h = playing(["3C", "4C 4D", "5C", "2S 2D"], leader=0)
    h = play(h, 0, "3C")
    h = pass_turn(pass_turn(pass_turn(h, 1), 2), 3)
    assert h.turn == 2 and h.last_trick == (2, True)
    h = play(h, 2, "5C")
    assert h.phase == "over" and h.order == (0, 2) and h.turn is None
    assert "hand is over" in violated("GD-5.6", play, h, 1, "4C 4D").message
    violated("GD-5.6", pass_turn, h, 1)


def test_gd_5_4_places_are_recorded_in_going_out_order():
    h = playing(["3C", "4C", "5C 5D", "3S 3D 4D"], leader=0)
    h = play(play(h, 0, "3C"), 1, "4C")
    assert h.order == (0, 1)
    h = pass_turn(pass_turn(h, 2), 3)
    assert h.last_trick == (3, True)  # seat 1 is out: his partner leads
    h = play(play(h, 3, "3S 3D"), 2, "5C 5D")
    assert h.order == (0, 1, 2) and h.phase == "over" and h.hands[3] == ("4D",)


def test_gd_5_1_first_lead_of_hand_1_by_another_seat_is_rejected():
    hand1 = GDHand(level="2", plan=TributePlan(), settings=settings_from(None), phase="play",
                   hands=(("5C",), ("KD",), ("4S",), ("9C",)), first_leader=2, trick=Trick(2))
    assert "seat 2's turn to lead" in violated("GD-5.1", play, hand1, 0, "5C").message


def test_gd_5_1_no_play_before_the_tribute_is_settled():
    h = GDHand(level="2", plan=TributePlan("single", (3,), (0,), 0), settings=settings_from(None),
               phase="tribute", hands=(("5C",), ("KD",), ("4S",), ("9C",)))
    violated("GD-5.1", play, h, 3, "9C")
    violated("GD-5.1", pass_turn, h, 3)


def test_gd_5_7_counts_of_ten_or_fewer_are_public():
    assert public_counts((27, 10, 11, 0)) == {1: 10, 3: 0}
    h = playing(["3C " * 11, "4C", "5C 5D", "2S 2D"], leader=0)
    assert h.public_counts() == {1: 1, 2: 2, 3: 2}


def test_gd_apply_dispatches_plays_and_passes_and_ignores_derived_events():
    h = playing(["5C 6C", "KD KS", "4S 4D", "9C 9H"], leader=2)
    h = apply(h, "CardsPlayed", 2, {"cards": ["4S", "4D"]})
    h = apply(h, "TrickEnded", None, {"nextLeader": 2})
    h = apply(h, "Passed", 3, {})
    assert h.turn == 0 and h.trick.passed == {3}


def test_gd_2_4_wildas_travels_with_the_play_event():
    h = playing(["5S 5D 5C 2H 2H 3C", "KD", "4S", "9C"], leader=0)
    bomb = apply(h, "CardsPlayed", 0, {"cards": ["5S", "5D", "5C", "2H", "2H"], "wildAs": ["5H", "5H"]})
    assert bomb.trick.top.type == "bomb"
    violated("GD-2.4", apply, h, "CardsPlayed", 0, {"cards": ["5S", "5D", "5C", "2H", "2H"]})
