"""The time rules of a 掼蛋 match as deadlines (rules/deadlines.py): the waits of GD-9 and the
match's time limits of GD-11.2 / T-5.4.

**GD-9 (seed 001 「出牌时间规则」).** 「进贡者应在抓完牌后 20 秒内贡牌，还牌者须在贡牌后 40 秒内还牌。
首圈领出者应在还牌后 40 秒内领出牌，下家应在上家出牌后 20 秒内出牌。」 A wait is one seat's time
for one move, ``kind`` (``procedure.TIME_LIMITS``):

- ``tribute`` (GD-9.1): each payer, 20 s from the deal (the end of drawing) — his partner's
  payment does not restart it;
- ``return`` (GD-9.1): each receiver, 40 s from the moment the tributes are handed over (the
  last tribute, or the winners' choice of assignment, GD-7.3);
- ``firstLead`` (GD-9.2): the first leader, 40 s from the last return — with no tribute (hand 1,
  no tribute case, anti-tribute) from the moment play begins (Interpretation);
- ``play`` (GD-9.2): every later turn, a lead after a trick included, 20 s from the previous
  play or pass.

The winners' choice of an equal assignment (GD-7.3, ``winnersChoose``) has no limit in the seed
and runs no wait. A wait's clock is the recorded (match) time of the event that started it,
kept in the hand as ``Deal.clock`` (:func:`restarts_clock` says which events start one).

**The timer's report** is ``GDTimeLimitExceeded{hand, seat, kind}`` (:func:`overrun`): only a
true one — the seat and kind of a wait in progress, not before its limit, once per wait. It is
recorded in the hand; the consequence is the committee's (GD-9.3: ``LevelPenaltyAssessed``),
except that with ``autoPassOnTimeout`` an overrun play turn is a pass where a pass is legal (not
at a lead, GD-5.2). An overrun wait without consequence goes on: the seat still owes the move.

**GD-11.2 / T-5.4.** ``TimeLimitReached{limit_minutes}`` at ``matchMinutes`` after
``MatchStarted``, and after equal levels at ``matchMinutes + overtimeMinutes``
(:func:`next_limit`, :func:`limit_due_at`); the engine (match.py) decides what it does.

The match's state is :mod:`.match_state`'s, which the fold step (match.py) moves.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from types import MappingProxyType

from ..deadlines import Deadline
from ..match_clock import moment, timestamp
from ..messages import N_, Message, Sentence
from ..violations import RuleViolation
from .hand import PLAY, RETURN, TRIBUTE, GDHand
from .match_state import Deal, GDMatch
from .procedure import TIME_LIMITS

OVERRUN_EVENT = "GDTimeLimitExceeded"
LIMIT_EVENT = "TimeLimitReached"
KINDS = tuple(TIME_LIMITS)          # tribute, return, firstLead, play
RULES: Mapping[str, str] = MappingProxyType({"tribute": "GD-9.1", "return": "GD-9.1",
                                             "firstLead": "GD-9.2", "play": "GD-9.2"})
# what a table clock shows a seat waited for (a Sentence: said in its reader's language)
_MOVES = {"tribute": N_("seat {seat} to pay tribute"),
          "return": N_("seat {seat} to return a card"),
          "firstLead": N_("seat {seat} to lead first"),
          "play": N_("seat {seat} to play or pass")}


@dataclass(frozen=True)
class Wait:
    """One seat's time for one move (GD-9): ``occurrence`` names it within its deal (the same
    wait, the same name, however often it is derived); ``since`` is None in a match folded
    without times."""
    kind: str
    seat: int
    occurrence: str
    since: datetime | None
    lead: bool = False      # a lead: nobody can pass it (GD-5.2)

    @property
    def rule(self) -> str:
        return RULES[self.kind]

    @property
    def seconds(self) -> int:
        return TIME_LIMITS[self.kind]

    @property
    def due(self) -> datetime | None:
        return None if self.since is None else self.since + timedelta(seconds=self.seconds)

    @property
    def label(self) -> Sentence:
        if self.kind == "play" and self.lead:
            return Sentence(Message("seat {seat} to lead", seat=self.seat))
        return Sentence(Message(_MOVES[self.kind], seat=self.seat))


# --- the waits of a hand (GD-9.1, 9.2) --------------------------------------------------------

def restarts_clock(before: GDHand, after: GDHand) -> bool:
    """Whether a step of the hand starts new waits: a new stage (tribute → return → play; the
    anti-tribute shown), and in play every play and pass (「下家应在上家出牌后 20 秒内出牌」).
    A payment or a return leaves the partner's wait running from where it started."""
    return after.phase != before.phase or after.phase == PLAY


