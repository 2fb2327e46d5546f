"""The desk's print views: a round's pairing table (对阵表) with tables and seats, a pre-filled
score sheet per table (记分表: teams, players, seats, the levels the sheet starts from, the rows
of the paper sheet of SJ2, SJ3 or GD, and a QR code that opens the match's sheet-entry form or
its live page), the standings, and the results bulletin (成绩公告: places, prizes, tie-breaks).

Unlike the other pages these are documents, drawn on the server: a sheet is printed from what
the log says when it is asked for, with its QR code made here (segno, inline SVG) and laid out
for A4 by the print style sheet, so that printing needs no script and a PDF of it (the
browser's "save as PDF", Chromium's printToPDF) is the same page. They show only what the
public reads show (entrants, seats, levels, results): no card, no log."""
from __future__ import annotations

import functools
from urllib.parse import quote

import segno
from flask import Blueprint, request, url_for
from marshmallow import ValidationError

from events.shengji_events import MatchStartedData
from projections import brackets, groups, team_event
from projections.matches import Viewer, hand_results, match_states, match_view, recording
from projections.tournaments import tournament_view
from rules import matches as folds
from rules.glossary import terms
from rules.messages import Message
from rules.violations import RuleViolation

from ..i18n import language, said
from ..problems import Problem
from ..requests import int_arg
from .common import no_match, services
from .desk import _page, desk_gate
from .pages import PAGES_DIR, _harden

bp = Blueprint("desk_print", __name__, url_prefix="/desk",
               template_folder=str(PAGES_DIR / "templates"))
bp.after_request(_harden)  # the pages' Content-Security-Policy: this host's scripts only

SHEET_GAMES = frozenset({"SJ2", "SJ3", "GD"})  # mahjong is recorded from the tablets
# the rows a paper sheet has room for on A4 (a match that runs longer goes on a second sheet)
SHEET_ROWS = {"SJ2": 16, "SJ3": 16, "GD": 20}


# --- the routes ---------------------------------------------------------------------------------

@bp.get("/t/<tid>/print")
@desk_gate
def print_index(tid: str):
    """What can be printed: each round's pairing table and score sheets, each match's sheet,
    the standings and the bulletin."""
    t = _tournament(tid)
    return _document("desk_print_index.html", tid, t, rounds=_rounds(tid, t))


@bp.get("/t/<tid>/print/pairings")
@desk_gate
def print_pairings(tid: str):
    """The round's pairing table (对阵表): each table, its match, its teams and who sits
    where; ``?round=N`` (default: the last round drawn)."""
    t = _tournament(tid)
    return _document("desk_print_pairings.html", tid, t, round=_round(tid, t))


@bp.get("/t/<tid>/print/sheets")
@desk_gate
def print_sheets(tid: str):
    """A pre-filled score sheet for every table of the round (``?round=N``), one A4 page each."""
    t = _tournament(tid)
    chosen = _round(tid, t)
    sheets = [_sheet(tid, t, table) for table in chosen["tables"]]
    return _document("desk_print_sheets.html", tid, t, round=chosen, sheets=sheets)


@bp.get("/t/<tid>/print/matches/<mid>/sheet")
@desk_gate
def print_match_sheet(tid: str, mid: str):
    """The score sheet of one match, as the round's sheets print it."""
    t = _tournament(tid)
    table = _find_table(tid, t, mid)
    return _document("desk_print_sheets.html", tid, t, round=None,
                     sheets=[_sheet(tid, t, table)])


@bp.get("/t/<tid>/print/standings")
@desk_gate
def print_standings(tid: str):
    """The standings as the API reads them now, for the wall."""
    t = _tournament(tid)
    return _document("desk_print_standings.html", tid, t, standings=_standings(tid, t))


@bp.get("/t/<tid>/print/bulletin")
@desk_gate
def print_bulletin(tid: str):
    """The results bulletin (成绩公告): the places, the prizes the tournament gives, how ties
    were broken, final or provisional."""
    t = _tournament(tid)
    return _document("desk_print_bulletin.html", tid, t, standings=_standings(tid, t))


