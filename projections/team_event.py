"""The team event (积分编排, tournaments.md T-6, T-10.2) as of any position: its rounds, each
table's result read from its match stream, forfeits and exclusions, the standings; and the
guards that check a round's pairing, the standings lots and a table's start against them.

The event is folded from the tournament stream (round 1's lots, later rounds' ``RoundPaired``,
withdrawals and tie lots, in log order) and from each table's match stream (its result is
derived by the SJ3 fold, never posted). Before each fact of the tournament stream the tables'
results at the position read are applied, as for the knockout bracket and the groups.
"""
from __future__ import annotations

import random
from dataclasses import replace
from typing import Callable

from events.catalogue import Catalogue
from events.envelope import utc_timestamp
from events.store import Tail
from rules import swiss
from rules.messages import Sentence
from rules.shengji import match as shengji_match
from rules.swiss.event import PairResult, TeamEvent
from rules.tournament import Tournament
from rules.violations import RuleViolation

from .brackets import tournament_at
from .matches import load_match, match_states
from .streams import StreamCache

SIDES = ("A", "B")


def team_event_at(log: Tail, catalogue: Catalogue, tournament_id: str, at: int | None = None,
                  cache: StreamCache | None = None, t: Tournament | None = None) -> TeamEvent | None:
    """The team event as of ``at``; None for a tournament of another format."""
    t = t or tournament_at(log, catalogue, tournament_id, at, cache)
    if t is None or t.format != swiss.FORMAT:
        return None

    played = match_states(log, catalogue, tournament_id, at, cache)
    ev, gone = None, set()
    for kind, data in t.bracket_facts:
        if ev is None and kind == "withdrawn":
            gone.add(data)  # withdrew before the first draw: not an entrant
            continue
        if ev is None:
            ev = _start(t, gone)
        ev = _with_results(ev, played)
        ev = _apply(ev, kind, data)
    return _with_results(ev or _start(t, gone), played)


def _start(t: Tournament, gone: set[str]) -> TeamEvent:
    entries = [swiss.Entry(team_id, (tuple(team.players[:2]), tuple(team.players[2:])),
                           team.leader)
               for team_id, team in t.teams.items() if team_id not in gone]
    return swiss.start(entries, t.settings)


def _apply(ev: TeamEvent, kind: str, data) -> TeamEvent:
    if kind == "withdrawn":
        return swiss.withdraw(ev, data)
    if kind == "tie":
        return swiss.record_tie_lots(ev, data)
    if kind == "closed":
        return swiss.record_close(ev, data)
    warnings = _warnings(ev, data) if kind == "paired" and data.get("manual") else ()
    return swiss.record_pairing(ev, data, warnings)


def _warnings(ev: TeamEvent, data: dict) -> tuple[Sentence, ...]:
    """What a manual round departs from, judged on the event as the fold has it then."""
    given = swiss.Pairing(tuple(tuple(m["teams"]) for m in data["matches"]),
                          data["byes"][0] if data.get("byes") else None)
    teams = [t for m in given.pairs for t in m] + ([given.bye] if given.bye else [])
    return swiss.manual_warnings(ev, teams, given)


def _with_results(ev: TeamEvent, played: Callable[[str], object]) -> TeamEvent:
    """The tables that have started, and the results their streams have reached. A table
    already decided (a withdrawal's forfeit) keeps its result."""
    for r in ev.rounds:
        for meeting in r.meetings:
            for table in meeting.tables:
                if table in ev.results and table in ev.started:
                    continue
                state = played(table)
                if state is not None:
                    result = None if table in ev.results else table_result(state)
                    ev = swiss.record_result(ev, table, result)
    return ev


def table_result(state) -> PairResult | None:
    """A table's result from its SJ3 match fold (``rules.shengji.match.match_result``): the
    final levels of sides A and B, the winner and a forfeit (T-6.5, SJ3-12.4) — of the round
    for lateness (T-6.6) or a disqualification (SJ3-11.9); None while it is being played."""
    result = shengji_match.match_result(state)
    if result is None:
        return None
    levels = tuple(result["levels"][side] for side in SIDES)
    disqualified = _disqualified_sides(state)
    if result["forfeited_by"] == "both":
        return replace(PairResult.forfeited_by_both(levels), disqualified=disqualified)
    if result["forfeited_by"] is not None:
        return replace(PairResult.forfeited_by(SIDES.index(result["forfeited_by"])),
                       disqualified=disqualified)
    winner = result["winner"]
    return PairResult(levels, None if winner is None else SIDES.index(winner))


