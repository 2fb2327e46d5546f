"""Who may do what (service/permissions.py): every role against every route and every event
family, with nothing stored whenever the answer is 401 or 403; hidden cards by the token's seat;
revoked, expired and malformed tokens; and the spec's word for all of it."""
from __future__ import annotations

import json
import re

import pytest
from clients import admin_client, bearer, token_for
from sj2_table import TID, Table, build_deal, drawn_knockout
from spec import SPEC
from tables import Clock

from events import default_catalogue
from events.memory_store import InMemoryEventStore
from service import create_app
from service.permissions import ACTIONS, FAMILIES, FAMILY_ROLES

MID = "R1-1"
MATCH = f"/v1/tournaments/{TID}/matches/{MID}"
ROLES = ("admin", "organiser", "referee", "committee", "table", "player", "auditor", "system",
         "public")


def table_at(signer, dealt: bool = True) -> tuple:
    """A fresh tournament with match R1-1 started and, if ``dealt``, hand 1 dealt with a 2 of
    spades at seat 1 (who may declare it). Returns the app and the table."""
    clock = Clock()  # the store's: a timer event waits for its limit to pass
    app = create_app(store=InMemoryEventStore(clock=clock), signer=signer)
    table = Table(admin_client(app))
    table.clock = clock
    if dealt:
        table.ok("HandDealt", **build_deal({1: "2S"}))
    return app, table


def english(app):
    """A client that reads the problems' English (the deployment's default is Chinese)."""
    client = app.test_client()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


def headers(app, role: str, **scope) -> dict:
    """The Authorization header of a new token of ``role`` in the tournament's own scope (the
    table's match, seat 1) unless ``scope`` says otherwise; none for the public."""
    if role == "public":
        return {}
    defaults = {"admin": {}, "table": {"match": MID}, "player": {"match": MID, "seat": 1}}
    options = {"tournament": TID, **defaults.get(role, {}), **scope}
    if role == "admin":
        options = {}
    return bearer(token_for(app, role, **options))


def log_length(app) -> int:
    return app.extensions["paiju"].store.last_position()


def refused(response, status: int) -> dict:
    assert response.status_code == status, (response.status_code, response.get_json())
    assert response.mimetype == "application/problem+json"
    return response.json


# --- events, family by family -------------------------------------------------------------

def _event(family: str) -> tuple[dict, bool]:
    """A sample event of ``family`` that the rules accept, and whether it needs hand 1 dealt."""
    stream = f"match-{TID}:{MID}"
    return {
        "organisation": ({"type": "TeamWithdrawn", "stream": f"tournament-{TID}",
                          "data": {"team_id": "west", "reason": "家中有事"}}, False),
        "table": ({"type": "HandDealt", "stream": stream,
                   "data": {"hand": 1, **build_deal({1: "2S"})}}, False),
        "play": ({"type": "TrumpDeclared", "stream": stream,
                  "data": {"hand": 1, "seat": 1, "card": "2S"}}, True),
        "officiating": ({"type": "IrregularityReported", "stream": stream,
                         "data": {"hand": 1, "rule": "SJ2-14.1", "detail": "a card shown"}},
                        True),
        "ruling": ({"type": "RulingRecorded", "stream": f"tournament-{TID}",
                    "data": {"text": "the committee upholds the play", "effect": {}}}, False),
        # a team's captain (the player token of the match) or an official (T-1.5)
        "dispute": ({"type": "DisputeRaised", "stream": f"tournament-{TID}",
                     "data": {"dispute_id": "d1", "match_id": MID, "claim": "a card shown"}},
                    False),
        # the declaration window, closed once its 15 s have passed (see the test below)
        "timer": ({"type": "DeclarationWindowClosed", "stream": stream, "data": {"hand": 1}},
                  True),
        # a knockout pairs no rounds by scores: a role allowed to post it is answered by the
        # rules (422 T-6.4), every other by 401/403 (tests/api/test_swiss_*: pairings that hold)
        "pairing": ({"type": "RoundPaired", "stream": f"tournament-{TID}",
                     "data": {"round": 2, "matches": [{"match_id": "R2-1",
                                                        "teams": ["east", "west"]}]}}, False),
    }[family]


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("family", list(FAMILY_ROLES))
def test_every_role_posts_exactly_the_event_families_it_holds(signer, role, family):
    event, dealt = _event(family)
    app, table = table_at(signer, dealt)
    if family == "timer":
        table.ok("DealCompleted")
        table.clock.advance(seconds=15)
    before = log_length(app)
    response = english(app).post(f"/v1/tournaments/{TID}/events", json=event,
                                 headers=headers(app, role))
    if role in FAMILY_ROLES[family] and family == "pairing":
        assert (response.status_code, response.json["rule"]) == (422, "T-6.4"), response.json
        return
    if role in FAMILY_ROLES[family]:
        assert response.status_code == 201, response.json
        assert response.json["meta"]["role"] == role  # from the token, not the body
        return
    refused(response, 401 if role == "public" else 403)
    assert log_length(app) == before


