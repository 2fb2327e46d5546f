"""Errors as RFC 7807 ``application/problem+json``.

Every problem has a stable ``type`` (``urn:paiju:problem:<slug>``), a ``title`` that is the same
for every problem of that type, a ``detail`` for this occurrence, the HTTP ``status``, and
where it helps: ``errors`` (each field at fault with its path), ``rule`` (the rule ID broken),
``current_version`` (the stream's version, on a conflict), ``accept`` (the media types the route
takes, on a 415).
"""
from __future__ import annotations

import logging

from flask import Flask, Response, current_app, request
from werkzeug.exceptions import HTTPException

from events.store import StoreUnavailable
from rules.messages import Message
from rules.rule_titles import title_of

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


def rule_refusal(rule: str, text: Message | str) -> Message:
    """A refusal's detail: ``SJ2-9.2: …`` in English; in Chinese the rule is named in words
    too (``SJ2-9.2（跟牌）：…``), from the section's title (rules/rule_titles.py)."""
    title = title_of(rule)
    # i18n: {rule_name} (the section's name, 跟牌) may be said too, as the Chinese does
    return Message("{rule_}: {message_}", rule_=rule,
                   message_=text if isinstance(text, Message) else Message(text),
                   rule_name=Message(title) if title else rule)


def field_errors(messages, prefix: str = "") -> list[dict]:
    """Marshmallow's nested messages as a flat list of ``{path, message}``, the path a JSON
    Pointer into the request body (``/events/2/data/players/1``)."""
    if isinstance(messages, dict):
        return [e for key, sub in messages.items()
                for e in field_errors(sub, prefix if key == "_schema" else f"{prefix}/{key}")]
    if isinstance(messages, list) and all(isinstance(m, str) for m in messages):
        return [{"path": prefix or "/", "message": m} for m in messages]
    if isinstance(messages, list):
        return [e for m in messages for e in field_errors(m, prefix)]
    return [{"path": prefix or "/", "message": str(messages)}]


def validation_failed(errors: list[dict]) -> Problem:
    where = ", ".join(sorted({e["path"] for e in errors}))
    return Problem(400, "validation-failed", Message("invalid field(s): {where}",
                                                     where=where), errors=errors)


def register(app: Flask) -> None:
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
