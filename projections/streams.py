"""Folding one stream: the state the rules see before the next event of that stream.

Each kind of stream (the prefix of its name) has a fold step from ``rules/``: the same function
validates a new event and replays a stored one, which is what makes replay exact.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable

from events.catalogue import Catalogue
from events.envelope import Record
from events.store import EventStore
from rules import tournament

Step = Callable[[Any, str, dict], Any]

# stream kind -> fold step (state, event type, data) -> state. Games add their stream kinds here.
STEPS: dict[str, Step] = {
    "tournament": tournament.apply,
}


@dataclass(frozen=True)
class StreamState:
    stream: str
    state: Any        # None until the stream's first event
    version: int      # the stream's version after the last folded event (0: no events)
    position: int     # the global position of the last folded event (0: none)


def stream_kind(stream: str) -> str:
    return stream.split("-", 1)[0]


def step_for(stream: str) -> Step | None:
    return STEPS.get(stream_kind(stream))


def fold(stream: str, records: Iterable[Record], catalogue: Catalogue) -> StreamState:
    step = step_for(stream)
    state, version, position = None, 0, 0
    for record in records:
        if step is not None:
            state = step(state, record.type, catalogue.upcast(record))
        version, position = record.version, record.position
    return StreamState(stream, state, version, position)


def load_stream(store: EventStore, catalogue: Catalogue, stream: str,
                at: int | None = None) -> StreamState:
    """The stream's state now, or as it was at global position ``at``."""
    return fold(stream, store.read_stream(stream, until_position=at), catalogue)
