"""The team event (积分编排, tournaments.md T-6): its rounds at any position, the pairing of the
next round (``POST …/pairings``: round 1 by lots, later rounds by scores, or the referee's by
hand), lots between equal teams (``POST …/standings/lots``), the referee's calls at a round's
tables, and the standings as CSV for printing (``GET …/standings?format=csv``). The commands
are the application's (service/application); a route parses, calls and renders."""
from __future__ import annotations

import csv
import io

from flask import Blueprint, Response, jsonify, request
from marshmallow import Schema, fields, validate

from events.team_event_events import PairedMeetingSchema
from events.tournament_events import IDENTIFIER
from projections import team_event
from rules import swiss
from rules.messages import Message

from ..application import Pairing
from ..auth import allows, require_event
from ..i18n import say
from ..requests import load_body, optional_json_body, str_arg
from ..schemas import MetaSchema
from .common import (
    created_event,
    envelopes,
    read_at,
    request_meta,
    require_tournament,
    services,
    tournaments,
)

bp = Blueprint("team_event", __name__, url_prefix="/v1/tournaments/<tid>")

class PairingRequest(Schema):
    """``POST …/pairings``: nothing (the server pairs the next round by the rules), the
    referee's own pairing of it (``matches``, ``byes``, ``reason``), or ``confirm: true`` — the
    chief referee confirms the pairing with the fewest rematches the rounds read proposes when
    no pairing avoids a rematch (T-6.4)."""
    round = fields.Integer(strict=True, validate=validate.Range(min=1, max=64))
    confirm = fields.Boolean(validate=validate.Equal(True))
    matches = fields.List(fields.Nested(PairedMeetingSchema), validate=validate.Length(min=1,
                                                                                      max=512))
    byes = fields.List(fields.String(validate=IDENTIFIER), validate=validate.Length(max=1))
    reason = fields.String(validate=validate.Length(min=1, max=2000))
    meta = fields.Nested(MetaSchema, allow_none=True)


class MetaOnlyRequest(Schema):
    """A route that takes nothing but the events' ``meta``."""
    meta = fields.Nested(MetaSchema, allow_none=True)


class LatenessRequest(Schema):
    """T-6.6: how many started minutes a team's pair was late at the start of a round."""
    team = fields.String(required=True, validate=IDENTIFIER)
    pair = fields.String(required=True, validate=validate.OneOf(swiss.PAIRS))
    minutes = fields.Integer(required=True, strict=True,
                             validate=validate.Range(min=0, max=24 * 60))
    dealer = fields.Integer(strict=True, validate=validate.Range(min=0, max=3))
    meta = fields.Nested(MetaSchema, allow_none=True)


# --- reads -------------------------------------------------------------------------------------

@bp.get("/rounds")
@allows("read")
def get_rounds(tid: str):
    """The team event's rounds as of ``at`` (T-6.4, T-10.2)."""
    return read_at(tid, team_event.rounds_view)


def wants_csv() -> bool:
    """``?format=csv``, or ``Accept: text/csv`` preferred to JSON."""
    if str_arg("format", ("json", "csv"), None) is not None:
        return request.args["format"] == "csv"
    best = request.accept_mimetypes.best_match(["application/json", "text/csv"])
    return best == "text/csv" and request.accept_mimetypes["text/csv"] > \
        request.accept_mimetypes["application/json"]


def standings_csv(view: dict) -> Response:
    """The standings as CSV for printing: UTF-8 with a byte-order mark, so that spreadsheet
    programs read the Chinese names; one row per team, best first."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    if view["format"] == swiss.FORMAT:
        for row in team_event_rows(view):
            writer.writerow(row)
    else:
        for row in _plain_rows(view["ranking"]):
            writer.writerow(row)
    response = Response("\ufeff" + out.getvalue(), mimetype="text/csv")
    response.charset = "utf-8"
    response.headers["Content-Disposition"] = "attachment; filename=standings.csv"
    return response


def team_event_rows(view: dict) -> list[list]:
    """名次 (place), team, score, tie-breaks, each pair's total and each round's points and
    level difference, byes, forfeits; excluded teams last, without a place (T-6.7)."""
    rounds = range(1, view["rounds"] + 1)
    header = ["名次 place", "队 team", "队名 name", "领队 leader", "团体分 score",
              "破同分1 best pair", f"破同分2 {view['tie_break_2']}"]
    for pair in swiss.PAIRS:
        header += [f"{pair} 积分 points", f"{pair} 级差 level diff"]
        for n in rounds:
            header += [f"R{n}{pair} 积分", f"R{n}{pair} 级差"]
    header += ["轮空 byes", "弃权 forfeits", "备注 note"]
    rows = [header]
    for team in view["ranking"] + view["excluded"]:
        row = [team["place"] or "", team["team"], team["name"], team["leader"] or "",
               team["score"], team["tie_break_1"], team["tie_break_2"]]
        for pair in team["pairs"]:
            row += [pair["points"], pair["level_difference"]]
            by_round = {line["round"]: line for line in pair["rounds"]}
            for n in rounds:
                line = by_round.get(n, {})
                row += [_blank(line.get("points")), _signed(line.get("level_difference"))]
        row += [" ".join(f"R{n}" for n in team["byes"]),
                " ".join(f"R{f['round']}{f['pair']}" for f in team["forfeits"]), _note(team)]
        rows.append(row)
    return rows


def _plain_rows(ranking: list[dict]) -> list[list]:
    """Any other format's ranking: its rows' own members, in their order."""
    if not ranking:
        return [["place", "team", "name"]]
    header = list(ranking[0])
    return [header] + [[_blank(row.get(k)) for k in header] for row in ranking]


def _blank(value) -> object:
    return "" if value is None else value


def _signed(value: int | None) -> str:
    return "" if value is None else f"{value:+d}"


def _note(team: dict) -> str:
    """Why a team is not ranked (T-6.7, SJ3-11.9), in the reader's language after the printed
    sheet's own label, or that it withdrew (a label in both, as the headers are)."""
    out = team.get("excluded")
    if out is not None:
        label = "取消参赛资格" if out["rule"] == "SJ3-11.9" else "两次弃权，不计团体成绩"
        return say(Message("{label} {reason} ({rule}; not ranked from round {round} on)",
                           label=label, reason=out["reason"], rule=out["rule"],
                           round=out["after_round"]))
    return "退出 withdrawn" if team["withdrawn"] else ""


