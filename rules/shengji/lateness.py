"""Lateness at the start of a round of seed 004's team event (tournaments.md T-6.6, shengji-3deck.md
SJ3-11.10): the ladder from minutes late to what happens to the match.

Seed 004, notice 八 and attachment 二: 「迟到5分钟内警告，违例一次；6～10分钟，首盘扣20分；11～15分钟，首盘扣30分；
16～20分钟，首盘自动放弃（对手自动升级）；21分钟以上判该轮弃权」, a forfeit giving the opponents 2 points
and levels 4 : 2 (「对手得2分，级差为4：2」). Minutes are started minutes after the scheduled start,
counted by the referee (T-6.6 **Interpretation**: 5 min 30 s late is the 6th minute).

The match records it (rules/shengji/match.py folds these): the referee's count
(LatenessRecorded), the table's word that a pair sat down (PairSeated), the timer's forfeit at
the 21st minute (LatenessLimitReached), and hand 1 forfeited, which moves the levels on.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from types import MappingProxyType
from typing import Mapping

from ..frozen import evolve
from ..match_clock import timestamp
from ..messages import Message, Sentence
from ..violations import RuleViolation
from . import scoring
from .match_state import Match, forfeited, level_names, must_be_playing

RULE = "T-6.6"
# 「21分钟以上判该轮弃权」: a pair not seated when the 21st started minute begins — 20 minutes after
# the start — forfeits the round (LatenessLimitReached, the timer's)
FORFEIT_MINUTES = 21
FORFEIT_AFTER = timedelta(minutes=FORFEIT_MINUTES - 1)
ON_TIME, WARNING, POINTS, FIRST_HAND, ROUND = (
    "onTime", "warning", "firstHandPoints", "firstHandForfeited", "roundForfeited")
FORFEIT_LEVELS = {"winner": 4, "loser": 2}   # T-6.5 「级差为4：2」


@dataclass(frozen=True)
class Consequence:
    """What ``minutes`` late costs the late pair: ``kind`` one of the constants above; ``points``
    taken from it in the first hand played (SJ3-11.1) for ``firstHandPoints``."""
    kind: str
    points: int = 0

    def to_dict(self) -> dict:
        return {"consequence": self.kind, "points": self.points}


def consequence(minutes: int) -> Consequence:
    """T-6.6 / SJ3-11.10: 0 on time; 1–5 a warning (recorded as one violation); 6–10 −20 and
    11–15 −30 in hand 1; 16–20 hand 1 forfeited, the opponents +1; 21 or more the round
    forfeited."""
    if not isinstance(minutes, int) or isinstance(minutes, bool) or minutes < 0:
        raise ValueError(f"minutes late must be a whole number ≥ 0, not {minutes!r}")
    if minutes == 0:
        return Consequence(ON_TIME)
    if minutes <= 5:
        return Consequence(WARNING)
    if minutes <= 10:
        return Consequence(POINTS, 20)
    if minutes <= 15:
        return Consequence(POINTS, 30)
    if minutes <= 20:
        return Consequence(FIRST_HAND)
    return Consequence(ROUND)


def seated_sides(m) -> set[str]:
    """T-6.6 (「a pair is late until both its players are seated」): the sides of match ``m``
    known to be at the table — recorded seated (PairSeated), or their lateness counted by the
    referee (the count ends when they sit down); once a hand has been dealt, both."""
    if m.hand is not None:
        return {"A", "B"}
    return set(m.seated) | {entry["side"] for entry in m.lateness}


# --- the match's record of it ------------------------------------------------------------

def record_lateness(m: Match, data: Mapping) -> Match:
    """LatenessRecorded (T-6.6, SJ3-11.10): the referee's count of the started minutes a pair was
    late, once per side, before the first deal. Its consequence is :func:`consequence`'s:
    a warning; 20 or 30 points off the late side in the first hand played; hand 1 forfeited
    (the opponents go up one level and deal hand 2, their dealer nominated by them — ``dealer``,
    default their lower seat); the round forfeited."""
    side, minutes = data["side"], data["minutes"]
    if any(entry["side"] == side for entry in m.lateness):
        raise RuleViolation(RULE, "side {side}'s lateness is already recorded",
                                  side=side)
    if m.status == "completed" and m.reason != "forfeit":
        must_be_playing(m)
    if m.hand is not None:
        raise RuleViolation(RULE, "lateness is recorded before the first deal of the "
                                  "round")
    result = consequence(minutes)
    if "dealer" in data and result.kind != FIRST_HAND:
        raise RuleViolation(RULE, "the opponents nominate hand 2's dealer only when "
                                  "hand 1 is forfeited (16-20 minutes late)")
    entry = {"side": side, "minutes": minutes, "rule": RULE, **result.to_dict()}
    m = evolve(m, lateness=m.lateness + (entry,))
    if m.status == "completed" and result.kind != ROUND:
        return m  # the other side's forfeit has decided the round
    if result.kind == POINTS:
        penalty = {"side": side, "points": result.points,
                   "reason": Sentence(Message("side {side} was {minutes} minutes late",
                                              side=side, minutes=minutes))}
        return evolve(m, first_hand_penalties=m.first_hand_penalties + (penalty,))
    if result.kind == FIRST_HAND:
        return _forfeit_first_hand(m, side, data.get("dealer"))
    if result.kind == ROUND:
        return forfeited(m, side, "forfeit")
    return m


def record_seated(m: Match, data: Mapping) -> Match:
    """PairSeated (T-6.6): the table records that side ``side``'s pair has sat down, before the
    first deal, once. It stops the lateness clock of the timer (LatenessLimitReached); the
    minutes a late pair is counted are the referee's (LatenessRecorded)."""
    side = data["side"]
    must_be_playing(m)
    if m.hand is not None:
        raise RuleViolation(RULE, "a hand has been dealt: both pairs are seated")
    if side in m.seated:
        raise RuleViolation(RULE, "side {side}'s pair is already recorded seated",
                                  side=side)
    return evolve(m, seated=m.seated + (side,))


