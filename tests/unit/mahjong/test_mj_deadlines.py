"""The deadlines of a mahjong table (rules/mahjong/deadlines.py through ``rules.matches``): the
claim window (MJO-4.5, MJS section 11), the seat's discard clock (MJO-8.1 30 s / 15 s, MJS-10.3
30 s) and the session's minutes (T-8.2), on the match fold itself (no HTTP, no scheduler).

The invariant of every deadline: its event is accepted by the fold at its due time and refused
one microsecond earlier with the deadline's rule, and once it has been applied the deadline is
no longer pending. It is checked on chosen positions and, bounded by size (fixed seeds, fixed
numbers of hands), at every step of tables played by the simulator's bots whose moves come at
random delays — so that windows close and discards overrun by the timer — with the match clock
now and then paused by the referee.
"""
from __future__ import annotations

import random
from collections import Counter
from datetime import datetime, timedelta, timezone

import pytest
from deadline_checks import FoldedMatch, check_deadlines
from mj_states import filled_deal
from mjs_states import deal_data

from projections.matches import match_view
from projections.viewers import Viewer
from rules import RuleViolation, matches
from rules.mahjong.sichuan import ledger
from rules.match_clock import timestamp
from service.simulator import mahjong as mjo_bots
from service.simulator import sichuan as mjs_bots

T0 = datetime(2006, 12, 23, 9, 30, tzinfo=timezone.utc)
US = timedelta(microseconds=1)
S = timedelta(seconds=1)
REFEREE = Viewer("referee")
BOTS = {"MJO": mjo_bots.next_action, "MJS": mjs_bots.next_action}


class TimedTable(FoldedMatch):
    """A table folded through ``rules.matches`` with the server's time moved by the test."""

    def __init__(self, game: str = "MJO", settings: dict | None = None):
        super().__init__({
            "match_id": "S1-T1", "game": game, "round": 1,
            "teams": {str(s): f"p{s}" for s in range(4)}, "seats": ["甲", "乙", "丙", "丁"],
            "settings": settings or {}}, T0)

    @property
    def hand(self):
        return self.state.current


def deal_mjo(table: TimedTable, fixed: dict[int, str], after: float = 1, wall: str = "") -> None:
    table.post("TilesDealt", after, hand=table.state.next_hand,
               **filled_deal(136, fixed, 0, wall))


def deal_mjs(table: TimedTable, fixed: dict[int, str], voids: str = "mmmm", wall: str = "",
             after: float = 1) -> None:
    number = table.state.next_hand
    table.post("TilesDealt", after, hand=number, **deal_data(fixed, 0, wall))
    for seat, suit in enumerate(voids):
        table.post("VoidSuitDeclared", 1, hand=number, seat=seat, suit=suit)


def summary(table: TimedTable) -> list[tuple]:
    return [(d.key, d.due - T0, d.event_type, dict(d.data), d.rule)
            for d in check_deadlines(table.state)]


# --- MJO: the claim window (MJO-4.5) and the discard clock (MJO-8.1) -----------------------------

def opened_mjo(settings: dict | None = None) -> TimedTable:
    """Hand 1 dealt 60 s after the start (dealer seat 0); seat 1 could chow 5p, seat 2 pong it;
    the dealer discards 5p 10 s after the deal."""
    table = TimedTable("MJO", settings)
    deal_mjo(table, {0: "5p", 1: "4p 6p", 2: "5p 5p"}, after=60)
    table.post("TileDiscarded", 10, hand=1, seat=0, tile="5p")
    return table


def test_mjo_8_1_the_dealers_first_discard_is_due_30_s_after_the_deal_and_reported_once():
    table = TimedTable("MJO")
    deal_mjo(table, {0: "5p"}, after=60)
    assert summary(table) == [("h1/c0/s0/firstDiscard", 90 * S, "TimeLimitExceeded",
                               {"hand": 1, "seat": 0, "limit": "firstDiscard"}, "MJO-8.1")]
    table.fire("h1/c0/s0/firstDiscard")
    assert [(r["seat"], r["limit"]) for r in table.hand.time_limits] == [(0, "firstDiscard")]
    assert table.state.balances == (20, 20, 20, 20)     # MJO-8.2: no automatic sanction
    assert table.pending() == {}                        # reported: not again
    table.post("TileDiscarded", 5, hand=1, seat=0, tile="5p")
    assert set(table.pending()) == {"h1/c1/claim", "h1/c1/s1/discard"}


