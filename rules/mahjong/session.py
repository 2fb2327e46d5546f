"""A mahjong table's session, event by event: the first dealer by dice, hands one after
another, the rotation of the deal and the rounds of winds, each hand's payments and the running
balances, and the end of the session (mahjong-ottawa.md MJO-2, MJO-7, section 10; tournaments.md
T-8) — MJO's coins, or the Sichuan game's points (mahjong-sichuan.md, MJS; T-7), whose tables
add 换三张 and the void suits before play (:mod:`.opening`), the referee's penalties
(:mod:`.conduct`), payments priced by :mod:`.sichuan`, and in the final the extra hands that
order tied players (T-7.4).

:func:`apply` is the fold step of a table's match stream — ``(table, event type, data,
recorded_at)`` → the next :class:`Table`, or :class:`RuleViolation` naming the rule. The hand
itself is judged by :mod:`.hand` and its phase modules; the table's state and start are
:mod:`.table`, the dice and deals before each hand :mod:`.table_deal`, the events of the hand in
play :mod:`.hand_in_play`; together they add what lies around the hand:

* which hand an event is for (every hand event names it; ``MJO-10``, the lifecycle table);
* the derived facts, applied as soon as they follow: ``ClaimsResolved`` once the claim window is
  decided (MJO-4.5), ``DrawGame`` once the wall is exhausted and nobody can win (MJO-6), and
  ``HandCompleted`` — payments, balances, the next dealer (MJO-7.2, MJO-2.2) — once the hand is
  over; ``SessionCompleted`` after ``sessionHands`` hands, ``sessionRounds`` rounds, or the
  hand in play when the timer posted ``TimeLimitReached`` (T-8.2);
* time, measured on the recorded times of the events, the only clock the rules know: each claim
  kind has its own time after the discard (the seed over MJO-4.5: a pong within
  ``claimWindowSeconds``, a chow within the next player's ``turnSeconds``, a win while the window
  lasts); a ``TimeLimitExceeded`` is recorded only once its limit has passed (MJO-8.1), and
  ``TimeLimitReached`` only ``sessionMinutes`` after the table started (T-8.2).

Enforcement (README §5): ``strict`` refuses what breaks a "must" rule. ``record`` transcribes a
physical table: a win on a hand that is not one waits for the referee (MJO-5.6), and the next
move of play (a draw or a discard) also shows a claim window closed. In both, a window opens
after every discard (and added kong) and stays open until every other seat still in has
answered, a claim made can no longer be beaten, or the timer closes it — never because of what
the seats' tiles allow, which the table does not see.
"""
from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta

from ..violations import RuleViolation
from ..frozen import evolve
from ..match_clock import maybe_moment as _moment
from ..match_clock import timestamp
from . import opening, sichuan
from .actions import due_engine_event
from .claiming import resolve_claims
from .claims import window_decided
from .hand import Hand
from .hand_in_play import _HAND_EVENTS, _NOT_AT, current_hand
from .mjo import complete_hand, hand_outcome, rank_by_coins
from .mjo import session_over as session_limit_reached
# TEAM_KEYS, check_settings and seat_players are this engine's for rules.matches and the service
from .table import (  # noqa: F401
    LIFECYCLE,
    PODIUM,
    SESSION,
    TEAM_KEYS,
    HandRecord,
    Table,
    _must_be_open,
    check_settings,
    seat_players,
    start,
)
# still_rolling: the dice rounds the tests read from the session
from .table_deal import (  # noqa: F401
    deal,
    roll_for_first_dealer,
    roll_to_break_the_wall,
    still_rolling,
)
from .wall import SEATS
from .wins_and_kongs import exhaustive_draw, rule_on_win


# --- derived facts ---------------------------------------------------------------------------

def _derived(state: Hand) -> Hand:
    """Apply the derived facts that follow: ``ClaimsResolved`` once every other seat still in
    has answered the window, or a claim made can no longer be beaten by any claim the others
    could make whatever their tiles (MJO-4.5; in both enforcements, so that neither silence
    nor what a hand holds closes a window, and typing order decides nothing) — and
    ``DrawGame``."""
    while not state.over:
        if state.phase == "claims":
            if not window_decided(state.window, state.settings):
                return state
            state = resolve_claims(state, {})
        elif due_engine_event(state) == "DrawGame":
            state = exhaustive_draw(state, {})
        else:
            return state
    return state


