"""The embedded SQLite event store (the default).

Durability first: WAL journal, ``synchronous=FULL``. Writes go through one writer thread that
practises *group commit*: appends that arrive while a commit is being made wait for the next one,
and all of them share its single fsync. Each append runs inside its own SAVEPOINT, so a refused
append (version conflict, idempotency conflict, a rule its ``decide`` enforces) rolls back alone
and the others still commit. ``decide`` runs inside the transaction, after the appends before it
in the same group: it judges an event on exactly the log that event will follow.
The writer reads the tails it needs inside its write transaction, so a second process writing the
same file (which SQLite serialises) cannot break positions, versions or the chain.

Reads use one connection per thread and keyset pagination: every read is a series of bounded
pages, and because the log is append-only, paging after a position never skips or repeats.
"""
from __future__ import annotations

import queue
import sqlite3
import threading
from pathlib import Path
from typing import Iterator, Sequence

import sqlite_utils

from .envelope import NewEvent, Record
from .store import AppendResult, Decide, EventStore, plan_append

SCHEMA_VERSION = 1
COLUMNS = ("position", "id", "tournament_id", "stream", "version", "type", "schema_version",
           "data", "meta", "recorded_at", "prev_hash", "hash")
SELECT = "SELECT " + ", ".join(COLUMNS) + " FROM events "
INSERT = f"INSERT INTO events ({', '.join(COLUMNS)}) VALUES ({', '.join('?' * len(COLUMNS))})"
PAGE = 500

# One index per read path (and the two uniqueness guarantees).
INDEXES = (
    (("id",), True),                               # idempotency, GET event by id
    (("stream", "version"), True),                 # read a stream; one event per version
    (("tournament_id", "position"), False),        # read a tournament, verify, export
    (("tournament_id", "type", "position"), False),  # a tournament's events of one type
    (("type", "position"), False),                 # all events of one type (tournament list)
)


