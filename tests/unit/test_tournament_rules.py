"""rules/tournament.py against tournaments.md T-1.1 to T-1.5."""
import pytest

from rules import RuleViolation
from rules.tournament import apply


def created(game="SJ2", fmt="knockout"):
    return apply(None, "TournamentCreated", {"tournament_id": "t", "name": "n", "game": game,
                                             "format": fmt, "settings": {}})


def team(team_id, *players, name="队"):
    return {"team_id": team_id, "name": name, "players": list(players)}


def violated(rule, state, event_type, data):
    with pytest.raises(RuleViolation) as info:
        apply(state, event_type, data)
    assert info.value.rule == rule
    return info.value


@pytest.mark.parametrize("game,fmt", [("SJ5", "knockout"), ("SJ2", "round-robin")])
def test_t_1_1_unknown_discipline_or_format(game, fmt):
    violated("T-1.1", None, "TournamentCreated",
             {"tournament_id": "t", "name": "n", "game": game, "format": fmt})


@pytest.mark.parametrize("game,players,ok", [
    ("SJ2", ["甲", "乙"], True), ("SJ2", ["甲"], False), ("GD", ["甲", "乙", "丙"], False),
    ("SJ3", ["甲", "乙", "丙", "丁"], True), ("SJ3", ["甲", "乙"], True), ("SJ3", ["甲", "乙", "丙"], False),
    ("MJO", ["甲"], True), ("MJS", ["甲", "乙"], False),
])
def test_t_1_2_entrant_size_fits_the_discipline(game, players, ok):
    state = created(game, "groups" if game.startswith("MJ") else "knockout")   # T-1.1
    if ok:
        assert apply(state, "TeamRegistered", team("a", *players)).team("a").players == tuple(players)
    else:
        assert "player" in violated("T-1.2", state, "TeamRegistered", team("a", *players)).message


def test_t_1_2_an_entrant_names_each_player_once():
    violated("T-1.2", created(), "TeamRegistered", team("a", "王伟", "王伟"))


def test_t_1_3_team_ids_are_unique_and_withdrawal_needs_a_registered_team():
    state = apply(created(), "TeamRegistered", team("a", "甲", "乙"))
    violated("T-1.3", state, "TeamRegistered", team("a", "丙", "丁"))
    violated("T-1.3", state, "TeamWithdrawn", {"team_id": "b"})
    state = apply(state, "TeamWithdrawn", {"team_id": "a"})
    assert state.team("a").withdrawn
    violated("T-1.3", state, "TeamWithdrawn", {"team_id": "a"})


def test_t_1_3_created_once_and_nothing_before_it():
    violated("T-1.3", created(), "TournamentCreated",
             {"tournament_id": "t", "name": "n", "game": "GD", "format": "knockout"})
    violated("T-1.3", None, "TeamRegistered", team("a", "甲", "乙"))


def test_t_1_5_rulings_are_kept_in_order():
    state = apply(created(), "RulingRecorded", {"text": "组委会裁定：第3局重赛"})
    state = apply(state, "RulingRecorded", {"text": "second", "effect": {"kind": "replay"}})
    assert [r.to_dict() for r in state.rulings] == [
        {"text": "组委会裁定：第3局重赛", "effect": None}, {"text": "second", "effect": {"kind": "replay"}}]


def test_states_are_values_the_old_state_is_untouched():
    before = created()
    after = apply(before, "TeamRegistered", team("a", "甲", "乙"))
    assert len(before.teams) == 0 and len(after.teams) == 1


@pytest.mark.parametrize("game, fmt, bad", [("SJ2", "knockout", {"maxHands": 0}),
                                            ("SJ2", "knockout", {"bogus": 1}),
                                            ("GD", "knockout", {"matchMinutes": "sixty"}),
                                            ("MJO", "groups", {"startingCoins": "x"})])
def test_t1_3_match_settings_are_checked_when_the_tournament_is_created(game, fmt, bad):
    with pytest.raises(RuleViolation):
        apply(None, "TournamentCreated", {"tournament_id": "t", "name": "n", "game": game,
                                          "format": fmt, "settings": {"match": bad}})
