"""Entrants from a spreadsheet (organisers keep their entry lists in one): the bytes of a CSV
file made into ``TeamRegistered`` data for one tournament, or a report of every bad row — and
then nothing is stored.

The file (a header row, then one entrant per row; the columns in any order)::

    team_id,name,player1,player2,player1_id,player2_id,organisation,leader
    bj-1,北京一队,王伟,李雷,,,北京同乡会,
    bj-2,北京二队,王伟,韩梅梅,wang-wei-2,han-mm,,

- ``team_id``, ``name``, ``player1``: required columns; ``player2`` … ``playerN`` as many as the
  largest entrant of the tournament's game (T-1.2: SJ2 2, SJ3 4, MJO 1 …). A row fills as many
  players as its entrant has, from ``player1`` on.
- ``player1_id`` … ``playerN_id``: optional, the players' stable ids (T-1.6); a row that gives
  one gives one for each of its players. Without them a player's id is ``<team_id>.<n>``.
- ``organisation`` (affiliation, T-1.2) and ``leader`` (领队, T-6.2): optional.
- Every name (``name``, the players, ``organisation``, ``leader``) is stored in Unicode NFC and
  must display as what it is (T-1.2, rules/names.py): a cell empty once its invisible
  characters are removed, or holding a character that changes the direction of the text or
  another control or format character, is a fault of its row and column.

Row numbers are the spreadsheet's: the header is row 1. Fully empty rows are skipped. Cells are
trimmed. The file is UTF-8 (a byte-order mark, as Excel's "CSV UTF-8" writes it, is fine); a
file in GBK / GB18030 — what a Chinese Excel's plain "CSV" gives — is named as such. Commas,
semicolons or tabs separate the cells: whichever splits the header into its column names.

Each fault is ``{"row", "column", "message"}`` (``column`` None for the row or file as a whole),
with ``rule`` when a rule refuses the row (T-1.2, T-1.3, T-1.6, …): the rows are judged by the
rules of registration one after another, each on the tournament as the rows before it left it.
"""
from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass

from marshmallow import ValidationError

from events.catalogue import Catalogue, tournament_stream
from events.envelope import NewEvent
from events.store import AppendResult, EventStore
from projections.streams import StreamCache, load_stream
from rules.messages import Message
from rules.names import check_name, check_text, event_texts
from rules.tournament import ENTRANT_SIZES, Tournament, player_conflict, register_team
from rules.violations import RuleViolation

from .appending import EventRuleViolation, TournamentNotFound, append_events
from .faults import rule_refusal
from .field_messages import field_message

MAX_ROWS = 10_000  # entrants in one file
REQUIRED = ("team_id", "name", "player1")
OPTIONAL = ("organisation", "leader")
_PLAYER = re.compile(r"player([1-9][0-9]*)(_id)?")
_CJK = re.compile(r"[\u3400-\u9fff]")


@dataclass(frozen=True)
class Entry:
    row: int
    data: dict  # TeamRegistered data, loaded by its schema


class EntrantsRefused(Exception):
    def __init__(self, errors: list[dict], rows: int | None = None):
        super().__init__(f"{len(errors)} fault(s)")
        self.errors, self.rows = errors, rows


def fault(row: int | None, column: str | None, message: Message | str,
          rule: str | None = None) -> dict:
    """A fault of the file; its message said in the reader's language where it is read."""
    said = field_message(message)  # marshmallow's filled English back to its template
    out = {"row": row, "column": column,
           "message": said if isinstance(said, Message) else Message(said)}
    return {**out, "rule": rule} if rule else out


def entries(raw: bytes, tournament: Tournament, catalogue: Catalogue) -> list[Entry]:
    """The file's entrants as TeamRegistered data, every row judged; raises
    :class:`EntrantsRefused` with every fault found."""
    table = _table(_text(raw))
    header, rows = table[0], table[1:]
    columns = _columns(header, tournament.game)
    filled = [(n, cells) for n, cells in enumerate(rows, 2) if any(c.strip() for c in cells)]
    if len(filled) > MAX_ROWS:
        too_many = Message("more than {most:,} entrants in one file: split it", most=MAX_ROWS)
        raise EntrantsRefused([fault(filled[MAX_ROWS][0], None, too_many)], len(filled))
    if not filled:
        raise EntrantsRefused([fault(2, None, "the file has a header and no entrant")], 0)
    schema = catalogue.get("TeamRegistered")
    errors, loaded = [], []
    for n, cells in filled:
        entry = _entry(n, cells, columns, schema, errors)
        if entry is not None:
            loaded.append(entry)
    errors += _judged(tournament, loaded)
    if errors:
        raise EntrantsRefused(sorted(errors, key=lambda e: e["row"] or 0), len(filled))
    return loaded


