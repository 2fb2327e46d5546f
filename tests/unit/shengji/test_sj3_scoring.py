"""Three-deck scoring (SJ3-10, SJ3-11.2, SJ3-12; T-6.6): worked examples 7 (kitty capture), 8
(points to result), 9 (renege), 11 (match result) and 12 (first drawer), and the lateness
ladder — each hand-level example played through the hand's own fold on a last trick."""
from dataclasses import replace
from types import MappingProxyType

import pytest

from rules.shengji import lateness, reveals, scoring
from rules.shengji import match as matches
from rules.shengji.cards import Trump
from rules.shengji.dealing import first_drawer
from rules.shengji.hand import SJ3, Hand, Trick
from rules.shengji.irregularities import report_irregularity
from rules.shengji.tricks import play
from rules.shengji.settings import SJ3Settings
from rules.violations import RuleViolation

L9C = Trump("9", "C", chain=False)
KITTY = ["KH", "TD", "5S", "5C", "3H", "8D"]  # Ex 7: 10 + 10 + 5 + 5 = 30


def c(text: str) -> list[str]:
    return text.split()


def last_trick(plays: dict[int, str], structure=None) -> dict:
    """Hand 2 at level 9, trump C, dealer seat 0 (side A), with Ex 7's kitty buried: seat 3 (a
    defender) won the trick before and leads the last one; each seat holds exactly the cards
    it plays. Returns the hand's result."""
    hands = tuple(tuple(c(plays[seat])) for seat in range(4))
    before = Trick(1, 3, plays=tuple((s, ("2S",)) for s in (3, 0, 1, 2)), winner=3)
    h = Hand(number=2, level="9", dealer=0, settings=SJ3Settings(), variant=SJ3, dealt=hands,
             dealt_kitty=tuple(KITTY), hands=hands, kitty=tuple(KITTY),
             bidding=reveals.bidding_for_reveals("9"), phase="playing", trump=L9C,
             tricks=(before,))
    for seat in (3, 0, 1, 2):
        data = {"seat": seat, "cards": c(plays[seat])}
        if seat == 3 and structure:
            data["structure"] = structure
        h = play(h, data)
    assert h.phase == "completed"
    return h.result


@pytest.mark.parametrize("lead, others, multiplier", [
    ("AC", ("2S", "3S", "4S"), 2),
    ("BJ BJ", ("2S 3S", "3S 4S", "4S 6S"), 3),
    ("KC KC KC", ("2S 3S 4S", "3S 4S 6S", "4S 6S 7S"), 4),
    ("8C 8C 7C 7C", ("2S 3S 4S 6S", "3S 4S 6S 7S", "4S 6S 7S 8S"), 5),
    ("8C 8C 7C 7C 6C 6C", ("2S 3S 4S 6S 7S 8S",) * 3, 6),
    ("8C 8C 8C 7C 7C 7C", ("2S 3S 4S 6S 7S 8S",) * 3, 6),
    ("8C 8C 8C 7C 7C 7C 6C 6C 6C", ("2S 3S 4S 6S 7S 8S JS QS AS",) * 3, 8),
])
def test_sj3_ex7_a_trump_win_of_the_last_trick_multiplies_the_kitty(lead, others, multiplier):
    result = last_trick({3: lead, 0: others[0], 1: others[1], 2: others[2]})
    assert (result["kitty_points"], result["multiplier"]) == (30, multiplier)
    assert result["kitty_capture"] == 30 * multiplier and result["kitty_captured"]


def test_sj3_ex7_a_plain_win_of_the_last_trick_captures_nothing():
    result = last_trick({3: "AH", 0: "2H", 1: "4H", 2: "6H"})
    assert (result["kitty_captured"], result["multiplier"], result["kitty_capture"]) == (False, 0, 0)


def test_sj3_10_2_the_dealer_side_winning_the_last_trick_captures_nothing():
    result = last_trick({3: "4C", 0: "AC", 1: "2S", 2: "3S"})
    assert result["kitty_capture"] == 0


def test_sj3_10_2_a_thrown_last_trick_multiplies_by_its_key_component():
    result = last_trick({3: "KC KC KC AC", 0: "2S 3S 4S 6S", 1: "2S 3S 4S 6S", 2: "2S 3S 4S 6S"},
                        structure=[c("KC KC KC"), ["AC"]])
    assert result["multiplier"] == 4


def test_sj3_9_2_a_defender_equal_on_the_key_pair_wins_the_last_trick_by_his_single():
    """Seed 十六 in the hand's fold: seat 3 leads AS AS + KS in the last trick; dealer seat 0
    trumps with 9H 9H 3C, defender seat 1 with 9D 9D AC — equal 副级牌 pairs, AC over 3C:
    seat 1 wins and captures the kitty with a pair (× 3). Judged on the key pair alone, seat 0,
    the earlier play, would keep the trick and nothing would be captured."""
    result = last_trick({3: "AS AS KS", 0: "9H 9H 3C", 1: "9D 9D AC", 2: "2S 3S 4S"},
                        structure=[c("AS AS"), ["KS"]])
    assert (result["kitty_captured"], result["multiplier"], result["kitty_capture"]) == \
        (True, 3, 90)


