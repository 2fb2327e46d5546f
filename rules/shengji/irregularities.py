"""Penalties, irregularities and voiding in a Shengji hand (SJ2-12; SJ3-11): PenaltyAssessed,
IrregularityReported with the consequence the engine applies, and HandVoided."""
from __future__ import annotations

from typing import Mapping

from ..frozen import evolve
from ..messages import Message, Sentence, sentence
from ..violations import RuleViolation
from . import scoring
from .hand import PHASES, POINTS_PENALTY, Hand, in_phase


def assess_penalty(h: Hand, data: Mapping) -> Hand:
    """PenaltyAssessed by a referee: N points against a side (SJ2-12.1, SJ3-11.1)."""
    in_phase(h, Message("a penalty"), *PHASES[:6])
    return add_penalty(h, data["rule"], data["side"], data["points"], "referee",
                       data.get("reason"))


def add_penalty(h: Hand, rule: str, side: str, amount: int, source: str,
                reason: Message | str | None) -> Hand:
    """A point penalty against ``side`` in this hand (SJ2-12.1, SJ3-11.1)."""
    penalty = {"rule": rule, "side": side, "points": amount,
               "trick": len(h.tricks) + (h.trick is not None), "source": source,
               "reason": sentence(reason)}
    return evolve(h, penalties=h.penalties + (penalty,))


# SJ3 irregularities with a fixed consequence (SJ3-11): -20 points, or the outcome floor
_POINTS_IRREGULARITIES = ("SJ3-11.5", "SJ3-11.7")   # exposed card, out-of-turn play


OUTCOME_IRREGULARITIES = ("SJ3-11.9",)              # light illicit signals


def report_irregularity(h: Hand, data: Mapping) -> Hand:
    """IrregularityReported: recorded with the hand. SJ2: a kitty error (SJ2-12.3) also sets the
    end-of-hand adjustment — only in record mode, since in strict mode the kitty is checked when
    it is buried; communication (SJ2-12.7) is left to the committee. SJ3 (in both modes: the
    referee saw it): an exposed card (SJ3-11.5) or an out-of-turn play (SJ3-11.7) costs 20
    points; light illicit signals (SJ3-11.9) put the offender's outcome floor on the hand; a card
    count mismatch (SJ3-11.6) stops the hand."""
    in_phase(h, Message("an irregularity"), *PHASES[:6])
    rule = data["rule"]
    if h.variant.outcome_penalties:
        return _sj3_irregularity(h, data)
    if rule == "SJ2-12.3" and h.settings.strict:
        raise RuleViolation("SJ2-12.3", "in strict mode the kitty is checked when it is buried; "
                                        "a kitty error cannot arise")
    if rule == "SJ2-12.3" and h.phase not in ("correcting_kitty", "playing"):
        raise RuleViolation("SJ2-12.3", "a kitty error is found in a buried kitty; this hand's "
                                        "kitty has not been buried yet")
    entry = {"rule": rule, "seat": data.get("seat"), "detail": data["detail"]}
    return evolve(h, irregularities=h.irregularities + (entry,),
                   kitty_error=h.kitty_error or rule == "SJ2-12.3")


# SJ3-13 row 13: the irregularities a referee reports, each with the consequence the engine
# applies (a deal handed over, SJ3-4.3, is recorded by KittyTaken; a renege, SJ3-11.2, is derived;
# time, SJ3-11.8, is the timer's SJ3TimeLimitExceeded; a disqualification a RulingRecorded)
_SJ3_REPORTED = tuple(sorted(_POINTS_IRREGULARITIES + ("SJ3-11.6",) + OUTCOME_IRREGULARITIES))


