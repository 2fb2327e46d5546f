"""The team event of seed 004 (积分编排, tournaments.md T-6): teams of a leader and two pairs
play three-deck Shengji (SJ3) round after round, each pair against a pair of the opposing team.

A :class:`TeamEvent` is a frozen value folded from the facts of the log (the projection
``projections/team_event.py`` feeds it, in log order):

1. :func:`start` — the entrants (registered, not withdrawn before the first draw) and the
   settings ``rounds``, ``tieBreak2``, ``forfeitScope``, ``pairingMethod`` (and ``match``, the
   tables');
2. :func:`record_pairing` — round 1 drawn by lots (``LotsDrawn{purpose: "pairing"}``, T-6.4),
   each later round paired by scores or by the referee (``RoundPaired``);
3. :func:`record_result` — a table's result, derived by its match stream (never posted);
4. :func:`withdraw` — ``TeamWithdrawn``; :func:`record_tie_lots` — ``standingsTie`` lots;
5. :func:`record_close` — ``TeamEventClosed``, the chief referee's closing (T-6.11).

A round is a set of *meetings*, team against team; a meeting ``R2-3`` is played at two tables,
the matches ``R2-3a`` (pair a against pair a) and ``R2-3b`` (T-6.4: teams name their pairs at
entry — the first two players are pair a, the last two pair b). Everything else — match points,
level differences, forfeits, exclusions, team scores, tie-breaks, the ranking, the next pairing
— is derived here, so a correction recorded later changes everything downstream.

Decisions (the seed's words over the spec's interpretations where they differ; the README and
the notes file list them):

- **Points (T-6.5).** Per table: win 2, draw (equal levels) 1, loss 0; the level difference is
  the pair's final level minus its opponents'. A forfeit gives the opponents 2 points and levels
  4 : 2 (+2 / −2), the forfeiting pair 0. A bye counts as two forfeit wins (2 points and +2 for
  each pair of the team).
- **Repeated forfeits (T-6.7,** 「如连续或间接弃权的队或对子不再安排比赛，并不计算全队团体成绩」**).** On a
  pair's second forfeit (setting ``forfeitScope: pair``, the default) or the team's second
  (``team``: a forfeit in a second round, whichever pair; both pairs forfeiting one round is
  one forfeit — 「连续或间接」 asks for a repeated one) the team is not paired any more and leaves
  the standings; its opponents keep the points they earned against it. A forfeit is a derived
  fact (a table's result), so the exclusion is derived too.
- **Disqualification (SJ3-11.9,** 「重则判取消参赛资格」**).** A pair disqualified at its table (a
  ruling's effect) forfeits that table; its team, which plays only as two pairs, is not paired
  from the next round and leaves the standings like an excluded team.
- **Settings.** ``rounds``, ``tieBreak2``, ``forfeitScope``, ``pairingMethod`` (``nearest``,
  the default, or ``topDown``: :mod:`rules.swiss_pairing`) and ``match`` (the tables' SJ3
  settings, whose ``matchPoints`` must stay 2 / 1 / 0, T-6.5); any other key is refused.
- **Withdrawal (T-6.7 as amended on 2026-12-01).** A team that withdraws (``TeamWithdrawn``) is
  not paired again; a table of it that has no result yet is forfeited by it (as in the
  knockout), and so is every later round it misses, so a second forfeit excludes it as any.
- **The end (T-6.11).** After the scheduled rounds; earlier once fewer than two teams are left
  in the pairing, or when the chief referee closes it (only when the next round cannot be
  paired by the rules). Once it has ended lots may separate the remaining ties.
- **Ranking (T-6.8).** Team score, then tie-break 1 (the better of the two pair totals), then
  tie-break 2 (``bestSingleRoundDiff``: the best level difference of either pair in one round;
  or ``sumOfDiffs``), then recorded lots; until lots separate them, equal teams share a place.
"""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache
from types import MappingProxyType

from .multisets import roll_call
from .setting_values import check_values
from .swiss_pairing import (
    METHODS,
    Pairing,
    differences,
    fewest_rematches,
    pair_round,
    rematches,
    score_groups,
)
from .violations import RuleViolation

FORMAT = "swiss-teams"
GAME = "SJ3"                 # T-6.3: the team event plays three-deck Shengji
ENTRANTS = "T-6.2"           # a leader and two pairs
PAIRING = "T-6.4"            # round 1 by lots, then equal or near scores
POINTS = "T-6.5"             # 2 / 1 / 0, a forfeit 2 and 4 : 2
FORFEITS = "T-6.7"           # the second forfeit excludes the team
CLOSING = "T-6.11"           # the event ends: its rounds played, < 2 teams left, or closed
STANDINGS = "T-6.8"          # score, best pair, best round difference, lots
PAIRS = ("a", "b")
PLAYERS = 4
WIN, DRAW, LOSS = 2, 1, 0
FORFEIT_LEVELS = (4, 2)      # 「对手得2分，级差为4：2」
MATCH_ID_LENGTH = 39         # a meeting id plus its pair letter is a match id (40 at most)

