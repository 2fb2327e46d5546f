"""Three ``paiju serve`` nodes on one PostgreSQL database, as a deployment runs them: real
processes (the timer on in each, as ``make run`` starts it), real HTTP with a keep-alive
connection per client, and a node killed with SIGKILL while it works (tests/pg_nodes.py).

* conflicting writers to one stream, spread over the nodes and released together, each with
  the same ``expected_version``: exactly one 201 each time, every other a 409 naming the
  stream's current version;
* 16 clients posting over the three nodes while one of them is killed: whatever was
  acknowledged is in the log as acknowledged, the chains verify, the two others go on;
* a deadline pending while the node holding the timer's lease is killed fires once, on
  another node, after the dead node's lease has expired.
"""
from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter, defaultdict
from datetime import timedelta

from mj_table import PLAYERS, TABLE, deal_tiles
from pg_nodes import (
    CONNECTION_ERRORS,
    ROOT,
    Client,
    Node,
    admin_token,
    cluster,
    lease,
    poll,
    running,
)

from events.postgres_store import PostgresEventStore
from projections.deadlines import TIMER_ACTOR, TIMER_IDS
from rules.match_clock import moment, timestamp


def create_tournament(client: Client, tid: str, game: str = "SJ2", fmt: str = "knockout",
                      settings: dict | None = None) -> None:
    client.ok("POST", "/v1/tournaments", {
        "tournament_id": tid, "name": f"{tid} 测试", "game": game, "format": fmt,
        "settings": settings or {}})


def team(tid: str, team_id: str, **extra) -> dict:
    return {"type": "TeamRegistered", "stream": f"tournament-{tid}",
            "data": {"team_id": team_id, "name": f"队 {team_id}",
                     "players": [f"甲{team_id}", f"乙{team_id}"]},
            **extra}


def events_path(tid: str) -> str:
    return f"/v1/tournaments/{tid}/events"


def run_threads(targets) -> None:
    """Run each callable in a thread of its own and wait for all; re-raise the first error."""
    errors: list[BaseException] = []

    def guarded(target):
        try:
            target()
        except BaseException as error:  # noqa: BLE001 - reported below, in the test's thread
            errors.append(error)

    threads = [threading.Thread(target=guarded, args=(t,), daemon=True) for t in targets]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
        assert not thread.is_alive(), "a client thread did not finish"
    if errors:
        raise errors[0]


# --- 1. optimistic concurrency across nodes ------------------------------------------------------

WRITERS_PER_NODE = 4
ROUNDS = 5