def with_hand(t: Table, rec: HandRecord) -> Table:
    """The table after its hand changed: the derived facts that follow, and a finished hand's
    outcome — payments, balances, the next dealer (the derived ``HandCompleted``, MJO-7.2,
    MJO-2.2) — which may end the session (T-8.2)."""
    state = _derived(rec.state)
    window_at = rec.window_at if state.phase == "claims" else None
    if state is not rec.state or window_at is not rec.window_at:  # else the record stands as is
        rec = evolve(rec, state=state, window_at=window_at)
    if not state.over:
        return evolve(t, current=rec)
    if t.game == "MJS":
        outcome = sichuan.hand_outcome(t.session, state, rec.tiebreak)
    else:
        outcome = hand_outcome(t.session, state)
    session = complete_hand(t.session, state, outcome)
    t = evolve(t, session=session, current=None,
                finished=t.finished + (evolve(rec, outcome=outcome),))
    return maybe_completed(t)


def podium_tie(t: Table) -> bool:
    """T-7.4: whether two players of the final share a place among the first three, by score
    and then by their results in the extra hands played so far."""
    return any(s.tied and s.place <= PODIUM for s in ranking(t))


def maybe_completed(t: Table) -> Table:
    """T-8.2: between hands the session ends after its hands or rounds, or once the timer has
    called time (the hand in play was finished first) — except that the final goes on with an
    extra hand while players tie for a podium place (T-7.4)."""
    if t.current is not None:
        return t
    if t.time_called is not None or (t.session is not None and session_limit_reached(t.session)):
        if t.settings.final and podium_tie(t):
            return t
        return evolve(t, status="completed")
    return t


# --- events of the table ----------------------------------------------------------------------

def roll_dice(t: Table, data: Mapping, at: str | None) -> Table:
    """``DiceRolled``: for the first dealer (MJO-2.1, MJS-1.3), to break the wall (MJO-2.3;
    MJS deals from a dealing machine, MJS-1.2) or for 换三张 (MJS-2.1)."""
    purpose = data["purpose"]
    if purpose == "firstDealer":
        _must_be_open(t)
        return roll_for_first_dealer(t, data)
    if purpose == "wallBreak" and t.game == "MJO":
        return roll_to_break_the_wall(t, data)
    if purpose == "exchange" and t.game == "MJS":
        rec = current_hand(t, data["hand"])
        return with_hand(t, evolve(rec, state=opening.roll_exchange(rec.state, data)))
    raise RuleViolation(t.rule("lifecycle"), "dice are not rolled for {purpose} at a {game} "
                                             "table",
                                             purpose=purpose, game=t.game)


def time_limit(t: Table, data: Mapping, at: str | None) -> Table:
    """``TimeLimitReached`` (T-8.2): the session's time is up; the hand in play is finished,
    then the session ends. Only with ``sessionMinutes`` set, naming it, once, and not before
    it has passed since the table started (the recorded times; compare SJ2-14.4)."""
    _must_be_open(t)
    limit = t.settings.sessionMinutes
    if limit is None or data["limit_minutes"] != limit:
        if not limit:
            raise RuleViolation(SESSION, "this session has no time limit (sessionMinutes)")
        raise RuleViolation(SESSION, "this session's time limit is {limit} minutes", limit=limit)
    if t.time_called is not None:
        raise RuleViolation(SESSION, "the session's time limit has already been reached")
    started, now = _moment(t.started_at), _moment(at)
    ends = None if started is None else started + timedelta(minutes=limit)
    if ends is not None and now is not None and now < ends:
        raise RuleViolation(SESSION, "the {limit} minutes end at {iso}, not before",
                                     limit=limit, iso=timestamp(ends))
    return maybe_completed(evolve(t, time_called=limit))


