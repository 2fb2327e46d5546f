"""Errors as RFC 7807 ``application/problem+json``.

Every problem has a stable ``type`` (``urn:paiju:problem:<slug>``), a ``title`` that is the same
for every problem of that type, a ``detail`` for this occurrence, the HTTP ``status``, and
where it helps: ``errors`` (each field at fault with its path), ``rule`` (the rule ID broken),
``current_version`` (the stream's version, on a conflict), ``accept`` (the media types the route
takes, on a 415).
"""
from __future__ import annotations

import logging
from collections.abc import Callable

from flask import Flask, Response, current_app, g, request
from werkzeug.exceptions import HTTPException

from events.store import (
    IdempotencyConflict,
    InvalidBatch,
    StoreUnavailable,
    StreamBelongsElsewhere,
    WrongExpectedVersion,
)
from rules import RuleViolation
from rules.messages import Message

from .appending import EventRuleViolation, TournamentNotFound
from .application.errors import (
    Conflict,
    Invalid,
    MatchExists,
    Refusal,
    TournamentExists,
)
from .entrants import EntrantsRefused, report_lines
from .faults import field_errors, rule_refusal  # noqa: F401 - field_errors: the edge's too
from .field_messages import said_in_the_readers_language
from .i18n import N_, say

PROBLEM_TYPE = "urn:paiju:problem:"
MEDIA_TYPE = "application/problem+json"

TITLES = {
    "validation-failed": N_("The request does not match its schema"),
    "malformed-json": N_("The request body is not valid JSON in UTF-8"),
    "not-found": N_("No such resource"),
    "method-not-allowed": N_("Method not allowed on this resource"),
    "version-conflict": N_("The stream is not at the expected version"),
    "idempotency-conflict": N_("The event id is already used for another event"),
    "stream-conflict": N_("The stream belongs to another tournament"),
    "tournament-exists": N_("A tournament with this id already exists"),
    "match-exists": N_("A match with this id has already started"),
    "payload-too-large": N_("The request body is too large"),
    # one title for every route: it names what each accepts; ``accept`` lists this route's
    "unsupported-media-type": N_("The request body must be application/json (text/csv for a "
                                 "file of entrants), in UTF-8"),
    "rule-violation": N_("The event breaks a rule of the game or tournament"),
    "internal-error": N_("Internal server error"),
    "bad-request": N_("Bad request"),
    "unauthorized": N_("A valid bearer token is needed"),
    "forbidden": N_("The token does not allow this"),
    "csrf": N_("A write from a signed-in browser needs its session's CSRF token"),
    "too-many-requests": N_("Too many failed attempts; wait, then try again"),
    "no-signing-key": N_("The deployment has no key to sign exports with"),
    "store-unavailable": N_("The database is unavailable; retry later"),
    "not-ready": N_("This node is not ready to serve; retry later or on another node"),
}

# ``accept`` of a 415: the media types a route takes (Content-Type values)
JSON_BODY = ("application/json",)
CSV_BODY = ("text/csv; charset=utf-8",)

_SLUG_BY_STATUS = {400: "bad-request", 404: "not-found", 405: "method-not-allowed",
                   413: "payload-too-large", 415: "unsupported-media-type"}

log = logging.getLogger("paiju")


class Problem(Exception):
    """A problem to answer; its ``detail`` is a :class:`Message` (or a sentence of the
    catalogue), said with the title in the request's language (service/i18n.py); every other
    field is for machines and the same in every language."""

    def __init__(self, status: int, slug: str, detail: str | Message, **extra):
        super().__init__(str(detail))
        self.status, self.slug, self.extra = status, slug, extra
        self.message = detail
        self.detail = str(detail)  # in English, for logs

    def body(self) -> dict:
        return {"type": PROBLEM_TYPE + self.slug, "title": say(TITLES[self.slug]),
                "status": self.status, "detail": say(self.message), "instance": request.path,
                **_said(self.extra)}

    def response(self) -> Response:
        text = current_app.json.dumps(self.body(), separators=(",", ":"))  # compact, as success
        response = Response(text, status=self.status, mimetype=MEDIA_TYPE)
        if self.status == 405 and "allow" in self.extra:
            response.headers["Allow"] = ", ".join(self.extra["allow"])
        if self.status == 401:  # RFC 6750: how to authenticate
            response.headers["WWW-Authenticate"] = 'Bearer realm="paiju"'
        return response


