"""Matches, hands, the bracket and the standings of a tournament: start a match, draw a knockout
round by lots, and read every state as of any position (``?at=``), filtered for who asks (the
bearer token; ``?as=`` narrows it, see service/auth.py)."""
from __future__ import annotations

import random

from flask import Blueprint, jsonify, url_for
from marshmallow import Schema, ValidationError, fields, validate

from events.catalogue import match_stream, tournament_stream
from events.envelope import NO_STREAM, NewEvent
from events.shengji_events import TEAM_KEYS, MatchStartedData
from events.store import WrongExpectedVersion
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
from rules import knockout
from rules.matches import engine_of, team_keys
from rules.messages import Message

from ..appending import append_events
from ..auth import allows, viewer_for
from ..conditional import tag_weakly
from ..problems import Problem, field_errors, rule_refusal, validation_failed
from ..requests import int_arg, json_body, load_body, optional_json_body
from ..schemas import MetaSchema
from . import groups as groups_api
from . import team_event as team_event_api
from .common import (
    DEFAULT_LIMIT,
    created_event,
    domain_errors_as_problems,
    hand_not_dealt,
    max_limit,
    no_match,
    page,
    paged_response,
    read_at,
    request_meta,
    require_tournament,
    services,
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
    s = services()
    t = brackets.tournament_at(s.store, s.catalogue, tid, cache=s.cache)
    with domain_errors_as_problems(lambda _: "/"):
        data = _match_started(s, tid, t, body)
        event = NewEvent(type="MatchStarted", stream=match_stream(tid, body["match_id"]),
                         data=data, expected_version=NO_STREAM, meta=request_meta(body.get("meta")))
        try:
            append_events(s.store, s.catalogue, tid, [event], s.cache)
        except WrongExpectedVersion:
            raise Problem(409, "match-exists", Message("match {match_id!r} has already started",
                                                       match_id=body['match_id'])) from None
    response = jsonify(_match_view(s, tid, body["match_id"], None, Viewer("public")))
    response.status_code = 201
    response.headers["Location"] = url_for(".get_match", tid=tid, mid=body["match_id"])
    return response


def _match_started(s, tid: str, t, body: dict) -> dict:
    players = None
    if t.format == "swiss-teams":  # T-6.4: a table of the team event seats one pair of each
        teams, drawn_round, players = team_event_api.table_start(tid, body["match_id"])
        teams = body.get("teams") or teams
    else:
        teams, drawn_round = _teams_and_round(s, tid, t, body)
    _must_have_team_keys(t.game, teams)
    engine = engine_of(t.game)
    players = players or {side: _players(t, team_id) for side, team_id in teams.items()}
    settings = {**t.settings.get("match", {}), **_drawn_table_settings(tid, t, body),
                **body.get("settings", {})}
    data = {"match_id": body["match_id"], "game": t.game, "teams": teams, "settings": settings,
            "seats": engine.seat_players(players)}
    if drawn_round is not None:
        data["round"] = drawn_round
    try:
        return MatchStartedData().load(data)
    except ValidationError as error:  # the tournament's settings.match are not well formed
        raise validation_failed(field_errors(error.messages)) from None


def _drawn_table_settings(tid: str, t, body: dict) -> dict:
    """What the draw says of a table's settings (a groups tournament's final, T-7.4)."""
    if t.format != "groups":
        return {}
    return groups_api.table_settings(tid, t.game, groups_api.drawn_table(tid, body["match_id"]))


def _teams_and_round(s, tid: str, t, body: dict) -> tuple[dict, int | None]:
    """The match's teams — the request's, else those its draw gave it — and the round or stage
    of that draw (T-2.1; T-8.1: the seats the lots gave a table's players)."""
    match_id, teams = body["match_id"], body.get("teams")
    if t.format == "groups":
        table = groups_api.drawn_table(tid, match_id)
        return teams or table.teams(), table.stage
    if t.format == "knockout":
        if teams is None:
            match = brackets.drawn_match(s.store, s.catalogue, tid, match_id, s.cache)
            return {"A": match.teams[0], "B": match.teams[1]}, match.round
        bracket = brackets.bracket_at(s.store, s.catalogue, tid, cache=s.cache)
        match = bracket.matches.get(match_id) if bracket else None
        return teams, match.round if match else None
    if teams is None:
        raise validation_failed([{"path": "/teams", "message": Message(
            "required: name the teams of sides A and B")}])
    return teams, None


def _must_have_team_keys(game: str, teams: dict) -> None:
    """``teams`` names the game's entrants: sides A and B, or a mahjong table's seats 0-3."""
    keys = team_keys(game)
    if sorted(teams) != sorted(keys):
        raise validation_failed([{"path": "/teams", "message": Message(
            "a {game} match names the teams of {keys}", game=game, keys=", ".join(keys))}])


def _players(t, team_id: str) -> list[str]:
    team = t.team(team_id)
    if team is None:
        raise Problem(422, "rule-violation", rule_refusal("T-1.3", Message(
                          "team {team_id!r} is not an entrant", team_id=team_id)),
                      rule="T-1.3", path="/teams")
    return list(team.players)


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
            "hand_results": url_for("matches.list_hand_results", tid=tid, mid=mid)}
    current = view["current_hand"]
    if not live_shown and current and hand_in_play(folded.state, current["hand"]):
        view["current_hand"] = None  # the public sees finished hands only
    return view


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
            mid, n, url_for(".list_hand_results", tid=tid, mid=mid)))
    view = hand_view(folded.state, n, viewer)
    if view is None:
        raise hand_not_dealt(n, mid, at)
    return jsonify({**view, "match_id": mid, "version": folded.version,
                    "position": folded.position})


