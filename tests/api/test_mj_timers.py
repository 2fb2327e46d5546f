"""The time rules of the mahjong tables run by the timer (issue 8), through the HTTP API on a fake
clock (tests/timed.py): nothing sleeps, the test moves time, the timer appends each deadline's
event as role ``system`` exactly at its deadline, and the consequence is the rules' —

* MJO-4.5 / seed 八: the claim window closed 3 s after the discard (15 s while the next player,
  who may chow, has not answered), and the claims made settled by priority;
* MJO-8.1 / 8.2: the dealer's first discard within 30 s of the deal, each discard within 15 s of
  the previous one — overruns recorded with the hand, no coins moved;
* MJS-10.3: each discard within 30 s; three slow discards in a hand, by the timer, cost 10;
* T-8.2: ``sessionMinutes`` after the start, the hand in play is finished and the session ends.
"""
from __future__ import annotations

import json
from datetime import timedelta

import mjs_table
from clients import client_as
from mj_table import TID, Table
from tables import ok

from rules.match_clock import moment

SECOND = timedelta(seconds=1)
WIN_ON_FIRST_14 = "1m 2m 3m 4p 5p 6p 7s 8s 9s C C C 5m 5m"     # MJO-5.1, a 2-5-8 pair


def meta(record) -> dict:
    return json.loads(record.meta)


def fired_exactly_at(record, due) -> None:
    """The timer's event: role system, recorded at its deadline, the deadline in its meta."""
    assert meta(record)["role"] == "system"
    assert moment(record.recorded_at) == due == moment(meta(record)["deadline"])


def claims_on_5p(timed, **settings) -> tuple[Table, dict]:
    """MJO hand 1: the dealer discards 5p at once; seat 1 could chow it, seat 2 pong it."""
    table = Table(timed.client, {"claimWindowSeconds": 3, **settings})
    table.deal({0: "5p", 1: "4p 6p", 2: "5p 5p"})
    return table, table.ok("TileDiscarded", seat=0, tile="5p")


# --- MJO-4.5: the claim window -------------------------------------------------------------------

def test_mjo_4_5_the_timer_closes_the_window_3_s_after_the_discard_and_the_pong_is_made(timed):
    """The pong (within its 3 s, seed 八) beats any chow: the window no longer waits for the
    next player, who has not answered, but closes 3 s after the discard — for a win on it."""
    table, discarded = claims_on_5p(timed)
    table.ok("Claim", seat=2, kind="pong", tiles=["5p", "5p"])
    assert table.hand_view()["phase"] == "claims"            # seats 1 and 3 could still win
    [closed] = timed.run_to_next()
    assert (closed.type, closed.data_dict) == ("ClaimWindowClosed", {"hand": 1})
    fired_exactly_at(closed, moment(discarded["recorded_at"]) + 3 * SECOND)
    hand = table.hand_view()
    assert hand["claim_window"] is None and (hand["phase"], hand["turn"]) == ("discard", 2)
    assert [m["text"] for m in hand["seats"][2]["melds"]] == ["[pong 5p]"]
    assert [c["key"] for c in timed.pending(TID, table.mid)] == ["h1/c1/s2/discard"]


def test_mjo_4_5_the_window_waits_15_s_for_the_next_players_chow_his_own_15_s(timed):
    """Seed 六 「每次从上家打出牌后，到自己出牌的时限为15秒（包括吃牌、碰牌)」: the next player's
    chow and his discard share the 15 s after the discard, so at 15 s the window closes and his
    overrun is reported, the window first."""
    table, discarded = claims_on_5p(timed)
    due = moment(discarded["recorded_at"]) + 15 * SECOND
    timed.set_now(due - timedelta(microseconds=1))
    assert timed.fire_due() == []                             # not a microsecond early
    closed, overrun = timed.run_to_next()
    assert closed.type == "ClaimWindowClosed" and overrun.type == "TimeLimitExceeded"
    fired_exactly_at(closed, due)
    assert moment(meta(overrun)["deadline"]) == due
    assert overrun.data_dict == {"hand": 1, "seat": 1, "limit": "discard"}
    hand = table.hand_view()
    assert (hand["phase"], hand["turn"]) == ("draw", 1)       # nobody claimed: seat 1 draws
    assert [(r["seat"], r["limit"]) for r in hand["time_limits"]] == [(1, "discard")]


