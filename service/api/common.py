"""What every blueprint shares: the services of the app (the use cases among them: the
application, service/application), paging, and the answers that name what was not found."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from flask import Response, current_app, jsonify, request, url_for

from events.catalogue import Catalogue
from events.envelope import Record
from events.store import AppendResult, EventStore
from projections.streams import StreamCache
from projections.tournaments import tournament_exists
from rules.messages import Message

from ..application import Tournaments
from ..auth import request_actor
from ..problems import Problem
from ..requests import int_arg
from ..scheduler import TimerService
from ..signing import Signer
from ..subscriptions import Hub
from ..timekeeping import Timekeeper
from ..tokens import TokenRegistry
from ..visibility import Visibility
from ..webhook_delivery import WebhookDelivery
from ..webhooks import WebhookRegistry

DEFAULT_LIMIT = 100


@dataclass(frozen=True)
class Services:
    store: EventStore
    catalogue: Catalogue
    cache: StreamCache
    tokens: TokenRegistry
    signer: Signer | None  # None: this deployment has no export key yet
    timekeeper: Timekeeper  # the deadlines; fires them when a TimerService runs it
    timer: TimerService | None = None  # the APScheduler wiring, in a process that fires
    hub: Hub | None = None  # the node's fan-out to its subscribers (service/subscriptions.py)
    visibility: Visibility | None = None  # what each token may see of an event
    webhooks: WebhookRegistry | None = None  # the tournaments' webhooks (service/webhooks.py)
    webhook_delivery: WebhookDelivery | None = None  # delivers them; paiju serve runs it
    # tournaments found in the log: one that exists always will (nothing is ever deleted)
    known_tournaments: set[str] = field(default_factory=set)
    # the use cases (None: the timer's, which holds the same store, catalogue, cache and clock)
    tournaments: Tournaments | None = None

    def __post_init__(self) -> None:
        if self.tournaments is None:  # one application object for the routes and the timer
            object.__setattr__(self, "tournaments", self.timekeeper.tournaments)


def services() -> Services:
    return current_app.extensions["paiju"]


def tournaments() -> Tournaments:
    """The application: every command a route makes goes through it."""
    return services().tournaments


def require_tournament(tournament_id: str) -> None:
    known = services().known_tournaments
    if tournament_id in known:
        return
    if not tournament_exists(services().store, tournament_id):
        raise Problem(404, "not-found", Message("no tournament {tournament_id!r}",
                                                tournament_id=tournament_id))
    known.add(tournament_id)


def read_at(tid: str, read) -> Response:
    """A tournament-wide read (``read(log, catalogue, tid, at, cache)``) as of ``?at=``; 404
    when the tournament is not there at that position."""
    at = int_arg("at", None, 0)
    s = services()
    require_tournament(tid)
    view = read(s.store, s.catalogue, tid, at, s.cache)
    if view is None:
        raise Problem(404, "not-found", Message("no tournament {tid!r} at position {at}",
                                                tid=tid, at=at))
    return jsonify(view)


def max_limit() -> int:
    return current_app.config["PAGE_LIMIT_MAX"]


def page(endpoint: str, records: Iterable, limit: int, key, key_arg: str, **args):
    """One page as a list and the URL of the next one (None on the last page). ``records`` must
    hold up to ``limit + 1`` items: the extra one only tells that there is more."""
    items = list(records)
    more = len(items) > limit
    items = items[:limit]
    next_url = None
    if more:
        query = {k: v for k, v in args.items() if v is not None}
        next_url = url_for(endpoint, **query, **{key_arg: key(items[-1]), "limit": limit})
    return items, next_url


def paged_response(name: str, items: list, next_url: str | None, **fields):
    response = jsonify({**fields, name: items, "next": next_url})
    if next_url:
        response.headers["Link"] = f'<{next_url}>; rel="next"'
    return response


def envelopes(records: Iterable[Record]) -> list[dict]:
    return [r.to_dict() for r in records]


def created_event(tid: str, result: AppendResult) -> Response:
    """201 with the one event a route recorded (a draw by lots), and where it can be read."""
    stored = envelopes(result.records)[0]
    response = jsonify(stored)
    response.status_code = 201
    response.headers["Location"] = url_for("events.get_event", tid=tid, event_id=stored["id"])
    return response


def no_match(mid: str, tid: str, at: int | None = None) -> Problem:
    """404: no match ``mid`` in the tournament (as of position ``at``)."""
    if at is None:
        return Problem(404, "not-found", Message("no match {mid!r} in tournament {tid!r}",
                                                 mid=mid, tid=tid))
    return Problem(404, "not-found", Message("no match {mid!r} in tournament {tid!r} at "
                                             "position {at}", mid=mid, tid=tid, at=at))


def hand_not_dealt(n: int, mid: str, at: int | None = None) -> Problem:
    """404: hand ``n`` of match ``mid`` not dealt (as of position ``at``)."""
    if at is None:
        return Problem(404, "not-found", Message("hand {n} of match {mid!r} has not been dealt",
                                                 n=n, mid=mid))
    return Problem(404, "not-found", Message("hand {n} of match {mid!r} has not been dealt at "
                                             "position {at}", n=n, mid=mid, at=at))


def request_meta(given: dict | None) -> dict:
    """The envelope's meta: the request's correlation id, what the client says of its app
    (``source``, its own correlation), and who posted it — from the bearer token."""
    return {"correlation_id": request.environ["paiju.request_id"], **(given or {}),
            **request_actor()}
