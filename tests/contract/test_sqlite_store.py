"""What only the SQLite store has: a file that outlives the process, durability settings,
append-only triggers, tamper evidence against direct edits, and group commit."""
import sqlite3
import threading

import pytest

from events.envelope import NewEvent
from events.sqlite_store import COLUMNS, INSERT, SQLiteEventStore
from events.store import WrongExpectedVersion


def fill(store, tid="t1", n=5):
    return store.append(tid, [NewEvent("CardsPlayed", f"match-{tid}-{i % 2}", {"seat": i % 4, "cards": ["TH"]},
                                       meta={"actor": "scorer-1"})
                              for i in range(n)]).records


def test_wal_and_synchronous_full_by_default(sqlite_store):
    assert sqlite_store._query("PRAGMA journal_mode") == [("wal",)]
    assert sqlite_store._query("PRAGMA synchronous") == [(2,)]  # FULL


def queries_of_every_read(store) -> dict[str, tuple]:
    """Every SQL statement the store runs for a read (its own and its write transaction's
    look-ups), with the parameters it ran with, captured by running each read."""
    fill(store, n=6)
    seen: dict[str, tuple] = {}

    def recording(run):
        def query(sql, params=()):
            seen.setdefault(sql, tuple(params))
            return run(sql, params)
        return query

    tail = store._writer.tail
    store._query, tail.query = recording(store._query), recording(tail.query)
    first = next(store.read_tournament("t1"))
    store.get(first.id), store.stream_head(first.stream), store.tournament_head("t1")
    store.last_position(), store.tournament_ids()
    for kwargs in ({}, {"until_position": 4}, {"type": "CardsPlayed"}, {"stream": first.stream},
                   {"stream": first.stream, "type": "CardsPlayed", "until_position": 4}):
        list(store.read_tournament("t1", **kwargs))
    list(store.read_stream(first.stream)), list(store.read_stream(first.stream, until_position=4))
    list(store.read_type("CardsPlayed")), list(store.read_all())
    tail.records_by_id([first.id]), tail.stream_head(first.stream), tail.tournament_head("t1")
    tail.last_position()
    return seen


