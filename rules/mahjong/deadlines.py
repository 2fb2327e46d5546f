"""The deadlines of a mahjong table (MJO and MJS, :mod:`rules.deadlines`): what the table's
clocks close or report next, derived from the table as folded — the timer only appends the
event when its time comes, and the engine (:mod:`.session`) applies it as it would a
referee's.

* ``ClaimWindowClosed{hand}`` — the open claim window's time is up (MJO-4.5; MJS section 11:
  ``claimWindowSeconds`` after a discard or an added kong). Its time is the engine's own
  (:func:`.session.window_closes`): in MJO the window lasts the next player's ``turnSeconds``
  while he, who may chow, has not answered and no pong has beaten the chow (seeds 六, 八). A
  window every seat has answered has closed by itself (``ClaimsResolved``), so none is pending
  then.
* ``TimeLimitExceeded{hand, seat, limit}`` — the seat on the clock let his limit pass: the
  dealer's first discard (``firstDiscard``: MJO-8.1 30 s from the deal; MJS-10.3 30 s from the
  opening of play) and each discard (``discard``: MJO-8.1 15 s, MJS-10.3 30 s, from the previous
  player's discard, a chow or pong included). In MJO the report is recorded and sanctions
  nothing (MJO-8.2); at a Sichuan table it is a slow-discard warning, and the third warning of a
  hand costs 10 (MJS-10.3, :mod:`.conduct`). Each limit is reported once: MJO's by the reports
  the hand keeps, MJS's by the warnings for the discard (the timer's or the referee's).
  The 3-second pong of MJO-4.2 / 8.1 is not a deadline of its own: the seed's words
  (「碰牌要快，要在3秒之内报出」) make a later pong too late, which the engine refuses
  (``_must_claim_in_time``), and the window closes by its own deadline; a timer report of it
  would tell the table which seat held the pair (hidden information, rules README §5).
* ``TimeLimitReached{limit_minutes}`` — ``sessionMinutes`` after the table started (T-8.2):
  the hand in play is finished, then the session ends.

The play clocks (windows and discards) run in ``strict`` enforcement only: in ``record`` the
recorded times are a scorer's transcription of a physical table, not the table's own — the
engine does not time claims there either — so a timer would close windows the scorer has not
finished typing and report as slow the time he took. The session's length is the organisers'
and runs in both.

All times are match times (the engine's, :mod:`rules.match_clock`). Keys name the occurrence:
``h3/c7/claim`` (hand 3, the window on the 7th discard), ``h3/c7/k1/rob`` (the window on an
added kong, after one kong made), ``h3/c7/s2/discard`` (seat 2's discard after it),
``h3/c0/s0/firstDiscard`` and ``session``. (``c`` counts the hand's discards — and, in a
Sichuan hand, its self-drawn wins, after which the next player's 30 s start, ``HandRecord.clock``.)
"""
from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta

from ..deadlines import Deadline
from ..match_clock import maybe_moment as _moment
from ..messages import Message, Sentence
from ..violations import RuleViolation
from .hand_in_play import must_not_be_warned_for_this_discard, running_limit, window_closes
from .table import SESSION, HandRecord, Table

SEAT_LIMITS = ("firstDiscard", "discard")   # the limits of MJO-8.1 / MJS-10.3 the timer runs


def deadlines(t: Table) -> tuple[Deadline, ...]:
    """The table's pending deadlines, soonest first (a window before a seat's limit due at the
    same moment)."""
    if t.status == "completed":
        return ()
    found = [*_play_clocks(t), *_session_clock(t)]
    return tuple(sorted(found, key=lambda d: d.due))


def _play_clocks(t: Table) -> Iterator[Deadline]:
    rec = t.current
    if rec is None or not t.settings.strict:
        return
    yield from _claim_window(t, rec)
    for limit in SEAT_LIMITS:
        yield from _seat_limit(t, rec, limit)


def _claim_window(t: Table, rec: HandRecord) -> Iterator[Deadline]:
    """MJO-4.5 / MJS section 11: the open window closes at the time the engine gives it."""
    state = rec.state
    closes = window_closes(rec, t.settings)
    if state.phase != "claims" or closes is None:
        return
    w = state.window
    where = f"h{rec.number}/c{rec.clock}"
    if w.robbing:
        key = f"{where}/k{len(state.kongs)}/rob"
        what = Message("the kong of seat {seat}'s {tile}", seat=w.discarder, tile=w.tile)
    else:
        key = f"{where}/claim"
        what = Message("seat {seat}'s {tile}", seat=w.discarder, tile=w.tile)
    yield Deadline(key=key, due=closes, event_type="ClaimWindowClosed",
                   data={"hand": rec.number}, rule=t.settings.rule("claimWindow"),
                   label=Sentence(Message("claim window on {what}", what=what)),
                   started=_moment(rec.window_at))


def _seat_limit(t: Table, rec: HandRecord, limit: str) -> Iterator[Deadline]:
    """MJO-8.1 / MJS-10.3: the limit of the seat on its clock — the dealer's first discard, or
    the seat on turn's discard — unless it does not run now (the engine's own test) or has
    been reported already."""
    state = rec.state
    seat = state.dealer if limit == "firstDiscard" else state.turn
    try:
        since, seconds = running_limit(rec, t.settings, seat, limit)
    except RuleViolation:
        return
    began = _moment(since)
    if began is None or _reported(t, rec, seat, limit, began):
        return
    if limit == "firstDiscard":
        label = Message("seat {seat} to his first discard, the dealer's ({seconds} s)",
                        seat=seat, seconds=seconds)
    else:
        label = Message("seat {seat} to discard ({seconds} s)", seat=seat, seconds=seconds)
    yield Deadline(key=f"h{rec.number}/c{rec.clock}/s{seat}/{limit}",
                   due=began + timedelta(seconds=seconds), event_type="TimeLimitExceeded",
                   data={"hand": rec.number, "seat": seat, "limit": limit},
                   rule=t.settings.rule("timeLimits"), label=Sentence(label), seat=seat,
                   started=began)


def _reported(t: Table, rec: HandRecord, seat: int, limit: str, began: datetime) -> bool:
    """Whether this occurrence of the limit was reported: at a Sichuan table, the seat was
    warned for this discard (by the timer or the referee, MJS-10.3); in MJO, the hand holds a
    report of the limit for the seat made since it began (a report is only accepted once the
    limit has passed, so a later one is of this occurrence)."""
    if t.game == "MJS":
        try:
            must_not_be_warned_for_this_discard(rec, t.settings, seat)
        except RuleViolation:
            return True
        return False
    return any(r["seat"] == seat and r["limit"] == limit and _moment(r["at"]) is not None
               and _moment(r["at"]) >= began for r in rec.time_limits)


def _session_clock(t: Table) -> Iterator[Deadline]:
    """T-8.2: ``sessionMinutes`` after the table started, once."""
    minutes, started = t.settings.sessionMinutes, _moment(t.started_at)
    if minutes is None or started is None or t.time_called is not None:
        return
    yield Deadline(key="session", due=started + timedelta(minutes=minutes),
                   event_type="TimeLimitReached", data={"limit_minutes": minutes}, rule=SESSION,
                   label=Sentence(Message("the session's {minutes} minutes", minutes=minutes)),
                   started=started,
                   whole_match=True)
