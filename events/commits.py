"""Word of a commit: a store tells who listens that its log has grown (issue 18).

A listener learns only the log's new last position, never the events: whoever wants them reads
them by position, so a word lost or arriving twice costs a read, never an event. On SQLite the
word comes from the commit itself (one process writes the file); on PostgreSQL from LISTEN, so a
node hears the commits of every node (events/postgres_store.py)."""
from __future__ import annotations

import logging
import threading
from typing import Callable

Listener = Callable[[int], None]

log = logging.getLogger("paiju.commits")


class CommitFeed:
    """The listeners of one store. ``announce`` is called by the committing thread right after
    the commit: a listener must be quick and must not raise (it only wakes someone)."""

    def __init__(self, on_first_listener: Callable[[], None] | None = None):
        self._listeners: list[Listener] = []
        self._lock = threading.Lock()
        self._on_first_listener = on_first_listener

    def listen(self, listener: Listener) -> None:
        with self._lock:
            first = not self._listeners
            self._listeners.append(listener)
        if first and self._on_first_listener is not None:
            self._on_first_listener()  # e.g. PostgreSQL's LISTEN connection

    def unlisten(self, listener: Listener) -> None:
        with self._lock:
            if listener in self._listeners:
                self._listeners.remove(listener)

    @property
    def listened(self) -> bool:
        return bool(self._listeners)

    def announce(self, last_position: int) -> None:
        for listener in list(self._listeners):
            try:
                listener(last_position)
            except Exception:  # a listener's fault must never fail an append that committed
                log.exception("a commit listener failed")
