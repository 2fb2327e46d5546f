"""The team event (积分编排, tournaments.md T-6) through the API: registration of teams of a
leader and two pairs, the pairing of rounds (by lots, by scores, by hand), the rounds and
standings reads and their CSV form, and bad input refused with nothing stored."""
from __future__ import annotations

import csv
import io

import pytest
from spec import assert_response

T = "/v1/tournaments"
TID = "jnu-2006"
STREAM = f"tournament-{TID}"


def create(client, **settings) -> None:
    response = client.post(T, json={"tournament_id": TID, "name": "暨南大学教职工“校庆杯”",
                                    "game": "SJ3", "format": "swiss-teams",
                                    "date": "2006-05-27", "venue": "教育工会教职工之家",
                                    "settings": settings})
    assert response.status_code == 201, response.json


def team(team_id: str, **extra) -> dict:
    return {"team_id": team_id, "name": f"{team_id}队", "leader": f"{team_id}领队",
            "players": [f"{team_id}甲", f"{team_id}乙", f"{team_id}丙", f"{team_id}丁"],
            "organisation": "暨南大学", **extra}


def post(client, type_: str, data: dict):
    return client.post(f"{T}/{TID}/events", json={"type": type_, "stream": STREAM, "data": data})


def register(client, *teams: str) -> None:
    for t in teams:
        response = post(client, "TeamRegistered", team(t))
        assert response.status_code == 201, response.json


def log_length(client) -> int:
    return len(client.get(f"{T}/{TID}/events?limit=1000").json["events"])


def refused(response, status: int, rule: str | None = None) -> dict:
    assert response.status_code == status, response.json
    if rule:
        assert response.json["rule"] == rule, response.json
    return response.json


@pytest.fixture
def event(client):
    create(client)
    return client


# --- the tournament and its teams --------------------------------------------------------------

def test_t6_3_the_team_event_plays_sj3_and_checks_its_settings(client):
    for game, settings, rule in (("SJ2", {}, "T-6.3"), ("SJ3", {"rounds": 0}, "T-6.1"),
                                 ("SJ3", {"tieBreak2": "x"}, "T-6.8")):
        response = client.post(T, json={"tournament_id": "x", "name": "x", "game": game,
                                        "format": "swiss-teams", "settings": settings})
        refused(response, 422, rule)
    assert client.get(f"{T}/x").status_code == 404


@pytest.mark.parametrize("settings, key", [({"tiebreak2": "x"}, "'tiebreak2'"),
                                           ({"pairingUnit": "pair"}, "'pairingUnit'"),
                                           ({"rounds": 4, "byePolicy": "oddGetsBye"},
                                            "'byePolicy'")])
def test_t6_an_unknown_team_event_setting_is_refused_by_name(client, settings, key):
    """A misspelt key (tiebreak2) would be stored and never read; pairingUnit is the spec's
    setting the seed's team-only event does not have (T-6.4)."""
    response = client.post(T, json={"tournament_id": "x", "name": "x", "game": "SJ3",
                                    "format": "swiss-teams", "settings": settings})
    problem = refused(response, 422, "T-6")
    assert f"unknown setting {key}" in problem["detail"]
    assert "rounds, tieBreak2, forfeitScope, pairingMethod, match" in problem["detail"]
    assert client.get(f"{T}/x").status_code == 404


def test_t6_5_the_tables_score_2_1_0(client):
    """T-6.5: the standings add 2 / 1 / 0 per table and a forfeit gives 2 (「对手得2分」): another
    match setting matchPoints is refused, for the tournament and for one table."""
    response = client.post(T, json={"tournament_id": "x", "name": "x", "game": "SJ3",
                                    "format": "swiss-teams", "settings": {"match": {
                                        "matchPoints": {"win": 3, "draw": 1, "loss": 0}}}})
    assert "'win': 3" in refused(response, 422, "T-6.5")["detail"]
    create(client, match={"matchPoints": {"win": 2, "draw": 1, "loss": 0}})
    register(client, "T1", "T2")
    meeting = client.post(f"{T}/{TID}/pairings").json["round"]["meetings"][0]["match_id"]
    response = client.post(f"{T}/{TID}/matches", json={
        "match_id": meeting + "a", "settings": {"matchPoints": {"win": 3, "draw": 1, "loss": 0}}})
    refused(response, 422, "T-6.5")
    assert client.post(f"{T}/{TID}/matches", json={"match_id": meeting + "a"}).status_code == 201


