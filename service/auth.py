"""The request's bearer token, and the gate every route passes.

Every route declares its action with :func:`allows`; the gate runs before the route's body, so a
refused request touches nothing. 401: no token where one is needed, or a malformed, unknown,
revoked or expired one (a bad token is never treated as no token). 403: a valid token outside
its role or scope. Both are problem+json.

A browser signed in at the desk sends no Authorization header: its session cookie names its
token instead (service/sessions.py). A write so authenticated must carry the session's
``X-CSRF-Token`` (else 403 ``csrf``, before anything is read or stored). An ended session is
no session (401 where one is needed) and its cookie is cleared. A request with an
Authorization header is judged by it alone.
"""
from __future__ import annotations

import functools

from flask import current_app, g, request

from events.envelope import NewEvent
from projections.viewers import VIEWERS, Viewer
from rules.messages import Message

from . import permissions
from .problems import Problem, validation_failed
from .sessions import COOKIE, CSRF_HEADER, csrf_matches
from .tokens import Token, TokenRegistry

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def registry() -> TokenRegistry:
    return current_app.extensions["paiju"].tokens


def current_token() -> Token | None:
    """The request's token: the Authorization header's, else the session cookie's (a browser
    signed in at the desk, service/sessions.py); None without either (the public)."""
    if "paiju_token" not in g:
        header = request.environ.get("HTTP_AUTHORIZATION")
        cookie = _session_cookie() if header is None else None
        g.paiju_token = _from_cookie(cookie) if cookie else _authenticate(header)
    return g.paiju_token


def bearer_token() -> Token | None:
    """The Authorization header's token alone (a session cookie not considered)."""
    return _authenticate(request.headers.get("Authorization"))


def session_secret() -> str | None:
    """The secret of the session cookie that authenticated the request, if one did."""
    current_token()
    return g.get("paiju_session_secret")


def credentials_sent() -> bool:
    """Whether the request carries a token or a session: what it is shown may be its own."""
    environ = request.environ
    return "HTTP_AUTHORIZATION" in environ or ("HTTP_COOKIE" in environ and
                                               COOKIE in request.cookies)


def _session_cookie() -> str | None:
    """The session cookie's secret, if the request brings one. The cookies are parsed only
    when a browser sent some: a tablet's or an app's request has none, and does not pay for
    parsing them (a few µs at every request)."""
    return request.cookies.get(COOKIE) if "HTTP_COOKIE" in request.environ else None


def _from_cookie(secret: str) -> Token | None:
    """The cookie's session. An ended one (expired, revoked, signed out) is cleared from the
    browser (service/api/sessions.py) and is no session: a read gets what the public may read
    (a browser sends its cookies unasked: a page of the public must not break because a desk
    session ended in the same browser), anything else is 401. A write needs the session's CSRF
    token, which a page of another site cannot learn: a forged request stores nothing."""
    token = registry().lookup(secret)
    if token is None or token.revoked_at or token.expired(registry().clock()):
        g.paiju_session_ended = True
        if request.method in SAFE_METHODS:
            return None
        raise session_ended()
    if request.method not in SAFE_METHODS:
        given = request.headers.get(CSRF_HEADER)
        if given is None:
            raise Problem(403, "csrf", Message("a write from a signed-in browser needs the "
                                               "X-CSRF-Token header (GET /v1/session gives it)"))
        if not csrf_matches(secret, given):
            raise Problem(403, "csrf", Message("the X-CSRF-Token header is not this session's"))
    g.paiju_session_secret = secret
    return token


def _a_browsers_public_read(action: str) -> bool:
    """A read anyone may make, by a browser whose session is another tournament's: its cookie
    goes with every request, unasked, so the other tournament's pages read as the public's."""
    return permissions.ACTIONS[action] is None and request.method in SAFE_METHODS and \
        g.get("paiju_session_secret") is not None


def session_ended() -> Problem:
    return _unauthorized(Message("the session has ended (signed out, or expired): sign in again"))


