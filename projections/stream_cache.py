"""What the projections remember between folds: the latest folded state of recently used
streams (their *heads*) and checkpoints of earlier states, so that a fold to any position
starts from the nearest state at or before it (projections/streams.py: load_stream).

Every remembered state is a :class:`projections.streams.StreamState`, an immutable value keyed
by (stream, version, hash of the event it follows), and is used only after the stored event at
its version is found to have that hash: a state of another history (folded inside a group
commit that was rolled back, a checkpoint of another database) is never used, and is dropped.

Checkpoints are taken by the fold itself (:func:`checkpoint_due`): after every deal (a hand
boundary in every game) and every ``CHECKPOINT_EVERY`` versions, so that no fold from a
checkpoint reads more than that many events; those after a deal or every ``PERSIST_EVERY``
versions (``MATCH_PERSIST_EVERY`` for a match) are also written to the checkpoint file
(projections/checkpoints.py), when there is one, so that they outlive the process.

A ruling appended at position p never changes the fold of the positions before p (a read
``?at=`` before it shows the match as it then stood), so the checkpoints before a ruling stay
true; those after it are folded with it. Memory is bounded by a size measure: the events folded
into the states a stream's entry holds (its highest version; the states of one stream share
their structure, each new state referring to the unchanged parts of the one before).
Measured with tracemalloc on simulated logs, a stream's heads and checkpoints take 0.4 KiB (MJO)
to 0.95 KiB (MJS, SJ3) per event folded, 0.6 KiB for SJ2 and Guandan; the default budget of
150,000 events is so about 60 to 140 MiB. The least recently used streams go first.

**The live state**. Besides its head, a stream's entry holds the last ``RECENT``
states folded from *committed* events, each the next version of the one before (``recent``):
the node's live state of the stream and the few just before it, advanced once per appended
event (projections/streams.py: :func:`~projections.streams.advance`). A committed state never
stops being true, so a read as of a position that one of them covers exactly — its own position,
or any before its successor's — needs no read of the log at all: that is how every subscriber's
view of an event just appended is made. A read of *now* still asks the log whether the stream
moved on (one row: the live state's event, its hash checked), and folds what another node or
process appended. States folded inside a write transaction (which may yet roll back) never
join them. ``live=False`` (the environment's ``PAIJU_LIVE_STATE=off``, for the benchmarks'
comparison) keeps none: every read folds from its head or a checkpoint, as before.
"""
from __future__ import annotations

import bisect
import os
import threading
from collections import OrderedDict
from typing import TYPE_CHECKING, Iterator

from rules.rulings import DEAL_TYPES

from .stream_state import StreamState

if TYPE_CHECKING:
    from .checkpoints import CheckpointFile

CHECKPOINT_EVERY = 32     # versions between checkpoints kept in memory
PERSIST_EVERY = 64        # versions between checkpoints written to the file (besides deals)
# ... for a match, whose state holds every finished hand: its text grows with the match (a
# Guandan checkpoint, 0.75 ms more to write per finished hand: at hand 20 the checkpoint
# writer took a fifth of the length run's growth). A match is written at each deal, and between
# deals only this often (a hand of the four games is 100 to 250 events: a new process folds at
# most one hand of a match in play)
MATCH_PERSIST_EVERY = 512
DEFAULT_BUDGET = 150_000  # events folded into the states held, over all streams
RECENT = 16               # committed states kept in a row per stream: the live state and before
# the live state is on unless the environment switches it off (bench/paced_tables.py compares)
LIVE_BY_DEFAULT = os.environ.get("PAIJU_LIVE_STATE", "on").strip().lower() not in (
    "off", "0", "false", "no")


def checkpoint_due(event_type: str, version: int) -> bool:
    return version % CHECKPOINT_EVERY == 0 or event_type in DEAL_TYPES


def persist_due(stream: str, event_type: str, version: int) -> bool:
    every = MATCH_PERSIST_EVERY if stream.startswith("match-") else PERSIST_EVERY
    return version % every == 0 or event_type in DEAL_TYPES


