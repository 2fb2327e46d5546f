"""Errors as RFC 7807 ``application/problem+json``.

Every problem has a stable ``type`` (``urn:paiju:problem:<slug>``), a ``title`` that is the same
for every problem of that type, a ``detail`` for this occurrence, the HTTP ``status``, and
where it helps: ``errors`` (each field at fault with its path), ``rule`` (the rule ID broken),
``current_version`` (the stream's version, on a conflict).
"""
from __future__ import annotations

import logging

from flask import Flask, Response, current_app, request
from werkzeug.exceptions import HTTPException

from events.store import StoreUnavailable

PROBLEM_TYPE = "urn:paiju:problem:"
MEDIA_TYPE = "application/problem+json"

TITLES = {
    "validation-failed": "The request does not match its schema",
    "malformed-json": "The request body is not valid JSON in UTF-8",
    "not-found": "No such resource",
    "method-not-allowed": "Method not allowed on this resource",
    "version-conflict": "The stream is not at the expected version",
    "idempotency-conflict": "The event id is already used for another event",
    "stream-conflict": "The stream belongs to another tournament",
    "tournament-exists": "A tournament with this id already exists",
    "match-exists": "A match with this id has already started",
    "payload-too-large": "The request body is too large",
    "unsupported-media-type": "The request body must be application/json",
    "rule-violation": "The event breaks a rule of the game or tournament",
    "internal-error": "Internal server error",
    "bad-request": "Bad request",
    "unauthorized": "A valid bearer token is needed",
    "forbidden": "The token does not allow this",
    "no-signing-key": "The deployment has no key to sign exports with",
    "store-unavailable": "The database is unavailable; retry later",
}

_SLUG_BY_STATUS = {400: "bad-request", 404: "not-found", 405: "method-not-allowed",
                   413: "payload-too-large", 415: "unsupported-media-type"}

log = logging.getLogger("paiju")


class Problem(Exception):
    def __init__(self, status: int, slug: str, detail: str, **extra):
        super().__init__(detail)
        self.status, self.slug, self.detail, self.extra = status, slug, detail, extra

    def body(self) -> dict:
        return {"type": PROBLEM_TYPE + self.slug, "title": TITLES[self.slug],
                "status": self.status, "detail": self.detail, "instance": request.path,
                **self.extra}

    def response(self) -> Response:
        text = current_app.json.dumps(self.body(), separators=(",", ":"))  # compact, as success
        response = Response(text, status=self.status, mimetype=MEDIA_TYPE)
        if self.status == 405 and "allow" in self.extra:
            response.headers["Allow"] = ", ".join(self.extra["allow"])
        if self.status == 401:  # RFC 6750: how to authenticate
            response.headers["WWW-Authenticate"] = 'Bearer realm="paiju"'
        return response


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
    return Problem(400, "validation-failed", f"invalid field(s): {where}", errors=errors)


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
        detail = {404: f"nothing at {request.path}",
                  405: f"{request.method} is not allowed on {request.path}",
                  413: f"the body is larger than {app.config['MAX_CONTENT_LENGTH']} bytes"}
        return Problem(error.code or 400, slug, detail.get(error.code, error.description),
                       **extra).response()

    @app.errorhandler(StoreUnavailable)
    def _unavailable(error: StoreUnavailable):
        log.warning("store unavailable on %s %s: %s", request.method, request.path, error)
        response = Problem(503, "store-unavailable", str(error)).response()
        response.headers["Retry-After"] = "1"
        return response

    @app.errorhandler(Exception)
    def _unexpected(error: Exception):
        log.exception("unhandled error on %s %s", request.method, request.path)
        return Problem(500, "internal-error", "the server failed; the error is logged").response()
