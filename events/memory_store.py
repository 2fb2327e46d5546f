"""An in-memory event store for fast unit tests. Same contract as the SQLite store."""
from __future__ import annotations

import bisect
import threading
from typing import Callable, Iterator, Sequence

from .envelope import NewEvent, Record
from .store import AppendResult, Decide, EventStore, plan_append


class InMemoryEventStore(EventStore):
    def __init__(self, clock: Callable[[], str] | None = None) -> None:
        if clock is not None:
            self.clock = clock
        self._lock = threading.Lock()
        self._log: list[Record] = []  # index = position - 1
        self._by_id: dict[str, Record] = {}
        self._streams: dict[str, list[Record]] = {}
        self._tournaments: dict[str, list[int]] = {}  # tournament -> positions

    # --- Tail, read under the lock by plan_append ---------------------------------------
    def records_by_id(self, ids: Sequence[str]) -> dict[str, Record]:
        return {i: self._by_id[i] for i in ids if i in self._by_id}

    def tournament_head(self, tournament_id: str) -> tuple[int, str] | None:
        positions = self._tournaments.get(tournament_id)
        return (positions[-1], self._log[positions[-1] - 1].hash) if positions else None

    # --- EventStore ----------------------------------------------------------------------
    def append(self, tournament_id: str, events: Sequence[NewEvent],
               decide: Decide | None = None) -> AppendResult:
        with self._lock:
            result = plan_append(tournament_id, events, self, self.clock(), decide)
            if result.created:
                for r in result.records:
                    self._log.append(r)
                    self._by_id[r.id] = r
                    self._streams.setdefault(r.stream, []).append(r)
                    self._tournaments.setdefault(r.tournament_id, []).append(r.position)
        return self._announce(result)

    def get(self, event_id: str) -> Record | None:
        return self._by_id.get(event_id)

    def stream_head(self, stream: str) -> tuple[str, int] | None:
        records = self._streams.get(stream)
        return (records[-1].tournament_id, records[-1].version) if records else None

    def last_position(self) -> int:
        return len(self._log)

    def read_stream(self, stream, from_version=1, limit=None, until_position=None) -> Iterator[Record]:
        records = self._streams.get(stream, [])[max(from_version, 1) - 1:]
        return _limited((r for r in records if until_position is None or r.position <= until_position),
                        limit)

    def read_tournament(self, tournament_id, after=0, limit=None, stream=None, type=None,
                        until_position=None):
        positions = self._tournaments.get(tournament_id, [])
        start = bisect.bisect_right(positions, after)
        stop = len(positions) if until_position is None else bisect.bisect_right(positions, until_position)
        records = (self._log[p - 1] for p in positions[start:stop])
        return _limited((r for r in records if (stream is None or r.stream == stream)
                         and (type is None or r.type == type)), limit)

    def tournament_ids(self) -> list[str]:
        return list(self._tournaments)

    def read_type(self, type, after=0, limit=None):
        return _limited((r for r in self._log[after:] if r.type == type), limit)

    def read_all(self, after=0, limit=None):
        return _limited(iter(self._log[after:]), limit)


def _limited(records: Iterator[Record], limit: int | None) -> Iterator[Record]:
    for count, record in enumerate(records):
        if limit is not None and count >= limit:
            return
        yield record