# key -> (rule, choices, default)
CHOICES = MappingProxyType({
    "tieBreak2": (STANDINGS, ("bestSingleRoundDiff", "sumOfDiffs"), "bestSingleRoundDiff"),
    "forfeitScope": (FORFEITS, ("pair", "team"), "pair"),
    "pairingMethod": (PAIRING, METHODS, METHODS[0]),  # amendment 2026-12-01: nearest
})
ROUNDS = ("T-6.1", 1, 20, 4)  # rule, low, high, default: 「共赛四轮」
WHOLE_NUMBERS = MappingProxyType({"rounds": ROUNDS})
# the keys of the tournament's settings a team event reads: its own (T-6.1, T-6.7, T-6.8) and
# ``match``, the settings of its SJ3 tables (SJ3-15)
SETTING_KEYS = ("rounds", "tieBreak2", "forfeitScope", "pairingMethod", "match")
SETTINGS = "T-6"             # the team event's settings, refused when unknown
MATCH_POINTS = {"win": WIN, "draw": DRAW, "loss": LOSS}


# --- the state ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Entry:
    """A team as registered: its pairs a and b (two players each) and its leader (领队)."""

    team_id: str
    pairs: tuple[tuple[str, str], tuple[str, str]]
    leader: str | None = None

    def pair(self, label: str) -> tuple[str, str]:
        return self.pairs[PAIRS.index(label)]


@dataclass(frozen=True)
class Meeting:
    """Team against team in one round; ``teams[0]`` is side A at both tables."""

    match_id: str
    round: int
    teams: tuple[str, str]

    def table(self, pair: str) -> str:
        """The match id of the table where the two pairs ``pair`` meet."""
        return f"{self.match_id}{pair}"

    @property
    def tables(self) -> tuple[str, str]:
        return tuple(self.table(p) for p in PAIRS)

    def opponent(self, team: str) -> str:
        return self.teams[1] if team == self.teams[0] else self.teams[0]


@dataclass(frozen=True)
class Round:
    number: int
    meetings: tuple[Meeting, ...]
    bye: str | None = None
    manual: bool = False
    warnings: tuple[str, ...] = ()   # what a manual pairing departs from (rematches, …)
    reason: str | None = None        # why the referee paired it by hand

    def meeting_of(self, team: str) -> Meeting | None:
        return next((m for m in self.meetings if team in m.teams), None)


@dataclass(frozen=True)
class PairResult:
    """A table's result as its match stream ended: the final levels of sides A and B (2 … 14,
    15 past A), the winning side (None: equal levels, or both forfeited), the sides that
    forfeited (both, when both pairs were 21 minutes late) and the sides disqualified there
    (SJ3-11.9, seed 十〈5〉「重则判取消参赛资格」: a disqualification forfeits the round too)."""

    levels: tuple[int, int]
    winner: int | None
    forfeited: tuple[int, ...] = ()
    disqualified: tuple[int, ...] = ()

    @classmethod
    def forfeited_by(cls, side: int) -> PairResult:
        """T-6.5: the other side wins 2 points, the levels are 4 : 2."""
        levels = FORFEIT_LEVELS if side == 1 else FORFEIT_LEVELS[::-1]
        return cls(levels, 1 - side, (side,))

    @classmethod
    def forfeited_by_both(cls, levels: tuple[int, int] = (2, 2)) -> PairResult:
        """Both pairs forfeited: no winner, no points (the match records the levels)."""
        return cls(levels, None, (0, 1))

    @classmethod
    def of_levels(cls, levels: tuple[int, int]) -> PairResult:
        """SJ3-12.2: the higher level wins; equal levels draw."""
        a, b = levels
        return cls((a, b), None if a == b else (0 if a > b else 1))


@dataclass(frozen=True)
class Settings:
    rounds: int = ROUNDS[3]
    tie_break2: str = CHOICES["tieBreak2"][2]
    forfeit_scope: str = CHOICES["forfeitScope"][2]
    pairing_method: str = CHOICES["pairingMethod"][2]

    def to_dict(self) -> dict:
        return {"rounds": self.rounds, "tieBreak2": self.tie_break2,
                "forfeitScope": self.forfeit_scope, "pairingMethod": self.pairing_method}


@dataclass(frozen=True)
class Closed:
    """``TeamEventClosed`` (T-6.11): the chief referee closed the event after round
    ``after_round``, for ``reason``."""

    after_round: int
    reason: str


