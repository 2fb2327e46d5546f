"""api_spec.yaml against the running app: the document is valid OpenAPI 3.1, it has every
route and only those, its event catalogue and schemas say what the code does, and live
responses match what it promises."""
from __future__ import annotations

import copy
import hashlib
import json
import re
import uuid
from dataclasses import fields as dataclass_fields

import pytest
from clients import admin_client
from openapi_spec_validator import OpenAPIV31SpecValidator, validate
from openapi_spec_validator.validation.exceptions import OpenAPIValidationError
from referencing.exceptions import PointerToNowhere
from spec import (
    SPEC,
    assert_component_response,
    assert_matches,
    assert_response,
    deref,
    errors,
    is_valid,
    marshmallow_accepts,
    parameters,
    validator_for,
)

from events import default_catalogue
from events.catalogue import STREAM_PATTERN
from events.envelope import GENESIS_HASH, Record
from events.memory_store import InMemoryEventStore
from events.store import ChainReport
from events.tournament_events import DATE_PATTERN, ID_PATTERN
from rules.tournament import FORMATS, GAMES
from service import create_app
from service.app import DEFAULTS
from service.problems import TITLES
from service.schemas import EventRequestSchema, FromToken, MetaSchema
from service.tokens import ROLES

SCHEMAS = SPEC["components"]["schemas"]
METHODS = ("get", "post", "put", "patch", "delete")


@pytest.fixture
def app(signer):
    return create_app(store=InMemoryEventStore(), signer=signer)


@pytest.fixture
def client(app):
    return admin_client(app)


def create(client, **fields) -> dict:
    body = {"name": "春季升级赛", "game": "SJ2", "format": "swiss", **fields}
    response = client.post("/v1/tournaments", json=body)
    assert response.status_code == 201, response.get_json()
    return assert_response(response, "post", "/v1/tournaments")


def team(team_id: str, **extra) -> dict:
    return {"team_id": team_id, "name": f"Team {team_id}", "players": ["王芳", "李雷"], **extra}


def event(tid: str, type_: str = "TeamRegistered", data: dict | None = None, **extra) -> dict:
    return {"type": type_, "stream": f"tournament-{tid}",
            "data": data if data is not None else team("east"), **extra}


def ruling(tid: str, n: int) -> dict:
    return event(tid, "RulingRecorded", {"text": f"ruling {n}"})


# --- the document --------------------------------------------------------------------------

def test_the_spec_is_valid_openapi_3_1():
    assert SPEC["openapi"] == "3.1.0"
    validate(SPEC, cls=OpenAPIV31SpecValidator)


def _drop_description(spec):
    del spec["paths"]["/v1/health"]["get"]["responses"]["200"]["description"]


def _drop_path_parameter(spec):
    item = next(item for path, item in spec["paths"].items() if "{" in path)
    del item["parameters"]


def _misspell_a_type(spec):
    spec["components"]["schemas"]["Health"]["properties"]["status"] = {"type": "strnig"}


def _dangling_ref(spec):
    spec["paths"]["/v1/health"]["get"]["responses"]["200"]["content"]["application/json"][
        "schema"] = {"$ref": "#/components/schemas/NoSuchSchema"}


@pytest.mark.parametrize("breakage", [_drop_description, _drop_path_parameter, _misspell_a_type,
                                      _dangling_ref], ids=lambda f: f.__name__.strip("_"))
def test_the_validator_would_notice_a_broken_spec(breakage):
    broken = copy.deepcopy(SPEC)
    breakage(broken)
    with pytest.raises((OpenAPIValidationError, PointerToNowhere)):
        validate(broken, cls=OpenAPIV31SpecValidator)


def _app_routes(app) -> set[tuple[str, str]]:
    routes = set()
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue
        path = re.sub(r"<(?:[^<>:]+:)?([^<>]+)>", r"{\1}", rule.rule)
        routes |= {(path, m.lower()) for m in rule.methods - {"HEAD", "OPTIONS"}}
    return routes


def _spec_routes() -> set[tuple[str, str]]:
    return {(path, method) for path, item in SPEC["paths"].items()
            for method in item if method in METHODS + ("head", "options", "trace")}


def test_the_spec_has_every_route_of_the_app_and_no_other(app):
    app_routes, spec_routes = _app_routes(app), _spec_routes()
    assert app_routes, "the app has no routes: is the url_map empty?"
    missing = sorted(app_routes - spec_routes)
    extra = sorted(spec_routes - app_routes)
    message = []
    if missing:
        message.append("routes of the app missing from api_spec.yaml: " +
                       ", ".join(f"{m.upper()} {p}" for p, m in missing))
    if extra:
        message.append("operations in api_spec.yaml that the app does not have: " +
                       ", ".join(f"{m.upper()} {p}" for p, m in extra))
    assert not message, "\n".join(message)


