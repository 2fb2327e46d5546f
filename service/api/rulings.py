"""The rule committee's desk (T-1.5: what the rules do not say, the committee rules): the
disputes and rulings of a tournament, the preview of a proposed ruling (what recording it would
change, appending nothing), and the difference of a match or hand between two positions.

Disputes and rulings themselves are events, posted like any other to ``POST …/events``
(``DisputeRaised``, ``DisputeResolved``, ``RulingRecorded``)."""
from __future__ import annotations

from flask import Blueprint, jsonify
from marshmallow import Schema, ValidationError, fields

from events.catalogue import match_stream, match_stream_prefix
from events.envelope import NewEvent
from projections import rulings
from projections.streams import stream_kind
from rules.messages import Message

from ..auth import allows, current_token, viewer_for
from ..i18n import said
from ..permissions import OFFICIALS
from ..problems import Problem, field_errors, validation_failed
from ..requests import int_arg, json_body, load_body, str_arg
from ..schemas import MetaSchema
from .common import (
    no_match,
    request_meta,
    require_tournament,
    services,
    tournaments,
)

bp = Blueprint("rulings", __name__, url_prefix="/v1/tournaments/<tid>")


class PreviewRequest(Schema):
    """A proposed ``RulingRecorded``: the stream it would be posted to and its data."""
    stream = fields.String(required=True)
    data = fields.Dict(required=True, keys=fields.String())
    meta = fields.Nested(MetaSchema, allow_none=True)


@bp.get("/disputes")
@allows("read")
def get_disputes(tid: str):
    """The tournament's disputes (T-1.5) in the order raised: what each is about, the claim,
    who raised it, and its resolution — the ruling that settled it, or no change. A claim may
    name cards held: while the hand (or match) it names is in play it is an official's to
    read."""
    at = int_arg("at", None, 0)
    s = services()
    require_tournament(tid)
    return jsonify(rulings.disputes_view(s.store, s.catalogue, tid, at, s.cache, _official()))


@bp.get("/rulings")
@allows("read")
def get_rulings(tid: str):
    """The rulings that shaped the tournament's state (``?match=``: one match's), with their
    effects, the disputes they answer, the events they edited and what became of them. The
    data of a substituted event and the words of a fault (either may name cards still held)
    are an official's to see."""
    at = int_arg("at", None, 0)
    match_id = str_arg("match")
    s = services()
    require_tournament(tid)
    if match_id is not None and s.store.stream_head(match_stream(tid, match_id)) is None:
        raise no_match(match_id, tid)
    return jsonify(rulings.rulings_view(s.store, s.catalogue, tid, match_id, at, s.cache,
                                        _official()))


def _official() -> bool:
    """Whether the reader is an official (who sees what a table may not)."""
    token = current_token()
    return token is not None and token.role in OFFICIALS


@bp.post("/rulings/preview")
@allows("rule")
def preview_ruling(tid: str):
    """What recording a ruling would change: judged exactly as ``POST …/events`` would judge
    it (the same 4xx), then every projection it touches read before and after from the log
    with the proposed event laid over it — the match and its hands, the bracket or groups or
    rounds, and the standings. Nothing is appended."""
    require_tournament(tid)
    body = load_body(PreviewRequest(), json_body())
    s = services()
    event = _proposed(tid, body)
    preview = tournaments().preview_ruling(tid, event)
    record = preview.record
    names, changed = _compared(s, tid, event.stream, preview.before, preview.after)
    touched = {c["projection"] for c in changed}
    return jsonify({"stream": record.stream, "position": record.position,
                    "version": record.version, "recorded_at": record.recorded_at,
                    "ruling": {"type": record.type, "stream": record.stream,
                               "data": record.data_dict},
                    "projections": changed,
                    "unchanged": sorted(set(names) - touched)})