@dataclass(frozen=True)
class TeamEvent:
    entries: Mapping[str, Entry]                 # in order of registration
    settings: Settings = Settings()
    rounds: tuple[Round, ...] = ()
    results: Mapping[str, PairResult] = field(default_factory=dict)   # table -> result
    started: frozenset[str] = frozenset()         # tables whose match stream has begun
    withdrawn: Mapping[str, int] = field(default_factory=dict)  # team -> rounds paired before
    tie_lots: tuple[str, ...] = ()                # standingsTie winners, in order of drawing
    closed: Closed | None = None                  # TeamEventClosed (T-6.11)

    @property
    def lot_order(self) -> tuple[str, ...]:
        """The order round 1's lots drew the teams in (first pair's teams first, the bye
        last): it orders teams the scores cannot, when pairing (T-1.4)."""
        if not self.rounds:
            return tuple(self.entries)
        first = self.rounds[0]
        drawn = [t for m in first.meetings for t in m.teams] + ([first.bye] if first.bye else [])
        return tuple(drawn) + tuple(t for t in self.entries if t not in drawn)

    @cached_property
    def memo(self) -> dict:
        """What is derived from this state, computed once (lines, totals, exclusions): a state
        is never changed, every fact folds into a new one."""
        return {}

    def meeting(self, match_id: str) -> Meeting | None:
        return next((m for r in self.rounds for m in r.meetings if m.match_id == match_id), None)

    def table(self, match_id: str) -> tuple[Meeting, str] | None:
        """The meeting and pair of a table's match id (``R2-3a`` → meeting R2-3, pair a)."""
        meeting = self.meeting(match_id[:-1]) if match_id[-1:] in PAIRS else None
        return None if meeting is None else (meeting, match_id[-1])


# --- settings and entries ----------------------------------------------------------------------

def check_settings(settings: Mapping) -> None:
    """T-6.1 ``rounds`` 1-20; T-6.8 ``tieBreak2``; T-6.7 ``forfeitScope``; ``match``, the
    tables' SJ3 settings, whose ``matchPoints`` stay 2 / 1 / 0 (T-6.5). Any other key is
    refused: the team event reads no other, and a misspelt one must not pass as stored."""
    unknown = sorted(set(settings) - set(SETTING_KEYS))
    if unknown:
        raise RuleViolation(SETTINGS, f"unknown setting{'s' if len(unknown) > 1 else ''} "
                                      f"{', '.join(map(repr, unknown))} of the team event "
                                      f"({FORMAT}); its settings are {', '.join(SETTING_KEYS)}")
    match = settings.get("match") or {}
    check_match_points(match.get("matchPoints") if isinstance(match, Mapping) else None)
    check_values(settings, WHOLE_NUMBERS, CHOICES)


def check_match_points(points: Mapping | None) -> None:
    """T-6.5: a table of the team event scores 2 for a win, 1 for a draw, 0 for a loss — the
    points the standings add up, and the scale of the seed's forfeit (「对手得2分」) and of a bye;
    a match setting ``matchPoints`` other than that is refused, not silently overruled."""
    if isinstance(points, Mapping) and dict(points) != MATCH_POINTS:  # its form: SJ3-15
        raise RuleViolation(POINTS, f"the team event scores every table win {WIN}, draw {DRAW}, "
                                    f"loss {LOSS} (a forfeit gives the opponents {WIN}); "
                                    f"setting match.matchPoints cannot be {dict(points)!r}")


def parse_settings(settings: Mapping) -> Settings:
    """The team event's settings from the tournament's (checked in full when it was created)."""
    check_values(settings, WHOLE_NUMBERS, CHOICES)
    return Settings(rounds=settings.get("rounds") or ROUNDS[3],
                    tie_break2=settings.get("tieBreak2") or CHOICES["tieBreak2"][2],
                    forfeit_scope=settings.get("forfeitScope") or CHOICES["forfeitScope"][2],
                    pairing_method=settings.get("pairingMethod") or
                    CHOICES["pairingMethod"][2])


def check_entry(data: Mapping, registered: Mapping[str, Sequence[str]]) -> None:
    """T-6.2: a team is a leader and two pairs — four different players, none of them in
    another team (``registered``: team -> players of the teams still entered)."""
    players = list(data["players"])
    if len(players) != PLAYERS:
        raise RuleViolation(ENTRANTS, f"a team of the team event is two pairs, four players "
                                      f"(pair a: the first two, pair b: the last two), not "
                                      f"{len(players)}")
    if not data.get("leader"):
        raise RuleViolation(ENTRANTS, "a team of the team event names its leader (领队)")
    for team_id, others in registered.items():
        shared = [p for p in players if p in others]
        if shared:
            raise RuleViolation(ENTRANTS, f"{', '.join(shared)} already play(s) for team "
                                          f"{team_id!r}; a player is in one team only")


