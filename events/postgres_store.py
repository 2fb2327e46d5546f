"""The PostgreSQL event store: the log of a deployment that runs several ``paiju serve`` nodes.

Same contract as the SQLite store (tests/contract runs against both); the same ``events`` table
and reads (events/sql_reads.py), through a psycopg 3 connection pool.

**An append is one transaction** — with the appends of its tournament that wait beside it in
this node (group commit, events/postgres_writer.py) — that takes two transaction-scoped
advisory locks:

1. the *tournament's* lock, first: appends of one tournament (its hash chain) are serialised,
   and their decisions (``decide``: the fold and the rules, the slow part) run under it, each
   on the log exactly as its batch will follow it. Appends of other tournaments do not wait.
2. the *seal* lock, last, once every append of the group has been judged, held to the commit:
   the group's positions are taken under it (numbered again if the log moved on while it was
   judged), so positions are given in commit order, without gaps: a reader that follows the
   log after a position (the timer; a subscription) can never see position p+1 before p
   commits and then miss p. Only the seal (the numbering, the insert and the commit, a few
   milliseconds) is serialised across tournaments, as the ``eventsourcing`` library's recorder
   does with its table lock. (A decision that needs exact positions — a ruling reaching back
   — takes it before it decides.)

Append-only is enforced by the database: triggers refuse UPDATE, DELETE and TRUNCATE of
``events``. The schema of every table is made and migrated by ``paiju db upgrade``
(events/storage/postgres_schema.py); a store opened on a database whose schema is missing or
older refuses to start.

A lost connection is :class:`events.store.StoreUnavailable` (503 at the API) for every append of
the group: the transaction was not committed, or, if the commit itself was cut, a retry with the
same event ids is taken
as a retry. Reads are retried once on a fresh connection; the pool replaces broken ones.
"""
from __future__ import annotations

import logging
import threading
import time
from typing import Callable, Iterable, Iterator, Sequence

import psycopg
import psycopg_pool
from psycopg import errors

from rules.messages import Message

from .commits import CommitFeed
from .envelope import NewEvent, Record
from .group_commit import CommitGroups, Job
from .postgres_writer import COMMITS_CHANNEL, RETRIES, SEAL_LOCK, commit_group, insert
from .sql_reads import (
    SELECT,
    first_positions,
    last_position_row,
    paged,
    read_stream_rows,
    stream_head_row,
    tournament_head_row,
    tournament_rows,
)
from .storage.postgres_schema import (  # noqa: F401 - the schema's names, as before
    MIGRATIONS,
    SCHEMA_VERSION,
    SchemaNotCurrent,
    check_schema,
    is_postgres_url,
    schema_version,
    upgrade_schema,
)
from .storage.postgres_schema import CONNECT_SECONDS
from .storage.postgres_schema import connect as _connect
from .storage.postgres_schema import first_line as _first_line
from .store import (
    AppendResult,
    Decide,
    EventStore,
    RestoreConflict,
    StoreClosed,
    StoreUnavailable,
)

log = logging.getLogger("paiju.postgres")

# A node that stops mid-transaction (paused, cut off) must not hold a lock for ever: its
# session is ended after 30 s idle in a transaction, and no statement waits more than 10 s for a
# lock (the waiting append gets 503); a peer that vanished is noticed within about 11 s.
SESSION_OPTIONS = "-c lock_timeout=10s -c idle_in_transaction_session_timeout=30s"
KEEPALIVES = {"keepalives": 1, "keepalives_idle": 5, "keepalives_interval": 2,
              "keepalives_count": 3}
LISTEN_POLL_SECONDS = 1   # how soon the listening connection sees the store closed
POOL_WAIT_SECONDS = 3     # a request waits this long for a connection (a server down), then 503
# The pool retries a lost connection with a doubling delay (1, 2, 4, 8 … s). Left to its default
# of five minutes, a node whose database was back would go on answering 503 until the next
# retry, tens of seconds later. It gives up after 2 s instead, and the next request that finds
# no connection starts a new try at once: a node serves again within about a second of its
# database's return, however long the database was away.
RECONNECT_SECONDS = 2


def _qmarks_to_pyformat(sql: str) -> str:
    # the shared statements (events/sql_reads.py) hold no literal '?' or '%'
    return sql.replace("?", "%s")


