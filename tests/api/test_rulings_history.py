"""The committee's history (issue 9): the rulings that shaped the state and the disputes, as
each reader may see them; every read at a position before a ruling shows the state without it;
and the structured difference of a match or a hand between two positions."""
from __future__ import annotations

import pytest
from rulings_desk import Desk
from sj2_table import Table
from tables import ok


@pytest.fixture
def ruled(client):
    """Hand 1 in play (record mode): seat 1's revoke (6C, holding 4H) substituted by 4H."""
    table = Table(client, {"enforcement": "record"})
    table.to_play({0: "2S AH", 1: "4H 6C"}, card="2S", no={1: "H"})
    table.ok("CardsPlayed", seat=0, cards=["AH"])
    table.revoke = table.ok("CardsPlayed", seat=1, cards=["6C"])["position"]
    desk = Desk(client, table.tid)
    desk.raise_dispute("d1", "seat 1 followed with 4H", match_id="R1-1", hand=1,
                       positions=[table.revoke])
    table.ruling = desk.rule(table.stream, {
        "text": "4H it was", "dispute_id": "d1", "effects": [
            {"kind": "substitute", "rule": "SJ2-9.2", "member": "钟致鹏",
             "position": table.revoke, "data": {"hand": 1, "seat": 1, "cards": ["4H"]}}]})
    return table


def test_the_rulings_list_shows_effects_edits_and_disputes_substitutes_to_officials_only(
        client, ruled):
    desk = Desk(client, ruled.tid)
    (ruling,) = desk.rulings()
    assert (ruling["event_id"], ruling["match_id"], ruling["text"], ruling["disputes"]) == (
        ruled.ruling["id"], "R1-1", "4H it was", ["d1"])
    assert ruling["effects"][0]["data"] == {"hand": 1, "seat": 1, "cards": ["4H"]}
    assert ruling["edits"] == [{"position": ruled.revoke, "edit": "substituted",
                                "ruling": ruled.ruling["position"], "effect": 0,
                                "kind": "substitute", "rule": "SJ2-9.2", "member": "钟致鹏"}]
    assert (ruling["status"], ruling["faults"], ruling["resolves"]) == ("applied", [], [])
    public = client.application.test_client()
    (shown,) = ok(public.get(f"/v1/tournaments/{ruled.tid}/rulings"))["rulings"]
    assert shown["effects"][0]["data"] is None and shown["effects"][0]["position"] == ruled.revoke
    assert ok(public.get(f"/v1/tournaments/{ruled.tid}/disputes"))["disputes"][0]["status"] == \
        "open"
    assert desk.rulings("R1-1") == [ruling]
    assert client.get(f"/v1/tournaments/{ruled.tid}/rulings?match=R9-9").status_code == 404
    assert ok(client.get(f"/v1/tournaments/{ruled.tid}/rulings?at={ruled.revoke}")) == \
        {"rulings": []}


def test_a_read_before_the_ruling_shows_the_state_without_it(client, ruled):
    before = ruled.hand_view(at=ruled.ruling["position"] - 1)
    after = ruled.hand_view(at=ruled.ruling["position"])
    assert before["current_trick"]["plays"][1]["cards"] == ["6C"]
    assert before["pending_correction"]["rule"] == "SJ2-9.2"
    assert after["current_trick"]["plays"][1]["cards"] == ["4H"]
    assert after["pending_correction"] is None
    assert ruled.match(at=ruled.ruling["position"] - 1)["edits"] == []


def test_the_difference_of_a_match_and_of_a_hand_between_two_positions(client, ruled):
    base = f"/v1/tournaments/{ruled.tid}/matches/R1-1/diff"
    at = ruled.ruling["position"]
    body = ok(client.get(f"{base}?from={at - 1}&to={at}&hand=1"))
    changes = {c["path"]: c for c in body["changes"]}
    assert changes["/current_trick/plays/1/cards/0"] == {
        "path": "/current_trick/plays/1/cards/0", "op": "replace", "before": "6C",
        "after": "4H"}
    assert changes["/pending_correction"]["before"]["rule"] == "SJ2-9.2"
    assert (body["from"], body["to"], body["hand"]) == (at - 1, at, 1)
    assert body["after"] == ruled.hand_view(at=at) | {"viewer": body["after"]["viewer"]}
    whole = ok(client.get(f"{base}?from={at - 1}&to={at}"))
    paths = {c["path"] for c in whole["changes"]}
    assert {"/edits/0", "/current_hand/current_trick/plays/1/cards/0"} <= paths
    assert ok(client.get(f"{base}?from={at}&to={at}"))["changes"] == []
    assert ok(client.get(f"{base}?from={at}")) == ok(client.get(f"{base}?from={at}&to={at}"))
    # before the match started there is nothing to compare with: everything is added
    started = ok(client.get(f"{base}?from=1&to={at}"))
    assert started["before"] is None and started["changes"] == [
        {"path": "", "op": "replace", "before": None, "after": started["after"]}]


@pytest.mark.parametrize("query, status", [
    ("?from=x&to=5", 400), ("?from=1&to=-1", 400), ("?from=1&to=5&hand=0", 400),
    ("?from=1&to=2", 404), ("?from=1&to=99999&hand=9", 404)])
def test_a_bad_difference_request(client, ruled, query, status):
    response = client.get(f"/v1/tournaments/{ruled.tid}/matches/R1-1/diff{query}")
    assert response.status_code == status, response.json


def test_the_public_sees_the_difference_of_finished_hands_only(client, ruled):
    public = client.application.test_client()
    at = ruled.ruling["position"]
    base = f"/v1/tournaments/{ruled.tid}/matches/R1-1/diff"
    assert public.get(f"{base}?from={at - 1}&to={at}&hand=1").status_code == 401
    body = ok(public.get(f"{base}?from={at - 1}&to={at}"))
    assert body["after"]["current_hand"] is None and body["before"]["current_hand"] is None
    assert {c["path"] for c in body["changes"]} == {"/edits/0", "/rulings/0", "/position",
                                                   "/version"}