def entry(data: Mapping) -> Entry:
    p = list(data["players"])
    return Entry(data["team_id"], ((p[0], p[1]), (p[2], p[3])), data.get("leader"))


def start(entries: Sequence[Entry], settings: Mapping) -> TeamEvent:
    return TeamEvent(entries=MappingProxyType({e.team_id: e for e in entries}),
                     settings=parse_settings(settings))


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


def _memoised(kind: str):
    """``f(ev, *args)`` computed once per state and arguments (``TeamEvent.memo``)."""
    def wrap(f):
        def memoised(ev: TeamEvent, *args):
            key = (kind, *args)
            if key not in ev.memo:
                ev.memo[key] = f(ev, *args)
            return ev.memo[key]
        memoised.__doc__, memoised.__name__ = f.__doc__, f.__name__
        return memoised
    return wrap


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


def forfeited_again(ev: TeamEvent, team: str) -> int | None:
    """The round of the team's second forfeit (T-6.7), or None."""
    found = second_forfeit(ev, team)
    return None if found is None else found[2]


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
    reason: str


@_memoised("exclusion")
def exclusion(ev: TeamEvent, team: str) -> Exclusion | None:
    """The team's second forfeit (T-6.7) or its pair's disqualification (SJ3-11.9), whichever
    came first; None if neither."""
    dq = disqualification(ev, team)
    again = second_forfeit(ev, team)
    found = []
    if again is not None:
        pair, first, second = again
        whose = f"pair {pair}" if pair else "the team"
        missed = [n for n in (first, second) if team in ev.withdrawn and n > ev.withdrawn[team]]
        why = f"{whose} forfeited in rounds {first} and {second}"
        if missed:
            why += f" (withdrawn after round {ev.withdrawn[team]}: a round it misses is a " \
                   f"forfeit)"
        found.append(Exclusion(second, FORFEITS, f"{why}: not scheduled any more, its team "
                                                 f"score not counted"))
    if dq is not None:
        found.append(Exclusion(dq[0], "SJ3-11.9", f"pair {dq[1]} disqualified in round "
                                                  f"{dq[0]}"))
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


# --- rounds ------------------------------------------------------------------------------------

def round_complete(ev: TeamEvent, number: int) -> bool:
    return all(t in ev.results for m in ev.rounds[number - 1].meetings for t in m.tables)


def next_round(ev: TeamEvent) -> int | None:
    """The round to pair next; None once the last round (setting ``rounds``) is paired or the
    event has ended (T-6.11)."""
    number = len(ev.rounds) + 1
    return number if number <= ev.settings.rounds and ended(ev) is None else None


def played(ev: TeamEvent) -> bool:
    """Every round paired so far has been played (and there is one)."""
    return bool(ev.rounds) and all(round_complete(ev, r.number) for r in ev.rounds)


def complete(ev: TeamEvent) -> bool:
    """Every round of the event has been paired and played."""
    return len(ev.rounds) == ev.settings.rounds and played(ev)


@dataclass(frozen=True)
class Ended:
    """How the event ended (T-6.11): ``rounds`` — its scheduled rounds played; ``teams`` —
    fewer than two teams left in the pairing; ``closed`` — closed by the chief referee."""

    how: str
    after_round: int
    reason: str


@_memoised("ended")
def ended(ev: TeamEvent) -> Ended | None:
    """T-6.11: the event ends after its scheduled rounds, or earlier when fewer than two teams
    remain in the pairing (once a round has been paired and every round paired is played), or
    when the chief referee closes it (``TeamEventClosed``). None while it goes on."""
    if ev.closed is not None:
        return Ended("closed", ev.closed.after_round, ev.closed.reason)
    if not played(ev):
        return None
    if len(ev.rounds) == ev.settings.rounds:
        return Ended("rounds", len(ev.rounds), f"all {ev.settings.rounds} rounds played")
    left = in_play(ev)
    if len(left) < 2:
        return Ended("teams", len(ev.rounds), f"{len(left)} team(s) left in the pairing after "
                                              f"round {len(ev.rounds)}; a round needs two")
    return None


@_memoised("in play")
def _in_play(ev: TeamEvent) -> tuple[str, ...]:
    gone = excluded(ev)
    return tuple(t for t in ev.entries if t not in ev.withdrawn and t not in gone)


def in_play(ev: TeamEvent) -> list[str]:
    """The teams the next round pairs, in order of registration: not withdrawn, not excluded
    (T-6.7, SJ3-11.9)."""
    return list(_in_play(ev))


def met(ev: TeamEvent) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {t: set() for t in ev.entries}
    for r in ev.rounds:
        for m in r.meetings:
            a, b = m.teams
            out[a].add(b)
            out[b].add(a)
    return out


