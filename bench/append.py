"""Append throughput of the paiju event store, beside plain SQLite and ``eventsourcing``.

Every figure comes from one run on one machine. (a) to (d) run on file databases in one
temporary directory (``--dir`` picks the disk), all with ``journal_mode=WAL`` and
``synchronous=FULL``; (e) and (f) on a PostgreSQL server (its own settings, reported):

(a) ``SQLiteEventStore.append``: ``--events`` small events over four streams of tournament
    "bench", in batches of ``--batch``, each batch one call and so one durable commit. It
    includes everything the store does per append: canonical JSON, idempotency and version
    look-ups, the SHA-256 hash chain, the group commit (led by the calling thread).
(b) The very rows (a) stored, re-inserted into a fresh database with the same schema and
    indexes (``create_schema``) by one ``executemany`` in ONE transaction: the ceiling of SQLite
    itself on this disk, with no per-batch fsync and no store logic.
(b') The rows of each round's (a), re-inserted the same way but with one durable commit per
    ``--batch`` rows, as (a) commits: what SQLite alone costs for (a)'s rows and indexes at (a)'s
    commit cadence, so (b')/(c) is the most (a)/(c) could be with no store logic at all.
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
(e) The load of (d) (``--http-events`` single-event posts from ``--clients`` threads) against 1, 2
    and 3 ``paiju serve`` nodes on ONE PostgreSQL database (``--postgres``): each node a process
    of its own (its own port and working directory, ``--threads`` its share of the clients
    unless ``--pg-threads``; the timer on as in (d): one node holds the timer's lease), the
    clients spread round-robin over the nodes. Each node count on a fresh database, made by
    ``upgrade_schema`` (what ``paiju db upgrade`` runs) with an admin token made before the
    nodes start; every answer must be 201, and the chain is verified after. Beside it, (d): the
    same load on one SQLite node. The figure judged is the best of 2 and 3 nodes over (d) (the
    goal: at least 1.5x).
(f) ``PostgresEventStore.append`` as (a) does it (``--events`` events, batches of ``--batch``,
    one transaction each, with the store's two advisory locks, look-ups and hash chain), beside
    the ``eventsourcing`` library's PostgreSQL recorder (``PostgresDatastore`` and
    ``PostgresApplicationRecorder.insert_events``, the payloads of (c), batches of the same
    size: its table lock, NOTIFY and one INSERT, one commit per batch), on the same server, each
    run on a fresh database, in ``--rounds`` alternating rounds with medians as (a)/(c) (the
    goal: at least 1x).

(e) and (f) make their databases (named ``paiju_bench_<pid>_…``) on the server of ``--postgres``
and drop each after its run; ``--no-postgres`` skips both, and a server that cannot be reached
skips them with a note.

(a), (b') and (c), and (f)'s two, run in ``--rounds`` alternating rounds, each on a fresh database,
and each figure is the median of its rounds: the time a fsync takes drifts with whatever else
the disk is doing, and alternating puts both under the same drift. (a)/(c) is the median of the
rounds' own ratios (each (a) over the (c) run right after it), shown beside (a)'s line too; so
is (f)'s.

Ratios: (a)/(c) the store against the library, (a)/(b) the cost of batching-by-call and store
logic against raw SQLite, (d)/(per-row commit) the API against a bare fsync per row; beside
(d), the same load with group commit off and a request that does nothing (``GET /v1/health``)
show what group commit gains and where the HTTP stack itself stops; (e)/(d) what more nodes on
PostgreSQL serve against one node on SQLite; (f)/(recorder) the PostgreSQL store against the
library's PostgreSQL recorder.

Reproduce: ``make bench`` (installs ``.[bench]``, i.e. ``eventsourcing``, into ``.venv`` and runs
``python bench/append.py``), or ``python bench/append.py --json`` from the repository root
(``--no-postgres`` without a PostgreSQL server; ``--postgres URL`` for another one).
"""
from __future__ import annotations

