"""The event store interface, its errors, and the append logic every implementation shares.

An implementation supplies storage (:class:`Tail` look-ups inside its write transaction, and
inserts); :func:`plan_append` decides idempotency, optimistic concurrency, stream ownership,
positions, versions and the hash chain, so that every store behaves identically. The contract
suite in ``tests/contract`` runs against every implementation.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator, Protocol, Sequence

from rules.messages import Message

from .commits import CommitFeed, GroupSizes
from .envelope import (
    ANY,
    GENESIS_HASH,
    NO_STREAM,
    NewEvent,
    Record,
    canonical_json,
    chain_hash,
    envelope_middle,
    envelope_of,
    new_event_ids,
    record_hash,
    utc_timestamp,
)


class StoreError(Exception):
    """An append refused as a whole: nothing of the batch was written. Its ``text`` (and its
    one argument) is the sentence with its blanks (rules/messages.py), for the edge to say in
    its reader's language; ``str()`` is the English."""

    def __init__(self, text: Message | str):
        self.text = text if isinstance(text, Message) else Message(text)
        super().__init__(self.text)  # args[0] the message; str(): its English


class WrongExpectedVersion(StoreError):
    def __init__(self, stream: str, expected: int | str, current: int):
        self.stream, self.expected, self.current = stream, expected, current
        super().__init__(Message("stream {stream!r} is at version {current}, expected "
                                 "{expected}", stream=stream, current=current,
                                 expected=expected))


class IdempotencyConflict(StoreError):
    def __init__(self, event_id: str, text: Message):
        self.event_id = event_id
        super().__init__(text)


class StreamBelongsElsewhere(StoreError):
    def __init__(self, stream: str, owner: str):
        self.stream, self.owner = stream, owner
        super().__init__(Message("stream {stream!r} belongs to another tournament",
                                 stream=stream))


class InvalidBatch(StoreError):
    pass


class RestoreConflict(StoreError):
    """A restore into a database that already holds the tournament, or any of its positions
    or event ids."""


class StoreUnavailable(RuntimeError):
    """The database cannot be reached (a lost connection, a server down): nothing of the
    request's append was committed, unless a retry with the same event ids finds it stored.
    Its ``text`` is the sentence for the edge to say, as a StoreError's."""

    def __init__(self, text: Message | str):
        self.text = text if isinstance(text, Message) else Message(text)
        super().__init__(self.text)  # args[0] the message; str(): its English


class StoreClosed(RuntimeError):
    """An append, or a read, after the store was closed."""


@dataclass(frozen=True)
class AppendResult:
    records: list[Record]
    created: bool  # False: an idempotent retry; every record was already stored


@dataclass(frozen=True)
class ChainReport:
    tournament_id: str
    ok: bool
    checked: int
    last_position: int | None
    last_hash: str | None
    first_bad_position: int | None = None
    problem: str | None = None

    def to_dict(self) -> dict:
        return dict(self.__dict__)


class Tail(Protocol):
    """The log as seen inside the store's write transaction: what :func:`plan_append` needs,
    and what a decision needs to fold the streams it appends to."""

    def records_by_id(self, ids: Sequence[str]) -> dict[str, Record]: ...
    def stream_head(self, stream: str) -> tuple[str, int] | None: ...  # (owner, version)
    def tournament_head(self, tournament_id: str) -> tuple[int, str] | None: ...  # (position, hash)
    def last_position(self) -> int: ...
    def read_stream(self, stream: str, from_version: int = 1, limit: int | None = None,
                    until_position: int | None = None) -> Iterator[Record]: ...


# Checks a batch against the rules on the log as it is inside the write transaction; raises to
# refuse it. Run there, the decision and the append see the same state: no race between them.
# It is also told the batch's ``recorded_at``: the time the rules measure limits with.
Decide = Callable[[Tail, str], None]


def plan_append(tournament_id: str, events: Sequence[NewEvent], tail: Tail,
                recorded_at: str | None = None, decide: Decide | None = None) -> AppendResult:
    """The records to insert for ``events`` (all or nothing), or the stored ones for a retry.

    A retry is recognised before ``decide`` runs: an event already judged and stored is not
    judged again."""
    if not events:
        raise InvalidBatch(Message("a batch holds at least one event"))
    fresh = iter(new_event_ids(sum(1 for e in events if not e.id)))
    ids = [e.id or next(fresh) for e in events]
    if len(set(ids)) != len(ids):
        raise InvalidBatch(Message("the same event id appears twice in one batch"))
    recorded_at = recorded_at or utc_timestamp()
    texts = _texts(events)
    stored = tail.records_by_id([e.id for e in events if e.id])
    if stored:
        drafts = [Record(0, i, tournament_id, e.stream, 0, e.type, e.schema_version, data, meta,
                         recorded_at, "", "") for e, i, (data, meta) in zip(events, ids, texts)]
        return AppendResult(_idempotent_replay(drafts, stored), created=False)
    if decide is not None:
        decide(tail, recorded_at)
    return AppendResult(_sealed(tournament_id, events, ids, texts, recorded_at, tail),
                        created=True)