def had_bye(ev: TeamEvent) -> set[str]:
    return {r.bye for r in ev.rounds if r.bye}


def pairing_order(ev: TeamEvent, teams: Sequence[str]) -> list[str]:
    """T-6.4: the teams best first by T-6.8 (score, tie-breaks 1 and 2); round 1's drawn order
    separates equal teams — the pairing needs no lots of its own."""
    lots = ev.lot_order
    return sorted(teams, key=lambda t: (tuple(-v for v in totals(ev, t).key()), lots.index(t)))


def _must_be_ready_for(ev: TeamEvent, number: int) -> list[str]:
    """The next round is ``number`` and the last one has been played; its teams."""
    over = ended(ev)
    if over is not None and over.how != "rounds":
        raise RuleViolation(CLOSING, f"the event has ended after round {over.after_round} "
                                     f"({over.reason}): no round is paired after it")
    wanted = next_round(ev)
    if wanted is None:
        raise RuleViolation(PAIRING, f"all {ev.settings.rounds} rounds have been paired")
    if number != wanted:
        raise RuleViolation(PAIRING, f"the next round to pair is round {wanted}, not {number}")
    if ev.rounds and not round_complete(ev, len(ev.rounds)):
        waiting = [t for m in ev.rounds[-1].meetings for t in m.tables if t not in ev.results]
        raise RuleViolation(PAIRING, f"round {len(ev.rounds)} is still being played "
                                     f"({', '.join(waiting)} without a result); results come "
                                     f"before the next pairing")
    teams = in_play(ev)
    if len(teams) < 2:
        raise RuleViolation(CLOSING, f"{len(teams)} team(s) left to pair; a round needs two")
    return teams


def propose(ev: TeamEvent, rng: random.Random) -> dict:
    """The next round's pairing as event data: round 1 by lots (``LotsDrawn``: the drawn order
    pairs first with second, …, the last drawn of an odd number has the bye); later rounds by
    scores (``RoundPaired``). Raises :class:`RuleViolation` (T-6.4) when no valid pairing exists,
    saying why."""
    number = next_round(ev) or len(ev.rounds) + 1
    teams = _must_be_ready_for(ev, number)
    if number == 1:
        order = list(teams)
        rng.shuffle(order)
        bye = [order.pop()] if len(order) % 2 else []
        pairs = list(zip(order[::2], order[1::2]))
        return {"purpose": "pairing", "round": 1, "byes": bye, "matches": [
            {"match_id": f"R1-{k}", "teams": list(p)} for k, p in enumerate(pairs, 1)]}
    pairing = by_scores(ev, teams)
    return {"round": number, "byes": [pairing.bye] if pairing.bye else [], "manual": False,
            "matches": [{"match_id": f"R{number}-{k}", "teams": list(p)}
                        for k, p in enumerate(pairing.pairs, 1)]}


def by_scores(ev: TeamEvent, teams: Sequence[str]) -> Pairing:
    """T-6.4 from round 2: :func:`rules.swiss_pairing.pair_round` on the ranking by the setting
    ``pairingMethod``; raises when no pairing without a rematch exists."""
    ranked = pairing_order(ev, teams)
    scores = {t: totals(ev, t).score for t in ranked}
    pairing = _paired(ranked, scores, met(ev), had_bye(ev), ev.settings.pairing_method)
    if pairing is None:
        raise RuleViolation(PAIRING, f"no valid pairing for round {len(ev.rounds) + 1}: "
                                     f"{_why_unpairable(ranked, had_bye(ev))}; the chief "
                                     f"referee confirms the pairing with the fewest rematches "
                                     f"(POST …/pairings with confirm true; GET …/rounds shows "
                                     f"it), pairs the round by hand (RoundPaired with manual "
                                     f"true) or closes the event (TeamEventClosed, T-6.11)")
    return pairing


def _paired(ranked: Sequence[str], scores: Mapping[str, int], seen: Mapping[str, set[str]],
            byes: set[str], method: str, fewest: bool = False) -> Pairing | None:
    """:func:`rules.swiss_pairing.pair_round` (``fewest``: ``fewest_rematches``) on what
    matters of the event: every read of the same state asks the same, and a manual round's
    warnings ask it again whenever the event is folded."""
    playing = set(ranked)
    return _paired_once(tuple(ranked), tuple(scores[t] for t in ranked),
                        frozenset(frozenset((a, b)) for a in ranked for b in seen.get(a, ())
                                  if b in playing),
                        frozenset(byes & playing), method, fewest)


