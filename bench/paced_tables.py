"""掼蛋 tables at a human pace on one ``paiju serve`` node, with their tablets.

One real server (SQLite, the timer on: ``paiju serve --db …`` as ``make run`` starts it) per
level and mode, on a fresh database:

- **T tables** of a Guandan knockout, each with its table app (an official's token: it reads the
  referee's view, ``GET …/matches/{mid}?as=referee``, lets the simulation's bots choose the move
  and posts it) making one move every 1–2 s (uniform: ``T / 1.5`` moves a second wanted);
- **four seat tablets a table**, each subscribed to its match view
  (``GET …/matches/{mid}/subscribe``) with its own player token;
- **ten public boards** subscribed to the tournament's log (``GET …/subscribe``, no token).

After ``--warm-up`` seconds, for ``--seconds`` seconds: moves served ÷ moves wanted; move →
tablet latency (from the moment a table app sends its ``POST`` to the moment each of that
table's four tablets has read the frame of the new view, whose id is the event's position),
p50 and p99; the server's CPU per move (its user + system time over the moves served); its RSS
at the end. Each level runs twice, the second time with the node's live state switched off
(``PAIJU_LIVE_STATE=off``: every read and view folds from the log and its checkpoints, as
before the live state), and prints the CPU per move of both.

Then the length of a match: ``--length-tables`` tables (4) with their tablets play hand 1 at
``--length-pace`` (a move every 0.1–0.2 s a table), go as fast as they can to hand
``--last-hand`` (20), and play it at that pace again: the CPU per move of each of the two hands
(counted while every table is in it: up to the first table's next deal), and their ratio (goal
≤ 1.5); beside them, the same counted on to the last table's deal, idle waits included. Their
matches are set to reset a side failing at A at once (``aFailuresBeforeReset`` 1), so that
they last.

Before the levels and after the length run, the machine's reference: the CPU of a fixed piece
of the rules' work in the bench's own process (:func:`machine_reference`). Runs of the same code
wander here by a third; two runs are compared beside their references.

The subscribers are read by one process, the table apps run in ``--app-processes`` (2) more,
each table on a thread and a connection of its own: the load's cores are the server's
neighbours, as in a hall where the tablets are other machines they would not be. Positions
are checked: every tablet gets every move of its table once (a frame missing is counted).

Reproduce: ``.venv/bin/python bench/paced_tables.py`` from the repository root (all levels,
several minutes); ``--levels 25 --seconds 20`` for a quick look; ``--json`` for the figures.
"""
from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import random
import re
import selectors
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

from rules.guandan.cards import two_decks  # noqa: E402
from rules.guandan.moves import legal_plays  # noqa: E402
from service.deployment import admin_token  # noqa: E402
from service.simulator import guandan_bots  # noqa: E402
from service.simulator.runner import TIMER_EVENTS  # noqa: E402
from service.simulator.server_process import free_port, wait_until_ready  # noqa: E402
from service.tokens import SQLiteTokenRegistry  # noqa: E402

LEVELS = (25, 50, 100, 200)
PACE = (1.0, 2.0)          # seconds between two moves of a table (uniform)
BOARDS = 10                # public boards on the tournament's log
HTTP_TIMEOUT = 60.0
GOAL_CPU_MS = 3.0
GOAL_SERVED = 0.95
GOAL_P99_MS = {100: 100.0, 200: 250.0}
GOAL_LENGTH_RATIO = 1.5
REFERENCE_HANDS = 120      # hands whose legal plays are the machine's reference
_FRAME_ID = re.compile(rb"(?m)^id: (\d+)\r?$")


class BenchError(Exception):
    pass


# --- the server ----------------------------------------------------------------------------

@dataclass
class Server:
    process: subprocess.Popen
    port: int
    db: Path
    admin: str

    def cpu_seconds(self) -> float:
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def rss_mib(self) -> float:
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return 0.0


