"""The team event's state (T-6): its rule IDs and constants, the entries, meetings, rounds,
table results and settings, the :class:`TeamEvent` folded from the log, the settings and
entries checked (T-6.1, T-6.2, T-6.5, T-6.7, T-6.8), the start and a table's result."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from types import MappingProxyType

from ..messages import Sentence
from ..setting_values import check_values
from ..swiss_pairing import METHODS
from ..violations import RuleViolation

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
    warnings: tuple[Sentence, ...] = ()   # what a manual pairing departs from (rematches, …)
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


# --- settings and entries ----------------------------------------------------------------------

def check_settings(settings: Mapping) -> None:
    """T-6.1 ``rounds`` 1-20; T-6.8 ``tieBreak2``; T-6.7 ``forfeitScope``; ``match``, the
    tables' SJ3 settings, whose ``matchPoints`` stay 2 / 1 / 0 (T-6.5). Any other key is
    refused: the team event reads no other, and a misspelt one must not pass as stored."""
    unknown = sorted(set(settings) - set(SETTING_KEYS))
    if unknown:
        names, known = ", ".join(map(repr, unknown)), ", ".join(SETTING_KEYS)
        if len(unknown) > 1:
            raise RuleViolation(SETTINGS, "unknown settings {names} of the team event "
                                          "({format}); its settings are {known}",
                                          names=names, format=FORMAT, known=known)
        raise RuleViolation(SETTINGS, "unknown setting {names} of the team event ({format}); "
                                      "its settings are {known}",
                                      names=names, format=FORMAT, known=known)
    match = settings.get("match") or {}
    check_match_points(match.get("matchPoints") if isinstance(match, Mapping) else None)
    check_values(settings, WHOLE_NUMBERS, CHOICES)


def check_match_points(points: Mapping | None) -> None:
    """T-6.5: a table of the team event scores 2 for a win, 1 for a draw, 0 for a loss — the
    points the standings add up, and the scale of the seed's forfeit (「对手得2分」) and of a bye;
    a match setting ``matchPoints`` other than that is refused, not silently overruled."""
    if isinstance(points, Mapping) and dict(points) != MATCH_POINTS:  # its form: SJ3-15
        raise RuleViolation(POINTS, "the team event scores every table win {win}, draw {draw}, "
                                    "loss {loss} (a forfeit gives the opponents {win}); "
                                    "setting match.matchPoints cannot be {points!r}",
                                    win=WIN, draw=DRAW, loss=LOSS, points=dict(points))


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
        raise RuleViolation(ENTRANTS, "a team of the team event is two pairs, four players "
                                      "(pair a: the first two, pair b: the last two), not "
                                      "{count}",
                                      count=len(players))
    if not data.get("leader"):
        raise RuleViolation(ENTRANTS, "a team of the team event names its leader (领队)")
    for team_id, others in registered.items():
        shared = [p for p in players if p in others]
        if shared:
            raise RuleViolation(ENTRANTS, "{players} already play(s) for team {team_id!r}; a "
                                          "player is in one team only",
                                          players=', '.join(shared), team_id=team_id)


def entry(data: Mapping) -> Entry:
    p = list(data["players"])
    return Entry(data["team_id"], ((p[0], p[1]), (p[2], p[3])), data.get("leader"))


def start(entries: Sequence[Entry], settings: Mapping) -> TeamEvent:
    return TeamEvent(entries=MappingProxyType({e.team_id: e for e in entries}),
                     settings=parse_settings(settings))


# --- results -----------------------------------------------------------------------------------

def record_result(ev: TeamEvent, match_id: str, result: PairResult | None,
                  started: bool = True) -> TeamEvent:
    """A table's result, or only that its match has started (``result`` None)."""
    out = ev if not started or match_id in ev.started else \
        replace(ev, started=ev.started | {match_id})
    if result is None or ev.results.get(match_id) == result:
        return out
    return replace(out, results={**ev.results, match_id: result})
