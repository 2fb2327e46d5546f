"""POST /v1/tournaments/{tid}/entrants with a CSV file (issue 19): every row registered in one
atomic batch, or nothing, with the row and column of every fault."""
import pytest
from clients import client_as

from tests.spec import assert_matches

TID = "ottawa-2006"
URL = f"/v1/tournaments/{TID}/entrants"
HEADER = "team_id,name,player1,player2,organisation\n"


def pairs(n: int, start: int = 1) -> str:
    return "".join(f"p{i},第{i}队,甲{i},乙{i},北京同乡会\n" for i in range(start, start + n))


def upload(client, text: str | bytes, content_type: str = "text/csv"):
    body = text.encode("utf-8") if isinstance(text, str) else text
    return client.post(URL, data=body, headers={"Content-Type": content_type})


def log(client) -> list[dict]:
    return client.get(f"/v1/tournaments/{TID}/events?limit=1000").json["events"]


def refused(response, status: int = 400) -> dict:
    assert response.status_code == status, response.json
    assert response.mimetype == "application/problem+json"
    assert_matches("Problem", response.json)
    return response.json


def faults(response) -> list[tuple]:
    return [(e["row"], e["column"]) for e in refused(response)["errors"]]


def test_64_pairs_are_registered_in_one_batch_with_contiguous_positions(client, tournament):
    response = upload(client, HEADER + pairs(64))
    assert response.status_code == 201, response.json
    body = response.json
    assert body["registered"] == 64 and body["rows"] == list(range(2, 66))
    positions = [e["position"] for e in body["events"]]
    assert positions == list(range(positions[0], positions[0] + 64))
    assert len({e["meta"]["correlation_id"] for e in body["events"]}) == 1  # one append
    teams = client.get(f"/v1/tournaments/{TID}").json["teams"]
    assert [t["team_id"] for t in teams] == [f"p{i}" for i in range(1, 65)]
    assert teams[63] == {"team_id": "p64", "name": "第64队", "players": ["甲64", "乙64"],
                         "player_ids": ["p64.1", "p64.2"], "organisation": "北京同乡会",
                         "withdrawn": False, "leader": None, "checked_in": False}


def test_one_bad_row_stores_nothing_and_names_its_row_and_column(client, tournament):
    before = log(client)
    text = HEADER + pairs(3) + "p4,第4队,甲4,,\n" + pairs(2, 5)
    problem = refused(upload(client, text))
    assert problem["errors"] == [{
        "path": "/5/player1", "in": "csv", "row": 5, "column": "player1",
        "message": "T-1.2: an entrant in SJ2 has 2 player(s), not 1", "rule": "T-1.2"}]
    assert problem["detail"].startswith("1 bad row(s): nothing was stored.")
    assert log(client) == before


def test_every_bad_row_is_reported_at_once(client, tournament):
    text = HEADER + "-x,第1队,甲1,乙1,\np2,,甲2,乙2,\np3,第3队,甲3,乙3," + "长" * 201 + "\n"
    assert faults(upload(client, text)) == [(2, "team_id"), (3, "name"), (4, "organisation")]


def test_a_utf8_file_with_a_byte_order_mark_is_read(client, tournament):
    response = upload(client, b"\xef\xbb\xbf" + (HEADER + pairs(2)).encode("utf-8"))
    assert response.status_code == 201, response.json
    assert client.get(f"/v1/tournaments/{TID}").json["teams"][0]["team_id"] == "p1"


def test_a_gbk_file_is_named_as_such_and_nothing_is_stored(client, tournament):
    before = log(client)
    problem = refused(upload(client, (HEADER + pairs(2)).encode("gbk")))
    assert problem["errors"] == [{
        "path": "/2/name", "in": "csv", "row": 2, "column": "name",
        "message": "the file is not UTF-8; it looks like GBK (save it as CSV UTF-8)"}]
    assert log(client) == before


