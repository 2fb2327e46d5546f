"""The team event's pure rules (tournaments.md T-6; rules/swiss/): entries, match points,
byes, forfeits and exclusion, the ranking with its tie-breaks and lots, and the pairing of each
round — the worked examples Ex 3 and Ex 4 among them."""
from __future__ import annotations

import random
from dataclasses import replace

import pytest

from rules import swiss
from rules.swiss.event import PairResult
from rules.violations import RuleViolation


def entries(*names: str) -> list[swiss.Entry]:
    return [swiss.Entry(t, ((f"{t}1", f"{t}2"), (f"{t}3", f"{t}4")), f"{t}领队") for t in names]


def event(*names: str, **settings) -> swiss.TeamEvent:
    return swiss.start(entries(*names), settings)


def paired(ev, number, meetings, bye=None, manual=True):
    data = {"round": number, "manual": manual, "byes": [bye] if bye else [],
            "matches": [{"match_id": f"R{number}-{k}", "teams": list(m)}
                        for k, m in enumerate(meetings, 1)]}
    return swiss.record_pairing(ev, data)


def played(ev, number, results):
    """``results``: meeting index (1-based) -> (pair a levels, pair b levels) or a PairResult."""
    for k, (a, b) in results.items():
        for pair, outcome in (("a", a), ("b", b)):
            result = outcome if isinstance(outcome, PairResult) else PairResult.of_levels(outcome)
            ev = swiss.record_result(ev, f"R{number}-{k}{pair}", result)
    return ev


def score(ev, team):
    return swiss.totals(ev, team).score


# --- entries (T-6.2) ---------------------------------------------------------------------------

def test_t6_2_a_team_is_a_leader_and_two_pairs():
    ok = {"team_id": "jnu-1", "players": ["甲", "乙", "丙", "丁"], "leader": "严伦"}
    swiss.check_entry(ok, {})
    assert swiss.entry(ok).pairs == (("甲", "乙"), ("丙", "丁"))
    with pytest.raises(RuleViolation, match="four players .* not 2") as bad:
        swiss.check_entry({**ok, "players": ["甲", "乙"]}, {})
    assert bad.value.rule == "T-6.2"
    with pytest.raises(RuleViolation, match="names its leader"):
        swiss.check_entry({k: v for k, v in ok.items() if k != "leader"}, {})


def test_t6_2_a_player_is_in_one_team_only():
    with pytest.raises(RuleViolation, match="丙 already play.*'jnu-2'") as bad:
        swiss.check_entry({"team_id": "jnu-1", "players": ["甲", "乙", "丙", "丁"],
                           "leader": "x"}, {"jnu-2": ("丙", "戊", "己", "庚")})
    assert bad.value.rule == "T-6.2"


def test_t6_1_settings_are_checked():
    assert swiss.parse_settings({}).to_dict() == {
        "rounds": 4, "tieBreak2": "bestSingleRoundDiff", "forfeitScope": "pair",
        "pairingMethod": "nearest"}
    for bad, rule in (({"rounds": 0}, "T-6.1"), ({"rounds": "4"}, "T-6.1"),
                      ({"tieBreak2": "coin"}, "T-6.8"), ({"forfeitScope": "all"}, "T-6.7"),
                      ({"tiebreak2": "x"}, "T-6"), ({"pairingUnit": "pair"}, "T-6"),
                      ({"match": {"matchPoints": {"win": 3, "draw": 1, "loss": 0}}}, "T-6.5")):
        with pytest.raises(RuleViolation) as v:
            swiss.check_settings(bad)
        assert v.value.rule == rule
    swiss.check_settings({"rounds": 4, "tieBreak2": "sumOfDiffs", "forfeitScope": "team",
                          "match": {"alertAtMinute": 80,
                                    "matchPoints": {"win": 2, "draw": 1, "loss": 0}}})


# --- match points (T-6.5) and byes (T-6.4) ----------------------------------------------------

