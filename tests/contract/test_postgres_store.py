"""What the PostgreSQL store adds to the contract (tests/contract/test_store_contract.py runs
on it too): append-only in the database itself, a schema made and checked by ``paiju db
upgrade``, tournaments that do not wait for each other's decisions, positions in commit order,
and a lost connection that leaves nothing half-written."""
from __future__ import annotations

import threading
import time

import postgres
import psycopg
import pytest

from events.envelope import NewEvent
from events.postgres_store import (
    SCHEMA_VERSION,
    PostgresEventStore,
    SchemaNotCurrent,
    upgrade_schema,
)
from events.store import StoreUnavailable


def ev(stream="match-m1", n=0, **kw):
    return NewEvent(type="CardsPlayed", stream=stream, data={"seat": n % 4, "cards": ["QH"]}, **kw)


@pytest.fixture
def pg(postgres_url):
    store = PostgresEventStore(postgres_url)
    yield store
    store.close()


def raw(url) -> psycopg.Connection:
    return psycopg.connect(url, autocommit=True)


@pytest.mark.parametrize("sql", ["UPDATE events SET data = '{}' WHERE position = 1",
                                 "DELETE FROM events WHERE position = 1",
                                 "TRUNCATE events"])
def test_the_database_refuses_to_change_or_remove_an_event(pg, postgres_url, sql):
    pg.append("t1", [ev(), ev()])
    with raw(postgres_url) as conn, pytest.raises(psycopg.errors.RaiseException,
                                                  match="append-only"):
        conn.execute(sql)
    assert [r.position for r in pg.read_tournament("t1")] == [1, 2]
    assert pg.verify("t1").ok


def test_a_database_without_the_schema_is_refused_until_db_upgrade(postgres_template):
    url = postgres.create(None)
    try:
        with pytest.raises(SchemaNotCurrent, match="paiju db upgrade"):
            PostgresEventStore(url)
        assert upgrade_schema(url) == (0, SCHEMA_VERSION)
        assert upgrade_schema(url) == (SCHEMA_VERSION, SCHEMA_VERSION)  # a second run: nothing
        PostgresEventStore(url).close()
    finally:
        postgres.drop(url)


def test_an_older_or_newer_schema_is_refused(postgres_url):
    for version, words in ((0, "paiju db upgrade"), (99, "newer paiju")):
        with raw(postgres_url) as conn:
            conn.execute("UPDATE paiju_schema SET version = %s", (version,))
        with pytest.raises(SchemaNotCurrent, match=words):
            PostgresEventStore(postgres_url)


def test_an_unreachable_server_is_a_clear_error():
    with pytest.raises(StoreUnavailable, match="cannot reach the PostgreSQL database"):
        PostgresEventStore("postgresql://postgres@127.0.0.1:1/nowhere")


def test_a_tournament_never_waits_for_another_tournaments_decision(pg):
    """A decision of tournament A is held open (as a slow fold would be); B's appends go
    through meanwhile, and a second append of A waits for the first."""
    deciding, release = threading.Event(), threading.Event()

    def slow_decision(tail, recorded_at):
        deciding.set()
        assert release.wait(10)

    first_of_a = threading.Thread(target=pg.append, args=("A", [ev("match-a")], slow_decision))
    first_of_a.start()
    assert deciding.wait(10)
    try:
        for n in range(3):
            pg.append("B", [ev("match-b", n)])
        second_of_a = threading.Thread(target=pg.append, args=("A", [ev("match-a", 1)]))
        second_of_a.start()
        second_of_a.join(0.5)
        assert second_of_a.is_alive()  # serialised behind A's open decision
        assert [r.version for r in pg.read_stream("match-b")] == [1, 2, 3]
    finally:
        release.set()
    first_of_a.join(10)
    second_of_a.join(10)
    assert [r.version for r in pg.read_stream("match-a")] == [1, 2]
    # B took positions 1-3 while A decided; A sealed after them, in commit order
    assert [r.position for r in pg.read_stream("match-a")] == [4, 5]
    assert pg.verify("A").ok and pg.verify("B").ok


