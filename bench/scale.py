"""A long day's log: reads ``?at=``, cold appends and start-up on a database of about 1,000,000
events (a tournament day at its largest), each figure beside its reference from the same run.

1. **Workload.** The SJ2 workload of bench/workloads.py: a knockout of 4 pairs (default match
   settings: up to 20 hands), simulated on first use. Its log is then copied into a new database
   as many times as tournaments of their own (new ids, the hash chain computed anew, the
   recorded times kept), until about ``--events`` events; one more copy stops its longest match
   ``--left`` events before its end: the match still in play.
2. **Start-up.** ``paiju serve`` (the timer on, as ``make run`` starts it) on that database:
   seconds until ``GET /v1/health`` answers, and the peak RSS (VmHWM). Twice: the first start
   has no checkpoint file yet (it folds every match ever started once, and leaves the quiet
   marks: the reference, what every start cost before), the second is a restart.
3. **Reads ``?at=``** of one finished copy's longest match as the referee: an early position
   (hand 1) and a late one (the last hand), each ``--reads`` times on the restarted server;
   the late ÷ early ratio, beside the same ratio for folds from version 1 (in this process:
   what each read did before checkpoints); and the first such reads of five finished matches
   (nothing of them in memory: from the checkpoint file).
4. **Cold ÷ warm ``POST``** to the match still in play, late in it: a server started without
   the timer (so nothing has folded that match; a read of another match warms the process
   itself), one POST (cold: the nearest checkpoint is in the file), then ``--warm`` more
   (warm); three restarts; beside the same with the checkpoint
   file deleted before each restart (the fold from version 1).

Reproduce: ``python bench/scale.py [--events 1000000] [--json]`` from the repository root, or
``make bench``. It takes several minutes and about 2 GB of disk in a temporary directory.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

from events import default_catalogue  # noqa: E402
from events.envelope import GENESIS_HASH, Record, chain_hash, hashed_text  # noqa: E402
from events.sqlite_store import SQLiteEventStore  # noqa: E402
from projections.matches import folded_view  # noqa: E402
from projections.streams import load_stream  # noqa: E402
from projections.viewers import Viewer  # noqa: E402
from service.simulator.server_process import free_port  # noqa: E402
from workloads import workload  # noqa: E402

START_TIMEOUT = 900.0  # seconds: the first start folds every match of the day
FIRST_READS = 5        # finished matches whose first reads after the restart are timed


# --- the workload ---------------------------------------------------------------------------------
def simulated_log() -> list[Record]:
    """The SJ2 workload's knockout (bench/workloads.py), its records in order."""
    store = SQLiteEventStore(workload("sj2"))
    try:
        return list(store.read_all())
    finally:
        store.close()


def copied(records: list[Record], position: int) -> list[Record]:
    """``records`` as a tournament of its own from global position ``position + 1``: a new
    tournament id (in streams, data and meta), new event ids, the chain hashed anew."""
    old = records[0].tournament_id
    new = str(uuid.uuid4())[:len(old)].ljust(len(old), "0")
    prev, out = GENESIS_HASH, []
    for record in records:
        position += 1
        unsealed = record._replace(
            position=position, id=str(uuid.uuid4()), tournament_id=new,
            stream=record.stream.replace(old, new), data=record.data.replace(old, new),
            meta=record.meta.replace(old, new), prev_hash=prev, hash="")
        prev = chain_hash(prev, hashed_text(unsealed))
        out.append(unsealed._replace(hash=prev))
    return out


def longest_match(records: list[Record]) -> str:
    counts: dict[str, int] = {}
    for r in records:
        if r.stream.startswith("match-"):
            counts[r.stream] = counts.get(r.stream, 0) + 1
    return max(counts, key=counts.get)


def build_day(path: Path, log: list[Record], events: int, left: int) -> dict:
    """The day's database; returns what the measures need to know of it."""
    store = SQLiteEventStore(path, synchronous="OFF")
    try:
        position, copies, tournaments = 0, 0, []
        while position + len(log) <= events:
            batch = copied(log, position)
            store.restore(batch)
            tournaments.append(batch[0].tournament_id)
            position, copies = batch[-1].position, copies + 1
        live_stream = longest_match(log)
        in_play = [r for r in log if r.stream == live_stream][-left:]
        left_out = {r.id for r in in_play}
        live = copied([r for r in log if r.id not in left_out], position)
        store.restore(live)
    finally:
        store.close()
    old_tid, live_tid = log[0].tournament_id, live[0].tournament_id
    mid = longest_match(log).split(":", 1)[1]
    return {"copies": copies, "events": live[-1].position, "tournaments": tournaments,
            "match": mid, "live_tournament": live_tid,
            "to_post": [(r.type, r.stream.replace(old_tid, live_tid),
                         json.loads(r.data.replace(old_tid, live_tid))) for r in in_play]}


