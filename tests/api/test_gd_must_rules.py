"""Every "must" rule of 掼蛋 through the HTTP API: an event that breaks it is refused with 422
problem+json naming the rule, and nothing is stored (shared/rules/guandan.md; rules README §5
"Rejection"). The issue's bad input — a wildcard used as a joker, a straight of 6, a tribute of a
wildcard, a return card above 10 where the rule forbids it, a play after a player has finished —
is among them. Malformed data is a 400 naming the field.

Hand 1 is played at level 2 (the wildcard is 2H). ``Table.rejected`` checks the status, the media
type, the rule and that the log did not grow."""
from __future__ import annotations

import pytest
from clients import admin_client
from gd_table import TID, Clock, Table, drawn_knockout, ok

from events.memory_store import InMemoryEventStore
from rules.guandan.procedure import stacked_deal
from service import create_app


def new_client():
    return admin_client(create_app(store=InMemoryEventStore()))


def new_table(settings: dict | None = None, clock: Clock | None = None) -> Table:
    return Table(admin_client(create_app(store=InMemoryEventStore(clock=clock))), settings)


def deal_body(fixed: dict | None = None) -> dict:
    hands = [list(h) for h in stacked_deal(fixed or {}, "2")]
    return {"hands": hands, "markedCard": hands[0][0], "firstLeader": 0}


# --- GD-1.1, GD-8.2, GD-8.4, GD-12: the deal ---------------------------------------------------

def test_gd_1_1_a_deal_that_is_not_exactly_two_decks():
    table, deal = new_table(), deal_body()
    replaced = deal["hands"][0][5]
    deal["hands"][0][5] = "BJ" if "BJ" not in deal["hands"][0] else "SJ"
    problem = table.rejected("GDHandDealt", "GD-1.1", **deal)
    assert "not exactly two decks" in problem["detail"] and f"missing {replaced}" in problem["detail"]
    assert table.match()["current_hand"] is None


def test_gd_8_4_every_player_draws_27_cards():
    table, deal = new_table(), deal_body()
    deal["hands"][1].append(deal["hands"][0].pop())
    problem = table.rejected("GDHandDealt", "GD-8.4", **deal)
    assert "seat 0 holds 26 cards; every player draws 27" in problem["detail"]


def test_gd_8_2_the_first_hand_records_the_draw_for_the_lead():
    table, deal = new_table(), deal_body()
    table.rejected("GDHandDealt", "GD-8.2", hands=deal["hands"])
    someone_elses = next(c for c in deal["hands"][3] if c not in deal["hands"][0])
    problem = table.rejected("GDHandDealt", "GD-8.2", hands=deal["hands"],
                             markedCard=someone_elses, firstLeader=0)
    assert f"does not hold the marked card {someone_elses}" in problem["detail"]


@pytest.mark.parametrize("card", ["BJ", "SJ", "2H"])
def test_gd_8_2_a_joker_or_2h_turned_up_is_cut_again(card):
    table, deal = new_table(), deal_body({0: card})
    problem = table.rejected("GDHandDealt", "GD-8.2", hands=deal["hands"], markedCard=card,
                             firstLeader=0)
    assert "cut again" in problem["detail"]


def test_gd_8_2_later_hands_do_not_record_a_draw_for_the_lead():
    table = new_table()
    table.deal()
    table.steer([0, 2])
    deal = deal_body()
    problem = table.rejected("GDHandDealt", "GD-8.2", hand=2, **deal)
    assert "from hand 2 the tribute decides who leads" in problem["detail"]


def test_gd_12_hands_are_dealt_in_order_and_one_at_a_time():
    table = new_table()
    deal = deal_body()
    problem = table.rejected("GDHandDealt", "GD-12", hand=2, **deal)
    assert "the next hand to deal is hand 1, not 2" in problem["detail"]
    table.deal()
    problem = table.rejected("GDHandDealt", "GD-12", hand=2, hands=deal["hands"])
    assert "hand 1 is still being played" in problem["detail"]
    problem = table.rejected("Passed", "GD-12", hand=2, seat=1)
    assert "hand 2 has not been dealt" in problem["detail"]


def test_gd_12_events_of_other_games_are_not_events_of_a_guandan_match():
    table = new_table()
    table.deal()
    table.rejected("TrumpDeclared", "GD-12", seat=0, card="2S")
    table.rejected("CardsPlayed", "GD-12", seat=0, cards=[table.held(0)[-1]])
    table.rejected("LotsDrawn", "T-1.4", purpose="dealer", candidates=[0, 1], winner=0)


