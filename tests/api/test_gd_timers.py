"""The time rules of a 掼蛋 match run by the timer (issue 8), through the HTTP API on a fake clock
(tests/timed.py): nothing sleeps, the test moves time, the timer appends each deadline's event as
role ``system`` exactly at its deadline, and the consequence is the rules' —

* GD-9.1 / 9.2 (seed 001 「出牌时间规则」): tribute 20 s after the deal, return 40 s after the
  tribute, first lead 40 s after the return, every later play or pass 20 s after the move before —
  each overrun recorded with the hand (GD-9.3: the committee decides), or with
  ``autoPassOnTimeout`` a pass;
* GD-11.2 / T-5.4 and guandan.md Ex 10: at 60 minutes the higher level wins; at equal levels 30
  more minutes; still equal, one more hand, won by the team of its first player out.
"""
from __future__ import annotations

import json
from datetime import timedelta

from gd_table import TID, Table

from rules.guandan.tribute import tribute_choices
from rules.match_clock import moment

SECOND = timedelta(seconds=1)


def meta(record) -> dict:
    return json.loads(record.meta)


def fired_exactly_at(record, due) -> None:
    """The timer's event: role system, recorded at its deadline, the deadline in its meta."""
    assert meta(record)["role"] == "system"
    assert moment(record.recorded_at) == due == moment(meta(record)["deadline"])


def overrun_of(record) -> tuple:
    assert record.type == "GDTimeLimitExceeded"
    data = record.data_dict
    return data["seat"], data["kind"]


def started_at(timed, table) -> object:
    return moment(table.match()["clock"]["started_at"])


# --- GD-9: each wait, by the timer -----------------------------------------------------------

def test_gd_9_2_the_first_lead_and_each_later_play_are_timed_from_the_move_before(timed):
    table = Table(timed.client)
    dealt = table.deal(leader=2)
    assert [c["key"] for c in timed.pending(TID, table.mid)] == ["h1/firstLead/s2", "limit/60"]
    timed.set_now(moment(dealt["recorded_at"]) + 40 * SECOND - timedelta(microseconds=1))
    assert timed.fire_due() == []                             # not a microsecond early
    [first] = timed.run_to_next()
    assert overrun_of(first) == (2, "firstLead")
    fired_exactly_at(first, moment(dealt["recorded_at"]) + 40 * SECOND)
    hand = table.hand_view()
    assert hand["turn"] == 2                                 # GD-9.3: seat 2 still leads
    assert hand["time_overruns"] == [{
        "seat": 2, "kind": "firstLead", "rule": "GD-9.2", "wait": "firstLead/s2",
        "started": dealt["recorded_at"], "due": first.recorded_at, "at": first.recorded_at,
        "consequence": None}]
    led = table.ok("GDCardsPlayed", seat=2, cards=[table.held(2)[0]])
    [late] = timed.run_to_next()
    assert overrun_of(late) == (3, "play")
    fired_exactly_at(late, moment(led["recorded_at"]) + 20 * SECOND)
    passed = table.ok("Passed", seat=3)                       # the late pass counts
    [next_one] = timed.run_to_next()
    assert overrun_of(next_one) == (0, "play")
    fired_exactly_at(next_one, moment(passed["recorded_at"]) + 20 * SECOND)
    assert [(o["seat"], o["kind"]) for o in table.hand_view(view="public")["time_overruns"]] == \
        [(2, "firstLead"), (3, "play"), (0, "play")]


def test_gd_9_1_tribute_within_20_s_of_the_deal_and_return_within_40_s_of_the_tribute(timed):
    table = Table(timed.client)
    table.deal()
    table.steer([0, 2])                                       # double down: seats 1, 3 pay
    dealt = table.deal()
    assert [c["key"] for c in timed.pending(TID, table.mid)] == \
        ["h2/tribute/s1", "h2/tribute/s3", "limit/60"]
    h = table.state().hand.state
    table.ok("TributePaid", seat=1, card=_tribute(h, 1))
    [slow] = timed.run_to_next()                              # seat 3's time ran from the deal
    assert overrun_of(slow) == (3, "tribute")
    fired_exactly_at(slow, moment(dealt["recorded_at"]) + 20 * SECOND)
    paid = table.ok("TributePaid", seat=3, card=_tribute(table.state().hand.state, 3))
    table.ok("TributeReturned", seat=0, card=table.held(0)[0])
    [slow] = timed.run_to_next()
    assert overrun_of(slow) == (2, "return")
    fired_exactly_at(slow, moment(paid["recorded_at"]) + 40 * SECOND)
    returned = table.ok("TributeReturned", seat=2, card=table.held(2)[0])
    leader = table.hand_view()["turn"]
    [slow] = timed.run_to_next()
    assert overrun_of(slow) == (leader, "firstLead")
    fired_exactly_at(slow, moment(returned["recorded_at"]) + 40 * SECOND)
    hand = table.hand_view()
    assert [(o["seat"], o["kind"], o["rule"]) for o in hand["time_overruns"]] == \
        [(3, "tribute", "GD-9.1"), (2, "return", "GD-9.1"), (leader, "firstLead", "GD-9.2")]
    assert table.match()["penalties"] == []                   # GD-9.3: nothing automatic


