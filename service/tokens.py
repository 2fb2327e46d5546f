"""Bearer tokens: who a request comes from, and within what it may act.

A token is shown once, when it is created (``paiju token create``); the deployment keeps only
its SHA-256, so a copied database gives no one a working token. Tokens are deployment
configuration, not tournament facts: they live beside the log (a ``tokens`` table in the same
SQLite file, or in the same PostgreSQL database), never in it, and revoking one sets its
``revoked_at``.
"""
from __future__ import annotations

import hashlib
import queue
import re
import secrets
import sqlite3
import threading
from abc import ABC, abstractmethod
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Callable, Iterable

from events.envelope import utc_timestamp
from events.sqlite_store import MMAP_BYTES
from events.storage.sqlite_schema import upgrade_connection

ROLES = ("admin", "organiser", "referee", "committee", "table", "player", "auditor", "system")
PREFIX = "pj_"
_TOKEN = re.compile(r"pj_[A-Za-z0-9_-]{43}")  # the prefix and 32 random bytes, base64url


class TokenError(ValueError):
    """A token that cannot be created as asked (bad scope for its role)."""


@dataclass(frozen=True)
class Token:
    """What a token allows: its role, and the tournament, match and seat it is bound to."""
    token_id: str
    role: str
    tournament_id: str | None = None
    match_id: str | None = None
    seat: int | None = None
    name: str | None = None          # who holds it: goes into meta.actor of what it posts
    created_at: str = ""
    expires_at: str | None = None    # UTC, as recorded_at
    revoked_at: str | None = None

    @property
    def actor(self) -> str:
        return self.name or f"token:{self.token_id}"

    def expired(self, now: str) -> bool:
        return self.expires_at is not None and now >= self.expires_at


def check_scope(role: str, tournament_id: str | None, match_id: str | None,
                seat: int | None) -> None:
    """Each role is bound exactly as far as it acts: admin nowhere in particular, the officials
    to one tournament, a table to one match, a player to one seat of one match."""
    if role not in ROLES:
        raise TokenError(f"role must be one of {', '.join(ROLES)}")
    if role == "admin":
        if tournament_id or match_id or seat is not None:
            raise TokenError("an admin token is not bound to a tournament, match or seat")
        return
    if not tournament_id:
        raise TokenError(f"a {role} token needs --tournament")
    needs_match = role in ("table", "player")
    if needs_match and not match_id:
        raise TokenError(f"a {role} token needs --match")
    if not needs_match and match_id:
        raise TokenError(f"a {role} token is not bound to a match")
    if (role == "player") != (seat is not None):
        raise TokenError("a player token needs --seat" if role == "player"
                         else f"a {role} token is not bound to a seat")
    if seat is not None and not 0 <= seat <= 3:
        raise TokenError("--seat must be 0, 1, 2 or 3")


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def well_formed(secret: str) -> bool:
    return bool(_TOKEN.fullmatch(secret))


class NotHeld(LookupError):
    """A look-up that would read the tokens table (``TokenRegistry.held``)."""