# --- a server -------------------------------------------------------------------------------------
class Server:
    """``paiju serve`` in a process of its own; an admin token for it."""

    def __init__(self, db: Path, timer: bool = True):
        from service.deployment import admin_token

        self.token = admin_token(str(db), "bench/scale.py")
        self.port = free_port()
        command = [sys.executable, "-m", "service.cli", "serve", "--port", str(self.port),
                   "--db", str(db)] + ([] if timer else ["--no-timer"])
        env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
        self.log = open(db.with_suffix(".serve.log"), "ab")
        started = time.perf_counter()
        self.process = subprocess.Popen(command, cwd=REPO_ROOT, env=env, stdout=self.log,
                                        stderr=subprocess.STDOUT)
        self._wait_healthy()
        self.start_seconds = time.perf_counter() - started
        self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)

    def _wait_healthy(self) -> None:
        deadline = time.perf_counter() + START_TIMEOUT
        while time.perf_counter() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"paiju serve exited with {self.process.returncode}")
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=1)
                conn.request("GET", "/v1/health")
                if conn.getresponse().status == 200:
                    return
            except OSError:
                time.sleep(0.02)
        raise RuntimeError("paiju serve did not answer /v1/health in time")

    def peak_rss_mib(self) -> float:
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        kib = next(int(line.split()[1]) for line in status.splitlines()
                   if line.startswith("VmHWM:"))
        return kib / 1024

    def call(self, method: str, path: str, body: object | None = None) -> tuple[int, float]:
        """(status, seconds) of one request."""
        headers = {"Authorization": f"Bearer {self.token}"}
        payload = None if body is None else json.dumps(body).encode()
        if payload is not None:
            headers["Content-Type"] = "application/json"
        started = time.perf_counter()
        self.conn.request(method, path, body=payload, headers=headers)
        response = self.conn.getresponse()
        response.read()
        return response.status, time.perf_counter() - started

    def stop(self) -> None:
        self.conn.close()
        self.process.terminate()
        self.process.wait(timeout=60)
        self.log.close()