class _Entry:
    """One stream's remembered states: its head, the committed states in a row that end with
    its live state, and checkpoints in version order."""
    __slots__ = ("head", "recent", "marks", "consulted")

    def __init__(self) -> None:
        self.head: StreamState | None = None
        self.recent: list[StreamState] = []  # committed, each the next version of the one before
        self.marks: list[StreamState] = []
        # the checkpoint file has been read for this stream since it came into memory: what
        # the file holds of it since was written from here, so memory knows it already
        self.consulted = False

    @property
    def cost(self) -> int:
        return max(self.head.version if self.head else 0,
                   self.recent[-1].version if self.recent else 0,
                   self.marks[-1].version if self.marks else 0)

    def starts(self, at: int | None) -> list[StreamState]:
        """The states a fold to ``at`` may start from, newest first."""
        found = [m for m in reversed(self.marks) if at is None or m.position <= at]
        held = next((r for r in reversed(self.recent) if at is None or r.position <= at), None)
        if held is not None and (not found or held.version > found[0].version):
            found.insert(0, held)
        if self.head is not None and (at is None or self.head.position <= at) and \
                (not found or self.head.version > found[0].version):
            found.insert(0, self.head)
        return found

    def exact(self, at: int) -> StreamState | None:
        """The committed state that is the stream as of position ``at``, if one is held: the
        newest at or before ``at``, if it is at ``at`` or its successor is after it."""
        recent = self.recent
        for n in range(len(recent) - 1, -1, -1):
            if recent[n].position <= at:
                return recent[n] if recent[n].position == at or n < len(recent) - 1 else None
        return None

    def follow(self, state: StreamState) -> None:
        """``state``, folded from committed events, as the newest of ``recent`` (a state of a
        version already held changes nothing; one that does not follow on starts it anew)."""
        recent = self.recent
        if recent and state.version <= recent[-1].version:
            return
        if recent and state.version == recent[-1].version + 1:
            recent.append(state)
            del recent[:-RECENT]
        else:
            self.recent = [state]


