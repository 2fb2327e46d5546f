"""The timer: every pending deadline of the deployment, and the appending of each one's event
when it passes (issue 8).

The :class:`Timekeeper` holds nothing the log does not say. It rebuilds its deadlines from the
log at start-up (:meth:`start`), follows the log for appends by any process (:meth:`catch_up`),
and fires what is due (:meth:`fire_due`) through the same append path as a client: the rules
judge the timer's event, and apply its consequence, as for a referee's. A deadline that passed
while the service was down fires at start-up, recorded then, with the original deadline in its
meta. Time comes from ``now``, so tests run on a fake clock and never sleep; APScheduler only
calls :meth:`tick` at the right moments (service/scheduler.py).
"""
from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from datetime import datetime

from events.catalogue import Catalogue
from events.envelope import Record
from events.store import EventStore, IdempotencyConflict, WrongExpectedVersion
from projections.deadlines import PendingDeadline, pending_deadlines
from projections.streams import StreamCache, load_stream

from .appending import EventRuleViolation, append_events
from .leases import Lease, SoleLease

log = logging.getLogger("paiju.timer")

# Deadlines fired in one call at most: a restart after a long stop fires what passed, in order,
# and a chain of deadlines each due at once is finite, but a bound keeps a fault from spinning.
MAX_FIRINGS_PER_TICK = 10_000


class Timekeeper:
    def __init__(self, store: EventStore, catalogue: Catalogue, now: Callable[[], datetime],
                 cache: StreamCache | None = None, lease: Lease | None = None):
        self.store, self.catalogue, self.now = store, catalogue, now
        self.cache = cache if cache is not None else StreamCache()
        self.lease = lease or SoleLease()
        self._pending: dict[str, tuple[PendingDeadline, ...]] = {}   # match stream -> deadlines
        self._refused: dict[str, set[str]] = {}  # stream -> timer event ids the rules refused
        # timer event ids already in the log: a deadline that comes back with the same id (its
        # event voided by a ruling, say) has had its firing, and a retry would change nothing
        self._settled: set[str] = set()
        self.leading = False                     # whether the last firing held the lease
        self._position = 0                       # the log position followed so far
        self._lock = threading.RLock()

    # --- following the log --------------------------------------------------------------------
    def start(self) -> None:
        """Rebuild the deadlines of every match still running from the log (start-up). A match
        marked quiet (no pending deadline: over, or paused) whose stream has not moved since is
        not folded: start-up costs what is live, not every match ever started."""
        with self._lock:
            self._position = self.store.last_position()
            self._pending.clear()
            self._refused.clear()
            for started in self.store.read_type("MatchStarted"):
                if not self._still_quiet(started.stream):
                    self._refresh(started.stream)

    def _still_quiet(self, stream: str) -> bool:
        """Whether the stream's quiet mark holds: its last event is still the one marked."""
        persisted = self.cache.persisted
        mark = persisted.quiet(stream) if persisted is not None else None
        if mark is None:
            return False
        version, hash_ = mark
        head = self.store.stream_head(stream)
        if head is None or head[1] != version:
            return False
        last = next(self.store.read_stream(stream, from_version=version, limit=1), None)
        return last is not None and last.hash == hash_

    def catch_up(self) -> set[str]:
        """Read what was appended since last time (by this process or another) and recompute
        the deadlines of the matches it touched; returns those streams."""
        with self._lock:
            last = self.store.last_position()
            if last <= self._position:
                return set()
            touched = set()
            for record in self.store.read_all(after=self._position):
                self._position = record.position
                if record.stream.startswith("match-"):
                    touched.add(record.stream)
            for stream in touched:
                self._refused.pop(stream, None)  # a new history: judge its deadlines afresh
                self._refresh(stream)
            return touched

    def _refresh(self, stream: str) -> None:
        folded = load_stream(self.store, self.catalogue, stream, cache=self.cache)
        found = pending_deadlines(folded)
        if found:
            self._pending[stream] = found
        else:
            self._pending.pop(stream, None)
            if self.cache.persisted is not None and folded.version:
                self.cache.persisted.mark_quiet(stream, folded.version, folded.hash)

    # --- reading ------------------------------------------------------------------------------
    def pending(self) -> list[PendingDeadline]:
        """Every deadline that will fire, earliest first (refused ones left out)."""
        with self._lock:
            every = [p for stream, found in self._pending.items() for p in found
                     if p.event_id not in self._refused.get(stream, ())
                     and p.event_id not in self._settled]
        return sorted(every, key=lambda p: (p.due, p.stream, p.deadline.key))

    def next_due(self) -> datetime | None:
        upcoming = self.pending()
        return upcoming[0].due if upcoming else None

    def wait_idle(self) -> None:
        """Return once no other thread is following the log or firing."""
        with self.turn():
            pass

    def turn(self) -> threading.RLock:
        """This thread's turn to follow the log and fire (``with timekeeper.turn(): ...``)."""
        return self._lock

    # --- firing -------------------------------------------------------------------------------
    def tick(self) -> list[Record]:
        """Follow the log, then fire what is due: what the scheduler calls."""
        self.catch_up()
        return self.fire_due()

    def fire_due(self) -> list[Record]:
        """Append the event of every deadline due by now, earliest first, while this process
        holds the lease; returns the events this call appended."""
        with self._lock:
            now = self.now()
            self.leading = self.lease.hold(now)
            if not self.leading:
                return []
            fired: list[Record] = []
            for _ in range(MAX_FIRINGS_PER_TICK):
                due = [p for p in self.pending() if p.due <= now]
                if not due:
                    break
                fired.extend(self._fire(due[0]))
            else:
                log.error("more than %d deadlines due at once; the rest wait for the next tick",
                          MAX_FIRINGS_PER_TICK)
            return fired

    def _fire(self, deadline: PendingDeadline) -> list[Record]:
        try:
            result = append_events(self.store, self.catalogue, deadline.tournament_id,
                                   [deadline.event()], self.cache)
        except EventRuleViolation as refused:
            # The log moved on (a move made just in time, another process's firing): the
            # rules have the last word; the deadline is recomputed from the new state.
            log.info("deadline %s of %s refused: %s %s", deadline.deadline.key,
                     deadline.stream, refused.violation.rule, refused.violation.message)
            self._refused.setdefault(deadline.stream, set()).add(deadline.event_id)
            self.catch_up()
            return []
        except (IdempotencyConflict, WrongExpectedVersion) as conflict:
            log.warning("deadline %s of %s not appended: %s", deadline.deadline.key,
                        deadline.stream, conflict)
            self._refused.setdefault(deadline.stream, set()).add(deadline.event_id)
            return []
        self._refresh(deadline.stream)
        self._settled.add(deadline.event_id)
        if result.created:
            log.info("deadline %s of %s fired: %s at %s", deadline.deadline.key, deadline.stream,
                     deadline.deadline.event_type, result.records[0].recorded_at)
            return list(result.records)
        # Another process fired it first, or it fired before and a ruling voided its event:
        # the store took ours as a retry, and it is settled either way.
        return []