# --- the measures ---------------------------------------------------------------------------------
def hand_positions(db: Path, stream: str) -> tuple[int, int]:
    """A position in the first hand and one in the last hand of ``stream`` (the middle of
    each)."""
    store = SQLiteEventStore(db)
    try:
        records = list(store.read_stream(stream))
    finally:
        store.close()
    deals = [i for i, r in enumerate(records) if r.type == "HandDealt"]
    first = records[(deals[0] + deals[1]) // 2].position
    last = records[(deals[-1] + len(records)) // 2].position
    return first, last


def timed_reads(server: Server, path: str, count: int) -> tuple[float, float | None]:
    """(the first read's seconds, the median of ``count`` more)."""
    status, first = server.call("GET", path)
    assert status == 200, (status, path)
    more = [server.call("GET", path)[1] for _ in range(count)]
    return first, statistics.median(more) if more else None


def at_reads(server: Server, db: Path, day: dict, reads: int) -> dict:
    """Reads ``?at=`` early and late in the longest match of the first finished copies: the
    first read of each (nothing of it in memory yet: from the checkpoint file) and the median
    of ``reads`` more of the first copy's, and the folds from version 1 of the same reads."""
    firsts: dict[str, list[float]] = {"early": [], "late": []}
    figures = {}
    for n, tid in enumerate(day["tournaments"][:FIRST_READS]):
        stream = f"match-{tid}:{day['match']}"
        base = f"/v1/tournaments/{tid}/matches/{day['match']}?as=referee&at="
        for name, at in zip(("early", "late"), hand_positions(db, stream)):
            first, again = timed_reads(server, base + str(at), reads if n == 0 else 0)
            firsts[name].append(first)
            if n == 0:
                figures[f"{name}_at"] = again
                figures[f"{name}_full_fold"] = full_fold_read(db, stream, at, 5)
    for name, seconds in firsts.items():
        figures[f"{name}_at_first"] = statistics.median(seconds)
    return figures


def full_fold_read(db: Path, stream: str, at: int, count: int) -> float:
    """The median seconds of a fold from version 1 to ``at`` and its referee view (what a
    read ``?at=`` cost before checkpoints)."""
    store, catalogue, seconds = SQLiteEventStore(db), default_catalogue(), []
    try:
        for _ in range(count):
            started = time.perf_counter()
            json.dumps(folded_view(load_stream(store, catalogue, stream, at=at),
                                   Viewer.parse("referee")))
            seconds.append(time.perf_counter() - started)
    finally:
        store.close()
    return statistics.median(seconds)


def cold_and_warm_posts(db: Path, day: dict, warm: int, restarts: int,
                        drop_checkpoints: bool) -> tuple[float, float]:
    """(median cold POST, median warm POST) over ``restarts`` restarts of a server without
    the timer; each posts the next events of the match in play."""
    cold, warm_seconds = [], []
    for _ in range(restarts):
        if drop_checkpoints:
            for suffix in ("", "-wal", "-shm"):
                Path(f"{db}-checkpoints{suffix}").unlink(missing_ok=True)
        server = Server(db, timer=False)
        try:
            # the process warmed by a read of another match: what is cold is the match alone
            other = day["tournaments"][-1]
            server.call("GET", f"/v1/tournaments/{other}/matches/{day['match']}")
            for n in range(warm + 1):
                event_type, stream, data = day["to_post"].pop(0)
                status, seconds = server.call(
                    "POST", f"/v1/tournaments/{day['live_tournament']}/events",
                    {"type": event_type, "stream": stream, "data": data})
                assert status == 201, (status, event_type)
                (warm_seconds if n else cold).append(seconds)
        finally:
            server.stop()
    return statistics.median(cold), statistics.median(warm_seconds)


def run(args: argparse.Namespace, workdir: Path) -> dict:
    started = time.perf_counter()
    log = simulated_log()
    db = workdir / "day.db"
    day = build_day(db, log, args.events, args.left)
    figures: dict = {"events": day["events"], "tournaments": day["copies"] + 1,
                     "build_seconds": round(time.perf_counter() - started, 1)}

    first = Server(db)   # no checkpoint file yet: every match folded once
    figures["first_start_seconds"], figures["first_start_rss_mib"] = \
        first.start_seconds, first.peak_rss_mib()
    first.stop()
    again = Server(db)   # a restart
    figures["restart_seconds"], figures["restart_rss_mib"] = \
        again.start_seconds, again.peak_rss_mib()

    figures.update(at_reads(again, db, day, args.reads))
    figures["rss_after_reads_mib"] = again.peak_rss_mib()
    again.stop()
    figures["checkpoint_file_mib"] = Path(f"{db}-checkpoints").stat().st_size / 2**20
    figures["log_file_mib"] = db.stat().st_size / 2**20

    figures["cold_post"], figures["warm_post"] = cold_and_warm_posts(db, day, args.warm, 3,
                                                                     False)
    figures["cold_post_no_checkpoints"], figures["warm_post_no_checkpoints"] = \
        cold_and_warm_posts(db, day, args.warm, 3, True)
    figures.update(python=platform.python_version(), machine=platform.machine())
    return figures


def ratio(a: float, b: float) -> float:
    return round(a / b, 2)


def print_report(f: dict) -> None:
    ms = lambda s: f"{s * 1000:.1f} ms"  # noqa: E731
    print(f"day: {f['events']:,} events in {f['tournaments']} tournaments "
          f"(built in {f['build_seconds']} s)")
    print(f"paiju serve, restart: /v1/health answers after {f['restart_seconds']:.2f} s, "
          f"peak RSS {f['restart_rss_mib']:.0f} MiB  | reference, the first start (no "
          f"checkpoint file: every match folded): {f['first_start_seconds']:.1f} s, "
          f"{f['first_start_rss_mib']:.0f} MiB")
    print(f"GET match ?at= (referee): late {ms(f['late_at'])} ÷ early {ms(f['early_at'])} = "
          f"{ratio(f['late_at'], f['early_at'])}× (a match's first read after the restart, "
          f"median of {FIRST_READS}: late {ms(f['late_at_first'])}, early "
          f"{ms(f['early_at_first'])})  | reference, folds "
          f"from version 1: late {ms(f['late_full_fold'])} ÷ early {ms(f['early_full_fold'])} "
          f"= {ratio(f['late_full_fold'], f['early_full_fold'])}×")
    print(f"POST late in a match: cold {ms(f['cold_post'])} ÷ warm {ms(f['warm_post'])} = "
          f"{ratio(f['cold_post'], f['warm_post'])}×  | reference, no checkpoint file: cold "
          f"{ms(f['cold_post_no_checkpoints'])} ÷ warm {ms(f['warm_post_no_checkpoints'])} = "
          f"{ratio(f['cold_post_no_checkpoints'], f['warm_post_no_checkpoints'])}×")
    print(f"peak RSS of the restarted server after the reads: {f['rss_after_reads_mib']:.0f} MiB; "
          f"checkpoint file {f['checkpoint_file_mib']:.0f} MiB beside a log of "
          f"{f['log_file_mib']:.0f} MiB")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--left", type=int, default=60, help="events of the match in play "
                        "still to post")
    parser.add_argument("--reads", type=int, default=20)
    parser.add_argument("--warm", type=int, default=5)
    parser.add_argument("--dir", help="where the day's database goes (default: a temporary one)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    workdir = Path(args.dir or tempfile.mkdtemp(prefix="paiju-scale-"))
    try:
        figures = run(args, workdir)
    finally:
        if not args.dir:
            shutil.rmtree(workdir, ignore_errors=True)
    print_report(figures)
    if args.json:
        print(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