@pytest.mark.parametrize("scope, why", [
    ({"match": "R1-2"}, "match 'R1-2' only"),           # a table token of another match
    ({"match": MID, "seat": 2}, "seat 2 only"),         # a player posting for another seat
    ({"match": "R1-2", "seat": 1}, "match 'R1-2' only"),
])
def test_a_table_or_player_token_acts_only_in_its_match_and_for_its_seat(signer, scope, why):
    app, table = table_at(signer)
    role = "player" if "seat" in scope else "table"
    before = log_length(app)
    event, _ = _event("play")
    body = refused(english(app).post(f"/v1/tournaments/{TID}/events", json=event,
                                     headers=headers(app, role, **scope)), 403)
    assert why in body["detail"] and body["path"] == "/"
    assert log_length(app) == before


def test_one_forbidden_event_refuses_the_whole_batch_naming_it(signer):
    app, table = table_at(signer)
    before = log_length(app)
    play, _ = _event("play")
    ruling, _ = _event("ruling")
    body = refused(english(app).post(f"/v1/tournaments/{TID}/events",
                                     json={"events": [play, ruling]},
                                     headers=headers(app, "player")), 403)
    assert body["path"] == "/events/1" and "ruling" in body["detail"]
    assert log_length(app) == before


def test_meta_cannot_claim_who_posted(signer):
    app, table = table_at(signer)
    event, _ = _event("play")
    for claim in ({"role": "referee"}, {"actor": "裁判长"}, {"seat": 1}, {"token_id": "x"}):
        body = refused(english(app).post(f"/v1/tournaments/{TID}/events",
                                         json={**event, "meta": claim},
                                         headers=headers(app, "player")), 400)
        assert "bearer token" in body["errors"][0]["message"]
    stored = english(app).post(f"/v1/tournaments/{TID}/events", json=event,
                               headers=headers(app, "player")).json
    assert {k: stored["meta"][k] for k in ("role", "seat")} == {"role": "player", "seat": 1}
    assert stored["meta"]["actor"].startswith("token:")


# --- routes -------------------------------------------------------------------------------

READS = {  # path -> action
    "/v1/tournaments": "read",
    f"/v1/tournaments/{TID}": "read",
    f"/v1/tournaments/{TID}/matches": "read",
    MATCH: "read",
    f"/v1/tournaments/{TID}/bracket": "read",
    f"/v1/tournaments/{TID}/standings": "read",
    f"/v1/tournaments/{TID}/events": "read-log",
    f"/v1/tournaments/{TID}/streams/tournament-{TID}": "read-log",
    f"/v1/tournaments/{TID}/verify": "verify",
    f"/v1/tournaments/{TID}/export": "export",
    "/v1/health": "read",
    "/.well-known/paiju-export-key": "read",
}


def allowed(role: str, action: str) -> bool:
    roles = ACTIONS[action]
    return roles is None or role in roles


@pytest.mark.parametrize("role", ROLES)
def test_every_role_reads_exactly_what_its_role_allows(signer, role):
    app, table = table_at(signer)
    auth = headers(app, role)
    event_id = table.client.get(f"/v1/tournaments/{TID}/events").json["events"][0]["id"]
    reads = {**READS, f"/v1/tournaments/{TID}/events/{event_id}": "read-log"}
    for path, action in reads.items():
        response = english(app).get(path, headers=auth)
        if allowed(role, action):
            assert response.status_code == 200, (role, path, response.get_json())
        else:
            refused(response, 401 if role == "public" else 403)


