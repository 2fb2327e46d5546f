"""The log of one tournament: post events, read them back, verify the chain, export it."""
from __future__ import annotations

from flask import Blueprint, Response, current_app, jsonify, url_for
from marshmallow import ValidationError

from events.catalogue import UnknownEventType
from events.envelope import NewEvent, utc_timestamp
from events.export_file import FORMATS, export_lines
from rules.messages import Message

from ..auth import allows, details_withheld, require_event
from ..problems import Problem, field_errors, name_events, validation_failed
from ..requests import int_arg, json_body, str_arg
from ..schemas import EVENT_REQUEST, batch_schema
from ..version import VERSION
from .common import (
    DEFAULT_LIMIT,
    envelopes,
    max_limit,
    page,
    paged_response,
    request_meta,
    require_tournament,
    services,
    tournaments,
)

bp = Blueprint("events", __name__, url_prefix="/v1/tournaments/<tid>")


@bp.post("/events")
@allows("post-events")
def post_events(tid: str):
    body = json_body()
    events, batch = _parse_events(tid, body)
    for index, event in enumerate(events):  # who may post what: after the shape, before rules
        require_event(tid, event.type, event.stream, event.data,
                      f"/events/{index}" if batch else "/")
    name_events(lambda i: f"/events/{i}" if batch else "/",
                lambda i: details_withheld(events[i]))
    result = tournaments().post_events(tid, events)
    stored = envelopes(result.records)
    response = jsonify({"events": stored} if batch else stored[0])
    response.status_code = 201 if result.created else 200
    if result.created and not batch:
        response.headers["Location"] = url_for(".get_event", tid=tid, event_id=stored[0]["id"])
    return response


def _parse_events(tid: str, body: object) -> tuple[list[NewEvent], bool]:
    """The body as events: one event object, or ``{"events": [...]}`` for an atomic batch.
    Every fault of every event is reported at once, each with its path."""
    if not isinstance(body, dict):
        # a message without blanks keeps its braces as they are
        raise validation_failed([{"path": "/", "message": Message(
            'must be an event object or {"events": [...]}')}])
    batch = "events" in body
    if batch:
        try:
            items = batch_schema(current_app.config["MAX_BATCH"]).load(body)["events"]
        except ValidationError as error:
            raise validation_failed(field_errors(error.messages)) from None
    else:
        items = [body]
    errors, events = [], []
    for index, item in enumerate(items):
        event = _event(tid, item, f"/events/{index}" if batch else "", errors)
        if event is not None:
            events.append(event)
    if errors:
        raise validation_failed(errors)
    return events, batch


def _event(tid: str, raw: dict, prefix: str, errors: list) -> NewEvent | None:
    """One event checked against the envelope schema and its type's data schema; its faults
    go to ``errors``."""
    before = len(errors)
    try:
        item = EVENT_REQUEST.load(raw)
    except ValidationError as error:
        errors.extend(field_errors(error.messages, prefix))
        item = error.valid_data  # still check the data of a known type, to report all at once
    catalogue = services().catalogue
    if "type" not in item:
        return None
    try:
        event_type = catalogue.get(item["type"])
    except UnknownEventType:
        errors.append({"path": f"{prefix}/type", "message": _unknown_type(item["type"])})
        return None
    if not event_type.postable:
        errors.append({"path": f"{prefix}/type", "message": Message(
            "{event_type} is recorded by the backend, not posted", event_type=event_type.name)})
    if "stream" in item and (stream_error := event_type.stream_refusal(item["stream"], tid)):
        errors.append({"path": f"{prefix}/stream", "message": stream_error})
    data = None
    if "data" in item:
        try:
            data = event_type.load(item["data"])
        except ValidationError as error:
            errors.extend(field_errors(error.messages, f"{prefix}/data"))
    if len(errors) > before:
        return None
    return NewEvent(type=event_type.name, stream=item["stream"], data=data, id=item.get("id"),
                    expected_version=item.get("expected_version"),
                    meta=request_meta(item.get("meta")), schema_version=event_type.schema_version)


def _unknown_type(name: str) -> Message:
    catalogue = services().catalogue
    if name in catalogue.derived:
        return Message("{name} is a derived fact: the backend computes it from the log and shows "
                       "it at {where}; it cannot be posted", name=name,
                       where=catalogue.derived[name])
    return Message("unknown event type {name!r}; known: {known}", name=name,
                   known=", ".join(catalogue.names()))


@bp.get("/events")
@allows("read-log")
def list_events(tid: str):
    after = int_arg("after", 0, 0)
    limit = int_arg("limit", DEFAULT_LIMIT, 1, max_limit())
    stream, type_ = str_arg("stream"), str_arg("type")
    require_tournament(tid)
    records = services().store.read_tournament(tid, after, limit + 1, stream=stream, type=type_)
    items, next_url = page(".list_events", records, limit, lambda r: r.position, "after",
                           tid=tid, stream=stream, type=type_)
    return paged_response("events", envelopes(items), next_url)


@bp.get("/events/<event_id>")
@allows("read-log")
def get_event(tid: str, event_id: str):
    record = services().store.get(event_id)
    if record is None or record.tournament_id != tid:
        raise Problem(404, "not-found", Message("no event {event_id!r} in tournament {tid!r}",
                                                event_id=event_id, tid=tid))
    return jsonify(record.to_dict())


@bp.get("/streams/<stream>")
@allows("read-log")
def read_stream(tid: str, stream: str):
    from_version = int_arg("from_version", 1, 1)
    limit = int_arg("limit", DEFAULT_LIMIT, 1, max_limit())
    store = services().store
    head = store.stream_head(stream)
    if head is None or head[0] != tid:
        raise Problem(404, "not-found", Message("no stream {stream!r} in tournament {tid!r}",
                                                stream=stream, tid=tid))
    records = store.read_stream(stream, from_version, limit + 1)
    items, next_url = page(".read_stream", records, limit, lambda r: r.version + 1,
                           "from_version", tid=tid, stream=stream)
    return paged_response("events", envelopes(items), next_url,
                          stream=stream, tournament_id=tid, version=head[1])


@bp.get("/verify")
@allows("verify")
def verify(tid: str):
    require_tournament(tid)
    return jsonify(services().store.verify(tid).to_dict())


@bp.get("/export")
@allows("export")
def export(tid: str):
    """The log as it stood when the request arrived, streamed, closed by the manifest signed
    with the deployment's key (events/export_file.py). The headers name its last event, so a
    file cut short in transit is told from a complete one before it is even verified."""
    fmt = str_arg("format", FORMATS, "jsonl")
    s = services()
    if s.signer is None:
        raise Problem(503, "no-signing-key", "this deployment has no export key yet: "
                                             "run `paiju keys init`")
    head = s.store.tournament_head(tid)
    if head is None:
        raise Problem(404, "not-found", Message("no tournament {tid!r}",
                                                tid=tid))
    position, last_hash = head
    records = s.store.read_tournament(tid, until_position=position)
    lines = export_lines(records, fmt, tid, utc_timestamp(), VERSION, s.signer.sign)
    response = Response(lines, mimetype=EXPORT_MEDIA_TYPES[fmt], headers={
        "Content-Disposition": f'attachment; filename="paiju-{tid}.{fmt}"',
        "X-Paiju-Last-Position": str(position), "X-Paiju-Last-Hash": last_hash})
    # weak: the same log, but each download's manifest has its own time of export
    response.set_etag(f"{position}-{last_hash[:32]}-{fmt}", weak=True)
    return response


EXPORT_MEDIA_TYPES = {"jsonl": "application/x-ndjson", "csv": "text/csv"}