def test_t6_5_win_draw_loss_and_level_differences():
    """SJ3 Ex 11: A at 8, B at 5 → 2 points and +3 to A, 0 and −3 to B; 6 : 6 → 1 each, 0."""
    ev = paired(event("A", "B"), 1, [("A", "B")])
    ev = played(ev, 1, {1: ((8, 5), (6, 6))})
    a, b = swiss.team_lines(ev, "A"), swiss.team_lines(ev, "B")
    assert [(x.points, x.level_difference, x.outcome) for x in a] == [(2, 3, "win"),
                                                                      (1, 0, "draw")]
    assert [(x.points, x.level_difference, x.outcome) for x in b] == [(0, -3, "loss"),
                                                                      (1, 0, "draw")]
    assert (score(ev, "A"), score(ev, "B")) == (3, 1)


def test_t6_5_a_forfeit_gives_the_opponents_2_points_and_4_to_2():
    """「迟到21分钟作弃权处理，对手得2分，级差为4：2」."""
    ev = paired(event("A", "B"), 1, [("A", "B")])
    ev = played(ev, 1, {1: (PairResult.forfeited_by(1), (3, 9))})
    a = swiss.team_lines(ev, "A")[0]
    b = swiss.team_lines(ev, "B")[0]
    assert (a.points, a.levels, a.level_difference, a.outcome) == (2, (4, 2), 2, "forfeitWin")
    assert (b.points, b.levels, b.level_difference, b.outcome) == (0, (2, 4), -2, "forfeitLoss")


def test_t6_4_a_bye_is_two_forfeit_wins():
    ev = paired(event("A", "B", "C"), 1, [("A", "B")], bye="C")
    lines = swiss.team_lines(ev, "C")
    assert [(x.pair, x.points, x.levels, x.outcome) for x in lines] == [
        ("a", 2, (4, 2), "bye"), ("b", 2, (4, 2), "bye")]
    assert swiss.totals(ev, "C") == swiss.Totals("C", 4, (2, 2), (2, 2), 2, 2)


def test_a_table_being_played_counts_nothing_yet():
    ev = paired(event("A", "B"), 1, [("A", "B")])
    ev = swiss.record_result(ev, "R1-1a", PairResult.of_levels((7, 4)))
    assert [x.outcome for x in swiss.team_lines(ev, "A")] == ["win", "pending"]
    assert score(ev, "A") == 2 and not swiss.round_complete(ev, 1)


# --- the ranking (T-6.8, Ex 3) -----------------------------------------------------------------

# Ex 3: (pair a, pair b) levels of each focus team's tables in rounds 1-4, from its own side.
W, D, L = (3, 2), (5, 5), (3, 6)
EX3 = {"T1": [((6, 2), L), (W, W), (D, W), (W, L)],       # a 7, b 4; best +4
       "T2": [((8, 2), W), (L, W), (W, D), (W, L)],       # a 6, b 5; best +6
       "T3": [((9, 4), W), (W, L), (L, W), (W, L)],       # a 6, b 4; best +5 (won 9 : 4)
       "T4": [(L, W), ((6, 2), W), (W, L), (W, L)]}       # a 6, b 4; best +4


def ex3_event(**settings) -> swiss.TeamEvent:
    focus, others = list(EX3), ["O1", "O2", "O3", "O4"]
    ev = event(*focus, *others, **settings)
    for r in range(4):
        meetings = [(t, others[(k + r) % 4]) for k, t in enumerate(focus)]
        ev = paired(ev, r + 1, meetings)
        ev = played(ev, r + 1, {k + 1: EX3[t][r] for k, t in enumerate(focus)})
    return ev


def test_t6_8_ex3_ties_broken_by_best_pair_then_best_single_round_difference():
    """Ex 3: T1 and T2 on 11 → 7 > 6: T1 before T2; T3 and T4 on 10 and 6 → +5 > +4."""
    ev = ex3_event()
    values = {t: (x.score, x.pair_points, x.best_pair, x.tie_break2)
              for t in EX3 for x in [swiss.totals(ev, t)]}
    assert values == {"T1": (11, (7, 4), 7, 4), "T2": (11, (6, 5), 6, 6),
                      "T3": (10, (6, 4), 6, 5), "T4": (10, (6, 4), 6, 4)}
    order = [r.totals.team for r in swiss.standings(ev) if r.totals.team in EX3]
    assert order == ["T1", "T2", "T3", "T4"]


