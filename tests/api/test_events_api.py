"""Posting events and reading them back over the API (Flask test client, SQLite store)."""
import json
import threading

import pytest
from clients import admin_client

from events.envelope import GENESIS_HASH, canonical_json, chain_hash

EVENT_ID = "5f0c2a8e-3b1d-4c6e-9a7f-1d2e3f4a5b6c"


def team(team_id, *players, **extra):
    return {"type": "TeamRegistered", "stream": "tournament-ottawa-2006",
            "data": {"team_id": team_id, "name": f"队 {team_id}", "players": list(players) or [f"甲{team_id}", f"乙{team_id}"]},
            **extra}


def post(client, body, tid="ottawa-2006"):
    return client.post(f"/v1/tournaments/{tid}/events", json=body)


def log(client, tid="ottawa-2006"):
    return client.get(f"/v1/tournaments/{tid}/events?limit=1000").json["events"]


def test_create_a_tournament_and_read_it(client, tournament):
    body = client.get(f"/v1/tournaments/{tournament}").json
    assert body["name"] == "渥太华中华文化宫募捐友谊赛" and body["game"] == "SJ2"
    assert (body["version"], body["teams"], body["venue"]) == (1, [], "中华大厦")
    listed = client.get("/v1/tournaments").json["tournaments"]
    assert [t["id"] for t in listed] == [tournament]


def test_create_tournament_answers_201_with_location_and_a_generated_id(client):
    response = client.post("/v1/tournaments", json={"name": "华商杯", "game": "GD", "format": "knockout"})
    assert response.status_code == 201
    tid = response.json["id"]
    assert response.headers["Location"] == f"/v1/tournaments/{tid}"
    assert client.get(response.headers["Location"]).json == response.json


def test_post_one_event_and_read_it_back_every_way(client, tournament):
    response = post(client, team("a", meta={"source": "tablet-3"}))
    assert response.status_code == 201
    stored = response.json
    assert (stored["position"], stored["version"], stored["type"]) == (2, 2, "TeamRegistered")
    assert stored["meta"]["source"] == "tablet-3" and stored["meta"]["correlation_id"]
    assert stored["meta"]["role"] == "admin"  # who posted it: the token's, not the body's
    assert client.get(f"/v1/tournaments/{tournament}/events/{stored['id']}").json == stored
    assert log(client)[-1] == stored
    stream = client.get(f"/v1/tournaments/{tournament}/streams/tournament-{tournament}").json
    assert (stream["version"], stream["events"][-1]) == (2, stored)
    assert client.get(f"/v1/tournaments/{tournament}").json["teams"][0]["players"] == ["甲a", "乙a"]


def test_a_batch_is_stored_atomically_in_order_with_one_correlation_id(client, tournament):
    response = post(client, {"events": [team("a"), team("b"), {"type": "TeamWithdrawn",
                                        "stream": "tournament-ottawa-2006", "data": {"team_id": "a"}}]})
    assert response.status_code == 201
    events = response.json["events"]
    assert [e["position"] for e in events] == [2, 3, 4]
    assert len({e["meta"]["correlation_id"] for e in events}) == 1
    assert [e["prev_hash"] for e in events[1:]] == [e["hash"] for e in events[:-1]]


def test_an_idempotent_retry_returns_the_same_position_and_hash(client, tournament):
    first = post(client, team("a", id=EVENT_ID))
    again = post(client, team("a", id=EVENT_ID))
    assert (first.status_code, again.status_code) == (201, 200)
    assert (again.json["position"], again.json["hash"]) == (first.json["position"], first.json["hash"])
    assert len(log(client)) == 2


def test_reusing_an_id_with_other_content_is_409(client, tournament):
    post(client, team("a", id=EVENT_ID))
    response = post(client, team("b", id=EVENT_ID))
    assert response.status_code == 409
    assert response.json["type"] == "urn:paiju:problem:idempotency-conflict"
    assert response.json["event_id"] == EVENT_ID
    assert len(log(client)) == 2


def test_a_batch_whose_third_of_five_events_breaks_its_schema_writes_nothing(client, tournament):
    batch = [team("a"), team("b"), team("c"), team("d"), team("e")]
    batch[2]["data"]["players"] = "甲乙"
    response = post(client, {"events": batch})
    assert response.status_code == 400
    assert response.json["errors"] == [{"path": "/events/2/data/players", "message": "Not a valid list."}]
    assert len(log(client)) == 1


def test_a_batch_whose_third_of_five_events_breaks_a_rule_writes_nothing(client, tournament):
    batch = [team("a"), team("b"), team("a", "丙", "丁"), team("d"), team("e")]
    response = post(client, {"events": batch})
    assert response.status_code == 422
    assert (response.json["rule"], response.json["event_index"], response.json["path"]) == ("T-1.3", 2, "/events/2")
    assert len(log(client)) == 1


