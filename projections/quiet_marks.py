"""Quiet marks: the match streams the timer need not fold at start-up, so that a start on a long
log folds only the matches that may still be running.

A match over (``status: "completed"``) or whose clock stands (paused by the referee) has no
pending deadline, whatever the rules say of its deadlines, until its stream moves again. The
timer marks such a stream "quiet as of (version, hash of its last event)" when it folds it, and
a later start folds only the matches *started and not known to be over or paused*: each
``MatchStarted`` whose stream has no mark, or has moved since its mark. Start-up so costs what
is live, not every match the log ever started.

A mark is derived, never the truth: it is only a hint to skip a fold, it holds only while the
stream's last event is still the one marked (an equal hash is the same history: every hash
chains every event of its tournament before it), and deleting every mark loses nothing but the
time of one full fold. Nothing else reads it; it is never part of an export, the hash chain or a
read. It is not stamped with the rules' code (as checkpoints are): "over" and "paused" are facts
of the folded history that a new version of the rules does not undo, and a match merely without
a time rule is not marked (it is folded at every start, as live matches are).

Where the marks live:

* :class:`SQLQuietMarks`, a table ``quiet_matches`` of the deployment's own database (the
  SQLite file, or PostgreSQL, made by ``paiju db upgrade``): shared by every node, and kept when
  a node loses its checkpoint file, when a new node starts, and when an upgrade of the rules
  makes every checkpoint foreign. The streams to fold are then one indexed query.
* :class:`FileQuietMarks`, the ``quiet`` table of the checkpoint file, for an app given a store
  of its own (tests), and :class:`NoQuietMarks` without either.
"""
from __future__ import annotations

import logging
import sqlite3
import threading
from abc import ABC, abstractmethod
from pathlib import Path
from typing import TYPE_CHECKING

from events.storage.sqlite_schema import upgrade_file

if TYPE_CHECKING:
    from events.store import EventStore

    from .checkpoints import CheckpointFile
    from .streams import StreamState

log = logging.getLogger("paiju.timer")

TABLE = "quiet_matches"
FLUSH_AT = 256  # marks waiting that are written without waiting for a flush

# The match streams started whose mark does not hold: no mark, or one of another last event
# (one of another hash, or the stream has moved past it). The (type, position) and the
# (stream, version) indexes of the log answer it, a mark looked up by its primary key (written
# with a scalar subquery, not a join: PostgreSQL then plans index look-ups, not a scan of the
# log).
UNSETTLED = f"""
SELECT s.stream FROM events s
WHERE s.type = 'MatchStarted' AND NOT EXISTS (
    SELECT 1 FROM {TABLE} q
    WHERE q.stream = s.stream
      AND q.hash = (SELECT e.hash FROM events e WHERE e.stream = q.stream
                                                  AND e.version = q.version)
      AND NOT EXISTS (SELECT 1 FROM events n WHERE n.stream = q.stream
                                              AND n.version = q.version + 1))
ORDER BY s.position
"""


def quiet(folded: StreamState) -> bool:
    """Whether a folded match stream is quiet for good or until it moves: over, or its clock
    standing."""
    state = folded.state
    if state is None or not folded.version:
        return False
    clock = getattr(state, "match_clock", None)
    return getattr(state, "status", None) == "completed" or (clock is not None
                                                              and not clock.running)


class QuietMarks(ABC):
    @abstractmethod
    def unsettled(self, store: EventStore) -> list[str]:
        """Every match stream started whose mark does not hold, in the order they started."""

    def mark(self, stream: str, version: int, hash_: str) -> None:
        """Mark ``stream`` quiet as of its event ``version`` of hash ``hash_`` (written at the
        next :meth:`flush`)."""

    def flush(self) -> None:
        """Write the marks made since the last flush (best effort: a mark not written is a
        fold at the next start, nothing more)."""

    def close(self) -> None:
        pass


class NoQuietMarks(QuietMarks):
    def unsettled(self, store: EventStore) -> list[str]:
        return [r.stream for r in store.read_type("MatchStarted")]


