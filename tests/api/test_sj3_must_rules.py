"""Every "must" rule of three-deck Shengji (shengji-3deck.md) refused through the HTTP API with
422 naming its rule ID, nothing stored — in strict mode unless the rule holds in every mode.
Hand 1 is played at level 2; seat 0 reveals 2S, so spades, the 2s and the jokers are trump and
seat 0 deals and leads."""
from __future__ import annotations

import pytest
from sj3_table import build_deal, new_table
from tables import ok

RECORD = {"enforcement": "record"}


def at_first_lead(fixed: dict[int, str], no: dict[int, str] | None = None, settings=None):
    table = new_table(settings)
    assert table.to_play({0: "2S " + fixed.get(0, ""), **{s: v for s, v in fixed.items() if s}},
                         card="2S", no=no) == 0
    return table


# --- SJ3-1: the deal ---------------------------------------------------------------------------

def test_sj3_1_1_the_deal_is_exactly_three_decks():
    table = new_table()
    deal = build_deal({})
    deal["hands"][0][0] = next(c for c in deal["hands"][1] if deal["hands"][1].count(c) == 1
                               and sum(h.count(c) for h in deal["hands"]) == 3)
    table.rejected("HandDealt", "SJ3-1.1", **deal)


def test_sj3_1_3_thirty_nine_cards_each_and_six_in_the_kitty():
    table = new_table()
    deal = build_deal({})
    deal["kitty"].append(deal["hands"][0].pop())
    problem = table.rejected("HandDealt", "SJ3-1.3", **deal)
    assert "receives 39" in problem["detail"]


def test_sj3_1_4_a_turned_joker_is_turned_again_and_the_turn_names_both():
    table = new_table()
    deal = build_deal({})
    table.rejected("HandDealt", "SJ3-1.4", **deal, turned_by=1, turned_card="BJ")
    table.rejected("HandDealt", "SJ3-1.4", **deal, turned_by=1)
    table.ok("HandDealt", **deal, turned_by=2, turned_card="7C")  # Ex 12
    assert table.hand_view()["first_drawer"] == 0


def test_sj3_1_2_a_side_is_two_partners():
    table = new_table()
    ok(table.client.post(f"/v1/tournaments/{table.tid}/events", json={
        "type": "TeamRegistered", "stream": f"tournament-{table.tid}",
        "data": {"team_id": "four", "name": "four", "players": ["甲2", "乙2", "丙2", "丁2"]}}))
    response = table.client.post(f"/v1/tournaments/{table.tid}/matches", json={
        "match_id": "R1-2", "teams": {"A": "four", "B": "west"}})
    assert (response.status_code, response.json["rule"]) == (422, "SJ3-1.2")


# --- SJ3-3: reveals ------------------------------------------------------------------------------

def test_sj3_3_1_a_reveal_shows_one_level_card_the_player_holds():
    table = new_table()
    table.deal({0: "2S 3S BJ"}, no={1: "2"})
    table.rejected("TrumpDeclared", "SJ3-3.1", seat=0, card="3S")
    table.rejected("TrumpDeclared", "SJ3-3.1", seat=0, card="BJ")
    held = table.held(1)
    missing = next(f"2{s}" for s in "SHDC" if f"2{s}" not in held)
    table.rejected("TrumpDeclared", "SJ3-3.1", seat=1, card=missing)
    table.ok("TrumpDeclared", seat=0, card="2S")
    table.rejected("TrumpDeclared", "SJ3-3.1", seat=2, card="2S", simultaneous=True)


def test_sj3_3_2_a_counter_reveal_needs_a_standing_reveal_and_identical_level_cards():
    table = new_table()
    table.deal({0: "2S", 1: "2H 2H 2D BJ BJ"})
    table.rejected("TrumpOvercalled", "SJ3-3.2", seat=1, cards=["2H", "2H"])
    table.ok("TrumpDeclared", seat=0, card="2S")
    table.rejected("TrumpOvercalled", "SJ3-3.2", seat=1, cards=["2H", "2D"])
    table.rejected("TrumpOvercalled", "SJ3-3.2", seat=1, cards=["BJ", "BJ"])  # no no-trump
    table.rejected("TrumpOvercalled", "SJ3-3.2", seat=1, cards=["2C", "2C"])  # not held


