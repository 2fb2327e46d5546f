"""The ``paiju`` command on a PostgreSQL deployment: ``db upgrade`` makes the schema (and the
first admin token, once); a wrong URL or a database not yet upgraded is a message and an exit
code, never a traceback; tokens and verification work on the URL as on a file."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import postgres
import pytest

from events.postgres_store import SCHEMA_VERSION
from service.cli import main

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def english(monkeypatch):
    """The CLI's words are asserted in English: LC_ALL=C.UTF-8 says English
    (service.i18n.cli_language), whatever the machine's locale; subprocesses inherit it."""
    monkeypatch.setenv("LC_ALL", "C.UTF-8")


def paiju(*args, timeout=30):
    return subprocess.run([sys.executable, "-m", "service.cli", *args], cwd=REPO,
                          capture_output=True, text=True, timeout=timeout)


def test_db_upgrade_makes_the_schema_and_the_first_admin_token_once(postgres_template, capsys):
    url = postgres.create(None)
    try:
        assert main(["db", "upgrade", "--db", url]) == 0
        first = capsys.readouterr().out
        assert f"store schema {SCHEMA_VERSION} (upgraded from 0)" in first
        assert "Authorization: Bearer pj_" in first
        assert main(["db", "upgrade", "--db", url]) == 0
        again = capsys.readouterr().out
        assert "already current" in again and "Bearer" not in again
    finally:
        postgres.drop(url)


def test_serve_refuses_a_database_that_is_not_upgraded(postgres_template):
    url = postgres.create(None)
    try:
        done = paiju("serve", "--db", url, "--port", "1")
        assert done.returncode == 2
        assert "run `paiju db upgrade --db URL` first" in done.stderr
        assert "Traceback" not in done.stderr
    finally:
        postgres.drop(url)


def test_serve_on_an_unreachable_database_says_so_and_exits(postgres_template):
    done = paiju("serve", "--db", "postgresql://postgres:secret@127.0.0.1:1/nowhere")
    assert done.returncode == 2
    assert "cannot reach the PostgreSQL database" in done.stderr
    assert "Traceback" not in done.stderr and "secret" not in done.stderr


def test_tokens_and_verify_on_a_url(postgres_url, capsys):
    assert main(["token", "create", "--role", "admin", "--name", "desk", "--db",
                 postgres_url]) == 0
    secret = capsys.readouterr().out.strip()
    assert secret.startswith("pj_")
    assert main(["token", "list", "--db", postgres_url]) == 0
    assert "desk" in capsys.readouterr().out
    assert main(["verify", "--db", postgres_url]) == 0  # an empty log: nothing to report


def test_database_url_is_the_default_db(postgres_url, capsys):
    import os

    assert main(["token", "create", "--role", "admin", "--name", "in-postgres", "--db",
                 postgres_url]) == 0
    done = subprocess.run([sys.executable, "-m", "service.cli", "token", "list"], cwd=REPO,
                          capture_output=True, text=True, timeout=30,
                          env={**os.environ, "DATABASE_URL": postgres_url})
    assert done.returncode == 0, done.stderr
    assert "in-postgres" in done.stdout