def _document(template: str, tid: str, t: dict, **context) -> str:
    said = terms(language())
    return _page(template, tid, t=t, game=said["game"].get(t["game"], t["game"]),
                 format_name=said["format"].get(t["format"], t["format"]),
                 sides=said["side"], suits=said["suit"], **context)


# --- the tournament and its rounds ----------------------------------------------------------------

def _tournament(tid: str) -> dict:
    s = services()
    t = tournament_view(s.store, s.catalogue, tid, cache=s.cache)
    if t is None:
        raise Problem(404, "not-found", Message("no tournament {tid!r}", tid=tid))
    t["entrants"] = {team["team_id"]: team for team in t["teams"]}
    return t


def _round(tid: str, t: dict) -> dict:
    """The round asked for (``?round=N``), or the last one drawn."""
    rounds = _rounds(tid, t)
    asked = int_arg("round", None, 1, 64)
    if asked is None and rounds:
        return rounds[-1]
    chosen = next((r for r in rounds if r["round"] == asked), None)
    if chosen is None:
        raise Problem(404, "not-found", Message("round {round} of tournament {tid!r} has not "
                                                "been drawn", round=asked or 1, tid=tid))
    return chosen


def _rounds(tid: str, t: dict) -> list[dict]:
    """Every round drawn (a stage of groups of four), each with its tables in order:
    ``{"round", "tables", "byes"}``."""
    s = services()
    played = match_states(s.store, s.catalogue, tid, cache=s.cache)
    table = functools.partial(_table, tid, t, played)
    if t["format"] == "swiss-teams":
        view = team_event.rounds_view(s.store, s.catalogue, tid, cache=s.cache)
        return [_swiss_round(rnd, table) for rnd in view["rounds"]]
    if t["format"] == "groups":
        view = groups.groups_view(s.store, s.catalogue, tid, cache=s.cache)
        return [{"round": stage["stage"], "byes": [], "tables": [
            table(stage["stage"], k, tb["match_id"],
                  {str(x["seat"]): x["team"] for x in tb["seats"]})
            for k, tb in enumerate(stage["tables"], 1)]} for stage in view["stages"]]
    if t["format"] == "knockout":
        view = brackets.bracket_view(s.store, s.catalogue, tid, cache=s.cache)
        return [{"round": rnd["round"], "byes": rnd.get("byes", []), "tables": [
            table(rnd["round"], k, line["match_id"], dict(zip("AB", line["teams"])),
                  kind=line.get("kind"))
            for k, line in enumerate(rnd["matches"], 1)]} for rnd in view.get("rounds", [])]
    return _started_rounds(tid, table)


def _swiss_round(rnd: dict, table) -> dict:
    """A team event's round (T-6.4): each meeting on two tables, pair a against pair a and
    pair b against pair b, numbered through the round."""
    tables, k = [], 0
    for meeting in rnd["meetings"]:
        teams = dict(zip("AB", meeting["teams"]))
        for tb in meeting["tables"]:
            k += 1
            tables.append(table(rnd["round"], k, tb["match_id"], teams, players=tb["players"],
                                pair=tb["pair"]))
    return {"round": rnd["round"], "byes": [rnd["bye"]] if rnd.get("bye") else [],
            "tables": tables}


def _started_rounds(tid: str, table) -> list[dict]:
    """A format without a draw of its own: the matches started, by the round they name."""
    s = services()
    by_round: dict[int, list[str]] = {}
    for record in s.store.read_tournament(tid, type="MatchStarted"):
        data = s.catalogue.upcast(record)
        by_round.setdefault(data.get("round") or 1, []).append((data["match_id"], data["teams"]))
    return [{"round": n, "byes": [], "tables": [table(n, k, mid, teams)
                                              for k, (mid, teams) in enumerate(started, 1)]}
            for n, started in sorted(by_round.items())]


def _find_table(tid: str, t: dict, mid: str) -> dict:
    for rnd in _rounds(tid, t):
        for table in rnd["tables"]:
            if table["match_id"] == mid:
                return table
    raise no_match(mid, tid)


# --- a table ----------------------------------------------------------------------------------------

