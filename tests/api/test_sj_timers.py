"""The time rules of the Shengji tables run by the timer (issue 8), through the HTTP API on a fake
clock (tests/timed.py): nothing sleeps, the test moves time, the timer appends each deadline's
event as role ``system`` exactly at its deadline, and the consequence is the rules' —

* SJ2-4.7: the declaration window closed 15 s after the deal (or the last overcall), trump and
  the first dealer fixed (SJ2-4.9, 5.1);
* SJ3-3.6: the dealer's 5-second pause after the drawing ended, trump and the first dealer fixed
  (SJ3-3.7, 4.1);
* SJ3-11.8: 60 s to bury and lead, 10 s to follow — a side's first overrun a warning, its second
  20 points in the hand (Ex 10);
* SJ2-14.4: the round's time limit — the hand in play is finished, then the levels decide;
* SJ3-12.1: the alert at minute 80 — likewise, and equal levels are a draw;
* T-6.6: a pair not seated when minute 21 begins forfeits the round (levels 4 : 2).
"""
from __future__ import annotations

import json
from datetime import timedelta

import sj2_table
import sj3_table
from clients import client_as
from spec import assert_response
from tables import ok

from rules.match_clock import moment

HAND = "/v1/tournaments/{tid}/matches/{mid}/hands/{n}"

SECOND = timedelta(seconds=1)
MINUTE = timedelta(minutes=1)


def meta(record) -> dict:
    return json.loads(record.meta)


def fired_exactly_at(record, due) -> None:
    """The timer's event: role system, recorded at its deadline, the deadline in its meta."""
    assert meta(record)["role"] == "system"
    assert moment(record.recorded_at) == due == moment(meta(record)["deadline"])


def started_at(timed, table):
    [start] = timed.store.read_stream(table.stream, limit=1)
    assert start.type == "MatchStarted"
    return moment(start.recorded_at)


def sj3(timed, settings: dict | None = None) -> sj3_table.Table:
    table = sj3_table.Table(timed.client, settings)
    table.clock = timed.clock
    return table


def keys(timed, table) -> list[str]:
    return [c["key"] for c in timed.pending(table.tid, table.mid)]


# --- SJ2-4.7: the declaration window -------------------------------------------------------------

def test_sj2_4_7_the_timer_closes_the_window_15_s_after_the_deal_and_trump_is_fixed(timed):
    table = sj2_table.Table(timed.client, {"declarationWindowSeconds": 15})
    table.deal({0: "2S"})
    table.ok("TrumpDeclared", seat=0, card="2S")
    completed = table.ok("DealCompleted")
    table.rejected("KittyTaken", "SJ2-4.8")                  # the window is open
    timed.set_now(moment(completed["recorded_at"]) + 15 * SECOND - timedelta(microseconds=1))
    assert timed.fire_due() == []                             # not a microsecond early
    [closed] = timed.run_to_next()
    assert (closed.type, closed.data_dict) == ("DeclarationWindowClosed", {"hand": 1})
    fired_exactly_at(closed, moment(completed["recorded_at"]) + 15 * SECOND)
    hand = table.hand_view()
    assert (hand["phase"], hand["dealer"], hand["bidding"]["closed"]) == ("kitty", 0, True)
    assert (hand["trump"]["suit"], hand["trump"]["source"]) == ("S", "declaration")
    assert keys(timed, table) == []                           # SJ2 times no move
    table.ok("KittyTaken")


def test_sj2_4_7_an_overcall_restarts_the_15_s(timed):
    table = sj2_table.Table(timed.client, {"declarationWindowSeconds": 15})
    table.deal({0: "2S", 1: "2H 2H"})
    table.ok("TrumpDeclared", seat=0, card="2S")
    table.ok("DealCompleted")
    timed.advance(seconds=10)
    overcalled = table.ok("TrumpOvercalled", seat=1, cards=["2H", "2H"])
    assert keys(timed, table) == ["h1/declaration/2"]
    [closed] = timed.run_to_next()
    fired_exactly_at(closed, moment(overcalled["recorded_at"]) + 15 * SECOND)
    hand = table.hand_view()
    assert (hand["dealer"], hand["trump"]["suit"]) == (1, "H")   # SJ2-5.1: hand 1's dealer


# --- SJ3-3.6: the dealer's pause -----------------------------------------------------------------

