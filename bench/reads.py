"""Reads that stay small as a match grows (a long session must not make every read slower),
from one run, each figure beside its reference:

1. **Simulation speed against the session's length**: one table of each mahjong game played
   by ``paiju simulate``'s bots for 8 hands and for 32 (MJO, MJS), and an SJ2 match of 5 hands
   and of 20: events/s of the long one ÷ the short one (goal ≥ 0.8: a move costs the same late
   in a session as early).
2. **The match read at hand 1 and at hand 32** of the 32-hand Sichuan session (``?at=`` the
   deal of each hand, as the referee): bytes and median milliseconds, beside what the read
   carried before the history was paged (the read plus every result row up to then).
3. **Claim windows answered in one batch** (the 32-hand MJS session): requests and events/s
   with the table posting each window's answers (and the next draw) at once, beside each seat's
   answer posted on its own.

Every session is played against the in-process temporary server on a fresh database.

Reproduce: ``python bench/reads.py`` from the repository root (``make bench`` runs it).
"""
from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

from service.simulator import mahjong, sichuan  # noqa: E402
from service.simulator.runner import Api, simulate, temporary_server  # noqa: E402

READS = 30  # timed reads of each position; the median is printed


def session(game: str, hands: int, batch: bool = True) -> dict:
    """One table of ``hands`` hands (an SJ2 match: ``maxHands``) on a fresh server: its
    events, requests and events/s, and — for the long Sichuan session — its reads."""
    with temporary_server() as server:
        outcome = _play(game, hands, batch, server)
        figures = {"events": sum(outcome.event_counts.values()), "requests": outcome.requests,
                   "seconds": outcome.seconds}
        figures["events_per_second"] = figures["events"] / outcome.seconds
        if game == "MJS" and hands == 32 and batch:
            figures["reads"] = match_reads(server, outcome.tournament_id)
    return figures


def _play(game: str, hands: int, batch: bool, server):
    if game == "SJ2":  # two teams: one match, to its maxHands (unless a side passes K first)
        return simulate(server.url, 2, seed=3, match_settings={"maxHands": hands,
                                                               "targetLevel": "K"},
                        token=server.token)
    module = {"MJO": mahjong, "MJS": sichuan}[game]
    settings = {"sessionHands": hands, "sessionRounds": 100}  # the hands end the session
    if game == "MJO":
        return module.simulate(server.url, 4, 3, None, settings, token=server.token,
                               batch_claims=batch)
    return module.simulate(server.url, 4, 3, settings, token=server.token, batch_claims=batch)


def match_reads(server, tid: str) -> dict:
    """The referee's match read ``?at=`` the deal of hand 1 and of the last hand: bytes and
    median ms, now and as it was with every result row inlined."""
    api = Api(server.url, server.token)
    deals = [e["position"] for e in api.pages(f"/v1/tournaments/{tid}/events?type=TilesDealt"
                                              f"&limit=1000", "events")]
    match_id = api.call("GET", f"/v1/tournaments/{tid}/matches")["matches"][0]["match_id"]
    base = f"/v1/tournaments/{tid}/matches/{match_id}"
    shown = {}
    for name, at in (("hand 1", deals[0]), ("last hand", deals[-1])):
        read = f"{base}?as=referee&at={at}"
        rows = f"{base}/hands?at={at}&limit=1000"
        size, ms = _bytes(api, read), _median_ms(api, read)
        shown[name] = {"bytes": size, "ms": ms, "inlined_bytes": size + _bytes(api, rows),
                       "inlined_ms": ms + _median_ms(api, rows)}
    api.close()
    return shown


def _bytes(api: Api, path: str) -> int:
    api.conn.request("GET", path, headers=api.auth)
    return len(api.conn.getresponse().read())


def _median_ms(api: Api, path: str) -> float:
    times = []
    for _ in range(READS):
        started = time.perf_counter()
        _bytes(api, path)  # unconditional: the full answer each time
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def main() -> None:
    print("# bench/reads.py — reads that stay small as a match grows")
    runs = {}
    for game, short, long in (("MJO", 8, 32), ("MJS", 8, 32), ("SJ2", 5, 20)):
        runs[game] = (session(game, short), session(game, long))
        a, b = runs[game]
        print(f"{game}: {short} hands {a['events']} events at {a['events_per_second']:.0f}/s; "
              f"{long} hands {b['events']} events at {b['events_per_second']:.0f}/s; "
              f"long ÷ short {b['events_per_second'] / a['events_per_second']:.2f} "
              f"(goal ≥ 0.8)")
    reads = runs["MJS"][1]["reads"]
    first, last = reads["hand 1"], reads["last hand"]
    print(f"MJS match read ?at= the deal, referee: hand 1 {first['bytes']} B "
          f"{first['ms']:.2f} ms; hand 32 {last['bytes']} B {last['ms']:.2f} ms; "
          f"last ÷ first {last['bytes'] / first['bytes']:.2f}× in size, "
          f"{last['ms'] / first['ms']:.2f}× in time (goal ≤ 1.5)")
    print(f"  beside the read with every result row inlined (before the history was paged): "
          f"hand 32 {last['inlined_bytes']} B {last['inlined_ms']:.2f} ms, "
          f"{last['inlined_bytes'] / first['inlined_bytes']:.2f}× hand 1's in size")
    batched, alone = runs["MJS"][1], session("MJS", 32, batch=False)
    print(f"MJS 32 hands, claim windows answered in one batch: {batched['requests']} requests, "
          f"{batched['events_per_second']:.0f} events/s; each answer on its own: "
          f"{alone['requests']} requests, {alone['events_per_second']:.0f} events/s "
          f"({alone['requests'] / batched['requests']:.2f}× the requests)")


if __name__ == "__main__":
    main()
