"""The deployment's tokens held in memory by each serving node, so that neither a request nor
an open stream's recheck reads the ``tokens`` table.

A look-up was a query of the table at every request and every few seconds of every open
stream (a fifth of a node's time under a room of tablets). The node now keeps every token —
there are a few thousand at most: the officials', the tables', the seats', the browsers'
sessions — and learns of a change by the table's *change counter* (``paiju_changes``, moved
by a trigger in the transaction of every insert, update or delete of a token: events/storage),
which it reads once a second from a thread of its own; when the counter has moved it reads the
tokens again. So a token revoked or made by another process (``paiju token revoke``, another
node) holds on every node within about a second, expiry holds at once (it is a comparison of
times), and a change made through this node holds here at once (written through).

A secret the node does not know may be a token made elsewhere a moment ago: the counter is read
then (one row, not the table), and the tokens read again if it moved. A database that cannot be
reached leaves the tokens as they were last read; the poller says so in the log and tries again.
"""
from __future__ import annotations

import logging
import sqlite3
import threading
import weakref
from dataclasses import replace
from pathlib import Path
from typing import Callable

from .tokens import NotHeld, Token, TokenRegistry

log = logging.getLogger("paiju.tokens")

REFRESH_SECONDS = 1.0  # how often the change counter is read: a revocation's delay, at most
SERIAL = "SELECT serial FROM paiju_changes WHERE name = 'tokens'"


