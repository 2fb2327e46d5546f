"""The tables of a PostgreSQL deployment: every table paiju keeps in the database, made and
upgraded by one versioned list of migrations (``paiju db upgrade``), the version in the one row
of ``paiju_schema``. A node never upgrades the database itself: it refuses to start on a schema
that is missing, older or newer than its own (:func:`check_schema`).
"""
from __future__ import annotations

import psycopg

from rules.messages import Message

from ..postgres_writer import LOCK_SPACE
from ..sql_reads import INDEXES
from ..store import StoreUnavailable

SCHEMA_VERSION = 4
CONNECT_SECONDS = 5  # to reach the server


# Each migration takes the schema from the version before it to its own (index + 1).
MIGRATIONS = (
    """
    CREATE TABLE events (
        position bigint PRIMARY KEY,
        id text NOT NULL,
        tournament_id text NOT NULL,
        stream text NOT NULL,
        version bigint NOT NULL,
        type text NOT NULL,
        schema_version integer NOT NULL,
        data text NOT NULL,         -- canonical JSON, byte for byte as hashed (not jsonb)
        meta text NOT NULL,
        recorded_at text NOT NULL,
        prev_hash text NOT NULL,
        hash text NOT NULL
    );
    """ + "".join(
        f"CREATE {'UNIQUE ' if unique else ''}INDEX events_{'_'.join(columns)} "
        f"ON events ({', '.join(columns)});\n" for columns, unique in INDEXES) + """
    CREATE FUNCTION paiju_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION 'events are append-only'; END $$;
    CREATE TRIGGER events_no_update BEFORE UPDATE OR DELETE ON events
        FOR EACH ROW EXECUTE FUNCTION paiju_refuse_change();
    CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events
        FOR EACH STATEMENT EXECUTE FUNCTION paiju_refuse_change();
    CREATE TABLE tokens (
        digest text PRIMARY KEY, token_id text NOT NULL UNIQUE, role text NOT NULL,
        tournament_id text, match_id text, seat integer, name text,
        created_at text NOT NULL, expires_at text, revoked_at text
    );
    CREATE TABLE timer_lease (name text PRIMARY KEY, holder text NOT NULL,
                              expires_at text NOT NULL);
    """,
    # 2: webhooks and their delivery attempts (service/webhooks.py), beside the log
    """
    CREATE TABLE webhooks (
        webhook_id text PRIMARY KEY, tournament_id text NOT NULL, url text NOT NULL,
        types text, streams text, secret text NOT NULL, created_at text NOT NULL,
        state text NOT NULL, disabled_reason text, cursor bigint NOT NULL,
        failures integer NOT NULL, failing_since text, next_attempt_at text,
        attempts_made integer NOT NULL
    );
    CREATE INDEX webhooks_tournament ON webhooks (tournament_id, created_at);
    CREATE TABLE webhook_deliveries (
        delivery_id text PRIMARY KEY, webhook_id text NOT NULL, event_id text NOT NULL,
        position bigint NOT NULL, attempt integer NOT NULL, at text NOT NULL, status integer,
        error text, next_attempt_at text, seq integer NOT NULL
    );
    CREATE INDEX webhook_deliveries_seq ON webhook_deliveries (webhook_id, seq);
    """,
    # 3: the timer's quiet marks (projections/quiet_marks.py): derived from the log, a hint
    # for the start-up of every node, never exported; dropping every row loses only time
    """
    CREATE TABLE quiet_matches (stream text PRIMARY KEY, version bigint NOT NULL,
                                hash text NOT NULL);
    """,
    # 4: the counter of the tokens' changes, moved in the transaction of the change: a node
    # keeps the tokens in memory and reads the counter, not the table, to learn that it must
    # read them again (service/token_cache.py)
    """
    CREATE TABLE paiju_changes (name text PRIMARY KEY, serial bigint NOT NULL);
    INSERT INTO paiju_changes (name, serial) VALUES ('tokens', 0);
    CREATE FUNCTION paiju_tokens_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN UPDATE paiju_changes SET serial = serial + 1 WHERE name = 'tokens'; RETURN NULL; END $$;
    CREATE TRIGGER tokens_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON tokens
        FOR EACH STATEMENT EXECUTE FUNCTION paiju_tokens_changed();
    """,
)
assert len(MIGRATIONS) == SCHEMA_VERSION


class SchemaNotCurrent(RuntimeError):
    """The database's schema is missing, older (``paiju db upgrade``) or newer than this code.
    Its one argument is a Message, said in the reader's language (service/cli/common.py:
    said); ``str()`` is its English."""


def is_postgres_url(db: str) -> bool:
    return db.startswith(("postgresql://", "postgres://"))


def connect(url: str, **kwargs) -> psycopg.Connection:
    try:
        return psycopg.connect(url, connect_timeout=CONNECT_SECONDS, **kwargs)
    except psycopg.Error as error:
        raise StoreUnavailable(Message("cannot reach the PostgreSQL database: {error}",
                                       error=first_line(error))) from None


def first_line(error: BaseException) -> str:
    return (str(error).strip().splitlines() or [type(error).__name__])[0]


def schema_version(conn: psycopg.Connection) -> int:
    """The database's schema version; 0 for a database paiju has not set up."""
    exists = conn.execute("SELECT to_regclass('paiju_schema') IS NOT NULL").fetchone()[0]
    if not exists:
        return 0
    return conn.execute("SELECT version FROM paiju_schema").fetchone()[0]


def upgrade_schema(url: str) -> tuple[int, int]:
    """Create or migrate the schema (``paiju db upgrade``); returns (before, after). Safe to
    run from several nodes at once: the migrations run under one advisory lock, in one
    transaction (PostgreSQL's DDL is transactional: a failed step leaves the version before)."""
    with connect(url) as conn, conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s, 0)", (LOCK_SPACE,))
        before = schema_version(conn)
        if before > SCHEMA_VERSION:
            raise SchemaNotCurrent(Message("the database has store schema {found}; this paiju "
                                           "knows {known}: upgrade paiju", found=before,
                                           known=SCHEMA_VERSION))
        if before == 0:
            conn.execute("CREATE TABLE paiju_schema (version integer NOT NULL)")
            conn.execute("INSERT INTO paiju_schema VALUES (0)")
        for migration in MIGRATIONS[before:]:
            conn.execute(migration)
        conn.execute("UPDATE paiju_schema SET version = %s", (SCHEMA_VERSION,))
    return before, SCHEMA_VERSION


def check_schema(url: str) -> None:
    """Refuse a database whose schema is not the one this code writes."""
    with connect(url, autocommit=True) as conn:
        found = schema_version(conn)
    if found == 0:
        raise SchemaNotCurrent(Message("the database has no paiju schema (this paiju writes "
                                       "{known}): run `paiju db upgrade --db URL` first",
                                       known=SCHEMA_VERSION))
    if found < SCHEMA_VERSION:
        raise SchemaNotCurrent(Message("the database has the older store schema {found} (this "
                                       "paiju writes {known}): run `paiju db upgrade --db URL` "
                                       "first", found=found, known=SCHEMA_VERSION))
    if found > SCHEMA_VERSION:  # the sentence of a SQLite file's (sqlite_schema.NewerSchema)
        raise SchemaNotCurrent(Message("the database was written by a newer paiju (store "
                                       "schema {found}; this one knows {known})", found=found,
                                       known=SCHEMA_VERSION))
