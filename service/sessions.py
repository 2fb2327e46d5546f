"""Sign-in codes and the browser's sessions: how a volunteer at the desk signs in.

An organiser (``POST /v1/tournaments/<tid>/sign-in-codes``, the desk's form) or the deployment's
operator (``paiju tokens sign-in``) issues a **sign-in code**: eight characters a volunteer can
read aloud and type (``ABCD-EFGH``; no 0/O, no 1/I/L), or the link ``/desk/signin#code=…`` that
holds it. A code is bound to a role and a tournament (a table's to a match, a player's to a
match and a seat), expires (15 minutes unless asked otherwise) and works once.

Codes are kept in the tokens table (service/tokens.py) like tokens: only the SHA-256 of the
code, under a token id ``code-…``, so ``paiju token list`` shows every code issued and whether
it was used (revoked), and ``paiju token revoke code-…`` withdraws one. A code is not of the
``pj_`` form: :meth:`TokenRegistry.lookup` never takes it, so it can never serve as a bearer
token. It is used up by one conditional update (:meth:`TokenRegistry.claim`): of two
redemptions at once, one wins.

A redeemed code opens a **session**: a new token of the same role and scope, named after the
code's name, that expires after 12 hours. Its secret goes only into an HttpOnly,
SameSite=Strict cookie (service/api/sessions.py), which page scripts cannot read; it survives a
server restart as every token does. Writes from the browser carry ``X-CSRF-Token``, an HMAC
keyed by the session's secret that only the page's own origin can learn (``GET /v1/session``).

Failed redemptions are counted per client address: after :data:`FAILURES_PER_MINUTE` in a
minute the address waits (429). With 31^8 possible codes, a few live at once and each for
minutes, guessing is hopeless anyway; the limit keeps it so on any network.
"""
from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from events.envelope import utc_timestamp
from rules.messages import Message

from .tokens import Token, TokenRegistry, check_scope, digest

ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"  # read aloud and typed without doubt
CODE_LENGTH = 8
CODE_ID_PREFIX = "code-"
CODE_MINUTES = 15
CODE_MINUTES_MAX = 24 * 60
SESSION_HOURS = 12
COOKIE = "paiju_session"
CSRF_HEADER = "X-CSRF-Token"
SIGN_IN_PATH = "/desk/signin"
# The roles a code may be for: tournament-bound ones. An organiser issues the officials and the
# tables of its own tournament (the API); the operator (the CLI) an auditor too.
API_CODE_ROLES = ("organiser", "referee", "committee", "table", "player")
CLI_CODE_ROLES = API_CODE_ROLES + ("auditor",)
FAILURES_PER_MINUTE = 10
_CSRF_LABEL = b"paiju desk csrf v1"
_TYPED = re.compile(f"[{ALPHABET}]{{{CODE_LENGTH}}}")


@dataclass(frozen=True)
class IssuedCode:
    """A code as issued: shown once (``code``), kept only by its digest (``token``)."""
    code: str         # ABCD-EFGH
    token: Token      # its row: role, scope, name, expires_at; token_id code-…

    def link(self, base_url: str) -> str:
        return sign_in_link(base_url, self.code)


class CodeRefused(Exception):
    """A code that opens no session; ``message`` says why, in words for the volunteer."""

    def __init__(self, message: Message, malformed: bool = False):
        super().__init__(str(message))
        self.message, self.malformed = message, malformed


def later(now: str, delta: timedelta) -> str:
    """``now`` (a registry's clock: UTC as recorded_at) moved on by ``delta``, in the same form."""
    return utc_timestamp(datetime.fromisoformat(now) + delta)


def shown(code: str) -> str:
    return f"{code[:4]}-{code[4:]}"


def normal(typed: str) -> str | None:
    """The code a volunteer typed, as kept (``abcd efgh`` → ``ABCDEFGH``), or None if it
    cannot be one."""
    code = re.sub(r"[\s-]", "", typed).upper()
    return code if _TYPED.fullmatch(code) else None


def sign_in_link(base_url: str, code: str) -> str:
    """The link that signs in with ``code``: in the fragment, which the browser never sends."""
    return f"{base_url.rstrip('/')}{SIGN_IN_PATH}#code={code}"


def issue_sign_in_code(tokens: TokenRegistry, role: str, tournament_id: str,
                       name: str | None = None, match_id: str | None = None,
                       seat: int | None = None, minutes: int = CODE_MINUTES) -> IssuedCode:
    """A new one-time code for ``role`` in ``tournament_id`` (a table's with ``match_id``, a
    player's with ``match_id`` and ``seat``), good for ``minutes``. TokenError (check_scope's)
    when the scope does not fit the role; ValueError for a role no code is for."""
    if role not in CLI_CODE_ROLES:
        raise ValueError(Message("a sign-in code is for one of {roles}, not {role}",
                                 roles=", ".join(CLI_CODE_ROLES), role=role))
    if not 1 <= minutes <= CODE_MINUTES_MAX:
        raise ValueError(Message("a sign-in code lasts 1 to {most} minutes",
                                 most=CODE_MINUTES_MAX))
    check_scope(role, tournament_id, match_id, seat)
    code = "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))
    now = tokens.clock()
    token = Token(CODE_ID_PREFIX + secrets.token_hex(4), role, tournament_id, match_id, seat,
                  name, now, later(now, timedelta(minutes=minutes)))
    tokens.adopt(digest(code), token)
    return IssuedCode(shown(code), token)