def test_every_operation_lists_the_errors_it_can_give():
    gaps = []
    for path, item in SPEC["paths"].items():
        for method, op in item.items():
            if method not in METHODS:
                continue
            wanted = {"500"}
            if "{tid}" in path and not (method == "post" and path == "/v1/tournaments"):
                wanted.add("404")
            if "requestBody" in op:
                wanted |= {"400", "413", "415", "422"}
            if any(p["in"] == "query" for p in parameters(method, path)):
                wanted.add("400")
            for status in sorted(wanted - set(op["responses"])):
                gaps.append(f"{method.upper()} {path}: no {status}")
            for status, response in op["responses"].items():
                if status.startswith(("4", "5")):
                    content = deref(response)["content"]
                    schema = content.get("application/problem+json", {}).get("schema", {})
                    refs = [schema.get("$ref")] + [s.get("$ref") for s in schema.get("allOf", [])]
                    if list(content) != ["application/problem+json"] or \
                            "#/components/schemas/Problem" not in refs:
                        gaps.append(f"{method.upper()} {path} {status}: not a Problem")
    assert not gaps, "\n".join(gaps)


# --- the event catalogue and the schemas, against the code ------------------------------------

def _component(ref: dict) -> str:
    prefix = "#/components/schemas/"
    assert ref["$ref"].startswith(prefix), ref
    return ref["$ref"][len(prefix):]


def test_the_event_catalogue_matches_the_code():
    catalogue = default_catalogue()
    documented = {t["name"]: t for t in SPEC["x-paiju-event-types"]}
    assert sorted(documented) == catalogue.names(), "x-paiju-event-types vs default_catalogue()"
    for event_type in catalogue:
        spec = documented[event_type.name]
        assert (spec["stream_kinds"], spec["schema_version"], spec["postable"]) == (
            list(event_type.stream_kinds), event_type.schema_version, event_type.postable), event_type.name
        assert _component(spec["data"]) == event_type.schema.__name__


def test_the_derived_facts_are_documented_as_the_code_names_them():
    assert SPEC["x-paiju-derived-facts"] == default_catalogue().derived


def test_only_postable_types_are_accepted_in_an_event_request():
    postable = sorted(t.name for t in default_catalogue() if t.postable)
    request = SCHEMAS["EventRequest"]
    mapping = request["discriminator"]["mapping"]
    assert request["discriminator"]["propertyName"] == "type"
    assert sorted(mapping) == postable
    assert [branch["$ref"] for branch in request["oneOf"]] == list(mapping.values())
    for name, target in mapping.items():
        assert SCHEMAS[_component({"$ref": target})]["properties"]["type"]["const"] == name


def test_envelope_and_event_request_pick_the_data_schema_of_each_type():
    documented = {t["name"]: _component(t["data"]) for t in SPEC["x-paiju-event-types"]}
    # one allOf deeper: a generator reads an allOf of a lone $ref as that schema alone
    assert SCHEMAS["Envelope"]["allOf"] == [
        {"allOf": [{"$ref": "#/components/schemas/EnvelopeByType"}]}]
    stored = {c["if"]["properties"]["type"]["const"]: _component(c["then"]["properties"]["data"])
              for c in SCHEMAS["EnvelopeByType"]["allOf"]}
    assert stored == documented
    posted = {name: _component(SCHEMAS[_component({"$ref": target})]["properties"]["data"])
              for name, target in SCHEMAS["EventRequest"]["discriminator"]["mapping"].items()}
    assert posted == {t["name"]: documented[t["name"]] for t in SPEC["x-paiju-event-types"]
                      if t["postable"]}


def _marshmallow_shape(schema_class) -> tuple[set[str], set[str]]:
    declared = schema_class().fields.values()
    names = {f.data_key or f.name for f in declared}
    return names, {f.data_key or f.name for f in declared if f.required}


@pytest.mark.parametrize("event_type", list(default_catalogue()), ids=lambda t: t.name)
def test_data_schemas_have_the_fields_of_the_marshmallow_schemas(event_type):
    spec = SCHEMAS[event_type.schema.__name__]
    names, required = _marshmallow_shape(event_type.schema)
    assert set(spec["properties"]) == names
    assert set(spec.get("required", [])) == required
    assert spec["additionalProperties"] is False


@pytest.mark.parametrize("component, schema_class", [
    ("TeamRegisteredEvent", EventRequestSchema), ("HandDealtEvent", EventRequestSchema),
    ("Meta", MetaSchema)], ids=["TeamRegisteredEvent", "HandDealtEvent", "Meta"])
def test_request_schemas_have_the_fields_of_the_marshmallow_schemas(component, schema_class):
    names, required = _marshmallow_shape(schema_class)
    # fields the code names only to refuse them: who posted comes from the token (StoredMeta)
    refused = {name for name, f in schema_class._declared_fields.items()
               if isinstance(f, FromToken)}
    assert refused <= set(SCHEMAS["StoredMeta"]["properties"])
    spec = SCHEMAS[component]
    assert set(spec["properties"]) == names - refused
    assert set(spec.get("required", [])) == required
    assert spec["additionalProperties"] is False


def test_the_create_request_is_the_created_data_with_an_optional_id_and_meta():
    def bare(properties):
        return {k: {kk: vv for kk, vv in v.items() if kk != "description"}
                for k, v in properties.items()}

    data, create_request = SCHEMAS["TournamentCreatedData"], SCHEMAS["TournamentCreateRequest"]
    assert {"$ref": "#/components/schemas/Meta"} in create_request["properties"]["meta"]["anyOf"]
    assert bare({k: v for k, v in create_request["properties"].items() if k != "meta"}) == \
        bare(data["properties"])
    assert set(create_request["required"]) == set(data["required"]) - {"tournament_id"}
    assert create_request["additionalProperties"] is False


