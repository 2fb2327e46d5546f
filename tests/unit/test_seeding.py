"""Seeding (T-2.7, interpretation): in a round of k slots the k best seeds in play are drawn into
different slots, so seeds 1 and 2 meet only in the final; the rest by lots."""
import random

import pytest

from rules import knockout
from rules.violations import RuleViolation


def seeded(n: int, seeds: int, **settings) -> knockout.Bracket:
    teams = [f"T{i}" for i in range(1, n + 1)]
    return knockout.start(teams, {"seeding": {"seeds": teams[:seeds]}, **settings})


def play_out(bracket: knockout.Bracket, rng: random.Random) -> list[dict]:
    """Every round drawn by the seeded lots and checked by the rules, winners by coin."""
    draws = []
    while knockout.next_round(bracket) is not None:
        draw = knockout.propose_draw(bracket, rng)
        bracket = knockout.record_draw(bracket, draw)  # check_draw: T-2.1, T-2.2, T-2.3, T-2.7
        draws.append(draw)
        for m in draw["matches"]:
            bracket = knockout.record_result(bracket, m["match_id"], rng.choice(m["teams"]))
    assert knockout.is_decided(bracket)
    return draws


def meeting_round(draws: list[dict], a: str, b: str) -> int | None:
    return next((d["round"] for d in draws for m in d["matches"]
                 if m["kind"] == "main" and set(m["teams"]) == {a, b}), None)


def test_seeds_1_and_2_meet_only_in_the_final_over_1000_seeded_draws():
    finals = 0
    for n in range(1000):
        rng = random.Random(n)
        size, policy = rng.randint(3, 40), rng.choice(knockout.BYE_POLICIES)
        bracket = seeded(size, rng.randint(2, min(size, 8)), byePolicy=policy)
        draws = play_out(bracket, rng)
        met = meeting_round(draws, "T1", "T2")
        final = max(d["round"] for d in draws)
        assert met in (None, final), (n, size, policy, met, final)
        finals += met == final
        first = draws[0]  # round 1: seeds 1 and 2 in different slots, the draw valid (T-2.x)
        slot = {t: i for i, m in enumerate(first["matches"]) for t in m["teams"]}
        slot.update({t: -1 - i for i, t in enumerate(first["byes"])})
        assert slot["T1"] != slot["T2"]
    assert finals > 10  # they do meet, in the final


def test_seeds_1_to_4_are_in_different_quarters_of_sixteen():
    for n in range(200):
        rng = random.Random(n)
        draws = play_out(seeded(16, 4), rng)
        for a in range(1, 5):
            for b in range(a + 1, 5):
                met = meeting_round(draws, f"T{a}", f"T{b}")
                assert met is None or met >= 3, (n, a, b, met)  # semi-finals (round 3) or final


def test_the_rest_is_still_drawn_by_lots():
    opponents = {knockout.propose_draw(seeded(8, 2), random.Random(n))["matches"][0]["teams"][0]
                 for n in range(200)}
    assert len(opponents) == 8


def test_without_seeds_the_draw_is_the_plain_lots_of_before():
    plain = knockout.start([f"T{i}" for i in range(1, 9)], {})
    assert knockout.propose_draw(plain, random.Random(7)) == \
        knockout.propose_draw(plain, random.Random(7), absent=())


def test_a_recorded_draw_pairing_the_top_seeds_too_early_is_refused():
    bracket = seeded(8, 2)
    draw = {"round": 1, "byes": [], "matches": [
        {"match_id": f"R1-{k}", "teams": [f"T{2 * k - 1}", f"T{2 * k}"]} for k in range(1, 5)]}
    with pytest.raises(RuleViolation) as caught:
        knockout.check_draw(bracket, draw)
    assert (caught.value.rule, caught.value.message) == (
        "T-2.7", "seeds T1 (1) and T2 (2) may not meet in a round of 4 slots")


def test_seeds_not_in_the_draw_are_passed_over():
    bracket = knockout.start(["A", "B", "C", "D"], {"seeding": {"seeds": ["X", "C", "D"]}})
    assert bracket.seeds == ("C", "D")


def test_a_seeded_round_is_not_drawn_with_cards():
    with pytest.raises(RuleViolation) as caught:
        knockout.propose_card_draw(seeded(8, 2), random.Random(1))
    assert caught.value.rule == "T-2.7"


@pytest.mark.parametrize("value", [["T1"], {"seeds": []}, {"seeds": "T1"}, {"seeds": ["T1", "T1"]},
                                   {"seeds": ["T1"], "extra": 1}, {"seeds": [1]}])
def test_the_setting_is_checked(value):
    with pytest.raises(RuleViolation) as caught:
        knockout.check_seeding(value)
    assert caught.value.rule == "T-2.7"
