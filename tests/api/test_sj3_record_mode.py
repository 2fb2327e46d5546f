"""Every SJ3 penalty (shengji-3deck.md SJ3-7.3, SJ3-11; T-6.6) recorded through the HTTP API in
``record`` mode, with the exact end-of-hand result.

Each scenario plays the irregularity, finishes the hand with legal moves (the simulator's bots,
seeded) and compares the hand's result row with one recomputed here from the finished hand's
tricks and kitty (SJ3-10.1, 10.2), the penalties the scenario caused (SJ3-11.1), the table of
SJ3-10.3 and the floors of SJ3-11.2 — written out again here, not taken from the engine.
Hand 1 is played at level 2; seat 0 reveals 2S unless stated (side A deals, B defends)."""
from __future__ import annotations

from collections import Counter

from sj3_table import new_table

RECORD = {"enforcement": "record"}
LADDER = "23456789TJQKA"
POINT_VALUES = {"5": 5, "T": 10, "K": 10}


def side(seat: int) -> str:
    return "A" if seat % 2 == 0 else "B"


def card_points(cards) -> int:
    return sum(POINT_VALUES.get(card[0], 0) for card in cards if card not in ("BJ", "SJ"))


def is_trump(card: str, level: str, suit: str) -> bool:
    return card in ("BJ", "SJ") or card[0] == level or card[1] == suit


def multiplier(structure: list[list[str]]) -> int:
    """SJ3-10.2 by the lead's key component: triple-tractor > tractor > triple > pair > single."""
    def key(part):
        width, length = part.count(part[0]), len(set(part))
        return (length >= 2, width, length)
    _, width, length = max(key(part) for part in structure)
    if width == 1:
        return 2
    if length == 1:
        return {2: 3, 3: 4}[width]
    return length + 3 if width == 2 else 2 * length + 2


