"""The Flask application factory."""
from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from flask import Flask, request

from events import default_catalogue
from events.catalogue import Catalogue
from events.store import EventStore
from projections.checkpoints import CheckpointFile
from projections.stream_cache import DEFAULT_BUDGET, StreamCache

from . import conditional, cors, i18n, metrics, problems, request_log
from .api import register_blueprints
from .api.common import Services
from .deployment import checkpoint_file_path, node_file, open_deployment
from .leases import Lease, SoleLease
from .scheduler import TimerService
from .signing import Signer, load_signer
from .subscriptions import Hub
from .timekeeping import Timekeeper
from .tokens import InMemoryTokenRegistry, TokenRegistry
from .visibility import Visibility
from .webhook_delivery import WebhookDelivery
from .webhooks import SQLiteWebhookRegistry, WebhookRegistry

DEFAULTS = {
    "DATABASE": "var/paiju.db",       # a SQLite file, or a postgresql:// URL (service/deployment.py)
    "PG_POOL_SIZE": 20,               # PostgreSQL: connections this node may open
    "SQLITE_SYNCHRONOUS": "FULL",     # durability first; NORMAL trades the last commits for speed
    "SQLITE_MAX_GROUP": 512,          # appends that may share one commit (1: a commit each)
    "MAX_CONTENT_LENGTH": 1024 * 1024,  # bodies over 1 MiB get 413 before they are read
    "MAX_BATCH": 1000,                # events in one atomic batch
    "PAGE_LIMIT_MAX": 1000,           # events or tournaments in one page
    "SIGNING_KEY": None,              # the export key's file; default: beside the database
    "TIMER": False,                   # run the timer (APScheduler) in this process: paiju serve
    "NOW": None,                      # the timer's clock, () -> aware datetime (tests: a fake one)
    "CACHE_BUDGET": DEFAULT_BUDGET,   # events folded into the states kept in memory (heads, checkpoints)
    "CHECKPOINTS": None,              # the checkpoint file; default: beside the database; False: none
    "LIVE_HEARTBEAT_SECONDS": 15,     # a comment line on an idle subscription (proxies close them)
    "LIVE_BUFFER": 2000,              # events a subscriber may fall behind before it is dropped
    "LIVE_POLL_SECONDS": 1.0,         # the fan-out reads the log's end this often, word or not
    "LIVE_TOKEN_RECHECK_SECONDS": 5,  # an open stream's token is looked up again this often
    "CORS_ORIGINS": (),               # other sites whose pages may read the public reads (cors.py)
    "FRAME_ANCESTORS": (),            # other sites that may frame the bracket and standings pages
    "WEBHOOKS_ALLOW_PRIVATE": False,  # webhook URLs on private/loopback/link-local addresses
    "WEBHOOK_DISABLE_AFTER_SECONDS": 3 * 3600,  # a webhook failing this long is disabled
    "WEBHOOK_TIMEOUT_SECONDS": 5.0,   # a receiver's answer is awaited this long
    "LANGUAGE": i18n.DEFAULT_LANGUAGE,  # for a reader who asks for none: zh or en (i18n.py)
    "METRICS_TOKEN": None,            # a bearer token for /metrics besides admin tokens (metrics.py)
}


def create_app(config: dict | None = None, store: EventStore | None = None,
               catalogue: Catalogue | None = None, tokens: TokenRegistry | None = None,
               signer: Signer | None = None) -> Flask:
    """The app on ``store`` (default: the SQLite file ``DATABASE``). Tokens live beside the log:
    in the same file by default, in memory for an app given a store of its own (tests), unless
    ``tokens`` is given. Exports are signed by ``signer``, else the key file ``SIGNING_KEY``
    (default ``paiju-signing.key`` beside the database) if it exists."""
    app = Flask("paiju")
    app.config.update(DEFAULTS)
    app.config.update(config or {})
    clock = app.config.get("CLOCK")  # the time recorded_at takes (default: the system clock)
    owns_store = store is None  # an app given a store (tests) reads no key files either
    lease: Lease = SoleLease()
    webhook_lease: Lease = SoleLease()
    webhooks: WebhookRegistry | None = None
    marks = scan = None  # the timer's quiet marks and start-up reader: the deployment's
    if owns_store:
        deployment = open_deployment(app.config["DATABASE"], app.config, clock)
        store, lease = deployment.store, deployment.lease
        webhooks, webhook_lease = deployment.webhooks, deployment.webhook_lease
        marks, scan = deployment.marks, deployment.scan
        tokens = tokens or deployment.tokens
    # Tokens expire by the real clock: CLOCK is the time the log records (a simulation's may
    # run faster than the table, and moves on with every reading).
    checkpoints = _checkpoint_file(app.config) if owns_store else None
    catalogue = catalogue or default_catalogue()
    cache = StreamCache(app.config["CACHE_BUDGET"], checkpoints)
    timekeeper = Timekeeper(store, catalogue, app.config.get("NOW") or _utc_now, cache, lease,
                            marks, scan)
    visibility = Visibility(store, catalogue, cache)
    webhooks = webhooks or SQLiteWebhookRegistry(":memory:")  # a store of its own: in memory
    app.extensions["paiju"] = Services(
        store=store, catalogue=catalogue, cache=cache, tokens=tokens or InMemoryTokenRegistry(),
        signer=signer or (_signer(app.config) if owns_store else None), timekeeper=timekeeper,
        timer=TimerService(timekeeper) if app.config["TIMER"] else None,
        hub=Hub(store, app.config["LIVE_POLL_SECONDS"], app.config["LIVE_BUFFER"]),
        visibility=visibility, webhooks=webhooks, webhook_delivery=WebhookDelivery(
            webhooks, store, visibility, webhook_lease, app.config.get("NOW") or _utc_now,
            app.config["WEBHOOKS_ALLOW_PRIVATE"], app.config["WEBHOOK_DISABLE_AFTER_SECONDS"],
            app.config["WEBHOOK_TIMEOUT_SECONDS"]))

    request_log.register(app)  # each request's id, log line and metrics (the last after_request)
    metrics.register(app)  # /metrics, and the count of what the store commits (issue 35)

    @app.after_request
    def _options_answer(response):
        if request.method == "OPTIONS" and response.status_code == 200:
            response.status_code = 204  # Flask's automatic answer: the Allow header, no body
            response.set_data(b"")
            del response.headers["Content-Type"]
        return response

    @app.after_request
    def _nudge_the_timer(response):
        timer = app.extensions["paiju"].timer
        if timer is not None and request.method == "POST" and response.status_code < 300:
            timer.nudge()  # an append may have started, moved or ended a deadline
        return response

    i18n.init_app(app)
    problems.register(app)
    conditional.register(app)
    cors.register(app)
    register_blueprints(app)
    return app


def signing_key_path(config: dict) -> Path:
    return Path(config.get("SIGNING_KEY") or node_file(config["DATABASE"], "paiju-signing.key"))


def checkpoint_path(config: dict) -> Path:
    return Path(config.get("CHECKPOINTS") or checkpoint_file_path(config["DATABASE"]))


def _checkpoint_file(config: dict) -> CheckpointFile | None:
    """Checkpoints beside the log (projections/checkpoints.py), unless switched off."""
    return None if config.get("CHECKPOINTS") is False else CheckpointFile(checkpoint_path(config))


def _signer(config: dict) -> Signer | None:
    path = signing_key_path(config)
    return load_signer(path) if path.exists() else None


def _utc_now() -> datetime:
    return datetime.now(timezone.utc)
