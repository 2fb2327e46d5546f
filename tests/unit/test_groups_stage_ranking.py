"""T-8.3 as amended on 2026-12-01 — a staged coin session (``advance``) ranks its players by the
stage they reached, then by final balance, then by their place at their table; the Sichuan
event keeps T-7.5 (its group thirds before its fourths, then by score)."""
from __future__ import annotations

from dataclasses import replace

from rules import groups as G
from rules.groups.event import TableResult

PLAYERS = [f"p{n}" for n in range(1, 9)]


def staged(game: str) -> G.Groups:
    """Eight players, the top two of each table on to a final table; stage 1 played:
    S1-T1 ends 32, 31, 11, 6 and S1-T2 32, 17, 16, 15 (seats 0 to 3); the final drawn."""
    g = G.start(PLAYERS, {"advance": 2, "stageCoins": "reset"}, game=game)
    for data in ({"purpose": "tables", "round": 1, "tables": [
                     {"match_id": "S1-T1", "players": PLAYERS[:4]},
                     {"match_id": "S1-T2", "players": PLAYERS[4:]}]},):
        G.check_table_draw(g, data)
        g = G.record_table_draw(g, data)
    g = replace(g, results={"S1-T1": TableResult((32, 31, 11, 6), True, 1),
                            "S1-T2": TableResult((32, 17, 16, 15), True, 1)})
    final = {"purpose": "tables", "round": 2,
             "tables": [{"match_id": "S2-T1", "players": ["p1", "p5", "p2", "p6"]}]}
    G.check_table_draw(g, final)
    return G.record_table_draw(g, final)


def out_at_stage_1(g: G.Groups) -> list[tuple[str, int, int]]:
    rows, _ = G.standings(g)
    return [(r.player, r.coins, r.table_place) for r in rows if r.eliminated_in == 1]


def test_t8_3_players_out_at_one_stage_are_ranked_by_final_balance_before_table_place():
    """p8 was fourth at S1-T2 with 15 coins, p3 third at S1-T1 with 11: the balance decides."""
    g = staged("MJO")
    assert out_at_stage_1(g) == [("p7", 16, 3), ("p8", 15, 4), ("p3", 11, 3), ("p4", 6, 4)]
    assert g.ranked_by == ("stage", "coins", "table_place")


def test_t8_3_equal_balances_at_one_stage_are_ranked_by_table_place():
    g = staged("MJO")
    g = replace(g, results={**g.results, "S1-T1": TableResult((32, 31, 15, 6), True, 1)})
    rows, _ = G.standings(g)
    out = [(r.player, r.coins, r.table_place, r.place) for r in rows if r.eliminated_in == 1]
    assert out == [("p7", 16, 3, 5), ("p3", 15, 3, 6), ("p8", 15, 4, 7), ("p4", 6, 4, 8)]


def test_t7_5_the_sichuan_event_still_ranks_group_thirds_before_fourths():
    g = staged("MJS")
    assert out_at_stage_1(g) == [("p7", 16, 3), ("p3", 11, 3), ("p8", 15, 4), ("p4", 6, 4)]
    assert g.ranked_by == ("stage", "table_place", "coins")
