"""Match rebuild throughput against its floor, per game.

For each workload database (SQLite files of the ``events`` table, one per game) every match
stream (a stream named ``match-…``) is:

- **floor**: read from SQLite and each event's data parsed with ``json.loads`` — the least any
  rebuild must do;
- **rebuild**: read the same way and folded from its first event with no cache
  (``projections.streams.fold``, the rules' step through ``rules.rulings.ruled_step``), as
  bench/sj2.py's projection rebuild folds its matches.

Each figure is the best of ``--repeat`` runs, the two taking turns (the least disturbed by other
work on the machine).
The ratio is rebuild events/s ÷ floor events/s.

The workloads are simulated logs of each game (bench/workloads.py), made on the first run in
``var/bench-workloads/`` and reused after.

Reproduce: ``python bench/fold.py [--dir DIR] [--repeat 5] [--profile sj2]`` from the
repository root. Each database is copied to a temporary folder first (the store sets its pragmas
on opening): the workloads are left as they were.
"""
from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import shutil
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

from events import default_catalogue  # noqa: E402
from events.sqlite_store import SQLiteEventStore  # noqa: E402
from projections.streams import StreamState, fold  # noqa: E402
from workloads import DEFAULT_DIR, GAMES, workload  # noqa: E402  (bench/, beside this script)



def match_streams(database: Path) -> list[str]:
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as conn:
        rows = conn.execute("SELECT DISTINCT stream FROM events WHERE stream LIKE 'match-%' "
                            "ORDER BY stream").fetchall()
    return [row[0] for row in rows]


def floor(store: SQLiteEventStore, streams: list[str]) -> tuple[int, float]:
    """Reading every match's rows and parsing their data: (events, seconds)."""
    started, events = time.perf_counter(), 0
    for stream in streams:
        for record in store.read_stream(stream):
            json.loads(record.data)
            events += 1
    return events, time.perf_counter() - started


def forget_memoised() -> None:
    """Empties the rules' memoised searches (``functools.lru_cache``), so that each rebuild is
    timed as the first would be, not helped by the folds of an earlier round."""
    for name, module in list(sys.modules.items()):
        if name == "rules" or name.startswith("rules."):
            for value in list(vars(module).values()):
                if callable(getattr(value, "cache_clear", None)):
                    value.cache_clear()


def rebuild(store: SQLiteEventStore, streams: list[str], catalogue) -> tuple[int, float]:
    """Reading every match's rows and folding them from the first, with the memoised searches
    empty: (events, seconds)."""
    forget_memoised()
    started, events = time.perf_counter(), 0
    for stream in streams:
        records = list(store.read_stream(stream))
        events += len(records)
        fold(StreamState(stream), records, catalogue)
    return events, time.perf_counter() - started


def best_of(repeat: int, *measures) -> list[tuple[int, float]]:
    """Each measure's (events, least seconds) over ``repeat`` rounds, the measures taking turns
    in each round so that a busy machine slows them alike."""
    runs = [[measure() for measure in measures] for _ in range(repeat)]
    return [(runs[0][i][0], min(run[i][1] for run in runs)) for i in range(len(measures))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dir", type=Path, default=DEFAULT_DIR,
                        help="folder of <game>.db workloads (simulated there when missing; "
                             "default: var/bench-workloads)")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--games", nargs="*", default=list(GAMES))
    parser.add_argument("--profile", metavar="GAME", help="print a cProfile of GAME's rebuild")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    catalogue, rows = default_catalogue(), []
    for game in args.games:
        database = workload(game, args.dir)
        streams = match_streams(database)
        scratch = tempfile.TemporaryDirectory()
        store = SQLiteEventStore(shutil.copy(database, scratch.name))
        try:
            (events, floor_seconds), (_, rebuild_seconds) = best_of(
                args.repeat, lambda: floor(store, streams),
                lambda: rebuild(store, streams, catalogue))
            if args.profile == game:
                profiler = cProfile.Profile()
                profiler.runcall(rebuild, store, streams, catalogue)
                pstats.Stats(profiler, stream=sys.stderr).sort_stats("tottime").print_stats(25)
        finally:
            store.close()
            scratch.cleanup()
        rows.append({"game": game, "matches": len(streams), "events": events,
                     "rebuild_events_per_second": round(events / rebuild_seconds),
                     "floor_events_per_second": round(events / floor_seconds),
                     "ratio": round(floor_seconds / rebuild_seconds, 3)})
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    print(f"{'game':8} {'matches':>7} {'events':>7} {'rebuild ev/s':>13} {'floor ev/s':>11} "
          f"{'ratio':>6}")
    for r in rows:
        print(f"{r['game']:8} {r['matches']:>7} {r['events']:>7} "
              f"{r['rebuild_events_per_second']:>13} {r['floor_events_per_second']:>11} "
              f"{r['ratio']:>6.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
