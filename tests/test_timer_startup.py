"""Start-up proportional to what is live (issue 16): a server on a database with finished
matches and a few running ones folds, at start, only the running ones — once its quiet marks
are in the checkpoint file — and their deadlines still fire with their original times."""
from __future__ import annotations

import json
import sqlite3

import pytest
from clients import admin_client
from mj_table import Table
from tables import Clock

from service import create_app
from service import timekeeping
from service.simulator.runner import simulate, temporary_server

RUNNING = 2


@pytest.fixture(scope="module")
def deployment():
    """A finished SJ2 knockout (four matches) and two MJO tables dealt and waiting, on one
    database; yields (database, clock, the running tables' streams, the finished ones')."""
    with temporary_server() as server:
        outcome = simulate(server.url, teams=4, seed=3, match_settings={"maxHands": 1},
                           token=server.token)
        finished = sorted(f"match-{outcome.tournament_id}:{m['match_id']}"
                          for r in outcome.bracket["rounds"] for m in r["matches"])
        clock = Clock()
        app = served(server.database, clock)
        tables = [Table(admin_client(app), {"claimWindowSeconds": 3}, tid=f"live-{n}")
                  for n in range(RUNNING)]
        for table in tables:
            table.deal()
        app.extensions["paiju"].store.close()
        # a database of a paiju from before the quiet marks were kept beside the log (the
        # simulation's timer left its own): the upgrade's first start finds none
        conn = sqlite3.connect(server.database, isolation_level=None)
        conn.execute("DROP TABLE quiet_matches")
        conn.execute("PRAGMA user_version = 1")  # as that paiju's files are: upgraded at start
        conn.close()
        yield server.database, clock, sorted(t.stream for t in tables), finished


def served(database: str, clock: Clock):
    """The app as ``paiju serve`` makes it (the checkpoint file beside the database), on the
    test's clock."""
    return create_app({"DATABASE": database, "CLOCK": clock,
                       "NOW": lambda: clock.now + clock.step})


def started(database: str, clock: Clock, monkeypatch) -> tuple[object, list[str]]:
    """A server process started on the database; the match streams its timer folded."""
    folded = []
    real = timekeeping.load_stream

    def counted(log, catalogue, stream, *args, **kwargs):
        folded.append(stream)
        return real(log, catalogue, stream, *args, **kwargs)

    monkeypatch.setattr(timekeeping, "load_stream", counted)
    app = served(database, clock)
    services = app.extensions["paiju"]
    services.timekeeper.start()
    services.cache.persisted.flush()  # the quiet marks it wrote, for the next start
    monkeypatch.setattr(timekeeping, "load_stream", real)
    return app, folded


def test_only_the_running_matches_are_folded_at_start(deployment, monkeypatch):
    database, clock, running, finished = deployment
    first, folded_first = started(database, clock, monkeypatch)
    # the first start after the upgrade has no quiet marks yet: it folds every match once
    assert sorted(folded_first) == sorted(running + finished)
    first.extensions["paiju"].store.close()
    again, folded_again = started(database, clock, monkeypatch)
    assert sorted(folded_again) == running
    pending = {p.stream for p in again.extensions["paiju"].timekeeper.pending()}
    assert pending == set(running)
    again.extensions["paiju"].store.close()


def test_the_running_matches_deadlines_fire_after_a_quick_start(deployment, monkeypatch):
    database, clock, running, _ = deployment
    # a start that writes the quiet marks (the test above may run elsewhere: xdist), then
    # the quick one
    first, _ = started(database, clock, monkeypatch)
    first.extensions["paiju"].store.close()
    app, folded = started(database, clock, monkeypatch)
    timekeeper = app.extensions["paiju"].timekeeper
    try:
        assert sorted(folded) == running
        due = timekeeper.next_due()
        clock.now = due - clock.step  # the next event is recorded exactly at the deadline
        fired = timekeeper.tick()
        assert {r.stream for r in fired} <= set(running) and fired
        first = fired[0]
        assert json.loads(first.meta)["actor"] == "timer"
        assert json.loads(first.meta)["deadline"] == due.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    finally:
        app.extensions["paiju"].store.close()


def test_a_finished_match_that_moves_again_is_folded_at_the_next_start(deployment,
                                                                        monkeypatch):
    """A quiet mark holds only while the stream's last event is the one marked."""
    database, clock, running, finished = deployment
    app, _ = started(database, clock, monkeypatch)
    client = admin_client(app)
    tid = finished[0][len("match-"):].split(":", 1)[0]
    ruling = {"text": "the committee notes the match's result"}
    response = client.post(f"/v1/tournaments/{tid}/events", json={
        "type": "RulingRecorded", "stream": finished[0], "data": ruling})
    assert response.status_code == 201, response.json
    app.extensions["paiju"].store.close()
    again, folded = started(database, clock, monkeypatch)
    assert finished[0] in folded
    again.extensions["paiju"].store.close()