def _table(tid: str, t: dict, played, round_no: int, number: int, mid: str, teams: dict,
           players: dict | None = None, **extra) -> dict:
    """A table of a round: its match (started, or as starting it would make it: the same seats
    and levels), the teams by side and the players at seats 0-3."""
    players = players or {key: list(t["entrants"].get(team, {}).get("players", []))
                          for key, team in teams.items()}
    state = played(mid)
    started = state is not None
    if state is None:
        state = _as_started(t, mid, teams, players)
    view = match_view(state, Viewer("public")) if state is not None else {}
    seats = [{**seat, "team": teams.get(seat.get("side", str(seat["seat"])))}
             for seat in view.get("seats", [])]
    return {"round": round_no, "number": number, "match_id": mid, "teams": teams,
            "names": {key: _name(t, team) for key, team in teams.items()},
            "seats": seats, "levels": view.get("levels"), "started": started,
            "status": view.get("status") if started else None,
            "hands_played": view.get("hands_played", 0) if started else 0,
            "state": state, "url": _entry_url(tid, mid, state), **extra}


def _as_started(t: dict, mid: str, teams: dict, players: dict):
    """The match as ``POST …/matches`` would start it (its seats, its levels at start), folded
    by the rules without being recorded; None where it could not be started as it stands."""
    try:
        engine = folds.engine_of(t["game"])
        data = MatchStartedData().load({
            "match_id": mid, "game": t["game"], "teams": teams,
            "settings": t["settings"].get("match", {}), "seats": engine.seat_players(players)})
        return folds.apply(None, "MatchStarted", data, None)
    except (RuleViolation, ValidationError, KeyError):
        return None


def _name(t: dict, team: str | None) -> str | None:
    entrant = t["entrants"].get(team)
    return entrant["name"] if entrant else team


def _entry_url(tid: str, mid: str, state) -> str:
    """Where the QR code of the table's sheet leads: the sheet-entry form of a match recorded
    from its score sheet, the live page of one played card by card."""
    if state is not None and recording(state) == "sheet":
        path = f"/desk/t/{quote(tid, safe='')}/matches/{quote(mid, safe='')}/sheet"
    else:
        current = getattr(state, "hands_played", 0) + 1 if state is not None else 1
        path = url_for("pages.replay_page", tid=tid, mid=mid, n=max(1, current))
    return request.host_url.rstrip("/") + path


# --- a score sheet --------------------------------------------------------------------------------

def _sheet(tid: str, t: dict, table: dict) -> dict:
    """The sheet of a table: the rows already recorded (a sheet printed again goes on from
    them), the empty rows to fill, the QR code of its entry form."""
    state = table["state"]
    recorded = hand_results(state) if table["started"] else []
    game = t["game"]
    if game not in SHEET_GAMES:
        return {**table, "game": game, "rows": [], "blank": [], "qr": _qr(table["url"])}
    limit = getattr(getattr(state, "settings", None), "max_hands", None)
    count = max(SHEET_ROWS[game], len(recorded) + 1)
    count = min(count, limit) if isinstance(limit, int) and limit >= len(recorded) else count
    first = len(recorded) + 1
    return {**table, "game": game, "rows": recorded,
            "blank": list(range(first, max(first, count + 1))), "qr": _qr(table["url"])}


def _qr(url: str) -> str:
    """The QR code of ``url`` as inline SVG (no size of its own: the style sheet gives it)."""
    return segno.make(url, error="m", micro=False).svg_inline(
        scale=1, border=2, omitsize=True, svgclass="qr", lineclass=None)


# --- the standings ----------------------------------------------------------------------------------

def _standings(tid: str, t: dict) -> dict:
    """GET …/standings of the format (the same reads as the API's)."""
    s = services()
    if t["format"] == "groups":
        view = groups.standings_view(s.store, s.catalogue, tid, cache=s.cache)
    elif t["format"] == "swiss-teams":
        view = team_event.standings_view(s.store, s.catalogue, tid, cache=s.cache)
    else:
        view = brackets.standings_view(s.store, s.catalogue, tid, cache=s.cache)
    view["has_prizes"] = any(row.get("prize") for row in view.get("ranking", []))
    view["position"] = s.store.tournament_head(tid)[0]  # the log's event it is read at
    return said(view)  # an exclusion's reason in the reader's language, as the API says it