def test_sj3_3_3_after_hand_1_the_counter_reveal_changes_the_suit():
    table = new_table()
    table.to_play({0: "2S"}, card="2S")
    table.finish_hand(1)
    table.hand = 2
    table.deal({1: "3H", 3: "3H 3H 3D 3D"}, seed=11)
    table.ok("TrumpDeclared", seat=1, card="3H")
    table.rejected("TrumpOvercalled", "SJ3-3.3", seat=3, cards=["3H", "3H"])
    table.ok("TrumpOvercalled", seat=3, cards=["3D", "3D"])


def test_sj3_3_4_and_3_5_equal_counts_and_oneself():
    table = new_table()
    table.deal({0: "2S 2S 2S", 1: "2H 2H", 2: "2D 2D"})
    table.ok("TrumpDeclared", seat=1, card="2H")
    table.rejected("TrumpOvercalled", "SJ3-3.5", seat=1, cards=["2H", "2H"])
    table.ok("TrumpOvercalled", seat=2, cards=["2D", "2D"])
    table.rejected("TrumpOvercalled", "SJ3-3.4", seat=1, cards=["2H", "2H"])
    table.ok("TrumpOvercalled", seat=0, cards=["2S", "2S", "2S"])  # the partner may


def test_sj3_3_6_the_kitty_after_drawing_ends_and_5_seconds_and_no_reveal_after_it():
    table = new_table()
    table.deal({0: "2S", 1: "2H 2H"})
    table.ok("TrumpDeclared", seat=0, card="2S")
    table.rejected("KittyTaken", "SJ3-3.6")
    table.ok("DrawingEnded")
    table.rejected("DrawingEnded", "SJ3-3.6")
    table.clock.advance(seconds=3)
    table.rejected("KittyTaken", "SJ3-3.6")
    table.clock.advance(seconds=2)
    table.ok("KittyTaken")
    table.rejected("TrumpOvercalled", "SJ3-3.6", seat=1, cards=["2H", "2H"])
    table.rejected("TrumpDeclared", "SJ3-3.6", seat=1, card="2H")


def test_sj3_3_7_hand_1_without_a_reveal_is_dealt_again():
    table = new_table()
    table.deal()
    table.ok("DrawingEnded")
    table.clock.advance(seconds=5)
    table.rejected("KittyTaken", "SJ3-3.7")
    table.ok("HandVoided", reason="nobody revealed (SJ3-3.7)")
    table.deal({1: "2C"}, seed=8)
    assert table.hand_view()["phase"] == "declaring"


def test_sj3_4_3_in_strict_mode_only_the_dealer_takes_the_kitty():
    table = new_table()
    table.deal({0: "2S"})
    table.ok("TrumpDeclared", seat=0, card="2S")
    table.ok("DrawingEnded")
    table.clock.advance(seconds=5)
    table.rejected("KittyTaken", "SJ3-4.3", seat=2)
    table.ok("KittyTaken", seat=0)


# --- SJ3-5.1: the kitty ---------------------------------------------------------------------------

@pytest.mark.parametrize("settings", [None, RECORD], ids=["strict", "record"])
def test_sj3_5_1_the_dealer_buries_exactly_six(settings):
    table = new_table(settings)
    table.deal({0: "2S"})
    table.ok("TrumpDeclared", seat=0, card="2S")
    table.ok("DrawingEnded")
    table.clock.advance(seconds=5)
    table.ok("KittyTaken")
    table.rejected("KittyBuried", "SJ3-5.1", cards=table.dealt["kitty"][:5])
    table.rejected("KittyBuried", "SJ3-5.1", cards=table.held(0)[:7])