def test_concurrent_appends_of_many_tournaments_get_gapless_positions_in_commit_order(pg):
    """Whoever follows the log after a position (the timer, a subscriber) sees every event:
    no position is ever committed after a higher one."""
    seen_by_follower: list[int] = []
    stop = threading.Event()

    def follow():
        after = 0
        while not stop.is_set() or after < pg.last_position():
            for record in pg.read_all(after=after):
                seen_by_follower.append(record.position)
                after = record.position

    def write(t):
        for n in range(15):
            pg.append(f"t{t}", [ev(f"match-{t}", n), ev(f"match-{t}x", n)])

    follower = threading.Thread(target=follow)
    follower.start()
    writers = [threading.Thread(target=write, args=(t,)) for t in range(8)]
    for w in writers:
        w.start()
    for w in writers:
        w.join()
    stop.set()
    follower.join(30)
    assert [r.position for r in pg.read_all()] == list(range(1, 241))
    assert seen_by_follower == list(range(1, 241))  # nothing skipped, nothing twice
    assert all(report.ok for report in pg.verify_all())


def test_a_connection_lost_mid_append_writes_nothing_and_the_store_reconnects(pg, postgres_url):
    pg.append("t1", [ev()])

    def killed_mid_decision(tail, recorded_at):
        pid = tail.conn.info.backend_pid
        with raw(postgres_url) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (pid,))

    with pytest.raises(StoreUnavailable, match="nothing was appended"):
        pg.append("t1", [ev(n=1), ev(n=2)], killed_mid_decision)
    assert pg.stream_head("match-m1") == ("t1", 1)
    pg.append("t1", [ev(n=3)])  # a fresh connection
    assert [r.version for r in pg.read_stream("match-m1")] == [1, 2]
    assert pg.verify("t1").ok


def test_reads_survive_the_servers_connections_being_cut(pg, postgres_url):
    pg.append("t1", [ev(), ev()])
    with raw(postgres_url) as admin:
        admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                      "WHERE datname = current_database() AND pid <> pg_backend_pid()")
    assert [r.position for r in pg.read_tournament("t1")] == [1, 2]  # retried on a new one


