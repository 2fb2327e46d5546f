"""The simulated logs of all five games, kept as a file beside the tests
(tests/fixtures/fold-logs.jsonl.xz, one event a line), for the tests that fold them: the digest
of the folds' output that keys the checkpoints' validity (projections/fold_version.py), and the
round trip of every state through the checkpoints' text (projections/state_codec.py).

Kept as a file, not simulated at each run: the digest must be of the same log on every machine
and every day (a simulation records the time of day), and folding a stored log takes a second
where simulating takes a minute. Small by design (0.1 MB): a short knockout of SJ2, with a
committee's ruling that reaches back into a match, and of Guandan; a groups-of-four event of MJO
and of Sichuan; a two-round SJ3 team event — every kind of state the folds make, a few hands of
each.

Regenerating it (``python tests/fold_logs.py``) changes the digest, so FOLD_VERSION moves with
it: do it only when the file lacks something the folds now make."""
from __future__ import annotations

import json
import lzma
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script
    sys.path.insert(0, str(ROOT))

from events.envelope import GENESIS_HASH, Record, canonical_json, record_hash  # noqa: E402
from events.sqlite_store import SQLiteEventStore  # noqa: E402

LOGS = Path(__file__).resolve().parent / "fixtures" / "fold-logs.jsonl.xz"


def records() -> Iterator[Record]:
    """Every event of the file, in the order of the log, its chain hashed again as it is read
    (the hashes, a third of the file and not compressible, are left out of it)."""
    last_hash: dict[str, str] = {}
    with lzma.open(LOGS, "rt", encoding="utf-8") as lines:
        for line in lines:
            fields = json.loads(line)
            fields["prev_hash"] = last_hash.get(fields["tournament_id"], GENESIS_HASH)
            record = Record(**fields, hash="")
            record = record._replace(hash=record_hash(record))
            last_hash[record.tournament_id] = record.hash
            yield record


def match_states(store: SQLiteEventStore, every: int) -> Iterator:
    """Every ``every``-th state of each match stream of ``store``, and each stream's last,
    folded event by event."""
    from events import default_catalogue  # the folds, not needed to write the file
    from projections.streams import StreamState, fold
    catalogue = default_catalogue()
    for stream in sorted({r.stream for r in store.read_type("MatchStarted")}):
        state, records = StreamState(stream), list(store.read_stream(stream))
        for index, record in enumerate(records):
            state = fold(state, [record], catalogue, store)
            if index % every == 0 or index == len(records) - 1:
                yield state


def restored_store(path: str | Path) -> SQLiteEventStore:
    """A SQLite log at ``path`` holding the file's events exactly (positions and hashes kept)."""
    store = SQLiteEventStore(str(path), synchronous="OFF")
    store.restore(records())
    return store


def _ruled(server, outcome) -> None:
    """A committee's ruling that reaches back into the first match of a knockout (a play voided:
    every later play is folded again, those out of turn flagged)."""
    client = server.app.test_client()
    client.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {server.token}"
    base = f"/v1/tournaments/{outcome.tournament_id}"
    match = outcome.bracket["rounds"][0]["matches"][0]["match_id"]
    stream = f"match-{outcome.tournament_id}:{match}"
    events = client.get(f"{base}/events?type=CardsPlayed&limit=1000").json["events"]
    played = [e["position"] for e in events if e["stream"] == stream]
    response = client.post(f"{base}/events", json={
        "type": "RulingRecorded", "stream": stream, "data": {
            "text": "the committee rules", "effects": [{
                "kind": "void", "rule": "SJ2-15.3", "member": "钟致鹏",
                "positions": [played[len(played) // 2]]}]}})
    assert response.status_code == 201, response.json


def _played() -> Iterator[Record]:
    """Plays the five games, each on a temporary server of its own (some on a simulated
    clock), and yields the logs they hold."""
    from service.simulator import mahjong, sichuan, swiss
    from service.simulator.runner import SimulatedClock, simulate, temporary_server

    games = [
        (None, None, lambda url, token: simulate(
            url, token=token, teams=4, seed=5, match_settings={"maxHands": 2})),
        (SimulatedClock(9), True, lambda url, token: simulate(
            url, token=token, teams=4, seed=3, game="guandan",
            match_settings={"matchMinutes": 30, "overtimeMinutes": 15},
            bot_options={"seconds_per_move": 9})),
        (None, None, lambda url, token: mahjong.simulate(
            url, token=token, players=8, seed=11, advance=2,
            match_settings={"sessionHands": 1})),
        (None, None, lambda url, token: sichuan.simulate(
            url, token=token, players=8, seed=26, match_settings={"sessionHands": 1})),
        (SimulatedClock(3.0), None, lambda url, token: swiss.simulate(
            url, token=token, teams=3, rounds=2, seed=5)),
    ]
    for number, (clock, timer, play) in enumerate(games):
        with temporary_server(clock=clock, timer=timer) as server:
            outcome = play(server.url, server.token)
            if number == 0:  # the first log keeps its positions, which a ruling names
                _ruled(server, outcome)
            store = server.app.extensions["paiju"].store
            yield from store.read_all()


def _numbered(record: Record, position: int, correlations: dict[str, str]) -> dict:
    """``record`` at ``position`` of the one log, without its hashes, its random ids made
    serial numbers (they are what made the file large; no fold reads them)."""
    meta = json.loads(record.meta)
    if "correlation_id" in meta:
        meta["correlation_id"] = correlations.setdefault(
            meta["correlation_id"], str(uuid.UUID(int=len(correlations) + 1)))
    fields = record._replace(position=position, id=str(uuid.UUID(int=position)),
                             meta=canonical_json(meta))._asdict()
    del fields["prev_hash"], fields["hash"]
    return fields


def main() -> None:
    """Five databases, each from position 1, written as one log (:func:`records` hashes each
    tournament's chain again with its new positions)."""
    LOGS.parent.mkdir(parents=True, exist_ok=True)
    count, correlations = 0, {}
    with lzma.open(LOGS, "wb", preset=9) as raw:
        for count, record in enumerate(_played(), start=1):
            line = json.dumps(_numbered(record, count, correlations), ensure_ascii=False)
            raw.write(line.encode("utf-8") + b"\n")
    print(f"{LOGS}: {count} events, {LOGS.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
