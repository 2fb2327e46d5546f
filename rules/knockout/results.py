"""Results and withdrawals in a knockout (T-2.1, T-2.3, T-2.6 walkover, T-1.3)."""
from __future__ import annotations

from dataclasses import replace

from ..violations import RuleViolation
from .bracket import (
    MAIN,
    Bracket,
    Match,
    _final_drawn,
    _third_place_candidates,
    _undecided,
)


def record_result(bracket: Bracket, match_id: str, winner: str) -> Bracket:
    """T-2.1: a drawn, undecided match is won by one of its two teams; a main-match loser is out
    (T-2.3: the third-place match decides places only)."""
    match = bracket.matches.get(match_id)
    if match is None:
        raise RuleViolation("T-2.1", "no match {match_id} has been drawn",
                                     match_id=match_id)
    if match.winner is not None:
        raise RuleViolation("T-2.1", "match {match_id} is already decided ({winner} won)",
                                     match_id=match_id, winner=match.winner)
    if winner not in match.teams:
        raise RuleViolation("T-2.1", "{winner} does not play in match {match_id} ({a} v {b})",
                                     winner=winner, match_id=match_id, a=match.teams[0],
                                     b=match.teams[1])
    return _decide(bracket, replace(match, winner=winner))


def _decide(bracket: Bracket, match: Match) -> Bracket:
    eliminated = bracket.eliminated
    if match.kind == MAIN:
        eliminated = {**eliminated, match.loser: match.round}
    return replace(bracket, matches={**bracket.matches, match.match_id: match}, eliminated=eliminated)


def _pending_match(bracket: Bracket, team: str) -> Match | None:
    return next((m for m in _undecided(bracket) if team in m.teams), None)


def walk_over(bracket: Bracket, team: str) -> Bracket:
    """T-2.6 ``walkover``: a team not checked in is out once round 1 is drawn — as a withdrawal
    would put it out (its match forfeited to its opponent; on a bye, out in round 2), but
    marked absent, not withdrawn."""
    if team not in bracket.entrants or team in bracket.absent:
        return bracket
    pending = _pending_match(bracket, team)
    absent = bracket.absent + (team,)
    if pending is not None:
        opponent = pending.teams[1] if pending.teams[0] == team else pending.teams[0]
        return replace(_decide(bracket, replace(pending, winner=opponent, forfeit=team)),
                       absent=absent)
    if team not in bracket.eliminated and not _final_drawn(bracket):
        return replace(bracket, absent=absent,
                       eliminated={**bracket.eliminated, team: len(bracket.rounds) + 1})
    return replace(bracket, absent=absent)


def withdraw(bracket: Bracket, team: str) -> Bracket:
    """T-1.3 ``TeamWithdrawn`` in a knockout (T-2.1, T-2.3): an undecided match is forfeited to the
    opponent; a team in play but not yet drawn leaves the field (out in the round it would have been
    drawn in); a semi-final loser gives up the third-place match; otherwise nothing changes."""
    if team not in bracket.entrants:
        raise RuleViolation("T-2.1", "{team} is not an entrant of this knockout",
                                     team=team)
    if team in bracket.withdrawn:
        raise RuleViolation("T-1.3", "{team} has already withdrawn",
                                     team=team)
    pending = _pending_match(bracket, team)
    withdrawn = bracket.withdrawn + (team,)
    if pending is not None:
        opponent = pending.teams[1] if pending.teams[0] == team else pending.teams[0]
        forfeited = replace(pending, winner=opponent, forfeit=team)
        return replace(_decide(bracket, forfeited), withdrawn=withdrawn)
    if team not in bracket.eliminated and not _final_drawn(bracket):
        return replace(bracket, withdrawn=withdrawn,
                       eliminated={**bracket.eliminated, team: len(bracket.rounds) + 1})
    if team in _third_place_candidates(bracket):
        return replace(bracket, withdrawn=withdrawn)
    return bracket