def test_every_read_path_has_an_index_and_every_index_a_read_path(sqlite_store):
    """EXPLAIN QUERY PLAN of each query the store runs: each that selects by a column searches
    an index on it, a walk of positions being left to the reads of the whole log; none sorts,
    but the tournament list of verification; and each of the store's indexes serves at least
    one of them, so none is dead weight."""
    used, conn = set(), sqlite3.connect(sqlite_store.path)
    for sql, params in queries_of_every_read(sqlite_store).items():
        plan = " ".join(row[-1] for row in conn.execute("EXPLAIN QUERY PLAN " + sql, params))
        assert plan.startswith("SEARCH") or "COVERING INDEX" in plan, (sql, plan)
        assert "USING INDEX idx_events_" in plan or " = ?" not in sql, (sql, plan)  # no walk
        assert "TEMP B-TREE" not in plan or "GROUP BY tournament_id" in sql, (sql, plan)
        used.update(word for word in plan.split() if word.startswith("idx_events_"))
    indexes = {row[0] for row in conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'events'")}
    conn.close()
    assert used == indexes and len(indexes) == 5


def test_the_log_survives_a_restart(tmp_path):
    path = tmp_path / "paiju.db"
    first = SQLiteEventStore(path)
    written = fill(first)
    first.close()
    again = SQLiteEventStore(path)
    assert list(again.read_tournament("t1")) == written
    assert again.append("t1", [NewEvent("X", "match-0", {})]).records[0].position == 6
    assert again.verify("t1").ok
    again.close()


def test_the_store_refuses_to_update_or_delete_an_event(sqlite_store):
    fill(sqlite_store)
    conn = sqlite3.connect(sqlite_store.path)
    for sql in ("UPDATE events SET data = '{}' WHERE position = 2", "DELETE FROM events WHERE position = 2"):
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            conn.execute(sql)
    conn.close()


def tamper(path, sql, *params):
    """What an attacker with the file can do: drop the guards and edit a row."""
    conn = sqlite3.connect(path)
    conn.execute("DROP TRIGGER events_no_update")
    conn.execute("DROP TRIGGER events_no_delete")
    conn.execute(sql, params)
    conn.commit()
    conn.close()


def first_bad_position(store):
    return min((r.first_bad_position for r in store.verify_all() if not r.ok), default=None)


@pytest.mark.parametrize("column", [c for c in COLUMNS if c != "position"])
def test_changing_any_stored_field_makes_verify_report_that_position(sqlite_store, column):
    fill(sqlite_store, n=6)
    fill(sqlite_store, tid="t2", n=2)
    assert sqlite_store.verify("t1").ok
    conn = sqlite3.connect(sqlite_store.path)
    value = conn.execute(f"SELECT {column} FROM events WHERE position = 4").fetchone()[0]
    conn.close()
    changed = value + 100 if isinstance(value, int) else _flip_one_character(value)
    tamper(sqlite_store.path, f"UPDATE events SET {column} = ? WHERE position = 4", changed)
    assert first_bad_position(sqlite_store) == 4
    if column != "tournament_id":
        report = sqlite_store.verify("t1")
        assert (report.ok, report.first_bad_position, report.checked) == (False, 4, 3)
        assert report.last_position == 3  # the last good event
        assert sqlite_store.verify("t2").ok  # another tournament's chain is untouched


def _flip_one_character(text: str) -> str:
    """Change one byte somewhere in the middle, keeping the text valid where it is JSON."""
    i = len(text) // 2
    replacement = "1" if text[i] != "1" else "2"
    if text[i] in '{}[]":,':
        i = next(j for j in range(i, len(text)) if text[j].isalnum())
        replacement = "X" if text[i] != "X" else "Y"
    return text[:i] + replacement + text[i + 1:]


def test_white_space_added_inside_data_is_detected(sqlite_store):
    fill(sqlite_store)
    tamper(sqlite_store.path, "UPDATE events SET data = replace(data, ':', ': ') WHERE position = 3")
    assert first_bad_position(sqlite_store) == 3


def test_deleting_an_event_is_reported_at_the_next_one(sqlite_store):
    fill(sqlite_store)
    tamper(sqlite_store.path, "DELETE FROM events WHERE position = 3")
    report = sqlite_store.verify("t1")
    assert (report.ok, report.first_bad_position) == (False, 4)


def test_moving_an_event_to_another_position_breaks_the_chain(sqlite_store):
    fill(sqlite_store)
    tamper(sqlite_store.path, "UPDATE events SET position = 99 WHERE position = 2")
    report = sqlite_store.verify("t1")
    assert not report.ok and report.first_bad_position == 3


def test_an_untouched_log_verifies_clean(sqlite_store):
    fill(sqlite_store, n=50)
    report = sqlite_store.verify("t1")
    assert report.ok and report.checked == 50 and report.first_bad_position is None


def test_group_commit_keeps_every_concurrent_append_and_isolates_a_refused_one(sqlite_store):
    """32 writers at once: they share commits, yet each append stays atomic, the refused ones
    (wrong expected version) leave no trace, and the chain stays whole. Word of the commits
    (events/commits.py) brings every stored record once, in position order, and nothing else."""
    outcomes, barrier = [], threading.Barrier(32)
    heard = []
    sqlite_store.commits.listen(lambda last, records: heard.append((last, list(records))))

    def writer(n):
        barrier.wait()
        expected = 5 if n % 8 == 0 else None  # every 8th writer pins a version nobody has
        try:
            sqlite_store.append("t1", [NewEvent("X", f"match-{n}", {"n": n}, expected_version=expected),
                                       NewEvent("X", f"match-{n}", {"n": n})])
            outcomes.append("ok")
        except WrongExpectedVersion:
            outcomes.append("conflict")

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(32)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert outcomes.count("ok") == 28 and outcomes.count("conflict") == 4
    records = list(sqlite_store.read_tournament("t1"))
    assert [r.position for r in records] == list(range(1, 57))
    assert all(sqlite_store.stream_head(f"match-{n}") is None for n in range(0, 32, 8))
    assert sqlite_store.verify("t1").ok
    assert [r for _, records in heard for r in records] == records
    assert all(last == group[-1].position for last, group in heard)


def test_an_append_is_judged_and_committed_by_its_own_thread_and_a_group_by_its_first(tmp_path):
    """No writer thread (events/group_commit.py): a lone append is judged and committed by the
    thread that asked for it; appends queued behind a commit are judged and committed together
    by the thread of the first of them, and word of the commit is given there too, before any of
    them returns (the live states are folded by it: projections/streams.py, keep_live)."""
    store = SQLiteEventStore(tmp_path / "leaders.db")
    judged_by, heard_by = [], []
    store.commits.listen_own(lambda last, records: heard_by.append(threading.current_thread()))

    def judged(tail, recorded_at):
        judged_by.append(threading.current_thread())

    store.append("t1", [NewEvent("X", "match-1", {})], decide=judged)
    assert judged_by == heard_by == [threading.current_thread()]
    assert not [t for t in threading.enumerate() if t.name == "paiju-writer"]
    holding, release = threading.Event(), threading.Event()

    def held(tail, recorded_at):
        holding.set()
        release.wait(10)

    first = threading.Thread(target=store.append, args=("t1", [NewEvent("X", "match-2", {})]),
                             kwargs={"decide": held})
    first.start()
    assert holding.wait(10)
    queued = [threading.Thread(target=store.append, args=("t2", [NewEvent("X", f"match-{n}", {})]),
                               kwargs={"decide": judged}) for n in (3, 4)]
    for n, thread in enumerate(queued):
        thread.start()
        while store._writer.groups.waiting() <= n:
            threading.Event().wait(0.001)
    release.set()
    for thread in (first, *queued):
        thread.join(10)
    # the held commit's word from its thread; the two queued behind it, one commit by the first
    assert judged_by[1:] == [queued[0], queued[0]] and heard_by[1:] == [first, queued[0]]
    assert [r.stream for r in store.read_all()] == ["match-1", "match-2", "match-3", "match-4"]
    store.close()


def test_a_refused_append_rolls_back_alone_first_in_its_group_or_after_others(tmp_path):
    """Appends queued while a commit is being made share the next one. Of the group [refused,
    ok, refused, ok] the first is rolled back with the whole transaction, the third to its
    savepoint; the two others are stored in one commit, and nothing of the refused ones (each
    wrote a row before it was refused, as an insert failing half-way would)."""
    readings = iter(f"2026-11-29T10:00:{s:02d}.000000Z" for s in range(60))
    store = SQLiteEventStore(tmp_path / "groups.db", clock=lambda: next(readings))
    holding, release = threading.Event(), threading.Event()

    def hold(tail, recorded_at):
        holding.set()
        release.wait(10)

    def refuse(tail, recorded_at):
        stray = 100 + len(outcomes)
        tail.query(INSERT, (stray, f"stray-{stray}", "t1", f"match-stray-{stray}", 1, "X", 1, "{}",
                            "{}", recorded_at, "", ""))
        raise ValueError("refused by the rules")

    outcomes = {}

    def append(name, decide):
        try:
            outcomes[name] = store.append("t1", [NewEvent("X", f"match-{name}", {"n": name})],
                                          decide=decide).records[0]
        except ValueError as error:
            outcomes[name] = error

    threads = [threading.Thread(target=append, args=("held", hold))]
    threads[0].start()
    assert holding.wait(10)
    for queued, (name, decide) in enumerate([("a", refuse), ("b", None), ("c", refuse), ("d", None)]):
        threads.append(threading.Thread(target=append, args=(name, decide)))
        threads[-1].start()
        while store._writer.groups.waiting() <= queued:  # queued in this order behind the held one
            threading.Event().wait(0.001)
    release.set()
    for t in threads:
        t.join(10)
    assert isinstance(outcomes["a"], ValueError) and isinstance(outcomes["c"], ValueError)
    held, b, d = outcomes["held"], outcomes["b"], outcomes["d"]
    assert [r.position for r in (held, b, d)] == [1, 2, 3]
    assert b.recorded_at == d.recorded_at != held.recorded_at  # b and d: one group, one commit
    assert [r.stream for r in store.read_tournament("t1")] == ["match-held", "match-b", "match-d"]
    assert store.stream_head("match-a") is None and store.stream_head("match-c") is None
    assert store.last_position() == 3 and store.get("stray-100") is None
    assert store.verify("t1").ok
    store.close()


def test_an_append_reads_a_stream_head_once_and_the_next_append_of_its_group_afresh(tmp_path):
    """The decision asks for the stream's head and the sealing asks again: one read, as the
    log cannot move between them. The next append of the same group, to the same stream,
    reads it again and follows the first (versions 1 and 2); a lone append after them, 3."""
    store = SQLiteEventStore(tmp_path / "heads.db")
    statements = []
    store._writer.conn.set_trace_callback(statements.append)
    holding, release = threading.Event(), threading.Event()

    def judge(tail, recorded_at):
        tail.stream_head("match-m")  # as the rules' decision does (events/store.py callers)

    def hold(tail, recorded_at):
        holding.set()
        release.wait(10)

    outcomes = {}

    def append(name, decide):
        outcomes[name] = store.append("t1", [NewEvent("X", "match-m" if name != "held" else
                                                      "match-held", {"n": name})],
                                      decide=decide).records[0]

    threads = [threading.Thread(target=append, args=("held", hold))]
    threads[0].start()
    assert holding.wait(10)
    for queued, name in enumerate(("first", "second")):
        threads.append(threading.Thread(target=append, args=(name, judge)))
        threads[-1].start()
        while store._writer.groups.waiting() <= queued:
            threading.Event().wait(0.001)
    statements.clear()
    release.set()
    for t in threads:
        t.join(10)
    assert [outcomes[n].version for n in ("first", "second")] == [1, 2]
    assert outcomes["first"].recorded_at == outcomes["second"].recorded_at  # one group
    heads = [s for s in statements if "WHERE stream = 'match-m'" in s and "version DESC" in s]
    assert len(heads) == 2  # once for each append of the group
    statements.clear()
    store.append("t1", [NewEvent("X", "match-m", {"n": "lone"})], decide=judge)
    assert [s for s in statements if "WHERE stream = 'match-m'" in s] != []
    assert len([s for s in statements if "version DESC" in s]) == 1
    assert store.stream_head("match-m") == ("t1", 3)
    store.close()


def test_a_closed_store_refuses_appends(tmp_path):
    store = SQLiteEventStore(tmp_path / "x.db")
    store.close()
    with pytest.raises(RuntimeError):
        store.append("t1", [NewEvent("X", "match-1", {})])


def test_closing_with_appends_in_flight_leaves_nobody_waiting(tmp_path):
    """Every caller returns: its batch committed before the close, or StoreClosed."""
    from events.store import StoreClosed
    def writer(store, n, outcomes):
        for i in range(50):
            try:
                store.append("t1", [NewEvent("X", f"match-{n}", {"i": i})])
            except StoreClosed:
                outcomes.append("closed")
                return
        outcomes.append("done")

    for round_ in range(5):
        store, outcomes = SQLiteEventStore(tmp_path / f"close-{round_}.db"), []
        threads = [threading.Thread(target=writer, args=(store, n, outcomes)) for n in range(8)]
        for t in threads:
            t.start()
        store.close()
        for t in threads:
            t.join(timeout=10)
        assert not any(t.is_alive() for t in threads)
        assert len(outcomes) == 8


def test_the_store_needs_a_file(tmp_path):
    with pytest.raises(ValueError):
        SQLiteEventStore(":memory:")


def test_a_database_of_a_newer_store_schema_is_refused(tmp_path):
    path = tmp_path / "future.db"
    SQLiteEventStore(path).close()
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 99")
    conn.close()
    with pytest.raises(RuntimeError, match="newer paiju"):
        SQLiteEventStore(path)


def test_reads_from_many_short_lived_threads_reuse_a_few_connections(sqlite_store):
    fill(sqlite_store)
    for _ in range(100):
        t = threading.Thread(target=sqlite_store.last_position)
        t.start()
        t.join()
    assert len(sqlite_store._opened) <= 2