import argparse
import http.client
import json
import math
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
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Sequence
from urllib.parse import urlsplit, urlunsplit

# Run as ``python bench/append.py``, sys.path starts at bench/, not at the repository root.
REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

import psycopg  # noqa: E402
from psycopg.conninfo import conninfo_to_dict  # noqa: E402

from events.envelope import NewEvent, canonical_json  # noqa: E402
from events.postgres_store import PostgresEventStore, upgrade_schema  # noqa: E402
from events.sqlite_store import COLUMNS, INSERT, SQLiteEventStore, create_schema  # noqa: E402
from events.store import EventStore  # noqa: E402
from service.deployment import admin_token  # noqa: E402
from service.simulator.server_process import free_port, wait_until_ready  # noqa: E402

TOURNAMENT = "bench"
STREAMS = ("match-m1", "match-m2", "match-m3", "match-m4")
EVENT_TYPE = "CardsPlayed"
HTTP_TIMEOUT = 10.0       # seconds, for every request to the server
SERVER_START_TIMEOUT = 30.0
DEFAULT_POSTGRES = "postgresql://postgres@127.0.0.1:5432"
PG_NODES = (1, 2, 3)      # the node counts of (e)
GOAL_A = 1.0              # (a)/(c): the store over the library's recorder
GOAL_E = 1.5              # (e): best of 2 and 3 nodes over (d)
GOAL_F = 1.0              # (f): the store over the library's recorder


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


def check_stored(store: EventStore, events: int, part: str = "(a)") -> None:
    """A fast but wrong store is no result: every event must be there and the chain intact."""
    report = store.verify(TOURNAMENT)
    if not report.ok or report.checked != events:
        raise BenchError(f"{part} stored {report.checked} of {events} events, "
                         f"chain ok={report.ok}: {report.problem}")


def stored_rows(path: Path) -> list[tuple]:
    with sqlite3.connect(path) as conn:
        return conn.execute(f"SELECT {', '.join(COLUMNS)} FROM events ORDER BY position").fetchall()


# --- (b) plain SQLite, and the per-row commit baseline for (d) --------------------------------

def bench_plain_inserts(path: Path, rows: list[tuple], rows_per_commit: int) -> float:
    """Plain sqlite3 inserting ``rows`` into a fresh database with the store's schema, one
    durable commit per ``rows_per_commit`` rows: all of them for (b), ``--batch`` for (b'), 1 for
    the (d) baseline."""
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
    AUTH["Authorization"] = f"Bearer {admin_token(str(db), 'bench/append.py')}"
    return spawn_serve(["--port", str(port), "--db", str(db), "--max-group", str(max_group)],
                       REPO_ROOT, log_path)


def spawn_serve(options: list[str], cwd: Path, log_path: Path) -> subprocess.Popen:
    """``python -m service.cli serve --host 127.0.0.1 <options>`` in a process of its own,
    its output to ``log_path``."""
    command = [sys.executable, "-m", "service.cli", "serve", "--host", "127.0.0.1", *options]
    # The repository root on the path too, so the module is found without an installed package.
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        filter(None, [str(REPO_ROOT), os.environ.get("PYTHONPATH")]))}
    with open(log_path, "wb") as log:
        return subprocess.Popen(command, cwd=cwd, env=env, stdout=log,
                                stderr=subprocess.STDOUT)


def stop_server(server: subprocess.Popen) -> None:
    stop_servers([server])


def stop_servers(servers: Sequence[subprocess.Popen]) -> None:
    """SIGTERM to all (each finishes its running requests and closes its store), then wait."""
    for server in servers:
        if server.poll() is None:
            server.terminate()
    for server in servers:
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