class Pool:
    """The deployment's connections (psycopg_pool), shared by the store, the tokens and the
    timer's lease. Every connection is in autocommit mode; a transaction is explicit."""

    def __init__(self, url: str, size: int = 20):
        self.url = url
        self._pool = psycopg_pool.ConnectionPool(
            url, min_size=2, max_size=size, timeout=POOL_WAIT_SECONDS,
            reconnect_timeout=RECONNECT_SECONDS, open=True,
            kwargs={"autocommit": True, "connect_timeout": CONNECT_SECONDS,
                    "options": SESSION_OPTIONS, **KEEPALIVES},
            name="paiju")
        self._sql: dict[str, str] = {}

    def connection(self):
        return self._pool.connection()

    def sql(self, qmark_sql: str) -> str:
        found = self._sql.get(qmark_sql)
        if found is None:
            found = self._sql[qmark_sql] = _qmarks_to_pyformat(qmark_sql)
        return found

    def query(self, sql: str, params: Sequence = ()) -> list[tuple]:
        """One read on a pooled connection, tried again once, after the pool has dropped its
        broken connections, if the connection was lost (a read changes nothing, so it may be
        repeated)."""
        for attempt in (1, 2):
            try:
                with self._pool.connection() as conn:
                    return conn.execute(self.sql(sql), params).fetchall()
            except psycopg_pool.PoolClosed:  # closed here, not lost: no retry will find it
                raise StoreClosed("the event store is closed") from None
            except (psycopg.OperationalError, psycopg_pool.PoolTimeout) as error:
                if attempt == 2 or isinstance(error, psycopg_pool.PoolTimeout):
                    raise StoreUnavailable(Message("the database is unavailable: {error}",
                                                   error=_first_line(error))) from None
                self.drop_broken()
        raise AssertionError("unreachable")

    def drop_broken(self) -> None:
        """After one lost connection the idle ones may be lost too (a restarted server):
        the pool checks them and replaces those that are."""
        self._pool.check()

    def execute(self, sql: str, params: Sequence = ()) -> list[tuple]:
        """One statement that writes, in its own transaction; StoreUnavailable if the
        connection is lost."""
        try:
            with self._pool.connection() as conn:
                cursor = conn.execute(self.sql(sql), params)
                return cursor.fetchall() if cursor.description else []
        except (psycopg.OperationalError, psycopg_pool.PoolTimeout) as error:
            self.drop_broken()
            raise StoreUnavailable(Message("the database is unavailable: {error}",
                                           error=_first_line(error))) from None

    def close(self) -> None:
        self._pool.close()