class CachedTokens(TokenRegistry):
    """A registry (SQLite's or PostgreSQL's) whose look-ups are answered from memory. Writes
    go to the registry underneath and are written through; listings (``all``) and a sign-in
    code's ``find`` read the table, as they are not on a request's path."""

    def __init__(self, registry: TokenRegistry, serial: Callable[[], int],
                 refresh_seconds: float = REFRESH_SECONDS,
                 on_close: Callable[[], None] | None = None):
        super().__init__(registry.clock)
        self.registry, self._serial_of = registry, serial
        self.refresh_seconds = refresh_seconds
        self._on_close = on_close or (lambda: None)
        self._tokens: dict[str, Token] = {}    # digest -> token
        self._digests: dict[str, str] = {}     # token id -> digest
        self._serial: int | None = None        # the counter the tokens are as of (None: unread)
        self._reading = threading.Lock()       # one read of the table at a time
        self._writing = threading.Lock()       # the dictionaries, for the writes through
        self._stopped = threading.Event()
        self._poller: threading.Thread | None = None
        self._checked_at: str | None = None    # the clock at the last expiry check
        self.refresh()  # at the start: no request reads the table on its way

    # --- look-ups: memory -------------------------------------------------------------------
    def _by_digest(self, token_digest: str) -> Token | None:
        if self._poller is None:
            self._start()
        token = self._tokens.get(token_digest)
        if token is None:  # made elsewhere since the last read?
            self.refresh()
            token = self._tokens.get(token_digest)  # whichever thread read them
        return token

    def _held(self, token_digest: str) -> Token | None:
        token = self._tokens.get(token_digest) if self._poller is not None else None
        if token is None:  # unknown here: made elsewhere a moment ago? That is a read
            raise NotHeld
        return token

    def find(self, token_digest: str) -> Token | None:
        return self.registry.find(token_digest)  # why a claim failed: as the table has it

    # --- writes: through -------------------------------------------------------------------
    def _insert(self, token_digest: str, token: Token) -> None:
        self.registry._insert(token_digest, token)
        self._keep(token_digest, token)

    def _by_id(self, token_id: str) -> Token | None:
        return self.registry._by_id(token_id)  # revoke's: the table's, however fresh

    def _set_revoked(self, token_id: str, at: str) -> None:
        self.registry._set_revoked(token_id, at)
        with self._writing:
            token_digest = self._digests.get(token_id)
            if token_digest is not None:
                self._tokens[token_digest] = replace(self._tokens[token_digest], revoked_at=at)

    def _claim(self, token_digest: str, at: str) -> Token | None:
        token = self.registry._claim(token_digest, at)
        if token is not None:
            self._keep(token_digest, token)
        return token

    def _keep(self, token_digest: str, token: Token) -> None:
        with self._writing:
            self._tokens[token_digest] = token
            self._digests[token.token_id] = token_digest

    # --- listings: the table ---------------------------------------------------------------
    def all(self) -> list[Token]:
        return self.registry.all()

    def with_digests(self) -> list[tuple[str, Token]]:
        return self.registry.with_digests()

    # --- keeping in step -------------------------------------------------------------------
    def refresh(self) -> bool:
        """Read the tokens again if the counter moved since they were read; whether it had.
        Those that changed are told to the watchers (:meth:`TokenRegistry.watch`)."""
        with self._reading:
            serial = self._serial_of()
            if serial == self._serial:
                return False
            rows = self.registry.with_digests()  # after the counter: a change is never missed
            tokens = dict(rows)
            before = {t.token_id: t for t in self._tokens.values()}
            with self._writing:
                self._tokens = tokens
                self._digests = {t.token_id: d for d, t in tokens.items()}
            first, self._serial = self._serial is None, serial
        after = {t.token_id: t for t in tokens.values()}
        changed = frozenset(i for i in before.keys() | after.keys()
                            if before.get(i) != after.get(i))
        if changed and not first:
            self._tell(changed)
        return True

    def expired_since_last_check(self) -> frozenset[str]:
        """The tokens that expired since the previous call (the poller tells the watchers)."""
        now, since = self.clock(), self._checked_at
        self._checked_at = now
        if since is None:
            return frozenset()
        return frozenset(t.token_id for t in list(self._tokens.values())
                         if t.expires_at is not None and since < t.expires_at <= now)

    def _start(self) -> None:
        """The poller, at the first look-up (a command that only lists or makes tokens
        starts none). It holds the registry weakly: an app dropped without being closed (a
        test's) takes its poller with it."""
        with self._writing:
            if self._poller is None and not self._stopped.is_set():
                self._poller = threading.Thread(
                    target=_poll, args=(weakref.ref(self), self._stopped, self.refresh_seconds),
                    name="paiju-tokens", daemon=True)
                self._poller.start()

    def keep_in_step(self, failing: bool) -> bool:
        """One round of the poller: the counter (and the tokens if it moved), then the tokens
        that expired since the last round, told to the watchers. Whether it failed."""
        try:
            self.refresh()
            if expired := self.expired_since_last_check():
                self._tell(expired)
        except Exception as error:  # noqa: BLE001 - the poller must outlive an outage
            if not failing:
                log.warning("tokens not read again (%s): a revocation made elsewhere holds "
                            "here once the database answers", error)
            return True
        if failing:
            log.warning("tokens read again: revocations made elsewhere hold again")
        return False

    def close(self) -> None:
        self._stopped.set()
        if self._poller is not None and self._poller.is_alive():
            self._poller.join(timeout=5)
        self._on_close()
        self.registry.close()


def _poll(cache_ref: weakref.ref, stopped: threading.Event, seconds: float) -> None:
    failing = False
    while not stopped.wait(seconds):
        cache = cache_ref()
        if cache is None:
            return
        failing = cache.keep_in_step(failing)
        del cache


def sqlite_serial(path: str | Path) -> tuple[Callable[[], int], Callable[[], None]]:
    """The change counter of the tokens of the SQLite file at ``path``, on a connection of its
    own (the poller's, and a look-up's that missed); and the call that closes it."""
    conn = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False, timeout=30)
    lock = threading.Lock()

    def serial() -> int:
        with lock:
            return conn.execute(SERIAL).fetchone()[0]
    return serial, conn.close


def postgres_serial(pool) -> Callable[[], int]:
    """The change counter of the tokens of the PostgreSQL database of ``pool`` (the store's)."""
    return lambda: pool.query(SERIAL)[0][0]
