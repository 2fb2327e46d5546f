"""A folded stream as a value: what the folds make (projections/streams.py) and the caches keep
(projections/stream_cache.py). Here, below both, so that neither imports the other to name it."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class StreamState:
    stream: str
    state: Any = None      # None until the stream's first event
    version: int = 0       # the stream's version after the last folded event (0: no events)
    position: int = 0      # the global position of the last folded event (0: none)
    hash: str = ""         # the hash of the last folded event: which history this state is of
    # rulings that reached back (rules/rulings.py): events flagged under the ruled history, and
    # what the rulings did to stored events (voided, substituted, …)
    flags: tuple = ()
    edits: tuple = ()


# Named after the module that has always exported it: the checkpoint file names each class of a
# state by its module (projections/state_codec.py), and a checkpoint written before this module
# existed must still be read, its digest unchanged (projections/fold_version.py).
StreamState.__module__ = "projections.streams"
