"""The OpenAPI document (``api_spec.yaml``) for tests: load it once, validate JSON against its
schemas, and check live responses against what the document says of an operation.

    from tests.spec import SPEC, assert_matches, assert_response

    assert_matches("Envelope", body)                 # one named component schema
    assert_response(response, "get", "/v1/tournaments/{tid}")   # status, media type, headers, body

Schemas are validated with JSON Schema draft 2020-12 (the dialect of OpenAPI 3.1) with format
checks on (``uuid``, ``date-time``). ``$ref: '#/components/...'`` resolves against the document.
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import yaml
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

SPEC_PATH = Path(__file__).resolve().parent.parent / "api_spec.yaml"
SPEC: dict = yaml.safe_load(SPEC_PATH.read_text(encoding="utf-8"))

_FORMATS = Draft202012Validator.FORMAT_CHECKER
_JSON_MEDIA_TYPES = ("application/json", "application/problem+json")
_LINE_SCHEMA = "x-paiju-line-schema"


def schema(name: str) -> dict:
    """The component schema ``name`` as a self-contained JSON Schema: the document's
    ``components`` ride along, so every ``#/components/...`` reference resolves."""
    if name not in SPEC["components"]["schemas"]:
        raise KeyError(f"api_spec.yaml has no components/schemas/{name}")
    return _standalone({"$ref": f"#/components/schemas/{name}"})


def _standalone(subschema: dict) -> dict:
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "allOf": [subschema], "components": SPEC["components"]}


def validator_for(subschema: dict) -> Draft202012Validator:
    """A validator for any schema taken from the document (e.g. a request body's ``oneOf``)."""
    return Draft202012Validator(_standalone(subschema), format_checker=_FORMATS)


@lru_cache(maxsize=None)
def _validator_for(name: str) -> Draft202012Validator:
    return Draft202012Validator(schema(name), format_checker=_FORMATS)


def errors(name: str, instance: object) -> list[str]:
    """Every reason ``instance`` does not match the component schema ``name`` (empty: it does)."""
    return _messages(_validator_for(name), instance)


def _messages(validator: Draft202012Validator, instance: object) -> list[str]:
    found = sorted(validator.iter_errors(instance), key=lambda e: list(e.absolute_path))
    return [f"at /{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in found]


def _assert_valid(validator: Draft202012Validator, instance: object, what: str) -> None:
    found = list(validator.iter_errors(instance))
    if found:
        best = best_match(found)
        lines = "\n  ".join(_messages(validator, instance)[:20])
        raise AssertionError(f"{what} does not match the spec: {best.message}\n  {lines}\n"
                             f"instance: {json.dumps(instance, ensure_ascii=False)[:2000]}")


def assert_matches(name: str, instance: object) -> None:
    """Raise AssertionError (with every validation message) unless ``instance`` matches
    ``components/schemas/<name>``."""
    _assert_valid(_validator_for(name), instance, f"components/schemas/{name}")


def is_valid(name: str, instance: object) -> bool:
    return not errors(name, instance)


# --- operations ---------------------------------------------------------------------------

def deref(node: dict) -> dict:
    """Follow an OpenAPI ``$ref`` (responses, parameters, headers) inside this document."""
    while isinstance(node, dict) and "$ref" in node:
        ref = node["$ref"]
        if not ref.startswith("#/"):
            raise ValueError(f"only local references are supported, not {ref}")
        node = SPEC
        for part in ref[2:].split("/"):
            node = node[part.replace("~1", "/").replace("~0", "~")]
    return node


def operation(method: str, path: str) -> dict:
    try:
        return SPEC["paths"][path][method.lower()]
    except KeyError:
        raise AssertionError(f"api_spec.yaml has no operation {method.upper()} {path}") from None


def parameters(method: str, path: str) -> list[dict]:
    """The operation's parameters, path-level ones included (the operation's win)."""
    item = SPEC["paths"][path]
    merged = {}
    for p in map(deref, item.get("parameters", []) + operation(method, path).get("parameters", [])):
        merged[(p["name"], p["in"])] = p
    return list(merged.values())


def response_spec(method: str, path: str, status: int) -> dict:
    responses = operation(method, path)["responses"]
    if str(status) not in responses:
        raise AssertionError(f"{method.upper()} {path} answered {status}, which the spec does not "
                             f"list (it lists {', '.join(sorted(responses))})")
    return deref(responses[str(status)])


def assert_response(response, method: str, path: str) -> object:
    """Check a Flask test response against the spec's operation ``method path``: the status is
    listed, the media type is one the spec gives, required headers are present and every
    documented header matches its schema, and the body matches the schema. Returns the body
    (parsed JSON, or a list of parsed lines for JSON Lines)."""
    spec = response_spec(method, path, response.status_code)
    return _check(response, spec, f"{method.upper()} {path} {response.status_code}")


def assert_component_response(response, name: str) -> object:
    """Like :func:`assert_response`, against ``components/responses/<name>`` (for answers that
    no single operation lists, such as 405 or a 404 for an unknown URL)."""
    return _check(response, SPEC["components"]["responses"][name], f"response {name}")


def _check(response, spec: dict, where: str) -> object:
    content = spec.get("content", {})
    if not content:  # an answer without a body (304 Not Modified)
        if response.get_data():
            raise AssertionError(f"{where}: the spec gives no body, the answer has one")
        _check_headers(response, spec, where)
        return None
    if response.mimetype not in content:
        raise AssertionError(f"{where}: media type {response.mimetype!r} is not one of "
                             f"{sorted(content)}")
    _check_headers(response, spec, where)
    media = content[response.mimetype]
    text = response.get_data(as_text=True)
    if response.mimetype in _JSON_MEDIA_TYPES:
        body = json.loads(text)
        _assert_valid(validator_for(media["schema"]), body, f"{where} body")
        return body
    if _LINE_SCHEMA in media:
        line_validator = validator_for(media[_LINE_SCHEMA])
        if text and not text.endswith("\n"):
            raise AssertionError(f"{where}: the last line does not end with a newline")
        lines = [json.loads(line) for line in text.split("\n")[:-1]]
        for number, line in enumerate(lines, 1):
            _assert_valid(line_validator, line, f"{where} line {number}")
        return lines
    return text


def _check_headers(response, spec: dict, where: str) -> None:
    for name, header in spec.get("headers", {}).items():
        header = deref(header)
        value = response.headers.get(name)
        if value is None:
            if header.get("required"):
                raise AssertionError(f"{where}: required header {name} is missing")
            continue
        _assert_valid(validator_for(header["schema"]), value, f"{where} header {name}")


def marshmallow_accepts(event_type, data) -> bool:
    """Whether the code's schema of ``event_type`` (the catalogue's) accepts ``data``."""
    from marshmallow import ValidationError
    try:
        event_type.load(data)
    except ValidationError:
        return False
    return True