# --- Ex 8: points to result (SJ3-10.3 / 10.4) ---------------------------------------------------

@pytest.mark.parametrize("points, outcome", [
    (155, 0), (115, 1), (60, 1), (55, 2), (5, 2), (0, 3), (-55, 3), (-60, 4), (-115, 4),
    (-120, 5), (120, 0), (175, 0), (180, -1), (235, -1), (240, -2), (300, -3), (355, -3),
    (360, -4),
])
def test_sj3_ex8_the_defender_point_table(points, outcome):
    assert scoring.outcome(scoring.hand_result(points, scoring.SJ3_RESULT_SCALE)) == outcome


def ex8_hand(exposed_by: int) -> dict:
    """Ex 8 played through the hand's fold: level 9, trump C, dealer seat 0 (side A), Ex 7's
    kitty (30) buried; the defenders have won 95 in tricks. Seat ``exposed_by`` exposes a card
    (SJ3-11.5). Seat 3 (a defender) throws AC + KC: seat 0's BJ beats both, the throw fails
    (SJ3-7.3: −20 to side B) and KC, the only type's lowest, is led; seat 0 wins it with BJ and
    leads 2S in the last trick, which seat 3, void in spades, wins with AC — a trump single:
    the kitty × 2 = 60. Returns the hand's result."""
    hands = (("BJ", "2S"), ("3H", "3S"), ("5H", "4S"), ("AC", "KC"))
    earlier = Trick(1, 3, plays=tuple((s, ("2D",)) for s in (3, 0, 1, 2)), winner=3, points=95)
    h = Hand(number=2, level="9", dealer=0, settings=SJ3Settings(), variant=SJ3, dealt=hands,
             dealt_kitty=tuple(KITTY), hands=hands, kitty=tuple(KITTY),
             bidding=reveals.bidding_for_reveals("9"), phase="playing", trump=L9C,
             tricks=(earlier,))
    h = report_irregularity(h, {"rule": "SJ3-11.5", "seat": exposed_by, "detail": "shown"})
    h = play(h, {"seat": 3, "cards": ["AC", "KC"], "structure": [["AC"], ["KC"]]})
    assert h.trick.throw["forced"] == ["KC"] and h.hands[3] == ("AC",)
    for seat, card in ((0, "BJ"), (1, "3H"), (2, "5H"), (0, "2S"), (1, "3S"), (2, "4S"),
                       (3, "AC")):
        h = play(h, {"seat": seat, "cards": [card]})
    assert h.phase == "completed" and [t.winner for t in h.tricks[1:]] == [0, 3]
    assert [(p["rule"], p["side"], p["points"]) for p in h.penalties] == [
        ("SJ3-11.5", "AB"[exposed_by % 2], 20), ("SJ3-7.3", "B", 20)]
    return h.result


def test_sj3_ex8_points_to_result():
    """Ex 8: 95 in tricks, a trump-single capture 30 × 2, the dealer side exposed a card (+20),
    the defenders failed a throw (−20): P = 155 → the defenders take the deal, no level."""
    result = ex8_hand(exposed_by=0)
    assert (result["trick_points"], result["kitty_capture"], result["penalty_points"]) == \
        (95, 60, 0)
    assert (result["points"], result["final_outcome"]) == (155, 0)
    outcome = scoring.result_of(result["final_outcome"])
    assert (outcome.winner_side_role, outcome.levels, outcome.deal_passes) == \
        ("defenders", 0, True)
    assert scoring.next_dealer(0, outcome.deal_passes) == 1  # next(dealer)


def test_sj3_ex8_a_defenders_exposed_card_counts_against_them():
    """The same hand with the card exposed by a defender: both 20s come off P — 95 + 60 − 20 −
    20 = 115 → dealer side +1 (a sign taken the wrong way round would give 155 or 195)."""
    result = ex8_hand(exposed_by=1)
    assert (result["penalty_points"], result["points"], result["final_outcome"]) == (-40, 115, 1)


# --- Ex 9: renege (SJ3-11.2) ----------------------------------------------------------------------

@pytest.mark.parametrize("points, dealer_reneged, defenders_reneged, final", [
    (70, True, False, 0), (200, True, False, -1), (130, False, True, 1), (30, False, True, 2),
    (70, True, True, 1),  # both sides reneged: the floors cancel
])
def test_sj3_ex9_a_renege_floors_the_outcome(points, dealer_reneged, defenders_reneged, final):
    normal = scoring.outcome(scoring.hand_result(points, scoring.SJ3_RESULT_SCALE))
    assert scoring.floored_outcome(normal, dealer_reneged, defenders_reneged)[0] == final
    result = scoring.result_of(final)
    assert result.deal_passes == (final <= 0)


# --- Ex 11: the match result (SJ3-12.2) -----------------------------------------------------------

