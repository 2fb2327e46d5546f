"""Webhooks: an organiser's URL that is told of each event of a tournament as it is stored.
This module keeps them; service/webhook_delivery.py delivers.

A webhook is deployment configuration, not a tournament fact: it lives beside the log (tables
``webhooks`` and ``webhook_deliveries`` in the same SQLite file, or in the same PostgreSQL
database, made by events/storage), never in it, so its secret never enters the log or an
export. The secret is kept as it is (it signs every delivery, so it cannot be a hash) and shown
once, in the answer that creates the webhook.

Each webhook has its *cursor*: the position of the last event of its tournament it has been
given (or that its filters skip). The cursor moves only when a delivery is answered 2xx, in the
same transaction that records the attempt, so a restart resumes exactly where it stood.
"""
from __future__ import annotations

import ipaddress
import json
import secrets
import socket
import sqlite3
import threading
from abc import ABC, abstractmethod
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Iterable, Sequence
from urllib.parse import urlsplit

from events.storage.sqlite_schema import upgrade_connection

SECRET_PREFIX = "whsec_"
URL_MAX = 2000
ACTIVE, DISABLED = "active", "disabled"


@dataclass(frozen=True)
class Webhook:
    webhook_id: str
    tournament_id: str
    url: str
    types: tuple[str, ...] | None      # only these event types (None: every type)
    streams: tuple[str, ...] | None    # only these streams (None: every stream)
    secret: str = field(repr=False)
    created_at: str = ""
    state: str = ACTIVE
    disabled_reason: str | None = None
    cursor: int = 0                    # the last position given (or skipped by the filters)
    failures: int = 0                  # failed attempts in a row at the event after the cursor
    failing_since: str | None = None   # the first of those failures
    next_attempt_at: str | None = None  # no attempt before this time (the backoff)
    attempts_made: int = 0             # every attempt ever made: orders the deliveries read

    def wants(self, event_type: str, stream: str) -> bool:
        return ((self.types is None or event_type in self.types)
                and (self.streams is None or stream in self.streams))

    def public(self) -> dict:
        """What the API shows of it: everything but the secret and the bookkeeping."""
        return {"id": self.webhook_id, "tournament_id": self.tournament_id, "url": self.url,
                "types": list(self.types) if self.types is not None else None,
                "streams": list(self.streams) if self.streams is not None else None,
                "created_at": self.created_at, "state": self.state,
                "disabled_reason": self.disabled_reason, "cursor": self.cursor,
                "failing_since": self.failing_since, "next_attempt_at": self.next_attempt_at}


@dataclass(frozen=True)
class Attempt:
    """One delivery attempt: the event it carried and how the receiver answered."""
    delivery_id: str
    webhook_id: str
    event_id: str
    position: int
    attempt: int                   # 1 for the first attempt at this event, 2 for its retry…
    at: str
    status: int | None             # the receiver's HTTP status (None: no answer)
    error: str | None              # why it failed without a status, or what a status meant
    next_attempt_at: str | None    # when it is tried again (None: delivered, or disabled)
    seq: int = 0

    @property
    def delivered(self) -> bool:
        return self.status is not None and 200 <= self.status < 300

    def public(self) -> dict:
        return {"delivery_id": self.delivery_id, "event_id": self.event_id,
                "position": self.position, "attempt": self.attempt, "at": self.at,
                "status": self.status, "error": self.error, "delivered": self.delivered,
                "next_attempt_at": self.next_attempt_at}


# --- the address rule ---------------------------------------------------------------------

