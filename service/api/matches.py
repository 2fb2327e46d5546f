"""Matches, hands, the bracket and the standings of a tournament: start a match, draw a knockout
round by lots, and read every state as of any position (``?at=``), filtered for who asks (the
bearer token; ``?as=`` narrows it, see service/auth.py)."""
from __future__ import annotations

from functools import lru_cache

from flask import Blueprint, jsonify, request, url_for
from marshmallow import Schema, fields, validate

from events.catalogue import match_stream
from events.shengji_events import TEAM_KEYS
from events.tournament_events import IDENTIFIER, MATCH_ID
from projections import brackets
from projections.deadlines import clock_view, without_countdown
from projections.matches import (
    Viewer,
    folded_view,
    hand_in_play,
    hand_results,
    hand_view,
    load_match,
    no_card_record,
    recorded_by_sheet,
    summary,
)
from rules.messages import Message

from ..auth import allows, viewer_for
from ..conditional import tag_weakly
from ..problems import Problem
from ..requests import int_arg, json_body, load_body, optional_json_body
from ..schemas import MetaSchema
from . import team_event as team_event_api
from .common import (
    DEFAULT_LIMIT,
    created_event,
    hand_not_dealt,
    max_limit,
    no_match,
    page,
    paged_response,
    read_at,
    request_meta,
    require_tournament,
    services,
    tournaments,
)

bp = Blueprint("matches", __name__, url_prefix="/v1/tournaments/<tid>")

class StartMatchRequest(Schema):
    match_id = fields.String(required=True, validate=MATCH_ID)
    teams = fields.Dict(keys=fields.String(validate=validate.OneOf(TEAM_KEYS)),
                        values=fields.String(validate=IDENTIFIER), validate=validate.Length(min=2, max=4))
    settings = fields.Dict(keys=fields.String(validate=validate.Length(min=1, max=100)))
    meta = fields.Nested(MetaSchema, allow_none=True)


DRAW_METHODS = ("lots", "cards")  # T-2.1 lots; T-5.5 matching playing cards


class DrawRequest(Schema):
    round = fields.Integer(strict=True, validate=validate.Range(min=1, max=64))
    method = fields.String(validate=validate.OneOf(DRAW_METHODS))
    meta = fields.Nested(MetaSchema, allow_none=True)


# --- matches -----------------------------------------------------------------------------------

@bp.post("/matches")
@allows("organise")
def start_match(tid: str):
    """MatchStarted, made from the draw (which teams, side A = first drawn), the teams' players
    (side A at seats 0 and 2, side B at 1 and 3, SJ2-1.2) and the settings: the tournament's
    ``settings.match`` overridden by the request's."""
    require_tournament(tid)
    body = load_body(StartMatchRequest(), json_body())
    tournaments().start_match(tid, body["match_id"], body.get("teams"), body.get("settings"),
                              request_meta(body.get("meta")))
    s = services()
    response = jsonify(_match_view(s, tid, body["match_id"], None, Viewer("public")))
    response.status_code = 201
    response.headers["Location"] = url_for(".get_match", tid=tid, mid=body["match_id"])
    return response


@bp.get("/matches")
@allows("read")
def list_matches(tid: str):
    """The matches started in the tournament, in order of start (as of ``at``)."""
    at = int_arg("at", None, 0)
    s = services()
    require_tournament(tid)
    started = s.store.read_tournament(tid, type="MatchStarted", until_position=at)
    items = []
    for record in started:
        data = s.catalogue.upcast(record)
        state = load_match(s.store, s.catalogue, tid, data["match_id"], at, s.cache).state
        items.append({**summary(state), "stream": record.stream})
    return jsonify({"matches": items})


def _match_view(s, tid: str, mid: str, at: int | None, viewer: Viewer,
                live_shown: bool = True) -> dict:
    folded = load_match(s.store, s.catalogue, tid, mid, at, s.cache)
    if folded.state is None:
        raise no_match(mid, tid, at)
    view = {**folded_view(folded, viewer), "stream": match_stream(tid, mid),
            "hand_results": hand_results_url(tid, mid)}
    current = view["current_hand"]
    if not live_shown and current and hand_in_play(folded.state, current["hand"]):
        view["current_hand"] = None  # the public sees finished hands only
    return view


def hand_results_url(tid: str, mid: str) -> str:
    """Where a match's finished hands are read (``GET …/matches/{mid}/hands``): in every match
    read, kept per match (building it from the route each time was a tenth of the read's own
    work)."""
    return _hand_results_url(request.script_root, tid, mid)


