"""The timer: how long a start-up takes to rebuild every deadline from the log, and how late
after its deadline the timer's event is recorded on a real clock.

1. **Start-up rebuild**: ``--tables`` MJO tables are dealt (each with the dealer's first-discard
   limit pending) in one SQLite database; a new Timekeeper then folds every match stream and
   collects the deadlines. Timed: ``Timekeeper.start()``.
2. **Firing lag**: a timer (APScheduler, as ``paiju serve`` runs it) on a fresh database; at
   ``--windows`` MJO tables the dealer discards with a 1-second claim window (the next seat
   passes at once, so the window is not held for his chow), and each
   ``ClaimWindowClosed`` the timer appends is compared with its deadline: recorded_at −
   meta.deadline. Real time: this part waits about two seconds.

Reproduce: ``python bench/timer.py [--tables 500] [--windows 20] [--json]`` from the
repository root.
"""
from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))
sys.path.insert(0, str(REPO_ROOT / "tests"))

from clients import admin_client  # noqa: E402
from mj_table import Table  # noqa: E402

from events import default_catalogue  # noqa: E402
from events.sqlite_store import SQLiteEventStore  # noqa: E402
from rules.match_clock import moment  # noqa: E402
from service import create_app  # noqa: E402
from service.timekeeping import Timekeeper  # noqa: E402


def dealt_tables(database: Path, count: int, settings: dict | None = None,
                 discard: bool = False) -> None:
    app = create_app({"DATABASE": str(database)})
    client = admin_client(app)
    for n in range(count):
        table = Table(client, settings, tid=f"bench-{n}")
        table.deal()
        if discard:
            table.ok("TileDiscarded", seat=0, tile=table.concealed(0)[0])
    app.extensions["paiju"].store.close()


def start_up(folder: Path, tables: int) -> dict:
    database = folder / "startup.db"
    dealt_tables(database, tables)
    store = SQLiteEventStore(database)
    try:
        keeper = Timekeeper(store, default_catalogue(), lambda: None)
        began = time.perf_counter()
        keeper.start()
        seconds = time.perf_counter() - began
        return {"tables": tables, "events": store.last_position(),
                "pending": len(keeper.pending()), "seconds": round(seconds, 3),
                "matches_per_second": round(tables / seconds)}
    finally:
        store.close()


def firing_lag(folder: Path, windows: int) -> dict:
    database = folder / "lag.db"
    app = create_app({"DATABASE": str(database), "TIMER": True})
    services = app.extensions["paiju"]
    services.timer.start()
    try:
        client = admin_client(app)
        for n in range(windows):
            table = Table(client, {"claimWindowSeconds": 1}, tid=f"lag-{n}")
            table.deal()
            table.ok("TileDiscarded", seat=0, tile=table.concealed(0)[0])
            table.ok("ClaimPassed", seat=1)  # the next seat will not chow: the window is 1 s
        time.sleep(2.5)
        lags = [(moment(r.recorded_at) - moment(json.loads(r.meta)["deadline"])).total_seconds()
                * 1000 for r in services.store.read_type("ClaimWindowClosed")]
    finally:
        services.timer.shutdown()
        services.store.close()
    return {"windows": windows, "fired": len(lags),
            "lag_ms_median": round(statistics.median(lags), 1),
            "lag_ms_max": round(max(lags), 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--windows", type=int, default=20)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="paiju-bench-timer-") as folder:
        figures = {"machine": f"{platform.machine()}, Python {platform.python_version()}",
                   "start_up": start_up(Path(folder), args.tables),
                   "firing": firing_lag(Path(folder), args.windows)}
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    s, f = figures["start_up"], figures["firing"]
    print(f"start-up: {s['tables']} open tables ({s['events']} events): {s['pending']} "
          f"deadlines rebuilt in {s['seconds']} s ({s['matches_per_second']} matches/s)")
    print(f"firing: {f['fired']} of {f['windows']} claim windows closed by the timer; "
          f"recorded after the deadline by {f['lag_ms_median']} ms (median), "
          f"{f['lag_ms_max']} ms at most")


if __name__ == "__main__":
    main()
