"""What decides a 掼蛋 match's levels and its result, beside the hands themselves: the end of a
hand (GD-6: places, upgrade, the A rules), the limits of the match clock (T-5.4, GD-11.2), level
penalties and rulings (GD-9.3, GD-10). :mod:`.match` is the fold step that calls these; its
docstring tells how the clock decides (the seed's words over the spec's Interpretation)."""
from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from ..frozen import evolve
from ..match_clock import maybe_moment as _moment
from ..match_clock import timestamp
from ..messages import N_, Message, Sentence
from ..violations import RuleViolation
from .cards import LEVELS
from .deadlines import limit_due_at, next_limit
from .levels import GDGame, complete_hand, extra_hand_winner, time_limit_result
from .match_state import Deal, GDMatch
from .seats import TEAM_NAMES, is_double_down

SIDES = TEAM_NAMES                  # side "A" = team 0 (seats 0, 2), "B" = team 1 (seats 1, 3)

# why a match was won: plain English (views show it), marked for the catalogues (a refusal
# says it in its reader's language)
REASONS = MappingProxyType({
    "game": N_("played through A (GD-6.3)"),
    "time": N_("the higher level at the time limit (GD-11.2)"),
    "overtime": N_("the higher level after overtime (GD-11.2)"),
    "extraHand": N_("the extra hand: the higher level after it, or at equal levels its first "
                    "player out (GD-11.2)"),
    "disqualified": N_("the other side was disqualified (GD-10.1)"),
})


def must_be_playing(m: GDMatch) -> None:
    if m.status == "completed":
        raise RuleViolation("GD-11.1", "the match is over: side {winner} won, {REASONS}",
                                       winner=m.winner, REASONS=Message(REASONS[m.reason]))


# --- the end of a hand ------------------------------------------------------------------------

def _sides(pair: tuple) -> dict:
    return {SIDES[t]: pair[t] for t in (0, 1)}


def _side(team: int | None) -> str | None:
    return None if team is None else SIDES[team]


def completed(m: GDMatch, d: Deal) -> GDMatch:
    """HandCompleted (derived, GD-6): places, upgrade, levels and the A rules; then pending level
    penalties, and the match's end (GD-6.3, GD-11.2)."""
    order = d.state.order
    before = m.standing
    standing, outcome = complete_hand(before, order, m.settings)
    row = {"hand": d.number, "level": d.state.level, "level_team": _side(d.level_team),
           "extra_hand": d.extra, "tribute": d.state.plan.case,
           "anti_tribute": bool(d.state.anti), "places": list(outcome.places),
           "double_down": is_double_down(order), "winning_team": SIDES[outcome.winning_team],
           "upgrade": outcome.upgrade, "levels_before": _sides(before.levels),
           "levels": _sides(standing.levels), "a_failures": _sides(standing.a_failures),
           "failed_attempt": outcome.failed_attempt, "game_winner": _side(outcome.game_winner)}
    d = evolve(d, result=MappingProxyType(row))
    m = evolve(m, standing=standing, hand=d, finished=m.finished + (d,),
                history=m.history + (d.result,),
                previous_order=tuple(order))
    m = apply_pending_penalties(m)
    if m.standing.winner is not None:
        return won(m, SIDES[m.standing.winner], "game")
    if d.extra:
        return _extra_hand_decides(m, extra_hand_winner(order))
    return m


def won(m: GDMatch, side: str, reason: str) -> GDMatch:
    """MatchCompleted (derived, GD-11)."""
    return evolve(m, status="completed", winner=side, reason=reason)


# --- the clock (T-5.4, GD-11.2) ---------------------------------------------------------------

# next_limit and limit_due_at (when each limit passes) are the deadlines module's

def time_limit(m: GDMatch, data: Mapping, at: str | None = None) -> GDMatch:
    """TimeLimitReached (T-5.4, GD-11.2): the next limit, not before it has passed on the server's
    clock; the levels reached within it decide at once, a hand in play not counting."""
    must_be_playing(m)
    minutes = data["limit_minutes"]
    due = next_limit(m)
    if due is None:
        raise RuleViolation("GD-11.2", "both time limits have passed: one more hand decides the "
                                       "match")
    if minutes != due:
        raise RuleViolation("GD-11.2", "the next time limit is at {due} minutes (matchMinutes "
                                       "{match_minutes}, then overtimeMinutes "
                                       "{overtime_minutes} more), not {minutes}",
                                       due=due, match_minutes=m.settings.match_minutes,
                                       overtime_minutes=m.settings.overtime_minutes,
                                       minutes=minutes)
    ends = limit_due_at(m, minutes)
    if ends is not None and at is not None and _moment(at) < ends:
        raise RuleViolation("GD-11.2", "T-5.4: the {minutes} minutes from the match's start "
                                       "end at {strftime}, not before",
                                       minutes=minutes,
                                       strftime=timestamp(ends))
    in_play = m.hand is not None and m.hand.in_play
    m = evolve(m, limits=m.limits + (MappingProxyType({
        "limit_minutes": minutes, "at": at, "hand": m.hand.number if in_play else None}),))
    return _time_decides(m, minutes)


