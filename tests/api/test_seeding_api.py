"""The knockout setting seeding (T-2.7) through the API: POST …/draws keeps the seeds apart,
the bracket names them, a misspelt seed refuses the draw."""
from tests.spec import assert_matches

TID = "seeded"
T = f"/v1/tournaments/{TID}"


def setup(client, seeds, teams=8):
    response = client.post("/v1/tournaments", json={
        "tournament_id": TID, "name": "种子", "game": "SJ2", "format": "knockout",
        "settings": {"seeding": {"seeds": seeds}}})
    assert response.status_code == 201, response.json
    events = [{"type": "TeamRegistered", "stream": f"tournament-{TID}",
               "data": {"team_id": f"T{i}", "name": f"T{i}", "players": [f"甲{i}", f"乙{i}"]}}
              for i in range(1, teams + 1)]
    assert client.post(f"{T}/events", json={"events": events}).status_code == 201


def test_the_server_draw_keeps_the_four_seeds_in_different_matches(client):
    setup(client, ["T1", "T2", "T3", "T4"])
    draw = client.post(f"{T}/draws", json={})
    assert draw.status_code == 201, draw.json
    for match in draw.json["data"]["matches"]:
        assert len(set(match["teams"]) & {"T1", "T2", "T3", "T4"}) <= 1
    bracket = client.get(f"{T}/bracket").json
    assert_matches("BracketView", bracket)
    assert bracket["seeds"] == ["T1", "T2", "T3", "T4"]


def test_a_recorded_draw_of_seed_1_against_seed_2_is_refused(client):
    setup(client, ["T1", "T2"], teams=4)
    response = client.post(f"{T}/events", json={
        "type": "LotsDrawn", "stream": f"tournament-{TID}",
        "data": {"purpose": "pairing", "round": 1, "byes": [], "matches": [
            {"match_id": "R1-1", "teams": ["T1", "T2"]}, {"match_id": "R1-2", "teams": ["T3", "T4"]}]}})
    assert response.status_code == 422
    assert response.json["rule"] == "T-2.7"


def test_a_seed_naming_no_registered_team_refuses_the_draw(client):
    setup(client, ["T1", "T9"], teams=4)
    response = client.post(f"{T}/draws", json={})
    assert (response.status_code, response.json["rule"]) == (422, "T-2.7")
    assert response.json["detail"] == "T-2.7: setting seeding names T9, not a registered team"


def test_a_malformed_seeding_setting_is_refused_at_creation(client):
    response = client.post("/v1/tournaments", json={
        "tournament_id": TID, "name": "种子", "game": "SJ2", "format": "knockout",
        "settings": {"seeding": ["T1", "T2"]}})
    assert (response.status_code, response.json["rule"]) == (422, "T-2.7")
