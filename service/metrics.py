"""What a node does, in the Prometheus text format at ``/metrics`` (what an operator's monitoring
already scrapes), made by prometheus-client.

Counted as it happens — a few dictionary steps per commit or per request, nothing per event
read or folded:

- ``paiju_events_appended_total{type, game}``: the events this node appended (clients',
  routes', the timer's), heard from the store's word of its own commits (events/commits.py,
  ``listen_own``), counted once per commit;
- ``paiju_refusals_total{rule}``: requests refused with 422 naming a rule (``SJ2-9.2``);
- ``paiju_http_requests_total{method, route, status}`` and
  ``paiju_http_request_duration_seconds{method, route}``: each request by its route's pattern
  (``/v1/tournaments/<tid>/events``; ``unmatched`` for a path no route has), never its path, so
  that ids do not multiply the series; the time to the answer's headers. Scrapes are not
  counted: a scrape changes nothing it reports (its ``ETag`` holds while nothing else moved);
- ``paiju_timer_deadlines_fired_total{type}``: the events the timer appended.

Read when scraped (:class:`StateCollector`), from what the node already keeps:
``paiju_subscribers``, ``paiju_webhooks{state}`` (``open``, ``lagging``: failing and retried,
the events behind it waiting; ``disabled``), ``paiju_timer_caught_up``,
``paiju_timer_matches_to_fold``, ``paiju_timer_deadlines_pending`` and ``…_overdue`` (a
process that runs the timer),
``paiju_lease_held{lease}`` (``timer``, ``webhooks``: whether this process holds it),
``paiju_group_commit_size`` (appends per commit: a histogram the store keeps),
``paiju_stream_cache_events`` and ``…_budget_events``, the checkpoint hits and misses and the
fold time when the stream cache counts them, ``paiju_startup_phase_seconds{phase}`` (seconds
from the process's start to the end of each phase of ``paiju serve``'s start) and
``paiju_build_info{version}``.

No label names a tournament, nor carries its id: a scrape tells how much, never of whom.

Several processes on one machine (WSGI workers behind one port): with
``PROMETHEUS_MULTIPROC_DIR`` set — an empty directory, made before the processes start — the
counters and histograms are prometheus-client's multi-process ones, summed over every process
that writes there; the values read when scraped are those of the process that answers.

Access: ``Authorization: Bearer`` with the metrics token (``paiju serve --metrics-token``,
config ``METRICS_TOKEN``) or an admin token; anything else is 401 or 403 problem+json.
"""
from __future__ import annotations

import functools
import hmac
import json
import logging
import os
import time
from collections import Counter as Tally
from typing import TYPE_CHECKING

from flask import Blueprint, Flask, Response, current_app, request
from prometheus_client import (
    CollectorRegistry,
    Counter,
    Histogram,
    disable_created_metrics,
)
from prometheus_client.exposition import choose_encoder
from prometheus_client.metrics_core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    HistogramMetricFamily,
    InfoMetricFamily,
)
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.utils import floatToGoString

from events.catalogue import tournament_stream
from events.commits import GroupSizes
from events.envelope import Record
from rules.tournament import GAMES

from .auth import require
from .version import VERSION

if TYPE_CHECKING:
    from events.store import EventStore

    from .api.common import Services

log = logging.getLogger("paiju.metrics")

METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
UNMATCHED = "unmatched"  # the route of a path no route has (a 404, a 405)
ROUTE = "/metrics"
RULE_MAX = 64            # a rule id's characters in a label, at most

bp = Blueprint("metrics", __name__)

# no ``…_created`` series beside each counter and histogram: twice the series, of no use here
disable_created_metrics()


def multiprocess_dir() -> str | None:
    return os.environ.get("PROMETHEUS_MULTIPROC_DIR") or None