def _said(value):
    """The extra fields with every message in them said in the request's language (the rows
    of a refused CSV file, say); everything else as it is."""
    if isinstance(value, Message):
        return say(value)
    if isinstance(value, dict):
        return {key: _said(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_said(item) for item in value]
    return value


def validation_failed(errors: list[dict]) -> Problem:
    where = ", ".join(sorted({e["path"] for e in errors}))
    return Problem(400, "validation-failed", Message("invalid field(s): {where}", where=where),
                   errors=said_in_the_readers_language(errors))  # marshmallow's words too


# --- the domain's refusals ---------------------------------------------------------------------
# What the use cases (service/application) and the append path refuse with, each said as one
# problem; nothing was stored in any case.

def name_events(pointer: Callable[[int], str],
                withheld: Callable[[int], bool] | None = None) -> None:
    """How this request's events are named in a refusal: ``pointer(i)``, the JSON Pointer of
    its i-th event (``/events/2`` in a batch; by default ``/``, the body being one event or a
    command); ``withheld(i)``, whether the rules' words on it must be kept from its poster (they
    may name cards or tiles the token may not see: then only the rule is told)."""
    g.paiju_events = (pointer, withheld or (lambda index: False))


def _named_events() -> tuple[Callable[[int], str], Callable[[int], bool]]:
    return g.get("paiju_events") or ((lambda index: "/"), (lambda index: False))


def _rule_violation(error: RuleViolation | EventRuleViolation) -> Problem:
    pointer, withheld = _named_events()
    if isinstance(error, Refusal):  # about one argument of the command
        return Problem(422, "rule-violation", rule_refusal(error.rule, error.text),
                       rule=error.rule, path=f"/{error.argument}")
    if isinstance(error, RuleViolation):  # judged before any event was made
        return Problem(422, "rule-violation", rule_refusal(error.rule, error.text),
                       rule=error.rule, path=pointer(0))
    v = error.violation
    detail = Message("the event breaks {rule_} (the details name what this token may not "
                     "see; a referee's token shows them)", rule_=v.rule) \
        if withheld(error.index) else v.text
    return Problem(422, "rule-violation", rule_refusal(v.rule, detail), rule=v.rule,
                   event_index=error.index, path=error.field or pointer(error.index))


def _conflict(error: Exception) -> Problem:
    if isinstance(error, WrongExpectedVersion):
        return Problem(409, "version-conflict", error.text, stream=error.stream,
                       expected_version=error.expected, current_version=error.current)
    if isinstance(error, IdempotencyConflict):
        return Problem(409, "idempotency-conflict", error.text, event_id=error.event_id)
    if isinstance(error, StreamBelongsElsewhere):
        return Problem(409, "stream-conflict", error.text, stream=error.stream)
    return Problem(409, _CONFLICTS[type(error)], error.text)


_CONFLICTS = {MatchExists: "match-exists", TournamentExists: "tournament-exists"}


def _refused_rows(refused: EntrantsRefused) -> Problem:
    """400 with every fault of a file of entrants: each with its row and column (and the
    rule, where one refuses it), and a JSON-Pointer-like ``path`` /<row>/<column>."""
    errors = [{"path": "/" + "/".join(str(p) for p in (e["row"], e["column"]) if p) if
               (e["row"] or e["column"]) else "/", "in": "csv", **e} for e in refused.errors]
    rows = {e["row"] for e in refused.errors if e["row"]}
    shown = "; ".join(report_lines(refused.errors[:3], say)) + \
        (" …" if len(refused.errors) > 3 else "")
    detail = Message("{count} bad row(s): nothing was stored. {faults}", count=len(rows),
                     faults=shown) if rows else \
        Message("the file cannot be read: nothing was stored. {faults}", faults=shown)
    return Problem(400, "validation-failed", detail, errors=errors)


def domain_problem(error: Exception) -> Problem:
    """The problem a domain error is (one of :data:`DOMAIN_ERRORS`)."""
    if isinstance(error, (RuleViolation, EventRuleViolation)):
        return _rule_violation(error)
    if isinstance(error, TournamentNotFound):
        return Problem(404, "not-found", Message("no tournament {tournament_id!r}",
                                                 tournament_id=error.args[0]))
    if isinstance(error, InvalidBatch):
        return Problem(400, "validation-failed", error.text,
                       errors=[{"path": "/events", "message": error.text}])
    if isinstance(error, Invalid):
        return validation_failed(error.errors)
    if isinstance(error, EntrantsRefused):
        return _refused_rows(error)
    return _conflict(error)


DOMAIN_ERRORS = (RuleViolation, EventRuleViolation, TournamentNotFound, WrongExpectedVersion,
                 IdempotencyConflict, StreamBelongsElsewhere, InvalidBatch, Conflict, Invalid,
                 EntrantsRefused)


def register(app: Flask) -> None:
    for domain_error in DOMAIN_ERRORS:  # whichever route or use case raised it
        app.register_error_handler(domain_error, lambda error: domain_problem(error).response())

    @app.errorhandler(Problem)
    def _problem(problem: Problem):
        return problem.response()

    @app.errorhandler(HTTPException)
    def _http(error: HTTPException):
        slug = _SLUG_BY_STATUS.get(error.code, "bad-request")
        extra = {}
        if error.code == 405:
            extra["allow"] = sorted(getattr(error, "valid_methods", None) or [])
        if error.code == 413:
            extra["limit"] = app.config["MAX_CONTENT_LENGTH"]
        if error.code == 415:
            extra["accept"] = list(JSON_BODY)
        detail = {404: Message("nothing at {path}", path=request.path),
                  405: Message("{method} is not allowed on {path}", method=request.method,
                               path=request.path),
                  413: Message("the body is larger than {limit} bytes",
                               limit=app.config["MAX_CONTENT_LENGTH"])}
        return Problem(error.code or 400, slug, detail.get(error.code, error.description),
                       **extra).response()

    @app.errorhandler(StoreUnavailable)
    def _unavailable(error: StoreUnavailable):
        log.warning("store unavailable on %s %s: %s", request.method, request.path, error)
        response = Problem(503, "store-unavailable", error.text).response()
        response.headers["Retry-After"] = "1"
        return response

    @app.errorhandler(Exception)
    def _unexpected(error: Exception):
        log.exception("unhandled error on %s %s", request.method, request.path)
        return Problem(500, "internal-error", "the server failed; the error is logged").response()
