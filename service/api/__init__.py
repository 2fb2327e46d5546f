"""HTTP resources, one blueprint each."""
from __future__ import annotations

from flask import Flask


def register_blueprints(app: Flask) -> None:
    """Every resource of the API and every page, one blueprint each (one line a blueprint)."""
    from . import (entrants, events, groups, health, live, matches, pages, replays, rulings,
                   team_event, tournaments, webhooks, well_known)
    from . import desk, sessions
    from . import desk_setup
    from . import desk_print
    from . import desk_rounds
    for blueprint in (
        tournaments.bp, events.bp, matches.bp, groups.bp, health.bp, well_known.bp,
        team_event.bp, rulings.bp, live.bp,
        entrants.bp,      # entrants from a CSV file
        webhooks.bp,      # webhook registrations
        pages.bp,         # the pages for the browser
        pages.home,       # the home page at /
        replays.bp,       # a hand's replay in one read
        sessions.bp,      # sign-in codes, the browser's session, sign-out
        desk.bp,          # the desk: sign-in page, home; the gate of every desk page
        desk_setup.bp,    # the desk: a new tournament, its entrants and check-in
        desk_print.bp,    # the desk's print views
        desk_rounds.bp,   # the desk: rounds drawn, paired and started; score sheets
    ):
        app.register_blueprint(blueprint)
