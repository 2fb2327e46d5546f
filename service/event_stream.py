"""A subscription as Server-Sent Events (text/event-stream).

Each frame's ``id`` is the global position of the event it follows, so a client that reconnects
with ``Last-Event-ID`` resumes exactly after it (browsers' EventSource do it by themselves).
Frames that carry events have no ``event`` field (EventSource's ``message``); the stream's own
words are named: ``end`` (the node is shutting down: reconnect) and ``overflow`` (this
subscriber fell too far behind and was dropped: reconnect with its last id). A comment line
after ``heartbeat`` seconds without a frame keeps an idle connection open through proxies; the
first comes at a random moment within that time, so that the streams opened together (every
tablet reconnecting to a node that restarted) do not beat, and have their tokens looked up
again, all at once and forever in step: from the start they beat as evenly as in the long run.

The stream is pulled by whoever serves it: :meth:`EventStream.blocking` in a worker thread (any
WSGI server), or :meth:`EventStream.pump` from an event loop that waits on :meth:`add_waker`
itself (service/serving.py, which holds thousands of idle subscribers without a thread each).
On a loop, what needs neither the store nor a fold (the buffered events, rendered from the
visibility cache or from the record alone) is sent from the loop's own thread: a hop into a
worker thread and back for every event, for every live subscriber, cost the appends their
cores (bench/live.py)."""
from __future__ import annotations

import random
import threading
import time
from typing import Callable, Iterator

from events.envelope import Record
from rules.messages import Message

from . import json_text
from .subscriptions import Hub, Subscription

RETRY_MS = 2000  # how soon an EventSource reconnects after the stream ends
RECHECK_SECONDS = 5.0  # an open stream's token is looked up again this often (revoked? expired?)
SHUTTING_DOWN = Message("the node is shutting down; reconnect")
DROPPED = Message("this subscriber fell behind and was dropped; reconnect with Last-Event-ID")

# What a stream sends for an event: the frame's data (JSON text) and, optionally, the event's
# name; or the frame itself, made once for every subscriber who sees the same (bytes: b""
# sends nothing); None sends nothing for it (a view that did not change).
Render = Callable[[Record], "tuple[str, str | None] | bytes | None"]
# The same, if it needs neither the store nor a fold; None: it does, ask ``Render`` in a thread.
QuickRender = Callable[[Record], "tuple[str, str | None] | bytes | None"]


def frame(data: str | bytes, id: int | None = None, event: str | None = None) -> bytes:
    """One frame; ``data`` is one line of JSON, as text or already in UTF-8 (a view's frame,
    which is not decoded only to be encoded again)."""
    head = (f"id: {id}\n" if id is not None else "") + \
        (f"event: {event}\n" if event is not None else "")
    return b"%sdata: %s\n\n" % (head.encode(), data if isinstance(data, bytes) else data.encode())


def compact(value) -> str:
    return json_text.dumps(value).decode()


HEARTBEAT = b": heartbeat\n\n"
NOT_HERE = object()  # what a quick check answers when it would have to read: ask a thread


def _framed(rendered, record: Record) -> bytes:
    """The frame of a rendering (b"": nothing to send)."""
    if rendered is None or isinstance(rendered, bytes):
        return rendered or b""
    data, event = rendered
    return frame(data, record.position, event)