def test_mjo_4_5_the_window_lasts_for_the_next_seats_chow_then_3_s_and_the_timer_closes_it():
    table = opened_mjo({"claimWindowSeconds": 3})
    discarded = table.now - T0
    # seed 六: the next player may chow within his 15 s; his discard is due then too
    assert summary(table) == [
        ("h1/c1/claim", discarded + 15 * S, "ClaimWindowClosed", {"hand": 1}, "MJO-4.5"),
        ("h1/c1/s1/discard", discarded + 15 * S, "TimeLimitExceeded",
         {"hand": 1, "seat": 1, "limit": "discard"}, "MJO-8.1")]
    table.post("ClaimPassed", 1, hand=1, seat=1)      # he will not chow: 3 s are left to pong
    assert table.pending()["h1/c1/claim"].due - T0 == discarded + 3 * S
    check_deadlines(table.state)
    table.fire("h1/c1/claim")
    assert table.now - T0 == discarded + 3 * S
    assert table.hand.state.phase == "draw" and table.hand.state.turn == 1
    assert table.hand.state.seats[2].melds == ()      # seat 2 let the pong pass
    assert set(table.pending()) == {"h1/c1/s1/discard"}


def test_mjo_4_2_the_3_s_pong_is_the_window_itself_and_no_deadline_tells_who_holds_a_pair():
    """Seed 八 「碰牌要快，要在3秒之内报出」: a later pong is refused; the timer reports no
    seat for letting it pass — its clock would show the table who held the pair."""
    holds = TimedTable("MJO", {"claimWindowSeconds": 3})
    deal_mjo(holds, {0: "5p", 2: "5p 5p"}, after=60)
    holds.post("TileDiscarded", 10, hand=1, seat=0, tile="5p")
    other = TimedTable("MJO", {"claimWindowSeconds": 3})
    deal_mjo(other, {0: "5p", 3: "5p 5p"}, after=60)
    other.post("TileDiscarded", 10, hand=1, seat=0, tile="5p")
    assert summary(holds) == summary(other)
    assert all(d.data.get("limit") != "pong" for d in holds.pending().values())
    late = timestamp(holds.now + 3 * S + US)
    with pytest.raises(RuleViolation) as info:
        matches.apply(holds.state, "Claim", {"hand": 1, "seat": 2, "kind": "pong",
                                             "tiles": ["5p", "5p"]}, late)
    assert info.value.rule == "MJO-4.5"


def test_mjo_8_1_a_pongs_discard_is_due_15_s_after_the_previous_discard():
    table = opened_mjo({"claimWindowSeconds": 3})
    discarded = table.now - T0
    table.post("Claim", 2, hand=1, seat=2, kind="pong", tiles=["5p", "5p"])
    table.post("ClaimPassed", 1, hand=1, seat=1)
    table.post("ClaimPassed", 1, hand=1, seat=3)     # every seat answered: closed by itself
    assert summary(table) == [("h1/c1/s2/discard", discarded + 15 * S, "TimeLimitExceeded",
                               {"hand": 1, "seat": 2, "limit": "discard"}, "MJO-8.1")]
    table.post("TileDiscarded", 4, hand=1, seat=2, tile=table.hand.state.seats[2].concealed[0])
    assert "h1/c1/s2/discard" not in table.pending()
    assert set(table.pending()) == {"h1/c2/claim", "h1/c2/s3/discard"}


def test_mjo_4_5_a_pong_ends_the_wait_for_the_next_players_chow():
    """Pong beats chow (seed 八): once it is made the window lasts its 3 s (for a win), not
    the next player's 15 s — which would be spent from the ponger's own 15 s (seed 六)."""
    table = opened_mjo({"claimWindowSeconds": 3})
    discarded = table.now - T0
    table.post("Claim", 2, hand=1, seat=2, kind="pong", tiles=["5p", "5p"])
    assert summary(table)[0] == ("h1/c1/claim", discarded + 3 * S, "ClaimWindowClosed",
                                 {"hand": 1}, "MJO-4.5")
    table.fire("h1/c1/claim")
    assert summary(table) == [("h1/c1/s2/discard", discarded + 15 * S, "TimeLimitExceeded",
                               {"hand": 1, "seat": 2, "limit": "discard"}, "MJO-8.1")]