# --- GD-5.1, GD-5.2: turns ---------------------------------------------------------------------

def test_gd_5_1_the_drawer_of_the_marked_card_leads_hand_1():
    table = new_table()
    table.deal(leader=2)
    problem = table.rejected("GDCardsPlayed", "GD-5.1", seat=0, cards=[table.held(0)[0]])
    assert "it is seat 2's turn to lead, not seat 0's" in problem["detail"]
    table.ok("GDCardsPlayed", seat=2, cards=[table.held(2)[-1]])


def test_gd_5_2_out_of_turn_cards_not_held_and_a_leader_who_passes():
    table = new_table()
    table.deal({0: "3S 3D"}, leader=0)
    table.rejected("Passed", "GD-5.2", seat=0)  # the leader of a new trick must play
    problem = table.rejected("GDCardsPlayed", "GD-5.2", seat=0, cards=["BJ"])
    assert "seat 0 does not hold BJ" in problem["detail"]
    table.ok("GDCardsPlayed", seat=0, cards=["3S"])
    problem = table.rejected("GDCardsPlayed", "GD-5.2", seat=2, cards=[table.held(2)[0]])
    assert "it is seat 1's turn to play or pass" in problem["detail"]
    table.rejected("Passed", "GD-5.2", seat=3)
    table.ok("Passed", seat=1)


# --- GD-2.3, GD-2.4, GD-3.2, GD-3.4: combinations and readings -----------------------------------

LEADER = {0: "BJ BJ SJ 2H 2H TS JS QS KS 9S TD QH KD AC 3H 4H 5H 6H"}


@pytest.mark.parametrize("cards, wild_as, rule, words", [
    # bad input: a wildcard used as a joker (two wildcards cannot make the four jokers either)
    ("BJ BJ SJ 2H", None, "GD-2.3", "may stand for any card except a joker"),
    ("SJ 2H", ["SJ"], "GD-2.3", "may stand for any card except a joker"),
    # bad input: a straight of 6
    ("9S TD JS QH KD AC", None, "GD-3.4", "a straight has exactly five cards"),
    ("TS JS QS KS 2H", None, "GD-2.4", "state wildAs"),
    ("TS JS QS KS 2H", ["AS", "AH"], "GD-2.4", "names 2 card(s)"),
    ("9S TS JS QS KS", None, "GD-2.4", "cannot be read as a pair"),
    ("BJ SJ", None, "GD-3.4", "not a pair"),
    ("3H 4H 5H", None, "GD-3.4", "not a combination"),
])
def test_gd_combinations_that_are_not_allowed(cards, wild_as, rule, words):
    table = new_table()
    table.deal(LEADER, leader=0)
    data = {"seat": 0, "cards": cards.split()}
    if wild_as is not None:
        data["wildAs"] = wild_as
    if words.startswith("cannot be read as"):
        data["readAs"] = "pair"
    problem = table.rejected("GDCardsPlayed", rule, **data)
    assert words in problem["detail"]


@pytest.mark.parametrize("read_as, wild_as, reading", [
    (None, None, {"type": "straightFlush", "rank": "K", "wildAs": []}),  # unread: a bomb
    ("straight", None, {"type": "straight", "rank": "K", "wildAs": []}),
    ("straightFlush", None, {"type": "straightFlush", "rank": "K", "wildAs": []}),
])
def test_gd_3_2_a_run_of_one_suit_is_a_plain_straight_when_the_reading_says_so(
        read_as, wild_as, reading):
    """Seed: 「顺子：五张连续单牌…不分花色」 — five consecutive cards of one suit may be played as
    a plain straight (``readAs``); without a stated reading they are a straight flush."""
    table = new_table()
    table.deal({**LEADER, 1: "TD JD QD KD AD"}, leader=0)
    data = {"seat": 0, "cards": ["9S", "TS", "JS", "QS", "KS"]}
    if read_as:
        data["readAs"] = read_as
    table.ok("GDCardsPlayed", **data)
    assert table.hand_view()["top"]["reading"] == reading
    if read_as == "straight":  # a straight is beaten by a higher straight, no bomb needed
        table.ok("GDCardsPlayed", seat=1, cards=["TD", "JD", "QD", "KD", "AD"],
                 readAs="straight")
    else:
        table.rejected("GDCardsPlayed", "GD-4.2", seat=1, cards=["TD", "JD", "QD", "KD", "AD"],
                       readAs="straight")


