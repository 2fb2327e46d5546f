"""Conditional requests on every read (RFC 9110 §8.8.3, §13.1.2) and what may cache them
(RFC 9111 §5.2).

Every successful ``GET`` (and ``HEAD``) answer carries an ``ETag``; a request whose
``If-None-Match`` names it gets ``304 Not Modified`` with no body, so a tablet that polls
pays for a full answer only when something it can see has changed.

The tag is a digest of who is looking (the token's role, tournament, match and seat: the
viewer) and of the answer's bytes. Every read says the position it reflects — a match its
stream's version and global position, a tournament-wide read the positions of what it folds —
so the digest changes exactly when a write changes what this viewer is shown, and a write
elsewhere (another match, another tournament) leaves it as it was. Two answers are tagged
by their routes instead, weakly (``W/``, RFC 9110 §8.8.1: the same in meaning, not byte for
byte): the export, streamed, by the log's head (its manifest's time of export differs from
one download to the next), and a match's clock by what it says less the countdown
(:func:`tag_weakly`): the seconds left move with the time, not with the log.

``Cache-Control``: an answer read with a token is ``private`` (a seat's view is its own), one
read without is ``public``; both ``no-cache``, to be revalidated before each use — cheap, by
the tag. A read ``?at=`` a position the log has already reached never changes (positions
only grow, and a later ruling is a later position): ``immutable`` for a year. A malformed
``If-None-Match`` matches nothing: the full answer, never an error.
"""
from __future__ import annotations

import hashlib
import json

from flask import Flask, Response, current_app, request
from werkzeug.http import parse_etags

from .auth import credentials_sent, current_token
from .headers import vary_on
from .problems import Problem

READS = ("GET", "HEAD")
A_YEAR = 365 * 24 * 3600


def register(app: Flask) -> None:
    app.after_request(conditional)


def conditional(response: Response) -> Response:
    """Tag a successful read, say who may cache it, and answer 304 when the client holds it."""
    asked = request._get_current_object()  # not the proxy: a look-up for each use
    if asked.method not in READS or response.status_code != 200:
        return response
    headers = response.headers
    if "ETag" not in headers and not response.is_streamed:
        response.set_etag(_digest(response.get_data()))
    vary_on(response, "Authorization")
    if "Cache-Control" not in headers:
        headers["Cache-Control"] = _cache_control(asked)
    held = asked.environ.get("HTTP_IF_NONE_MATCH")  # most reads hold none: nothing to parse
    if held is not None:
        etag, _ = response.get_etag()
        if etag is not None and parse_etags(held).contains_weak(etag):
            _not_modified(response)
    return response


def tag_weakly(response: Response, meaning: object) -> Response:
    """Tag ``response`` weakly by ``meaning`` (JSON): what it says less what the passing time
    changes, so that an answer a client holds is good while ``meaning`` stays the same."""
    response.set_etag(_digest(json.dumps(meaning, sort_keys=True).encode()), weak=True)
    return response


def _digest(body: bytes) -> str:
    return hashlib.sha256(_viewer().encode() + b"\n" + body).hexdigest()[:32]


def _viewer() -> str:
    """Who the token says is looking (a route that needs no token may not have checked it:
    a token it cannot read is a viewer of its own, never an error here)."""
    if not credentials_sent():  # a token, or a browser's session cookie
        return "public"
    try:
        token = current_token()
    except Problem:
        return "unrecognised"
    if token is None:  # an ended session: no session, for a read (auth.py)
        return "public"
    return f"{token.role}|{token.tournament_id}|{token.match_id}|{token.seat}"


def _cache_control(asked) -> str:
    who = "private" if credentials_sent() else "public"
    if "at=" in asked.environ.get("QUERY_STRING", "") and \
            _reached_position(asked.args.get("at")):
        return f"{who}, max-age={A_YEAR}, immutable"
    return f"{who}, no-cache"


def _reached_position(at: str | None) -> bool:
    """Whether ``?at=`` names a position the log has already reached (the route has checked
    that it is a whole number, or it would not have answered 200)."""
    if at is None or not at.isdigit():
        return False
    return int(at) <= current_app.extensions["paiju"].store.last_position()


def _not_modified(response: Response) -> None:
    response.status_code = 304
    response.response = []
    for header in ("Content-Type", "Content-Length", "Content-Disposition"):
        response.headers.pop(header, None)
