"""A refused field says why in the reader's language (service/field_messages.py): the desk shows
``errors[].message`` beside the field.

Every schema a request meets is walked — each event type's data, the envelope, the bodies of
the other routes, and the schemas nested in them, field by field into lists, mappings and
nested objects — and every field is given the values it refuses: a value of each JSON type,
null, and for each validator a value that breaks it (below and beyond a Range, shorter and
longer than a Length, outside a OneOf, against a pattern). The checks of a whole body (a
schema's ``validates_schema`` and ``validates``) are given bodies by hand, and every such check
of every schema walked must have some. Each body is posted twice: in English the errors are
marshmallow's (or the schema's) own words, byte for byte, as loading the body with the schema
says them; in Chinese the same paths, each message Chinese with no English word left — only
the codes, field names and values the sentence names."""
from __future__ import annotations

import json
import re
import uuid
from itertools import zip_longest

import pytest
from clients import admin_client
from marshmallow import Schema, ValidationError, fields, validate

from events import default_catalogue
from events.memory_store import InMemoryEventStore
from rules.messages import Message
from service import create_app
from service.field_messages import TEMPLATES, field_message
from service.problems import field_errors
from service.schemas import batch_schema

TID = "fm"
T = f"/v1/tournaments/{TID}"
EN, ZH = {"Accept-Language": "en"}, {"Accept-Language": "zh-CN,zh;q=0.9"}
CHINESE = re.compile(r"[\u3400-\u9fff]")
# a value of every JSON type but null; no English word in any (a refusal may quote it)
PROBES = ("¤", 5, -1, 1.5, True, [], {})
NOT_A_CHOICE, NOT_OF_THE_FORM = "ZZ9", "¤"
SAMPLES = ("t1", "AS", "1m", "A", "SJ2-1.1", "tournament-t1", "2024-01-02", "Asia/Shanghai",
           "2024-01-02T03:04:05.000000Z", str(uuid.uuid4()), 1, 0, True, "x",
           *(f"t{n}" for n in range(2, 80)))
MOST = 2**63 - 1  # beyond it a number is refused before any schema (service/requests.py)

