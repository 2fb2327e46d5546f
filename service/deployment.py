"""Where a deployment keeps its log, its tokens, its webhooks and its timer's lease: one SQLite file (the
default, ``--db var/paiju.db``) or one PostgreSQL database (``--db postgresql://…`` or
``DATABASE_URL``), shared by every ``paiju serve`` node of the deployment.

The files that are not in the database stay on each node's disk: the export signing key (every
node of a deployment needs the same one; default ``var/paiju-signing.key`` for PostgreSQL,
beside the file for SQLite) and the checkpoint file (derived, per node; see
projections/checkpoints.py). The timer's quiet marks are in the database, shared by every node
(derived too: projections/quiet_marks.py), so that a node without its checkpoint file — a new
one, one whose ``var/`` was lost, one after an upgrade of the rules — starts as fast as a
restart, without folding every match the timer need not watch.
"""
from __future__ import annotations

import hashlib
import os
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

from events.envelope import Record
from events.postgres_store import Pool, PostgresEventStore, is_postgres_url
from events.sql_reads import read_stream_rows
from events.sqlite_store import SQLiteEventStore
from events.store import EventStore
from projections.quiet_marks import PostgresQuietMarks, QuietMarks, SQLiteQuietMarks

from .leases import Lease, PostgresLease, SQLiteLease
from .token_cache import REFRESH_SECONDS, CachedTokens, postgres_serial, sqlite_serial
from .tokens import PostgresTokenRegistry, SQLiteTokenRegistry, TokenRegistry
from .webhooks import PostgresWebhookRegistry, SQLiteWebhookRegistry, WebhookRegistry

DEFAULT_DB = "var/paiju.db"
NODE_FILES = Path("var")  # a PostgreSQL deployment's files on each node's own disk


def default_db() -> str:
    """``--db``'s default: ``DATABASE_URL`` when it is set, else the SQLite file."""
    return os.environ.get("DATABASE_URL") or DEFAULT_DB


@dataclass
class Deployment:
    store: EventStore
    tokens: TokenRegistry
    lease: Lease
    webhooks: WebhookRegistry
    webhook_lease: Lease  # only its holder delivers webhooks (one node of the deployment)
    # the matches known to be over or paused, beside the log, for every node's timer to start
    # from (projections/quiet_marks.py); None: in the node's checkpoint file
    marks: QuietMarks | None = None
    # the log as the timer's start-up reads it, every match once (None: the store)
    scan: UnmappedSQLiteLog | None = None

    def close(self) -> None:
        self.webhooks.close()
        self.tokens.close()
        self.store.close()


def open_deployment(db: str, config: dict | None = None,
                    clock: Callable[[], str] | None = None) -> Deployment:
    """The store, tokens and lease of the deployment at ``db``; the tokens held in memory
    (service/token_cache.py). For PostgreSQL, raises
    :class:`events.store.StoreUnavailable` when the server cannot be reached and
    :class:`events.postgres_store.SchemaNotCurrent` before ``paiju db upgrade``."""
    config = config or {}
    if is_postgres_url(db):
        # one pool for the node: the store's, which the tokens and the lease share
        store = PostgresEventStore(db, config.get("PG_POOL_SIZE", 20), clock)
        tokens = CachedTokens(PostgresTokenRegistry(store.pool), postgres_serial(store.pool),
                              config.get("TOKEN_REFRESH_SECONDS", REFRESH_SECONDS))
        return Deployment(store, tokens, PostgresLease(store.pool),
                          PostgresWebhookRegistry(store.pool),
                          PostgresLease(store.pool, name="webhooks"),
                          PostgresQuietMarks(store.pool))
    store = SQLiteEventStore(db, config.get("SQLITE_SYNCHRONOUS", "FULL"),
                             config.get("SQLITE_MAX_GROUP", 512), clock)
    serial, closed = sqlite_serial(db)
    tokens = CachedTokens(SQLiteTokenRegistry(db), serial,
                          config.get("TOKEN_REFRESH_SECONDS", REFRESH_SECONDS), closed)
    return Deployment(store, tokens, SQLiteLease(db), SQLiteWebhookRegistry(db),
                      SQLiteLease(db, name="webhooks"), SQLiteQuietMarks(db),
                      UnmappedSQLiteLog(db))


class UnmappedSQLiteLog:
    """The streams of a SQLite log read on a connection of their own that does not map the
    file into memory. The store's readers map it (a read after a commit is then no system
    call), so a fold of every match of a day — the timer's first start on a log without quiet
    marks — would leave the whole file's pages in the process's resident set; read this way,
    they stay in the kernel's page cache only. Opened on first use."""

    def __init__(self, path: str | Path):
        self.path = str(path)
        self._conn: sqlite3.Connection | None = None
        self._lock = threading.Lock()

    def read_stream(self, stream: str, from_version: int = 1, limit: int | None = None,
                    until_position: int | None = None) -> Iterator[Record]:
        return read_stream_rows(self._query, stream, from_version, limit, until_position)

    def _query(self, sql: str, params=()) -> list[tuple]:
        with self._lock:
            if self._conn is None:
                self._conn = sqlite3.connect(self.path, timeout=30, check_same_thread=False)
                self._conn.execute("PRAGMA mmap_size=0")
            return self._conn.execute(sql, params).fetchall()

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None


def open_store(db: str) -> EventStore:
    """The log alone (the commands that read or verify it)."""
    return PostgresEventStore(db, 4) if is_postgres_url(db) else SQLiteEventStore(db)


def admin_token(db: str, name: str) -> str:
    """A new admin token's secret, made in the deployment's database before a server starts on
    it (so that the server prints none of its own), as ``paiju token create --role admin``."""
    if is_postgres_url(db):
        pool = Pool(db, 2)
        try:
            return PostgresTokenRegistry(pool).create("admin", name=name)[0]
        finally:
            pool.close()
    registry = SQLiteTokenRegistry(db)
    try:
        return registry.create("admin", name=name)[0]
    finally:
        registry.close()


def exists(db: str) -> bool:
    """Whether there is a deployment at ``db`` to read (a PostgreSQL one is checked when
    opened)."""
    return is_postgres_url(db) or Path(db).is_file()


def node_file(db: str, name: str) -> Path:
    """A file of the deployment kept beside the SQLite file, or, for PostgreSQL, under
    ``var/`` on this node (named by the database, so two databases' files never mix)."""
    if not is_postgres_url(db):
        return Path(db).with_name(name)
    if name == "paiju-signing.key":
        return NODE_FILES / name
    tag = hashlib.sha256(db.encode()).hexdigest()[:12]
    return NODE_FILES / f"postgres-{tag}-{name}"


def checkpoint_file_path(db: str) -> Path:
    if not is_postgres_url(db):
        return Path(f"{db}-checkpoints")
    return node_file(db, "checkpoints")