def test_gd_3_2_a_stated_wildcard_reading_can_make_hearts_a_plain_straight():
    table = new_table()
    table.deal(LEADER, leader=0)
    table.ok("GDCardsPlayed", seat=0, cards=["3H", "4H", "5H", "6H", "2H"], wildAs=["7C"])
    assert table.hand_view()["top"]["reading"] == {"type": "straight", "rank": "7",
                                                   "wildAs": ["7C"]}


def test_gd_2_4_a_stated_reading_makes_the_same_cards_legal():
    table = new_table()
    table.deal(LEADER, leader=0)
    table.ok("GDCardsPlayed", seat=0, cards=["TS", "JS", "QS", "KS", "2H"], wildAs=["AS"])
    top = table.hand_view()["top"]
    assert top["reading"] == {"type": "straightFlush", "rank": "A", "wildAs": ["AS"]}


# --- GD-4.2, GD-4.3: beating the table -----------------------------------------------------------

BEATING = {0: "9S 9D 9C 9H 7S 7D", 1: "8S 8D 8C 8H 6S 6D 9S 9D 9C 9H"}


@pytest.mark.parametrize("lead, play, rule, words", [
    ("7S 7D", "6S 6D", "GD-4.2", "its key must be higher"),
    ("7S 7D", "8S", "GD-4.2", "only the same type with as many cards"),
    ("9S 9D 9C 9H", "6S 6D", "GD-4.2", "only a higher bomb beats a bomb"),
    ("9S 9D 9C 9H", "8S 8D 8C 8H", "GD-4.3", "higher on the bomb ladder"),
    ("9S 9D 9C 9H", "9S 9D 9C 9H", "GD-4.3", "equal is not enough"),
])
def test_gd_4_plays_that_do_not_beat_the_table(lead, play, rule, words):
    table = new_table()
    table.deal(BEATING, leader=0)
    table.ok("GDCardsPlayed", seat=0, cards=lead.split())
    problem = table.rejected("GDCardsPlayed", rule, seat=1, cards=play.split())
    assert words in problem["detail"]
    table.ok("Passed", seat=1)


# --- GD-5.4, GD-5.6: out of the hand ---------------------------------------------------------

def test_gd_5_4_a_player_who_has_finished_plays_no_more():
    table = new_table()
    table.deal()
    table.steer([0, 1, 2], until_out=0)
    view = table.hand_view()
    assert view["seats"][0]["out"] and view["seats"][0]["place"] == 1
    problem = table.rejected("GDCardsPlayed", "GD-5.4", seat=0, cards=[table.held(1)[0]])
    assert "seat 0 went out 1st" in problem["detail"]
    table.rejected("Passed", "GD-5.4", seat=0)


def test_gd_5_6_no_play_after_the_hand_is_over():
    table = new_table()
    table.deal()
    table.steer([1, 3])
    problem = table.rejected("Passed", "GD-5.6", seat=0)
    assert "hand 1 is over: both players of team B are out" in problem["detail"]
    table.rejected("GDCardsPlayed", "GD-5.6", seat=2, cards=[table.held(2)[0]])


# --- GD-7: tribute and return ------------------------------------------------------------------

def single_down(fixed: dict, settings: dict | None = None, low_seats=(2,),
                phase: str = "tribute") -> Table:
    """Hand 1 goes 1, 0, 3 (team B 1st and 3rd: +2, B at 4); hand 2 is dealt at level 4 with
    ``fixed``: seat 2 (last) owes seat 1 his highest card."""
    table = new_table(settings)
    view = table.to_hand(fixed, previous=[1, 0, 3], low_seats=low_seats)
    assert (view["level"], view["tribute"]["case"], view["phase"]) == ("4", "single", phase)
    assert (view["tribute"]["payers"], view["tribute"]["receivers"]) == ([2], [1])
    return table


def test_gd_7_6_a_wildcard_is_never_tribute():
    table = single_down({2: "4H 4H BJ 3C"})
    problem = table.rejected("TributePaid", "GD-7.6", seat=2, card="4H")  # bad input
    assert "4H, a heart level card; those are never paid as tribute" in problem["detail"]
    table.ok("TributePaid", seat=2, card="BJ")


