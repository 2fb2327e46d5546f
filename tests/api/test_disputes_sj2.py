"""A scripted SJ2 dispute (issue 9): a follow error recorded at the table (record enforcement,
SJ2-12.4) is disputed three tricks later — the scorer swapped seat 1's two cards — and goes
raise → preview → ruling → resolved. The hand's result, the levels and the next dealer follow
the ruling; the stored events and the export stay as they were; a rebuild from the log reads
byte for byte what the live server reads."""
from __future__ import annotations

import random

from clients import bearer, token_for
from rulings_desk import Desk, changes_of
from sj2_table import Table

RECORD = {"enforcement": "record"}


def follow_error_three_tricks_later(client) -> tuple[Table, dict]:
    """Hand 1 (record mode; seat 0 declares 2S and deals): seat 0 leads AH, seat 1 holding 4H
    plays 6C (a follow error, flagged, SJ2-9.2); seat 0 then leads BJ, BJ and KH, and in trick 4
    seat 1 follows KH with his 4H. Returns the table and the positions of seat 1's two plays."""
    table = Table(client, RECORD)
    table.to_play({0: "2S AH BJ BJ KH", 1: "4H 6C"}, card="2S", no={1: "H"})
    table.ok("CardsPlayed", seat=0, cards=["AH"])
    positions = {"6C": table.ok("CardsPlayed", seat=1, cards=["6C"])["position"]}
    rng = random.Random(1)
    for lead in (None, ["BJ"], ["BJ"], ["KH"]):
        if lead:
            table.ok("CardsPlayed", seat=0, cards=lead)
        while table.hand_view()["current_trick"]:
            if table.hand_view()["turn"] == 1 and lead == ["KH"]:
                positions["4H"] = table.ok("CardsPlayed", seat=1, cards=["4H"])["position"]
            else:
                table.play_legal(rng)
    return table, positions


def swap_ruling(positions: dict, dispute_id: str | None = "d1") -> dict:
    data = {"text": "seat 1 followed AH with 4H and played 6C on KH; the scorer swapped them",
            "effects": [
                {"kind": "substitute", "rule": "SJ2-9.2", "member": "钟致鹏",
                 "position": positions["6C"], "data": {"hand": 1, "seat": 1, "cards": ["4H"]}},
                {"kind": "substitute", "rule": "discretion", "member": "钟致鹏",
                 "position": positions["4H"], "data": {"hand": 1, "seat": 1, "cards": ["6C"]}}]}
    if dispute_id:
        data["dispute_id"] = dispute_id
    return data


def test_sj2_follow_error_found_three_tricks_later_raise_preview_rule_resolve(client):
    table, positions = follow_error_three_tricks_later(client)
    desk = Desk(client, table.tid)
    assert [(e["seat"], e["trick"], e["rule"]) for e in table.hand_view()["follow_errors"]] == \
        [(1, 1, "SJ2-9.2")]
    # side B's captain (a player token of the match) raises it, three tricks on
    captain = bearer(token_for(client.application, "player", tournament=table.tid,
                               match="R1-1", seat=1))
    raised = desk.post("DisputeRaised", f"tournament-{table.tid}", {
        "dispute_id": "d1", "match_id": "R1-1", "hand": 1,
        "positions": [positions["6C"], positions["4H"]],
        "claim": "seat 1 followed AH with 4H in trick 1; the scorer typed 6C"}, captain)
    assert raised.status_code == 201, raised.json
    assert raised.json["meta"]["role"] == "player" and raised.json["meta"]["seat"] == 1
    table.finish_hand(seed=5)
    before, row = table.match(), table.results()[0]
    # SJ2-12.4: the defenders' follow error costs 40 at the end: 100 → 60, dealer side +1
    assert (row["raw_points"], row["final_points"], row["result"]) == (
        100, 60, {"winner": "dealer", "levels": 1, "deal_passes": False})
    assert (before["levels"], before["next_dealer"]) == ({"A": "3", "B": "2"}, 2)
    log_before, export_before = desk.log(), desk.export()

    preview = desk.preview(table.stream, swap_ruling(positions))
    match = changes_of(preview, "match")
    assert match["/history/0/final_points"] == (60, 100)
    assert match["/history/0/result/winner"] == ("dealer", "defenders")
    assert match["/levels/A"] == ("3", "2") and match["/next_dealer"] == (2, 1)
    assert match["/history/0/adjustments/0"][0]["kind"] == "defenders_follow_error"
    hand = changes_of(preview, "hand", 1)
    assert hand["/tricks/0/plays/1/cards/0"] == ("6C", "4H")
    assert hand["/tricks/3/plays/1/cards/0"] == ("4H", "6C")
    assert hand["/follow_errors/0"][1] is None  # removed
    # the bracket shows each match's levels so far (issue 19): the ruling moves them back
    assert changes_of(preview, "bracket") == {
        "/rounds/0/matches/0/score/levels/east": ("3", "2")}
    assert sorted(preview["unchanged"]) == ["standings", "tournament"]

    recorded = desk.rule(table.stream, swap_ruling(positions))
    assert recorded["position"] == preview["position"]
    desk.assert_preview_is_the_state_after(preview)
    after = table.match()
    assert (table.results()[0]["final_points"], after["levels"], after["next_dealer"]) == (
        100, {"A": "2", "B": "2"}, 1)  # 100: the defenders take the deal (SJ2-13.1)
    assert after["flags"] == []
    assert [(e["position"], e["edit"]) for e in after["edits"]] == [
        (positions["6C"], "substituted"), (positions["4H"], "substituted")]

    desk.resolve("d1", recorded["id"], "the cards are put back as they were played")
    (dispute,) = desk.disputes()
    assert (dispute["status"], dispute["resolution"]["ruling_event_id"]) == (
        "resolved", recorded["id"])
    assert dispute["raised_by"]["role"] == "player" and dispute["positions"] == [
        positions["6C"], positions["4H"]]
    (ruling,) = desk.rulings("R1-1")
    assert (ruling["status"], ruling["resolves"], ruling["disputes"]) == ("applied", ["d1"],
                                                                          ["d1"])
    desk.assert_history_untouched(log_before, export_before)
    # the stored plays still say what the scorer typed
    stored = {e["position"]: e["data"]["cards"] for e in desk.log()
              if e["position"] in positions.values()}
    assert stored == {positions["6C"]: ["6C"], positions["4H"]: ["4H"]}
    # play goes on from the ruled state: hand 2 is dealt by the new dealer, seat 1
    table.hand = 2
    table.deal(seed=11)
    assert table.hand_view(2)["level"] == "2"
    desk.assert_rebuild_reads_as_live()


def test_a_rebuild_from_the_log_reads_byte_for_byte_what_the_live_server_reads(client):
    """Every read the committee's work touches, now and at positions around the ruling, from
    a new server on the same database (no cache: every stream folded from the log again) —
    here with the ruling recorded while the hand is still in play, the hand then played out
    and the next dealt on the ruled state (the live server folds on from the refolded
    state; the rebuild folds the whole stream at once)."""
    table, positions = follow_error_three_tricks_later(client)
    desk = Desk(client, table.tid)
    desk.raise_dispute("d1", "swapped cards", match_id="R1-1", hand=1)
    ruling = desk.rule(table.stream, swap_ruling(positions))
    desk.resolve("d1", ruling["id"], "put back")
    table.finish_hand(seed=5)
    table.hand = 2
    table.deal(seed=11)
    desk.assert_rebuild_reads_as_live()
