"""The committee's desk on a deployment whose timer runs (issue 9 with issue 8; tests/timed.py):
a preview reads the timer's present and moves no clock — nothing is recorded, so the next event
is recorded when it would have been — and a log mixing the timer's events, a referee's pause of
the match clock and a ruling that reaches back reads, from a new server on the same database,
byte for byte as the live one."""
from __future__ import annotations

import sj3_table
from clients import client_as
from rulings_desk import Desk
from tables import ok

from rules.match_clock import timestamp

MEMBER = "暨南大学裁判组"


def sj3(timed) -> sj3_table.Table:
    table = sj3_table.Table(timed.client)
    table.clock = timed.clock
    return table


def test_t_1_5_a_preview_moves_no_clock_the_ruling_is_recorded_when_it_would_have_been(timed):
    table = sj3(timed)
    table.to_play({0: "2S AH"}, card="2S")
    table.ok("CardsPlayed", seat=0, cards=["AH"])
    desk = Desk(timed.client, table.tid)
    fine = {"text": "seat 1 spoke of his cards", "effects": [
        {"kind": "penalty", "rule": "SJ3-11.1", "member": MEMBER, "side": "B", "points": 10}]}
    next_time = timestamp(timed.now())
    preview = desk.preview(table.stream, fine)
    desk.preview(table.stream, fine)                      # and again: still no time passes
    assert timestamp(timed.now()) == next_time
    assert preview["recorded_at"] == next_time            # the timer's present
    recorded = desk.rule(table.stream, fine)
    assert recorded["recorded_at"] == next_time
    # so the preview's state is the recorded one to the microsecond, the clock's own included
    desk.assert_preview_is_the_state_after(preview)


def test_t_1_5_timer_events_a_paused_clock_and_a_ruling_that_reaches_back_rebuild_as_live(
        timed):
    """SJ3-11.8 on the timer: seat 0 (side A) overruns the kitty's 60 s, the referee pauses the
    clock for 40 s, seat 1 (B) and seat 2 (A) overrun the 10 s to follow — A's second overrun
    costs 20 points. The committee voids the first overrun (the referee had called seat 0
    away): reaching back, seat 2's overrun becomes A's first, a warning, and the 20 points go.
    Hand 1 is played out, hand 2 dealt and its 5-second pause closed by the timer. A new
    server on the same database serves every read as the live one does."""
    table = sj3(timed)
    table.to_play({0: "2S AH"}, card="2S")
    [kitty] = timed.run_to_next()
    table.ok("CardsPlayed", seat=0, cards=["AH"])
    referee = client_as(timed.app, "referee", table.tid)
    for clock_event in ("MatchClockPaused", "MatchClockResumed"):
        ok(referee.post(f"/v1/tournaments/{table.tid}/events", json={
            "type": clock_event, "stream": table.stream, "data": {}}))
        timed.advance(seconds=40)
    [slow_b] = timed.run_to_next()
    table.ok("CardsPlayed", seat=1, cards=[table.play_out(seed=0)[0][1]["cards"][0]])
    [slow_a] = timed.run_to_next()
    assert [r.data_dict["seat"] for r in (kitty, slow_b, slow_a)] == [0, 1, 2]
    breaches = [(b["seat"], b["consequence"]) for b in table.match()["time_breaches"]]
    assert breaches == [(0, "warning"), (1, "warning"), (2, "penalty")]
    assert [(p["rule"], p["side"], p["points"]) for p in table.hand_view()["penalties"]] == [
        ("SJ3-11.8", "A", 20)]

    desk = Desk(timed.client, table.tid)
    desk.raise_dispute("sj3-t", "the referee called seat 0 away during the kitty",
                       match_id="R1-1", hand=1, positions=[kitty.position])
    ruling = desk.rule(table.stream, {
        "text": "seat 0 was called away by the referee: no overrun", "dispute_id": "sj3-t",
        "effects": [{"kind": "void", "rule": "SJ3-11.8", "member": MEMBER,
                     "positions": [kitty.position]}]})
    desk.resolve("sj3-t", ruling["id"], "the first overrun is void")
    breaches = [(b["seat"], b["consequence"]) for b in table.match()["time_breaches"]]
    assert breaches == [(1, "warning"), (2, "warning")]
    assert table.hand_view()["penalties"] == []

    table.finish_hand(seed=3)
    table.hand = 2
    table.deal(seed=8)
    table.ok("DrawingEnded")
    [closed] = timed.run_to_next()
    assert (closed.type, closed.data_dict) == ("DeclarationWindowClosed", {"hand": 2})
    types = [e["type"] for e in desk.log()]
    assert {"SJ3TimeLimitExceeded", "DeclarationWindowClosed", "MatchClockPaused", "MatchClockResumed",
            "RulingRecorded"} <= set(types), types
    desk.assert_rebuild_reads_as_live()
