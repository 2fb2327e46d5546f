"""Folding one stream: the state the rules see before the next event of that stream.

Each kind of stream (the prefix of its name) has a fold step from ``rules/``: the same function
validates a new event and replays a stored one, which is what makes replay exact.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Callable, Iterable

from events.catalogue import Catalogue
from events.envelope import Record
from events.store import Tail
from rules import matches, tournament

# (state, event type, data, recorded_at) -> state. ``recorded_at`` is the server's time of the
# event, the only clock the rules know (time limits are measured on it).
Step = Callable[[Any, str, dict, str], Any]

# stream kind -> fold step. Games add their stream kinds here.
STEPS: dict[str, Step] = {
    "tournament": tournament.apply,
    "match": matches.apply,
}


@dataclass(frozen=True)
class StreamState:
    stream: str
    state: Any = None      # None until the stream's first event
    version: int = 0       # the stream's version after the last folded event (0: no events)
    position: int = 0      # the global position of the last folded event (0: none)
    hash: str = ""         # the hash of the last folded event: which history this state is of


def stream_kind(stream: str) -> str:
    return stream.split("-", 1)[0]


def step_for(stream: str) -> Step | None:
    return STEPS.get(stream_kind(stream))


def fold(start: StreamState, records: Iterable[Record], catalogue: Catalogue) -> StreamState:
    step = step_for(start.stream)
    state, version, position, last_hash = start.state, start.version, start.position, start.hash
    for record in records:
        if step is not None:
            state = step(state, record.type, catalogue.upcast(record), record.recorded_at)
        version, position, last_hash = record.version, record.position, record.hash
    return StreamState(start.stream, state, version, position, last_hash)


class StreamCache:
    """The latest folded state of recently used streams, so that a read or a decision folds only
    the events after it. A cached state is used only while the stored event at its version still
    has the hash it was folded with: a state folded inside a group commit that was then rolled
    back never matches, and is folded again. States are immutable values, safe to share."""

    def __init__(self, size: int = 1024):
        self.size = size
        self._states: OrderedDict[str, StreamState] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, stream: str) -> StreamState | None:
        with self._lock:
            state = self._states.get(stream)
            if state is not None:
                self._states.move_to_end(stream)
            return state

    def forget(self, stale: StreamState) -> None:
        """Drop a state found to be of another history (unless a newer one replaced it)."""
        with self._lock:
            if self._states.get(stale.stream) is stale:
                del self._states[stale.stream]

    def put(self, folded: StreamState) -> None:
        with self._lock:
            current = self._states.get(folded.stream)
            if current is None or current.version <= folded.version:
                self._states[folded.stream] = folded
                self._states.move_to_end(folded.stream)
            while len(self._states) > self.size:
                self._states.popitem(last=False)


def load_stream(log: Tail, catalogue: Catalogue, stream: str, at: int | None = None,
                cache: StreamCache | None = None) -> StreamState:
    """The stream's state now, or as it was at global position ``at``. ``log`` is a store, or
    the view of one inside its write transaction."""
    if at is not None or cache is None:
        return fold(StreamState(stream), log.read_stream(stream, until_position=at), catalogue)
    start = cache.get(stream) or StreamState(stream)
    records = log.read_stream(stream, from_version=max(start.version, 1))
    if start.version:
        first = next(records, None)
        if first is None or first.hash != start.hash:
            if first is not None:  # another event holds that version: the state is of no use
                cache.forget(start)
            # (None: that version is not visible here — committed after this read began, or
            # rolled back. Either way fold from the start, and leave the cache to the writer.)
            start, records = StreamState(stream), log.read_stream(stream)
    folded = fold(start, records, catalogue)
    if folded.version:
        cache.put(folded)
    return folded
