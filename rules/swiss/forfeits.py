"""Forfeits, withdrawals and exclusion from the team event (T-6.7, SJ3-11.9): a second forfeit
or a disqualification excludes a team; a withdrawn team forfeits its tables without a result."""
from __future__ import annotations

from dataclasses import dataclass, replace

from ..messages import Message
from .event import FORFEITS, PAIRS, PairResult, TeamEvent, _memoised
from .scoring import Line, team_lines


# --- forfeits and exclusion (T-6.7) ------------------------------------------------------------

def forfeits(ev: TeamEvent, team: str) -> list[Line]:
    return [line for line in team_lines(ev, team) if line.outcome == "forfeitLoss"]


def second_forfeit(ev: TeamEvent, team: str) -> tuple[str | None, int, int] | None:
    """T-6.7 (「如连续或间接弃权的队或对子不再安排比赛」): the team's forfeit *again*, in a later
    round — of the same pair (``forfeitScope: pair``; the pair is returned), or of the team in a
    second round (``team``: both pairs forfeiting one round is one forfeit of the team, not
    two; the pair is None) — as (pair, first round, second round); None if none. The rounds a
    withdrawn team misses are forfeits like any other (amendment 2026-12-01)."""
    rounds: dict[str | None, list[int]] = {}
    for line in forfeits(ev, team):
        unit = line.pair if ev.settings.forfeit_scope == "pair" else None
        seen = rounds.setdefault(unit, [])
        if line.round not in seen:
            seen.append(line.round)
        if len(seen) == 2:
            return unit, seen[0], seen[1]
    return None


def disqualification(ev: TeamEvent, team: str) -> tuple[int, str] | None:
    """SJ3-11.9 (seed 十〈5〉「重则判取消参赛资格」): the round and pair of the team's first
    disqualification, or None. The players who signalled are the pair; a team of the event plays
    only as two pairs against two (T-6.4), so the team cannot be paired again."""
    for r in ev.rounds:
        meeting = r.meeting_of(team)
        if meeting is None:
            continue
        side = meeting.teams.index(team)
        for pair in PAIRS:
            result = ev.results.get(meeting.table(pair))
            if result is not None and side in result.disqualified:
                return r.number, pair
    return None


@dataclass(frozen=True)
class Exclusion:
    """Why a team is not paired any more and not ranked: after which round, by which rule."""

    after_round: int
    rule: str
    why: Message  # said in the reader's language where it is shown

    @property
    def reason(self) -> str:
        return str(self.why)


@_memoised("exclusion")
def exclusion(ev: TeamEvent, team: str) -> Exclusion | None:
    """The team's second forfeit (T-6.7) or its pair's disqualification (SJ3-11.9), whichever
    came first; None if neither."""
    dq = disqualification(ev, team)
    again = second_forfeit(ev, team)
    found = []
    if again is not None:
        pair, first, second = again
        who = Message("pair {pair}", pair=pair) if pair else Message("the team")
        missed = [n for n in (first, second) if team in ev.withdrawn and n > ev.withdrawn[team]]
        if missed:
            why = Message("{who} forfeited in rounds {first} and {second} (withdrawn after round "
                          "{withdrawn}: a round it misses is a forfeit): not scheduled any "
                          "more, its team score not counted", who=who, first=first,
                          second=second, withdrawn=ev.withdrawn[team])
        else:
            why = Message("{who} forfeited in rounds {first} and {second}: not scheduled any "
                          "more, its team score not counted", who=who, first=first,
                          second=second)
        found.append(Exclusion(second, FORFEITS, why))
    if dq is not None:
        found.append(Exclusion(dq[0], "SJ3-11.9", Message(
            "pair {pair} disqualified in round {round}", pair=dq[1], round=dq[0])))
    return min(found, key=lambda e: e.after_round, default=None)


def excluded_after(ev: TeamEvent, team: str) -> int | None:
    """The round after which the team is not paired and not ranked, or None."""
    found = exclusion(ev, team)
    return None if found is None else found.after_round


@_memoised("excluded")
def excluded(ev: TeamEvent) -> dict[str, int]:
    out = {}
    for team in ev.entries:
        after = excluded_after(ev, team)
        if after is not None:
            out[team] = after
    return out


# --- withdrawals (T-6.7) -----------------------------------------------------------------------

def withdraw(ev: TeamEvent, team: str) -> TeamEvent:
    """``TeamWithdrawn``: not paired again; its tables without a result are forfeited by it."""
    if team not in ev.entries or team in ev.withdrawn:
        return ev
    results = dict(ev.results)
    for r in ev.rounds:
        meeting = r.meeting_of(team)
        if meeting is not None:
            for table in meeting.tables:
                results.setdefault(table, PairResult.forfeited_by(meeting.teams.index(team)))
    return replace(ev, results=results, withdrawn={**ev.withdrawn, team: len(ev.rounds)})