def actions(d: Deal) -> int:
    """The plays and passes of the deal so far: the ordinal that names a play turn."""
    done = sum(len(t["plays"]) for t in d.tricks)
    return done + (len(d.trick["plays"]) if d.trick is not None else 0)


def waits(d: Deal) -> tuple[Wait, ...]:
    """GD-9.1/9.2: every wait in progress in the deal (none once it has ended, between the deal
    and a stage the seed gives no limit, or while the winners choose an assignment)."""
    if not d.in_play:
        return ()
    h, since = d.state, None if d.clock is None else moment(d.clock)
    if h.phase == TRIBUTE:
        if len(h.paid) == len(h.plan.payers):   # GD-7.3: the winners' choice, untimed
            return ()
        return tuple(Wait("tribute", s, f"tribute/s{s}", since)
                     for s in h.plan.payers if s not in h.paid)
    if h.phase == RETURN:
        return tuple(Wait("return", r, f"return/s{r}", since)
                     for _, r in sorted(h.assigned.items()) if r not in h.returned)
    if h.phase == PLAY:
        seat = h.turn
        if h.plays == 0:
            return (Wait("firstLead", seat, f"firstLead/s{seat}", since, lead=True),)
        return (Wait("play", seat, f"a{actions(d)}/play/s{seat}", since, lead=h.trick.is_lead),)
    return ()


def reported(d: Deal, wait: Wait) -> bool:
    """Once per wait: its overrun is already in the hand's record."""
    return any(entry["wait"] == wait.occurrence for entry in d.overruns)


def _describe(found: tuple[Wait, ...]) -> Message:
    """The waits in progress, for a refused report."""
    if not found:
        return Message("nobody is being waited for")
    waits = Message("seat {seat}'s {kind}", seat=found[0].seat, kind=found[0].kind)
    for w in found[1:]:
        waits = Message("{waits}, {wait}", waits=waits,
                        wait=Message("seat {seat}'s {kind}", seat=w.seat, kind=w.kind))
    return Message("the time running is {waits}", waits=waits)


# a report before the limit: the seat's time, by the kind of its move (_MOVES)
_NOT_YET = {"tribute": N_("seat {seat} has {seconds} s to pay tribute, until {timestamp}"),
            "return": N_("seat {seat} has {seconds} s to return a card, until {timestamp}"),
            "firstLead": N_("seat {seat} has {seconds} s to lead first, until {timestamp}"),
            "play": N_("seat {seat} has {seconds} s to play or pass, until {timestamp}")}


def overrun(d: Deal, data: Mapping, at: str | None) -> Mapping:
    """``GDTimeLimitExceeded`` (GD-9): the record of a true report — the seat and kind of a wait
    in progress, once, and not before its limit (in match time; a match folded without times is
    not timed) — with its consequence (GD-9.3): ``"pass"`` when ``autoPassOnTimeout`` makes the
    overrun play turn a pass (never at a lead, GD-5.2), else None (the committee's)."""
    kind, seat = data["kind"], data["seat"]
    rule = RULES[kind]
    found = waits(d)
    wait = next((w for w in found if (w.kind, w.seat) == (kind, seat)), None)
    if wait is None:
        raise RuleViolation(rule, "seat {seat} has no {kind} time running in hand {number}: "
                                  "{describe}",
                                  seat=seat, kind=kind, number=d.number,
                                  describe=_describe(found))
    if reported(d, wait):
        raise RuleViolation(rule, "seat {seat}'s overrun of this {kind} has already been "
                                  "recorded",
                                  seat=seat, kind=kind)
    if at is not None and wait.due is not None and moment(at) < wait.due:
        raise RuleViolation(rule, Message(_NOT_YET[kind], seat=seat, seconds=wait.seconds,
                                          timestamp=timestamp(wait.due)))
    auto_pass = d.state.settings.auto_pass_on_timeout and kind == "play" and not wait.lead
    return MappingProxyType({
        "seat": seat, "kind": kind, "rule": rule, "wait": wait.occurrence,
        "started": None if wait.since is None else timestamp(wait.since),
        "due": None if wait.due is None else timestamp(wait.due), "at": at,
        "consequence": "pass" if auto_pass else None})


