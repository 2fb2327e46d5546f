"""The store contract: every implementation (in-memory, SQLite) must pass all of it."""
import threading

import pytest

from events.envelope import (
    ANY,
    GENESIS_HASH,
    NO_STREAM,
    NewEvent,
    canonical_json,
    hashed_text,
    record_hash,
)
from events.store import (
    IdempotencyConflict,
    InvalidBatch,
    StreamBelongsElsewhere,
    WrongExpectedVersion,
)

EVENT_ID = "0b4f6a7e-8f1c-4b7a-9c7e-2f0d5b9a1c33"


def ev(stream="match-m1", n=0, **kw):
    return NewEvent(type="CardsPlayed", stream=stream, data={"seat": n % 4, "cards": ["QH", "QH"]}, **kw)


def log_of(store, tid="t1"):
    return list(store.read_tournament(tid))


def test_positions_are_global_and_gap_free_versions_per_stream(store):
    store.append("t1", [ev("match-a"), ev("match-b")])
    store.append("t2", [ev("match-c")])
    store.append("t1", [ev("match-a")])
    records = log_of(store, "t1") + log_of(store, "t2")
    assert sorted(r.position for r in records) == [1, 2, 3, 4]
    assert [(r.stream, r.version) for r in log_of(store, "t1")] == [
        ("match-a", 1), ("match-b", 1), ("match-a", 2)]
    assert store.last_position() == 4
    assert store.stream_head("match-a") == ("t1", 2)
    assert store.stream_head("match-zzz") is None


def test_stored_envelope_has_every_field(store):
    [r] = store.append("t1", [ev(meta={"actor": "scorer-7", "role": "scorer"})]).records
    d = r.to_dict()
    assert set(d) == {"position", "id", "tournament_id", "stream", "version", "type",
                      "schema_version", "data", "meta", "recorded_at", "prev_hash", "hash"}
    assert d["data"] == {"seat": 0, "cards": ["QH", "QH"]}
    assert d["meta"] == {"actor": "scorer-7", "role": "scorer"}
    assert d["recorded_at"].endswith("Z")
    assert store.get(r.id) == r


def test_client_supplied_id_is_kept(store):
    [r] = store.append("t1", [ev(id=EVENT_ID)]).records
    assert r.id == EVENT_ID


def test_hash_chain_links_each_tournament_separately(store):
    store.append("t1", [ev("match-a")])
    store.append("t2", [ev("match-b")])
    store.append("t1", [ev("match-a"), ev("match-a")])
    t1, t2 = log_of(store, "t1"), log_of(store, "t2")
    assert t1[0].prev_hash == GENESIS_HASH and t2[0].prev_hash == GENESIS_HASH
    assert [r.prev_hash for r in t1[1:]] == [r.hash for r in t1[:-1]]
    assert all(record_hash(r) == r.hash for r in t1 + t2)
    assert store.verify("t1").ok and store.verify("t2").ok
    assert store.verify("t1").checked == 3


def test_hashed_text_is_the_canonical_json_of_the_envelope_without_hash(store):
    [r] = store.append("t1", [NewEvent("X", "match-x", {"名": "王伟", "b": [1, 2.5]})]).records
    envelope = r.to_dict()
    del envelope["hash"]
    assert hashed_text(r) == canonical_json(envelope)
    assert r.to_json_line() == canonical_json(r.to_dict())


@pytest.mark.parametrize("expected", [0, NO_STREAM])
def test_expected_version_for_a_new_stream(store, expected):
    store.append("t1", [ev(expected_version=expected)])
    with pytest.raises(WrongExpectedVersion) as info:
        store.append("t1", [ev(expected_version=expected)])
    assert info.value.current == 1


def test_expected_version_number_and_any(store):
    store.append("t1", [ev(), ev()])
    store.append("t1", [ev(expected_version=2)])
    store.append("t1", [ev(expected_version=ANY)])
    assert store.stream_head("match-m1") == ("t1", 4)


def test_expected_version_ahead_of_the_stream_is_refused_with_the_current_version(store):
    store.append("t1", [ev()])
    with pytest.raises(WrongExpectedVersion) as info:
        store.append("t1", [ev(expected_version=5)])
    assert (info.value.stream, info.value.expected, info.value.current) == ("match-m1", 5, 1)
    assert store.last_position() == 1


def test_expected_version_inside_a_batch_counts_earlier_events_of_the_batch(store):
    store.append("t1", [ev(expected_version=0), ev(expected_version=1), ev("match-b", expected_version=0)])
    assert store.stream_head("match-m1") == ("t1", 2)


def test_a_batch_whose_third_of_five_events_conflicts_writes_nothing(store):
    store.append("t1", [ev("match-b")])
    batch = [ev(), ev(), ev("match-b", expected_version=7), ev(), ev()]
    with pytest.raises(WrongExpectedVersion):
        store.append("t1", batch)
    assert len(log_of(store)) == 1 and store.last_position() == 1
    assert store.stream_head("match-m1") is None


