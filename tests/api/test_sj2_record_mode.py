"""Every SJ2 penalty rule through the HTTP API, with the exact end-of-hand result.

Each scenario plays the irregularity, then finishes the hand with legal moves (seeded) and
compares the hand's result row with one recomputed here from the view's tricks and kitty
(SJ2-11.1, SJ2-11.2), the penalties the scenario caused (SJ2-12.1, 12.2), the adjustments in
the order of SJ2-12.6 and the table of SJ2-13.1 — written out again here, not taken from the
engine. Settings ``{"enforcement": "record"}`` unless the rule is about strict mode too.
Hand 1 is played at level 2."""
from __future__ import annotations

import random
from collections import Counter

import pytest
from clients import admin_client
from sj2_table import Table

from events.memory_store import InMemoryEventStore
from service import create_app

RECORD = {"enforcement": "record"}
LADDER = "23456789TJQKA"
POINT_VALUES = {"5": 5, "T": 10, "K": 10}


def new_table(settings: dict | None = RECORD) -> Table:
    return Table(admin_client(create_app(store=InMemoryEventStore())), settings)


def held(table: Table, seat: int) -> list[str]:
    return table.hand_view()["seats"][seat]["cards"]


def side(seat: int) -> str:
    return "A" if seat % 2 == 0 else "B"


def card_points(cards) -> int:
    return sum(POINT_VALUES.get(card[0], 0) for card in cards if card not in ("BJ", "SJ"))


