"""api_spec.yaml's generated part (service/openapi.py) is what the event catalogue makes, its
data schemas say what the marshmallow schemas say, and the check notices when either drifts:
a field added to a copy of the catalogue, a bound changed, a new type."""
from __future__ import annotations

import dataclasses
import subprocess
import sys

import pytest
import yaml
from marshmallow import Schema, fields, validate
from spec import SPEC, SPEC_PATH, validator_for

from events import default_catalogue
from events.catalogue import Catalogue
from service import openapi
from service.app import DEFAULTS

TEXT = SPEC_PATH.read_text(encoding="utf-8")
SCHEMAS = SPEC["components"]["schemas"]
MAX_BATCH = DEFAULTS["MAX_BATCH"]


def with_type(catalogue: Catalogue, name: str, change) -> Catalogue:
    """A copy of the catalogue whose type ``name`` is ``change(event_type)``."""
    return Catalogue([change(t) if t.name == name else t for t in catalogue], catalogue.derived)


def data_schema_with(schema: type[Schema], **extra) -> type[Schema]:
    """The same data schema (same name) with ``extra`` fields declared."""
    return type(schema.__name__, (schema,), extra)


def test_the_written_spec_is_what_the_catalogue_makes():
    assert openapi.check(TEXT, default_catalogue(), MAX_BATCH) == []


def test_the_event_body_is_a_discriminated_one_of_with_a_component_per_postable_type():
    postable = sorted(t.name for t in default_catalogue() if t.postable)
    request = SCHEMAS["EventRequest"]
    assert request["discriminator"]["mapping"] == {
        name: f"#/components/schemas/{name}Event" for name in postable}
    assert "allOf" not in request and "if" not in str(request)
    team = SCHEMAS["TeamRegisteredEvent"]
    assert team["properties"]["type"] == {"type": "string", "const": "TeamRegistered"}
    assert team["properties"]["data"] == {"$ref": "#/components/schemas/TeamRegisteredData"}
    assert team["properties"]["stream"]["pattern"].startswith("^tournament-")
    assert SCHEMAS["HandDealtEvent"]["properties"]["stream"]["pattern"].startswith("^match-")
    assert SCHEMAS["EventBatchRequest"]["properties"]["events"]["items"] == {
        "$ref": "#/components/schemas/EventRequest"}


def test_a_body_of_one_type_with_the_data_of_another_is_refused_by_the_spec():
    validator = validator_for({"$ref": "#/components/schemas/EventRequest"})
    team = {"team_id": "east", "name": "East", "players": ["王芳", "李雷"]}
    assert validator.is_valid({"type": "TeamRegistered", "stream": "tournament-t1", "data": team})
    assert not validator.is_valid({"type": "TeamWithdrawn", "stream": "tournament-t1",
                                   "data": team})
    assert not validator.is_valid({"type": "TeamRegistered", "stream": "match-t1:R1-1",
                                   "data": team})


def test_a_marshmallow_field_added_without_the_spec_is_noticed():
    catalogue = with_type(default_catalogue(), "TeamRegistered", lambda t: dataclasses.replace(
        t, schema=data_schema_with(t.schema, nickname=fields.String())))
    before = set(openapi.check(TEXT, default_catalogue(), MAX_BATCH))
    assert set(openapi.check(TEXT, catalogue, MAX_BATCH)) - before == {
        "TeamRegisteredData/nickname: a field of the code, not in api_spec.yaml"}


@pytest.mark.parametrize("field, wanted", [
    (fields.String(required=True, validate=validate.Length(min=1, max=100)),
     "TeamRegisteredData/name: maxLength 100 in the code, 200 in api_spec.yaml"),
    (fields.String(validate=validate.Length(min=1, max=200)),
     "TeamRegisteredData: required ['players', 'team_id'] in the code, "
     "['name', 'players', 'team_id'] in api_spec.yaml"),
    (fields.Integer(required=True),
     "TeamRegisteredData/name: type ['integer'] in the code, ['string'] in api_spec.yaml"),
    (fields.String(required=True, validate=validate.OneOf(["a", "b"])),
     "TeamRegisteredData/name: enum ['a', 'b'] in the code, None in api_spec.yaml"),
], ids=["bound", "required", "type", "enum"])
def test_a_marshmallow_field_changed_without_the_spec_is_noticed(field, wanted):
    catalogue = with_type(default_catalogue(), "TeamRegistered", lambda t: dataclasses.replace(
        t, schema=data_schema_with(t.schema, name=field)))
    assert wanted in openapi.check(TEXT, catalogue, MAX_BATCH)