def test_t6_2_a_team_registers_with_a_leader_and_two_pairs(event):
    response = post(event, "TeamRegistered", team("T1"))
    assert response.status_code == 201
    stored = event.get(f"{T}/{TID}").json["teams"][0]
    assert stored["leader"] == "T1领队" and stored["players"] == ["T1甲", "T1乙", "T1丙", "T1丁"]
    rounds = event.get(f"{T}/{TID}/rounds").json
    assert rounds["teams"] == [{"team": "T1", "name": "T1队", "leader": "T1领队",
                                "pairs": {"a": ["T1甲", "T1乙"], "b": ["T1丙", "T1丁"]}}]


@pytest.mark.parametrize("data, message", [
    ({**team("T2"), "players": ["甲", "乙"]}, "four players"),
    ({**team("T2"), "players": ["甲", "乙", "丙", "丁", "戊"]}, "four players"),
    ({k: v for k, v in team("T2").items() if k != "leader"}, "names its leader"),
    ({**team("T2"), "players": ["T2甲", "T1乙", "T2丙", "T2丁"]}, "T1乙 already play"),
])
def test_t6_2_bad_teams_are_refused_and_nothing_is_stored(event, data, message):
    register(event, "T1")
    before = log_length(event)
    problem = refused(post(event, "TeamRegistered", data), 422, "T-6.2")
    assert message in problem["detail"]
    assert log_length(event) == before


# --- pairing -----------------------------------------------------------------------------------

def test_t6_4_round_1_is_drawn_by_lots_and_recorded(event):
    register(event, "T1", "T2", "T3", "T4", "T5")
    response = event.post(f"{T}/{TID}/pairings")
    body = assert_response(response, "post", "/v1/tournaments/{tid}/pairings")
    assert response.status_code == 201
    drawn = body["event"]
    assert (drawn["type"], drawn["data"]["purpose"], drawn["data"]["round"]) == (
        "LotsDrawn", "pairing", 1)
    assert len(drawn["data"]["byes"]) == 1 and len(drawn["data"]["matches"]) == 2
    meeting = body["round"]["meetings"][0]
    a, b = meeting["teams"]
    assert meeting["tables"][0]["match_id"] == meeting["match_id"] + "a"
    assert meeting["tables"][0]["players"] == {"A": [f"{a}甲", f"{a}乙"], "B": [f"{b}甲", f"{b}乙"]}
    assert meeting["tables"][1]["players"] == {"A": [f"{a}丙", f"{a}丁"], "B": [f"{b}丙", f"{b}丁"]}
    # registration is closed once the lots are drawn (T-6.4)
    refused(post(event, "TeamRegistered", team("T6")), 422)


def test_the_draws_route_pairs_a_team_event_too(event):
    register(event, "T1", "T2", "T3", "T4")
    response = event.post(f"{T}/{TID}/draws", json={"round": 1})
    assert response.status_code == 201, response.json
    assert response.json["data"]["purpose"] == "pairing"
    refused(event.post(f"{T}/{TID}/draws", json={"method": "cards"}), 422, "T-6.4")


def test_t6_4_round_2_waits_for_round_1_and_results_wait_for_their_round(event):
    """Results for a round not yet started: a table of round 2 cannot be started before round
    2 is paired, and round 2 cannot be paired while round 1 is being played."""
    register(event, "T1", "T2", "T3", "T4")
    event.post(f"{T}/{TID}/pairings")
    before = log_length(event)
    problem = refused(event.post(f"{T}/{TID}/pairings"), 422, "T-6.4")
    assert "round 1 is still being played" in problem["detail"]
    problem = refused(event.post(f"{T}/{TID}/matches", json={"match_id": "R2-1a"}), 422, "T-6.4")
    assert "no table 'R2-1a' has been paired" in problem["detail"]
    assert log_length(event) == before
    view = event.get(f"{T}/{TID}/rounds").json
    assert view["next"]["round"] == 2 and view["next"]["pairable"] is False
    assert "round 1 is still being played" in view["next"]["problem"]


def test_t6_4_round_2_cannot_be_drawn_by_lots_nor_round_1_paired_by_scores(event):
    register(event, "T1", "T2", "T3", "T4")
    data = {"round": 1, "manual": True, "matches": [{"match_id": "R1-1", "teams": ["T1", "T2"]},
                                                    {"match_id": "R1-2", "teams": ["T3", "T4"]}]}
    problem = refused(post(event, "RoundPaired", data), 422, "T-6.4")
    assert "round 1 is drawn by lots" in problem["detail"]
    lots = {"purpose": "pairing", "round": 1, "byes": ["T4"],
            "matches": [{"match_id": "R1-1", "teams": ["T1", "T2"]}]}
    problem = refused(post(event, "LotsDrawn", lots), 422, "T-6.4")
    assert "left out: T3" in problem["detail"]


