"""Groups of four as of any position (tournaments.md T-8, T-7, T-10.3, T-10.4): the stages and
their tables, each table's session read from its match stream, who qualified, and the ranking
by coins; and the guards that check a stage's draw, tie lots and a table's start against them.

The groups are folded from the tournament stream (the draws of tables, the tie lots and — in
the Sichuan event — the tie dice, in log order) and from each table's match stream (its
balances, whether its session is over, the final's extra hands; a table's result is derived by
its fold, never posted). Before each fact of the tournament
stream the tables' results at the position read are applied, as for the knockout bracket.
"""
from __future__ import annotations

import random
from dataclasses import replace

from events.catalogue import Catalogue
from events.store import Tail
from rules import groups
from rules.groups.event import DrawnTable, Groups, TableResult
from rules.mahjong.table import PRESETS
from rules.messages import Message
from rules.tournament import Tournament
from rules.violations import RuleViolation

from .brackets import tournament_at
from .matches import load_match
from .streams import StreamCache


def groups_at(log: Tail, catalogue: Catalogue, tournament_id: str, at: int | None = None,
              cache: StreamCache | None = None, t: Tournament | None = None) -> Groups | None:
    """The groups as of ``at``; None for a tournament of another format."""
    t = t or tournament_at(log, catalogue, tournament_id, at, cache)
    if t is None or t.format != "groups":
        return None
    g, gone = None, set()
    for kind, data in t.bracket_facts:
        if kind == "withdrawn":
            if g is None or not g.stages:
                gone.add(data)  # withdrew before the first draw: not an entrant
            else:               # not drawn into a later stage (T-7.2: the next best goes on)
                g = replace(g, withdrawn=g.withdrawn | {data})
            continue
        if kind not in _RECORD:
            continue
        if g is None:
            g = _start(t, gone)
        g = _with_results(g, log, catalogue, tournament_id, at, cache)
        g = _RECORD[kind](g, data)
    g = g or _start(t, gone)
    return _with_results(g, log, catalogue, tournament_id, at, cache)


# the facts of the tournament stream that make the groups: draws of tables, tie lots, tie dice
_RECORD = {"tables": groups.record_table_draw, "tie": groups.record_tie_lots,
           "dice": groups.record_tie_dice}


def _start(t: Tournament, gone: set[str]) -> Groups:
    entrants = [team_id for team_id in t.teams if team_id not in gone]
    return groups.start(entrants, t.settings, _starting_coins(t), t.game)


def _starting_coins(t: Tournament) -> int:
    """MJO-7.1: the coins a player holds before his table plays — the match setting
    ``startingCoins``, else the game's default."""
    given = (t.settings.get("match") or {}).get("startingCoins")
    if type(given) is int:
        return given
    preset = PRESETS.get(t.game)
    return preset({}).startingCoins if preset else 0


def _with_results(g: Groups, log: Tail, catalogue: Catalogue, tournament_id: str,
                  at: int | None, cache: StreamCache | None) -> Groups:
    results = dict(g.results)
    for table in g.tables.values():
        if table.match_id in results and results[table.match_id].completed:
            continue  # a finished session stays as it ended
        played = load_match(log, catalogue, tournament_id, table.match_id, at, cache).state
        if played is not None:
            results[table.match_id] = TableResult(tuple(played.balances),
                                                  played.status == "completed",
                                                  played.hands_played, played.tiebreaks)
    return replace(g, results=results)


# --- reads -------------------------------------------------------------------------------------

def groups_view(log: Tail, catalogue: Catalogue, tournament_id: str, at: int | None = None,
                cache: StreamCache | None = None) -> dict | None:
    """GET …/groups: every stage with its tables — seats, balances, the table's places, whether
    its session is over — and who qualified; None if the tournament did not exist at ``at``."""
    t = tournament_at(log, catalogue, tournament_id, at, cache)
    if t is None:
        return None
    g = groups_at(log, catalogue, tournament_id, at, cache, t)
    if g is None:
        return {"format": t.format, "settings": None, "entrants": [], "stages": [],
                "next_stage": None}
    return {"format": t.format,
            "settings": {"advance": g.advance, "prizePlaces": g.prize_places,
                         "stageCoins": "carry" if g.carry else "reset",
                         "ties": "dice" if g.by_dice else "lots"},
            "ranked_by": list(g.ranked_by),
            "entrants": list(g.entrants),
            "stages": [_stage_view(g, n) for n in range(1, len(g.stages) + 1)],
            "next_stage": groups.next_stage(g)}