class EventStream:
    def __init__(self, hub: Hub, sub: Subscription, render: Render, heartbeat_seconds: float,
                 opening: Callable[[], list[bytes]] | None = None,
                 still_valid: Callable[[], Message | str | None] = lambda: None,
                 recheck_seconds: float = RECHECK_SECONDS, quick: QuickRender | None = None,
                 still_valid_quick: Callable[[], object] = lambda: NOT_HERE,
                 gather_seconds: float = 0.0,
                 gettext: Callable[[str], str] = lambda text: text):
        self.hub, self.sub, self.render, self.quick = hub, sub, render, quick
        # the stream's own words (why it ends) are written outside any request: in the language
        # of the request that opened it (service/api/live.py), English by default
        self.gettext = gettext
        # after it sent, the stream waits this long before it takes again, so that what comes
        # meanwhile goes in one write (a board of a busy hall's log: one wake a few events)
        self.gather_seconds = gather_seconds
        self.heartbeat_seconds = heartbeat_seconds
        self._opening = opening
        self._still_valid = still_valid  # why the token may no longer read, or None
        # the same, for the event loop's own thread: NOT_HERE where it would read
        self._still_valid_quick = still_valid_quick
        self._recheck_seconds = recheck_seconds
        self._checked = time.monotonic()
        self._pending: list[Record] = []  # taken by quick_frames, left for a thread to render
        self._closers: list[Callable[[], None]] = []
        self.over = False

    def add_waker(self, waker: Callable[[], None]) -> None:
        self.sub.add_waker(waker)

    def opening(self) -> list[bytes]:
        """The first frames: how soon to reconnect, and what a view stream starts with."""
        first = [f"retry: {RETRY_MS}\n\n".encode()]
        return first + (self._opening() if self._opening else [])

    def frames(self) -> list[bytes]:
        """What is ready to send now (may read the store); sets ``over`` at the stream's end.
        While catching up it reads on until something matches: a page of history with nothing
        for this filter is no reason to wait."""
        if (why := self._revoked(self._still_valid)) is not None:
            self.over = True
            return [self._said("end", why)]
        sent: list[bytes] = []
        while True:
            records, self._pending = self._pending or self.sub.take(), []
            for record in records:
                made = _framed(self.render(record), record)
                if made:
                    sent.append(made)
            if sent or not self.sub.catching_up:
                break
        if not sent:
            if self.sub.ended:
                sent.append(self._said("end", SHUTTING_DOWN))
                self.over = True
            elif self.sub.overflowed:
                sent.append(self._said("overflow", DROPPED, last_event_id=self.sub.sent))
                self.over = True
        return sent

    def _said(self, event: str, reason: Message | str, **fields) -> bytes:
        """A frame of the stream's own, its ``reason`` said in the stream's language."""
        if isinstance(reason, Message):
            reason = reason.translated(self.gettext)
        return frame(compact({"reason": reason, **fields}), event=event)

    def quick_frames(self) -> list[bytes] | None:
        """What is ready to send, if none of it needs the store or a fold (for an event loop's
        own thread, which must not wait on either); None: call :meth:`frames` in a thread.
        Events taken whose rendering needs one are kept for that call, in order."""
        if self.quick is None or self._pending or self.sub.catching_up \
                or self.sub.ended or self.sub.overflowed:
            return None
        if (why := self._revoked(self._still_valid_quick)) is NOT_HERE:
            return None
        if why is not None:
            self.over = True
            return [self._said("end", why)]
        sent: list[bytes] = []
        records = self.sub.take()
        for n, record in enumerate(records):
            rendered = self.quick(record)
            if rendered is None:
                self._pending = records[n:]
                return sent or None
            if made := _framed(rendered, record):
                sent.append(made)
        return sent

    def _recheck_due(self) -> bool:
        return time.monotonic() - self._checked >= self._recheck_seconds

    def _revoked(self, check: Callable[[], object]) -> object:
        """Why the token may no longer read, if its recheck is due and ``check`` says so; None
        if it still reads or no recheck is due; NOT_HERE from a quick check that would read
        (the recheck stays due, for a thread)."""
        if not self._recheck_due():
            return None
        why = check()
        if why is not NOT_HERE:
            self._checked = time.monotonic()
        return why

    def recheck_now(self) -> None:
        """The token's registry says it changed: ask again at once, not at the next recheck."""
        self._checked = float("-inf")
        self.sub.wake()

    def add_closer(self, closer: Callable[[], None]) -> None:
        """``closer()`` runs when the stream closes (a watch of its token stopped)."""
        self._closers.append(closer)

    def close(self) -> None:
        for closer in self._closers:
            closer()
        self.hub.unsubscribe(self.sub)

    def blocking(self) -> Iterator[bytes]:
        """The stream for a thread of a WSGI server: it sleeps until woken or a heartbeat."""
        ready = threading.Event()
        self.add_waker(ready.set)
        return self.pump(ready)

    def pump(self, ready, call: Callable = lambda work: work(),
             pause: Callable[[float], None] = time.sleep) -> Iterator[bytes]:
        """The stream's bytes until it is over. ``ready`` is an event (of threading, or of an
        event loop) that the wakers set; ``call(work)`` runs what may read the store — here, or
        in a worker thread of an event loop's (service/serving.py); ``pause(seconds)`` sleeps
        (the loop's own sleep there)."""
        idle_wait = self.heartbeat_seconds * random.random()  # out of step: see above
        try:
            yield b"".join(call(self.opening))
            while True:
                ready.clear()
                sent = self.quick_frames()
                if sent is None:
                    sent = call(self.frames)
                if sent:
                    yield b"".join(sent)
                if self.over:
                    return
                if sent and self.gather_seconds:
                    pause(self.gather_seconds)
                if not sent and not ready.wait(idle_wait):
                    yield HEARTBEAT
                    idle_wait = self.heartbeat_seconds
        finally:
            call(self.close)
