"""How long the team event's pairing of one round takes (T-6.4), ``nearest`` beside ``topDown``.

    .venv/bin/python bench/pairing.py [--teams 40] [--rounds 9] [--events 20] [--seed 1]

Plays ``--events`` random team events of ``--teams`` teams (random table results, a few
forfeits) and times the pairing of each round from round 2 on — ``rules.swiss.propose`` on the
event as it stands, ranking included — with both methods on the same scores and history; the
event goes on with ``nearest``'s pairing. Prints the median, 90th percentile and largest time
per round and how often ``nearest`` found a smaller largest score difference."""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules import swiss  # noqa: E402
from rules.swiss_pairing import differences  # noqa: E402
from rules.violations import RuleViolation  # noqa: E402


def result(rng: random.Random) -> swiss.PairResult:
    if rng.random() < 0.03:
        return swiss.PairResult.forfeited_by(rng.randrange(2))
    return swiss.PairResult.of_levels((rng.randint(2, 9), rng.randint(2, 9)))


def timed(ev: swiss.TeamEvent, method: str) -> tuple[float, dict | None]:
    ev = replace(ev, settings=replace(ev.settings, pairing_method=method))
    start = time.perf_counter()
    try:
        data = swiss.propose(ev, random.Random(0))
    except RuleViolation:
        data = swiss.proposal(ev)            # no pairing without a rematch: the proposal
    return time.perf_counter() - start, data


def largest(ev: swiss.TeamEvent, data: dict) -> int:
    scores = {t: swiss.totals(ev, t).score for t in swiss.in_play(ev)}
    pairing = swiss.Pairing(tuple(tuple(m["teams"]) for m in data["matches"]))
    return max(differences(pairing, scores), default=0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--teams", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--events", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    times: dict[str, list[float]] = {"nearest": [], "topDown": []}
    nearer = rounds = 0
    for event in range(args.events):
        rng = random.Random(args.seed * 1000 + event)
        names = [f"T{k:02d}" for k in range(1, args.teams + 1)]
        ev = swiss.start([swiss.Entry(t, ((f"{t}1", f"{t}2"), (f"{t}3", f"{t}4")))
                          for t in names], {"rounds": args.rounds})
        for number in range(1, args.rounds + 1):
            if number == 1:
                data = swiss.propose(ev, rng)
            else:
                near_time, data = timed(ev, "nearest")
                top_time, top = timed(ev, "topDown")
                times["nearest"].append(near_time)
                times["topDown"].append(top_time)
                nearer += largest(ev, data) < largest(ev, top)
                rounds += 1
            ev = swiss.record_pairing(ev, data)
            for m in data["matches"]:
                for pair in swiss.PAIRS:
                    ev = swiss.record_result(ev, f"{m['match_id']}{pair}", result(rng))
    print(f"pairing one round of {args.teams} teams ({args.events} events of {args.rounds} "
          f"rounds, rounds 2-{args.rounds}: {rounds} rounds), ranking included")
    for method, values in times.items():
        values.sort()
        p90 = values[int(0.9 * (len(values) - 1))]
        print(f"  {method:8} median {statistics.median(values) * 1000:7.1f} ms   "
              f"90% {p90 * 1000:7.1f} ms   largest {values[-1] * 1000:7.1f} ms")
    print(f"  nearest had a smaller largest score difference in {nearer} of {rounds} rounds")


if __name__ == "__main__":
    main()