def _disqualified_sides(state) -> tuple[int, ...]:
    """SJ3-11.9: the sides a ruling of the match disqualified (a ``disqualify`` effect, in
    either of its written forms: rules/rulings.py)."""
    return tuple(SIDES.index(side) for side in SIDES if side in state.disqualified)


# --- reads -------------------------------------------------------------------------------------

def rounds_view(log: Tail, catalogue: Catalogue, tournament_id: str, at: int | None = None,
                cache: StreamCache | None = None) -> dict | None:
    """GET …/rounds: every round with its meetings, tables, players and results, the bye, the
    warnings of a manual pairing; who is excluded or withdrawn; and the next round — its
    pairing by the rules, or why there is none yet. None if the tournament did not exist at
    ``at``."""
    t = tournament_at(log, catalogue, tournament_id, at, cache)
    if t is None:
        return None
    ev = team_event_at(log, catalogue, tournament_id, at, cache, t)
    if ev is None:
        return {"format": t.format, "settings": None, "teams": [], "rounds": [], "next": None,
                "excluded": {}, "withdrawn": [], "ended": None}
    return {"format": t.format, "settings": ev.settings.to_dict(),
            "teams": [_team_view(t, e) for e in ev.entries.values()],
            "rounds": [_round_view(ev, r) for r in ev.rounds],
            "next": _next_view(ev), "excluded": dict(swiss.excluded(ev)),
            "withdrawn": list(ev.withdrawn), "ended": _ended_view(ev)}


def _ended_view(ev: TeamEvent) -> dict | None:
    """T-6.11: how the event ended — ``rounds`` (all played), ``teams`` (fewer than two left in
    the pairing) or ``closed`` (by the chief referee) — after which round, and why."""
    over = swiss.ended(ev)
    return None if over is None else {"how": over.how, "after_round": over.after_round,
                                      "reason": over.why, "rule": swiss.CLOSING}


def _team_view(t: Tournament, entry: swiss.Entry) -> dict:
    return {"team": entry.team_id, "name": t.teams[entry.team_id].name, "leader": entry.leader,
            "pairs": {p: list(entry.pair(p)) for p in swiss.PAIRS}}


def _round_view(ev: TeamEvent, r: swiss.Round) -> dict:
    return {"round": r.number, "manual": r.manual, "reason": r.reason,
            "warnings": list(r.warnings), "bye": r.bye,
            "complete": swiss.round_complete(ev, r.number),
            "meetings": [{"match_id": m.match_id, "teams": list(m.teams),
                          "tables": [_table_view(ev, m, p) for p in swiss.PAIRS]}
                         for m in r.meetings]}


def _table_view(ev: TeamEvent, meeting: swiss.Meeting, pair: str) -> dict:
    table = meeting.table(pair)
    result = ev.results.get(table)
    lines = [swiss.line_of(result, side, meeting.round, pair, meeting.teams[1 - side], table)
             for side in (0, 1)]
    return {"match_id": table, "pair": pair,
            "players": {side: list(ev.entries[team].pair(pair))
                        for side, team in zip(SIDES, meeting.teams, strict=True)},
            "started": table in ev.started, "completed": result is not None,
            "result": None if result is None else {
                "levels": {side: result.levels[k] for k, side in enumerate(SIDES)},
                "winner": None if result.winner is None else SIDES[result.winner],
                "forfeited": [SIDES[side] for side in result.forfeited],
                "points": {side: lines[k].points for k, side in enumerate(SIDES)},
                "level_difference": {side: lines[k].level_difference
                                     for k, side in enumerate(SIDES)}}}


def _next_view(ev: TeamEvent) -> dict | None:
    """The next round: its pairing by the rules (round 1 is drawn by lots when posted, so only
    who is in play), or the plain reason it cannot be paired now."""
    number = swiss.next_round(ev)
    if number is None:
        return None
    base = {"round": number, "in_play": swiss.in_play(ev),
            "method": ev.settings.pairing_method if number > 1 else "lots"}
    try:
        data = swiss.propose(ev, random.Random(0))
    except RuleViolation as v:
        proposed = swiss.proposal(ev)
        if proposed is not None:
            proposed = {k: proposed[k] for k in ("matches", "byes", "warnings")}
        return {**base, "pairable": False, "rule": v.rule, "problem": v.text, "pairing": None,
                "proposal": proposed}
    pairing = None if number == 1 else {"matches": data["matches"], "byes": data["byes"]}
    return {**base, "pairable": True, "rule": None, "problem": None, "pairing": pairing,
            "proposal": None}


