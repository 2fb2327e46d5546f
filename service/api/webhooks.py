"""Webhooks of a tournament, so that another system learns of each event without polling: an
organiser registers a URL, filters and gets a secret, shown once; the deliveries read shows
every attempt; redeliver sets the cursor back (service/webhooks.py keeps them,
service/webhook_delivery.py delivers)."""
from __future__ import annotations

from flask import Blueprint, current_app, jsonify, url_for
from marshmallow import Schema, ValidationError, fields, validate, validates

from events.catalogue import match_stream_prefix
from rules.match_clock import timestamp
from rules.messages import Message

from ..auth import allows
from ..problems import Problem, validation_failed
from ..requests import int_arg, json_body, load_body, optional_json_body
from ..webhooks import URL_MAX, Webhook, url_problem
from .common import max_limit, require_tournament, services

bp = Blueprint("webhooks", __name__, url_prefix="/v1/tournaments/<tid>/webhooks")

NAMES_MAX = 100  # types or streams in one filter


class WebhookRequestSchema(Schema):
    url = fields.String(required=True, validate=validate.Length(min=1, max=URL_MAX))
    types = fields.List(fields.String(validate=validate.Length(min=1, max=100)),
                        validate=validate.Length(min=1, max=NAMES_MAX))
    streams = fields.List(fields.String(validate=validate.Length(min=1, max=300)),
                          validate=validate.Length(min=1, max=NAMES_MAX))
    after = fields.Integer(strict=True, validate=validate.Range(min=0, max=2**63 - 1))

    @validates("url")
    def _address(self, url: str, **_) -> None:
        if len(url) <= URL_MAX and (why := url_problem(
                url, current_app.config["WEBHOOKS_ALLOW_PRIVATE"])):
            raise ValidationError(why)

    @validates("types")
    def _types(self, types: list[str], **_) -> None:
        if unknown := sorted(set(types) - set(services().catalogue.names())):
            raise ValidationError(f"unknown event type(s): {', '.join(unknown)}")


class RedeliverRequestSchema(Schema):
    after = fields.Integer(required=True, strict=True,
                           validate=validate.Range(min=0, max=2**63 - 1))


class DisableRequestSchema(Schema):
    reason = fields.String(validate=validate.Length(min=1, max=500))


@bp.post("")
@allows("webhooks")
def create_webhook(tid: str):
    require_tournament(tid)
    body = load_body(WebhookRequestSchema(), json_body())
    s = services()
    if streams := body.get("streams"):
        _check_streams(tid, streams)
    # without ``after``: the events from now on (a webhook is not a way to read the history;
    # ``after: 0`` asks for it)
    head = s.store.tournament_head(tid)
    cursor = body["after"] if "after" in body else (head[0] if head else 0)
    secret, hook = s.webhooks.create(tid, body["url"], body.get("types"), streams, cursor,
                                     timestamp(s.webhook_delivery.now()))
    s.webhook_delivery.wake()
    response = jsonify({**hook.public(), "secret": secret})
    response.status_code = 201
    response.headers["Location"] = url_for("webhooks.get_webhook", tid=tid,
                                           webhook_id=hook.webhook_id)
    return response


@bp.get("")
@allows("webhooks")
def list_webhooks(tid: str):
    require_tournament(tid)
    return jsonify({"webhooks": [h.public() for h in services().webhooks.of_tournament(tid)]})


@bp.get("/<webhook_id>")
@allows("webhooks")
def get_webhook(tid: str, webhook_id: str):
    return jsonify(_webhook(tid, webhook_id).public())


@bp.get("/<webhook_id>/deliveries")
@allows("webhooks")
def list_deliveries(tid: str, webhook_id: str):
    """The attempts in the order they were made, a page at a time (``after``: the ``seq`` of
    the last one read)."""
    limit = int_arg("limit", 100, 1, max_limit())
    after = int_arg("after", 0, 0)
    hook = _webhook(tid, webhook_id)
    found = services().webhooks.deliveries(hook.webhook_id, after, limit + 1)
    items = found[:limit]
    next_url = url_for("webhooks.list_deliveries", tid=tid, webhook_id=webhook_id,
                       after=items[-1].seq, limit=limit) if len(found) > limit else None
    return jsonify({"webhook": hook.public(),
                    "deliveries": [{"seq": a.seq, **a.public()} for a in items],
                    "next": next_url})


@bp.post("/<webhook_id>/redeliver")
@allows("webhooks")
def redeliver(tid: str, webhook_id: str):
    hook = _webhook(tid, webhook_id)
    body = load_body(RedeliverRequestSchema(), json_body())
    return jsonify(services().webhook_delivery.redeliver(hook, body["after"]).public())


@bp.post("/<webhook_id>/disable")
@allows("webhooks")
def disable(tid: str, webhook_id: str):
    hook = _webhook(tid, webhook_id)
    body = load_body(DisableRequestSchema(), optional_json_body())
    reason = body.get("reason") or "disabled by request"
    return jsonify(services().webhook_delivery.disable(hook, reason).public())


def _webhook(tid: str, webhook_id: str) -> Webhook:
    require_tournament(tid)
    hook = services().webhooks.get(tid, webhook_id)
    if hook is None:
        raise Problem(404, "not-found", Message("no webhook {webhook_id!r} in tournament "
                                                "{tid!r}",
                                                webhook_id=webhook_id, tid=tid))
    return hook


def _check_streams(tid: str, streams: list[str]) -> None:
    """Each stream must be the tournament's own or one of its matches' (a match not started
    yet too: a webhook may wait for it)."""
    errors = [{"path": f"/streams/{n}", "message": f"{stream!r} is not a stream of tournament "
                                                   f"{tid!r} (tournament-{tid} or "
                                                   f"{match_stream_prefix(tid)}<match>)"}
              for n, stream in enumerate(streams)
              if stream != f"tournament-{tid}" and not (
                  stream.startswith(match_stream_prefix(tid))
                  and len(stream) > len(match_stream_prefix(tid)))]
    if errors:
        raise validation_failed(errors)
