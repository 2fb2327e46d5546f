"""TeamCheckedIn and the knockout setting checkIn (T-2.6, interpretation): a team not checked
in when round 1 is drawn is left out (leaveOut) or out by walkover (walkover)."""
import pytest

from tests.spec import assert_matches

TID = "cup"
T = f"/v1/tournaments/{TID}"


def create(client, check_in=None, **settings):
    if check_in:
        settings["checkIn"] = check_in
    return client.post("/v1/tournaments", json={"tournament_id": TID, "name": "杯", "game": "SJ2",
                                                "format": "knockout", "settings": settings})


def post(client, type_, data):
    return client.post(f"{T}/events", json={"type": type_, "stream": f"tournament-{TID}",
                                            "data": data})


def register(client, *teams):
    for team in teams:
        assert post(client, "TeamRegistered", {"team_id": team, "name": team,
                                               "players": [f"{team}甲", f"{team}乙"]}).status_code == 201


def check_in(client, *teams):
    for team in teams:
        response = post(client, "TeamCheckedIn", {"team_id": team})
        assert response.status_code == 201, response.json


def rule_of(response, status=422):
    assert response.status_code == status, response.json
    return response.json["rule"]


def test_leave_out_draws_round_1_among_the_teams_checked_in(client):
    assert create(client, "leaveOut").status_code == 201
    register(client, "a", "b", "c", "d", "e")
    check_in(client, "a", "b", "d", "e")
    undrawn = client.get(f"{T}/bracket").json
    assert undrawn["not_checked_in"] == ["c"]
    draw = client.post(f"{T}/draws", json={})
    assert draw.status_code == 201, draw.json
    drawn = [t for m in draw.json["data"]["matches"] for t in m["teams"]]
    assert sorted(drawn + draw.json["data"]["byes"]) == ["a", "b", "d", "e"]
    assert draw.json["data"]["byes"] == []  # four teams: a power of two, no bye
    bracket = client.get(f"{T}/bracket").json
    assert_matches("BracketView", bracket)
    assert bracket["entrants"] == ["a", "b", "d", "e"] and bracket["not_checked_in"] == ["c"]
    standings = client.get(f"{T}/standings").json
    assert [row["team"] for row in standings["ranking"]] == ["a", "b", "d", "e"]
    assert standings["not_checked_in"] == ["c"]


def test_a_recorded_draw_that_names_a_team_not_checked_in_is_refused(client):
    assert create(client, "leaveOut").status_code == 201
    register(client, "a", "b", "c")
    check_in(client, "a", "b")
    response = post(client, "LotsDrawn", {"purpose": "pairing", "round": 1, "byes": ["c"],
                                          "matches": [{"match_id": "R1-1", "teams": ["a", "b"]}]})
    assert rule_of(response) == "T-2.1"
    assert "c is not in play" in response.json["detail"]


def test_leave_out_needs_two_teams_checked_in(client):
    assert create(client, "leaveOut").status_code == 201
    register(client, "a", "b")
    check_in(client, "a")
    response = client.post(f"{T}/draws", json={})
    assert rule_of(response) == "T-2.1"
    assert response.json["detail"] == ("T-2.1: a knockout needs at least two teams; 1 "
                                       "registered and checked in")


def test_walkover_gives_the_absent_teams_opponents_the_match(client):
    assert create(client, "walkover").status_code == 201
    register(client, "a", "b", "c", "d", "e", "f")
    check_in(client, "a", "b", "c", "d")
    draw = client.post(f"{T}/draws", json={})
    assert draw.status_code == 201, draw.json
    data = draw.json["data"]
    assert not set(data["byes"]) & {"e", "f"}  # the byes go to teams present
    bracket = client.get(f"{T}/bracket").json
    assert_matches("BracketView", bracket)
    assert bracket["not_checked_in"] == ["e", "f"]
    walkovers = [m for m in bracket["rounds"][0]["matches"] if m["forfeit"]]
    assert sorted(m["forfeit"] for m in walkovers) == ["e", "f"]
    for match in walkovers:  # absent teams were drawn against present ones
        assert match["winner"] in {"a", "b", "c", "d"}
    assert bracket["eliminated"] == {"e": 1, "f": 1}
    standings = client.get(f"{T}/standings").json
    assert standings["not_checked_in"] == ["e", "f"]
    out = {row["team"]: row for row in standings["ranking"]}
    assert out["e"]["eliminated_in"] == 1 and out["e"]["withdrawn"] is False
    # a walkover is decided: its match cannot be started
    match_id = walkovers[0]["match_id"]
    assert rule_of(client.post(f"{T}/matches", json={"match_id": match_id})) == "T-2.1"