def url_problem(url: str, allow_private: bool) -> str | None:
    """Why a webhook may not be sent to ``url``, or None. Only http(s); and, unless the
    deployment allows it (``WEBHOOKS_ALLOW_PRIVATE``), never to an address that is not
    globally reachable — private, loopback, link-local, multicast, reserved — as the host
    resolves now: a webhook must not become a way into the deployment's own network."""
    if len(url) > URL_MAX:
        return f"must be at most {URL_MAX} characters"
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as error:
        return f"is not a URL: {error}"
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return "must be an http or https URL with a host"
    if parts.username is not None or parts.password is not None:
        return "must not hold a user name or password (the signature authenticates)"
    if allow_private:
        return None
    try:
        found = socket.getaddrinfo(parts.hostname, port or (443 if parts.scheme == "https"
                                                            else 80), proto=socket.IPPROTO_TCP)
    except (OSError, UnicodeError) as error:
        return f"host {parts.hostname!r} does not resolve ({error})"
    for info in found:
        address = ipaddress.ip_address(info[4][0].split("%", 1)[0])
        if not address.is_global or address.is_multicast:
            return (f"host {parts.hostname!r} is {address}, not a public address (private, "
                    "loopback, link-local, multicast and reserved addresses are refused)")
    return None


# --- the registry -------------------------------------------------------------------------

_HOOK_FIELDS = tuple(f.name for f in fields(Webhook))
_ATTEMPT_FIELDS = tuple(f.name for f in fields(Attempt))
_MUTABLE = ("state", "disabled_reason", "cursor", "failures", "failing_since",
            "next_attempt_at", "attempts_made")

_INSERT_HOOK = (f"INSERT INTO webhooks ({', '.join(_HOOK_FIELDS)}) "
                f"VALUES ({', '.join('?' * len(_HOOK_FIELDS))})")
_INSERT_ATTEMPT = (f"INSERT INTO webhook_deliveries ({', '.join(_ATTEMPT_FIELDS)}) "
                   f"VALUES ({', '.join('?' * len(_ATTEMPT_FIELDS))})")


def _attempt_row(attempt: Attempt) -> tuple:
    return tuple(getattr(attempt, f) for f in _ATTEMPT_FIELDS)


def _hook(row: Sequence) -> Webhook:
    values = dict(zip(_HOOK_FIELDS, row))
    for name in ("types", "streams"):
        if values[name] is not None:
            values[name] = tuple(json.loads(values[name]))
    return Webhook(**values)


def _hook_row(hook: Webhook) -> tuple:
    values = asdict(hook)
    for name in ("types", "streams"):
        if values[name] is not None:
            values[name] = json.dumps(list(values[name]))
    return tuple(values[f] for f in _HOOK_FIELDS)