class PostgresEventStore(EventStore):
    def __init__(self, url: str, pool_size: int = 20, clock: Callable[[], str] | None = None):
        if clock is not None:
            self.clock = clock
        check_schema(url)
        self.url = url
        self.pool = Pool(url, pool_size)  # the node's connections (tokens and lease share it)
        self._groups = CommitGroups(self._commit)  # a group a tournament
        self.group_sizes = self._groups.sizes
        self._closed = False
        self._closing = threading.Lock()
        self._listening: threading.Thread | None = None  # the LISTEN thread, once someone listens

    # --- writes -------------------------------------------------------------------------
    def append(self, tournament_id: str, events: Sequence[NewEvent],
               decide: Decide | None = None) -> AppendResult:
        # a closed store's groups refuse it (StoreClosed)
        return self._announce(self._groups.submit(Job(tournament_id, list(events), decide)))

    def _commit(self, jobs: list[Job]) -> None:
        """One group of a tournament's appends (events/postgres_writer.py). Every job leaves
        with its result or its refusal; if the group fails, with the group's error: a refusal
        judged on appends that were then not committed does not count either."""
        for attempt in range(1, RETRIES + 1):
            try:
                with self.pool.connection() as conn:
                    commit_group(conn, self.pool.sql, jobs, self.clock())
                return
            except errors.UniqueViolation as error:
                # another tournament's append took an event id or a stream of the group
                # meanwhile: judged again, the group meets it (a retry, or a refusal)
                if attempt == RETRIES:
                    return _failed(jobs, StoreUnavailable(Message(
                        "appends at the same moment kept taking the same event ids or "
                        "streams; retry: {error}", error=_first_line(error))))
                _failed(jobs, None)
                time.sleep(0.001 * attempt)
            except (psycopg.OperationalError, psycopg_pool.PoolTimeout) as error:
                self.pool.drop_broken()
                return _failed(jobs, StoreUnavailable(Message(
                    "the database is unavailable; nothing was appended unless a retry with "
                    "the same event ids says so: {error}", error=_first_line(error))))
            except Exception as error:  # the insert or the commit failed otherwise
                return _failed(jobs, error)

    def restore(self, records: Iterable[Record]) -> int:
        """One transaction under the seal lock (no append interleaves its positions) and the
        lock of each tournament it writes: every append of the deployment waits for an import
        (it is an administrator's step, not one of play)."""
        try:
            with self.pool.connection() as conn, conn.transaction():
                conn.execute("SELECT pg_advisory_xact_lock(%s, %s)", SEAL_LOCK)
                return _restore(conn, self.pool, records)
        except errors.UniqueViolation as error:
            raise RestoreConflict(Message("a position or event id is already taken: {error}",
                                          error=_first_line(error))) from None

    # --- reads --------------------------------------------------------------------------
    def get(self, event_id: str) -> Record | None:
        rows = self.pool.query(SELECT + "WHERE id = ?", (event_id,))
        return Record(*rows[0]) if rows else None

    def stream_head(self, stream: str) -> tuple[str, int] | None:
        return stream_head_row(self.pool.query, stream)

    def tournament_head(self, tournament_id: str) -> tuple[int, str] | None:
        return tournament_head_row(self.pool.query, tournament_id)

    def last_position(self) -> int:
        return last_position_row(self.pool.query)

    def read_stream(self, stream, from_version=1, limit=None, until_position=None) -> Iterator[Record]:
        return read_stream_rows(self.pool.query, stream, from_version, limit, until_position)

    def read_tournament(self, tournament_id, after=0, limit=None, stream=None, type=None,
                        until_position=None):
        return tournament_rows(self.pool.query, tournament_id, after, limit, stream, type,
                               until_position)

    def read_type(self, type, after=0, limit=None):
        return paged(self.pool.query, "type = ?", [type], "position", after, limit)

    def read_all(self, after=0, limit=None):
        return paged(self.pool.query, "1 = 1", [], "position", after, limit)

    def tournament_ids(self) -> list[str]:
        return first_positions(self.pool.query)

    def schema_versions(self) -> tuple[int, int]:
        try:
            found = self.pool.query("SELECT version FROM paiju_schema")
        except errors.UndefinedTable:  # dropped from under the node
            found = []
        return (found[0][0] if found else 0), SCHEMA_VERSION

    # --- word of commits, every node's (events/commits.py) --------------------------------
    def _new_commit_feed(self) -> CommitFeed:
        return CommitFeed(on_first_listener=self._start_listening)

    def _start_listening(self) -> None:
        """One LISTEN connection a store, however often its listeners come and go."""
        with self._closing:
            if self._listening is None or not self._listening.is_alive():
                self._listening = threading.Thread(target=self._listen, name="paiju-listen",
                                                   daemon=True)
                self._listening.start()

    def _listen(self) -> None:
        """LISTEN on a connection of its own, outside the pool, for as long as the store is open;
        after a lost connection, connect again and announce the log's end (commits made while
        nobody listened are then read, not missed)."""
        while not self._closed:
            try:
                with _connect(self.url, autocommit=True, **KEEPALIVES) as conn:
                    conn.execute(f"LISTEN {COMMITS_CHANNEL}")
                    self.commits.announce(self.last_position())
                    while not self._closed:
                        for note in conn.notifies(timeout=LISTEN_POLL_SECONDS):
                            self.commits.announce(int(note.payload))
            except (psycopg.Error, StoreUnavailable, ValueError) as error:
                if not self._closed:
                    log.warning("LISTEN %s lost (%s); connecting again", COMMITS_CHANNEL,
                                _first_line(error))
                    time.sleep(LISTEN_POLL_SECONDS)

    def close(self) -> None:
        with self._closing:
            if self._closed:
                return
            self._closed = True
        self._groups.close()  # what was submitted is committed first, then appends are refused
        self.pool.close()


def _failed(jobs: list[Job], error: BaseException | None) -> None:
    """Nothing of the group was committed: every job gets ``error`` (None: judged again)."""
    for job in jobs:
        job.result, job.error = None, error


def _restore(conn: psycopg.Connection, pool: Pool, records: Iterable[Record]) -> int:
    seen: set[str] = set()
    batch: list[Record] = []
    count = 0
    query = lambda sql, params: conn.execute(pool.sql(sql), params).fetchall()  # noqa: E731
    for record in records:
        if record.tournament_id not in seen:
            seen.add(record.tournament_id)
            # the tournament's lock too, so that no append of it is between its head and
            # its seal; never waited for (the seal is held: waiting could deadlock)
            locked = conn.execute("SELECT pg_try_advisory_xact_lock(hashtextextended(%s, 0))",
                                  (record.tournament_id,)).fetchone()[0]
            if not locked:
                raise RestoreConflict(Message("tournament {tournament_id!r} is being written "
                                              "to at this moment",
                                              tournament_id=record.tournament_id))
            if tournament_head_row(query, record.tournament_id):
                raise RestoreConflict(Message("the database already holds tournament "
                                              "{tournament_id!r}",
                                              tournament_id=record.tournament_id))
        batch.append(record)
        if len(batch) >= 5000:
            insert(conn, batch)
            count, batch = count + len(batch), []
    if batch:
        insert(conn, batch)
    return count + len(batch)
