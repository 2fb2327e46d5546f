"""End of hand and end of match: kitty capture, adjustments, result, levels, next dealer, winner.

Rule IDs refer to ``shared/rules/shengji-2deck.md`` and ``shengji-3deck.md``. Everything here is
pure arithmetic on numbers the caller has already folded from the events (trick points,
penalties, error counts).

Variant data: the result table (SJ2-13.1, SJ3-10.3) is a :class:`ResultScale` value and the level
ladder is ``LEVEL_RANKS``; SJ3 passes its own scale (SJ3-10.4: 120 / 60 / extra dealer levels
below 0) to :func:`hand_result`. The kitty multiplier and the follow/kitty-error adjustments of
SJ2 are points; SJ3 multiplies by the winning component's type (:func:`sj3_kitty_multiplier`)
and punishes reneges by the outcome, not points (:func:`floored_outcome`).

Seats 0–3 in order of play; side "A" = seats 0 and 2, side "B" = seats 1 and 3 (README §4).
Levels are ints 2..14 ("2".."A"); 15 and above only appear as the level of a side that has won.
"""
from __future__ import annotations

from dataclasses import dataclass

SIDES = ("A", "B")

# SJ2-2.1: the level ladder, numeric value = index + 2 ("2" = 2 … "T" = 10 … "A" = 14).
LEVEL_RANKS = "23456789TJQKA"
LOWEST_LEVEL = 2
HIGHEST_LEVEL = 14

# SJ2-12.3 / SJ2-12.4: size of an error adjustment, and the floor a dealer-side error lifts P to.
ERROR_ADJUSTMENT_POINTS = 40
DEALER_ERROR_FLOOR = 80

DEFENDERS_FOLLOW_ERROR = "defenders_follow_error"
DEALER_FOLLOW_ERROR = "dealer_follow_error"
KITTY_ERROR = "kitty_error"


# ---------------------------------------------------------------- seats and sides (README §4)

def _check_seat(seat: int) -> int:
    if type(seat) is int and 0 <= seat <= 3:  # the common case, checked first
        return seat
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat <= 3:
        raise ValueError(f"seat must be 0, 1, 2 or 3, not {seat!r}")
    return seat


def side_of(seat: int) -> str:
    """SJ2-1.2: side "A" = seats 0 and 2, side "B" = seats 1 and 3."""
    return "A" if _check_seat(seat) % 2 == 0 else "B"


def other_side(side: str) -> str:
    """SJ2-1.2: the side that is not ``side``."""
    if side not in SIDES:
        raise ValueError(f"side must be 'A' or 'B', not {side!r}")
    return "B" if side == "A" else "A"


def partner(seat: int) -> int:
    """README §4: opp(s) = (s + 2) mod 4, the partner across the table."""
    return (_check_seat(seat) + 2) % 4


def next_seat(seat: int) -> int:
    """README §4: next(s) = (s + 1) mod 4, the player who acts after ``seat``."""
    return (_check_seat(seat) + 1) % 4


# ---------------------------------------------------------------- levels (SJ2-2.1)

def level_value(rank: str) -> int:
    """SJ2-2.1 / README §2: numeric value of a level: "2".."9" as is, "T" 10 … "A" 14.

    Also reads the names :func:`level_name` gives past A: "A+1" = 15, "A+2" = 16, …
    """
    if isinstance(rank, str) and len(rank) == 1 and rank in LEVEL_RANKS:
        return LEVEL_RANKS.index(rank) + LOWEST_LEVEL
    if isinstance(rank, str) and rank.startswith("A+") and rank[2:].isdigit() and int(rank[2:]) > 0:
        return HIGHEST_LEVEL + int(rank[2:])
    raise ValueError(f"not a level: {rank!r} (expected one of {' '.join(LEVEL_RANKS)}, or A+n)")


def level_name(value: int) -> str:
    """SJ2-2.1 / README §2: the rank character of a numeric level; past A (15+) it is "A+n".

    "A+n" only names a side's final level after a winning jump (SJ2-14.2); no hand is played there.
    """
    if not isinstance(value, int) or isinstance(value, bool) or value < LOWEST_LEVEL:
        raise ValueError(f"not a level value: {value!r} (levels start at {LOWEST_LEVEL})")
    if value <= HIGHEST_LEVEL:
        return LEVEL_RANKS[value - LOWEST_LEVEL]
    return f"A+{value - HIGHEST_LEVEL}"


