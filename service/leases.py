"""One firing process per deployment: the timer's leader lease, kept in the database (and, by
the same rule under another name, the webhooks' deliverer's: ``name="webhooks"``).

Every worker of a deployment may run a timer (``paiju serve`` starts one in each process), but
only the holder of the lease fires deadlines. The holder renews it on each tick; when it stops
renewing (the process died), another takes it over once it has expired. The lease only saves
work: even two timers firing together append each deadline once, since a timer event's id is
derived from its deadline and the store takes the second as a retry.
"""
from __future__ import annotations

import sqlite3
import threading
import uuid
from abc import ABC, abstractmethod
from datetime import datetime, timedelta
from pathlib import Path

from events.storage.sqlite_schema import upgrade_file
from rules.match_clock import timestamp

LEASE_SECONDS = 10


class Lease(ABC):
    @abstractmethod
    def hold(self, now: datetime) -> bool:
        """Take or renew the lease at ``now``; whether this process holds it."""

    def held(self, now: datetime) -> bool:
        """Whether this process holds the lease at ``now`` by its last take, read without
        taking it (service/metrics.py)."""
        return False


class RenewedLease(Lease):
    """A lease kept in a database, written only when it is half spent: the timer asks at every
    tick and after every append here (a nudge), and a write each time would be a durable commit
    per request. Until ``held_until`` no other process can take it, so not writing is safe."""

    seconds: float
    _held_until: datetime | None = None  # this process's write of the lease lasts until then

    def hold(self, now: datetime) -> bool:
        held_until = self._held_until
        if held_until is not None and now < held_until - timedelta(seconds=self.seconds / 2):
            return True
        mine = self._take(now, now + timedelta(seconds=self.seconds))
        self._held_until = now + timedelta(seconds=self.seconds) if mine else None
        return mine

    def held(self, now: datetime) -> bool:
        held_until = self._held_until
        return held_until is not None and now < held_until

    @abstractmethod
    def _take(self, now: datetime, until: datetime) -> bool:
        """Take or renew the lease until ``until`` in one write transaction."""

    def forget(self) -> None:
        self._held_until = None


class SoleLease(Lease):
    """A deployment with one process (an in-memory store): always the leader."""

    def hold(self, now: datetime) -> bool:
        return True

    def held(self, now: datetime) -> bool:
        return True


class SQLiteLease(RenewedLease):
    """The lease as a row of the deployment's SQLite file (table ``timer_lease``)."""

    def __init__(self, path: str | Path, holder: str | None = None,
                 seconds: float = LEASE_SECONDS, name: str = "timer"):
        self.path, self.seconds, self.name = str(path), seconds, name
        self.holder = holder or f"{name}-{uuid.uuid4()}"
        self._lock = threading.Lock()
        upgrade_file(self.path)  # the table is the storage's (events/storage)

    def _connect(self) -> sqlite3.Connection:
        return sqlite3.connect(self.path, timeout=30, isolation_level=None)

    def _take(self, now: datetime, until_time: datetime) -> bool:
        until = timestamp(until_time)
        with self._lock:
            conn = self._connect()
            try:
                conn.execute("BEGIN IMMEDIATE")  # read and take it in one write transaction
                row = conn.execute("SELECT holder, expires_at FROM timer_lease "
                                   "WHERE name = ?", (self.name,)).fetchone()
                mine = row is None or row[0] == self.holder or row[1] < timestamp(now)
                if mine:
                    conn.execute("INSERT INTO timer_lease (name, holder, expires_at) "
                                 "VALUES (?, ?, ?) ON CONFLICT(name) DO UPDATE SET "
                                 "holder = excluded.holder, expires_at = excluded.expires_at",
                                 (self.name, self.holder, until))
                conn.execute("COMMIT")
                return mine
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            finally:
                conn.close()

    def release(self) -> None:
        """Give the lease up at a clean stop, so another process takes over at once."""
        self.forget()
        with self._lock, self._connect() as conn:
            conn.execute("DELETE FROM timer_lease WHERE name = ? AND holder = ?",
                         (self.name, self.holder))


class PostgresLease(RenewedLease):
    """The lease as a row of the deployment's PostgreSQL database (table ``timer_lease``, made
    by ``paiju db upgrade``): one statement takes it when it is free, expired or already ours."""

    def __init__(self, pool, holder: str | None = None, seconds: float = LEASE_SECONDS,
                 name: str = "timer"):
        self.pool, self.seconds, self.name = pool, seconds, name  # events.postgres_store.Pool
        self.holder = holder or f"{name}-{uuid.uuid4()}"

    def _take(self, now: datetime, until_time: datetime) -> bool:
        until = timestamp(until_time)
        rows = self.pool.execute(
            "INSERT INTO timer_lease (name, holder, expires_at) VALUES (?, ?, ?) "
            "ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, "
            "expires_at = excluded.expires_at "
            "WHERE timer_lease.holder = excluded.holder OR timer_lease.expires_at < ? "
            "RETURNING holder", (self.name, self.holder, until, timestamp(now)))
        return bool(rows)

    def release(self) -> None:
        self.forget()
        self.pool.execute("DELETE FROM timer_lease WHERE name = ? AND holder = ?",
                          (self.name, self.holder))
