"""A scripted Sichuan dispute (issue 9): a kong paid that should have been refunded. Seat 3
kongs seat 1's 9m (paid at once, MJS-7.1), draws the replacement and discards 4s; seat 0 called
a win on it in time — 杠上炮 — but the scorer typed a pass, so the hand went on with the kong
paid. The committee rules the claim stands: raise → preview → ruling → resolved. Seat 0's win
and the refund of the kong (MJS-7.2) appear in the ledger; the moves recorded after it that a
player who has won cannot make are flagged (MJS-4.1), and play goes on from the ruled hand."""
from __future__ import annotations

from clients import bearer, token_for
from mjs_table import Table, ex8_kong_replacement_discarded
from rulings_desk import Desk, changes_of


def rows(hand: dict) -> list[tuple]:
    return [(p["from"], p["to"], p["amount"], p["reason"], p["rule"]) for p in hand["ledger"]]


def win_typed_as_a_pass(client) -> tuple[Table, dict]:
    """Worked example 8 of mahjong-sichuan.md, but seat 0's win on the kong's discard recorded
    as a pass; seat 0 then draws and discards."""
    table = Table(client)
    ex8_kong_replacement_discarded(table)
    at = {"pass": table.ok("ClaimPassed", seat=0)["position"]}
    table.settle()                                            # seats 1 and 2 pass
    at["draw"] = table.ok("TileDrawn", seat=0, tile=table.next_tile())["position"]
    at["discard"] = table.ok("TileDiscarded", seat=0, tile="2s")["position"]
    return table, at


def ruling(at: dict) -> dict:
    return {"text": "seat 0 called hu on 4s within the window; the claim stands (杠上炮)",
            "dispute_id": "mjs-1",
            "effects": [{"kind": "substitute", "rule": "MJS-7.2", "member": "永修北京商会裁判组",
                         "position": at["pass"], "type": "Claim",
                         "data": {"hand": 1, "seat": 0, "kind": "win"}}]}


def test_mjs_kong_paid_that_should_have_been_refunded_raise_preview_rule_resolve(client):
    table, at = win_typed_as_a_pass(client)
    desk = Desk(client, table.tid)
    assert rows(table.hand_view()) == [(1, 3, 2, "kong", "MJS-7.1")]   # paid, not refunded
    referee = bearer(token_for(client.application, "referee", tournament=table.tid))
    raised = desk.post("DisputeRaised", f"tournament-{table.tid}", {
        "dispute_id": "mjs-1", "match_id": table.mid, "hand": 1, "positions": [at["pass"]],
        "claim": "seat 0 called hu on seat 3's 4s after his kong; the scorer typed a pass"},
        referee)
    assert raised.status_code == 201, raised.json
    log_before, export_before = desk.log(), desk.export()

    preview = desk.preview(table.stream, ruling(at))
    hand = changes_of(preview, "hand", 1)
    assert hand["/ledger/1"] == (None, {
        "from": 3, "to": 0, "amount": 4, "reason": "win", "rule": "MJS-6.4",
        "note": "seat 0 wins 4s on seat 3's discard: basic; afterKong 1: fan 1 → 4"})
    assert hand["/ledger/2"][1]["reason"] == "refund" and hand["/ledger/2"][1]["rule"] == "MJS-7.2"
    assert (hand["/scores/0"], hand["/scores/1"], hand["/scores/3"]) == ((0, 4), (-2, 0), (2, -4))
    assert hand["/out/0"] == (False, True) and hand["/phase"] == ("claims", "draw")

    recorded = desk.rule(table.stream, ruling(at))
    desk.assert_preview_is_the_state_after(preview)
    view = table.hand_view()
    assert rows(view) == [(1, 3, 2, "kong", "MJS-7.1"), (3, 0, 4, "win", "MJS-6.4"),
                          (3, 1, 2, "refund", "MJS-7.2")]
    assert view["scores"] == [4, 0, 0, -4] and view["out"] == [True, False, False, False]
    flags = table.match()["flags"]
    assert [(f["position"], f["type"], f["rule"]) for f in flags] == [
        (at["draw"], "TileDrawn", "MJS-4.1"), (at["discard"], "TileDiscarded", "MJS-4.1")]
    # play goes on from the ruled hand: seat 1, the next still in after seat 3, draws
    assert view["turn"] == 1 and view["phase"] == "draw"
    table.rejected("TileDrawn", "MJS-4.1", seat=0, tile=table.next_tile())
    table.draw_discard()
    assert table.hand_view()["turn"] == 2

    desk.resolve("mjs-1", recorded["id"], "the win stands; the kong is refunded")
    assert desk.disputes()[0]["resolution"]["ruling_event_id"] == recorded["id"]
    assert desk.disputes()[0]["raised_by"]["role"] == "referee"
    desk.assert_history_untouched(log_before, export_before)
    stored = next(e for e in desk.log() if e["position"] == at["pass"])
    assert (stored["type"], stored["data"]) == ("ClaimPassed", {"hand": 1, "seat": 0})
    desk.assert_rebuild_reads_as_live()
