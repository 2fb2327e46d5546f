"""Delivering webhooks: each active webhook is given its tournament's events one at a time, in
the order of the log, at least once (a receiver that was down gets every event when it is back).

An attempt POSTs the event as the public may see it (service/visibility.py: a webhook is as
public as its URL), signed as GitHub and Stripe sign theirs::

    Paiju-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>

with ``Paiju-Event-Id`` (the receiver's key for de-duplication: a redelivery, or an attempt
whose answer was lost, carries the same) and ``Paiju-Delivery`` (this attempt's own id). A 2xx
answer moves the cursor past the event; anything else (another status, a redirect — never
followed —, no answer within the timeout, a refused connection) is tried again after 1 s, 2 s,
4 s … at most 10 min, the next event waiting behind it (order before progress). A webhook that
has failed without a break for longer than ``WEBHOOK_DISABLE_AFTER_SECONDS`` is disabled and
says why; ``POST …/redeliver`` enables it again.

:meth:`WebhookDelivery.deliver_due` does one round at a given time (tests drive it on a fake
clock); :meth:`WebhookDelivery.start` runs rounds in a thread of ``paiju serve``, woken by each
commit of the store (while there is a webhook to deliver to) and once a second, and only on the
node holding the ``webhooks`` lease.
"""
from __future__ import annotations

import hashlib
import hmac
import logging
import threading
import urllib.error
import urllib.request
import uuid
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Callable

from events.envelope import Record
from events.store import EventStore
from rules.match_clock import moment, timestamp

from .leases import Lease
from .visibility import Reader, Visibility
from .webhooks import DISABLED, Attempt, Webhook, WebhookRegistry, url_problem

log = logging.getLogger("paiju.webhooks")

FIRST_RETRY_SECONDS = 1.0
MAX_RETRY_SECONDS = 600.0
READ_PAGE = 200            # events read from the log at a time
# after a commit wakes it, the thread waits this long, so that the commits of a busy hall that
# come meanwhile are one round (a round asks the registry and reads the log once)
GATHER_SECONDS = 0.1
ROUND_LIMIT = 100          # deliveries to one webhook in one round, so one cannot starve the rest
USER_AGENT = "paiju-webhooks/1"


def signature(secret: str, t: int, body: bytes) -> str:
    """The ``Paiju-Signature`` header of ``body`` sent at unix time ``t``."""
    mac = hmac.new(secret.encode(), f"{t}.".encode() + body, hashlib.sha256).hexdigest()
    return f"t={t},v1={mac}"


def retry_delay(failures: int) -> float:
    """Seconds to wait after the ``failures``-th failure in a row: 1, 2, 4 … at most 600."""
    return min(FIRST_RETRY_SECONDS * 2 ** (failures - 1), MAX_RETRY_SECONDS)


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    """A redirect is the receiver's answer, recorded as a failure: following it could take the
    signed event to a host the address rule never judged."""

    def redirect_request(self, *args, **kwargs):
        return None


_OPENER = urllib.request.build_opener(_NoRedirects())


def post(url: str, body: bytes, headers: dict, timeout: float) -> tuple[int | None, str | None]:
    """POST ``body``; the receiver's status, or None and why there was none."""
    request = urllib.request.Request(url, data=body, method="POST",
                                     headers={**headers, "User-Agent": USER_AGENT})
    try:
        with _OPENER.open(request, timeout=timeout) as response:
            response.read(64 * 1024)  # the answer's body means nothing; read a little of it
            return response.status, None
    except urllib.error.HTTPError as error:
        reason = "a redirect (not followed)" if 300 <= error.code < 400 else None
        return error.code, reason
    except (urllib.error.URLError, OSError, ValueError) as error:
        reason = getattr(error, "reason", error)
        return None, f"no answer: {reason}"


