"""rules/knockout/ against tournaments.md T-2 (knockout by lots), T-5.5 (card draw), T-11 Ex 1, 2, 7."""
import json
import random

import pytest

from rules import RuleViolation
from rules.knockout import (
    Bracket,
    champion,
    check_draw,
    expected_byes,
    in_play,
    is_decided,
    next_round,
    propose_card_draw,
    propose_draw,
    ranking,
    record_draw,
    record_result,
    start,
    withdraw,
)


def teams(n):
    return [f"T{i}" for i in range(1, n + 1)]


def violated(rule, fn, *args):
    with pytest.raises(RuleViolation) as info:
        fn(*args)
    assert info.value.rule == rule
    assert info.value.message  # in words
    return info.value


def decide_round(b, pick=lambda match: match.teams[0]):
    for match in [m for m in b.matches.values() if m.winner is None]:
        b = record_result(b, match.match_id, pick(match))
    return b


def play_out(b, rng, pick=None):
    pick = pick or (lambda match: rng.choice(match.teams))
    while next_round(b) is not None:
        b = decide_round(record_draw(b, propose_draw(b, rng)), pick)
    return decide_round(b, pick)


def shape(b):
    """Per round: (main matches, third-place matches, byes)."""
    out = []
    for r in b.rounds:
        kinds = [b.matches[m].kind for m in r.match_ids]
        out.append((kinds.count("main"), kinds.count("third_place"), len(r.byes)))
    return out


def places(b):
    return {row["team"]: row["place"] for row in ranking(b)}


def four_to_final(third="playoff"):
    """T1 beats T2, T3 beats T4 in the semi-finals (round 1 of four entrants)."""
    b = start(teams(4), {"thirdPlace": third})
    b = record_draw(b, {"round": 1, "matches": [{"match_id": "S1", "teams": ["T1", "T2"]},
                                                {"match_id": "S2", "teams": ["T3", "T4"]}]})
    return record_result(record_result(b, "S1", "T1"), "S2", "T3")


FINAL = {"match_id": "F", "teams": ["T1", "T3"]}
THIRD = {"match_id": "P3", "teams": ["T2", "T4"], "kind": "third_place"}


# ---------------------------------------------------------------- T-11 Ex 1 and bracket shapes

def test_t11_ex1_twenty_teams_twelve_byes():
    b = play_out(start(teams(20), {}), random.Random(1), pick=lambda m: m.teams[0])
    assert shape(b) == [(4, 0, 12), (8, 0, 0), (4, 0, 0), (2, 0, 0), (1, 1, 0)]
    assert champion(b) and is_decided(b)
    rows = ranking(b)
    assert [r["place"] for r in rows] == [1, 2, 3, 4] + [5] * 4 + [9] * 8 + [17] * 4
    assert [r["eliminated_in"] for r in rows] == [None, 5, 4, 4] + [3] * 4 + [2] * 8 + [1] * 4


def test_t11_ex1_round_two_is_sixteen_after_round_one():
    b = start(teams(20), {})
    assert expected_byes(b, 1) == 12
    b = decide_round(record_draw(b, propose_draw(b, random.Random(7))))
    assert len(in_play(b)) == 16 and next_round(b) == 2 and expected_byes(b, 2) == 0


@pytest.mark.parametrize("n,rounds", [(2, 1), (4, 2), (8, 3), (16, 4), (32, 5)])
def test_t2_2_power_of_two_field_has_no_byes(n, rounds):
    b = play_out(start(teams(n), {}), random.Random(n))
    assert len(b.rounds) == rounds and all(len(r.byes) == 0 for r in b.rounds)
    assert shape(b)[-1] == ((1, 1, 0) if n >= 4 else (1, 0, 0))


def test_t2_2_three_entrants_one_bye_then_final_alone_third():
    b = play_out(start(teams(3), {}), random.Random(3), pick=lambda m: m.teams[0])
    assert shape(b) == [(1, 0, 1), (1, 0, 0)]  # one semi-final loser: no third-place match (T-2.3)
    assert sorted(places(b).values()) == [1, 2, 3]


