"""HTTP resources, one blueprint each."""
from __future__ import annotations

from flask import Flask


def register_blueprints(app: Flask) -> None:
    """Every resource of the API and every page, one blueprint each (one line a blueprint)."""
    from . import (entrants, events, groups, health, live, matches, pages, replays, rulings,
                   team_event, tournaments, webhooks, well_known)
    for blueprint in (
        tournaments.bp, events.bp, matches.bp, groups.bp, health.bp, well_known.bp,
        team_event.bp, rulings.bp, live.bp,
        entrants.bp,      # entrants from a CSV file
        webhooks.bp,      # webhook registrations
        pages.bp,         # the pages for the browser
        pages.home,       # the home page at /
        replays.bp,       # a hand's replay in one read
    ):
        app.register_blueprint(blueprint)
