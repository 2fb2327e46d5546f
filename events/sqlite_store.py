"""The embedded SQLite event store (the default).

Durability first: WAL journal, ``synchronous=FULL``. Writes practise *group commit*: appends that
arrive while a commit is being made wait for the next one, and all of them share its single
fsync, made by the thread of the first of them on the store's one writing connection (no writer
thread: events/group_commit.py). Each append after the first of a group runs inside its
own SAVEPOINT, so a refused append (version conflict, idempotency conflict, a rule its ``decide``
enforces) rolls back alone and the others still commit; the first needs none (its refusal rolls
the transaction back and begins it again). ``decide`` runs inside the transaction, after the appends before it
in the same group: it judges an event on exactly the log that event will follow.
The writer reads the tails it needs inside its write transaction, so a second process writing the
same file (which SQLite serialises) cannot break positions, versions or the chain.

Reads borrow a pooled connection for each query and use keyset pagination: every read is a
series of bounded pages, and because the log is append-only, paging after a position never
skips or repeats.
"""
from __future__ import annotations

import queue
import sqlite3
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterable, Iterator, Sequence

from rules.messages import Message

from .envelope import NewEvent, Record
from .group_commit import CommitGroups, Job
from .sql_reads import (  # noqa: F401 - COLUMNS: bench/append.py takes it from here
    COLUMNS,
    INSERT,
    SELECT,
    first_positions,
    last_position_row,
    paged,
    read_stream_rows,
    stream_head_row,
    tournament_head_row,
    tournament_rows,
)
from .storage.sqlite_schema import SCHEMA_VERSION, upgrade_connection
from .store import (
    AppendResult,
    Decide,
    EventStore,
    RestoreConflict,
    plan_append,
)

MMAP_BYTES = 1 << 28  # readers map the file: a page read after another's commit is no syscall


class SQLiteEventStore(EventStore):
    def __init__(self, path: str | Path, synchronous: str = "FULL", max_group: int = 512,
                 clock: Callable[[], str] | None = None):
        self.path = str(path)
        if clock is not None:
            self.clock = clock
        if self.path == ":memory:" or self.path.startswith("file:"):
            # Each connection would open its own empty database: the log lives in a file.
            raise ValueError("the SQLite store needs a database file path")
        Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self.synchronous = synchronous
        self._idle: queue.LifoQueue[sqlite3.Connection] = queue.LifoQueue()
        self._opened: list[sqlite3.Connection] = []
        self._opened_lock = threading.Lock()
        writer_connection = self._connect()
        create_schema(writer_connection)
        self._writer = _GroupCommitWriter(writer_connection, self.clock, max_group,
                                          self._announce_records)
        self.group_sizes = self._writer.groups.sizes

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=30)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute(f"PRAGMA synchronous={self.synchronous}")
        conn.execute(f"PRAGMA mmap_size={MMAP_BYTES}")
        return conn

    def _query(self, sql: str, params: Sequence = ()) -> list[tuple]:
        """Run one read on a pooled connection. A connection serves one query at a time and
        goes back to the pool, so the pool never holds more than the reads ever run at once,
        whichever threads ran them."""
        try:
            conn = self._idle.get_nowait()
        except queue.Empty:
            conn = self._connect()
            with self._opened_lock:
                self._opened.append(conn)
        try:
            return conn.execute(sql, params).fetchall()
        finally:
            self._idle.put(conn)

    # --- writes -------------------------------------------------------------------------
    def append(self, tournament_id: str, events: Sequence[NewEvent],
               decide: Decide | None = None) -> AppendResult:
        # word of the commit comes from the group's leader, a group at a time (_GroupCommitWriter)
        return self._writer.groups.submit(Job(tournament_id, list(events), decide))

    def restore(self, records: Iterable[Record]) -> int:
        """One transaction on a connection of its own: SQLite serialises it with the writer's."""
        conn = self._connect()
        try:
            conn.execute("BEGIN IMMEDIATE")
            count, seen = 0, set()
            for record in records:
                if record.tournament_id not in seen:
                    seen.add(record.tournament_id)
                    if tournament_head_row(lambda q, p: conn.execute(q, p).fetchall(),
                                        record.tournament_id):
                        raise RestoreConflict(Message("the database already holds tournament "
                                                      "{tournament_id!r}",
                                                      tournament_id=record.tournament_id))
                conn.execute(INSERT, record)
                count += 1
            conn.execute("COMMIT")
            return count
        except sqlite3.IntegrityError as error:
            raise RestoreConflict(Message("a position or event id is already taken: {error}",
                                          error=error)) from None
        finally:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            conn.close()

    # --- reads --------------------------------------------------------------------------
    def get(self, event_id: str) -> Record | None:
        rows = self._query(SELECT + "WHERE id = ?", (event_id,))
        return Record(*rows[0]) if rows else None

    def stream_head(self, stream: str) -> tuple[str, int] | None:
        return stream_head_row(self._query, stream)

    def tournament_head(self, tournament_id: str) -> tuple[int, str] | None:
        return tournament_head_row(self._query, tournament_id)

    def last_position(self) -> int:
        return last_position_row(self._query)

    def read_stream(self, stream, from_version=1, limit=None, until_position=None) -> Iterator[Record]:
        return read_stream_rows(self._query, stream, from_version, limit, until_position)

    def read_tournament(self, tournament_id, after=0, limit=None, stream=None, type=None,
                        until_position=None):
        return tournament_rows(self._query, tournament_id, after, limit, stream, type,
                               until_position)

    def read_type(self, type, after=0, limit=None):
        return paged(self._query, "type = ?", [type], "position", after, limit)

    def read_all(self, after=0, limit=None):
        return paged(self._query, "1 = 1", [], "position", after, limit)

    def tournament_ids(self) -> list[str]:
        return first_positions(self._query)

    def schema_versions(self) -> tuple[int, int]:
        return self._query("PRAGMA user_version")[0][0], SCHEMA_VERSION

    def close(self) -> None:
        self._writer.stop()
        with self._opened_lock:
            for conn in self._opened:
                conn.close()
            self._opened.clear()


