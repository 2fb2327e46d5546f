"""Subscribers held by one ``paiju serve`` node while 16 clients append: how many of a room's
live screens one node can hold.

One real server (SQLite, the timer on, as ``make run`` starts it) and, in one run:

(a) 16 clients posting validated single events (``TeamRegistered``, as bench/append.py (d))
    with nobody subscribed: the reference;
(b) the same load while the node holds ``--subscribers`` (1,000) subscriptions: ``--live`` of
    them (16) follow the tournament being appended to and receive every event — the commit →
    received latency is measured on them, from the event's ``recorded_at`` to the moment its
    frame is read, by one reading loop in a process of its own — and the rest are idle, each following a table of another tournament (a
    tablet of another hall), open and heartbeating but with nothing to receive.

(a) and (b) run one after the other in ``--rounds`` (3) rounds on the same server, the subscribers
closed between rounds; each throughput is the rounds' median, and (b)/(a) the median of each
round's own ratio (the machine's speed drifts between rounds more than within one).

It prints (b)'s throughput ÷ (a)'s (goal ≥ 0.8), the latency p50 and p99 (goal p99 < 100 ms),
and the server's memory per idle subscriber (its RSS with them open, less its RSS before,
over their count).

Reproduce: ``python bench/live.py`` from the repository root (``make bench`` runs it too).
"""
from __future__ import annotations

import argparse
import json
import multiprocessing
import selectors
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import append  # noqa: E402  (bench/append.py: the server, the clients, the figures)

from rules.match_clock import moment  # noqa: E402

GOAL_RATIO = 0.8
GOAL_P99_MS = 100.0
OTHER_HALLS = 50  # the idle subscribers follow the tournaments of this many other halls


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise append.BenchError("no VmRSS in /proc")


def open_subscription(port: int, path: str) -> socket.socket:
    """A subscriber's connection, its request sent and its answer's first bytes read."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=append.HTTP_TIMEOUT)
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\n"
                 f"Authorization: {append.AUTH['Authorization']}\r\n\r\n".encode())
    head = sock.recv(4096)
    if not head.startswith(b"HTTP/1.1 200"):
        raise append.BenchError(f"{path} answered {head[:200]!r}")
    return sock


class LiveSubscriber:
    """One live subscription: what it read, with the time it read it, then each event's
    latency, now − its recorded_at. All live subscriptions are read by one loop in a process
    of their own (``read_live``), as a real subscriber is another program: threads in this one
    would fight the clients for its GIL and add their waits to the latencies. Nothing is parsed
    while the load runs: that would load the cores the server is measured on."""

    def __init__(self, sock: socket.socket, expected: int):
        self.sock, self.expected = sock, expected
        self.received: list[tuple[float, bytes]] = []
        self.latencies: list[float] = []
        self.ids: list[int] = []  # checked: each event once, in order
        self.error: str | None = None

    def parse(self) -> None:
        """The frames read, each event's latency from the moment its last byte was read."""
        buffer = b""
        for now, chunk in self.received:
            buffer += chunk
            *frames, buffer = buffer.split(b"\n\n")
            for frame in frames:
                for line in frame.split(b"\n"):
                    if line.startswith(b"id: "):
                        self.ids.append(int(line[4:]))
                    if line.startswith(b"data: {"):
                        recorded = json.loads(line[6:])["recorded_at"]
                        self.latencies.append(now - moment(recorded).timestamp())


def read_live(socks: list[socket.socket], expected: int, time_limit: float, answer) -> None:
    """In a process of its own: read every socket until each has ``expected`` events; send back
    each socket's (time read, bytes) and its error, if any."""
    received: list[list[tuple[float, bytes]]] = [[] for _ in socks]
    counts, tails, errors = [0] * len(socks), [b""] * len(socks), [None] * len(socks)
    selector = selectors.DefaultSelector()
    for n, sock in enumerate(socks):
        sock.setblocking(False)
        selector.register(sock, selectors.EVENT_READ, n)
    deadline = time.monotonic() + time_limit
    while selector.get_map() and time.monotonic() < deadline:
        for key, _ in selector.select(timeout=1):
            n = key.data
            chunk = socks[n].recv(65536)
            if not chunk:
                errors[n] = "a live subscription ended early"
                selector.unregister(socks[n])
                continue
            received[n].append((time.time(), chunk))
            # each frame's "\nid: " (after a chunk's size line), counted once even when split
            # between two reads: the 4 bytes before hold none of it whole
            counts[n] += (tails[n] + chunk).count(b"\nid: ")
            tails[n] = chunk[-4:]
            if counts[n] >= expected:
                selector.unregister(socks[n])
    answer.send((received, errors))
    answer.close()


def follow(followers: list[LiveSubscriber], time_limit: float):
    """Start reading the followers' sockets in another process: (it, the end of the pipe its
    answer comes by), for ``collect``."""
    fork = multiprocessing.get_context("fork")
    answer, theirs = fork.Pipe()
    process = fork.Process(target=read_live, args=([f.sock for f in followers],
                                                   followers[0].expected, time_limit, theirs),
                           daemon=True)
    process.start()
    return process, answer


