"""T-1.6 (interpretation): every player of a registration has a stable id, and a player is
entered once in a tournament."""
import pytest

from rules.tournament import apply
from rules.violations import RuleViolation


def created(game="SJ2", format_="knockout"):
    return apply(None, "TournamentCreated", {"tournament_id": "t", "name": "t", "game": game,
                                             "format": format_})


def team(team_id, *players, ids=None):
    data = {"team_id": team_id, "name": f"队 {team_id}", "players": list(players)}
    return {**data, "player_ids": list(ids)} if ids is not None else data


def refused(rule, state, data) -> str:
    with pytest.raises(RuleViolation) as caught:
        apply(state, "TeamRegistered", data)
    assert caught.value.rule == rule, caught.value
    return caught.value.message


def test_players_without_given_ids_are_named_team_id_dot_n():
    state = apply(created(), "TeamRegistered", team("east", "王伟", "李雷"))
    assert state.team("east").to_dict()["player_ids"] == ["east.1", "east.2"]


def test_given_ids_are_kept_in_the_order_of_the_players():
    state = apply(created(), "TeamRegistered", team("east", "王伟", "李雷", ids=["p-17", "p-3"]))
    assert state.team("east").player_ids == ("p-17", "p-3")


def test_the_same_name_in_two_teams_is_refused_naming_the_first_team():
    state = apply(created(), "TeamRegistered", team("east", "王伟", "李雷"))
    message = refused("T-1.6", state, team("west", "张三", "王伟"))
    assert "'王伟' is already entered, for team 'east'" in message


def test_namesakes_are_accepted_when_both_carry_their_own_ids():
    state = apply(created(), "TeamRegistered", team("east", "王伟", "李雷", ids=["w1", "l1"]))
    state = apply(state, "TeamRegistered", team("west", "王伟", "张三", ids=["w2", "z1"]))
    assert [t.player_ids for t in state.teams.values()] == [("w1", "l1"), ("w2", "z1")]


def test_a_namesake_without_an_id_is_refused_even_if_the_other_has_one():
    state = apply(created(), "TeamRegistered", team("east", "王伟", "李雷", ids=["w1", "l1"]))
    refused("T-1.6", state, team("west", "王伟", "张三"))


def test_the_same_given_id_in_two_teams_is_refused():
    state = apply(created(), "TeamRegistered", team("east", "王伟", "李雷", ids=["w1", "l1"]))
    assert "player id 'w1'" in refused("T-1.6", state, team("west", "王芳", "张三", ids=["w1", "z"]))


def test_a_given_id_may_not_take_a_derived_one():
    state = apply(created(), "TeamRegistered", team("east", "王伟", "李雷"))
    assert "'east.2'" in refused("T-1.6", state, team("west", "王芳", "张三", ids=["east.2", "z"]))


def test_one_id_per_player():
    refused("T-1.6", created(), team("east", "王伟", "李雷", ids=["w1"]))


def test_the_same_player_twice_in_one_entrant_stays_t_1_2():
    refused("T-1.2", created(), team("east", "王伟", "王伟"))
    refused("T-1.2", created(), team("east", "王伟", "李雷", ids=["w", "w"]))


def test_the_players_of_a_withdrawn_team_may_enter_again():
    state = apply(created(), "TeamRegistered", team("east", "王伟", "李雷"))
    state = apply(state, "TeamWithdrawn", {"team_id": "east"})
    state = apply(state, "TeamRegistered", team("west", "王伟", "张三"))
    assert state.team("west").players == ("王伟", "张三")
    refused("T-1.6", state, team("north", "王伟", "赵六"))  # west is still in


def test_a_player_is_entered_once_in_every_format():
    state = apply(created("MJO", "groups"), "TeamRegistered", team("p1", "王伟"))
    refused("T-1.6", state, team("p2", "王伟"))
