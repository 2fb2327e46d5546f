"""The team event's points (T-6.5) and totals (T-6.8): a pair's line of each round — at its
table, a bye, a round a withdrawn team misses — and a team's score and tie-breaks."""
from __future__ import annotations

from dataclasses import dataclass

from .event import DRAW, FORFEIT_LEVELS, LOSS, PAIRS, WIN, PairResult, TeamEvent, _memoised


# --- points and lines (T-6.5) ------------------------------------------------------------------

@dataclass(frozen=True)
class Line:
    """One pair's result in one round, from its own side."""

    round: int
    pair: str
    opponent: str | None          # the opposing team; None for a bye
    match_id: str | None          # the table; None for a bye
    points: int | None            # None while the table is being played
    level_difference: int | None
    levels: tuple[int, int] | None    # own : opponents'
    outcome: str                  # win | draw | loss | forfeitWin | forfeitLoss | bye | pending

    def to_dict(self) -> dict:
        return {"round": self.round, "pair": self.pair, "opponent": self.opponent,
                "match_id": self.match_id, "points": self.points,
                "level_difference": self.level_difference,
                "levels": list(self.levels) if self.levels else None, "outcome": self.outcome}


def line_of(result: PairResult | None, side: int, round_: int, pair: str, opponent: str,
            match_id: str) -> Line:
    """T-6.5: one side's points and level difference at a table."""
    if result is None:
        return Line(round_, pair, opponent, match_id, None, None, None, "pending")
    own, other = result.levels[side], result.levels[1 - side]
    if result.forfeited:
        outcome = "forfeitLoss" if side in result.forfeited else "forfeitWin"
    else:
        outcome = "draw" if result.winner is None else ("win" if result.winner == side else "loss")
    points = {"win": WIN, "forfeitWin": WIN, "draw": DRAW}.get(outcome, LOSS)
    return Line(round_, pair, opponent, match_id, points, own - other, (own, other), outcome)


def bye_line(round_: int, pair: str) -> Line:
    """T-6.4: a bye is a forfeit win at each table: 2 points, 4 : 2."""
    own, other = FORFEIT_LEVELS
    return Line(round_, pair, None, None, WIN, own - other, (own, other), "bye")


def missed_line(round_: int, pair: str) -> Line:
    """T-6.7 as amended: a withdrawn team forfeits each round it then misses — 0 points, levels
    2 : 4, as a forfeit at a table (T-6.5) — with no opponent and no table."""
    own, other = FORFEIT_LEVELS[::-1]
    return Line(round_, pair, None, None, LOSS, own - other, (own, other), "forfeitLoss")


@_memoised("lines")
def team_lines(ev: TeamEvent, team: str) -> tuple[Line, ...]:
    """The team's lines, round by round, pair a before pair b; the rounds a withdrawn team
    misses are forfeits (T-6.7)."""
    lines = []
    for r in ev.rounds:
        if r.bye == team:
            lines += [bye_line(r.number, p) for p in PAIRS]
            continue
        meeting = r.meeting_of(team)
        if meeting is None:
            if team in ev.withdrawn and r.number > ev.withdrawn[team]:
                lines += [missed_line(r.number, p) for p in PAIRS]
            continue
        side = meeting.teams.index(team)
        for p in PAIRS:
            table = meeting.table(p)
            lines.append(line_of(ev.results.get(table), side, r.number, p,
                                 meeting.opponent(team), table))
    return tuple(lines)


# --- totals and tie-breaks (T-6.8) -------------------------------------------------------------

@dataclass(frozen=True)
class Totals:
    team: str
    score: int
    pair_points: tuple[int, int]
    pair_differences: tuple[int, int]
    best_pair: int
    tie_break2: int

    def key(self) -> tuple[int, int, int]:
        return (self.score, self.best_pair, self.tie_break2)


@_memoised("totals")
def totals(ev: TeamEvent, team: str) -> Totals:
    """T-6.8: team score = the sum of both pairs' match points; tie-break 1 the better pair
    total; tie-break 2 the best level difference of either pair in one round
    (``bestSingleRoundDiff``) or all level differences summed (``sumOfDiffs``)."""
    done = [line for line in team_lines(ev, team) if line.points is not None]
    points = tuple(sum(x.points for x in done if x.pair == p) for p in PAIRS)
    diffs = tuple(sum(x.level_difference for x in done if x.pair == p) for p in PAIRS)
    if ev.settings.tie_break2 == "sumOfDiffs":
        second = sum(diffs)
    else:
        second = max((x.level_difference for x in done), default=0)
    return Totals(team, sum(points), points, diffs, max(points), second)