def _concrete(path: str, event_id: str) -> str:
    return (path.replace("{tid}", TID).replace("{mid}", MID).replace("{n}", "1")
            .replace("{event_id}", event_id).replace("{stream}", f"tournament-{TID}"))


@pytest.mark.parametrize("role", ROLES)
def test_every_route_answers_401_or_403_exactly_where_the_role_is_not_allowed(signer, role):
    """Every operation of the app, whatever its purpose: a refusal by role comes before any
    other answer, and refused writes store nothing."""
    app, table = table_at(signer)
    event_id = table.client.get(f"/v1/tournaments/{TID}/events").json["events"][0]["id"]
    auth = headers(app, role)
    for (path, method), view in _operations(app).items():
        before = log_length(app)
        response = getattr(english(app), method)(_concrete(path, event_id), headers=auth,
                                                      json={} if method == "post" else None)
        denied = response.status_code in (401, 403)
        # besides: hand 1 is in play, and the public sees finished hands only
        hidden_hand = role == "public" and path.startswith("/v1/") and \
            path.endswith(("/hands/{n}", "/hands/{n}/replay"))
        assert denied == (hidden_hand or not allowed(role, view.paiju_action)), (
            role, method, path, response.get_json())
        if denied:
            assert log_length(app) == before


@pytest.mark.parametrize("role", ROLES)
def test_only_organisers_start_matches_and_create_tournaments(signer, role):
    app = create_app(store=InMemoryEventStore(), signer=signer)
    drawn_knockout(admin_client(app))  # round 1 drawn: match R1-1, not yet started
    client, auth = english(app), headers(app, role)
    before = log_length(app)
    started = client.post(f"/v1/tournaments/{TID}/matches", json={"match_id": MID},
                          headers=auth)
    created = client.post("/v1/tournaments", json={"tournament_id": TID if role != "admin"
                          else "new", "name": "x", "game": "SJ2", "format": "knockout"},
                          headers=auth)
    if allowed(role, "organise"):
        assert started.status_code == 201, started.json
        # an organiser creates only the tournament of its token: this one exists already
        assert created.status_code == (201 if role == "admin" else 409), created.json
        return
    for response in (started, created):
        refused(response, 401 if role == "public" else 403)
    assert log_length(app) == before


def test_an_organiser_creates_only_its_own_tournament(signer):
    app = create_app(store=InMemoryEventStore(), signer=signer)
    client = english(app)
    auth = bearer(token_for(app, "organiser", tournament="jnu-2026"))
    body = {"name": "校庆杯", "game": "SJ2", "format": "knockout"}
    refused(client.post("/v1/tournaments", json={**body, "tournament_id": "other"},
                        headers=auth), 403)
    refused(client.post("/v1/tournaments", json=body, headers=auth), 403)  # a new random id
    assert log_length(app) == 0
    assert client.post("/v1/tournaments", json={**body, "tournament_id": "jnu-2026"},
                       headers=auth).status_code == 201


def test_a_token_of_tournament_a_cannot_read_or_write_tournament_b(signer):
    app, table = table_at(signer)
    admin = table.client
    assert admin.post("/v1/tournaments", json={"tournament_id": "b", "name": "b", "game": "SJ2",
                                               "format": "knockout"}).status_code == 201
    before = log_length(app)
    for role in ("organiser", "referee", "committee", "auditor", "table", "player"):
        auth = headers(app, role)  # bound to TID
        for path in ("/v1/tournaments/b", "/v1/tournaments/b/bracket", "/v1/tournaments/b/events"):
            body = refused(admin.get(path, headers=auth), 403)
            assert f"tournament {TID!r}" in body["detail"]
        refused(admin.post("/v1/tournaments/b/events", headers=auth, json={
            "type": "RulingRecorded", "stream": "tournament-b",
            "data": {"text": "x", "effect": {}}}), 403)
    assert log_length(app) == before