# ---------------------------------------------------------------- kitty (SJ2-11.2)

def kitty_multiplier(pairs: int) -> int:
    """SJ2-11.2: the kitty's points count 2^(1 + p) times, p = pairs in the last-trick winning play
    (a k-tractor counts k): no pair ×2, one pair ×4, two ×8, three ×16 …"""
    if not isinstance(pairs, int) or pairs < 0:
        raise ValueError(f"pairs must be a whole number ≥ 0, not {pairs!r}")
    return 2 ** (1 + pairs)


def kitty_capture(kitty_points: int, pairs: int, defenders_won_last_trick: bool = True) -> int:
    """SJ2-11.2 / SJ2-11.3: points the kitty adds to P — kitty points × :func:`kitty_multiplier`
    when a defender wins the last trick, nothing when the dealer side wins it."""
    if not defenders_won_last_trick:
        return 0
    return kitty_points * kitty_multiplier(pairs)


# ---------------------------------------------------------------- end-of-hand adjustments (SJ2-12.6)

@dataclass(frozen=True)
class Adjustment:
    """One step of SJ2-12.6 (2–3): which rule, which error, and P before and after it."""
    rule: str
    kind: str  # DEFENDERS_FOLLOW_ERROR | DEALER_FOLLOW_ERROR | KITTY_ERROR
    before: int
    after: int

    def to_dict(self) -> dict:
        return {"rule": self.rule, "kind": self.kind, "before": self.before, "after": self.after}


def defenders_error_adjustment(points: int) -> Adjustment:
    """SJ2-12.4: a defenders' follow error costs 40 points, but P is not taken below 0."""
    after = max(points - ERROR_ADJUSTMENT_POINTS, 0)
    return Adjustment("SJ2-12.4", DEFENDERS_FOLLOW_ERROR, points, after)


def dealer_error_adjustment(points: int, kind: str = DEALER_FOLLOW_ERROR) -> Adjustment:
    """SJ2-12.4 (dealer-side follow error) / SJ2-12.3 (kitty error): P := max(P + 40, 80)."""
    rule = "SJ2-12.3" if kind == KITTY_ERROR else "SJ2-12.4"
    after = max(points + ERROR_ADJUSTMENT_POINTS, DEALER_ERROR_FLOOR)
    return Adjustment(rule, kind, points, after)


def final_points(raw_points: int, defenders_follow_errors: int, dealer_follow_errors: int,
                 kitty_error: bool) -> tuple[int, tuple[dict, ...]]:
    """SJ2-12.6 steps 2–3: adjust ``raw_points`` (trick points + kitty capture + signed point
    penalties, step 1, computed by the caller).

    Step 2: each defenders' follow error, P := max(P − 40, 0). Step 3: each dealer-side follow
    error, then a kitty error, P := max(P + 40, 80). Returns the final P and the steps applied
    as JSON-ready dicts ``{"rule", "kind", "before", "after"}``. Step 4 (negative reads as 0) is
    part of :func:`hand_result`.
    """
    for name, count in (("defenders_follow_errors", defenders_follow_errors),
                        ("dealer_follow_errors", dealer_follow_errors)):
        if not isinstance(count, int) or count < 0:
            raise ValueError(f"{name} must be a whole number ≥ 0, not {count!r}")
    points, steps = raw_points, []
    for _ in range(defenders_follow_errors):
        steps.append(defenders_error_adjustment(points))
        points = steps[-1].after
    for _ in range(dealer_follow_errors):
        steps.append(dealer_error_adjustment(points))
        points = steps[-1].after
    if kitty_error:
        steps.append(dealer_error_adjustment(points, KITTY_ERROR))
        points = steps[-1].after
    return points, tuple(step.to_dict() for step in steps)


# ---------------------------------------------------------------- hand result (SJ2-13)

