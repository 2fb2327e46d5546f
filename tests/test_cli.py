"""The `paiju verify`, `export`, `keys` and `token` commands on a database file, and the
progress bars of the long ones (issue 19)."""
import io
import json
import sqlite3
import sys

import pytest

from events.envelope import NewEvent
from events.sqlite_store import SQLiteEventStore
from service.cli import main


@pytest.fixture(autouse=True)
def english(monkeypatch):
    """The CLI's words are asserted in English: LC_ALL=C.UTF-8 says English
    (service.i18n.cli_language), whatever the machine's locale; subprocesses inherit it."""
    monkeypatch.setenv("LC_ALL", "C.UTF-8")


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "paiju.db"
    store = SQLiteEventStore(path)
    for tid in ("t1", "t2"):
        store.append(tid, [NewEvent("X", f"match-{tid}", {"n": i}) for i in range(3)])
    store.close()
    return str(path)


def test_verify_every_tournament(db, capsys):
    assert main(["verify", "--db", db]) == 0
    out = capsys.readouterr().out
    assert "t1: ok, 3 events" in out and "t2: ok, 3 events" in out


def test_verify_reports_the_first_bad_position_and_fails(db, capsys):
    conn = sqlite3.connect(db)
    conn.execute("DROP TRIGGER events_no_update")
    conn.execute("UPDATE events SET data = '{\"n\":9}' WHERE position = 2")
    conn.commit()
    conn.close()
    assert main(["verify", "--db", db, "--tournament", "t1"]) == 1
    assert "t1: BROKEN at position 2" in capsys.readouterr().out


def test_verify_without_a_database_says_so(tmp_path, capsys):
    assert main(["verify", "--db", str(tmp_path / "none.db")]) == 2
    assert "no database" in capsys.readouterr().err
    assert not (tmp_path / "none.db").exists()


def test_export_writes_one_canonical_envelope_per_line_then_the_manifest(db, capsys):
    assert main(["keys", "init", "--db", db]) == 0
    assert main(["export", "--tournament", "t2", "--db", db]) == 0
    *lines, manifest = capsys.readouterr().out.splitlines()
    assert [json.loads(line)["position"] for line in lines] == [4, 5, 6]
    assert json.loads(manifest)["manifest"]["first_position"] == 4


def test_export_of_an_unknown_tournament_fails(db, capsys):
    assert main(["keys", "init", "--db", db]) == 0
    assert main(["export", "--tournament", "nope", "--db", db]) == 1


def test_export_without_a_key_says_how_to_make_one(db, capsys):
    assert main(["export", "--tournament", "t2", "--db", db]) == 2
    assert "paiju keys init" in capsys.readouterr().err


def test_keys_init_never_replaces_a_key(db, capsys):
    assert main(["keys", "init", "--db", db]) == 0
    first = capsys.readouterr().err
    assert main(["keys", "init", "--db", db]) == 0
    again = capsys.readouterr().err
    assert "made" in first and "kept" in again
    assert first.split()[3] == again.split()[3]  # the same key id


def test_tokens_are_created_listed_and_revoked_and_only_their_hash_is_kept(db, capsys):
    assert main(["token", "create", "--role", "organiser", "--tournament", "t1", "--name", "王",
                 "--db", db]) == 0
    secret = capsys.readouterr().out.strip()
    assert secret.startswith("pj_")
    assert secret not in open(db, "rb").read().decode("latin-1")
    assert main(["token", "list", "--db", db]) == 0
    listed = capsys.readouterr().out
    token_id = listed.split()[0]
    assert "organiser, tournament t1" in listed and "active" in listed and secret not in listed
    assert main(["token", "revoke", token_id, "--db", db]) == 0
    capsys.readouterr()
    assert main(["token", "list", "--db", db]) == 0
    assert "revoked" in capsys.readouterr().out


@pytest.mark.parametrize("args, message", [
    (["--role", "player", "--tournament", "t1", "--match", "m"], "needs --seat"),
    (["--role", "table", "--tournament", "t1"], "needs --match"),
    (["--role", "admin", "--tournament", "t1"], "not bound"),
    (["--role", "referee"], "needs --tournament"),
    (["--role", "referee", "--tournament", "gone"], "no tournament 'gone'"),
])
def test_a_token_of_the_wrong_scope_is_not_made(db, capsys, args, message):
    assert main(["token", "create", *args, "--db", db]) == 2
    assert message in capsys.readouterr().err
    assert main(["token", "list", "--db", db]) == 0
    assert capsys.readouterr().out == ""


def test_a_token_revoked_by_the_cli_is_refused_by_the_running_app_within_5_s(tmp_path, capsys):
    """The app holds the tokens in memory (service/token_cache.py): it learns of a revocation
    made by another process from the tokens' change counter, which it reads every second."""
    from pg_nodes import poll

    from service import create_app

    db = str(tmp_path / "served.db")
    app = create_app({"DATABASE": db})  # the served process: its own connection to the file
    assert main(["token", "create", "--role", "organiser", "--tournament", "t", "--db", db]) == 0
    secret = capsys.readouterr().out.strip()
    client, auth = app.test_client(), {"Authorization": f"Bearer {secret}", "Accept-Language": "en"}
    created = client.post("/v1/tournaments", headers=auth, json={
        "tournament_id": "t", "name": "t", "game": "SJ2", "format": "knockout"})
    assert created.status_code == 201
    assert main(["token", "list", "--db", db]) == 0
    token_id = capsys.readouterr().out.split()[0]
    assert main(["token", "revoke", token_id, "--db", db]) == 0
    refused = poll(lambda: (r := client.get("/v1/tournaments/t/verify", headers=auth))
                   .status_code == 401 and r, 5, "the revoked token refused")
    assert "revoked" in refused.json["detail"]
    app.extensions["paiju"].tokens.close()
    app.extensions["paiju"].store.close()


