"""The desk's setup pages: a new tournament from a form, and a tournament's entrants.

* ``/desk/new``: the game, its format and every setting the format and the game take, each
  shown with its default and the rules it comes from (service/settings_tables.py, the tables
  the documentation's settings page is made from), sent as the page's data. The script posts
  ``POST /v1/tournaments`` (which records ``TournamentCreated``); the server's refusal is shown
  beside the field it names.
* ``/desk/t/<tid>/entrants``: the entrants from a CSV file (``POST …/entrants``: every row or
  none, each fault with its row and column), one entrant registered, withdrawn or registered
  again corrected (``TeamRegistered``, ``TeamWithdrawn``: the log has no event that edits an
  entrant), and the check-in list (``TeamCheckedIn``, T-2.6).

Like every page, the HTML holds no tournament data: its script reads the JSON API and acts
through it, so every rule is judged once, by the server."""
from __future__ import annotations

import functools

from flask import Blueprint

from rules import swiss
from rules.groups import GAME_DEFAULTS
from rules.rule_titles import TITLES, section_of
from rules.tournament import ENTRANT_SIZES, FORMATS, GAMES, MAHJONG, RESULT_ONLY

from .. import settings_tables
from ..i18n import say
from .desk import _page, desk_gate
from .pages import PAGES_DIR, _harden

bp = Blueprint("desk_setup", __name__, url_prefix="/desk",
               template_folder=str(PAGES_DIR / "templates"))
bp.after_request(_harden)  # the pages' Content-Security-Policy: this host's scripts only

# A plain "swiss" tournament is accepted by T-1.1 but nothing draws or pairs its rounds (the
# pairing by scores is the team event's, T-6.4): the form offers no tournament that could never
# start.
_NEVER_STARTED = ("swiss",)


@bp.get("/new")
@desk_gate
def new_tournament_page():
    """A new tournament: its name, game, format, date, venue, time zone and settings."""
    return _page("desk_new.html", None, choices=new_tournament_choices())


@bp.get("/t/<tid>/entrants")
@desk_gate
def entrants_page(tid: str):
    """The entrants of a tournament: a CSV file of them, one at a time, and the check-in."""
    return _page("desk_entrants.html", tid,
                 sizes={game: list(sizes) for game, sizes in ENTRANT_SIZES.items()})


def formats_of(game: str) -> list[str]:
    """The formats a game is played in (T-1.1): mahjong in groups of four only (T-7, T-8), the
    team event in SJ3 only (T-6.3), the rest by knockout (result-only games too, T-9.2)."""
    if game in MAHJONG:
        return ["groups"]
    return [f for f in FORMATS if f not in _NEVER_STARTED and f != "groups"
            and (f != swiss.FORMAT or game == swiss.GAME)]


@functools.cache
def _tables() -> dict:
    """The settings tables (read once: they come from the code and the rule texts)."""
    text_rules = settings_tables.texts_settings_rules(settings_tables.rule_texts_directory())
    return {
        "formats": {name: table.to_dict()
                    for name, table in settings_tables.tournament_tables().items()},
        "matches": {name: table.to_dict()
                    for name, table in settings_tables.match_tables(text_rules).items()},
        "games": {game: {"formats": formats_of(game), "sizes": list(ENTRANT_SIZES[game]),
                         "result_only": game in RESULT_ONLY} for game in GAMES},
        # a game's seed may choose other defaults for its groups (MJS: T-7.2, T-7.5)
        "group_defaults": {game: dict(values) for game, values in GAME_DEFAULTS.items()},
        # the team event's tables score 2 / 1 / 0 whatever the SJ3 default (T-6.5)
        "fixed": {swiss.FORMAT: ["matchPoints"]},
    }


def new_tournament_choices() -> dict:
    """The form's data: the tables, and the name of each rule's section in the reader's
    language (``T-2.3`` is in "Knockout by drawing lots")."""
    tables = _tables()
    rules = {rule for kind in ("formats", "matches") for table in tables[kind].values()
             for s in table["settings"] for rule in s["rules"]}
    rules |= {t["rule"] for kind in ("formats", "matches") for t in tables[kind].values()}
    titles = {rule: say(TITLES[section_of(rule)]) for rule in sorted(rules)
              if section_of(rule) in TITLES}
    return {**tables, "titles": titles}
