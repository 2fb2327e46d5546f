"""One timer process for tests/test_timer_processes.py: its own store connection, lease and
fake clock on a shared database, ticking through simulated seconds in step with the other
process (a barrier per step), as two workers of one deployment would."""
from __future__ import annotations

from datetime import datetime, timedelta

from tables import Clock

from events import default_catalogue
from events.sqlite_store import SQLiteEventStore
from service.leases import SoleLease, SQLiteLease
from service.timekeeping import Timekeeper


def drive(database: str, start: str, seconds: float, step: float, barrier, leased: bool) -> int:
    """Tick every ``step`` simulated seconds from ``start`` for ``seconds``; returns how many
    events this process appended."""
    clock = Clock(datetime.fromisoformat(start))
    store = SQLiteEventStore(database, clock=clock)
    lease = SQLiteLease(database) if leased else SoleLease()
    timekeeper = Timekeeper(store, default_catalogue(), lambda: clock.now + clock.step,
                            lease=lease)
    base, appended = clock.now, 0
    try:
        barrier.wait(timeout=60)
        timekeeper.start()
        for n in range(int(seconds / step) + 1):
            clock.now = base + timedelta(seconds=n * step)
            appended += len(timekeeper.tick())
            barrier.wait(timeout=60)
    finally:
        store.close()
    return appended