def _authenticate(header: str | None) -> Token | None:
    if header is None:
        return None
    scheme, _, secret = header.strip().partition(" ")
    if scheme.lower() != "bearer" or not secret.strip():
        raise _unauthorized(Message("the Authorization header must be 'Bearer <token>'"))
    token = registry().lookup(secret.strip())
    if token is None:
        raise _unauthorized(Message("the bearer token is malformed or unknown"))
    if token.revoked_at:
        raise _unauthorized(Message("token {token_id} was revoked at {revoked_at}",
                                    token_id=token.token_id, revoked_at=token.revoked_at))
    if token.expired(registry().clock()):
        raise _unauthorized(Message("token {token_id} expired at {expires_at}",
                                    token_id=token.token_id, expires_at=token.expires_at))
    return token


def _unauthorized(detail: Message) -> Problem:
    return Problem(401, "unauthorized", detail)


def forbidden(detail: Message) -> Problem:
    return Problem(403, "forbidden", detail)


def allows(action: str):
    """Declare a route's action and check it first: the token's tournament (from the route's
    ``tid``) and its role. ``action`` is a key of :data:`permissions.ACTIONS`."""
    if action not in permissions.ACTIONS:
        raise ValueError(f"unknown action {action!r}")

    def decorate(view):
        @functools.wraps(view)
        def gated(*args, **kwargs):
            require(action, kwargs.get("tid"))
            return view(*args, **kwargs)
        gated.paiju_action = action
        return gated
    return decorate


def require(action: str, tournament_id: str | None = None) -> Token | None:
    token = current_token()
    if tournament_id is not None and (why := permissions.tournament_denied(token, tournament_id)):
        if not _a_browsers_public_read(action):
            raise forbidden(why)
        token = g.paiju_token = None  # this request goes on as the public's
        g.pop("paiju_session_secret", None)
    if why := permissions.action_denied(token, action):
        if token is None:
            if g.get("paiju_session_ended"):
                raise session_ended()
            raise _unauthorized(Message("a bearer token is needed: {why}", why=why))
        raise forbidden(why)
    return token


def require_event(tournament_id: str, event_type: str, stream: str, data: dict,
                  path: str) -> None:
    token = current_token()
    if token is None:
        raise _unauthorized(Message("posting events needs a bearer token"))
    if why := permissions.event_denied(token, tournament_id, event_type, stream, data):
        raise Problem(403, "forbidden", why, path=path)


def details_withheld(event: NewEvent) -> bool:
    """Whether the rules' words on ``event`` must be kept from its poster: at a table they may
    name what a seat holds, which only officials and that seat's own player may see."""
    token = current_token()
    if not event.stream.startswith("match-") or token.role in permissions.OFFICIALS:
        return False
    return token.seat is None or event.data.get("seat") != token.seat


def request_actor() -> dict:
    """What goes into an event's meta about who posted it: from the token, never the body."""
    token = current_token()
    actor = {"actor": token.actor, "role": token.role, "token_id": token.token_id}
    if token.seat is not None:
        actor["seat"] = token.seat
    return actor


def natural_viewer(token: Token | None, match_id: str | None) -> Viewer:
    """Who ``token`` sees match ``match_id`` as: officials every card, a player its own seat in
    its own match, everyone else what the table shows (the reads and the subscriptions)."""
    if token is None:
        return Viewer("public")
    if token.role in permissions.OFFICIALS:
        return Viewer(token.role if token.role in VIEWERS else "referee")
    if token.role == "player" and token.match_id == match_id:
        return Viewer("seat", token.seat)
    return Viewer("public")


def viewer_for(match_id: str | None) -> tuple[Viewer, bool]:
    """Who the request sees a match as, and whether a hand in play is shown to it at all.

    Officials see every card; a player its own seat in its own match; everyone else what the
    table shows. ``?as=`` narrows that (an official checking what seat 2 saw), never widens it.
    The public (no token) sees finished hands only."""
    token = current_token()
    natural = natural_viewer(token, match_id)
    wanted = request.args.get("as")
    if wanted is None:
        return natural, token is not None
    if wanted not in VIEWERS:
        raise validation_failed([{"path": "as", "in": "query", "message": Message(
            "must be one of {values}", values=", ".join(VIEWERS))}])
    asked = Viewer.parse(wanted)
    if asked != natural and not natural.privileged and asked != Viewer("public"):
        if token is None:
            raise _unauthorized(Message("looking as {asked} needs an official's token",
                                        asked=str(asked)))
        raise forbidden(Message("a {natural} viewer cannot look as {asked}",
                                natural=str(natural), asked=str(asked)))
    return asked, token is not None
