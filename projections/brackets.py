"""The knockout bracket and the final ranking (tournaments.md T-2, T-9, T-10.1), as of any
position, and the guards that check draws, results and match starts against it.

The bracket is folded from two kinds of stream: the tournament's (draws, withdrawals, referee
results of result-only matches) and each match's (a game's result is derived by its fold, never
posted). Before each fact of the tournament stream the results known at that point of the read
are applied, so a draw is judged on the winners of the round before it.
"""
from __future__ import annotations

from typing import Callable, Iterable

from events.catalogue import Catalogue, tournament_stream
from events.store import Tail
from rules import knockout
from rules.knockout import Bracket
from rules.tournament import Tournament
from rules.violations import RuleViolation

from .matches import match_states, summary
from .streams import StreamCache, load_stream


def tournament_at(log: Tail, catalogue: Catalogue, tournament_id: str, at: int | None = None,
                  cache: StreamCache | None = None) -> Tournament | None:
    return load_stream(log, catalogue, tournament_stream(tournament_id), at, cache).state


def bracket_at(log: Tail, catalogue: Catalogue, tournament_id: str, at: int | None = None,
               cache: StreamCache | None = None,
               tournament: Tournament | None = None,
               played: Callable[[str], object] | None = None) -> Bracket | None:
    """The bracket as of ``at``; None before the first draw or for another format.
    ``tournament``: the tournament's state as of ``at``, when the caller has folded it;
    ``played``: the matches' states as of ``at`` (:func:`match_states`), likewise."""
    t = tournament or tournament_at(log, catalogue, tournament_id, at, cache)
    if t is None or t.format != "knockout" or not t.drawn:
        return None

    played = played or match_states(log, catalogue, tournament_id, at, cache)
    bracket, gone = None, set()
    for kind, data in t.bracket_facts:
        if bracket is None and kind == "withdrawn":
            gone.add(data)  # withdrew before the draw: not an entrant
            continue
        if bracket is None:
            bracket = knockout.start(entrants(t, gone | set(left_out(t))), t.settings,
                                         left_out(t))
        bracket = _with_match_results(bracket, played)
        bracket = _apply(bracket, kind, data)
        if kind == "draw" and len(bracket.rounds) == 1 and check_in(t) == "walkover":
            for team in not_checked_in(t):  # T-2.6: out by walkover once round 1 is drawn
                bracket = knockout.walk_over(bracket, team)
    return _with_match_results(bracket, played)


def entrants(t: Tournament, gone: Iterable[str] = ()) -> list[str]:
    """The teams of the draw, in order of registration (T-2.1)."""
    gone = set(gone)
    return [team_id for team_id in t.teams if team_id not in gone]


def check_in(t: Tournament) -> str:
    """T-2.6: the tournament's setting ``checkIn``."""
    return t.settings.get("checkIn", knockout.CHECK_IN[0])


def not_checked_in(t: Tournament) -> list[str]:
    """T-2.6: the teams still in that have not checked in (none when check-in is off)."""
    if check_in(t) == "off":
        return []
    return [i for i, team in t.teams.items() if not team.withdrawn and not team.checked_in]


def left_out(t: Tournament) -> list[str]:
    """T-2.6 ``leaveOut``: the teams round 1 is drawn without, in order of registration."""
    return not_checked_in(t) if check_in(t) == "leaveOut" else []


def _apply(bracket: Bracket, kind: str, data) -> Bracket:
    if kind == "draw":
        return knockout.record_draw(bracket, data)
    if kind == "withdrawn":
        return knockout.withdraw(bracket, data)
    if data["winner"] == "draw":  # T-9.3: a tie-break result naming the winner follows
        return bracket
    return knockout.record_result(bracket, data["match_id"], data["winner"])


def _with_match_results(bracket: Bracket, played: Callable[[str], object]) -> Bracket:
    """The results of the bracket's undecided matches that their own streams have decided."""
    for match in list(bracket.matches.values()):
        if match.winner is not None:
            continue
        state = played(match.match_id)
        if state is not None and state.status == "completed":
            bracket = knockout.record_result(bracket, match.match_id, state.teams[state.winner])
    return bracket