def penalise(t: Table, data: Mapping, at: str | None) -> Table:
    """``CoinPenaltyAssessed`` (MJO-9.3: the committee rules; a Sichuan table has its own
    penalty events, MJS-9, 10): the seat pays ``coins`` to each payee, or loses them; balances
    may go negative (MJO-7.3)."""
    rule = "MJO-9.3"
    if t.status == "completed":
        # The session's coins are its result; what follows is the committee's (T-1.5).
        raise RuleViolation("T-1.5", "the session is over after {hands_played} hand(s): no "
                                     "penalty is assessed at the table any more; the committee "
                                     "rules (RulingRecorded)",
                                     hands_played=t.hands_played)
    if t.session is None:
        raise RuleViolation(rule, "the session has not begun: there are no balances to "
                                  "penalise yet")
    number = data.get("hand")
    if number is not None and t.hand_number(number) is None:
        raise RuleViolation(t.rule("lifecycle"), "hand {number} has not been dealt",
                                                 number=number)
    seat, coins, payees = data["seat"], data["coins"], list(data.get("payees") or ())
    if seat in payees or len(set(payees)) != len(payees):
        raise RuleViolation(rule, "the payees are other seats than the penalised one, each once")
    deltas = [0] * SEATS
    deltas[seat] -= coins * max(len(payees), 1)
    for payee in payees:
        deltas[payee] += coins
    balances = tuple(b + d for b, d in zip(t.session.balances, deltas, strict=True))
    entry = {"hand": number, "rule": data["rule"], "seat": seat, "coins": coins,
             "payees": payees, "reason": data.get("reason"), "deltas": deltas,
             "balances": list(balances)}
    t = evolve(t, session=evolve(t.session, balances=balances),
                penalties=t.penalties + (entry,))
    if t.current is None:
        return t
    # Kept with the hand in play too: its result row must explain every coin (balances_before
    # + payments + these penalties = balances).
    return evolve(t, current=evolve(t.current, penalties=t.current.penalties + (entry,)))


def record_ruling(t: Table, data: Mapping, at: str | None) -> Table:
    """``RulingRecorded`` on the table (MJO-9.3). With ``effect.winValid`` it rules on a win
    waiting for the referee (MJO-5.6, record enforcement): true lets it stand, false withdraws
    it."""
    effect = data.get("effect") or {}
    t = evolve(t, rulings=t.rulings + ({"text": data["text"], "effect": data.get("effect")},))
    if "winValid" not in effect:
        return t
    rule = t.settings.rule("falseWin")
    rec = t.current
    if rec is None or rec.state.phase != "ruling":
        raise RuleViolation(rule, "no win is waiting for a ruling")
    if effect.get("hand", rec.number) != rec.number:
        raise RuleViolation(t.rule("lifecycle"), "the win waiting for a ruling is in hand "
                                                 "{number}",
                                                 number=rec.number)
    return with_hand(t, evolve(rec, state=rule_on_win(rec.state, {"winValid": effect["winValid"]})))


_TABLE_EVENTS = {
    "DiceRolled": roll_dice,
    "TilesDealt": deal,
    "TimeLimitReached": time_limit,
    "CoinPenaltyAssessed": penalise,
    "RulingRecorded": record_ruling,
}


def apply(t: Table | None, event_type: str, data: dict, at: str | None = None) -> Table:
    """The next state of a table's stream after one event recorded at ``at``."""
    if event_type == "MatchStarted":
        if t is not None:
            raise RuleViolation(LIFECYCLE, "the table has already started")
        return start(data, at)
    if t is None:
        raise RuleViolation(LIFECYCLE, "the table has not started (MatchStarted comes first)")
    if event_type in _NOT_AT.get(t.game, ()):
        raise RuleViolation(t.rule("lifecycle"), "{event_type} is not an event of a {game} "
                                                 "table",
                                                 event_type=event_type, game=t.game)
    if event_type in _TABLE_EVENTS:
        return _TABLE_EVENTS[event_type](t, data, at)
    if event_type == "LotsDrawn":
        raise RuleViolation("T-1.4", "lots for {purpose} are not drawn at a {game} table: the "
                                     "first dealer is rolled for with dice (MJO-2.1)",
                                     purpose=data['purpose'], game=t.game)
    step = _HAND_EVENTS.get(event_type)
    if step is None:
        raise RuleViolation(t.rule("lifecycle"), "{event_type} is not an event of a {game} "
                                                 "table",
                                                 event_type=event_type, game=t.game)
    rec = current_hand(t, data["hand"])
    return with_hand(t, step(rec, t, data, at))


def ranking(t: Table) -> tuple:
    """MJO-7.4: the table's players (their entrants) by coins, most first; equal balances share
    a place — in the final of the Sichuan event, unless the extra hands order them (T-7.4)."""
    breaks = dict(zip((t.entrant(s) for s in range(SEATS)), t.tiebreaks, strict=True))
    return rank_by_coins({t.entrant(s): b for s, b in enumerate(t.balances)}, tiebreaks=breaks)


def deadlines(t: Table) -> tuple:
    """The table's pending deadlines (``rules.deadlines``): its claim window, the time limit
    of the seat on the clock and the session's time (:mod:`.deadlines`, which reads this
    module's times, hence imported here when asked)."""
    from .deadlines import deadlines as pending
    return pending(t)