class Metrics:
    """The metrics of one app (``app.extensions["paiju.metrics"]``)."""

    def __init__(self, services: Services):
        self.services = services
        self.registry = CollectorRegistry()
        r = self.registry
        self.appended = Counter("paiju_events_appended", "Events this node appended, by type "
                                "and by the game of their tournament", ["type", "game"],
                                registry=r)
        self.refusals = Counter("paiju_refusals", "Requests refused with 422 naming a rule, by "
                                "the rule's id", ["rule"], registry=r)
        self.requests = Counter("paiju_http_requests", "Requests answered, by method, route "
                                "pattern and status", ["method", "route", "status"], registry=r)
        self.latency = Histogram("paiju_http_request_duration_seconds", "Seconds from a "
                                 "request's arrival in the app to its answer's headers, by "
                                 "method and route pattern", ["method", "route"],
                                 buckets=LATENCY_BUCKETS, registry=r)
        self.fired = Counter("paiju_timer_deadlines_fired", "Events the timer appended as "
                             "their deadlines passed, by type", ["type"], registry=r)
        self.startup_phases: dict[str, float] = {}
        # (method, route, status) -> the request counter's and the latency's series: found by
        # ``labels`` once, not at every request (its look-up takes a lock and checks each name)
        self._series: dict[tuple[str, str, int], tuple] = {}
        self.games = _Games(services.store)
        self.state = StateCollector(self)
        r.register(self.state)

    # --- counted as it happens --------------------------------------------------------------
    def on_commit(self, last_position: int, records: list[Record]) -> None:
        """The store's word of one of this process's commits (its records, in order)."""
        appended: Tally = Tally()
        fired: Tally = Tally()
        for record in records:
            if record.type == "TournamentCreated":
                self.games.learn(record)
            appended[(record.type, record.tournament_id)] += 1
            if '"actor":"timer"' in record.meta and '"deadline":' in record.meta:
                fired[record.type] += 1
        for (event_type, tid), count in appended.items():
            self.appended.labels(event_type, self.games.of(tid)).inc(count)
        for event_type, count in fired.items():
            self.fired.labels(event_type).inc(count)

    def observe_request(self, method: str, route: str | None, response: Response,
                        seconds: float) -> None:
        if route == ROUTE:
            return  # a scrape changes nothing it reports (Prometheus times its own scrapes)
        method = method if method in METHODS else "other"
        route = route or UNMATCHED
        status = response.status_code
        series = self._series.get((method, route, status))
        if series is None:
            series = self._series[(method, route, status)] = (
                self.requests.labels(method, route, str(status)),
                self.latency.labels(method, route))
        series[0].inc()
        series[1].observe(seconds)
        if status == 422 and response.mimetype == "application/problem+json":
            body = response.get_json(silent=True)
            rule = body.get("rule") if isinstance(body, dict) else None
            if isinstance(rule, str) and rule:
                self.refusals.labels(rule[:RULE_MAX]).inc()

    def record_phase(self, phase: str, seconds: float) -> None:
        """A phase of the start ended ``seconds`` after the process started."""
        self.startup_phases[phase] = seconds

    # --- the scrape -------------------------------------------------------------------------
    def exposition(self, accept: str | None) -> tuple[bytes, str]:
        """The text of a scrape in the format ``accept`` asks (Prometheus' text format, or
        OpenMetrics), and its content type."""
        encoder, content_type = choose_encoder(accept or "")
        if multiprocess_dir() is None:
            return encoder(self.registry), content_type
        registry = CollectorRegistry()
        MultiProcessCollector(registry)  # every process's counters, from their files
        registry.register(self.state)
        return encoder(registry), content_type


class _Games:
    """A tournament's game, for the labels: from the ``TournamentCreated`` records heard,
    else read once from the log (its tournament stream's first event). Games outside the
    rules' list are ``other``; one whose tournament cannot be read now is ``unknown``."""

    LIMIT = 100_000  # tournaments remembered; then forgotten all at once (and read again)

    def __init__(self, store: EventStore):
        self.store = store
        self._known: dict[str, str] = {}

    def learn(self, record: Record) -> None:
        try:
            game = json.loads(record.data).get("game")
        except (ValueError, AttributeError):
            return
        self._remember(record.tournament_id, _game_label(game))

    def of(self, tournament_id: str) -> str:
        game = self._known.get(tournament_id)
        if game is not None:
            return game
        try:
            first = next(iter(self.store.read_stream(tournament_stream(tournament_id),
                                                     limit=1)), None)
        except Exception as error:  # the store is away: label it so, and read again next time
            log.debug("the game of %s is not known now: %s", tournament_id, error)
            return "unknown"
        if first is None or first.type != "TournamentCreated":
            return "unknown"
        self.learn(first)
        return self._known.get(tournament_id, "unknown")

    def _remember(self, tournament_id: str, game: str) -> None:
        if len(self._known) >= self.LIMIT:
            self._known.clear()
        self._known[tournament_id] = game