class SQLiteEventStore(EventStore):
    def __init__(self, path: str | Path, synchronous: str = "FULL", max_group: int = 512):
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self.synchronous = synchronous
        self._local = threading.local()
        self._readers: list[sqlite3.Connection] = []
        self._readers_lock = threading.Lock()
        writer_connection = self._connect()
        create_schema(writer_connection)
        self._writer = _GroupCommitWriter(writer_connection, self.clock, max_group)

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=30)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute(f"PRAGMA synchronous={self.synchronous}")
        return conn

    def _reader(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._local.conn = self._connect()
            with self._readers_lock:
                self._readers.append(conn)
        return conn

    # --- writes -------------------------------------------------------------------------
    def append(self, tournament_id: str, events: Sequence[NewEvent],
               decide: Decide | None = None) -> AppendResult:
        return self._writer.submit(tournament_id, list(events), decide)

    # --- reads --------------------------------------------------------------------------
    def get(self, event_id: str) -> Record | None:
        row = self._reader().execute(SELECT + "WHERE id = ?", (event_id,)).fetchone()
        return Record(*row) if row else None

    def stream_head(self, stream: str) -> tuple[str, int] | None:
        return _stream_head(self._reader(), stream)

    def last_position(self) -> int:
        return _last_position(self._reader())

    def read_stream(self, stream, from_version=1, limit=None, until_position=None) -> Iterator[Record]:
        return _read_stream(self._reader, stream, from_version, limit, until_position)

    def read_tournament(self, tournament_id, after=0, limit=None, stream=None, type=None):
        where, params = "tournament_id = ?", [tournament_id]
        if stream is not None:
            where, params = where + " AND stream = ?", params + [stream]
        if type is not None:
            where, params = where + " AND type = ?", params + [type]
        return _paged(self._reader, where, params, "position", after, limit)

    def read_type(self, type, after=0, limit=None):
        return _paged(self._reader, "type = ?", [type], "position", after, limit)

    def tournament_ids(self) -> list[str]:
        rows = self._reader().execute("SELECT tournament_id, min(position) AS first FROM events "
                                      "GROUP BY tournament_id ORDER BY first")
        return [row[0] for row in rows]

    def close(self) -> None:
        self._writer.stop()
        with self._readers_lock:
            for conn in self._readers:
                conn.close()
            self._readers.clear()


def create_schema(conn: sqlite3.Connection) -> None:
    db = sqlite_utils.Database(conn)
    if "events" not in db.table_names():
        db["events"].create(
            {"position": int, "id": str, "tournament_id": str, "stream": str, "version": int,
             "type": str, "schema_version": int, "data": str, "meta": str, "recorded_at": str,
             "prev_hash": str, "hash": str},
            pk="position", not_null=set(COLUMNS) - {"position"}, column_order=list(COLUMNS))
    for columns, unique in INDEXES:
        db["events"].create_index(list(columns), unique=unique, if_not_exists=True)
    # Append-only by construction: the store itself can neither update nor delete an event.
    for action in ("UPDATE", "DELETE"):
        conn.execute(f"CREATE TRIGGER IF NOT EXISTS events_no_{action.lower()} BEFORE {action} "
                     "ON events BEGIN SELECT RAISE(ABORT, 'events are append-only'); END")
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


def _paged(connection, where: str, params: list, key: str, after: int, limit: int | None):
    """Rows in ``key`` order, a bounded page per query. ``connection`` is called for each page,
    so a generator carried to another thread uses that thread's connection."""
    sql = f"{SELECT}WHERE {where} AND {key} > ? ORDER BY {key} LIMIT ?"
    key_index = COLUMNS.index(key)
    remaining = limit
    while remaining is None or remaining > 0:
        size = PAGE if remaining is None else min(PAGE, remaining)
        rows = connection().execute(sql, (*params, after, size)).fetchall()
        yield from (Record(*row) for row in rows)
        if len(rows) < size:
            return
        after = rows[-1][key_index]
        remaining = None if remaining is None else remaining - len(rows)


def _read_stream(connection, stream, from_version, limit, until_position):
    where, params = "stream = ?", [stream]
    if until_position is not None:
        where, params = where + " AND position <= ?", params + [until_position]
    return _paged(connection, where, params, "version", from_version - 1, limit)


def _stream_head(conn, stream: str) -> tuple[str, int] | None:
    row = conn.execute("SELECT tournament_id, version FROM events WHERE stream = ? "
                       "ORDER BY version DESC LIMIT 1", (stream,)).fetchone()
    return (row[0], row[1]) if row else None


def _last_position(conn) -> int:
    return conn.execute("SELECT coalesce(max(position), 0) FROM events").fetchone()[0]


class _TransactionTail:
    """The :class:`events.store.Tail` of the writer's open transaction."""

    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn

    def records_by_id(self, ids):
        if not ids:
            return {}
        rows = self.conn.execute(SELECT + f"WHERE id IN ({', '.join('?' * len(ids))})", ids)
        return {row[1]: Record(*row) for row in rows}

    def stream_head(self, stream):
        return _stream_head(self.conn, stream)

    def tournament_head_hash(self, tournament_id):
        row = self.conn.execute("SELECT hash FROM events WHERE tournament_id = ? "
                                "ORDER BY position DESC LIMIT 1", (tournament_id,)).fetchone()
        return row[0] if row else None

    def last_position(self):
        return _last_position(self.conn)

    def read_stream(self, stream, from_version=1, limit=None, until_position=None):
        return _read_stream(lambda: self.conn, stream, from_version, limit, until_position)


class _Job:
    __slots__ = ("tournament_id", "events", "decide", "result", "error", "done")

    def __init__(self, tournament_id: str, events: list[NewEvent], decide: Decide | None):
        self.tournament_id, self.events, self.decide = tournament_id, events, decide
        self.result: AppendResult | None = None
        self.error: BaseException | None = None
        self.done = threading.Event()


class _GroupCommitWriter:
    def __init__(self, conn: sqlite3.Connection, clock, max_group: int):
        self.conn, self.clock, self.max_group = conn, clock, max_group
        self.tail = _TransactionTail(conn)
        self.queue: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._run, name="paiju-writer", daemon=True)
        self.thread.start()

    def submit(self, tournament_id: str, events: list[NewEvent],
               decide: Decide | None) -> AppendResult:
        if not self.thread.is_alive():
            raise RuntimeError("the event store is closed")
        job = _Job(tournament_id, events, decide)
        self.queue.put(job)
        job.done.wait()
        if job.error is not None:
            raise job.error
        return job.result

    def stop(self) -> None:
        if self.thread.is_alive():
            self.queue.put(None)
            self.thread.join()
        self.conn.close()

    def _run(self) -> None:
        while True:
            jobs, stopping = self._next_group()
            if jobs:
                self._commit(jobs)
            if stopping:
                return

    def _next_group(self) -> tuple[list[_Job], bool]:
        first = self.queue.get()
        if first is None:
            return [], True
        jobs = [first]
        while len(jobs) < self.max_group:
            try:
                job = self.queue.get_nowait()
            except queue.Empty:
                break
            if job is None:
                return jobs, True
            jobs.append(job)
        return jobs, False

    def _commit(self, jobs: list[_Job]) -> None:
        conn = self.conn
        try:
            conn.execute("BEGIN IMMEDIATE")
            recorded_at = self.clock()
            for job in jobs:
                self._append_one(job, recorded_at)
            conn.execute("COMMIT")
        except Exception as error:  # the commit itself failed: nobody's events are stored
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            for job in jobs:
                if job.error is None:
                    job.result, job.error = None, error
        finally:
            for job in jobs:
                job.done.set()

    def _append_one(self, job: _Job, recorded_at: str) -> None:
        self.conn.execute("SAVEPOINT append")
        try:
            job.result = plan_append(job.tournament_id, job.events, self.tail, recorded_at,
                                     job.decide)
            if job.result.created:
                self.conn.executemany(INSERT, job.result.records)
        except Exception as error:
            self.conn.execute("ROLLBACK TO append")
            job.error = error
        finally:
            self.conn.execute("RELEASE append")