class TokenRegistry(ABC):
    """The tokens of a deployment, kept by the hash of their secret."""

    def __init__(self, clock: Callable[[], str] | None = None):
        self.clock = clock or utc_timestamp
        self._watchers: list[Callable[[frozenset[str]], None]] = []

    def create(self, role: str, tournament_id: str | None = None, match_id: str | None = None,
               seat: int | None = None, name: str | None = None,
               expires_at: str | None = None) -> tuple[str, Token]:
        """A new token: its secret (shown once, never stored) and what it allows."""
        check_scope(role, tournament_id, match_id, seat)
        secret = PREFIX + secrets.token_urlsafe(32)
        token = Token(secrets.token_hex(4), role, tournament_id, match_id, seat, name,
                      self.clock(), expires_at)
        self._insert(digest(secret), token)
        return secret, token

    def lookup(self, secret: str) -> Token | None:
        """The token of ``secret`` (revoked and expired ones included), or None."""
        return self._by_digest(digest(secret)) if well_formed(secret) else None

    def held(self, secret: str) -> Token | None:
        """``lookup`` where it needs no read of the table (the node holds its tokens in
        memory); raises :class:`NotHeld` where it would. For an event loop's own thread."""
        if not well_formed(secret):
            return None
        return self._held(digest(secret))

    def _held(self, token_digest: str) -> Token | None:
        raise NotHeld  # a registry of a table reads it at every look-up

    def revoke(self, token_id: str) -> Token | None:
        """Revoke at once: the next request with it is refused. None if no such token."""
        token = self._by_id(token_id)
        if token is None or token.revoked_at:
            return token
        token = replace(token, revoked_at=self.clock())
        self._set_revoked(token_id, token.revoked_at)
        self._tell(frozenset({token_id}))
        return token

    def watch(self, changed: Callable[[frozenset[str]], None]) -> Callable[[], None]:
        """Be told the ids of the tokens that changed — revoked here, or, where the tokens are
        held in memory (service/token_cache.py), seen revoked, expired or new — so that an open
        stream can ask again at once rather than at its next recheck. Returns the call that
        stops it. ``changed`` runs on the thread that saw the change: it must not block."""
        self._watchers.append(changed)
        return lambda: self._watchers.remove(changed) if changed in self._watchers else None

    def _tell(self, token_ids: frozenset[str]) -> None:
        for changed in list(self._watchers):
            changed(token_ids)

    def adopt(self, token_digest: str, token: Token) -> None:
        """Keep a token moved from another database of the deployment, by its digest (its
        secret is not known here, and need not be): ``paiju migrate``."""
        self._insert(token_digest, token)

    def claim(self, token_digest: str) -> Token | None:
        """Use up a one-time credential kept by its digest (a sign-in code, service/sessions.py):
        revoked now if it was neither revoked nor expired, in one step, so that of two claims at
        once exactly one gets it. The credential as claimed, or None (``find`` tells why)."""
        return self._claim(token_digest, self.clock())

    def find(self, token_digest: str) -> Token | None:
        """What is kept by ``token_digest`` (a sign-in code's, which ``lookup`` never takes)."""
        return self._by_digest(token_digest)

    # storage
    @abstractmethod
    def _insert(self, token_digest: str, token: Token) -> None:
        ...

    @abstractmethod
    def _by_digest(self, token_digest: str) -> Token | None:
        ...

    @abstractmethod
    def _by_id(self, token_id: str) -> Token | None:
        ...

    @abstractmethod
    def _set_revoked(self, token_id: str, at: str) -> None:
        ...

    @abstractmethod
    def _claim(self, token_digest: str, at: str) -> Token | None:
        ...

    @abstractmethod
    def all(self) -> list[Token]:
        ...


class InMemoryTokenRegistry(TokenRegistry):
    """For an app on the in-memory event store (tests): tokens vanish with the process."""

    def __init__(self, clock: Callable[[], str] | None = None):
        super().__init__(clock)
        self._tokens: dict[str, Token] = {}  # digest -> token
        self._lock = threading.Lock()

    def _insert(self, token_digest: str, token: Token) -> None:
        with self._lock:
            self._tokens[token_digest] = token

    def _by_digest(self, token_digest: str) -> Token | None:
        return self._tokens.get(token_digest)

    _held = _by_digest  # it is all memory

    def _by_id(self, token_id: str) -> Token | None:
        return next((t for t in self._tokens.values() if t.token_id == token_id), None)

    def _set_revoked(self, token_id: str, at: str) -> None:
        with self._lock:
            for key, token in self._tokens.items():
                if token.token_id == token_id:
                    self._tokens[key] = replace(token, revoked_at=at)

    def _claim(self, token_digest: str, at: str) -> Token | None:
        with self._lock:
            token = self._tokens.get(token_digest)
            if token is None or token.revoked_at or token.expired(at):
                return None
            self._tokens[token_digest] = token = replace(token, revoked_at=at)
            return token

    def all(self) -> list[Token]:
        return sorted(self._tokens.values(), key=lambda t: (t.created_at, t.token_id))


_FIELDS = ("token_id", "role", "tournament_id", "match_id", "seat", "name", "created_at",
           "expires_at", "revoked_at")

# A one-time credential is claimed by one statement: the database decides which of two wins.
_CLAIM = ("UPDATE tokens SET revoked_at = ? WHERE digest = ? AND revoked_at IS NULL "
          f"AND (expires_at IS NULL OR expires_at > ?) RETURNING {', '.join(_FIELDS)}")


