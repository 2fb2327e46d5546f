"""The `paiju verify` and `paiju export` commands on a database file."""
import json
import sqlite3

import pytest

from events.envelope import NewEvent
from events.sqlite_store import SQLiteEventStore
from service.cli import main


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


def test_export_writes_one_canonical_envelope_per_line(db, capsys):
    assert main(["export", "--tournament", "t2", "--db", db]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [json.loads(line)["position"] for line in lines] == [4, 5, 6]


def test_export_of_an_unknown_tournament_fails(db, capsys):
    assert main(["export", "--tournament", "nope", "--db", db]) == 1