# --- SJ3-6, 7: leads and throws ---------------------------------------------------------------------

@pytest.mark.parametrize("settings", [None, RECORD], ids=["strict", "record"])
def test_sj3_6_5_a_captive_is_no_lead_and_7_1_a_throw_states_its_structure(settings):
    table = at_first_lead({0: "4H 4H 4H 3H 3H AD KD"}, settings=settings)
    table.rejected("CardsPlayed", "SJ3-6.5", seat=0, cards=["4H", "4H", "4H", "3H", "3H"])
    table.rejected("CardsPlayed", "SJ3-7.1", seat=0, cards=["AD", "KD"])
    table.rejected("CardsPlayed", "SJ3-7.1", seat=0, cards=["AD", "KD"],
                   structure=[["AD", "KD"]])
    table.rejected("CardsPlayed", "SJ3-7.1", seat=0, cards=["AD", "4H"],
                   structure=[["AD"], ["4H"]])


@pytest.mark.parametrize("settings", [None, RECORD], ids=["strict", "record"])
def test_sj3_7_1_a_stated_structure_may_not_split_a_unit(settings):
    """Seed 十二 「你必须跟出对子」, 十一, 十五, 十六: AH AH stated as two singles, 8H 8H 7H 7H as two
    pairs would escape the follow and trump rules — 422 SJ3-7.1, in both modes; 4D 4D 4D 3D 3D
    as tractor + single (「拖拉机加一单张」) stands."""
    table = at_first_lead({0: "AH AH 8H 8H 7H 7H 4D 4D 4D 3D 3D"}, no={1: "D", 3: "D"},
                          settings=settings)
    problem = table.rejected("CardsPlayed", "SJ3-7.1", seat=0, cards=["AH", "AH"],
                             structure=[["AH"], ["AH"]])
    assert "together one pair" in problem["detail"]
    table.rejected("CardsPlayed", "SJ3-7.1", seat=0, cards=["8H", "8H", "7H", "7H"],
                   structure=[["8H", "8H"], ["7H", "7H"]])
    table.ok("CardsPlayed", seat=0, cards=["4D", "4D", "4D", "3D", "3D"],
             structure=[["4D", "4D", "3D", "3D"], ["4D"]])
    trick = table.hand_view()["current_trick"]
    assert trick["throw"] is None and trick["structure"] == [["4D", "4D", "3D", "3D"], ["4D"]]


def test_sj3_7_3_only_the_next_seat_designates_one_of_the_options():
    """Ex 5's throw at level 2: seat 0 throws AH AH KH KH + 8H; seat 1 holds the third AH."""
    table = at_first_lead({0: "AH AH KH KH 8H", 1: "AH"}, no={1: "H"})
    table.ok("CardsPlayed", seat=0, cards=["AH", "AH", "KH", "KH", "8H"],
             structure=[["AH", "AH", "KH", "KH"], ["8H"]])
    assert table.hand_view()["current_trick"]["throw"]["designator"] == 1
    table.rejected("CardsPlayed", "SJ3-7.3", seat=0, cards=["8H"])
    table.rejected("ThrowPenaltyChoice", "SJ3-7.3", seat=2, component=["8H"])
    table.rejected("ThrowPenaltyChoice", "SJ3-7.3", seat=1, component=["KH", "KH"])
    table.ok("ThrowPenaltyChoice", seat=1, component=["8H"])
    table.rejected("ThrowPenaltyChoice", "SJ3-7.3", seat=1, component=["8H"])


def test_sj3_6_6_a_follow_states_no_structure():
    table = follow_case("AH", "5H", "H")
    table.rejected("CardsPlayed", "SJ3-6.6", seat=1, cards=["5H"], structure=[["5H"]])


# --- SJ3-8: following -----------------------------------------------------------------------------

