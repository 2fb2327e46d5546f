"""Group commit without a writer thread: the appends waiting at one moment share a commit,
made by the thread of the first of them.

An append is a :class:`Job` handed to :meth:`CommitGroups.submit` by the thread that asked for
it (a request's, the timer's). The first to arrive *leads*: it commits a group of itself and
every append queued behind it by then, wakes them with their results, hands the lead to the
next one queued (which leads the next group, with whatever queued meanwhile) and returns. Which
appends may share a commit is the store's to say (``key``): a PostgreSQL node groups each
tournament's apart (events/postgres_store.py); SQLite, one writer to the file, groups them all
(events/sqlite_store.py).

No thread is there only to commit: a hand-over to one and back cost every append two wake-ups
and the interpreter's lock changing hands twice — about a tenth of a move's CPU at 100 tables
at a human pace (bench/paced_tables.py), measured against a writer thread on SQLite.
"""
from __future__ import annotations

import threading
from typing import Callable, Hashable

from rules.messages import Message

from .commits import GroupSizes
from .envelope import NewEvent
from .store import AppendResult, Decide, StoreClosed, StoreUnavailable


class Job:
    """One append, from its submission to its result (or refusal)."""

    __slots__ = ("tournament_id", "events", "decide", "result", "error", "finished",
                 "wake", "leads")

    def __init__(self, tournament_id: str, events: list[NewEvent], decide: Decide | None):
        self.tournament_id, self.events, self.decide = tournament_id, events, decide
        self.result: AppendResult | None = None
        self.error: BaseException | None = None
        self.finished = False
        self.leads = False
        self.wake = threading.Event()  # set when finished, or when it is to lead a group

    def outcome(self) -> AppendResult:
        if self.error is not None:
            raise self.error
        return self.result


def by_tournament(job: Job) -> Hashable:
    return job.tournament_id


class CommitGroups:
    """Forms the groups: ``commit(jobs)`` is called with the queued appends of one ``key`` at a
    time, and must finish every job it is given (a result or an error on each)."""

    def __init__(self, commit: Callable[[list[Job]], None], max_group: int = 256,
                 key: Callable[[Job], Hashable] = by_tournament):
        self._commit, self.max_group, self._key = commit, max_group, key
        self._lock = threading.Lock()
        self._idle = threading.Condition(self._lock)  # notified when no group is left to run
        self._queued: dict[Hashable, list[Job]] = {}  # key -> jobs waiting; a key: a leader runs
        self._closed = False
        self.sizes = GroupSizes()  # appends per group (recorded under the lock)

    def submit(self, job: Job) -> AppendResult:
        with self._lock:
            if self._closed:
                raise StoreClosed("the event store is closed")
            queue = self._queued.get(self._key(job))
            if queue is None:
                self._queued[self._key(job)] = []
                job.leads = True
            else:
                queue.append(job)
        if not job.leads:
            self._wait(job)
        if not job.finished:
            self._lead(job)
        return job.outcome()

    def waiting(self) -> int:
        """How many appends are queued behind the groups being committed."""
        with self._lock:
            return sum(len(queue) for queue in self._queued.values())

    def close(self) -> None:
        """Refuse every later append; the appends submitted before are committed first (this
        returns when the last of them is)."""
        with self._lock:
            self._closed = True
            while self._queued:
                self._idle.wait()

    def _wait(self, job: Job) -> None:
        """Wait to be finished or to lead. A waiter that is interrupted (KeyboardInterrupt in
        the thread) leaves the queue, or, if the lead has just come to it, passes it on: no
        append of its group may be left waiting for it."""
        try:
            job.wake.wait()
        except BaseException:
            with self._lock:
                queue = self._queued.get(self._key(job), [])
                if job in queue:
                    queue.remove(job)
                    raise
            if job.leads and not job.finished:
                self._hand_on(self._key(job))
            raise

    def _lead(self, job: Job) -> None:
        key = self._key(job)
        with self._lock:
            queue = self._queued[key]
            group = [job, *queue[:self.max_group - 1]]
            del queue[:self.max_group - 1]
            self.sizes.record(len(group))
        done = False
        try:
            self._commit(group)
            done = True
        finally:
            for member in group:
                if not done:  # cut short (an exception through the commit): nothing counts
                    member.result, member.error = None, StoreUnavailable(Message(
                        "the append was interrupted; nothing of it was committed"))
                member.finished = True
                member.wake.set()
            self._hand_on(key)

    def _hand_on(self, key: Hashable) -> None:
        with self._lock:
            queue = self._queued[key]
            if not queue:
                del self._queued[key]
                if not self._queued:
                    self._idle.notify_all()
                return
            successor = queue.pop(0)
        successor.leads = True
        successor.wake.set()