def start_server(workdir: Path, name: str, live: bool) -> Server:
    """``paiju serve --host 127.0.0.1 --port P --db D`` (timer on), as ``make run`` starts it;
    ``live`` False switches the node's live state off (``PAIJU_LIVE_STATE=off``)."""
    db, port = workdir / f"{name}.db", free_port()
    admin = admin_token(str(db), "bench/paced_tables.py")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        filter(None, [str(REPO_ROOT), os.environ.get("PYTHONPATH")])),
        "PAIJU_LIVE_STATE": "on" if live else "off"}
    with open(workdir / f"{name}.log", "wb") as log:
        process = subprocess.Popen([sys.executable, "-m", "service.cli", "serve", "--host",
                                    "127.0.0.1", "--port", str(port), "--db", str(db)],
                                   cwd=REPO_ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_until_ready(process, port, 60)
    except RuntimeError as error:
        tail = (workdir / f"{name}.log").read_text(errors="replace")[-2000:]
        raise BenchError(f"{error}\n{tail}") from None
    return Server(process, port, db, admin)


def stop_server(server: Server) -> None:
    server.process.terminate()
    try:
        server.process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        server.process.kill()
        server.process.wait()


class Client:
    """One kept-alive JSON connection."""

    def __init__(self, port: int, token: str):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=HTTP_TIMEOUT)
        self.auth = {"Authorization": f"Bearer {token}", "Accept-Language": "en"}

    def call(self, method: str, path: str, body=None) -> tuple[int, object]:
        payload = None if body is None else json.dumps(body).encode()
        headers = {**self.auth, **({"Content-Type": "application/json"} if payload else {})}
        self.conn.request(method, path, body=payload, headers=headers)
        response = self.conn.getresponse()
        raw = response.read()
        return response.status, (json.loads(raw) if raw else None)

    def ok(self, method: str, path: str, body=None) -> object:
        status, answer = self.call(method, path, body)
        if status >= 300:
            raise BenchError(f"{method} {path} → {status}: {answer}")
        return answer

    def close(self) -> None:
        self.conn.close()


def set_up(server: Server, tables: int, settings: dict | None = None) -> tuple[str, list[str]]:
    """A Guandan knockout of ``2 × tables`` teams, its first-round matches started."""
    client = Client(server.port, server.admin)
    try:
        tid = client.ok("POST", "/v1/tournaments", {
            "name": "paced tables", "game": "GD", "format": "knockout",
            # every team drawn in round 1: T matches, no byes (T-2.2)
            "settings": {"match": settings or {}, "byePolicy": "oddGetsBye"}})["id"]
        client.ok("POST", f"/v1/tournaments/{tid}/events", {"events": [
            {"type": "TeamRegistered", "stream": f"tournament-{tid}",
             "data": {"team_id": f"team-{n}", "name": f"Team {n}",
                      "players": [f"player {n}a", f"player {n}b"]}}
            for n in range(1, 2 * tables + 1)]})
        client.ok("POST", f"/v1/tournaments/{tid}/draws", {})
        bracket = client.ok("GET", f"/v1/tournaments/{tid}/bracket")
        mids = [m["match_id"] for m in bracket["rounds"][0]["matches"]]
        for mid in mids:
            client.ok("POST", f"/v1/tournaments/{tid}/matches", {"match_id": mid})
    finally:
        client.close()
    return tid, mids


def seat_tokens(server: Server, tid: str, mids: list[str]) -> dict[str, list[str]]:
    """Each table's four player tokens, made as ``paiju token create --role player`` does."""
    registry = SQLiteTokenRegistry(server.db)
    try:
        return {mid: [registry.create("player", tid, mid, seat, f"seat {seat} of {mid}")[0]
                      for seat in range(4)] for mid in mids}
    finally:
        registry.close()


# --- the subscribers -----------------------------------------------------------------------

def _open(port: int, path: str, token: str | None) -> socket.socket:
    """A subscription's socket, its answer's head read (retried while the node does not know
    the token yet: it was made by another process a moment ago)."""
    auth = f"Authorization: Bearer {token}\r\n" if token else ""
    for _ in range(50):
        sock = socket.create_connection(("127.0.0.1", port), timeout=HTTP_TIMEOUT)
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\n"
                     f"{auth}\r\n".encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = sock.recv(65536)
            if not chunk:
                break
            head += chunk
        if head.startswith(b"HTTP/1.1 200"):
            return sock
        sock.close()
        time.sleep(0.2)
    raise BenchError(f"{path} answered {head[:300]!r}")


