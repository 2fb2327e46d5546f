"""The tables of a SQLite deployment (one file): every table paiju keeps in it, made and
upgraded by one versioned list of migrations, its version in ``PRAGMA user_version``.

Each migration takes the file from the version before it to its own (its index + 1), inside one
write transaction that first reads the version again: two processes opening an old file at once
(``paiju serve`` and a ``paiju token`` command) upgrade it once. Whoever opens the file — the
store, the tokens, the webhooks, the leases, the quiet marks, ``paiju db upgrade`` — brings it
to the current version first; an up-to-date file costs one ``PRAGMA`` read.

Until version 2 only the log was versioned: each module made its own table ``IF NOT EXISTS`` when
it opened the file, so a file of version 1 may hold any of them already, or none. Migrations 1
and 2 therefore make what is missing, with the very statements that code ran (the text SQLite
keeps in ``sqlite_schema``), so that a file upgraded in place and a new one are the same. Every
step makes only what is missing: a step run again (a version set back by hand) changes nothing.
"""
from __future__ import annotations

import sqlite3
from pathlib import Path

from rules.messages import Message

SCHEMA_VERSION = 3

_APPEND_ONLY = ("CREATE TRIGGER IF NOT EXISTS events_no_{action} BEFORE {ACTION} ON events "
                "BEGIN SELECT RAISE(ABORT, 'events are append-only'); END")

# A change of the tokens table moves its counter in the same transaction: a node that keeps the
# tokens in memory reads the counter, not the table, to learn that it must read them again.
_COUNTED = ("CREATE TRIGGER IF NOT EXISTS tokens_{what} AFTER {WHAT} ON tokens BEGIN "
            "UPDATE paiju_changes SET serial = serial + 1 WHERE name = 'tokens'; END")

