"""The stream state cache: a read folds only what is new, and never trusts a state whose
history is not the stored one."""
from events import default_catalogue
from events.envelope import NewEvent
from events.memory_store import InMemoryEventStore
from projections.streams import StreamCache, StreamState, load_stream

CATALOGUE = default_catalogue()
STREAM = "tournament-t"


def registered(team_id):
    return NewEvent("TeamRegistered", STREAM, {"team_id": team_id, "name": team_id, "players": ["甲", "乙"]})


def make_store(store=None):
    store = store or InMemoryEventStore()
    store.append("t", [NewEvent("TournamentCreated", STREAM, {"tournament_id": "t", "name": "t",
                                                              "game": "SJ2", "format": "knockout"})])
    return store


class CountingStore(InMemoryEventStore):
    def __init__(self):
        super().__init__()
        self.folded = 0

    def read_stream(self, *args, **kwargs):
        for record in super().read_stream(*args, **kwargs):
            self.folded += 1
            yield record


def test_a_cached_read_folds_only_the_new_events_and_equals_a_full_fold():
    store, cache = make_store(CountingStore()), StreamCache()
    store.append("t", [registered(f"a{i}") for i in range(20)])
    load_stream(store, CATALOGUE, STREAM, cache=cache)
    store.append("t", [registered("late")])
    store.folded = 0
    cached = load_stream(store, CATALOGUE, STREAM, cache=cache)
    assert store.folded == 2  # the cached version's own event (to check its hash) and the new one
    assert cached == load_stream(store, CATALOGUE, STREAM)
    assert cached.version == 22 and cached.state.team("late") is not None


def test_a_cached_state_of_another_history_is_not_used():
    """E.g. a state folded inside a group commit that was rolled back."""
    store, cache = make_store(), StreamCache()
    store.append("t", [registered("a")])
    real = load_stream(store, CATALOGUE, STREAM)
    ghost = StreamState(STREAM, real.state.__class__(**{**real.state.__dict__, "name": "ghost"}),
                        real.version, real.position, "f" * 64)
    cache.put(ghost)
    assert load_stream(store, CATALOGUE, STREAM, cache=cache) == real
    assert cache.get(STREAM) == real  # the ghost is gone, not kept above the real state


def test_reads_at_a_position_ignore_the_cache():
    store, cache = make_store(), StreamCache()
    store.append("t", [registered("a"), registered("b")])
    load_stream(store, CATALOGUE, STREAM, cache=cache)
    assert load_stream(store, CATALOGUE, STREAM, at=2, cache=cache).version == 2


def test_the_cache_keeps_the_most_recent_streams_only():
    cache = StreamCache(size=2)
    for name in ("tournament-a", "tournament-b", "tournament-c"):
        cache.put(StreamState(name, None, 1, 1, "h"))
    assert cache.get("tournament-a") is None and cache.get("tournament-c") is not None


def test_an_older_state_never_replaces_a_newer_one():
    cache = StreamCache()
    cache.put(StreamState(STREAM, None, 5, 9, "new"))
    cache.put(StreamState(STREAM, None, 3, 4, "old"))
    assert cache.get(STREAM).hash == "new"