def read_streams(port: int, plan: list[tuple[str, str | None]], answer) -> None:
    """In a process of its own: open every subscription of ``plan`` (path, token), say so,
    then read them all until told to stop; send back each one's (position, time read) of its
    frames and its counts of ``overflow`` and ``end``."""
    try:
        socks = [_open(port, path, token) for path, token in plan]
    except Exception as error:  # noqa: BLE001 - said to the parent
        answer.send(("failed", repr(error)))
        return
    answer.send(("open", len(socks)))
    seen: list[list[tuple[int, float]]] = [[] for _ in socks]
    words = [[0, 0] for _ in socks]  # overflow, end
    tails = [b""] * len(socks)
    selector = selectors.DefaultSelector()
    for n, sock in enumerate(socks):
        sock.setblocking(False)
        selector.register(sock, selectors.EVENT_READ, n)
    selector.register(answer, selectors.EVENT_READ, None)
    while True:
        for key, _ in selector.select(timeout=1):
            n = key.data
            if n is None:  # the parent: stop
                answer.recv()
                answer.send(("done", seen, words))
                return
            try:
                chunk = socks[n].recv(262144)
            except BlockingIOError:
                continue
            if not chunk:
                selector.unregister(socks[n])
                continue
            now = time.time()
            buffer = tails[n] + chunk
            cut = buffer.rfind(b"\n\n") + 2
            whole, tails[n] = buffer[:cut], buffer[cut:]
            seen[n].extend((int(p), now) for p in _FRAME_ID.findall(whole))
            words[n][0] += whole.count(b"event: overflow")
            words[n][1] += whole.count(b"event: end")


class Subscribers:
    def __init__(self, port: int, plan: list[tuple[str, str | None]]):
        fork = multiprocessing.get_context("fork")
        self.answer, theirs = fork.Pipe()
        self.process = fork.Process(target=read_streams, args=(port, plan, theirs), daemon=True)
        self.process.start()
        said = self.answer.recv()
        if said[0] != "open":
            raise BenchError(f"the subscribers could not open: {said[1]}")

    def stop(self) -> tuple[list, list]:
        self.answer.send("stop")
        _, seen, words = self.answer.recv()
        self.process.join(timeout=10)
        return seen, words


def plan_of(tid: str, mids: list[str], tokens: dict[str, list[str]],
            boards: int) -> list[tuple[str, str | None]]:
    tablets = [(f"/v1/tournaments/{tid}/matches/{mid}/subscribe", tokens[mid][seat])
               for mid in mids for seat in range(4)]
    return tablets + [(f"/v1/tournaments/{tid}/subscribe", None)] * boards


# --- the table apps ------------------------------------------------------------------------

@dataclass
class Table:
    """One table's app: its moves (position, sent, answered) and how it stopped."""
    mid: str
    moves: list[tuple[int, float, float]] = field(default_factory=list)
    hands: list[tuple[int, float]] = field(default_factory=list)  # (hand, first seen at)
    error: str | None = None
    over: bool = False


def play(port: int, token: str, tid: str, table: Table, rng: random.Random,
         pace: tuple[float, float] | None, until: float,
         stop_at_hand: int | None = None) -> None:
    """Plays ``table`` until ``until`` (a time.time()), a move every ``pace`` seconds (None:
    as fast as it can), or until its hand ``stop_at_hand`` is dealt."""
    client = Client(port, token)
    path = f"/v1/tournaments/{tid}/matches/{table.mid}?as=referee"
    due = time.time() + (rng.uniform(0, pace[1]) if pace else 0)
    try:
        while time.time() < until:
            if pace:
                time.sleep(max(0.0, due - time.time()))
            view = client.ok("GET", path)
            hand = (view["current_hand"] or {}).get("hand")
            if hand is not None and (not table.hands or table.hands[-1][0] != hand):
                table.hands.append((hand, time.time()))
            if stop_at_hand is not None and hand == stop_at_hand:
                return
            action = guandan_bots.next_action(view, rng, seconds_per_move=0)
            if action is None:
                table.over = True
                return
            if action[0] in TIMER_EVENTS:  # the server's timer posts it
                time.sleep(0.1)
                continue
            sent = time.time()
            status, answer = client.call("POST", f"/v1/tournaments/{tid}/events", {
                "type": action[0], "stream": view["stream"], "data": action[1]})
            if status == 422:  # the timer moved the table on meanwhile: decide again
                continue
            if status != 201:
                raise BenchError(f"POST {action[0]} → {status}: {answer}")
            table.moves.append((answer["position"], sent, time.time()))
            if pace:
                due = max(due + rng.uniform(*pace), time.time() - pace[1])
    except Exception as error:  # noqa: BLE001 - reported with the figures
        table.error = repr(error)
    finally:
        client.close()