# the bodies of the routes that load a schema of their own (the catalogue's go to …/events)
ROUTES = {
    "EventRequestSchema": T + "/events", "BatchRequestSchema": T + "/events",
    "StartMatchRequest": T + "/matches", "DrawRequest": T + "/draws",
    "PreviewRequest": T + "/rulings/preview", "SignInSchema": "/v1/sessions",
    "CodeRequestSchema": T + "/sign-in-codes", "PairingRequest": T + "/pairings",
    "MetaOnlyRequest": T + "/standings/lots", "LatenessRequest": T + "/rounds/1/lateness",
    "WebhookRequestSchema": T + "/webhooks", "RedeliverRequestSchema": T + "/webhooks/{hook}/redeliver",
    "DisableRequestSchema": T + "/webhooks/{hook}/disable",
}
EFFECT = {"rule": "discretion", "member": "m"}
# (schema, check) -> bodies that make the check refuse, each branch of it
CHECK_BODIES = {
    ("LotsDrawnData", "_fields_of_the_purpose"): [
        {"purpose": "pairing"},
        {"purpose": "declaration", "hand": 1, "candidates": [5, 1], "winner": 9},
        {"purpose": "matchTie", "candidates": ["C", "A"], "winner": "C"},
        {"purpose": "standingsTie", "round": 1, "candidates": ["¤", "t1"], "winner": 7}],
    ("DiceRolledData", "_hand_of_a_wall_break"): [
        {"purpose": "wallBreak", "seat": 0, "dice": [1, 2]}],
    ("TilesDealtData", "_one_way_of_dealing"): [
        {"hand": 1}, {"hand": 1, "walls": [[]] * 4, "wall": []},
        {"hand": 1, "hands": [[]] * 4, "dice": [[1, 1], [1, 1]]}],
    ("WinData", "_how"): [{"hand": 1, "seat": 0, "selfDrawn": False},
                          {"hand": 1, "seat": 0, "discarder": 1}],
    ("ConductPenaltyData", "_victim_of_a_naming"): [
        {"hand": 1, "seat": 0, "offence": "otherHand"},
        {"hand": 1, "seat": 0, "offence": "ownHand", "victim": 1}],
    ("RulingEffect", "_members_of_the_kind"): [{"text": "甲", "effects": [effect]} for effect in (
        {"kind": "substitute", "hand": 1, **EFFECT},
        {"kind": "void", "positions": [1], "from": 1, **EFFECT},
        {"kind": "void", "from": 1, **EFFECT},
        {"kind": "void", "from": 3, "to": 2, **EFFECT},
        {"kind": "penalty", "side": "A", **EFFECT},
        {"kind": "penalty", "points": 5, **EFFECT},
        {"kind": "penalty", "points": -5, "side": "A", **EFFECT},
        {"kind": "adjustLevel", "side": "A", "levels": 0, **EFFECT})],
    ("DisputeRaisedData", "_hand_of_a_match"): [{"dispute_id": "d1", "claim": "甲", "hand": 1}],
    ("DisputeResolvedData", "_ruling_or_no_change"): [{"dispute_id": "d1", "text": "甲"}],
    ("WebhookRequestSchema", "_address"): [
        {"url": "ftp://h"}, {"url": "http://u:p@h/"}, {"url": "http://[::1"},
        {"url": "http://127.0.0.1/"}],
    ("WebhookRequestSchema", "_types"): [{"url": "ftp://h", "types": ["Nope", "Zed"]}],
}
# where a check's schema is met: RulingEffect inside a ruling's effects
CHECKED_IN = {"RulingEffect": "RulingRecordedData"}
# words a Chinese message may keep besides the codes and names of the schemas: literals,
# the examples of the forms (tournament-t1, …ffffffZ, Asia/Shanghai) and Python's own words
# on a malformed URL; Bearer, the name of the Authorization scheme
KEPT = {"true", "false", "null", "True", "False", "None", "tournament", "match", "t1", "m17",
        "ffffffZ", "Asia", "Shanghai", "America", "Toronto", "http", "https", "Invalid", "IPv6",
        "Bearer"}


# --- the walk ------------------------------------------------------------------------------------

def nested_schemas(schema: Schema) -> list[Schema]:
    """The schema and every schema nested in it, at any depth."""
    found = [schema]
    for field in schema.fields.values():
        found += [s for f in _inner(field) if isinstance(f, fields.Nested)
                  for s in nested_schemas(f.schema)]
    return found


def _inner(field: fields.Field) -> list[fields.Field]:
    if isinstance(field, fields.List):
        return [field, *_inner(field.inner)]
    if isinstance(field, fields.Dict):
        return [field, *(f for sub in (field.key_field, field.value_field) if sub
                         for f in _inner(sub))]
    return [field]


def refusal(field: fields.Field, value) -> tuple[str, ...] | None:
    """What the field says of ``value`` (its messages, flat), None if it takes it."""
    try:
        field.deserialize(value)
    except ValidationError as error:
        return tuple(e["message"] for e in field_errors(error.messages))
    return None


def accepted(field: fields.Field) -> list:
    """Values the field takes (a list's and a mapping's as short as their bounds allow)."""
    if isinstance(field, (fields.List, fields.Dict, fields.Nested)):
        value = _container(field)
        return [] if value is None or refusal(field, value) else [value]
    choices = [c for v in field.validators if isinstance(v, validate.OneOf) for c in v.choices]
    return [v for v in (*choices, *SAMPLES) if refusal(field, v) is None]


def _container(field: fields.Field):
    low = next((v.equal or v.min or 1 for v in field.validators
                if isinstance(v, validate.Length)), 1)
    if isinstance(field, fields.List):
        items = accepted(field.inner)
        return [items[0]] * low if items else None
    if isinstance(field, fields.Dict):
        keys = accepted(field.key_field) if field.key_field else ["k1", "k2"]
        values = accepted(field.value_field) if field.value_field else [1]
        return dict.fromkeys(keys[:low], values[0]) if len(keys) >= low and values else None
    required = {f.data_key or name: accepted(f) for name, f in field.schema.fields.items()
                if f.required}
    return {k: v[0] for k, v in required.items()} if all(required.values()) else None


