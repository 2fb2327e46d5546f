"""The timer: every pending deadline of the deployment, and the appending of each one's event
when it passes (so that a time limit is in the log, as everything that happens at a table is).

The :class:`Timekeeper` holds nothing the log does not say. It rebuilds its deadlines from the
log at start-up (:meth:`start`), follows the log for appends by any process (:meth:`catch_up`),
and fires what is due (:meth:`fire_due`) through the application's use case
(service/application: ``fire_deadline``), the append path a client's event takes: the rules
judge the timer's event, and apply its consequence, as for a referee's. A start has two halves,
so that a node answers before it has folded every running match: :meth:`begin` finds, by one
query, the matches that may be running (started, and not marked over or paused since:
projections/quiet_marks.py), and :meth:`load_next` folds them one at a time, which ``paiju
serve`` does in the background while it already answers (service/scheduler.py). A deadline
that passed while the service was down fires at start-up, recorded then, with the original
deadline in its meta. Time comes from ``now``, so tests run on a fake clock and never sleep;
APScheduler only calls :meth:`tick` at the right moments (service/scheduler.py).
"""
from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from datetime import datetime

from events.catalogue import Catalogue
from events.commits import HeardRecords
from events.envelope import Record
from events.store import EventStore, IdempotencyConflict, WrongExpectedVersion
from projections.deadlines import PendingDeadline, pending_deadlines
from projections.quiet_marks import FileQuietMarks, NoQuietMarks, QuietMarks, quiet
from projections.streams import StreamCache, load_stream

from .appending import EventRuleViolation
from .application import Tournaments
from .leases import Lease, SoleLease

log = logging.getLogger("paiju.timer")

# Deadlines fired in one call at most: a restart after a long stop fires what passed, in order,
# and a chain of deadlines each due at once is finite, but a bound keeps a fault from spinning.
MAX_FIRINGS_PER_TICK = 10_000


def _order(p: PendingDeadline) -> tuple:
    """The order deadlines fire in: earliest first, then by stream and key."""
    return (p.due, p.stream, p.deadline.key)