class Terminal(io.StringIO):
    """A standard error that says it is a terminal: where tqdm (``disable=None``) draws."""

    def isatty(self) -> bool:
        return True


def run(argv: list[str], stderr: io.StringIO, capsys, monkeypatch) -> tuple[int, str, str]:
    """``paiju argv`` with ``stderr`` as its standard error; (exit, stdout, stderr)."""
    capsys.readouterr()
    with monkeypatch.context() as patched:
        patched.setattr(sys, "stderr", stderr)
        code = main(argv)
    return code, capsys.readouterr().out, stderr.getvalue()


EXPORTED_AT = "2026-05-01T09:00:00.000000Z"


def test_an_export_on_a_terminal_shows_a_bar_and_writes_exactly_the_same_bytes(
        db, capsys, monkeypatch):
    """Issue 19: the bar is on standard error only; standard output is the export as it was —
    byte for byte what export_lines makes of the log (the manifest's time held still, so that
    two exports are comparable)."""
    from events.export_file import export_lines
    from service.app import signing_key_path
    from service.signing import load_signer
    from service.version import VERSION

    monkeypatch.setattr("events.envelope.utc_timestamp", lambda *when: EXPORTED_AT)
    assert main(["keys", "init", "--db", db]) == 0
    argv = ["export", "--tournament", "t2", "--db", db]
    code, plain, quiet = run(argv, io.StringIO(), capsys, monkeypatch)
    assert code == 0
    code, shown, drawn = run(argv, Terminal(), capsys, monkeypatch)
    assert code == 0
    store = SQLiteEventStore(db)
    signer = load_signer(signing_key_path({"DATABASE": db}))
    expected = "".join(export_lines(store.read_tournament("t2"), "jsonl", "t2", EXPORTED_AT,
                                    VERSION, signer.sign))
    store.close()
    assert shown == plain == expected
    assert "\r" not in shown
    assert "paiju: exported: 3 events" in drawn and "\r" in drawn
    assert quiet.splitlines() == [quiet.splitlines()[-1]]  # no bar off a terminal: one line
    assert quiet.startswith("paiju: exported t2 up to position 6 (")


@pytest.mark.parametrize("force, terminal, drawn", [
    ("0", True, False), ("1", False, True), ("", False, False), ("", True, True)])
def test_paiju_progress_forces_the_bar_on_or_off(db, capsys, monkeypatch, force, terminal,
                                                 drawn):
    monkeypatch.setenv("PAIJU_PROGRESS", force)
    code, out, err = run(["verify", "--db", db], Terminal() if terminal else io.StringIO(),
                         capsys, monkeypatch)
    assert code == 0
    assert [line.split(",")[0] for line in out.splitlines()] == ["t1: ok", "t2: ok"]
    assert ("paiju: verified: 100%" in err) is drawn
    if drawn:
        assert "6/6 [" in err  # every chain: the log's six events


def test_verify_and_import_draw_their_bars_and_print_what_they_printed(db, capsys, monkeypatch,
                                                                       tmp_path):
    assert main(["keys", "init", "--db", db]) == 0
    export = tmp_path / "t1.jsonl"
    assert main(["export", "--tournament", "t1", "--db", db, "--output", str(export)]) == 0
    code, out, err = run(["import", str(export), "--db", str(tmp_path / "new.db"), "--unsigned"],
                         Terminal(), capsys, monkeypatch)
    assert code == 0
    assert out == f"paiju: imported 3 events of t1 into {tmp_path / 'new.db'} (chain verified)\n"
    assert "paiju: verified t1.jsonl: 4 lines" in err  # three events and the manifest
    assert "paiju: imported: 100%" in err and "3/3 [" in err


def test_token_sign_in_prints_a_code_and_its_link_that_open_one_session(tmp_path, capsys):
    """The organiser's first step on a new deployment: a code for a tournament still to be
    created, its link on the desk's host; the code opens a session once, as an organiser of
    that tournament, whose cookie may then create it."""
    from service import create_app

    db = str(tmp_path / "paiju.db")
    assert main(["token", "sign-in", "--role", "organiser", "--tournament", "spring",
                 "--name", "王老师", "--base-url", "https://desk.example", "--db", db]) == 0
    printed = capsys.readouterr()
    code, link = printed.out.split()
    assert link == f"https://desk.example/desk/signin#code={code}"
    assert "(organiser, tournament spring) works once" in printed.err
    app = create_app({"DATABASE": db})
    browser = app.test_client()
    opened = browser.post("/v1/sessions", json={"code": code})
    assert opened.status_code == 201, opened.json
    assert (opened.json["role"], opened.json["tournament_id"], opened.json["actor"]) == (
        "organiser", "spring", "王老师")
    assert browser.post("/v1/sessions", json={"code": code}).status_code == 401  # once only
    created = browser.post("/v1/tournaments", json={
        "tournament_id": "spring", "name": "Spring", "game": "GD", "format": "knockout"},
        headers={"X-CSRF-Token": opened.json["csrf_token"]})
    assert created.status_code == 201, created.json


def test_token_sign_in_refuses_a_scope_that_does_not_fit_the_role(tmp_path, capsys):
    db = str(tmp_path / "paiju.db")
    assert main(["token", "sign-in", "--role", "player", "--tournament", "spring",
                 "--db", db]) == 2
    assert "a player token needs --match" in capsys.readouterr().err
