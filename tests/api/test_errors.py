"""Every error status of the API, each with a problem+json body that matches api_spec.yaml, and
in every case nothing stored."""
import pytest
from clients import admin_client
from marshmallow import Schema, fields
from spec import assert_matches

from events.catalogue import Catalogue, EventType
from events.memory_store import InMemoryEventStore
from events.tournament_events import TOURNAMENT_EVENTS
from service import create_app

T = "/v1/tournaments/ottawa-2006"
EVENTS = T + "/events"
PAIR = {"team_id": "a", "name": "甲队", "players": ["甲", "乙"]}


def registered(**overrides):
    return {"type": "TeamRegistered", "stream": "tournament-ottawa-2006", "data": dict(PAIR), **overrides}


@pytest.fixture
def unchanged(sqlite_store, tournament):
    """Asserts after the test that the log did not grow."""
    before = sqlite_store.last_position()
    yield
    assert sqlite_store.last_position() == before


def problem(response, status, slug):
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    body = response.json
    assert_matches("Problem", body)
    assert (body["status"], body["type"]) == (status, f"urn:paiju:problem:{slug}")
    return body


def paths(body):
    return [e["path"] for e in body["errors"]]


# --- 400 --------------------------------------------------------------------------------------
@pytest.mark.parametrize("raw", [b"{", b"", b'{"type": "TeamRegistered",}', b"[1, 2", b'{"a": NaN}'])
def test_400_malformed_json(client, unchanged, raw):
    body = problem(client.post(EVENTS, data=raw, content_type="application/json"), 400, "malformed-json")
    assert "JSON" in body["detail"]


def test_400_duplicate_keys_are_ambiguous(client, unchanged):
    raw = b'{"type": "TeamRegistered", "type": "TeamWithdrawn", "stream": "x", "data": {}}'
    body = problem(client.post(EVENTS, data=raw, content_type="application/json"), 400, "malformed-json")
    assert "'type' appears twice" in body["detail"]


def test_400_non_utf8_bytes(client, unchanged):
    raw = '{"type": "TeamRegistered", "data": {"name": "甲"}}'.encode("gb18030")
    body = problem(client.post(EVENTS, data=raw, content_type="application/json"), 400, "malformed-json")
    assert "not UTF-8" in body["detail"]


def test_400_lone_surrogate_cannot_be_stored(client, unchanged):
    raw = b'{"type": "TeamRegistered", "stream": "tournament-ottawa-2006", "data": {"name": "\\ud800"}}'
    problem(client.post(EVENTS, data=raw, content_type="application/json"), 400, "malformed-json")


def test_400_unknown_event_type(client, unchanged):
    body = problem(client.post(EVENTS, json=registered(type="TrickWon")), 400, "validation-failed")
    assert paths(body) == ["/type"] and "unknown event type 'TrickWon'" in body["errors"][0]["message"]


def test_400_a_backend_only_type_cannot_be_posted(client, unchanged):
    body = problem(client.post(EVENTS, json=registered(type="TournamentCreated")), 400, "validation-failed")
    assert "/type" in paths(body)


def test_400_missing_and_extra_fields(client, unchanged):
    body = problem(client.post(EVENTS, json={"type": "TeamRegistered", "data": {"name": "x", "fee": 1},
                                             "colour": "red"}), 400, "validation-failed")
    assert sorted(paths(body)) == ["/colour", "/data/fee", "/data/players", "/data/team_id", "/stream"]


def test_400_wrong_types(client, unchanged):
    body = problem(client.post(EVENTS, json=registered(data={**PAIR, "players": [1, "乙"]}, meta={"seat": "2"})),
                   400, "validation-failed")
    assert sorted(paths(body)) == ["/data/players/0", "/meta/seat"]


@pytest.mark.parametrize("version,message", [(-1, "negative"), (1.5, "whole number"), ("3", "whole number"),
                                             (True, "whole number"), ("latest", "whole number")])
def test_400_negative_or_non_integer_versions(client, unchanged, version, message):
    body = problem(client.post(EVENTS, json=registered(expected_version=version)), 400, "validation-failed")
    assert paths(body) == ["/expected_version"] and message in body["errors"][0]["message"]


def test_400_a_tournament_event_in_another_stream(client, unchanged):
    body = problem(client.post(EVENTS, json=registered(stream="match-m1")), 400, "validation-failed")
    assert paths(body) == ["/stream"] and "tournament-ottawa-2006" in body["errors"][0]["message"]


def test_400_an_empty_or_oversized_batch(client, app, unchanged):
    problem(client.post(EVENTS, json={"events": []}), 400, "validation-failed")
    too_many = [registered(data={**PAIR, "team_id": f"t{i}"}) for i in range(app.config["MAX_BATCH"] + 1)]
    app.config["MAX_CONTENT_LENGTH"] = 10 * 1024 * 1024
    problem(client.post(EVENTS, json={"events": too_many}), 400, "validation-failed")


