"""Every kind of ruling effect through the HTTP API (issue 9; T-1.5), each with what follows
downstream: a void and a replay (the hand played again by new events), a hand awarded, a penalty
assessed or cancelled, levels adjusted to the end of a match and the bracket, a forfeit in a
match and a disqualification from the tournament, a setting from a given hand on, and a ruling
overturned by a later one."""
from __future__ import annotations

import random

import pytest
from gd_table import Table as GDTable
from mjs_table import Table as MJSTable
from rulings_desk import Desk, changes_of
from sj2_table import Table
from tables import ok

from rules.shengji.cards import Trump
from rules.shengji.random_moves import random_follow

MEMBER = "钟致鹏"


def effect(kind: str, rule: str = "SJ2-15.3", **members) -> dict:
    return {"kind": kind, "rule": rule, "member": MEMBER, **members}


def rule(desk: Desk, stream: str, *effects: dict) -> dict:
    return desk.rule(stream, {"text": "the committee rules", "effects": list(effects)})


def started(client, settings: dict | None = None) -> tuple[Table, Desk]:
    table = Table(client, settings)
    table.to_play({0: "2S"}, card="2S")
    return table, Desk(client, table.tid)


def plays(table: Table, count: int, seed: int = 0) -> list[int]:
    rng = random.Random(seed)
    return [table.play_legal(rng)["position"] for _ in range(count)]


def test_void_then_the_voided_play_is_replaced_by_a_new_one(client):
    table, desk = started(client)
    first, second, third = plays(table, 3)
    voided_seat = next(e for e in desk.log() if e["position"] == third)["data"]["seat"]
    rule(desk, table.stream, effect("void", positions=[third]))
    view = table.hand_view()
    assert len(view["current_trick"]["plays"]) == 2 and view["turn"] == voided_seat
    assert table.match()["edits"][0] == {"position": third, "edit": "voided", "ruling":
                                         third + 1, "effect": 0, "kind": "void",
                                         "rule": "SJ2-15.3", "member": MEMBER}
    table.play_legal(random.Random(9))   # seat 3 plays again, judged strictly
    assert len(table.hand_view()["current_trick"]["plays"]) == 3
    # voiding an earlier play leaves every later one out of turn: flagged, not applied
    rule(desk, table.stream, effect("void", positions=[first]))
    flags = table.match()["flags"]
    assert [f["position"] for f in flags] == [second, third + 2]
    assert {f["rule"] for f in flags} == {"SJ2-8.1"}
    assert all("is seat" in f["message"] for f in flags)
    # the rule's words may name what a seat holds: the public sees the rule only
    public = client.application.test_client()
    shown = ok(public.get(f"/v1/tournaments/{table.tid}/matches/R1-1"))["flags"]
    assert shown == [{k: v for k, v in f.items() if k != "message"} for f in flags]
    assert table.hand_view()["current_trick"] is None
    assert table.hand_view()["turn"] == table.hand_view()["dealer"]  # the first lead again


def test_replay_hand_from_a_position(client):
    table, desk = started(client)
    positions = plays(table, 8)             # two tricks
    before = table.hand_view()
    assert len(before["tricks"]) == 2
    rule(desk, table.stream, effect("replayHand", hand=1, **{"from": positions[4]}))
    view = table.hand_view()
    after_trick_1 = table.hand_view(at=positions[3])
    assert len(view["tricks"]) == 1 and view["current_trick"] is None
    assert [s["cards"] for s in view["seats"]] == [s["cards"] for s in after_trick_1["seats"]]
    assert table.match()["flags"] == []
    assert {e["edit"] for e in table.match()["edits"]} == {"replayed"}
    plays(table, 4, seed=5)                # trick 2 played again, differently perhaps
    assert len(table.hand_view()["tricks"]) == 2


def test_award_hand_ends_it_with_the_points_awarded_and_moves_levels(client):
    table, desk = started(client)
    plays(table, 4)
    rule(desk, table.stream, effect("awardHand", hand=1, result={"points": 0}))
    match, row = table.match(), table.results()[0]
    assert (row["final_points"], row["result"]) == (0, {"winner": "dealer", "levels": 3,
                                                        "deal_passes": False})
    assert match["levels"] == {"A": "5", "B": "2"} and match["next_dealer"] == 2
    assert table.hand_view()["phase"] == "completed"
    table.rejected("CardsPlayed", "SJ2-16", seat=0, cards=table.held(0)[:1])


def test_a_penalty_now_and_a_penalty_placed_after_an_earlier_event(client):
    table, desk = started(client)
    first = plays(table, 2)[0]
    rule(desk, table.stream, effect("penalty", side="B", points=30))
    rule(desk, table.stream, effect("penalty", side="A", points=10, after=first))
    penalties = table.hand_view()["penalties"]
    # the second ruling folds the stream again: its penalty sits after the first play
    assert [(p["side"], p["points"], p["source"], p["trick"]) for p in penalties] == [
        ("A", 10, "committee", 1), ("B", 30, "committee", 1)]