def test_sj3_3_6_the_timer_ends_the_pause_5_s_after_drawing_and_trump_is_fixed(timed):
    table = sj3(timed)
    table.deal({0: "2S"})
    table.ok("TrumpDeclared", seat=0, card="2S")
    drawn = table.ok("DrawingEnded")
    assert keys(timed, table) == ["h1/declaration/1", "time/80"]
    [closed] = timed.run_to_next()
    assert (closed.type, closed.data_dict) == ("DeclarationWindowClosed", {"hand": 1})
    fired_exactly_at(closed, moment(drawn["recorded_at"]) + 5 * SECOND)
    hand = table.hand_view()
    assert (hand["phase"], hand["dealer"], hand["bidding"]["closed"]) == ("kitty", 0, True)
    assert (hand["trump"]["suit"], hand["trump"]["source"]) == ("S", "reveal")
    for view in ("referee", "seat:1"):                       # as the contract documents it
        assert_response(table.client.get(f"/v1/tournaments/{table.tid}/matches/{table.mid}/"
                                         f"hands/1?as={view}"), "get", HAND)
    taken = table.ok("KittyTaken")
    assert table.hand_view()["waiting_for"] == {"kind": "kitty", "seat": 0, "seconds": 60,
                                                "since": taken["recorded_at"]}


def test_sj3_3_7_hand_1_without_a_reveal_is_void_at_the_end_of_the_pause(timed):
    table = sj3(timed)
    table.deal()
    drawn = table.ok("DrawingEnded")
    [closed] = timed.run_to_next()
    fired_exactly_at(closed, moment(drawn["recorded_at"]) + 5 * SECOND)
    hand = table.hand_view()
    assert (hand["phase"], hand["void_reason"]) == (
        "voided", "SJ3-3.7: no one revealed trump during the dealer's pause")
    table.deal({1: "2C"}, seed=8)                             # dealt again
    assert table.hand_view()["phase"] == "declaring"


# --- SJ3-11.8: the move limits, a warning then −20 -----------------------------------------------

def test_sj3_11_8_a_sides_first_slow_play_is_warned_its_second_costs_20(timed):
    table = sj3(timed)
    assert table.to_play({0: "2S AH"}, card="2S") == 0       # side A deals
    taken = list(timed.store.read_stream(table.stream))[-2]
    assert taken.type == "KittyTaken"
    [kitty] = timed.run_to_next()                             # seat 0 (A) thinks 60 s
    assert kitty.data_dict == {"hand": 1, "seat": 0, "kind": "kitty"}
    fired_exactly_at(kitty, moment(taken.recorded_at) + 60 * SECOND)
    led = table.ok("CardsPlayed", seat=0, cards=["AH"])
    [slow_b] = timed.run_to_next()                            # seat 1 (B) thinks 10 s
    assert slow_b.data_dict == {"hand": 1, "seat": 1, "kind": "follow"}
    fired_exactly_at(slow_b, moment(led["recorded_at"]) + 10 * SECOND)
    followed = table.ok("CardsPlayed", seat=1, cards=[_a_follow(table, 1)])
    [slow_a] = timed.run_to_next()                            # seat 2 (A) again: −20
    fired_exactly_at(slow_a, moment(followed["recorded_at"]) + 10 * SECOND)
    match = table.match()
    assert [(b["seat"], b["side"], b["consequence"]) for b in match["time_breaches"]] == [
        (0, "A", "warning"), (1, "B", "warning"), (2, "A", "penalty")]
    hand = table.hand_view()
    assert [(p["rule"], p["side"], p["points"], p["source"]) for p in hand["penalties"]] == [
        ("SJ3-11.8", "A", 20, "engine")]
    view = table.finish_hand(seed=5)                          # no other penalty in this play
    assert [p["rule"] for p in view["penalties"]] == ["SJ3-11.8"]
    result = view["result"]
    assert result["penalty_points"] == 20                     # against the dealer side: P + 20
    assert result["points"] == result["trick_points"] + result["kitty_capture"] + 20


def _a_follow(table, seat: int) -> str:
    """A legal single follow of seat ``seat`` to the single lead in play (SJ3-8.1)."""
    events = table.play_out(seed=0)
    event_type, data = events[0]
    assert event_type == "CardsPlayed" and data["seat"] == seat
    return data["cards"][0]


def test_a_pause_moves_the_follow_limit_by_the_time_the_clock_stood(timed):
    table = sj3(timed)
    table.to_play({0: "2S AH"}, card="2S")
    led = table.ok("CardsPlayed", seat=0, cards=["AH"])
    referee = client_as(timed.app, "referee", table.tid)
    ok(referee.post(f"/v1/tournaments/{table.tid}/events", json={
        "type": "MatchClockPaused", "stream": table.stream, "data": {"reason": "a ruling"}}))
    timed.advance(seconds=40)
    assert timed.fire_due() == []
    ok(referee.post(f"/v1/tournaments/{table.tid}/events", json={
        "type": "MatchClockResumed", "stream": table.stream, "data": {}}))
    stood = timedelta(seconds=timed.clock_view(table.tid, table.mid)["paused_seconds"])
    assert stood > 40 * SECOND
    [slow] = timed.run_to_next()
    assert slow.data_dict == {"hand": 1, "seat": 1, "kind": "follow"}
    fired_exactly_at(slow, moment(led["recorded_at"]) + 10 * SECOND + stood)


# --- SJ2-14.4 / SJ3-12.1: the round's time --------------------------------------------------------