@dataclass(frozen=True)
class ResultScale:
    """The points → result table of a variant, as data (SJ2-13.1/13.2 by default).

    ``take_threshold``: P at or above it → defenders take the deal and gain
    ``(P − take_threshold) // level_step`` levels. Below it the dealer side gains the levels of
    the first ``dealer_bands`` entry ``(min_points, levels)`` (highest band first) whose minimum
    P reaches; below every band it gains ``dealer_floor_levels``, plus one per full
    ``dealer_extra_step`` below 0 when that is set (SJ3-10.4; None in SJ2, where a negative P
    reads as 0, SJ2-12.6 step 4).
    """
    take_threshold: int = 80
    level_step: int = 40
    dealer_bands: tuple[tuple[int, int], ...] = ((40, 1), (1, 2))
    dealer_floor_levels: int = 3
    dealer_extra_step: int | None = None


SJ2_RESULT_SCALE = ResultScale()
# SJ3-10.3/10.4: 120 and up the defenders take the deal, +1 per 60; 60–115 dealer +1, 5–55 +2,
# 0 and below +3 and one more per full 60 below 0 (「以后防家每多负60分，庄家多升一级」)
SJ3_RESULT_SCALE = ResultScale(take_threshold=120, level_step=60, dealer_bands=((60, 1), (5, 2)),
                               dealer_floor_levels=3, dealer_extra_step=60)


@dataclass(frozen=True)
class HandResult:
    """SJ2-13.1: who levels, by how much, and whether the deal passes to the defenders."""
    winner_side_role: str  # "dealer" | "defenders"
    levels: int  # levels gained by that side; 0 when the defenders only take the deal
    deal_passes: bool

    def to_dict(self) -> dict:
        return {"winner": self.winner_side_role, "levels": self.levels,
                "deal_passes": self.deal_passes}


def dealer_levels(points: int, scale: ResultScale = SJ2_RESULT_SCALE) -> int:
    """SJ2-13.2: levels the dealer side gains when P is below the take threshold —
    40 ≤ P < 80 → 1, 0 < P < 40 → 2, P ≤ 0 (negative reads as 0, SJ2-12.6 step 4) → 3."""
    for min_points, levels in scale.dealer_bands:
        if points >= min_points:
            return levels
    if scale.dealer_extra_step is None or points >= 0:
        return scale.dealer_floor_levels
    return scale.dealer_floor_levels + (-points) // scale.dealer_extra_step