def test_idempotent_retry_returns_the_stored_events_and_writes_nothing(store):
    first = store.append("t1", [ev(id=EVENT_ID, expected_version=NO_STREAM)])
    again = store.append("t1", [ev(id=EVENT_ID, expected_version=NO_STREAM)])
    assert again.created is False and first.created is True
    assert again.records == first.records
    assert (again.records[0].position, again.records[0].hash) == (1, first.records[0].hash)
    assert store.last_position() == 1


def test_reusing_an_id_with_other_content_is_a_conflict(store):
    store.append("t1", [ev(id=EVENT_ID)])
    with pytest.raises(IdempotencyConflict) as info:
        store.append("t1", [NewEvent("CardsPlayed", "match-m1", {"seat": 1, "cards": ["2C"]}, id=EVENT_ID)])
    assert info.value.event_id == EVENT_ID
    assert store.last_position() == 1


def test_a_batch_mixing_a_stored_id_and_new_events_is_a_conflict(store):
    store.append("t1", [ev(id=EVENT_ID)])
    with pytest.raises(IdempotencyConflict):
        store.append("t1", [ev(id=EVENT_ID), ev()])
    assert store.last_position() == 1


def test_the_same_id_twice_in_one_batch_is_refused(store):
    with pytest.raises(InvalidBatch):
        store.append("t1", [ev(id=EVENT_ID), ev(id=EVENT_ID)])
    with pytest.raises(InvalidBatch):
        store.append("t1", [])
    assert store.last_position() == 0


def test_a_stream_belongs_to_one_tournament(store):
    store.append("t1", [ev("match-shared")])
    with pytest.raises(StreamBelongsElsewhere) as info:
        store.append("t2", [ev("match-shared")])
    assert info.value.owner == "t1"
    assert store.last_position() == 1


def test_read_stream_from_a_version_with_a_limit(store):
    store.append("t1", [ev(n=i) for i in range(10)])
    assert [r.version for r in store.read_stream("match-m1", from_version=4, limit=3)] == [4, 5, 6]
    assert [r.version for r in store.read_stream("match-m1", until_position=2)] == [1, 2]
    assert list(store.read_stream("match-none")) == []


def test_read_tournament_after_a_position_filtered_by_stream_and_type(store):
    store.append("t1", [ev("match-a"), NewEvent("TrumpDeclared", "match-a", {}), ev("match-b")])
    store.append("t2", [ev("match-c")])
    store.append("t1", [ev("match-a")])
    assert [r.position for r in store.read_tournament("t1", after=1)] == [2, 3, 5]
    assert [r.position for r in store.read_tournament("t1", after=1, limit=2)] == [2, 3]
    assert [r.position for r in store.read_tournament("t1", stream="match-a")] == [1, 2, 5]
    assert [r.position for r in store.read_tournament("t1", type="TrumpDeclared")] == [2]


def test_read_by_type_across_tournaments(store):
    store.append("t1", [NewEvent("TournamentCreated", "tournament-t1", {})])
    store.append("t2", [ev(), NewEvent("TournamentCreated", "tournament-t2", {})])
    assert [r.tournament_id for r in store.read_type("TournamentCreated")] == ["t1", "t2"]
    assert [r.position for r in store.read_type("TournamentCreated", after=1)] == [3]
    assert store.tournament_ids() == ["t1", "t2"]


def test_read_all_follows_every_tournament_after_a_position(store):
    store.append("t1", [NewEvent("TournamentCreated", "tournament-t1", {})])
    store.append("t2", [ev("match-x"), ev("match-x")])
    store.append("t1", [ev("match-a")])
    assert [(r.position, r.tournament_id) for r in store.read_all()] == [
        (1, "t1"), (2, "t2"), (3, "t2"), (4, "t1")]
    assert [r.position for r in store.read_all(after=2)] == [3, 4]
    assert [r.position for r in store.read_all(after=1, limit=2)] == [2, 3]
    assert list(store.read_all(after=4)) == []


def test_reads_page_through_more_than_one_page(store):
    for _ in range(3):
        store.append("t1", [ev(n=i) for i in range(400)])
    positions = [r.position for r in store.read_tournament("t1")]
    assert positions == list(range(1, 1201))
    assert [r.version for r in store.read_stream("match-m1", from_version=600, limit=700)] == list(range(600, 1201))


def test_two_writers_with_the_same_expected_version_exactly_one_wins(store):
    store.append("t1", [ev()])
    barrier, outcomes = threading.Barrier(2), []

    def write(n):
        barrier.wait()
        try:
            store.append("t1", [ev(n=n, expected_version=1), ev(n=n)])
            outcomes.append("ok")
        except WrongExpectedVersion as error:
            outcomes.append(error.current)

    threads = [threading.Thread(target=write, args=(n,)) for n in (1, 2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes, key=str) == [3, "ok"]  # the loser learns the version the winner made
    assert store.stream_head("match-m1") == ("t1", 3)  # one batch of two, nothing partial
    assert store.verify("t1").ok


def test_a_batch_of_more_ids_than_one_sql_statement_may_bind(store):
    import uuid
    events = [NewEvent("X", "match-many", {"i": i}, id=str(uuid.uuid4())) for i in range(1200)]
    first = store.append("t1", events)
    again = store.append("t1", events)
    assert again.created is False and again.records == first.records