def test_an_auditor_reads_everything_and_writes_nothing(signer):
    app, table = table_at(signer)
    auth = headers(app, "auditor")
    hand = english(app).get(f"{MATCH}/hands/1", headers=auth).json
    assert all(seat["cards"] is not None for seat in hand["seats"])
    assert english(app).get(f"/v1/tournaments/{TID}/export", headers=auth).status_code == 200
    before = log_length(app)
    for family in FAMILY_ROLES:
        event, _ = _event(family)
        refused(english(app).post(f"/v1/tournaments/{TID}/events", json=event, headers=auth), 403)
    assert log_length(app) == before


# --- hidden information -------------------------------------------------------------------

def test_a_player_sees_its_own_cards_and_never_another_seats(signer):
    app, table = table_at(signer)
    client, mine = english(app), headers(app, "player")
    hand = client.get(f"{MATCH}/hands/1", headers=mine).json
    assert hand["viewer"] == "seat:1"
    assert hand["seats"][1]["cards"] and "2S" in hand["seats"][1]["cards"]
    assert all(hand["seats"][s]["cards"] is None for s in (0, 2, 3))
    for wider in ("seat:2", "referee", "auditor"):
        body = refused(client.get(f"{MATCH}/hands/1?as={wider}", headers=mine), 403)
        assert "seat:1" in body["detail"]
    assert client.get(f"{MATCH}/hands/1?as=public", headers=mine).json["viewer"] == "public"
    # in another match of the tournament the player is the public
    other = headers(app, "player", match="R1-2", seat=1)
    assert client.get(f"{MATCH}/hands/1", headers=other).json["viewer"] == "public"


def test_the_table_sees_the_table_and_officials_see_every_card(signer):
    app, table = table_at(signer)
    for role, viewer in (("table", "public"), ("organiser", "public"), ("referee", "referee"),
                         ("committee", "committee"), ("auditor", "auditor"),
                         ("admin", "referee")):
        hand = english(app).get(f"{MATCH}/hands/1", headers=headers(app, role)).json
        assert hand["viewer"] == viewer, role
        shown = [seat["cards"] is not None for seat in hand["seats"]]
        assert shown == ([False] * 4 if viewer == "public" else [True] * 4), role


def test_the_public_sees_finished_hands_only(signer):
    app, table = table_at(signer, dealt=False)
    table.to_play({0: "2S"}, card="2S")
    anonymous = english(app)
    assert anonymous.get(MATCH).json["current_hand"] is None
    refused(anonymous.get(f"{MATCH}/hands/1"), 401)
    table.finish_hand(seed=3)
    finished = anonymous.get(f"{MATCH}/hands/1")
    assert finished.status_code == 200 and finished.json["result"] is not None
    assert anonymous.get(MATCH).json["current_hand"]["hand"] == 1  # over: shown to all
    refused(anonymous.get(f"/v1/tournaments/{TID}/events"), 401)


def test_looking_as_an_official_needs_an_officials_token(signer):
    app, table = table_at(signer)
    body = refused(english(app).get(f"{MATCH}?as=referee"), 401)
    assert "official" in body["detail"]
    refused(english(app).get(f"{MATCH}?as=referee", headers=headers(app, "table")), 403)


def test_the_public_cannot_read_a_hand_in_play_at_an_earlier_position_either(signer):
    app, table = table_at(signer, dealt=False)
    table.to_play({0: "2S"}, card="2S")
    during = log_length(app)
    table.finish_hand(seed=3)
    anonymous = english(app)
    refused(anonymous.get(f"{MATCH}/hands/1?at={during}"), 401)
    assert anonymous.get(f"{MATCH}?at={during}").json["current_hand"] is None
    assert anonymous.get(f"{MATCH}/hands/1").status_code == 200


def test_a_refusal_names_no_card_to_a_token_that_may_not_see_it(signer):
    """A tablet's screen is seen by the whole table: the rule, not the cards it is about."""
    app, table = table_at(signer, dealt=False)
    table.to_play({0: "2S QH QH JH JH", 1: "9H 9H 8H 8H 6H 3H"}, card="2S", no={1: "H"})
    table.ok("CardsPlayed", seat=0, cards=["QH", "QH", "JH", "JH"])
    follow = {"type": "CardsPlayed", "stream": f"match-{TID}:{MID}",
              "data": {"hand": 1, "seat": 1, "cards": ["9H", "9H", "6H", "3H"]}}
    for role, shown in (("table", False), ("player", True), ("referee", True)):
        body = refused(english(app).post(f"/v1/tournaments/{TID}/events", json=follow,
                                              headers=headers(app, role)), 422)
        assert body["rule"] == "SJ2-9.4"
        assert ("8H" in body["detail"]) == shown, (role, body["detail"])


