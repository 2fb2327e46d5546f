"""Word of a commit: a store tells who listens that its log has grown, so that live readers
(subscriptions, webhooks, the timer) follow it without polling.

A listener learns the log's new last position and, when the commit was this process's own, the
records it stored (else an empty tuple). The records are a shortcut, never the truth: whoever
needs every event reads by position what the words did not bring whole and in order, so a word
lost, late or twice costs a read, never an event. On SQLite the word comes from the writer
right after each group's commit, its records in position order (one process writes the file);
on PostgreSQL also from LISTEN, so a node hears the commits of every node
(events/postgres_store.py)."""
from __future__ import annotations

import logging
import threading
from typing import TYPE_CHECKING, Callable, Iterable, Sequence

if TYPE_CHECKING:
    from .envelope import Record

# (the log's last position, the records of this commit if this process made it, else ())
Listener = Callable[[int, "Sequence[Record]"], None]

log = logging.getLogger("paiju.commits")


class CommitFeed:
    """The listeners of one store. ``announce`` is called by the committing thread right after
    the commit: a listener must be quick and must not raise (it only wakes someone)."""

    def __init__(self, on_first_listener: Callable[[], None] | None = None):
        self._listeners: list[Listener] = []
        self._own: list[Listener] = []  # of this process's commits only (listen_own)
        self._lock = threading.Lock()
        self._on_first_listener = on_first_listener

    def listen(self, listener: Listener) -> None:
        with self._lock:
            first = not self._listeners
            self._listeners.append(listener)
        if first and self._on_first_listener is not None:
            self._on_first_listener()  # e.g. PostgreSQL's LISTEN connection

    def listen_own(self, listener: Listener) -> None:
        """Hear this process's own commits only, each with its records (the metrics count
        them, the live states fold them), before the other listeners: no word of other nodes'
        commits, so no LISTEN connection is started for it."""
        with self._lock:
            self._own.append(listener)

    def unlisten(self, listener: Listener) -> None:
        with self._lock:
            for listeners in (self._listeners, self._own):
                if listener in listeners:
                    listeners.remove(listener)

    def announce(self, last_position: int, records: Sequence[Record] = ()) -> None:
        """The listeners of this process's own commits first: what they keep (the node's live
        states, projections/streams.py: keep_live) is read by those the others wake."""
        for listener in (list(self._own) if records else []) + list(self._listeners):
            try:
                listener(last_position, records)
            except Exception:  # a listener's fault must never fail an append that committed
                log.exception("a commit listener failed")


def following_on(heard: Iterable[Record], after: int) -> list[Record]:
    """Of the records words brought, those that follow on from position ``after`` with no gap,
    in position order (older ones and repeats left out): what a listener may take as read. What
    lies beyond a gap is read from the log."""
    run: list[Record] = []
    last = after
    for record in sorted(heard, key=lambda r: r.position):
        if record.position > last + 1:
            break  # a gap: what is missing is read from the log
        if record.position == last + 1:
            run.append(record)
            last = record.position
    return run


class HeardRecords:
    """What the words of commits brought to one listener and it has not yet taken: their
    records, and the last position any word named. Words come on the committing threads, and
    the listener takes them on its own, so they are kept under a lock. At most ``bound``
    records are kept: beyond them all are dropped, and the next :meth:`take` reads the log."""

    def __init__(self, bound: int = 10_000):
        self._records: list[Record] = []
        self._end = 0  # the last position any word named, with its records or not
        self._lost = False  # more were heard than the bound
        self._bound = bound
        self._lock = threading.Lock()

    def hear(self, last_position: int, records: Sequence[Record]) -> None:
        with self._lock:
            if len(self._records) + len(records) > self._bound:
                self._records.clear()
                self._lost = True
            else:
                self._records.extend(records)
            self._end = max(self._end, last_position)

    def take(self, after: int) -> tuple[list[Record], bool]:
        """The records heard that follow on from position ``after`` with no gap
        (:func:`following_on`), and whether they reach the last position heard: if not,
        what lies beyond them is read from the log."""
        with self._lock:
            heard, self._records = self._records, []
            lost, self._lost, end = self._lost, False, self._end
        if lost:
            return [], False
        run = following_on(heard, after)
        return run, (run[-1].position if run else after) >= end

    def forget_until(self, position: int) -> None:
        """What was heard up to ``position`` has been read from the log: dropped."""
        with self._lock:
            self._records = [r for r in self._records if r.position > position]

    def clear(self) -> None:
        with self._lock:
            self._records.clear()

    def __len__(self) -> int:
        with self._lock:
            return len(self._records)


class GroupSizes:
    """How many appends each commit of a store carried (group commit): counts per bucket of
    sizes, kept by the one thread that commits (SQLite's writer) or under the lock that forms
    the groups (PostgreSQL), read at scrape time by service/metrics.py. They only grow."""

    BOUNDS = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512)  # the buckets' upper bounds (then: more)

    def __init__(self) -> None:
        self.counts = [0] * (len(self.BOUNDS) + 1)
        self.appends = 0  # the sum of the sizes

    def record(self, size: int) -> None:
        """One commit of ``size`` appends (1 and up)."""
        self.counts[min(max(size - 1, 0).bit_length(), len(self.BOUNDS))] += 1
        self.appends += size
