"""A node starts in seconds whatever its checkpoint file holds (issue 35, item 1): the matches
that may be running are found by one query (the quiet marks beside the log), the timer folds
them in the background while the node already answers, and its readiness turns 200 only once
every running match's deadlines are known and what fell due has been fired — each deadline
exactly once, counted in the log.

The node of these tests is the app ``paiju serve`` makes (the timer in its scheduler, the
checkpoint file beside the database) on a fake clock; the fold of the running matches is held at
a gate, so "at once" and "only after" are orders, not timings. The last test starts ``paiju
serve`` itself, on the real clock.
"""
from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import threading
import time
from collections import Counter
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from clients import admin_client
from mj_table import Table
from tables import Clock

from events.sqlite_store import SQLiteEventStore
from projections import checkpoints
from service import create_app, timekeeping
from service.simulator.runner import simulate, temporary_server
from service.simulator.server_process import free_port

RUNNING = 2
CAUGHT_UP_SECONDS = 60  # a bound for a slow machine; the fold of two tables takes milliseconds


@pytest.fixture(scope="module")
def day(tmp_path_factory):
    """A database with a finished SJ2 knockout and two MJO tables dealt (the dealer's first
    discard limit pending), served once by a node with its timer, which left the checkpoint file
    and the quiet marks; yields (folder, the running tables' streams, the finished matches'
    streams, the deadlines pending when that node stopped: (stream, event type, deadline))."""
    folder = tmp_path_factory.mktemp("day")
    database = folder / "paiju.db"
    with temporary_server() as server:
        outcome = simulate(server.url, teams=4, seed=3, match_settings={"maxHands": 1},
                           token=server.token)
        finished = sorted(f"match-{outcome.tournament_id}:{m['match_id']}"
                          for r in outcome.bracket["rounds"] for m in r["matches"])
        copy(Path(server.database), database)
    clock = Clock(datetime.now(timezone.utc))  # the scheduler plans on the real clock
    app = node(database, clock)
    tables = [Table(admin_client(app), {"claimWindowSeconds": 3}, tid=f"live-{n}")
              for n in range(RUNNING)]
    for table in tables:
        table.deal()
    timer = app.extensions["paiju"].timer
    timer.start()
    assert timer.caught_up.wait(CAUGHT_UP_SECONDS)
    pending = {(p.stream, p.deadline.event_type, p.due_text)
               for p in app.extensions["paiju"].timekeeper.pending()}
    stop(app)
    assert {stream for stream, _, _ in pending} == {t.stream for t in tables}
    yield folder, sorted(t.stream for t in tables), finished, pending


def node(database: Path, clock: Clock):
    """The app as ``paiju serve`` makes it (its timer in a scheduler, the checkpoint file
    beside the database), on the test's clock."""
    return create_app({"DATABASE": str(database), "CLOCK": clock, "TIMER": True,
                       "NOW": lambda: clock.now + clock.step})


def stop(app) -> None:
    services = app.extensions["paiju"]
    services.timer.shutdown()
    services.store.close()
    services.cache.close()


def copy(source: Path, target: Path) -> None:
    """A SQLite file copied whole (its WAL included)."""
    src, dst = sqlite3.connect(source), sqlite3.connect(target)
    try:
        src.backup(dst)
    finally:
        dst.close()
        src.close()


def timer_events(database: Path) -> Counter:
    """Each event the timer appended, by (stream, type, the deadline it fired for)."""
    store = SQLiteEventStore(database)
    try:
        return Counter((r.stream, r.type, json.loads(r.meta)["deadline"])
                       for r in store.read_all() if json.loads(r.meta).get("actor") == "timer")
    finally:
        store.close()