def test_t2_2_five_entrants_three_byes_then_semis_and_third_place():
    b = play_out(start(teams(5), {}), random.Random(5), pick=lambda m: m.teams[0])
    assert shape(b) == [(1, 0, 3), (2, 0, 0), (1, 1, 0)]
    assert sorted(places(b).values()) == [1, 2, 3, 4, 5]


def test_t2_2_odd_gets_bye_in_every_odd_round():
    b = play_out(start(teams(5), {"byePolicy": "oddGetsBye"}), random.Random(2), pick=lambda m: m.teams[0])
    assert shape(b) == [(2, 0, 1), (1, 0, 1), (1, 0, 0)]
    assert sorted(places(b).values()) == [1, 2, 3, 4, 4]  # two round-1 losers share 4th
    b = play_out(start(teams(20), {"byePolicy": "oddGetsBye"}), random.Random(2))
    assert shape(b) == [(10, 0, 0), (5, 0, 0), (2, 0, 1), (1, 0, 1), (1, 0, 0)]


@pytest.mark.parametrize("n,power,odd", [(2, 0, 0), (3, 1, 1), (5, 3, 1), (6, 2, 0), (7, 1, 1),
                                         (12, 4, 0), (17, 15, 1), (20, 12, 0), (33, 31, 1)])
def test_t2_2_expected_byes_of_round_one(n, power, odd):
    assert expected_byes(start(teams(n), {}), 1) == power
    assert expected_byes(start(teams(n), {"byePolicy": "oddGetsBye"}), 1) == odd


def test_t2_2_expected_byes_only_for_drawn_or_next_round():
    b = start(teams(4), {})
    with pytest.raises(ValueError):
        expected_byes(b, 2)


# ---------------------------------------------------------------- T-2.3 and T-2.4

def test_t2_3_final_round_draws_final_and_third_place_match():
    b = four_to_final()
    assert in_play(b) == ("T1", "T3") and next_round(b) == 2
    draw = propose_draw(b, random.Random(0), "GD-")
    assert draw["matches"][1] == {"match_id": "GD-R2-2", "teams": ["T2", "T4"], "kind": "third_place"}
    assert set(draw["matches"][0]["teams"]) == {"T1", "T3"} and draw["byes"] == []
    b = record_draw(b, draw)
    assert next_round(b) is None and in_play(b) == ()


def test_t2_4_final_ranking_with_playoff():
    b = record_draw(four_to_final(), {"round": 2, "matches": [FINAL, THIRD]})
    b = record_result(b, "F", "T3")
    assert champion(b) == "T3" and not is_decided(b)  # third-place match still to play
    b = record_result(b, "P3", "T4")
    assert is_decided(b)
    assert ranking(b) == [
        {"place": 1, "team": "T3", "eliminated_in": None, "withdrawn": False},
        {"place": 2, "team": "T1", "eliminated_in": 2, "withdrawn": False},
        {"place": 3, "team": "T4", "eliminated_in": 1, "withdrawn": False},
        {"place": 4, "team": "T2", "eliminated_in": 1, "withdrawn": False}]


def test_t2_3_shared_third_place_has_no_playoff():
    b = four_to_final("shared")
    assert len(propose_draw(b, random.Random(0))["matches"]) == 1
    b = record_result(record_draw(b, {"round": 2, "matches": [FINAL]}), "F", "T1")
    assert is_decided(b) and places(b) == {"T1": 1, "T3": 2, "T2": 3, "T4": 3}


def test_t2_4_provisional_ranking_puts_teams_still_in_first():
    b = four_to_final()
    assert places(b) == {"T1": 1, "T3": 1, "T2": 3, "T4": 3}
    assert champion(b) is None


def test_t11_ex7_time_limit_winner_advances():
    """Ex 7: the SJ2 match decides A (here T1) by levels 9 : 8 after the time limit; the bracket takes
    the winner from the match projection and A goes on."""
    b = start(["A", "B", "C", "D"], {})
    b = record_draw(b, {"round": 1, "matches": [{"match_id": "m1", "teams": ["A", "B"]},
                                                {"match_id": "m2", "teams": ["C", "D"]}]})
    b = record_result(b, "m1", "A")
    assert "A" in in_play(b) and b.eliminated == {"B": 1}


