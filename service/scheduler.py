"""APScheduler wiring of the timer: when to call :meth:`Timekeeper.tick`.

Two jobs: ``paiju-deadline``, a date job at the earliest pending deadline (re-planned after
every tick), and ``paiju-follow``, an interval job that follows the log each second, so that an
append by another worker moves the plan within a second. A POST in this process calls
:meth:`TimerService.nudge`, which follows the log at once (``paiju-nudge``). The jobs hold no state: the plan
is rebuilt from the timekeeper, which is rebuilt from the log.
"""
from __future__ import annotations

import logging
import threading
from datetime import datetime, timedelta, timezone

from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.schedulers.base import BaseScheduler
from apscheduler.triggers.date import DateTrigger
from apscheduler.triggers.interval import IntervalTrigger

from .timekeeping import Timekeeper

log = logging.getLogger("paiju.timer")

DEADLINE_JOB, FOLLOW_JOB, NUDGE_JOB = "paiju-deadline", "paiju-follow", "paiju-nudge"


class TimerService:
    def __init__(self, timekeeper: Timekeeper, scheduler: BaseScheduler | None = None,
                 follow_seconds: float = 1.0):
        self.timekeeper = timekeeper
        self.scheduler = scheduler or BackgroundScheduler(timezone=timezone.utc)
        self.follow_seconds = follow_seconds
        self._nudge_waiting = threading.Event()
        self._stopping = threading.Event()

    def start(self, paused: bool = False) -> None:
        """Rebuild the deadlines from the log, fire what passed while the service was down,
        and plan the next firing. ``paused``: plan without running (tests inspect the jobs)."""
        self.timekeeper.start()
        self.scheduler.add_job(self.tick, IntervalTrigger(seconds=self.follow_seconds),
                               id=FOLLOW_JOB, replace_existing=True, coalesce=True,
                               max_instances=1)
        self.scheduler.start(paused=paused)
        if not paused:
            self.tick()
        else:
            self.plan()

    def tick(self) -> None:
        if self._stopping.is_set():
            return
        try:
            self.timekeeper.tick()
        except Exception:  # a job must not die with one bad tick: log it, try again next time
            log.exception("timer tick failed")
        self.plan()

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
        self.scheduler.add_job(self._nudged, DateTrigger(run_date=datetime.now(timezone.utc)),
                               id=NUDGE_JOB, replace_existing=True, max_instances=2,
                               misfire_grace_time=None)

    def _nudged(self) -> None:
        with self.timekeeper.turn():  # the nudge waits until here: what it follows is after this
            self._nudge_waiting.clear()
            self.tick()

    def shutdown(self) -> None:
        """Stop firing: no new tick starts, a tick in progress finishes its appends, and the
        lease is given up. (APScheduler's waiting shutdown holds the scheduler's locks while a
        tick may still be planning, so the wait is the timekeeper's instead.)"""
        self._stopping.set()
        if self.scheduler.running:
            self.scheduler.shutdown(wait=False)
        self.timekeeper.wait_idle()
        release = getattr(self.timekeeper.lease, "release", None)
        if release is not None:
            try:
                release()
            except Exception as error:  # the database is gone: the lease lapses by itself
                log.warning("the timer's lease was not given up (%s); another process takes "
                            "it over when it expires", error)
