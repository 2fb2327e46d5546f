"""The event envelope: what a stored event is, its canonical JSON and its hash.

A stored event is a :class:`Record`: every field is a plain value and ``data``/``meta`` are kept
as their canonical JSON text, exactly the bytes that were hashed. Stores keep records; readers
turn them into dictionaries with :meth:`Record.to_dict`.

The hash chain (one chain per tournament, see ``events/README.md``)::

    hash = sha256(prev_hash ‖ canonical JSON of the envelope without its hash)

The first event of a tournament has ``prev_hash = GENESIS_HASH``.
"""
from __future__ import annotations

import hashlib
import json
import os
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, NamedTuple

GENESIS_HASH = "0" * 64

# Expected-version markers (besides a whole number >= 0, the stream's current version).
ANY = "any"
NO_STREAM = "no_stream"


_canonical_encoder = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                                      allow_nan=False)
_json_string = json.encoder.encode_basestring  # the same escaping as ensure_ascii=False


def canonical_json(value: Any) -> str:
    """The one JSON text of a value: sorted keys, no spaces, UTF-8 characters kept as they are.

    NaN and infinities are refused: they are not JSON and would not survive a round trip.
    """
    return _canonical_encoder.encode(value)


def utc_timestamp(moment: datetime | None = None) -> str:
    """Server time as recorded in ``recorded_at``: UTC, microseconds, a ``Z`` suffix."""
    moment = moment or datetime.now(timezone.utc)
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def new_event_id() -> str:
    return new_event_ids(1)[0]


_V7_CLEAR = ~(0xF << 76 | 0x3 << 62)
_V7_SET = 0x7 << 76 | 0x2 << 62  # version 7, RFC 4122 variant


def new_event_ids(count: int) -> list[str]:
    """UUIDv7s (RFC 9562): 48 bits of Unix milliseconds, then random bits.

    Time-ordered ids land at the right edge of the store's unique id index instead of at a
    random page, which keeps appends fast; clients may still send any UUID of their own.
    """
    millis = (time.time_ns() // 1_000_000) << 80
    noise = os.urandom(10 * count)
    ids = []
    for i in range(0, 10 * count, 10):
        h = f"{(millis | int.from_bytes(noise[i:i + 10], 'big')) & _V7_CLEAR | _V7_SET:032x}"
        ids.append(f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}")
    return ids


@dataclass(frozen=True)
class NewEvent:
    """An event a caller asks to append. ``expected_version`` is the stream's version *just
    before this event* (earlier events of the same batch count): a number, ``NO_STREAM`` or
    ``ANY`` (``None`` means ``ANY``)."""

    type: str
    stream: str
    data: dict
    id: str | None = None
    expected_version: int | str | None = None
    meta: dict = field(default_factory=dict)
    schema_version: int = 1


class Record(NamedTuple):
    """One stored event, field for field and in column order as in the store (``data`` and
    ``meta`` as their canonical text). A tuple, so that it is also the row a store inserts."""

    position: int
    id: str
    tournament_id: str
    stream: str
    version: int
    type: str
    schema_version: int
    data: str
    meta: str
    recorded_at: str
    prev_hash: str
    hash: str

    def to_dict(self) -> dict:
        return {
            "position": self.position,
            "id": self.id,
            "tournament_id": self.tournament_id,
            "stream": self.stream,
            "version": self.version,
            "type": self.type,
            "schema_version": self.schema_version,
            "data": json.loads(self.data),
            "meta": json.loads(self.meta),
            "recorded_at": self.recorded_at,
            "prev_hash": self.prev_hash,
            "hash": self.hash,
        }

    def to_json_line(self) -> str:
        """The export form: the canonical JSON of the whole envelope, hash included."""
        return envelope_text(self, with_hash=True)

    @property
    def data_dict(self) -> dict:
        return json.loads(self.data)

    def same_fact_as(self, other: "Record") -> bool:
        """Idempotency compares the fact, not who sent it: meta (actor, correlation) may differ."""
        return (self.tournament_id, self.stream, self.type, self.schema_version, self.data) == (
            other.tournament_id, other.stream, other.type, other.schema_version, other.data)


def hashed_text(r: Record) -> str:
    """Canonical JSON of the envelope without its hash: the text the chain hashes."""
    return envelope_text(r, with_hash=False)


def envelope_text(r: Record, with_hash: bool) -> str:
    """Canonical JSON of the envelope, assembled from the stored texts.

    Building it from the stored ``data``/``meta`` text (instead of re-serialising parsed values)
    means that any changed byte, even white space inside ``data``, changes the hash. Keys are in
    sorted order, so for canonical ``data``/``meta`` this equals ``canonical_json(envelope)``.
    """
    s = _json_string
    return "".join((
        '{"data":', r.data,
        ',"hash":' + s(r.hash) if with_hash else "",
        ',"id":', s(r.id),
        ',"meta":', r.meta,
        ',"position":', str(r.position),
        ',"prev_hash":', s(r.prev_hash),
        ',"recorded_at":', s(r.recorded_at),
        ',"schema_version":', str(r.schema_version),
        ',"stream":', s(r.stream),
        ',"tournament_id":', s(r.tournament_id),
        ',"type":', s(r.type),
        ',"version":', str(r.version),
        "}",
    ))


def chain_hash(prev_hash: str, text: str) -> str:
    return hashlib.sha256((prev_hash + text).encode("utf-8")).hexdigest()


def record_hash(r: Record) -> str:
    return chain_hash(r.prev_hash, hashed_text(r))