# ---------------------------------------------------------------- check_draw rejections

def test_t2_1_start_needs_two_distinct_entrants_and_known_settings():
    violated("T-2.1", start, ["T1"], {})
    violated("T-2.1", start, ["T1", "T1"], {})
    violated("T-2.2", start, teams(4), {"byePolicy": "random"})
    violated("T-2.3", start, teams(4), {"thirdPlace": "none"})


def test_t2_1_draw_must_be_for_the_next_round():
    b = start(teams(2), {})
    assert "round 1" in violated("T-2.1", check_draw, b, {"round": 2, "matches": [FINAL]}).message
    violated("T-2.1", check_draw, b, {"matches": [{"match_id": "F", "teams": ["T1", "T2"]}]})


def test_t2_1_draw_must_be_a_pairing_draw():
    violated("T-2.1", check_draw, start(teams(2), {}),
             {"purpose": "seatOrder", "round": 1, "matches": [{"match_id": "F", "teams": ["T1", "T2"]}]})


def test_t2_1_no_draw_while_previous_round_undecided():
    b = record_draw(start(teams(4), {}), {"round": 1, "matches": [
        {"match_id": "S1", "teams": ["T1", "T2"]}, {"match_id": "S2", "teams": ["T3", "T4"]}]})
    b = record_result(b, "S1", "T1")
    assert "S2" in violated("T-2.1", check_draw, b, {"round": 2, "matches": [FINAL]}).message
    violated("T-2.1", propose_draw, b, random.Random(0))


def test_t2_1_no_draw_after_the_final():
    b = record_result(record_draw(four_to_final("shared"), {"round": 2, "matches": [FINAL]}), "F", "T1")
    violated("T-2.1", check_draw, b, {"round": 3, "matches": []})
    violated("T-2.1", propose_draw, b, random.Random(0))


@pytest.mark.parametrize("matches,byes,word", [
    ([["T1", "T2"], ["T3", "T9"]], [], "not in play"),
    ([["T1", "T2"], ["T3", "T1"]], [], "twice"),
    ([["T1", "T2"]], ["T1", "T3"], "twice"),
    ([["T1", "T2"]], [], "leaves out"),
])
def test_t2_1_every_team_in_play_drawn_exactly_once(matches, byes, word):
    draw = {"round": 1, "byes": byes,
            "matches": [{"match_id": f"m{i}", "teams": t} for i, t in enumerate(matches)]}
    assert word in violated("T-2.1", check_draw, start(teams(4), {}), draw).message


@pytest.mark.parametrize("bad", [["T1"], ["T1", "T1"], ["T1", "T2", "T3"], "T1T2", None])
def test_t2_1_a_match_pairs_exactly_two_distinct_teams(bad):
    draw = {"round": 1, "matches": [{"match_id": "m1", "teams": bad}]}
    assert "two" in violated("T-2.1", check_draw, start(teams(2), {}), draw).message


def test_t2_1_a_match_needs_an_id_and_a_known_kind():
    b = start(teams(2), {})
    violated("T-2.1", check_draw, b, {"round": 1, "matches": [{"teams": ["T1", "T2"]}]})
    violated("T-2.1", check_draw, b, {"round": 1, "matches": [{"match_id": "F", "teams": ["T1", "T2"],
                                                               "kind": "friendly"}]})


def test_t2_1_match_ids_are_never_reused():
    b = start(teams(4), {})
    twice = {"round": 1, "matches": [{"match_id": "m", "teams": ["T1", "T2"]},
                                     {"match_id": "m", "teams": ["T3", "T4"]}]}
    violated("T-2.1", check_draw, b, twice)
    b = four_to_final()
    violated("T-2.1", check_draw, b, {"round": 2, "matches": [{"match_id": "S1", "teams": ["T1", "T3"]}, THIRD]})


def test_t2_2_wrong_number_of_byes():
    b = start(teams(6), {})  # 2 byes + 2 matches
    three_matches = {"round": 1, "matches": [{"match_id": f"m{i}", "teams": [f"T{2 * i + 1}", f"T{2 * i + 2}"]}
                                             for i in range(3)]}
    assert "2 bye" in violated("T-2.2", check_draw, b, three_matches).message
    check_draw(start(teams(6), {"byePolicy": "oddGetsBye"}), three_matches)
    all_byes = {"round": 1, "matches": [], "byes": teams(6)}
    violated("T-2.2", check_draw, b, all_byes)


