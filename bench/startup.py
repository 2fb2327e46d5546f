"""Any start of ``paiju serve`` on a day of about 1,000,000 events, beside its goal
(< 5 s until ``GET /v1/health`` answers, < 200 MiB), each figure from the same run.

1. **The day.** bench/scale.py's: the SJ2 workload's knockout (bench/workloads.py) copied as
   tournaments of their own (new ids, the hash chain computed anew) until about ``--events``
   events, one more copy with its longest match still in play; then ``--tables`` MJO tables
   dealt an hour ago (appended through the store on a clock of an hour ago), so each has the
   dealer's first-discard limit pending, fallen due long before the first start.
2. **The starts.** ``paiju serve`` (the timer on, as ``make run`` starts it), on that database:
   seconds from exec until ``/v1/health`` answers 200, peak RSS (VmHWM) 5 s later, seconds
   until ``/v1/ready`` answers 200 (the timer caught up: every running match's deadlines known,
   what fell due fired) and what the timer's caught-up line says (matches folded, deadlines
   fired). In this order:

   a. the first start on a log no node has marked (a database of a paiju from before the
      quiet marks, or one rebuilt by ``paiju import``): the timer folds every match started —
      in the background — and marks the ones over; no checkpoint file;
   b. a restart, its checkpoint file beside it;
   c. a start without the checkpoint file (a new node, a lost ``var/``);
   d. a start after an upgrade of the rules: every checkpoint in the file foreign (its code
      stamp rewritten, as a release that moves ``FOLD_VERSION`` does:
      projections/fold_version.py), and the file as large as a day's reads
      leave it (``--checkpoints`` rows of 11.5 KB: the fold of every match of this day writes
      about 25,000, 280 MiB).

   Each beside the goal; (a) is a one-time cost, shown with its figures. With ``--postgres``
   the same four on PostgreSQL: the day moved there by ``paiju migrate`` (which moves no
   quiet marks: start (a) is the first on the migrated deployment), one node started from a
   folder of its own (its checkpoint file under its ``var/``).

The peak RSS is VmHWM, the figure the goal was set in: it counts the pages of files mapped
into the process too (the RSS beside it is split into anonymous and file-backed).

Reproduce: ``python bench/startup.py [--events 1000000] [--tables 16] [--postgres URL]
[--dir DIR] [--json]`` from the repository root. It takes a few minutes and about 1 GB of disk
(``--dir`` keeps the day for the next run, which then skips building it).
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import platform
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))
sys.path.insert(0, str(REPO_ROOT / "tests"))

from scale import build_day, simulated_log  # noqa: E402

from service.simulator.server_process import free_port  # noqa: E402

GOAL_SECONDS, GOAL_MIB = 5.0, 200.0
RSS_AFTER_SECONDS = 5.0   # the peak RSS is read this long after /v1/health answers
READY_TIMEOUT = 900.0     # the first start without marks folds every match of the day


# --- the day ----------------------------------------------------------------------------------
def deal_tables(db: Path, count: int) -> list[str]:
    """``count`` MJO tables dealt an hour ago on the day's database; their streams."""
    from clients import admin_client
    from mj_table import Table

    from service import create_app
    from service.simulator.runner import SimulatedClock

    clock = SimulatedClock(0.001, datetime.now(timezone.utc) - timedelta(hours=1))
    app = create_app({"DATABASE": str(db), "CLOCK": clock, "CHECKPOINTS": False})
    try:
        client = admin_client(app)
        tables = [Table(client, tid=f"startup-{n}") for n in range(count)]
        for table in tables:
            table.deal()
        return [t.stream for t in tables]
    finally:
        app.extensions["paiju"].store.close()


def the_day(folder: Path, events: int, tables: int) -> tuple[Path, dict]:
    """The day's database, built unless ``folder`` holds it; kept pristine as ``day.db`` and
    copied for the run."""
    pristine, facts_file = folder / "day.db", folder / "day.json"
    if not (pristine.exists() and facts_file.exists()):
        started = time.perf_counter()
        day = build_day(pristine, simulated_log(), events, 60)
        streams = deal_tables(pristine, tables)
        facts = {"events": last_position(pristine), "tournaments": day["copies"] + 1 + tables,
                 "tables": len(streams), "build_seconds": round(time.perf_counter() - started)}
        facts_file.write_text(json.dumps(facts))
    facts = json.loads(facts_file.read_text())
    run = folder / "run.db"
    for path in folder.glob("run.db*"):
        path.unlink()
    copy(pristine, run)
    with sqlite3.connect(run) as conn:  # the day as a paiju before the marks left it
        conn.execute("DROP TABLE IF EXISTS quiet_matches")
    facts["matches"] = count_matches(run)
    return run, facts


def copy(source: Path, target: Path) -> None:
    src, dst = sqlite3.connect(source), sqlite3.connect(target)
    try:
        src.backup(dst)
    finally:
        dst.close()
        src.close()