def test_gd_7_1_and_7_2_who_pays_and_which_card():
    table = single_down({2: "BJ 3C"})
    table.rejected("TributePaid", "GD-7.1", seat=0, card=table.held(0)[0])
    problem = table.rejected("TributePaid", "GD-7.2", seat=2, card="3C")
    assert "must pay his highest card other than a heart level card (BJ), not 3C" in \
        problem["detail"]
    problem = table.rejected("TributePaid", "GD-7.2", seat=2, card="SJ")
    assert "does not hold SJ" in problem["detail"]
    table.rejected("GDCardsPlayed", "GD-5.1", seat=2, cards=["3C"])  # play has not begun
    table.ok("TributePaid", seat=2, card="BJ")
    table.rejected("TributePaid", "GD-7.1", seat=2, card="3C")


def test_gd_7_4_the_return_card_of_a_single_down():
    table = single_down({1: "JD 4D 6D", 2: "BJ"})
    table.ok("TributePaid", seat=2, card="BJ")
    problem = table.rejected("TributeReturned", "GD-7.4", seat=1, card="JD")  # bad input: > 10
    assert "must return a card of 10 or lower" in problem["detail"] and "not JD" in \
        problem["detail"]
    problem = table.rejected("TributeReturned", "GD-7.4", seat=1, card="BJ")
    assert "must return a card of 10 or lower" in problem["detail"]
    table.rejected("TributeReturned", "GD-7.4", seat=3, card=table.held(3)[0])
    table.ok("TributeReturned", seat=1, card="6D")
    # GD-7.7: the payer leads
    problem = table.rejected("GDCardsPlayed", "GD-7.7", seat=1, cards=["JD"])
    assert "it is seat 2's turn to lead" in problem["detail"]
    table.ok("GDCardsPlayed", seat=2, cards=["6D"])


def test_gd_7_4_by_the_seed_any_card_of_ten_or_lower_returns_level_cards_and_tens_included():
    """Seed: 「头游还一张 10（含）以下的任意牌」 — natural rank 2-10, a level card (level 4) too."""
    for card in ("4D", "TD"):
        table = single_down({1: "JD 4D TD", 2: "BJ"})
        table.ok("TributePaid", seat=2, card="BJ")
        table.ok("TributeReturned", seat=1, card=card)
        assert card in table.held(2)


def test_gd_7_4_the_tribute_card_itself_may_go_back_when_it_is_ten_or_lower():
    table = single_down({2: "9D"})  # seat 2's highest card is 9D: he pays it to seat 1
    table.ok("TributePaid", seat=2, card="9D")
    table.ok("TributeReturned", seat=1, card="9D")  # returnMayBeTributeCard (seed: 任意牌)
    assert "9D" in table.held(2)


def test_gd_7_5_no_tribute_against_both_big_jokers_in_auto_mode():
    table = single_down({2: "BJ BJ"}, {"antiTributeMode": "auto"}, phase="playing")
    view = table.hand_view()
    assert view["phase"] == "playing" and view["tribute"]["anti_tribute"] == [2]
    assert view["first_leader"] == 1 and view["turn"] == 1
    problem = table.rejected("TributePaid", "GD-7.5", seat=2, card="BJ")
    assert "no tribute is paid this hand" in problem["detail"]


def test_gd_7_5_anti_tribute_is_the_losers_option_by_default():
    table = single_down({2: "BJ BJ"})  # 「可抗贡」: the payer may show them, or pay
    table.ok("AntiTributeDeclared", seat=2)
    view = table.hand_view()
    assert (view["phase"], view["tribute"]["anti_tribute"], view["first_leader"]) == \
        ("playing", [2], 1)


def test_gd_7_5_an_optional_anti_tribute_needs_both_big_jokers():
    table = single_down({2: "BJ 3C"}, settings={"antiTributeMode": "optional"})
    problem = table.rejected("AntiTributeDeclared", "GD-7.5", seat=2)
    assert "GD-7.5 does not hold" in problem["detail"]
    table.rejected("AntiTributeDeclared", "GD-7.5", seat=0)  # not a payer


def test_gd_7_5_a_refused_anti_tribute_does_not_tell_the_partners_big_jokers():
    table = new_table()
    table.to_hand({1: "BJ SJ SJ", 3: "3C"}, previous=[0, 2], low_seats=(3,))  # double down
    for seat in (1, 3):
        problem = table.rejected("AntiTributeDeclared", "GD-7.5", seat=seat)
        assert "holds" not in problem["detail"] and "seat 1" not in problem["detail"]
        assert problem["detail"] == ("GD-7.5: GD-7.5 does not hold: anti-tribute needs both big "
                                     "jokers with the payer(s)")