def test_constants_of_the_code_appear_in_the_spec():
    props = SCHEMAS["Envelope"]["properties"]
    assert props["tournament_id"]["pattern"] == ID_PATTERN
    assert props["stream"]["pattern"] == STREAM_PATTERN
    for event_type in default_catalogue():
        if event_type.postable:  # STREAM_PATTERN with the kind fixed to the type's kinds
            assert SCHEMAS[f"{event_type.name}Event"]["properties"]["stream"]["pattern"] == \
                STREAM_PATTERN.replace("[a-z][a-z0-9]*", "(?:tournament|match)" if len(
                    event_type.stream_kinds) == 2 else event_type.stream_kinds[0], 1)
    for name in ("TeamRegisteredData", "TeamWithdrawnData"):
        assert SCHEMAS[name]["properties"]["team_id"]["pattern"] == ID_PATTERN
    for name in ("TournamentCreatedData", "TournamentCreateRequest", "Tournament"):
        assert SCHEMAS[name]["properties"]["date"]["pattern"] == DATE_PATTERN
    assert tuple(SCHEMAS["StoredMeta"]["properties"]["role"]["enum"]) == ROLES
    for name in ("Tournament", "TournamentSummary"):
        assert tuple(SCHEMAS[name]["properties"]["game"]["enum"]) == GAMES
        assert tuple(SCHEMAS[name]["properties"]["format"]["enum"]) == FORMATS
    assert SCHEMAS["EventBatchRequest"]["properties"]["events"]["maxItems"] == DEFAULTS["MAX_BATCH"]
    assert SPEC["components"]["parameters"]["limit"]["schema"]["maximum"] == \
        DEFAULTS["PAGE_LIMIT_MAX"]
    assert SCHEMAS["Problem"]["x-paiju-problem-types"] == TITLES


def test_response_schemas_have_the_fields_the_code_writes():
    assert SCHEMAS["Envelope"]["required"] == list(Record._fields)
    assert set(SCHEMAS["Envelope"]["properties"]) == set(Record._fields)
    report = [f.name for f in dataclass_fields(ChainReport)]
    assert SCHEMAS["ChainReport"]["required"] == report


# Samples of each type's data: the spec's schema must accept exactly what marshmallow accepts.
DATA_SAMPLES = {
    "TournamentCreated": [
        {"tournament_id": "t1", "name": "春季", "game": "SJ2", "format": "swiss"},
        {"tournament_id": "a" * 64, "name": "n" * 200, "game": "xiangqi", "format": "swiss-teams",
         "settings": {"k" * 100: [1, {"x": None}]}, "date": "2025-04-05", "venue": "北京"},
        {"tournament_id": "t1", "name": "x", "game": "SJ2"},
        {"tournament_id": "a" * 65, "name": "x", "game": "SJ2", "format": "swiss"},
        {"tournament_id": "_t", "name": "x", "game": "SJ2", "format": "swiss"},
        {"tournament_id": "t 1", "name": "x", "game": "SJ2", "format": "swiss"},
        {"tournament_id": "t1", "name": "", "game": "SJ2", "format": "swiss"},
        {"tournament_id": "t1", "name": "n" * 201, "game": "SJ2", "format": "swiss"},
        {"tournament_id": "t1", "name": "x", "game": "chess", "format": "swiss"},  # T-1.1
        {"tournament_id": "t1", "name": "x", "game": "sj2", "format": "swiss"},
        {"tournament_id": "t1", "name": "x", "game": "SJ2", "format": "round-robin"},
        {"tournament_id": "t1", "name": "x", "game": "SJ2", "format": ""},
        {"tournament_id": "t1", "name": "x", "game": "SJ2", "format": "swiss", "settings": []},
        {"tournament_id": "t1", "name": "x", "game": "SJ2", "format": "swiss", "settings": {"": 1}},
        {"tournament_id": "t1", "name": "x", "game": "SJ2", "format": "swiss",
         "settings": {"k" * 101: 1}},
        {"tournament_id": "t1", "name": "x", "game": "SJ2", "format": "swiss", "settings": None},
        {"tournament_id": "t1", "name": "x", "game": "SJ2", "format": "swiss", "date": "2025-4-5"},
        {"tournament_id": "t1", "name": "x", "game": "SJ2", "format": "swiss", "date": None},
        {"tournament_id": "t1", "name": "x", "game": "SJ2", "format": "swiss", "venue": ""},
        {"tournament_id": "t1", "name": "x", "game": "SJ2", "format": "swiss", "extra": 1},
        {"tournament_id": 1, "name": "x", "game": "SJ2", "format": "swiss"},
    ],
    "TeamRegistered": [
        team("east"), team("e" * 64, organisation="o" * 200), {**team("x"), "players": ["p"] * 8},
        {**team("x"), "players": ["p" * 100]},
        {**team("x"), "players": []}, {**team("x"), "players": ["p"] * 9},
        {**team("x"), "players": [""]}, {**team("x"), "players": ["p" * 101]},
        {**team("x"), "players": "ab"}, {**team("x"), "players": [1, 2]},
        team("x", organisation=""), team("x", organisation=None), team("-x"), team("e" * 65),
        {"team_id": "x", "name": "X"}, {**team("x"), "seed": 1}, {**team("x"), "name": 7},
    ],
    "TeamWithdrawn": [
        {"team_id": "east"}, {"team_id": "east", "reason": "r" * 2000},
        {"team_id": "east", "reason": ""}, {"team_id": "east", "reason": "r" * 2001},
        {"team_id": "east", "reason": None}, {}, {"team_id": ""}, {"team_id": "a", "x": 1},
    ],
    "RulingRecorded": [
        {"text": "t"}, {"text": "t" * 10000, "effect": {"points": {"east": -1}}},
        {"text": ""}, {"text": "t" * 10001}, {"text": "t", "effect": []},
        {"text": "t", "effect": None}, {"effect": {}}, {"text": "t", "why": "x"},
    ],
}