def test_t6_8_tie_break_2_may_sum_the_level_differences():
    """Setting tieBreak2 sumOfDiffs: T3's and T4's totals of level differences decide."""
    ev = ex3_event(tieBreak2="sumOfDiffs")
    t3, t4 = swiss.totals(ev, "T3"), swiss.totals(ev, "T4")
    assert (t3.pair_differences, t3.tie_break2) == ((5 + 1 - 3 + 1, 1 - 3 + 1 - 3), 0)
    assert (t4.pair_differences, t4.tie_break2) == ((-3 + 4 + 1 + 1, 1 + 1 - 3 - 3), -1)
    order = [r.totals.team for r in swiss.standings(ev) if r.totals.team in ("T3", "T4")]
    assert order == ["T3", "T4"]


def test_t6_8_equal_teams_share_a_place_until_lots_separate_them():
    ev = paired(event("A", "B", "C", "D", rounds=1), 1, [("A", "B"), ("C", "D")])
    ev = played(ev, 1, {1: ((5, 3), (3, 5)), 2: ((5, 3), (3, 5))})
    rows = swiss.standings(ev)
    assert [(r.place, r.totals.team, r.tied) for r in rows] == [
        (1, "A", True), (1, "B", True), (1, "C", True), (1, "D", True)]
    assert not swiss.final(ev)
    with pytest.raises(RuleViolation, match="all the teams tied at that place"):
        swiss.check_tie_lots(ev, {"round": 1, "candidates": ["A", "B"], "winner": "A"})
    draws = swiss.propose_tie_lots(ev, random.Random(4))
    assert [len(d["candidates"]) for d in draws] == [4, 3, 2]
    for d in draws:
        swiss.check_tie_lots(ev, d)
        ev = swiss.record_tie_lots(ev, d)
    winners = [d["winner"] for d in draws]
    rows = swiss.standings(ev)
    assert [r.totals.team for r in rows][:3] == winners
    assert [r.place for r in rows] == [1, 2, 3, 4] and swiss.final(ev)
    with pytest.raises(RuleViolation, match="already won a draw"):
        swiss.check_tie_lots(ev, {"round": 1, "candidates": winners[:2], "winner": winners[0]})


def test_t6_8_lots_wait_for_the_last_round():
    ev = paired(event("A", "B", rounds=2), 1, [("A", "B")])
    ev = played(ev, 1, {1: ((5, 3), (3, 5))})
    with pytest.raises(RuleViolation, match="once every round has been played") as v:
        swiss.check_tie_lots(ev, {"round": 1, "candidates": ["A", "B"], "winner": "A"})
    assert v.value.rule == "T-6.8"


# --- forfeits and exclusion (T-6.7, Ex 4) ------------------------------------------------------

def test_t6_7_ex4_the_same_pair_forfeiting_again_removes_the_team():
    """Ex 4: a pair 21 minutes late forfeits round 1 (opponents 2 points, 4 : 2); the same pair
    forfeits again in round 3 → the team leaves the standings and is not paired in round 4; its
    opponents keep the points they earned against it."""
    rng = random.Random(7)
    ev = event("L", "B", "C", "D", "E", "F")
    for number in (1, 2, 3):
        data = swiss.propose(ev, rng)
        swiss.check_pairing(ev, data, by_lots=number == 1)
        ev = swiss.record_pairing(ev, data)
        meeting = ev.rounds[-1].meeting_of("L")
        side = meeting.teams.index("L")
        for m in ev.rounds[-1].meetings:
            ev = swiss.record_result(ev, m.table("b"), PairResult.of_levels((6, 6)))
            late = m is meeting and number in (1, 3)
            ev = swiss.record_result(ev, m.table("a"), PairResult.forfeited_by(side) if late
                                     else PairResult.of_levels((6, 6)))
        if number == 1:
            opponent = meeting.opponent("L")
            assert swiss.totals(ev, opponent).pair_points[0] == 2
            assert swiss.excluded(ev) == {}
    assert swiss.excluded(ev) == {"L": 3}
    assert "L" not in swiss.in_play(ev)
    round4 = swiss.propose(ev, rng)
    assert "L" not in [t for m in round4["matches"] for t in m["teams"]] + round4["byes"]
    assert len(round4["byes"]) == 1              # five teams left
    rows = swiss.standings(ev)
    assert rows[-1].totals.team == "L" and rows[-1].place is None and rows[-1].excluded_after == 3
    assert all(r.place is not None for r in rows[:-1])
    first_opponent = ev.rounds[0].meeting_of("L").opponent("L")
    assert swiss.totals(ev, first_opponent).pair_points[0] == 2 + 1 + 1