class FileQuietMarks(QuietMarks):
    """The marks in the checkpoint file (projections/checkpoints.py), checked stream by
    stream against the log."""

    def __init__(self, file: CheckpointFile):
        self.file = file

    def unsettled(self, store: EventStore) -> list[str]:
        return [r.stream for r in store.read_type("MatchStarted")
                if not self._holds(store, r.stream)]

    def _holds(self, store: EventStore, stream: str) -> bool:
        mark = self.file.quiet(stream)
        if mark is None:
            return False
        version, hash_ = mark
        head = store.stream_head(stream)
        if head is None or head[1] != version:
            return False
        last = next(store.read_stream(stream, from_version=version, limit=1), None)
        return last is not None and last.hash == hash_

    def mark(self, stream: str, version: int, hash_: str) -> None:
        self.file.mark_quiet(stream, version, hash_)


class SQLQuietMarks(QuietMarks):
    """The marks in the deployment's database, beside the log; buffered and written in one
    transaction at each :meth:`flush`."""

    def __init__(self) -> None:
        self._waiting: dict[str, tuple[int, str]] = {}
        self._lock = threading.Lock()

    def unsettled(self, store: EventStore) -> list[str]:
        try:
            return [row[0] for row in self._query(UNSETTLED)]
        except Exception as error:  # noqa: BLE001 - the marks are a hint: without them, fold all
            log.warning("quiet marks unreadable (%s): every match started is folded", error)
            return NoQuietMarks().unsettled(store)

    def mark(self, stream: str, version: int, hash_: str) -> None:
        with self._lock:
            self._waiting[stream] = (version, hash_)
            full = len(self._waiting) >= FLUSH_AT
        if full:  # a long first fold leaves its marks as it goes
            self.flush()

    def flush(self) -> None:
        with self._lock:
            rows, self._waiting = [(s, v, h) for s, (v, h) in self._waiting.items()], {}
        if not rows:
            return
        try:
            self._write(rows)
        except Exception as error:  # noqa: BLE001 - a lost mark costs a fold, nothing more
            log.warning("%d quiet marks not written (%s): those matches are folded at the "
                        "next start", len(rows), error)

    @abstractmethod
    def _query(self, sql: str) -> list[tuple]: ...

    @abstractmethod
    def _write(self, rows: list[tuple[str, int, str]]) -> None: ...


class SQLiteQuietMarks(SQLQuietMarks):
    """The table in the deployment's SQLite file (made by events/storage), on a
    connection of each query or write (there is one query a start, and a write when matches
    end), ``synchronous=NORMAL``: a mark lost to a crash is only a fold again."""

    def __init__(self, path: str | Path):
        super().__init__()
        self.path = str(path)
        upgrade_file(self.path)  # the table is the storage's (events/storage)

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, timeout=30, isolation_level=None)
        conn.execute("PRAGMA synchronous=NORMAL")
        return conn

    def _query(self, sql: str) -> list[tuple]:
        conn = self._connect()
        try:
            return conn.execute(sql).fetchall()
        finally:
            conn.close()

    def _write(self, rows: list[tuple[str, int, str]]) -> None:
        conn = self._connect()
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                conn.executemany(f"INSERT OR REPLACE INTO {TABLE} (stream, version, hash) "
                                 "VALUES (?, ?, ?)", rows)
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
        finally:
            conn.close()


class PostgresQuietMarks(SQLQuietMarks):
    """The table in the deployment's PostgreSQL database (``paiju db upgrade`` makes it)."""

    def __init__(self, pool):
        super().__init__()
        self.pool = pool  # events.postgres_store.Pool

    def _query(self, sql: str) -> list[tuple]:
        return self.pool.query(sql)

    def _write(self, rows: list[tuple[str, int, str]]) -> None:
        with self.pool.connection() as conn, conn.transaction(), conn.cursor() as cursor:
            cursor.executemany(
                f"INSERT INTO {TABLE} (stream, version, hash) VALUES (%s, %s, %s) "
                "ON CONFLICT (stream) DO UPDATE SET version = excluded.version, "
                "hash = excluded.hash", rows)
