"""A scripted three-deck 升级 dispute (issue 9): the referee reported an exposed card against
seat 1 (SJ3-11.5: 20 points off his side) in the middle of hand 1; side B's captain disputes it —
the card fell when seat 0 knocked seat 1's hand — and after the hand the committee cancels the
penalty: raise → preview → ruling → resolved. The defenders' points go back up by 20, and the
hand's outcome, the levels and the next dealer follow."""
from __future__ import annotations

from clients import admin_client, bearer, token_for
from rulings_desk import Desk, changes_of
from sj3_table import Table
from tables import Clock

from events.memory_store import InMemoryEventStore
from service import create_app


def exposed_card_penalty(signer):
    """Hand 1 of a fresh SJ3 match: seat 0 reveals 2S and deals; after the first trick the
    referee reports seat 1's exposed card (SJ3-11.5); the hand is then played out."""
    clock = Clock()
    table = Table(admin_client(create_app(store=InMemoryEventStore(clock=clock), signer=signer)))
    table.clock = clock
    table.to_play({0: "2S"}, card="2S")
    for _ in range(4):
        table.batch(table.play_out(seed=3)[:1])
    reported = table.ok("IrregularityReported", rule="SJ3-11.5", seat=1,
                        detail="seat 1's 9D lay face up on the table")["position"]
    table.finish_hand(seed=3)
    return table, reported


def ruling(position: int) -> dict:
    return {"text": "the card was knocked out of seat 1's hand by seat 0: no exposed card",
            "dispute_id": "sj3-1",
            "effects": [{"kind": "cancelPenalty", "rule": "SJ3-11.5", "member": "暨南大学裁判组",
                         "position": position}]}


def test_sj3_exposed_card_penalty_cancelled_raise_preview_rule_resolve(signer):
    table, reported = exposed_card_penalty(signer)
    desk = Desk(table.client, table.tid)
    before, row = table.match(), table.results()[0]
    assert [(p["rule"], p["side"], p["points"]) for p in table.hand_view()["penalties"]] == [
        ("SJ3-11.5", "B", 20)]
    assert row["penalty_points"] == -20 and row["points"] == 100
    captain = bearer(token_for(table.client.application, "player", tournament=table.tid,
                               match="R1-1", seat=3))
    raised = desk.post("DisputeRaised", f"tournament-{table.tid}", {
        "dispute_id": "sj3-1", "match_id": "R1-1", "hand": 1, "positions": [reported],
        "claim": "seat 0 knocked the 9D out of seat 1's hand"}, captain)
    assert raised.status_code == 201, raised.json
    log_before, export_before = desk.log(), desk.export()

    preview = desk.preview(table.stream, ruling(reported))
    match = changes_of(preview, "match")
    assert match["/history/0/penalty_points"] == (-20, 0)
    assert match["/history/0/points"] == (row["points"], row["points"] + 20)
    hand = changes_of(preview, "hand", 1)
    assert hand["/penalties/0"][1] is None

    recorded = desk.rule(table.stream, ruling(reported))
    desk.assert_preview_is_the_state_after(preview)
    after = table.match()
    ruled_row = table.results()[0]
    assert ruled_row["points"] == row["points"] + 20 and ruled_row["penalty_points"] == 0
    assert after["edits"] == [{"position": reported, "edit": "penaltyCancelled",
                               "ruling": recorded["position"], "effect": 0,
                               "kind": "cancelPenalty", "rule": "SJ3-11.5",
                               "member": "暨南大学裁判组"}]
    # the report itself stays on the hand: the referee saw what he saw
    assert [i["rule"] for i in table.hand_view()["irregularities"]] == ["SJ3-11.5"]
    # SJ3-10.3: 100 points, the dealer side +1; 120, the defenders take the deal
    assert (row["points"], row["final_outcome"], before["levels"], before["next_dealer"]) == (
        100, 1, {"A": "3", "B": "2"}, 2)
    assert (ruled_row["points"], ruled_row["final_outcome"], after["levels"],
            after["next_dealer"]) == (120, 0, {"A": "2", "B": "2"}, 1)

    desk.resolve("sj3-1", recorded["id"], "no exposed card: the 20 points are given back")
    assert desk.disputes()[0]["status"] == "resolved"
    desk.assert_history_untouched(log_before, export_before)
    desk.assert_rebuild_reads_as_live()