def _proposed(tid: str, body: dict) -> NewEvent:
    """The body as the RulingRecorded event POST …/events would append (400 as it would)."""
    event_type = services().catalogue.get("RulingRecorded")
    errors = []
    if stream_error := event_type.stream_refusal(body["stream"], tid):
        errors.append({"path": "/stream", "message": stream_error})
    try:
        data = event_type.load(body["data"])
    except ValidationError as error:
        errors += field_errors(error.messages, "/data")
    if errors:
        raise validation_failed(errors)
    return NewEvent(type=event_type.name, stream=body["stream"], data=data,
                    meta=request_meta(body.get("meta")), schema_version=event_type.schema_version)


def _compared(s, tid: str, stream: str, before_log, after_log) -> tuple[list[str], list[dict]]:
    """The projections the ruling may touch (their names) and those it changes, each read
    before (the store, its cache) and after (the overlay, folded afresh: nothing of it enters
    the cache)."""
    pairs = []  # (name, before, after, where)
    if stream_kind(stream) == "match":
        mid = stream[len(match_stream_prefix(tid)):]
        viewer, live_shown = viewer_for(mid)
        before = rulings.match_views(before_log, s.catalogue, tid, mid, viewer, live_shown,
                                     cache=s.cache) or {"match": None, "hands": {}}
        after = rulings.match_views(after_log, s.catalogue, tid, mid, viewer, live_shown)
        pairs.append(("match", before["match"], after["match"], {"match_id": mid}))
        for n in sorted(set(before["hands"]) | set(after["hands"])):
            pairs.append(("hand", before["hands"].get(n), after["hands"].get(n),
                          {"match_id": mid, "hand": n}))
    before = rulings.tournament_views(before_log, s.catalogue, tid, cache=s.cache)
    after = rulings.tournament_views(after_log, s.catalogue, tid)
    pairs += [(name, before.get(name), after.get(name), {})
              for name in sorted(set(before) | set(after))]
    changed = [rulings.compared(name, said(old), said(new), **where)
               for name, old, new, where in pairs]
    return sorted({name for name, *_ in pairs} - {"hand"}), [c for c in changed if c]


@bp.get("/matches/<mid>/diff")
@allows("read")
def get_match_diff(tid: str, mid: str):
    """The structured difference of a match (``?hand=n``: of one hand) between two positions
    ``from`` (default 0: before the match) and ``to`` (default: now), as the reader may see
    it: each member that differs, by its JSON Pointer, with its value before and after."""
    start, end = int_arg("from", 0, 0), int_arg("to", None, 0)
    number = int_arg("hand", None, 1)
    viewer, live_shown = viewer_for(mid)
    s = services()
    require_tournament(tid)
    before = rulings.match_views(s.store, s.catalogue, tid, mid, viewer, live_shown, start)
    after = rulings.match_views(s.store, s.catalogue, tid, mid, viewer, live_shown, end)
    if after is None:
        raise no_match(mid, tid, end)
    body = {"match_id": mid, "from": start, "to": after["match"]["position"] if end is None
            else end}
    if number is None:
        old, new = (before or {}).get("match"), after["match"]
    else:
        old, new = _hand_pair(before, after, number, live_shown, mid, end)
        body["hand"] = number
    old, new = said(old), said(new)
    return jsonify({**body, "before": old, "after": new, "changes": rulings.diff(old, new)})


def _hand_pair(before: dict | None, after: dict, number: int, live_shown: bool, mid: str,
               end: int) -> tuple:
    old = (before or {"hands": {}})["hands"].get(number)
    new = after["hands"].get(number)
    if new is None and not live_shown:
        raise Problem(401, "unauthorized", Message("hand {number} of match {mid!r} is in play "
                                                   "or not dealt: the public sees finished "
                                                   "hands only; a token is needed",
                                                   number=number, mid=mid))
    if new is None:
        raise Problem(404, "not-found", Message("hand {n} of match {mid!r} has not been dealt "
                                                "at position {at}", n=number, mid=mid, at=end))
    return old, new