def run_apps(port: int, token: str, tid: str, mids: list[str], seed: int,
             pace: tuple[float, float] | None, until: float, answer,
             stop_at_hand: int | None = None) -> None:
    """In a process of its own: each table of ``mids`` on a thread; send back the tables."""
    tables = [Table(mid) for mid in mids]
    threads = [threading.Thread(target=play, args=(port, token, tid, t,
                                                   random.Random(f"{seed}/{t.mid}"), pace,
                                                   until, stop_at_hand))
               for t in tables]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    answer.send(tables)


def apps(server: Server, tid: str, mids: list[str], processes: int, seed: int,
         pace: tuple[float, float] | None, until: float,
         stop_at_hand: int | None = None) -> list:
    fork = multiprocessing.get_context("fork")
    running = []
    for n in range(processes):
        share = mids[n::processes]
        if not share:
            continue
        mine, theirs = fork.Pipe()
        process = fork.Process(target=run_apps, args=(server.port, server.admin, tid, share,
                                                      seed, pace, until, theirs, stop_at_hand),
                               daemon=True)
        process.start()
        running.append((process, mine))
    return running


def collect(running: list) -> list[Table]:
    tables = []
    for process, mine in running:
        tables.extend(mine.recv())
        process.join(timeout=10)
    return tables


# --- one level -----------------------------------------------------------------------------

def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


def run_level(workdir: Path, tables: int, live: bool, args) -> dict:
    server = start_server(workdir, f"t{tables}-{'live' if live else 'folds'}", live)
    try:
        tid, mids = set_up(server, tables)
        tokens = seat_tokens(server, tid, mids)
        subscribers = Subscribers(server.port, plan_of(tid, mids, tokens, args.boards))
        begin = time.time()
        start, end = begin + args.warm_up, begin + args.warm_up + args.seconds
        running = apps(server, tid, mids, args.app_processes, args.seed, PACE, end)
        time.sleep(max(0.0, start - time.time()))
        cpu_start = server.cpu_seconds()
        time.sleep(max(0.0, end - time.time()))
        cpu_end, rss = server.cpu_seconds(), server.rss_mib()
        played = collect(running)
        seen, words = subscribers.stop()
    finally:
        stop_server(server)
    return figures(tables, mids, played, seen, words, start, end, cpu_end - cpu_start, rss)