def _abandoned(m: GDMatch, minutes: int) -> GDMatch:
    """GD-11.2 (seed): a hand in play at a deciding limit was not finished within the time and
    does not count; it ends like a voided hand, and the extra hand is dealt with its number."""
    if m.hand is None or not m.hand.in_play:
        return m
    d = evolve(m.hand, void_reason=Sentence(Message("abandoned at the {minutes}-minute limit "
                                                    "(GD-11.2)", minutes=minutes)))
    return apply_pending_penalties(evolve(m, hand=d, finished=m.finished + (d,)))


def _time_decides(m: GDMatch, minutes: int) -> GDMatch:
    """GD-11.2: the higher level wins at once; equal after the first limit → overtime (a hand in
    play goes on); equal after overtime → one more hand. A level penalty assessed within the
    time counts, though a hand in play has not ended."""
    levels = apply_pending_penalties(m).standing.levels
    result = time_limit_result(levels, overtime=m.clock == "overtime")
    if result == "overtime":
        return evolve(m, clock="overtime")
    m = _abandoned(m, minutes)
    if result == "extraHand":
        return evolve(m, clock="extraHand")
    return won(m, SIDES[result], "time" if m.clock == "regular" else "overtime")


def _extra_hand_decides(m: GDMatch, first_out_team: int) -> GDMatch:
    """GD-11.2: after the extra hand the higher level wins (「以级数领先者取胜」); **Interpretation:**
    still equal (both capped at A) → the team of its first player out."""
    a, b = (LEVELS.index(level) for level in m.standing.levels)
    if a != b:
        return won(m, SIDES[0 if a > b else 1], "extraHand")
    return won(m, SIDES[first_out_team], "extraHand")


# --- rulings and penalties --------------------------------------------------------------------

def level_penalty(m: GDMatch, data: Mapping, at: str | None = None) -> GDMatch:
    """LevelPenaltyAssessed (GD-9.3, GD-10.3): the side's level goes down by ``levels``, never
    below 2; a hand in play keeps the level it is played at, so the penalty applies when it ends.
    A side taken off A starts its failed attempts afresh (GD-6.4)."""
    must_be_playing(m)
    m = pending_penalty(m, data, at)
    if m.hand is None or not m.hand.in_play:
        return apply_pending_penalties(m)
    return m


def pending_penalty(m: GDMatch, data: Mapping, at: str | None = None) -> GDMatch:
    """A level penalty recorded to take effect when the hand in play ends — or, put by a ruling
    into a hand that has ended (T-1.8), when its last event is folded again."""
    levels_must_be_possible(data["levels"])
    entry = {"rule": data["rule"], "side": data["side"], "levels": data["levels"],
             "reason": data.get("reason"), "at": at, "applied_after_hand": None}
    return evolve(m, penalties=m.penalties + (entry,))


def levels_must_be_possible(levels: int) -> None:
    """GD-1.2: the levels run 2 … A, so a penalty lowers a side by 1 to 12 of them."""
    if not 1 <= levels <= len(LEVELS) - 1:
        raise RuleViolation("GD-1.2", "a level penalty lowers a side by 1 to {most} levels (the "
                                      "levels run 2 … A), not {levels}",
                                      most=len(LEVELS) - 1, levels=levels)


def apply_pending_penalties(m: GDMatch) -> GDMatch:
    standing, penalties = m.standing, []
    for entry in m.penalties:
        if entry["applied_after_hand"] is None:
            standing = lowered(standing, SIDES.index(entry["side"]), entry["levels"])
            entry = {**entry, "applied_after_hand": m.hands_played}
        penalties.append(entry)
    return evolve(m, standing=standing, penalties=tuple(penalties))


def lowered(standing: GDGame, team: int, steps: int) -> GDGame:
    level = LEVELS[max(0, LEVELS.index(standing.levels[team]) - steps)]
    levels = list(standing.levels)
    failures = list(standing.a_failures)
    levels[team] = level
    if level != "A":
        failures[team] = 0
    return evolve(standing, levels=tuple(levels), a_failures=tuple(failures))


def ruling(m: GDMatch, data: Mapping, at: str | None = None) -> GDMatch:
    """RulingRecorded on this match (GD-10.3): its words are kept with the match. What it does
    — ``effects``, and a disqualification written as the single ``effect``
    ``{"kind": "disqualify", "side": X}`` (GD-10.1, T-5.6: side X's results cancelled, the
    other side wins), the same ruling as ``effects: [{"kind": "disqualify", "entrant": …}]``
    — is applied by the ruled fold (rules/rulings.py, rules/ruling_effects.py), after the
    match's end too (T-1.8)."""
    entry = MappingProxyType({"text": data["text"], "effect": data.get("effect")})
    return evolve(m, rulings=m.rulings + (entry,))