class WebhookDelivery:
    def __init__(self, registry: WebhookRegistry, store: EventStore, visibility: Visibility,
                 lease: Lease, now: Callable[[], datetime], allow_private: bool = False,
                 disable_after_seconds: float = 3 * 3600, timeout_seconds: float = 5.0,
                 poll_seconds: float = 1.0, send=post):
        self.registry, self.store, self.visibility, self.lease = registry, store, visibility, lease
        self.now, self.allow_private, self.send = now, allow_private, send
        self.disable_after = timedelta(seconds=disable_after_seconds)
        self.timeout, self.poll_seconds = timeout_seconds, poll_seconds
        self._round = threading.Lock()  # one round at a time in this process
        self._wake, self._stopping = threading.Event(), threading.Event()
        self._thread: threading.Thread | None = None
        # the last round had nobody to deliver to (no active webhook, or another node holds
        # the lease): a commit does not wake the thread, whose poll looks again each second
        self._idle = False

    # --- one round ------------------------------------------------------------------------
    def deliver_due(self, now: datetime | None = None) -> list[Attempt]:
        """Every attempt due at ``now`` (default: the clock's time), made in order; what was
        attempted. Nothing on a node that does not hold the ``webhooks`` lease."""
        now = now or self.now()
        with self._round:
            if not self.lease.hold(now):
                self._idle = True
                return []
            hooks = self.registry.active()
            self._idle = not hooks
            made = []
            for hook in hooks:
                made += self._deliver(hook, now)
            return made

    def _deliver(self, hook: Webhook, now: datetime) -> list[Attempt]:
        if hook.next_attempt_at is not None and hook.next_attempt_at > timestamp(now):
            return []  # backing off
        made: list[Attempt] = []
        while len(made) < ROUND_LIMIT:
            record, passed = self._next(hook)
            if record is None:
                if passed != hook.cursor:  # only events its filters skip: past them
                    self.registry.save(replace(hook, cursor=passed))
                return made
            hook, attempt = self._attempt(replace(hook, cursor=passed), record, now)
            made.append(attempt)
            if not attempt.delivered:
                return made
        return made

    def _next(self, hook: Webhook) -> tuple[Record | None, int]:
        """The first event after the cursor that the webhook wants, and the position of the
        last event before it (its filters skip those between)."""
        passed = hook.cursor
        while True:
            page = list(self.store.read_tournament(hook.tournament_id, after=passed,
                                                   limit=READ_PAGE))
            for record in page:
                if hook.wants(record.type, record.stream):
                    return record, passed
                passed = record.position
            if len(page) < READ_PAGE:
                return None, passed

    def _attempt(self, hook: Webhook, record: Record, now: datetime) -> tuple[Webhook, Attempt]:
        body = self.visibility.render(record, Reader(hook.tournament_id, None)).encode()
        delivery_id = str(uuid.uuid4())
        refused = url_problem(hook.url, self.allow_private)  # as the host resolves now
        if refused is not None:
            status, error = None, f"not sent: the URL {refused}"
        else:
            status, error = self.send(hook.url, body, {
                "Content-Type": "application/json",
                "Paiju-Event-Id": record.id,
                "Paiju-Delivery": delivery_id,
                "Paiju-Signature": signature(hook.secret, int(now.timestamp()), body),
            }, self.timeout)
        at, seq = timestamp(now), hook.attempts_made + 1
        attempt = Attempt(delivery_id, hook.webhook_id, record.id, record.position,
                          hook.failures + 1, at, status, error, None, seq)
        if attempt.delivered:
            hook = replace(hook, cursor=record.position, failures=0, failing_since=None,
                           next_attempt_at=None, attempts_made=seq)
        else:
            hook = self._failed(hook, attempt, now)
            attempt = replace(attempt, next_attempt_at=hook.next_attempt_at)
        self.registry.save(hook, attempt)
        return hook, attempt

    def _failed(self, hook: Webhook, attempt: Attempt, now: datetime) -> Webhook:
        failures = hook.failures + 1
        since = hook.failing_since or attempt.at
        hook = replace(hook, failures=failures, failing_since=since, attempts_made=attempt.seq)
        if now - moment(since) > self.disable_after:
            last = f"status {attempt.status}" if attempt.status is not None else attempt.error
            reason = (f"failing since {since}: {failures} attempts at event {attempt.event_id} "
                      f"(position {attempt.position}) failed, the last with {last}")
            log.warning("webhook %s disabled: %s", hook.webhook_id, reason)
            return replace(hook, state=DISABLED, disabled_reason=reason, next_attempt_at=None)
        return replace(hook, next_attempt_at=timestamp(
            now + timedelta(seconds=retry_delay(failures))))

    # --- the registry's changes that the API asks for ---------------------------------------
    def redeliver(self, hook: Webhook, after: int) -> Webhook:
        """Deliver again every event after ``after``, at once; enables a disabled webhook."""
        with self._round:  # not in the middle of a round's attempt at this webhook
            fresh = self.registry.get(hook.tournament_id, hook.webhook_id) or hook
            fresh = replace(fresh, cursor=after, state="active", disabled_reason=None,
                            failures=0, failing_since=None, next_attempt_at=None)
            self.registry.save(fresh)
        self._wake.set()
        return fresh

    def disable(self, hook: Webhook, reason: str) -> Webhook:
        with self._round:
            fresh = self.registry.get(hook.tournament_id, hook.webhook_id) or hook
            fresh = replace(fresh, state=DISABLED, disabled_reason=reason, next_attempt_at=None)
            self.registry.save(fresh)
        return fresh

    def wake(self) -> None:
        self._wake.set()

    # --- the thread of paiju serve ------------------------------------------------------------
    def start(self) -> None:
        self.store.commits.listen(self._heard)
        self._thread = threading.Thread(target=self._run, name="paiju-webhooks", daemon=True)
        self._thread.start()

    def _heard(self, last_position: int, records=()) -> None:
        """A commit: a round at once, unless the last one had nobody to deliver to (a tablet
        hall with no webhook: each commit woke this thread for nothing). A webhook made or
        redelivered here wakes it itself; one made on another node, within the poll."""
        if not self._idle:
            self._wake.set()

    def _run(self) -> None:
        while not self._stopping.is_set():
            self._wake.clear()
            try:
                self.deliver_due()
            except Exception:  # a round must not end the thread: log it, try again
                log.exception("webhook round failed")
            if self._wake.wait(self.poll_seconds):
                self._stopping.wait(GATHER_SECONDS)

    def stop(self) -> None:
        """No new round; the round in progress finishes its attempt; the lease is given up."""
        self._stopping.set()
        self._wake.set()
        self.store.commits.unlisten(self._heard)
        if self._thread is not None:
            self._thread.join(timeout=self.timeout + 5)
        release = getattr(self.lease, "release", None)
        if release is not None:
            try:
                release()
            except Exception as error:  # the database is gone: the lease lapses by itself
                log.warning("the webhooks' lease was not given up (%s)", error)