class WebhookRegistry(ABC):
    """The webhooks of a deployment and their delivery attempts, in qmark SQL that both
    databases run (the PostgreSQL pool turns ``?`` into ``%s``)."""

    def create(self, tournament_id: str, url: str, types: Iterable[str] | None,
               streams: Iterable[str] | None, cursor: int, now: str) -> tuple[str, Webhook]:
        """A new active webhook: its secret (shown once) and itself."""
        secret = SECRET_PREFIX + secrets.token_urlsafe(32)
        hook = Webhook(f"wh_{secrets.token_hex(8)}", tournament_id, url,
                       tuple(types) if types is not None else None,
                       tuple(streams) if streams is not None else None,
                       secret, now, cursor=cursor)
        self._write([(_INSERT_HOOK, _hook_row(hook))])
        return secret, hook

    def get(self, tournament_id: str, webhook_id: str) -> Webhook | None:
        rows = self._query(f"SELECT {', '.join(_HOOK_FIELDS)} FROM webhooks "
                           "WHERE webhook_id = ? AND tournament_id = ?",
                           (webhook_id, tournament_id))
        return _hook(rows[0]) if rows else None

    def of_tournament(self, tournament_id: str) -> list[Webhook]:
        return [_hook(r) for r in self._query(
            f"SELECT {', '.join(_HOOK_FIELDS)} FROM webhooks WHERE tournament_id = ? "
            "ORDER BY created_at, webhook_id", (tournament_id,))]

    def active(self) -> list[Webhook]:
        return [_hook(r) for r in self._query(
            f"SELECT {', '.join(_HOOK_FIELDS)} FROM webhooks WHERE state = ? "
            "ORDER BY created_at, webhook_id", (ACTIVE,))]

    def every(self) -> list[Webhook]:
        """Every webhook of the deployment, whatever its state (``paiju migrate`` moves all)."""
        return [_hook(r) for r in self._query(
            f"SELECT {', '.join(_HOOK_FIELDS)} FROM webhooks ORDER BY created_at, webhook_id",
            ())]

    def adopt(self, hook: Webhook, attempts: Iterable[Attempt]) -> None:
        """Keep a webhook moved from another database of the deployment, with its delivery
        attempts, as they were (secret, cursor, state, every attempt), in one transaction:
        ``paiju migrate``."""
        self._write([(_INSERT_HOOK, _hook_row(hook)),
                     *((_INSERT_ATTEMPT, _attempt_row(attempt)) for attempt in attempts)])

    def every_attempt(self, webhook_id: str, page: int = 1000) -> Iterable[Attempt]:
        """The webhook's delivery attempts, all of them, in the order they were made."""
        after = 0
        while batch := self.deliveries(webhook_id, after, page):
            yield from batch
            after = batch[-1].seq

    def deliveries(self, webhook_id: str, after_seq: int = 0, limit: int = 100) -> list[Attempt]:
        """The attempts in the order they were made, after the ``after_seq``-th."""
        return [Attempt(*row) for row in self._query(
            f"SELECT {', '.join(_ATTEMPT_FIELDS)} FROM webhook_deliveries "
            "WHERE webhook_id = ? AND seq > ? ORDER BY seq LIMIT ?",
            (webhook_id, after_seq, limit))]

    def save(self, hook: Webhook, attempt: Attempt | None = None) -> None:
        """The webhook's cursor and state, with the attempt that moved them, in one
        transaction: an attempt is never recorded without its effect, nor the reverse."""
        statements = [(f"UPDATE webhooks SET {', '.join(f'{f} = ?' for f in _MUTABLE)} "
                       "WHERE webhook_id = ?",
                       (*(getattr(hook, f) for f in _MUTABLE), hook.webhook_id))]
        if attempt is not None:
            statements.append((_INSERT_ATTEMPT, _attempt_row(attempt)))
        self._write(statements)

    @abstractmethod
    def _query(self, sql: str, params: Sequence) -> list[tuple]:
        ...

    @abstractmethod
    def _write(self, statements: list[tuple[str, Sequence]]) -> None:
        ...

    def close(self) -> None:  # noqa: B027 - PostgreSQL's pool is the store's, closed with it
        pass


class SQLiteWebhookRegistry(WebhookRegistry):
    """In the deployment's SQLite file (``:memory:`` for an app given a store of its own)."""

    def __init__(self, path: str | Path):
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._conn = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False,
                                     timeout=30)
        self._lock = threading.Lock()
        upgrade_connection(self._conn)  # the tables are the storage's (events/storage)

    def _query(self, sql: str, params: Sequence) -> list[tuple]:
        with self._lock:
            return self._conn.execute(sql, tuple(params)).fetchall()

    def _write(self, statements: list[tuple[str, Sequence]]) -> None:
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                for sql, params in statements:
                    self._conn.execute(sql, tuple(params))
                self._conn.execute("COMMIT")
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise

    def close(self) -> None:
        self._conn.close()


class PostgresWebhookRegistry(WebhookRegistry):
    """In the deployment's PostgreSQL database (tables made by ``paiju db upgrade``)."""

    def __init__(self, pool):
        self.pool = pool  # events.postgres_store.Pool, the store's

    def _query(self, sql: str, params: Sequence) -> list[tuple]:
        return self.pool.query(sql, tuple(params))

    def _write(self, statements: list[tuple[str, Sequence]]) -> None:
        with self.pool.connection() as conn, conn.transaction():
            for sql, params in statements:
                conn.execute(self.pool.sql(sql), tuple(params))
