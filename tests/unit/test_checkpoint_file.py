"""The checkpoint file beside the log (projections/checkpoints.py): a new process folds from it
instead of from version 1, and a checkpoint that is missing, damaged, of another history or of
another database is ignored with a log line and rebuilt — never a wrong read, never a crash."""
from __future__ import annotations

import logging
import os
import pickle
import shutil
import sqlite3
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from events import default_catalogue
from events.envelope import NewEvent
from events.sqlite_store import SQLiteEventStore
from projections.checkpoints import CheckpointFile, dumps, fold_code, loads
from projections.stream_cache import MATCH_PERSIST_EVERY, PERSIST_EVERY, StreamCache
from projections.streams import StreamState, load_stream
from rules.rulings import DEAL_TYPES

CATALOGUE = default_catalogue()
ROOT = Path(__file__).resolve().parents[2]
STREAM = "tournament-t"
REGISTRATIONS = PERSIST_EVERY + 40  # one checkpoint written to the file, at PERSIST_EVERY


class CountingStore(SQLiteEventStore):
    """Counts the records the folds read."""
    read = 0

    def read_stream(self, *args, **kwargs):
        for record in super().read_stream(*args, **kwargs):
            self.read += 1
            yield record


def logged_tournament(path, prefix: str = "a") -> CountingStore:
    store = CountingStore(path, synchronous="OFF")
    store.append("t", [NewEvent("TournamentCreated", STREAM, {
        "tournament_id": "t", "name": "t", "game": "SJ2", "format": "knockout"})])
    store.append("t", [NewEvent("TeamRegistered", STREAM, {
        "team_id": f"{prefix}{i}", "name": f"{prefix}{i}", "players": [f"甲{i}", f"乙{i}"]})
        for i in range(REGISTRATIONS)])
    return store


@pytest.fixture
def store(tmp_path):
    store = logged_tournament(tmp_path / "log.db")
    yield store
    store.close()


def written_checkpoints(store, path) -> None:
    """What a first process leaves: the stream folded once with the file behind its cache."""
    file = CheckpointFile(path)
    load_stream(store, CATALOGUE, STREAM, cache=StreamCache(persisted=file))
    file.flush()
    file.close()


def read_by_a_new_process(store, path, at: int | None = None) -> StreamState:
    """The stream read by a process that has only the file; ``store.read`` then tells how many
    records that read folded."""
    file = CheckpointFile(path)
    try:
        store.read = 0
        folded = load_stream(store, CATALOGUE, STREAM, at=at, cache=StreamCache(persisted=file))
        store.folded_by_read = store.read
        return folded
    finally:
        file.flush()
        file.close()


def rows(path) -> list[tuple]:
    with sqlite3.connect(path) as conn:
        return conn.execute("SELECT stream, version FROM checkpoints ORDER BY version").fetchall()


def test_a_new_process_folds_from_the_checkpoint_file_not_from_version_1(store, tmp_path):
    path = tmp_path / "log.db-checkpoints"
    written_checkpoints(store, path)
    assert rows(path) == [(STREAM, PERSIST_EVERY)]
    read = read_by_a_new_process(store, path)
    assert read == load_stream(store, CATALOGUE, STREAM)
    assert read.version == REGISTRATIONS + 1
    assert store.folded_by_read == REGISTRATIONS + 1 - PERSIST_EVERY + 1  # from the checkpoint's own event
    at = read_by_a_new_process(store, path, at=PERSIST_EVERY + 5)
    assert at == load_stream(store, CATALOGUE, STREAM, at=PERSIST_EVERY + 5)
    assert store.folded_by_read == 6


def test_a_checkpoint_whose_hash_is_not_the_logs_is_never_used(store, tmp_path, caplog):
    path = tmp_path / "log.db-checkpoints"
    true = load_stream(store, CATALOGUE, STREAM, at=PERSIST_EVERY)
    forged_state = true.state.__class__(**{**true.state.__dict__, "name": "forged"})
    file = CheckpointFile(path)
    file.save(StreamState(STREAM, forged_state, true.version, true.position, "0" * 64))
    file.flush()
    file.close()
    with caplog.at_level(logging.INFO, logger="paiju.checkpoints"):
        read = read_by_a_new_process(store, path)
    assert read == load_stream(store, CATALOGUE, STREAM) and read.state.name == "t"
    assert "another history" in caplog.text
    with sqlite3.connect(path) as conn:  # dropped; the fold through its version wrote the true one
        assert conn.execute("SELECT version, hash FROM checkpoints").fetchall() == [
            (true.version, true.hash)]


