"""rules.knockout.place_ranges against T-2.4 / T-10.1: the band of places a team may still end
in, while the knockout is played — never a provisional 1st for everyone."""
import random

import pytest

from rules.knockout import (
    is_decided,
    place_ranges,
    propose_draw,
    ranking,
    record_draw,
    record_result,
    start,
)


def teams(n):
    return [f"T{i}" for i in range(1, n + 1)]


def test_eight_teams_round_by_round():
    b = start(teams(8), {})
    b = record_draw(b, {"round": 1, "matches": [
        {"match_id": f"R1-{k}", "teams": [f"T{2 * k - 1}", f"T{2 * k}"]} for k in range(1, 5)]})
    assert set(place_ranges(b).values()) == {(1, 8)}  # nothing decided: every team 1–8
    b = record_result(b, "R1-1", "T1")
    ranges = place_ranges(b)
    # T2 is out in round 1: one of four who hold 5–8, though three of them are not known yet
    assert ranges["T2"] == (5, 8)
    assert ranges["T1"] == (1, 4)  # won its round-1 match
    assert ranges["T3"] == (1, 8)  # still playing round 1
    for k in (2, 3, 4):
        b = record_result(b, f"R1-{k}", f"T{2 * k - 1}")
    b = record_draw(b, {"round": 2, "matches": [{"match_id": "R2-1", "teams": ["T1", "T3"]},
                                                {"match_id": "R2-2", "teams": ["T5", "T7"]}]})
    b = record_result(b, "R2-1", "T1")
    b = record_result(b, "R2-2", "T7")
    ranges = place_ranges(b)
    assert (ranges["T3"], ranges["T5"]) == ((3, 4), (3, 4))  # the third-place match is to play
    assert (ranges["T1"], ranges["T7"]) == ((1, 2), (1, 2))
    b = record_draw(b, {"round": 3, "matches": [
        {"match_id": "R3-1", "teams": ["T1", "T7"]},
        {"match_id": "R3-2", "teams": ["T3", "T5"], "kind": "third_place"}]})
    b = record_result(b, "R3-2", "T5")
    ranges = place_ranges(b)
    assert (ranges["T5"], ranges["T3"]) == ((3, 3), (4, 4))
    b = record_result(b, "R3-1", "T7")
    assert place_ranges(b) == {"T7": (1, 1), "T1": (2, 2), "T5": (3, 3), "T3": (4, 4),
                               "T2": (5, 8), "T4": (5, 8), "T6": (5, 8), "T8": (5, 8)}


@pytest.mark.parametrize("n", [2, 3, 5, 6, 8, 11])
@pytest.mark.parametrize("policy", ["firstRoundPowerOfTwo", "oddGetsBye"])
@pytest.mark.parametrize("third", ["playoff", "shared"])
def test_every_band_holds_the_place_the_team_ends_in(n, policy, third):
    """Played to the end by lots: the band shown at each step holds the band the team ends
    with, whose first place is T-2.4's place."""
    rng = random.Random(n * 7 + len(policy) + len(third))
    b = start(teams(n), {"byePolicy": policy, "thirdPlace": third})
    seen = []
    while not is_decided(b):
        draw = propose_draw(b, rng)
        b = record_draw(b, draw)
        seen.append(place_ranges(b))
        for match in draw["matches"]:
            b = record_result(b, match["match_id"], match["teams"][rng.randrange(2)])
            seen.append(place_ranges(b))
    end = place_ranges(b)
    assert {row["team"]: row["place"] for row in ranking(b)} == {t: lo for t, (lo, _) in end.items()}
    for ranges in seen:
        for team, (best, worst) in ranges.items():
            assert best <= end[team][0] and end[team][1] <= worst, (team, ranges, end)
