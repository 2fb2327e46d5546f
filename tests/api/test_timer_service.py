"""The timer (issue 8): deadlines derived from the log fire by themselves, exactly once, at the
exact moment, as role ``system``; a restart fires what passed while the service was down; two
timers on one database append each deadline once; a referee's pause moves every deadline.

All on a fake clock (tests/timed.py): nothing here sleeps. The table is an MJO table (the
dealer's 30 s for the first discard, MJO-8.1); each game's own time rules are tested in
tests/api/test_*_timers.py.
"""
from __future__ import annotations

import json
from datetime import timedelta

import sj2_table
from clients import client_as
from mj_table import TID, Table
from tables import ok

from projections.deadlines import TIMER_ACTOR
from rules.match_clock import moment

CLOCK = f"/v1/tournaments/{TID}/matches/S1-T1/clock"
FIRST_DISCARD = timedelta(seconds=30)  # MJO-8.1


def dealt_table(timed) -> tuple[Table, dict]:
    table = Table(timed.client)
    dealt = table.deal()
    return table, dealt


def timer_events(timed) -> list:
    return [r for r in timed.store.read_tournament(TID) if meta(r).get("actor") == TIMER_ACTOR]


def meta(record) -> dict:
    return json.loads(record.meta)


def test_the_clock_read_shows_the_running_limit_with_its_deadline(timed):
    table, dealt = dealt_table(timed)
    timed.advance(seconds=10)
    view = timed.clock_view(TID, "S1-T1")
    deal_at = moment(dealt["recorded_at"])
    assert view["running"] is True and view["paused_since"] is None
    [limit] = [c for c in view["clocks"] if c["event_type"] == "TimeLimitExceeded"]
    assert limit["seat"] == 0 and limit["rule"] == "MJO-8.1"
    assert moment(limit["deadline"]) == deal_at + FIRST_DISCARD
    assert limit["data"] == {"hand": 1, "seat": 0, "limit": "firstDiscard"}
    assert 19.9 < limit["remaining_seconds"] < 20.0  # 10 s of 30 gone (and the test clock's ms)


def test_a_deadline_fires_exactly_when_it_passes_as_the_system_and_only_once(timed):
    table, dealt = dealt_table(timed)
    due = moment(dealt["recorded_at"]) + FIRST_DISCARD
    timed.set_now(due - timedelta(microseconds=1))
    assert timed.fire_due() == []  # not a microsecond early
    [fired] = timed.run_to_next()
    assert fired.type == "TimeLimitExceeded"
    assert fired.data_dict == {"hand": 1, "seat": 0, "limit": "firstDiscard"}
    assert moment(fired.recorded_at) == due
    assert meta(fired) == {"actor": "timer", "role": "system", "deadline": fired.recorded_at}
    timed.advance(seconds=30)
    assert timed.fire_due() == []  # reported once (MJO-8.1): nothing more pending for it
    [report] = table.hand_view()["time_limits"]  # the consequence: recorded with the hand
    assert (report["seat"], report["limit"]) == (0, "firstDiscard")


def test_a_move_in_time_ends_the_wait_and_the_timer_appends_nothing_for_it(timed):
    table, _ = dealt_table(timed)
    timed.advance(seconds=20)
    table.ok("TileDiscarded", seat=0, tile=table.concealed(0)[0])
    keys = {c["key"] for c in timed.pending(TID, "S1-T1")}
    assert "h1/c0/s0/firstDiscard" not in keys
    timed.advance(seconds=11)  # past the first discard's 30 s
    assert all(r.data_dict.get("limit") != "firstDiscard" for r in timed.fire_due())


def test_a_restart_fires_a_deadline_that_passed_while_down_once_with_its_original_time(timed):
    table, dealt = dealt_table(timed)
    due = moment(dealt["recorded_at"]) + FIRST_DISCARD
    timed.stop()
    timed.advance(minutes=5)  # the service is down as the deadline passes
    timed.restart()
    fired = timed.fire_due()
    assert [r.type for r in fired] == ["TimeLimitExceeded"]
    assert moment(meta(fired[0])["deadline"]) == due
    assert moment(fired[0].recorded_at) > due + timedelta(minutes=4)
    timed.restart()  # and again: nothing fires twice
    assert timed.fire_due() == []
    assert len(timer_events(timed)) == 1


