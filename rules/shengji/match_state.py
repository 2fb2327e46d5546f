"""What a Shengji match is at one moment (rules/shengji/match.py folds it event by event), and
the small facts of it that the match's rules and the lateness rules (lateness.py) both ask: is
the match still being played, the levels by name, a round forfeited (T-6.5)."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from types import MappingProxyType
from typing import Mapping

from ..frozen import evolve
from ..match_clock import MatchClock
from ..violations import RuleViolation
from . import scoring
from .hand import SJ2, SJ3, Hand, Variant
from .settings import Settings, SJ3Settings

VARIANTS: Mapping[str, Variant] = MappingProxyType({"SJ2": SJ2, "SJ3": SJ3})
SETTINGS: Mapping[str, type] = MappingProxyType({"SJ2": Settings, "SJ3": SJ3Settings})
START_LEVELS = MappingProxyType({"A": 2, "B": 2})  # SJ2-2.1, SJ3-2.1
# per game: the rule of the sides (SJ2-1.2 / SJ3-1.2), of the match's end (SJ2-14 / SJ3-12)
# and of the round's time (SJ2-14.4 / SJ3-12.1)
MATCH_RULES = MappingProxyType({
    "SJ2": {"sides": "SJ2-1.2", "end": "SJ2-14", "time": "SJ2-14.4"},
    "SJ3": {"sides": "SJ3-1.2", "end": "SJ3-12", "time": "SJ3-12.1"},
})


@dataclass(frozen=True)
class Match:
    match_id: str
    game: str
    round: int | None
    teams: Mapping[str, str]            # side -> team id
    seats: tuple[str, ...]              # the players at seats 0-3
    settings: Settings | SJ3Settings
    variant: Variant
    levels: Mapping[str, int] = field(default_factory=lambda: START_LEVELS)
    hand: Hand | None = None            # the hand in play, or the last one played
    next_dealer: int | None = None      # the dealer of the next hand (None: the bids decide)
    history: tuple[Mapping, ...] = ()   # one result row per completed (or forfeited) hand
    finished: tuple[Hand, ...] = ()     # completed and voided hands, in order
    time_called: int | None = None      # minutes of a time limit reached (SJ2-14.4, SJ3-12.1)
    status: str = "playing"             # "playing" | "awaiting_lots" | "completed"
    winner: str | None = None           # side; None when completed = a draw (SJ3-12.2)
    reason: str | None = None           # "target" | "maxHands" | "time" | "lots" | "forfeit" | "disqualified"
    rulings: tuple[Mapping, ...] = ()
    started_at: datetime | None = None  # MatchStarted's recorded time: the round's clock
    lateness: tuple[Mapping, ...] = ()  # LatenessRecorded, with its consequence (T-6.6)
    seated: tuple[str, ...] = ()        # sides whose pair the table recorded seated (PairSeated)
    forfeited_by: str | None = None     # "A" | "B" | "both": the round forfeited (T-6.5)
    disqualified: tuple[str, ...] = ()  # sides a ruling disqualified (SJ3-11.9, T-1.5)
    first_hand_penalties: tuple[Mapping, ...] = ()  # lateness points for the first hand played
    time_breaches: tuple[Mapping, ...] = ()         # SJ3-11.8 overruns, warning or penalty
    match_clock: MatchClock = MatchClock()  # paused and resumed by the referee (rules.match_clock)

    @property
    def hands_played(self) -> int:
        """Completed hands: a voided deal does not count (SJ2-14.1); a hand forfeited for
        lateness does (T-6.6)."""
        return len(self.history)

    @property
    def next_hand(self) -> int:
        return self.hands_played + 1

    def rule(self, key: str) -> str:
        return MATCH_RULES[self.game][key]

    def hand_number(self, number: int) -> Hand | None:
        """Hand ``number`` as it stands: in play, or as it ended (the last deal of that number)."""
        if self.hand is not None and self.hand.number == number:
            return self.hand
        return next((h for h in reversed(self.finished) if h.number == number), None)


def must_be_playing(m: Match) -> None:
    if m.status == "completed":
        if m.winner:
            raise RuleViolation(m.rule("end"), "the match is over: side {winner} won ({reason})",
                                               winner=m.winner, reason=m.reason)
        raise RuleViolation(m.rule("end"), "the match is over: it ended ({reason})",
                                           reason=m.reason)
    if m.status == "awaiting_lots":
        raise RuleViolation("SJ2-14.3", "the levels are equal after the last hand: lots must "
                                        "decide the match (LotsDrawn, purpose matchTie)")


def level_names(levels: Mapping[str, int]) -> dict:
    return {side: scoring.level_name(v) for side, v in levels.items()}


def forfeited(m: Match, side: str, reason: str) -> Match:
    """T-6.5: the round forfeited by ``side`` — the opponents win; the result block records
    levels 4 : 2. A second side forfeiting too leaves no winner."""
    if m.forfeited_by is not None and m.forfeited_by != side:
        return evolve(m, forfeited_by="both", winner=None, status="completed", reason=reason)
    return evolve(m, forfeited_by=side, winner=scoring.other_side(side), status="completed",
                   reason=reason)
