"""Entrants from a spreadsheet: ``POST /v1/tournaments/<tid>/entrants`` with a CSV file
(service/entrants.py) registers every row as one atomic batch of ``TeamRegistered``, or
nothing, with a report of every bad row."""
from __future__ import annotations

from flask import Blueprint, jsonify, request

from rules.messages import Message

from ..auth import allows
from ..problems import CSV_BODY, Problem
from .common import envelopes, request_meta, require_tournament, tournaments

bp = Blueprint("entrants", __name__, url_prefix="/v1/tournaments/<tid>")


@bp.post("/entrants")
@allows("organise")
def import_entrants(tid: str):
    require_tournament(tid)
    if request.mimetype != "text/csv":
        raise Problem(415, "unsupported-media-type",
                      Message("Content-Type must be text/csv, not {value}",
                              value=request.mimetype or 'none'), accept=list(CSV_BODY))
    charset = request.mimetype_params.get("charset", "utf-8").lower()
    if charset not in ("utf-8", "utf8"):
        raise Problem(415, "unsupported-media-type", Message(
            "charset must be utf-8, not {charset}: save the file as CSV UTF-8", charset=charset),
            accept=list(CSV_BODY))
    raw = request.get_data(cache=False)  # over MAX_CONTENT_LENGTH: 413 before reading it all
    source = request.args.get("source")
    meta = request_meta({"source": source[:200]} if source else None)
    found, result = tournaments().import_entrants(tid, raw, meta)
    stored = envelopes(result.records)
    response = jsonify({"registered": len(stored), "rows": [e.row for e in found],
                        "events": stored})
    response.status_code = 201
    return response