def test_sj2_14_4_at_the_time_limit_the_hand_in_play_is_finished_then_the_levels_decide(timed):
    table = sj2_table.Table(timed.client, {"timeLimitMinutes": 120})
    started = started_at(timed, table)
    table.to_play({0: "2S"}, card="2S")
    [called] = timed.run_to_next()
    assert (called.type, called.data_dict) == ("TimeLimitReached", {"limit_minutes": 120})
    fired_exactly_at(called, started + 120 * MINUTE)
    match = table.match()
    assert (match["status"], match["time_limit_reached"]) == ("playing", 120)
    table.finish_hand(seed=3)                                 # the dealer side goes up one
    match = table.match()
    assert (match["hands_played"], match["levels"]) == (1, {"A": "3", "B": "2"})
    assert (match["status"], match["reason"], match["winner"]) == ("completed", "time", "A")
    table.rejected("HandDealt", "SJ2-14", hand=2, **sj2_table.build_deal({}))
    assert keys(timed, table) == []


def test_sj3_12_1_the_alert_at_minute_80_the_hand_in_play_is_the_last(timed):
    table = sj3(timed)
    started = started_at(timed, table)
    table.to_play({0: "2S"}, card="2S")
    timed.set_now(started + 79 * MINUTE)
    [kitty] = timed.fire_due()                                # the dealer's 60 s, long passed
    assert kitty.type == "SJ3TimeLimitExceeded" and moment(kitty.recorded_at) > \
        moment(meta(kitty)["deadline"])                       # fired late, its deadline kept
    [alert] = timed.run_to_next()
    assert (alert.type, alert.data_dict) == ("TimeLimitReached", {"limit_minutes": 80})
    fired_exactly_at(alert, started + 80 * MINUTE)
    assert (table.match()["status"], table.match()["time_limit_reached"]) == ("playing", 80)
    table.finish_hand(seed=2)
    match = table.match()
    assert (match["status"], match["reason"], match["hands_played"]) == ("completed", "time", 1)
    result = match["result"]                                  # the defenders held: 2 : 2
    assert (result["draw"], result["levels"], result["match_points"]) == (
        True, {"A": 2, "B": 2}, {"A": 1, "B": 1})             # SJ3-12.2: a draw, 1 point each
    table.rejected("HandDealt", "SJ3-12", hand=2, **sj3_table.build_deal({}))


# --- T-6.6: a pair not seated at minute 21 --------------------------------------------------------

def test_t_6_6_a_pair_not_seated_when_minute_21_begins_forfeits_the_round(timed):
    table = sj3(timed)
    started = started_at(timed, table)
    seated = client_as(timed.app, "table", table.tid, match=table.mid)
    ok(seated.post(f"/v1/tournaments/{table.tid}/events", json=table.body("PairSeated",
                                                                          side="A")))
    assert keys(timed, table)[0] == "lateness/B"
    [forfeit] = timed.run_to_next()
    assert (forfeit.type, forfeit.data_dict) == ("LatenessLimitReached", {"sides": ["B"]})
    fired_exactly_at(forfeit, started + 20 * MINUTE)
    match = table.match()
    assert (match["status"], match["winner"], match["forfeited_by"]) == ("completed", "A", "B")
    assert match["lateness"] == [{"side": "B", "minutes": 21, "rule": "T-6.6",
                                  "consequence": "roundForfeited", "points": 0}]
    assert (match["result"]["levels"], match["result"]["match_points"]) == (
        {"A": 4, "B": 2}, {"A": 2, "B": 0})
    assert keys(timed, table) == []


def test_t_6_6_the_referees_count_or_the_tables_pair_seated_stops_the_lateness_clock(timed):
    table = sj3(timed)
    table.ok("LatenessRecorded", side="B", minutes=12)        # the referee's count: −30 in hand 1
    assert keys(timed, table)[0] == "lateness/A"
    table.ok("PairSeated", side="A")
    assert keys(timed, table) == ["time/80"]
    timed.advance(minutes=25)
    assert timed.fire_due() == []


def test_who_may_post_the_lateness_events(timed):
    """PairSeated is the table's (and the referee's); LatenessLimitReached the timer's (role
    system) or a referee's: other roles get 403 and nothing is stored."""
    table = sj3(timed)
    url = f"/v1/tournaments/{table.tid}/events"
    player = client_as(timed.app, "player", table.tid, match=table.mid, seat=0)
    at_table = client_as(timed.app, "table", table.tid, match=table.mid)
    before = table.events()
    assert player.post(url, json=table.body("PairSeated", side="A")).status_code == 403
    assert at_table.post(url, json=table.body("LatenessLimitReached",
                                              sides=["B"])).status_code == 403
    assert table.events() == before
    table.rejected("LatenessLimitReached", "T-6.6", sides=["B"])   # not before minute 21
    table.bad("LatenessLimitReached", sides=["C"])