class Timekeeper:
    def __init__(self, store: EventStore, catalogue: Catalogue, now: Callable[[], datetime],
                 cache: StreamCache | None = None, lease: Lease | None = None,
                 marks: QuietMarks | None = None, scan=None,
                 tournaments: Tournaments | None = None):
        self.store, self.catalogue, self.now = store, catalogue, now
        # what the start-up folds read the log through (service/deployment.py:
        # UnmappedSQLiteLog); the store itself by default
        self.scan = scan if scan is not None else store
        self.cache = cache if cache is not None else StreamCache()
        # the use cases: a deadline fires through them as a referee's command would
        self.tournaments = tournaments or Tournaments(store, catalogue, self.cache, now)
        self.lease = lease or SoleLease()
        if marks is None:  # an app given a store of its own: the checkpoint file's, if any
            persisted = self.cache.persisted
            marks = FileQuietMarks(persisted) if persisted is not None else NoQuietMarks()
        self.marks = marks
        self._pending: dict[str, tuple[PendingDeadline, ...]] = {}   # match stream -> deadlines
        self._refused: dict[str, set[str]] = {}  # stream -> timer event ids the rules refused
        # stream -> its earliest deadline that will fire (None: none), worked out when first
        # asked after the stream's deadlines changed: a nudge after every POST asks for the
        # earliest of all, which must not sort every running match's deadlines each time
        self._earliest: dict[str, PendingDeadline | None] = {}
        # the earliest of all, kept while its stream's deadlines stay the same; the streams
        # whose deadlines changed since it was worked out are all a nudge compares it with
        self._first: PendingDeadline | None = None
        self._first_known = False
        self._changed: set[str] = set()
        # timer event ids already in the log: a deadline that comes back with the same id (its
        # event voided by a ruling, say) has had its firing, and a retry would change nothing
        self._settled: set[str] = set()
        # the match streams found at start-up (begin) and not folded yet, in the order found
        self._unknown: dict[str, None] = {}
        self.leading = False                     # whether the last firing held the lease
        self.fired = 0                           # the deadlines this process has fired
        self._position = 0                       # the log position followed so far
        self._lock = threading.RLock()
        # this process's commits, with their records, heard since the last follow
        # (follow_commits): a nudge follows them without reading the log back. A follow that
        # reads the log drops what it read; the bound keeps a timer that stopped following small
        self._heard = HeardRecords()

    # --- following the log --------------------------------------------------------------------
    def follow_commits(self) -> None:
        """Hear this process's commits with their records (events/commits.py), so that a
        follow after one of them (``catch_up(heard=True)``: the nudge a POST gives) takes
        them as they were stored instead of reading the log back. Another process's appends
        are read from the log by the follow that runs each second."""
        self.store.commits.listen_own(self._heard.hear)

    def stop_following_commits(self) -> None:
        self.store.commits.unlisten(self._heard.hear)

    def start(self) -> None:
        """Rebuild the deadlines of every match still running from the log (start-up): both
        halves, :meth:`begin` and :meth:`load`, at once."""
        self.begin()
        self.load()

    def begin(self) -> int:
        """The quick half of a start: where the log ends, and which match streams may have
        deadlines — every match started but those marked over or paused and unchanged since
        (projections/quiet_marks.py) — without folding any. Returns how many are to fold;
        :meth:`load_next` folds them, while :meth:`catch_up` and :meth:`fire_due` already serve
        what is known (a stream an append touches meanwhile is folded then)."""
        with self._lock:
            self._position = self.store.last_position()  # first: what is appended after it
            self._pending.clear()                        # is followed by catch_up
            self._refused.clear()
            self._earliest.clear()
            self._first_known = False
            self._unknown = dict.fromkeys(self.marks.unsettled(self.store))
            return len(self._unknown)

    def load_next(self) -> str | None:
        """Fold the next stream :meth:`begin` found (its deadlines become known); returns it,
        or None once every one is known."""
        with self._lock:
            if not self._unknown:
                self.marks.flush()
                if self.scan is not self.store and hasattr(self.scan, "close"):
                    self.scan.close()  # opened again by the next start, if any
                return None
            stream = next(iter(self._unknown))
            del self._unknown[stream]
            self._refresh(stream, starting=True)
            return stream

    def load(self) -> None:
        """Fold every stream :meth:`begin` found."""
        while self.load_next() is not None:
            pass

    @property
    def known(self) -> bool:
        """Whether every running match's deadlines are known (every stream begin found has
        been folded)."""
        return not self._unknown

    def catch_up(self, heard: bool = False) -> set[str]:
        """Read what was appended since last time (by this process or another) and recompute
        the deadlines of the matches it touched; returns those streams. ``heard``: follow
        this process's commits as they were heard (:meth:`follow_commits`), reading the log
        only where they leave a gap."""
        with self._lock:
            records, reached = self._heard.take(self._position) if heard else ([], False)
            if not reached:  # another process's commit between two of ours, or no word
                if self.store.last_position() <= self._position:
                    return set()
                records = self.store.read_all(after=self._position)
            touched: dict[str, int] = {}  # stream -> the position of its last event read
            for record in records:
                self._position = record.position
                if record.stream.startswith("match-"):
                    touched[record.stream] = record.position
            if not heard:
                self._heard.forget_until(self._position)
            for stream, position in touched.items():
                self._refused.pop(stream, None)  # a new history: judge its deadlines afresh
                self._unknown.pop(stream, None)  # folded now, with what was appended
                self._refresh(stream, at=position)  # which forgets its earliest deadline
            self.marks.flush()
            return set(touched)

    def _refresh(self, stream: str, starting: bool = False, at: int | None = None) -> None:
        """Fold ``stream`` and keep its deadlines. ``starting`` (a stream found at start-up,
        most of them over): the fold starts from the checkpoint file's newest checkpoint but
        writes none and keeps nothing in memory — a finished match is folded, and its
        checkpoints written, when it is first read — and only a running match's state is
        kept, as the head its next move folds from, and written for the next start. ``at``:
        the position of the stream's last event the caller read — the node's live state of
        that position, when it holds it, is the stream's state without a read of the log."""
        if starting:
            own = StreamCache(budget=0, persisted=self.cache.persisted, writes=False)
            folded = load_stream(self.scan, self.catalogue, stream, cache=own)
            if folded.version and not quiet(folded):
                self.cache.put(folded)
                self.cache.checkpoint(folded, persist=True)
        else:
            folded = load_stream(self.store, self.catalogue, stream, at, cache=self.cache)
        found = pending_deadlines(folded)
        self._forget_earliest(stream)
        if found:
            self._pending[stream] = found
        else:
            self._pending.pop(stream, None)
        if quiet(folded):  # over or paused: not folded at the next start until it moves
            self.marks.mark(stream, folded.version, folded.hash)

    # --- reading ------------------------------------------------------------------------------
    def pending(self) -> list[PendingDeadline]:
        """Every deadline that will fire, earliest first (refused ones left out)."""
        with self._lock:
            every = [p for stream, found in self._pending.items() for p in found
                     if p.event_id not in self._refused.get(stream, ())
                     and p.event_id not in self._settled]
        return sorted(every, key=_order)

    def next_due(self) -> datetime | None:
        first = self.earliest()
        return first.due if first is not None else None

    def earliest(self) -> PendingDeadline | None:
        """``pending()[0]``, or None: the earliest of all as it was, compared with the
        earliest of each stream that changed since (all streams', when its own changed)."""
        with self._lock:
            if self._first_known:
                firsts = [self._first] + [self._earliest_of(s) for s in self._changed
                                          if s in self._pending]
            else:
                firsts = [self._earliest_of(stream) for stream in self._pending]
            self._first = min((p for p in firsts if p is not None), key=_order, default=None)
            self._first_known = True
            self._changed.clear()
            return self._first

    def _forget_earliest(self, stream: str) -> None:
        """``stream``'s deadlines changed: its earliest is worked out again when asked."""
        self._earliest.pop(stream, None)
        self._changed.add(stream)
        if self._first is not None and self._first.stream == stream:
            self._first_known = False

    def _earliest_of(self, stream: str) -> PendingDeadline | None:
        if stream not in self._earliest:
            refused = self._refused.get(stream, ())
            # the first that will fire: a stream's deadlines are kept in _order already
            # (pending_deadlines), so the ids of the later ones need not be made
            self._earliest[stream] = next(
                (p for p in self._pending[stream]
                 if p.event_id not in refused and p.event_id not in self._settled), None)
        return self._earliest[stream]

    def next_due_of(self, stream: str) -> datetime | None:
        """The earliest deadline of ``stream`` that will fire (None: none)."""
        with self._lock:
            found = [p.due for p in self._pending.get(stream, ())
                     if p.event_id not in self._refused.get(stream, ())
                     and p.event_id not in self._settled]
        return min(found) if found else None

    def wait_idle(self) -> None:
        """Return once no other thread is following the log or firing."""
        with self.turn():
            pass

    def turn(self) -> threading.RLock:
        """This thread's turn to follow the log and fire (``with timekeeper.turn(): ...``)."""
        return self._lock

    # --- firing -------------------------------------------------------------------------------
    def tick(self, heard: bool = False) -> list[Record]:
        """Follow the log (``heard``: this process's commits as heard), then fire what is
        due: what the scheduler calls."""
        self.catch_up(heard)
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
                first = self.earliest()
                if first is None or first.due > now:
                    break
                fired.extend(self._fire(first))
            else:
                log.error("more than %d deadlines due at once; the rest wait for the next tick",
                          MAX_FIRINGS_PER_TICK)
            if fired:
                self.marks.flush()
            return fired

    def _fire(self, deadline: PendingDeadline) -> list[Record]:
        try:
            result = self.tournaments.fire_deadline(deadline)
        except EventRuleViolation as refused:
            # The log moved on (a move made just in time, another process's firing): the
            # rules have the last word; the deadline is recomputed from the new state.
            log.info("deadline %s of %s refused: %s %s", deadline.deadline.key,
                     deadline.stream, refused.violation.rule, refused.violation.message)
            self._refused.setdefault(deadline.stream, set()).add(deadline.event_id)
            self._forget_earliest(deadline.stream)
            self.catch_up()
            return []
        except (IdempotencyConflict, WrongExpectedVersion) as conflict:
            log.warning("deadline %s of %s not appended: %s", deadline.deadline.key,
                        deadline.stream, conflict)
            self._refused.setdefault(deadline.stream, set()).add(deadline.event_id)
            self._forget_earliest(deadline.stream)
            return []
        self._refresh(deadline.stream)
        self._settled.add(deadline.event_id)
        self._forget_earliest(deadline.stream)
        if result.created:
            self.fired += 1
            log.info("deadline %s of %s fired: %s at %s", deadline.deadline.key, deadline.stream,
                     deadline.deadline.event_type, result.records[0].recorded_at)
            return list(result.records)
        # Another process fired it first, or it fired before and a ruling voided its event:
        # the store took ours as a retry, and it is settled either way.
        return []