# --- the token itself ---------------------------------------------------------------------

@pytest.mark.parametrize("header", ["Bearer", "Bearer ", "Basic dXNlcjpwYXNz", "pj_x",
                                    "Bearer pj_short", "Bearer " + "pj_" + "A" * 43])
def test_malformed_or_unknown_tokens_are_401_even_where_no_token_is_needed(signer, header):
    app, table = table_at(signer)
    for path in (f"/v1/tournaments/{TID}/bracket", f"/v1/tournaments/{TID}/events"):
        response = english(app).get(path, headers={"Authorization": header})
        refused(response, 401)
        assert response.headers["WWW-Authenticate"] == 'Bearer realm="paiju"'


def test_a_revoked_token_is_refused_at_once(signer):
    app, table = table_at(signer)
    tokens = app.extensions["paiju"].tokens
    secret, token = tokens.create("referee", TID)
    auth = bearer(secret)
    assert english(app).get(f"/v1/tournaments/{TID}/events", headers=auth).status_code == 200
    tokens.revoke(token.token_id)
    body = refused(english(app).get(f"/v1/tournaments/{TID}/events", headers=auth), 401)
    assert "revoked" in body["detail"]
    event, _ = _event("officiating")
    before = log_length(app)
    refused(english(app).post(f"/v1/tournaments/{TID}/events", json=event, headers=auth), 401)
    assert log_length(app) == before


def test_an_expired_token_is_refused(signer):
    app, table = table_at(signer)
    secret, _ = app.extensions["paiju"].tokens.create("referee", TID,
                                                      expires_at="2020-01-01T00:00:00.000000Z")
    body = refused(english(app).get(f"/v1/tournaments/{TID}/events", headers=bearer(secret)), 401)
    assert "expired at 2020-01-01" in body["detail"]


def test_a_token_for_a_tournament_that_does_not_exist_gets_404_and_stores_nothing(signer):
    app, table = table_at(signer)
    auth = bearer(token_for(app, "organiser", tournament="gone"))
    before = log_length(app)
    refused(english(app).post("/v1/tournaments/gone/events", headers=auth, json={
        "type": "TeamRegistered", "stream": "tournament-gone",
        "data": {"team_id": "x", "name": "x", "players": ["a"]}}), 404)
    refused(english(app).get("/v1/tournaments/gone/bracket", headers=auth), 404)
    assert log_length(app) == before


# --- the spec says the same ---------------------------------------------------------------

def _operations(app) -> dict:
    found = {}
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":  # Flask's own; the app serves no static folder
            continue
        path = re.sub(r"<(?:[^<>:]+:)?([^<>]+)>", r"{\1}", rule.rule)
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            found[(path, method.lower())] = app.view_functions[rule.endpoint]
    return found


def test_every_route_declares_its_action_and_the_spec_names_it_with_its_roles(signer):
    app = create_app(store=InMemoryEventStore(), signer=signer)
    for (path, method), view in _operations(app).items():
        assert hasattr(view, "paiju_action"), f"{method.upper()} {path} has no @allows"
        operation = SPEC["paths"][path][method]
        roles = ACTIONS[view.paiju_action]
        assert operation["x-paiju-action"] == view.paiju_action, path
        assert operation["x-paiju-roles"] == (["public"] if roles is None else sorted(roles))
        assert operation["security"] == ([{}, {"bearerAuth": []}] if roles is None
                                         else [{"bearerAuth": []}]), path
        assert "401" in operation["responses"], path


def test_every_event_type_has_a_family_and_the_spec_lists_them():
    families = SPEC["x-paiju-event-families"]
    assert families["types"] == json.loads(json.dumps(FAMILIES, default=dict))
    assert families["roles"] == {f: sorted(r) for f, r in FAMILY_ROLES.items()}
    assert sorted(FAMILIES) == default_catalogue().names()