def follow_case(lead: str, seat_1: str, suit: str) -> object:
    """Seat 0 leads ``lead``; seat 1 holds exactly ``seat_1`` in ``suit`` (besides trumps and
    other suits)."""
    table = at_first_lead({0: lead, 1: seat_1}, no={1: suit, 2: suit, 3: suit})
    table.ok("CardsPlayed", seat=0, cards=lead.split())
    return table


def test_sj3_8_1_the_led_suit_first_and_as_many_cards_as_led():
    table = follow_case("AH", "5H 6H", "H")
    other = next(c for c in table.held(1) if c[-1] == "D")
    table.rejected("CardsPlayed", "SJ3-8.1", seat=1, cards=[other])
    table.rejected("CardsPlayed", "SJ3-8.1", seat=1, cards=["5H", "6H"])
    table.ok("CardsPlayed", seat=1, cards=["5H"])


def test_sj3_8_3_a_pair_follows_a_pair_even_out_of_a_triple():
    table = follow_case("QH QH", "JH JH JH 4H", "H")
    table.rejected("CardsPlayed", "SJ3-8.3", seat=1, cards=["JH", "4H"])
    table.ok("CardsPlayed", seat=1, cards=["JH", "JH"])


def test_sj3_8_4_a_triple_then_a_pair_and_a_single():
    """Ex 2 at level 2: seat 1 holds 8H 8H 8H KH 3H and must play the triple."""
    table = follow_case("7H 7H 7H", "8H 8H 8H KH 3H", "H")
    table.rejected("CardsPlayed", "SJ3-8.4", seat=1, cards=["8H", "KH", "3H"])
    table.ok("CardsPlayed", seat=1, cards=["8H", "8H", "8H"])


def test_sj3_8_5_a_tractor_follows_a_tractor():
    """Ex 3 in diamonds: seat 1 holds the tractor 6D 6D 5D 5D (and a third 6D)."""
    table = follow_case("JD JD TD TD", "6D 6D 6D 5D 5D KD", "D")
    table.rejected("CardsPlayed", "SJ3-8.5", seat=1, cards=["6D", "6D", "6D", "KD"])
    table.ok("CardsPlayed", seat=1, cards=["6D", "6D", "5D", "5D"])


def test_sj3_8_6_a_triple_tractor_then_a_tractor_and_two_more():
    """Ex 4, seat 1's case: 8D 8D 7D 7D + two of KD QD JD."""
    table = follow_case("4D 4D 4D 3D 3D 3D", "8D 8D 7D 7D KD QD JD", "D")
    table.rejected("CardsPlayed", "SJ3-8.6", seat=1, cards=["8D", "8D", "7D", "KD", "QD", "JD"])
    table.ok("CardsPlayed", seat=1, cards=["8D", "8D", "7D", "7D", "KD", "QD"])


def test_sj3_8_7_a_throw_asks_component_by_component():
    table = at_first_lead({0: "KH KH KH AH AH", 1: "8H 8H 8H 6H 6H 5H"},
                          no={1: "H", 2: "H", 3: "H"})
    table.ok("CardsPlayed", seat=0, cards=["KH", "KH", "KH", "AH", "AH"],
             structure=[["KH", "KH", "KH"], ["AH", "AH"]])
    assert table.hand_view()["current_trick"]["throw"] is None  # nobody can beat it
    table.rejected("CardsPlayed", "SJ3-8.7", seat=1, cards=["8H", "8H", "6H", "6H", "5H"])
    table.ok("CardsPlayed", seat=1, cards=["8H", "8H", "8H", "6H", "6H"])


def test_sj3_8_1_a_wrong_number_of_cards_is_refused_in_record_mode_too():
    table = at_first_lead({0: "7H 7H 7H", 1: "8H 8H 8H KH 3H"}, no={1: "H"}, settings=RECORD)
    table.ok("CardsPlayed", seat=0, cards=["7H", "7H", "7H"])
    table.rejected("CardsPlayed", "SJ3-8.1", seat=1, cards=["8H", "8H"])