def test_mjo_8_1_an_overrun_during_a_draw_is_reported_with_the_hand_and_sanctions_nothing():
    table = opened_mjo({"claimWindowSeconds": 3})
    for seat in (1, 2, 3):
        table.post("ClaimPassed", 0.5, hand=1, seat=seat)
    table.post("TileDrawn", 1, hand=1, seat=1, tile=table.hand.state.wall[0])
    table.fire("h1/c1/s1/discard")
    assert [(r["seat"], r["limit"]) for r in table.hand.time_limits] == [(1, "discard")]
    assert table.state.balances == (20, 20, 20, 20) and table.pending() == {}
    table.post("TileDiscarded", 30, hand=1, seat=1, tile=table.hand.state.seats[1].concealed[0])
    assert set(table.pending()) == {"h1/c2/claim", "h1/c2/s2/discard"}


def test_record_enforcement_runs_no_play_clock_only_the_sessions():
    """A scorer transcribing a physical table records later than play: the engine times no
    claim there, and the timer closes no window and reports no discard."""
    table = TimedTable("MJO", {"enforcement": "record", "sessionMinutes": 60})
    deal_mjo(table, {0: "5p"}, after=60)
    table.post("TileDiscarded", 10, hand=1, seat=0, tile="5p")
    assert summary(table) == [("session", 60 * 60 * S, "TimeLimitReached",
                               {"limit_minutes": 60}, "T-8.2")]


# --- T-8.2: the session's minutes ----------------------------------------------------------------

def test_t_8_2_time_is_due_the_session_minutes_after_the_start_and_the_hand_is_finished():
    table = TimedTable("MJO", {"sessionMinutes": 30, "claimWindowSeconds": 3})
    assert summary(table) == [("session", 30 * 60 * S, "TimeLimitReached",
                               {"limit_minutes": 30}, "T-8.2")]
    deal_mjo(table, {0: "1m 2m 3m 4p 5p 6p 7s 8s 9s C C C 5m E"}, after=29 * 60,
             wall="5m")
    table.post("TileDiscarded", 5, hand=1, seat=0, tile="E")
    table.fire("session")
    assert table.state.time_called == 30 and table.state.status == "playing"
    assert "session" not in table.pending()
    for seat in (1, 2, 3):
        table.post("ClaimPassed", 0.5, hand=1, seat=seat)
    table.post("TileDrawn", 1, hand=1, seat=1, tile="5m")
    table.post("TileDiscarded", 1, hand=1, seat=1, tile="5m")
    table.post("Claim", 1, hand=1, seat=0, kind="win")
    table.fire("h1/c2/claim")                             # the hand in play ends ...
    assert table.state.status == "completed"              # ... and with it the session
    assert matches.deadlines(table.state) == ()


# --- MJS: 30 s per discard, warnings and −10 (MJS-10.3); the claim window (section 11) -----------

def test_mjs_10_3_the_first_discard_is_due_30_s_after_play_opens_then_each_30_s():
    table = TimedTable("MJS")
    deal_mjs(table, {0: "7s"}, after=60)
    opened = table.now - T0                            # the fourth void suit declared
    assert summary(table) == [("h1/c0/s0/firstDiscard", opened + 30 * S, "TimeLimitExceeded",
                               {"hand": 1, "seat": 0, "limit": "firstDiscard"}, "MJS-10.3")]
    table.post("TileDiscarded", 20, hand=1, seat=0, tile="7s")
    discarded = table.now - T0
    assert summary(table) == [
        ("h1/c1/claim", discarded + 3 * S, "ClaimWindowClosed", {"hand": 1}, "MJS-3.3"),
        ("h1/c1/s1/discard", discarded + 30 * S, "TimeLimitExceeded",
         {"hand": 1, "seat": 1, "limit": "discard"}, "MJS-10.3")]


