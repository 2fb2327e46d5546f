"""Checkpoints of folded streams kept on disk beside the log, so that a restart, an evicted
stream or a read ``?at=`` late in a match folds from the nearest one instead of from version 1.

A checkpoint is derived, never the truth: a :class:`projections.streams.StreamState` written as
data (projections/state_codec.py: JSON of the states' own fields, compressed), keyed by
(stream, version, hash of the event it follows). It is used only when the stored event at its
version still has that hash — and since every hash chains every event of its tournament before
it, an equal hash means the same history, so the same folded state. A checkpoint of another
history (a rolled-back group commit, another database) never matches and is dropped. Each is
also stamped with the version of the folds' output (:func:`fold_code`,
projections/fold_version.py): after an upgrade that changes what a fold makes, the old ones are
ignored, not misread; an upgrade that does not (a comment, a faster function) keeps them all.

Reading a checkpoint never runs code: its text can only make plain values and the rules' own
state objects, so whoever can write the file can at worst make a checkpoint that is refused (or
of another history, and dropped).

The file is a SQLite database of its own (``<database>-checkpoints``), never part of the log, the
hash chain or an export; deleting it loses nothing but time. Writes go through one background
thread (best effort, ``synchronous=OFF``), so no request waits for them and they never contend
with the log's writer. A missing, truncated or foreign file, or a row that does not read as a
state, is ignored with a log line and rebuilt as streams are folded again. The checkpoints of
another fold version are dropped by the writer thread in batches, after the node has started,
so that no start waits for a file full of them.

The file also has a table of *quiet marks* ("as of (version, hash) this match is over or
paused"), which the timer reads at start-up to skip those matches (projections/quiet_marks.py)
when the app has no deployment database of its own; a deployment keeps them in its database,
beside the log, where they outlive this file.
"""
from __future__ import annotations

import logging
import queue
import sqlite3
import threading
import zlib
from pathlib import Path
from typing import Any

from . import state_codec
from .fold_version import FOLD_VERSION
from .stream_state import StreamState

log = logging.getLogger("paiju.checkpoints")

QUEUE_LIMIT = 256       # jobs waiting to be written; beyond it a fold waits for the writer
WRITER_PATIENCE = 30.0  # seconds a fold waits for room before it skips a job
PURGE_BATCH = 256       # checkpoints of another fold version dropped in one statement
# the longest text a checkpoint may expand to, far above any state's (a long match's is well
# under a MiB): a forged row cannot make a read fill the memory
TEXT_LIMIT = 64 * 2**20


def fold_code() -> str:
    """The stamp of the checkpoints this code reads and writes: the folds' output version."""
    return f"fold-{FOLD_VERSION}"


def dumps(state: Any) -> bytes:
    return zlib.compress(state_codec.encode(state), 1)


def loads(blob: bytes) -> Any:
    """The state in ``blob``; raises :class:`state_codec.NotAState` for anything else."""
    expander = zlib.decompressobj()
    try:
        text = expander.decompress(blob, TEXT_LIMIT)
    except (zlib.error, TypeError) as error:
        raise state_codec.NotAState(f"not compressed text ({error})") from None
    if expander.unconsumed_tail or not expander.eof:
        raise state_codec.NotAState("cut short, or longer than a state")
    return state_codec.decode(text)


SCHEMA = (
    "CREATE TABLE IF NOT EXISTS checkpoints (stream TEXT NOT NULL, version INTEGER NOT NULL, "
    "position INTEGER NOT NULL, hash TEXT NOT NULL, code TEXT NOT NULL, state BLOB NOT NULL, "
    "PRIMARY KEY (stream, version))",
    "CREATE TABLE IF NOT EXISTS quiet (stream TEXT PRIMARY KEY, version INTEGER NOT NULL, "
    "hash TEXT NOT NULL)",
)