def test_another_encoding_says_which_byte(client, tournament):
    problem = refused(upload(client, HEADER.encode() + "p1,Zoë,a,b,\n".encode("latin-1")))
    assert problem["errors"][0]["message"] == ("the file is not UTF-8: byte 47 (0xeb) is "
                                               "invalid (save it as CSV UTF-8)")


@pytest.mark.parametrize("header, wanted", [
    ("team,name,player1,player2\n", [(1, "team"), (1, "team_id")]),
    ("team_id,name,player2\n", [(1, "player1")]),
    ("team_id,name,player1,player2,player3\n", [(1, "player3")]),
    ("team_id,name,name,player1,player2\n", [(1, "name")]),
    ("team_id,name,player1,player2,player2_id\n", []),
    ("team_id,name,player1,player3_id\n", [(1, "player3_id")]),
])
def test_wrong_columns(client, tournament, header, wanted):
    response = upload(client, header + "p1,第1队,甲1,乙1,x\n")
    if wanted:
        assert faults(response)[:len(wanted)] == wanted
    else:  # player2_id given alone: the row must give player1_id too
        assert faults(response) == [(2, "player1_id")]


def test_the_header_names_the_columns_it_wants(client, tournament):
    problem = refused(upload(client, "id,name,player1\n"))
    assert problem["errors"][0]["message"].startswith(
        "unknown column; the columns are team_id, name, player1, organisation, leader, "
        "player2, player1_id, player2_id")


def test_duplicate_team_ids_in_the_file(client, tournament):
    text = HEADER + pairs(2) + "p1,又一队,丙,丁,\n"
    problem = refused(upload(client, text))
    assert problem["errors"] == [{"path": "/4/team_id", "in": "csv", "row": 4,
                                  "column": "team_id", "rule": "T-1.3",
                                  "message": "T-1.3: team 'p1' is already registered"}]


def test_a_player_in_two_rows_is_refused_with_the_rule(client, tournament):
    problem = refused(upload(client, HEADER + pairs(2) + "p3,第3队,丙3,甲2,\n"))
    assert [(e["row"], e["column"], e["rule"]) for e in problem["errors"]] == \
        [(4, "player2", "T-1.6")]
    assert "'甲2' is already entered, for team 'p2'" in problem["errors"][0]["message"]


def test_a_player_already_registered_before_the_file_is_refused(client, tournament):
    assert upload(client, HEADER + pairs(1)).status_code == 201
    assert faults(upload(client, HEADER + "p9,第9队,甲1,乙9,\n")) == [(2, "player1")]


def test_namesakes_with_their_own_ids_are_accepted(client, tournament):
    text = ("team_id,name,player1,player2,player1_id,player2_id\n"
            "bj-1,北京一队,王伟,李雷,w1,l1\nbj-2,北京二队,王伟,韩梅梅,w2,h1\n")
    assert upload(client, text).status_code == 201
    teams = client.get(f"/v1/tournaments/{TID}").json["teams"]
    assert [t["player_ids"] for t in teams] == [["w1", "l1"], ["w2", "h1"]]


def test_a_row_with_one_id_of_two_is_refused(client, tournament):
    text = "team_id,name,player1,player2,player1_id,player2_id\nbj-1,北京一队,王伟,李雷,w1,\n"
    assert faults(upload(client, text)) == [(2, "player2_id")]


def test_more_than_ten_thousand_rows_is_a_400_and_nothing_is_stored(client, tournament):
    before = log(client)
    text = "team_id,name,player1,player2\n" + "".join(f"t{i},T{i},a{i},b{i}\n"
                                                       for i in range(10_001))
    problem = refused(upload(client, text))
    assert problem["errors"] == [{"path": "/10002", "in": "csv", "row": 10002, "column": None,
                                  "message": "more than 10,000 entrants in one file: split it"}]
    assert log(client) == before


def test_semicolons_and_blank_rows_of_a_spreadsheet(client, tournament):
    text = "team_id;name;player1;player2\r\np1;一队;甲;乙\r\n;;;\r\n\r\np2;二队;丙;丁\r\n"
    response = upload(client, text)
    assert response.status_code == 201, response.json
    assert response.json["rows"] == [2, 5]


