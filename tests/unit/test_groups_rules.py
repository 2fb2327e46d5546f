"""Groups of four (rules/groups/): tables of four by lots (T-8.1), stages and qualifiers (T-7.2),
the ranking by coins across tables (T-8.3, worked example T-8 Ex 8) and lots for ties."""
from __future__ import annotations

import random
from dataclasses import replace

import pytest

from rules import RuleViolation
from rules import groups as G
from rules.groups.event import TableResult

PLAYERS = [f"p{n}" for n in range(1, 17)]


def drawn(g, stage: int, *tables: list[str]):
    data = {"purpose": "tables", "round": stage,
            "tables": [{"match_id": f"S{stage}-T{k + 1}", "players": players}
                       for k, players in enumerate(tables)]}
    G.check_table_draw(g, data)
    return G.record_table_draw(g, data)


def finished(g, match_id: str, *balances: int, completed: bool = True):
    return replace(g, results={**g.results,
                               match_id: TableResult(tuple(balances), completed, 4)})


def lots(g, stage: int, candidates: list[str], winner: str):
    data = {"round": stage, "candidates": candidates, "winner": winner}
    G.check_tie_lots(g, data)
    return G.record_tie_lots(g, data)


def test_t_8_ex8_two_tables_are_ranked_together_by_their_final_balances():
    g = G.start(PLAYERS[:8], {})
    g = drawn(g, 1, PLAYERS[:4], PLAYERS[4:8])
    g = finished(finished(g, "S1-T1", 41, 33, 12, -6), "S1-T2", 35, 20, 17, 8)
    rows, final = G.standings(g)
    assert [r.coins for r in rows] == [41, 35, 33, 20, 17, 12, 8, -6]
    assert [r.place for r in rows] == list(range(1, 9)) and final
    assert G.champion(g) == "p1" and rows[0].coins == 41


def test_t_8_3_a_tie_for_a_prize_place_waits_for_lots_a_tie_below_is_shared():
    g = G.start(PLAYERS[:8], {})
    g = drawn(g, 1, PLAYERS[:4], PLAYERS[4:8])
    g = finished(finished(g, "S1-T1", 30, 25, 18, 7), "S1-T2", 25, 20, 18, 17)
    rows, final = G.standings(g)
    assert [(r.player, r.place, r.tied) for r in rows[:3]] == [
        ("p1", 1, False), ("p2", 2, True), ("p5", 2, True)]
    assert not final and G.champion(g) is None
    with pytest.raises(RuleViolation, match="equal coins") as info:
        lots(g, 1, ["p2", "p6"], "p2")
    assert info.value.rule == "T-8.3"
    g = lots(g, 1, ["p5", "p2"], "p5")
    rows, final = G.standings(g)
    assert [(r.player, r.place) for r in rows[:3]] == [("p1", 1), ("p5", 2), ("p2", 3)]
    assert [(r.player, r.place, r.tied) for r in rows[4:6]] == [("p3", 5, True), ("p7", 5, True)]
    assert final  # 18 and 18 share fifth place: no prize hangs on it
    with pytest.raises(RuleViolation, match="already won"):
        lots(g, 1, ["p2", "p5"], "p2")