class CheckpointFile:
    """The checkpoints and quiet marks of one log, in a SQLite file beside it."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.code = fold_code()
        self._lock = threading.Lock()    # one connection, shared by readers and the writer
        self._stale = False              # whether it holds checkpoints of other rules
        self._conn = self._open()
        self._queue: queue.Queue = queue.Queue(QUEUE_LIMIT)
        self.skipped = 0  # jobs not written because the writer was stuck
        self._writer = threading.Thread(target=self._write_loop, name="paiju-checkpoints",
                                        daemon=True)
        self._writer.start()
        if self._stale:  # dropped by the writer, a batch at a time: no start waits for it
            self._offer(("purge",))

    # --- opening ------------------------------------------------------------------------------
    def _open(self) -> sqlite3.Connection:
        try:
            return self._connect()
        except sqlite3.DatabaseError as error:  # truncated, or not a database at all
            log.warning("checkpoint file %s is unreadable (%s): starting a new one", self.path,
                        error)
            self._remove()
            return self._connect()

    def _connect(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=OFF")  # a lost checkpoint is only refolded
        for statement in SCHEMA:
            conn.execute(statement)
        self._stale = conn.execute("SELECT EXISTS (SELECT 1 FROM checkpoints WHERE code != ?)",
                                   (self.code,)).fetchone()[0]
        if self._stale:  # never read (every read asks for this code), and dropped
            log.info("checkpoint file %s: the checkpoints of another version of the rules are "
                     "ignored and dropped", self.path)
        return conn

    def _remove(self) -> None:
        for suffix in ("", "-wal", "-shm"):
            Path(str(self.path) + suffix).unlink(missing_ok=True)

    # --- reading ------------------------------------------------------------------------------
    def _query(self, sql: str, params: tuple) -> list[tuple]:
        try:
            with self._lock:
                return self._conn.execute(sql, params).fetchall()
        except sqlite3.DatabaseError as error:
            log.warning("checkpoint file %s: read failed (%s); ignored", self.path, error)
            return []

    def newest_version(self, stream: str, at: int | None) -> int:
        """The version of the stream's newest checkpoint at or before position ``at`` (0: none)."""
        sql = "SELECT max(version) FROM checkpoints WHERE stream = ? AND code = ?"
        params: tuple = (stream, self.code)
        if at is not None:
            sql, params = sql + " AND position <= ?", params + (at,)
        rows = self._query(sql, params)
        return (rows[0][0] or 0) if rows else 0

    def load(self, stream: str, version: int):
        """The checkpoint of ``stream`` at ``version``, or None (missing or unreadable)."""
        rows = self._query("SELECT state FROM checkpoints WHERE stream = ? AND version = ? "
                           "AND code = ?", (stream, version, self.code))
        if not rows:
            return None
        try:
            state = loads(rows[0][0])
        except Exception as error:  # truncated, damaged or forged: refolded, written again later
            log.warning("checkpoint %s@%d is damaged: not a state this code reads (%s); ignored "
                        "and dropped", stream, version, error)
            self.discard(stream, version)
            return None
        if not (isinstance(state, StreamState) and state.stream == stream
                and state.version == version):
            log.warning("checkpoint %s@%d holds another stream's state: dropped", stream, version)
            self.discard(stream, version)
            return None
        return state

    def quiet(self, stream: str) -> tuple[int, str] | None:
        rows = self._query("SELECT version, hash FROM quiet WHERE stream = ?", (stream,))
        return (rows[0][0], rows[0][1]) if rows else None

    # --- writing (in the background) ----------------------------------------------------------
    def save(self, state) -> None:
        """Queue ``state`` (a StreamState, an immutable value) to be encoded and written."""
        self._offer(("save", state))

    def discard(self, stream: str, version: int, hash_: str | None = None) -> None:
        """Drop the checkpoint at ``version`` (only if it follows ``hash_``, when given: one of
        another history, not the true one written since)."""
        self._offer(("discard", stream, version, hash_))

    def mark_quiet(self, stream: str, version: int, hash_: str) -> None:
        self._offer(("quiet", stream, version, hash_))

    def _offer(self, job: tuple) -> None:
        """Queue ``job``. A fold that makes checkpoints faster than the writer writes them (the
        first start on a long log folds every match) waits for it rather than lose them; only
        a writer stuck for long makes a job skipped."""
        try:
            self._queue.put(job, timeout=WRITER_PATIENCE)
        except queue.Full:
            self.skipped += 1
            log.warning("checkpoint writer stuck: %s skipped (%d so far)", job[0], self.skipped)

    def flush(self) -> None:
        """Wait until everything queued so far is written (tests, shutdown)."""
        self._queue.join()

    def close(self) -> None:
        self._queue.put(None)
        self._writer.join(timeout=10)
        with self._lock:
            self._conn.close()

    def _write_loop(self) -> None:
        while True:
            job = self._queue.get()
            if job is None:
                self._queue.task_done()
                return
            try:
                self._write(job)
            except Exception:  # noqa: BLE001 - a checkpoint that cannot be written is skipped
                log.exception("checkpoint %s not written", job[0])
            finally:
                self._queue.task_done()

    def _purge(self) -> None:
        """Drop the checkpoints of another code, a batch at a time (readers wait for one
        batch at most)."""
        dropped = 0
        while True:
            with self._lock:
                batch = self._conn.execute(
                    "DELETE FROM checkpoints WHERE rowid IN (SELECT rowid FROM checkpoints "
                    "WHERE code != ? LIMIT ?)", (self.code, PURGE_BATCH)).rowcount
            dropped += batch
            if batch < PURGE_BATCH:
                break
        log.info("checkpoint file %s: %d checkpoints of another version of the rules dropped",
                 self.path, dropped)

    def _write(self, job: tuple) -> None:
        if job[0] == "purge":
            self._purge()
            return
        if job[0] == "save":
            state = job[1]
            blob = dumps(state)
            sql = ("INSERT OR REPLACE INTO checkpoints (stream, version, position, hash, code, "
                   "state) VALUES (?, ?, ?, ?, ?, ?)")
            params: tuple = (state.stream, state.version, state.position, state.hash, self.code,
                             blob)
        elif job[0] == "discard":
            sql = ("DELETE FROM checkpoints WHERE stream = ? AND version = ? "
                   "AND (? IS NULL OR hash = ?)")
            params = (job[1], job[2], job[3], job[3])
        else:
            sql = "INSERT OR REPLACE INTO quiet (stream, version, hash) VALUES (?, ?, ?)"
            params = job[1:]
        with self._lock:
            self._conn.execute(sql, params)