class StreamCache:
    """Heads and checkpoints of recently used streams, within a budget of events folded
    (``budget``), in front of an optional checkpoint file (``persisted``). Thread-safe; the
    states are immutable values, safe to share."""

    def __init__(self, budget: int = DEFAULT_BUDGET, persisted: CheckpointFile | None = None,
                 writes: bool = True, live: bool | None = None):
        self.budget, self.persisted = budget, persisted
        # whether its checkpoints are written to the file (False: it only reads the file's, as
        # the timer's start-up folds do: service/timekeeping.py)
        self.writes = writes
        # whether it keeps each stream's live state (module docstring); None: LIVE_BY_DEFAULT
        self.live = LIVE_BY_DEFAULT if live is None else live
        self._entries: OrderedDict[str, _Entry] = OrderedDict()
        self._held = 0  # the sum of the entries' costs
        self._lock = threading.Lock()

    @property
    def held(self) -> int:
        """Events folded into the states held (the measure the budget bounds)."""
        return self._held

    def close(self) -> None:
        """Write what the checkpoint file has queued, then close it (a stopping process)."""
        if self.persisted is not None:
            self.persisted.close()

    def streams(self) -> list[str]:
        with self._lock:
            return list(self._entries)

    # --- heads --------------------------------------------------------------------------------
    def get(self, stream: str) -> StreamState | None:
        with self._lock:
            entry = self._entries.get(stream)
            if entry is None:
                return None
            self._entries.move_to_end(stream)
            return entry.head

    def put(self, folded: StreamState, committed: bool = True) -> None:
        """``folded`` as its stream's head, unless a newer head is held; and, ``committed``
        (folded from committed events only), as its live state when it is the next."""
        with self._lock:
            entry = self._touch(folded.stream)
            before = entry.cost
            if entry.head is None or entry.head.version <= folded.version:
                entry.head = folded
            if committed and self.live:
                entry.follow(folded)
            self._settle(entry, before)

    # --- the live state -----------------------------------------------------------------------
    def live_state(self, stream: str) -> StreamState | None:
        """The newest committed state of ``stream`` held (None: none, or not ``live``)."""
        with self._lock:
            entry = self._entries.get(stream)
            return entry.recent[-1] if entry is not None and entry.recent else None

    def exact(self, stream: str, at: int) -> StreamState | None:
        """The stream as of position ``at``, if a committed state held is exactly that."""
        with self._lock:
            entry = self._entries.get(stream)
            if entry is None or not entry.recent:
                return None
            self._entries.move_to_end(stream)
            return entry.exact(at)

    def follow(self, state: StreamState) -> None:
        """``state``, folded from committed events, joins its stream's live states if it is the
        next (a fold calls it for each event it folds: projections/streams.py)."""
        if not self.live:
            return
        with self._lock:
            entry = self._touch(state.stream)
            before = entry.cost
            entry.follow(state)
            if entry.head is None or entry.head.version < state.version:
                entry.head = state
            self._settle(entry, before)

    def forget(self, stale: StreamState) -> None:
        """Drop a state found to be of another history (head or checkpoint, and its copy in
        the checkpoint file)."""
        def same(state: StreamState | None) -> bool:  # the key, not a deep comparison
            return state is not None and (state.version, state.hash) == (stale.version,
                                                                           stale.hash)

        with self._lock:
            entry = self._entries.get(stale.stream)
            if entry is not None:
                before = entry.cost
                if same(entry.head):
                    entry.head = None
                if any(same(r) for r in entry.recent):  # its successors are of no use either
                    entry.recent = []
                entry.marks = [m for m in entry.marks if not same(m)]
                self._settle(entry, before)
                if entry.head is None and not entry.marks and not entry.recent:
                    self._entries.pop(stale.stream, None)
        if self.persisted is not None:
            self.persisted.discard(stale.stream, stale.version, stale.hash)

    # --- checkpoints --------------------------------------------------------------------------
    def checkpoint(self, state: StreamState, persist: bool = False) -> None:
        """Remember ``state`` as a checkpoint (a fold calls it at :func:`checkpoint_due`), and
        write it to the checkpoint file when ``persist``: once per process, when it is new."""
        with self._lock:
            if not self._add_mark(state):
                return
        if persist and self.persisted is not None and self.writes:
            self.persisted.save(state)

    def _add_mark(self, state: StreamState) -> bool:
        """Whether ``state`` was new (under the lock)."""
        entry = self._touch(state.stream)
        before = entry.cost
        versions = [m.version for m in entry.marks]
        at = bisect.bisect_left(versions, state.version)
        if at < len(versions) and versions[at] == state.version:
            if entry.marks[at].hash == state.hash:
                return False
            entry.marks[at] = state  # of another history: the newer fold wins
        else:
            entry.marks.insert(at, state)
        self._settle(entry, before)
        return True

    def starts(self, stream: str, at: int | None = None) -> Iterator[StreamState]:
        """The states a fold of ``stream`` to position ``at`` (None: its head) may start from,
        newest first: what memory holds, and the file's newest checkpoint when it is newer."""
        with self._lock:
            entry = self._entries.get(stream)
            held = entry.starts(at) if entry is not None else []
            if entry is not None:
                self._entries.move_to_end(stream)
            consulted = entry is not None and entry.consulted and bool(held)
            if entry is not None:
                entry.consulted = True
        if self.persisted is not None and not consulted:
            newest = self.persisted.newest_version(stream, at)
            if newest > (held[0].version if held else 0):
                state = self.persisted.load(stream, newest)
                if state is not None:
                    with self._lock:
                        self._add_mark(state)
                    yield state
        yield from held

    # --- the budget ---------------------------------------------------------------------------
    def _touch(self, stream: str) -> _Entry:
        entry = self._entries.get(stream)
        if entry is None:
            entry = self._entries[stream] = _Entry()
        self._entries.move_to_end(stream)
        return entry

    def _settle(self, entry: _Entry, cost_before: int) -> None:
        """Account for a changed entry, then evict the least recently used streams (never the
        one just used) while the budget is exceeded."""
        self._held += entry.cost - cost_before
        while self._held > self.budget and len(self._entries) > 1:
            stream, oldest = next(iter(self._entries.items()))
            if oldest is entry:
                break
            del self._entries[stream]
            self._held -= oldest.cost