def test_t6_7_forfeit_scope_team_counts_both_pairs_together():
    ev = paired(event("A", "B", "C", "D"), 1, [("A", "B"), ("C", "D")])
    ev = played(ev, 1, {1: (PairResult.forfeited_by(0), (5, 5)), 2: ((5, 5), (5, 5))})
    ev = paired(ev, 2, [("A", "C"), ("B", "D")])
    ev = played(ev, 2, {1: ((5, 5), PairResult.forfeited_by(0)), 2: ((5, 5), (5, 5))})
    assert swiss.excluded(ev) == {}                   # pair a once, pair b once
    by_team = swiss.TeamEvent(ev.entries, swiss.parse_settings({"forfeitScope": "team"}),
                              ev.rounds, ev.results)
    assert swiss.excluded(by_team) == {"A": 2}


def test_t6_7_forfeit_scope_team_needs_a_forfeit_again_in_another_round():
    """「如连续或间接弃权的队或对子」: a repeated forfeit. Both pairs of A forfeiting round 1 is
    one forfeit of the team — A is still paired in round 2; a forfeit again in round 2
    excludes it after round 2."""
    ev = swiss.start(entries("A", "B", "C", "D"), {"forfeitScope": "team"})
    ev = paired(ev, 1, [("A", "B"), ("C", "D")])
    ev = played(ev, 1, {1: (PairResult.forfeited_by(0), PairResult.forfeited_by(0)),
                        2: ((5, 5), (5, 5))})
    assert swiss.excluded(ev) == {} and "A" in swiss.in_play(ev)
    assert [(x.round, x.pair) for x in swiss.forfeits(ev, "A")] == [(1, "a"), (1, "b")]
    ev = paired(ev, 2, [("A", "C"), ("B", "D")])
    ev = played(ev, 2, {1: ((5, 5), PairResult.forfeited_by(0)), 2: ((5, 5), (5, 5))})
    assert swiss.excluded(ev) == {"A": 2} and "A" not in swiss.in_play(ev)


def test_sj3_11_9_a_disqualified_pairs_team_is_not_paired_again_nor_ranked():
    """Seed 十〈5〉「重则判取消参赛资格」: A's pair a is disqualified in round 1 (its table is
    forfeited: B's pair a 2 points, 4 : 2); A, which plays only as two pairs, is absent from
    round 2's pairing and listed apart; B keeps its points."""
    ev = paired(event("A", "B", "C", "D", "E"), 1, [("A", "B"), ("C", "D")], bye="E")
    dq = replace(PairResult.forfeited_by(0), disqualified=(0,))
    ev = played(ev, 1, {1: (dq, (6, 4)), 2: ((5, 5), (5, 5))})
    assert swiss.disqualification(ev, "A") == (1, "a")
    assert swiss.excluded(ev) == {"A": 1} and swiss.in_play(ev) == ["B", "C", "D", "E"]
    round2 = swiss.propose(ev, random.Random(0))
    assert "A" not in [t for m in round2["matches"] for t in m["teams"]]
    assert round2["matches"] and not round2["byes"]
    rows = swiss.standings(ev)
    assert (rows[-1].totals.team, rows[-1].place, rows[-1].excluded_after) == ("A", None, 1)
    assert swiss.totals(ev, "B").pair_points == (2, 0)


def test_a_withdrawn_team_forfeits_its_tables_without_a_result():
    ev = paired(event("A", "B", "C", "D"), 1, [("A", "B"), ("C", "D")])
    ev = swiss.record_result(ev, "R1-1a", PairResult.of_levels((9, 3)))
    ev = swiss.withdraw(ev, "B")
    assert ev.results["R1-1a"] == PairResult.of_levels((9, 3))
    assert ev.results["R1-1b"] == PairResult.forfeited_by(1)
    assert "B" not in swiss.in_play(ev)


# --- pairing (T-6.4) ---------------------------------------------------------------------------