def create_schema(conn: sqlite3.Connection) -> None:
    """Make or upgrade every table of the file (events/storage/sqlite_schema.py); a file
    written by a newer paiju is refused (:class:`NewerSchema`, a RuntimeError)."""
    upgrade_connection(conn)


class _TransactionTail:
    """The :class:`events.store.Tail` of the writer's open transaction. While one append is
    planned (:meth:`plan`), a stream's head is read once: the decision asks for it, and the
    sealing asks again for the same stream, on a log that cannot move between the two (the
    append's rows go in after its plan, and the transaction holds SQLite's one write lock)."""

    ID_CHUNK = 500  # ids per IN (…): under the 999 variables older SQLite builds allow

    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn
        self._heads: dict[str, tuple[str, int] | None] | None = None  # while a plan runs

    @contextmanager
    def plan(self):
        """One append's plan: the heads read during it are remembered until it ends."""
        self._heads = {}
        try:
            yield self
        finally:
            self._heads = None

    def query(self, sql: str, params: Sequence = ()) -> list[tuple]:
        return self.conn.execute(sql, params).fetchall()

    def records_by_id(self, ids):
        found = {}
        for i in range(0, len(ids), self.ID_CHUNK):
            chunk = ids[i:i + self.ID_CHUNK]
            rows = self.query(SELECT + f"WHERE id IN ({', '.join('?' * len(chunk))})", chunk)
            found.update((row[1], Record(*row)) for row in rows)
        return found

    def stream_head(self, stream):
        heads = self._heads
        if heads is None:
            return stream_head_row(self.query, stream)
        if stream not in heads:
            heads[stream] = stream_head_row(self.query, stream)
        return heads[stream]

    def tournament_head(self, tournament_id):
        return tournament_head_row(self.query, tournament_id)

    def last_position(self):
        return last_position_row(self.query)

    def read_stream(self, stream, from_version=1, limit=None, until_position=None):
        return read_stream_rows(self.query, stream, from_version, limit, until_position)


class _GroupCommitWriter:
    """The store's one writing connection, and the groups that take turns on it: every append
    of the file is one group's (SQLite has one writer), whichever tournament it is for."""

    def __init__(self, conn: sqlite3.Connection, clock, max_group: int,
                 committed: Callable[[list[Record]], None] = lambda records: None):
        self.conn, self.clock = conn, clock
        self.committed = committed  # told of each group's records, in position order
        self.tail = _TransactionTail(conn)
        self.groups = CommitGroups(self._commit, max_group, key=lambda job: None)

    def stop(self) -> None:
        """Commit what was submitted before the stop, then close; later appends are refused."""
        self.groups.close()
        self.conn.close()

    def _commit(self, jobs: list[Job]) -> None:
        conn = self.conn
        try:
            conn.execute("BEGIN IMMEDIATE")
            recorded_at = self.clock()
            written = False  # does the transaction hold rows of an earlier job of the group?
            for job in jobs:
                if written:
                    self._append_beside_others(job, recorded_at)
                else:
                    written = self._append_first(job, recorded_at)
            conn.execute("COMMIT")
        except Exception as error:  # the commit itself failed: nobody's events are stored
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            for job in jobs:
                if job.error is None:
                    job.result, job.error = None, error
        else:
            # from here, in commit order, so that a listener gets every event once and in order
            self.committed([r for job in jobs if job.error is None and job.result.created
                            for r in job.result.records])

    def _plan_and_insert(self, job: Job, recorded_at: str) -> None:
        with self.tail.plan() as tail:
            job.result = plan_append(job.tournament_id, job.events, tail, recorded_at,
                                     job.decide)
        if job.result.created:
            # Plain tuples: sqlite3 binds a tuple subclass (a Record) item by item through the
            # sequence protocol, measurably slower per row than a tuple's own items.
            self.conn.executemany(INSERT, map(tuple, job.result.records))

    def _append_first(self, job: Job, recorded_at: str) -> bool:
        """An append with no other job's rows in the transaction, so that a refusal rolls the
        whole transaction back and begins it again: no savepoint, whose sub-journal would copy
        every page the batch touches (a lone append, the common case, pays nothing for the
        isolation of others). Returns whether it wrote rows."""
        try:
            self._plan_and_insert(job, recorded_at)
            return job.result.created
        except Exception as error:
            job.error = error
            self.conn.execute("ROLLBACK")
            self.conn.execute("BEGIN IMMEDIATE")
            return False

    def _append_beside_others(self, job: Job, recorded_at: str) -> None:
        """An append after others of its group: a savepoint keeps theirs if it is refused."""
        self.conn.execute("SAVEPOINT append")
        try:
            self._plan_and_insert(job, recorded_at)
        except Exception as error:
            self.conn.execute("ROLLBACK TO append")
            job.error = error
        finally:
            self.conn.execute("RELEASE append")