def last_position(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT max(position) FROM events").fetchone()[0]


def count_matches(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT count(*) FROM events WHERE type = 'MatchStarted'").fetchone()[0]


# --- a start ----------------------------------------------------------------------------------
CAUGHT_UP = re.compile(r"timer caught up in [\d.]+ s: (\d+) matches folded.*?, (\d+) deadlines "
                       r"fired, (\d+) pending")


def start(db: str, token: str, node: Path) -> dict:
    """One ``paiju serve`` from exec to ready, run in the folder ``node`` (a PostgreSQL
    deployment's node files are under its ``var/``); its figures."""
    port = free_port()
    node.mkdir(parents=True, exist_ok=True)
    log_path = node / "serve.log"
    offset = log_path.stat().st_size if log_path.exists() else 0
    command = [sys.executable, "-m", "service.cli", "serve", "--port", str(port), "--db", db]
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT), "LC_ALL": "C.UTF-8"}
    with open(log_path, "ab") as log:
        began = time.perf_counter()
        process = subprocess.Popen(command, cwd=node, env=env, stdout=log,
                                   stderr=subprocess.STDOUT)
        try:
            health = wait(process, port, "/v1/health", token, began)
            sample_at, rss = began + health + RSS_AFTER_SECONDS, None
            while True:  # until ready, the RSS read 5 s after health on the way
                if rss is None and time.perf_counter() >= sample_at:
                    rss = memory(process.pid)
                if answers(port, "/v1/ready", token):
                    ready = time.perf_counter() - began
                    break
                if process.poll() is not None or time.perf_counter() > began + READY_TIMEOUT:
                    raise RuntimeError("paiju serve did not turn ready")
                time.sleep(0.02)
            at_ready = memory(process.pid)
            if rss is None:
                time.sleep(max(0.0, sample_at - time.perf_counter()))
                rss = memory(process.pid)
        finally:
            process.terminate()
            process.wait(timeout=60)
    said = log_path.read_bytes()[offset:].decode(errors="replace")
    found = CAUGHT_UP.search(said)
    folded, fired, pending = (int(g) for g in found.groups()) if found else (None,) * 3
    return {"health_seconds": round(health, 2), "ready_seconds": round(ready, 2),
            "rss_mib": rss["peak"], "rss_anon_mib": rss["anon"], "rss_file_mib": rss["file"],
            "rss_at_ready_mib": max(at_ready["peak"], rss["peak"]), "folded": folded,
            "fired": fired, "pending": pending}


def answers(port: int, path: str, token: str) -> bool:
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
        conn.request("GET", path, headers={"Authorization": f"Bearer {token}"})
        return conn.getresponse().status == 200
    except OSError:
        return False


def wait(process, port: int, path: str, token: str, began: float) -> float:
    """Seconds from ``began`` until ``path`` answers 200."""
    while time.perf_counter() < began + READY_TIMEOUT:
        if process.poll() is not None:
            raise RuntimeError(f"paiju serve exited with {process.returncode}")
        if answers(port, path, token):
            return time.perf_counter() - began
        time.sleep(0.02)
    raise RuntimeError(f"{path} did not answer 200 in {READY_TIMEOUT} s")