def test_a_pause_moves_the_deadline_by_the_time_the_clock_stood(timed):
    table, dealt = dealt_table(timed)
    due = moment(dealt["recorded_at"]) + FIRST_DISCARD
    referee = client_as(timed.app, "referee", TID)
    timed.advance(seconds=10)
    paused = ok(referee.post(f"/v1/tournaments/{TID}/events", json={
        "type": "MatchClockPaused", "stream": table.stream, "data": {"reason": "a ruling"}}))
    timed.advance(minutes=2)
    view = timed.clock_view(TID, "S1-T1")
    assert view["running"] is False and view["paused_since"] == paused["recorded_at"]
    [limit] = [c for c in view["clocks"] if c["event_type"] == "TimeLimitExceeded"]
    assert limit["deadline"] is None and 19.9 < limit["remaining_seconds"] < 20.0
    assert timed.fire_due() == []  # nothing passes while the clock stands
    resumed = ok(referee.post(f"/v1/tournaments/{TID}/events", json={
        "type": "MatchClockResumed", "stream": table.stream, "data": {}}))
    stood = moment(resumed["recorded_at"]) - moment(paused["recorded_at"])
    view = timed.clock_view(TID, "S1-T1")
    assert view["running"] is True and view["paused_seconds"] == stood.total_seconds()
    assert view["pauses"] == [{"paused_at": paused["recorded_at"],
                               "resumed_at": resumed["recorded_at"], "reason": "a ruling"}]
    [fired] = timed.run_to_next()
    assert moment(fired.recorded_at) == due + stood == moment(meta(fired)["deadline"])


def test_a_pause_of_a_paused_clock_and_a_resume_of_a_running_one_are_refused(timed):
    table, _ = dealt_table(timed)
    before = timed.store.last_position()

    def post(event_type: str):
        return timed.client.post(f"/v1/tournaments/{TID}/events", json={
            "type": event_type, "stream": table.stream, "data": {}})
    response = post("MatchClockResumed")
    assert (response.status_code, response.json["rule"]) == (422, "T-1.5")
    assert "no pause to resume" in response.json["detail"]
    ok(post("MatchClockPaused"))
    response = post("MatchClockPaused")
    assert (response.status_code, response.json["rule"]) == (422, "T-1.5")
    assert "already paused" in response.json["detail"]
    assert timed.store.last_position() == before + 1


def test_a_pause_of_a_match_that_is_over_is_refused_and_nothing_is_stored(timed):
    table = sj2_table.Table(timed.client)
    ok(timed.client.post(f"/v1/tournaments/{table.tid}/events", json={
        "type": "RulingRecorded", "stream": table.stream, "data": {
            "text": "west did not come", "effects": [{
                "kind": "forfeit", "entrant": "west", "rule": "discretion", "member": "主任"}]}}))
    assert table.match()["status"] == "completed"
    before = timed.store.last_position()
    response = timed.client.post(f"/v1/tournaments/{table.tid}/events", json={
        "type": "MatchClockPaused", "stream": table.stream, "data": {}})
    assert (response.status_code, response.json["rule"]) == (422, "T-1.5")
    assert "over" in response.json["detail"]
    assert timed.store.last_position() == before
    assert timed.pending(table.tid, table.mid) == []


def test_a_referee_may_post_a_timer_event_by_hand(timed):
    table, dealt = dealt_table(timed)
    timed.set_now(moment(dealt["recorded_at"]) + FIRST_DISCARD)
    referee = client_as(timed.app, "referee", TID)
    stored = ok(referee.post(f"/v1/tournaments/{TID}/events", json={
        "type": "TimeLimitExceeded", "stream": table.stream,
        "data": {"hand": 1, "seat": 0, "limit": "firstDiscard"}}))
    assert stored["meta"]["role"] == "referee" and "deadline" not in stored["meta"]
    assert timed.fire_due() == []  # reported: the timer does not report it again


def test_a_pause_of_a_match_not_started_is_refused(timed):
    Table(timed.client)
    before = timed.store.last_position()
    response = timed.client.post(f"/v1/tournaments/{TID}/events", json={
        "type": "MatchClockPaused", "stream": f"match-{TID}:S9-T9", "data": {}})
    assert response.status_code == 422 and response.json["rule"] == "T-1.3"
    assert timed.store.last_position() == before


def test_timer_events_are_the_system_s_or_a_referee_s_only(timed):
    table, dealt = dealt_table(timed)
    timed.set_now(moment(dealt["recorded_at"]) + FIRST_DISCARD)
    event = {"type": "TimeLimitExceeded", "stream": table.stream,
             "data": {"hand": 1, "seat": 0, "limit": "firstDiscard"}}
    before = timed.store.last_position()
    for role, scope in (("table", {"match": "S1-T1"}), ("player", {"match": "S1-T1", "seat": 0}),
                        ("organiser", {}), ("committee", {}), ("auditor", {})):
        response = client_as(timed.app, role, TID, **scope).post(
            f"/v1/tournaments/{TID}/events", json=event)
        assert response.status_code == 403, (role, response.json)
        assert response.mimetype == "application/problem+json"
    assert timed.store.last_position() == before
    system = client_as(timed.app, "system", TID)
    stored = ok(system.post(f"/v1/tournaments/{TID}/events", json=event))
    assert stored["meta"]["role"] == "system" and "deadline" not in stored["meta"]


def test_a_client_cannot_claim_the_timer_s_deadline(timed):
    table, _ = dealt_table(timed)
    response = timed.client.post(f"/v1/tournaments/{TID}/events", json={
        "type": "MatchClockPaused", "stream": table.stream, "data": {},
        "meta": {"deadline": "2026-11-29T09:00:30.000000Z"}})
    assert response.status_code == 400
    assert response.json["errors"][0]["path"] == "/meta/deadline"
