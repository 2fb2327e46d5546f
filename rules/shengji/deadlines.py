"""The time rules of a Shengji match that run themselves (rules/deadlines.py): what the timer will
append next, and when, derived from the match's state alone.

- SJ2-4.7: ``DeclarationWindowClosed`` 15 s (``declarationWindowSeconds``) after DealCompleted
  or the last overcall; not while lots between simultaneous declarations are pending (SJ2-4.2).
- SJ3-3.6: ``DeclarationWindowClosed`` at the end of the dealer's 5-second pause after
  DrawingEnded (restarted by counter-reveals only with ``counterRevealRestartsPause``): trump,
  and in a first deal the dealer, are fixed (SJ3-3.7, 4.1).
- SJ3-11.8 / 7.3: ``SJ3TimeLimitExceeded`` when the wait in progress (``hand.waiting_for``)
  overruns — 60 s to bury and lead from KittyTaken, 15 s to lead, 10 s to follow,
  ``throwChoiceSeconds`` to designate — once per wait.
- SJ2-14.4 / SJ3-12.1: ``TimeLimitReached`` at MatchStarted + ``timeLimitMinutes`` (SJ2) or the
  alert at ``alertAtMinute`` (SJ3). The timer knows only this match: it counts from the match's
  own start; the round's one alert for all its tables (``round_started_at``) is the referee's
  (POST …/rounds/{n}/time), and once posted this deadline is gone.
- T-6.6 / SJ3-11.10: ``LatenessLimitReached`` when minute 21 after the start begins (20 minutes
  after MatchStarted, the table's start) for the pairs not known to be seated — recorded seated
  (PairSeated), their lateness counted by the referee, or a hand dealt — forfeiting the round.
  The lower rungs of the ladder (a warning, −20, −30, hand 1 forfeited) need the minute a pair
  sat down, which only the referee counts (LatenessRecorded).

The table's clocks (the window, the pause, the moves) and lateness run in strict mode only: in
record mode the server's clock is the scorer's, not the table's, so the engine does not judge
those times either. The round's time limit counts from MatchStarted in both modes, as the engine
judges it.

Keys name the occurrence: ``h3`` (``h3.1`` for hand 3's second deal after a void), then
``declaration/<bids>`` (the window over that many bids: a bid after a close opens a new one),
``kitty`` (burying and the first lead), ``t<trick>/p<plays>/<kind>``; ``time/<minutes>`` and
``lateness/<sides>`` (``A``, ``B`` or ``A+B``: the pairs it forfeits) for the match.
"""
from __future__ import annotations

from datetime import timedelta
from typing import Iterator

from ..deadlines import Deadline
from ..messages import N_, Message, Sentence
from . import declaring, lateness, tricks
from .hand import Hand
from .match_state import Match

# the games whose seed times each move and counts lateness (seed 004: SJ3-11.8, 7.3; T-6.6)
_MOVE_LIMITS_AND_LATENESS = frozenset({"SJ3"})

# what a table clock shows (a Sentence: said in its reader's language where it is shown)
_MOVE_LABELS = {"kitty": N_("seat {seat} to bury the kitty and lead"),
                "lead": N_("seat {seat} to lead"), "follow": N_("seat {seat} to play"),
                "throwChoice": N_("seat {seat} to designate the play of the failed throw")}


def deadlines(m: Match) -> tuple[Deadline, ...]:
    """The match's pending deadlines (match time), earliest first; none unless it is being
    played, and none in a match recorded from score sheets (``recording: "sheet"``,
    rules/shengji/sheet.py: a sheet is often entered after the round, so the server's clock is
    not the table's; a referee posts the time limit)."""
    if m.status != "playing" or m.settings.by_sheet:
        return ()
    found = list(_time_limit(m))
    if m.settings.strict:
        found += [*_lateness(m), *_hand_clocks(m)]
    return tuple(sorted(found, key=lambda d: (d.due, d.key)))


