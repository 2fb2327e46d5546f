"""The node's live state of each stream (projections/stream_cache.py, issue 39): advanced once per
appended event by the reads' own fold, every view made from it equals the fold of the log, byte
for byte — referee, public and each seat — at random positions of the simulated logs of all five
games (tests/fold_logs.py), right after the committee's ruling that reaches back into an SJ2
match, and on a node whose live state another node's appends have moved past (PostgreSQL).

The logs are appended again event by event through the one append path (service/appending.py),
each judged by the rules on a store whose clock gives the event its recorded time: the replayed
log is the stored one, hash for hash."""
from __future__ import annotations

import bisect
import json
import random
import threading

import pytest
from fold_logs import records

from events import default_catalogue
from events.envelope import NewEvent, Record
from events.memory_store import InMemoryEventStore
from events.postgres_store import PostgresEventStore
from events.sqlite_store import SQLiteEventStore
from projections.matches import Viewer, folded_view
from projections.stream_cache import StreamCache
from projections.streams import StreamState, advance, fold, keep_live, load_stream
from service.appending import append_events
from service.subscriptions import Filter, Hub

CATALOGUE = default_catalogue()
VIEWERS = [Viewer.parse(v) for v in ("referee", "public", "seat:0", "seat:1", "seat:2",
                                     "seat:3")]
CHECKS = 60  # positions checked in all, besides those around the ruling


def as_new(record: Record) -> NewEvent:
    return NewEvent(type=record.type, stream=record.stream, data=json.loads(record.data),
                    id=record.id, meta=json.loads(record.meta),
                    schema_version=record.schema_version)


class Replay:
    """A store whose clock is the recorded time of the event being appended."""

    def __init__(self, store_of):
        self.now = ""
        self.store = store_of(lambda: self.now)

    def append(self, record: Record, cache: StreamCache) -> Record:
        self.now = record.recorded_at
        result = append_events(self.store, CATALOGUE, record.tournament_id, [as_new(record)],
                               cache, creating=record.type == "TournamentCreated")
        (stored,) = result.records
        assert (stored.position, stored.hash) == (record.position, record.hash), record
        return stored


def view_bytes(folded) -> list[bytes]:
    return [json.dumps(folded_view(folded, viewer), ensure_ascii=False).encode()
            for viewer in VIEWERS]


class Folds:
    """The fold of the log, event by event with no cache (each state the fold of the stream
    from version 1 to that event: the fold is sequential), every state kept by position."""

    def __init__(self, store):
        self.store = store
        self.states: dict[str, list] = {}

    def fold(self, record: Record) -> None:
        made = self.states.setdefault(record.stream, [StreamState(record.stream)])
        made.append(fold(made[-1], [record], CATALOGUE, self.store))

    def at(self, stream: str, position: int | None) -> StreamState:
        made = self.states[stream]
        if position is None:
            return made[-1]
        return made[bisect.bisect_right([s.position for s in made], position) - 1]


def assert_live_equals_the_log(store, cache: StreamCache, folds: Folds, stream: str,
                               at: int | None, where: str) -> None:
    """The stream as the live state gives it (now, or as of ``at``) and the fold of the log:
    equal states, and every view the same bytes."""
    live = load_stream(store, CATALOGUE, stream, at=at, cache=cache)
    full = folds.at(stream, at)
    assert live == full, where
    if full.state is not None and stream.startswith("match-"):
        assert view_bytes(live) == view_bytes(full), where


def test_every_view_of_the_live_state_equals_the_fold_of_the_log(tmp_path):
    log = list(records())
    replay = Replay(lambda clock: SQLiteEventStore(tmp_path / "live.db", synchronous="OFF",
                                                   clock=clock))
    cache, folds = StreamCache(live=True), Folds(replay.store)
    rng = random.Random(39)
    ruling = next(r.position for r in log if r.type == "RulingRecorded")
    checked = {ruling - 1, ruling, ruling + 1}
    checked.update(rng.sample([r.position for r in log if r.stream.startswith("match-")], CHECKS))
    exact = 0
    try:
        for record in log:
            replay.append(record, cache)
            folds.fold(record)
            if record.position not in checked:
                continue
            where = f"{record.stream} after {record.type} at {record.position}"
            # the position just appended, read as subscribers read it: from memory alone
            exact += cache.exact(record.stream, record.position) is not None
            for at in (record.position, None, *rng.sample(range(1, record.position), 2)):
                # ... now, and as of a few positions back (a view stream that fell behind)
                assert_live_equals_the_log(replay.store, cache, folds, record.stream, at,
                                           f"{where}, read as of {at}")
        for stream in rng.sample(sorted(folds.states), 6):  # the folds are those from version 1
            assert folds.at(stream, None) == load_stream(replay.store, CATALOGUE, stream)
    finally:
        replay.store.close()
    assert exact == len(checked)  # each view of the new position was made without a read


