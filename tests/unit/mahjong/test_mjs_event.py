"""The Sichuan event's structure on the groups rules (tournaments.md T-7, seed 003): the seed's
defaults, ties at a qualifying place broken by recorded dice (T-7 Ex 5), the final ordered by its
extra hands (T-7 Ex 6), the prize ranking 1st – 3rd and 4th – 12th (T-7.5)."""
from dataclasses import replace

import pytest

from rules import RuleViolation
from rules import groups as G
from rules.groups.event import TableResult

PLAYERS = [f"p{n}" for n in range(1, 17)]


def drawn(g, stage, *tables):
    data = {"purpose": "tables", "round": stage,
            "tables": [{"match_id": f"S{stage}-T{k + 1}", "players": list(players)}
                       for k, players in enumerate(tables)]}
    G.check_table_draw(g, data)
    return G.record_table_draw(g, data)


def finished(g, match_id, *balances, tiebreaks=()):
    return replace(g, results={**g.results,
                               match_id: TableResult(tuple(balances), True, 4, tiebreaks)})


def dice(g, stage, **rolls):
    data = {"round": stage, "rolls": {p: list(d) for p, d in rolls.items()}}
    G.check_tie_dice(g, data)
    return G.record_tie_dice(g, data)


def refused_dice(rule, g, stage, **rolls):
    with pytest.raises(RuleViolation) as info:
        dice(g, stage, **rolls)
    assert info.value.rule == rule
    return info.value


def test_t_7_2_the_seeds_defaults_for_the_sichuan_event():
    g = G.start(PLAYERS, {}, 0, game="MJS")
    assert (g.advance, g.carry, g.prize_places, g.by_dice) == (2, False, 12, True)
    assert G.stage_sizes(16, g.advance) == [16, 8, 4]
    assert G.start(PLAYERS, {"advance": 1}, 0, game="MJS").advance == 1
    assert not G.start(PLAYERS, {}, 20).by_dice                # MJO keeps lots


def test_t_7_ex5_a_tie_for_the_second_place_is_rolled_for():
    g = drawn(G.start(PLAYERS[:8], {}, 0, game="MJS"), 1, PLAYERS[:4], PLAYERS[4:8])
    g = finished(finished(g, "S1-T1", 46, 12, 12, -70), "S1-T2", 30, 20, 10, -60)
    with pytest.raises(RuleViolation, match="dice decide") as info:
        G.qualifiers(g, 1)
    assert info.value.rule == "T-7.2"
    refused_dice("T-7.2", g, 1, p1=(6, 6), p2=(1, 1))         # p1 is first already
    g = dice(g, 1, p2=(4, 5), p3=(3, 2))                       # B 9, C 5
    assert G.qualifiers(g, 1) == ["p1", "p2", "p5", "p6"]
    refused_dice("T-7.2", g, 1, p2=(1, 1), p3=(6, 6))          # decided: no second round


def test_t_7_2_equal_dice_roll_again():
    g = drawn(G.start(PLAYERS[:8], {}, 0, game="MJS"), 1, PLAYERS[:4], PLAYERS[4:8])
    g = finished(finished(g, "S1-T1", 46, 12, 12, -70), "S1-T2", 30, 20, 10, -60)
    g = dice(g, 1, p2=(3, 4), p3=(5, 2))                       # 7 and 7: still tied
    with pytest.raises(RuleViolation):
        G.qualifiers(g, 1)
    g = dice(g, 1, p2=(1, 2), p3=(6, 1))
    assert G.qualifiers(g, 1)[:2] == ["p1", "p3"]


def test_t_7_ex5_a_tie_for_first_and_second_needs_no_dice():
    g = drawn(G.start(PLAYERS[:8], {}, 0, game="MJS"), 1, PLAYERS[:4], PLAYERS[4:8])
    g = finished(finished(g, "S1-T1", 30, 30, 10, -70), "S1-T2", 30, 20, 10, -60)
    assert G.qualifiers(g, 1) == ["p1", "p2", "p5", "p6"]
    refused = refused_dice("T-7.5", g, 1, p1=(1, 1), p2=(2, 2))
    assert "ties to roll: p3, p7" in refused.message          # the thirds' tie is the one left