def test_an_empty_file_and_a_header_alone(client, tournament):
    assert faults(upload(client, "")) == [(1, None)]
    assert faults(upload(client, HEADER)) == [(2, None)]


def test_a_row_with_more_cells_than_columns(client, tournament):
    assert faults(upload(client, HEADER + "p1,一队,甲,乙,,extra\n")) == [(2, None)]


def test_only_text_csv_in_utf8(client, tournament):
    assert refused(upload(client, HEADER, "application/json"), 415)["detail"] == \
        "Content-Type must be text/csv, not application/json"
    assert refused(upload(client, HEADER, "text/csv; charset=gbk"), 415)["detail"].startswith(
        "charset must be utf-8, not gbk")


def test_the_body_size_limit_applies(app, client, tournament):
    app.config["MAX_CONTENT_LENGTH"] = 1000
    refused(upload(client, HEADER + pairs(40)), 413)


def test_only_the_organisation_may_import(app, client, tournament):
    referee = client_as(app, "referee", TID)
    problem = refused(upload(referee, HEADER + pairs(1)), 403)
    assert "may not organise the tournament" in problem["detail"]
    organiser = client_as(app, "organiser", TID)
    assert upload(organiser, HEADER + pairs(1)).status_code == 201


def test_an_unknown_tournament_is_404(client):
    assert refused(client.post("/v1/tournaments/nowhere/entrants", data=HEADER.encode(),
                               headers={"Content-Type": "text/csv"}), 404)["detail"] == \
        "no tournament 'nowhere'"


def test_after_the_draw_every_row_is_refused(client, tournament):
    assert upload(client, HEADER + pairs(2)).status_code == 201
    assert client.post(f"/v1/tournaments/{TID}/draws", json={}).status_code == 201
    problem = refused(upload(client, HEADER + pairs(1, 3)))
    assert problem["errors"][0]["rule"] == "T-2.1"


def test_a_team_event_row_is_a_leader_and_two_pairs(client):
    assert client.post("/v1/tournaments", json={"tournament_id": TID, "name": "校庆杯",
                                                "game": "SJ3", "format": "swiss-teams"}).status_code == 201
    text = ("team_id,name,leader,player1,player2,player3,player4\n"
            "jnu-1,一队,领队1,甲,乙,丙,丁\njnu-2,二队,,戊,己,庚,辛\n")
    problem = refused(upload(client, text))
    assert [(e["row"], e["rule"]) for e in problem["errors"]] == [(3, "T-6.2")]


def test_the_same_player_name_in_two_posted_teams_is_422_with_the_rule(client, tournament):
    def post(team_id, players):
        return client.post(f"/v1/tournaments/{TID}/events", json={
            "type": "TeamRegistered", "stream": f"tournament-{TID}",
            "data": {"team_id": team_id, "name": team_id, "players": players}})
    assert post("a", ["王伟", "李雷"]).status_code == 201
    problem = refused(post("b", ["韩梅梅", "王伟"]), 422)
    assert (problem["rule"], problem["path"]) == ("T-1.6", "/")
    assert problem["detail"] == ("T-1.6: player '王伟' is already entered, for team 'a'; a "
                                 "player is entered once (namesakes are told apart by "
                                 "player_ids)")


def test_a_fields_fault_is_said_in_the_readers_language(client, tournament):
    """A cell refused by the event's schema (a name of 201 characters) is told in Chinese to
    a Chinese reader, in English to an English one, at the same row and column."""
    text = HEADER + "p1,第1队,甲1,乙1," + "长" * 201 + "\n"
    english = refused(upload(client, text))["errors"]
    chinese = refused(client.post(URL, data=text.encode(), headers={
        "Content-Type": "text/csv", "Accept-Language": "zh"}))["errors"]
    assert [(e["row"], e["column"]) for e in chinese] == [(2, "organisation")]
    assert english[0]["message"].startswith("Length must be")
    assert not any(c.isascii() and c.isalpha() for c in chinese[0]["message"]), chinese