def test_400_bad_query_parameters(client, unchanged):
    for query in ("after=-1", "limit=0", "limit=5000", "after=abc"):
        body = problem(client.get(f"{EVENTS}?{query}"), 400, "validation-failed")
        assert body["errors"][0]["in"] == "query"
    problem(client.get(f"{T}/export?format=xml"), 400, "validation-failed")


def test_400_a_body_that_is_not_an_object(client, unchanged):
    problem(client.post(EVENTS, json=[registered()]), 400, "validation-failed")
    problem(client.post("/v1/tournaments", json="SJ2"), 400, "validation-failed")


def test_400_an_invalid_tournament(client, unchanged):
    body = problem(client.post("/v1/tournaments", json={"name": "", "game": "SJ2", "tournament_id": "a b"}),
                   400, "validation-failed")
    assert sorted(paths(body)) == ["/format", "/name", "/tournament_id"]


# --- 404 / 405 --------------------------------------------------------------------------------
def test_404_unknown_tournament_route_event_and_stream(client, unchanged):
    problem(client.post("/v1/tournaments/nope/events", json=registered(stream="tournament-nope")), 404, "not-found")
    for url in ("/v1/tournaments/nope", "/v1/tournaments/nope/events", "/v1/tournaments/nope/verify",
                "/v1/tournaments/nope/export", "/v1/nothing-here", f"{T}/streams/match-none",
                f"{EVENTS}/0b4f6a7e-8f1c-4b7a-9c7e-2f0d5b9a1c33"):
        problem(client.get(url), 404, "not-found")


def test_405_method_not_allowed(client, unchanged):
    body = problem(client.delete(EVENTS), 405, "method-not-allowed")
    response = client.put(T)
    assert response.headers["Allow"]
    assert body["allow"] == ["GET", "HEAD", "OPTIONS", "POST"]


# --- 409 --------------------------------------------------------------------------------------
def test_409_expected_version_ahead_of_the_stream(client, unchanged):
    body = problem(client.post(EVENTS, json=registered(expected_version=5)), 409, "version-conflict")
    assert (body["current_version"], body["expected_version"], body["stream"]) == (1, 5, "tournament-ottawa-2006")


def test_409_no_stream_on_an_existing_stream(client, unchanged):
    problem(client.post(EVENTS, json=registered(expected_version="no_stream")), 409, "version-conflict")


def test_400_a_stream_of_another_tournament_for_a_tournament_event(client, tournament):
    client.post("/v1/tournaments", json={"tournament_id": "b", "name": "b", "game": "GD", "format": "knockout"})
    body = problem(client.post("/v1/tournaments/b/events", json=registered()), 400, "validation-failed")
    assert paths(body) == ["/stream"]
    assert [len(client.get(f"/v1/tournaments/{t}/events").json["events"]) for t in (tournament, "b")] == [1, 1]


class NoteData(Schema):
    text = fields.String(required=True)


def test_409_a_stream_that_belongs_to_another_tournament(tmp_path):
    """A stand-in event type whose streams do not name their tournament shows the guard."""
    catalogue = Catalogue(TOURNAMENT_EVENTS + (EventType("NoteTaken", NoteData, ("note",)),))
    client = admin_client(create_app(store=InMemoryEventStore(), catalogue=catalogue))
    for tid in ("a", "b"):
        client.post("/v1/tournaments", json={"tournament_id": tid, "name": tid, "game": "SJ2", "format": "knockout"})
    note = {"type": "NoteTaken", "stream": "note-m1", "data": {"text": "x"}}
    assert client.post("/v1/tournaments/a/events", json=note).status_code == 201
    body = problem(client.post("/v1/tournaments/b/events", json=note), 409, "stream-conflict")
    assert body["stream"] == "note-m1"
    assert len(client.get("/v1/tournaments/b/events").json["events"]) == 1


def test_409_idempotency_conflict(client, tournament, sqlite_store):
    event_id = "0b4f6a7e-8f1c-4b7a-9c7e-2f0d5b9a1c33"
    assert client.post(EVENTS, json=registered(id=event_id)).status_code == 201
    before = sqlite_store.last_position()
    problem(client.post(EVENTS, json=registered(id=event_id, data={**PAIR, "name": "乙队"})), 409,
            "idempotency-conflict")
    assert sqlite_store.last_position() == before


def test_409_tournament_exists(client, unchanged):
    problem(client.post("/v1/tournaments", json={"tournament_id": "ottawa-2006", "name": "again",
                                                 "game": "SJ2", "format": "knockout"}), 409, "tournament-exists")