def test_t6_4_round_1_is_drawn_by_lots_and_the_last_drawn_of_an_odd_field_sits_out():
    ev = event("A", "B", "C", "D", "E")
    data = swiss.propose(ev, random.Random(3))
    assert data["purpose"] == "pairing" and data["round"] == 1
    drawn = [t for m in data["matches"] for t in m["teams"]] + data["byes"]
    assert sorted(drawn) == ["A", "B", "C", "D", "E"] and len(data["byes"]) == 1
    assert swiss.check_pairing(ev, data, by_lots=True) == ()
    ev = swiss.record_pairing(ev, data)
    assert ev.lot_order == tuple(drawn)
    with pytest.raises(RuleViolation, match="only round 1 is drawn by lots"):
        swiss.check_pairing(ev, {**data, "round": 2}, by_lots=True)


def test_t6_4_later_rounds_pair_equal_scores_without_rematches():
    ev = paired(event("A", "B", "C", "D", "E", "F"), 1, [("A", "B"), ("C", "D"), ("E", "F")],
                manual=False)
    # A, C, E win both tables (4), B, D, F lose both (0)
    ev = played(ev, 1, {k: ((7, 2), (6, 2)) for k in (1, 2, 3)})
    data = swiss.propose(ev, random.Random(0))
    assert [m["teams"] for m in data["matches"]] == [["A", "C"], ["E", "B"], ["D", "F"]]
    assert data["byes"] == [] and not data["manual"]
    assert swiss.check_pairing(ev, data, by_lots=False) == ()


def test_t6_4_the_bye_goes_to_the_lowest_ranked_team_without_one():
    ev = paired(event("A", "B", "C", "D", "E"), 1, [("A", "B"), ("C", "D")], bye="E")
    ev = played(ev, 1, {1: ((7, 2), (6, 2)), 2: ((7, 2), (3, 5))})
    # E 4 (bye), A 4, C 2, D 2, B 0: B is lowest and has had no bye
    data = swiss.propose(ev, random.Random(0))
    assert data["byes"] == ["B"]
    ev = swiss.record_pairing(ev, data)
    ev = played(ev, 2, {1: ((5, 5), (5, 5)), 2: ((5, 5), (5, 5))})
    assert swiss.propose(ev, random.Random(0))["byes"] not in (["B"], ["E"])


def test_t6_4_no_valid_pairing_is_said_plainly():
    """Four teams after three rounds have all met: round 4 cannot be paired without a rematch;
    the referee pairs it by hand and the rematches are warned of."""
    ev = event("A", "B", "C", "D", rounds=4)
    for number, meetings in enumerate([[("A", "B"), ("C", "D")], [("A", "C"), ("B", "D")],
                                       [("A", "D"), ("B", "C")]], 1):
        ev = played(paired(ev, number, meetings), number, {1: ((5, 4), (5, 4)),
                                                            2: ((5, 4), (5, 4))})
    with pytest.raises(RuleViolation, match="no valid pairing for round 4") as v:
        swiss.propose(ev, random.Random(0))
    assert v.value.rule == "T-6.4" and "manual true" in v.value.message
    manual = {"round": 4, "manual": True, "byes": [],
              "matches": [{"match_id": "R4-1", "teams": ["A", "B"]},
                          {"match_id": "R4-2", "teams": ["C", "D"]}]}
    assert swiss.check_pairing(ev, manual, by_lots=False) == (
        "rematch: A and B met in round 1", "rematch: C and D met in round 1")
    with pytest.raises(RuleViolation, match="no valid pairing"):
        swiss.check_pairing(ev, {**manual, "manual": False}, by_lots=False)


def test_t6_4_an_odd_field_whose_teams_all_had_a_bye_cannot_be_paired():
    ev = event("A", "B", "C", rounds=5)
    for number, (meeting, bye) in enumerate([(("A", "B"), "C"), (("A", "C"), "B"),
                                             (("B", "C"), "A")], 1):
        ev = played(paired(ev, number, [meeting], bye=bye), number, {1: ((5, 4), (4, 5))})
    with pytest.raises(RuleViolation, match="every team in play has had its bye"):
        swiss.propose(ev, random.Random(0))


