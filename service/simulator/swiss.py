"""``paiju simulate sj3-swiss``: seed 004's team event (积分编排, tournaments.md T-6) played through
the HTTP API — teams of a leader and two pairs registered, every round paired on the server
(round 1 by lots, later rounds by scores), every table started and played by the SJ3 bots of
``bots.py``, the chief referee's alert posted for the whole round once its minute has passed
(SJ3-12.1), one team late (T-6.6: −30 in hand 1 in one round, the round forfeited in another),
the remaining ties drawn by lots (T-6.8), and the final standings printed.

The tables of a round are played side by side, one move at each in turn, as at the venue: the
alert then finds every table in its own hand. On a temporary server the clock moves
``seconds_per_move`` per recorded event, so an 80-minute round passes in a few thousand events;
against ``--url`` the server's time is real, and its timer calls each table's alert.

**The dealer's pause (SJ3-3.6).** The kitty is taken only once the 5 seconds after DrawingEnded
have passed. A server running its timer ends the pause with its DeclarationWindowClosed, which
the bots wait for (tables.held_back), the other tables playing on meanwhile. The temporary
server on a simulated clock runs no timer (temporary_server.py): that clock moves for all
tables at once, so each table's next move comes ``seconds_per_move`` × tables later (24 s with
8 tables) — past SJ3's 10-second follow limit, which a timer would report at nearly every move
(SJ3-11.8) — and the bots take the kitty themselves once the pause has passed on that clock.
"""
from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from rules.messages import N_, Message

from . import bots
from .api import Api, ApiError
from .reports import QUIET, EventOutcome, Progress, cost, events_line, finished
from .tables import Waiting, held_back, post_move
from .temporary_server import runs_timer

SECONDS_PER_MOVE = 3.0  # 8 tables: a table moves every 24 s (the 5-s kitty pause, SJ3-3.6)
IDLE_SECONDS = 0.02     # real time: the sleep when every table is waiting (for the pause)


@dataclass
class SwissOutcome(EventOutcome):
    rounds: dict = field(default_factory=dict)
    late: list = field(default_factory=list)       # (round, team, pair, minutes)
    manual_rounds: list = field(default_factory=list)


def simulate(url: str, teams: int = 8, rounds: int = 4, seed: int = 1,
             token: str | None = None, timer: bool | None = None,
             idle: Callable[[], None] | None = None,
             match_settings: dict | None = None, progress: Progress = QUIET) -> SwissOutcome:
    """Plays a team event of ``teams`` teams over ``rounds`` rounds to its final standings.
    ``timer``: the server runs its timer (it ends each dealer's pause and calls each table's
    alert; default: temporary_server.runs_timer); ``idle()`` lets time pass when every table is waiting
    (default: a short sleep; on a simulated clock, move it); ``match_settings``: the tables'
    (e.g. ``alertAtMinute``); ``progress`` is told of each table as it ends."""
    rng, started = random.Random(seed), time.perf_counter()
    timer = runs_timer(url) if timer is None else timer
    with Api(url, token) as api:
        tid = _create(api, teams, rounds, seed, match_settings)
        progress.created(tid, N_("tables"), planned_tables(teams, rounds))
        outcome = SwissOutcome(tid)
        late_team = None  # drawn among the teams playing round 2
        lateness = {2: ("a", 12), 3: ("b", 25)}  # T-6.6: −30 in hand 1; the round forfeited
        for number in range(1, rounds + 1):
            round_ = _pair(api, tid, number, outcome)
            tables = [t["match_id"] for m in round_["meetings"] for t in m["tables"]]
            for table in tables:
                api.call("POST", f"/v1/tournaments/{tid}/matches", {"match_id": table})
            playing = sorted(t for m in round_["meetings"] for t in m["teams"])
            if number == 2:
                late_team = rng.choice(playing)
            if number in lateness and late_team in playing:
                pair, minutes = lateness[number]
                api.call("POST", f"/v1/tournaments/{tid}/rounds/{number}/lateness",
                         {"team": late_team, "pair": pair, "minutes": minutes})
                outcome.late.append((number, late_team, pair, minutes))
            outcome.hands += play_round(api, tid, number, tables, rng, timer, idle, progress)
            outcome.tables += len(tables)
        standings = api.call("GET", f"/v1/tournaments/{tid}/standings")
        if not standings["final"]:  # T-6.8: lots decide the places still shared
            api.call("POST", f"/v1/tournaments/{tid}/standings/lots", {})
        outcome.standings = api.call("GET", f"/v1/tournaments/{tid}/standings")
        outcome.rounds = api.call("GET", f"/v1/tournaments/{tid}/rounds")
        return finished(outcome, api, started)