def test_conflicting_writers_on_three_nodes_exactly_one_wins_each_round(postgres_url, tmp_path):
    """Twelve writers, four per node, released together by a barrier, each posting a team to
    the one tournament stream with the same ``expected_version``: in every round exactly one
    201 and eleven 409s with the version the winner made — the losers on every node, so the
    conflict is seen across processes, not only inside one."""
    token = admin_token(postgres_url)
    tid = "conflict"
    with cluster(postgres_url, 3, tmp_path) as nodes:
        create_tournament(Client(nodes[0].port, token), tid)
        writers = [(n, w) for n in range(len(nodes)) for w in range(WRITERS_PER_NODE)]
        barrier = threading.Barrier(len(writers))
        answers: dict[int, list[tuple[int, int, dict]]] = defaultdict(list)  # round -> answers
        lock = threading.Lock()

        def writer(node: int, w: int) -> None:
            client = Client(nodes[node].port, token)
            client.ok("GET", f"/v1/tournaments/{tid}")  # the keep-alive connection, opened now
            try:
                for r in range(ROUNDS):
                    body = team(tid, f"r{r}-n{node}-w{w}", expected_version=1 + r)
                    barrier.wait(timeout=30)
                    status, answer = client.post(events_path(tid), body)
                    with lock:
                        answers[r].append((node, status, answer))
            except BaseException:
                barrier.abort()
                raise
            finally:
                client.close()

        run_threads([lambda n=n, w=w: writer(n, w) for n, w in writers])

        for r in range(ROUNDS):
            statuses = Counter(status for _, status, _ in answers[r])
            assert statuses == {201: 1, 409: len(writers) - 1}, (r, answers[r])
            [(_, _, won)] = [a for a in answers[r] if a[1] == 201]
            assert won["version"] == 2 + r
            losers = [(node, body) for node, status, body in answers[r] if status == 409]
            for node, problem in losers:
                assert problem["type"] == "urn:paiju:problem:version-conflict", problem
                assert problem["stream"] == f"tournament-{tid}"
                assert (problem["expected_version"], problem["current_version"]) == (1 + r, 2 + r)
            assert {node for node, _ in losers} == {0, 1, 2}

        # nothing of any loser was stored: the stream is the creation and one team a round
        stream = Client(nodes[2].port, token).ok(
            "GET", f"/v1/tournaments/{tid}/streams/tournament-{tid}")
        assert stream["version"] == 1 + ROUNDS
        assert [e["version"] for e in stream["events"]] == list(range(1, 2 + ROUNDS))

        # the same team entered on every node at once, no expected_version: each node judges
        # it on the log as it is under the tournament's lock (not on its own cached state), so
        # one is registered and the others are refused by T-1.3
        barrier = threading.Barrier(len(writers))
        entries: list[tuple[int, int, dict]] = []

        def entrant(node: int) -> None:
            client = Client(nodes[node].port, token)
            client.ok("GET", f"/v1/tournaments/{tid}")
            barrier.wait(timeout=30)
            status, answer = client.post(events_path(tid), team(tid, "same-team"))
            with lock:
                entries.append((node, status, answer))
            client.close()

        run_threads([lambda n=n: entrant(n) for n, _ in writers])
        assert Counter(status for _, status, _ in entries) == {201: 1, 422: len(writers) - 1}, \
            entries
        assert {answer["rule"] for _, status, answer in entries if status == 422} == {"T-1.3"}
        assert {node for node, status, _ in entries if status == 422} == {0, 1, 2}


# --- 2. a node killed under load -----------------------------------------------------------------

CLIENTS = 16
EVENTS_EACH = 40
TOURNAMENTS = 4
KILL_AFTER = CLIENTS * EVENTS_EACH // 3   # acknowledged events before the SIGKILL
VICTIM = 1                                # the node killed