def test_walkover_of_a_recorded_draw_with_two_absent_teams_and_a_bye(client):
    assert create(client, "walkover").status_code == 201
    register(client, "a", "b", "c", "d", "e")
    check_in(client, "a", "b")
    assert post(client, "LotsDrawn", {"purpose": "pairing", "round": 1, "byes": ["c", "a", "b"],
                                      "matches": [{"match_id": "R1-1", "teams": ["d", "e"]}]}
                ).status_code == 201
    bracket = client.get(f"{T}/bracket").json
    # d forfeits to e, then e — absent too — is out in round 2, as c (absent, on a bye) is
    assert bracket["rounds"][0]["matches"][0]["forfeit"] == "d"
    assert bracket["eliminated"] == {"c": 2, "d": 1, "e": 2}
    assert bracket["next_round"] == 2 and bracket["champion"] is None


def test_check_in_is_refused_for_unknown_withdrawn_twice_or_after_the_draw(client):
    assert create(client, "leaveOut").status_code == 201
    register(client, "a", "b", "c")
    assert rule_of(post(client, "TeamCheckedIn", {"team_id": "zz"})) == "T-1.3"
    assert post(client, "TeamWithdrawn", {"team_id": "c"}).status_code == 201
    assert rule_of(post(client, "TeamCheckedIn", {"team_id": "c"})) == "T-1.3"
    check_in(client, "a", "b")
    twice = post(client, "TeamCheckedIn", {"team_id": "a"})
    assert rule_of(twice) == "T-2.6"
    assert twice.json["detail"] == "T-2.6: team 'a' has already checked in"
    assert client.post(f"{T}/draws", json={}).status_code == 201
    register_late = post(client, "TeamRegistered", {"team_id": "d", "name": "d",
                                                    "players": ["d1", "d2"]})
    assert rule_of(register_late) == "T-2.1"


def test_check_in_after_the_draw_is_over(client):
    assert create(client, "walkover").status_code == 201
    register(client, "a", "b", "c")
    check_in(client, "a", "b")
    assert client.post(f"{T}/draws", json={}).status_code == 201
    late = post(client, "TeamCheckedIn", {"team_id": "c"})
    assert (rule_of(late), late.json["detail"]) == ("T-2.6", "T-2.6: round 1 has been drawn: "
                                                             "check-in is over")


def test_without_the_setting_check_in_is_refused_and_everyone_is_drawn(client):
    assert create(client).status_code == 201
    register(client, "a", "b")
    assert rule_of(post(client, "TeamCheckedIn", {"team_id": "a"})) == "T-2.6"
    assert client.get(f"{T}/bracket").json["not_checked_in"] == []
    assert client.post(f"{T}/draws", json={}).status_code == 201


@pytest.mark.parametrize("value", ["yes", True, "leave-out"])
def test_an_unknown_check_in_value_is_refused(client, value):
    response = create(client, value)
    assert rule_of(response) == "T-2.6"
    assert "setting checkIn must be one of off, leaveOut, walkover" in response.json["detail"]


def test_only_the_organisation_checks_teams_in(app, client):
    from clients import client_as
    assert create(client, "leaveOut").status_code == 201
    register(client, "a")
    referee = client_as(app, "referee", TID)
    response = post(referee, "TeamCheckedIn", {"team_id": "a"})
    assert response.status_code == 403
    assert response.json["detail"].startswith("TeamCheckedIn is a organisation event")