# --- 413 / 415 / 422 / 500 --------------------------------------------------------------------
def test_413_oversized_body(client, app, unchanged):
    padding = "x" * app.config["MAX_CONTENT_LENGTH"]
    body = problem(client.post(EVENTS, json=registered(data={**PAIR, "name": padding})), 413, "payload-too-large")
    assert body["limit"] == 1024 * 1024


def test_413_limit_is_configurable():
    small = admin_client(create_app({"MAX_CONTENT_LENGTH": 100}, store=InMemoryEventStore()))
    problem(small.post("/v1/tournaments", json={"name": "x" * 200, "game": "SJ2", "format": "knockout"}),
            413, "payload-too-large")


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded",
                                          "application/json; charset=latin-1", None])
def test_415_wrong_content_type(client, unchanged, content_type):
    kwargs = {"content_type": content_type} if content_type else {}
    problem(client.post(EVENTS, data=b'{"type": "TeamRegistered"}', **kwargs), 415, "unsupported-media-type")


def test_422_rule_violation_cites_the_rule(client, unchanged):
    body = problem(client.post(EVENTS, json=registered(data={**PAIR, "players": ["甲"]})), 422, "rule-violation")
    assert body["rule"] == "T-1.2" and body["detail"].startswith("T-1.2: ")
    body = problem(client.post("/v1/tournaments", json={"name": "x", "game": "MJO", "format": "knockout"}),
                   422, "rule-violation")
    assert body["rule"] == "T-1.1"


def test_an_unknown_game_or_format_is_400_naming_the_field_with_the_choices(client, unchanged):
    body = problem(client.post("/v1/tournaments", json={"name": "x", "game": "poker", "format": "ladder"}),
                   400, "validation-failed")
    assert body["errors"] == [
        {"path": "/game", "message": "must be one of SJ2, SJ3, GD, MJO, MJS, bridge, xiangqi, go (T-1.1)"},
        {"path": "/format", "message": "must be one of knockout, swiss, groups, swiss-teams (T-1.1)"}]


def test_500_without_a_stack_trace():
    class BrokenStore(InMemoryEventStore):
        def last_position(self):
            raise RuntimeError("disk on fire: /secret/path")

    response = admin_client(create_app(store=BrokenStore())).get("/v1/health")
    problem(response, 500, "internal-error")
    text = response.get_data(as_text=True)
    assert "Traceback" not in text and "secret" not in text and "disk on fire" not in text


# --- what a hostile or careless client may send -------------------------------------------
def nested(depth):
    value = 0
    for _ in range(depth - 1):
        value = [value]
    return {"kind": value}  # the effect object is level 1


def ruling(effect):
    return {"type": "RulingRecorded", "stream": "tournament-ottawa-2006", "data": {"text": "x", "effect": effect}}


def test_400_a_body_nested_too_deeply_is_refused_before_it_is_stored(client, unchanged):
    body = problem(client.post(EVENTS, json=ruling(nested(70))), 400, "malformed-json")
    assert "nested deeper than 64" in body["detail"]


def test_a_body_nested_within_the_limit_is_stored_and_read_back(client, tournament):
    assert client.post(EVENTS, json=ruling(nested(60))).status_code == 201
    assert client.get(EVENTS).status_code == 200 and client.get(T).status_code == 200


def test_400_a_duplicate_among_many_keys_is_found(client, unchanged):
    keys = ",".join(f'"k{i}":0' for i in range(60_000))
    raw = ('{"type":"RulingRecorded","stream":"tournament-ottawa-2006","data":{"text":"x","effect":{'
           + keys + ',"k7":1}}}').encode()
    body = problem(client.post(EVENTS, data=raw, content_type="application/json"), 400, "malformed-json")
    assert "'k7' appears twice" in body["detail"]


@pytest.mark.parametrize("query", [f"{EVENTS}?after=99999999999999999999", f"{EVENTS}?after={'1' * 5000}",
                                   f"{T}?at=9223372036854775808", "/v1/tournaments?after=18446744073709551616",
                                   f"{T}/streams/tournament-ottawa-2006?from_version=99999999999999999999"])
def test_400_query_numbers_beyond_what_the_store_can_compare(client, unchanged, query):
    body = problem(client.get(query), 400, "validation-failed")
    assert "9223372036854775807" in body["errors"][0]["message"]


def test_400_tournament_meta_faults_are_reported_with_their_path_beside_data_faults(client):
    body = problem(client.post("/v1/tournaments", json={"name": "", "game": "SJ2", "format": "knockout",
                                                        "meta": {"role": "king", "foo": 1}}), 400, "validation-failed")
    assert sorted(paths(body)) == ["/meta/foo", "/meta/role", "/name"]


def test_options_answers_204_with_allow_and_no_body(client):
    response = client.options(EVENTS)
    assert response.status_code == 204 and response.data == b""
    assert set(response.headers["Allow"].split(", ")) >= {"GET", "POST"}
