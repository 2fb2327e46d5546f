"""A browser's session: sign in with a one-time code, see who is signed in, sign out; and the
codes an organiser issues for its referees, committee and tables (service/sessions.py).

The session's secret travels only in the ``paiju_session`` cookie (HttpOnly: no script reads
it; SameSite=Strict: no other site's page sends it; Secure over https); the JSON answers carry
what the page needs instead: the role, the tournament, the end and the CSRF token its writes
send back in ``X-CSRF-Token``."""
from __future__ import annotations

import functools

from flask import Blueprint, Response, current_app, g, jsonify, request
from marshmallow import Schema, fields, validate

from rules.messages import Message

from ..auth import (
    allows,
    bearer_token,
    current_token,
    registry,
    session_ended,
    session_secret,
)
from ..problems import Problem, validation_failed
from ..requests import json_body, load_body, optional_json_body
from ..sessions import (
    API_CODE_ROLES,
    CODE_MINUTES,
    CODE_MINUTES_MAX,
    COOKIE,
    CodeRefused,
    FailureThrottle,
    IssuedCode,
    issue_sign_in_code,
    open_session,
    redeem,
    seconds_left,
    session_body,
)
from ..tokens import Token
from .common import require_tournament

bp = Blueprint("sessions", __name__)
THROTTLE = "paiju.sign_in_throttle"  # the app's FailureThrottle, in app.extensions
NAME_MAX = 100


class SignInSchema(Schema):
    code = fields.String(validate=validate.Length(min=1, max=40))
    tournament_id = fields.String(validate=validate.Length(min=1, max=100))


class CodeRequestSchema(Schema):
    role = fields.String(required=True, validate=validate.OneOf(API_CODE_ROLES))
    name = fields.String(validate=validate.Length(min=1, max=NAME_MAX))
    match_id = fields.String(validate=validate.Length(min=1, max=100))
    seat = fields.Integer(strict=True, validate=validate.Range(min=0, max=3))
    minutes = fields.Integer(strict=True, validate=validate.Range(min=1, max=CODE_MINUTES_MAX))


@bp.record_once
def _throttle(state) -> None:
    state.app.extensions.setdefault(THROTTLE, FailureThrottle())


@bp.after_app_request
def _forget_an_ended_session(response: Response) -> Response:
    """An ended session's cookie is cleared with the answer that found it ended."""
    if g.get("paiju_session_ended") and "paiju_session_set" not in g:
        _clear_cookie(response)
    return response


def _open_to_all(view):
    """Signing in needs no token and no session (the code is the proof): no gate, and the
    browser's old cookie, ended or not, is not judged here."""
    view.paiju_action = "sign-in"
    return view


@bp.post("/v1/sessions")
@_open_to_all
def sign_in():
    """A session for a one-time code (``{"code": "ABCD-EFGH"}``), or for the request's bearer
    token (a page opened with ``#token=``) when the body names no code."""
    throttle, address = current_app.extensions[THROTTLE], request.remote_addr or "-"
    if wait := throttle.wait(address):
        return _too_many(wait)
    body = load_body(SignInSchema(), optional_json_body())
    if "code" in body:
        try:
            grant = redeem(registry(), body["code"], body.get("tournament_id"))
        except CodeRefused as refused:
            if refused.malformed:
                raise validation_failed([{"path": "/code", "message": refused.message}]) \
                    from None
            throttle.failed(address)
            raise Problem(401, "unauthorized", refused.message, path="/code") from None
    else:
        grant = bearer_token()
        if grant is None:
            raise validation_failed([{"path": "/code", "message": Message(
                "a sign-in code is needed (or a bearer token to open a session with)")}])
    _end_the_browsers_session()
    secret, session = open_session(registry(), grant)
    response = jsonify(session_body(session, secret))
    response.status_code = 201
    _set_cookie(response, secret, session)
    return response