def test_mjs_10_3_three_slow_discards_by_the_timer_cost_10_and_the_referee_warns_once():
    table = TimedTable("MJS")
    deal_mjs(table, {}, after=60)
    for turn in range(3):                              # seat 0, once each time round
        key = "h1/c0/s0/firstDiscard" if turn == 0 else f"h1/c{4 * turn}/s0/discard"
        table.fire(key)
        assert table.hand.state.warnings[0] == turn + 1 and key not in table.pending()
        table.post("TileDiscarded", 1, hand=1, seat=0,
                   tile=table.hand.state.seats[0].concealed[-1])
        for seat in (1, 2, 3):                         # the others: quick, windows by the timer
            table.fire(f"h1/c{4 * turn + seat}/claim")
            table.post("TileDrawn", 1, hand=1, seat=seat, tile=table.hand.state.wall[0])
            table.post("TileDiscarded", 1, hand=1, seat=seat,
                       tile=table.hand.state.seats[seat].concealed[-1])
        table.fire(f"h1/c{4 * turn + 4}/claim")
        table.post("TileDrawn", 1, hand=1, seat=0, tile=table.hand.state.wall[0])
    assert [(p.payer, p.payee, p.amount, p.reason) for p in ledger(table.hand.state)
            if p.rule == "MJS-10.3"] == [(0, None, 10, "penalty")]
    # the referee's slow warning for the discard in hand is the one warning: no timer's
    assert "h1/c12/s0/discard" in table.pending()
    table.post("WarningIssued", 1, hand=1, seat=0, offence="slow")
    assert "h1/c12/s0/discard" not in table.pending()


def test_mjs_4_1_after_the_dealers_win_on_his_first_14_the_next_players_30_s_run_from_it():
    table = TimedTable("MJS")
    deal_mjs(table, {0: "1s 1s 1s 2s 2s 2s 3s 3s 3s 4s 4s 4s 5s 5s"}, after=60)
    table.post("Win", 5, hand=1, seat=0)
    won = table.now - T0
    assert table.hand.state.phase == "draw" and table.hand.state.turn == 1
    assert summary(table) == [("h1/c1/s1/discard", won + 30 * S, "TimeLimitExceeded",
                               {"hand": 1, "seat": 1, "limit": "discard"}, "MJS-10.3")]


def test_mjs_7_3_an_added_kong_opens_a_window_of_its_own_for_3_s():
    """Seat 1 pongs the dealer's 7s, and a round later adds the fourth 7s he draws: the
    robbing window (MJS section 11: 3 s after a discard or an added kong)."""
    table = TimedTable("MJS")
    deal_mjs(table, {0: "7s", 1: "7s 7s 1m"}, wall="2p 3p 4p 7s", voids="mmmm")
    table.post("TileDiscarded", 1, hand=1, seat=0, tile="7s")
    table.post("Claim", 1, hand=1, seat=1, kind="pong", tiles=["7s", "7s"])
    table.fire("h1/c1/claim")
    table.post("TileDiscarded", 1, hand=1, seat=1, tile="1m")
    for seat, tile in ((2, "2p"), (3, "3p"), (0, "4p")):
        table.fire(f"h1/c{table.hand.clock}/claim")
        table.post("TileDrawn", 1, hand=1, seat=seat, tile=tile)
        table.post("TileDiscarded", 1, hand=1, seat=seat, tile=tile)
    table.fire("h1/c5/claim")
    table.post("TileDrawn", 1, hand=1, seat=1, tile="7s")
    table.post("KongDeclared", 2, hand=1, seat=1, kind="added", tile="7s")
    declared = table.now - T0
    assert summary(table)[0] == ("h1/c5/k0/rob", declared + 3 * S, "ClaimWindowClosed",
                                 {"hand": 1}, "MJS-3.3")
    table.fire("h1/c5/k0/rob")
    assert [(k.seat, k.kind) for k in table.hand.state.kongs] == [(1, "added")]
    assert "h1/c5/k0/rob" not in table.pending()


# --- the referee's pause (T-1.5) -----------------------------------------------------------------

def test_a_pause_moves_every_deadline_by_the_paused_time():
    table = opened_mjo({"claimWindowSeconds": 3, "sessionMinutes": 90})
    before = {k: table.wall(d) for k, d in table.pending().items()}
    table.post("MatchClockPaused", 5, reason="a ruling")
    assert all(table.wall(d) is None for d in table.pending().values())   # nothing falls due
    check_deadlines(table.state)
    table.post("MatchClockResumed", 40)
    moved = {k: table.wall(d) for k, d in table.pending().items()}
    assert moved == {k: due + 40 * S for k, due in before.items()}
    check_deadlines(table.state)
    with pytest.raises(RuleViolation) as info:        # the old time has passed, not the new
        matches.apply(table.state, "ClaimWindowClosed", {"hand": 1},
                      timestamp(before["h1/c1/claim"] + 39 * S))
    assert info.value.rule == "MJO-4.5"
    table.fire("h1/c1/claim")
    assert table.now == before["h1/c1/claim"] + 40 * S