def _deal_key(m: GDMatch, d: Deal) -> str:
    """The deal's part of a key: ``h3``, and ``h3r1`` for hand 3 dealt again after a void."""
    redeals = sum(1 for f in m.finished if f.number == d.number and f.void_reason is not None)
    return f"h{d.number}" + (f"r{redeals}" if redeals else "")


def hand_deadlines(m: GDMatch) -> tuple[Deadline, ...]:
    """The GD-9 waits of the hand in play not yet reported, each the timer's
    ``GDTimeLimitExceeded`` at its limit."""
    d = m.hand
    if d is None or not d.in_play:
        return ()
    prefix = _deal_key(m, d)
    return tuple(Deadline(key=f"{prefix}/{w.occurrence}", due=w.due, event_type=OVERRUN_EVENT,
                          data={"hand": d.number, "seat": w.seat, "kind": w.kind},
                          rule=w.rule, label=w.label, seat=w.seat, started=w.since)
                 for w in waits(d) if w.due is not None and not reported(d, w))


# --- the match's time limits (GD-11.2, T-5.4) -------------------------------------------------

def next_limit(m: GDMatch) -> int | None:
    """GD-11.2: the minutes of the next time limit: matchMinutes, then (after equal levels)
    matchMinutes + overtimeMinutes; None once both have passed."""
    if m.clock == "regular" and not m.limits:
        return m.settings.match_minutes
    if m.clock == "overtime" and len(m.limits) == 1:
        return m.settings.match_minutes + m.settings.overtime_minutes
    return None


def limit_due_at(m: GDMatch, minutes: int) -> datetime | None:
    """T-5.4: the (match) time at which the ``minutes`` limit passes: the match's start (its
    ``MatchStarted`` recorded time) plus the minutes; None for a match folded without times."""
    return None if m.started_at is None else moment(m.started_at) + timedelta(minutes=minutes)


def limit_deadlines(m: GDMatch) -> tuple[Deadline, ...]:
    """The next limit of GD-11.2 as the timer's ``TimeLimitReached``."""
    minutes = next_limit(m) if m.status == "playing" else None
    due = None if minutes is None else limit_due_at(m, minutes)
    if due is None:
        return ()
    if minutes == m.settings.match_minutes:
        label = Message("end of the match time ({minutes} minutes)", minutes=minutes)
    else:
        label = Message("end of overtime ({minutes} minutes)", minutes=minutes)
    return (Deadline(key=f"limit/{minutes}", due=due, event_type=LIMIT_EVENT,
                     data={"limit_minutes": minutes}, rule="GD-11.2", label=Sentence(label),
                     seat=None,
                     started=moment(m.started_at), whole_match=True),)


def deadlines(m: GDMatch) -> tuple[Deadline, ...]:
    """rules.deadlines: every pending time rule of the match, in match time — the next limit
    of GD-11.2, then the GD-9 waits of the hand in play. None in a match recorded from score
    sheets (``recording: "sheet"``, rules/guandan/sheet.py): the server's clock is not the
    table's there, and a referee posts the time limits."""
    if m.status != "playing" or m.settings.by_sheet:
        return ()
    return limit_deadlines(m) + hand_deadlines(m)