def test_gd_7_5_a_payer_may_declare_anti_tribute_after_his_partner_has_paid():
    table = new_table()
    table.to_hand({3: "BJ BJ"}, previous=[0, 2])  # double down: seats 1 and 3 pay
    paid = table.hand_view()["seats"][1]["cards"][0]  # his highest card
    table.ok("TributePaid", seat=1, card=paid)
    table.ok("AntiTributeDeclared", seat=3)
    view = table.hand_view()
    assert (view["phase"], view["tribute"]["anti_tribute"], view["tribute"]["paid"]) == \
        ("playing", [3], [])
    assert paid in view["seats"][1]["cards"] and view["first_leader"] == 0
    table.rejected("AntiTributeDeclared", "GD-7.5", seat=1)  # too late: play has begun


def test_gd_7_3_an_assignment_is_chosen_only_when_the_winners_choose():
    table = new_table({"equalTributeAssignment": "winnersChoose"})
    # hand 1: 1, 3 out first (team B double down, +3 → 5); seats 2 and 0 pay an A each
    table.to_hand({0: "AS 3C", 2: "AD 3D"}, previous=[1, 3], low_seats=(0, 2))
    table.ok("TributePaid", seat=2, card="AD")
    table.rejected("TributeAssigned", "GD-7.3", seat=1, toFirst=2)  # not all tributes in
    table.ok("TributePaid", seat=0, card="AS")
    assert table.hand_view()["tribute"]["awaiting_assignment"] is True
    problem = table.rejected("TributeAssigned", "GD-7.3", seat=0, toFirst=2)
    assert "seat 0 is not a winner" in problem["detail"]
    table.ok("TributeAssigned", seat=1, toFirst=0)
    assert {p["seat"]: p["to"] for p in table.hand_view()["tribute"]["paid"]} == {0: 1, 2: 3}


def test_gd_7_3_no_assignment_to_choose_by_default():
    table = single_down({2: "BJ 3C"})
    table.rejected("TributeAssigned", "GD-7.3", seat=1, toFirst=2)


# --- GD-10.1, GD-11: the match -------------------------------------------------------------

def test_gd_11_2_the_time_limits_come_in_order():
    clock = Clock()
    table = new_table(clock=clock)
    table.deal()
    clock.advance(120)
    problem = table.rejected("TimeLimitReached", "GD-11.2", limit_minutes=90)
    assert "the next time limit is at 60 minutes" in problem["detail"]
    table.ok("TimeLimitReached", limit_minutes=60)  # 2 : 2, overtime
    problem = table.rejected("TimeLimitReached", "GD-11.2", limit_minutes=60)
    assert "the next time limit is at 90 minutes" in problem["detail"]


def test_gd_11_2_a_limit_before_its_time_is_refused():
    table = new_table()  # the system clock: 60 minutes have not passed since the start
    table.deal()
    problem = table.rejected("TimeLimitReached", "GD-11.2", limit_minutes=60)
    assert "T-5.4: the 60 minutes from the match's start end at" in problem["detail"]


def test_gd_11_1_nothing_follows_the_end_of_the_match():
    clock = Clock()
    table = new_table(clock=clock)
    table.deal()
    table.steer([1, 3])  # B at 5, A at 2
    clock.advance(60)
    table.ok("TimeLimitReached", limit_minutes=60)
    match = table.match()
    assert (match["status"], match["winner"], match["reason"]) == ("completed", "B", "time")
    problem = table.rejected("GDHandDealt", "GD-11.1", hand=2, hands=deal_body()["hands"])
    assert "the match is over: side B won" in problem["detail"]
    table.rejected("TimeLimitReached", "GD-11.1", limit_minutes=90)
    table.rejected("LevelPenaltyAssessed", "GD-11.1", rule="GD-10.1", side="B", levels=1)


def test_gd_10_1_a_disqualification_names_a_side():
    table = new_table()
    table.rejected("RulingRecorded", "GD-10.1", text="取消成绩", effect={"kind": "disqualify"})
    table.rejected("RulingRecorded", "GD-10.1", text="取消成绩",
                   effect={"kind": "disqualify", "side": "C"})


# --- GD section 14: settings, at POST …/matches ------------------------------------------------