def test_t6_4_a_pairing_by_scores_must_be_the_one_the_rules_give():
    ev = paired(event("A", "B", "C", "D", "E", "F"), 1, [("A", "B"), ("C", "D"), ("E", "F")])
    ev = played(ev, 1, {1: ((7, 2), (6, 2)), 2: ((5, 5), (5, 5)), 3: ((7, 2), (6, 2))})
    # scores A 4, E 4 | C 2, D 2 | B 0, F 0; C and D have met
    other = {"round": 2, "manual": False, "byes": [],
             "matches": [{"match_id": "R2-1", "teams": ["A", "F"]},
                         {"match_id": "R2-2", "teams": ["E", "C"]},
                         {"match_id": "R2-3", "teams": ["D", "B"]}]}
    with pytest.raises(RuleViolation, match="round 2 paired by scores is A v E; C v B; D v F"):
        swiss.check_pairing(ev, other, by_lots=False)
    assert swiss.check_pairing(ev, {**other, "manual": True}, by_lots=False) == (
        "A (4) and F (0) are 4 points apart; the nearest pairing keeps every difference "
        "within 2",)


@pytest.mark.parametrize("matches, byes, message", [
    ([["A", "A"], ["C", "D"]], [], "named twice: A; left out: B"),
    ([["A", "B"], ["C", "B"]], [], "named twice: B; left out: D"),
    ([["A", "B"]], ["C"], "left out: D"),
    ([["A", "B"], ["C", "X"]], [], "left out: D; not in play: X"),
    ([["A", "B"], ["C", "D"]], ["D"], "named twice: D"),
])
def test_t6_4_a_pairing_names_every_team_in_play_once(matches, byes, message):
    ev = paired(event("A", "B", "C", "D"), 1, [("A", "B"), ("C", "D")])
    ev = played(ev, 1, {1: ((7, 2), (6, 2)), 2: ((7, 2), (6, 2))})
    data = {"round": 2, "manual": True, "byes": byes,
            "matches": [{"match_id": f"R2-{k}", "teams": m} for k, m in enumerate(matches, 1)]}
    with pytest.raises(RuleViolation, match=message) as v:
        swiss.check_pairing(ev, data, by_lots=False)
    assert v.value.rule == "T-6.4"


def test_t6_4_no_round_is_paired_before_the_last_is_played_nor_past_the_last():
    ev = paired(event("A", "B", rounds=2), 1, [("A", "B")])
    ev = swiss.record_result(ev, "R1-1a", PairResult.of_levels((7, 2)))
    with pytest.raises(RuleViolation, match=r"round 1 is still being played \(R1-1b"):
        swiss.propose(ev, random.Random(0))
    ev = swiss.record_result(ev, "R1-1b", PairResult.of_levels((7, 2)))
    with pytest.raises(RuleViolation, match="next round to pair is round 2, not 3"):
        swiss.check_pairing(ev, {"round": 3, "manual": True, "byes": [], "matches": [
            {"match_id": "R3-1", "teams": ["A", "B"]}]}, by_lots=False)
    ev = paired(ev, 2, [("A", "B")])
    with pytest.raises(RuleViolation, match="all 2 rounds have been paired"):
        swiss.propose(ev, random.Random(0))


def test_meeting_ids_are_new_and_leave_room_for_the_pair_letter():
    ev = paired(event("A", "B", "C", "D"), 1, [("A", "B"), ("C", "D")])
    ev = played(ev, 1, {1: ((7, 2), (6, 2)), 2: ((7, 2), (6, 2))})
    data = {"round": 2, "manual": True, "byes": [],
            "matches": [{"match_id": "R1-1", "teams": ["A", "C"]},
                        {"match_id": "R2-2", "teams": ["B", "D"]}]}
    with pytest.raises(RuleViolation, match="R1-1 are already used"):
        swiss.check_pairing(ev, data, by_lots=False)
    assert ev.table("R1-2b") == (ev.rounds[0].meetings[1], "b")
    assert ev.table("R1-2") is None and ev.table("R1-3a") is None


def test_t6_5_both_pairs_late_forfeit_the_table_without_a_winner():
    """Both pairs of a table 21 minutes late: no winner, no points, a forfeit for each."""
    ev = paired(event("A", "B"), 1, [("A", "B")])
    ev = played(ev, 1, {1: (PairResult.forfeited_by_both(), (6, 6))})
    for team in ("A", "B"):
        line = swiss.team_lines(ev, team)[0]
        assert (line.points, line.level_difference, line.outcome) == (0, 0, "forfeitLoss")
        assert [x.round for x in swiss.forfeits(ev, team)] == [1]