def without_checkpoint_file(database: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        Path(f"{database}-checkpoints{suffix}").unlink(missing_ok=True)


def after_every_deadline(pending: set) -> Clock:
    """A clock a second past the last pending deadline: they all fell due while no node ran
    (and the limits their firings start are not due yet)."""
    from rules.match_clock import moment

    clock = Clock(max(moment(due) for _, _, due in pending))
    clock.advance(seconds=1)
    return clock


class Gate:
    """The timer's folds of the running matches held until :meth:`open`; every stream folded
    is noted."""

    def __init__(self, monkeypatch, held: set[str]):
        self.held, self.folded, self._open = held, [], threading.Event()
        real = timekeeping.load_stream

        def gated(log, catalogue, stream, *args, **kwargs):
            self.folded.append(stream)
            if stream in self.held:
                assert self._open.wait(CAUGHT_UP_SECONDS), "the gate was never opened"
            return real(log, catalogue, stream, *args, **kwargs)

        monkeypatch.setattr(timekeeping, "load_stream", gated)

    def open(self) -> None:
        self._open.set()


def started_behind_a_gate(database: Path, clock: Clock, running: list[str], monkeypatch):
    """A node started with the fold of the running matches held: (app, client, gate)."""
    gate = Gate(monkeypatch, set(running))
    app = node(database, clock)
    app.extensions["paiju"].timer.start()
    return app, admin_client(app), gate


def the_node_answers_at_once_and_is_ready_after_the_deadlines(database, running, finished,
                                                               pending, monkeypatch) -> None:
    clock = after_every_deadline(pending)
    before = timer_events(database)  # the simulation's own timer fired the finished matches'
    app, client, gate = started_behind_a_gate(database, clock, running, monkeypatch)
    timer = app.extensions["paiju"].timer
    try:
        # the node answers while the timer still folds the running matches
        assert client.get("/v1/health").status_code == 200
        not_ready = client.get("/v1/ready")
        assert not_ready.status_code == 503, not_ready.json
        assert not_ready.json["checks"]["timer"] == "catching-up"
        assert not timer.caught_up.is_set()
        assert timer_events(database) == before  # nothing fired before its match was folded

        gate.open()
        assert timer.caught_up.wait(CAUGHT_UP_SECONDS)
        ready = client.get("/v1/ready")
        assert ready.status_code == 200, ready.json
        # the deadlines that fell due while no node ran have fired, each once, at once
        assert timer_events(database) - before == Counter(pending)
        # only what may be running was folded at start: the finished matches are marked over
        assert set(gate.folded) <= set(running) and not set(gate.folded) & set(finished)
        # what is pending now is the running matches' next limits, none of them due
        assert all(p.stream in running and p.due > clock.now
                   for p in timer.timekeeper.pending())
    finally:
        gate.open()
        stop(app)
    # another start fires none of them again
    again = node(database, clock)
    again.extensions["paiju"].timer.start()
    try:
        assert again.extensions["paiju"].timer.caught_up.wait(CAUGHT_UP_SECONDS)
        assert timer_events(database) - before == Counter(pending)
    finally:
        stop(again)


def test_without_its_checkpoint_file_a_node_answers_at_once_and_fires_each_deadline_once(
        day, tmp_path, monkeypatch):
    folder, running, finished, pending = day
    database = tmp_path / "paiju.db"
    copy(folder / "paiju.db", database)
    without_checkpoint_file(database)
    the_node_answers_at_once_and_is_ready_after_the_deadlines(database, running, finished,
                                                               pending, monkeypatch)


def test_after_a_change_of_the_rules_fingerprint_the_same(day, tmp_path, monkeypatch):
    """Every checkpoint of the file is then foreign (dropped as the node opens it); the quiet
    marks are facts of the folded history (over, paused), not of the rules' code, and hold."""
    folder, running, finished, pending = day
    database = tmp_path / "paiju.db"
    copy(folder / "paiju.db", database)
    copy(folder / "paiju.db-checkpoints", Path(f"{database}-checkpoints"))
    with sqlite3.connect(f"{database}-checkpoints") as conn:
        before = {code for (code,) in conn.execute("SELECT DISTINCT code FROM checkpoints")}
    assert before == {checkpoints.fold_code()}  # the running tables' heads, of today's rules
    monkeypatch.setattr(checkpoints, "fold_code", lambda: "the rules of the next version")
    the_node_answers_at_once_and_is_ready_after_the_deadlines(database, running, finished,
                                                               pending, monkeypatch)
    with sqlite3.connect(f"{database}-checkpoints") as conn:
        codes = {code for (code,) in conn.execute("SELECT DISTINCT code FROM checkpoints")}
    assert codes <= {"the rules of the next version"}  # the foreign ones are gone


def test_a_log_without_quiet_marks_is_folded_whole_in_the_background(day, tmp_path,
                                                                      monkeypatch):
    """The first start on a log no node has marked (a database of a paiju before the marks,
    or one rebuilt by ``paiju import``): every match started is folded — after the node
    answers — and marked, so the next start folds only the running ones."""
    folder, running, finished, pending = day
    database = tmp_path / "paiju.db"
    copy(folder / "paiju.db", database)
    without_checkpoint_file(database)
    with sqlite3.connect(database) as conn:
        conn.execute("DELETE FROM quiet_matches")
    clock = after_every_deadline(pending)
    before = timer_events(database)
    app, client, gate = started_behind_a_gate(database, clock, running, monkeypatch)
    try:
        assert client.get("/v1/health").status_code == 200
        assert client.get("/v1/ready").status_code == 503
        gate.open()
        assert app.extensions["paiju"].timer.caught_up.wait(CAUGHT_UP_SECONDS)
        assert sorted(set(gate.folded)) == sorted(running + finished)
        assert timer_events(database) - before == Counter(pending)
    finally:
        gate.open()
        stop(app)
    with sqlite3.connect(database) as conn:
        marked = {stream for (stream,) in conn.execute("SELECT stream FROM quiet_matches")}
    assert marked == set(finished)


def test_paiju_serve_without_its_checkpoint_file_fires_what_fell_due_once(day, tmp_path):
    """``paiju serve`` itself, on the real clock, on the day with two more tables dealt an
    hour ago (their first-discard limits long passed): the node answers, turns ready, and
    each deadline fired once."""
    folder, running, _, _ = day
    database = tmp_path / "paiju.db"
    copy(folder / "paiju.db", database)
    app = create_app({"DATABASE": str(database), "CHECKPOINTS": False, "CLOCK": Clock(
        datetime.now(timezone.utc) - timedelta(hours=1))})
    late = [Table(admin_client(app), tid=f"late-{n}") for n in range(2)]
    for table in late:
        table.deal()
    app.extensions["paiju"].store.close()
    without_checkpoint_file(database)
    before = timer_events(database)
    port = free_port()
    with open(tmp_path / "serve.log", "wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-c", "from service.cli import main; raise SystemExit(main())",
             "serve", "--db", str(database), "--port", str(port)],
            stdout=log, stderr=subprocess.STDOUT)
        try:
            assert wait_for(port, "/v1/health", 200), (tmp_path / "serve.log").read_text()
            assert wait_for(port, "/v1/ready", 200), (tmp_path / "serve.log").read_text()
            fired = timer_events(database) - before
        finally:
            process.terminate()
            process.wait(timeout=30)
    assert {stream for stream, _, _ in fired} >= {t.stream for t in late}
    assert set(fired.values()) == {1}  # each deadline once
    said = (tmp_path / "serve.log").read_text()
    assert "timer caught up" in said
    assert f"{len(running) + len(late)} matches folded" in said  # the finished ones not


def wait_for(port: int, path: str, status: int, seconds: float = CAUGHT_UP_SECONDS) -> bool:
    import http.client

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", path)
            if conn.getresponse().status == status:
                return True
        except OSError:
            pass
        time.sleep(0.05)
    return False