@lru_cache(maxsize=512)
def _paired_once(ranked: tuple[str, ...], scores: tuple[int, ...], met_pairs: frozenset,
                 byes: frozenset, method: str, fewest: bool) -> Pairing | None:
    score = dict(zip(ranked, scores))
    seen: dict[str, set[str]] = {t: set() for t in ranked}
    for a, b in map(tuple, met_pairs):
        seen[a].add(b)
        seen[b].add(a)
    if fewest:
        return fewest_rematches(ranked, score, seen, byes, method)
    return pair_round(ranked, score, seen, byes, method)


def proposal(ev: TeamEvent) -> dict | None:
    """T-6.4, when the next round cannot be paired by itself: the pairing with the fewest
    rematches (then the fewest second byes, then the method's criteria) as ``RoundPaired`` data
    for the chief referee to confirm (``manual: true``, with the warnings it departs from); None
    when the round can be paired by the rules, or cannot be paired now at all."""
    number = next_round(ev) or len(ev.rounds) + 1
    try:
        teams = _must_be_ready_for(ev, number)
        if number == 1:
            return None
        by_scores(ev, teams)
        return None
    except RuleViolation as v:
        if v.rule != PAIRING or "no valid pairing" not in v.message:
            return None
    ranked = pairing_order(ev, teams)
    scores = {t: totals(ev, t).score for t in ranked}
    found = _paired(ranked, scores, met(ev), had_bye(ev), ev.settings.pairing_method, True)
    return {"round": number, "byes": [found.bye] if found.bye else [], "manual": True,
            "reason": "the pairing with the fewest rematches, confirmed by the chief referee "
                      "(T-6.4)",
            "matches": [{"match_id": f"R{number}-{k}", "teams": list(p)}
                        for k, p in enumerate(found.pairs, 1)],
            "warnings": list(manual_warnings(ev, teams, found))}


def _why_unpairable(ranked: Sequence[str], byes: set[str]) -> str:
    if len(ranked) % 2 and all(t in byes for t in ranked):
        return f"{len(ranked)} teams in play, one must sit out, and every team in play has " \
               f"had its bye"
    if len(ranked) % 2:
        return "whichever team without a bye sits out, the others cannot all meet teams " \
               "they have not met"
    return f"the {len(ranked)} teams in play cannot all meet teams they have not met"


# --- recording a pairing -----------------------------------------------------------------------

def check_pairing(ev: TeamEvent, data: Mapping, by_lots: bool) -> tuple[str, ...]:
    """A round's pairing — round 1 by lots (``by_lots``: ``LotsDrawn``), later rounds
    ``RoundPaired`` — fits the event: the next round, after the last one has been played; every
    team in play once, at a meeting or as the bye; one bye exactly when their number is odd; new
    match ids. A pairing by scores must be the one the rules give (T-6.4); a manual one may
    depart from it, and the departures are returned as warnings."""
    number = data["round"]
    if by_lots and number != 1:
        raise RuleViolation(PAIRING, f"only round 1 is drawn by lots; round {number} is paired "
                                     f"by scores (RoundPaired)")
    if not by_lots and number == 1:
        raise RuleViolation(PAIRING, "round 1 is drawn by lots (LotsDrawn, purpose pairing)")
    teams = _must_be_ready_for(ev, number)
    _must_name_each_once(data, teams)
    _must_use_new_ids(ev, data)
    if any(m.get("kind", "main") != "main" for m in data["matches"]):
        raise RuleViolation(PAIRING, "the team event has no third-place match")
    if by_lots:
        return ()
    given = Pairing(tuple(tuple(m["teams"]) for m in data["matches"]),
                    data["byes"][0] if data.get("byes") else None)
    if data.get("manual"):
        return manual_warnings(ev, teams, given)
    wanted = by_scores(ev, teams)
    if given != wanted:
        shown = "; ".join(" v ".join(p) for p in wanted.pairs)
        bye = f", bye {wanted.bye}" if wanted.bye else ""
        raise RuleViolation(PAIRING, f"round {number} paired by scores is {shown}{bye}; a "
                                     f"different pairing is posted with manual true")
    return ()


def _must_name_each_once(data: Mapping, teams: Sequence[str]) -> None:
    named = [t for m in data["matches"] for t in m["teams"]] + list(data.get("byes") or [])
    what = roll_call(named, teams, {"twice": "named twice", "missing": "left out",
                                    "extra": "not in play"})
    if what:
        raise RuleViolation(PAIRING, f"a round pairs each of the {len(teams)} teams in play "
                                     f"once ({what})")
    byes = len(data.get("byes") or [])
    if byes != len(teams) % 2:
        raise RuleViolation(PAIRING, f"{len(teams)} teams in play: {len(teams) % 2} bye, not "
                                     f"{byes}")