@pytest.mark.parametrize("type_name", sorted(DATA_SAMPLES))
def test_data_schemas_accept_exactly_what_marshmallow_accepts(type_name):
    event_type = default_catalogue().get(type_name)
    schema_name = event_type.schema.__name__
    disagreements = []
    for sample in DATA_SAMPLES[type_name]:
        by_code, by_spec = marshmallow_accepts(event_type, sample), is_valid(schema_name, sample)
        if by_code != by_spec:
            disagreements.append(f"code {'accepts' if by_code else 'refuses'}, spec "
                                 f"{'accepts' if by_spec else 'refuses'}: {sample!r} "
                                 f"{errors(schema_name, sample)}")
    verdicts = [marshmallow_accepts(event_type, s) for s in DATA_SAMPLES[type_name]]
    assert any(verdicts) and not all(verdicts), "the samples must hold accepted and refused data"
    assert not disagreements, "\n".join(disagreements)


# --- request bodies: the spec's schema says 400 exactly when the server does -----------------

def _create_samples() -> list[object]:
    base = {"name": "x", "game": "SJ2", "format": "swiss"}
    return [
        base, {**base, "name": "n" * 200, "game": "xiangqi", "format": "knockout"},
        {**base, "game": "chess"},  # not in the enum (T-1.1): 400
        {**base, "game": "MJO"},  # matches the schema; a rule (T-1.1: groups only) refuses it: 422
        {**base, "tournament_id": "given-id.1", "settings": {"rounds": 7}, "date": "2025-04-05",
         "venue": "上海", "meta": {"source": "web", "correlation_id": "c",
                                  "causation_id": "d"}},
        {**base, "tournament_id": "given-id.1"},  # exists by now: 409
        # an unknown setting is the rule's (T-1.3): 422, so the spec's settings object is open
        {**base, "format": "knockout", "settings": {"thirdplace": "playoff"}},
        {**base, "settings": {"match": {"enforcment": "record"}}},  # SJ2-18: 422
        {"game": "SJ2", "format": "swiss"}, {**base, "name": ""}, {**base, "name": "n" * 201},
        {**base, "game": ""}, {**base, "format": "f" * 21}, {**base, "tournament_id": ""},
        {**base, "tournament_id": "-x"}, {**base, "tournament_id": "a" * 65},
        {**base, "tournament_id": None}, {**base, "settings": {"": 1}}, {**base, "settings": []},
        {**base, "date": "05/04/2025"}, {**base, "date": None}, {**base, "venue": ""},
        {**base, "rounds": 7}, {**base, "meta": {"role": "king"}}, {**base, "meta": None},
        {**base, "meta": {"seat": 0}}, {**base, "meta": {"actor": "me"}},
        [base], "tournament", 7, None,
    ]


def test_create_request_schema_predicts_which_bodies_get_400(client):
    disagreements = []
    for sample in _create_samples():
        response = client.post("/v1/tournaments", data=json.dumps(sample),
                               content_type="application/json")
        assert_response(response, "post", "/v1/tournaments")
        valid = is_valid("TournamentCreateRequest", sample)
        if valid == (response.status_code == 400):
            disagreements.append(f"{sample!r}: spec says {'valid' if valid else 'invalid'}, "
                                 f"server answered {response.status_code} "
                                 f"{response.get_json().get('detail')}")
    assert not disagreements, "\n".join(disagreements)