def breaking(validator, field: fields.Field) -> list:
    """Values that break ``validator`` (there must be one: a validator this walk cannot break
    would go unchecked)."""
    if isinstance(validator, validate.Range):
        values = [validator.min - validator.min_inclusive if validator.min is not None else None,
                  validator.max + validator.max_inclusive if validator.max is not None else None]
    elif isinstance(validator, validate.Length):
        values = _lengths(validator, field)
    elif isinstance(validator, validate.Equal):
        values = [not validator.comparable if isinstance(validator.comparable, bool)
                  else NOT_A_CHOICE]
    else:
        values = [NOT_A_CHOICE if isinstance(validator, validate.OneOf) else NOT_OF_THE_FORM]
    values = [v for v in values if v is not None and not (isinstance(v, int) and abs(v) > MOST)]
    broken = [v for v in values if _breaks(validator, v)]
    assert broken, f"no value of this walk breaks {validator!r}: add one"
    return broken


def _breaks(validator, value) -> bool:
    try:
        validator(value)
    except ValidationError:
        return True
    except (TypeError, ValueError):
        return False
    return False


def _lengths(v: validate.Length, field: fields.Field) -> list:
    sizes = [v.equal + 1, v.equal - 1] if v.equal is not None else \
        [n for n in (v.min - 1 if v.min else None, v.max + 1 if v.max else None) if n is not None]
    sizes = [n for n in sizes if n >= 0]
    if isinstance(field, fields.String):
        return ["x" * n for n in sizes]
    if isinstance(field, fields.List):
        items = accepted(field.inner)
        return [[items[0]] * n if n else [] for n in sizes if items or n == 0]
    keys = accepted(field.key_field) if field.key_field else [f"k{n}" for n in range(99)]
    values = accepted(field.value_field) if field.value_field else [1]
    return [dict.fromkeys(keys[:n], values[0]) for n in sizes if len(keys) >= n and values]


def refused_values(field: fields.Field) -> list:
    """Values the field refuses: of each JSON type, null, one breaking each validator, and
    those of its items, members, keys and values in a list, object or mapping of one."""
    values = [*PROBES, None]
    values += [b for v in field.validators for b in breaking(v, field)]
    if isinstance(field, fields.List):
        values += [[v] for v in refused_values(field.inner)]
    elif isinstance(field, fields.Nested):
        values += [{f.data_key or name: v} for name, f in field.schema.fields.items()
                   for v in refused_values(f)]
    elif isinstance(field, fields.Dict):
        values += _mapping_faults(field)
    return [v for v in values if refusal(field, v) is not None]


def _mapping_faults(field: fields.Dict) -> list:
    keys = accepted(field.key_field) if field.key_field else ["k1"]
    values = accepted(field.value_field) if field.value_field else [1]
    bad_keys = [k for k in refused_values(field.key_field) if isinstance(k, str)] \
        if field.key_field else []
    bad_values = refused_values(field.value_field) if field.value_field else []
    return [{k: values[0] if values else 1} for k in bad_keys] + \
        [{keys[0] if keys else "k1": v} for v in bad_values]


def bodies(schema: Schema, said: set[str]) -> list[dict]:
    """Bodies that make ``schema`` say each of its refusals, one field's fault beside another's;
    a refusal already ``said`` by an earlier body (of any schema) is not posted again."""
    faults = {}
    for name, field in schema.fields.items():
        new = []
        for value in refused_values(field):
            texts = set(refusal(field, value)) - said
            if texts:
                said |= texts
                new.append(value)
        faults[field.data_key or name] = new
    found = [{k: v for k, v in zip(faults, row) if v is not _NONE}
             for row in zip_longest(*faults.values(), fillvalue=_NONE)]
    return [{**(found[0] if found else {}), "¤": 1}, *found[1:]]  # an unknown member too


_NONE = object()


