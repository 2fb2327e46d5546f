"""Reading a request at the edge: content type, size, UTF-8, JSON, query parameters.

Everything here runs before anything touches the store, and every refusal is a Problem.
"""
from __future__ import annotations

import json
import math
import re

from flask import request
from marshmallow import Schema, ValidationError

from events.envelope import canonical_json
from rules.messages import Message

from .problems import JSON_BODY, Problem, field_errors, validation_failed

MAX_DEPTH = 64  # nesting of arrays and objects in a body; far beyond any real event
MAX_QUERY_INT = 2**63 - 1  # what SQLite can compare with


def json_body() -> object:
    """The request body as JSON: application/json only, UTF-8 only, no duplicate keys."""
    if request.mimetype != "application/json":
        raise Problem(415, "unsupported-media-type",
                      Message("Content-Type must be application/json, not {value}",
                              value=request.mimetype or 'none'), accept=list(JSON_BODY))
    charset = request.mimetype_params.get("charset", "utf-8").lower()
    if charset not in ("utf-8", "utf8"):
        raise Problem(415, "unsupported-media-type",
                      Message("charset must be utf-8, not {charset}", charset=charset),
                      accept=list(JSON_BODY))
    raw = request.get_data(cache=False)  # over MAX_CONTENT_LENGTH: 413 before reading it all
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise Problem(400, "malformed-json", Message(
            "the body is not UTF-8: byte {start} (0x{byte:02x}) is invalid", start=error.start,
            byte=raw[error.start])) from None
    try:
        value = json.loads(text, object_pairs_hook=_unique_keys, parse_constant=_no_constants,
                           parse_int=_whole_number, parse_float=_fraction)
        _check_depth(value)
        _check_numbers(value)
        if "\\u" in text:  # only an escape can make a lone surrogate: the text is UTF-8
            canonical_json(value).encode("utf-8")  # lone surrogates (\ud800) cannot be stored
    except json.JSONDecodeError as error:
        raise Problem(400, "malformed-json", Message(
            "invalid JSON at line {line} column {column}: {error}", line=error.lineno,
            column=error.colno, error=error.msg)) from None
    except (ValueError, UnicodeEncodeError) as error:  # ours (_Refused) or Python's words
        raise Problem(400, "malformed-json", Message("invalid JSON: {error}", error=getattr(
            error, "text", error))) from None
    except RecursionError:
        raise Problem(400, "malformed-json", "invalid JSON: nested too deeply") from None
    return value


def optional_json_body() -> object:
    """The body as JSON, or an empty object when there is none (routes whose every member is
    optional)."""
    return json_body() if request.get_data(cache=True) else {}


def load_body(schema: Schema, body: object) -> dict:
    """``body`` loaded by a marshmallow request schema, or a 400 naming every field at fault."""
    if not isinstance(body, dict):
        raise validation_failed([{"path": "/", "message": Message("must be a JSON object")}])
    try:
        return schema.load(body)
    except ValidationError as error:
        raise validation_failed(field_errors(error.messages)) from None


class _Refused(ValueError):
    """A body this module refuses while parsing it; ``text`` says why."""

    def __init__(self, text: Message):
        self.text = text
        super().__init__(str(text))


def _unique_keys(pairs: list[tuple[str, object]]) -> dict:
    """An object whose key repeats is ambiguous (which value counts?), so it is refused."""
    value = dict(pairs)
    if len(value) != len(pairs):
        seen: set[str] = set()
        duplicate = next(k for k, _ in pairs if k in seen or seen.add(k))
        raise _Refused(Message("the key {key!r} appears twice in one object", key=duplicate))
    return value


def _check_depth(value: object) -> None:
    """Refuse bodies nested deeper than MAX_DEPTH. Without a fixed limit, whether a deep body
    parses depends on the stack at hand: it could be stored, then fail every later read."""
    pending = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, (dict, list)):
            if depth > MAX_DEPTH:
                raise _Refused(Message("nested deeper than {depth} levels", depth=MAX_DEPTH))
            children = item.values() if isinstance(item, dict) else item
            pending.extend((child, depth + 1) for child in children)


def _no_constants(name: str):
    raise _Refused(Message("{name} is not a JSON number", name=name))


MAX_BODY_INT = 2**63 - 1  # the stores keep and compare numbers as 64-bit integers


class _OutOfRange:
    """A number of the body that no store keeps: found by _check_numbers, which names its
    place. (Parsed as it stands, a 4,300-digit integer would fail inside int() with the
    interpreter's words, and 1e400 would become infinity, which JSON cannot write back.)"""

    def __init__(self, text: str):
        self.text = text


def _whole_number(text: str):
    # 19 digits and a sign hold every 64-bit integer; longer texts are never converted
    if len(text.lstrip("-")) > 19 or not -MAX_BODY_INT - 1 <= int(text) <= MAX_BODY_INT:
        return _OutOfRange(text)
    return int(text)


def _fraction(text: str):
    value = float(text)
    return value if math.isfinite(value) else _OutOfRange(text)


def _check_numbers(value: object) -> None:
    """Refuse, at their JSON Pointers, the numbers of the body beyond 64-bit integers."""
    pending, errors = [(value, "")], []
    while pending:
        item, path = pending.pop()
        if isinstance(item, _OutOfRange):
            errors.append({"path": path or "/", "message": Message(
                "the number {number} is out of range: numbers must lie between {low} and "
                "{high}", number=item.text[:20] + ("…" if len(item.text) > 20 else ""),
                low=-MAX_BODY_INT - 1, high=MAX_BODY_INT)})
        elif isinstance(item, dict):
            pending.extend((v, f"{path}/{_pointer(k)}") for k, v in item.items())
        elif isinstance(item, list):
            pending.extend((v, f"{path}/{n}") for n, v in enumerate(item))
    if errors:
        raise validation_failed(sorted(errors, key=lambda e: e["path"]))


def _pointer(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


_WHOLE_NUMBER = re.compile(r"-?[0-9]{1,20}")  # ASCII digits only: str.isdigit() admits '²'


def int_arg(name: str, default: int | None, minimum: int, maximum: int = MAX_QUERY_INT) -> int | None:
    """A whole-number query parameter within bounds, or a 400 naming it."""
    raw = request.args.get(name)
    if raw is None:
        return default
    if not _WHOLE_NUMBER.fullmatch(raw) or not minimum <= int(raw) <= maximum:
        raise _query_error(name, Message("must be a whole number from {minimum} to {maximum}",
                                         minimum=minimum, maximum=maximum))
    return int(raw)


def str_arg(name: str, allowed: tuple[str, ...] | None = None, default: str | None = None) -> str | None:
    value = request.args.get(name, default)
    if value is not None and allowed is not None and value not in allowed:
        raise _query_error(name, Message("must be one of {values}", values=", ".join(allowed)))
    return value


def _query_error(name: str, message: Message) -> Problem:
    return validation_failed([{"path": name, "in": "query", "message": message}])
