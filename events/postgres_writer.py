"""Group commit for the PostgreSQL store, per tournament (events/postgres_store.py).

The appends of one tournament are serialised by its advisory lock, across every node. Taking the
lock, the seal and the commit once for each of them made the lock the ceiling: with sixteen
clients on one tournament, fifteen waited while one paid for a dozen round trips and a commit,
and lost the CPU between them. So the appends of one tournament that wait in one node are
committed together, in arrival order, each judged on the log its predecessors left:

- the first append of a tournament to arrive *leads*: it commits a group of itself and every
  append of the tournament queued behind it by then, then hands the lead to the next one
  queued (which leads the next group, with whatever queued meanwhile) and returns;
- a group is one transaction: the tournament's lock once, each append after the first in its
  own SAVEPOINT (a refused one rolls back alone), the seal and one commit for all;
- appends of other tournaments form groups of their own, on other connections, at the same
  time: no tournament waits for another's decisions.

There are no writer threads: whichever request thread leads does the work, as a request would
have done its own.
"""
from __future__ import annotations

import threading
import time
from typing import Callable, Sequence

import psycopg
from psycopg import errors

from .envelope import NewEvent, Record
from .sql_reads import (
    COLUMNS,
    LAST_POSITION,
    SELECT,
    last_position_row,
    read_stream_rows,
    stream_head_row,
    tournament_head_row,
)
from .store import AppendResult, Decide, plan_append

LOCK_SPACE = 0x7061696A   # 'paij': the two-key advisory lock space of the seal lock
SEAL_LOCK = (LOCK_SPACE, 1)
RETRIES = 3               # an append that met a concurrent insert of the same id or stream
COPY_FROM = 8             # batches of at least this many events go in by COPY


class Job:
    __slots__ = ("tournament_id", "events", "decide", "result", "error", "finished",
                 "wake", "leads")

    def __init__(self, tournament_id: str, events: list[NewEvent], decide: Decide | None):
        self.tournament_id, self.events, self.decide = tournament_id, events, decide
        self.result: AppendResult | None = None
        self.error: BaseException | None = None
        self.finished = False
        self.leads = False
        self.wake = threading.Event()  # set when finished, or when it is to lead a group

    def outcome(self) -> AppendResult:
        if self.error is not None:
            raise self.error
        return self.result


class TournamentGroups:
    """Forms the groups: ``commit(jobs)`` is called with one tournament's queued appends at a
    time per tournament, and must finish every job it is given."""

    def __init__(self, commit: Callable[[list[Job]], None], max_group: int = 256):
        self._commit, self.max_group = commit, max_group
        self._lock = threading.Lock()
        self._queued: dict[str, list[Job]] = {}  # tournament -> jobs waiting; key: a leader runs

    def submit(self, job: Job) -> AppendResult:
        with self._lock:
            queue = self._queued.get(job.tournament_id)
            if queue is None:
                self._queued[job.tournament_id] = []
                job.leads = True
            else:
                queue.append(job)
        if not job.leads:
            job.wake.wait()
        if not job.finished:
            self._lead(job)
        return job.outcome()

    def _lead(self, job: Job) -> None:
        with self._lock:
            queue = self._queued[job.tournament_id]
            group = [job, *queue[:self.max_group - 1]]
            del queue[:self.max_group - 1]
        try:
            self._commit(group)
        finally:
            for member in group:
                member.finished = True
                member.wake.set()
            self._hand_on(job.tournament_id)

    def _hand_on(self, tournament_id: str) -> None:
        with self._lock:
            queue = self._queued[tournament_id]
            if not queue:
                del self._queued[tournament_id]
                return
            successor = queue.pop(0)
        successor.leads = True
        successor.wake.set()


def commit_group(conn: psycopg.Connection, sql: Callable[[str], str], jobs: list[Job],
                 recorded_at: str) -> None:
    """``jobs`` (one tournament's) in one transaction on ``conn``; each job gets its result or
    its error. Raises what fails the whole transaction (a lost connection, the commit)."""
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))",
                     (jobs[0].tournament_id,))
        tail = Tail(conn, sql)
        tail.read_heads({e.stream for job in jobs for e in job.events})
        for job in jobs:
            if len(jobs) == 1:
                _plan_and_insert(conn, tail, job, recorded_at)
            else:
                _beside_others(conn, tail, job, recorded_at)


def _plan_and_insert(conn: psycopg.Connection, tail: Tail, job: Job, recorded_at: str) -> None:
    job.result = plan_append(job.tournament_id, job.events, tail, recorded_at, job.decide)
    if job.result.created:
        insert(conn, job.result.records)
        tail.inserted(job.result.records)