def test_cancel_a_follow_error_before_it_is_established(client):
    table = Table(client, {"enforcement": "record"})
    table.to_play({0: "2S AH", 1: "4H 6C"}, card="2S", no={1: "H"})
    table.ok("CardsPlayed", seat=0, cards=["AH"])
    revoke = table.ok("CardsPlayed", seat=1, cards=["6C"])["position"]
    plays(table, 2)                        # established when seat 2 plays (SJ2-12.4)
    assert len(table.hand_view()["follow_errors"]) == 1
    desk = Desk(client, table.tid)
    preview = desk.preview(table.stream, {"text": "no penalty", "effects": [
        effect("cancelPenalty", "SJ2-12.4", position=revoke)]})
    assert changes_of(preview, "hand", 1)["/follow_errors/0"][1] is None
    rule(desk, table.stream, effect("cancelPenalty", "SJ2-12.4", position=revoke))
    view = table.hand_view()
    assert view["follow_errors"] == [] and view["tricks"][0]["plays"][1]["cards"] == ["6C"]
    row = table.finish_hand(seed=4)["result"]
    assert row["adjustments"] == []
    # a play that brought no penalty has none to cancel
    Desk(client, table.tid).refused("RulingRecorded", table.stream, {"text": "x", "effects": [
        effect("cancelPenalty", position=revoke - 1)]}, 422, "T-1.5")


def test_levels_adjusted_past_the_target_end_the_match_and_decide_the_bracket(client):
    table, desk = started(client)
    table.finish_hand(seed=2)
    rule(desk, table.stream, effect("adjustLevel", side="B", levels=9))
    match = table.match()
    assert match["levels"]["B"] == "J" and (match["status"], match["winner"]) == ("completed",
                                                                                  "B")
    bracket = ok(client.get(f"/v1/tournaments/{table.tid}/bracket"))
    assert bracket["champion"] == "west"
    standings = ok(client.get(f"/v1/tournaments/{table.tid}/standings"))
    assert standings["final"] and standings["ranking"][0]["team"] == "west"


def test_a_forfeit_in_the_match_and_a_disqualification_from_the_tournament(client):
    table, desk = started(client)
    preview = desk.preview(table.stream, {"text": "east forfeits", "effects": [
        effect("forfeit", "T-1.5", entrant="east")]})
    assert changes_of(preview, "bracket")["/champion"] == (None, "west")
    rule(desk, table.stream, effect("forfeit", "T-1.5", entrant="east"))
    match = table.match()
    assert (match["status"], match["winner"], match["reason"]) == ("completed", "B", "forfeit")
    desk.refused("RulingRecorded", table.stream, {"text": "x", "effects": [
        effect("forfeit", entrant="north")]}, 422, "T-1.5")


def test_a_disqualification_in_the_tournaments_stream_withdraws_the_entrant(client):
    table, desk = started(client)
    rule(desk, f"tournament-{table.tid}",
         effect("disqualify", "T-5.6", entrant="west", reason="illicit signals"))
    team = next(t for t in ok(client.get(f"/v1/tournaments/{table.tid}"))["teams"]
                if t["team_id"] == "west")
    assert team["withdrawn"] is True
    assert ok(client.get(f"/v1/tournaments/{table.tid}/bracket"))["champion"] == "east"
    table.rejected("CardsPlayed", "T-1.3", seat=0, cards=table.held(0)[:1])
    desk.refused("RulingRecorded", f"tournament-{table.tid}", {"text": "x", "effects": [
        effect("penalty", side="A", points=5)]}, 422, "T-1.5")


def test_a_setting_from_a_given_hand_on(client):
    table, desk = started(client)
    table.finish_hand(seed=2)
    desk.refused("RulingRecorded", table.stream, {"text": "x", "effects": [
        effect("setting", key="targetLevel", value="5", from_hand=3)]}, 422, "T-1.5")
    desk.refused("RulingRecorded", table.stream, {"text": "x", "effects": [
        effect("setting", key="targetLevel", value="Z", from_hand=2)]}, 422, "SJ2-18")
    rule(desk, table.stream, effect("setting", key="maxHands", value=2, from_hand=2))
    assert table.match()["settings"]["maxHands"] == 2
    # from hand 1 on: the stream is folded again from hand 1's deal with the new value
    rule(desk, table.stream, effect("setting", key="throwCheckAgainst", value="allOthers",
                                    from_hand=1))
    assert table.match()["settings"]["throwCheckAgainst"] == "allOthers"
    assert table.match()["flags"] == []