def collect(reader, followers: list[LiveSubscriber], time_limit: float) -> None:
    process, answer = reader
    if not answer.poll(time_limit):
        raise append.BenchError("the live subscribers' reader did not finish")
    received, errors = answer.recv()
    process.join(timeout=10)
    for f, got, error in zip(followers, received, errors):
        f.received, f.error = got, error
        f.parse()


def create(port: int, tid: str) -> None:
    conn = append.http.client.HTTPConnection("127.0.0.1", port, timeout=append.HTTP_TIMEOUT)
    status, body = append.request(conn, "POST", "/v1/tournaments",
                                  {"tournament_id": tid, "name": tid, "game": "SJ2",
                                   "format": "knockout"})
    conn.close()
    if status != 201:
        raise append.BenchError(f"creating {tid}: {status} {body[:200]!r}")


def run(workdir: Path, events: int, clients: int, subscribers: int, live: int,
        time_limit: float, rounds: int) -> dict:
    db, port, log = workdir / "live.db", append.free_port(), workdir / "live.log"
    server = append.start_server(db, port, log, 512)
    try:
        append.wait_until_healthy(server, port, log)
        halls = [f"hall-{n}" for n in range(OTHER_HALLS)]
        for tid in halls:
            create(port, tid)
        figures = [one_round(server, port, halls, events, clients, subscribers, live, time_limit)
                   for _ in range(rounds)]
    finally:
        append.stop_server(server)
    latencies = sorted(x for f in figures for x in f["latencies"])
    rates = {part: [f[part] for f in figures] for part in ("quiet", "loaded")}
    return {"quiet_events_per_s": statistics.median(rates["quiet"]),
            "loaded_events_per_s": statistics.median(rates["loaded"]),
            "ratio": append.round_by_round(rates, "loaded", "quiet"),
            "round_ratios": sorted(round(f["loaded"] / f["quiet"], 3) for f in figures),
            "latency_p50_ms": 1000 * latencies[len(latencies) // 2],
            "latency_p99_ms": 1000 * latencies[int(len(latencies) * 0.99)],
            "deliveries": len(latencies), "subscribers": subscribers, "live": live,
            "kib_per_idle_subscriber": figures[0]["kib_per_idle"], "rounds": rounds,
            "events_per_read": len(latencies) / sum(f["reads"] for f in figures)}


def one_round(server, port: int, halls: list[str], events: int, clients: int,
              subscribers: int, live: int, time_limit: float) -> dict:
    """(a), then (b) right after it: the machine's speed drifts far more between runs than
    between the two halves of one round."""
    quiet = append.run_clients([port], append.create_tournament(port), events, clients,
                               time_limit, False)
    before = rss_kib(server.pid)
    idle = [open_subscription(port, f"/v1/tournaments/{halls[n % OTHER_HALLS]}/subscribe"
                                    f"?type=ResultRecorded")
            for n in range(subscribers - live)]
    time.sleep(1)  # every idle stream has had its opening
    per_idle = (rss_kib(server.pid) - before) / max(1, len(idle))
    tid = append.create_tournament(port)
    followers = [LiveSubscriber(open_subscription(
        port, f"/v1/tournaments/{tid}/subscribe?type=TeamRegistered"), events)
        for _ in range(live)]
    reader = follow(followers, time_limit)
    loaded = append.run_clients([port], tid, events, clients, time_limit, False)
    collect(reader, followers, time_limit)
    failed = [f.error or "not every event once, in order" for f in followers
              if f.error or len(f.latencies) < events or f.ids != sorted(set(f.ids))]
    if failed:
        raise append.BenchError(f"{len(failed)} live subscribers failed: {failed[0]}")
    for sock in idle + [f.sock for f in followers]:
        sock.close()
    time.sleep(2)  # the node lets the closed streams go before the next round's (a)
    return {"quiet": quiet["events_per_s"], "loaded": loaded["events_per_s"],
            "latencies": [x for f in followers for x in f.latencies],
            "reads": sum(len(f.received) for f in followers),
            "kib_per_idle": per_idle}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=4000)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--subscribers", type=int, default=1000)
    parser.add_argument("--live", type=int, default=16)
    parser.add_argument("--time-limit", type=float, default=300)
    parser.add_argument("--rounds", type=int, default=3,
                        help="(a) then (b), this many times; each figure is the rounds' median")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        result = run(Path(folder), args.events, args.clients, args.subscribers, args.live,
                     args.time_limit, args.rounds)
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"(a) {args.clients} clients, nobody subscribed:       "
          f"{result['quiet_events_per_s']:8.0f} events/s")
    print(f"(b) the same with {args.subscribers} subscribers ({args.live} live): "
          f"{result['loaded_events_per_s']:8.0f} events/s   (b)/(a) = {result['ratio']:.2f}"
          f"   (goal >= {GOAL_RATIO})")
    print(f"    (b)/(a) of each round, in order of size: "
          f"{', '.join(f'{r:.2f}' for r in result['round_ratios'])}")
    print(f"    commit -> received, {result['deliveries']} deliveries: "
          f"p50 {result['latency_p50_ms']:.1f} ms, p99 {result['latency_p99_ms']:.1f} ms"
          f"   (goal p99 < {GOAL_P99_MS:.0f} ms)")
    print(f"    a live subscriber's socket gave {result['events_per_read']:.1f} events a read")
    print(f"    memory per idle subscriber: {result['kib_per_idle_subscriber']:.1f} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