# --- the app and what it answers -------------------------------------------------------------

@pytest.fixture(scope="module")
def app():
    app = create_app(store=InMemoryEventStore())
    created = admin_client(app).post("/v1/tournaments", json={
        "tournament_id": TID, "name": "甲", "game": "SJ2", "format": "knockout"})
    assert created.status_code == 201, created.get_json()
    hooks = app.extensions["paiju"].webhooks  # one to redeliver and disable (never sent to)
    _, app.hook = hooks.create(TID, "http://127.0.0.1:9/", None, None, 0, "2024-01-02T03:04:05Z")
    return app


def asked_both(client, url: str, body) -> tuple[dict, dict]:
    answers = [client.post(url, data=json.dumps(body), content_type="application/json",
                           headers=h) for h in (EN, ZH)]
    for answer in answers:
        assert answer.status_code == 400, (url, body, answer.get_json())
        assert answer.get_json()["type"] == "urn:paiju:problem:validation-failed"
    assert answers[1].headers["Content-Language"] == "zh-Hans"
    return answers[0].get_json(), answers[1].get_json()


def route_schemas() -> dict[str, Schema]:
    """The routes' schemas by name: every schema of events/ and service/ with fields is the
    catalogue's, a route's, or nested in one (a new one must be placed here)."""
    batch_schema(1000)
    found = {cls.__name__: cls for cls in _subclasses(Schema)
             if cls.__module__.startswith(("events.", "service.")) and cls._declared_fields}
    walked = {type(s).__name__ for t in default_catalogue() for s in nested_schemas(t.schema())}
    by_route = {name: found[name]() for name in ROUTES}
    walked |= {type(s).__name__ for s in by_route.values() for s in nested_schemas(s)}
    assert set(found) <= walked, f"schemas no request here meets: {set(found) - walked}"
    return by_route


def _subclasses(cls) -> list[type]:
    return [c for sub in cls.__subclasses__() for c in (sub, *_subclasses(sub))]


def posts() -> list[tuple[str, str, object, Schema, str]]:
    """(what, url, body sent, schema that loads the part at fault, where that part is)."""
    said, found = set(), []
    for t in default_catalogue():
        stream = f"tournament-{TID}" if t.stream_kinds[0] == "tournament" else f"match-{TID}:m1"
        schema = t.schema()
        for data in bodies(schema, said) + _checks(type(schema).__name__):
            found.append((t.name, T + "/events", {"type": t.name, "stream": stream,
                                                   "data": data}, schema, "/data"))
    for name, schema in route_schemas().items():
        for body in bodies(schema, said) + _checks(name):
            if name != "BatchRequestSchema" or "events" in body:  # else it is one event
                found.append((name, ROUTES[name], body, schema, ""))
    return found


def _checks(schema_name: str) -> list[dict]:
    return [body for (name, _), listed in CHECK_BODIES.items()
            if CHECKED_IN.get(name, name) == schema_name for body in listed]


def expected(app, schema: Schema, body: dict, where: str) -> list[dict]:
    """The refusals as marshmallow says them, loading the part at fault with its schema."""
    with app.test_request_context():
        try:
            schema.load(body["data"] if where else body)
        except ValidationError as error:
            return field_errors(error.messages, where)
    return []


def english_left(chinese: str, kept: set[str]) -> list[str]:
    """Words of English in a message, once quoted values and ids are set aside: a word has a
    small letter (TH, UUID, MJO are codes) and is no code, name or value the message names."""
    plain = re.sub(r"'[^']*'|\"[^\"]*\"|[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}", "", chinese)
    return [w for w in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", plain)
            if len(w) > 1 and re.search("[a-z]", w) and w not in kept]


def names_and_codes(schemas: list[Schema]) -> set[str]:
    """The members' names and the choices of every schema walked, and the event types."""
    found = set(default_catalogue().names())
    for schema in (s for top in schemas for s in nested_schemas(top)):
        for name, field in schema.fields.items():
            found |= {name, field.data_key or name}
            found |= {str(c) for f in _inner(field) for v in f.validators
                      if isinstance(v, validate.OneOf) for c in v.choices}
    return found