def standings_view(log: Tail, catalogue: Catalogue, tournament_id: str, at: int | None = None,
                   cache: StreamCache | None = None) -> dict | None:
    """GET …/standings of the team event (T-6.8, T-10.2): rank, team, team score, each pair's
    points and level differences round by round, the tie-break values, byes and forfeits;
    then the teams excluded after a second forfeit (T-6.7) or a pair's disqualification
    (SJ3-11.9), unranked."""
    t = tournament_at(log, catalogue, tournament_id, at, cache)
    if t is None:
        return None
    ev = team_event_at(log, catalogue, tournament_id, at, cache, t)
    rows = swiss.standings(ev)
    ranked = [_row_view(t, ev, r) for r in rows if r.place is not None]
    final = swiss.final(ev)
    return {"format": t.format, "final": final, "ended": _ended_view(ev),
            "champion": ranked[0]["team"] if final and ranked else None,
            "rounds": ev.settings.rounds,
            "rounds_played": sum(swiss.round_complete(ev, r.number) for r in ev.rounds),
            "tie_break_2": ev.settings.tie_break2, "lots": list(ev.tie_lots),
            "ranking": ranked,
            "excluded": [_row_view(t, ev, r) for r in rows if r.place is None]}


def _row_view(t: Tournament, ev: TeamEvent, row: swiss.Row) -> dict:
    team = row.totals.team
    lines = swiss.team_lines(ev, team)
    dq = swiss.disqualification(ev, team)
    return {"place": row.place, "team": team, "name": t.teams[team].name,
            "leader": ev.entries[team].leader, "eliminated_in": None,
            "withdrawn": team in ev.withdrawn, "excluded_after_round": row.excluded_after,
            "tied": row.tied, "score": row.totals.score,
            "tie_break_1": row.totals.best_pair, "tie_break_2": row.totals.tie_break2,
            "pairs": [{"pair": p, "players": list(ev.entries[team].pair(p)),
                       "points": row.totals.pair_points[k],
                       "level_difference": row.totals.pair_differences[k],
                       "rounds": [x.to_dict() for x in lines if x.pair == p]}
                      for k, p in enumerate(swiss.PAIRS)],
            "byes": sorted({x.round for x in lines if x.outcome == "bye"}),
            "forfeits": [{"round": x.round, "pair": x.pair} for x in lines
                         if x.outcome == "forfeitLoss"],
            "disqualified": None if dq is None else {"round": dq[0], "pair": dq[1]},
            "excluded": None if row.exclusion is None else {
                "rule": row.exclusion.rule, "after_round": row.exclusion.after_round,
                "reason": row.exclusion.why}}


# --- the server's pairing and lots -------------------------------------------------------------

def current(log: Tail, catalogue: Catalogue, tournament_id: str,
            cache: StreamCache | None = None) -> TeamEvent:
    ev = team_event_at(log, catalogue, tournament_id, cache=cache)
    if ev is None:
        raise RuleViolation(swiss.PAIRING, "this tournament is not a team event (swiss-teams)")
    return ev


def propose_pairing(log: Tail, catalogue: Catalogue, tournament_id: str, rng: random.Random,
                    cache: StreamCache | None = None) -> dict:
    """The next round: round 1 by lots (``LotsDrawn`` data), later rounds by scores
    (``RoundPaired`` data); raises T-6.4 when no valid pairing exists."""
    return swiss.propose(current(log, catalogue, tournament_id, cache), rng)


def propose_tie_lots(log: Tail, catalogue: Catalogue, tournament_id: str, rng: random.Random,
                     cache: StreamCache | None = None) -> list[dict]:
    ev = current(log, catalogue, tournament_id, cache)
    if swiss.ended(ev) is None:
        raise RuleViolation(swiss.STANDINGS, "lots decide places once every round has been "
                                             "played or the event has ended (T-6.11)")
    return swiss.propose_tie_lots(ev, rng)