def test_a_pause_moves_the_claim_window_by_the_time_the_clock_stood(timed):
    table, discarded = claims_on_5p(timed)
    table.ok("ClaimPassed", seat=1)
    referee = client_as(timed.app, "referee", TID)
    ok(referee.post(f"/v1/tournaments/{TID}/events", json={
        "type": "MatchClockPaused", "stream": table.stream, "data": {"reason": "a ruling"}}))
    timed.advance(seconds=40)
    assert timed.fire_due() == []
    ok(referee.post(f"/v1/tournaments/{TID}/events", json={
        "type": "MatchClockResumed", "stream": table.stream, "data": {}}))
    view = timed.clock_view(TID, table.mid)
    stood = timedelta(seconds=view["paused_seconds"])
    [closed] = timed.run_to_next()
    fired_exactly_at(closed, moment(discarded["recorded_at"]) + 3 * SECOND + stood)
    assert stood > 40 * SECOND


# --- MJO-8.1: 30 s for the dealer's first discard, 15 s for each discard -------------------------

def test_mjo_8_1_overruns_of_the_first_discard_and_of_a_turn_are_recorded_without_sanction(timed):
    table = Table(timed.client, {"claimWindowSeconds": 3})
    dealt = table.deal({0: "N"})
    [first] = timed.run_to_next()
    assert first.data_dict == {"hand": 1, "seat": 0, "limit": "firstDiscard"}
    fired_exactly_at(first, moment(dealt["recorded_at"]) + 30 * SECOND)
    discarded = table.ok("TileDiscarded", seat=0, tile="N")
    table.settle()                                            # seats 1-3 pass: seat 1 draws
    table.draw()
    [turn] = timed.run_to_next()
    assert turn.data_dict == {"hand": 1, "seat": 1, "limit": "discard"}
    fired_exactly_at(turn, moment(discarded["recorded_at"]) + 15 * SECOND)
    assert [(r["seat"], r["limit"]) for r in table.hand_view(view="public")["time_limits"]] \
        == [(0, "firstDiscard"), (1, "discard")]
    assert table.match()["balances"] == [20, 20, 20, 20]      # MJO-8.2: the committee decides
    assert timed.pending(TID, table.mid) == []                # each reported once
    timed.advance(minutes=5)
    assert timed.fire_due() == []


# --- MJS-10.3: 30 s per discard; three warnings in a hand cost 10 --------------------------------

def test_mjs_10_3_three_slow_discards_in_a_hand_by_the_timer_cost_10(timed):
    table = mjs_table.Table(timed.client, {"claimWindowSeconds": 3})
    table.deal()
    table.voids("mmmm")
    slow = []
    for turn in range(3):                     # seat 0 lets his 30 s pass, the others are quick
        [warned] = timed.run_to_next()
        slow.append(warned)
        assert warned.data_dict["seat"] == 0 and table.hand_view()["warnings"][0] == turn + 1
        table.ok("TileDiscarded", seat=0, tile=table.concealed(0)[-1])
        for seat in (1, 2, 3):
            [closed] = timed.run_to_next()   # nobody claims: the window closes after 3 s
            assert closed.type == "ClaimWindowClosed"
            table.ok("TileDrawn", seat=seat, tile=table.next_tile())
            table.ok("TileDiscarded", seat=seat, tile=table.concealed(seat)[-1])
        [closed] = timed.run_to_next()
        table.ok("TileDrawn", seat=0, tile=table.next_tile())
    assert [r.data_dict["limit"] for r in slow] == ["firstDiscard", "discard", "discard"]
    for record in slow:
        assert meta(record)["role"] == "system" and record.recorded_at == meta(record)["deadline"]
    hand = table.hand_view(view="public")
    assert hand["warnings"] == [3, 0, 0, 0]
    assert [(p["from"], p["to"], p["amount"], p["rule"]) for p in hand["ledger"]] == [
        (0, None, 10, "MJS-10.3")]
    assert hand["scores"] == [-10, 0, 0, 0]


# --- T-8.2: the session's minutes ----------------------------------------------------------------

def test_t_8_2_at_the_session_minutes_the_hand_in_play_is_finished_then_the_session_ends(timed):
    table = Table(timed.client, {"sessionMinutes": 60})
    [start] = timed.store.read_stream(table.stream, limit=1)
    started = moment(start.recorded_at)
    table.deal({0: WIN_ON_FIRST_14})
    [first] = timed.run_to_next()                             # the dealer thinks it over ...
    assert first.type == "TimeLimitExceeded"
    [called] = timed.run_to_next()                            # ... past the session's hour
    assert (called.type, called.data_dict) == ("TimeLimitReached", {"limit_minutes": 60})
    fired_exactly_at(called, started + timedelta(minutes=60))
    match = table.match()
    assert match["status"] == "playing" and match["time_limit_reached"] == 60
    table.ok("Win", seat=0)                                   # the hand in play ends ...
    match = table.match()
    assert match["status"] == "completed" and match["hands_played"] == 1   # ... and the session
    assert match["balances"] == [32, 16, 16, 16]              # MJO-7.2: dealer self-draw
    assert timed.pending(TID, table.mid) == []
    table.rejected("TilesDealt", "T-8.2", hand=2, hands=table.dealt["hands"])
