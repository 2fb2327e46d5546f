"""The quiet marks beside the log (projections/quiet_marks.py), on SQLite and on PostgreSQL:
a match over or paused is marked when the timer folds it, a new node (no checkpoint file) then
folds only the others, and a marked match that moves again is folded at the next start."""
from __future__ import annotations

from datetime import datetime, timezone

import pytest
from clients import admin_client
from mj_table import Table
from tables import Clock, ok

from projections.quiet_marks import quiet
from service import create_app


@pytest.fixture(params=["sqlite", "postgres"])
def database(request, tmp_path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "paiju.db")
    return request.getfixturevalue("postgres_url")


def node(database: str, clock: Clock, folder):
    """A node of the deployment at ``database`` with a checkpoint file of its own (none yet:
    a new node)."""
    return create_app({"DATABASE": database, "CLOCK": clock, "TIMER": True,
                       "NOW": lambda: clock.now + clock.step,
                       "CHECKPOINTS": str(folder / "node.checkpoints")})


def started(app) -> list[str]:
    """Start the node's timer; the streams it found to fold, once it has caught up."""
    services = app.extensions["paiju"]
    found = services.timekeeper.marks.unsettled(services.store)
    services.timer.start()
    assert services.timer.caught_up.wait(30)
    return found


def stopped(app) -> None:
    services = app.extensions["paiju"]
    services.timer.shutdown()
    services.store.close()
    services.cache.close()


def test_a_new_node_folds_only_the_matches_not_over_or_paused(database, tmp_path):
    clock = Clock(datetime.now(timezone.utc))  # the scheduler plans on the real clock
    first = node(database, clock, tmp_path / "a")
    client = admin_client(first)
    playing, paused = (Table(client, tid=f"t{n}") for n in range(2))
    playing.deal()
    paused.deal()
    ok(client.post(f"/v1/tournaments/{paused.tid}/events", json={
        "type": "MatchClockPaused", "stream": paused.stream, "data": {"reason": "a ruling"}}))
    try:
        assert sorted(started(first)) == sorted([playing.stream, paused.stream])
    finally:
        stopped(first)

    second = node(database, clock, tmp_path / "b")  # a new node: no checkpoint file
    try:
        assert started(second) == [playing.stream]
        pending = second.extensions["paiju"].timekeeper.pending()
        assert {p.stream for p in pending} == {playing.stream}
        # the paused table resumes: it moved past its mark
        ok(admin_client(second).post(f"/v1/tournaments/{paused.tid}/events", json={
            "type": "MatchClockResumed", "stream": paused.stream, "data": {}}))
    finally:
        stopped(second)

    third = node(database, clock, tmp_path / "c")
    try:
        assert sorted(started(third)) == sorted([playing.stream, paused.stream])
        pending = third.extensions["paiju"].timekeeper.pending()
        assert {p.stream for p in pending} == {playing.stream, paused.stream}
    finally:
        stopped(third)


def test_only_a_match_over_or_paused_is_quiet():
    from projections.streams import StreamState
    from rules.match_clock import MatchClock

    class State:
        def __init__(self, status, clock):
            self.status, self.match_clock = status, clock

    running, standing = MatchClock(), MatchClock(paused_since=Clock().now)
    assert quiet(StreamState("match-t:m", State("completed", running), 9, 9, "h"))
    assert quiet(StreamState("match-t:m", State("playing", standing), 9, 9, "h"))
    assert not quiet(StreamState("match-t:m", State("playing", running), 9, 9, "h"))
    assert not quiet(StreamState("match-t:m"))  # nothing folded


def test_marks_of_another_history_or_of_no_stream_are_ignored(tmp_path):
    """A mark holds only for the stream's last event, hash included: a table copied from
    another database, or damaged, costs folds, never a deadline."""
    import sqlite3

    database = str(tmp_path / "paiju.db")
    clock = Clock(datetime.now(timezone.utc))  # the scheduler plans on the real clock
    app = node(database, clock, tmp_path / "a")
    table = Table(admin_client(app), tid="t0")
    table.deal()
    ok(admin_client(app).post(f"/v1/tournaments/{table.tid}/events", json={
        "type": "MatchClockPaused", "stream": table.stream, "data": {"reason": "a ruling"}}))
    try:
        started(app)
    finally:
        stopped(app)
    conn = sqlite3.connect(database, isolation_level=None)
    try:
        (version, hash_), = conn.execute("SELECT version, hash FROM quiet_matches")
        assert hash_ == next(iter(conn.execute("SELECT hash FROM events WHERE stream = ? AND "
                                               "version = ?", (table.stream, version))))[0]
        conn.execute("UPDATE quiet_matches SET hash = 'another history'")
        conn.execute("INSERT INTO quiet_matches VALUES ('match-nowhere:R1-1', 3, 'h')")
    finally:
        conn.close()
    again = node(database, clock, tmp_path / "b")
    try:
        assert started(again) == [table.stream]
    finally:
        stopped(again)


def test_a_match_that_does_not_fold_leaves_the_others_known(tmp_path, monkeypatch, caplog):
    from service import timekeeping

    database = str(tmp_path / "paiju.db")
    clock = Clock(datetime.now(timezone.utc))  # the scheduler plans on the real clock
    app = node(database, clock, tmp_path / "a")
    tables = [Table(admin_client(app), tid=f"t{n}") for n in range(2)]
    for table in tables:
        table.deal()
    real = timekeeping.load_stream

    def failing(log, catalogue, stream, *args, **kwargs):
        if stream == tables[0].stream:
            raise RuntimeError("a fold that fails")
        return real(log, catalogue, stream, *args, **kwargs)

    monkeypatch.setattr(timekeeping, "load_stream", failing)
    try:
        with caplog.at_level("INFO", logger="paiju.timer"):
            started(app)
        pending = app.extensions["paiju"].timekeeper.pending()
        assert {p.stream for p in pending} == {tables[1].stream}
        assert "could not fold a running match" in caplog.text
        assert "(1 could not be)" in caplog.text
    finally:
        stopped(app)