def lateness_limit(m: Match, data: Mapping, at: datetime | None) -> Match:
    """LatenessLimitReached (T-6.6, SJ3-11.10: 「21分钟以上判该轮弃权」; the timer's): the 21st minute
    after the start has begun — 20 minutes after MatchStarted, on the server's clock in strict
    mode — and the pairs of ``sides`` are not seated: each is recorded 21 minutes late, which
    forfeits the round (both: no winner, T-6.5)."""
    sides = data["sides"]
    if len(set(sides)) != len(sides):
        raise RuleViolation(RULE, "each side is named once, not {sides}",
                                  sides=sides)
    seated = sorted(seated_sides(m) & set(sides))
    if seated:
        raise RuleViolation(RULE, "side {seated}'s pair is seated (PairSeated, its lateness "
                                  "recorded, or a hand dealt)",
                                  seated=seated[0])
    begins = m.started_at + FORFEIT_AFTER if m.started_at else None
    if m.settings.strict and at is not None and begins is not None and at < begins:
        raise RuleViolation(RULE, "minute {FORFEIT_MINUTES} after the start begins at "
                                  "{timestamp}, not before",
                                  FORFEIT_MINUTES=FORFEIT_MINUTES, timestamp=timestamp(begins))
    for side in sides:
        m = record_lateness(m, {"side": side, "minutes": FORFEIT_MINUTES})
    return m


def _forfeit_first_hand(m: Match, side: str, dealer: int | None) -> Match:
    """T-6.6 (「首局自动放弃，对手自动升级」): hand 1 is not played; the opponents go up one level and
    deal hand 2 (**Interpretation**: their dealer nominated by them, by default their lower seat).
    If both sides forfeit hand 1, both go up and hand 2's reveals decide the dealer."""
    winners = scoring.other_side(side)
    seats = [seat for seat in range(4) if scoring.side_of(seat) == winners]
    if dealer is not None and dealer not in seats:
        raise RuleViolation(RULE, "side {winners} nominates hand 2's dealer from its own seats "
                                  "{seats}, not seat {dealer}",
                                  winners=winners, seats=seats, dealer=dealer)
    levels = dict(m.levels)
    levels[winners] += 1
    if m.history:  # the other side forfeited hand 1 too
        row = {**m.history[0], "forfeited_by": "both", "leveling_side": None,
               "levels": level_names(levels), "next_dealer": None}
        return evolve(m, levels=MappingProxyType(levels), history=(row,), next_dealer=None)
    nominated = seats[0] if dealer is None else dealer
    row = {"hand": 1, "forfeited_by": side, "rule": RULE,
           "levels_before": level_names(m.levels), "levels": level_names(levels),
           "leveling_side": winners, "next_dealer": nominated}
    return evolve(m, levels=MappingProxyType(levels), history=(row,), next_dealer=nominated)