def _stage_view(g: Groups, stage: int) -> dict:
    complete = groups.stage_complete(g, stage)
    final = groups.is_final_stage(g, stage)
    qualified, pending_lots = None, None
    if complete and not final:
        try:
            qualified = groups.qualifiers(g, stage)
        except RuleViolation as v:
            pending_lots = v.text  # said in the reader's language
    return {"stage": stage, "final": final, "complete": complete,
            "tables": [_table_view(g, table) for table in g.stages[stage - 1]],
            "lots": list(g.lots.get(stage, ())),
            "dice": [{p: list(d) for p, d in rolls.items()} for rolls in g.dice.get(stage, ())],
            "qualified": qualified, "awaiting_lots": pending_lots}


def _table_view(g: Groups, table: DrawnTable) -> dict:
    result = g.results.get(table.match_id)
    places = {s.player: (s.place, s.tied) for s in groups.table_ranking(g, table)}
    return {"match_id": table.match_id, "started": result is not None,
            "completed": bool(result and result.completed),
            "hands_played": result.hands_played if result else 0,
            "tiebreak_results": [list(r) for r in result.tiebreaks] if result else [],
            "seats": [{"seat": seat, "team": player,
                       "coins": groups.player_coins(g, table, player) if result else None,
                       "place": places[player][0] if result else None,
                       "tied": places[player][1] if result else False}
                      for seat, player in enumerate(table.players)]}


def standings_view(log: Tail, catalogue: Catalogue, tournament_id: str, at: int | None = None,
                   cache: StreamCache | None = None) -> dict | None:
    """GET …/standings of a groups tournament (T-8.3, T-7.4, T-10.3, T-10.4): every player once,
    best first by ``ranked_by`` — the stage reached, then the final balance, then the table
    place (T-8.3 as amended; the Sichuan event: table place, then score, T-7.5) —
    provisional (``final`` false) until the final stage is over and no tie touches a prize
    place."""
    t = tournament_at(log, catalogue, tournament_id, at, cache)
    if t is None:
        return None
    g = groups_at(log, catalogue, tournament_id, at, cache, t)
    rows, final = groups.standings(g)
    names = {team_id: team.name for team_id, team in t.teams.items()}
    ranking = [{"place": r.place, "team": r.player, "name": names.get(r.player),
                "eliminated_in": r.eliminated_in,
                "withdrawn": bool(t.team(r.player) and t.team(r.player).withdrawn),
                "coins": r.coins, "stage": r.stage, "table": r.table,
                "table_place": r.table_place, "tied": r.tied,
                "tiebreak_results": list(r.tiebreak),
                "prize": None if r.tied else groups.prize(g, r.place)} for r in rows]
    champion = ranking[0]["team"] if final and ranking else None
    return {"format": t.format, "final": final, "champion": champion,
            "prize_places": g.prize_places, "ranked_by": list(g.ranked_by),
            "ranking": ranking}


# --- the server's draw -------------------------------------------------------------------------

def propose_draw(log: Tail, catalogue: Catalogue, tournament_id: str, rng: random.Random,
                 cache: StreamCache | None = None) -> dict:
    """POST …/draws in a groups tournament: the next stage's tables by lots (T-8.1)."""
    return groups.propose_table_draw(_current(log, catalogue, tournament_id, cache), rng)


def _current(log: Tail, catalogue: Catalogue, tournament_id: str,
             cache: StreamCache | None) -> Groups:
    g = groups_at(log, catalogue, tournament_id, cache=cache)
    if g is None:
        raise RuleViolation(groups.TABLES, "this tournament is not played in groups of four")
    return g


# --- guards: rules that need the tables' streams ---------------------------------------------

def guard_draw(log: Tail, catalogue: Catalogue, tournament_id: str, data: dict,
               cache: StreamCache | None) -> None:
    """A stage's draw fits the groups (T-8.1, T-7.2); tie lots separate equal players (T-8.3)."""
    if data["purpose"] not in ("tables", "standingsTie"):
        return
    t = tournament_at(log, catalogue, tournament_id, cache=cache)
    if t is None or t.format != "groups":
        return  # the tournament's fold refuses it (T-8.1)
    g = groups_at(log, catalogue, tournament_id, cache=cache, t=t)
    if data["purpose"] == "tables":
        groups.check_table_draw(g, data)
    else:
        groups.check_tie_lots(g, data)


