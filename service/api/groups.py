"""Groups of four (tournaments.md T-8, T-7): the stages and their tables at any position, and what
the match routes do differently for a groups tournament — the server's draw of a stage's tables
(``POST …/draws``), the teams of a drawn table (``POST …/matches``) and the ranking by coins
(``GET …/standings``)."""
from __future__ import annotations

import random

from flask import Blueprint

from events.catalogue import tournament_stream
from events.envelope import NewEvent
from projections import groups
from projections.brackets import tournament_at
from rules.messages import Message

from ..appending import append_events
from ..auth import allows
from ..problems import Problem, rule_refusal
from .common import (
    created_event,
    domain_errors_as_problems,
    read_at,
    request_meta,
    services,
)

bp = Blueprint("groups", __name__, url_prefix="/v1/tournaments/<tid>")


@bp.get("/groups")
@allows("read")
def get_groups(tid: str):
    """The stages of a groups tournament as of ``at``: tables, seats, coins, places,
    qualifiers (T-10.3, T-10.4)."""
    return read_at(tid, groups.groups_view)


def plays_in_groups(tid: str) -> bool:
    s = services()
    t = tournament_at(s.store, s.catalogue, tid, cache=s.cache)
    return t is not None and t.format == "groups"


def draw_stage(tid: str, body: dict):
    """``POST …/draws`` in a groups tournament: the server seats the next stage's players at
    tables of four by lots (T-8.1) and records the outcome as ``LotsDrawn{purpose: "tables"}``;
    replay reads it and never draws again (T-1.4)."""
    s = services()
    with domain_errors_as_problems(lambda _: "/"):
        if body.get("method", "lots") != "lots":
            raise Problem(422, "rule-violation",
                          rule_refusal("T-8.1", "the tables of a stage are drawn by lots"),
                          rule="T-8.1", path="/method")
        draw = groups.propose_draw(s.store, s.catalogue, tid, random.SystemRandom(), s.cache)
        if "round" in body and body["round"] != draw["round"]:
            raise Problem(422, "rule-violation", rule_refusal("T-8.1", Message(
                "the next stage to draw is {round}", round=draw["round"])),
                rule="T-8.1", path="/round")
        event = NewEvent(type="LotsDrawn", stream=tournament_stream(tid), data=draw,
                         meta=request_meta(body.get("meta")))
        result = append_events(s.store, s.catalogue, tid, [event], s.cache)
    return created_event(tid, result)


def drawn_table(tid: str, match_id: str):
    """The table a match of a groups tournament is started for (T-8.1): 422 if not drawn."""
    s = services()
    return groups.drawn_table(s.store, s.catalogue, tid, match_id, s.cache)


def table_settings(tid: str, game: str, table) -> dict:
    """What a drawn table's match settings must say of it: the Sichuan final is started as the
    final (T-7.4: 换三张 and the extra hand on a tie for a podium place)."""
    s = services()
    if game == "MJS" and groups.is_final_table(s.store, s.catalogue, tid, table, s.cache):
        return {"final": True}
    return {}


def standings(tid: str, at: int | None) -> dict | None:
    s = services()
    return groups.standings_view(s.store, s.catalogue, tid, at, s.cache)