def _texts(events: Sequence[NewEvent]) -> list[tuple[str, str]]:
    """(data, meta) of each event as canonical JSON text."""
    # A batch often shares one meta object (or has none): serialise each object once.
    meta_texts: dict[int, str] = {}
    return [(canonical_json(e.data),
             (meta_texts.get(id(e.meta)) or meta_texts.setdefault(id(e.meta), canonical_json(e.meta))
              if e.meta else "{}")) for e in events]


def _sealed(tournament_id: str, events: Sequence[NewEvent], ids: list[str],
            texts: list[tuple[str, str]], recorded_at: str, tail: Tail) -> list[Record]:
    """The batch's records: positions after the log's last, each stream's next versions
    (checked against what each event expects), and each hash chained to the one before."""
    head = tail.tournament_head(tournament_id)
    prev_hash = head[1] if head else GENESIS_HASH
    position = tail.last_position()  # last: a store may lock the log's end here (PostgreSQL)
    versions: dict[str, int] = {}
    middles: dict[tuple, str] = {}  # the envelope's shared middle, per stream, type and schema
    records = []
    for e, event_id, (data, meta) in zip(events, ids, texts):
        stream = e.stream
        current = versions.get(stream)
        if current is None:
            current = owned_stream_version(tournament_id, stream, tail)
        if e.expected_version is not None:
            check_expected_version(stream, e.expected_version, current)
        position += 1
        version = versions[stream] = current + 1
        key = (stream, e.type, e.schema_version)
        middle = middles.get(key) or middles.setdefault(key, envelope_middle(
            recorded_at, e.schema_version, stream, tournament_id, e.type))
        sealed = chain_hash(prev_hash, envelope_of(data, "", event_id, meta, position, prev_hash,
                                                   middle, version))
        # _make: a NamedTuple's keyword-capable constructor costs three times as much
        records.append(Record._make((position, event_id, tournament_id, stream, version, e.type,
                                     e.schema_version, data, meta, recorded_at, prev_hash, sealed)))
        prev_hash = sealed
    return records


def _idempotent_replay(drafts: list[Record], stored: dict[str, Record]) -> list[Record]:
    """A retry holds stored events only, each the same fact as stored (a batch is atomic, so
    a batch mixing stored and new events cannot be a retry)."""
    for draft in drafts:
        if draft.id in stored and not stored[draft.id].same_fact_as(draft):
            raise IdempotencyConflict(draft.id, Message("event id {event_id} is already stored "
                                                        "with other content", event_id=draft.id))
    missing = [d.id for d in drafts if d.id not in stored]
    if missing:
        raise IdempotencyConflict(missing[0], Message(
            "event id {event_id} is new, but other events of its batch are already stored: a "
            "retry must repeat the stored batch", event_id=missing[0]))
    return [stored[d.id] for d in drafts]


def owned_stream_version(tournament_id: str, stream: str, tail: Tail) -> int:
    """The stream's stored version (0: no events), refusing a stream of another tournament."""
    head = tail.stream_head(stream)
    if head is None:
        return 0
    owner, version = head
    if owner != tournament_id:
        raise StreamBelongsElsewhere(stream, owner)
    return version


def check_expected_version(stream: str, expected: int | str | None, current: int) -> None:
    """Raise WrongExpectedVersion unless ``current`` is what ``expected`` asks for."""
    if expected is None or expected == ANY:
        return
    wanted = 0 if expected == NO_STREAM else expected
    if wanted != current:
        raise WrongExpectedVersion(stream, expected, current)


def verify_records(tournament_id: str, records: Iterator[Record]) -> ChainReport:
    """Walk one tournament's chain in position order; report the first position that fails
    (with the last good position and hash, where the log is still sound).

    Checks, per event: the hash of its own content, the link to the previous event's hash,
    and that its stream's versions run 1, 2, 3, … without gaps.
    """
    prev_hash, checked, last_position, last_hash = GENESIS_HASH, 0, None, None
    versions: dict[str, int] = {}
    for r in records:
        problem = _chain_problem(r, prev_hash, versions)
        if problem:
            return ChainReport(tournament_id, False, checked, last_position, last_hash,
                               r.position, problem)
        versions[r.stream] = r.version
        prev_hash, checked, last_position, last_hash = r.hash, checked + 1, r.position, r.hash
    return ChainReport(tournament_id, True, checked, last_position, last_hash)


