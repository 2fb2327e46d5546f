"""Group commit for the PostgreSQL store, per tournament (events/postgres_store.py).

The appends of one tournament are serialised by its advisory lock, across every node. Taking the
lock, the seal and the commit once for each of them made the lock the ceiling: with sixteen
clients on one tournament, fifteen waited while one paid for a dozen round trips and a commit,
and lost the CPU between them. So the appends of one tournament that wait in one node are
committed together, in arrival order, each judged on the log its predecessors left:

- the first append of a tournament to arrive *leads*: it commits a group of itself and every
  append of the tournament queued behind it by then, then hands the lead to the next one
  queued (which leads the next group, with whatever queued meanwhile) and returns;
- a group is one transaction: the tournament's lock, then every append **judged** in turn on
  the log as the appends before it in the group leave it (:class:`GroupTail` shows them, not
  yet written, to the reads of a decision); a refused one simply adds nothing. Only then is the
  *seal* taken — the global lock that gives positions in commit order — for the positions, the
  insert of the whole group and the commit: no tournament waits for another's decisions;
- the positions a decision sees are a guess (the log's end when the group began); if another
  tournament committed meanwhile, the group's records are numbered again, and their hashes
  chained again, before the insert. A decision that needs exact positions (a ruling reaching
  back, which names the positions it recomputes) takes the seal first;
- appends of other tournaments form groups of their own, on other connections, at the same
  time.

There are no writer threads: whichever request thread leads does the work, as a request would
have done its own (events/group_commit.py forms the groups, one queue a tournament).
"""
from __future__ import annotations

import itertools
from typing import Callable, Sequence

import psycopg

from .envelope import Record, record_hash
from .group_commit import Job
from .sql_reads import (
    COLUMNS,
    LAST_POSITION,
    SELECT,
    read_stream_rows,
    stream_head_row,
    tournament_head_row,
)
from .store import AppendResult, Decide, plan_append

LOCK_SPACE = 0x7061696A   # 'paij': the two-key advisory lock space of the seal lock
SEAL_LOCK = (LOCK_SPACE, 1)
RETRIES = 3               # a group that met another tournament's insert of an id or a stream


COMMITS_CHANNEL = "paiju_commits"  # LISTEN/NOTIFY: word of each commit, its last position


def commit_group(conn: psycopg.Connection, sql: Callable[[str], str], jobs: list[Job],
                 recorded_at: str) -> None:
    """``jobs`` (one tournament's) in one transaction on ``conn``: each judged in turn, then
    the accepted ones sealed, inserted and committed together. Each job leaves with its result
    or its refusal; raises what fails the whole group (a lost connection, the insert, the
    commit), and then no job's result or refusal counts.

    In pipeline mode, statements go out without waiting for each other's answers: a group
    whose decisions read no more than the look-up brought takes three round trips (the begin,
    the tournament's lock and the look-up; the seal and the insert; the commit) and four
    statements, where it took a dozen of each. Every statement costs the node's CPU too
    (psycopg's Python), which is what several nodes on one machine run short of."""
    with conn.pipeline(), conn.transaction():
        tail = GroupTail(conn, sql, jobs)
        for job in jobs:
            tail.judge(job, recorded_at)
        if tail.pending:
            tail.seal_and_insert()
        tail.finish(jobs)


def insert(conn: psycopg.Connection, records: list[Record]) -> None:
    """``records`` by COPY (outside pipeline mode, which COPY cannot share): an import's."""
    with conn.cursor().copy(f"COPY events ({', '.join(COLUMNS)}) FROM STDIN") as copy:
        for record in records:
            copy.write_row(record)


TOURNAMENT_LOCK = "SELECT pg_advisory_xact_lock(hashtextextended(?, 0))"
SEAL = "SELECT pg_advisory_xact_lock(?, ?)"
# What every append of a group asks first, in one statement, a row per record, each row led
# by its kind: the log's last record (its end), the tournament's last (its head), each stream's
# last RECENT (its head, and what a decision reads after a cached state: the last entries of
# its (stream, version) index), and any stored already under an id the appends bring.
RECENT = 2  # a node's cached state of a stream it writes is the one before its last append
_RECORD = ", ".join(COLUMNS)


def _last(where: str, key: str, count: int) -> str:
    return f"SELECT {_RECORD} FROM events WHERE {where} ORDER BY {key} DESC LIMIT {count}"


