"""Entrants from a spreadsheet: ``POST /v1/tournaments/<tid>/entrants`` with a CSV file
(service/entrants.py) registers every row as one atomic batch of ``TeamRegistered``, or
nothing, with a report of every bad row."""
from __future__ import annotations

from flask import Blueprint, jsonify, request

from rules.messages import Message

from .. import entrants
from ..auth import allows
from ..i18n import say
from ..problems import CSV_BODY, Problem
from .common import domain_errors_as_problems, envelopes, request_meta, require_tournament, services

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
    s = services()
    source = request.args.get("source")
    meta = request_meta({"source": source[:200]} if source else None)
    try:
        with domain_errors_as_problems(lambda _: "/"):
            found, result = entrants.register(s.store, s.catalogue, tid, raw, meta, s.cache)
    except entrants.EntrantsRefused as refused:
        raise csv_problem(refused) from None
    stored = envelopes(result.records)
    response = jsonify({"registered": len(stored), "rows": [e.row for e in found],
                        "events": stored})
    response.status_code = 201
    return response


def csv_problem(refused: entrants.EntrantsRefused) -> Problem:
    """400 with every fault: each with its row and column (and the rule, where one refuses it),
    and a JSON-Pointer-like ``path`` /<row>/<column>."""
    errors = [{"path": "/" + "/".join(str(p) for p in (e["row"], e["column"]) if p) if
               (e["row"] or e["column"]) else "/", "in": "csv", **e} for e in refused.errors]
    rows = {e["row"] for e in refused.errors if e["row"]}
    shown = "; ".join(entrants.report_lines(refused.errors[:3], say)) + \
        (" …" if len(refused.errors) > 3 else "")
    detail = Message("{count} bad row(s): nothing was stored. {faults}", count=len(rows),
                     faults=shown) if rows else \
        Message("the file cannot be read: nothing was stored. {faults}", faults=shown)
    return Problem(400, "validation-failed", detail, errors=errors)
