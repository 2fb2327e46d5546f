"""Append throughput of the paiju event store, beside plain SQLite and ``eventsourcing``.

Every figure comes from one run on one machine, on file databases in one temporary directory
(``--dir`` picks the disk), all with ``journal_mode=WAL`` and ``synchronous=FULL``:

(a) ``SQLiteEventStore.append``: ``--events`` small events over four streams of tournament
    "bench", in batches of ``--batch``, each batch one call and so one durable commit. It
    includes everything the store does per append: canonical JSON, idempotency and version
    look-ups, the SHA-256 hash chain, the group-commit hand-off to the writer thread.
(b) The very rows (a) stored, re-inserted into a fresh database with the same schema and
    indexes (``create_schema``) by one ``executemany`` in ONE transaction: the ceiling of SQLite
    itself on this disk, with no per-batch fsync and no store logic.
(c) The ``eventsourcing`` library's SQLite recorder (``SQLiteApplicationRecorder.insert_events``)
    writing as many events with the same JSON payload in batches of ``--batch``: a mature event
    store doing comparable work, one commit per batch, without a hash chain.
(d) Durable single-event appends through the real HTTP server (``python -m service.cli serve``),
    from ``--clients`` threads, each with one keep-alive connection, ``--http-events`` in all:
    the end-to-end rate of the API, where group commit lets concurrent requests share a fsync.
    Every answer must be 201: any other answer, or ``--http-time-limit`` running out, fails (d)
    (it is reported, the other figures still print, and the exit status is 1). Beside it, plain
    ``sqlite3`` committing rows of (a) one at a time (``--commit-rows``), which is what the server
    would manage if every request paid for its own fsync.

(a) and (c) run in ``--rounds`` alternating rounds, each on a fresh database, and each figure is
the median of its rounds: the time a fsync takes drifts with whatever else the disk is doing,
and alternating puts both under the same drift. (a)/(c) is the median of the rounds' own
ratios (each (a) over the (c) run right after it), shown beside (a)'s line too.

Ratios: (a)/(c) the store against the library, (a)/(b) the cost of batching-by-call and store
logic against raw SQLite, (d)/(per-row commit) the API against a bare fsync per row; beside
(d), the same load with group commit off and a request that does nothing (``GET /v1/health``)
show what group commit gains and where the HTTP stack itself stops.

Reproduce: ``make bench`` (installs ``.[bench]``, i.e. ``eventsourcing``, into ``.venv`` and runs
``python bench/append.py``), or ``python bench/append.py --json`` from the repository root.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import platform
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

# Run as ``python bench/append.py``, sys.path starts at bench/, not at the repository root.
REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

from events.envelope import NewEvent, canonical_json  # noqa: E402
from events.sqlite_store import COLUMNS, INSERT, SQLiteEventStore, create_schema  # noqa: E402
from service.simulator.server_process import free_port, wait_until_ready  # noqa: E402

TOURNAMENT = "bench"
STREAMS = ("match-m1", "match-m2", "match-m3", "match-m4")
EVENT_TYPE = "CardsPlayed"
HTTP_TIMEOUT = 10.0       # seconds, for every request to the server
SERVER_START_TIMEOUT = 30.0


class BenchError(Exception):
    """A part of the benchmark could not run (server did not start, a request failed)."""


# --- shared helpers ---------------------------------------------------------------------------

def payload(j: int) -> dict:
    return {"seat": j % 4, "cards": ["QH", "QH"]}


def rate(count: int, seconds: float) -> float:
    return count / seconds


def connect_like_store(path: Path) -> sqlite3.Connection:
    """A connection with the store's durability settings, so the baselines pay the same fsyncs."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    return conn


def fresh_events_db(path: Path) -> sqlite3.Connection:
    conn = connect_like_store(path)
    create_schema(conn)
    return conn


# --- (a) the store ----------------------------------------------------------------------------

def store_batches(events: int, batch: int) -> list[list[NewEvent]]:
    """Built before the clock starts: constructing the caller's objects is not the store's cost."""
    items = [NewEvent(EVENT_TYPE, STREAMS[j % len(STREAMS)], payload(j)) for j in range(events)]
    return [items[i:i + batch] for i in range(0, events, batch)]


def bench_store(path: Path, events: int, batch: int) -> float:
    batches = store_batches(events, batch)
    store = SQLiteEventStore(path)
    try:
        started = time.perf_counter()
        for b in batches:
            store.append(TOURNAMENT, b)
        elapsed = time.perf_counter() - started
        check_stored(store, events)
    finally:
        store.close()
    return rate(events, elapsed)