# --- properties over simulated tables ------------------------------------------------------------

DELAYS = (0.3, 0.5, 0.8, 1, 1.5, 2, 3, 5, 12, 35)  # seconds before a bot's next move
PAUSE_CHANCE = 0.01
MAX_EVENTS = 3000
SIMULATED = {"MJO": {"claimWindowSeconds": 3, "sessionHands": 3, "sessionMinutes": 30},
             "MJS": {"sessionHands": 3, "sessionMinutes": 30}}


def simulate(game: str, seed: int):
    """A table played by the simulator's bots, each move after a random delay — unless a
    deadline comes first, whose event the timer then records at its time — with the match
    clock now and then paused and resumed. Yields (state before, event, how, state after)."""
    rng, table = random.Random(seed), TimedTable(game, SIMULATED[game])
    for _ in range(MAX_EVENTS):
        state = table.state
        if state.status == "completed":
            return
        when = table.now + timedelta(seconds=rng.choice(DELAYS))
        pending = [d for d in matches.deadlines(state) if table.wall(d) is not None]
        first = min(pending, key=table.wall, default=None)
        if state.match_clock.running and rng.random() < PAUSE_CHANCE:
            event, how = ("MatchClockPaused", {"reason": "ruling"}), "referee"
        elif not state.match_clock.running:
            event, how = ("MatchClockResumed", {}), "referee"
        elif first is not None and table.wall(first) <= when:
            event, how = (first.event_type, dict(first.data)), first
            when = max(table.wall(first), table.now)
        else:
            move = BOTS[game](match_view(state, REFEREE), rng, batch=False)
            event, how = _one_move(move), "bot"
        table.now = when
        table.state = _applied(state, *event, when)
        yield state, event, how, table.state
    pytest.fail(f"the {game} table did not end within {MAX_EVENTS} events")


def _one_move(move):
    """The bots' move as one event: each seat's answer to a claim window on its own (the
    deadlines are checked after every event)."""
    if isinstance(move, list):
        (event,) = move
        return event
    return move


def _applied(state, event_type: str, data: dict, when: datetime):
    """The bot's move, or — a pong or kong called after its 3 s (refused, MJO-4.2 / MJS-3.3)
    — its pass instead."""
    try:
        return matches.apply(state, event_type, data, timestamp(when))
    except RuleViolation as v:
        if event_type != "Claim" or v.rule != state.settings.rule("claimWindow"):
            raise
        return matches.apply(state, "ClaimPassed", {"hand": data["hand"], "seat": data["seat"]},
                             timestamp(when))


@pytest.mark.parametrize("game", ["MJO", "MJS"])
@pytest.mark.parametrize("seed", range(4))
def test_every_deadline_of_a_simulated_table_holds_at_every_step(game, seed):
    fired, steps, table = Counter(), 0, None
    for before, (event_type, data), how, table in simulate(game, seed):
        check_deadlines(table)
        steps += 1
        now_pending = {d.key for d in matches.deadlines(table)}
        if how not in ("bot", "referee"):            # the timer fired it: no longer pending
            fired[event_type] += 1
            assert how.key not in now_pending
        if event_type == "TileDiscarded":            # the awaited discard stops the seat's clock
            assert not [d.key for d in matches.deadlines(before)
                        if d.seat == data["seat"] and d.key in now_pending]
    assert steps > 300 and table.status == "completed" and table.time_called == 30
    assert set(fired) == {"ClaimWindowClosed", "TimeLimitExceeded", "TimeLimitReached"}
    for hand in table.finished:
        reports = Counter(r["seat"] for r in hand.time_limits)
        if game == "MJO":                            # MJO-8.2: recorded, no sanction
            assert hand.penalties == () and hand.state.penalties == ()
            continue
        for seat in range(4):                        # MJS-10.3: a warning each, −10 at three
            assert hand.state.warnings[seat] == reports[seat]
            deducted = [p.amount for p in hand.state.penalties if p.seat == seat]
            assert deducted == ([10] if reports[seat] >= 3 else [])