def _must_use_new_ids(ev: TeamEvent, data: Mapping) -> None:
    ids = [m["match_id"] for m in data["matches"]]
    long = [i for i in ids if len(i) > MATCH_ID_LENGTH]
    if long:
        raise RuleViolation(PAIRING, f"a meeting id has at most {MATCH_ID_LENGTH} characters "
                                     f"(its tables add a and b): {', '.join(long)}")
    clash = sorted({i for i in ids if ids.count(i) > 1 or ev.meeting(i) is not None})
    if clash:
        raise RuleViolation(PAIRING, f"meeting id(s) {', '.join(clash)} are already used")


def manual_warnings(ev: TeamEvent, teams: Sequence[str], given: Pairing) -> tuple[str, ...]:
    """What a manual pairing departs from: rematches, a second bye, and scores further apart
    than the method allows (T-6.4) — ``nearest``: a difference larger than the largest one of
    the best pairing (without a rematch when there is one, else with the fewest); ``topDown``:
    pairs further apart than adjacent score groups."""
    seen = met(ev)
    scores = {t: totals(ev, t).score for t in teams}
    playing = [t for t in teams if t != given.bye]
    near = ev.settings.pairing_method == "nearest"
    if near:
        ranked = pairing_order(ev, teams)
        best = _paired(ranked, scores, seen, had_bye(ev), "nearest") or \
            _paired(ranked, scores, seen, had_bye(ev), "nearest", True)
        limit = max(differences(best, scores), default=0)
    else:
        groups = score_groups(playing, scores)
    warnings = []
    for a, b in given.pairs:
        if b in seen[a]:
            before = [r.number for r in ev.rounds if (m := r.meeting_of(a)) and b in m.teams]
            warnings.append(f"rematch: {a} and {b} met in round "
                            f"{', '.join(map(str, before))}")
        elif near and abs(scores[a] - scores[b]) > limit:
            warnings.append(f"{a} ({scores[a]}) and {b} ({scores[b]}) are "
                            f"{abs(scores[a] - scores[b])} points apart; the nearest pairing "
                            f"keeps every difference within {limit}")
        elif not near and abs(groups[a] - groups[b]) > 1:
            warnings.append(f"{a} ({scores[a]}) and {b} ({scores[b]}) are not in equal or "
                            f"adjacent score groups")
    if given.bye in had_bye(ev):
        warnings.append(f"second bye: {given.bye} has had a bye")
    return tuple(warnings)


def check_close(ev: TeamEvent, data: Mapping) -> None:
    """``TeamEventClosed`` (T-6.11): the chief referee closes the event early — after round 1
    at the earliest, once, every round paired played, and only when the next round cannot be
    paired by the rules (no pairing without a rematch, T-6.4) and no manual pairing is wanted.
    An event whose rounds are all played, or with fewer than two teams left, has ended by
    itself."""
    if ev.closed is not None:
        raise RuleViolation(CLOSING, f"the event was already closed after round "
                                     f"{ev.closed.after_round} ({ev.closed.reason})")
    if not ev.rounds:
        raise RuleViolation(CLOSING, "no round has been paired: the event is closed after "
                                     "round 1 at the earliest")
    if not played(ev):
        waiting = [t for m in ev.rounds[-1].meetings for t in m.tables if t not in ev.results]
        raise RuleViolation(CLOSING, f"round {len(ev.rounds)} is still being played "
                                     f"({', '.join(waiting)} without a result); the event is "
                                     f"closed after a round has been played")
    over = ended(ev)
    if over is not None:
        raise RuleViolation(CLOSING, f"the event has already ended after round "
                                     f"{over.after_round} ({over.reason})")
    if proposal(ev) is None:
        raise RuleViolation(CLOSING, f"round {len(ev.rounds) + 1} can be paired by the rules "
                                     f"(POST …/pairings): the chief referee closes the event "
                                     f"early only when a round cannot be paired (T-6.4)")


def record_close(ev: TeamEvent, data: Mapping) -> TeamEvent:
    return replace(ev, closed=Closed(len(ev.rounds), data["reason"]))


def record_pairing(ev: TeamEvent, data: Mapping, warnings: Sequence[str] = ()) -> TeamEvent:
    number = data["round"]
    meetings = tuple(Meeting(m["match_id"], number, tuple(m["teams"])) for m in data["matches"])
    byes = data.get("byes") or []
    new = Round(number, meetings, byes[0] if byes else None, bool(data.get("manual")),
                tuple(warnings), data.get("reason"))
    return replace(ev, rounds=ev.rounds + (new,))


# --- results, withdrawals, lots ----------------------------------------------------------------

def record_result(ev: TeamEvent, match_id: str, result: PairResult | None,
                  started: bool = True) -> TeamEvent:
    """A table's result, or only that its match has started (``result`` None)."""
    out = ev if not started or match_id in ev.started else \
        replace(ev, started=ev.started | {match_id})
    if result is None or ev.results.get(match_id) == result:
        return out
    return replace(out, results={**ev.results, match_id: result})


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