def test_t2_3_final_round_without_third_place_match_under_playoff():
    b = four_to_final()
    violated("T-2.3", check_draw, b, {"round": 2, "matches": [FINAL]})
    wrong = dict(THIRD, teams=["T2", "T1"])
    violated("T-2.3", check_draw, b, {"round": 2, "matches": [FINAL, wrong]})


def test_t2_3_third_place_match_only_in_final_round_under_playoff():
    violated("T-2.3", check_draw, four_to_final("shared"), {"round": 2, "matches": [FINAL, THIRD]})
    early = {"round": 1, "matches": [{"match_id": "m1", "teams": ["T1", "T2"]},
                                     {"match_id": "m2", "teams": ["T3", "T4"], "kind": "third_place"}]}
    violated("T-2.3", check_draw, start(teams(4), {}), early)


# ---------------------------------------------------------------- results and withdrawals

def test_t2_1_result_for_unknown_or_decided_match_or_foreign_winner():
    b = four_to_final()
    violated("T-2.1", record_result, b, "nope", "T1")
    assert "already decided" in violated("T-2.1", record_result, b, "S1", "T2").message
    b = record_draw(b, {"round": 2, "matches": [FINAL, THIRD]})
    violated("T-2.1", record_result, b, "F", "T2")


def test_t1_3_withdrawal_forfeits_the_undecided_match():
    b = record_draw(start(teams(4), {}), {"round": 1, "matches": [
        {"match_id": "S1", "teams": ["T1", "T2"]}, {"match_id": "S2", "teams": ["T3", "T4"]}]})
    b = withdraw(b, "T2")
    s1 = b.matches["S1"]
    assert (s1.winner, s1.forfeit) == ("T1", "T2") and b.eliminated == {"T2": 1}
    b = record_result(b, "S2", "T3")
    # T2 gave up its third-place match with it: no play-off; T4 third alone, T2 fourth.
    draw = propose_draw(b, random.Random(0))
    assert [(m["match_id"], sorted(m["teams"]), m["kind"]) for m in draw["matches"]] == [
        ("R2-1", ["T1", "T3"], "main")]
    b = record_result(record_draw(b, draw), "R2-1", "T1")
    assert places(b) == {"T1": 1, "T3": 2, "T4": 3, "T2": 4}


def test_t1_3_withdrawal_in_the_third_place_match_is_a_forfeit():
    b = withdraw(record_draw(four_to_final(), {"round": 2, "matches": [FINAL, THIRD]}), "T4")
    assert b.matches["P3"].winner == "T2" and b.matches["P3"].forfeit == "T4"
    assert places(record_result(b, "F", "T1"))["T2"] == 3


def test_t1_3_semi_final_loser_withdrawing_before_the_final_draw_gives_up_third_place():
    b = withdraw(four_to_final(), "T4")
    check_draw(b, {"round": 2, "matches": [FINAL]})
    violated("T-2.3", check_draw, b, {"round": 2, "matches": [FINAL, THIRD]})
    b = record_result(record_draw(b, {"round": 2, "matches": [FINAL]}), "F", "T1")
    assert places(b) == {"T1": 1, "T3": 2, "T2": 3, "T4": 4}


def test_t1_3_undrawn_team_leaves_the_field_and_byes_follow():
    b = withdraw(start(teams(5), {}), "T5")  # 4 left: no bye instead of 3
    assert in_play(b) == ("T1", "T2", "T3", "T4") and expected_byes(b, 1) == 0
    b = decide_round(record_draw(b, propose_draw(b, random.Random(4))))
    winner = in_play(b)[0]
    b = withdraw(b, winner)  # won round 1, leaves before round 2: out in round 2
    assert b.eliminated[winner] == 2 and len(in_play(b)) == 1 and next_round(b) is None
    assert champion(b) == in_play(b)[0] and is_decided(b)
    assert places(b)[winner] == 2 and places(b)["T5"] == 5  # withdrawn ranks below round-1 losers


