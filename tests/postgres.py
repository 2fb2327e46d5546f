"""Throw-away PostgreSQL databases for the tests that need the real server (127.0.0.1:5432,
trust authentication, as on every machine of this project and in CI).

Each test gets a database of its own, copied from a template made once per run with the
current schema (``paiju db upgrade``), and dropped after it. Without a server the tests are
skipped, except under ``CI=true``, where a missing PostgreSQL fails the run.
"""
from __future__ import annotations

import contextlib
import os
import uuid

import psycopg
import pytest

from events.postgres_store import upgrade_schema

SERVER = os.environ.get("PAIJU_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432")
TEMPLATE = f"paiju_test_template_{os.getpid()}"


def _admin() -> psycopg.Connection:
    return psycopg.connect(f"{SERVER}/postgres", autocommit=True, connect_timeout=5)


def available() -> bool:
    try:
        _admin().close()
        return True
    except psycopg.OperationalError:
        return False


def require_server() -> None:
    if available():
        return
    if os.environ.get("CI") == "true":
        pytest.fail(f"no PostgreSQL at {SERVER}: CI must test the PostgreSQL store")
    pytest.skip(f"no PostgreSQL at {SERVER}")


def url_of(name: str) -> str:
    return f"{SERVER}/{name}"


@contextlib.contextmanager
def template_database():
    """The upgraded template of this test run (one per process: pytest-xdist-safe)."""
    with _admin() as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{TEMPLATE}"')
        conn.execute(f'CREATE DATABASE "{TEMPLATE}"')
    upgrade_schema(url_of(TEMPLATE))
    try:
        yield TEMPLATE
    finally:
        drop(TEMPLATE)


def create(template: str | None) -> str:
    """A new database (from ``template``, or empty); returns its URL."""
    name = f"paiju_test_{uuid.uuid4().hex[:12]}"
    with _admin() as conn:
        conn.execute(f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else ""))
    return url_of(name)


def drop(name_or_url: str) -> None:
    name = name_or_url.rsplit("/", 1)[-1]
    with _admin() as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