class SQLiteTokenRegistry(TokenRegistry):
    """Tokens in the ``tokens`` table of the deployment's SQLite file. Each look-up here reads
    the table; a serving node asks :class:`service.token_cache.CachedTokens` instead, which
    holds them in memory and learns of changes by the table's change counter."""

    def __init__(self, path: str | Path, clock: Callable[[], str] | None = None):
        super().__init__(clock)
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._conn = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False,
                                     timeout=30)
        self._conn.execute(f"PRAGMA mmap_size={MMAP_BYTES}")  # as the store's readers
        self._lock = threading.Lock()
        self._path, self._opened = str(path), []
        self._idle: queue.LifoQueue[sqlite3.Connection] = queue.LifoQueue()
        upgrade_connection(self._conn)  # the table is the storage's (events/storage)

    def _rows(self, where: str, params: Iterable) -> list[Token]:
        """A look-up on an idle reading connection of the registry's own (made when none is
        idle, so there are never more than the look-ups ever made at once). One connection
        behind a lock made every request's look-up a queue: its holder lets go of the GIL
        inside SQLite, then waits to get it back while the others wait for the lock."""
        try:
            conn = self._idle.get_nowait()
        except queue.Empty:
            conn = sqlite3.connect(self._path, check_same_thread=False, timeout=30,
                                   isolation_level=None)
            conn.execute(f"PRAGMA mmap_size={MMAP_BYTES}")
            with self._lock:
                self._opened.append(conn)
        try:
            rows = conn.execute(f"SELECT {', '.join(_FIELDS)} FROM tokens {where}",
                                tuple(params)).fetchall()
        finally:
            self._idle.put(conn)
        return [Token(*row) for row in rows]

    def _insert(self, token_digest: str, token: Token) -> None:
        values = asdict(token)
        with self._lock:
            self._conn.execute(
                f"INSERT INTO tokens (digest, {', '.join(_FIELDS)}) "
                f"VALUES ({', '.join('?' * (len(_FIELDS) + 1))})",
                (token_digest, *(values[f] for f in _FIELDS)))

    def _by_digest(self, token_digest: str) -> Token | None:
        return next(iter(self._rows("WHERE digest = ?", (token_digest,))), None)

    def _by_id(self, token_id: str) -> Token | None:
        return next(iter(self._rows("WHERE token_id = ?", (token_id,))), None)

    def _set_revoked(self, token_id: str, at: str) -> None:
        with self._lock:
            self._conn.execute("UPDATE tokens SET revoked_at = ? WHERE token_id = ?",
                               (at, token_id))

    def _claim(self, token_digest: str, at: str) -> Token | None:
        with self._lock:
            rows = self._conn.execute(_CLAIM, (at, token_digest, at)).fetchall()
        return Token(*rows[0]) if rows else None

    def all(self) -> list[Token]:
        return self._rows("ORDER BY created_at, token_id", ())

    def with_digests(self) -> list[tuple[str, Token]]:
        """Every token with the digest it is kept by (``paiju migrate`` moves them as kept)."""
        with self._lock:
            rows = self._conn.execute(f"SELECT digest, {', '.join(_FIELDS)} FROM tokens "
                                      "ORDER BY created_at, token_id").fetchall()
        return [(row[0], Token(*row[1:])) for row in rows]

    def close(self) -> None:
        self._conn.close()
        with self._lock:
            for conn in self._opened:
                conn.close()
            self._opened.clear()


class PostgresTokenRegistry(TokenRegistry):
    """Tokens in the ``tokens`` table of the deployment's PostgreSQL database (made by
    ``paiju db upgrade``). Each look-up here reads the table; a serving node asks
    :class:`service.token_cache.CachedTokens` instead, as on SQLite."""

    def __init__(self, pool, clock: Callable[[], str] | None = None):
        super().__init__(clock)
        self.pool = pool  # events.postgres_store.Pool

    def _rows(self, where: str, params: Iterable) -> list[Token]:
        rows = self.pool.query(f"SELECT {', '.join(_FIELDS)} FROM tokens {where}", tuple(params))
        return [Token(*row) for row in rows]

    def _insert(self, token_digest: str, token: Token) -> None:
        values = asdict(token)
        self.pool.execute(f"INSERT INTO tokens (digest, {', '.join(_FIELDS)}) "
                          f"VALUES ({', '.join('?' * (len(_FIELDS) + 1))})",
                          (token_digest, *(values[f] for f in _FIELDS)))

    def with_digests(self) -> list[tuple[str, Token]]:
        rows = self.pool.query(f"SELECT digest, {', '.join(_FIELDS)} FROM tokens "
                               "ORDER BY created_at, token_id", ())
        return [(row[0], Token(*row[1:])) for row in rows]

    def _by_digest(self, token_digest: str) -> Token | None:
        return next(iter(self._rows("WHERE digest = ?", (token_digest,))), None)

    def _by_id(self, token_id: str) -> Token | None:
        return next(iter(self._rows("WHERE token_id = ?", (token_id,))), None)

    def _set_revoked(self, token_id: str, at: str) -> None:
        self.pool.execute("UPDATE tokens SET revoked_at = ? WHERE token_id = ?", (at, token_id))

    def _claim(self, token_digest: str, at: str) -> Token | None:
        rows = self.pool.execute(_CLAIM, (at, token_digest, at))
        return Token(*rows[0]) if rows else None

    def all(self) -> list[Token]:
        return self._rows("ORDER BY created_at, token_id", ())

    def close(self) -> None:
        """The pool is the store's, closed with it."""