def test_sj3_11_2_strict_mode_has_nothing_to_correct():
    table = follow_case("AH", "5H 6H", "H")
    table.ok("CardsPlayed", seat=1, cards=["5H"])
    table.rejected("PlayCorrected", "SJ3-11.2", seat=1, cards=["6H"])


# --- SJ3-11.7, 11.8: turn and time -----------------------------------------------------------------

@pytest.mark.parametrize("settings", [None, RECORD], ids=["strict", "record"])
def test_sj3_11_7_a_play_out_of_turn_is_refused(settings):
    table = at_first_lead({0: "AH"}, settings=settings)
    table.rejected("CardsPlayed", "SJ3-11.7", seat=1, cards=[table.held(1)[0]])


def test_sj3_11_8_only_a_true_overrun_is_recorded():
    table = at_first_lead({0: "AH"})
    table.rejected("SJ3TimeLimitExceeded", "SJ3-11.8", seat=1, kind="kitty")   # not his wait
    table.rejected("SJ3TimeLimitExceeded", "SJ3-11.8", seat=0, kind="lead")    # not a lead yet
    table.rejected("SJ3TimeLimitExceeded", "SJ3-11.8", seat=0, kind="kitty")   # 60 s not passed
    table.clock.advance(seconds=60)
    table.ok("SJ3TimeLimitExceeded", seat=0, kind="kitty")
    table.rejected("SJ3TimeLimitExceeded", "SJ3-11.8", seat=0, kind="kitty")   # reported once
    table.bad("SJ3TimeLimitExceeded", seat=0, kind="nap")


def test_sj3_7_3_the_designators_time_runs_out_only_after_its_seconds():
    table = at_first_lead({0: "AH AH KH KH 8H", 1: "AH"}, no={1: "H"})
    table.ok("CardsPlayed", seat=0, cards=["AH", "AH", "KH", "KH", "8H"],
             structure=[["AH", "AH", "KH", "KH"], ["8H"]])
    table.rejected("SJ3TimeLimitExceeded", "SJ3-7.3", seat=1, kind="throwChoice")
    table.clock.advance(seconds=10)
    table.ok("SJ3TimeLimitExceeded", seat=1, kind="throwChoice")
    trick = table.hand_view()["current_trick"]
    assert (trick["plays"][0]["cards"], trick["throw"]["chosen"]) == (["8H"], "default")


@pytest.mark.parametrize("rule", ["SJ3-11.5", "SJ3-11.6", "SJ3-11.7", "SJ3-11.9"])
def test_sj3_11_a_reported_irregularity_names_the_seat_at_fault(rule):
    table = at_first_lead({})
    table.rejected("IrregularityReported", rule, rule=rule, detail="someone, somewhere")


@pytest.mark.parametrize("rule", ["SJ3-11.2", "SJ3-11.8", "SJ3-11.11", "SJ2-12.3", "T-6.6"])
def test_sj3_13_only_the_irregularities_the_engine_applies_are_reported(rule):
    """SJ3-13 row 13: exposed card (11.5), count mismatch (11.6), out-of-turn play (11.7),
    light signals (11.9); any other rule would be stored with no effect — refused."""
    table = at_first_lead({})
    problem = table.rejected("IrregularityReported", "SJ3-13", rule=rule, seat=1, detail="x")
    assert "SJ3-11.5, SJ3-11.6, SJ3-11.7, SJ3-11.9" in problem["detail"]


def test_sj3_11_a_report_names_seat_or_seats_not_both():
    table = at_first_lead({})
    table.rejected("IrregularityReported", "SJ3-11.6", rule="SJ3-11.6", seat=1, seats=[2],
                   detail="seat 1 holds 38, seat 2 holds 40")
    table.rejected("IrregularityReported", "SJ3-11.5", rule="SJ3-11.5", seats=[1, 2],
                   detail="both showed a card")
    table.ok("IrregularityReported", rule="SJ3-11.5", seat=1, detail="showed 8D")
    assert table.hand_view()["irregularities"] == [
        {"rule": "SJ3-11.5", "seat": 1, "detail": "showed 8D"}]