def issued_note(issued: IssuedCode) -> Message:
    """What the command line says (on stderr) after printing a new code and its link."""
    token = issued.token
    return Message("sign-in code {code_id} ({role}, tournament {tournament}) works once, until "
                   "{expires_at}", code_id=token.token_id, role=token.role,
                   tournament=token.tournament_id, expires_at=token.expires_at)


def redeem(tokens: TokenRegistry, typed: str, tournament_id: str | None = None) -> Token:
    """The code's row, used up now; CodeRefused if it is malformed, unknown, used, expired or
    (when the page names one) for another tournament — a code of another tournament stays
    usable where it belongs."""
    code = normal(typed)
    if code is None:
        raise CodeRefused(Message("a sign-in code is 8 letters and digits, like ABCD-EFGH"),
                          malformed=True)
    kept = tokens.find(digest(code))
    if kept is not None and tournament_id and kept.tournament_id != tournament_id:
        raise CodeRefused(Message("sign-in code {code} is for tournament {code_tournament!r}, "
                                  "not {tournament_id!r}", code=shown(code),
                                  code_tournament=kept.tournament_id,
                                  tournament_id=tournament_id))
    claimed = tokens.claim(digest(code))
    if claimed is not None:
        return claimed
    return _refused(tokens, code)


def _refused(tokens: TokenRegistry, code: str) -> Token:
    kept = tokens.find(digest(code))
    if kept is None or not kept.token_id.startswith(CODE_ID_PREFIX):
        raise CodeRefused(Message("sign-in code {code} is unknown: check it letter by letter",
                                  code=shown(code)))
    if kept.revoked_at:
        raise CodeRefused(Message("sign-in code {code} was already used (at {used_at}): ask "
                                  "for a new one", code=shown(code), used_at=kept.revoked_at))
    raise CodeRefused(Message("sign-in code {code} expired at {expires_at}: ask for a new one",
                              code=shown(code), expires_at=kept.expires_at))


def open_session(tokens: TokenRegistry, grant: Token,
                 hours: float = SESSION_HOURS) -> tuple[str, Token]:
    """A session for what ``grant`` allows (a redeemed code, or a bearer token exchanged for a
    browser session): a new token of its role and scope, named as it is, ending after
    ``hours`` or when the token it came from ends, whichever is first."""
    ends = later(tokens.clock(), timedelta(hours=hours))
    if grant.expires_at and not grant.token_id.startswith(CODE_ID_PREFIX):
        ends = min(ends, grant.expires_at)
    return tokens.create(grant.role, grant.tournament_id, grant.match_id, grant.seat,
                         grant.name, ends)


def csrf_token(secret: str) -> str:
    """What a write authenticated by the session's cookie must carry in ``X-CSRF-Token``."""
    return hmac.new(secret.encode("utf-8"), _CSRF_LABEL, hashlib.sha256).hexdigest()


def csrf_matches(secret: str, given: str | None) -> bool:
    return given is not None and hmac.compare_digest(csrf_token(secret), given.strip())


def session_body(token: Token, secret: str | None) -> dict:
    """Who the browser is signed in as: ``csrf_token`` only for a cookie's session (a bearer
    token's request needs none)."""
    return {"role": token.role, "tournament_id": token.tournament_id,
            "match_id": token.match_id, "seat": token.seat, "actor": token.actor,
            "expires_at": token.expires_at,
            "csrf_token": csrf_token(secret) if secret is not None else None}


def seconds_left(token: Token, now: str) -> int:
    """The session's remaining life in whole seconds (the cookie's Max-Age)."""
    if token.expires_at is None:
        return SESSION_HOURS * 3600
    left = datetime.fromisoformat(token.expires_at) - datetime.fromisoformat(now)
    return max(0, round(left.total_seconds()))


class FailureThrottle:
    """Failed sign-ins per key (a client address) in a sliding window: ``wait(key)`` is how many
    seconds that key must wait before the next try (0: it may try now). Only failures count:
    volunteers signing in one after another from one address are never held back. In memory,
    per process: each node of a deployment counts its own."""

    def __init__(self, limit: int = FAILURES_PER_MINUTE, seconds: float = 60.0,
                 clock: Callable[[], float] = time.monotonic):
        self.limit, self.seconds, self.clock = limit, seconds, clock
        self._failures: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def wait(self, key: str) -> int:
        with self._lock:
            recent = self._recent(key)
            if len(recent) < self.limit:
                return 0
            return max(1, int(recent[0] + self.seconds - self.clock() + 0.999))

    def failed(self, key: str) -> None:
        with self._lock:
            if len(self._failures) > 10_000:  # addresses that stopped trying are forgotten
                for stale in [k for k in self._failures if not self._recent(k)]:
                    del self._failures[stale]
            self._failures.setdefault(key, deque()).append(self.clock())

    def _recent(self, key: str) -> deque[float]:
        recent = self._failures.get(key, deque())
        while recent and recent[0] <= self.clock() - self.seconds:
            recent.popleft()
        return recent