def figures(tables: int, mids: list[str], played: list[Table], seen: list, words: list,
            start: float, end: float, cpu: float, rss: float) -> dict:
    errors = [t.error for t in played if t.error]
    served = [m for t in played for m in t.moves if start <= m[2] < end]
    read = {}  # (table, seat) -> position -> time read
    for n, frames in enumerate(seen[:4 * len(mids)]):
        read[(mids[n // 4], n % 4)] = dict(frames)
    latencies, missing = [], 0
    for t in played:
        for position, sent, _ in t.moves:
            if not start <= sent < end:
                continue
            for seat in range(4):
                at = read[(t.mid, seat)].get(position)
                if at is None:
                    missing += 1
                else:
                    latencies.append(1000 * (at - sent))
    seconds = end - start
    wanted = tables / statistics.mean(PACE) * seconds
    answered = [1000 * (done - sent) for _, sent, done in served]
    return {"tables": tables, "wanted_per_s": wanted / seconds,
            "served_per_s": len(served) / seconds, "served_share": len(served) / wanted,
            "p50_ms": percentile(latencies, 0.5), "p99_ms": percentile(latencies, 0.99),
            "post_p50_ms": percentile(answered, 0.5), "post_p99_ms": percentile(answered, 0.99),
            "deliveries": len(latencies), "frames_missing": missing,
            "cpu_ms_per_move": 1000 * cpu / max(1, len(served)), "rss_mib": rss,
            "overflows": sum(w[0] for w in words), "ends": sum(w[1] for w in words),
            "board_frames": sum(len(f) for f in seen[4 * len(mids):]),
            "errors": errors[:3], "tables_failed": len(errors)}


# --- the length of a match -----------------------------------------------------------------

def run_length(workdir: Path, args) -> dict:
    """CPU per move in hand 1 and in hand ``--last-hand`` of the same matches."""
    server = start_server(workdir, "length", True)
    pace = (args.length_pace, 2 * args.length_pace)
    try:
        tid, mids = set_up(server, args.length_tables, {"aFailuresBeforeReset": 1})
        tokens = seat_tokens(server, tid, mids)
        subscribers = Subscribers(server.port, plan_of(tid, mids, tokens, args.boards))
        first = measured_hand(server, tid, mids, args, pace, 2)
        # as fast as the bots go, to the deal of the last hand
        collect(apps(server, tid, mids, args.app_processes, args.seed + 1, None,
                     time.time() + args.length_time_limit, args.last_hand))
        last = measured_hand(server, tid, mids, args, pace, args.last_hand + 1)
        _, words = subscribers.stop()
    finally:
        stop_server(server)
    return {"tables": len(mids), "first": first, "last": last,
            "ratio": last["cpu_ms_per_move"] / first["cpu_ms_per_move"],
            "ratio_to_last_deal": last["cpu_ms_per_move_to_last_deal"]
            / first["cpu_ms_per_move_to_last_deal"],
            "overflows": sum(w[0] for w in words)}


def measured_hand(server: Server, tid: str, mids: list[str], args, pace, next_hand: int) -> dict:
    """Every table plays at ``pace`` until it deals ``next_hand`` (then waits for the others).
    The CPU per move is counted while every table is in the hand: from the start to the first
    table's deal of ``next_hand`` (the server's CPU read every 0.1 s), the moves answered by
    then. Counted on to the last table's deal (``..._to_last_deal``), the node's cost of its
    idle tablets and boards while the tables that finished wait for the others weighs on the
    moves as well: that share depends on how unequal the tables' hands are, not on the hand."""
    readings: list[tuple[float, float]] = []
    stop = threading.Event()

    def read_cpu():
        while not stop.is_set():
            readings.append((time.time(), server.cpu_seconds()))
            stop.wait(0.1)

    reader = threading.Thread(target=read_cpu, daemon=True)
    reader.start()
    try:
        tables = collect(apps(server, tid, mids, args.app_processes, args.seed + next_hand, pace,
                              time.time() + args.length_time_limit, next_hand))
    finally:
        stop.set()
        reader.join()
    readings.append((time.time(), server.cpu_seconds()))
    dealt = [t for table in tables for hand, t in table.hands if hand == next_hand]
    first_deal = min(dealt, default=readings[-1][0])
    moves = [m for t in tables for m in t.moves]
    within = [m for m in moves if m[2] <= first_deal]
    return {"hand": next_hand - 1, "moves": len(within),
            "cpu_ms_per_move": 1000 * (_cpu_at(readings, first_deal) - readings[0][1])
            / max(1, len(within)),
            "moves_to_last_deal": len(moves),
            "cpu_ms_per_move_to_last_deal": 1000 * (readings[-1][1] - readings[0][1])
            / max(1, len(moves)),
            "errors": [t.error for t in tables if t.error][:3]}


def _cpu_at(readings: list[tuple[float, float]], when: float) -> float:
    """The server's CPU seconds at ``when``, from the reading just after it (at most 0.1 s)."""
    return next((cpu for at, cpu in readings if at >= when), readings[-1][1])


# --- the report ----------------------------------------------------------------------------

def machine_reference() -> float:
    """CPU milliseconds of a fixed piece of the rules' own work, in this process: every legal
    play of ``REFERENCE_HANDS`` hands dealt from a seeded pack, as the bots list them (pure
    Python, as the node's work is). How fast the machine ran at that moment: here the same
    code's CPU per move wandered by a third from one run to the next, so a run is compared
    with another beside their references (docs/benchmarks.md). The best of three: the first
    pays for what the rules remember between calls."""
    def once() -> float:
        rng, pack = random.Random(7), sorted(two_decks().elements())
        started = time.process_time()
        for _ in range(REFERENCE_HANDS):
            rng.shuffle(pack)
            for _ in legal_plays(pack[:27], "2"):
                pass
        return 1000 * (time.process_time() - started)
    return min(once() for _ in range(3))


def report(levels: list[dict], length: dict | None) -> str:
    lines = ["tables  wanted/s  served/s  served÷wanted  move→tablet p50/p99 ms  "
             "POST p50/p99 ms  CPU ms/move (live state off)  RSS MiB  missing  overflow"]
    for on, off in levels:
        goal = GOAL_P99_MS.get(on["tables"])
        lines.append(
            f"{on['tables']:6d}  {on['wanted_per_s']:8.1f}  {on['served_per_s']:8.1f}  "
            f"{on['served_share']:13.2f}  {on['p50_ms']:10.1f} / {on['p99_ms']:6.1f}  "
            f"{on['post_p50_ms']:6.1f} / {on['post_p99_ms']:6.1f}  "
            f"{on['cpu_ms_per_move']:11.2f} ({off['cpu_ms_per_move']:6.2f})        "
            f"{on['rss_mib']:7.0f}  {on['frames_missing']:7d}  {on['overflows']:8d}"
            + (f"   goal p99 ≤ {goal:.0f}" if goal else ""))
        for mode, f in (("live", on), ("off", off)):
            if f["errors"]:
                lines.append(f"        {mode}: {f['tables_failed']} tables failed: "
                             f"{f['errors'][0]}")
    lines.append(f"goals: served ≥ {GOAL_SERVED:.0%} of wanted, CPU per move ≤ "
                 f"{GOAL_CPU_MS:.0f} ms")
    if length:
        lines.append(
            f"match length ({length['tables']} tables): CPU per move in hand "
            f"{length['first']['hand']} {length['first']['cpu_ms_per_move']:.2f} ms "
            f"({length['first']['moves']} moves), in hand {length['last']['hand']} "
            f"{length['last']['cpu_ms_per_move']:.2f} ms ({length['last']['moves']} moves): "
            f"{length['ratio']:.2f}× (goal ≤ {GOAL_LENGTH_RATIO}); counted on to the last "
            f"table's deal: {length['first']['cpu_ms_per_move_to_last_deal']:.2f} and "
            f"{length['last']['cpu_ms_per_move_to_last_deal']:.2f} ms, "
            f"{length['ratio_to_last_deal']:.2f}×")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", default=",".join(map(str, LEVELS)),
                        help="table counts, comma-separated (default 25,50,100,200)")
    parser.add_argument("--seconds", type=float, default=60, help="measured, each level")
    parser.add_argument("--warm-up", type=float, default=15)
    parser.add_argument("--boards", type=int, default=BOARDS)
    parser.add_argument("--app-processes", type=int, default=2)
    parser.add_argument("--no-compare", action="store_true",
                        help="skip the runs with the live state off")
    parser.add_argument("--length-tables", type=int, default=4, help="0: skip the length run")
    parser.add_argument("--length-pace", type=float, default=0.1)
    parser.add_argument("--last-hand", type=int, default=20)
    parser.add_argument("--length-time-limit", type=float, default=900)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    levels = []
    reference = [machine_reference()]
    with tempfile.TemporaryDirectory(prefix="paiju-paced-") as folder:
        for tables in (int(t) for t in args.levels.split(",") if t.strip()):
            on = run_level(Path(folder), tables, True, args)
            off = on if args.no_compare else run_level(Path(folder), tables, False, args)
            levels.append((on, off))
            if not args.json:
                print(report([(on, off)], None).splitlines()[1], flush=True)
        length = run_length(Path(folder), args) if args.length_tables else None
    reference.append(machine_reference())
    if args.json:
        print(json.dumps({"levels": [{"live": on, "live_state_off": off} for on, off in levels],
                          "length": length, "machine_reference_ms": reference}, indent=2))
    else:
        print(report(levels, length))
        print(f"machine reference (CPU of the legal plays of {REFERENCE_HANDS} dealt hands, in "
              f"the bench's process, best of 3): {reference[0]:.0f} ms before the levels, "
              f"{reference[1]:.0f} ms after")
    return 0


if __name__ == "__main__":
    sys.exit(main())