def test_sj3_4_3_a_handed_over_deal_is_recorded_by_kitty_taken_not_reported():
    table = at_first_lead({})
    table.rejected("IrregularityReported", "SJ3-4.3", rule="SJ3-4.3", seat=2, detail="x")


def test_sj3_11_9_a_disqualification_names_side_a_or_b():
    table = at_first_lead({})
    table.rejected("RulingRecorded", "SJ3-11.9", text="signals",
                   effect={"kind": "disqualify", "side": "east"})


# --- SJ3-12, 13, 15: the match ----------------------------------------------------------------------

def test_sj3_12_1_the_alert_comes_at_its_minute_once_and_then_no_hand_is_dealt():
    table = new_table()
    table.rejected("TimeLimitReached", "SJ3-12.1", limit_minutes=80)
    table.clock.advance(minutes=80)
    table.rejected("TimeLimitReached", "SJ3-12.1", limit_minutes=90)
    table.ok("TimeLimitReached", limit_minutes=80)
    assert table.match()["status"] == "completed"
    table.rejected("HandDealt", "SJ3-12", **build_deal({}))


def test_sj3_13_events_of_the_hand_in_play_and_of_sj3_only():
    table = new_table()
    table.rejected("CardsPlayed", "SJ3-13", seat=0, cards=["AH"])
    table.deal({0: "2S"})
    table.rejected("DealCompleted", "SJ3-13")
    table.rejected("DeclarationWindowClosed", "SJ3-3.6")  # SJ3's too: the pause has not begun
    table.rejected("TrumpDeclared", "SJ3-13", hand=2, seat=0, card="2S")
    table.rejected("LotsDrawn", "SJ3-13", purpose="declaration", candidates=[0, 1], winner=0)


def test_sj3_15_match_settings_are_checked_when_the_match_starts():
    table = new_table()
    for settings in ({"noSuchKey": 1}, {"alertAtMinute": 95}, {"trumpChainAdjacency": "yes"},
                     {"matchPoints": {"win": 1, "draw": 2, "loss": 0}}):
        response = table.client.post(f"/v1/tournaments/{table.tid}/matches", json={
            "match_id": "R1-2", "teams": {"A": "east", "B": "west"}, "settings": settings})
        assert response.status_code == 422, response.json
        assert response.json["rule"] == "SJ3-15"


# --- T-6.6: lateness ----------------------------------------------------------------------------------

def test_t_6_6_lateness_is_recorded_once_per_side_before_the_first_deal():
    table = new_table()
    table.bad("LatenessRecorded", side="B", minutes=-3)
    table.rejected("LatenessRecorded", "T-6.6", side="B", minutes=8, dealer=0)
    table.ok("LatenessRecorded", side="B", minutes=8)
    table.rejected("LatenessRecorded", "T-6.6", side="B", minutes=9)
    table.rejected("LatenessRecorded", "T-6.6", side="A", minutes=17, dealer=2)  # B nominates
    table.deal({0: "2S"})
    table.rejected("LatenessRecorded", "T-6.6", side="A", minutes=2)


def test_lateness_is_not_an_event_of_an_sj2_match(client):
    ok(client.post("/v1/tournaments", json={"tournament_id": "s2", "name": "x", "game": "SJ2",
                                            "format": "swiss"}))
    for team in ("east", "west"):
        ok(client.post("/v1/tournaments/s2/events", json={
            "type": "TeamRegistered", "stream": "tournament-s2",
            "data": {"team_id": team, "name": team, "players": [team + "1", team + "2"]}}))
    ok(client.post("/v1/tournaments/s2/matches", json={"match_id": "m",
                                                       "teams": {"A": "east", "B": "west"}}))
    response = client.post("/v1/tournaments/s2/events", json={
        "type": "LatenessRecorded", "stream": "match-s2:m", "data": {"side": "A", "minutes": 3}})
    assert (response.status_code, response.json["rule"]) == (422, "SJ2-16")