def words_of(value) -> set[str]:
    return set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", json.dumps(value, ensure_ascii=False)))


# --- the tests -----------------------------------------------------------------------------------

def test_every_refusal_of_every_schema_in_english_as_it_was_and_in_chinese(app):
    client, sent = admin_client(app), posts()
    kept = KEPT | names_and_codes([s for _, _, _, s, _ in sent])
    english, leftovers = set(), {}
    for what, url, body, schema, where in sent:
        en, zh = asked_both(client, url.format(hook=app.hook.webhook_id), body)
        wanted = expected(app, schema, body, where)
        got = [e for e in en["errors"] if e["path"].startswith(where)]
        assert wanted and got[:len(wanted)] == wanted, (what, body, en["errors"], wanted)
        assert [e["path"] for e in zh["errors"]] == [e["path"] for e in en["errors"]]
        for e, z in zip(en["errors"], zh["errors"]):
            english.add(e["message"])
            left = english_left(z["message"], kept | words_of(body))
            if not CHINESE.search(z["message"]) or left:
                leftovers[e["message"]] = (z["message"], left)
    assert not leftovers, f"{len(leftovers)} not in Chinese: {list(leftovers.items())[:8]}"
    assert len(english) > 100, f"only {len(english)} different refusals walked"


def test_every_check_of_a_whole_body_has_bodies_that_make_it_refuse(app):
    walked = [s for t in default_catalogue() for s in nested_schemas(t.schema())]
    walked += [s for top in route_schemas().values() for s in nested_schemas(top)]
    checks = {(type(s).__name__, name) for s in walked
              for tag in ("validates_schema", "validates") for name, *_ in s._hooks[tag]}
    assert checks - set(CHECK_BODIES) == set(), "a check no body here makes refuse"
    assert set(CHECK_BODIES) <= checks


def test_every_message_a_walked_field_has_is_a_template_of_the_catalogue(app):
    """What a field may say besides what the walk made it say (``Number too large.``)."""
    walked = [s for t in default_catalogue() for s in nested_schemas(t.schema())]
    walked += [s for top in route_schemas().values() for s in nested_schemas(top)]
    messages = {m for s in walked for field in s.fields.values() for f in _inner(field)
                for m in f.error_messages.values()} | set(Schema._default_error_messages.values())
    assert {m for m in messages if m not in TEMPLATES and not isinstance(
        field_message(m), Message)} == set()


def test_the_routes_own_refusals_of_a_field_in_both_languages():
    """Refusals a route words itself beside the schema's: a webhook's streams (checked once
    the body is loaded, so private addresses are allowed here) and the live filters."""
    app = create_app({"WEBHOOKS_ALLOW_PRIVATE": True}, store=InMemoryEventStore())
    client = admin_client(app)
    client.post("/v1/tournaments", json={"tournament_id": TID, "name": "甲", "game": "SJ2",
                                         "format": "knockout"})
    en, zh = asked_both(client, T + "/webhooks", {"url": "http://127.0.0.1:9/",
                                                  "streams": ["tournament-zz"]})
    assert en["errors"] == [{"path": "/streams/0", "message": "'tournament-zz' is not a stream "
                             f"of tournament '{TID}' (tournament-{TID} or match-{TID}:<match>)"}]
    assert zh["errors"] == [{"path": "/streams/0", "message": f"'tournament-zz' 不是赛事 '{TID}' "
                             f"的事件流（应为 tournament-{TID} 或 match-{TID}:<比赛>）"}]
    said = [client.get(T + "/subscribe?stream=tournament-zz&type=Nope", headers=h).get_json()
            for h in (EN, ZH)]
    assert [e["message"] for e in said[0]["errors"]] == [
        f"no stream 'tournament-zz' in tournament '{TID}'", "unknown event type(s): Nope"]
    assert [e["message"] for e in said[1]["errors"]] == [
        f"赛事 '{TID}' 中没有事件流 'tournament-zz'", "未知的事件类型：Nope"]