def test_a_damaged_checkpoint_is_ignored_with_a_log_line_and_dropped(store, tmp_path, caplog):
    path = tmp_path / "log.db-checkpoints"
    written_checkpoints(store, path)
    with sqlite3.connect(path) as conn:  # a blob cut short, as a torn write would leave it
        blob = conn.execute("SELECT state FROM checkpoints").fetchone()[0]
        conn.execute("UPDATE checkpoints SET state = ?", (blob[:len(blob) // 2],))
    with caplog.at_level(logging.WARNING, logger="paiju.checkpoints"):
        read = read_by_a_new_process(store, path)
    assert read == load_stream(store, CATALOGUE, STREAM)
    assert "damaged" in caplog.text
    assert store.folded_by_read == REGISTRATIONS + 1  # folded from version 1
    assert rows(path) == [(STREAM, PERSIST_EVERY)]  # and written again by that fold


@pytest.mark.parametrize("damage", ["garbage", "truncated"])
def test_a_checkpoint_file_that_is_not_a_database_is_replaced(store, tmp_path, caplog, damage):
    path = tmp_path / "log.db-checkpoints"
    written_checkpoints(store, path)
    for suffix in ("-wal", "-shm"):
        (tmp_path / f"log.db-checkpoints{suffix}").unlink(missing_ok=True)
    content = path.read_bytes()
    path.write_bytes(b"not a database " * 100 if damage == "garbage" else content[:1500])
    with caplog.at_level(logging.WARNING, logger="paiju.checkpoints"):
        read = read_by_a_new_process(store, path)
    assert read == load_stream(store, CATALOGUE, STREAM)
    assert "checkpoint" in caplog.text
    assert rows(path) == [(STREAM, PERSIST_EVERY)]


def test_a_missing_checkpoint_file_is_made_anew(store, tmp_path):
    path = tmp_path / "gone" / "log.db-checkpoints"
    read = read_by_a_new_process(store, path)
    assert read == load_stream(store, CATALOGUE, STREAM)
    assert rows(path) == [(STREAM, PERSIST_EVERY)]


def test_the_checkpoints_of_another_database_are_never_used(store, tmp_path, caplog):
    """Another deployment's log: the same tournament and stream names, other events."""
    path = tmp_path / "other.db-checkpoints"
    other = logged_tournament(tmp_path / "other.db", prefix="b")
    try:
        written_checkpoints(other, path)
    finally:
        other.close()
    with caplog.at_level(logging.INFO, logger="paiju.checkpoints"):
        read = read_by_a_new_process(store, path)
    assert read == load_stream(store, CATALOGUE, STREAM)
    assert read.state.team("a0") is not None and read.state.team("b0") is None
    assert "another history" in caplog.text


def test_checkpoints_of_another_version_of_the_rules_are_dropped(store, tmp_path, caplog):
    path = tmp_path / "log.db-checkpoints"
    written_checkpoints(store, path)
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE checkpoints SET code = 'an older paiju'")
    with caplog.at_level(logging.INFO, logger="paiju.checkpoints"):
        read = read_by_a_new_process(store, path)
    assert read == load_stream(store, CATALOGUE, STREAM)
    assert "another version of the rules" in caplog.text
    assert store.folded_by_read == REGISTRATIONS + 1


def test_a_checkpoint_reads_back_as_the_state_it_was(store):
    """(Every state of the five games: tests/unit/test_fold_version.py.)"""
    folded = load_stream(store, CATALOGUE, STREAM)
    back = loads(dumps(folded))
    assert back == folded and type(back.state) is type(folded.state)
    assert back.state.team("a7").players == ("甲7", "乙7")


class Planted:
    """A pickle that makes a folder when it is unpickled: what a forged row would run."""

    def __init__(self, folder):
        self.folder = str(folder)

    def __reduce__(self):
        return os.mkdir, (self.folder,)


@pytest.mark.parametrize("packing", ["pickle", "compressed pickle"])
def test_a_checkpoint_holding_a_pickle_runs_nothing_and_is_dropped(store, tmp_path, caplog,
                                                                   packing):
    path = tmp_path / "log.db-checkpoints"
    written_checkpoints(store, path)
    planted = tmp_path / "planted"
    payload = pickle.dumps(Planted(planted))
    with sqlite3.connect(path) as conn:  # in the place of the true checkpoint, of today's code
        conn.execute("UPDATE checkpoints SET state = ?",
                     (payload if packing == "pickle" else zlib.compress(payload),))
    with caplog.at_level(logging.WARNING, logger="paiju.checkpoints"):
        read = read_by_a_new_process(store, path)
    assert not planted.exists()
    assert read == load_stream(store, CATALOGUE, STREAM)
    assert f"checkpoint {STREAM}@{PERSIST_EVERY} is damaged: not a state this code reads" in \
        caplog.text
    assert store.folded_by_read == REGISTRATIONS + 1  # folded from version 1
    assert rows(path) == [(STREAM, PERSIST_EVERY)]  # and the true one written again


RULES_READER = """
import sys
from projections.checkpoints import CheckpointFile, fold_code
file = CheckpointFile(sys.argv[1])
state = file.load(sys.argv[2], int(sys.argv[3]))
print(fold_code(), state.state.name if state else None, len(state.state.teams) if state else 0)
"""


def test_a_comment_edited_in_the_rules_keeps_every_checkpoint(store, tmp_path):
    """The code of another release whose only change is a comment in rules/: it reads the
    checkpoints this one wrote (their validity is the folds' version, not the source text)."""
    path = tmp_path / "log.db-checkpoints"
    written_checkpoints(store, path)
    release = tmp_path / "release"
    for package in ("rules", "events", "projections"):
        shutil.copytree(ROOT / package, release / package,
                        ignore=shutil.ignore_patterns("__pycache__"))
    edited = release / "rules" / "tournament.py"
    edited.write_text(edited.read_text() + "\n# a comment of the next release\n")
    found = subprocess.run([sys.executable, "-c", RULES_READER, str(path), STREAM,
                            str(PERSIST_EVERY)], cwd=release, capture_output=True, text=True,
                           env={**os.environ, "PYTHONPATH": str(release)}, check=True)
    assert found.stdout.split() == [fold_code(), "t", str(PERSIST_EVERY - 1)]


def test_a_match_is_written_at_its_deals_and_a_tournament_every_64_versions(fold_logs_store,
                                                                             tmp_path):
    """A match's state holds its finished hands, so a checkpoint of it grows with the match:
    one is written at each deal (and every MATCH_PERSIST_EVERY versions), not every 64."""
    path = tmp_path / "log.db-checkpoints"
    file = CheckpointFile(path)
    streams = sorted({r.stream for r in fold_logs_store.read_type("MatchStarted")} |
                     {r.stream for r in fold_logs_store.read_type("TournamentCreated")})
    for stream in streams:
        load_stream(fold_logs_store, CATALOGUE, stream, cache=StreamCache(persisted=file))
    file.flush()
    file.close()
    written = {}
    for stream, version in rows(path):
        written.setdefault(stream, []).append(version)
    for stream in streams:
        records = list(fold_logs_store.read_stream(stream))
        if stream.startswith("match-"):
            wanted = [r.version for r in records
                      if r.type in DEAL_TYPES or r.version % MATCH_PERSIST_EVERY == 0]
        else:
            wanted = [r.version for r in records if r.version % PERSIST_EVERY == 0]
        assert written.get(stream, []) == wanted, stream
    long_matches = [s for s in streams if s.startswith("match-") and
                    len(list(fold_logs_store.read_stream(s))) > PERSIST_EVERY]
    assert long_matches  # the logs hold matches longer than 64 events: the rule is tried