@pytest.mark.parametrize("settings, rule", [
    ({"maxHands": 12}, "GD-14"),               # an SJ2 setting
    ({"enforcement": "lenient"}, "GD-14"),
    ({"antiTributeMode": "never"}, "GD-7.5"),
    ({"aFailuresBeforeReset": 0}, "GD-6.4"),
    ({"matchMinutes": "60"}, "GD-11.2"),
])
def test_gd_14_match_settings_are_checked_when_the_match_starts(settings, rule):
    client = new_client()
    drawn_knockout(client)
    response = client.post(f"/v1/tournaments/{TID}/matches",
                           json={"match_id": "R1-1", "settings": settings})
    assert response.status_code == 422, response.json
    assert response.json["rule"] == rule
    assert client.get(f"/v1/tournaments/{TID}/matches/R1-1").status_code == 404


def test_t_1_2_a_guandan_entrant_is_a_pair():
    client = new_client()
    ok(client.post("/v1/tournaments", json={"tournament_id": TID, "name": "掼蛋", "game": "GD",
                                            "format": "knockout"}))
    response = client.post(f"/v1/tournaments/{TID}/events", json={
        "type": "TeamRegistered", "stream": f"tournament-{TID}",
        "data": {"team_id": "solo", "name": "一人", "players": ["张三"]}})
    assert response.status_code == 422 and response.json["rule"] == "T-1.2"


# --- 400: malformed data and derived facts ---------------------------------------------------

def test_malformed_guandan_data_is_a_400_naming_the_field():
    table = new_table()
    table.deal()
    problem = table.bad("GDCardsPlayed", seat=0, cards=["10H"])
    assert problem["errors"][0]["path"] == "/data/cards/0"
    problem = table.bad("GDCardsPlayed", seat=4, cards=["3S"])
    assert problem["errors"][0]["path"] == "/data/seat"
    problem = table.bad("GDCardsPlayed", seat=0, cards=[])
    assert problem["errors"][0]["path"] == "/data/cards"
    problem = table.bad("TributePaid", seat=0)
    assert problem["errors"][0]["path"] == "/data/card"
    problem = table.bad("LevelPenaltyAssessed", rule="GD-10.1", side="A", levels="1")
    assert problem["errors"][0]["path"] == "/data/levels"


@pytest.mark.parametrize("fact", ["TrickEnded", "PlayerFinished", "ReturnsRevealed",
                                  "AntiTribute", "HandCompleted", "GameWon"])
def test_derived_guandan_facts_cannot_be_posted(fact):
    table = new_table()
    problem = table.bad(fact)
    assert problem["errors"][0]["path"] == "/type"
    assert "derived fact" in problem["errors"][0]["message"]


# --- T-5.5: the card draw of seed 001's field (16-20 teams, T-11 Ex 1) ---------------------------

def register(client, tid: str, n: int) -> None:
    ok(client.post("/v1/tournaments", json={"tournament_id": tid, "name": "掼蛋", "game": "GD",
                                            "format": "knockout"}))
    ok(client.post(f"/v1/tournaments/{tid}/events", json={"events": [
        {"type": "TeamRegistered", "stream": f"tournament-{tid}",
         "data": {"team_id": f"t{i}", "name": f"t{i}", "players": [f"a{i}", f"b{i}"]}}
        for i in range(n)]}))


@pytest.mark.parametrize("n", [17, 20])
def test_t5_5_seventeen_to_twenty_teams_are_drawn_with_cards(n):
    client = new_client()
    register(client, "gd20", n)
    response = client.post("/v1/tournaments/gd20/draws", json={"method": "cards"})
    assert response.status_code == 201, response.json
    data = response.json["data"]
    assert (len(data["matches"]), len(data["byes"])) == (n - 16, 32 - n)
    for m in data["matches"]:
        a, b = m["teams"]
        assert data["cards"][a][0] == data["cards"][b][0]
    assert len([t for t in data["byes"] if t not in data["cards"]]) == 32 - n - (13 - (n - 16))


def test_t5_5_a_drawn_card_must_be_a_card():
    client = new_client()
    register(client, "gdx", 2)
    before = len(client.get("/v1/tournaments/gdx/events?limit=1000").json["events"])
    response = client.post("/v1/tournaments/gdx/events", json={
        "type": "LotsDrawn", "stream": "tournament-gdx", "data": {
            "purpose": "pairing", "round": 1, "byes": [], "cards": {"t0": "ZZ", "t1": "ZZ"},
            "matches": [{"match_id": "R1-1", "teams": ["t0", "t1"]}]}})
    assert response.status_code == 422 and response.json["rule"] == "T-5.5"
    assert "not a card" in response.json["detail"]
    assert len(client.get("/v1/tournaments/gdx/events?limit=1000").json["events"]) == before
