"""The reads both SQL stores share (events/sqlite_store.py, events/postgres_store.py): one
table ``events``, keyset pagination, and the look-ups an append makes inside its transaction.

The statements use ``?`` placeholders; the PostgreSQL store turns them into ``%s``.
"""
from __future__ import annotations

from typing import Callable, Sequence

from .envelope import Record

COLUMNS = ("position", "id", "tournament_id", "stream", "version", "type", "schema_version",
           "data", "meta", "recorded_at", "prev_hash", "hash")
SELECT = "SELECT " + ", ".join(COLUMNS) + " FROM events "
INSERT = f"INSERT INTO events ({', '.join(COLUMNS)}) VALUES ({', '.join('?' * len(COLUMNS))})"
PAGE = 500
LAST_POSITION = "SELECT coalesce(max(position), 0) FROM events"

# One index per read path (and the two uniqueness guarantees).
INDEXES = (
    (("id",), True),                               # idempotency, GET event by id
    (("stream", "version"), True),                 # read a stream; one event per version
    (("tournament_id", "position"), False),        # read a tournament, verify, export
    (("tournament_id", "type", "position"), False),  # a tournament's events of one type
    (("type", "position"), False),                 # all events of one type (tournament list)
)


Query = Callable[[str, Sequence], list]  # (sql, params) -> rows


def paged(query: Query, where: str, params: list, key: str, after: int, limit: int | None):
    """Rows in ``key`` order, a bounded page per query: no read holds the log in memory."""
    sql = f"{SELECT}WHERE {where} AND {key} > ? ORDER BY {key} LIMIT ?"
    key_index = COLUMNS.index(key)
    remaining = limit
    while remaining is None or remaining > 0:
        size = PAGE if remaining is None else min(PAGE, remaining)
        rows = query(sql, (*params, after, size))
        yield from (Record(*row) for row in rows)
        if len(rows) < size:
            return
        after = rows[-1][key_index]
        remaining = None if remaining is None else remaining - len(rows)


def read_stream_rows(query: Query, stream, from_version, limit, until_position):
    where, params = "stream = ?", [stream]
    if until_position is not None:
        where, params = where + " AND position <= ?", params + [until_position]
    return paged(query, where, params, "version", from_version - 1, limit)


def stream_head_row(query: Query, stream: str) -> tuple[str, int] | None:
    rows = query("SELECT tournament_id, version FROM events WHERE stream = ? "
                 "ORDER BY version DESC LIMIT 1", (stream,))
    return (rows[0][0], rows[0][1]) if rows else None


def tournament_head_row(query: Query, tournament_id: str) -> tuple[int, str] | None:
    rows = query("SELECT position, hash FROM events WHERE tournament_id = ? "
                 "ORDER BY position DESC LIMIT 1", (tournament_id,))
    return (rows[0][0], rows[0][1]) if rows else None


def last_position_row(query: Query) -> int:
    return query(LAST_POSITION, ())[0][0]


def tournament_rows(query: Query, tournament_id: str, after: int, limit: int | None,
                    stream: str | None, type: str | None, until_position: int | None):
    where, params = "tournament_id = ?", [tournament_id]
    for column, value in (("stream", stream), ("type", type)):
        if value is not None:
            where, params = f"{where} AND {column} = ?", params + [value]
    if until_position is not None:
        where, params = where + " AND position <= ?", params + [until_position]
    return paged(query, where, params, "position", after, limit)


def first_positions(query: Query) -> list[str]:
    """Every tournament id, in order of its first event."""
    rows = query("SELECT tournament_id, min(position) AS first FROM events "
                 "GROUP BY tournament_id ORDER BY first", ())
    return [row[0] for row in rows]