def test_the_same_new_event_id_posted_to_two_tournaments_at_once_is_stored_once(pg):
    """Two tournaments' appends do not serialise, so the id's uniqueness is the database's:
    the loser is judged again and told the id is taken."""
    from events.store import IdempotencyConflict

    barrier, outcomes = threading.Barrier(2), []
    event_id = "5b0d3f44-8a50-4f0b-9d63-0e7b8f3c7a11"

    def write(t):
        barrier.wait()
        try:
            pg.append(t, [ev(f"match-{t}", id=event_id)])
            outcomes.append("stored")
        except IdempotencyConflict:
            outcomes.append("conflict")

    threads = [threading.Thread(target=write, args=(t,)) for t in ("ta", "tb")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["conflict", "stored"]
    assert pg.last_position() == 1


def test_appends_of_one_tournament_share_commits_and_a_refused_one_rolls_back_alone(pg):
    """Group commit (events/postgres_writer.py): sixteen writers on one tournament; every
    third append's decision refuses it. Every other append is stored, in a chain that verifies,
    and appends waiting together were committed together (one recorded_at for a group)."""
    from events.store import StoreError

    class Refused(StoreError):
        pass

    def refuse(tail, recorded_at):
        raise Refused("no")

    barrier, stored, refused = threading.Barrier(16), [], []

    def write(t):
        barrier.wait()
        for n in range(12):
            try:
                decide = refuse if n % 3 == 2 else None
                [record] = pg.append("t1", [ev(f"match-{t}", n)], decide).records
                stored.append(record.id)
            except Refused:
                refused.append((t, n))

    threads = [threading.Thread(target=write, args=(t,)) for t in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    log = list(pg.read_tournament("t1"))
    assert sorted(r.id for r in log) == sorted(stored) and len(stored) == 16 * 8
    assert len(refused) == 16 * 4
    assert [r.position for r in log] == list(range(1, 16 * 8 + 1))
    assert pg.verify("t1").ok
    assert len({r.recorded_at for r in log}) < len(log)  # some appends shared a commit


def test_a_group_decides_before_it_seals_so_other_tournaments_never_wait(pg):
    """The second group of tournament A: its first append plain, its second still deciding. No
    seal is held while it decides: tournament B appends meanwhile."""
    gates = {n: threading.Event() for n in ("a1", "a3")}
    entered = {n: threading.Event() for n in ("a1", "a3")}

    def held(name):
        def decide(tail, recorded_at):
            entered[name].set()
            assert gates[name].wait(10)
        return decide

    a1 = threading.Thread(target=pg.append, args=("A", [ev("match-a", 1)], held("a1")))
    a1.start()
    assert entered["a1"].wait(10)  # A's first group: a1 alone, deciding
    a2 = threading.Thread(target=pg.append, args=("A", [ev("match-a", 2)]))
    a3 = threading.Thread(target=pg.append, args=("A", [ev("match-a", 3)], held("a3")))
    a2.start()
    time.sleep(0.2)  # a2 queued before a3: they make A's next group, in that order
    a3.start()
    time.sleep(0.2)
    gates["a1"].set()
    assert entered["a3"].wait(10)  # the next group: a2 judged, a3 deciding
    try:
        started = time.monotonic()
        pg.append("B", [ev("match-b")])
        assert time.monotonic() - started < 2
    finally:
        gates["a3"].set()
    for t in (a1, a2, a3):
        t.join(10)
    assert [r.data_dict["seat"] for r in pg.read_stream("match-a")] == [1, 2, 3]
    assert [r.position for r in pg.read_all()] == [1, 2, 3, 4]
    assert pg.verify("A").ok and pg.verify("B").ok


def test_a_group_numbered_again_when_another_tournament_committed_first(pg):
    """A group's decisions see a guess of the log's end; B commits in between, so A's records
    are numbered after B's and their hashes chained again."""
    deciding, go_on = threading.Event(), threading.Event()

    def slow(tail, recorded_at):
        deciding.set()
        assert go_on.wait(10)

    a = threading.Thread(target=pg.append, args=("A", [ev("match-a"), ev("match-a", 1)], slow))
    a.start()
    assert deciding.wait(10)
    pg.append("B", [ev("match-b")])  # position 1, while A decides with a guess of 0
    go_on.set()
    a.join(10)
    assert [(r.tournament_id, r.position) for r in pg.read_all()] == [("B", 1), ("A", 2), ("A", 3)]
    assert pg.verify("A").ok and pg.verify("B").ok


def test_a_restore_never_writes_a_tournament_an_append_is_writing(pg, postgres_url):
    """An append of X holds X's lock while it decides; a restore of X then refuses at once
    (waiting, holding the seal, could deadlock) instead of forking X's chain."""
    from events.store import RestoreConflict

    source = PostgresEventStore(postgres_url)
    deciding, go_on = threading.Event(), threading.Event()

    def slow(tail, recorded_at):
        deciding.set()
        assert go_on.wait(10)

    records = [r._replace(position=100 + n) for n, r in
               enumerate(pg.append("X", [ev("match-x"), ev("match-x", 1)]).records)]
    writer = threading.Thread(target=pg.append, args=("Y", [ev("match-y")], slow))
    writer.start()
    assert deciding.wait(10)
    try:
        with pytest.raises(RestoreConflict, match="being written"):
            source.restore([r._replace(tournament_id="Y") for r in records])
    finally:
        go_on.set()
        writer.join(10)
        source.close()
    assert pg.verify("Y").ok


def test_an_interrupted_group_leaves_no_one_waiting_and_claims_nothing():
    """CommitGroups (events/group_commit.py), as a PostgreSQL node forms them: a commit cut by
    an exception gives every member of the group an error (none a result), and the
    tournament's next appends still run."""
    from events.group_commit import CommitGroups, Job

    calls = []

    def commit(jobs):
        calls.append(len(jobs))
        if len(calls) == 1:
            for job in jobs:
                job.result = "provisional"
            raise KeyboardInterrupt
        for job in jobs:
            job.result = "stored"

    groups = CommitGroups(commit)
    with pytest.raises(KeyboardInterrupt):
        groups.submit(Job("t", [], None))
    assert groups.submit(Job("t", [], None)) == "stored"
    assert calls == [1, 1]


def test_a_retry_in_the_same_group_as_its_batch_gets_the_records_as_stored(pg):
    """A client's retry queued behind the batch it repeats (same ids, same group), while B
    commits first: it is told the batch's records as inserted, numbered after B's."""
    gates = {n: threading.Event() for n in ("leader", "batch")}
    entered = {n: threading.Event() for n in ("leader", "batch")}

    def held(name):
        def decide(tail, recorded_at):
            entered[name].set()
            assert gates[name].wait(10)
        return decide

    event_id = "7d1c1f4e-3b0e-4b8a-9a55-3f5b8e0c2d10"
    results = {}

    def append(name, events, decide=None):
        results[name] = pg.append("A", events, decide)

    threads = [threading.Thread(target=append, args=("leader", [ev("match-a", 9)],
                                                     held("leader")))]
    threads[0].start()
    assert entered["leader"].wait(10)  # A's first group decides; the next two queue behind
    threads.append(threading.Thread(target=append, args=(
        "batch", [ev("match-a", 1, id=event_id)], held("batch"))))
    threads[-1].start()
    time.sleep(0.2)
    threads.append(threading.Thread(target=append, args=(
        "retry", [ev("match-a", 1, id=event_id)])))
    threads[-1].start()
    time.sleep(0.2)
    gates["leader"].set()
    assert entered["batch"].wait(10)  # the second group: the batch deciding, its retry next
    pg.append("B", [ev("match-b")])  # commits first: the group is numbered after it
    gates["batch"].set()
    for t in threads:
        t.join(10)
    assert results["batch"].created and not results["retry"].created
    assert results["retry"].records == results["batch"].records == [pg.get(event_id)]
    assert pg.get(event_id).position == 3


def test_a_group_answers_its_decisions_reads_as_the_log_does(pg):
    """With the tournament's lock, a group looks up each of its streams' last two records
    (events/postgres_writer.py LOOK_UP); a decision's read from them on is answered from those,
    any other from the log. Every read a decision makes, from every version, with and without
    a limit, of a stream of four events, one of one event, and one of none, is the store's."""
    pg.append("A", [ev("match-a", n) for n in range(4)] + [ev("match-one")])
    reads = [(stream, version, limit) for stream in ("match-a", "match-one", "match-new")
             for version in range(1, 7) for limit in (None, 1, 2)]
    expected = {read: [r.id for r in pg.read_stream(read[0], from_version=read[1],
                                                    limit=read[2])] for read in reads}
    seen = {}

    def decide(tail, recorded_at):
        for read in reads:
            seen[read] = [r.id for r in tail.read_stream(read[0], from_version=read[1],
                                                         limit=read[2])]
    pg.append("A", [ev("match-a", 9)], decide)
    assert seen == expected
    assert expected[("match-a", 3, None)] != [] and expected[("match-one", 1, None)] != []


def test_closing_with_appends_in_flight_commits_them_or_refuses_them(postgres_url):
    """As a node stops: every caller returns, its batch committed before the pool closed or
    refused with StoreClosed — never a connection pulled from under its commit."""
    from events.store import StoreClosed

    def writer(store, n, outcomes):
        for i in range(30):
            try:
                store.append("t1", [ev(f"match-{n}", i)])
            except StoreClosed:
                outcomes.append("closed")
                return
            except Exception as error:  # noqa: BLE001 - what the test is about
                outcomes.append(repr(error))
                return
        outcomes.append("done")

    store, outcomes = PostgresEventStore(postgres_url), []
    threads = [threading.Thread(target=writer, args=(store, n, outcomes)) for n in range(8)]
    for t in threads:
        t.start()
    time.sleep(0.05)
    store.close()
    for t in threads:
        t.join(timeout=20)
    assert not any(t.is_alive() for t in threads)
    assert len(outcomes) == 8 and set(outcomes) <= {"closed", "done"}, outcomes
    reopened = PostgresEventStore(postgres_url)
    try:
        assert reopened.verify("t1").ok
    finally:
        reopened.close()
