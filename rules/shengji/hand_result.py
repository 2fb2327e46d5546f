"""The end of a Shengji hand (SJ2-11, SJ2-12.6, SJ2-13; SJ3-10, SJ3-11): the points the
defenders took, the kitty captured, the penalties and adjustments, and the hand's result."""
from __future__ import annotations

from ..frozen import evolve
from . import scoring
from .cards import points
from .combos import pair_count, shape_of
from .hand import Hand, Trick
from .irregularities import OUTCOME_IRREGULARITIES


def finish(h: Hand) -> Hand:
    """The end of a hand played card by card: the defenders' trick points, the kitty and the
    multiplier its capture takes (SJ2-11, SJ3-10.2), scored by :func:`scored`."""
    last = h.tricks[-1]
    if h.variant.outcome_penalties:
        multiplier = _capture_multiplier(h)
    else:
        captured = scoring.side_of(last.winner) == h.defenders
        pairs = pair_count(_winning_play(last), h.trump) if captured else 0
        multiplier = scoring.kitty_multiplier(pairs) if captured else 0
    return scored(h, _defender_trick_points(h), points(h.kitty), multiplier)


def scored(h: Hand, trick_points: int, kitty_points: int, multiplier: int) -> Hand:
    """The completed hand and its result from what the hand counted — the defenders' trick
    points, the kitty's points and the multiplier of its capture (0: not captured) — and what
    it holds: its penalties, follow errors and kitty error. The one scoring of a hand, whether
    its cards were recorded or its score sheet's row (rules/shengji/sheet.py)."""
    if h.variant.outcome_penalties:
        return _finish_by_outcome(h, trick_points, kitty_points, multiplier)
    defenders = h.defenders
    capture = kitty_points * multiplier
    penalty_points = _penalty_points(h)
    raw = trick_points + capture + penalty_points
    errors = [e["side"] for e in h.follow_errors]
    final, adjustments = scoring.final_points(raw, errors.count(defenders),
                                              errors.count(h.dealer_side), h.kitty_error)
    outcome = scoring.hand_result(final)
    result = {"trick_points": trick_points, "kitty_points": kitty_points,
              "kitty_captured": multiplier > 0, "multiplier": multiplier,
              "kitty_capture": capture, "penalty_points": penalty_points,
              "raw_points": raw, "adjustments": list(adjustments), "final_points": final,
              "result": outcome}
    return evolve(h, phase="completed", result=result)


def _defender_trick_points(h: Hand) -> int:
    """SJ2-11.1 / SJ3-10.1: point cards in the tricks the defenders won."""
    defenders = h.defenders
    return sum(t.points for t in h.tricks if scoring.side_of(t.winner) == defenders)


def _penalty_points(h: Hand) -> int:
    """SJ2-12.1 / SJ3-11.1: against the defenders subtracts from P, against the dealer side adds."""
    defenders = h.defenders
    return sum(p["points"] if p["side"] != defenders else -p["points"] for p in h.penalties)


def _winning_play(trick: Trick) -> tuple[str, ...]:
    return next(cards for seat, cards in trick.plays if seat == trick.winner)


def _capture_multiplier(h: Hand) -> int:
    """SJ3-10.2: only a defender winning the last trick with trump captures (「主牌才可以抠底」),
    multiplied by the type of the winning play's key component — the lead's key component, which
    the winning play was arranged into (SJ3-9.1); 0 when nothing is captured."""
    last = h.tricks[-1]
    play = _winning_play(last)
    if scoring.side_of(last.winner) != h.defenders or not all(map(h.trump.is_trump, play)):
        return 0
    key = shape_of(last.components).units
    return scoring.sj3_kitty_multiplier(*key[0]) if key else scoring.sj3_kitty_multiplier(1, 0)


def offending_sides(h: Hand) -> set[str]:
    """SJ3-11.2 / 11.9: the sides whose established renege or light illicit signals floor the
    outcome."""
    sides = {e["side"] for e in h.follow_errors}
    sides |= {scoring.side_of(i["seat"]) for i in h.irregularities
              if i["rule"] in OUTCOME_IRREGULARITIES}
    return sides


def _finish_by_outcome(h: Hand, trick_points: int, kitty_points: int, multiplier: int) -> Hand:
    """SJ3-10, SJ3-11.2: P = the defenders' trick points + the kitty captured × its multiplier +
    point penalties (no floor); the normal outcome by the table of SJ3-10.3, then the renege
    floors (the hand is scored normally, 「比赛仍需继续（按正常计分法）」)."""
    penalty_points = _penalty_points(h)
    total = trick_points + kitty_points * multiplier + penalty_points
    normal = scoring.outcome(scoring.hand_result(total, h.variant.result_scale))
    offenders = offending_sides(h)
    final, floors = scoring.floored_outcome(normal, h.dealer_side in offenders,
                                            h.defenders in offenders)
    result = {"trick_points": trick_points, "kitty_points": kitty_points,
              "kitty_captured": multiplier > 0, "multiplier": multiplier,
              "kitty_capture": kitty_points * multiplier, "penalty_points": penalty_points,
              "points": total, "normal_outcome": normal, "outcome_floors": floors,
              "final_outcome": final, "result": scoring.result_of(final)}
    return evolve(h, phase="completed", result=result)
