"""The knockout of the result-only disciplines (tournaments.md T-9: bridge, xiangqi, go): the
same bracket, with each match's result posted by a referee (ResultRecorded)."""
from spec import assert_response

T = "/v1/tournaments/go-2006"


def post(client, event_type: str, data: dict):
    return client.post(f"{T}/events", json={"type": event_type, "stream": "tournament-go-2006",
                                             "data": data})


def result(client, match_id: str, winner: str, **extra):
    return post(client, "ResultRecorded", {"match_id": match_id, "winner": winner, **extra})


def go_knockout(client, players=("a", "b", "c")):
    assert client.post("/v1/tournaments", json={
        "tournament_id": "go-2006", "name": "围棋", "game": "go", "format": "knockout",
        "settings": {"thirdPlace": "shared"}}).status_code == 201
    for p in players:
        assert post(client, "TeamRegistered", {"team_id": p, "name": p, "players": [p]}).status_code == 201


def draw(client, round_: int, matches: list, byes: list):
    return post(client, "LotsDrawn", {"purpose": "pairing", "round": round_, "byes": byes,
                                      "matches": [{"match_id": m, "teams": t} for m, t in matches]})


def test_t9_results_posted_by_the_referee_decide_the_bracket(client):
    go_knockout(client)
    assert draw(client, 1, [("R1-1", ["a", "b"])], ["c"]).status_code == 201
    # T-9.3: a draw is followed by a tie-break result naming the winner
    assert result(client, "R1-1", "draw", score="½–½").status_code == 201
    assert client.get(f"{T}/bracket").json["rounds"][0]["matches"][0]["winner"] is None
    assert result(client, "R1-1", "b", tie_break="playoff").status_code == 201
    assert draw(client, 2, [("R2-1", ["b", "c"])], []).status_code == 201
    assert result(client, "R2-1", "c", score="W+R").status_code == 201
    standings = client.get(f"{T}/standings")
    assert_response(standings, "get", "/v1/tournaments/{tid}/standings")
    assert standings.json["champion"] == "c" and standings.json["final"] is True
    assert [(r["team"], r["place"]) for r in standings.json["ranking"]] == [("c", 1), ("b", 2), ("a", 3)]


def test_t9_a_result_for_an_undrawn_or_decided_match_or_a_stranger_is_refused(client):
    go_knockout(client)
    draw(client, 1, [("R1-1", ["a", "b"])], ["c"])
    before = len(client.get(f"{T}/events").json["events"])
    for match_id, winner in (("R9-9", "a"), ("R1-1", "c")):
        response = result(client, match_id, winner)
        assert response.status_code == 422, response.json
        assert response.json["rule"] in ("T-9.3", "T-2.1")
    assert result(client, "R1-1", "a").status_code == 201
    decided = result(client, "R1-1", "b")
    assert decided.status_code == 422 and decided.json["rule"] == "T-2.1"
    assert len(client.get(f"{T}/events").json["events"]) == before + 1


def test_t9_1_results_of_a_played_game_come_from_its_own_events(client, tournament):
    response = client.post(f"/v1/tournaments/{tournament}/events", json={
        "type": "ResultRecorded", "stream": f"tournament-{tournament}",
        "data": {"match_id": "R1-1", "winner": "x"}})
    assert response.status_code == 422 and response.json["rule"] == "T-9.1"


def test_t2_1_a_draw_must_pair_the_teams_in_play(client):
    go_knockout(client)
    response = draw(client, 1, [("R1-1", ["a", "z"])], ["c"])
    assert response.status_code == 422 and response.json["rule"] == "T-2.1"
    response = draw(client, 1, [("R1-1", ["a", "b"])], [])
    assert response.status_code == 422 and response.json["rule"] in ("T-2.1", "T-2.2")