def test_a_live_state_another_node_moved_past_is_refreshed_first(postgres_url):
    """Two nodes on one PostgreSQL log take turns appending one SJ2 match (its ruling that
    reaches back included); each advances only its own live state by its own appends, and the
    other's show up in its reads — and in its fan-out, which advances it by what it reads."""
    log = list(records())
    ruling = next(r for r in log if r.type == "RulingRecorded")
    wanted = [r for r in log if r.tournament_id == ruling.tournament_id
              and r.position <= ruling.position + 10]
    nodes = [Replay(lambda clock: PostgresEventStore(postgres_url, pool_size=4, clock=clock))
             for _ in range(2)]
    caches, folds = [StreamCache(live=True), StreamCache(live=True)], Folds(nodes[0].store)
    played = len(wanted) - 50  # the tournament until then restored at once, as an import does
    nodes[0].store.restore(wanted[:played])
    for record in wanted[:played]:
        folds.fold(record)
    rng = random.Random(7)
    try:
        for record in wanted[played:]:
            here = rng.randrange(2)
            nodes[here].append(record, caches[here])
            folds.fold(record)
            other = 1 - here
            if rng.random() < 0.5:  # the other node's fan-out read it: its live state follows
                advance(nodes[other].store, CATALOGUE, caches[other], [record])
            for n in (here, other):
                for at in (None, record.position):
                    assert_live_equals_the_log(nodes[n].store, caches[n], folds, record.stream,
                                               at, f"node {n} after {record.type} at "
                                                   f"{record.position}, read as of {at}")
    finally:
        for node in nodes:
            node.store.close()


class CountingStore(InMemoryEventStore):
    """Counts the rows its stream reads give."""

    def __init__(self, clock=None):
        super().__init__(clock)
        self.read = 0

    def read_stream(self, *args, **kwargs):
        for record in super().read_stream(*args, **kwargs):
            self.read += 1
            yield record


@pytest.mark.parametrize("live", [True, False], ids=["live state", "switched off"])
def test_the_view_of_an_event_just_appended_reads_nothing_from_the_log(live):
    """With the live state, each event appended is folded once, after its commit: a view of
    its position reads no row, a read of now one (the live state's own event, its hash checked
    as before). Switched off, a read of a position folds its way there from the log."""
    log = list(records())
    match = next(r.stream for r in log if r.type == "MatchStarted")
    move = [n for n, r in enumerate(log) if r.stream == match][30]  # a move of the match
    replay, cache = Replay(CountingStore), StreamCache(live=live)
    for record in log[:move]:
        replay.append(record, cache)
    load_stream(replay.store, CATALOGUE, match, cache=cache)  # a table app's read
    moved = replay.append(log[move], cache)
    replay.store.read = 0
    seen = load_stream(replay.store, CATALOGUE, match, at=moved.position, cache=cache)
    assert (replay.store.read, seen.version) == (0 if live else 2, moved.version)
    replay.store.read = 0
    assert load_stream(replay.store, CATALOGUE, match, cache=cache) == seen
    assert replay.store.read == (1 if live else 2)


def test_a_commit_is_folded_by_its_committing_thread_before_the_fan_out_renders_it():
    """The committing thread folds each commit onto the live state before anyone hears of it
    (projections/streams.py: keep_live), so the fan-out's rendering of the new position reads
    no row, though the appending thread's own advance has not run. Without that the fan-out,
    woken with the appending thread, read the stream's tail back and folded the event too."""
    log = list(records())
    match = next(r.stream for r in log if r.type == "MatchStarted")
    move = [n for n, r in enumerate(log) if r.stream == match][30]
    replay, cache = Replay(CountingStore), StreamCache(live=True)
    for record in log[:move]:
        replay.append(record, cache)
    store = replay.store
    keep_live(store, CATALOGUE, cache)
    hub = Hub(store, poll_seconds=60)
    sub = hub.subscribe(log[move].tournament_id, Filter(streams=frozenset({match})), None)
    rendered: list[tuple[int, int]] = []  # (the version seen, rows read to see it)

    def prepare(record: Record) -> None:
        store.read = 0
        seen = load_stream(store, CATALOGUE, match, at=record.position, cache=cache)
        rendered.append((seen.version, store.read))

    sub.prepare = ("seat", prepare)
    handed_out = threading.Event()
    sub.add_waker(handed_out.set)
    try:
        replay.now = log[move].recorded_at
        # committed by the store alone: no appending thread advances it
        (moved,) = store.append(log[move].tournament_id, [as_new(log[move])]).records
        assert handed_out.wait(10)
        assert rendered == [(moved.version, 0)]
        assert cache.exact(match, moved.position) is not None
    finally:
        hub.close()
        store.close()


def test_a_move_of_a_known_tournament_reads_no_head_of_its_tournament_stream(tmp_path):
    """A tournament exists for good once its stream has its first event: an append to a
    tournament whose stream the node holds a committed state of is not asked to read that
    stream's head again (its move is judged on the same log, one statement fewer)."""
    log = list(records())
    match = next(r.stream for r in log if r.type == "MatchStarted")
    move = [n for n, r in enumerate(log) if r.stream == match][30]
    replay = Replay(lambda clock: SQLiteEventStore(tmp_path / "known.db", clock=clock))
    cache = StreamCache()
    for record in log[:move]:
        replay.append(record, cache)
    statements = []
    replay.store._writer.conn.set_trace_callback(statements.append)
    replay.append(log[move], cache)
    tournament = f"stream = 'tournament-{log[move].tournament_id}'"
    assert [s for s in statements if tournament in s and "version DESC" in s] == []
    assert any(f"stream = '{match}'" in s and "version DESC" in s for s in statements)
    replay.store.close()