def _text(raw: bytes) -> str:
    """The file as text: UTF-8, with or without a byte-order mark; GBK and UTF-16 are named."""
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise EntrantsRefused([fault(1, None, "the file is UTF-16 (Excel's \"Unicode text\"); "
                                              "save it as CSV UTF-8")])
    raw = raw.removeprefix(b"\xef\xbb\xbf")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        row, column = _where(raw, error.start)
        raise EntrantsRefused([fault(row, column, _not_utf8(raw, error))]) from None


def _not_utf8(raw: bytes, error: UnicodeDecodeError) -> Message:
    try:
        gbk = _CJK.search(raw.decode("gb18030")) is not None
    except UnicodeDecodeError:
        gbk = False
    if gbk:
        return Message("the file is not UTF-8; it looks like GBK (save it as CSV UTF-8)")
    return Message("the file is not UTF-8: byte {start} (0x{byte:02x}) is invalid (save it as "
                   "CSV UTF-8)", start=error.start, byte=raw[error.start])


def _where(raw: bytes, offset: int) -> tuple[int, str | None]:
    """The row and column of byte ``offset`` (a cell with a line break in it aside)."""
    row = raw.count(b"\n", 0, offset) + 1
    start = raw.rfind(b"\n", 0, offset) + 1
    header = raw.split(b"\n", 1)[0].decode("utf-8", "replace").strip().split(",")
    index = raw.count(b",", start, offset)
    return row, header[index].strip().lower() if index < len(header) else None


def _table(text: str) -> list[list[str]]:
    first = text.split("\n", 1)[0]
    delimiter = next((d for d in (",", ";", "\t") if "team_id" in
                      [c.strip().lower() for c in first.split(d)]), ",")
    try:
        table = list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter))
    except csv.Error as error:
        raise EntrantsRefused([fault(None, None, Message("not a CSV file: {error}",
                                                         error=error))]) from None
    if not table or not any(c.strip() for c in table[0]):
        raise EntrantsRefused([fault(1, None, Message("the file is empty: the first row names "
                                                      "the columns ({required}, …)",
                                                      required=", ".join(REQUIRED)))])
    return table


def _columns(header: list[str], game: str) -> list[str]:
    """The header's column names, checked: the required ones there, none unknown or twice."""
    names = [c.strip().lower() for c in header]
    most = max(ENTRANT_SIZES[game])
    known = (*REQUIRED, *OPTIONAL, *(f"player{k}" for k in range(2, most + 1)),
             *(f"player{k}_id" for k in range(1, most + 1)))
    errors = []
    for index, name in enumerate(names):
        if name in names[:index]:
            errors.append(fault(1, name, "this column is named twice"))
        elif name not in known:
            if _PLAYER.fullmatch(name):
                why = Message("a {game} entrant has at most {most} player(s); the columns are "
                              "{known}", game=game, most=most, known=", ".join(known))
            else:
                why = Message("unknown column; the columns are {known}", known=", ".join(known))
            errors.append(fault(1, name or None, why))
    for name in REQUIRED:
        if name not in names:
            errors.append(fault(1, name, "this column is missing"))
    for name in names:
        if (match := _PLAYER.fullmatch(name)) and match[2] and f"player{match[1]}" not in names:
            errors.append(fault(1, name, Message("an id column needs its player{k} column",
                                                 k=match[1])))
    if errors:
        raise EntrantsRefused(errors)
    return names


def _entry(n: int, cells: list[str], columns: list[str], schema, errors: list) -> Entry | None:
    """One row as TeamRegistered data, loaded by the event's schema; its faults to ``errors``."""
    if len(cells) > len(columns):
        errors.append(fault(n, None, Message("{cells} cells; the header names {columns} columns",
                                             cells=len(cells), columns=len(columns))))
        return None
    row = {name: cell.strip() for name, cell in zip(columns, cells)}
    before = len(errors)
    data = {"team_id": row.get("team_id", ""), "name": row.get("name", "")}
    players, ids, column_of = [], [], {}
    k = 1
    while f"player{k}" in row:
        name, pid = row[f"player{k}"], row.get(f"player{k}_id", "")
        if name:
            column_of[len(players)] = k
            players.append(name)
            ids.append(pid)
        elif pid:
            errors.append(fault(n, f"player{k}", Message("player{k}_id is given: the player's "
                                                         "name is missing",
                                                         k=k)))
        elif any(row.get(f"player{j}") for j in range(k + 1, len(columns) + 1)):
            errors.append(fault(n, f"player{k}", "empty, while a later player column is "
                                                 "filled: players fill player1, player2, … in "
                                                 "order"))
        k += 1
    data["players"] = players
    if any(ids):
        for i, pid in enumerate(ids):
            if not pid:
                errors.append(fault(n, f"player{column_of[i]}_id", "give every player of the "
                                    "row an id, or none"))
        if all(ids):
            data["player_ids"] = ids
    data.update({key: row[key] for key in OPTIONAL if row.get(key)})
    if len(errors) > before:
        return None
    try:
        loaded = schema.load(data)
    except ValidationError as error:
        errors.extend(fault(n, column, message)
                      for column, message in _field_faults(error.messages, column_of))
        loaded = None
    at_fault = {e["column"] for e in errors[before:]}
    errors.extend(f for f in _name_faults(n, loaded or data, column_of)
                  if f["column"] not in at_fault)
    return Entry(n, loaded) if len(errors) == before else None