def _event_samples(tid: str) -> list[object]:
    ok = event(tid)
    return [
        ok,
        event(tid, data=team("west", organisation="Club"), id=str(uuid.uuid4()),
              expected_version="any",
              meta={"source": "s", "correlation_id": "c" * 100, "causation_id": "d"}),
        event(tid, data=team("north"), expected_version=0),          # 409
        event(tid, data=team("south"), expected_version="no_stream"),  # 409
        event(tid, data={**team("five"), "players": ["p"] * 8}),      # 422 (T-1.2)
        event(tid, "TeamWithdrawn", {"team_id": "east", "reason": "ill"}),
        event(tid, "RulingRecorded", {"text": "r", "effect": {"k": [1, 2]}}),
        {"events": [ruling(tid, 1), ruling(tid, 2)]},
        {"events": [ruling(tid, n) for n in range(DEFAULTS["MAX_BATCH"])]},
        {"events": [ruling(tid, n) for n in range(DEFAULTS["MAX_BATCH"] + 1)]},
        {"events": []}, {"events": "x"}, {"events": [ok], "meta": {}}, {"events": [ok, {}]},
        {k: v for k, v in ok.items() if k != "type"}, {k: v for k, v in ok.items() if k != "data"},
        {k: v for k, v in ok.items() if k != "stream"},
        event(tid, "TournamentCreated", {"tournament_id": tid, "name": "x", "game": "SJ2",
                                         "format": "swiss"}),
        event(tid, "NoSuchType", {}), {**ok, "type": ""}, {**ok, "stream": "Tournament-x"},
        {**ok, "stream": "tournament-"}, {**ok, "stream": "tournament"}, {**ok, "data": []},
        {**ok, "data": None}, event(tid, data={"team_id": "x"}), event(tid, data=team("-x")),
        event(tid, data={**team("x"), "players": []}), event(tid, data=team("x", seed=1)),
        event(tid, "TeamWithdrawn", {"team_id": "east", "reason": ""}),
        event(tid, "RulingRecorded", {"text": "r", "effect": None}),
        {**ok, "id": "not-a-uuid"}, {**ok, "id": 7}, {**ok, "expected_version": -1},
        {**ok, "expected_version": "none"}, {**ok, "expected_version": True},
        {**ok, "expected_version": None}, {**ok, "expected_version": "1"},
        {**ok, "meta": {"role": "referee"}}, {**ok, "meta": {"seat": 1}},
        {**ok, "meta": {"actor": "a"}}, {**ok, "meta": {"token_id": "x"}},
        {**ok, "meta": {"token": "x"}}, {**ok, "meta": "x"},
        {**ok, "meta": {"correlation_id": "c" * 101}}, {**ok, "extra": 1},
        [ok], "event", None,
    ]


def test_event_request_schema_predicts_which_bodies_get_400(client):
    tid = create(client)["id"]
    body_schema = SPEC["paths"]["/v1/tournaments/{tid}/events"]["post"]["requestBody"][
        "content"]["application/json"]["schema"]
    validator = validator_for(body_schema)
    disagreements, statuses = [], set()
    for sample in _event_samples(tid):
        response = client.post(f"/v1/tournaments/{tid}/events", data=json.dumps(sample),
                               content_type="application/json")
        assert_response(response, "post", "/v1/tournaments/{tid}/events")
        statuses.add(response.status_code)
        valid = validator.is_valid(sample)
        if valid == (response.status_code == 400):
            detail = (response.get_json() or {}).get("detail")
            disagreements.append(f"{json.dumps(sample)[:200]}: spec says "
                                 f"{'valid' if valid else 'invalid'}, server answered "
                                 f"{response.status_code} {detail}")
    assert not disagreements, "\n".join(disagreements)
    assert {201, 400, 409, 422} <= statuses


# --- live responses ------------------------------------------------------------------------

def test_creating_a_tournament_answers_the_tournament_and_its_location(client):
    created = create(client, date="2025-04-05")
    assert_matches("Tournament", created)
    assert created["date"] == "2025-04-05" and created["venue"] is None
    response = client.get(f"/v1/tournaments/{created['id']}")
    assert assert_response(response, "get", "/v1/tournaments/{tid}") == created
    again = client.post("/v1/tournaments", json={"tournament_id": created["id"], "name": "x",
                                                 "game": "SJ2", "format": "swiss"})
    problem = assert_response(again, "post", "/v1/tournaments")
    assert problem["type"] == "urn:paiju:problem:tournament-exists"


def test_location_of_a_created_tournament_leads_to_it(client):
    response = client.post("/v1/tournaments", json={"name": "x", "game": "GD", "format": "knockout"})
    assert_response(response, "post", "/v1/tournaments")
    assert client.get(response.headers["Location"]).get_json() == response.get_json()


def test_posting_events_answers_envelopes_and_a_retry_answers_the_same(client):
    tid = create(client)["id"]
    path = "/v1/tournaments/{tid}/events"
    single = event(tid, id=str(uuid.uuid4()), meta={"source": "tablet-1"})
    first = client.post(f"/v1/tournaments/{tid}/events", json=single)
    assert first.status_code == 201
    envelope = assert_response(first, "post", path)
    assert_matches("Envelope", envelope)
    assert envelope["meta"]["correlation_id"] == first.headers["X-Request-Id"]

    retry = client.post(f"/v1/tournaments/{tid}/events", json={**single, "meta": {"source": "t2"}})
    assert retry.status_code == 200
    assert assert_response(retry, "post", path) == envelope

    batch = client.post(f"/v1/tournaments/{tid}/events",
                        json={"events": [ruling(tid, 1), ruling(tid, 2)]})
    assert batch.status_code == 201
    body = assert_response(batch, "post", path)
    assert_matches("EventBatch", body)
    assert [e["version"] for e in body["events"]] == [3, 4]

    got = client.get(f"/v1/tournaments/{tid}/events/{envelope['id']}")
    assert assert_response(got, "get", "/v1/tournaments/{tid}/events/{event_id}") == envelope
    view = assert_response(client.get(f"/v1/tournaments/{tid}"), "get", "/v1/tournaments/{tid}")
    assert view["teams"][0]["organisation"] is None and view["version"] == 4


