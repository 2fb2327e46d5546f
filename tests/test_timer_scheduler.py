"""The timer's wiring: APScheduler plans a firing at the earliest pending deadline, and the
leader lease lets one process of a deployment fire. Nothing here waits for a job to run: the
scheduler is started paused and its plan read."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from apscheduler.schedulers.background import BackgroundScheduler
from mj_table import Table

from rules.match_clock import moment
from service.leases import SQLiteLease
from service.scheduler import DEADLINE_JOB, FOLLOW_JOB, TimerService

T0 = datetime(2026, 11, 29, 9, 0, tzinfo=timezone.utc)


def test_the_scheduler_plans_a_firing_at_the_earliest_deadline_and_replans_after_it(timed):
    table = Table(timed.client)
    dealt = table.deal()
    service = TimerService(timed.timekeeper, BackgroundScheduler(timezone=timezone.utc))
    service.start(paused=True)
    try:
        assert service.scheduler.get_job(FOLLOW_JOB) is not None  # follows other workers' appends
        assert service.planned_at() == moment(dealt["recorded_at"]) + timedelta(seconds=30)
        timed.set_now(service.planned_at())
        service.tick()  # what the date job runs
        assert service.scheduler.get_job(DEADLINE_JOB) is None  # nothing more pending
        table.ok("TileDiscarded", seat=0, tile=table.concealed(0)[0])
        service.tick()  # what the follow job runs: the discard opened new deadlines
        assert service.planned_at() == timed.timekeeper.next_due() is not None
    finally:
        service.shutdown()


class HeldElsewhere(SQLiteLease):
    def hold(self, now) -> bool:
        return False


def test_a_process_without_the_lease_looks_again_at_the_next_follow_not_at_once(timed):
    table = Table(timed.client)
    dealt = table.deal()
    timed.timekeeper.lease = HeldElsewhere(timed.path)
    service = TimerService(timed.timekeeper, BackgroundScheduler(timezone=timezone.utc))
    service.start(paused=True)
    try:
        timed.set_now(moment(dealt["recorded_at"]) + timedelta(seconds=31))
        service.tick()  # due, but another process fires it
        assert timed.timekeeper.leading is False
        assert service.planned_at() == timed.now() + timedelta(seconds=service.follow_seconds)
    finally:
        service.shutdown()


def test_one_process_holds_the_lease_until_it_lapses_or_is_given_up(tmp_path):
    path = tmp_path / "lease.db"
    first, second = SQLiteLease(path, "first"), SQLiteLease(path, "second")
    assert first.hold(T0) and not second.hold(T0 + timedelta(seconds=1))
    assert first.hold(T0 + timedelta(seconds=9))  # renewed: good for 10 s more
    assert not second.hold(T0 + timedelta(seconds=15))
    assert second.hold(T0 + timedelta(seconds=20))  # the first stopped renewing
    assert not first.hold(T0 + timedelta(seconds=21))
    second.release()
    assert first.hold(T0 + timedelta(seconds=22))


def test_the_holder_writes_the_lease_only_once_half_of_it_is_spent(tmp_path):
    """The timer asks for the lease at every tick and every nudge; a write each time would be
    a durable commit per request."""
    import sqlite3

    path = tmp_path / "lease.db"
    lease = SQLiteLease(path, "first")

    def expiry():
        with sqlite3.connect(path) as conn:
            return conn.execute("SELECT expires_at FROM timer_lease").fetchone()[0]

    assert lease.hold(T0)
    written = expiry()
    assert lease.hold(T0 + timedelta(seconds=4)) and expiry() == written
    assert lease.hold(T0 + timedelta(seconds=6)) and expiry() > written  # renewed
    assert not SQLiteLease(path, "second").hold(T0 + timedelta(seconds=15))


def test_the_earliest_deadline_kept_between_nudges_is_always_the_earliest_of_all(timed):
    """The timekeeper keeps the earliest deadline of all and compares it, at the next nudge,
    only with the matches whose deadlines changed. Three tables dealt 2 s apart (30 s to the
    dealer's first discard, MJO-8.1): the first dealt is the earliest; the last one's discard
    (15 s to the next, sooner) makes it the earliest; each firing changes the earliest's own
    match. Each time, it is the first of every pending deadline sorted."""
    def earliest_is_first() -> list:
        timed.timekeeper.catch_up()
        pending = timed.timekeeper.pending()
        assert timed.timekeeper.earliest() == (pending[0] if pending else None)
        return pending

    tables = []
    for n in range(3):
        tables.append(Table(timed.client, tid=f"kept-{n}"))
        tables[-1].deal()
        earliest_is_first()
        timed.advance(seconds=2)
    assert timed.timekeeper.earliest().stream == tables[0].stream
    tables[2].ok("TileDiscarded", seat=0, tile=tables[2].concealed(0)[0])
    earliest_is_first()
    assert timed.timekeeper.earliest().stream == tables[2].stream
    while earliest_is_first():
        timed.run_to_next()
    assert timed.timekeeper.earliest() is None


def test_a_move_the_node_has_folded_costs_the_timer_no_read_of_its_stream(timed, monkeypatch):
    """The timer folds the matches a move touched as of the move's position: the node's live
    state of that position is the match, with no read of the log — and its deadline is the
    new one (seat 1 to discard, MJO-8.1)."""
    table = Table(timed.client, tid="unread")
    table.deal()
    timed.timekeeper.catch_up()
    reads = []
    store = timed.timekeeper.store
    real = store.read_stream
    monkeypatch.setattr(store, "read_stream",
                        lambda stream, *a, **k: reads.append(stream) or real(stream, *a, **k))
    table.ok("TileDiscarded", seat=0, tile=table.concealed(0)[0])
    reads.clear()  # the move's own reads (its validation)
    assert timed.timekeeper.catch_up() == {table.stream}
    assert reads == []
    after = [p.deadline.key for p in timed.timekeeper.pending() if p.stream == table.stream]
    assert after == ["h1/c1/s1/discard", "h1/c1/claim"]  # seat 1 to discard; the claim window


def test_a_nudge_follows_the_commits_it_heard_without_reading_the_log(timed, monkeypatch):
    """A nudge (a POST of this process) follows the process's commits as they were heard,
    records and all: no read of the log's end or of its new events, and the deadline is the
    new one (seat 1 to discard, MJO-8.1). A commit it did not hear (another process's, here
    a word lost) leaves a gap: the next nudge reads the log, and misses nothing."""
    table = Table(timed.client, tid="heard")
    timed.timekeeper.follow_commits()
    table.deal()
    timed.timekeeper.catch_up()
    store = timed.timekeeper.store
    reads = []
    for name in ("last_position", "read_all"):
        real = getattr(store, name)
        monkeypatch.setattr(store, name, lambda *a, _real=real, _name=name, **k:
                            reads.append(_name) or _real(*a, **k))
    table.ok("TileDiscarded", seat=0, tile=table.concealed(0)[0])
    reads.clear()  # the move's own reads (its validation)
    assert timed.timekeeper.catch_up(heard=True) == {table.stream}
    assert reads == []
    after = [p.deadline.key for p in timed.timekeeper.pending() if p.stream == table.stream]
    assert after == ["h1/c1/s1/discard", "h1/c1/claim"]

    timed.timekeeper.stop_following_commits()  # the next commits go unheard: a gap
    unheard = Table(timed.client, tid="unheard")
    unheard.deal()
    timed.timekeeper.follow_commits()
    heard = Table(timed.client, tid="heard-after-the-gap")
    heard.deal()
    reads.clear()
    assert timed.timekeeper.catch_up(heard=True) == {unheard.stream, heard.stream}
    assert "read_all" in reads
    assert {p.stream for p in timed.timekeeper.pending()} >= {unheard.stream, heard.stream}
    assert timed.timekeeper.catch_up(heard=True) == set()  # nothing more heard
    heard.ok("TileDiscarded", seat=0, tile=heard.concealed(0)[0])
    assert timed.timekeeper.catch_up() == {heard.stream}  # the follow job's: from the log
    assert len(timed.timekeeper._heard) == 0  # what it read is not kept as heard as well