@pytest.mark.parametrize("matches, byes, message", [
    ([["T1", "T1"], ["T3", "T4"]], [], "named twice: T1; left out: T2"),
    ([["T1", "T2"], ["T3", "T2"]], [], "named twice: T2; left out: T4"),
    ([["T1", "T2"]], ["T3"], "left out: T4"),
])
def test_t6_4_a_pairing_that_names_a_team_twice_is_refused(event, matches, byes, message):
    register(event, "T1", "T2", "T3", "T4")
    before = log_length(event)
    data = {"purpose": "pairing", "round": 1, "byes": byes,
            "matches": [{"match_id": f"R1-{k}", "teams": m} for k, m in enumerate(matches, 1)]}
    problem = refused(post(event, "LotsDrawn", data), 422, "T-6.4")
    assert message in problem["detail"]
    assert log_length(event) == before


def test_a_manual_pairing_body_is_checked_at_the_edge(event):
    register(event, "T1", "T2")
    response = event.post(f"{T}/{TID}/pairings", json={
        "matches": [{"match_id": "R1-1", "teams": ["T1"]}], "byes": ["a b"]})
    problem = refused(response, 400)
    assert sorted(e["path"] for e in problem["errors"]) == ["/byes/0", "/matches/0/teams"]


def test_only_a_team_event_is_paired_by_scores(client, tournament):
    refused(client.post(f"{T}/{tournament}/pairings"), 422, "T-6.4")
    response = client.post(f"{T}/{tournament}/events", json={
        "type": "RoundPaired", "stream": f"tournament-{tournament}",
        "data": {"round": 2, "matches": [{"match_id": "R2-1", "teams": ["a", "b"]}]}})
    refused(response, 422, "T-6.4")


# --- reads ---------------------------------------------------------------------------------------

def test_standings_before_any_result_share_first_place_and_print_as_csv(event):
    register(event, "T1", "T2", "T3")
    event.post(f"{T}/{TID}/pairings")
    response = event.get(f"{T}/{TID}/standings")
    view = assert_response(response, "get", "/v1/tournaments/{tid}/standings")
    assert view["format"] == "swiss-teams" and view["final"] is False
    assert view["rounds"] == 4 and view["rounds_played"] == 0
    bye = next(r for r in view["ranking"] if r["byes"])
    assert (bye["place"], bye["score"], bye["tie_break_1"], bye["tie_break_2"]) == (1, 4, 2, 2)
    assert [r["place"] for r in view["ranking"]] == [1, 2, 2]
    printed = event.get(f"{T}/{TID}/standings?format=csv")
    assert_response(printed, "get", "/v1/tournaments/{tid}/standings")
    assert printed.mimetype == "text/csv" and printed.data.startswith("\ufeff".encode())
    rows = list(csv.reader(io.StringIO(printed.data.decode("utf-8-sig"))))
    assert rows[0][:5] == ["名次 place", "队 team", "队名 name", "领队 leader", "团体分 score"]
    assert rows[1][:5] == ["1", bye["team"], f"{bye['team']}队", f"{bye['team']}领队", "4"]
    assert "R1" in rows[1] and len(rows) == 4
    by_accept = event.get(f"{T}/{TID}/standings", headers={"Accept": "text/csv"})
    assert by_accept.data == printed.data


def test_the_standings_of_another_format_print_as_csv_too(client, tournament):
    printed = client.get(f"{T}/{tournament}/standings?format=csv")
    assert printed.status_code == 200 and printed.mimetype == "text/csv"
    assert printed.data.decode("utf-8-sig").splitlines() == ["place,team,name"]
    refused(client.get(f"{T}/{tournament}/standings?format=xml"), 400)


def test_rounds_and_standings_take_at(event):
    register(event, "T1", "T2", "T3", "T4")
    before = event.get(f"{T}/{TID}/rounds").json
    at = event.get(f"{T}/{TID}").json["position"]
    event.post(f"{T}/{TID}/pairings")
    assert event.get(f"{T}/{TID}/rounds?at={at}").json == before
    assert len(event.get(f"{T}/{TID}/rounds").json["rounds"]) == 1
    assert event.get(f"{T}/{TID}/standings?at={at}").json["ranking"][0]["score"] == 0
    refused(event.get(f"{T}/nope/rounds"), 404)