def _chain_problem(r: Record, prev_hash: str, versions: dict[str, int]) -> str | None:
    if r.prev_hash != prev_hash:
        return "prev_hash does not match the hash of the tournament's previous event"
    if record_hash(r) != r.hash:
        return "hash does not match the event's content"
    if r.version != versions.get(r.stream, 0) + 1:
        return f"stream {r.stream!r} version {r.version} does not follow {versions.get(r.stream, 0)}"
    return None


class EventStore(ABC):
    """The store interface. Reads are iterators over pages: nothing loads the whole log."""

    # The server's time of each append (``recorded_at``, what the rules measure limits with).
    # A store may be given another clock: a simulation that runs faster than the table would.
    clock: Callable[[], str] = staticmethod(utc_timestamp)
    # how many appends each commit carried, for a store that groups them (service/metrics.py)
    group_sizes: GroupSizes | None = None

    @abstractmethod
    def append(self, tournament_id: str, events: Sequence[NewEvent],
               decide: Decide | None = None) -> AppendResult:
        """Append all of ``events`` in one transaction, or raise: a :class:`StoreError`, or
        whatever ``decide`` raises (see :func:`plan_append`)."""

    @abstractmethod
    def get(self, event_id: str) -> Record | None: ...

    @abstractmethod
    def stream_head(self, stream: str) -> tuple[str, int] | None:
        """(owning tournament, current version) of a stream, or None if it has no events."""

    @abstractmethod
    def read_stream(self, stream: str, from_version: int = 1, limit: int | None = None,
                    until_position: int | None = None) -> Iterator[Record]: ...

    @abstractmethod
    def tournament_head(self, tournament_id: str) -> tuple[int, str] | None:
        """(position, hash) of the tournament's last event, or None if it has none."""

    @abstractmethod
    def read_tournament(self, tournament_id: str, after: int = 0, limit: int | None = None,
                        stream: str | None = None, type: str | None = None,
                        until_position: int | None = None) -> Iterator[Record]: ...

    @abstractmethod
    def read_type(self, type: str, after: int = 0, limit: int | None = None) -> Iterator[Record]: ...

    @abstractmethod
    def read_all(self, after: int = 0, limit: int | None = None) -> Iterator[Record]:
        """Every tournament's events after global position ``after``, in order (the timer
        follows the log with it)."""

    @abstractmethod
    def last_position(self) -> int: ...

    @abstractmethod
    def tournament_ids(self) -> list[str]:
        """Every tournament id that any stored event carries, in order of its first event
        (a scan of the whole index: for verification, not for request paths)."""

    def restore(self, records: Iterable[Record]) -> int:
        """Insert records exactly as exported (positions, ids, hashes kept): the import of a
        verified export into a database that does not hold its tournament. All or nothing;
        returns how many were written. Positions may then have gaps (those of the tournaments
        the export left out); the chain covers every event of its tournament."""
        raise NotImplementedError(f"{type(self).__name__} cannot restore an export")

    def schema_versions(self) -> tuple[int, int] | None:
        """(the store schema the database holds, the one this code writes), read with one
        cheap query: what readiness asks (service/api/health.py). None for a store without a
        schema (in memory). Raises :class:`StoreUnavailable` when the database cannot be
        reached."""
        return None

    def verify(self, tournament_id: str) -> ChainReport:
        return verify_records(tournament_id, self.read_tournament(tournament_id))

    def verify_all(self) -> list[ChainReport]:
        """Every chain in the log. An event whose ``tournament_id`` was altered shows up at its
        own position in the chain it was moved to (and as a broken link in the one it left)."""
        return [self.verify(tid) for tid in self.tournament_ids()]

    @property
    def commits(self) -> CommitFeed:
        """Word of each commit to this store (events/commits.py): subscriptions wait on it."""
        feed = self.__dict__.get("_commit_feed")
        if feed is None:
            feed = self.__dict__.setdefault("_commit_feed", self._new_commit_feed())
        return feed

    def _new_commit_feed(self) -> CommitFeed:
        return CommitFeed()

    def _announce(self, result: AppendResult) -> AppendResult:
        """Tell the listeners, if any, of an append that stored something; returns it."""
        if result.created:
            self._announce_records(result.records)
        return result

    def _announce_records(self, records: Sequence[Record]) -> None:
        feed = self.__dict__.get("_commit_feed")
        if feed is not None and records:
            feed.announce(records[-1].position, records)

    def close(self) -> None:  # noqa: B027 - a store without resources has nothing to close
        """Release connections and threads; the default store holds none."""