def tied_with(ev: TeamEvent, team: str) -> list[str]:
    """The ranked teams with the same score and tie-breaks as ``team``."""
    key = totals(ev, team).key()
    return [t for t in ranked_teams(ev) if totals(ev, t).key() == key]


def check_tie_lots(ev: TeamEvent, data: Mapping) -> None:
    """T-6.8: lots separate teams equal on score and both tie-breaks, after the last round;
    drawn among all the teams tied at that place that no earlier lots have placed."""
    if ended(ev) is None:
        raise RuleViolation(STANDINGS, "lots decide places once every round has been played "
                                       "or the event has ended (T-6.11)")
    if data["round"] != len(ev.rounds):
        raise RuleViolation(STANDINGS, f"the standings lots are drawn after the last round, "
                                       f"{len(ev.rounds)}, not {data['round']}")
    candidates = list(data["candidates"])
    if data["winner"] not in candidates or len(set(candidates)) != len(candidates):
        raise RuleViolation(STANDINGS, "the lots are drawn among different teams and the "
                                       "winner is one of them")
    ranked = ranked_teams(ev)
    unranked = [t for t in candidates if t not in ranked]
    if unranked:
        raise RuleViolation(STANDINGS, f"{', '.join(unranked)} is not in the standings")
    placed = [t for t in candidates if t in ev.tie_lots]
    if placed:
        raise RuleViolation(STANDINGS, f"{', '.join(placed)} already won a draw of these lots")
    tied = [t for t in tied_with(ev, candidates[0]) if t not in ev.tie_lots]
    if sorted(tied) != sorted(candidates):
        raise RuleViolation(STANDINGS, f"lots are drawn among all the teams tied at that "
                                       f"place: {', '.join(tied)}, not {', '.join(candidates)}")


def record_tie_lots(ev: TeamEvent, data: Mapping) -> TeamEvent:
    return replace(ev, tie_lots=ev.tie_lots + (data["winner"],))


def propose_tie_lots(ev: TeamEvent, rng: random.Random) -> list[dict]:
    """Lots for every tie left in the final standings: for each group of k equal teams, k − 1
    draws, each among the teams not yet placed (the winner takes the best place left)."""
    draws, lots = [], list(ev.tie_lots)
    for group in tie_groups(ev):
        left = [t for t in group if t not in lots]
        while len(left) > 1:
            winner = rng.choice(left)
            draws.append({"purpose": "standingsTie", "round": len(ev.rounds),
                          "candidates": list(left), "winner": winner})
            lots.append(winner)
            left.remove(winner)
    return draws


# --- the standings -----------------------------------------------------------------------------

def ranked_teams(ev: TeamEvent) -> list[str]:
    """The teams in the standings: every entrant except those excluded (T-6.7, SJ3-11.9)."""
    gone = excluded(ev)
    return [t for t in ev.entries if t not in gone]


@dataclass(frozen=True)
class Row:
    place: int | None      # None: excluded (T-6.7), not ranked
    totals: Totals
    tied: bool
    excluded_after: int | None
    exclusion: Exclusion | None = None


def standings(ev: TeamEvent) -> list[Row]:
    """T-6.8: the ranked teams best first — score, tie-break 1, tie-break 2, then lots; equal
    teams that no lots separate share a place (1, 2, 2, 4) — then the excluded teams (T-6.7),
    without a place, in order of registration."""
    lots = ev.tie_lots

    def key(team: str) -> tuple:
        drawn = lots.index(team) if team in lots else len(lots)
        return (*(-v for v in totals(ev, team).key()), drawn)

    ranked = sorted(ranked_teams(ev), key=lambda t: (key(t), list(ev.entries).index(t)))
    keys = [key(t) for t in ranked]
    rows = [Row(keys.index(k) + 1, totals(ev, t), keys.count(k) > 1, None)
            for t, k in zip(ranked, keys, strict=True)]
    gone = {t: exclusion(ev, t) for t in ev.entries}
    return rows + [Row(None, totals(ev, t), False, e.after_round, e)
                   for t, e in gone.items() if e is not None]


def tie_groups(ev: TeamEvent) -> list[list[str]]:
    """Groups of teams that share a place, best place first."""
    rows = [r for r in standings(ev) if r.tied]
    groups: dict[int, list[str]] = {}
    for r in rows:
        groups.setdefault(r.place, []).append(r.totals.team)
    return [groups[p] for p in sorted(groups)]


def final(ev: TeamEvent) -> bool:
    """The event has ended (T-6.11) and no place is shared: lots have decided every tie
    (T-6.8)."""
    return ended(ev) is not None and not tie_groups(ev)