def proposed_pairing(log: Tail, catalogue: Catalogue, tournament_id: str,
                     cache: StreamCache | None = None) -> dict:
    """T-6.4: the pairing with the fewest rematches the chief referee confirms, as
    ``RoundPaired`` data (``manual: true``); 422 T-6.4 when the next round needs none (it is
    paired by the rules) or cannot be paired now."""
    ev = current(log, catalogue, tournament_id, cache)
    proposed = swiss.proposal(ev)
    if proposed is None:
        swiss.propose(ev, random.Random(0))   # says why the round cannot be paired now
        raise RuleViolation(swiss.PAIRING, "round {next_round} is paired by the rules (POST "
                                           "…/pairings without confirm): there is no proposal "
                                           "to confirm",
                                           next_round=swiss.next_round(ev))
    return {k: v for k, v in proposed.items() if k != "warnings"}


# --- the referee's round-level events ----------------------------------------------------------

def _paired_round(ev: TeamEvent, number: int) -> swiss.Round:
    if not 1 <= number <= len(ev.rounds):
        raise RuleViolation(swiss.PAIRING, "round {number} has not been paired (rounds paired: "
                                           "{count})",
                                           number=number, count=len(ev.rounds))
    return ev.rounds[number - 1]


def round_time_events(log: Tail, catalogue: Catalogue, tournament_id: str, number: int,
                      cache: StreamCache | None = None) -> list[tuple[str, dict]]:
    """T-6.3 / SJ3-12.1, 「终场前10分钟裁判长统一提醒」: the chief referee's alert for a whole round
    — ``TimeLimitReached`` at the match setting ``alertAtMinute`` for every table of round
    ``number`` still being played; (match id, data) pairs. One alert for all tables: its minute
    counts from the round's start, the first of its tables' MatchStarted (``round_started_at``),
    however many minutes later another table started. The match folds finish the hand in play
    and let the levels decide."""
    ev = current(log, catalogue, tournament_id, cache)
    r = _paired_round(ev, number)
    states = {table: load_match(log, catalogue, tournament_id, table, cache=cache).state
              for meeting in r.meetings for table in meeting.tables}
    started = [s.started_at for s in states.values() if s is not None and s.started_at]
    since = {"round_started_at": utc_timestamp(min(started))} if started else {}
    out = []
    for table, state in states.items():
        if state is None or state.status == "completed" or state.time_called is not None:
            continue
        out.append((table, {"limit_minutes": state.settings.time_limit_minutes, **since}))
    if not out:
        raise RuleViolation("SJ3-12.1", "no table of round {number} is still being played "
                                        "without its time called",
                                        number=number)
    return out


def lateness_table(log: Tail, catalogue: Catalogue, tournament_id: str, number: int,
                   team: str, pair: str, cache: StreamCache | None = None) -> tuple[str, str]:
    """T-6.6: the table (match id) where ``team``'s pair ``pair`` plays in round ``number``, and
    its side there."""
    ev = current(log, catalogue, tournament_id, cache)
    r = _paired_round(ev, number)
    meeting = r.meeting_of(team)
    if meeting is None:
        if r.bye == team:
            raise RuleViolation(swiss.PAIRING, "team {team!r} has the bye in round {number}",
                                               team=team, number=number)
        raise RuleViolation(swiss.PAIRING, "team {team!r} does not play in round {number}",
                                           team=team, number=number)
    table = meeting.table(pair)
    if table not in ev.started:
        raise RuleViolation("T-6.6", "table {table} has not started: lateness is counted from "
                                     "the round's start (POST …/matches first)",
                                     table=table)
    return table, SIDES[meeting.teams.index(team)]


# --- guards: rules that need the tables' streams ---------------------------------------------

def _event_for_guard(log: Tail, catalogue: Catalogue, tournament_id: str,
                     cache: StreamCache | None) -> TeamEvent | None:
    return team_event_at(log, catalogue, tournament_id, cache=cache)


def guard_lots(log: Tail, catalogue: Catalogue, tournament_id: str, data: dict,
               cache: StreamCache | None) -> None:
    """LotsDrawn of the team event: round 1's pairing (T-6.4), lots between equal teams
    (T-6.8)."""
    if data["purpose"] not in ("pairing", "standingsTie"):
        return
    ev = _event_for_guard(log, catalogue, tournament_id, cache)
    if ev is None:
        return
    if data["purpose"] == "pairing":
        swiss.check_pairing(ev, data, by_lots=True)
    else:
        swiss.check_tie_lots(ev, data)


