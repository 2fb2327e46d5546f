"""Two timer processes on one database for a minute of simulated deadlines: each deadline's
event is appended exactly once — with the leader lease (one process fires) and without it (both
fire; the deadline-derived event ids make the second a retry). The result equals one timer's."""
from __future__ import annotations

import json
import multiprocessing
import shutil
import traceback
from collections import Counter
from datetime import timedelta

import pytest
from mj_table import Table
from timed import Timed
from timer_drive import drive

from events.sqlite_store import SQLiteEventStore
from rules.match_clock import timestamp

TABLES = 6


def staggered_tables(path, signer) -> str:
    """Six MJO tables (claim window 3 s), dealt 7 s apart, half with the dealer's discard made:
    first-discard limits, claim windows and discard limits falling due through a minute.
    Returns the time the timers start at."""
    deployment = Timed(path, signer)
    for n in range(TABLES):
        table = Table(deployment.client, {"claimWindowSeconds": 3}, tid=f"mjo-{n}")
        table.deal()
        if n % 2:
            deployment.advance(seconds=2)
            table.ok("TileDiscarded", seat=0, tile=table.concealed(0)[0])
        deployment.advance(seconds=7)
    start = timestamp(deployment.now() - timedelta(seconds=5))
    deployment.stop()
    return start


def timer_facts(path) -> Counter:
    store = SQLiteEventStore(path)
    try:
        return Counter((r.stream, r.type, r.data, json.loads(r.meta)["deadline"])
                       for tid in store.tournament_ids() for r in store.read_tournament(tid)
                       if json.loads(r.meta).get("actor") == "timer")
    finally:
        store.close()


def run_processes(path, start: str, count: int, leased: bool) -> list[int]:
    """``count`` timer processes on the database, ticking together; what each appended."""
    context = multiprocessing.get_context("spawn")
    barrier, results = context.Barrier(count), context.Queue()
    processes = [context.Process(target=_report, args=(results, n, str(path), start, barrier,
                                                       leased)) for n in range(count)]
    for process in processes:
        process.start()
    appended = dict(results.get(timeout=300) for _ in processes)
    failed = [text for text in appended.values() if isinstance(text, str)]
    assert not failed, failed[0]
    for process in processes:
        process.join(timeout=60)
        assert process.exitcode == 0
    return [appended[n] for n in range(count)]


def _report(results, n: int, database: str, start: str, barrier, leased: bool) -> None:
    try:
        results.put((n, drive(database, start, 60.0, 0.5, barrier, leased)))
    except BaseException:
        barrier.abort()  # the other process stops waiting for this one
        results.put((n, traceback.format_exc()))
        raise


@pytest.mark.parametrize("leased", [True, False], ids=["leader-lease", "no-lease"])
def test_two_timer_processes_append_each_deadline_exactly_once(tmp_path, signer, leased):
    shared, alone = tmp_path / "shared.db", tmp_path / "alone.db"
    start = staggered_tables(shared, signer)
    shutil.copy(shared, alone)

    appended = run_processes(shared, start, 2, leased)
    reference = run_processes(alone, start, 1, leased)

    facts = timer_facts(shared)
    # the dealer's first discard at the three tables without one; the claim window and the
    # next seat's discard at the three with one
    kinds = Counter((fact[1], json.loads(fact[2]).get("limit")) for fact in facts)
    assert kinds == {("TimeLimitExceeded", "firstDiscard"): 3, ("ClaimWindowClosed", None): 3,
                     ("TimeLimitExceeded", "discard"): 3}
    assert set(facts.values()) == {1}  # each deadline's event once
    assert facts == timer_facts(alone)  # the same as one timer alone appends
    assert sum(appended) == sum(reference) == len(facts)
    if leased:
        assert 0 in appended  # the lease holder alone fired