def _game_label(game: object) -> str:
    return game if isinstance(game, str) and game in GAMES else "other"


class StateCollector:
    """What the node keeps, read when scraped. Each part that fails (the database away) is
    left out of that scrape and logged; the scrape itself never fails."""

    def __init__(self, metrics: Metrics):
        self.metrics = metrics
        self._pending: tuple[int, int] | None = None  # the last (pending, overdue) read

    def describe(self):
        return []  # nothing is read at registration (it would query the database)

    def collect(self):
        s = self.metrics.services
        parts = (self._build, self._subscribers, self._webhooks, self._timer, self._leases,
                 self._group_commits, self._stream_cache, self._startup)
        for part in parts:
            try:
                yield from list(part(s))
            except Exception as error:
                log.warning("metrics: %s left out of this scrape: %s", part.__name__.strip("_"),
                            error)

    def _build(self, s: Services):
        info = InfoMetricFamily("paiju_build", "The paiju version this node runs")
        info.add_metric([], {"version": VERSION})
        yield info

    def _subscribers(self, s: Services):
        if s.hub is not None:
            yield GaugeMetricFamily("paiju_subscribers", "Live subscriptions (Server-Sent "
                                    "Events) this node holds open", value=s.hub.subscriber_count)

    def _webhooks(self, s: Services):
        if s.webhooks is None:
            return
        states = Tally({"open": 0, "lagging": 0, "disabled": 0})
        for hook in s.webhooks.every():
            if hook.state != "active":
                states["disabled"] += 1
            elif hook.failures:
                states["lagging"] += 1
            else:
                states["open"] += 1
        family = GaugeMetricFamily("paiju_webhooks", "The deployment's webhooks: open, lagging "
                                   "(failing, retried, the events behind it waiting) and "
                                   "disabled", labels=["state"])
        for state, count in states.items():
            family.add_metric([state], count)
        yield family

    def _timer(self, s: Services):
        if s.timer is None:
            return
        caught_up = getattr(s.timer, "caught_up", None)
        yield GaugeMetricFamily("paiju_timer_caught_up", "1 once this process's timer knows "
                                "every running match's deadlines and has fired what was due",
                                value=1 if caught_up is None or caught_up.is_set() else 0)
        unknown = getattr(s.timekeeper, "unknown", None)
        if isinstance(unknown, int):
            yield GaugeMetricFamily("paiju_timer_matches_to_fold", "Matches found running at "
                                    "the start whose deadlines the timer has still to read",
                                    value=unknown)
        pending = self._read_pending(s)
        if pending is not None:
            yield GaugeMetricFamily("paiju_timer_deadlines_pending", "Deadlines the timer will "
                                    "fire", value=pending[0])
            yield GaugeMetricFamily("paiju_timer_deadlines_overdue", "Deadlines already passed "
                                    "and not yet fired (0 but for an instant, while the timer "
                                    "keeps up)", value=pending[1])

    def _read_pending(self, s: Services) -> tuple[int, int] | None:
        """The timekeeper's deadlines, if it is not busy (a long catch-up holds its lock: the
        last count read is shown meanwhile, never a scrape that waits)."""
        timekeeper = s.timekeeper
        turn = getattr(timekeeper, "turn", None)
        lock = turn() if turn is not None else None
        if lock is not None and not lock.acquire(blocking=False):
            return self._pending
        try:
            pending = timekeeper.pending()
            now = timekeeper.now()
        finally:
            if lock is not None:
                lock.release()
        self._pending = (len(pending), sum(1 for p in pending if p.due <= now))
        return self._pending

    def _leases(self, s: Services):
        family = GaugeMetricFamily("paiju_lease_held", "1 when this process holds the lease: "
                                   "the timer's (it fires the deadlines) or the webhooks' (it "
                                   "delivers them)", labels=["lease"])
        family.add_metric(["timer"], int(s.timekeeper.lease.held(s.timekeeper.now())))
        delivery = s.webhook_delivery
        if delivery is not None:
            family.add_metric(["webhooks"], int(delivery.lease.held(delivery.now())))
        yield family

    def _group_commits(self, s: Services):
        sizes: GroupSizes | None = getattr(s.store, "group_sizes", None)
        if sizes is None:
            return
        counts, total = list(sizes.counts), sizes.appends
        buckets, running = [], 0
        for bound, count in zip([*map(floatToGoString, sizes.BOUNDS), "+Inf"], counts):
            running += count
            buckets.append((bound, running))
        yield HistogramMetricFamily("paiju_group_commit_size", "Appends that shared one commit "
                                    "of the store (group commit)", buckets=buckets,
                                    sum_value=total)

    def _stream_cache(self, s: Services):
        cache = s.cache
        yield GaugeMetricFamily("paiju_stream_cache_events", "Events folded into the states "
                                "held in memory (heads and checkpoints)", value=cache.held)
        yield GaugeMetricFamily("paiju_stream_cache_budget_events", "The bound of "
                                "paiju_stream_cache_events", value=cache.budget)
        for attribute, name, text in (
                ("hits", "paiju_checkpoint_hits", "Folds that started from a remembered state "
                 "(a head or a checkpoint, in memory or in the checkpoint file)"),
                ("misses", "paiju_checkpoint_misses", "Folds that started from the stream's "
                 "first event"),
                ("fold_seconds", "paiju_fold_seconds", "Seconds spent folding streams")):
            value = getattr(cache, attribute, None)
            if isinstance(value, (int, float)):
                yield CounterMetricFamily(name, text, value=value)

    def _startup(self, s: Services):
        phases = self.metrics.startup_phases
        if phases:
            family = GaugeMetricFamily("paiju_startup_phase_seconds", "Seconds from the "
                                       "process's start to the end of each phase of its start",
                                       labels=["phase"])
            for phase, seconds in list(phases.items()):
                family.add_metric([phase], seconds)
            yield family