def _name_faults(n: int, data: dict, column_of: dict[int, int]) -> list[dict]:
    """T-1.2 on each name of the row (rules/names.py), by its column: a cell empty once its
    invisible characters are removed, or holding a character that changes the text's direction
    or another control or format character. (The schema normalised the cells to NFC when it
    loaded the row; a row it refused is judged as it was written.)"""
    found = []
    for path, is_text, value in event_texts("TeamRegistered", data):
        column = f"player{column_of.get(path[1], path[1] + 1)}" if path[0] == "players" \
            else path[0]
        try:
            (check_text if is_text else check_name)(column, value)
        except RuleViolation as violation:
            found.append(fault(n, column, rule_refusal(violation.rule, violation.text),
                               violation.rule))
    return found


def _field_faults(messages: dict, column_of: dict[int, int]):
    """Marshmallow's messages on the data as (column, message)."""
    for key, value in messages.items():
        if isinstance(value, dict) and key in ("players", "player_ids"):
            suffix = "_id" if key == "player_ids" else ""
            for index, sub in value.items():
                k = column_of.get(int(index), int(index) + 1)
                yield f"player{k}{suffix}", "; ".join(sub)
        else:
            text = "; ".join(value) if isinstance(value, list) else str(value)
            column = "player1" if key == "players" else key
            yield column, text


def _judged(tournament: Tournament, loaded: list[Entry]) -> list[dict]:
    """The rules of registration (T-1.2, T-1.3, T-1.6, T-6.2 …) on each row in turn, each on
    the tournament the rows before it made; a refused row changes nothing for the next."""
    errors, state = [], tournament
    for entry in loaded:
        try:
            state = register_team(state, entry.data)
        except RuleViolation as violation:
            errors.append(fault(entry.row, _column(state, entry.data, violation),
                                rule_refusal(violation.rule, violation.text), violation.rule))
    return errors


def _column(state: Tournament, data: dict, violation: RuleViolation) -> str | None:
    """The column a refusal is about, where it is one."""
    if violation.rule == "T-1.3" and state.team(data["team_id"]) is not None:
        return "team_id"
    conflict = player_conflict(state, data)
    if conflict is not None and conflict[1].message == violation.message:
        given = "player id" in violation.message and data.get("player_ids")
        return f"player{conflict[0] + 1}{'_id' if given else ''}"
    if violation.rule == "T-1.2":
        return "player1"
    return None


def register(store: EventStore, catalogue: Catalogue, tournament_id: str, raw: bytes,
             meta: dict, cache: StreamCache | None = None) -> tuple[list[Entry], AppendResult]:
    """The file's entrants appended as one atomic batch of TeamRegistered, judged again in the
    store's transaction (another writer may have registered a team since the file was read).
    Raises :class:`EntrantsRefused` (nothing stored; a refusal in the transaction too, with
    its row), ``TournamentNotFound`` or the store's errors."""
    t = load_stream(store, catalogue, tournament_stream(tournament_id), cache=cache).state
    if t is None:
        raise TournamentNotFound(tournament_id)
    found = entries(raw, t, catalogue)
    events = [NewEvent(type="TeamRegistered", stream=tournament_stream(tournament_id),
                       data=e.data, meta=meta) for e in found]
    try:
        return found, append_events(store, catalogue, tournament_id, events, cache)
    except EventRuleViolation as error:
        v, entry = error.violation, found[error.index]
        raise EntrantsRefused([fault(entry.row, None, rule_refusal(v.rule, v.text), v.rule)],
                              len(found)) from None


def report_lines(errors: list[dict], say=str) -> list[str]:
    """The faults as a person reads them (``row 3, player2: …``), each said by ``say``."""
    lines = []
    for e in errors:
        message = e["message"]  # (a subscript inside say() would be read as a sentence)
        text = say(message)
        if e["row"] and e["column"]:
            where = Message("row {row}, {column}: {message_}", row=e["row"], column=e["column"],
                            message_=text)
        elif e["row"]:
            where = Message("row {row}: {message_}", row=e["row"], message_=text)
        else:
            where = Message("{column}: {message_}", column=e["column"], message_=text) \
                if e["column"] else text
        lines.append(say(where))
    return lines
