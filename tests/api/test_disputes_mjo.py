"""A scripted MJO dispute (issue 9): after a one-hand session the dealer's win stands, but the
player at seat 1 disputes the way it was made — the dealer had looked at the wall before the
deal was complete (MJO-9.3: cases not covered, the committee rules). The session is over, so no
penalty can be assessed at the table any more (T-1.5); the committee fines the dealer 10 coins
to seat 1: raise → preview → ruling → resolved. The table's balances and the ranking by coins
(T-8.3) follow: seat 1's player goes first."""
from __future__ import annotations

from mj_table import deal_tiles, groups_tournament
from rulings_desk import Desk, changes_of
from tables import ok

TID = "mjo-dispute"
BASE = f"/v1/tournaments/{TID}"
WIN_5M = "1m 2m 3m 4p 5p 6p 7s 8s 9s C C C 5m 5m"   # the dealer's first 14 win (MJO-5.4)
PLAYERS = [("p1", "甲"), ("p2", "乙"), ("p3", "丙"), ("p4", "丁")]


def session_won_by_the_dealer(client) -> tuple[str, list[str]]:
    groups_tournament(client, TID, {"sessionHands": 1}, None, PLAYERS)
    ok(client.post(f"{BASE}/draws", json={}))
    ok(client.post(f"{BASE}/matches", json={"match_id": "S1-T1"}))
    stream = f"match-{TID}:S1-T1"
    for data in (deal_tiles({0: WIN_5M}), {"seat": 0}):
        event_type = "TilesDealt" if "hands" in data else "Win"
        ok(client.post(f"{BASE}/events", json={"type": event_type, "stream": stream,
                                                "data": {"hand": 1, **data}}))
    table = ok(client.get(f"{BASE}/groups"))["stages"][0]["tables"][0]
    return stream, [seat["team"] for seat in table["seats"]]


FINE = {"text": "the dealer peeked at the wall before his first 14: 10 coins to seat 1",
        "dispute_id": "mjo-1",
        "effects": [{"kind": "penalty", "rule": "MJO-9.3", "member": "渥太华中华文化宫组委会",
                     "seat": 0, "coins": 10, "payees": [1], "reason": "peeking at the wall"}]}


def test_mjo_fine_after_the_session_raise_preview_rule_resolve(client):
    stream, seats = session_won_by_the_dealer(client)
    desk = Desk(client, TID)
    before = ok(client.get(f"{BASE}/standings"))
    assert [(r["team"], r["coins"], r["place"]) for r in before["ranking"]] == [
        (seats[0], 32, 1), (seats[1], 16, 2), (seats[2], 16, 2), (seats[3], 16, 2)]
    # the table may not fine him any more: the session is over (T-1.5)
    desk.refused("CoinPenaltyAssessed", stream, {"rule": "MJO-9.3", "seat": 0, "coins": 5,
                                                 "payees": [1, 2, 3]}, 422, "T-1.5")
    desk.raise_dispute("mjo-1", "seat 0 looked at the wall before the deal was complete",
                       match_id="S1-T1", hand=1)
    log_before, export_before = desk.log(), desk.export()

    preview = desk.preview(stream, FINE)
    standings = changes_of(preview, "standings")
    assert standings["/ranking/0/team"] == (seats[0], seats[1])
    assert standings["/ranking/0/coins"] == (32, 26) and standings["/ranking/1/coins"] == (16, 22)
    match = changes_of(preview, "match")
    assert match["/balances/0"] == (32, 22) and match["/balances/1"] == (16, 26)
    assert "groups" in {p["projection"] for p in preview["projections"]}

    recorded = desk.rule(stream, FINE)
    desk.assert_preview_is_the_state_after(preview)
    after = ok(client.get(f"{BASE}/standings"))
    assert [(r["team"], r["coins"], r["place"]) for r in after["ranking"]] == [
        (seats[1], 26, 1), (seats[0], 22, 2), (seats[2], 16, 3), (seats[3], 16, 3)]
    penalty = ok(client.get(f"{BASE}/matches/S1-T1"))["penalties"][-1]
    assert (penalty["rule"], penalty["seat"], penalty["deltas"]) == ("MJO-9.3", 0,
                                                                     [-10, 10, 0, 0])

    desk.resolve("mjo-1", recorded["id"], "fined 10 coins to seat 1")
    assert desk.disputes()[0]["status"] == "resolved"
    desk.assert_history_untouched(log_before, export_before)
    desk.assert_rebuild_reads_as_live()