@bp.get("/matches/<mid>/clock")
@allows("read")
def get_clock(tid: str, mid: str):
    """The match's clocks as a table clock shows them now: running or paused, and each limit
    running — whose, which rule, its deadline and the seconds left (issue 8; the deadlines are
    the ones the timer fires, derived from the log)."""
    s = services()
    require_tournament(tid)
    folded = load_match(s.store, s.catalogue, tid, mid, None, s.cache)
    if folded.state is None:
        raise no_match(mid, tid)
    view = clock_view(folded, s.timekeeper.now())
    return tag_weakly(jsonify(view), without_countdown(view))


# --- the knockout --------------------------------------------------------------------------

@bp.post("/draws")
@allows("organise")
def draw_round(tid: str):
    """Draws the next knockout round by lots on the server (T-2.1, T-2.2, T-2.3) — with
    ``{"method": "cards"}`` by matching playing cards (T-5.5) — and records the outcome as
    ``LotsDrawn``: replay reads it and never draws again."""
    require_tournament(tid)
    body = load_body(DrawRequest(), optional_json_body())
    if groups_api.plays_in_groups(tid):  # T-8.1: a stage's tables of four
        return groups_api.draw_stage(tid, body)
    if team_event_api.plays_team_event(tid):  # T-6.4: round 1 by lots, later rounds by scores
        return team_event_api.draw_next(tid, body)
    s = services()
    with domain_errors_as_problems(lambda _: "/"):
        bracket = brackets.bracket_for_next_draw(s.store, s.catalogue, tid, s.cache)
        wanted = knockout.next_round(bracket)
        if "round" in body and body["round"] != wanted:
            raise Problem(422, "rule-violation", rule_refusal("T-2.1", Message(
                              "the next round to draw is {wanted}", wanted=wanted)),
                          rule="T-2.1", path="/round")
        # T-5.5 (seed 001): each team draws a card, the two of one rank meet; else plain lots
        propose = knockout.propose_card_draw if body.get("method") == "cards" else \
            knockout.propose_draw
        if propose is knockout.propose_draw:  # T-2.6: absent teams meet present ones
            draw = propose(bracket, random.SystemRandom(),
                           absent=brackets.absent_at_draw(s.store, s.catalogue, tid, s.cache))
        else:
            draw = propose(bracket, random.SystemRandom())
        event = NewEvent(type="LotsDrawn", stream=tournament_stream(tid), data=draw,
                         meta=request_meta(body.get("meta")))
        result = append_events(s.store, s.catalogue, tid, [event], s.cache)
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
    s = services()
    require_tournament(tid)
    if groups_api.plays_in_groups(tid):  # T-8.3: one ranking by coins
        view = groups_api.standings(tid, at)
    elif team_event_api.plays_team_event(tid):  # T-6.8: team scores and tie-breaks
        view = team_event_api.standings(tid, at)
    else:
        view = brackets.standings_view(s.store, s.catalogue, tid, at, s.cache)
    if view is None:
        raise Problem(404, "not-found", Message("no tournament {tid!r} at position {at}",
                                                tid=tid, at=at))
    return team_event_api.standings_csv(view) if as_csv else jsonify(view)
