"""Lateness at the start of a round of seed 004's team event (tournaments.md T-6.6, shengji-3deck.md
SJ3-11.10): the ladder from minutes late to what happens to the match.

Seed 004, notice 八 and attachment 二: 「迟到5分钟内警告，违例一次；6～10分钟，首盘扣20分；11～15分钟，首盘扣30分；
16～20分钟，首盘自动放弃（对手自动升级）；21分钟以上判该轮弃权」, a forfeit giving the opponents 2 points
and levels 4 : 2 (「对手得2分，级差为4：2」). Minutes are started minutes after the scheduled start,
counted by the referee (T-6.6 **Interpretation**: 5 min 30 s late is the 6th minute).
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

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