def planned_tables(teams: int, rounds: int) -> int:
    """Every round's tables: a meeting of two teams at two tables, one for each pair (T-6.2);
    an odd team out has the bye (T-6.4)."""
    return rounds * (teams // 2) * 2


def _create(api: Api, teams: int, rounds: int, seed: int,
            match_settings: dict | None = None) -> str:
    settings = {"rounds": rounds, **({"match": match_settings} if match_settings else {})}
    created = api.call("POST", "/v1/tournaments", {
        "name": f"paiju simulate sj3-swiss (seed {seed})", "game": "SJ3",
        "format": "swiss-teams", "settings": settings, "simulated": True})
    tid = created["id"]
    api.call("POST", f"/v1/tournaments/{tid}/events", {"events": [
        {"type": "TeamRegistered", "stream": f"tournament-{tid}",
         "data": {"team_id": f"team-{n}", "name": f"第{n}队", "leader": f"领队{n}",
                  "players": [f"队{n}甲", f"队{n}乙", f"队{n}丙", f"队{n}丁"]}}
        for n in range(1, teams + 1)]})
    return tid


def _pair(api: Api, tid: str, number: int, outcome: SwissOutcome) -> dict:
    """The server's pairing of the round; when it finds no valid pairing (T-6.4) the chief
    referee confirms the pairing with the fewest rematches that the rounds read proposes."""
    try:
        return api.call("POST", f"/v1/tournaments/{tid}/pairings", {})["round"]
    except ApiError as error:
        if error.status != 422 or "no valid pairing" not in str(error.body):
            raise
    outcome.manual_rounds.append(number)
    return api.call("POST", f"/v1/tournaments/{tid}/pairings",
                    {"confirm": True, "reason": "no pairing avoids a rematch: the proposal "
                                                "with the fewest rematches"})["round"]


def play_round(api: Api, tid: str, number: int, tables: list[str], rng: random.Random,
               timer: bool = True, idle: Callable[[], None] | None = None,
               progress: Progress = QUIET) -> int:
    """Plays the round's tables side by side until every match is over: one move at each table
    in turn — a table held back (the dealer's pause, tables.held_back) is passed over in that
    turn, and when no table could move, ``idle()`` lets time pass; after each turn with moves
    the chief referee tries the alert (SJ3-12.1), which the server accepts once its minute has
    passed since the tables started — unless the server runs its ``timer``, which calls each
    table's alert at that minute of its start (the tables start together: the round's minute)
    and would race the referee's. Returns the hands played."""
    live, called, hands = list(tables), False, 0
    waiting = {table: Waiting(api, tid, table) for table in tables}
    while live:
        moved = False
        for table in list(live):
            path = f"/v1/tournaments/{tid}/matches/{table}?as=referee"
            view = api.call("GET", path)
            action = bots.next_action(view, rng)
            if action is None:
                live.remove(table)
                hands += view["hands_played"]
                progress.played(view["hands_played"])
                continue
            reason = held_back(view, action, timer, waiting[table].clock)
            if reason is not None:
                waiting[table].hold(reason)
                continue
            waiting[table].clear()
            event_type, data = action
            post_move(api, tid, {"type": event_type, "stream": f"match-{tid}:{table}",
                                 "data": data, "meta": {"source": "paiju simulate"}},
                      path, view)
            moved = True  # posted, or overtaken by the timer: the table has moved on
        if not called and live and moved and not timer:
            called = _alert(api, tid, number)
        if live and not moved:  # every table waits for the pause: let time pass
            (idle or _sleep)()
    return hands


def _sleep() -> None:
    time.sleep(IDLE_SECONDS)


def _alert(api: Api, tid: str, number: int) -> bool:
    try:
        api.call("POST", f"/v1/tournaments/{tid}/rounds/{number}/time", {})
    except ApiError as error:
        if error.status != 422:
            raise
        return False  # its minute has not passed yet
    return True


def report(outcome: SwissOutcome, say=str) -> str:
    """The final standings (T-6.8) with each pair's points and level differences by round, and
    what happened on the way; ``say``: the reader's words (``str``: English). The table's
    header is one sentence, its columns as wide as the rows' (a translation keeps them so)."""
    s = outcome.standings
    lines = [say(Message("tournament {tournament}: {rounds} rounds, {tables} tables, {hands} "
                         "hands, {cost}", tournament=outcome.tournament_id,
                         rounds=s["rounds_played"], tables=outcome.tables, hands=outcome.hands,
                         cost=cost(outcome, say)))]
    for r in outcome.rounds["rounds"]:
        meetings = ", ".join(say(Message("{team} v {other}", team=m["teams"][0],
                                         other=m["teams"][1])) for m in r["meetings"])
        extra = (say(Message("; bye {team}", team=r["bye"])) if r["bye"] else "") + \
            (say(" (manual)") if r["manual"] else "")
        lines.append("  " + say(Message("round {round}: {meetings}", round=r["round"],
                                        meetings=meetings)) + extra)
    for number, team, pair, minutes in outcome.late:
        lines.append("  " + say(Message("late: round {round}, {team} pair {pair}, {minutes} "
                                        "minutes", round=number, team=team, pair=pair,
                                        minutes=minutes)))
    lines.append(say(Message("final standings (tie-break 2: {tie_break_2}; final: {final}):",
                             tie_break_2=s["tie_break_2"], final=s["final"])))
    lines.append("  " + say("place team      score  tb1  tb2  pair a by round        pair b "
                            "by round"))
    for row in s["ranking"] + s["excluded"]:
        a, b = (" ".join(_cell(x) for x in p["rounds"]) for p in row["pairs"])
        place = row["place"] if row["place"] is not None else "—"
        lines.append(f"  {place!s:>5} {row['team']:<9} {row['score']:>5} "
                     f"{row['tie_break_1']:>4} {row['tie_break_2']:>4}  {a:<22} {b}")
    lines.append(events_line(outcome.event_counts))
    return "\n".join(lines)


def _cell(line: dict) -> str:
    if line["points"] is None:
        return "…"
    mark = {"bye": "b", "forfeitWin": "f", "forfeitLoss": "F"}.get(line["outcome"], "")
    return f"{line['points']}{mark}({line['level_difference']:+d})"