def test_the_request_bodies_say_what_the_routes_load():
    assert openapi.request_drift(SCHEMAS) == []


@pytest.mark.parametrize("extra, wanted", [
    ({"method": fields.String(validate=validate.OneOf(("lots", "cards", "dice")))},
     ("DrawRequest/method: enum ['lots', 'cards', 'dice'] in the code, ['lots', 'cards'] in "
      "api_spec.yaml")),
    ({"round": fields.Integer(strict=True, validate=validate.Range(min=1, max=10))},
     "DrawRequest/round: maximum 10 in the code, 64 in api_spec.yaml"),
    ({"seed": fields.Integer()}, "DrawRequest/seed: a field of the code, not in api_spec.yaml"),
], ids=["enum", "bound", "field"])
def test_a_request_schema_changed_without_the_spec_is_noticed(extra, wanted):
    draw = openapi.request_schemas()["DrawRequest"]
    changed = type(draw.__name__, (draw,), extra)
    assert openapi.request_drift(SCHEMAS, {"DrawRequest": changed}) == [wanted]


def test_a_new_event_type_makes_the_block_stale_and_write_adds_only_its_schemas():
    class NapTakenData(Schema):
        minutes = fields.Integer(required=True, strict=True, validate=validate.Range(1, 30))

    catalogue = default_catalogue()
    nap = dataclasses.replace(catalogue.get("TeamCheckedIn"), name="NapTaken", schema=NapTakenData)
    grown = Catalogue(list(catalogue) + [nap], catalogue.derived)
    assert "the generated block of api_spec.yaml is not what the catalogue makes " \
           "(run `paiju spec --write`)" in openapi.check(TEXT, grown, MAX_BATCH)

    made = openapi.rewritten(TEXT, grown, MAX_BATCH)
    start = TEXT.index(openapi.BEGIN)
    end = TEXT.index(openapi.END) + len(openapi.END)
    assert made[:start] == TEXT[:start]  # the hand-written document is left alone
    assert made[made.index(openapi.END) + len(openapi.END):] == TEXT[end:]
    schemas = yaml.safe_load(made)["components"]["schemas"]
    assert schemas["EventRequest"]["discriminator"]["mapping"]["NapTaken"] == \
        "#/components/schemas/NapTakenEvent"
    assert schemas["NapTakenEvent"]["properties"]["data"] == {
        "$ref": "#/components/schemas/NapTakenData"}
    # its data schema is the hand-written part: the check says it is missing
    assert "NapTaken: api_spec.yaml has no components/schemas/NapTakenData" in \
        openapi.check(made, grown, MAX_BATCH)


def test_the_command_checks_and_rewrites_a_copy(tmp_path):
    def paiju(*args):
        return subprocess.run([sys.executable, "-m", "service.cli", *args], capture_output=True,
                              text=True, cwd=SPEC_PATH.parent)

    ok = paiju("spec", "--check")
    assert (ok.returncode, ok.stderr) == (0, ""), ok.stderr
    copy = tmp_path / "api_spec.yaml"
    copy.write_text(TEXT.replace("TeamRegisteredEvent", "TeamRegisteredEvnt"), encoding="utf-8")
    stale = paiju("spec", "--check", "--file", str(copy))
    assert stale.returncode == 1
    assert "the generated block of api_spec.yaml is not what the catalogue makes" in stale.stderr
    fixed = paiju("spec", "--write", "--file", str(copy))
    assert fixed.returncode == 0, fixed.stderr
    assert copy.read_text(encoding="utf-8") == TEXT
    copy.write_text(TEXT.replace(openapi.BEGIN, "    # generated"), encoding="utf-8")
    lost = paiju("spec", "--write", "--file", str(copy))
    assert lost.returncode == 1 and "has no generated block" in lost.stderr
