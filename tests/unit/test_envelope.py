import hashlib
import uuid

import pytest

from events.envelope import (
    GENESIS_HASH,
    Record,
    canonical_json,
    chain_hash,
    hashed_text,
    new_event_id,
    record_hash,
)


def test_canonical_json_sorts_keys_drops_spaces_and_keeps_utf8():
    assert canonical_json({"b": 1, "a": {"z": [1, 2], "y": "王"}}) == '{"a":{"y":"王","z":[1,2]},"b":1}'


def test_canonical_json_refuses_nan():
    with pytest.raises(ValueError):
        canonical_json({"x": float("nan")})


def test_the_hash_is_sha256_of_prev_hash_then_the_canonical_envelope():
    r = Record(1, "e1", "t1", "tournament-t1", 1, "TeamWithdrawn", 1, '{"team_id":"a"}', "{}",
               "2026-11-29T10:00:00.000000Z", GENESIS_HASH, "")
    text = ('{"data":{"team_id":"a"},"id":"e1","meta":{},"position":1,"prev_hash":"' + GENESIS_HASH
            + '","recorded_at":"2026-11-29T10:00:00.000000Z","schema_version":1,'
              '"stream":"tournament-t1","tournament_id":"t1","type":"TeamWithdrawn","version":1}')
    assert hashed_text(r) == text
    expected = hashlib.sha256((GENESIS_HASH + text).encode()).hexdigest()
    assert record_hash(r) == chain_hash(GENESIS_HASH, text) == expected


def test_generated_ids_are_uuid7_and_time_ordered():
    ids = [new_event_id() for _ in range(50)]
    assert all(uuid.UUID(i).version == 7 and uuid.UUID(i).variant == uuid.RFC_4122 for i in ids)
    millis = [uuid.UUID(i).int >> 80 for i in ids]
    assert millis == sorted(millis)
    assert len(set(ids)) == 50
