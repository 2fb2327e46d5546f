"""What every game's simulation test checks of checkpoints (projections/stream_cache.py and
projections/checkpoints.py): a fold to a random position that starts from the nearest
checkpoint — kept in memory, or read back from the checkpoint file by a new process — equals
the fold of the same stream from version 1, byte for byte."""
from __future__ import annotations

import json
import random
import tempfile
from pathlib import Path

from events import default_catalogue
from events.sqlite_store import SQLiteEventStore
from projections.checkpoints import CheckpointFile
from projections.matches import folded_view
from projections.stream_cache import StreamCache
from projections.streams import StreamState, load_stream
from projections.viewers import Viewer

CATALOGUE = default_catalogue()
REFEREE = Viewer.parse("referee")


def match_streams(store) -> list[str]:
    return sorted({r.stream for r in store.read_type("MatchStarted")})


def view_bytes(folded: StreamState) -> bytes:
    return json.dumps(folded_view(folded, REFEREE), ensure_ascii=False).encode()


def assert_same_fold(got: StreamState, full: StreamState, where: str) -> None:
    assert got == full, where
    assert view_bytes(got) == view_bytes(full), where


def assert_checkpoint_folds_equal_full_folds(database: str, reads_per_stream: int,
                                             seed: int) -> int:
    """``reads_per_stream`` random positions of every match stream of the log at ``database``,
    each read from checkpoints in memory and from the checkpoint file alone; returns how many
    reads started from a checkpoint (so that a caller can see the check is not vacuous)."""
    store, rng, from_checkpoints = SQLiteEventStore(database), random.Random(seed), 0
    try:
        with tempfile.TemporaryDirectory(prefix="paiju-checkpoints-") as folder:
            written = CheckpointFile(Path(folder) / "checkpoints")
            warm = StreamCache(persisted=written)
            streams = match_streams(store)
            for stream in streams:  # the live folds, which take the checkpoints
                load_stream(store, CATALOGUE, stream, cache=warm)
            written.flush()
            restarted = CheckpointFile(Path(folder) / "checkpoints")  # a new process's view
            cold = StreamCache(persisted=restarted)
            for stream in streams:
                positions = [r.position for r in store.read_stream(stream)]
                for at in rng.sample(positions, min(reads_per_stream, len(positions))):
                    full = load_stream(store, CATALOGUE, stream, at=at)
                    for name, cache in (("memory", warm), ("file", cold)):
                        nearest = next(iter(cache.starts(stream, at)), None)
                        from_checkpoints += nearest is not None
                        assert_same_fold(load_stream(store, CATALOGUE, stream, at=at, cache=cache),
                                         full, f"{stream} at {at} from {name}")
            restarted.close()
            written.close()
    finally:
        store.close()
    return from_checkpoints


def assert_every_position_reads_as_a_full_fold(store, cache: StreamCache) -> None:
    """Every position of every match stream, read through ``cache`` (the live server's: heads
    and checkpoints taken while play and rulings went on), equals the fold from version 1."""
    for stream in match_streams(store):
        for record in store.read_stream(stream):
            full = load_stream(store, CATALOGUE, stream, at=record.position)
            assert_same_fold(load_stream(store, CATALOGUE, stream, at=record.position,
                                         cache=cache), full, f"{stream} at {record.position}")
        assert_same_fold(load_stream(store, CATALOGUE, stream, cache=cache),
                         load_stream(store, CATALOGUE, stream), f"{stream} now")