def check_stored(store: SQLiteEventStore, events: int) -> None:
    """A fast but wrong store is no result: every event must be there and the chain intact."""
    report = store.verify(TOURNAMENT)
    if not report.ok or report.checked != events:
        raise BenchError(f"(a) stored {report.checked} of {events} events, chain ok={report.ok}: "
                         f"{report.problem}")


def stored_rows(path: Path) -> list[tuple]:
    with sqlite3.connect(path) as conn:
        return conn.execute(f"SELECT {', '.join(COLUMNS)} FROM events ORDER BY position").fetchall()


# --- (b) plain SQLite, and the per-row commit baseline for (d) --------------------------------

def bench_plain_inserts(path: Path, rows: list[tuple], rows_per_commit: int) -> float:
    """Plain sqlite3 inserting ``rows`` into a fresh database with the store's schema, one
    durable commit per ``rows_per_commit`` rows: all of them for (b), 1 for the (d) baseline."""
    conn = fresh_events_db(path)
    try:
        started = time.perf_counter()
        for i in range(0, len(rows), rows_per_commit):
            conn.execute("BEGIN IMMEDIATE")
            conn.executemany(INSERT, rows[i:i + rows_per_commit])
            conn.execute("COMMIT")
        elapsed = time.perf_counter() - started
    finally:
        conn.close()
    return rate(len(rows), elapsed)


# --- (c) the eventsourcing library ------------------------------------------------------------

def bench_eventsourcing(path: Path, events: int, batch: int) -> tuple[float, int]:
    """(events/s, the recorder connection's synchronous level). Raises ImportError if the
    library is missing: it is a bench-only dependency."""
    from eventsourcing.persistence import StoredEvent
    from eventsourcing.sqlite import SQLiteApplicationRecorder, SQLiteDatastore

    batches = eventsourcing_batches(StoredEvent, events, batch)
    datastore = SQLiteDatastore(str(path))
    try:
        recorder = SQLiteApplicationRecorder(datastore)
        recorder.create_table()
        started = time.perf_counter()
        for b in batches:
            recorder.insert_events(b)
        elapsed = time.perf_counter() - started
        # The library does not set synchronous: report what it ran with, for an honest match.
        with datastore.transaction(commit=False) as cursor:
            cursor.execute("PRAGMA synchronous")
            synchronous = cursor.fetchone()[0]
    finally:
        datastore.close()
    return rate(events, elapsed), synchronous


def eventsourcing_batches(stored_event, events: int, batch: int) -> list[list]:
    # One aggregate per stream, versions counting up per aggregate, as the store's streams do.
    originators = [uuid.uuid4() for _ in STREAMS]
    items = [stored_event(originator_id=originators[j % len(STREAMS)],
                          originator_version=j // len(STREAMS) + 1,
                          topic=f"bench:{EVENT_TYPE}",
                          state=canonical_json(payload(j)).encode("utf-8"))
             for j in range(events)]
    return [items[i:i + batch] for i in range(0, events, batch)]


# --- (d) the HTTP server ----------------------------------------------------------------------

# The admin token every request of the bench carries (made in the server's database before
# the server starts).
AUTH: dict[str, str] = {}


def start_server(db: Path, port: int, log_path: Path, max_group: int) -> subprocess.Popen:
    from service.tokens import SQLiteTokenRegistry

    registry = SQLiteTokenRegistry(db)
    secret, _ = registry.create("admin", name="bench/append.py")
    registry.close()
    AUTH["Authorization"] = f"Bearer {secret}"
    command = [sys.executable, "-m", "service.cli", "serve", "--host", "127.0.0.1",
               "--port", str(port), "--db", str(db), "--max-group", str(max_group)]
    # The repository root on the path too, so the module is found without an installed package.
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        filter(None, [str(REPO_ROOT), os.environ.get("PYTHONPATH")]))}
    with open(log_path, "wb") as log:
        return subprocess.Popen(command, cwd=REPO_ROOT, env=env, stdout=log,
                                stderr=subprocess.STDOUT)


def stop_server(server: subprocess.Popen) -> None:
    if server.poll() is None:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=10)


def server_log_tail(log_path: Path, lines: int = 15) -> str:
    text = log_path.read_text(errors="replace") if log_path.exists() else ""
    return "\n".join(text.splitlines()[-lines:]) or "(no output)"


