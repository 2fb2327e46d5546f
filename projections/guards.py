"""Guards: the rules an event must meet that look beyond its own stream.

A draw for the next knockout round needs the results of the matches of the last one, which live
in the match streams; a match may start only between the teams its draw paired. A guard reads
the log (inside the write transaction, as it stood before the batch) through the projections and
asks the pure rules; it raises :class:`rules.RuleViolation` to refuse the event.
"""
from __future__ import annotations

from typing import Callable

from events.catalogue import Catalogue, tournament_stream
from events.store import Tail
from rules import RuleViolation

from . import brackets, groups, rulings, team_event
from .streams import StreamCache, load_stream, stream_kind

Guard = Callable[[Tail, Catalogue, str, dict, "StreamCache | None"], None]



def _all_of(*guards: Guard) -> Guard:
    """One guard that runs several, each of which knows when it applies."""
    def guard(log: Tail, catalogue: Catalogue, tournament_id: str, data: dict,
              cache: StreamCache | None) -> None:
        for one in guards:
            one(log, catalogue, tournament_id, data, cache)
    return guard


GUARDS: dict[str, Guard] = {
    # T-2.1 – 2.3: a round fits the bracket; T-8.1, T-7.2, T-8.3: tables and ties fit the groups
    # T-6.4 round 1, T-6.8 ties: the team event's lots
    "LotsDrawn": _all_of(team_event.other_formats(brackets.guard_draw), groups.guard_draw,
                         team_event.guard_lots),
    "RoundPaired": team_event.guard_round_paired,  # T-6.4: later rounds by scores or by hand
    "TeamEventClosed": team_event.guard_closed,  # T-6.11: a played round, the next unpairable
    "ResultRecorded": brackets.guard_result,     # T-9.3: a drawn, undecided match
    "TieDiceRolled": groups.guard_dice,          # T-7.2, T-7.5: dice among tied players
    # T-2.1: the teams the draw paired; T-8.1: the players the lots seated at a table
    "MatchStarted": _all_of(brackets.guard_match_start, groups.guard_match_start,
                            team_event.guard_match_start),  # T-6.4: a paired table, its pairs
    # T-1.5: the committee's file — a dispute names what exists, is resolved once, by a ruling
    "DisputeRaised": rulings.guard_dispute_raised,
    "DisputeResolved": rulings.guard_dispute_resolved,
    "RulingRecorded": rulings.guard_ruling,
}


def guard_for(event_type: str) -> Guard | None:
    return GUARDS.get(event_type)


def entrants_still_in(log: Tail, catalogue: Catalogue, tournament_id: str, match, event_type: str,
                      cache: StreamCache | None) -> None:
    """T-1.3, T-2.1: a knockout match goes on only while its entrants are in the tournament;
    once one has withdrawn the match is decided by forfeit, and nothing more is played in it.
    (``match`` is the match stream's state before the event; rulings may still be recorded. At a
    table of a groups stage a withdrawal is the committee's to rule on, T-1.5.)"""
    if match is None or event_type == "RulingRecorded":
        return
    tournament = load_stream(log, catalogue, tournament_stream(tournament_id), cache=cache).state
    if tournament.format != "knockout":
        return
    for entrant in match.teams.values():
        team = tournament.team(entrant)
        if team is not None and team.withdrawn:
            raise RuleViolation("T-1.3", "{entrant!r} has withdrawn from the tournament: match "
                                         "{match_id!r} is decided by forfeit",
                                         entrant=entrant, match_id=match.match_id)


# stream kind -> guard over the stream's state before each event: (log, catalogue, tournament,
# state, event type, cache)
STREAM_GUARDS = {
    "match": entrants_still_in,  # T-1.3, T-2.1: a withdrawal ends a knockout match's play
}


def stream_guard_for(stream: str):
    return STREAM_GUARDS.get(stream_kind(stream))