def test_a_batch_whose_third_of_five_events_has_a_wrong_version_writes_nothing(client, tournament):
    batch = [team("a"), team("b"), team("c", expected_version=9), team("d"), team("e")]
    response = post(client, {"events": batch})
    assert response.status_code == 409
    assert response.json["current_version"] == 3  # the version the third event would have followed
    assert len(log(client)) == 1


def test_two_clients_with_the_same_expected_version_exactly_one_succeeds(app, tournament):
    barrier, statuses = threading.Barrier(2), []

    def client_posts(team_id):
        c = admin_client(app)
        barrier.wait()
        r = post(c, {"events": [team(team_id, expected_version=1), team(team_id + "-2")]})
        statuses.append((r.status_code, r.json.get("current_version")))

    threads = [threading.Thread(target=client_posts, args=(t,)) for t in ("a", "b")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(statuses, key=str) == [(201, None), (409, 3)]
    assert len(log(admin_client(app))) == 3  # one whole batch, nothing of the other


def test_paging_through_the_log_with_next_links(client, tournament):
    post(client, {"events": [team(f"t{i}") for i in range(25)]})
    url, seen = f"/v1/tournaments/{tournament}/events?limit=10", []
    while url:
        page = client.get(url)
        seen += [e["position"] for e in page.json["events"]]
        url = page.json["next"]
        assert (page.headers.get("Link") is None) == (url is None)
    assert seen == list(range(1, 27))


def test_filters_by_stream_and_type(client, tournament):
    post(client, {"events": [team("a"), {"type": "RulingRecorded", "stream": "tournament-ottawa-2006",
                                         "data": {"text": "组委会裁定"}}]})
    only = client.get(f"/v1/tournaments/{tournament}/events?type=RulingRecorded").json["events"]
    assert [e["type"] for e in only] == ["RulingRecorded"]
    in_stream = client.get(f"/v1/tournaments/{tournament}/events?stream=tournament-{tournament}").json
    assert len(in_stream["events"]) == 3


def test_stream_paging_by_version(client, tournament):
    post(client, {"events": [team(f"t{i}") for i in range(5)]})
    page = client.get(f"/v1/tournaments/{tournament}/streams/tournament-{tournament}?from_version=2&limit=3").json
    assert [e["version"] for e in page["events"]] == [2, 3, 4]
    assert page["version"] == 6
    assert page["next"].endswith("from_version=5&limit=3")


def test_verify_reports_a_clean_chain(client, tournament):
    post(client, team("a"))
    report = client.get(f"/v1/tournaments/{tournament}/verify").json
    assert report["ok"] is True and report["checked"] == 2 and report["first_bad_position"] is None


def test_export_is_the_canonical_log_and_verifies_offline(client, tournament):
    post(client, {"events": [team("a"), team("b")]})
    response = client.get(f"/v1/tournaments/{tournament}/export?format=jsonl")
    assert response.mimetype == "application/x-ndjson"
    *lines, manifest = response.get_data(as_text=True).splitlines()
    assert [json.loads(line) for line in lines] == log(client)
    assert json.loads(manifest)["manifest"]["event_count"] == 3
    prev = GENESIS_HASH
    for line in lines:  # what an auditor does with the file alone
        envelope = json.loads(line)
        assert line == canonical_json(envelope)
        claimed = envelope.pop("hash")
        assert envelope["prev_hash"] == prev
        assert chain_hash(prev, canonical_json(envelope)) == claimed
        prev = claimed


def test_the_tournament_at_any_position_equals_what_was_live_then(client, tournament):
    """Replay: the state folded up to position p is the state that was served right after p."""
    live = {1: client.get(f"/v1/tournaments/{tournament}").json}
    for body in (team("a"), team("b"), {"type": "TeamWithdrawn", "stream": "tournament-ottawa-2006",
                                         "data": {"team_id": "a", "reason": "迟到"}}):
        position = post(client, body).json["position"]
        live[position] = client.get(f"/v1/tournaments/{tournament}").json
    for position, state in live.items():
        assert client.get(f"/v1/tournaments/{tournament}?at={position}").json == state
    assert client.get(f"/v1/tournaments/{tournament}?at=0").status_code == 404


def test_a_single_event_answers_with_its_location(client, tournament):
    response = post(client, team("a"))
    assert response.headers["Location"] == f"/v1/tournaments/{tournament}/events/{response.json['id']}"
    assert client.get(response.headers["Location"]).json == response.json


def test_null_optional_fields_mean_absent_and_are_not_stored(client, tournament):
    """A view shows absent fields as null; sending such a value back must work."""
    body = team("a", meta=None)
    body["data"]["organisation"] = None
    stored = post(client, body)
    assert stored.status_code == 201
    assert "organisation" not in stored.json["data"]
    view = client.get(f"/v1/tournaments/{tournament}").json
    assert view["teams"][0]["organisation"] is None


def test_sixteen_clients_registering_at_once_all_succeed(app, tournament):
    """Rules are judged inside the write transaction: concurrent writers to one stream do not
    fail each other (no spurious 409), and every event is judged on the state it follows."""
    barrier, statuses = threading.Barrier(16), []

    def client_registers(n):
        c = admin_client(app)
        barrier.wait()
        for k in range(10):
            statuses.append(post(c, team(f"c{n}-{k}")).status_code)

    threads = [threading.Thread(target=client_registers, args=(n,)) for n in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert statuses == [201] * 160
    stream = admin_client(app).get(f"/v1/tournaments/{tournament}/streams/tournament-{tournament}").json
    assert stream["version"] == 161
    assert len(admin_client(app).get(f"/v1/tournaments/{tournament}").json["teams"]) == 160


def test_two_clients_registering_the_same_team_at_once_one_is_refused_by_the_rule(app, tournament):
    barrier, statuses = threading.Barrier(8), []

    def client_registers(players):
        c = admin_client(app)
        barrier.wait()
        r = post(c, team("same", *players))
        statuses.append((r.status_code, r.json.get("rule")))

    threads = [threading.Thread(target=client_registers, args=([f"甲{n}", f"乙{n}"],)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(statuses, key=str) == [(201, None)] + [(422, "T-1.3")] * 7
    assert len(admin_client(app).get(f"/v1/tournaments/{tournament}").json["teams"]) == 1


def test_export_is_the_log_as_it_stood_when_asked_and_names_its_last_event(app, client, tournament):
    post(client, {"events": [team("a"), team("b")]})
    response = client.get(f"/v1/tournaments/{tournament}/export", buffered=False)
    post(client, team("late"))  # appended while the export is under way
    *lines, manifest = b"".join(response.response).decode().splitlines()
    response.close()
    last = json.loads(lines[-1])
    assert len(lines) == 3 and json.loads(manifest)["manifest"]["last_hash"] == last["hash"]
    assert (response.headers["X-Paiju-Last-Position"], response.headers["X-Paiju-Last-Hash"]) == (
        str(last["position"]), last["hash"])


@pytest.mark.parametrize("game, format_, settings, known", [
    ("SJ2", "knockout", {"thirdplace": "shared"}, "match, byePolicy, thirdPlace"),
    ("go", "knockout", {"thirdPlace": "shared", "rounds": 3}, "match, byePolicy, thirdPlace"),
    ("MJO", "groups", {"advance": 2, "stagecoins": "reset"},
     "match, advance, prizePlaces, stageCoins"),
])
def test_an_unknown_tournament_setting_is_refused_like_a_match_setting(client, game, format_,
                                                                       settings, known):
    """T-1.3: a misspelt setting (``thirdplace``) would be stored and silently do nothing."""
    response = client.post("/v1/tournaments", json={
        "tournament_id": "typo", "name": "t", "game": game, "format": format_,
        "settings": settings})
    assert response.status_code == 422, response.json
    assert response.json["rule"] == "T-1.3"
    [typo] = [k for k in settings if k not in known.split(", ")]
    assert f"unknown setting '{typo}' of a {format_} tournament" in response.json["detail"]
    assert f"its settings are {known}" in response.json["detail"]
    assert client.get("/v1/tournaments/typo").status_code == 404


def test_an_archived_tournament_leaves_the_list_and_keeps_its_whole_log(app, client, tournament):
    from clients import client_as

    other = client.post("/v1/tournaments", json={"name": "second", "game": "GD",
                                                 "format": "knockout"}).json["id"]
    referee = client_as(app, "referee", tournament)
    archive = {"type": "TournamentArchived", "stream": f"tournament-{tournament}",
               "data": {"reason": "the 2006 event is over"}}
    assert referee.post(f"/v1/tournaments/{tournament}/events", json=archive).status_code == 403
    assert client.post(f"/v1/tournaments/{tournament}/events", json=archive).status_code == 201
    listed = client.get("/v1/tournaments").json["tournaments"]
    assert [t["id"] for t in listed] == [other]
    every = client.get("/v1/tournaments?archived=true").json["tournaments"]
    assert [(t["id"], t["archived"]) for t in every] == [(tournament, True), (other, False)]
    assert client.get(f"/v1/tournaments/{tournament}").json["archived"] is True
    assert client.get(f"/v1/tournaments/{tournament}/verify").json["ok"] is True
    again = client.post(f"/v1/tournaments/{tournament}/events", json=archive)
    assert again.status_code == 422 and again.json["rule"] == "T-1.3"
    assert "already archived" in again.json["detail"]


def test_the_list_pages_past_archived_tournaments(client):
    ids = [client.post("/v1/tournaments", json={"name": f"t{n}", "game": "GD",
                                                "format": "knockout"}).json["id"]
           for n in range(5)]
    for tid in ids[1:4]:
        client.post(f"/v1/tournaments/{tid}/events", json={
            "type": "TournamentArchived", "stream": f"tournament-{tid}", "data": {}})
    first = client.get("/v1/tournaments?limit=1").json
    assert [t["id"] for t in first["tournaments"]] == [ids[0]] and first["next"]
    second = client.get(first["next"]).json
    assert [t["id"] for t in second["tournaments"]] == [ids[4]] and second["next"] is None