def request(conn: http.client.HTTPConnection, method: str, path: str,
            body: dict | None = None) -> tuple[int, bytes]:
    headers = {**AUTH, **({"Content-Type": "application/json"} if body is not None else {})}
    conn.request(method, path, body=json.dumps(body) if body is not None else None,
                 headers=headers)
    response = conn.getresponse()
    return response.status, response.read()  # read it all, or the keep-alive connection stalls


def wait_until_healthy(server: subprocess.Popen, port: int, log_path: Path) -> None:
    try:
        wait_until_ready(server, port, SERVER_START_TIMEOUT)
    except RuntimeError as error:
        raise BenchError(f"{error}:\n{server_log_tail(log_path)}") from None


def create_tournament(port: int) -> str:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=HTTP_TIMEOUT)
    try:
        status, body = request(conn, "POST", "/v1/tournaments",
                               {"name": "bench", "game": "SJ2", "format": "knockout"})
    finally:
        conn.close()
    if status != 201:
        raise BenchError(f"POST /v1/tournaments answered {status}: {body[:300]!r}")
    try:
        return json.loads(body)["id"]
    except (ValueError, KeyError, TypeError) as error:
        raise BenchError(f"POST /v1/tournaments answered no id: {body[:300]!r}") from error


class Client(threading.Thread):
    """Sends its share of requests one by one over one keep-alive connection, after the start
    gate: event posts, or (``health_only``) GET /v1/health, the HTTP stack's own ceiling."""

    def __init__(self, number: int, port: int, tournament_id: str, count: int,
                 gate: threading.Barrier, deadline: float, health_only: bool):
        super().__init__(name=f"bench-client-{number}", daemon=True)
        self.number, self.port, self.tournament_id, self.count, self.gate = (
            number, port, tournament_id, count, gate)
        self.health_only = health_only
        self.deadline = deadline  # time.monotonic() after which the client gives up
        self.latencies: list[float] = []
        self.error: Exception | None = None

    def run(self) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=HTTP_TIMEOUT)
        try:
            conn.connect()  # connect before the gate: the clock measures appends, not handshakes
            self.gate.wait(timeout=HTTP_TIMEOUT)
            for i in range(self.count):
                if time.monotonic() > self.deadline:
                    raise BenchError(f"out of time after {i} of {self.count} events")
                self.post_one(conn, i)
        except Exception as error:  # reported by the main thread, which owns the outcome
            self.error = error
            self.gate.abort()  # nobody waits for a client that is gone
        finally:
            conn.close()

    def post_one(self, conn: http.client.HTTPConnection, i: int) -> None:
        n = f"{self.number}-{i}"
        body = {"type": "TeamRegistered", "stream": f"tournament-{self.tournament_id}",
                "data": {"team_id": f"team-{n}", "name": f"Team {n}",
                         "players": [f"A {n}", f"B {n}"]}}
        started = time.perf_counter()
        if self.health_only:
            status, answer, wanted = *request(conn, "GET", "/v1/health"), 200
        else:
            status, answer = request(conn, "POST", f"/v1/tournaments/{self.tournament_id}/events",
                                     body)
            wanted = 201
        self.latencies.append(time.perf_counter() - started)
        if status != wanted:
            raise BenchError(f"the server answered {status}: {answer[:300]!r}")