@lru_cache(maxsize=4096)
def _hand_results_url(script_root: str, tid: str, mid: str) -> str:
    return url_for("matches.list_hand_results", tid=tid, mid=mid)


@bp.get("/matches/<mid>")
@allows("read")
def get_match(tid: str, mid: str):
    at = int_arg("at", None, 0)
    viewer, live_shown = viewer_for(mid)
    s = services()
    require_tournament(tid)
    return jsonify(_match_view(s, tid, mid, at, viewer, live_shown))


@bp.get("/matches/<mid>/hands")
@allows("read")
def list_hand_results(tid: str, mid: str):
    """The result rows of the match's finished hands, paged by hand number (``after``: the
    last hand of the page before; ``limit``), as of ``?at=``: the history that the match read
    leaves out, so that its size does not grow with the match."""
    at = int_arg("at", None, 0)
    after = int_arg("after", 0, 0)
    limit = int_arg("limit", DEFAULT_LIMIT, 1, max_limit())
    s = services()
    require_tournament(tid)
    folded = load_match(s.store, s.catalogue, tid, mid, at, s.cache)
    if folded.state is None:
        raise no_match(mid, tid, at)
    rows, next_url = page(".list_hand_results", hand_results(folded.state, after, limit + 1),
                          limit, lambda row: row["hand"], "after", tid=tid, mid=mid, at=at)
    # no version nor position: the rows change when a hand ends, not with every move
    return paged_response("hands", rows, next_url, match_id=mid, game=folded.state.game)


@bp.get("/matches/<mid>/hands/<int:n>")
@allows("read")
def get_hand(tid: str, mid: str, n: int):
    at = int_arg("at", None, 0)
    viewer, live_shown = viewer_for(mid)
    s = services()
    require_tournament(tid)
    folded = load_match(s.store, s.catalogue, tid, mid, at, s.cache)
    if folded.state is None:
        raise no_match(mid, tid)
    if not live_shown and hand_in_play(folded.state, n):
        raise Problem(401, "unauthorized", Message("hand {n} of match {mid!r} is in play: the "
                                                   "public sees finished hands only; a token "
                                                   "is needed",
                                                   n=n, mid=mid))
    if recorded_by_sheet(folded.state, n):
        raise Problem(404, "not-found", no_card_record(
            mid, n, hand_results_url(tid, mid)))
    view = hand_view(folded.state, n, viewer)
    if view is None:
        raise hand_not_dealt(n, mid, at)
    return jsonify({**view, "match_id": mid, "version": folded.version,
                    "position": folded.position})


@bp.get("/matches/<mid>/clock")
@allows("read")
def get_clock(tid: str, mid: str):
    """The match's clocks as a table clock shows them now: running or paused, and each limit
    running — whose, which rule, its deadline and the seconds left (the deadlines are the ones
    the timer fires, derived from the log: the clock a table shows is the one it is judged
    by)."""
    s = services()
    require_tournament(tid)
    folded = load_match(s.store, s.catalogue, tid, mid, None, s.cache)
    if folded.state is None:
        raise no_match(mid, tid)
    view = clock_view(folded, s.timekeeper.now())
    return tag_weakly(jsonify(view), without_countdown(view))


# --- draws, the bracket, the standings ------------------------------------------------------

@bp.post("/draws")
@allows("organise")
def draw_round(tid: str):
    """Draws the next round on the server as the format draws it — a knockout round by lots
    (T-2.1, T-2.2, T-2.3) or, with ``{"method": "cards"}``, by matching playing cards (T-5.5);
    a groups stage's tables (T-8.1); a team event's next round (T-6.4) — and records the
    outcome as ``LotsDrawn``: replay reads it and never draws again."""
    require_tournament(tid)
    body = load_body(DrawRequest(), optional_json_body())
    result = tournaments().draw(tid, body.get("round"), body.get("method"),
                                request_meta(body.get("meta")))
    return created_event(tid, result)


@bp.get("/bracket")
@allows("read")
def get_bracket(tid: str):
    return read_at(tid, brackets.bracket_view)


@bp.get("/standings")
@allows("read")
def get_standings(tid: str):
    at = int_arg("at", None, 0)
    as_csv = team_event_api.wants_csv()  # ?format=csv or Accept: text/csv, for printing
    require_tournament(tid)
    view = tournaments().standings(tid, at)  # by coins, by team score, or by places
    if view is None:
        raise Problem(404, "not-found", Message("no tournament {tid!r} at position {at}",
                                                tid=tid, at=at))
    return team_event_api.standings_csv(view) if as_csv else jsonify(view)