def test_a_node_killed_under_load_loses_nothing_acknowledged(postgres_url, tmp_path):
    """16 clients, spread over three nodes and four tournaments, each post 40 teams one by one
    (ids chosen by the client). After a third of them are acknowledged, one node is killed with
    SIGKILL while its clients are mid-post: they see connection errors (counted, not failed on)
    and post the same event, same id, to a surviving node, which takes it as new (201) or as the
    retry of one the dead node had committed (200). Afterwards every acknowledged event is in
    the log at the position and with the hash it was acknowledged with, each event once, every
    chain verifies (``paiju verify``), and the two surviving nodes kept accepting."""
    token = admin_token(postgres_url)
    tids = [f"load-{k}" for k in range(TOURNAMENTS)]
    with cluster(postgres_url, 3, tmp_path) as nodes:
        for k, tid in enumerate(tids):
            create_tournament(Client(nodes[k % 3].port, token), tid)
        lock = threading.Lock()
        acked: dict[str, dict] = {}            # event id -> the stored envelope acknowledged
        statuses: Counter = Counter()          # (node, status) of every answer
        errors_by_node: Counter = Counter()    # connection errors met, by the node posted to
        after_kill = Counter()                 # 201s from posts sent after the kill, by node
        unexpected: list = []
        enough = threading.Event()              # KILL_AFTER events acknowledged: kill now
        killed = threading.Event()

        survivors = [n for n in range(3) if n != VICTIM]

        def client(c: int) -> None:
            node = c % 3
            tid = tids[c % TOURNAMENTS]
            http = Client(nodes[node].port, token)
            try:
                for k in range(EVENTS_EACH):
                    body = team(tid, f"c{c}-e{k}", id=str(uuid.uuid4()))
                    for _attempt in range(5):
                        sent_after_kill = killed.is_set()
                        try:
                            status, answer = http.post(events_path(tid), body)
                        except CONNECTION_ERRORS:
                            with lock:
                                errors_by_node[node] += 1
                            http.close()
                            if node == VICTIM:  # it is being killed: go on at a survivor
                                assert killed.wait(timeout=10), "connection errors before the kill"
                                node = survivors[c % 2]
                                http = Client(nodes[node].port, token)
                            else:
                                time.sleep(0.05)
                            continue
                        break
                    else:
                        with lock:
                            unexpected.append((c, k, "no answer after 5 attempts"))
                        continue
                    with lock:
                        statuses[node, status] += 1
                        if status in (200, 201) and answer["id"] == body["id"]:
                            acked[body["id"]] = answer
                            if status == 201 and sent_after_kill:
                                after_kill[node] += 1
                            if len(acked) >= KILL_AFTER:
                                enough.set()
                        else:
                            unexpected.append((c, k, node, status, answer))
            finally:
                http.close()

        def killer() -> None:
            assert enough.wait(timeout=60), "the load never reached the kill point"
            nodes[VICTIM].kill()
            killed.set()

        started = time.monotonic()
        run_threads([killer] + [lambda c=c: client(c) for c in range(CLIENTS)])
        elapsed = time.monotonic() - started

        assert not unexpected, unexpected[:5]
        assert not nodes[VICTIM].alive()
        assert all(nodes[n].alive() for n in range(3) if n != VICTIM)
        assert len(acked) == CLIENTS * EVENTS_EACH
        # only the killed node's clients met connection errors; the survivors answered every post
        assert set(errors_by_node) <= {VICTIM}, errors_by_node
        # the survivors kept accepting: many new events each, after the kill
        assert all(after_kill[n] >= 20 for n in survivors), after_kill
        print(f"\n{len(acked)} events in {elapsed:.1f} s; answers {dict(statuses)}; "
              f"connection errors {dict(errors_by_node)}; 201s after the kill {dict(after_kill)}")

        # every acknowledged event is in the log as acknowledged; nothing else was stored
        store = PostgresEventStore(postgres_url, pool_size=2)
        try:
            for event_id, envelope in acked.items():
                record = store.get(event_id)
                assert record is not None, f"acknowledged event {event_id} is not in the log"
                assert (record.position, record.hash, record.tournament_id) == \
                    (envelope["position"], envelope["hash"], envelope["tournament_id"])
            logged = [r for tid in tids for r in store.read_tournament(tid)]
            teams = [r for r in logged if r.type == "TeamRegistered"]
            assert sorted(r.id for r in teams) == sorted(acked)
            assert len({(r.tournament_id, json.loads(r.data)["team_id"]) for r in teams}) \
                == len(teams)
            positions = sorted(r.position for r in logged)
            assert positions == list(range(1, len(logged) + 1))  # no gap, no position twice
        finally:
            store.close()

        verified = subprocess.run([sys.executable, "-m", "service.cli", "verify",
                                   "--db", postgres_url], cwd=ROOT, capture_output=True,
                                  text=True, timeout=60)
        assert verified.returncode == 0, verified.stdout + verified.stderr
        assert verified.stdout.count(": ok,") == TOURNAMENTS, verified.stdout

        # and they still accept after the load
        for n in survivors:
            status, _ = Client(nodes[n].port, token).post(events_path(tids[0]),
                                                          team(tids[0], f"late-{n}"))
            assert status == 201


# --- 3. the timer's lease holder killed with a deadline pending ---------------------------------

CLAIM_WINDOW_SECONDS = 5
LEASE_TAKEOVER_SECONDS = 30  # lease 10 s + a follow of 1 s + a margin for a slow machine