def test_a_ruling_overturned_by_a_later_one_loses_its_effects(client):
    table, desk = started(client)
    first = rule(desk, table.stream, effect("penalty", side="B", points=40))
    rule(desk, table.stream, effect("void", "T-1.5", positions=[first["position"]]))
    assert table.hand_view()["penalties"] == []
    rulings = desk.rulings()
    assert [(r["status"], r["overturned_by"]) for r in rulings] == [
        ("overturned", rulings[1]["position"]), ("applied", None)]


def test_guandan_effects_penalty_award_adjust_and_disqualify(client):
    table = GDTable(client)
    desk = Desk(client, table.tid)
    table.deal()
    rule(desk, table.stream, effect("penalty", "GD-10.3", side="A", levels=1))
    assert table.match()["penalties"][0]["levels"] == 1
    rule(desk, table.stream, effect("awardHand", "GD-10.3", hand=1,
                                    result={"places": [1, 3, 0, 2]}))
    match, row = table.match(), table.results()[0]
    assert row["places"] == [1, 3] and row["double_down"]
    # side B double down: +3 → 5; side A's pending penalty applies at the hand's end (2 stays 2)
    assert match["levels"] == {"A": "2", "B": "5"}
    rule(desk, table.stream, effect("adjustLevel", "GD-10.3", side="B", levels=-2))
    assert table.match()["levels"] == {"A": "2", "B": "3"}
    desk.refused("RulingRecorded", table.stream, {"text": "x", "effects": [
        effect("awardHand", hand=2, result={"places": [0, 0, 1, 2]})]}, 422)
    rule(desk, table.stream, effect("disqualify", "GD-10.1", entrant="east"))
    match = table.match()
    assert (match["status"], match["winner"], match["reason"]) == ("completed", "B",
                                                                   "disqualified")


@pytest.mark.parametrize("payees, scores", [([], [0, -6, 0, 0]), ([2], [0, -6, 6, 0])])
def test_sichuan_penalty_in_the_ledger(client, payees, scores):
    table = MJSTable(client)
    desk = Desk(client, table.tid)
    table.deal({0: "9s"}, dealer=0)
    table.voids("mmmm")
    members = {"seat": 1, "points": 6, **({"payees": payees} if payees else {})}
    rule(desk, table.stream, effect("penalty", "MJS-10.2", **members))
    hand = table.hand_view()
    assert hand["scores"] == scores
    (row,) = hand["ledger"]
    assert (row["from"], row["to"], row["reason"], row["rule"]) == (
        1, payees[0] if payees else None, "penalty", "MJS-10.2")
    desk.refused("RulingRecorded", table.stream, {"text": "x", "effects": [
        effect("adjustLevel", side="A", levels=1)]}, 422, "T-1.5")


def test_a_mahjong_hand_awarded_with_its_payments(client):
    table = MJSTable(client)
    desk = Desk(client, table.tid)
    table.deal({0: "9s"}, dealer=0)
    table.voids("mmmm")
    rule(desk, table.stream, effect("awardHand", "MJS-8.3", hand=1,
                                    result={"payments": [3, -1, -1, -1], "winners": [0]}))
    match = table.match()
    assert match["balances"][:4] == [3, -1, -1, -1] and match["hands_played"] == 1
    desk.refused("RulingRecorded", table.stream, {"text": "x", "effects": [
        effect("awardHand", hand=2, result={"payments": [1, 1, 1, 1]})]}, 422)



def test_a_batch_is_judged_on_the_state_its_ruling_makes(client):
    """A ruling that reaches back and the events after it in one atomic batch: each event is
    judged on the state the ones before it made — the ruled one for those after the ruling."""
    table, desk = started(client)
    first, second = plays(table, 2)
    view = table.hand_view(at=first)                # the state the void brings back
    seat = view["turn"]
    trump = Trump(view["trump"]["level"], view["trump"]["suit"])
    again = list(random_follow(view["current_trick"]["plays"][0]["cards"],
                               view["seats"][seat]["cards"], trump, random.Random(4)))
    void = ("RulingRecorded", {"text": "the second play is void", "effects": [
        effect("void", positions=[second])]})
    out_of_turn = ("CardsPlayed", {"seat": (seat + 1) % 4,
                                   "cards": view["seats"][(seat + 1) % 4]["cards"][:1]})
    response = client.post(f"/v1/tournaments/{table.tid}/events", json={"events": [
        table.body(t, **d) for t, d in (void, out_of_turn)]})
    assert (response.status_code, response.json["rule"], response.json["event_index"]) == (
        422, "SJ2-9.1", 1)
    assert desk.log()[-1]["position"] == second     # all or nothing
    table.batch([void, ("CardsPlayed", {"seat": seat, "cards": again})])
    plays_now = table.hand_view()["current_trick"]["plays"]
    assert [(p["seat"], p["cards"]) for p in plays_now][1] == (seat, again)
