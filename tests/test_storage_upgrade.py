"""``upgrade`` (``paiju db upgrade``) on databases made by the code before the storage owned its
tables (commit 1a15ec3, tests/fixtures/storage_1a15ec3/make.py): every table — the log, the
tokens, the webhooks and their attempts, the leases, the quiet marks — is upgraded in place on
SQLite and PostgreSQL, every row is as it was, every read is what that code read, byte for byte,
and the schema is the one a new database gets. Older versions the code knows upgrade too."""
from __future__ import annotations

import hashlib
import json
import sqlite3
from dataclasses import asdict
from pathlib import Path

import postgres
import psycopg
import pytest

from events.storage import Upgraded, postgres_schema, sqlite_schema, upgrade
from service import create_app
from service.deployment import open_deployment

FIXTURES = Path(__file__).parent / "fixtures" / "storage_1a15ec3"
RECORDED = json.loads((FIXTURES / "reads.json").read_text())
# every table of that code, each with the column that orders its rows
OLD_TABLES = {"events": "position", "tokens": "digest", "timer_lease": "name",
              "webhooks": "webhook_id", "webhook_deliveries": "delivery_id",
              "quiet_matches": "stream"}


# --- SQLite --------------------------------------------------------------------------------

def old_sqlite(path: Path) -> str:
    with sqlite3.connect(path) as conn:
        conn.executescript((FIXTURES / "sqlite.sql").read_text())
    return str(path)


def sqlite_rows(db: str) -> dict[str, list[tuple]]:
    with sqlite3.connect(db) as conn:
        return {table: conn.execute(f"SELECT * FROM {table} ORDER BY {key}").fetchall()
                for table, key in OLD_TABLES.items()}


def sqlite_shape(db: str) -> list[tuple]:
    """Every table, index and trigger as SQLite keeps its statement, and the version."""
    with sqlite3.connect(db) as conn:
        return sorted(conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master")) + [
            ("user_version", sqlite_schema.version(conn))]


def test_a_sqlite_file_of_the_code_before_upgrades_in_place_every_read_the_same(tmp_path):
    db = old_sqlite(tmp_path / "old.db")
    rows = sqlite_rows(db)
    assert len(rows["events"]) == 385 and all(rows.values())  # every table holds rows
    assert upgrade(db) == Upgraded("sqlite", 1, sqlite_schema.SCHEMA_VERSION)
    assert sqlite_rows(db) == rows
    assert_reads(db, RECORDED["sqlite"])
    assert upgrade(db) == Upgraded("sqlite", 3, 3)  # again: nothing to do
    assert sqlite_shape(db) == sqlite_shape(new_sqlite(tmp_path))


def new_sqlite(folder: Path) -> str:
    db = str(folder / "new.db")
    assert upgrade(db) == Upgraded("sqlite", 0, sqlite_schema.SCHEMA_VERSION)
    return db


def test_older_sqlite_files_upgrade_to_the_schema_of_a_new_one(tmp_path):
    """Version 0 with only the tokens (``paiju token create`` before the first serve), and
    version 1 with only the log (a file only the store opened: ``paiju import``)."""
    only_tokens = tmp_path / "tokens.db"
    with sqlite3.connect(only_tokens) as conn:
        for statement in sqlite_schema.MIGRATIONS[1][:2]:  # that code's statements, verbatim
            conn.execute(statement)
        conn.execute("INSERT INTO tokens (digest, token_id, role, created_at) "
                     "VALUES ('d', 't1', 'admin', '2026-01-01T00:00:00.000000Z')")
    only_log = tmp_path / "log.db"
    with sqlite3.connect(only_log) as conn:
        for statement in sqlite_schema.MIGRATIONS[0]:
            conn.execute(statement)
        conn.execute("PRAGMA user_version = 1")
    assert upgrade(str(only_tokens)).before == 0 and upgrade(str(only_log)).before == 1
    new = sqlite_shape(new_sqlite(tmp_path))
    assert sqlite_shape(str(only_tokens)) == new and sqlite_shape(str(only_log)) == new
    with sqlite3.connect(only_tokens) as conn:
        assert conn.execute("SELECT token_id, role FROM tokens").fetchall() == [("t1", "admin")]


def test_a_sqlite_file_of_a_newer_paiju_is_left_alone(tmp_path):
    db = new_sqlite(tmp_path)
    with sqlite3.connect(db) as conn:
        conn.execute(f"PRAGMA user_version = {sqlite_schema.SCHEMA_VERSION + 1}")
    with pytest.raises(sqlite_schema.NewerSchema, match="newer paiju"):
        upgrade(db)


# --- PostgreSQL ----------------------------------------------------------------------------

@pytest.fixture
def empty_database(postgres_template):
    url = postgres.create(None)
    yield url
    postgres.drop(url)


def old_postgres(url: str) -> str:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute((FIXTURES / "postgres.sql").read_text())
    return url


def postgres_rows(url: str) -> dict[str, list[tuple]]:
    with psycopg.connect(url, autocommit=True) as conn:
        return {table: conn.execute(f"SELECT * FROM {table} ORDER BY {key}").fetchall()
                for table, key in OLD_TABLES.items()}


SHAPE = (
    "SELECT table_name, column_name, ordinal_position, data_type, is_nullable, column_default "
    "FROM information_schema.columns WHERE table_schema = 'public' ORDER BY 1, 3",
    "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1",
    "SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint "
    "WHERE connamespace = 'public'::regnamespace ORDER BY 1",
    "SELECT tgname, pg_get_triggerdef(oid) FROM pg_trigger WHERE NOT tgisinternal ORDER BY 1",
    "SELECT proname, prosrc FROM pg_proc WHERE pronamespace = 'public'::regnamespace ORDER BY 1",
    "SELECT version FROM paiju_schema",
)


