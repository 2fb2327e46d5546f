"""The stream state cache: a read folds only what is new, and never trusts a state whose
history is not the stored one."""
from events import default_catalogue
from events.envelope import NewEvent
from events.memory_store import InMemoryEventStore
from projections.streams import StreamCache, StreamState, load_stream

CATALOGUE = default_catalogue()
STREAM = "tournament-t"


def registered(team_id):
    return NewEvent("TeamRegistered", STREAM, {"team_id": team_id, "name": team_id,
                                                  "players": [f"甲{team_id}", f"乙{team_id}"]})


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


def test_a_read_at_a_position_starts_from_a_checkpoint_and_equals_a_full_fold():
    store, cache = make_store(CountingStore()), StreamCache()
    store.append("t", [registered(f"a{i}") for i in range(70)])  # versions 2..71
    load_stream(store, CATALOGUE, STREAM, cache=cache)  # checkpoints at versions 32 and 64
    store.folded = 0
    at_40 = load_stream(store, CATALOGUE, STREAM, at=40, cache=cache)
    assert store.folded == 9  # version 32 (to check its hash), then 33..40
    assert at_40 == load_stream(store, CATALOGUE, STREAM, at=40)
    assert at_40.version == 40 and cache.get(STREAM).version == 71  # the head is untouched


def test_a_checkpoint_whose_event_has_another_hash_is_dropped_not_used():
    store, cache = make_store(), StreamCache()
    store.append("t", [registered(f"a{i}") for i in range(40)])
    true_at_32 = load_stream(store, CATALOGUE, STREAM, at=32)
    forged = StreamState(STREAM, true_at_32.state.__class__(
        **{**true_at_32.state.__dict__, "name": "forged"}), 32, true_at_32.position, "e" * 64)
    cache.checkpoint(forged)
    read = load_stream(store, CATALOGUE, STREAM, at=35, cache=cache)
    assert read == load_stream(store, CATALOGUE, STREAM, at=35)
    assert read.state.name == "t"
    assert all(start.hash != "e" * 64 for start in cache.starts(STREAM))


def test_the_cache_keeps_the_most_recent_streams_within_its_budget_of_events():
    cache = StreamCache(budget=25)
    for name in ("tournament-a", "tournament-b", "tournament-c"):
        cache.put(StreamState(name, None, 10, 1, "h"))
    assert cache.get("tournament-a") is None and cache.get("tournament-c") is not None
    assert cache.held == 20 and cache.streams() == ["tournament-b", "tournament-c"]


def test_a_stream_longer_than_the_budget_is_still_kept_alone():
    cache = StreamCache(budget=5)
    cache.put(StreamState("tournament-a", None, 3, 1, "h"))
    cache.put(StreamState("tournament-b", None, 9, 2, "h"))
    assert cache.streams() == ["tournament-b"]


def test_an_older_state_never_replaces_a_newer_one():
    cache = StreamCache()
    cache.put(StreamState(STREAM, None, 5, 9, "new"))
    cache.put(StreamState(STREAM, None, 3, 4, "old"))
    assert cache.get(STREAM).hash == "new"