def _time_limit(m: Match) -> Iterator[Deadline]:
    """SJ2-14.4 / SJ3-12.1: once, from MatchStarted; the match folds the rest (the hand in play
    is finished, then the levels decide)."""
    limit = m.settings.time_limit_minutes
    if limit is None or m.time_called is not None or m.started_at is None:
        return
    label = Sentence(Message("the alert: the hand in play is the last") if m.game == "SJ3"
                     else Message("the round's time limit: the hand in play is the last"))
    yield Deadline(f"time/{limit}", m.started_at + timedelta(minutes=limit), "TimeLimitReached",
                   {"limit_minutes": limit}, m.rule("time"), label, None, m.started_at,
                   whole_match=True)


def _lateness(m: Match) -> Iterator[Deadline]:
    """T-6.6: the pairs not known to be seated forfeit when minute 21 begins."""
    if m.game not in _MOVE_LIMITS_AND_LATENESS or m.started_at is None:
        return
    missing = sorted({"A", "B"} - lateness.seated_sides(m))
    if not missing:
        return
    minute = lateness.FORFEIT_MINUTES
    if len(missing) == 2:
        label = Message("side {a}'s pair and side {b}'s pair not seated: minute {minute} "
                        "forfeits the round", a=missing[0], b=missing[1], minute=minute)
    else:
        label = Message("side {side}'s pair not seated: minute {minute} forfeits the round",
                        side=missing[0], minute=minute)
    yield Deadline(f"lateness/{'+'.join(missing)}", m.started_at + lateness.FORFEIT_AFTER,
                   "LatenessLimitReached", {"sides": missing}, lateness.RULE, Sentence(label),
                   None, m.started_at, whole_match=True)


def _hand_clocks(m: Match) -> Iterator[Deadline]:
    h = m.hand
    if h is None or not h.in_play:
        return
    key = _hand_key(m, h)
    yield from _window(h, key)
    if m.game in _MOVE_LIMITS_AND_LATENESS:
        yield from _move(h, key)


def _hand_key(m: Match, h: Hand) -> str:
    """``h<n>``, or ``h<n>.<k>`` for the deal after k voided deals of hand n."""
    voided = sum(1 for f in m.finished if f.number == h.number and f.phase == "voided")
    return f"h{h.number}.{voided}" if voided else f"h{h.number}"


def _window(h: Hand, key: str) -> Iterator[Deadline]:
    """SJ2-4.7 / SJ3-3.6: the window in progress, from the end of the deal."""
    b = h.bidding
    if h.phase != "declaring" or b.closed or declaring.lots_pending(b):
        return
    due = declaring.deadline(b)
    if due is None:
        return
    reveals = h.variant.reveals_by_count
    started = max(b.deal_completed_at, b.last_accepted_at or b.deal_completed_at)
    yield Deadline(f"{key}/declaration/{len(b.history)}", due, "DeclarationWindowClosed",
                   {"hand": h.number}, "SJ3-3.6" if reveals else "SJ2-4.7",
                   Sentence(Message("the dealer's pause after drawing") if reveals
                            else Message("the declaration window")),
                   None, started)


def _move(h: Hand, key: str) -> Iterator[Deadline]:
    """SJ3-11.8 / 7.3: the wait in progress, reported once (a second report of the same wait is
    refused: the referee has been called)."""
    waiting = tricks.waiting_for(h)
    if waiting is None or h.clock is None or h.overrun_at == h.clock:
        return
    kind, seat, seconds = waiting
    yield Deadline(f"{key}/{_occurrence(h, kind)}", h.clock + timedelta(seconds=seconds),
                   "SJ3TimeLimitExceeded",
                   {"hand": h.number, "seat": seat, "kind": kind},
                   "SJ3-7.3" if kind == "throwChoice" else "SJ3-11.8",
                   Sentence(Message(_MOVE_LABELS[kind], seat=seat)), seat, h.clock)


def _occurrence(h: Hand, kind: str) -> str:
    if kind == "kitty":
        return "kitty"
    trick = h.trick.number if h.trick is not None else len(h.tricks) + 1
    plays = len(h.trick.plays) if h.trick is not None else 0
    return f"t{trick}/p{plays}/{kind}"
