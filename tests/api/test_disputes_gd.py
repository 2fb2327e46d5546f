"""A scripted Guandan dispute (issue 9): a wrong tribute card. In hand 2 seat 3 pays tribute
(GD-7.2) with one of his two aces; the scorer typed AS, but the card handed over was AC — and
seat 0 made a spade straight flush with that AS at once. The committee rules the tribute was AC
and orders hand 2 replayed from the bomb (which seat 0 could not have made): raise → preview →
ruling → resolved, the replay played by new events, the levels following it; the hand-3 deal made
meanwhile is flagged (GD-12: hand 2 is in play again)."""
from __future__ import annotations

from gd_table import Table
from rulings_desk import Desk, changes_of

# the match clock's own time: the ruling's recorded time (GD's clock read)
CLOCK = ("/clock/last_event_at",)


class RuledTable(Table):
    """The GD test table, steering from the match as the server folds it (rulings included)."""

    def state(self):
        return Desk(self.client, self.tid).ruled_state(self.mid)


def wrong_tribute_card(client) -> tuple[RuledTable, dict]:
    """Hand 1 goes out 0, 1, 2, 3 (side A +2, level 4); hand 2: seat 3 pays AS (he holds AS and
    AC, his highest), seat 0 returns a low card (GD-7.4); seat 3 leads 2C and seat 0 bombs with
    TS JS QS KS AS; side A then goes out 0, 2 (double down, +3); hand 3 is dealt."""
    table = RuledTable(client)
    table.to_hand({3: "AS AC", 0: "TS JS QS KS"}, previous=[0, 1, 2, 3], low_seats=[3])
    at = {"tribute": table.ok("TributePaid", seat=3, card="AS")["position"]}
    low = next(c for c in table.hand_view()["seats"][0]["cards"] if c[0] in "3567")
    table.ok("TributeReturned", seat=0, card=low)
    table.ok("GDCardsPlayed", seat=3, cards=["2C"])
    at["bomb"] = table.ok("GDCardsPlayed", seat=0, cards=["TS", "JS", "QS", "KS", "AS"])["position"]
    table.steer([0, 2])
    at["hand3"] = table.deal()["position"]
    return table, at


RULING = {"text": "seat 3 paid AC, not AS: the tribute is put right and hand 2 is played again "
                  "from seat 0's straight flush, which he could not hold",
          "dispute_id": "gd-1"}


def ruling(at: dict) -> dict:
    return {**RULING, "effects": [
        {"kind": "substitute", "rule": "GD-7.2", "member": "曹选刚", "position": at["tribute"],
         "data": {"hand": 2, "seat": 3, "card": "AC"}},
        {"kind": "replayHand", "rule": "GD-10.3", "member": "曹选刚", "hand": 2,
         "from": at["bomb"]}]}


def test_gd_wrong_tribute_card_raise_preview_rule_resolve(client):
    table, at = wrong_tribute_card(client)
    desk = Desk(client, table.tid)
    before = table.match()
    assert [row["places"] for row in table.results()] == [[0, 1, 2, 3], [0, 2]]
    assert before["levels"] == {"A": "7", "B": "2"}   # 2 → 4 (GD-6.1 +2) → 7 (double down +3)
    assert before["current_hand"]["hand"] == 3
    desk.raise_dispute("gd-1", "seat 3 handed over AC; seat 0 never held AS", match_id="R1-1",
                       hand=2, positions=[at["tribute"], at["bomb"]])
    log_before, export_before = desk.log(), desk.export()

    preview = desk.preview(table.stream, ruling(at))
    match = changes_of(preview, "match")
    assert match["/levels/A"] == ("7", "4") and match["/hands_played"] == (2, 1)
    assert match["/history/1"][1] is None            # hand 2 has no result any more
    assert match["/current_hand/hand"] == (3, 2)     # hand 2 is in play again
    assert [f["position"] for f in preview["projections"][0]["after"]["flags"]] == [at["hand3"]]
    hand2 = changes_of(preview, "hand", 2)
    assert hand2["/tribute/paid/0/card"] == ("AS", "AC")
    assert hand2["/phase"] == ("completed", "playing")

    recorded = desk.rule(table.stream, ruling(at))
    desk.assert_preview_is_the_state_after(preview, ignore=CLOCK)
    ruled = table.match()
    (flag,) = ruled["flags"]
    assert (flag["position"], flag["type"], flag["rule"]) == (at["hand3"], "GDHandDealt", "GD-12")
    assert "hand 2 is still being played" in flag["message"]
    hand2 = table.hand_view(2)
    assert "AC" in hand2["seats"][0]["cards"] and "AS" in hand2["seats"][3]["cards"]
    assert hand2["turn"] == 0                          # after seat 3's 2C, as the bomb was

    # the replay: new events, judged strictly on the ruled hand
    table.hand = 2
    table.rejected("GDCardsPlayed", "GD-5.2", seat=0, cards=["TS", "JS", "QS", "KS", "AS"])
    table.steer([1, 3])
    replayed = table.match()
    assert [row["places"] for row in table.results()] == [[0, 1, 2, 3], [1, 3]]
    assert replayed["levels"] == {"A": "4", "B": "5"}  # side B double down, +3
    table.deal()                                         # hand 3 is dealt again
    assert table.match()["current_hand"]["hand"] == 3

    desk.resolve("gd-1", recorded["id"], "tribute AC; hand 2 replayed from the bomb")
    assert [d["status"] for d in desk.disputes()] == ["resolved"]
    desk.assert_history_untouched(log_before, export_before)
    edits = {(e["position"], e["edit"]) for e in table.match()["edits"]}
    assert (at["tribute"], "substituted") in edits and (at["bomb"], "replayed") in edits
    desk.assert_rebuild_reads_as_live()
