"""APScheduler wiring of the timer: when to call :meth:`Timekeeper.tick`.

A start answers at once (a restart must not keep a node out of service while it folds):
:meth:`TimerService.start` finds the matches that may be running (one query,
:meth:`Timekeeper.begin`) and starts the jobs; a thread of its own (``paiju-timer-load``) then
folds those matches one at a time, firing at once a deadline that fell due while the node was
down or starting, and planning the others. Meanwhile the node
serves, and the timer follows the log and fires what it knows. Once every running match's
deadlines are known and what was due has been fired, :attr:`TimerService.caught_up` is set
(the readiness probe reads it) and a log line says how long it took.

Two jobs: ``paiju-deadline``, a date job at the earliest pending deadline (re-planned after
every tick), and ``paiju-follow``, an interval job that follows the log each second, so that an
append by another worker moves the plan within a second. A POST in this process calls
:meth:`TimerService.nudge`, which follows at once, on a thread of its own (``paiju-timer-nudge``,
woken by an event: a POST must not pay for a scheduler job of its own), the commits this process
made as they were heard (their records), reading the log only where they leave a gap.
The jobs hold no state: the plan is rebuilt from the timekeeper, which is rebuilt from the log.
"""
from __future__ import annotations

import logging
import threading
import time
from datetime import datetime, timedelta, timezone

from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.schedulers.base import BaseScheduler
from apscheduler.triggers.date import DateTrigger
from apscheduler.triggers.interval import IntervalTrigger

from events.envelope import Record

from .timekeeping import Timekeeper

log = logging.getLogger("paiju.timer")

DEADLINE_JOB, FOLLOW_JOB, NUDGE_JOB = "paiju-deadline", "paiju-follow", "paiju-nudge"
# A nudge waits this long before it follows the log, so that the moves of a busy hall that come
# meanwhile are followed in the same tick (200 tables: about six), not in one tick each.
NUDGE_GATHER_SECONDS = 0.05