def _too_many(wait: int) -> Response:
    problem = Problem(429, "too-many-requests", Message(
        "too many wrong sign-in codes from this address: try again in {seconds} s",
        seconds=wait))
    response = problem.response()
    response.headers["Retry-After"] = str(wait)
    return response


def _end_the_browsers_session() -> None:
    """A browser signing in again leaves no session of its own behind, still valid."""
    old = request.cookies.get(COOKIE)
    found = registry().lookup(old) if old else None
    if found is not None and not found.revoked_at:
        registry().revoke(found.token_id)


def _signed_in(view):
    """Whoever holds a session or a token (any role); the public is told how to sign in."""
    @functools.wraps(view)
    def gated(*args, **kwargs):
        if current_token() is None:
            if g.get("paiju_session_ended"):
                raise session_ended()
            raise Problem(401, "unauthorized", Message(
                "not signed in: sign in with a code (POST /v1/sessions), or send a bearer "
                "token"))
        return view(*args, **kwargs)
    gated.paiju_action = "session"
    return gated


@bp.get("/v1/session")
@_signed_in
def get_session():
    """Who the browser is signed in as (with the CSRF token of its writes), or who the bearer
    token is (``csrf_token`` null: a bearer's writes need none)."""
    response = jsonify(session_body(current_token(), session_secret()))
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.delete("/v1/session")
@_signed_in
def sign_out():
    """The browser's session revoked at once and its cookie cleared. A request with a bearer
    token ends no session (``paiju token revoke`` ends tokens)."""
    if session_secret() is not None:
        registry().revoke(current_token().token_id)
    response = Response(status=204)
    _clear_cookie(response)
    return response


@bp.post("/v1/tournaments/<tid>/sign-in-codes")
@allows("organise")
def issue_code(tid: str):
    """A one-time sign-in code (and its link) for a referee, the committee, a table, a player
    or another organiser of this tournament."""
    require_tournament(tid)
    body = load_body(CodeRequestSchema(), json_body())
    if errors := scope_errors(body):
        raise validation_failed(errors)
    issued = issue_sign_in_code(registry(), body["role"], tid, body.get("name"),
                                body.get("match_id"), body.get("seat"),
                                body.get("minutes", CODE_MINUTES))
    response = jsonify(issued_body(issued, request.host_url))
    response.status_code = 201
    response.headers["Cache-Control"] = "no-store"
    return response


def scope_errors(body: dict) -> list[dict]:
    """What a code's role needs: a table's a match, a player's a match and a seat; the
    officials' neither (they act for the whole tournament)."""
    role, errors = body["role"], []
    needs_match = role in ("table", "player")
    if needs_match and "match_id" not in body:
        errors.append({"path": "/match_id", "message": Message(
            "a {role} code needs match_id", role=role)})
    if not needs_match and "match_id" in body:
        errors.append({"path": "/match_id", "message": Message(
            "a {role} code is not bound to a match", role=role)})
    if role == "player" and "seat" not in body:
        errors.append({"path": "/seat", "message": Message("a player code needs seat")})
    if role != "player" and "seat" in body:
        errors.append({"path": "/seat", "message": Message(
            "a {role} code is not bound to a seat", role=role)})
    return errors


def issued_body(issued: IssuedCode, base_url: str) -> dict:
    token = issued.token
    return {"code": issued.code, "link": issued.link(base_url), "code_id": token.token_id,
            "role": token.role, "tournament_id": token.tournament_id,
            "match_id": token.match_id, "seat": token.seat, "name": token.name,
            "expires_at": token.expires_at}


def _set_cookie(response: Response, secret: str, session: Token) -> None:
    g.paiju_session_set = True
    response.set_cookie(COOKIE, secret, max_age=seconds_left(session, registry().clock()),
                        path="/", secure=request.is_secure, httponly=True, samesite="Strict")
    response.headers["Cache-Control"] = "no-store"


def _clear_cookie(response: Response) -> None:
    response.delete_cookie(COOKIE, path="/", secure=request.is_secure, httponly=True,
                           samesite="Strict")