def started(settings=None) -> matches.Match:
    return matches.apply(None, "MatchStarted", {
        "match_id": "R1-a", "game": "SJ3", "teams": {"A": "t1", "B": "t2"},
        "seats": ["甲", "丙", "乙", "丁"], "settings": settings or {}}, "2006-05-27T09:00:00Z")


def test_sj3_ex11_after_the_alert_the_higher_level_wins_by_its_difference():
    m = replace(started(), levels=MappingProxyType({"A": 8, "B": 5}))
    m = matches.apply(m, "TimeLimitReached", {"limit_minutes": 80}, "2006-05-27T10:20:00Z")
    result = matches.match_result(m)
    assert (result["winner"], result["winner_team"], result["draw"]) == ("A", "t1", False)
    assert result["match_points"] == {"A": 2, "B": 0}
    assert result["level_difference"] == {"A": 3, "B": -3}


def test_sj3_ex11_equal_levels_are_a_draw_with_a_point_each():
    m = replace(started(), levels=MappingProxyType({"A": 6, "B": 6}))
    m = matches.apply(m, "TimeLimitReached", {"limit_minutes": 80}, "2006-05-27T10:20:00Z")
    result = matches.match_result(m)
    assert (m.status, result["winner"], result["draw"]) == ("completed", None, True)
    assert result["match_points"] == {"A": 1, "B": 1}
    assert result["level_difference"] == {"A": 0, "B": 0}


def test_sj3_12_1_the_alert_is_refused_before_its_minute():
    with pytest.raises(RuleViolation) as refused:
        matches.apply(started(), "TimeLimitReached", {"limit_minutes": 80},
                      "2006-05-27T10:19:59Z")
    assert refused.value.rule == "SJ3-12.1"


def test_sj3_12_1_one_alert_for_the_round_counts_from_the_rounds_start():
    """Seed 「终场前10分钟裁判长统一提醒」: this table started at 09:00; the round's first table at
    08:55 — the alert at 10:15 (80 minutes after 08:55) is accepted here too; not at 10:14."""
    alert = {"limit_minutes": 80, "round_started_at": "2006-05-27T08:55:00.000000Z"}
    with pytest.raises(RuleViolation, match="end at 2006-05-27T10:15:00") as early:
        matches.apply(started(), "TimeLimitReached", alert, "2006-05-27T10:14:59Z")
    assert early.value.rule == "SJ3-12.1"
    m = matches.apply(started(), "TimeLimitReached", alert, "2006-05-27T10:15:00Z")
    assert (m.time_called, m.status, matches.match_result(m)["draw"]) == (80, "completed", True)


def test_sj3_12_1_a_round_does_not_start_after_its_table():
    with pytest.raises(RuleViolation, match="after this table started") as refused:
        matches.apply(started(), "TimeLimitReached",
                      {"limit_minutes": 80, "round_started_at": "2006-05-27T09:00:00.000001Z"},
                      "2006-05-27T11:00:00Z")
    assert refused.value.rule == "SJ3-12.1"


def test_sj3_12_2_match_points_follow_the_setting():
    m = replace(started({"matchPoints": {"win": 3, "draw": 1, "loss": 0}}),
                levels=MappingProxyType({"A": 4, "B": 7}))
    m = matches.apply(m, "TimeLimitReached", {"limit_minutes": 80}, "2006-05-27T10:20:00Z")
    assert matches.match_result(m)["match_points"] == {"A": 0, "B": 3}


def test_sj3_12_3_past_a_the_side_wins_at_once_recorded_at_15():
    levels = scoring.apply_result({"A": 13, "B": 5}, 0, scoring.result_of(3), cap=15)
    assert levels == {"A": 15, "B": 5}
    assert scoring.match_winner(levels, 9, 14, None) == ("A", "target")


# --- Ex 12: the first drawer (SJ3-1.4) -------------------------------------------------------------

def test_sj3_ex12_the_card_turned_up_counts_out_the_first_drawer():
    assert first_drawer(2, "7C") == 0
    assert [first_drawer(0, card) for card in ("AS", "2S", "TS", "JS", "QS", "KS")] == \
        [0, 1, 1, 2, 3, 0]


def test_sj3_1_4_a_joker_is_turned_again():
    with pytest.raises(RuleViolation) as refused:
        first_drawer(1, "BJ")
    assert refused.value.rule == "SJ3-1.4"


# --- T-6.6 / SJ3-11.10: the lateness ladder -----------------------------------------------------

@pytest.mark.parametrize("minutes, kind, points", [
    (0, lateness.ON_TIME, 0), (4, lateness.WARNING, 0), (5, lateness.WARNING, 0),
    (6, lateness.POINTS, 20), (10, lateness.POINTS, 20), (11, lateness.POINTS, 30),
    (15, lateness.POINTS, 30), (16, lateness.FIRST_HAND, 0), (20, lateness.FIRST_HAND, 0),
    (21, lateness.ROUND, 0), (90, lateness.ROUND, 0),
])
def test_t_6_6_the_lateness_ladder(minutes, kind, points):
    assert lateness.consequence(minutes) == lateness.Consequence(kind, points)