def test_t1_3_withdrawal_of_a_team_out_already_changes_nothing():
    b = four_to_final("shared")
    assert withdraw(b, "T2") is b
    b = record_result(record_draw(b, {"round": 2, "matches": [FINAL]}), "F", "T1")
    assert withdraw(b, "T1") is b
    violated("T-2.1", withdraw, b, "T9")
    violated("T-1.3", withdraw, withdraw(start(teams(3), {}), "T1"), "T1")


def test_t1_3_last_team_standing_is_champion_when_the_other_withdraws():
    b = withdraw(start(teams(2), {}), "T2")
    assert next_round(b) is None and champion(b) == "T1"
    assert ranking(b) == [{"place": 1, "team": "T1", "eliminated_in": None, "withdrawn": False},
                          {"place": 2, "team": "T2", "eliminated_in": 1, "withdrawn": True}]


# ---------------------------------------------------------------- T-5.5 card draw (T-11 Ex 2)

EX2 = {"round": 1, "byes": [], "cards": {"T1": "2H", "T2": "2D", "T3": "3S", "T4": "3C", "T5": "4H", "T6": "4S"},
       "matches": [{"match_id": "m1", "teams": ["T1", "T2"]}, {"match_id": "m2", "teams": ["T3", "T4"]},
                   {"match_id": "m3", "teams": ["T5", "T6"]}]}


def test_t11_ex2_guandan_card_draw():
    b = record_draw(start(teams(6), {"byePolicy": "oddGetsBye"}), EX2)
    assert b.rounds[0].cards["T1"] == "2H" and b.to_dict()["rounds"][0]["cards"]["T6"] == "4S"


def test_t5_5_cards_must_agree_with_the_pairing():
    b = start(teams(6), {"byePolicy": "oddGetsBye"})
    violated("T-5.5", check_draw, b, dict(EX2, cards={**EX2["cards"], "T2": "5D"}))
    violated("T-5.5", check_draw, b, dict(EX2, cards={**EX2["cards"], "T4": "2C"}))
    bye_twin = {"round": 1, "matches": [{"match_id": "m1", "teams": ["T1", "T2"]}], "byes": ["T3"],
                "cards": {"T1": "2H", "T2": "2D", "T3": "2S"}}
    violated("T-5.5", check_draw, start(teams(3), {}), bye_twin)


@pytest.mark.parametrize("n", [2, 3, 5, 6, 7, 8, 11, 16])
def test_t5_5_proposed_card_draw_passes_check(n):
    b = start(teams(n), {})
    draw = propose_card_draw(b, random.Random(n))
    check_draw(b, draw)
    assert sorted(draw["cards"]) == sorted(teams(n))


@pytest.mark.parametrize("n", [17, 18, 20])
def test_t11_ex1_the_seeds_field_of_16_to_20_teams_draws_with_cards(n):
    """Seed 001 「预计 16---20 支代表队」; T-11 Ex 1: 20 teams → 4 matches and 12 byes. A deck has
    13 ranks: the byes the cards cannot carry are drawn by plain lots and draw no card."""
    b = start(teams(n), {})
    draw = propose_card_draw(b, random.Random(n))
    check_draw(b, draw)
    pairs, byes = n - 16, 32 - n
    assert (len(draw["matches"]), len(draw["byes"])) == (pairs, byes)
    carded = [t for t in draw["byes"] if t in draw["cards"]]
    assert len(carded) == 13 - pairs and len(draw["cards"]) == 2 * pairs + 13 - pairs
    record_draw(b, draw)


def test_t5_5_more_matches_than_ranks_cannot_be_drawn_with_cards():
    violated("T-5.5", propose_card_draw, start(teams(28), {"byePolicy": "oddGetsBye"}),
             random.Random(0))


@pytest.mark.parametrize("card", ["ZZ", "1H", "2X", "10H", "bj", ""])
def test_t5_5_every_card_is_a_real_card(card):
    b = start(teams(2), {})
    draw = {"round": 1, "byes": [], "cards": {"T1": card, "T2": card},
            "matches": [{"match_id": "m1", "teams": ["T1", "T2"]}]}
    assert "not a card" in violated("T-5.5", check_draw, b, draw).message