def bracket_view(log: Tail, catalogue: Catalogue, tournament_id: str, at: int | None = None,
                 cache: StreamCache | None = None) -> dict | None:
    """GET …/bracket (T-2, T-10.1). Besides the bracket's own fields, what a spectator asks of
    it: each match's ``status`` (``drawn``, ``in_play`` once its stream has started and while
    it has no result, ``decided``) and ``score`` (the levels and hands of its stream), the
    ``matches_in_play``, and ``in_play``: every team still in the knockout — those of an
    undecided match as well as those waiting for the next draw (``to_draw``, the rules'
    :func:`rules.knockout.in_play`, which leaves out a team whose match is undecided: the
    bracket of a final being played had ``in_play: []``)."""
    t = tournament_at(log, catalogue, tournament_id, at, cache)
    if t is None:
        return None
    played = match_states(log, catalogue, tournament_id, at, cache)
    bracket = bracket_at(log, catalogue, tournament_id, at, cache, tournament=t, played=played)
    if bracket is None:
        return {"format": t.format, "drawn": False, **_undrawn(t)}
    view = bracket.to_dict()
    for rnd in view["rounds"]:
        rnd["matches"] = [_match_line(line, played(line["match_id"])) for line in rnd["matches"]]
    lines = [line for rnd in view["rounds"] for line in rnd["matches"]]
    undecided = [team for line in lines if line["winner"] is None for team in line["teams"]]
    still_in = set(undecided) | set(view["in_play"])
    return {"format": t.format, "drawn": True, **view, "to_draw": view["in_play"],
            "in_play": [team for team in bracket.entrants if team in still_in],
            "matches_in_play": [line["match_id"] for line in lines if line["status"] == "in_play"]}


def _match_line(line: dict, state) -> dict:
    """A bracket match with its status and the score its stream has so far (the public line of
    the match list: a finished hand's levels are public, T-10)."""
    if line["winner"] is not None:
        status = "decided"
    else:
        status = "drawn" if state is None else "in_play"
    score = None
    if state is not None:
        played = summary(state)
        sides = played["teams"]  # side -> team
        score = {"levels": {sides[side]: level for side, level in (played.get("levels") or {}).items()},
                 "hands_played": played.get("hands_played", 0)}
    return {**line, "status": status, "started": state is not None, "score": score}


def _undrawn(t: Tournament) -> dict:
    """The bracket before its first draw, in the shape of a drawn one."""
    field = entrants(t, _withdrawn(t))
    return {"entrants": field, "settings": knockout_settings(t), "rounds": [],
            "eliminated": {}, "withdrawn": [], "in_play": field, "to_draw": field,
            "matches_in_play": [],
            "next_round": 1 if t.format == "knockout" else None, "champion": None,
            "not_checked_in": not_checked_in(t)}


def knockout_settings(t: Tournament) -> dict:
    return {"byePolicy": t.settings.get("byePolicy", knockout.BYE_POLICIES[0]),
            "thirdPlace": t.settings.get("thirdPlace", knockout.THIRD_PLACE[0])}


def standings_view(log: Tail, catalogue: Catalogue, tournament_id: str, at: int | None = None,
                   cache: StreamCache | None = None) -> dict | None:
    """T-2.4 / T-10.1: the final places, provisional until the tournament is decided; each row's
    ``places`` is the span of places its team may still end in (``[5, 8]``; one place twice
    once decided)."""
    t = tournament_at(log, catalogue, tournament_id, at, cache)
    if t is None:
        return None
    bracket = bracket_at(log, catalogue, tournament_id, at, cache, tournament=t)
    if bracket is None:
        return {"format": t.format, "final": False, "champion": None, "ranking": []}
    names = {team_id: team.name for team_id, team in t.teams.items()}
    spans = knockout.place_ranges(bracket)  # T-10.1: a provisional place as the span still open
    rows = [{**row, "name": names.get(row["team"]), "places": list(spans[row["team"]])}
            for row in knockout.ranking(bracket)]
    return {"format": t.format, "final": knockout.is_decided(bracket),
            "champion": knockout.champion(bracket), "ranking": rows,
            "not_checked_in": list(bracket.left_out + bracket.absent)}


def _withdrawn(t: Tournament) -> set[str]:
    return {team_id for team_id, team in t.teams.items() if team.withdrawn}


# --- guards: rules that need the bracket ------------------------------------------------------

