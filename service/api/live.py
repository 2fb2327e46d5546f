"""Live: the log and a match's view pushed as Server-Sent Events as each event commits.

``GET …/subscribe`` — every event of the tournament after ``Last-Event-ID`` (or ``?after=``;
none: from the first), filtered by ``stream``, ``type`` and ``match`` (each repeatable, or comma-
separated), as the token may see it (service/visibility.py). ``GET …/matches/{mid}/subscribe``
— the match view as ``GET …/matches/{mid}`` shows it to the token (``?as=`` too): at once, then
after each event that changes it, so a tablet never folds events itself. A view stream always
starts with the view as it is now, whatever ``Last-Event-ID`` it brings (stale, or another
match's): a tablet that reconnects is shown the table as it stands.

Each event is rendered once for each class of reader that follows it, before its subscribers
are woken (service/subscriptions.py: ``prepare``); every subscriber then sends that frame from
the event loop. A match view is made from the node's live state of the match: a tournament
event, which never changes it, sends nothing and costs nothing."""
from __future__ import annotations

import re

from flask import Blueprint, Response, current_app, request

from events.catalogue import match_stream
from events.store import StoreUnavailable
from rules.messages import Message

from ..auth import allows, current_token, registry, session_secret, viewer_for
from ..event_stream import NOT_HERE, EventStream, compact, frame
from ..i18n import catalogue, language
from ..problems import validation_failed
from ..subscriptions import Filter, HubClosed
from ..tokens import NotHeld
from ..visibility import Reader, Seen
from .common import no_match, require_tournament, services
from .matches import _match_view, hand_results_url

bp = Blueprint("live", __name__, url_prefix="/v1/tournaments/<tid>")

_POSITION = re.compile(r"[0-9]{1,18}")
STREAM_HEADERS = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}  # proxies: pass it on
# A subscriber of the log gets every event it follows: after a write it lets this long pass, so
# that a busy hall's events reach it a few to a write (a match view's tablet, whose match moves
# every second or two, sends each at once). A board of the whole hall waits longer: a write a
# quarter of a second carries a 50-table hall's eight moves, where one every 50 ms carried one
# or two, and the board's reader does not see the difference; a subscriber that follows some
# streams (a table's, ``?match=``) is a table's device, and hears each move within 50 ms.
LOG_GATHER_SECONDS = 0.05
HALL_GATHER_SECONDS = 0.25


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

    if s.cache.live:  # made once per event for every reader who sees the same
        sub.prepare = (("log", tid, reader.key), lambda r: s.visibility.render(r, reader))
    return _sse(EventStream(s.hub, sub, lambda r: (s.visibility.render(r, reader), None),
                            current_app.config["LIVE_HEARTBEAT_SECONDS"],
                            **_token_checks(),
                            recheck_seconds=current_app.config["LIVE_TOKEN_RECHECK_SECONDS"],
                            quick=quick, gather_seconds=_gather_seconds(filter),
                            gettext=_readers_gettext()))


def _gather_seconds(filter: Filter) -> float:
    """How long a log stream lets pass after a write: longer for a board of the whole hall."""
    return HALL_GATHER_SECONDS if filter.streams is None else LOG_GATHER_SECONDS


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

    def render(record):  # the live state switched off: each stream folds and renders its own
        text = view_at(record.position)
        return None if text is None else (text, "view")

    quick = None
    if s.cache.live:
        render, quick = _shared_views(sub, tid, mid, viewer, live_shown)
    return _sse(EventStream(s.hub, sub, render, current_app.config["LIVE_HEARTBEAT_SECONDS"],
                            opening, **_token_checks(),
                            recheck_seconds=current_app.config["LIVE_TOKEN_RECHECK_SECONDS"],
                            quick=quick, gettext=_readers_gettext()))


def _shared_views(sub, tid: str, mid: str, viewer, live_shown: bool):
    """(render, quick) of a match view stream from the views made once per event and class
    (service/visibility.py: MatchViews), which the fan-out prepares before it wakes the stream;
    an event of another stream (the tournament's) leaves the view as it was: nothing is sent."""
    views, stream = services().visibility.views, match_stream(tid, mid)
    seen = Seen(viewer, live_shown, hand_results_url(tid, mid))

    def render(record):
        return views.frame(record, tid, mid, seen) if record.stream == stream else b""

    def quick(record):  # on serving's event loop: None if the view is not made yet
        return views.quick(record, seen) if record.stream == stream else b""

    sub.prepare = (("view", stream, seen), render)
    return render, quick


def _subscribe(tid: str, filter: Filter, after: int | None):
    try:
        return services().hub.subscribe(tid, filter, after)
    except HubClosed as error:  # 503 with Retry-After, as when the store is away: try again
        raise StoreUnavailable(error.args[0]) from None  # its words (a Message)


def _readers_gettext():
    """The catalogue of this request's language, kept for the stream's own words: its frames
    are written after the request has gone, where no language can be asked."""
    return catalogue(language()).gettext


def _token_checks() -> dict:
    """``still_valid`` and ``still_valid_quick`` of an EventStream: why the request's token may
    no longer read (revoked or expired since the stream opened), or None — an open stream asks
    again every few seconds, as each new request would; the quick one on the event loop, from
    the tokens the node holds in memory (``NOT_HERE`` where that would read the table)."""
    token, tokens = current_token(), registry()
    # the bearer token's secret, or the session cookie's (a desk page's stream)
    secret = session_secret() or \
        request.headers.get("Authorization", "").strip().partition(" ")[2].strip()
    if token is None:
        return {"still_valid": lambda: None, "still_valid_quick": lambda: None}

    def quick() -> object:
        try:
            return why_not(tokens.held(secret))
        except NotHeld:
            return NOT_HERE

    def why_not(now) -> Message | None:
        if now is None or now.revoked_at:
            return Message("token {token_id} was revoked; the stream ends",
                           token_id=token.token_id)
        if now.expired(tokens.clock()):
            return Message("token {token_id} expired at {expires_at}; the stream ends",
                           token_id=token.token_id, expires_at=now.expires_at)
        return None
    return {"still_valid": lambda: why_not(tokens.lookup(secret)), "still_valid_quick": quick}


def _watch_token(stream: EventStream) -> None:
    """An idle stream learns at once that its token was revoked or expired: the registry
    tells it (service/token_cache.py sees it within a second), and it asks again then."""
    token = current_token()
    if token is not None:
        stream.add_closer(registry().watch(
            lambda ids: token.token_id in ids and stream.recheck_now()))


def _sse(stream: EventStream) -> Response:
    """The stream for any WSGI server; service/serving.py finds it in the environ and serves it
    from its event loop instead of a thread. HEAD: the headers only, and no subscription left."""
    if request.method == "HEAD":
        stream.close()
        return Response(mimetype="text/event-stream", headers=STREAM_HEADERS)
    _watch_token(stream)
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