def test_a_deadline_pending_when_the_lease_holder_is_killed_fires_once_on_another_node(
        postgres_url, tmp_path):
    """Node A starts alone and takes the timer's lease; B and C start after it. An MJO table's
    claim window (5 s, the next seat having passed) opens; A is killed at once, before the
    window closes. The window's ClaimWindowClosed is appended once — by the timer, with the id
    derived from the deadline — after A died and after A's lease expired, and the lease is then
    another node's."""
    token = admin_token(postgres_url)
    nodes: list[Node] = []
    with running(nodes, postgres_url):
        nodes.append(Node(postgres_url, "A", tmp_path))
        a = nodes[0]
        a.wait_ready()
        holder_a = poll(lambda: lease(postgres_url), 10, "node A takes the timer's lease")[0]
        nodes += [Node(postgres_url, "B", tmp_path), Node(postgres_url, "C", tmp_path)]
        for node in nodes[1:]:
            node.wait_ready()
        b, c = (Client(node.port, token) for node in nodes[1:])

        tid = "mjo-lease"
        stream = f"match-{tid}:{TABLE}"
        create_tournament(b, tid, "MJO", "groups",
                          {"match": {"claimWindowSeconds": CLAIM_WINDOW_SECONDS}})
        c.ok("POST", events_path(tid), {"events": [
            {"type": "TeamRegistered", "stream": f"tournament-{tid}",
             "data": {"team_id": t, "name": name, "players": [name]}} for t, name in PLAYERS]})
        b.ok("POST", events_path(tid), {
            "type": "LotsDrawn", "stream": f"tournament-{tid}",
            "data": {"purpose": "tables", "round": 1,
                     "tables": [{"match_id": TABLE, "players": [t for t, _ in PLAYERS]}]}})
        c.ok("POST", f"/v1/tournaments/{tid}/matches", {"match_id": TABLE})

        def play(client: Client, event_type: str, **data) -> dict:
            return client.ok("POST", events_path(tid), {
                "type": event_type, "stream": stream, "data": {"hand": 1, **data}})

        play(b, "TilesDealt", **deal_tiles({0: "N"}))
        discarded = play(c, "TileDiscarded", seat=0, tile="N")
        # seat 1 passes its chow: the window lasts claimWindowSeconds from the discard
        play(b, "ClaimPassed", seat=1)
        assert lease(postgres_url)[0] == holder_a, "A no longer holds the lease"
        a.kill()
        died = a.killed_at
        due = moment(discarded["recorded_at"]) + timedelta(seconds=CLAIM_WINDOW_SECONDS)
        assert died < due.timestamp(), "A was killed only after the deadline"
        expires_a = moment(lease(postgres_url)[1])  # A's last renewal (or a later one)

        store = PostgresEventStore(postgres_url, pool_size=2)
        try:
            def closings():
                return [r for r in store.read_stream(stream) if r.type == "ClaimWindowClosed"]

            assert closings() == []
            [closed] = poll(closings, LEASE_TAKEOVER_SECONDS,
                            "the claim window's deadline fires on another node", every=0.2)
            meta = json.loads(closed.meta)
            assert (meta["actor"], meta["role"]) == (TIMER_ACTOR, "system")
            assert meta["deadline"] == timestamp(due)
            assert closed.id == str(uuid.uuid5(TIMER_IDS, f"{stream}|h1/c1/claim|{timestamp(due)}"))
            recorded = moment(closed.recorded_at)
            assert recorded.timestamp() > died            # after A died
            assert recorded > expires_a                   # once A's lease had expired
            holder, _ = lease(postgres_url)
            assert holder != holder_a

            # the new holder ticks on (it renews the lease) and nothing fires the window again
            renewed = lease(postgres_url)[1]
            # (it writes the lease once half of it is spent: within 5 s and a tick)
            poll(lambda: lease(postgres_url)[1] > renewed, 12, "the new holder renews its lease")
            assert len(closings()) == 1
            timer_events = [r for r in store.read_tournament(tid)
                            if json.loads(r.meta).get("actor") == TIMER_ACTOR]
            keys = Counter((r.type, r.data, json.loads(r.meta)["deadline"]) for r in timer_events)
            assert set(keys.values()) == {1}, keys
        finally:
            store.close()
        # the node that fired says so in its log: B or C, one of them
        def firing_logs():
            return [node.name for node in nodes if f"h1/c1/claim of {stream} fired" in
                    node.log_tail(100_000)]

        assert poll(firing_logs, 5, "the firing node logs it") in (["B"], ["C"])
        for node in nodes[1:]:
            assert node.alive(), node.log_tail()