def test_event_pages_follow_next_and_link_to_the_end(client):
    tid = create(client)["id"]
    other = create(client)["id"]  # interleaves positions with tid's
    for n in range(3):
        client.post(f"/v1/tournaments/{tid}/events", json=ruling(tid, n))
        client.post(f"/v1/tournaments/{other}/events", json=ruling(other, n))
    url, seen, pages = f"/v1/tournaments/{tid}/events?limit=2", [], 0
    while url:
        response = client.get(url)
        page = assert_response(response, "get", "/v1/tournaments/{tid}/events")
        assert_matches("EventPage", page)
        seen += page["events"]
        pages += 1
        if page["next"]:
            assert len(page["events"]) == 2
            assert response.headers["Link"] == f'<{page["next"]}>; rel="next"'
        else:
            assert "Link" not in response.headers
        url = page["next"]
    assert pages == 2
    assert [e["type"] for e in seen] == ["TournamentCreated"] + ["RulingRecorded"] * 3
    assert {e["tournament_id"] for e in seen} == {tid}
    positions = [e["position"] for e in seen]
    assert positions == sorted(positions)

    filtered = client.get(f"/v1/tournaments/{tid}/events?type=RulingRecorded&limit=1")
    page = assert_response(filtered, "get", "/v1/tournaments/{tid}/events")
    assert "type=RulingRecorded" in page["next"]


def test_a_page_holds_the_documented_default_limit(client):
    default = SPEC["components"]["parameters"]["limit"]["schema"]["default"]
    tid = create(client)["id"]
    response = client.post(f"/v1/tournaments/{tid}/events",
                           json={"events": [ruling(tid, n) for n in range(default)]})
    assert response.status_code == 201
    page = assert_response(client.get(f"/v1/tournaments/{tid}/events"), "get",
                           "/v1/tournaments/{tid}/events")
    assert len(page["events"]) == default and page["next"]


def test_stream_pages_and_tournament_pages_match_their_schemas(client):
    tids = [create(client)["id"] for _ in range(3)]
    tid = tids[0]
    client.post(f"/v1/tournaments/{tid}/events", json={"events": [ruling(tid, 1), ruling(tid, 2)]})
    response = client.get(f"/v1/tournaments/{tid}/streams/tournament-{tid}?limit=2")
    page = assert_response(response, "get", "/v1/tournaments/{tid}/streams/{stream}")
    assert_matches("StreamPage", page)
    assert (page["version"], [e["version"] for e in page["events"]]) == (3, [1, 2])
    rest = assert_response(client.get(page["next"]), "get", "/v1/tournaments/{tid}/streams/{stream}")
    assert [e["version"] for e in rest["events"]] == [3] and rest["next"] is None

    response = client.get("/v1/tournaments?limit=2")
    page = assert_response(response, "get", "/v1/tournaments")
    assert_matches("TournamentPage", page)
    rest = assert_response(client.get(page["next"]), "get", "/v1/tournaments")
    assert [t["id"] for t in page["tournaments"] + rest["tournaments"]] == tids


def test_verify_health_and_export_match_their_schemas(client):
    tid = create(client)["id"]
    client.post(f"/v1/tournaments/{tid}/events", json=event(tid))
    report = assert_response(client.get(f"/v1/tournaments/{tid}/verify"), "get",
                             "/v1/tournaments/{tid}/verify")
    assert_matches("ChainReport", report)
    assert report["ok"] and report["checked"] == 2
    health = assert_response(client.get("/v1/health"), "get", "/v1/health")
    assert_matches("Health", health)
    assert health["last_position"] == 2
    lines = assert_response(client.get(f"/v1/tournaments/{tid}/export"), "get",
                            "/v1/tournaments/{tid}/export")
    assert len(lines) == 3 and set(lines[-1]) == {"manifest", "signature"}
    assert_matches("ExportManifestLine", lines[-1])
    csv_export = client.get(f"/v1/tournaments/{tid}/export?format=csv")
    assert csv_export.mimetype == "text/csv"
    assert csv_export.get_data(as_text=True).splitlines()[-1].startswith("#paiju-manifest {")
    key = assert_response(client.get("/.well-known/paiju-export-key"), "get",
                          "/.well-known/paiju-export-key")
    assert key["key_id"] == lines[-1]["signature"]["key_id"]


