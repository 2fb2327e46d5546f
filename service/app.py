"""The Flask application factory."""
from __future__ import annotations

from flask import Flask, request

from events import default_catalogue
from events.catalogue import Catalogue
from events.envelope import new_event_id
from events.sqlite_store import SQLiteEventStore
from events.store import EventStore
from projections.streams import StreamCache

from . import problems
from .api import events, groups, health, matches, tournaments
from .api.common import Services

DEFAULTS = {
    "DATABASE": "var/paiju.db",
    "SQLITE_SYNCHRONOUS": "FULL",     # durability first; NORMAL trades the last commits for speed
    "SQLITE_MAX_GROUP": 512,          # appends that may share one commit (1: a commit each)
    "MAX_CONTENT_LENGTH": 1024 * 1024,  # bodies over 1 MiB get 413 before they are read
    "MAX_BATCH": 1000,                # events in one atomic batch
    "PAGE_LIMIT_MAX": 1000,           # events or tournaments in one page
}


def create_app(config: dict | None = None, store: EventStore | None = None,
               catalogue: Catalogue | None = None) -> Flask:
    app = Flask("paiju")
    app.config.update(DEFAULTS)
    app.config.update(config or {})
    app.json.ensure_ascii = False  # names in Chinese stay readable
    if store is None:  # CLOCK: the time recorded_at takes (default: the system clock)
        store = SQLiteEventStore(app.config["DATABASE"], app.config["SQLITE_SYNCHRONOUS"],
                                 app.config["SQLITE_MAX_GROUP"], app.config.get("CLOCK"))
    app.extensions["paiju"] = Services(store=store, catalogue=catalogue or default_catalogue(),
                                        cache=StreamCache())

    @app.before_request
    def _request_id():
        request.environ["paiju.request_id"] = new_event_id()

    @app.after_request
    def _echo_request_id(response):
        response.headers["X-Request-Id"] = request.environ.get("paiju.request_id", "")
        if request.method == "OPTIONS" and response.status_code == 200:
            response.status_code = 204  # Flask's automatic answer: the Allow header, no body
            response.set_data(b"")
            del response.headers["Content-Type"]
        return response

    problems.register(app)
    for blueprint in (tournaments.bp, events.bp, matches.bp, groups.bp, health.bp):
        app.register_blueprint(blueprint)
    return app
