"""The desk's rounds and score sheets: the pages where the organiser draws or pairs a round and
starts its matches, and where a referee enters a table's paper score sheet row by row, calls
the time limit and records lateness.

Like every page, the HTML holds no data, only the ids in its URL: its script reads the JSON API
and acts through it (``POST …/draws``, ``…/pairings``, ``…/matches``, ``…/events``,
``…/rounds/<n>/time``, ``…/rounds/<n>/lateness``), so every rule is judged once, by the server,
and its refusal is shown as the server words it in the page's language."""
from __future__ import annotations

from flask import Blueprint

from .desk import _page, desk_gate
from .pages import PAGES_DIR, _harden

bp = Blueprint("desk_rounds", __name__, url_prefix="/desk",
               template_folder=str(PAGES_DIR / "templates"))
bp.after_request(_harden)  # the pages' Content-Security-Policy: this host's scripts only


@bp.get("/t/<tid>/rounds")
@desk_gate
def rounds_page(tid: str):
    """The rounds of a tournament as its format has them — a knockout's bracket, a team event's
    rounds (T-6.4), the stages of groups of four (T-8.1) — with the next draw or pairing and the
    start of each round's matches; each match links to its score sheet or its live page."""
    return _page("desk_rounds.html", tid)


@bp.get("/t/<tid>/matches/<mid>/sheet")
@desk_gate
def sheet_page(tid: str, mid: str):
    """The score sheet of match ``mid`` (match setting ``recording: "sheet"``: SJ2-18, SJ3-15,
    GD-14): its stored rows with the levels and dealer each gave, the next row to enter, the
    time limit and the chief referee's alert."""
    return _page("desk_sheet.html", tid, mid=mid)