def run_clients(port: int, tournament_id: str, events: int, clients: int,
                time_limit: float, health_only: bool) -> dict:
    shares = [events // clients + (1 if c < events % clients else 0) for c in range(clients)]
    gate = threading.Barrier(clients + 1)
    deadline = time.monotonic() + time_limit
    threads = [Client(c, port, tournament_id, share, gate, deadline, health_only)
               for c, share in enumerate(shares)]
    for t in threads:
        t.start()
    try:
        gate.wait(timeout=HTTP_TIMEOUT)
    except threading.BrokenBarrierError:
        pass  # a client failed to connect; its error is reported below
    started = time.perf_counter()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - started
    errors = [t.error for t in threads if t.error is not None]
    if errors:
        raise BenchError(f"{len(errors)} of {clients} clients failed, first: {errors[0]!r}")
    latencies = sorted(x for t in threads for x in t.latencies)
    return {"events_per_s": rate(events, elapsed),
            "p50_ms": 1000 * latencies[len(latencies) // 2],
            "p99_ms": 1000 * latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]}


def bench_http(workdir: Path, name: str, events: int, clients: int, time_limit: float,
               max_group: int = 512, health_only: bool = False) -> dict:
    """One server on a fresh database, one load; ``max_group=1`` turns group commit off."""
    port = free_port()
    log_path = workdir / f"{name}.log"
    server = start_server(workdir / f"{name}.db", port, log_path, max_group)
    try:
        wait_until_healthy(server, port, log_path)
        return run_clients(port, create_tournament(port), events, clients, time_limit,
                           health_only)
    finally:
        stop_server(server)


# --- report -----------------------------------------------------------------------------------

def environment(workdir: Path) -> dict:
    return {"python": f"{platform.python_implementation()} {platform.python_version()}",
            "sqlite": sqlite3.sqlite_version,
            "platform": platform.platform(),
            "cpus": os.cpu_count(),
            "disk_path": str(workdir)}


def ratio(numerator: float | None, denominator: float | None) -> float | None:
    return numerator / denominator if numerator and denominator else None


def ratios(rates: dict, rounds: dict) -> dict:
    return {"a_over_c": round_by_round(rounds),
            "a_over_b": ratio(rates["a_store_append"], rates["b_sqlite_one_transaction"]),
            "d_over_commit_per_row": ratio(rates["d_http"], rates["sqlite_commit_per_row"]),
            "d_over_health": ratio(rates["d_http"], rates["http_health"]),
            "d_over_no_group_commit": ratio(rates["d_http"], rates["d_http_no_group_commit"])}


def round_by_round(rounds: dict) -> float | None:
    """(a)/(c): the median of each round's (a) over the (c) run right after it. A ratio of
    neighbours: the fsync time drifts between rounds far more than within one pair of runs."""
    pairs = zip(rounds["a_store_append"], rounds["c_eventsourcing_recorder"])
    per_round = [ratio(a, c) for a, c in pairs]
    return statistics.median(per_round) if per_round else None


def rate_labels(args: argparse.Namespace) -> dict:
    return {
        "a_store_append":
            f"(a) SQLiteEventStore.append, {args.events:,} events, batches of {args.batch}",
        "b_sqlite_one_transaction":
            f"(b) plain sqlite3 executemany, the same {args.events:,} rows, one transaction",
        "c_eventsourcing_recorder":
            f"(c) eventsourcing SQLiteApplicationRecorder, {args.events:,} events, "
            f"batches of {args.batch}",
        "d_http": f"(d) HTTP POST one event each, {args.http_events:,} events, "
                  f"{args.clients} clients",
        "sqlite_commit_per_row":
            f"    beside (d): plain sqlite3, one commit per row, {args.commit_rows:,} rows",
        "d_http_no_group_commit":
            "    beside (d): the same posts with group commit off (--max-group 1)",
        "http_health":
            f"    beside (d): GET /v1/health, {args.http_events:,} requests, the HTTP stack alone",
    }


RATIO_LABELS = {
    "a_over_c": "(a)/(c) store vs eventsourcing recorder",
    "a_over_b": "(a)/(b) store vs one plain transaction",
    "d_over_commit_per_row": "(d)/(per-row commit) HTTP with group commit vs a fsync per row",
    "d_over_health": "(d)/(health) a durable append vs a request that does nothing",
    "d_over_no_group_commit": "(d)/(no group commit) the gain of group commit",
}


def beside(key: str, ratios_: dict) -> str:
    """(a)'s line also shows the figure the store is judged by: (a) over (c)."""
    if key != "a_store_append":
        return ""
    value = ratios_["a_over_c"]
    return f"   (a)/(c) = {value:.3g}x" if value is not None else "   (a)/(c) = n/a"


def print_report(report: dict, args: argparse.Namespace) -> None:
    for key in ("python", "sqlite", "platform", "cpus", "disk_path"):
        print(f"{key:<10} {report[key]}")
    print()
    for key, label in rate_labels(args).items():
        value = report["events_per_s"][key]
        shown = f"{value:>10,.0f} events/s" if value is not None else f"{'n/a':>10}"
        print(f"{label:<80}{shown}{beside(key, report['ratios'])}")
    print()
    for key, label in RATIO_LABELS.items():
        value = report["ratios"][key]
        shown = f"{value:>10.3g}x" if value is not None else f"{'n/a':>10}"
        print(f"{label:<80}{shown}")
    for note in report["notes"]:
        print(f"note: {note}")


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=20_000, help="events for (a), (b) and (c)")
    parser.add_argument("--batch", type=int, default=100, help="events per append in (a) and (c)")
    parser.add_argument("--rounds", type=int, default=3,
                        help="alternating rounds of (a) and (c); each prints its median")
    parser.add_argument("--http-events", type=int, default=4_000, help="events posted in (d)")
    parser.add_argument("--clients", type=int, default=16, help="concurrent HTTP clients in (d)")
    parser.add_argument("--http-time-limit", type=float, default=300.0,
                        help="seconds after which (d) gives up (each request also has a "
                             f"{HTTP_TIMEOUT:.0f} s timeout)")
    parser.add_argument("--commit-rows", type=int, default=2_000,
                        help="rows for the one-commit-per-row baseline beside (d)")
    parser.add_argument("--dir", help="directory (disk) for the databases; default: system temp")
    parser.add_argument("--json", action="store_true",
                        help="also print the figures as one JSON object")
    args = parser.parse_args()
    if min(args.events, args.batch, args.http_events, args.clients, args.commit_rows,
           args.http_time_limit, args.rounds) < 1:
        parser.error("every count must be at least 1")
    if args.commit_rows > args.events:
        parser.error("--commit-rows takes its rows from (a), so it cannot exceed --events")
    return args


