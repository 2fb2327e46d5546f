"""The Flask application factory: a deployment is its storage (the log, tokens, webhooks,
leases, checkpoints, the export key), the event catalogue, the stream cache, the timer, the
fan-out to subscribers, webhook delivery, and the blueprints of its routes."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from flask import Flask, current_app, request

from events import default_catalogue
from events.catalogue import Catalogue
from events.store import EventStore
from projections.checkpoints import CheckpointFile
from projections.quiet_marks import QuietMarks
from projections.stream_cache import DEFAULT_BUDGET, StreamCache
from projections.streams import keep_live

from . import conditional, cors, i18n, metrics, problems, request_log
from .api import register_blueprints
from .api.common import Services
from .application import Tournaments
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
    "LIVE_STATE": None,               # keep each match's live state (None: PAIJU_LIVE_STATE, on)
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
    app = _flask(config)
    storage = _storage(app.config, store, tokens, signer)
    catalogue = catalogue or default_catalogue()
    cache = StreamCache(app.config["CACHE_BUDGET"], storage.checkpoints,
                        live=app.config["LIVE_STATE"])
    keep_live(storage.store, catalogue, cache)
    tournaments = Tournaments(storage.store, catalogue, cache,
                              clock=app.config.get("NOW") or _utc_now)
    timekeeper = _timekeeper(app.config, storage, tournaments)
    visibility = Visibility(storage.store, catalogue, cache)
    app.extensions["paiju"] = Services(
        store=storage.store, catalogue=catalogue, cache=cache, tokens=storage.tokens,
        tournaments=tournaments,
        signer=storage.signer, timekeeper=timekeeper, timer=_timer(app.config, timekeeper),
        hub=_fan_out(app.config, storage.store), visibility=visibility,
        webhooks=storage.webhooks,
        webhook_delivery=_webhook_delivery(app.config, storage, visibility))
    _answers(app)
    register_blueprints(app)
    return app


class PaijuFlask(Flask):
    """Flask, asking once per function whether it is a coroutine: Flask asks at every call
    of every hook and view (ten times a request here, through ``inspect``), and the answer
    for a function never changes. The app's hooks and views are a few hundred: what is asked
    beyond ``REMEMBERED`` (a function made per call) is asked each time, as Flask does."""

    REMEMBERED = 4096

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._made_sync: dict = {}

    def ensure_sync(self, func):
        try:
            made = self._made_sync.get(func)
        except TypeError:  # an unhashable callable
            return super().ensure_sync(func)
        if made is None:
            made = super().ensure_sync(func)
            if len(self._made_sync) < self.REMEMBERED:
                self._made_sync[func] = made
        return made


def _flask(config: dict | None) -> Flask:
    app = PaijuFlask("paiju")
    app.config.update(DEFAULTS)
    app.config.update(config or {})
    return app


@dataclass
class Storage:
    """What the app keeps, and where: the deployment's database (the log, tokens, webhooks,
    the leases, the timer's quiet marks) and the node's files (checkpoints, the export key) —
    or, for an app given a store of its own (tests), that store and the rest in memory."""
    store: EventStore
    tokens: TokenRegistry
    webhooks: WebhookRegistry
    lease: Lease = field(default_factory=SoleLease)  # the timer's
    webhook_lease: Lease = field(default_factory=SoleLease)  # the webhook deliverer's
    marks: QuietMarks | None = None  # the timer's quiet marks (None: in the checkpoint file)
    scan: object = None  # the log as the timer's start-up reads it (None: the store)
    checkpoints: CheckpointFile | None = None
    signer: Signer | None = None


def _storage(config: dict, store: EventStore | None, tokens: TokenRegistry | None,
             signer: Signer | None) -> Storage:
    """The deployment at ``DATABASE``, recording times by ``CLOCK`` (default: the system's).
    Tokens expire by the real clock all the same: CLOCK is the time the log records, and a
    simulation's may run faster than the table."""
    if store is not None:  # an app given a store reads no files either
        return Storage(store, tokens or InMemoryTokenRegistry(),
                       SQLiteWebhookRegistry(":memory:"), signer=signer)
    deployment = open_deployment(config["DATABASE"], config, config.get("CLOCK"))
    return Storage(deployment.store, tokens or deployment.tokens, deployment.webhooks,
                   deployment.lease, deployment.webhook_lease, deployment.marks,
                   deployment.scan, _checkpoint_file(config), signer or _signer(config))


def _timekeeper(config: dict, storage: Storage, tournaments: Tournaments) -> Timekeeper:
    """The deadlines of every live match, on the clock ``NOW`` (default: the system's), fired
    through the same use cases the routes call."""
    return Timekeeper(storage.store, tournaments.catalogue, config.get("NOW") or _utc_now,
                      tournaments.cache, storage.lease, storage.marks, storage.scan,
                      tournaments=tournaments)


def _timer(config: dict, timekeeper: Timekeeper) -> TimerService | None:
    """The scheduler that fires the deadlines, in a process that runs one (``TIMER``)."""
    return TimerService(timekeeper) if config["TIMER"] else None


def _fan_out(config: dict, store: EventStore) -> Hub:
    """The node's subscriptions: each new event to every subscriber who may see it."""
    return Hub(store, config["LIVE_POLL_SECONDS"], config["LIVE_BUFFER"])


def _webhook_delivery(config: dict, storage: Storage, visibility: Visibility) -> WebhookDelivery:
    return WebhookDelivery(storage.webhooks, storage.store, visibility, storage.webhook_lease,
                           config.get("NOW") or _utc_now, config["WEBHOOKS_ALLOW_PRIVATE"],
                           config["WEBHOOK_DISABLE_AFTER_SECONDS"],
                           config["WEBHOOK_TIMEOUT_SECONDS"])


def _answers(app: Flask) -> None:
    """What every answer goes through, in this order: its request id, log line and metrics
    (the last after_request), the answer to OPTIONS, the timer's nudge, the reader's language,
    problem+json for errors, ETags, CORS."""
    request_log.register(app)
    metrics.register(app)  # /metrics, and the count of what the store commits
    app.after_request(_options_answer)
    app.after_request(_nudge_the_timer)
    i18n.init_app(app)
    problems.register(app)
    conditional.register(app)
    cors.register(app)


def _options_answer(response):
    if request.method == "OPTIONS" and response.status_code == 200:
        response.status_code = 204  # Flask's automatic answer: the Allow header, no body
        response.set_data(b"")
        del response.headers["Content-Type"]
    return response


def _nudge_the_timer(response):
    timer = current_app.extensions["paiju"].timer
    if timer is not None and request.method == "POST" and response.status_code < 300:
        timer.nudge()  # an append may have started, moved or ended a deadline
    return response


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
