"""SJ2 throughput: events appended through the HTTP API with full rule validation, and the
rebuild of every projection from the log.

1. ``paiju simulate sj2`` plays a knockout of ``--teams`` pairs with the default match settings
   (up to 20 hands, first past 10) against a temporary server; its log is the workload.
2. **API append with validation**: that log is posted again, one event per request, in its
   order, by one client on a kept-alive connection, to a second fresh server (SQLite,
   synchronous=FULL): each request parses, validates the schema, folds the stream (from the
   cache), judges the rules and appends with its own durable commit. Timed: the posts only.
3. **Projection rebuild**: every match stream folded from its first event with no cache, then
   the bracket and standings, on the second server's database. Timed: the folds.

Reproduce: ``python bench/sj2.py [--teams 8] [--seed 1] [--json]`` from the repository root
(or ``make bench``, which runs it after bench/append.py).
"""
from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

from events import default_catalogue  # noqa: E402
from events.sqlite_store import SQLiteEventStore  # noqa: E402
from projections import brackets  # noqa: E402
from projections.streams import StreamState, fold  # noqa: E402
from service.simulator.runner import Api, simulate, temporary_server  # noqa: E402


def workload(teams: int, seed: int) -> tuple[str, list[dict], dict]:
    """Plays the knockout; returns its id, its events in order, and the simulation's figures."""
    with temporary_server() as server:
        outcome = simulate(server.url, teams, seed, tournament_settings={"thirdPlace": "playoff"},
                           token=server.token)
        api = Api(server.url, server.token)
        events, after = [], 0
        while True:
            page = api.call("GET", f"/v1/tournaments/{outcome.tournament_id}/events"
                                   f"?after={after}&limit=1000")
            events += page["events"]
            if not page["next"]:
                break
            after = page["events"][-1]["position"]
        api.close()
    figures = {"matches": outcome.matches, "hands": outcome.hands, "events": len(events),
               "simulation_seconds": round(outcome.seconds, 2),
               "simulation_requests": outcome.requests}
    return outcome.tournament_id, events, figures


def replay_through_api(url: str, token: str, events: list[dict]) -> float:
    """Posts the log again as its clients did; returns the seconds the posts took."""
    api = Api(url, token)
    created = events[0]["data"]
    api.call("POST", "/v1/tournaments", {k: v for k, v in created.items() if v is not None})
    tid = created["tournament_id"]
    started = time.perf_counter()
    for event in events[1:]:
        if event["type"] == "MatchStarted":
            data = event["data"]
            api.call("POST", f"/v1/tournaments/{tid}/matches",
                     {"match_id": data["match_id"], "teams": data["teams"]})
        else:
            api.call("POST", f"/v1/tournaments/{tid}/events",
                     {"type": event["type"], "stream": event["stream"], "data": event["data"]})
    seconds = time.perf_counter() - started
    api.close()
    return seconds


def rebuild(database: str, tid: str) -> tuple[int, float]:
    """Folds every match stream from scratch, then the bracket; returns (events, seconds)."""
    store, catalogue = SQLiteEventStore(database), default_catalogue()
    try:
        streams = sorted({r.stream for r in store.read_tournament(tid, type="MatchStarted")})
        started, events = time.perf_counter(), 0
        for stream in streams:
            records = list(store.read_stream(stream))
            events += len(records)
            fold(StreamState(stream), records, catalogue)
        brackets.standings_view(store, catalogue, tid)
        return events, time.perf_counter() - started
    finally:
        store.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--teams", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    tid, events, figures = workload(args.teams, args.seed)
    with temporary_server() as server:
        seconds = replay_through_api(server.url, server.token, events)
        match_events, rebuild_seconds = rebuild(server.database, tid)
    posted = len(events) - 1
    figures.update({
        "api_events": posted, "api_seconds": round(seconds, 2),
        "api_events_per_second": round(posted / seconds),
        "rebuild_events": match_events, "rebuild_seconds": round(rebuild_seconds, 3),
        "rebuild_events_per_second": round(match_events / rebuild_seconds),
        "python": platform.python_version(), "machine": platform.machine()})
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        print(f"workload: {figures['matches']} matches, {figures['hands']} hands, "
              f"{figures['events']} events (simulated in {figures['simulation_seconds']} s)")
        print(f"API append with validation: {posted} events in {figures['api_seconds']} s = "
              f"{figures['api_events_per_second']} events/s (one client, one event a request)")
        print(f"projection rebuild: {match_events} match events in "
              f"{figures['rebuild_seconds']} s = {figures['rebuild_events_per_second']} events/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