MIGRATIONS: tuple[tuple[str, ...], ...] = (
    # 1: the log (the statements sqlite-utils wrote for it, as every paiju before did)
    ('CREATE TABLE IF NOT EXISTS "events" (\n'
     '   "position" INTEGER PRIMARY KEY,\n'
     '   "id" TEXT NOT NULL,\n'
     '   "tournament_id" TEXT NOT NULL,\n'
     '   "stream" TEXT NOT NULL,\n'
     '   "version" INTEGER NOT NULL,\n'
     '   "type" TEXT NOT NULL,\n'
     '   "schema_version" INTEGER NOT NULL,\n'
     '   "data" TEXT NOT NULL,\n'
     '   "meta" TEXT NOT NULL,\n'
     '   "recorded_at" TEXT NOT NULL,\n'
     '   "prev_hash" TEXT NOT NULL,\n'
     '   "hash" TEXT NOT NULL\n'
     ')',
     'CREATE UNIQUE INDEX IF NOT EXISTS "idx_events_id"\n    ON "events" ("id")',
     'CREATE UNIQUE INDEX IF NOT EXISTS "idx_events_stream_version"\n'
     '    ON "events" ("stream", "version")',
     'CREATE INDEX IF NOT EXISTS "idx_events_tournament_id_position"\n'
     '    ON "events" ("tournament_id", "position")',
     'CREATE INDEX IF NOT EXISTS "idx_events_tournament_id_type_position"\n'
     '    ON "events" ("tournament_id", "type", "position")',
     'CREATE INDEX IF NOT EXISTS "idx_events_type_position"\n    ON "events" ("type", "position")',
     # append-only by construction: the store itself can neither update nor delete an event
     _APPEND_ONLY.format(action="update", ACTION="UPDATE"),
     _APPEND_ONLY.format(action="delete", ACTION="DELETE")),
    # 2: the tables beside the log — tokens, the leases, webhooks and their attempts, the
    # timer's quiet marks — as their modules made them until they were versioned here
    ('CREATE TABLE IF NOT EXISTS "tokens" (\n'
     '   "digest" TEXT PRIMARY KEY NOT NULL,\n'
     '   "token_id" TEXT NOT NULL,\n'
     '   "role" TEXT NOT NULL,\n'
     '   "tournament_id" TEXT,\n'
     '   "match_id" TEXT,\n'
     '   "seat" INTEGER,\n'
     '   "name" TEXT,\n'
     '   "created_at" TEXT NOT NULL,\n'
     '   "expires_at" TEXT,\n'
     '   "revoked_at" TEXT\n'
     ')',
     'CREATE UNIQUE INDEX IF NOT EXISTS "idx_tokens_token_id"\n    ON "tokens" ("token_id")',
     "CREATE TABLE IF NOT EXISTS timer_lease (name TEXT PRIMARY KEY, holder TEXT NOT NULL, "
     "expires_at TEXT NOT NULL)",
     """CREATE TABLE IF NOT EXISTS webhooks (
    webhook_id TEXT PRIMARY KEY, tournament_id TEXT NOT NULL, url TEXT NOT NULL,
    types TEXT, streams TEXT, secret TEXT NOT NULL, created_at TEXT NOT NULL,
    state TEXT NOT NULL, disabled_reason TEXT, cursor INTEGER NOT NULL,
    failures INTEGER NOT NULL, failing_since TEXT, next_attempt_at TEXT,
    attempts_made INTEGER NOT NULL)""",
     "CREATE INDEX IF NOT EXISTS webhooks_tournament ON webhooks (tournament_id, created_at)",
     """CREATE TABLE IF NOT EXISTS webhook_deliveries (
    delivery_id TEXT PRIMARY KEY, webhook_id TEXT NOT NULL, event_id TEXT NOT NULL,
    position INTEGER NOT NULL, attempt INTEGER NOT NULL, at TEXT NOT NULL, status INTEGER,
    error TEXT, next_attempt_at TEXT, seq INTEGER NOT NULL)""",
     "CREATE INDEX IF NOT EXISTS webhook_deliveries_seq ON webhook_deliveries (webhook_id, seq)",
     "CREATE TABLE IF NOT EXISTS quiet_matches (stream TEXT PRIMARY KEY, "
     "version INTEGER NOT NULL, hash TEXT NOT NULL)"),
    # 3: the counter of the tokens' changes (service/token_cache.py)
    ("CREATE TABLE IF NOT EXISTS paiju_changes (name TEXT PRIMARY KEY, "
     "serial INTEGER NOT NULL)",
     "INSERT OR IGNORE INTO paiju_changes (name, serial) VALUES ('tokens', 0)",
     _COUNTED.format(what="inserted", WHAT="INSERT"),
     _COUNTED.format(what="updated", WHAT="UPDATE"),
     _COUNTED.format(what="deleted", WHAT="DELETE")),
)
assert len(MIGRATIONS) == SCHEMA_VERSION


class NewerSchema(RuntimeError):
    """The file was written by a newer paiju: this one must not write to it. Its one argument
    is a Message, said in the reader's language (service/cli/common.py: said); ``str()`` is
    its English."""


def version(conn: sqlite3.Connection) -> int:
    return conn.execute("PRAGMA user_version").fetchone()[0]


def _refuse_newer(found: int) -> None:
    if found > SCHEMA_VERSION:
        raise NewerSchema(Message("the database was written by a newer paiju (store schema "
                                  "{found}; this one knows {known})", found=found,
                                  known=SCHEMA_VERSION))


def upgrade_connection(conn: sqlite3.Connection) -> tuple[int, int]:
    """Bring the file of ``conn`` (a connection in autocommit mode: ``isolation_level=None``)
    to the current version; returns (the version before, the version after)."""
    found = version(conn)
    _refuse_newer(found)
    if found == SCHEMA_VERSION:
        return found, found
    conn.execute("BEGIN IMMEDIATE")  # the file's write lock: one upgrader at a time
    try:
        found = version(conn)  # another process may have upgraded it meanwhile
        _refuse_newer(found)
        for statements in MIGRATIONS[found:]:
            for statement in statements:
                conn.execute(statement)
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return found, SCHEMA_VERSION


def upgrade_file(path: str | Path) -> tuple[int, int]:
    """Make or upgrade the deployment file at ``path`` (``paiju db upgrade --db FILE``)."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(str(path), isolation_level=None, timeout=30)
    try:
        return upgrade_connection(conn)
    finally:
        conn.close()