LOOK_UP = (
    f"(SELECT ?::text, e.* FROM ({_last('true', 'position', 1)}) AS e) UNION ALL "
    f"(SELECT ?::text, e.* FROM ({_last('tournament_id = ?', 'position', 1)}) AS e) UNION ALL "
    f"(SELECT ?::text, e.* FROM unnest(?::text[]) AS s "
    f"CROSS JOIN LATERAL ({_last('stream = s', 'version', RECENT)}) AS e) UNION ALL "
    f"(SELECT ?::text, {_RECORD} FROM events WHERE id = ANY(?::text[]))")
_ARRAY_TYPES = {"position": "bigint", "version": "bigint", "schema_version": "integer"}
# The group's records, one array a column, inserted only if the log still ends where the
# group's positions assume, and word of them (delivered at the commit to every node that
# listens, events/commits.py): one statement, however many records, with a row if it wrote
# (a wrong guess writes nothing, and is numbered again). The arrays go in binary form (%b):
# psycopg escapes each text of a text-form array with a regular expression.
INSERT_IF_AT_END = (
    f"WITH written AS (INSERT INTO events ({', '.join(COLUMNS)}) SELECT * FROM unnest("
    + ", ".join(f"%b::{_ARRAY_TYPES.get(c, 'text')}[]" for c in COLUMNS)
    + f") WHERE ({LAST_POSITION}) = %s RETURNING position) "
    "SELECT pg_notify(%s, max(position)::text) FROM written HAVING count(*) > 0")


