"""Catch-up subscriptions: a cursor over global positions for each subscriber.

A subscriber names a tournament, a filter and the last position it has (``after``). It first
reads the log by position up to where the node's fan-out stood when it arrived, then takes what
the fan-out hands it: one reader a node (``Hub``), woken by word of each commit
(events/commits.py) and, in case a word is lost, by a poll, offers each new event once to the
subscribers of its tournament. The node's own commits come with their records: those that follow
on from the last position handed out, with no gap, are handed out as they are (by the thread
that committed them, when the fan-out is not busy: ``Hub._on_commit``); anything else (another
node's commits, a word out of order or lost) is read from the log by position.
Positions are committed in order, so "every event after my position" is exact: nothing lost,
nothing twice, across reconnects and restarts.

A subscriber that does not keep up is dropped when its buffer is full, never waited for: appends
do not know subscribers exist (the fan-out runs beside them), and the dropped subscriber resumes
by its last id.

Before it wakes the subscribers of an event, the fan-out has what they will send made ready:
each subscription may name what it sees (a class of readers: a seat, the public, the
officials) and how that is rendered into the cache its stream reads (``prepare``); the fan-out
calls it once per event and class, however many subscribers share it. So a thousand tablets
and boards each send a frame made once, from the event loop, with no thread of their own."""
from __future__ import annotations

import logging
import sqlite3
import threading
from collections import deque
from itertools import chain
from dataclasses import dataclass
from typing import Callable, Hashable, Iterable

from events.commits import HeardRecords
from events.envelope import Record
from events.store import EventStore, StoreClosed
from rules.messages import Message

log = logging.getLogger("paiju.subscriptions")

CATCH_UP_PAGE = 500     # events read at once while catching up, and by the fan-out
BUFFER = 2000           # events a subscriber may have waiting before it is dropped
POLL_SECONDS = 1.0      # the fan-out looks at the log's end this often, word or not


@dataclass(frozen=True)
class Filter:
    """Which events of the tournament a subscriber wants: None is every stream or type."""
    streams: frozenset[str] | None = None
    types: frozenset[str] | None = None

    def matches(self, record: Record) -> bool:
        return (self.streams is None or record.stream in self.streams) and \
            (self.types is None or record.type in self.types)

    @property
    def one_stream(self) -> str | None:
        return next(iter(self.streams)) if self.streams and len(self.streams) == 1 else None

    @property
    def one_type(self) -> str | None:
        return next(iter(self.types)) if self.types and len(self.types) == 1 else None


class Subscription:
    """One subscriber's cursor: ``take()`` gives the next events after ``sent`` (read from the
    store while catching up, then from the buffer the fan-out fills), in order, each once."""

    def __init__(self, store: EventStore, tournament_id: str, filter: Filter, after: int,
                 live_from: int, capacity: int = BUFFER):
        self.store, self.tournament_id, self.filter = store, tournament_id, filter
        self.sent = after            # the last position handed out
        self.live_from = live_from   # the fan-out hands out what comes after this
        self.capacity = capacity
        self.overflowed = False      # the buffer was full: the subscriber must resume by id
        self.ended = False           # the node is shutting down
        self._buffer: deque[Record] = deque()
        self._lock = threading.Lock()
        self._wakers: list[Callable[[], None]] = []
        # (the class of what it sees, a function that makes a record's rendering for that class
        # ready where its stream finds it): what the fan-out prepares before waking it
        self.prepare: tuple[Hashable, Callable[[Record], object]] | None = None

    # --- the fan-out's side ---------------------------------------------------------------
    def wants(self, record: Record) -> bool:
        """Whether ``record`` is one this subscriber is to be offered and still can take."""
        return record.position > self.live_from and self.filter.matches(record) and \
            not self.overflowed

    def offer(self, record: Record) -> bool | None:
        """Buffer ``record`` if the subscriber wants it: True if it did, None if it is not
        wanted, False if the buffer overflowed (drop the subscriber). The caller wakes it."""
        if record.position <= self.live_from or not self.filter.matches(record):
            return False if self.overflowed else None
        with self._lock:
            if self.overflowed or len(self._buffer) >= self.capacity:
                self.overflowed = True  # and nothing after it: it resumes from what it took
                return False
            self._buffer.append(record)
        return True

    def end(self) -> None:
        self.ended = True
        self.wake()

    # --- the subscriber's side ------------------------------------------------------------
    def add_waker(self, waker: Callable[[], None]) -> None:
        """``waker`` is called (from any thread) when there may be something to take."""
        self._wakers.append(waker)

    def wake(self) -> None:
        for waker in list(self._wakers):
            waker()

    @property
    def catching_up(self) -> bool:
        return self.sent < self.live_from

    def take(self, limit: int = CATCH_UP_PAGE) -> list[Record]:
        """The next events, oldest first (an empty list: nothing yet)."""
        if self.catching_up:
            return self._read_back(limit)
        with self._lock:
            taken = []
            while self._buffer and len(taken) < limit:
                record = self._buffer.popleft()
                if record.position > self.sent:
                    taken.append(record)
        if taken:
            self.sent = taken[-1].position
        return taken

    def _read_back(self, limit: int) -> list[Record]:
        page = list(self.store.read_tournament(
            self.tournament_id, after=self.sent, limit=limit, stream=self.filter.one_stream,
            type=self.filter.one_type, until_position=self.live_from))
        # a short page is the end of the history before the fan-out took over
        self.sent = page[-1].position if len(page) == limit else self.live_from
        return [r for r in page if self.filter.matches(r)]