# ---------------------------------------------------------------- properties, replay, to_dict

def check_final_ranking(b, n, third):
    rows = ranking(b)
    assert sorted(r["team"] for r in rows) == sorted(teams(n))
    got = [r["place"] for r in rows]
    assert got == sorted(got) and got[0] == 1
    for i, place in enumerate(got):  # competition ranking: a place is 1 + the number ranked above
        assert place == 1 + sum(1 for p in got if p < place)
    assert got.count(1) == 1 and rows[0]["team"] == champion(b)
    if n >= 2:
        assert got.count(2) == 1
    if n >= 4 and third == "playoff":
        assert got[2:4] == [3, 4]
    if n >= 4 and third == "shared":
        assert got[2:4] == [3, 3]


@pytest.mark.parametrize("policy", ["firstRoundPowerOfTwo", "oddGetsBye"])
@pytest.mark.parametrize("third", ["playoff", "shared"])
def test_t2_property_every_field_ends_with_a_champion(policy, third):
    for n in range(2, 41):
        for seed in range(3):
            rng = random.Random(n * 100 + seed)
            b = start(teams(n), {"byePolicy": policy, "thirdPlace": third})
            while next_round(b) is not None:
                draw = propose_draw(b, rng, "K-")
                assert len(draw["byes"]) == expected_byes(b, draw["round"])
                b = decide_round(record_draw(b, draw), lambda m, rng=rng: rng.choice(m.teams))
            assert is_decided(b) and champion(b) in teams(n)
            if policy == "firstRoundPowerOfTwo" and third == "playoff" and n >= 4:
                assert shape(b)[-1] == (1, 1, 0)
            check_final_ranking(b, n, third if policy == "firstRoundPowerOfTwo" else None)


def test_t2_property_random_withdrawals_still_place_everyone_once():
    for n in range(2, 41):
        rng = random.Random(n)
        b = start(teams(n), {})
        while not is_decided(b):
            staying = [t for t in teams(n) if t not in b.withdrawn]
            if staying and rng.random() < 0.3:
                b = withdraw(b, rng.choice(staying))
            if next_round(b) is not None and not [m for m in b.matches.values() if m.winner is None]:
                b = record_draw(b, propose_draw(b, rng))
            b = decide_round(b, lambda m, rng=rng: rng.choice(m.teams))
        rows = ranking(b)
        assert sorted(r["team"] for r in rows) == sorted(teams(n))
        winner = champion(b)
        assert winner is None or (rows[0]["team"] == winner and [r["place"] for r in rows].count(1) == 1)


def test_t1_4_replay_folds_recorded_draws_without_redrawing():
    rng = random.Random(42)
    b = start(teams(11), {})
    log = []
    while next_round(b) is not None:
        draw = propose_draw(b, rng)
        log.append(("draw", json.loads(json.dumps(draw))))
        b = record_draw(b, draw)
        for m in list(b.matches.values()):
            if m.winner is None:
                log.append(("result", m.match_id, m.teams[1]))
                b = record_result(b, m.match_id, m.teams[1])
    replay = start(teams(11), {})
    for fact in log:
        replay = record_draw(replay, fact[1]) if fact[0] == "draw" else record_result(replay, *fact[1:])
    assert replay == b and replay.to_dict() == b.to_dict()
    assert propose_draw(start(teams(11), {}), random.Random(5)) == propose_draw(start(teams(11), {}), random.Random(5))


def test_t10_1_to_dict_is_json_in_draw_order():
    b = record_draw(four_to_final(), {"round": 2, "matches": [FINAL, THIRD]})
    d = json.loads(json.dumps(b.to_dict()))
    assert [r["round"] for r in d["rounds"]] == [1, 2]
    assert [m["match_id"] for m in d["rounds"][1]["matches"]] == ["F", "P3"]
    assert d["rounds"][1]["matches"][1]["kind"] == "third_place"
    assert d["settings"] == {"byePolicy": "firstRoundPowerOfTwo", "thirdPlace": "playoff"}
    assert d["eliminated"] == {"T2": 1, "T4": 1} and d["next_round"] is None and d["champion"] is None
    assert isinstance(b, Bracket)