def bracket_for_next_draw(log: Tail, catalogue: Catalogue, tournament_id: str,
                           cache: StreamCache | None) -> Bracket:
    bracket = bracket_at(log, catalogue, tournament_id, cache=cache)
    if bracket is not None:
        return bracket
    t = tournament_at(log, catalogue, tournament_id, cache=cache)
    if unknown := knockout.unknown_seeds(t.settings, t.teams):
        raise RuleViolation(knockout.SEEDING_RULE, "setting seeding names {unknown}, not a "
                                                   "registered team",
                                                   unknown=', '.join(unknown))
    field = entrants(t, _withdrawn(t) | set(left_out(t)))
    if len(field) < 2:
        if check_in(t) == "leaveOut":
            raise RuleViolation("T-2.1", "a knockout needs at least two teams; {count} "
                                         "registered and checked in", count=len(field))
        raise RuleViolation("T-2.1", "a knockout needs at least two teams; {count} registered",
                                     count=len(field))
    return knockout.start(field, t.settings, left_out(t))


def guard_draw(log: Tail, catalogue: Catalogue, tournament_id: str, data: dict,
               cache: StreamCache | None) -> None:
    """A knockout round's draw (T-2.1, T-2.2, T-2.3) fits the bracket as it stands."""
    if data["purpose"] != "pairing":
        return
    knockout.check_draw(bracket_for_next_draw(log, catalogue, tournament_id, cache), data)


def absent_at_draw(log: Tail, catalogue: Catalogue, tournament_id: str,
                   cache: StreamCache | None) -> list[str]:
    """T-2.6 ``walkover``: the teams the next draw (round 1) will put out by walkover."""
    t = tournament_at(log, catalogue, tournament_id, cache=cache)
    return not_checked_in(t) if check_in(t) == "walkover" and not t.drawn else []


def guard_result(log: Tail, catalogue: Catalogue, tournament_id: str, data: dict,
                 cache: StreamCache | None) -> None:
    """ResultRecorded (T-9.3) names a drawn, undecided match and one of its teams (or a draw);
    only in a discipline whose play is not modelled (T-9.1)."""
    if not tournament_at(log, catalogue, tournament_id, cache=cache).result_only:
        return  # the tournament's own rules refuse it (T-9.1)
    bracket = bracket_at(log, catalogue, tournament_id, cache=cache)
    match = bracket.matches.get(data["match_id"]) if bracket else None
    if match is None:
        raise RuleViolation("T-9.3", "no match {match_id!r} has been drawn",
                                     match_id=data['match_id'])
    if data["winner"] == "draw":
        if data.get("tie_break"):
            raise RuleViolation("T-9.3", "a tie-break result names its winner, not a draw")
        return
    knockout.record_result(bracket, data["match_id"], data["winner"])


def drawn_match(log: Tail, catalogue: Catalogue, tournament_id: str, match_id: str,
                cache: StreamCache | None = None) -> knockout.Match:
    """The drawn, undecided knockout match a new match stream is for (T-2.1)."""
    bracket = bracket_at(log, catalogue, tournament_id, cache=cache)
    match = bracket.matches.get(match_id) if bracket else None
    if match is None:
        raise RuleViolation("T-2.1", "no match {match_id!r} has been drawn",
                                     match_id=match_id)
    if match.winner is not None:
        raise RuleViolation("T-2.1", "match {match_id!r} is already decided",
                                     match_id=match_id)
    return match


def guard_match_start(log: Tail, catalogue: Catalogue, tournament_id: str, data: dict,
                      cache: StreamCache | None) -> None:
    """MatchStarted: in a knockout, the teams the draw paired (side A first drawn); the game is
    the tournament's."""
    t = tournament_at(log, catalogue, tournament_id, cache=cache)
    if data["game"] != t.game:
        raise RuleViolation("T-1.1", "this tournament plays {game}, not {asked}",
                                     game=t.game, asked=data["game"])
    teams = list(data["teams"].values())  # sides A, B; at a mahjong table seats 0-3
    for team_id in teams:
        team = t.team(team_id)
        if team is None or team.withdrawn:
            raise RuleViolation("T-1.3", "team {team_id!r} is not an entrant",
                                         team_id=team_id)
    if t.format == "knockout":
        match = drawn_match(log, catalogue, tournament_id, data["match_id"], cache)
        if sorted(match.teams) != sorted(teams):  # a drawn match is of two teams
            raise RuleViolation("T-2.1", "match {match_id!r} was drawn between {team_a} and "
                                         "{team_b}", match_id=data['match_id'],
                                         team_a=match.teams[0], team_b=match.teams[1])
