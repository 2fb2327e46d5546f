"""Tournaments: create one (it opens the tournament's stream), list them, read one at any
position."""
from __future__ import annotations

from flask import Blueprint, jsonify, url_for
from marshmallow import ValidationError

from events.envelope import new_event_id
from projections.tournaments import tournament_summaries, tournament_view
from rules.messages import Message

from .. import permissions
from ..auth import allows, current_token, forbidden
from ..problems import Problem, field_errors, validation_failed
from ..requests import int_arg, json_body, str_arg
from ..schemas import META
from .common import (
    DEFAULT_LIMIT,
    max_limit,
    page,
    paged_response,
    request_meta,
    services,
    tournaments,
)

bp = Blueprint("tournaments", __name__, url_prefix="/v1/tournaments")


@bp.post("")
@allows("organise")
def create_tournament():
    body = json_body()
    if not isinstance(body, dict):
        raise validation_failed([{"path": "/", "message": Message("must be a JSON object")}])
    s = services()
    event_type = s.catalogue.get("TournamentCreated")
    body = {"tournament_id": new_event_id(), **body}
    meta = body.pop("meta", None)
    errors = []
    try:
        data = event_type.load(body)
    except ValidationError as error:
        errors += field_errors(error.messages)
    try:
        meta = META.load(meta) if meta is not None else None
    except ValidationError as error:
        errors += field_errors(error.messages, "/meta")
    if errors:
        raise validation_failed(errors)
    tid = data["tournament_id"]
    if why := permissions.tournament_denied(current_token(), tid):
        raise forbidden(why)
    tournaments().create_tournament(data, request_meta(meta))
    response = jsonify(tournament_view(s.store, s.catalogue, tid, cache=s.cache))
    response.status_code = 201
    response.headers["Location"] = url_for(".get_tournament", tid=tid)
    return response


@bp.get("")
@allows("read")
def list_tournaments():
    after = int_arg("after", 0, 0)
    limit = int_arg("limit", DEFAULT_LIMIT, 1, max_limit())
    archived = str_arg("archived", ("true", "false"), "false") == "true"
    simulated = str_arg("simulated", ("true", "false"))  # T-1.7: absent, both
    s = services()
    summaries = tournament_summaries(s.store, s.catalogue, after, limit + 1, archived,
                                     None if simulated is None else simulated == "true")
    items, next_url = page(".list_tournaments", summaries, limit, lambda t: t["position"], "after",
                           archived="true" if archived else None, simulated=simulated)
    return paged_response("tournaments", items, next_url)


@bp.get("/<tid>")
@allows("read")
def get_tournament(tid: str):
    at = int_arg("at", None, 0)
    s = services()
    view = tournament_view(s.store, s.catalogue, tid, at, s.cache)
    if view is None:
        if at is None:
            raise Problem(404, "not-found", Message("no tournament {tid!r}", tid=tid))
        raise Problem(404, "not-found", Message("no tournament {tid!r} at position {at}",
                                                tid=tid, at=at))
    return jsonify(view)
