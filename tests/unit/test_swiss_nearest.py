"""T-6.4 as amended on 2026-12-01 (``pairingMethod: nearest``), T-6.7 with withdrawals and
T-6.11 (closing the event), on the rules alone; the same through the API in
tests/api/test_swiss_nearest_api.py."""
from __future__ import annotations

import random

import pytest

from rules import swiss
from rules.swiss.event import PairResult
from rules.swiss_pairing import pair_round
from rules.violations import RuleViolation

# the example: A 7, B 6, C 5, D 5, E 1, F 1, and C and D have met
RANKED = ["A", "B", "C", "D", "E", "F"]
SCORES = {"A": 7, "B": 6, "C": 5, "D": 5, "E": 1, "F": 1}
MET = {"C": {"D"}, "D": {"C"}}


def test_t6_4_nearest_keeps_every_difference_within_2_where_top_down_meets_4_apart():
    near = pair_round(RANKED, SCORES, MET, set(), "nearest")
    top = pair_round(RANKED, SCORES, MET, set(), "topDown")
    assert near.pairs == (("A", "C"), ("B", "D"), ("E", "F"))
    assert top.pairs == (("A", "B"), ("C", "E"), ("D", "F"))


def test_t6_4_nearest_equals_top_down_when_top_down_is_already_optimal():
    scores = {"A": 6, "B": 6, "C": 4, "D": 4, "E": 2, "F": 2}
    assert pair_round(RANKED, scores, {}, set(), "nearest") == \
        pair_round(RANKED, scores, {}, set(), "topDown")


def test_t6_4_among_equal_largest_differences_the_smaller_sum_of_squares():
    """A 4, B 3, C 2, D 1 with A–B met: A–C, B–D (2, 2: 8) and A–D, B–C (3, 1) have the
    largest difference 2 and 3; with A–C met too only A–D, B–C remains."""
    scores = {"A": 4, "B": 3, "C": 2, "D": 1}
    met = {"A": {"B"}, "B": {"A"}}
    assert pair_round(list(scores), scores, met, set()).pairs == (("A", "C"), ("B", "D"))
    met = {"A": {"B", "C"}, "B": {"A"}, "C": {"A"}}
    assert pair_round(list(scores), scores, met, set()).pairs == (("A", "D"), ("B", "C"))


def test_t6_4_the_bye_goes_to_the_lowest_ranked_team_without_one_then_nearest():
    scores = {"A": 6, "B": 4, "C": 4, "D": 2, "E": 0}
    found = pair_round(list(scores), scores, {}, {"E"})
    assert found.bye == "D" and found.pairs == (("A", "B"), ("C", "E"))


def entries(*names):
    return [swiss.Entry(n, ((f"{n}1", f"{n}2"), (f"{n}3", f"{n}4")), "leader") for n in names]


def paired(ev, number, meetings, bye=None, manual=False):
    data = {"round": number, "manual": manual, "byes": [bye] if bye else [],
            "matches": [{"match_id": f"R{number}-{k}", "teams": list(m)}
                        for k, m in enumerate(meetings, 1)]}
    return swiss.record_pairing(ev, data)


def draws(ev, number, count):
    for k in range(1, count + 1):
        for pair in swiss.PAIRS:
            ev = swiss.record_result(ev, f"R{number}-{k}{pair}", PairResult.of_levels((3, 3)))
    return ev


def test_t6_4_no_rematch_free_pairing_proposes_the_fewest_rematches():
    ev = swiss.start(entries("A", "B"), {"rounds": 3})
    ev = draws(paired(ev, 1, [("A", "B")]), 1, 1)
    with pytest.raises(RuleViolation, match="no valid pairing") as v:
        swiss.propose(ev, None)
    assert v.value.rule == "T-6.4"
    proposal = swiss.proposal(ev)
    assert proposal["matches"] == [{"match_id": "R2-1", "teams": ["A", "B"]}]
    assert proposal["manual"] and proposal["warnings"] == ["rematch: A and B met in round 1"]


def test_t6_7_a_team_withdrawn_then_missing_two_rounds_is_left_out_with_the_reason():
    ev = swiss.start(entries("A", "B", "C", "D", "E"), {"rounds": 4})
    ev = draws(paired(ev, 1, [("A", "B"), ("C", "D")], bye="E"), 1, 2)
    ev = swiss.withdraw(ev, "D")
    ev = draws(paired(ev, 2, [("A", "C"), ("B", "E")]), 2, 2)
    assert swiss.excluded(ev) == {}                 # one round missed: one forfeit
    assert [(x.round, x.outcome, x.points) for x in swiss.team_lines(ev, "D")[2:]] == [
        (2, "forfeitLoss", 0), (2, "forfeitLoss", 0)]
    ev = draws(paired(ev, 3, [("A", "E"), ("B", "C")]), 3, 2)
    out = swiss.exclusion(ev, "D")
    assert (out.rule, out.after_round) == ("T-6.7", 3)
    reason = out.reason  # the English of the sentence (out.why) the pages say in their language
    assert "forfeited in rounds 2 and 3" in reason and "withdrawn after round 1" in reason
    rows = swiss.standings(ev)
    assert [r.totals.team for r in rows if r.place is None] == ["D"] and rows[-1].exclusion == out


def test_t6_11_the_event_ends_when_fewer_than_two_teams_are_left_and_lots_may_follow():
    ev = swiss.start(entries("A", "B", "C"), {"rounds": 4})
    ev = draws(paired(ev, 1, [("A", "B")], bye="C"), 1, 1)
    ev = swiss.withdraw(ev, "C")
    assert swiss.ended(ev) is None                  # A and B may still meet again by hand
    ev = swiss.withdraw(ev, "B")
    over = swiss.ended(ev)
    assert (over.how, over.after_round) == ("teams", 1)
    with pytest.raises(RuleViolation) as v:
        swiss.propose(ev, None)
    assert v.value.rule == "T-6.11"


def test_t6_11_closing_needs_a_played_round_that_cannot_be_followed_and_happens_once():
    ev = swiss.start(entries("A", "B", "C", "D"), {"rounds": 4})
    for data, words in (({"reason": "x"}, "no round has been paired"),):
        with pytest.raises(RuleViolation, match=words) as v:
            swiss.check_close(ev, data)
        assert v.value.rule == "T-6.11"
    ev = paired(ev, 1, [("A", "B"), ("C", "D")])
    with pytest.raises(RuleViolation, match="still being played"):
        swiss.check_close(ev, {"reason": "x"})
    ev = draws(ev, 1, 2)
    with pytest.raises(RuleViolation, match="round 2 can be paired by the rules"):
        swiss.check_close(ev, {"reason": "x"})
    for number, meetings in ((2, [("A", "C"), ("B", "D")]), (3, [("A", "D"), ("B", "C")])):
        ev = draws(paired(ev, number, meetings), number, 2)
    swiss.check_close(ev, {"reason": "all have met"})
    ev = swiss.record_close(ev, {"reason": "all have met"})
    assert swiss.ended(ev).how == "closed" and swiss.next_round(ev) is None
    assert swiss.final(ev) is False and swiss.tie_groups(ev)   # all equal: lots to draw
    with pytest.raises(RuleViolation, match="already closed after round 3"):
        swiss.check_close(ev, {"reason": "again"})
    draws_ = swiss.propose_tie_lots(ev, random.Random(1))
    assert [d["round"] for d in draws_] == [3, 3, 3]