def postgres_shape(url: str) -> list[list[tuple]]:
    with psycopg.connect(url, autocommit=True) as conn:
        return [conn.execute(sql).fetchall() for sql in SHAPE]


def test_a_postgresql_database_of_the_code_before_upgrades_in_place_every_read_the_same(
        empty_database, postgres_url):
    url = old_postgres(empty_database)
    rows = postgres_rows(url)
    assert len(rows["events"]) == 385 and all(rows.values())
    assert upgrade(url) == Upgraded("postgresql", 3, postgres_schema.SCHEMA_VERSION)
    assert postgres_rows(url) == rows
    assert_reads(url, RECORDED["postgres"])
    assert upgrade(url).changed is False
    assert postgres_shape(url) == postgres_shape(postgres_url)  # postgres_url: a new database


@pytest.mark.parametrize("version", [1, 2])
def test_older_postgresql_schemas_upgrade_to_the_schema_of_a_new_one(empty_database,
                                                                     postgres_url, version):
    with psycopg.connect(empty_database, autocommit=True) as conn:
        conn.execute("CREATE TABLE paiju_schema (version integer NOT NULL)")
        conn.execute("INSERT INTO paiju_schema VALUES (%s)", (version,))
        for migration in postgres_schema.MIGRATIONS[:version]:
            conn.execute(migration)
    assert upgrade(empty_database).before == version
    assert postgres_shape(empty_database) == postgres_shape(postgres_url)


# --- the reads ------------------------------------------------------------------------------

def sha256(body: bytes) -> str:
    return hashlib.sha256(body).hexdigest()


def assert_reads(db: str, recorded: dict) -> None:
    """What this code reads from the upgraded database is what the code before read from it:
    the log (through the store and over HTTP), each token (listed, and looked up by its
    secret), each webhook and its attempts, the leases, the quiet marks."""
    assert http_reads(db, recorded) == recorded["http"]
    deployment = open_deployment(db)
    try:
        store, fields = deployment.store, recorded["tokens"][0][1].keys()
        assert sha256(json.dumps([list(r) for r in store.read_all()],
                                 ensure_ascii=False).encode()) == recorded["events"]
        tokens = [[d, {k: v for k, v in asdict(t).items() if k in fields}]
                  for d, t in deployment.tokens.with_digests()]
        assert tokens == recorded["tokens"]
        assert {i: asdict(deployment.tokens.lookup(secret)) for i, secret in
                recorded["secrets"].items()} == recorded["lookups"]
        hooks = deployment.webhooks.every()
        assert as_json([asdict(h) for h in hooks]) == recorded["webhooks"]
        assert {h.webhook_id: [asdict(a) for a in deployment.webhooks.every_attempt(
            h.webhook_id)] for h in hooks} == recorded["attempts"]
        assert deployment.marks.unsettled(store) == recorded["unsettled"]
    finally:
        deployment.close()
    assert raw(db, "SELECT name, holder, expires_at FROM timer_lease ORDER BY name") == \
        recorded["leases"]
    assert raw(db, "SELECT stream, version, hash FROM quiet_matches ORDER BY stream") == \
        recorded["quiet_rows"]


def as_json(value):
    """As the reads were recorded (a tuple is a JSON list)."""
    return json.loads(json.dumps(value))


def http_reads(db: str, recorded: dict) -> dict[str, str]:
    app = create_app({"DATABASE": db, "CHECKPOINTS": False})
    try:
        auth = {"Authorization": f"Bearer {recorded['admin']}", "Accept-Language": "en"}
        client = app.test_client()
        return {path: sha256(client.get(path, headers=auth).get_data())
                for path in recorded["http"]}
    finally:
        app.extensions["paiju"].tokens.close()
        app.extensions["paiju"].store.close()


def raw(db: str, sql: str) -> list[list]:
    if postgres_schema.is_postgres_url(db):
        with psycopg.connect(db, autocommit=True) as conn:
            return [list(row) for row in conn.execute(sql)]
    with sqlite3.connect(db) as conn:
        return [list(row) for row in conn.execute(sql)]


def test_paiju_db_upgrade_brings_an_old_sqlite_file_up_to_date_in_place(tmp_path, capsys,
                                                                         monkeypatch):
    """The command an operator runs: the file of the code before, upgraded and said so; run
    again, already current; a file of a newer paiju refused with exit 2, untouched."""
    from service.cli import main

    monkeypatch.setenv("LC_ALL", "C.UTF-8")  # the CLI's words in English
    db = old_sqlite(tmp_path / "old.db")
    rows = sqlite_rows(db)
    assert main(["db", "upgrade", "--db", db]) == 0
    said = capsys.readouterr().out
    assert f"store schema {sqlite_schema.SCHEMA_VERSION} (upgraded from 1)" in said
    assert sqlite_rows(db) == rows
    assert main(["db", "upgrade", "--db", db]) == 0
    assert "(already current)" in capsys.readouterr().out
    with sqlite3.connect(db) as conn:
        conn.execute(f"PRAGMA user_version = {sqlite_schema.SCHEMA_VERSION + 1}")
    assert main(["db", "upgrade", "--db", db]) == 2
    assert "newer paiju" in capsys.readouterr().err