class GroupTail:
    """The :class:`events.store.Tail` of a group's open transaction: the log as stored, and
    after it the records of the group's appends judged so far (``pending``, not yet written).

    What every append asks first (its streams' heads, the tournament's head, the log's end,
    the stored events of the ids it brings) is read for the whole group with the tournament's
    lock, in one round trip, and remembered: the lock keeps the tournament's own streams as
    they are to the commit. (A stream or event id that another tournament's append takes
    meanwhile is met by the unique indexes at the insert; the whole group is then judged
    again, and meets it.)"""

    def __init__(self, conn: psycopg.Connection, sql: Callable[[str], str], jobs: list[Job]):
        self.conn, self.sql = conn, sql
        self.pending: list[Record] = []
        self._accepted: list[tuple[Job, int, int]] = []  # (job, its first, past its last)
        self._streams: dict[str, tuple[str, int] | None] = {}
        self._tournaments: dict[str, tuple[int, str] | None] = {}
        self._stored: dict[str, Record] = {}
        # each looked-up stream's last RECENT stored records, oldest first (all, if fewer)
        self._recent: dict[str, list[Record]] = {}
        self._looked_up: set[str] = set()  # the ids whose stored events _stored holds
        self._deciding = False
        self.sealed = False
        self._base = self._look_up(jobs)  # the log's end: a guess until sealed

    def query(self, sql: str, params: Sequence = ()) -> list[tuple]:
        return self.conn.execute(self.sql(sql), params).fetchall()

    def _send(self, sql: str, params: Sequence = ()) -> psycopg.Cursor:
        """A statement sent, its answer read later (pipeline mode): fetching it waits."""
        return self.conn.execute(self.sql(sql), params)

    def _look_up(self, jobs: list[Job]) -> int:
        """The tournament's lock, and with it everything :data:`LOOK_UP` reads; the log's end."""
        tournament_id = jobs[0].tournament_id
        streams = list({e.stream for job in jobs for e in job.events})
        ids = list({e.id for job in jobs for e in job.events if e.id})
        self._send(TOURNAMENT_LOCK, (tournament_id,))
        found: dict[str, list[Record]] = {"end": [], "tournament": [], "stream": [], "id": []}
        params = ("end", "tournament", tournament_id, "stream", streams, "id", ids)
        for kind, *row in self._send(LOOK_UP, params):
            found[kind].append(Record(*row))
        self._streams.update({stream: None for stream in streams})
        self._recent = {stream: [] for stream in streams}
        for record in sorted(found["stream"], key=lambda r: r.position):
            self._streams[record.stream] = (record.tournament_id, record.version)
            self._recent[record.stream].append(record)
        self._tournaments[tournament_id] = next(
            ((r.position, r.hash) for r in found["tournament"]), None)
        self._stored = {r.id: r for r in found["id"]}
        self._looked_up = set(ids)
        return next((r.position for r in found["end"]), 0)

    # --- judging, sealing ---------------------------------------------------------------------
    def judge(self, job: Job, recorded_at: str) -> None:
        """``job`` judged on the log and the group's appends before it; its records join
        ``pending``, or it keeps its refusal."""
        try:
            job.result = plan_append(job.tournament_id, job.events, self, recorded_at,
                                     self._decision(job.decide))
        except psycopg.Error:
            raise  # the database failed, not the append: the whole group fails
        except Exception as refusal:
            job.result, job.error = None, refusal
            return
        if job.result.created:
            first = len(self.pending)
            self.pending.extend(job.result.records)
            self._accepted.append((job, first, len(self.pending)))

    def _decision(self, decide: Decide | None) -> Decide | None:
        if decide is None:
            return None

        def deciding(tail, recorded_at: str) -> None:
            self._deciding = True
            try:
                decide(tail, recorded_at)
            finally:
                self._deciding = False
        return deciding

    def seal(self) -> None:
        """Take the seal (held to the commit) and the log's true end with it, in one round
        trip; number the pending records after that end, chaining their hashes again, unless
        the guess was right."""
        if self.sealed:
            return
        self._send(SEAL, SEAL_LOCK)
        self._sealed_at(self.query(LAST_POSITION)[0][0])

    def _sealed_at(self, true_end: int) -> None:
        self.sealed = True
        if true_end != self._base and self.pending:
            self.pending = _renumbered(self.pending, true_end + 1)
        self._base = true_end

    def seal_and_insert(self) -> None:
        """The seal with the insert of ``pending``: one round trip when the positions guessed
        still follow the log's end (no other tournament committed since the group began),
        two more when they are numbered again."""
        if not self.sealed:
            self._send(SEAL, SEAL_LOCK)
            if self._insert_if_at_end():
                self.sealed = True
                return
            self._sealed_at(self.query(LAST_POSITION)[0][0])
        if not self._insert_if_at_end():
            raise AssertionError("the log moved on under the seal")

    def _insert_if_at_end(self) -> bool:
        columns = map(list, zip(*self.pending))
        return bool(self._send(INSERT_IF_AT_END, (*columns, self._base, COMMITS_CHANNEL))
                    .fetchall())

    def finish(self, jobs: list[Job]) -> None:
        """Each job's result as inserted: an accepted job's records, and a retry's of a batch
        accepted earlier in the same group (it was answered with that batch's records)."""
        for job, first, past in self._accepted:
            job.result = AppendResult(self.pending[first:past], created=True)
        final = {r.id: r for r in self.pending}
        for job in jobs:
            if job.result is not None and not job.result.created:
                job.result = AppendResult([final.get(r.id, r) for r in job.result.records],
                                          created=False)

    # --- the Tail protocol ------------------------------------------------------------------
    def records_by_id(self, ids):
        wanted = set(ids)
        if wanted <= self._looked_up:
            found = {i: self._stored[i] for i in wanted if i in self._stored}
        else:
            # one array parameter, however many ids (SQLite's IN (…) is bounded by its variables)
            rows = self.query(SELECT + "WHERE id = ANY(?)", (list(ids),))
            found = {row[1]: Record(*row) for row in rows}
        found.update((r.id, r) for r in self.pending if r.id in wanted)
        return found

    def stream_head(self, stream):
        for r in reversed(self.pending):
            if r.stream == stream:
                return (r.tournament_id, r.version)
        if stream not in self._streams:
            self._streams[stream] = stream_head_row(self.query, stream)
        return self._streams[stream]

    def tournament_head(self, tournament_id):
        for r in reversed(self.pending):
            if r.tournament_id == tournament_id:
                return (r.position, r.hash)
        if tournament_id not in self._tournaments:
            self._tournaments[tournament_id] = tournament_head_row(self.query, tournament_id)
        return self._tournaments[tournament_id]

    def last_position(self):
        """The log's end, as the group has it: a decision asking for it needs exact positions,
        and seals the group first."""
        if self._deciding and not self.sealed:
            self.seal()
        return self._base + len(self.pending)

    def read_stream(self, stream, from_version=1, limit=None, until_position=None):
        recent = self._recent.get(stream)
        if until_position is None and recent is not None and (
                len(recent) < RECENT or from_version >= recent[0].version):
            # what a decision on a cached state reads, or a stream of few events: known
            stored = iter([r for r in recent if r.version >= from_version])
        else:
            stored = read_stream_rows(self.query, stream, from_version, limit, until_position)
        pending = (r for r in self.pending if r.stream == stream and r.version >= from_version
                   and (until_position is None or r.position <= until_position))
        count = 0
        for record in itertools.chain(stored, pending):  # page by page, as the store reads
            if limit is not None and count >= limit:
                return
            count += 1
            yield record


def _renumbered(records: list[Record], first_position: int) -> list[Record]:
    """``records`` at positions from ``first_position`` on, each hash chained again (the
    first keeps its link to the tournament's head)."""
    out, prev_hash = [], records[0].prev_hash
    for offset, record in enumerate(records):
        moved = record._replace(position=first_position + offset, prev_hash=prev_hash)
        moved = moved._replace(hash=record_hash(moved))
        out.append(moved)
        prev_hash = moved.hash
    return out