def store_and_library(workdir: Path, args: argparse.Namespace,
                      notes: list[str]) -> tuple[dict, dict]:
    """(a) and (c) in alternating rounds, each on a fresh database: the disk's fsync time drifts
    (other work on the machine), and alternating puts both under the same drift. Their rates
    are the medians of the rounds; the rounds themselves go to the JSON report."""
    rounds: dict[str, list[float]] = {"a_store_append": [], "c_eventsourcing_recorder": []}
    synchronous = None
    for n in range(1, args.rounds + 1):
        rounds["a_store_append"].append(bench_store(workdir / f"store-{n}.db", args.events,
                                                    args.batch))
        try:
            rate_c, synchronous = bench_eventsourcing(workdir / f"eventsourcing-{n}.db",
                                                      args.events, args.batch)
            rounds["c_eventsourcing_recorder"].append(rate_c)
        except ImportError:
            pass
    if synchronous is None:
        notes.append("(c) skipped: the eventsourcing library is not installed "
                     "(`make bench` installs it, or: pip install -e '.[bench]')")
    else:
        notes.append(f"(c) eventsourcing ran with WAL and PRAGMA synchronous={synchronous} "
                     "(2 = FULL)")
    notes.append(f"(a) and (c): the median of {args.rounds} alternating round(s)")
    return {key: statistics.median(values) if values else None
            for key, values in rounds.items()}, rounds


def run_all(args: argparse.Namespace, workdir: Path) -> dict:
    notes: list[str] = []
    rates, rounds = store_and_library(workdir, args, notes)
    rows = stored_rows(workdir / "store-1.db")
    rates["b_sqlite_one_transaction"] = bench_plain_inserts(workdir / "one-transaction.db", rows,
                                                           len(rows))
    rates["sqlite_commit_per_row"] = bench_plain_inserts(workdir / "per-row.db",
                                                          rows[:args.commit_rows], 1)
    latency: dict = {}
    for key, options in (("d_http", {}), ("d_http_no_group_commit", {"max_group": 1}),
                         ("http_health", {"health_only": True})):
        try:
            http = bench_http(workdir, key, args.http_events, args.clients,
                              args.http_time_limit, **options)
            rates[key] = http.pop("events_per_s")
            latency[key] = http
            notes.append(f"{key}: request latency p50 {http['p50_ms']:.1f} ms, "
                         f"p99 {http['p99_ms']:.1f} ms")
        except (BenchError, OSError) as error:  # OSError: the server refused or dropped a connection
            rates[key] = None
            notes.append(f"{key} failed: {error}")
    return {**environment(workdir),
            "counts": {"events": args.events, "batch": args.batch,
                       "http_events": args.http_events, "clients": args.clients,
                       "http_time_limit_s": args.http_time_limit,
                       "commit_rows": args.commit_rows, "rounds": args.rounds},
            "events_per_s": rates, "ratios": ratios(rates, rounds), "http_latency_ms": latency,
            "a_c_rounds": rounds, "notes": notes}


def main() -> int:
    args = parse_args()
    with tempfile.TemporaryDirectory(prefix="paiju-bench-", dir=args.dir) as tmp:
        report = run_all(args, Path(tmp))
    print_report(report, args)
    if args.json:
        print(json.dumps(report))
    return 0 if report["events_per_s"]["d_http"] is not None else 1


if __name__ == "__main__":
    sys.exit(main())