def guard_closed(log: Tail, catalogue: Catalogue, tournament_id: str, data: dict,
                 cache: StreamCache | None) -> None:
    """TeamEventClosed (T-6.11): after a round played, once, when the next round cannot be
    paired by the rules."""
    ev = _event_for_guard(log, catalogue, tournament_id, cache)
    if ev is not None:  # another format: the tournament's fold refuses it
        swiss.check_close(ev, data)


def guard_round_paired(log: Tail, catalogue: Catalogue, tournament_id: str, data: dict,
                       cache: StreamCache | None) -> None:
    """RoundPaired (T-6.4): the next round, by scores or — ``manual`` — by the referee."""
    ev = _event_for_guard(log, catalogue, tournament_id, cache)
    if ev is not None:  # another format: the tournament's fold refuses it
        swiss.check_pairing(ev, data, by_lots=False)


def other_formats(guard):
    """A guard of the knockout that the team event's lots do not go through (T-6.4)."""
    def guarded(log: Tail, catalogue: Catalogue, tournament_id: str, data: dict,
                cache: StreamCache | None) -> None:
        t = tournament_at(log, catalogue, tournament_id, cache=cache)
        if t is None or t.format != swiss.FORMAT:
            guard(log, catalogue, tournament_id, data, cache)
    return guarded


def drawn_table(log: Tail, catalogue: Catalogue, tournament_id: str, match_id: str,
                cache: StreamCache | None = None) -> tuple[swiss.Meeting, str, TeamEvent]:
    """The meeting and pair of a table a new match stream is for (T-6.4): paired, not decided
    by a withdrawal."""
    ev = current(log, catalogue, tournament_id, cache)
    found = ev.table(match_id)
    if found is None:
        raise RuleViolation(swiss.PAIRING, "no table {match_id!r} has been paired: a round's "
                                           "tables are its meetings' ids with a or b",
                                           match_id=match_id)
    if match_id in ev.results and match_id not in ev.started:
        raise RuleViolation(swiss.PAIRING, "table {match_id!r} was decided by a withdrawal",
                                           match_id=match_id)
    return (*found, ev)


def table_start(log: Tail, catalogue: Catalogue, tournament_id: str, match_id: str,
                cache: StreamCache | None = None) -> tuple[dict, int, dict]:
    """``MatchStarted``'s teams (side A: the meeting's first team), round and players by side
    for a table of the team event (T-6.4: pair a against pair a, pair b against pair b)."""
    meeting, pair, ev = drawn_table(log, catalogue, tournament_id, match_id, cache)
    teams = dict(zip(SIDES, meeting.teams, strict=True))
    players = {side: list(ev.entries[team].pair(pair)) for side, team in teams.items()}
    return teams, meeting.round, players


def guard_match_start(log: Tail, catalogue: Catalogue, tournament_id: str, data: dict,
                      cache: StreamCache | None) -> None:
    """MatchStarted in the team event: a paired table, its teams as paired and its pairs'
    players at the seats (side A at 0 and 2, side B at 1 and 3)."""
    t = tournament_at(log, catalogue, tournament_id, cache=cache)
    if t is None or t.format != swiss.FORMAT:
        return
    teams, number, players = table_start(log, catalogue, tournament_id, data["match_id"], cache)
    if dict(data["teams"]) != teams:
        raise RuleViolation(swiss.PAIRING, "table {match_id} is {team_a} (side A) against "
                                           "{team_b} (side B)", match_id=data['match_id'],
                                           team_a=teams['A'], team_b=teams['B'])
    seats = list(data.get("seats") or [])
    by_side = {"A": sorted(seats[0::2]), "B": sorted(seats[1::2])}
    if by_side != {side: sorted(p) for side, p in players.items()}:
        raise RuleViolation(swiss.PAIRING, "table {match_id} seats pair {pair} of each team: "
                                           "{players_a} (side A, seats 0 and 2) and {players_b} "
                                           "(side B, seats 1 and 3)",
                                           match_id=data['match_id'], pair=data['match_id'][-1],
                                           players_a=', '.join(players['A']),
                                           players_b=', '.join(players['B']))
    if data.get("round") not in (None, number):
        raise RuleViolation(swiss.PAIRING, "table {match_id} is of round {number}",
                                           match_id=data['match_id'], number=number)
    swiss.check_match_points((data.get("settings") or {}).get("matchPoints"))  # T-6.5
