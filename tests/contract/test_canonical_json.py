"""Canonical JSON and the hash chain stay byte for byte what they have always been.

The append serialises and hashes through shortcuts (the C JSON encoder called directly, an
envelope text assembled from parts shared by a batch); these tests hold them to the plain
definitions: ``json.dumps`` with sorted keys, no spaces and UTF-8 kept, and the hashes that the
store wrote before the shortcuts existed. A difference of one byte would break every stored
chain, so a faster serializer is only acceptable if all of this still passes.
"""
import itertools
import json
import sqlite3

import pytest

from events.envelope import NO_STREAM, NewEvent, Record, canonical_json, hashed_text, record_hash
from events.memory_store import InMemoryEventStore
from events.sqlite_store import COLUMNS, SQLiteEventStore
from service.simulator.runner import simulate, temporary_server


def reference(value) -> str:
    """The definition of canonical JSON, by the standard library's documented options."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False)


AWKWARD = [
    {"b": 1, "a": {"z": [1, 2], "y": "王"}},
    {"é": 1, "z": 2, "中": 3, "\U0001F600": 4, "～": 5, "A": 6, "": 7},  # code point order
    [1e-05, 1e16, 1e15, 0.1, -0.0, 1.5e300, 5e-324, 123456789.123],  # repr's exponent forms
    [2 ** 70, -(2 ** 64), 0, True, False, None],
    'tab\t "quoted" back\\slash \x00\x1f\x7f \u2028\u2029 ünï 😀',
    {"nested": [[[{"deep": [[]]}]]], "empty": {}},
    {10: "int keys sort as numbers", 2: "then become text"}, {2.5: "float"}, {None: "null"},
    (1, "tuple"),
]


@pytest.mark.parametrize("value", AWKWARD, ids=range(len(AWKWARD)))
def test_canonical_json_is_the_standard_library_form(value):
    assert canonical_json(value) == reference(value)


def circular():
    a: list = []
    a.append(a)
    return a


@pytest.mark.parametrize("value, error, message", [
    ({"x": float("nan")}, ValueError, "Out of range float"),
    ([float("inf")], ValueError, "Out of range float"),
    (circular(), ValueError, "Circular reference"),
    ({"when": object()}, TypeError, "not JSON serializable"),
    ({("a", "b"): 1}, TypeError, "keys must be"),
    ({1: "a", "b": 2}, TypeError, "not supported between"),
], ids=["nan", "infinity", "cycle", "object", "tuple key", "keys of two types"])
def test_canonical_json_refuses_what_the_standard_library_refuses(value, error, message):
    with pytest.raises(error, match=message):
        reference(value)
    with pytest.raises(error, match=message):
        canonical_json(value)


def test_nesting_too_deep_for_the_encoder_is_a_recursion_error_as_before():
    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    with pytest.raises(RecursionError):
        canonical_json(deep)


# Written by the store before the append's shortcuts, for the batches of ``append_golden``.
GOLDEN_HASHES = [
    "6d98e0149bea78aa5a5a881411aabe6cdd1ece7409c8b7d307a9cfa049231b6e",
    "0e46a1d041a66048d689ec9e94189b2729bc78b01052ddac08712d51253f9c81",
    "55b54933aa7b1cb3d40de4ee856eda56790ba95a867855e4573bfac968652385",
    "5cb30be26faebabafd6874afcc1efbdd5cecf5815cb15795c3d89d939d4895d4",
    "b7aa8b425271cef503e70f30dbee9a5d4679448ff65a1754237e714dfbf8cb23",
]


def append_golden(store) -> list[Record]:
    """Two tournaments, a shared meta object, non-ASCII, a float in exponent form, a big int,
    escapes, a second schema version and expected versions: what the shortcuts share or skip."""
    meta = {"actor": "scorer-7", "role": "scorer"}
    first = store.append("t1", [
        NewEvent("TeamRegistered", "tournament-t1",
                 {"team_id": "甲", "name": "一人队", "players": ["张三", "李四"]},
                 id="018f0000-0000-7000-8000-000000000001", meta=meta),
        NewEvent("CardsPlayed", "match-m1",
                 {"seat": 2, "cards": ["QH", "QH"], "rate": 1.5e-05, "big": 2 ** 70,
                  "text": 'tab\t"quoted" \u2028 😀'},
                 id="018f0000-0000-7000-8000-000000000002", meta=meta, expected_version=NO_STREAM),
        NewEvent("CardsPlayed", "match-m1", {"seat": 3, "cards": []},
                 id="018f0000-0000-7000-8000-000000000003", expected_version=1, schema_version=2),
    ]).records
    second = store.append("t2", [NewEvent("X", "match-t2", {"k": [1, {"b": None, "a": True}]},
                                          id="018f0000-0000-7000-8000-000000000004")]).records
    third = store.append("t1", [NewEvent("X", "match-m1", {}, meta={"actor": "界"},
                                         id="018f0000-0000-7000-8000-000000000005")]).records
    return first + second + third


FIXED_CLOCK = staticmethod(lambda: "2026-11-29T10:00:00.000000Z")


@pytest.mark.parametrize("kind", ["memory", "sqlite"])
def test_an_append_gives_the_hashes_the_store_has_always_given(kind, tmp_path):
    store = (InMemoryEventStore(clock=FIXED_CLOCK) if kind == "memory"
             else SQLiteEventStore(tmp_path / "golden.db", clock=FIXED_CLOCK))
    try:
        records = append_golden(store)
        assert [r.hash for r in records] == GOLDEN_HASHES
        assert [r.prev_hash for r in records[1:]] == [GOLDEN_HASHES[0], GOLDEN_HASHES[1],
                                                       "0" * 64, GOLDEN_HASHES[2]]
        assert store.verify("t1").ok and store.verify("t2").ok
    finally:
        store.close()


@pytest.fixture(scope="module")
def simulated_log() -> list[Record]:
    """Every event of a small knockout played by the simulator's bots through the API."""
    with temporary_server() as server:
        simulate(server.url, token=server.token, teams=4, seed=2, match_settings={"maxHands": 1})
        conn = sqlite3.connect(server.database)
        try:
            rows = conn.execute(f"SELECT {', '.join(COLUMNS)} FROM events ORDER BY position")
            return [Record(*row) for row in rows]
        finally:
            conn.close()


def test_every_stored_event_of_a_simulated_knockout_is_in_canonical_form(simulated_log):
    assert len({r.type for r in simulated_log}) >= 8  # deals, plays, kitty, draws, ...
    for r in simulated_log:
        for text in (r.data, r.meta):
            assert canonical_json(json.loads(text)) == reference(json.loads(text)) == text
        envelope = r.to_dict()
        assert r.to_json_line() == reference(envelope)
        del envelope["hash"]
        assert hashed_text(r) == reference(envelope)
        assert record_hash(r) == r.hash


def test_appending_a_simulated_log_again_gives_every_record_byte_for_byte(simulated_log):
    """The same events, ids and times appended to a new store: each record, hash and chain
    link equals the one written through the API."""
    store, again = InMemoryEventStore(), []
    for (recorded_at, tid), batch in itertools.groupby(
            simulated_log, key=lambda r: (r.recorded_at, r.tournament_id)):
        batch = list(batch)
        store.clock = lambda moment=recorded_at: moment
        again += store.append(tid, [NewEvent(r.type, r.stream, json.loads(r.data), id=r.id,
                                             meta=json.loads(r.meta),
                                             schema_version=r.schema_version)
                                    for r in batch]).records
    assert again == simulated_log