def _beside_others(conn: psycopg.Connection, tail: Tail, job: Job, recorded_at: str) -> None:
    """One job of a group, in a savepoint: its refusal, or a unique index that another
    tournament's append beat it to (judged again: the refusal a serial order gives), leaves the
    others' rows."""
    for attempt in range(1, RETRIES + 1):
        mark = tail.mark()
        try:
            with conn.transaction():
                _plan_and_insert(conn, tail, job, recorded_at)
            return
        except errors.UniqueViolation as error:
            tail.back_to(mark)
            if attempt == RETRIES:
                job.result, job.error = None, error
                return
            time.sleep(0.001 * attempt)
        except psycopg.OperationalError:
            raise  # the connection is lost: the whole group fails
        except Exception as error:  # refused (rules, versions, idempotency): this job only
            tail.back_to(mark)
            job.result, job.error = None, error
            return


def insert(conn: psycopg.Connection, records: list[Record]) -> None:
    columns = ", ".join(COLUMNS)
    if len(records) >= COPY_FROM:
        with conn.cursor().copy(f"COPY events ({columns}) FROM STDIN") as copy:
            for record in records:
                copy.write_row(record)
    else:
        conn.cursor().executemany(
            f"INSERT INTO events ({columns}) VALUES ({', '.join(['%s'] * len(COLUMNS))})",
            [tuple(r) for r in records])


class Tail:
    """The :class:`events.store.Tail` of a group's open transaction. What it has read of the
    heads (of streams, of the tournament, of the log) it remembers, and moves on with each
    insert of the group: the tournament's lock (and, once taken, the seal lock) keeps them true
    to the end of the transaction. A stream of another tournament may gain a row meanwhile;
    its unique (stream, version) index then refuses the insert, and the append is judged
    again."""

    ID_CHUNK = 500

    def __init__(self, conn: psycopg.Connection, sql: Callable[[str], str]):
        self.conn, self.sql = conn, sql
        self.sealing = False
        self._streams: dict[str, tuple[str, int] | None] = {}
        self._tournaments: dict[str, tuple[int, str] | None] = {}
        self._last: int | None = None

    def query(self, sql: str, params: Sequence = ()) -> list[tuple]:
        return self.conn.execute(self.sql(sql), params).fetchall()

    # --- memory across a savepoint --------------------------------------------------------
    def mark(self) -> tuple:
        return (self.sealing, dict(self._streams), dict(self._tournaments), self._last)

    def back_to(self, mark: tuple) -> None:
        """After a rollback to the savepoint taken at ``mark``: what the job read or wrote is
        forgotten, and a seal lock it took was released with its savepoint."""
        self.sealing, self._streams, self._tournaments, self._last = \
            mark[0], dict(mark[1]), dict(mark[2]), mark[3]

    def inserted(self, records: list[Record]) -> None:
        for r in records:
            self._streams[r.stream] = (r.tournament_id, r.version)
        last = records[-1]
        self._tournaments[last.tournament_id] = (last.position, last.hash)
        self._last = last.position

    # --- the Tail protocol ------------------------------------------------------------------
    def records_by_id(self, ids):
        found = {}
        for i in range(0, len(ids), self.ID_CHUNK):
            chunk = list(ids[i:i + self.ID_CHUNK])
            rows = self.query(SELECT + "WHERE id = ANY(?)", (chunk,))
            found.update((row[1], Record(*row)) for row in rows)
        return found

    def read_heads(self, streams: set[str]) -> None:
        """The heads of ``streams`` in one query (a batch touches several; a group more)."""
        # each head is the last entry of the (stream, version) index: one probe per stream,
        # however long the streams are
        rows = self.query("SELECT s, h.tournament_id, h.version FROM unnest(?::text[]) AS s "
                          "CROSS JOIN LATERAL (SELECT tournament_id, version FROM events "
                          "WHERE stream = s ORDER BY version DESC LIMIT 1) AS h",
                          (list(streams),))
        self._streams.update({stream: None for stream in streams})
        self._streams.update({stream: (owner, version) for stream, owner, version in rows})

    def stream_head(self, stream):
        if stream not in self._streams:
            self._streams[stream] = stream_head_row(self.query, stream)
        return self._streams[stream]

    def tournament_head(self, tournament_id):
        if tournament_id not in self._tournaments:
            self._tournaments[tournament_id] = tournament_head_row(self.query, tournament_id)
        return self._tournaments[tournament_id]

    def last_position(self):
        """The log's last position, under the seal lock (taken once, held to the commit): the
        positions an append takes after it are its own, and are committed in order."""
        if not self.sealing:
            # one round trip: the statements run in order, the second (with a snapshot of its
            # own) once the lock is granted
            with self.conn.pipeline():
                self.conn.execute("SELECT pg_advisory_xact_lock(%s, %s)", SEAL_LOCK)
                last = self.conn.execute(self.sql(LAST_POSITION))
            self.sealing = True
            self._last = last.fetchone()[0]
        if self._last is None:
            self._last = last_position_row(self.query)
        return self._last

    def read_stream(self, stream, from_version=1, limit=None, until_position=None):
        return read_stream_rows(self.query, stream, from_version, limit, until_position)