def memory(pid: int) -> dict:
    """MiB: the peak RSS (VmHWM) so far, and the RSS now, anonymous and file-backed (the
    latter mostly the log's pages SQLite maps: the page cache, not the process's own)."""
    status = dict(line.split(":", 1) for line in
                  Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
    mib = lambda key: round(int(status[key].split()[0]) / 1024)  # noqa: E731
    return {"peak": mib("VmHWM"), "anon": mib("RssAnon"), "file": mib("RssFile")}


def checkpoint_file(db: str, node: Path) -> Path:
    from service.deployment import checkpoint_file_path

    path = checkpoint_file_path(db)
    return path if path.is_absolute() else node / path


def without_checkpoint_file(db: str, node: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        Path(f"{checkpoint_file(db, node)}{suffix}").unlink(missing_ok=True)


def foreign_checkpoints(file: Path, count: int, size: int) -> int:
    """Every checkpoint of the file stamped with another code, as an upgrade of the rules makes
    them, and ``count`` more of ``size`` bytes (what a day's reads leave in the file: folding
    every match of this day once writes about 25,000, 280 MiB). Returns how many."""
    stamp = "the rules before the upgrade"
    with sqlite3.connect(file) as conn:
        conn.execute("UPDATE checkpoints SET code = ?", (stamp,))
        conn.execute("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n "
                     "WHERE i < ?) INSERT INTO checkpoints SELECT 'match-earlier:' || i, i, i, "
                     "'hash', ?, randomblob(?) FROM n", (count, stamp, size))
        return conn.execute("SELECT count(*) FROM checkpoints").fetchone()[0]


def series(db: str, node: Path, args: argparse.Namespace) -> dict:
    """The four starts (a)-(d) on the deployment at ``db``, from the folder ``node``."""
    from service.deployment import admin_token

    token = admin_token(db, "bench/startup.py")
    without_checkpoint_file(db, node)
    figures = {"unmarked": start(db, token, node)}          # (a): every match folded, marked
    figures["restart"] = start(db, token, node)             # (b)
    without_checkpoint_file(db, node)
    figures["no_checkpoint_file"] = start(db, token, node)  # (c)
    file = checkpoint_file(db, node)
    figures["foreign_checkpoints"] = foreign_checkpoints(file, args.checkpoints, 11_500)
    figures["checkpoint_file_mib"] = round(file.stat().st_size / 2**20)
    figures["rules_upgraded"] = start(db, token, node)      # (d)
    return figures


def drop_database(server: str, name: str) -> None:
    import psycopg

    with psycopg.connect(f"{server}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def postgres_day(server: str, day: Path) -> str:
    """A PostgreSQL database holding the day (``paiju db upgrade``, ``paiju migrate``: the log
    copied as stored, no quiet marks); its URL."""
    import psycopg

    from events.postgres_store import upgrade_schema

    name = "paiju_bench_startup"
    drop_database(server, name)
    with psycopg.connect(f"{server}/postgres", autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    url = f"{server}/{name}"
    upgrade_schema(url)
    subprocess.run([sys.executable, "-m", "service.cli", "migrate", "--from", str(day), "--to",
                    url], cwd=REPO_ROOT, check=True, stdout=subprocess.DEVNULL,
                   env={**os.environ, "PYTHONPATH": str(REPO_ROOT), "LC_ALL": "C.UTF-8"})
    return url


def run(args: argparse.Namespace, folder: Path) -> dict:
    db, figures = the_day(folder, args.events, args.tables)
    figures["sqlite"] = series(str(db), folder / "sqlite-node", args)
    if args.postgres:
        server = args.postgres.rstrip("/")
        url = postgres_day(server, db.with_name("day.db"))
        try:
            figures["postgres"] = series(url, folder / "postgres-node", args)
        finally:
            drop_database(server, url.rsplit("/", 1)[1])
    figures.update(python=platform.python_version(), machine=platform.machine(),
                   cpus=os.cpu_count())
    return figures


def print_report(f: dict) -> None:
    def line(name: str, s: dict) -> str:
        met = "met" if s["health_seconds"] < GOAL_SECONDS and s["rss_mib"] < GOAL_MIB else \
            "NOT met"
        later = ("" if s["rss_at_ready_mib"] == s["rss_mib"] else
                 f", peak RSS then {s['rss_at_ready_mib']} MiB")
        return (f"  {name}: /v1/health after {s['health_seconds']:.2f} s, peak RSS "
                f"{s['rss_mib']} MiB 5 s later (RSS then {s['rss_anon_mib']} MiB anonymous + "
                f"{s['rss_file_mib']} MiB of files mapped); /v1/ready after "
                f"{s['ready_seconds']:.2f} s ({s['folded']} matches folded, {s['fired']} "
                f"deadlines fired{later})  | goal < 5 s, < 200 MiB: {met}")

    print(f"day: {f['events']:,} events, {f['tournaments']} tournaments, {f['matches']} matches "
          f"of which {f['tables'] + 1} running ({f['tables']} MJO tables dealt an hour ago, "
          f"their first-discard limits due); {f['cpus']} CPUs, Python {f['python']}")
    for store, title in (("sqlite", "SQLite"), ("postgres", "PostgreSQL (one node)")):
        if store not in f:
            continue
        s = f[store]
        print(f"{title}:")
        print(line("restart (checkpoint file beside it)", s["restart"]))
        print(line("start without the checkpoint file (a new node, a lost var/)",
                   s["no_checkpoint_file"]))
        print(line(f"start after an upgrade of the rules (every checkpoint foreign: "
                   f"{s['foreign_checkpoints']:,}, {s['checkpoint_file_mib']} MiB)",
                   s["rules_upgraded"]))
        print(line("first start on a log no node has marked (once: a database from before the "
                   "quiet marks, imported or migrated; every match folded in the background)",
                   s["unmarked"]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--tables", type=int, default=16, help="MJO tables in play")
    parser.add_argument("--checkpoints", type=int, default=25_000,
                        help="foreign checkpoints in the file at the start after an upgrade")
    parser.add_argument("--postgres", metavar="SERVER_URL",
                        help="also on PostgreSQL: a server URL without a database "
                             "(e.g. postgresql://postgres@127.0.0.1:5432), where the database "
                             "paiju_bench_startup is made for the run and dropped after it")
    parser.add_argument("--dir", help="where the day is built and kept (default: a temporary "
                                      "folder, removed)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    folder = Path(args.dir) if args.dir else Path(tempfile.mkdtemp(prefix="paiju-startup-"))
    folder.mkdir(parents=True, exist_ok=True)
    try:
        figures = run(args, folder)
    finally:
        if not args.dir:
            shutil.rmtree(folder, ignore_errors=True)
    print_report(figures)
    if args.json:
        print(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