def test_the_export_is_the_hash_chain_the_envelope_describes(client):
    tid = create(client, name="春季 \"升级\" 赛")["id"]
    other = create(client)["id"]
    client.post(f"/v1/tournaments/{other}/events", json=ruling(other, 0))
    client.post(f"/v1/tournaments/{tid}/events", json=event(
        tid, "RulingRecorded", {"text": "line\none\ttab \u2028 é", "effect": {"ratio": 0.1}}))
    client.post(f"/v1/tournaments/{tid}/events", json=event(tid))
    response = client.get(f"/v1/tournaments/{tid}/export")
    *envelopes, _ = assert_response(response, "get", "/v1/tournaments/{tid}/export")
    lines = response.get_data(as_text=True).split("\n")[:-2]  # the events, not the manifest
    assert len(lines) == len(envelopes) == 3
    prev = "0" * 64
    assert GENESIS_HASH == prev
    for line, envelope in zip(lines, envelopes):
        # the line is the canonical JSON of the whole envelope
        assert line == json.dumps(envelope, sort_keys=True, separators=(",", ":"),
                                  ensure_ascii=False)
        # hash = sha256(prev_hash ‖ canonical JSON of the envelope without its hash)
        without = {k: v for k, v in envelope.items() if k != "hash"}
        text = json.dumps(without, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        assert line.replace(f',"hash":"{envelope["hash"]}"', "", 1) == text
        assert envelope["prev_hash"] == prev
        assert hashlib.sha256((prev + text).encode("utf-8")).hexdigest() == envelope["hash"]
        prev = envelope["hash"]


@pytest.mark.parametrize("query, param", [
    ("limit=0", "limit"), ("limit=1001", "limit"), ("after=-1", "after"), ("after=x", "after"),
])
def test_a_bad_query_parameter_is_a_400_problem_naming_it(client, query, param):
    response = client.get(f"/v1/tournaments?{query}")
    problem = assert_response(response, "get", "/v1/tournaments")
    assert response.status_code == 400
    assert_matches("Problem", problem)
    assert [(e["path"], e["in"]) for e in problem["errors"]] == [(param, "query")]


def _concrete(path: str, tid: str, event_id: str) -> str:
    return (path.replace("{tid}", tid).replace("{event_id}", event_id)
            .replace("{stream}", f"tournament-{tid}").replace("{mid}", "R1-1")
            .replace("{n}", "1"))


def test_query_parameters_are_enforced_as_documented(client):
    created = create(client)
    tid = created["id"]
    event_id = client.get(f"/v1/tournaments/{tid}/events").get_json()["events"][0]["id"]
    checked = 0
    for path, item in SPEC["paths"].items():
        for method in (m for m in item if m == "get"):
            url = _concrete(path, tid, event_id)
            for param in (p for p in parameters(method, path) if p["in"] == "query"):
                schema, name = param["schema"], param["name"]
                bad, good = [], []
                if schema.get("type") == "integer":
                    bad += ["x", "1.5", str(schema["minimum"] - 1)]
                    good.append(str(schema["minimum"]))
                    if "maximum" in schema:
                        bad.append(str(schema["maximum"] + 1))
                        good.append(str(schema["maximum"]))
                if "enum" in schema:
                    bad.append("not-" + schema["enum"][0])
                    good += schema["enum"]
                for value in bad:
                    response = client.get(f"{url}?{name}={value}")
                    problem = assert_response(response, method, path)
                    assert response.status_code == 400, f"{path}?{name}={value}"
                    assert problem["errors"][0]["path"] == name
                    checked += 1
                for value in good:
                    response = client.get(f"{url}?{name}={value}")
                    assert_response(response, method, path)
                    assert response.status_code != 400, f"{path}?{name}={value}: {response.json}"
    assert checked >= 10


def test_not_found_problems(client):
    tid = create(client)["id"]
    other = create(client)["id"]
    event_id = client.get(f"/v1/tournaments/{tid}/events").get_json()["events"][0]["id"]
    for path in SPEC["paths"]:
        if "{tid}" not in path:
            continue
        for method in SPEC["paths"][path]:
            if method not in METHODS:
                continue
            url = _concrete(path, "no-such-tournament", "no-such-event")
            response = client.open(url, method=method.upper(), json=event("no-such-tournament"))
            problem = assert_response(response, method, path)
            assert response.status_code == 404, f"{method.upper()} {url}: {problem}"
            assert_matches("Problem", problem)
            assert problem["instance"] == url
    foreign = client.get(f"/v1/tournaments/{other}/events/{event_id}")
    assert foreign.status_code == 404
    assert_response(foreign, "get", "/v1/tournaments/{tid}/events/{event_id}")
    nowhere = client.get("/v2/nothing")
    assert nowhere.status_code == 404
    assert_component_response(nowhere, "NotFound")
    before = client.get(f"/v1/tournaments/{tid}?at=0")
    assert before.status_code == 404
    assert_response(before, "get", "/v1/tournaments/{tid}")


def test_methods_a_path_does_not_list_get_405_with_allow(client):
    tid = create(client)["id"]
    for path, item in SPEC["paths"].items():
        listed = {m.upper() for m in item if m in METHODS}
        allowed = listed | {"OPTIONS"} | ({"HEAD"} if "GET" in listed else set())
        for method in (m.upper() for m in METHODS if m not in item):
            response = client.open(_concrete(path, tid, "e"), method=method)
            assert response.status_code == 405, f"{method} {path}"
            problem = assert_component_response(response, "MethodNotAllowed")
            assert set(problem["allow"]) == allowed, path
            assert set(response.headers["Allow"].split(", ")) == allowed, path


def test_body_problems_400_409_413_415_422(client, app):
    tid = create(client)["id"]
    path, url = "/v1/tournaments/{tid}/events", f"/v1/tournaments/{tid}/events"

    def post(**kwargs):
        response = client.post(url, **kwargs)
        body = assert_response(response, "post", path)
        if response.status_code < 400:
            return response.status_code, None, body
        assert_matches("Problem", body)
        return response.status_code, body["type"].rsplit(":", 1)[1], body

    assert post(data="{", content_type="application/json")[:2] == (400, "malformed-json")
    assert post(data='{"a":1,"a":2}', content_type="application/json")[:2] == (400, "malformed-json")
    assert post(data=b"\xff", content_type="application/json")[:2] == (400, "malformed-json")
    status, slug, problem = post(json={"events": [event(tid, data={"team_id": "x"})]})
    assert (status, slug) == (400, "validation-failed")
    assert problem["errors"][0]["path"].startswith("/events/0/data/")
    assert post(data="{}", content_type="text/plain")[:2] == (415, "unsupported-media-type")
    assert post(data="{}", content_type="application/json; charset=latin-1")[:2] == (
        415, "unsupported-media-type")
    too_big = app.config["MAX_CONTENT_LENGTH"] + 1
    status, slug, problem = post(data=b" " * too_big, content_type="application/json")
    assert (status, slug, problem["limit"]) == (413, "payload-too-large", too_big - 1)
    status, slug, problem = post(json={"events": [event(tid), event(tid)]})
    assert (status, slug, problem["rule"], problem["event_index"], problem["path"]) == (
        422, "rule-violation", "T-1.3", 1, "/events/1")
    status, slug, problem = post(json=event(tid, expected_version=5))
    assert (status, slug, problem["current_version"]) == (409, "version-conflict", 1)
    fixed = str(uuid.uuid4())
    assert post(json=event(tid, id=fixed))[0] == 201
    assert post(json=event(tid, "RulingRecorded", {"text": "x"}, id=fixed))[:2] == (
        409, "idempotency-conflict")
    status, slug, problem = post(json={"events": [ruling(tid, 0) | {"id": fixed}] * 2})
    assert (status, slug) == (400, "validation-failed")


def test_an_unexpected_failure_is_a_500_problem():
    class BrokenStore(InMemoryEventStore):
        def last_position(self) -> int:
            raise RuntimeError("disk on fire")

    client = admin_client(create_app(store=BrokenStore()))
    response = client.get("/v1/health")
    assert response.status_code == 500
    problem = assert_response(response, "get", "/v1/health")
    assert "disk on fire" not in json.dumps(problem)


def test_assert_matches_reports_what_is_wrong():
    good = {"type": "urn:paiju:problem:not-found", "title": "No such resource", "status": 404,
            "detail": "no tournament 'x'", "instance": "/v1/tournaments/x"}
    assert_matches("Problem", good)
    for bad, words in [({**good, "type": "about:blank"}, "does not match"),
                       ({**good, "colour": "red"}, "colour"),
                       ({k: v for k, v in good.items() if k != "detail"}, "detail"),
                       ({**good, "type": "urn:paiju:problem:validation-failed"}, "errors")]:
        with pytest.raises(AssertionError, match=words):
            assert_matches("Problem", bad)


# --- edges where Python's parsing is looser than the contract --------------------------------

def test_a_non_ascii_digit_in_a_query_is_a_400_not_a_500(client):
    for value in ("²", "١٢"):  # str.isdigit() admits both; int() refuses '²' and reads '١٢' as 12
        response = client.get(f"/v1/tournaments?limit={value}")
        problem = assert_response(response, "get", "/v1/tournaments")
        assert response.status_code == 400, value
        assert problem["errors"][0]["path"] == "limit"


@pytest.mark.parametrize("field, value", [
    ("tournament_id", "t1\n"),        # re.match's '$' also matches before a final newline
    ("date", "2025-04-05\n"),
    ("date", "٢٠٢٥-٠٤-٠٥"),          # Python's \d is any Unicode digit
    ("date", "2025-02-30"),           # the form of a date, but no such day
])
def test_values_the_spec_refuses_are_refused(client, field, value):
    body = {"name": "x", "game": "SJ2", "format": "swiss", field: value}
    if field != "tournament_id":  # Python's jsonschema shares re's '$' quirk (ECMA-262 does not)
        assert not is_valid("TournamentCreateRequest", body)
    response = client.post("/v1/tournaments", json=body)
    problem = assert_response(response, "post", "/v1/tournaments")
    assert response.status_code == 400
    assert [e["path"] for e in problem["errors"]] == [f"/{field}"]


@pytest.mark.parametrize("event_id", [
    lambda u: "{" + u + "}", lambda u: "urn:uuid:" + u, lambda u: u.replace("-", ""),
    lambda u: u.upper()], ids=["braces", "urn", "hex", "upper"])
def test_a_client_event_id_must_be_a_canonical_uuid(client, event_id):
    tid = create(client)["id"]
    given = event_id(str(uuid.uuid4()))
    body = event(tid, id=given)
    assert not validator_for({"$ref": "#/components/schemas/EventRequest"}).is_valid(body)
    response = client.post(f"/v1/tournaments/{tid}/events", json=body)
    problem = assert_response(response, "post", "/v1/tournaments/{tid}/events")
    assert response.status_code == 400
    assert [e["path"] for e in problem["errors"]] == ["/id"]


def test_the_documented_sj2_match_settings_and_defaults_are_the_codes():
    from rules.shengji.settings import Settings
    documented = SCHEMAS["MatchSettings"]["properties"]
    defaults = Settings().to_dict()
    assert set(documented) == set(defaults)
    for key, value in defaults.items():
        assert documented[key].get("default") == value, key
