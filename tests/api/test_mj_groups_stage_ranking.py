"""T-8.3 as amended on 2026-12-01, through the API: in a staged 2-5-8 coin session (``advance``)
the players who go out at the same stage are ranked by their final balance, then by their place
at their table — the standings read and the groups read say so (``ranked_by``)."""
from __future__ import annotations

from test_mj_groups import BASE, dealer_wins, ok, seated, tournament


def test_t8_3_a_fourth_with_more_coins_ranks_above_a_third_of_another_table():
    client = tournament(8, {"advance": 2})
    ok(client.post(f"{BASE}/draws", json={}))
    # seat 0 deals himself a win at both tables; penalties shape the others' balances
    dealer_wins(client, "S1-T1", [(3, 10, 1), (2, 5, 1)])
    dealer_wins(client, "S1-T2", [(3, 1, 2), (2, 1, 1)])
    one, two = seated(client, "S1-T1"), seated(client, "S1-T2")
    groups = ok(client.get(f"{BASE}/groups"))
    coins = {s["team"]: (s["coins"], s["place"]) for t in groups["stages"][0]["tables"]
             for s in t["seats"]}
    assert [coins[p] for p in one] == [(32, 1), (31, 2), (11, 3), (6, 4)]
    assert [coins[p] for p in two] == [(32, 1), (17, 2), (16, 3), (15, 4)]
    assert groups["ranked_by"] == ["stage", "coins", "table_place"]
    ok(client.post(f"{BASE}/draws", json={}))                    # the final table
    standings = ok(client.get(f"{BASE}/standings"))
    assert standings["ranked_by"] == ["stage", "coins", "table_place"]
    out = [(r["team"], r["place"], r["coins"], r["table_place"]) for r in standings["ranking"]
           if r["eliminated_in"] == 1]
    # two's fourth (15 coins) before one's third (11 coins): the balance first, T-8.3
    assert out == [(two[2], 5, 16, 3), (two[3], 6, 15, 4), (one[2], 7, 11, 3), (one[3], 8, 6, 4)]