# --- the next round ----------------------------------------------------------------------------

@bp.post("/pairings")
@allows("pair")
def post_pairing(tid: str):
    """Pair the next round (T-6.4). Without ``matches`` the server pairs it by the rules: round
    1 by lots (``LotsDrawn{purpose: "pairing"}``), later rounds by scores (``RoundPaired``); 422
    T-6.4 says plainly when no valid pairing exists. With ``matches`` (and ``byes``) it is the
    referee's pairing by hand, ``RoundPaired{manual: true}``, stored with warnings for its
    rematches, second byes and distant scores. Answers the event and the round as paired."""
    require_tournament(tid)
    body = load_body(PairingRequest(), optional_json_body())
    how = Pairing(round=body.get("round"), confirm=body.get("confirm", False),
                  matches=body.get("matches"), byes=body.get("byes", []),
                  reason=body.get("reason"))
    result = tournaments().pair_round(tid, how, request_meta(body.get("meta")))
    stored = envelopes(result.records)[0]
    s = services()
    view = team_event.rounds_view(s.store, s.catalogue, tid, stored["position"], s.cache)
    response = jsonify({"event": stored, "round": view["rounds"][-1]})
    response.status_code = 201
    return response


@bp.post("/standings/lots")
@allows("organise")
def draw_standings_lots(tid: str):
    """T-6.8: the server draws lots for every tie left in the final standings — for k equal
    teams k − 1 draws, each among those not yet placed — recorded as ``LotsDrawn{purpose:
    "standingsTie"}`` events, appended one after the other. 422 T-6.8 before the last round is
    played or when no tie is left."""
    require_tournament(tid)
    body = load_body(MetaOnlyRequest(), optional_json_body())
    records = tournaments().draw_standings_lots(tid, request_meta(body.get("meta")))
    response = jsonify({"events": envelopes(records)})
    response.status_code = 201
    return response


# --- the referee at the round's tables ---------------------------------------------------------

@bp.post("/rounds/<int:n>/time")
@allows("officiate")
def call_round_time(tid: str, n: int):
    """SJ3-12.1, T-6.3: the chief referee's alert for round ``n`` (「终场前10分钟裁判长统一提醒」):
    ``TimeLimitReached`` at the match setting ``alertAtMinute`` in every table of the round
    still being played, in one atomic batch. Each match finishes the hand in play and the
    levels decide (the SJ3 fold); 422 if the alert's minute has not passed on the server's
    clock at some table, if the round has not been paired, or if no table is left."""
    require_tournament(tid)
    body = load_body(MetaOnlyRequest(), optional_json_body())
    result = tournaments().call_round_time(tid, n, request_meta(body.get("meta")),
                                           permit=_may_post(tid))
    response = jsonify({"events": envelopes(result.records)})
    response.status_code = 201
    return response


@bp.post("/rounds/<int:n>/lateness")
@allows("officiate")
def record_lateness(tid: str, n: int):
    """T-6.6: the referee's count of the started minutes a team's pair was late in round ``n``,
    recorded as ``LatenessRecorded`` in that pair's table (its side there); the match applies
    the ladder — a warning, −20 or −30 in hand 1, hand 1 forfeited, the round forfeited (21
    minutes or more: 2 points and 4 : 2 to the opponents, T-6.5) — and the standings count the
    forfeit (T-6.7: a second one excludes the team)."""
    require_tournament(tid)
    body = load_body(LatenessRequest(), optional_json_body())
    result = tournaments().record_lateness(
        tid, n, body["team"], body["pair"], body["minutes"], body.get("dealer"),
        request_meta(body.get("meta")), permit=_may_post(tid))
    return created_event(tid, result)


def _may_post(tid: str):
    """Whether the token may post each event the command makes (403 on the first it may
    not)."""
    return lambda event: require_event(tid, event.type, event.stream, event.data, "/")