def guard_dice(log: Tail, catalogue: Catalogue, tournament_id: str, data: dict,
               cache: StreamCache | None) -> None:
    """``TieDiceRolled``: dice among players still tied at a qualifying cut or a prize place
    of the Sichuan event (T-7.2, T-7.5)."""
    t = tournament_at(log, catalogue, tournament_id, cache=cache)
    if t is None or t.format != "groups":
        return  # the tournament's fold refuses it (T-8.1)
    groups.check_tie_dice(groups_at(log, catalogue, tournament_id, cache=cache, t=t), data)


def drawn_table(log: Tail, catalogue: Catalogue, tournament_id: str, match_id: str,
                cache: StreamCache | None = None) -> DrawnTable:
    """The drawn table a new match stream is for (T-8.1)."""
    table = _current(log, catalogue, tournament_id, cache).tables.get(match_id)
    if table is None:
        raise RuleViolation(groups.TABLES, "no table {match_id!r} has been drawn",
                                           match_id=match_id)
    return table


def guard_match_start(log: Tail, catalogue: Catalogue, tournament_id: str, data: dict,
                      cache: StreamCache | None) -> None:
    """MatchStarted in a groups tournament: a drawn table, its players at the seats the lots
    gave them (T-8.1)."""
    t = tournament_at(log, catalogue, tournament_id, cache=cache)
    if t is None or t.format != "groups":
        return
    table = drawn_table(log, catalogue, tournament_id, data["match_id"], cache)
    if dict(data["teams"]) != table.teams():
        raise RuleViolation(groups.TABLES, "table {match_id} was drawn as {seats}",
                                           match_id=table.match_id, seats=_seats(table))
    if t.game == "MJS":
        _must_mark_the_final(log, catalogue, tournament_id, table, data, cache)


def _seats(table: DrawnTable) -> Message:
    """``seat 0 p1, seat 1 p2, …``: each seat's entrant, a list of messages (each language
    writes its own seat and comma)."""
    said = [Message("seat {seat} {team}", seat=seat, team=team)
            for seat, team in table.teams().items()]
    listed = said[-1]
    for item in reversed(said[:-1]):
        listed = Message("{first}, {rest}", first=item, rest=listed)
    return listed


def is_final_table(log: Tail, catalogue: Catalogue, tournament_id: str, table: DrawnTable,
                   cache: StreamCache | None = None) -> bool:
    """T-7.4: the table of a final stage of one table."""
    g = _current(log, catalogue, tournament_id, cache)
    return groups.is_final_stage(g, table.stage) and len(g.stages[table.stage - 1]) == 1


def _must_mark_the_final(log: Tail, catalogue: Catalogue, tournament_id: str,
                         table: DrawnTable, data: dict, cache: StreamCache | None) -> None:
    """T-7.4: the Sichuan event's final table is started as the final — match setting
    ``final`` true: 换三张 (MJS-2.1) and the extra hand on a tie for a podium place — and no
    other table is."""
    final = is_final_table(log, catalogue, tournament_id, table, cache)
    marked = (data.get("settings") or {}).get("final", False)
    if final and marked is not True:
        raise RuleViolation("T-7.4", "table {match_id} is the final: start it with the match "
                                     "setting final true (换三张 and an extra hand on a tie for a "
                                     "podium place)",
                                     match_id=table.match_id)
    if not final and marked:
        raise RuleViolation("T-7.4", "table {match_id} is not the final (stage {stage}); only "
                                     "the final's table is started with final true",
                                     match_id=table.match_id, stage=table.stage)
    _must_exchange_only_in_the_final(table, data, final)


def _must_exchange_only_in_the_final(table: DrawnTable, data: dict, final: bool) -> None:
    """T-7.4 / MJS-2.1 (seed 003 「決賽：采用換三張打法」): the final, and only the final, is
    played with 换三张 — a table's ``exchangeThree``, when its settings name it (from the
    tournament's ``settings.match`` or the start), is the table's ``final``."""
    exchange = (data.get("settings") or {}).get("exchangeThree", final)
    if exchange != final:
        if final:
            raise RuleViolation("T-7.4", "table {match_id} is the final: it is played with 换三张 "
                                         "— match setting exchangeThree true (seed 「決賽：采用"
                                         "換三張打法」)", match_id=table.match_id)
        raise RuleViolation("T-7.4", "table {match_id} is not the final (stage {stage}): only "
                                     "the final is played with 换三张 — match setting "
                                     "exchangeThree false (seed 「決賽：采用換三張打法」)",
                                     match_id=table.match_id, stage=table.stage)