def expected_row(view: dict, *, trump: str, penalties=(), defenders_errors: int = 0,
                 dealer_errors: int = 0, kitty_error: bool = False) -> dict:
    """The result row of hand 1 (levels 2 : 2 before it), computed from the finished hand's
    tricks and kitty. ``penalties``: (side penalised, points) as the scenario caused them."""
    dealer = view["dealer"]
    dealer_side = side(dealer)
    defenders = "B" if dealer_side == "A" else "A"
    tricks = view["tricks"]
    # SJ2-11.1: point cards in tricks won by a defender
    trick_points = sum(card_points(c for play in t["plays"] for c in play["cards"])
                       for t in tricks if side(t["winner"]) == defenders)
    # SJ2-11.2: a defender wins the last trick: kitty points × 2^(1 + pairs of the winning play)
    last = tricks[-1]
    kitty_points = card_points(view["kitty"]["cards"])
    captured = side(last["winner"]) == defenders
    winning_play = next(p["cards"] for p in last["plays"] if p["seat"] == last["winner"])
    pairs = sum(n // 2 for n in Counter(winning_play).values())
    multiplier = 2 ** (1 + pairs) if captured else 0
    # SJ2-12.1: against the defenders subtracts, against the dealer side adds
    penalty_points = sum(-points if against == defenders else points for against, points in penalties)
    raw = trick_points + kitty_points * multiplier + penalty_points
    # SJ2-12.6 steps 2 and 3
    p, adjustments = raw, []
    for kind, count, rule, step in (
            ("defenders_follow_error", defenders_errors, "SJ2-12.4", lambda q: max(q - 40, 0)),
            ("dealer_follow_error", dealer_errors, "SJ2-12.4", lambda q: max(q + 40, 80)),
            ("kitty_error", int(kitty_error), "SJ2-12.3", lambda q: max(q + 40, 80))):
        for _ in range(count):
            adjustments.append({"rule": rule, "kind": kind, "before": p, "after": step(p)})
            p = step(p)
    # SJ2-13.1 / 13.2 / 5.3
    if p >= 80:
        result = {"winner": "defenders", "levels": (p - 80) // 40, "deal_passes": True}
        leveling, next_dealer = defenders, (dealer + 1) % 4
    else:
        result = {"winner": "dealer", "levels": 1 if p >= 40 else 2 if p > 0 else 3,
                  "deal_passes": False}
        leveling, next_dealer = dealer_side, (dealer + 2) % 4
    levels = {"A": "2", "B": "2"}
    levels[leveling] = LADDER[LADDER.index("2") + result["levels"]]
    return {"hand": 1, "dealer": dealer, "dealer_side": dealer_side, "level": "2", "trump": trump,
            "trick_points": trick_points, "kitty_points": kitty_points,
            "kitty_captured": captured, "multiplier": multiplier,
            "kitty_capture": kitty_points * multiplier, "penalty_points": penalty_points,
            "raw_points": raw, "adjustments": adjustments, "final_points": p, "result": result,
            "levels_before": {"A": "2", "B": "2"}, "levels": levels,
            "leveling_side": leveling if result["levels"] else None, "next_dealer": next_dealer}


def assert_hand_result(table: Table, seed: int, **expected) -> dict:
    """Finishes the hand with legal moves and checks its result row, the match's levels, next
    dealer and history against :func:`expected_row`."""
    view = table.finish_hand(seed)
    assert view["phase"] == "completed"
    assert not any(seat["cards"] for seat in view["seats"])
    row = expected_row(view, **expected)
    assert view["result"] == row
    match = table.match()
    assert table.results() == [row] and match["last_result"] == row
    assert (match["levels"], match["next_dealer"]) == (row["levels"], row["next_dealer"])
    return row


# --- SJ2-8.5 / SJ2-12.2 / SJ2-12.5: a failed throw ----------------------------------------------

# Ex 4 at level 2 (trump S, dealer seat 0): seat 1 wins trick 1 with AC, then throws
# KD KD QD 9D; seat 2 holds AD AD JD, seat 0 only 3D in diamonds (the example's 2D is trump here).
EX4 = {0: "2S 3C 3D", 1: "AC KD KD QD 9D", 2: "AD AD JD 4C", 3: "4C"}
EX4_NO = {0: "D", 2: "DC", 3: "C"}


def seat_1_on_lead(settings, fixed=EX4) -> Table:
    table = new_table(settings)
    assert table.to_play(fixed, card="2S", no=EX4_NO) == 0
    for seat, card in ((0, "3C"), (1, "AC"), (2, "4C"), (3, "4C")):
        table.ok("CardsPlayed", seat=seat, cards=[card])
    assert table.hand_view()["turn"] == 1
    return table


@pytest.mark.parametrize("settings", [RECORD, {}], ids=["record", "strict"])
def test_sj2_ex4_failed_throw_costs_40_and_forces_the_lowest_single(settings):
    table = seat_1_on_lead(settings)
    before = held(table, 1)
    table.ok("CardsPlayed", seat=1, cards=["KD", "KD", "QD", "9D"])  # the attempt is stored
    view = table.hand_view()
    trick = view["current_trick"]
    assert trick["throw"] == {"seat": 1, "attempt": ["KD", "KD", "QD", "9D"],
                              "beaten": [["KD", "KD"], ["QD"], ["9D"]], "penalty": 40,
                              "forced": ["9D"], "rule": "SJ2-8.5"}
    assert [(p["seat"], p["cards"]) for p in trick["plays"]] == [(1, ["9D"])]
    assert [{k: p[k] for k in ("rule", "side", "points", "trick", "source")}
            for p in view["penalties"]] == [
        {"rule": "SJ2-8.5", "side": "B", "points": 40, "trick": 2, "source": "engine"}]
    # only 9D has left seat 1's hand: KD KD QD are back in it
    assert Counter(before) - Counter(view["seats"][1]["cards"]) == Counter(["9D"])
    assert view["seats"][1]["card_count"] == 23
    assert view["turn"] == 2
    # the forced single is the lead: seat 2 must follow it with one diamond
    table.rejected("CardsPlayed", "SJ2-9.1", seat=2, cards=["AD", "AD"])
    assert_hand_result(table, seed=4, trump="S", penalties=[("B", 40)])


def test_sj2_ex4_variant_no_pair_above_penalty_20():
    table = seat_1_on_lead(RECORD, {**EX4, 0: "2S 3C AD", 2: "AD JD 4C"})
    table.ok("CardsPlayed", seat=1, cards=["KD", "KD", "QD", "9D"])
    view = table.hand_view()
    throw = view["current_trick"]["throw"]
    assert (throw["beaten"], throw["penalty"], throw["forced"]) == ([["QD"], ["9D"]], 20, ["9D"])
    assert [(p["side"], p["points"]) for p in view["penalties"]] == [("B", 20)]
    assert_hand_result(table, seed=5, trump="S", penalties=[("B", 20)])


def test_sj2_ex4_variant_dealer_side_failed_throw_adds_to_p():
    table = new_table()
    table.to_play({0: "2S KD KD QD 9D", 1: "AD AD JD"}, card="2S", no={1: "D", 3: "D"})
    table.ok("CardsPlayed", seat=0, cards=["KD", "KD", "QD", "9D"])
    view = table.hand_view()
    assert view["current_trick"]["throw"]["penalty"] == 40
    assert [p["cards"] for p in view["current_trick"]["plays"]] == [["9D"]]
    assert [(p["side"], p["points"]) for p in view["penalties"]] == [("A", 40)]
    assert_hand_result(table, seed=6, trump="S", penalties=[("A", 40)])


@pytest.mark.parametrize("against, penalty, lead", [("opponents", 0, ["KD", "QD"]),
                                                    ("allOthers", 20, ["QD"])])
def test_sj2_8_4_throw_checked_against_the_opponents_only_by_default(against, penalty, lead):
    # only the thrower's partner (seat 3) holds a higher diamond
    fixed = {**EX4, 1: "AC KD QD", 2: "4C", 3: "AD 4C"}
    table = seat_1_on_lead({**RECORD, "throwCheckAgainst": against}, fixed)
    table.ok("CardsPlayed", seat=1, cards=["KD", "QD"])
    view = table.hand_view()
    assert view["current_trick"]["plays"][0]["cards"] == lead
    assert [p["points"] for p in view["penalties"]] == ([penalty] if penalty else [])


def test_sj2_8_5_forced_pair_when_no_single_is_beatable():
    # the single AD cannot be beaten; the pair 9D 9D can (seat 1 holds JD JD): forced 9D 9D
    table = new_table({})
    table.to_play({0: "2S AD AD 9D 9D", 1: "JD JD"}, card="2S", no={1: "D", 3: "D"})
    table.ok("CardsPlayed", seat=0, cards=["AD", "9D", "9D"])
    throw = table.hand_view()["current_trick"]["throw"]
    assert (throw["beaten"], throw["penalty"], throw["forced"]) == ([["9D", "9D"]], 20, ["9D", "9D"])


def test_sj2_8_3_a_throw_no_opponent_can_beat_stands():
    table = new_table({})
    table.to_play({0: "2S AH AH KH 5H"}, card="2S", no={1: "H", 3: "H"})
    table.ok("CardsPlayed", seat=0, cards=["AH", "AH", "KH", "5H"])
    view = table.hand_view()
    assert view["current_trick"]["throw"] is None and view["penalties"] == []
    assert view["current_trick"]["plays"][0]["cards"] == ["AH", "AH", "KH", "5H"]
    table.rejected("CardsPlayed", "SJ2-9.1", seat=1, cards=held(table, 1)[:1])
    for _ in range(3):
        table.play_legal(random.Random(0))
    assert table.hand_view()["tricks"][0]["winner"] == 0  # the opponents are void in hearts


# --- SJ2-12.4: follow errors --------------------------------------------------------------------

def follow_error_table(offender: int, steer: int = 0) -> Table:
    """Seat 0 leads QH; ``offender`` holds 4H as his only heart and plays 6C instead. ``steer``:
    a referee's penalty against the defenders first, to bring P down where the floors of
    SJ2-12.4 apply."""
    table = new_table()
    table.to_play({0: "2S QH", offender: "4H 6C"}, card="2S", no={offender: "H"})
    if steer:
        table.ok("PenaltyAssessed", rule="SJ2-12.1", side="B", points=steer)
    table.ok("CardsPlayed", seat=0, cards=["QH"])
    rng = random.Random(2)
    while table.hand_view()["turn"] != offender:
        table.play_legal(rng)
    table.ok("CardsPlayed", seat=offender, cards=["6C"])  # recorded, flagged
    view = table.hand_view()
    pending = view["pending_correction"]
    assert (pending["seat"], pending["trick"], pending["rule"]) == (offender, 1, "SJ2-9.2")
    assert f"seat {offender} holds only 1 card in hearts (4H)" in pending["message"]
    assert view["current_trick"]["plays"][-1]["flagged"] == pending
    assert view["follow_errors"] == []  # not established before the next play
    return table


@pytest.mark.parametrize("steer", [0, 150], ids=["plus-40", "floor-80"])
def test_sj2_12_4_dealer_side_follow_error_not_corrected(steer):
    table = follow_error_table(offender=2, steer=steer)
    table.play_legal(random.Random(3))  # seat 3 plays: the error is established
    view = table.hand_view()
    assert view["pending_correction"] is None
    assert [(e["seat"], e["side"], e["trick"], e["rule"]) for e in view["follow_errors"]] == [
        (2, "A", 1, "SJ2-9.2")]
    row = assert_hand_result(table, seed=7, trump="S", dealer_errors=1,
                             penalties=[("B", steer)] if steer else ())
    raw = row["raw_points"]
    if steer:  # Ex 10: raw 20 → max(60, 80) = 80, the defenders take the deal
        assert raw < 40 and row["final_points"] == 80
    else:      # Ex 10: raw 50 → 90
        assert raw >= 40 and row["final_points"] == raw + 40


@pytest.mark.parametrize("steer", [0, 150], ids=["minus-40", "floor-0"])
def test_sj2_12_4_defenders_follow_error_not_corrected(steer):
    table = follow_error_table(offender=1, steer=steer)
    table.play_legal(random.Random(3))
    assert [(e["seat"], e["side"]) for e in table.hand_view()["follow_errors"]] == [(1, "B")]
    row = assert_hand_result(table, seed=8, trump="S", defenders_errors=1,
                             penalties=[("B", steer)] if steer else ())
    raw = row["raw_points"]
    if steer:  # Ex 10: raw 30 → max(−10, 0) = 0, dealer +3
        assert raw < 40 and row["final_points"] == 0
        assert row["result"] == {"winner": "dealer", "levels": 3, "deal_passes": False}
    else:      # Ex 10: raw 130 → 90
        assert raw >= 40 and row["final_points"] == raw - 40


def test_sj2_12_4_follow_error_corrected_before_the_next_play():
    table = follow_error_table(offender=1)
    # a correction must itself be legal
    table.rejected("PlayCorrected", "SJ2-9.2", seat=1,
                   cards=[next(c for c in held(table, 1) if c[-1] == "C")])
    table.rejected("PlayCorrected", "SJ2-12.4", seat=0, cards=["QH"])  # not the last play
    table.ok("PlayCorrected", seat=1, cards=["4H"])
    view = table.hand_view()
    assert view["pending_correction"] is None
    play = view["current_trick"]["plays"][1]
    assert (play["seat"], play["cards"], play["flagged"]["corrected"]) == (1, ["4H"], True)
    assert "6C" in view["seats"][1]["cards"] and "4H" not in view["seats"][1]["cards"]
    table.play_legal(random.Random(3))
    assert table.hand_view()["follow_errors"] == []
    # too late now: seat 2 has played
    table.rejected("PlayCorrected", "SJ2-12.4", seat=1, cards=["4H"])
    row = assert_hand_result(table, seed=9, trump="S")
    assert row["adjustments"] == []


def test_sj2_12_4_correcting_the_last_play_of_a_trick_rejudges_it():
    table = new_table()
    table.to_play({0: "2S QH", 1: "3C", 2: "5C", 3: "4H 3S"}, card="2S",
                  no={1: "H", 2: "H", 3: "H"})
    for seat, card in ((0, "QH"), (1, "3C"), (2, "5C"), (3, "3S")):  # 3S trumps: illegal
        table.ok("CardsPlayed", seat=seat, cards=[card])
    trick = table.hand_view()["tricks"][0]
    assert (trick["winner"], trick["points"]) == (3, 5)
    table.ok("PlayCorrected", seat=3, cards=["4H"])
    view = table.hand_view()
    assert (view["tricks"][0]["winner"], view["tricks"][0]["points"], view["turn"]) == (0, 5, 0)
    assert view["defender_points"] == 0
    row = assert_hand_result(table, seed=10, trump="S")
    assert row["adjustments"] == []


# --- SJ2-12.3: the kitty error -------------------------------------------------------------------

def kitty_error_table(count: int) -> Table:
    table = new_table()
    table.deal({0: "2S QH", 1: "4H 6C"}, no={1: "H"})
    table.ok("TrumpDeclared", seat=0, card="2S")
    table.ok("DealCompleted")
    table.ok("DeclarationWindowClosed")
    table.ok("KittyTaken")
    kitty = table.dealt["kitty"]
    extra = [c for c in held(table, 0) if c not in ("2S", "QH") + tuple(kitty)][:1]
    table.ok("KittyBuried", cards=(kitty + extra)[:count])  # recorded in record mode
    view = table.hand_view()
    assert (view["phase"], view["kitty_error"], view["kitty"]["size"]) == (
        "correcting_kitty", True, count)
    assert [(i["rule"], i["seat"]) for i in view["irregularities"]] == [("SJ2-12.3", 0)]
    assert view["seats"][0]["card_count"] == 33 - count
    table.rejected("CardsPlayed", "SJ2-16", seat=0, cards=["QH"])  # no play until corrected
    return table


def test_sj2_12_3_kitty_error_short_kitty_corrected_and_adjusted():
    table = kitty_error_table(7)
    kitty = table.dealt["kitty"]
    # the correction must leave 8 and 25
    table.rejected("KittyCorrected", "SJ2-12.3", to_kitty=[kitty[7], "QH"])
    table.rejected("KittyCorrected", "SJ2-12.3", to_dealer=[kitty[0]])
    table.ok("IrregularityReported", rule="SJ2-12.3", seat=0, detail="kitty of 7 found")
    table.ok("KittyCorrected", to_kitty=[kitty[7]])
    view = table.hand_view()
    assert (view["phase"], view["kitty"]["size"], view["seats"][0]["card_count"]) == (
        "playing", 8, 25)
    assert sorted(view["kitty"]["cards"]) == sorted(kitty)
    row = assert_hand_result(table, seed=11, trump="S", kitty_error=True)
    assert len(row["adjustments"]) == 1  # one kitty error, reported twice


def test_sj2_12_3_kitty_error_long_kitty_corrected():
    table = kitty_error_table(9)
    kitty = table.hand_view()["kitty"]["cards"]
    absent = next(c for c in ("BJ", "SJ", "AS") if c not in kitty)
    problem = table.rejected("KittyCorrected", "SJ2-12.3", to_dealer=[absent])
    assert f"the kitty does not hold {absent}" in problem["detail"]
    surplus = kitty[-1]
    table.ok("KittyCorrected", to_dealer=[surplus])
    view = table.hand_view()
    assert (view["phase"], view["kitty"]["size"], view["seats"][0]["card_count"]) == (
        "playing", 8, 25)
    assert surplus in view["seats"][0]["cards"]
    assert_hand_result(table, seed=12, trump="S", kitty_error=True)


def test_sj2_6_1_strict_mode_refuses_the_kitty_error():
    table = new_table({})
    table.deal({0: "2S"})
    for event, data in (("TrumpDeclared", {"seat": 0, "card": "2S"}), ("DealCompleted", {}),
                        ("DeclarationWindowClosed", {}), ("KittyTaken", {})):
        table.ok(event, **data)
    table.rejected("KittyBuried", "SJ2-6.1", cards=table.dealt["kitty"][:7])
    table.rejected("KittyCorrected", "SJ2-16", to_kitty=[table.dealt["kitty"][7]])


@pytest.mark.parametrize("steer", [0, 150])
def test_sj2_ex10_defenders_follow_error_then_kitty_error_in_order(steer):
    table = kitty_error_table(7)
    table.ok("KittyCorrected", to_kitty=[table.dealt["kitty"][7]])
    if steer:
        table.ok("PenaltyAssessed", rule="SJ2-12.1", side="B", points=steer)
    table.ok("CardsPlayed", seat=0, cards=["QH"])
    table.ok("CardsPlayed", seat=1, cards=["6C"])  # holds 4H: a defenders' follow error
    table.play_legal(random.Random(1))
    row = assert_hand_result(table, seed=13, trump="S", defenders_errors=1, kitty_error=True,
                             penalties=[("B", steer)] if steer else ())
    assert [a["kind"] for a in row["adjustments"]] == ["defenders_follow_error", "kitty_error"]
    if steer:  # Ex 10: raw 10 → step 2: 0 → step 3: max(40, 80) = 80
        assert row["raw_points"] < 40
        assert [(a["before"], a["after"]) for a in row["adjustments"]] == [
            (row["raw_points"], 0), (0, 80)]
    else:
        raw = row["raw_points"]
        assert [(a["before"], a["after"]) for a in row["adjustments"]] == [
            (raw, max(raw - 40, 0)), (max(raw - 40, 0), max(raw, 80))]


# --- SJ2-12.1: a referee's point penalty ---------------------------------------------------------

def test_sj2_12_1_referee_penalties_against_each_side():
    table = new_table()
    table.to_play({0: "2S"}, card="2S")
    rng = random.Random(4)
    for _ in range(4):
        table.play_legal(rng)
    table.ok("PenaltyAssessed", rule="SJ2-12.1", side="A", points=30, reason="exposed card")
    table.ok("PenaltyAssessed", rule="SJ2-12.1", side="B", points=15)
    penalties = table.hand_view()["penalties"]
    assert [(p["side"], p["points"], p["source"], p["trick"]) for p in penalties] == [
        ("A", 30, "referee", 1), ("B", 15, "referee", 1)]
    row = assert_hand_result(table, seed=14, trump="S", penalties=[("A", 30), ("B", 15)])
    assert row["penalty_points"] == 15


@pytest.mark.parametrize("points", [1000])
def test_sj2_12_6_negative_p_reads_as_zero(points):
    table = new_table()
    table.to_play({0: "2S"}, card="2S")
    table.ok("PenaltyAssessed", rule="SJ2-12.1", side="B", points=points)
    row = assert_hand_result(table, seed=15, trump="S", penalties=[("B", points)])
    assert row["raw_points"] < 0 and row["final_points"] == row["raw_points"]
    assert row["result"] == {"winner": "dealer", "levels": 3, "deal_passes": False}


# --- record mode still refuses what the rules forbid -------------------------------------------

def test_sj2_12_5_a_mixed_lead_is_judged_as_a_failed_throw_in_record_mode():
    """Seed rule 10: 「牌脱手后不能再收回；如果所出的牌有错，则按照“甩牌错误”处理」 — a released
    lead is not taken back: KD is beatable by seat 1's AD (10 points), and is played."""
    table = new_table()
    table.to_play({0: "2S AH KD QH", 1: "AD"}, card="2S")
    table.ok("CardsPlayed", seat=0, cards=["AH", "KD"])
    view = table.hand_view()
    trick = view["current_trick"]
    assert trick["throw"] == {"seat": 0, "attempt": ["AH", "KD"], "beaten": [["KD"]],
                              "penalty": 10, "forced": ["KD"], "rule": "SJ2-12.5"}
    assert trick["plays"][0]["cards"] == ["KD"] and "AH" in held(table, 0)
    assert [(p["rule"], p["side"], p["points"]) for p in view["penalties"]] == [("SJ2-12.5", "A", 10)]
    strict = new_table({})
    strict.to_play({0: "2S AH KD QH", 1: "AD"}, card="2S")
    strict.rejected("CardsPlayed", "SJ2-8.2", seat=0, cards=["AH", "KD"])


def test_record_mode_still_refuses_wrong_turns_and_counts():
    table = new_table()
    table.to_play({0: "2S AH KD QH"}, card="2S")
    table.rejected("CardsPlayed", "SJ2-8.1", seat=1, cards=held(table, 1)[:1])
    table.ok("CardsPlayed", seat=0, cards=["QH"])
    table.rejected("CardsPlayed", "SJ2-9.1", seat=1, cards=held(table, 1)[:2])