class HubClosed(RuntimeError):
    """A subscription asked of a node that is shutting down."""


class Hub:
    """A node's fan-out: one reader of the log's new events for all of its subscribers."""

    def __init__(self, store: EventStore, poll_seconds: float = POLL_SECONDS,
                 capacity: int = BUFFER):
        self.store, self.poll_seconds, self.capacity = store, poll_seconds, capacity
        # tournament -> stream (None: every stream) -> its subscribers: a commit costs only the
        # subscribers of its own stream, however many follow other tables
        self._by_tournament: dict[str, dict[str | None, set[Subscription]]] = {}
        self._lock = threading.Lock()
        self._woken = threading.Event()
        self._seen: int | None = None  # the last position handed to the subscribers
        self._heard = HeardRecords()  # what the words of commits brought, not handed out
        # held by whoever hands out: the fan-out's thread, or a committing thread (_on_commit)
        self._handing = threading.Lock()
        self._thread: threading.Thread | None = None
        self._closed = False

    def subscribe(self, tournament_id: str, filter: Filter, after: int | None) -> Subscription:
        """A cursor after position ``after`` (None: after the log's end, what comes next)."""
        with self._lock:
            if self._closed:
                raise HubClosed(Message("the node is shutting down; subscribe on another"))
            self._start()
            after = self._seen if after is None else after
            sub = Subscription(self.store, tournament_id, filter, after,
                               max(after, self._seen), self.capacity)
            group = self._by_tournament.setdefault(tournament_id, {})
            for stream in _keys(filter):
                group.setdefault(stream, set()).add(sub)
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        with self._lock:
            group = self._by_tournament.get(sub.tournament_id, {})
            for stream in _keys(sub.filter):
                subs = group.get(stream, set())
                subs.discard(sub)
                if not subs:
                    group.pop(stream, None)
            if not group:
                self._by_tournament.pop(sub.tournament_id, None)

    @property
    def subscriber_count(self) -> int:
        with self._lock:
            return len(self._all())

    def close(self) -> None:
        """End every subscription (each stream says so and closes) and stop the fan-out."""
        with self._lock:
            self._closed = True
            subs = self._all()
            self._by_tournament.clear()
        for sub in subs:
            sub.end()
        self._woken.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self.store.commits.unlisten(self._on_commit)

    # --- the fan-out ----------------------------------------------------------------------
    def _start(self) -> None:
        if self._thread is not None:
            return
        self._seen = self.store.last_position()
        self.store.commits.listen(self._on_commit)
        self._thread = threading.Thread(target=self._run, name="paiju-fan-out", daemon=True)
        self._thread.start()

    def _all(self) -> set[Subscription]:
        return {s for group in self._by_tournament.values() for subs in group.values()
                for s in subs}

    def _on_commit(self, last_position: int, records=()) -> None:
        """A word of a commit. One of this process's, with its records, is handed out by the
        committing thread itself when the fan-out is not busy: waking the fan-out's thread for
        it cost a move two thread switches and the interpreter's lock passed back and forth.
        Anything else (another node's word, a gap, the fan-out busy) wakes the fan-out."""
        if self._seen is None or last_position > self._seen:
            self._heard.hear(last_position, records)
            if records and self._thread is not None and self._handing.acquire(blocking=False):
                try:
                    if not self._closed and self._hand_out_heard():
                        return
                except Exception:  # the fan-out's thread tries again
                    log.exception("the fan-out could not hand out a commit")
                finally:
                    self._handing.release()
            self._woken.set()

    def _run(self) -> None:
        while not self._closed:
            woken = self._woken.wait(self.poll_seconds)
            self._woken.clear()
            try:
                with self._handing:
                    if not self._skip_if_unheard() and not (woken and self._hand_out_heard()):
                        self._fan_out()
            except (sqlite3.ProgrammingError, StoreClosed):  # closed under us: the app is gone
                return
            except Exception:  # a store unavailable for a moment: the next poll reads again
                log.exception("the fan-out could not read the log")

    def _hand_out_heard(self) -> bool:
        """Hand out the records the words brought that follow on from ``_seen``; True if
        that reached the last position the words named (nothing to read from the log)."""
        run, reached = self._heard.take(self._seen)
        if run:
            self._hand_out(run)
        return reached

    def _skip_if_unheard(self) -> bool:
        """With nobody subscribed, move past the log's end without reading it (a subscriber
        who comes later reads back what it missed from the store)."""
        with self._lock:
            if self._by_tournament:
                return False
        end = self.store.last_position()
        with self._lock:
            if self._by_tournament:  # one came meanwhile: it starts from _seen, read on
                return False
            self._seen = max(self._seen, end)
        self._heard.clear()  # nobody to hand them to; the log has them
        return True

    def _fan_out(self) -> None:
        while not self._closed:
            records = list(self.store.read_all(after=self._seen, limit=CATCH_UP_PAGE))
            if not records:
                return
            self._hand_out(records)
            if len(records) < CATCH_UP_PAGE:
                return

    def _hand_out(self, records: Iterable[Record]) -> None:
        """Make ready what the subscribers of each record will send (``prepare``), then offer
        it to them: none takes a record before its rendering is made. Each subscriber that
        took some is woken once for all of them (a wake is a word to another thread: one per
        event and subscriber was most of the fan-out's cost)."""
        records = list(records)
        _prepare(self._to_prepare(records))
        took: set[Subscription] = set()
        dropped: set[Subscription] = set()
        with self._lock:
            for record in records:
                group = self._by_tournament.get(record.tournament_id)
                if group:
                    for sub in chain(group.get(None, ()), group.get(record.stream, ())):
                        offered = sub.offer(record)
                        if offered:
                            took.add(sub)
                        elif offered is False:
                            dropped.add(sub)
                self._seen = record.position
        for sub in took | dropped:  # a dropped one learns it from its stream's next frames
            sub.wake()
        for sub in dropped:
            self.unsubscribe(sub)

    def _to_prepare(self, records: list[Record]) -> list[tuple[Callable[[Record], object],
                                                                Record]]:
        """What to make ready for the records: once per event and class of the subscribers
        that want it (one who comes meanwhile renders its own)."""
        ready: dict[tuple, tuple[Callable[[Record], object], Record]] = {}
        with self._lock:
            for record in records:
                group = self._by_tournament.get(record.tournament_id)
                if not group:
                    continue
                for sub in chain(group.get(None, ()), group.get(record.stream, ())):
                    if sub.prepare is not None and sub.wants(record):
                        ready.setdefault((record.position, sub.prepare[0]),
                                         (sub.prepare[1], record))
        return list(ready.values())


def _prepare(work: Iterable[tuple[Callable[[Record], object], Record]]) -> None:
    """Each rendering made ready, in log order; one that fails is left to the subscriber's own
    stream, which renders it again (and says what went wrong). (A pause between two, to let
    a waiting append go first, cost more CPU in switches than it saved the appends: measured,
    bench/paced_tables.py.)"""
    for make, record in work:
        try:
            make(record)
        except Exception:  # logged; the stream renders it itself
            log.warning("the fan-out could not prepare event %d", record.position,
                        exc_info=True)


def _keys(filter: Filter) -> frozenset[str | None]:
    return filter.streams or frozenset({None})