def _sj3_irregularity(h: Hand, data: Mapping) -> Hand:
    rule, seat = data["rule"], data.get("seat")
    if rule == "SJ3-4.3":
        raise RuleViolation("SJ3-4.3", "a deal handed over is established by KittyTaken with the "
                                       "seat that took the kitty")
    if rule not in _SJ3_REPORTED:
        raise RuleViolation("SJ3-13", "{rule_} is not an irregularity a referee reports in "
                                      "SJ3: IrregularityReported is for {SJ3_REPORTED} "
                                      "(exposed card, card count mismatch, out-of-turn play, "
                                      "light illicit signals); other rulings are "
                                      "RulingRecorded or PenaltyAssessed",
                                      rule_=rule, SJ3_REPORTED=', '.join(_SJ3_REPORTED))
    if "seat" in data and "seats" in data:
        raise RuleViolation(rule, "name the seat at fault (seat) or, for a card count "
                                  "mismatch, the seats whose count is wrong (seats), not both")
    if rule == "SJ3-11.6":
        return count_mismatch(h, data)
    if "seats" in data:
        raise RuleViolation(rule, "an irregularity of {rule_} names the one seat that "
                                  "committed it (seat); seats are for a card count mismatch "
                                  "(SJ3-11.6)",
                                  rule_=rule)
    if seat is None:
        raise RuleViolation(rule, "an irregularity of {rule_} names the seat that committed it",
                                  rule_=rule)
    entry = {"rule": rule, "seat": seat, "detail": data["detail"]}
    h = evolve(h, irregularities=h.irregularities + (entry,))
    if rule in _POINTS_IRREGULARITIES:
        reason = Message("seat {seat} exposed a card", seat=seat) if rule == "SJ3-11.5" else \
            Message("seat {seat} played out of turn", seat=seat)
        h = add_penalty(h, rule, scoring.side_of(seat), POINTS_PENALTY, "engine", reason)
    return h


def count_mismatch(h: Hand, data: Mapping) -> Hand:
    """SJ3-11.6 (「牌张数目不符，当比赛中途发现某家牌张数目不符，无错方升级。如双方均错，则重新该局比赛」):
    the hand stops; the side without fault levels up (**Interpretation:** +1 — dealer side at
    fault: the defenders take the deal and +1; defenders at fault: the dealer side +1); both at
    fault: the hand is void and dealt again, dealer and levels kept. **Interpretation:** in a
    first deal before the reveals have made a dealer there is no dealer side to level, so the
    deal is void and dealt again too. ``seats`` (or ``seat``) are the players whose count is
    wrong."""
    seats = sorted(set(data.get("seats") or ([data["seat"]] if data.get("seat") is not None else [])))
    if not seats:
        raise RuleViolation("SJ3-11.6", "a card count mismatch names the seat(s) whose count is "
                                        "wrong")
    entry = {"rule": "SJ3-11.6", "seat": seats[0] if len(seats) == 1 else None, "seats": seats,
             "detail": data["detail"]}
    h = evolve(h, irregularities=h.irregularities + (entry,))
    at_fault = sorted({scoring.side_of(s) for s in seats})
    if len(at_fault) == 2:
        return evolve(h, phase="voided",
                      void_reason=Sentence(Message("SJ3-11.6: both sides' card counts are "
                                                   "wrong")))
    if h.dealer is None:
        return evolve(h, phase="voided",
                      void_reason=Sentence(Message("SJ3-11.6: a card count is wrong before the "
                                                   "first dealer is known")))
    faultless = scoring.other_side(at_fault[0])
    result = {"ended": "countMismatch", "rule": "SJ3-11.6", "sides_at_fault": at_fault,
              "faultless_side": faultless}
    final = 1 if faultless == h.dealer_side else -1
    return evolve(h, phase="completed", result={**result, "final_outcome": final,
                                                 "result": scoring.result_of(final)})


def void(h: Hand, data: Mapping) -> Hand:
    """HandVoided by a referee: the hand does not count and is dealt again."""
    in_phase(h, "HandVoided", *PHASES[:6])
    return evolve(h, phase="voided", void_reason=data["reason"])