def _tribute(h, seat: int) -> str:
    return tribute_choices(h.hands[seat], h.level)[0]


def test_gd_9_3_auto_pass_on_timeout_passes_for_the_slow_seat_but_never_leads(timed):
    table = Table(timed.client, {"autoPassOnTimeout": True})
    table.deal(leader=0)
    [lead] = timed.run_to_next()
    assert overrun_of(lead) == (0, "firstLead")
    assert table.hand_view()["turn"] == 0                     # a leader cannot pass (GD-5.2)
    table.ok("GDCardsPlayed", seat=0, cards=[table.held(0)[0]])
    passes = [timed.run_to_next() for _ in range(3)]          # seats 1, 2, 3 each 20 s later
    assert [overrun_of(r) for [r] in passes] == [(1, "play"), (2, "play"), (3, "play")]
    for [before], [after] in zip(passes, passes[1:]):
        fired_exactly_at(after, moment(before.recorded_at) + 20 * SECOND)
    hand = table.hand_view()
    assert [p["pass"] for p in hand["tricks"][0]["plays"]] == [False, True, True, True]
    assert (hand["turn"], hand["tricks"][0]["next_leader"]) == (0, 0)
    assert [o["consequence"] for o in hand["time_overruns"]] == [None, "pass", "pass", "pass"]
    [slow_lead] = timed.run_to_next()                         # seat 0 leads again: no pass
    assert overrun_of(slow_lead) == (0, "play")
    assert table.hand_view()["time_overruns"][-1]["consequence"] is None
    assert [c["key"] for c in timed.pending(TID, table.mid)] == ["limit/60"]


# --- GD-11.2 / T-5.4, guandan.md Ex 10: the match clock --------------------------------------

def play_hands(table, orders: list[list[int]]) -> None:
    for order in orders:
        table.play_hand(order)


def run_until(timed, event_type: str) -> list:
    """Lets the timer fire, deadline after deadline, up to and including ``event_type``."""
    fired = []
    while not fired or fired[-1].type != event_type:
        fired.extend(timed.run_to_next())
    return fired


def test_ex_10_at_60_minutes_the_higher_level_wins(timed):
    """Seed 001: 「60 钟内未打通 A 者，以级数领先者取胜」 — A at 9, B at J: B wins by the timer."""
    table = Table(timed.client)
    play_hands(table, [[1, 3], [1, 3], [0, 2], [0, 2], [1, 3], [0, 1, 3]])
    assert table.match()["levels"] == {"A": "9", "B": "J"}
    table.deal()                                              # hand 7 in play at the limit
    fired = run_until(timed, "TimeLimitReached")
    assert [r.type for r in fired[:-1]] == ["GDTimeLimitExceeded"]   # seat 3's tribute
    fired_exactly_at(fired[-1], started_at(timed, table) + timedelta(minutes=60))
    assert fired[-1].data_dict == {"limit_minutes": 60}
    match = table.match()
    assert (match["status"], match["winner"], match["winner_team"], match["reason"]) == \
        ("completed", "B", "west", "time")
    assert match["levels"] == {"A": "9", "B": "J"}
    assert timed.pending(TID, table.mid) == []


def test_ex_10_equal_at_60_then_90_minutes_then_one_more_hand_won_by_its_first_player_out(timed):
    """Both at Q at 60 minutes → 30 more (the hand in play goes on); both at K at 90 → one more
    hand; seat 3 goes out first → team B wins."""
    table = Table(timed.client)
    play_hands(table, [[0, 2], [1, 3], [0, 2], [1, 3], [0, 2], [1, 3], [0, 1, 3], [1, 0, 2]])
    assert table.match()["levels"] == {"A": "Q", "B": "Q"}
    table.deal()
    sixty = run_until(timed, "TimeLimitReached")[-1]
    fired_exactly_at(sixty, started_at(timed, table) + timedelta(minutes=60))
    match = table.match()
    assert (match["status"], match["clock"]["stage"]) == ("playing", "overtime")
    assert match["current_hand"]["phase"] == "tribute"       # hand 9 goes on
    table.settle_tribute()
    table.steer([0, 1, 3])                                   # A: Q → K
    table.play_hand([1, 0, 2])                               # B: Q → K
    assert table.match()["levels"] == {"A": "K", "B": "K"}
    ninety = run_until(timed, "TimeLimitReached")[-1]
    fired_exactly_at(ninety, started_at(timed, table) + timedelta(minutes=90))
    assert ninety.data_dict == {"limit_minutes": 90}
    assert table.match()["clock"]["stage"] == "extraHand"
    assert [c["key"] for c in timed.pending(TID, table.mid)] == []   # the extra hand is untimed
    table.deal()
    assert [c["key"] for c in timed.pending(TID, table.mid)] == ["h11/tribute/s2"]
    table.settle_tribute()
    table.steer([3, 1])
    match = table.match()
    assert match["last_result"]["extra_hand"] and match["last_result"]["places"][0] == 3
    assert (match["status"], match["winner"], match["reason"]) == ("completed", "B", "extraHand")
    assert [limit["limit_minutes"] for limit in match["clock"]["limits_reached"]] == [60, 90]