def hand_result(points: int, scale: ResultScale = SJ2_RESULT_SCALE) -> HandResult:
    """SJ2-13.1/13.2: the defenders' final P → result. P ≥ 80: defenders take the deal and gain
    floor((P − 80) / 40); otherwise the dealer side keeps the deal and gains 1, 2 or 3."""
    if points >= scale.take_threshold:
        return HandResult("defenders", (points - scale.take_threshold) // scale.level_step, True)
    return HandResult("dealer", dealer_levels(points, scale), False)


# ---------------------------------------------------------------- SJ3 outcomes (SJ3-10.5, 11.2)

def outcome(result: HandResult) -> int:
    """SJ3-10.5: the outcome scale — dealer side +k → k; defenders take the deal and gain k → −k."""
    return result.levels if result.winner_side_role == "dealer" else -result.levels


def result_of(outcome_value: int) -> HandResult:
    """SJ3-10.5 read back: o ≥ 1 → the dealer side gains o; o ≤ 0 → the defenders take the deal
    and gain −o."""
    if outcome_value >= 1:
        return HandResult("dealer", outcome_value, False)
    return HandResult("defenders", -outcome_value, True)


def floored_outcome(normal: int, dealer_offended: bool, defenders_offended: bool) -> tuple[int, list[dict]]:
    """SJ3-11.2 (「判自动下台或别人自动升级（只作下台或升级，不累计分）」): an offending dealer side
    gets at most o = 0 (the defenders take the deal at least), offending defenders give at least
    o = 1 (dealer +1). **Interpretation:** the worse outcome for the offender stands; offences of
    one side count once; if both sides offended the floors cancel. Returns the final outcome and
    the steps applied ``{"side_role", "before", "after"}``."""
    if dealer_offended == defenders_offended:
        return normal, []
    if dealer_offended:
        return min(normal, 0), [{"side_role": "dealer", "before": normal, "after": min(normal, 0)}]
    return max(normal, 1), [{"side_role": "defenders", "before": normal, "after": max(normal, 1)}]


def sj3_kitty_multiplier(width: int, length: int) -> int:
    """SJ3-10.2 (seed 十七): single ×2, pair ×3, triple ×4, a tractor of k pairs ×(k + 3)
    (「二连对5倍，以后每多连一对加1倍」), a triple-tractor of k ×(2k + 2)
    (「二连刻6倍，以后每多连一刻加2倍」). ``width`` 1 is a single."""
    if width == 1:
        return 2
    if length == 1:
        return {2: 3, 3: 4}[width]
    return length + 3 if width == 2 else 2 * length + 2


def next_dealer(dealer: int, deal_passes: bool) -> int:
    """SJ2-5.3: the deal kept → the dealer's partner opp(dealer) deals next; the deal lost →
    next(dealer), the first defender after him."""
    return next_seat(dealer) if deal_passes else partner(dealer)


def leveling_side(dealer: int, result: HandResult) -> str:
    """SJ2-13.3: the side the result's levels go to — the dealer's side or the defenders'."""
    dealer_side = side_of(dealer)
    if result.winner_side_role == "dealer":
        return dealer_side
    if result.winner_side_role == "defenders":
        return other_side(dealer_side)
    raise ValueError(f"winner_side_role must be 'dealer' or 'defenders', not {result.winner_side_role!r}")


def apply_result(levels: dict[str, int], dealer: int, result: HandResult,
                 cap: int | None = None) -> dict[str, int]:
    """SJ2-13.3 / SJ2-2.3: the side that levels adds its gain; the other side's level is unchanged.
    ``cap`` (SJ3-12.3) is the highest level recorded. Returns a new dict; ``levels`` is not
    modified."""
    if set(levels) != set(SIDES):
        raise ValueError(f"levels must have exactly the keys 'A' and 'B', not {sorted(levels)}")
    if result.levels < 0:
        raise ValueError("levels never go down in SJ2 (SJ2-2.3)")
    updated = dict(levels)
    side = leveling_side(dealer, result)
    updated[side] += result.levels
    if cap is not None:
        updated[side] = min(updated[side], cap)
    return updated


# ---------------------------------------------------------------- match result (SJ2-14)

def higher_side(levels: dict[str, int]) -> str | None:
    """SJ2-14.3: the side with the higher level, or None when the levels are equal."""
    if levels["A"] == levels["B"]:
        return None
    return "A" if levels["A"] > levels["B"] else "B"


def match_winner(levels: dict[str, int], hands_played: int, target_level: int | None = 10,
                 max_hands: int | None = 20) -> tuple[str | None, str | None]:
    """SJ2-14.1–14.3: (winner side, reason) after a hand.

    - a side whose level is above ``target_level`` (SJ2-14.2; setting ``targetLevel``, default
      "T" = 10 — pass :func:`level_value` of it) wins: reason "target" (both above, which one hand
      cannot cause: the higher; both equal and above: lots);
    - else after ``max_hands`` hands (SJ2-14.1, setting ``maxHands``) the higher level wins:
      reason "maxHands"; equal levels → ``(None, "lots")``, a LotsDrawn{purpose:"matchTie"} decides;
    - else ``(None, None)``: the match goes on.

    ``None`` for either limit: the match has no such limit (SJ3: no hand limit; without
    ``endOnPassingA`` no target).
    """
    above = [side for side in SIDES if target_level is not None and levels[side] > target_level]
    if above:
        winner = above[0] if len(above) == 1 else higher_side(levels)
        return (winner, "target") if winner else (None, "lots")
    if max_hands is not None and hands_played >= max_hands:
        return time_or_hands_winner(levels, "maxHands")
    return None, None


def time_or_hands_winner(levels: dict[str, int], reason: str) -> tuple[str | None, str]:
    """SJ2-14.3: the higher level wins for ``reason``; equal levels → (None, "lots")."""
    winner = higher_side(levels)
    return (winner, reason) if winner else (None, "lots")


def time_limit_winner(levels: dict[str, int]) -> tuple[str | None, str]:
    """SJ2-14.4: when the round's time limit has passed and the hand in progress is finished,
    SJ2-14.3 decides: the higher level wins (reason "time"); equal → (None, "lots")."""
    return time_or_hands_winner(levels, "time")
