"""A deployment on a fake clock, for the timer's tests: nothing sleeps, the test moves time.

``clock`` is the server's test clock (tests.tables.Clock: each recorded event 1 ms after the one
before). The timer's "now" is the time the next event will be recorded at, so
:meth:`Timed.run_to_next` can set the clock for the next deadline's event to be recorded exactly
at its deadline.
"""
from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from clients import admin_client
from tables import Clock

from events.envelope import Record
from events.sqlite_store import SQLiteEventStore
from service import create_app

START = datetime(2026, 11, 29, 9, 0, tzinfo=timezone.utc)


class Timed:
    def __init__(self, path: Path, signer=None, start: datetime = START):
        self.path, self.signer = path, signer
        self.clock = Clock(start)
        self._open()

    def _open(self) -> None:
        self.store = SQLiteEventStore(self.path, clock=self.clock)
        self.app = create_app({"NOW": self.now}, store=self.store, signer=self.signer)
        self.client = admin_client(self.app)
        self.timekeeper = self.app.extensions["paiju"].timekeeper
        self.timekeeper.start()

    def now(self) -> datetime:
        """When the next event will be recorded: the timer's present."""
        return self.clock.now + self.clock.step

    # --- moving time ---------------------------------------------------------------------------
    def advance(self, minutes: float = 0, seconds: float = 0) -> None:
        self.clock.advance(minutes=minutes, seconds=seconds)

    def set_now(self, moment: datetime) -> None:
        """The timer's present becomes ``moment`` (the next event is recorded then)."""
        self.clock.now = moment - self.clock.step

    def fire_due(self) -> list[Record]:
        """What the scheduler does at each tick: follow the log, fire what is due."""
        return self.timekeeper.tick()

    def next_due(self) -> datetime | None:
        self.timekeeper.catch_up()
        return self.timekeeper.next_due()

    def run_to_next(self) -> list[Record]:
        """Move to the earliest pending deadline and fire: its event is recorded exactly at the
        deadline (and any other deadline due then, after it)."""
        due = self.next_due()
        assert due is not None, "no deadline is pending"
        if due > self.now():
            self.set_now(due)
        return self.fire_due()

    # --- reading -------------------------------------------------------------------------------
    def clock_view(self, tid: str, mid: str) -> dict:
        response = self.client.get(f"/v1/tournaments/{tid}/matches/{mid}/clock")
        assert response.status_code == 200, response.json
        return response.json

    def pending(self, tid: str, mid: str) -> list[dict]:
        return self.clock_view(tid, mid)["clocks"]

    # --- stopping ------------------------------------------------------------------------------
    def stop(self) -> None:
        self.store.close()

    def restart(self) -> None:
        """A new process on the same database: the timer rebuilt from the log at start-up."""
        self.stop()
        self._open()