# --- the route --------------------------------------------------------------------------------

def _metrics_token_given() -> bool:
    token = current_app.config.get("METRICS_TOKEN")
    if not token:
        return False
    scheme, _, secret = request.headers.get("Authorization", "").strip().partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(
        secret.strip().encode("utf-8", "surrogateescape"), token.encode())


def _metrics_gate(view):
    """The metrics token, or else the ``metrics`` action (an admin token): 401 or 403 as for
    any route (service/auth.py)."""
    @functools.wraps(view)
    def gated(*args, **kwargs):
        if not _metrics_token_given():
            require("metrics")
        return view(*args, **kwargs)
    gated.paiju_action = "metrics"
    return gated


@bp.get(ROUTE)
@_metrics_gate
def scrape():
    metrics: Metrics = current_app.extensions["paiju.metrics"]
    body, content_type = metrics.exposition(request.headers.get("Accept"))
    response = Response(body, content_type=content_type)
    response.headers["Cache-Control"] = "no-store"
    return response


def register(app: Flask) -> Metrics:
    """The app's metrics, its ``/metrics`` route, and the count of what its store commits."""
    metrics = Metrics(app.extensions["paiju"])
    app.extensions["paiju.metrics"] = metrics
    metrics.services.store.commits.listen_own(metrics.on_commit)
    app.register_blueprint(bp)
    return metrics


def metrics_of(app: Flask) -> Metrics | None:
    return app.extensions.get("paiju.metrics")


def process_age() -> float | None:
    """Seconds since this process started (Linux: /proc), or None where that is not known."""
    try:
        with open("/proc/self/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        with open("/proc/uptime") as uptime:
            up = float(uptime.read().split()[0])
        return max(up - int(fields[19]) / os.sysconf("SC_CLK_TCK"), 0.0)
    except (OSError, ValueError, IndexError):
        return None


_IMPORTED = time.monotonic()


def since_start() -> float:
    """Seconds since this process started, else since this module was imported."""
    age = process_age()
    return age if age is not None else time.monotonic() - _IMPORTED
