"""Moving a deployment from SQLite to PostgreSQL (``paiju migrate``): a simulated knockout's
chain is identical afterwards, every read byte-identical, its tokens still work; a target that
is not empty, or a source whose chain is broken, gets nothing written."""
from __future__ import annotations

import sqlite3
from dataclasses import replace

import psycopg
import pytest
from clients import bearer
from replay import knockout_reads, read_bytes

from service import create_app
from service.cli import main
from service.simulator.runner import simulate, temporary_server


@pytest.fixture(autouse=True)
def english(monkeypatch):
    """The CLI's words are asserted in English: LC_ALL=C.UTF-8 says English
    (service.i18n.cli_language), whatever the machine's locale; subprocesses inherit it."""
    monkeypatch.setenv("LC_ALL", "C.UTF-8")


@pytest.fixture(scope="module")
def simulated(tmp_path_factory):
    """A four-team SJ2 knockout played by the simulator's bots on a SQLite deployment."""
    with temporary_server() as server:
        outcome = simulate(server.url, token=server.token, teams=4, seed=3,
                           match_settings={"maxHands": 1})
        server.app.extensions["paiju"].store.close()
        copy = tmp_path_factory.mktemp("source") / "paiju.db"
        with sqlite3.connect(server.database) as source, sqlite3.connect(copy) as target:
            source.backup(target)
        yield outcome, str(copy), server.token


def reads(db, tid, matches, token):
    app = create_app({"DATABASE": db, "CHECKPOINTS": False})
    client = app.test_client()
    client.environ_base["HTTP_AUTHORIZATION"] = bearer(token)["Authorization"]
    try:
        found = knockout_reads(client, tid, matches, seat=1)
        found.update(read_bytes(client, [f"/v1/tournaments/{tid}/events?limit=1000",
                                         f"/v1/tournaments/{tid}/verify", "/v1/tournaments"]))
        return found
    finally:
        app.extensions["paiju"].store.close()


def test_every_read_is_byte_identical_after_moving_to_postgresql(simulated, postgres_url,
                                                                 capsys):
    outcome, db, token = simulated
    assert main(["migrate", "--from", db, "--to", postgres_url]) == 0
    assert "every chain verified" in capsys.readouterr().out
    matches = [m["match_id"] for r in outcome.bracket["rounds"] for m in r["matches"]]
    before = reads(db, outcome.tournament_id, matches, token)
    after = reads(postgres_url, outcome.tournament_id, matches, token)  # the same token works
    assert len(before) > 10 and after == before
    assert main(["verify", "--db", postgres_url]) == 0


def test_a_target_that_holds_events_gets_nothing(simulated, postgres_url, capsys):
    _, db, _ = simulated
    assert main(["migrate", "--from", db, "--to", postgres_url]) == 0
    assert main(["migrate", "--from", db, "--to", postgres_url]) == 1
    assert "already holds events" in capsys.readouterr().err


def test_a_broken_chain_is_not_moved(simulated, postgres_url, tmp_path, capsys):
    _, db, _ = simulated
    broken = tmp_path / "broken.db"
    with sqlite3.connect(db) as source, sqlite3.connect(broken) as target:
        source.backup(target)
    with sqlite3.connect(broken) as conn:
        conn.execute("DROP TRIGGER events_no_update")
        conn.execute("UPDATE events SET data = '{}' WHERE position = 5")
    assert main(["migrate", "--from", str(broken), "--to", postgres_url]) == 1
    assert "broken at position 5" in capsys.readouterr().err
    with psycopg.connect(postgres_url) as conn:
        assert conn.execute("SELECT count(*) FROM events").fetchone()[0] == 0


def test_an_unreachable_target_is_a_message_not_a_traceback(simulated, capsys):
    _, db, _ = simulated
    assert main(["migrate", "--from", db, "--to", "postgresql://postgres@127.0.0.1:1/x"]) == 2
    err = capsys.readouterr().err
    assert "cannot reach the PostgreSQL database" in err and "Traceback" not in err


def test_db_upgrade_then_migrate_as_the_readme_says(simulated, postgres_template, capsys):
    """A new PostgreSQL database: `paiju db upgrade` (which makes its first admin token), then
    `paiju migrate`: the source's tokens join that one."""
    import postgres

    _, db, token = simulated
    url = postgres.create(None)
    try:
        assert main(["db", "upgrade", "--db", url]) == 0
        assert main(["migrate", "--from", db, "--to", url]) == 0
        assert "every chain verified" in capsys.readouterr().out
        assert main(["token", "list", "--db", url]) == 0
        listed = capsys.readouterr().out
        assert "first admin" in listed and "paiju simulate" in listed
    finally:
        postgres.drop(url)


def test_webhooks_move_with_their_secrets_cursors_and_delivery_attempts(simulated, postgres_url,
                                                                       tmp_path, capsys):
    """An organiser's webhooks go on from where they were after the move: the same id, secret,
    filters, cursor and state, and every delivery attempt in its order."""
    from service.deployment import open_deployment
    from service.webhooks import Attempt, SQLiteWebhookRegistry

    outcome, db, _ = simulated
    source = tmp_path / "with-webhooks.db"
    with sqlite3.connect(db) as original, sqlite3.connect(source) as copy:
        original.backup(copy)
    hooks = SQLiteWebhookRegistry(source)
    tid = outcome.tournament_id
    _, live = hooks.create(tid, "https://scores.example/hook", ["HandEnded"], None, 40,
                           "2026-12-02T05:00:00.000000Z")
    _, failing = hooks.create(tid, "https://down.example/hook", None, None, 0,
                              "2026-12-02T05:00:01.000000Z")
    for n in (1, 2, 3):
        hooks.save(replace(failing, failures=n, attempts_made=n),
                   Attempt(f"d{n}", failing.webhook_id, "e1", 1, n, f"2026-12-02T05:0{n}:00Z",
                           500, "500 Internal Server Error", None, n))
    hooks.save(replace(failing, state="disabled", disabled_reason="failing for 24 h"))
    hooks.close()

    assert main(["migrate", "--from", str(source), "--to", postgres_url]) == 0
    assert "2 webhooks" in capsys.readouterr().out
    moved = open_deployment(postgres_url)
    kept = open_deployment(str(source))
    try:
        assert moved.webhooks.every() == kept.webhooks.every()
        assert [h.state for h in moved.webhooks.every()] == ["active", "disabled"]
        assert moved.webhooks.get(tid, live.webhook_id).secret == live.secret
        attempts = list(moved.webhooks.every_attempt(failing.webhook_id))
        assert attempts == list(kept.webhooks.every_attempt(failing.webhook_id))
        assert [a.attempt for a in attempts] == [1, 2, 3]
    finally:
        moved.close()
        kept.close()