def test_t_7_2_the_top_of_each_table_goes_on_and_the_final_gives_the_podium():
    g = G.start(PLAYERS, {"advance": 1, "stageCoins": "reset"})     # the T-7.2 model
    assert G.stage_sizes(16, 1) == [16, 4] and G.next_stage(g) == 1
    g = drawn(g, 1, PLAYERS[0:4], PLAYERS[4:8], PLAYERS[8:12], PLAYERS[12:16])
    with pytest.raises(RuleViolation, match="still being played") as info:
        G.qualifiers(g, 1)
    assert info.value.rule == "T-7.2"
    for k, balances in enumerate(((28, 20, 16, 16), (10, 30, 20, 20), (21, 21, 19, 19),
                                  (20, 20, 20, 20))):
        g = finished(g, f"S1-T{k + 1}", *balances)
    with pytest.raises(RuleViolation, match="p9, p10 tie at table S1-T3") as info:
        G.qualifiers(g, 1)
    assert info.value.rule == "T-7.2"
    with pytest.raises(RuleViolation, match="at one table"):
        lots(g, 1, ["p9", "p13"], "p9")  # equal coins, but at different tables
    g = lots(g, 1, ["p9", "p10"], "p10")
    g = lots(g, 1, ["p13", "p14", "p15", "p16"], "p16")
    assert G.qualifiers(g, 1) == ["p1", "p6", "p10", "p16"]
    g = drawn(g, 2, ["p16", "p1", "p10", "p6"])
    assert G.is_final_stage(g, 2) and G.next_stage(g) is None
    g = finished(g, "S2-T1", 31, 12, 22, 15)
    rows, final = G.standings(g)
    assert final and G.champion(g) == "p16"
    assert [r.player for r in rows[:4]] == ["p16", "p10", "p6", "p1"]
    assert [r.eliminated_in for r in rows[:5]] == [None] * 4 + [1]
    # then the stage-1 players out: by their place at their table, then coins
    assert [(r.player, r.table_place, r.place) for r in rows[4:5]] == [("p9", 2, 5)]
    assert {r.player for r in rows[5:11]} == {"p2", "p7", "p8", "p13", "p14", "p15"}
    assert {(r.table_place, r.coins, r.place, r.tied) for r in rows[5:11]} == {(2, 20, 6, True)}
    assert [(r.player, r.table_place) for r in rows[11:]] == [
        ("p11", 3), ("p12", 3), ("p3", 3), ("p4", 3), ("p5", 4)]
    with pytest.raises(RuleViolation, match="no stage is left"):
        G.check_table_draw(g, {"purpose": "tables", "round": 3, "tables": []})


@pytest.mark.parametrize("players, advance, words", [
    (3, None, "at least four players"),
    (10, None, "cannot sit at tables of four"),
    (12, 1, "12 → 3"),
    (8, 3, "8 → 6"),
])
def test_t_8_1_every_stage_fills_tables_of_four(players, advance, words):
    g = G.start(PLAYERS[:players], {"advance": advance} if advance else {})
    with pytest.raises(RuleViolation, match=words) as info:
        G.propose_table_draw(g, random.Random(1))
    assert info.value.rule == "T-8.1"


def test_t_8_1_a_draw_seats_each_player_of_the_stage_once_and_is_never_drawn_again():
    g = G.start(PLAYERS[:8], {})
    for tables, words in (([PLAYERS[:4], PLAYERS[3:7]], "seated twice: p4; not seated: p8"),
                          ([PLAYERS[:4], [*PLAYERS[4:7], "p99"]], "not in this stage: p99")):
        with pytest.raises(RuleViolation) as info:
            drawn(g, 1, *tables)
        assert info.value.rule == "T-8.1"
        assert all(w in info.value.message for w in words.split("; ")), info.value.message
    with pytest.raises(RuleViolation, match="next stage to draw is 1, not 2"):
        drawn(g, 2, PLAYERS[:4], PLAYERS[4:8])
    g = drawn(g, 1, PLAYERS[:4], PLAYERS[4:8])
    with pytest.raises(RuleViolation, match="no stage is left"):
        drawn(g, 2, PLAYERS[:4], PLAYERS[4:8])


def test_the_servers_draw_seats_a_stage_in_drawn_order():
    g = G.start(PLAYERS, {"advance": 1})
    data = G.propose_table_draw(g, random.Random(3))
    assert data["round"] == 1 and [t["match_id"] for t in data["tables"]] == [
        "S1-T1", "S1-T2", "S1-T3", "S1-T4"]
    assert sorted(p for t in data["tables"] for p in t["players"]) == sorted(PLAYERS)


@pytest.mark.parametrize("settings", [{"advance": 0}, {"advance": 4}, {"prizePlaces": "3"},
                                      {"advance": True}])
def test_settings_of_the_groups_are_checked(settings):
    with pytest.raises(RuleViolation):
        G.check_settings(settings)
