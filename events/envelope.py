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


def _unchecked_encoder():
    """The C encoder that ``_canonical_encoder.encode`` builds on every call, built once, and
    without its circular-reference check (the one piece of state it keeps between calls). The
    set-up that ``encode`` repeats costs more than encoding an event's data. None where the C
    accelerator is missing."""
    make, e = json.encoder.c_make_encoder, _canonical_encoder
    if make is None:
        return None
    return make(None, e.default, _json_string, e.indent, e.key_separator, e.item_separator,
                e.sort_keys, e.skipkeys, e.allow_nan)


_fast_encode = _unchecked_encoder()


def canonical_json(value: Any) -> str:
    """The one JSON text of a value: sorted keys, no spaces, UTF-8 characters kept as they are.

    NaN and infinities are refused: they are not JSON and would not survive a round trip.
    """
    if _fast_encode is None:
        return _canonical_encoder.encode(value)
    try:
        return "".join(_fast_encode(value, 0))
    except RecursionError:
        # A cycle (or nesting too deep): the checked encoder says which, as it always has.
        return _canonical_encoder.encode(value)


def utc_timestamp(moment: datetime | None = None) -> str:
    """Server time as recorded in ``recorded_at``: UTC, microseconds, a ``Z`` suffix."""
    moment = moment or datetime.now(timezone.utc)
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def new_event_id() -> str:
    return new_event_ids(1)[0]


# The variant nibble of an id (RFC 4122: binary 10xx) from a random hex digit's two low bits.
_VARIANT_DIGIT = {digit: "89ab"[int(digit, 16) & 3] for digit in "0123456789abcdef"}


def new_event_ids(count: int) -> list[str]:
    """UUIDv7s (RFC 9562): 48 bits of Unix milliseconds, then random bits.

    Time-ordered ids land at the right edge of the store's unique id index instead of at a
    random page, which keeps appends fast; clients may still send any UUID of their own.
    Assembled as hex text (version digit 7, then the variant digit over random ones) rather
    than as a 128-bit integer: a batch's ids are a good part of what an append costs.
    """
    millis = f"{time.time_ns() // 1_000_000:012x}"
    prefix = f"{millis[:8]}-{millis[8:]}-7"
    noise = os.urandom(10 * count).hex()  # 20 digits an id: 3, the variant's, 3, then 12
    v, n = _VARIANT_DIGIT, noise
    return [f"{prefix}{n[i + 1:i + 4]}-{v[n[i + 4]]}{n[i + 5:i + 8]}-{n[i + 8:i + 20]}"
            for i in range(0, 20 * count, 20)]


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
    hash_part = ',"hash":' + _json_string(r.hash) if with_hash else ""
    return envelope_of(r.data, hash_part, r.id, r.meta, r.position, r.prev_hash,
                       envelope_middle(r.recorded_at, r.schema_version, r.stream,
                                       r.tournament_id, r.type), r.version)


def envelope_of(data: str, hash_part: str, event_id: str, meta: str, position: int,
                prev_hash: str, middle: str, version: int) -> str:
    """The envelope's text from its parts, ``middle`` being :func:`envelope_middle`'s. The
    append builds it without a :class:`Record` and shares one middle across a batch."""
    s = _json_string
    return (f'{{"data":{data}{hash_part},"id":{s(event_id)},"meta":{meta},"position":{position!s}'
            f',"prev_hash":{s(prev_hash)}{middle}{version!s}}}')


def envelope_middle(recorded_at: str, schema_version: int, stream: str, tournament_id: str,
                    type: str) -> str:
    """The envelope's keys from ``recorded_at`` to ``version``'s name: the part that events of
    one batch, stream, type and schema version have in common."""
    s = _json_string
    return (f',"recorded_at":{s(recorded_at)},"schema_version":{schema_version!s}'
            f',"stream":{s(stream)},"tournament_id":{s(tournament_id)},"type":{s(type)}'
            ',"version":')


def chain_hash(prev_hash: str, text: str) -> str:
    return hashlib.sha256((prev_hash + text).encode("utf-8")).hexdigest()


def record_hash(r: Record) -> str:
    return chain_hash(r.prev_hash, hashed_text(r))