def outcome(points: int) -> int:
    """SJ3-10.3/10.4/10.5: dealer +k → k; defenders take the deal and gain k → −k."""
    if points >= 120:
        return -((points - 120) // 60)
    if points >= 60:
        return 1
    if points >= 5:
        return 2
    return 3 + (-points) // 60


def expected_row(view: dict, *, penalties=(), offenders=(), levels_before=None) -> dict:
    """The result of the finished hand (SJ3-10, 11): ``penalties`` as (side penalised,
    points) besides the failed throws, which cost the thrower's side 20 each (SJ3-7.3) and are
    read from the tricks (the bots throw now and then); ``offenders`` the sides whose renege or
    light signals floor the outcome."""
    dealer = view["dealer"]
    dealer_side = side(dealer)
    defenders = "B" if dealer_side == "A" else "A"
    level, suit = view["trump"]["level"], view["trump"]["suit"]
    tricks = view["tricks"]
    trick_points = sum(card_points(c for play in t["plays"] for c in play["cards"])
                       for t in tricks if side(t["winner"]) == defenders)
    last = tricks[-1]
    winning = next(p["cards"] for p in last["plays"] if p["seat"] == last["winner"])
    captured = side(last["winner"]) == defenders and all(is_trump(c, level, suit) for c in winning)
    times = multiplier(last["structure"]) if captured else 0
    kitty_points = card_points(view["kitty"]["cards"])
    penalties = list(penalties) + [(side(t["throw"]["seat"]), 20) for t in tricks if t["throw"]]
    penalty_points = sum(-points if against == defenders else points for against, points in penalties)
    total = trick_points + kitty_points * times + penalty_points
    normal = final = outcome(total)
    floors = []
    if (dealer_side in offenders) != (defenders in offenders):
        final = min(normal, 0) if dealer_side in offenders else max(normal, 1)
        floors = [{"side_role": "dealer" if dealer_side in offenders else "defenders",
                   "before": normal, "after": final}]
    before = levels_before or {"A": "2", "B": "2"}
    levels = dict(before)
    leveling = dealer_side if final >= 1 else defenders
    if abs(final):
        levels[leveling] = LADDER[LADDER.index(before[leveling]) + abs(final)]
    return {"trick_points": trick_points, "kitty_points": kitty_points, "kitty_captured": captured,
            "multiplier": times, "kitty_capture": kitty_points * times,
            "penalty_points": penalty_points, "points": total, "normal_outcome": normal,
            "outcome_floors": floors, "final_outcome": final,
            "result": {"winner": "dealer" if final >= 1 else "defenders", "levels": abs(final),
                       "deal_passes": final <= 0},
            "hand": view["hand"], "dealer": dealer, "dealer_side": dealer_side,
            "level": view["level"], "trump": suit, "levels_before": before, "levels": levels,
            "leveling_side": leveling if final else None,
            "next_dealer": (dealer + 2) % 4 if final >= 1 else (dealer + 1) % 4}


def assert_result(table, seed: int, **expected) -> dict:
    view = table.finish_hand(seed)
    assert view["phase"] == "completed"
    row = expected_row(view, **expected)
    assert view["result"] == row
    match = table.match()
    assert match["last_result"] == row
    assert (match["levels"], match["next_dealer"]) == (row["levels"], row["next_dealer"])
    return row


def at_first_lead(fixed: dict[int, str], no=None, settings=RECORD, declarer: int = 0):
    table = new_table(settings)
    card = f"2{'SHDC'[declarer]}"
    fixed = {**fixed, declarer: f"{card} {fixed.get(declarer, '')}"}
    assert table.to_play(fixed, declarer=declarer, card=card, no=no) == declarer
    return table


# --- SJ3-7.3: a failed throw, −20 once, the next seat designates (Ex 5) ----------------------------

def test_sj3_ex5_a_defenders_failed_throw_costs_20_and_seat_2_designates_8h():
    table = at_first_lead({0: "3C", 1: "AC AH AH KH KH 8H", 2: "AH 4C", 3: "4C"},
                          no={1: "C"})
    for seat, card in ((0, "3C"), (1, "AC"), (2, "4C"), (3, "4C")):
        table.ok("CardsPlayed", seat=seat, cards=[card])
    before = table.held(1)
    table.ok("CardsPlayed", seat=1, cards=["AH", "AH", "KH", "KH", "8H"],
             structure=[["AH", "AH", "KH", "KH"], ["8H"]])
    throw = table.hand_view()["current_trick"]["throw"]
    assert (throw["designator"], throw["penalty"], throw["beaten"]) == (2, 20, [["8H"]])
    assert throw["options"] == [["8H"], ["AH", "AH", "KH", "KH"]]
    table.ok("ThrowPenaltyChoice", seat=2, component=["8H"])
    view = table.hand_view()
    assert view["current_trick"]["plays"][0]["cards"] == ["8H"]
    assert Counter(before) - Counter(view["seats"][1]["cards"]) == Counter(["8H"])  # 4 back
    assert view["penalties"] == [{"rule": "SJ3-7.3", "side": "B", "points": 20, "trick": 2,
                                  "source": "engine", "reason": view["penalties"][0]["reason"]}]
    assert_result(table, 3)  # the throw's 20 against B: P −= 20


# --- SJ3-11.2: renege, established when the next trick is led ---------------------------------

def renege_table():
    """Seat 0 leads AH; seat 1 holds 5H but discards a diamond: a renege, flagged."""
    table = at_first_lead({0: "AH", 1: "5H"}, no={1: "H", 2: "H", 3: "H"})
    table.ok("CardsPlayed", seat=0, cards=["AH"])
    diamond = next(c for c in table.held(1) if c[1] == "D" and c[0] != "2")
    table.ok("CardsPlayed", seat=1, cards=[diamond])
    return table


def finish_trick(table) -> None:
    for seat in (2, 3):
        card = next(c for c in table.held(seat) if c[1] == "D" and c[0] != "2")
        table.ok("CardsPlayed", seat=seat, cards=[card])


def test_sj3_ex9_a_defenders_renege_gives_the_dealer_at_least_plus_one():
    table = renege_table()
    assert table.hand_view()["pending_corrections"][0]["rule"] == "SJ3-8.1"
    finish_trick(table)
    assert table.hand_view()["follow_errors"] == []  # not established before the next lead
    events = table.play_out(4)
    table.batch(events[:1])  # the next trick is led
    view = table.hand_view()
    assert [(e["seat"], e["side"], e["trick"]) for e in view["follow_errors"]] == [(1, "B", 1)]
    table.batch(events[1:])
    assert_result(table, 4, offenders=("B",))


def test_sj3_11_2_a_renege_corrected_before_the_next_lead_carries_nothing():
    table = renege_table()
    finish_trick(table)
    table.ok("PlayCorrected", seat=1, cards=["5H"])
    view = table.hand_view()
    assert view["pending_corrections"] == [] and view["tricks"][0]["plays"][1]["cards"] == ["5H"]
    assert_result(table, 4)


def test_sj3_11_2_an_open_renege_is_shown_to_its_player_and_the_officials_only():
    """Until the next lead seat 1 may still correct his renege: its seat and rule (SJ3-8.1: he
    held the led suit) would tell the others what he holds — the opponents and his partner see
    no pending entry and no flag; once the next trick is led it is established and public."""
    table = renege_table()

    def flags(view: dict, trick: dict) -> list:
        return [p["flagged"] for p in trick["plays"] if p["flagged"] is not None]

    for viewer in ("seat:0", "seat:2", "seat:3"):
        view = table.hand_view(view=viewer)
        assert view["pending_corrections"] == [] and flags(view, view["current_trick"]) == []
    for viewer in ("seat:1", "referee"):
        view = table.hand_view(view=viewer)
        assert [(e["seat"], e["rule"]) for e in view["pending_corrections"]] == [(1, "SJ3-8.1")]
        assert [f["rule"] for f in flags(view, view["current_trick"])] == ["SJ3-8.1"]
    finish_trick(table)  # the trick is complete, the next one not yet led: still open
    view = table.hand_view(view="seat:0")
    assert view["pending_corrections"] == [] and flags(view, view["tricks"][0]) == []
    table.batch(table.play_out(4)[:1])  # the next trick is led: established
    view = table.hand_view(view="seat:0")
    assert [(e["seat"], e["rule"]) for e in view["follow_errors"]] == [(1, "SJ3-8.1")]
    assert [(f["seat"], f["rule"]) for f in flags(view, view["tricks"][0])] == [(1, "SJ3-8.1")]
    assert "message" not in view["follow_errors"][0]  # it names cards he still holds


def test_sj3_11_2_once_the_next_trick_is_led_the_renege_stands():
    table = renege_table()
    finish_trick(table)
    table.batch(table.play_out(5)[:1])
    table.rejected("PlayCorrected", "SJ3-11.2", seat=1, cards=["5H"])


# --- SJ3-11.5, 11.7, 11.9: the referee's reports ------------------------------------------------

def test_sj3_11_5_an_exposed_card_costs_its_side_20():
    table = at_first_lead({})
    table.ok("IrregularityReported", rule="SJ3-11.5", seat=2, detail="dropped 8H face up")
    assert table.hand_view()["penalties"][0]["points"] == 20
    assert_result(table, 1, penalties=[("A", 20)])


def test_sj3_11_7_a_play_out_of_turn_costs_its_side_20():
    table = at_first_lead({})
    table.ok("IrregularityReported", rule="SJ3-11.7", seat=3, detail="led before seat 0")
    table.ok("IrregularityReported", rule="SJ3-11.7", seat=3, detail="again, trick 1")
    assert_result(table, 2, penalties=[("B", 20), ("B", 20)])


def test_sj3_11_9_light_illicit_signals_floor_the_outcome_like_a_renege():
    table = at_first_lead({})
    table.ok("IrregularityReported", rule="SJ3-11.9", seat=0, detail="a gesture to seat 2")
    assert_result(table, 6, offenders=("A",))


def test_sj3_11_1_a_referees_point_penalty_counts_in_p():
    table = at_first_lead({})
    table.ok("PenaltyAssessed", rule="SJ3-11.8", side="B", points=40,
             reason="deliberate stalling, on top of the time penalties")
    assert_result(table, 7, penalties=[("B", 40)])


# --- SJ3-11.6: card count mismatch -------------------------------------------------------------

def test_sj3_11_6_a_mismatch_stops_the_hand_and_the_faultless_dealer_side_goes_up():
    table = at_first_lead({})
    table.ok("IrregularityReported", rule="SJ3-11.6", seat=1, detail="seat 1 holds 38 cards")
    view = table.hand_view()
    assert view["phase"] == "completed"
    assert (view["result"]["final_outcome"], view["result"]["faultless_side"]) == (1, "A")
    match = table.match()
    assert (match["levels"], match["next_dealer"]) == ({"A": "3", "B": "2"}, 2)


def test_sj3_11_6_the_faultless_defenders_take_the_deal_and_go_up():
    table = at_first_lead({})
    table.ok("IrregularityReported", rule="SJ3-11.6", seats=[2], detail="seat 2 holds 40")
    match = table.match()
    assert (match["levels"], match["next_dealer"]) == ({"A": "2", "B": "3"}, 1)
    assert table.results()[0]["result"] == {"winner": "defenders", "levels": 1,
                                             "deal_passes": True}


def test_sj3_11_6_both_sides_at_fault_replay_the_hand():
    table = at_first_lead({})
    table.ok("IrregularityReported", rule="SJ3-11.6", seats=[0, 3], detail="38 and 40")
    view = table.hand_view()
    assert view["phase"] == "voided" and "both sides" in view["void_reason"]
    assert table.match()["levels"] == {"A": "2", "B": "2"}
    table.deal({1: "2H"}, seed=12)  # hand 1 again
    assert table.hand_view()["phase"] == "declaring"


# --- SJ3-4.3: the deal handed to the partner --------------------------------------------------------

def test_sj3_4_3_a_partner_taking_the_kitty_hands_the_deal_to_the_defenders():
    table = new_table(RECORD)
    table.deal({0: "2S"})
    table.ok("TrumpDeclared", seat=0, card="2S")
    table.ok("DrawingEnded")
    table.ok("KittyTaken", seat=2)
    view = table.hand_view()
    assert (view["phase"], view["result"]["ended"], view["result"]["final_outcome"]) == \
        ("completed", "dealTransfer", 0)
    match = table.match()
    assert (match["levels"], match["next_dealer"]) == ({"A": "2", "B": "2"}, 1)


# --- SJ3-11.8: time, a warning then 20 each time (Ex 10) ---------------------------------------

def test_sj3_ex10_a_sides_first_overrun_is_a_warning_its_second_costs_20():
    table = at_first_lead({0: "AH", 2: "3H"}, no={2: "H"})
    table.ok("CardsPlayed", seat=0, cards=["AH"])
    table.ok("CardsPlayed", seat=1, cards=[table.play_out(1)[0][1]["cards"][0]])
    table.clock.advance(seconds=10)
    table.ok("SJ3TimeLimitExceeded", seat=2, kind="follow")
    assert table.hand_view()["penalties"] == []
    table.ok("CardsPlayed", seat=2, cards=["3H"])
    table.ok("CardsPlayed", seat=3, cards=table.play_out(1)[0][1]["cards"])
    view = table.hand_view()
    leader = view["turn"]
    table.clock.advance(seconds=15)
    table.ok("SJ3TimeLimitExceeded", seat=leader, kind="lead")
    breaches = table.match()["time_breaches"]
    assert [(b["side"], b["consequence"]) for b in breaches] == [
        ("A", "warning"), (side(leader), "penalty" if side(leader) == "A" else "warning")]
    penalties = [("A", 20)] if side(leader) == "A" else []
    assert_result(table, 8, penalties=penalties)


def test_sj3_11_8_with_side_per_hand_the_warning_comes_again_in_the_next_hand():
    for scope, second in (("sidePerHand", "warning"), ("sidePerMatch", "penalty")):
        table = at_first_lead({}, settings={**RECORD, "timeWarningScope": scope})
        table.clock.advance(seconds=60)
        table.ok("SJ3TimeLimitExceeded", seat=0, kind="kitty")
        table.finish_hand(9)
        match = table.match()
        table.hand, dealer = 2, match["next_dealer"]
        table.to_play(seed=21)
        table.clock.advance(seconds=60)
        table.ok("SJ3TimeLimitExceeded", seat=dealer, kind="kitty")
        assert [b["consequence"] for b in table.match()["time_breaches"]] == \
            ["warning", second if side(dealer) == "A" else "warning"]


# --- T-6.6 / SJ3-11.10: lateness (Ex 10) -----------------------------------------------------------

def test_sj3_ex10_twelve_minutes_late_costs_b_30_in_hand_1_as_defenders():
    table = new_table(RECORD)
    table.ok("LatenessRecorded", side="B", minutes=12)
    table.to_play({0: "2S"}, card="2S")
    assert table.hand_view()["penalties"][0] | {"reason": None} == {
        "rule": "T-6.6", "side": "B", "points": 30, "trick": 0, "source": "engine", "reason": None}
    assert_result(table, 10, penalties=[("B", 30)])


def test_sj3_ex10_twelve_minutes_late_adds_30_to_p_when_b_deals():
    table = new_table(RECORD)
    table.ok("LatenessRecorded", side="B", minutes=12)
    table.ok("LatenessRecorded", side="A", minutes=7)
    table.to_play({1: "2H"}, declarer=1, card="2H")
    assert_result(table, 11, penalties=[("B", 30), ("A", 20)])


def test_sj3_ex10_a_warning_for_up_to_five_minutes_costs_no_points():
    table = new_table(RECORD)
    table.ok("LatenessRecorded", side="A", minutes=4)
    assert table.match()["lateness"] == [{"side": "A", "minutes": 4, "rule": "T-6.6",
                                          "consequence": "warning", "points": 0}]
    table.to_play({0: "2S"}, card="2S")
    assert table.hand_view()["penalties"] == []