class TimerService:
    def __init__(self, timekeeper: Timekeeper, scheduler: BaseScheduler | None = None,
                 follow_seconds: float = 1.0):
        self.timekeeper = timekeeper
        self.scheduler = scheduler or BackgroundScheduler(timezone=timezone.utc)
        self.follow_seconds = follow_seconds
        self._nudge_waiting = threading.Event()
        self._stopping = threading.Event()
        # set once every running match's deadlines are known and what was due has been fired
        # (or is another node's to fire): what the readiness probe waits for
        self.caught_up = threading.Event()
        self._loader: threading.Thread | None = None
        self._nudger: threading.Thread | None = None

    def start(self, paused: bool = False) -> None:
        """Find the matches that may be running and start following the log at once; fold
        them in the background (fire what passed while the service was down, plan the rest),
        then set :attr:`caught_up`. ``paused``: fold them here and plan without running
        (tests inspect the jobs)."""
        began, fired_before = time.perf_counter(), self.timekeeper.fired
        self.timekeeper.follow_commits()  # before begin: what is heard after it is followed
        to_fold = self.timekeeper.begin()
        self.scheduler.add_job(self.tick, IntervalTrigger(seconds=self.follow_seconds),
                               id=FOLLOW_JOB, replace_existing=True, coalesce=True,
                               max_instances=1)
        self.scheduler.start(paused=paused)
        if paused:
            self.timekeeper.load()
            self.plan()
            self.caught_up.set()
            return
        self._loader = threading.Thread(target=self._load, args=(began, to_fold, fired_before),
                                        name="paiju-timer-load", daemon=True)
        self._loader.start()
        self._nudger = threading.Thread(target=self._follow_nudges, name="paiju-timer-nudge",
                                        daemon=True)
        self._nudger.start()

    def _load(self, began: float, to_fold: int, fired_before: int) -> None:
        """Fold the matches found at start, one at a time (the timekeeper's lock is taken for
        each, so a tick or a nudge waits for one fold at most); a deadline already due fires
        at once, a later one is planned at once."""
        failed = 0
        while not self._stopping.is_set():
            try:
                stream = self.timekeeper.load_next()
            except Exception:  # one match that does not fold must not leave the others unknown
                failed += 1
                log.exception("the timer could not fold a running match at start")
                continue
            if stream is None:
                break
            due = self.timekeeper.next_due_of(stream)
            if due is not None and due <= self.timekeeper.now():
                self.tick()
            elif due is not None:
                self.plan()
        if self._stopping.is_set():
            return
        self.tick()  # whatever fell due meanwhile, then the plan
        log.info("timer caught up in %.1f s: %d matches folded%s, %d deadlines fired, %d "
                 "pending", time.perf_counter() - began, to_fold,
                 f" ({failed} could not be)" if failed else "",
                 self.timekeeper.fired - fired_before, len(self.timekeeper.pending()))
        self.caught_up.set()

    def tick(self, heard: bool = False) -> list[Record]:
        """Follow the log, fire what is due, plan the next firing; the events fired.
        ``heard``: follow this process's commits as heard (a nudge), not the log."""
        if self._stopping.is_set():
            return []
        fired: list[Record] = []
        try:
            fired = self.timekeeper.tick(heard)
        except Exception:  # a job must not die with one bad tick: log it, try again next time
            log.exception("timer tick failed")
        self.plan()
        return fired

    def plan(self) -> None:
        """The date job at the earliest pending deadline (none when nothing is pending)."""
        if self._stopping.is_set():
            return
        due = self.timekeeper.next_due()
        if due is None:
            if self.scheduler.get_job(DEADLINE_JOB) is not None:
                self.scheduler.remove_job(DEADLINE_JOB)
            return
        # Still due after a tick: another process holds the lease (and fires it), or the firing
        # failed. Look again at the next follow rather than at once, over and over.
        now = self.timekeeper.now()
        if due <= now:
            due = now + timedelta(seconds=self.follow_seconds)
        if self.planned_at() == due:
            return
        self.scheduler.add_job(self.tick, DateTrigger(run_date=due), id=DEADLINE_JOB,
                               replace_existing=True, misfire_grace_time=None,
                               max_instances=1)

    def planned_at(self) -> datetime | None:
        job = self.scheduler.get_job(DEADLINE_JOB)
        return None if job is None else job.trigger.run_date

    def nudge(self) -> None:
        """Something was appended here: follow the log now rather than within a second. At most
        one nudge waits while another runs (the timekeeper's lock puts it after the running
        tick); nudges that come meanwhile are the waiting one."""
        if not self.scheduler.running or self._nudge_waiting.is_set():
            return
        self._nudge_waiting.set()
        if self._nudger is None:  # started paused: a job, run once the scheduler resumes
            self.scheduler.add_job(self._nudged, DateTrigger(run_date=datetime.now(timezone.utc)),
                                   id=NUDGE_JOB, replace_existing=True, max_instances=2,
                                   misfire_grace_time=None)

    def _follow_nudges(self) -> None:
        """The nudges' thread: a tick for each time it is woken, until the timer stops (it
        looks each second: a wake-up that :meth:`_nudged` cleared is not waited for forever)."""
        while not self._stopping.is_set():
            if self._nudge_waiting.wait(timeout=1.0) and \
                    not self._stopping.wait(NUDGE_GATHER_SECONDS):
                self._nudged()

    def _nudged(self) -> None:
        with self.timekeeper.turn():  # the nudge waits until here: what it follows is after this
            self._nudge_waiting.clear()
            self.tick(heard=True)

    def shutdown(self) -> None:
        """Stop firing: no new tick starts, a tick in progress finishes its appends, and the
        lease is given up. (APScheduler's waiting shutdown holds the scheduler's locks while a
        tick may still be planning, so the wait is the timekeeper's instead.)"""
        self._stopping.set()
        self.timekeeper.stop_following_commits()
        self._nudge_waiting.set()  # wakes the nudges' thread, which sees the timer stopping
        if self.scheduler.running:
            self.scheduler.shutdown(wait=False)
        if self._loader is not None and self._loader is not threading.current_thread():
            self._loader.join(timeout=30)  # it stops after the fold in progress
        self.timekeeper.wait_idle()  # the tick in progress, the nudges' thread's too
        release = getattr(self.timekeeper.lease, "release", None)
        if release is not None:
            try:
                release()
            except Exception as error:  # the database is gone: the lease lapses by itself
                log.warning("the timer's lease was not given up (%s); another process takes "
                            "it over when it expires", error)
