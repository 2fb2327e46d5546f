"""The timer and the committee: a ruling made while a move's time runs restarts that time at the
ruling (the players wait while the committee decides), and a timer event the committee voids is
not fired again and again (SJ3-11.8, T-1.5)."""
from __future__ import annotations

from datetime import timedelta

import sj3_table
from clients import client_as
from tables import ok

from rules.match_clock import moment

FOLLOW = timedelta(seconds=10)  # SJ3-11.8


def sj3_at_the_first_follow(timed):
    """An SJ3 hand whose dealer (seat 0) has led AH: seat 1's 10 s to follow are running."""
    table = sj3_table.Table(timed.client)
    table.clock = timed.clock
    table.to_play({0: "2S AH"}, card="2S")
    led = table.ok("CardsPlayed", seat=0, cards=["AH"])
    return table, led


def void(timed, table, position: int):
    return ok(timed.client.post(f"/v1/tournaments/{table.tid}/events", json={
        "type": "RulingRecorded", "stream": table.stream, "data": {
            "text": "the report stands void", "effects": [{
                "kind": "void", "rule": "discretion", "member": "主任", "positions": [position]}]}}))


def follow_deadline(timed, table) -> str:
    [follow] = [c for c in timed.pending(table.tid, table.mid) if c["key"].endswith("/follow")]
    return follow["deadline"]


def test_a_ruling_made_while_a_seat_s_time_runs_restarts_it_at_the_ruling(timed):
    table, led = sj3_at_the_first_follow(timed)
    assert moment(follow_deadline(timed, table)) == moment(led["recorded_at"]) + FOLLOW
    timed.advance(seconds=8)
    ruling = ok(timed.client.post(f"/v1/tournaments/{table.tid}/events", json={
        "type": "RulingRecorded", "stream": table.stream, "data": {
            "text": "a card shown: 10 points", "effects": [{
                "kind": "penalty", "rule": "SJ3-11.1", "member": "主任", "hand": 1, "side": "B",
                "points": 10}]}}))
    assert moment(follow_deadline(timed, table)) == moment(ruling["recorded_at"]) + FOLLOW
    timed.advance(seconds=3)  # past the old deadline: nothing is due
    assert timed.fire_due() == []
    [slow] = timed.run_to_next()
    assert moment(slow.recorded_at) == moment(ruling["recorded_at"]) + FOLLOW


def test_a_paused_ruling_that_voids_a_play_leaves_the_next_seat_its_whole_time(timed):
    table, _ = sj3_at_the_first_follow(timed)
    moves = table.play_out(seed=0)
    follow = table.ok(moves[0][0], **moves[0][1])
    referee = client_as(timed.app, "referee", table.tid)
    ok(referee.post(f"/v1/tournaments/{table.tid}/events", json={
        "type": "MatchClockPaused", "stream": table.stream, "data": {"reason": "a dispute"}}))
    timed.advance(minutes=5)
    void(timed, table, follow["position"])  # seat 1 is to follow again
    resumed = ok(referee.post(f"/v1/tournaments/{table.tid}/events", json={
        "type": "MatchClockResumed", "stream": table.stream, "data": {}}))
    assert timed.fire_due() == []  # not an instant overrun for the committee's five minutes
    assert moment(follow_deadline(timed, table)) == moment(resumed["recorded_at"]) + FOLLOW


def test_a_voided_timer_report_is_not_fired_over_and_over(timed):
    table, _ = sj3_at_the_first_follow(timed)
    [slow] = timed.run_to_next()
    assert slow.type == "SJ3TimeLimitExceeded"
    void(timed, table, slow.position)
    before = timed.store.last_position()
    timed.advance(seconds=5)
    assert timed.fire_due() == []  # the restarted 10 s have not passed
    timed.advance(seconds=5)
    [again] = timed.fire_due()  # a new report, once: the first was voided
    assert again.id != slow.id and timed.store.last_position() == before + 1
    assert timed.fire_due() == []
