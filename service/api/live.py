"""Live: the log and a match's view pushed as Server-Sent Events as each event commits (issue 18).

``GET …/subscribe`` — every event of the tournament after ``Last-Event-ID`` (or ``?after=``;
none: from the first), filtered by ``stream``, ``type`` and ``match`` (each repeatable, or comma-
separated), as the token may see it (service/visibility.py). ``GET …/matches/{mid}/subscribe``
— the match view as ``GET …/matches/{mid}`` shows it to the token (``?as=`` too): at once, then
after each event that changes it, so a tablet never folds events itself."""
from __future__ import annotations

import re

from flask import Blueprint, Response, current_app, request

from events.catalogue import match_stream
from events.store import StoreUnavailable
from rules.messages import Message

from ..auth import allows, current_token, registry, viewer_for
from ..event_stream import EventStream, compact, frame
from ..problems import validation_failed
from ..subscriptions import Filter, HubClosed
from ..visibility import Reader
from .common import no_match, require_tournament, services
from .matches import _match_view

bp = Blueprint("live", __name__, url_prefix="/v1/tournaments/<tid>")

_POSITION = re.compile(r"[0-9]{1,18}")
STREAM_HEADERS = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}  # proxies: pass it on


@bp.get("/subscribe")
@allows("read")
def subscribe(tid: str):
    require_tournament(tid)
    after = _resume_position()
    errors: list[dict] = []
    filter = Filter(streams=_streams(tid, errors), types=_types(errors))
    if errors:  # every bad filter at once
        raise validation_failed(errors)
    s = services()
    reader = Reader(tid, current_token())
    sub = _subscribe(tid, filter, after)

    def quick(record):  # on serving's event loop: what needs no store or fold (None: it does)
        text = s.visibility.render_quick(record, reader)
        return None if text is None else (text, None)

    return _sse(EventStream(s.hub, sub, lambda r: (s.visibility.render(r, reader), None),
                            current_app.config["LIVE_HEARTBEAT_SECONDS"],
                            still_valid=_token_check(),
                            recheck_seconds=current_app.config["LIVE_TOKEN_RECHECK_SECONDS"],
                            quick=quick))


@bp.get("/matches/<mid>/subscribe")
@allows("read")
def subscribe_match(tid: str, mid: str):
    require_tournament(tid)
    _resume_position()  # checked like the log's; a view stream always starts with the view
    viewer, live_shown = viewer_for(mid)
    s = services()
    if s.store.stream_head(match_stream(tid, mid)) is None:
        raise no_match(mid, tid)
    app, environ = current_app._get_current_object(), dict(request.environ)
    environ.pop("wsgi.input", None)  # the view needs the URL rules, never the body
    sub = _subscribe(tid, Filter(streams=frozenset({match_stream(tid, mid),
                                                    f"tournament-{tid}"})), after=None)
    last = {"text": None}

    def view_at(position: int | None) -> str | None:
        with app.request_context(environ):
            text = compact(_match_view(s, tid, mid, position, viewer, live_shown))
        if text == last["text"]:
            return None  # an event of the tournament that does not touch this match
        last["text"] = text
        return text

    def opening() -> list[bytes]:
        text = view_at(sub.sent)
        return [frame(text, sub.sent, "view")] if text else []

    def render(record):
        text = view_at(record.position)
        return None if text is None else (text, "view")

    return _sse(EventStream(s.hub, sub, render, current_app.config["LIVE_HEARTBEAT_SECONDS"],
                            opening, still_valid=_token_check(),
                            recheck_seconds=current_app.config["LIVE_TOKEN_RECHECK_SECONDS"]))


def _subscribe(tid: str, filter: Filter, after: int | None):
    try:
        return services().hub.subscribe(tid, filter, after)
    except HubClosed as error:  # 503 with Retry-After, as when the store is away: try again
        raise StoreUnavailable(error.args[0]) from None  # its words (a Message)


def _token_check():
    """Why the request's token may no longer read (revoked or expired since the stream opened),
    or None: an open stream asks again every few seconds, as each new request would."""
    token, tokens = current_token(), registry()
    secret = request.headers.get("Authorization", "").strip().partition(" ")[2].strip()
    if token is None:
        return lambda: None

    def why_not() -> str | None:
        now = tokens.lookup(secret)
        if now is None or now.revoked_at:
            return f"token {token.token_id} was revoked; the stream ends"
        if now.expired(tokens.clock()):
            return f"token {token.token_id} expired at {now.expires_at}; the stream ends"
        return None
    return why_not


def _sse(stream: EventStream) -> Response:
    """The stream for any WSGI server; service/serving.py finds it in the environ and serves it
    from its event loop instead of a thread. HEAD: the headers only, and no subscription left."""
    if request.method == "HEAD":
        stream.close()
        return Response(mimetype="text/event-stream", headers=STREAM_HEADERS)
    request.environ["paiju.event_stream"] = stream
    return Response(stream.blocking(), mimetype="text/event-stream", headers=STREAM_HEADERS)


def _resume_position() -> int:
    """Where to resume: ``Last-Event-ID`` (what an EventSource sends when it reconnects) before
    ``?after=``; 0 (the first event) without either."""
    for raw, where, name in ((request.headers.get("Last-Event-ID"), "header", "Last-Event-ID"),
                             (request.args.get("after"), "query", "after")):
        if raw is None:
            continue
        if not _POSITION.fullmatch(raw.strip()):
            raise validation_failed([{"path": name, "in": where, "message": Message(
                "must be a position: a whole number of at most 18 digits, the id of the last "
                "event received")}])
        return int(raw.strip())
    return 0


def _listed(name: str) -> list[str]:
    return [v.strip() for raw in request.args.getlist(name) for v in raw.split(",") if v.strip()]


def _streams(tid: str, errors: list[dict]) -> frozenset[str] | None:
    """The streams named by ``stream`` and ``match``: each must be a stream of this tournament."""
    store = services().store
    wanted = set()
    for name, stream in ([("stream", v) for v in _listed("stream")]
                         + [("match", match_stream(tid, v)) for v in _listed("match")]):
        head = store.stream_head(stream)
        if head is None or head[0] != tid:
            errors.append({"path": name, "in": "query",
                           "message": f"no stream {stream!r} in tournament {tid!r}"})
        wanted.add(stream)
    return frozenset(wanted) or None


def _types(errors: list[dict]) -> frozenset[str] | None:
    known = set(services().catalogue.names())
    wanted = set(_listed("type"))
    if unknown := sorted(wanted - known):
        errors.append({"path": "type", "in": "query",
                       "message": f"unknown event type(s): {', '.join(unknown)}"})
    return frozenset(wanted) or None