def run_clients(ports: Sequence[int], tournament_id: str, events: int, clients: int,
                time_limit: float, health_only: bool) -> dict:
    """``clients`` threads, client c on ``ports[c % len(ports)]`` (round-robin over the nodes)."""
    shares = [events // clients + (1 if c < events % clients else 0) for c in range(clients)]
    gate = threading.Barrier(clients + 1)
    deadline = time.monotonic() + time_limit
    threads = [Client(c, ports[c % len(ports)], tournament_id, share, gate, deadline,
                      health_only)
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
        return run_clients([port], create_tournament(port), events, clients, time_limit,
                           health_only)
    finally:
        stop_server(server)


# --- (e) and (f) on PostgreSQL ----------------------------------------------------------------

class PostgresServer:
    """The server of ``--postgres``: a fresh database for each run of (e) and (f), dropped after
    it (named ``paiju_bench_<pid>_<label>``, so that two runs of the bench never meet)."""

    def __init__(self, url: str):
        self.url = url
        self.prefix = f"paiju_bench_{os.getpid()}_"

    def admin(self) -> psycopg.Connection:
        return psycopg.connect(self.url, autocommit=True, connect_timeout=5)

    def settings(self) -> dict:
        """What the figures depend on: the version and the durability of a commit."""
        with self.admin() as conn:
            rows = conn.execute(
                "SELECT name, setting FROM pg_settings WHERE name IN ('server_version', "
                "'fsync', 'synchronous_commit', 'wal_sync_method', 'commit_delay', "
                "'max_connections') ORDER BY name").fetchall()
        return dict(rows)

    def url_of(self, name: str) -> str:
        """``--postgres`` with its database replaced (user, host, port and query kept)."""
        return urlunsplit(urlsplit(self.url)._replace(path="/" + name))

    @contextmanager
    def database(self, label: str) -> Iterator[str]:
        name = self.prefix + label
        with self.admin() as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{name}"')
        try:
            yield self.url_of(name)
        finally:
            with self.admin() as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def shown_url(url: str) -> str:
    """``url`` as it may be printed: without its password."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    return urlunsplit(parts._replace(netloc=parts.netloc.replace(f":{parts.password}@", ":***@")))


# (f) the store, and the eventsourcing library's PostgreSQL recorder

def bench_pg_store(url: str, events: int, batch: int) -> float:
    """(a) on PostgreSQL: the same batches, one ``append`` (one transaction) each."""
    batches = store_batches(events, batch)
    upgrade_schema(url)  # what `paiju db upgrade` does: the schema, its indexes and triggers
    store = PostgresEventStore(url, pool_size=2)
    try:
        started = time.perf_counter()
        for b in batches:
            store.append(TOURNAMENT, b)
        elapsed = time.perf_counter() - started
        check_stored(store, events, "(f)")
    finally:
        store.close()
    return rate(events, elapsed)


def bench_pg_eventsourcing(url: str, events: int, batch: int) -> float:
    """(c) on PostgreSQL: ``PostgresApplicationRecorder.insert_events`` with (c)'s payloads.
    Raises ImportError if the library is missing."""
    from eventsourcing.persistence import StoredEvent
    from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore

    batches = eventsourcing_batches(StoredEvent, events, batch)
    info = conninfo_to_dict(url)
    datastore = PostgresDatastore(info.get("dbname"), info.get("host"), info.get("port"),
                                  info.get("user"), info.get("password"))
    try:
        recorder = PostgresApplicationRecorder(datastore)
        recorder.create_table()
        started = time.perf_counter()
        for b in batches:
            recorder.insert_events(b)
        elapsed = time.perf_counter() - started
        with datastore.transaction(commit=False) as cursor:
            cursor.execute("SELECT count(*) AS n FROM stored_events")
            stored = cursor.fetchone()["n"]
    finally:
        datastore.close()
    if stored != events:
        raise BenchError(f"(f) the eventsourcing recorder stored {stored} of {events} events")
    return rate(events, elapsed)


def pg_store_and_library(pg: PostgresServer, args: argparse.Namespace,
                         notes: list[str]) -> tuple[dict, dict]:
    """(f)'s two in alternating rounds, each on a fresh database, as (a) and (c)."""
    rounds: dict[str, list[float]] = {"f_pg_store_append": [], "f_eventsourcing_pg_recorder": []}
    library = True
    for n in range(1, args.rounds + 1):
        with pg.database(f"f_store_{n}") as url:
            rounds["f_pg_store_append"].append(bench_pg_store(url, args.events, args.batch))
        if library:
            try:
                with pg.database(f"f_eventsourcing_{n}") as url:
                    rounds["f_eventsourcing_pg_recorder"].append(
                        bench_pg_eventsourcing(url, args.events, args.batch))
            except ImportError:
                library = False
    if not library:
        notes.append("(f)'s recorder skipped: the eventsourcing library is not installed")
    notes.append(f"(f): the median of {args.rounds} alternating round(s)")
    return {key: statistics.median(values) if values else None
            for key, values in rounds.items()}, rounds


# (e) several nodes on one database

def free_ports(count: int) -> list[int]:
    ports: list[int] = []
    while len(ports) < count:
        port = free_port()
        if port not in ports:
            ports.append(port)
    return ports


def node_threads(clients: int, nodes: int, threads: int | None = None) -> int:
    """A node's request threads (``--pg-threads``, else one for each client it serves: its
    share of the keep-alive connections, so that no request waits for a thread)."""
    return threads or max(1, math.ceil(clients / nodes))


def bench_pg_http(pg: PostgresServer, workdir: Path, nodes: int, args: argparse.Namespace) -> dict:
    """``nodes`` ``paiju serve`` processes on one fresh database, the load of (d) over them."""
    with pg.database(f"e_{nodes}_nodes") as url:
        upgrade_schema(url)
        AUTH["Authorization"] = f"Bearer {admin_token(url, 'bench/append.py')}"
        ports = free_ports(nodes)
        threads = node_threads(args.clients, nodes, args.pg_threads)
        servers: list[tuple[subprocess.Popen, int, Path]] = []
        try:
            for k, port in enumerate(ports, 1):
                # A working directory of its own: a node's files (var/, its checkpoint file)
                # are its own, as on a machine of its own, and none lands in the repository.
                node_dir = workdir / f"e-{nodes}-nodes-{k}"
                node_dir.mkdir()
                log_path = workdir / f"e-{nodes}-nodes-{k}.log"
                servers.append((spawn_serve(["--port", str(port), "--db", url,
                                             "--threads", str(threads)], node_dir, log_path),
                                port, log_path))
            for server, port, log_path in servers:
                wait_until_healthy(server, port, log_path)
            tournament_id = create_tournament(ports[0])
            result = run_clients(ports, tournament_id, args.http_events, args.clients,
                                 args.http_time_limit, health_only=False)
        finally:
            stop_servers([server for server, _, _ in servers])
        check_pg_posts(url, tournament_id, args.http_events, nodes)
    return {**result, "threads_per_node": threads}


def check_pg_posts(url: str, tournament_id: str, posted: int, nodes: int) -> None:
    """Every 201 is a stored event, and the chain the nodes wrote together is intact."""
    store = PostgresEventStore(url, pool_size=2)
    try:
        report = store.verify(tournament_id)
        teams = sum(1 for _ in store.read_tournament(tournament_id, type="TeamRegistered"))
    finally:
        store.close()
    if not report.ok or teams != posted:
        raise BenchError(f"(e) {nodes} node(s) stored {teams} of {posted} posted events, "
                         f"chain ok={report.ok}: {report.problem}")


def run_postgres(args: argparse.Namespace, workdir: Path, rates: dict, latency: dict,
                 notes: list[str]) -> tuple[dict, dict, bool]:
    """(e) and (f) into ``rates`` and ``latency``: (settings, (f)'s rounds, whether a part
    failed). A server that cannot be reached skips both with a note; a part that fails is
    reported (and fails the run, as (d) does)."""
    keys = [f"e_pg_{n}_nodes" for n in PG_NODES] + ["f_pg_store_append",
                                                      "f_eventsourcing_pg_recorder"]
    rates.update(dict.fromkeys(keys))
    pg = PostgresServer(args.postgres)
    try:
        settings = pg.settings()
    except psycopg.Error as error:
        notes.append(f"(e) and (f) skipped: cannot reach PostgreSQL at {shown_url(args.postgres)}"
                     f" ({str(error).strip().splitlines()[0] if str(error).strip() else error!r});"
                     " --postgres URL names another server, --no-postgres skips them")
        return {}, {}, False
    notes.append("(e) and (f) on PostgreSQL " + ", ".join(f"{k}={v}" for k, v in
                                                            settings.items()))
    failed = False
    for nodes in PG_NODES:
        key = f"e_pg_{nodes}_nodes"
        try:
            http = bench_pg_http(pg, workdir, nodes, args)
            rates[key] = http.pop("events_per_s")
            latency[key] = http
            notes.append(f"{key}: --threads {http['threads_per_node']} per node, request latency "
                         f"p50 {http['p50_ms']:.1f} ms, p99 {http['p99_ms']:.1f} ms")
        except (BenchError, OSError, psycopg.Error) as error:
            failed = True
            notes.append(f"{key} failed: {error}")
    f_rounds: dict = {}
    try:
        f_rates, f_rounds = pg_store_and_library(pg, args, notes)
        rates.update(f_rates)
    except (BenchError, psycopg.Error) as error:
        failed = True
        notes.append(f"(f) failed: {error}")
    return settings, f_rounds, failed


# --- report -----------------------------------------------------------------------------------

def environment(workdir: Path) -> dict:
    return {"python": f"{platform.python_implementation()} {platform.python_version()}",
            "sqlite": sqlite3.sqlite_version,
            "platform": platform.platform(),
            "cpus": os.cpu_count(),
            # the machine may be shared: how busy it was when the bench started (1, 5, 15 min)
            "load_average": " ".join(f"{x:.2f}" for x in os.getloadavg()),
            "disk_path": str(workdir)}


def ratio(numerator: float | None, denominator: float | None) -> float | None:
    return numerator / denominator if numerator and denominator else None


def ratios(rates: dict, rounds: dict, f_rounds: dict | None) -> dict:
    """The ratios; (e)'s and (f)'s only when they were asked for (``f_rounds`` not None)."""
    found = {"a_over_c": round_by_round(rounds, "a_store_append", "c_eventsourcing_recorder"),
             "b_batch_over_c": round_by_round(rounds, "b_rows_per_batch_commit",
                                              "c_eventsourcing_recorder"),
             "a_over_b": ratio(rates["a_store_append"], rates["b_sqlite_one_transaction"]),
             "d_over_commit_per_row": ratio(rates["d_http"], rates["sqlite_commit_per_row"]),
             "d_over_health": ratio(rates["d_http"], rates["http_health"]),
             "d_over_no_group_commit": ratio(rates["d_http"], rates["d_http_no_group_commit"])}
    if f_rounds is None:
        return found
    for nodes in PG_NODES:
        found[f"e_{nodes}_over_d"] = ratio(rates[f"e_pg_{nodes}_nodes"], rates["d_http"])
    several = [rates[f"e_pg_{n}_nodes"] for n in PG_NODES if n > 1 and rates[f"e_pg_{n}_nodes"]]
    found["e_best_over_d"] = ratio(max(several), rates["d_http"]) if several else None
    found["f_over_recorder"] = round_by_round(f_rounds, "f_pg_store_append",
                                              "f_eventsourcing_pg_recorder")
    return found


def round_by_round(rounds: dict, a_key: str, c_key: str) -> float | None:
    """(a)/(c), or (f)'s: the median of each round's first figure over the second's run right
    after it. A ratio of neighbours: the fsync time drifts between rounds far more than within
    one pair of runs."""
    pairs = zip(rounds.get(a_key, ()), rounds.get(c_key, ()))
    per_round = [ratio(a, c) for a, c in pairs]
    per_round = [r for r in per_round if r is not None]
    return statistics.median(per_round) if per_round else None


def rate_labels(args: argparse.Namespace) -> dict:
    labels = {
        "a_store_append":
            f"(a) SQLiteEventStore.append, {args.events:,} events, batches of {args.batch}",
        "b_sqlite_one_transaction":
            f"(b) plain sqlite3 executemany, the same {args.events:,} rows, one transaction",
        "b_rows_per_batch_commit":
            f"(b') the same, one commit per {args.batch} rows: (a)'s ceiling",
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
    if args.no_postgres:
        return labels
    for nodes in PG_NODES:
        labels[f"e_pg_{nodes}_nodes"] = (
            f"(e) the same posts on PostgreSQL, {nodes} node{'s' if nodes > 1 else ''}, "
            f"{args.clients} clients round-robin")
    labels["e_beside_d"] = "    beside (e): (d), the same load on one SQLite node"
    labels["f_pg_store_append"] = (f"(f) PostgresEventStore.append, {args.events:,} events, "
                                   f"batches of {args.batch}")
    labels["f_eventsourcing_pg_recorder"] = (
        f"    beside (f): eventsourcing PostgresApplicationRecorder, batches of {args.batch}")
    return labels


SAME_AS = {"e_beside_d": "d_http"}  # a reference line that repeats another part's figure

RATIO_LABELS = {
    "a_over_c": "(a)/(c) store vs eventsourcing recorder",
    "b_batch_over_c": "(b')/(c) (a)'s rows inserted raw vs the recorder: the most (a)/(c) can be",
    "a_over_b": "(a)/(b) store vs one plain transaction",
    "d_over_commit_per_row": "(d)/(per-row commit) HTTP with group commit vs a fsync per row",
    "d_over_health": "(d)/(health) a durable append vs a request that does nothing",
    "d_over_no_group_commit": "(d)/(no group commit) the gain of group commit",
    "e_best_over_d": "(e)/(d) best of 2 and 3 PostgreSQL nodes vs one SQLite node",
    "f_over_recorder": "(f)/(recorder) PostgreSQL store vs eventsourcing's recorder",
}

GOALS = {"a_over_c": GOAL_A, "e_best_over_d": GOAL_E, "f_over_recorder": GOAL_F}

# The lines that also show the ratio they are judged by: (ratio key, how it is named).
BESIDE = {"a_store_append": ("a_over_c", "(a)/(c)"),
          "b_rows_per_batch_commit": ("b_batch_over_c", "(b')/(c)"),
          **{f"e_pg_{n}_nodes": (f"e_{n}_over_d", "(e)/(d)") for n in PG_NODES},
          "f_pg_store_append": ("f_over_recorder", "(f)/(recorder)")}


def beside(key: str, ratios_: dict) -> str:
    """(a)'s line also shows the figure the store is judged by, (a) over (c); (e)'s each its
    own over (d); (f)'s the store over the library's recorder."""
    if key not in BESIDE or BESIDE[key][0] not in ratios_:
        return ""
    ratio_key, name = BESIDE[key]
    value = ratios_[ratio_key]
    return f"   {name} = {value:.3g}x" if value is not None else f"   {name} = n/a"


def goal(key: str, value: float | None) -> str:
    if key not in GOALS:
        return ""
    wanted = GOALS[key]
    verdict = "n/a" if value is None else "met" if value >= wanted else "NOT met"
    return f"   goal >= {wanted:g}x: {verdict}"


def print_report(report: dict, args: argparse.Namespace) -> None:
    for key in ("python", "sqlite", "platform", "cpus", "load_average", "disk_path"):
        print(f"{key:<12} {report[key]}")
    if report.get("postgres"):
        settings = report["postgres"]["settings"]
        print(f"{'postgres':<12} {settings.get('server_version', '?')} at "
              f"{report['postgres']['url']}")
    print()
    for key, label in rate_labels(args).items():
        value = report["events_per_s"][SAME_AS.get(key, key)]
        shown = f"{value:>10,.0f} events/s" if value is not None else f"{'n/a':>10}"
        print(f"{label:<80}{shown}{beside(key, report['ratios'])}")
    print()
    for key, label in RATIO_LABELS.items():
        if key not in report["ratios"]:
            continue
        value = report["ratios"][key]
        shown = f"{value:>10.3g}x" if value is not None else f"{'n/a':>10}"
        print(f"{label:<80}{shown}{goal(key, value)}")
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
    parser.add_argument("--postgres", default=DEFAULT_POSTGRES, metavar="URL",
                        help="the PostgreSQL server of (e) and (f), where they make (and drop) "
                             f"databases paiju_bench_*; default {DEFAULT_POSTGRES}")
    parser.add_argument("--no-postgres", action="store_true",
                        help="skip (e) and (f), the parts on PostgreSQL")
    parser.add_argument("--pg-threads", type=int, metavar="N",
                        help="--threads of each node in (e); default: the node's share of "
                             "--clients (one thread per keep-alive connection)")
    args = parser.parse_args()
    if min(args.events, args.batch, args.http_events, args.clients, args.commit_rows,
           args.http_time_limit, args.rounds, args.pg_threads or 1) < 1:
        parser.error("every count must be at least 1")
    if args.commit_rows > args.events:
        parser.error("--commit-rows takes its rows from (a), so it cannot exceed --events")
    if not args.no_postgres and not args.postgres.startswith(("postgresql://", "postgres://")):
        parser.error("--postgres takes a postgresql:// URL")
    return args


def store_and_library(workdir: Path, args: argparse.Namespace,
                      notes: list[str]) -> tuple[dict, dict]:
    """(a), (b') and (c) in alternating rounds, each on a fresh database: the disk's fsync time drifts
    (other work on the machine), and alternating puts both under the same drift. Their rates
    are the medians of the rounds; the rounds themselves go to the JSON report."""
    rounds: dict[str, list[float]] = {"a_store_append": [], "b_rows_per_batch_commit": [],
                                      "c_eventsourcing_recorder": []}
    synchronous = None
    for n in range(1, args.rounds + 1):
        store_db = workdir / f"store-{n}.db"
        rounds["a_store_append"].append(bench_store(store_db, args.events, args.batch))
        rounds["b_rows_per_batch_commit"].append(bench_plain_inserts(
            workdir / f"rows-{n}.db", stored_rows(store_db), args.batch))
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
    notes.append(f"(a), (b') and (c): the median of {args.rounds} alternating round(s)")
    return {key: statistics.median(values) if values else None
            for key, values in rounds.items()}, rounds


def run_all(args: argparse.Namespace, workdir: Path) -> dict:
    machine = environment(workdir)  # before the bench itself loads the machine
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
    postgres, f_rounds, failed = None, None, False
    if args.no_postgres:
        notes.append("(e) and (f) skipped: --no-postgres")
    else:
        settings, f_rounds, failed = run_postgres(args, workdir, rates, latency, notes)
        postgres = {"url": shown_url(args.postgres), "settings": settings} if settings else None
    return {**machine,
            "postgres": postgres,
            "counts": {"events": args.events, "batch": args.batch,
                       "http_events": args.http_events, "clients": args.clients,
                       "http_time_limit_s": args.http_time_limit,
                       "commit_rows": args.commit_rows, "rounds": args.rounds,
                       "postgres_nodes": [] if args.no_postgres else list(PG_NODES)},
            "events_per_s": rates, "ratios": ratios(rates, rounds, f_rounds),
            "http_latency_ms": latency, "a_c_rounds": rounds, "f_rounds": f_rounds or {},
            "failed": failed or rates["d_http"] is None, "notes": notes}


def main() -> int:
    args = parse_args()
    with tempfile.TemporaryDirectory(prefix="paiju-bench-", dir=args.dir) as tmp:
        report = run_all(args, Path(tmp))
    print_report(report, args)
    if args.json:
        print(json.dumps(report))
    return 1 if report["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