def test_t_7_2_a_tie_of_three_for_two_places():
    g = drawn(G.start(PLAYERS[:8], {}, 0, game="MJS"), 1, PLAYERS[:4], PLAYERS[4:8])
    g = finished(finished(g, "S1-T1", 12, 12, 12, -36), "S1-T2", 30, 20, 10, -60)
    refused_dice("T-7.2", g, 1, p1=(1, 1), p2=(2, 2))          # all three roll
    g = dice(g, 1, p1=(6, 6), p2=(2, 2), p3=(2, 2))            # p1 through; p2 and p3 again
    with pytest.raises(RuleViolation):
        G.qualifiers(g, 1)
    g = dice(g, 1, p2=(1, 1), p3=(3, 1))
    assert G.qualifiers(g, 1)[:2] == ["p1", "p3"]


def test_t_7_ex6_the_final_orders_tied_players_by_the_extra_hand():
    g = drawn(G.start(PLAYERS[:4], {}, 0, game="MJS"), 1, PLAYERS[:4])
    g = finished(g, "S1-T1", 80, 30, 30, -140, tiebreaks=((0,), (8,), (-4,), (-4,)))
    rows, final = G.standings(g)
    assert final and [(r.player, r.place) for r in rows] == [
        ("p1", 1), ("p2", 2), ("p3", 3), ("p4", 4)]
    assert [G.prize(g, r.place) for r in rows] == [
        "champion: 2000 yuan and a certificate", "runner-up: 1200 yuan and a certificate",
        "third: 600 yuan and a certificate", "a commemorative water bottle"]
    assert G.prize(g, 12) and G.prize(g, 13) is None


def test_t_7_5_places_4_to_12_and_dice_for_the_remaining_ties():
    g = G.start(PLAYERS, {}, 0, game="MJS")
    g = drawn(g, 1, *(PLAYERS[4 * k:4 * k + 4] for k in range(4)))
    scores = {"S1-T1": (40, 20, 5, -65), "S1-T2": (30, 10, 5, -45), "S1-T3": (25, 15, 8, -48),
              "S1-T4": (50, 12, 3, -65)}
    for table, balances in scores.items():
        g = finished(g, table, *balances)
    qualified = G.qualifiers(g, 1)
    g = drawn(g, 2, qualified[:4], qualified[4:])
    g = finished(finished(g, "S2-T1", 20, 10, 4, -34), "S2-T2", 16, 12, 4, -32)
    final = G.qualifiers(g, 2)
    g = drawn(g, 3, final)
    g = finished(g, "S3-T1", 30, 10, 0, -40)
    rows, decided = G.standings(g)
    assert [r.player for r in rows[:4]] == final[:1] + final[1:2] + final[2:3] + final[3:]
    thirds = [r for r in rows if r.stage == 2 and r.table_place == 3]
    assert {r.place for r in thirds} == {5} and all(r.tied for r in thirds)   # 4 and 4
    assert not decided
    refused_dice("T-7.5", g, 2, **{thirds[0].player: (1, 1)} | {rows[7].player: (2, 2)})
    g = dice(g, 2, **{thirds[0].player: (1, 2), thirds[1].player: (6, 6)})
    stage1 = [r for r in G.standings(g)[0] if r.stage == 1]
    assert [r.table_place for r in stage1[:4]] == [3, 3, 3, 3]          # thirds before fourths
    assert [r.coins for r in stage1[:4]] == [8, 5, 5, 3]                 # then by score
    assert [r.place for r in stage1[:4]] == [9, 10, 10, 12]
    tied = [r.player for r in stage1[1:3]]
    g = dice(g, 1, **{tied[0]: (2, 2), tied[1]: (3, 3)})
    rows, decided = G.standings(g)
    assert decided and [r.place for r in rows] == list(range(1, 13)) + [13, 14, 15, 15]
    assert rows[10].player == tied[0] and rows[9].player == tied[1]
    assert [G.prize(g, r.place) for r in rows[3:12]] == ["a commemorative water bottle"] * 9


def test_lots_and_dice_belong_to_their_games():
    g = drawn(G.start(PLAYERS[:8], {}, 0, game="MJS"), 1, PLAYERS[:4], PLAYERS[4:8])
    g = finished(finished(g, "S1-T1", 46, 12, 12, -70), "S1-T2", 30, 20, 10, -60)
    with pytest.raises(RuleViolation, match="dice") as info:
        G.check_tie_lots(g, {"round": 1, "candidates": ["p2", "p3"], "winner": "p2"})
    assert info.value.rule == "T-7.2"
    mjo = replace(g, game="MJO")
    with pytest.raises(RuleViolation, match="lots") as info:
        G.check_tie_dice(mjo, {"round": 1, "rolls": {"p2": [1, 1], "p3": [2, 2]}})
    assert info.value.rule == "T-8.3"
