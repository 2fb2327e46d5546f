"""Every "must" rule of SJ2 through the HTTP API: an event that breaks it is refused with 422
problem+json naming the rule, and nothing is stored (shared/rules/shengji-2deck.md; rules
README §5 "Rejection"). Bad input — malformed cards, seats, derived event types — is a 400
naming the field. Hand 1 is played at level 2: every 2 is trump.

``Table.rejected`` checks the status, the media type, the rule and that the log did not grow."""
from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from clients import admin_client
from sj2_table import TID, Table, build_deal, drawn_knockout, ok

from events.memory_store import InMemoryEventStore
from service import create_app


def new_client():
    return admin_client(create_app(store=InMemoryEventStore()))


def new_table(settings: dict | None = None) -> Table:
    return Table(new_client(), settings)


def held(table: Table, seat: int) -> list[str]:
    return table.hand_view()["seats"][seat]["cards"]


# --- SJ2-1: the deal --------------------------------------------------------------------------

def _deal_body() -> dict:
    dealt = build_deal({}, seed=3)
    return {"hands": [list(h) for h in dealt["hands"]], "kitty": list(dealt["kitty"])}


def test_sj2_1_1_a_card_three_times_is_not_two_decks():
    table, deal = new_table(), _deal_body()
    extra = next(c for c in deal["hands"][1] if c != deal["hands"][0][0])
    replaced, deal["hands"][0][0] = deal["hands"][0][0], extra
    problem = table.rejected("HandDealt", "SJ2-1.1", **deal)
    assert f"{extra} ×3 (the decks hold 2)" in problem["detail"]
    assert f"missing {replaced}" in problem["detail"]
    assert table.match()["current_hand"] is None


def test_sj2_1_1_a_card_missing_from_the_decks():
    table, deal = new_table(), _deal_body()
    # the kitty's last card is swapped for a big joker: 3 BJ are dealt and that card is missing
    gone = deal["kitty"][-1]
    assert gone != "BJ"
    deal["kitty"][-1] = "BJ"
    problem = table.rejected("HandDealt", "SJ2-1.1", **deal)
    assert problem["detail"].endswith(f"missing {gone}")
    assert "BJ ×3" in problem["detail"]


def test_sj2_1_3_twenty_six_cards_to_a_seat():
    table, deal = new_table(), _deal_body()
    deal["hands"][2].append(deal["kitty"].pop())
    problem = table.rejected("HandDealt", "SJ2-1.3", **deal)
    assert "seat 2 is dealt 26 cards; each player receives 25" in problem["detail"]


def test_sj2_1_3_a_seven_card_kitty():
    table, deal = new_table(), _deal_body()
    deal["kitty"].pop()
    problem = table.rejected("HandDealt", "SJ2-1.3", **deal)
    assert "the kitty is dealt 7 cards; it holds 8" in problem["detail"]


# --- SJ2-4: declaring and overcalling ----------------------------------------------------------

@pytest.mark.parametrize("card", ["3S", "BJ", "AH"])
def test_sj2_4_1_declaring_a_card_that_is_not_a_level_card(card):
    table = new_table()
    table.deal({0: f"2S {card}"})
    problem = table.rejected("TrumpDeclared", "SJ2-4.1", seat=0, card=card)
    assert f"{card} is not a level card" in problem["detail"]
    table.ok("TrumpDeclared", seat=0, card="2S")  # the level card he holds is fine


def test_sj2_4_1_declaring_a_level_card_not_held():
    table = new_table()
    table.deal({0: "2S 2S"})  # both 2S are seat 0's
    problem = table.rejected("TrumpDeclared", "SJ2-4.1", seat=1, card="2S")
    assert "does not hold 2S" in problem["detail"]


def test_sj2_4_1_declaring_while_a_declaration_stands():
    table = new_table()
    table.deal({0: "2S", 1: "2H"})
    table.ok("TrumpDeclared", seat=0, card="2S")
    problem = table.rejected("TrumpDeclared", "SJ2-4.1", seat=1, card="2H")
    assert "seat 0's declaration already stands" in problem["detail"]
    assert table.hand_view()["bidding"]["standing"]["seat"] == 0


def test_sj2_4_2_lots_must_name_the_simultaneous_declarers():
    table = new_table()
    table.deal({0: "2S", 1: "2H", 2: "2D 2D"})
    table.ok("TrumpDeclared", seat=0, card="2S")
    table.ok("TrumpDeclared", seat=1, card="2H", simultaneous=True)
    assert table.hand_view()["bidding"]["lots_pending"] is True
    # drawing is paused: nothing else may be declared until the lots
    table.rejected("TrumpOvercalled", "SJ2-4.2", seat=2, cards=["2D", "2D"])
    problem = table.rejected("LotsDrawn", "SJ2-4.2", purpose="declaration",
                             candidates=[0, 2], winner=0)
    assert "[0, 1]" in problem["detail"]
    table.rejected("LotsDrawn", "SJ2-4.2", purpose="declaration", candidates=[0, 1], winner=3)
    table.ok("LotsDrawn", purpose="declaration", candidates=[0, 1], winner=1)
    bidding = table.hand_view()["bidding"]
    assert (bidding["standing"]["seat"], bidding["standing"]["suit"]) == (1, "H")
    assert bidding["first_declarer"] == 1 and not bidding["lots_pending"]


def test_sj2_4_3_overcall_with_two_different_cards():
    table = new_table()
    table.deal({0: "2S", 1: "2H 2D"})
    table.ok("TrumpDeclared", seat=0, card="2S")
    problem = table.rejected("TrumpOvercalled", "SJ2-4.3", seat=1, cards=["2H", "2D"])
    assert "pair of two identical cards" in problem["detail"]


def test_sj2_4_3_overcall_with_a_pair_that_is_not_level_cards_or_jokers():
    table = new_table()
    table.deal({0: "2S", 1: "AH AH"})
    table.ok("TrumpDeclared", seat=0, card="2S")
    table.rejected("TrumpOvercalled", "SJ2-4.3", seat=1, cards=["AH", "AH"])


def test_sj2_4_3_overcall_when_nothing_stands():
    table = new_table()
    table.deal({1: "2H 2H"})
    problem = table.rejected("TrumpOvercalled", "SJ2-4.3", seat=1, cards=["2H", "2H"])
    assert "nothing has been declared yet" in problem["detail"]


def test_sj2_4_3_overcall_with_a_pair_not_held():
    table = new_table()
    table.deal({0: "2S", 1: "2H", 3: "2H"})
    table.ok("TrumpDeclared", seat=0, card="2S")
    table.rejected("TrumpOvercalled", "SJ2-4.3", seat=1, cards=["2H", "2H"])


def test_sj2_4_4_a_level_pair_cannot_overcall_no_trump_with_the_setting_off():
    table = new_table({"ntOvercallableByLevelPair": False})
    table.deal({0: "2S", 1: "SJ SJ", 2: "2H 2H", 3: "BJ BJ"})
    table.ok("TrumpDeclared", seat=0, card="2S")
    table.ok("TrumpOvercalled", seat=1, cards=["SJ", "SJ"])
    problem = table.rejected("TrumpOvercalled", "SJ2-4.4", seat=2, cards=["2H", "2H"])
    assert "only a pair of identical jokers" in problem["detail"]
    table.ok("TrumpOvercalled", seat=3, cards=["BJ", "BJ"])  # a joker pair may: still no-trump
    bidding = table.hand_view()["bidding"]
    assert bidding["no_trump"] and bidding["standing"]["seat"] == 3


def test_sj2_4_5_no_self_overcall():
    table = new_table()
    table.deal({0: "2S 2H 2H", 2: "2D 2D"})
    table.ok("TrumpDeclared", seat=0, card="2S")
    problem = table.rejected("TrumpOvercalled", "SJ2-4.5", seat=0, cards=["2H", "2H"])
    assert "seat 0's own declaration stands" in problem["detail"]
    table.ok("TrumpOvercalled", seat=2, cards=["2D", "2D"])  # his partner may (Interpretation)
    table.ok("TrumpOvercalled", seat=0, cards=["2H", "2H"])  # and once overcalled, so may he


def test_sj2_4_6_first_declarer_may_return_to_his_suit():
    table = new_table()
    table.deal({0: "2H 2H", 1: "2S 2S"})
    table.ok("TrumpDeclared", seat=0, card="2H")
    table.ok("TrumpOvercalled", seat=1, cards=["2S", "2S"])
    table.ok("TrumpOvercalled", seat=0, cards=["2H", "2H"])  # includes the card shown first
    standing = table.hand_view()["bidding"]["standing"]
    assert (standing["seat"], standing["cards"], standing["suit"]) == (0, ["2H", "2H"], "H")


def test_sj2_4_6_no_return_to_the_first_suit_after_no_trump():
    table = new_table({"ntOvercallableByLevelPair": True})
    table.deal({0: "2H 2H", 1: "SJ SJ", 2: "2D 2D"})
    table.ok("TrumpDeclared", seat=0, card="2H")
    table.ok("TrumpOvercalled", seat=1, cards=["SJ", "SJ"])
    problem = table.rejected("TrumpOvercalled", "SJ2-4.6", seat=0, cards=["2H", "2H"])
    assert "may not return to his original suit" in problem["detail"]
    # with the setting another level pair may overcall no-trump …
    table.ok("TrumpOvercalled", seat=2, cards=["2D", "2D"])
    # … but the first declarer still may not go back to hearts: the hand has been no-trump
    table.rejected("TrumpOvercalled", "SJ2-4.6", seat=0, cards=["2H", "2H"])


def test_sj2_4_8_overcalls_stand_until_the_kitty_is_taken_even_after_the_close():
    """Seed rule 4: 「一方反牌后，继续等待15秒，其他人可以继续反牌；庄家拿起底牌后，任何人不得再反牌」 —
    the 15 s are the least wait before the dealer may take the kitty, not a cut-off."""
    table = new_table()
    table.deal({0: "2S", 1: "2H 2H", 2: "BJ BJ"})
    table.ok("TrumpDeclared", seat=0, card="2S")
    table.ok("DealCompleted")
    table.ok("DeclarationWindowClosed")
    assert (table.hand_view()["dealer"], table.hand_view()["trump"]["suit"]) == (0, "S")
    table.rejected("TrumpDeclared", "SJ2-4.7", seat=1, card="2H")  # declarations have closed
    table.ok("TrumpOvercalled", seat=1, cards=["2H", "2H"])  # opens the window again
    view = table.hand_view()
    assert (view["phase"], view["dealer"], view["trump"]) == ("declaring", None, None)
    table.rejected("KittyTaken", "SJ2-4.8")
    table.ok("DeclarationWindowClosed")
    assert (table.hand_view()["dealer"], table.hand_view()["trump"]["suit"]) == (1, "H")
    table.ok("KittyTaken")
    problem = table.rejected("TrumpOvercalled", "SJ2-4.8", seat=2, cards=["BJ", "BJ"])
    assert "taken the kitty" in problem["detail"]


def test_sj2_4_7_no_declaration_after_the_deadline():
    table = new_table()  # declarationWindowSeconds 0: the deadline is DealCompleted itself
    table.deal({0: "2S"})
    table.ok("DealCompleted")
    problem = table.rejected("TrumpDeclared", "SJ2-4.7", seat=0, card="2S")
    assert "the declaration window closed at" in problem["detail"]


def test_sj2_4_7_the_window_cannot_close_before_the_deadline():
    client = new_client()
    drawn_knockout(client, TID)  # no match settings: the default 15 s window
    ok(client.post(f"/v1/tournaments/{TID}/matches", json={"match_id": "R1-1"}))
    table = Table.attach(client, TID)
    assert table.match()["settings"]["declarationWindowSeconds"] == 15
    table.deal({0: "2S"})
    table.ok("TrumpDeclared", seat=0, card="2S")
    table.ok("DealCompleted")
    problem = table.rejected("DeclarationWindowClosed", "SJ2-4.7")
    assert "stays open until" in problem["detail"]
    assert table.hand_view()["phase"] == "declaring"


def test_sj2_4_8_no_kitty_while_the_window_is_open():
    table = new_table()
    table.deal({0: "2S"})
    table.ok("TrumpDeclared", seat=0, card="2S")
    table.rejected("KittyTaken", "SJ2-4.8")  # before DealCompleted
    table.ok("DealCompleted")
    problem = table.rejected("KittyTaken", "SJ2-4.8")  # the timer has not closed it yet
    assert "still open" in problem["detail"]


def test_sj2_ex8_declaration_war():
    """Ex 8 at level 2 with the default 15 s window (the clock cannot be moved here, so the
    window is still open at the end: taking the kitty and closing are refused)."""
    client = new_client()
    drawn_knockout(client, TID)
    ok(client.post(f"/v1/tournaments/{TID}/matches", json={"match_id": "R1-1"}))
    table = Table.attach(client, TID)
    table.deal({1: "2S 2S 2D 2D BJ BJ", 2: "2H 2H", 3: "SJ SJ"})
    table.ok("TrumpDeclared", seat=2, card="2H")
    table.ok("TrumpOvercalled", seat=1, cards=["2S", "2S"])
    table.ok("DealCompleted")
    table.rejected("TrumpOvercalled", "SJ2-4.5", seat=1, cards=["2D", "2D"])
    table.ok("TrumpOvercalled", seat=2, cards=["2H", "2H"])  # SJ2-4.6: back to hearts
    assert table.hand_view()["bidding"]["standing"]["suit"] == "H"
    table.ok("TrumpOvercalled", seat=3, cards=["SJ", "SJ"])
    # the spec lists SJ2-4.4/4.6: by default (seed rule 4) it is the return that is barred
    table.rejected("TrumpOvercalled", "SJ2-4.6", seat=2, cards=["2H", "2H"])
    last = table.ok("TrumpOvercalled", seat=1, cards=["BJ", "BJ"])
    table.rejected("KittyTaken", "SJ2-4.8")
    table.rejected("DeclarationWindowClosed", "SJ2-4.7")
    bidding = table.hand_view()["bidding"]
    assert (bidding["standing"]["seat"], bidding["no_trump"], bidding["first_declarer"]) == (
        1, True, 2)
    assert [(b["seat"], b["suit"]) for b in bidding["history"]] == [
        (2, "H"), (1, "S"), (2, "H"), (3, None), (1, None)]
    # the deadline is the last accepted overcall + 15 s
    made = datetime.fromisoformat(last["recorded_at"])
    deadline = datetime.fromisoformat(bidding["deadline"])
    assert deadline - made == timedelta(seconds=15)


# --- SJ2-5.2: no declaration in hand 1 -----------------------------------------------------

@pytest.mark.parametrize("card_3, suit", [("QD", "D"), ("SJ", None)])
def test_sj2_5_2_dealer_lots_must_be_among_the_four_seats(card_3, suit):
    """By default (seed rule 4: with no declaration kitty card #3 is trump, hand 1 included)
    lots pick the dealer and kitty card #3 fixes trump (SJ2-4.9, Ex 9: a joker there makes the
    hand no-trump)."""
    table = new_table()
    table.deal({0: "2C"}, kitty=f"3C 4C {card_3} 5S 6S 7S 8S 9S")
    table.ok("DealCompleted")
    table.ok("DeclarationWindowClosed")
    assert table.hand_view()["phase"] == "awaiting_dealer"
    problem = table.rejected("LotsDrawn", "SJ2-5.2", purpose="dealer", candidates=[0, 1, 2],
                             winner=0)
    assert "all four seats" in problem["detail"]
    table.rejected("KittyTaken", "SJ2-16")  # no dealer yet
    table.ok("LotsDrawn", purpose="dealer", candidates=[0, 1, 2, 3], winner=3)
    view = table.hand_view()
    assert (view["dealer"], view["phase"]) == (3, "kitty")
    assert view["trump"] == {"level": "2", "suit": suit, "no_trump": suit is None,
                             "source": "kitty3"}
    assert table.hand_view(view="public")["kitty"]["card_3"] == card_3  # turned up for all
    table.rejected("TrumpDeclared", "SJ2-4.9", seat=0, card="2C")  # no later declaration


def test_sj2_5_2_hand_one_without_declaration_is_redealt_with_the_setting():
    table = new_table({"firstHandNoDeclaration": "redeal"})
    table.deal({})
    table.ok("DealCompleted")
    table.ok("DeclarationWindowClosed")
    view = table.hand_view()
    assert (view["phase"], view["void_reason"]) == ("voided", "noDeclarationFirstHand")
    table.rejected("KittyTaken", "SJ2-16")
    table.deal({0: "2S"}, seed=8)  # hand 1 is dealt again
    assert table.hand_view()["phase"] == "declaring"


# --- SJ2-6.1: the kitty -------------------------------------------------------------------------

@pytest.mark.parametrize("count", [7, 9])
def test_sj2_6_1_the_dealer_buries_exactly_eight_cards(count):
    table = new_table()
    table.deal({0: "2S"})
    table.ok("TrumpDeclared", seat=0, card="2S")
    table.ok("DealCompleted")
    table.ok("DeclarationWindowClosed")
    table.ok("KittyTaken")
    cards = held(table, 0)
    assert len(cards) == 33
    problem = table.rejected("KittyBuried", "SJ2-6.1", cards=cards[:count])
    assert f"exactly 8 cards, not {count}" in problem["detail"]
    table.ok("KittyBuried", cards=cards[:8])
    assert len(held(table, 0)) == 25


# --- SJ2-8: leading ------------------------------------------------------------------------------

def test_sj2_8_1_lead_out_of_turn():
    table = new_table()
    table.to_play({0: "2S"}, card="2S")
    problem = table.rejected("CardsPlayed", "SJ2-8.1", seat=1, cards=[held(table, 1)[0]])
    assert "it is seat 0's turn to lead, not seat 1's" in problem["detail"]


def test_sj2_8_1_the_trick_winner_leads_next():
    table = new_table()
    # seat 0 leads 3C, seat 1 wins with AC; seats 2 and 3 hold one club each
    table.to_play({0: "2S 3C", 1: "AC", 2: "4C", 3: "4C"}, card="2S", no={2: "C", 3: "C"})
    for seat, card in ((0, "3C"), (1, "AC"), (2, "4C"), (3, "4C")):
        table.ok("CardsPlayed", seat=seat, cards=[card])
    assert table.hand_view()["tricks"][0]["winner"] == 1
    table.rejected("CardsPlayed", "SJ2-8.1", seat=0, cards=[held(table, 0)[0]])


def test_sj2_8_2_a_lead_mixing_classes():
    table = new_table()
    table.to_play({0: "2S AH KD"}, card="2S")
    problem = table.rejected("CardsPlayed", "SJ2-8.2", seat=0, cards=["AH", "KD"])
    assert "mixes classes" in problem["detail"]
    table.rejected("CardsPlayed", "SJ2-8.2", seat=0, cards=["AH", "2S"])  # 2S is trump


# --- SJ2-9: following -----------------------------------------------------------------------------

def test_sj2_9_1_follow_with_the_wrong_number_of_cards():
    table = new_table()
    table.to_play({0: "2S QH QH"}, card="2S")
    table.ok("CardsPlayed", seat=0, cards=["QH", "QH"])
    cards = held(table, 1)
    problem = table.rejected("CardsPlayed", "SJ2-9.1", seat=1, cards=cards[:1])
    assert "must play exactly 2 cards" in problem["detail"]
    table.rejected("CardsPlayed", "SJ2-9.1", seat=1, cards=cards[:3])


def test_sj2_9_1_follow_out_of_turn():
    table = new_table()
    table.to_play({0: "2S QH"}, card="2S")
    table.ok("CardsPlayed", seat=0, cards=["QH"])
    problem = table.rejected("CardsPlayed", "SJ2-9.1", seat=2, cards=[held(table, 2)[0]])
    assert "it is seat 1's turn to play, not seat 2's" in problem["detail"]


EX3 = {0: "2S QH QH JH JH", 1: "9H 9H 8H 8H 6H 3H", 2: "KH KH 7H 4H 3H", 3: "5H 6S 6S 9S"}
EX3_NO = {1: "H", 2: "H", 3: "H"}  # no hearts but the fixed ones


def ex3_table(fixed=EX3) -> Table:
    """Ex 3 at level 2 (trump S): 2H is trump here, so 3H stands for the example's 2H."""
    table = new_table()
    table.to_play(fixed, card="2S", no=EX3_NO)
    table.ok("CardsPlayed", seat=0, cards=["QH", "QH", "JH", "JH"])
    return table


def test_sj2_9_4_must_follow_the_led_tractor():
    table = ex3_table()
    problem = table.rejected("CardsPlayed", "SJ2-9.4", seat=1, cards=["9H", "9H", "6H", "3H"])
    assert ("seat 1 holds the tractor 9H 9H 8H 8H in hearts and must play a tractor of 2 pairs "
            "to follow the led tractor QH QH JH JH") in problem["detail"]
    # two pairs that are not a tractor do not do either
    table.rejected("CardsPlayed", "SJ2-9.4", seat=1, cards=["9H", "9H", "6H", "3H"])
    table.ok("CardsPlayed", seat=1, cards=["9H", "9H", "8H", "8H"])


def test_sj2_9_3_must_follow_a_pair():
    table = ex3_table()
    table.ok("CardsPlayed", seat=1, cards=["9H", "9H", "8H", "8H"])
    problem = table.rejected("CardsPlayed", "SJ2-9.3", seat=2, cards=["KH", "7H", "4H", "3H"])
    assert ("seat 2 holds 1 pair in hearts (KH KH) and must play at least 1 pair to follow the "
            "2 pairs led; the play KH 7H 4H 3H contains 0") in problem["detail"]
    table.ok("CardsPlayed", seat=2, cards=["KH", "KH", "7H", "3H"])


def test_sj2_9_2_must_follow_the_led_class():
    table = ex3_table()
    table.ok("CardsPlayed", seat=1, cards=["9H", "9H", "8H", "8H"])
    table.ok("CardsPlayed", seat=2, cards=["KH", "KH", "7H", "4H"])
    others = [c for c in held(table, 3) if c != "5H"][:4]
    problem = table.rejected("CardsPlayed", "SJ2-9.2", seat=3, cards=others)
    assert ("seat 3 holds only 1 card in hearts (5H), no more than the 4 cards led, and must play "
            "all of them") in problem["detail"]


def test_sj2_9_2_must_play_from_the_led_class_when_holding_more():
    table = ex3_table()
    other = next(c for c in held(table, 1) if c not in EX3[1])
    problem = table.rejected("CardsPlayed", "SJ2-9.2", seat=1, cards=["9H", "9H", "8H", other])
    assert "must play all 4 from hearts" in problem["detail"]


def test_sj2_ex3_legal_follows_and_the_winner():
    table = ex3_table()
    table.ok("CardsPlayed", seat=1, cards=["9H", "9H", "8H", "8H"])
    table.ok("CardsPlayed", seat=2, cards=["KH", "KH", "7H", "4H"])
    table.ok("CardsPlayed", seat=3, cards=["5H", "6S", "6S", "9S"])  # legal; mixes classes
    trick = table.hand_view()["tricks"][0]
    assert (trick["winner"], trick["points"]) == (0, 25)  # KH KH 5H


def test_sj2_ex3_variant_a_trump_tractor_beats_the_led_tractor():
    table = ex3_table({**EX3, 3: "6S 6S 5S 5S"})
    table.ok("CardsPlayed", seat=1, cards=["9H", "9H", "8H", "8H"])
    table.ok("CardsPlayed", seat=2, cards=["KH", "KH", "7H", "4H"])
    table.ok("CardsPlayed", seat=3, cards=["6S", "6S", "5S", "5S"])
    trick = table.hand_view()["tricks"][0]
    assert (trick["winner"], trick["points"]) == (3, 30)


def test_sj2_ex1_who_wins_a_trick():
    """Ex 1 at level 2, trump H, dealer seat 0: 2C (副级牌) stands for the example's 7C, 2D / 2S
    / 2H for 7D / 7S / 7H. Seat 1 first wins a club trick, to lead KS as in the example."""
    table = new_table()
    fixed = {0: "2H 3C 2C 2D", 1: "AC KS 2S", 2: "4C 3S 2H", 3: "4C 4H SJ"}
    assert table.to_play(fixed, card="2H", declarer=0, no={0: "S", 2: "C", 3: "SC"}) == 0
    for seat, card in ((0, "3C"), (1, "AC"), (2, "4C"), (3, "4C"),
                       (1, "KS"), (2, "3S"), (3, "4H"), (0, "2C")):
        table.ok("CardsPlayed", seat=seat, cards=[card])
    view = table.hand_view()
    assert [(t["winner"], t["points"]) for t in view["tricks"]] == [(1, 0), (0, 10)]
    assert view["defender_points"] == 0  # KS went to the dealer side: not counted
    for seat, card in ((0, "2D"), (1, "2S"), (2, "2H"), (3, "SJ")):
        table.ok("CardsPlayed", seat=seat, cards=[card])
    view = table.hand_view()
    assert (view["tricks"][2]["winner"], view["tricks"][2]["points"], view["turn"]) == (3, 0, 3)


def test_sj2_3_5_an_equal_card_played_later_does_not_win():
    table = new_table()
    fixed = {0: "2H 2D", 1: "2S", 2: "3H", 3: "4H"}
    table.to_play(fixed, card="2H", no={2: "H", 3: "H"})
    for seat, card in ((0, "2D"), (1, "2S"), (2, "3H"), (3, "4H")):
        table.ok("CardsPlayed", seat=seat, cards=[card])
    assert table.hand_view()["tricks"][0]["winner"] == 0  # 2S = 2D (both pos 13): earlier wins


# --- SJ2-12.4, SJ2-14.3 -----------------------------------------------------------------------

def test_sj2_12_4_no_play_correction_in_strict_mode():
    table = new_table()
    table.to_play({0: "2S QH", 1: "4H 5H"}, card="2S", no={1: "H"})
    table.ok("CardsPlayed", seat=0, cards=["QH"])
    table.ok("CardsPlayed", seat=1, cards=["4H"])
    problem = table.rejected("PlayCorrected", "SJ2-12.4", seat=1, cards=["5H"])
    assert "strict mode" in problem["detail"]


def finished_hand(seed: int = 0) -> Table:
    """Hand 1 played to the end with legal moves (seed 0: side B ends one level up)."""
    table = new_table()
    table.to_play({0: "2S"}, card="2S")
    table.finish_hand(seed)
    return table


def test_sj2_14_3_no_match_tie_lots_while_levels_differ():
    table = finished_hand()
    match = table.match()
    assert match["levels"]["A"] != match["levels"]["B"] and match["status"] == "playing"
    problem = table.rejected("LotsDrawn", "SJ2-14.3", purpose="matchTie", candidates=["A", "B"],
                             winner="B")
    assert "only when its levels are equal" in problem["detail"]


def test_sj2_14_3_no_match_tie_lots_during_the_match():
    table = new_table()
    table.to_play({0: "2S"}, card="2S")
    table.rejected("LotsDrawn", "SJ2-14.3", purpose="matchTie", candidates=["A", "B"], winner="A")


def test_sj2_14_3_equal_levels_after_the_last_hand_go_to_lots():
    table = new_table({"maxHands": 1})
    table.to_play({0: "2S"}, card="2S")
    table.finish_hand(seed=1)  # the defenders take the deal without a level: 2 : 2
    match = table.match()
    assert (match["status"], match["levels"]) == ("awaiting_lots", {"A": "2", "B": "2"})
    table.hand = 2
    problem = table.rejected("HandDealt", "SJ2-14.3", **build_deal({}, seed=5))
    assert "lots must decide the match" in problem["detail"]
    table.ok("LotsDrawn", purpose="matchTie", candidates=["A", "B"], winner="A")
    match = table.match()
    assert (match["status"], match["winner"], match["winner_team"], match["reason"]) == (
        "completed", "A", "east", "lots")
    table.rejected("HandDealt", "SJ2-14", **build_deal({}, seed=5))
    table.rejected("LotsDrawn", "SJ2-14.3", purpose="matchTie", candidates=["A", "B"], winner="B")


def test_sj2_14_2_past_the_target_level_wins_at_once():
    table = new_table({"targetLevel": "2"})
    table.to_play({0: "2S"}, card="2S")
    table.finish_hand(seed=0)  # side B takes the deal and goes up one level, to 3 > 2
    match = table.match()
    assert (match["status"], match["winner"], match["winner_team"], match["reason"]) == (
        "completed", "B", "west", "target")
    table.hand = 2
    problem = table.rejected("HandDealt", "SJ2-14", **build_deal({}, seed=5))
    assert "the match is over: side B won (target)" in problem["detail"]


def test_sj2_5_3_the_next_hand_is_dealt_by_the_next_dealer_at_his_level():
    table = finished_hand(seed=0)  # dealer seat 0 loses the deal; side B up to 3
    row = table.results()[0]
    assert (row["result"]["deal_passes"], row["levels"], row["next_dealer"]) == (
        True, {"A": "2", "B": "3"}, 1)
    table.hand = 2
    table.deal({2: "3H"}, seed=4)
    view = table.hand_view()
    assert (view["dealer"], view["level"], view["phase"]) == (1, "3", "declaring")  # SJ2-2.2
    table.rejected("TrumpDeclared", "SJ2-4.1", seat=2, card="2H")  # 2 is no longer the level
    table.ok("TrumpDeclared", seat=2, card="3H")  # SJ2-5.4: chooses trump only
    table.ok("DealCompleted")
    table.ok("DeclarationWindowClosed")
    view = table.hand_view()
    assert (view["dealer"], view["trump"]["suit"], view["phase"]) == (1, "H", "kitty")
    table.rejected("KittyTaken", "SJ2-16", hand=1)


# --- SJ2-16: the hand lifecycle ----------------------------------------------------------------

def test_sj2_16_event_for_a_hand_not_dealt():
    table = new_table()
    table.rejected("DealCompleted", "SJ2-16")  # nothing dealt yet
    table.to_play({0: "2S"}, card="2S")
    problem = table.rejected("CardsPlayed", "SJ2-16", hand=2, seat=0, cards=[held(table, 0)[0]])
    assert "hand 2 has not been dealt" in problem["detail"]
    dealt = build_deal({}, seed=5)
    problem = table.rejected("HandDealt", "SJ2-16", hand=2, **dealt)
    assert "hand 1 is still being played" in problem["detail"]
    table.rejected("HandDealt", "SJ2-16", **dealt)  # hand 1 again


def test_sj2_16_event_for_a_hand_that_has_ended():
    table = finished_hand()
    assert table.hand_view()["phase"] == "completed"
    problem = table.rejected("HandVoided", "SJ2-16", reason="misdeal")
    assert "hand 1 has ended" in problem["detail"]
    table.rejected("CardsPlayed", "SJ2-16", seat=0, cards=["3S"])
    table.rejected("HandDealt", "SJ2-16", hand=3, **build_deal({}, seed=5))  # hand 2 is next
    table.hand = 2
    table.rejected("CardsPlayed", "SJ2-16", seat=0, cards=["3S"])  # hand 2 is not dealt yet


def test_sj2_16_a_card_the_player_does_not_hold():
    table = new_table()
    table.to_play({0: "2S", 1: "AH AH"}, card="2S")
    problem = table.rejected("CardsPlayed", "SJ2-16", seat=0, cards=["AH"])
    assert "seat 0 does not hold AH" in problem["detail"]


def test_sj2_16_a_card_the_player_does_not_hold_record_mode():
    table = new_table({"enforcement": "record"})
    table.to_play({0: "2S QH QH"}, card="2S")
    table.ok("CardsPlayed", seat=0, cards=["QH"])
    problem = table.rejected("CardsPlayed", "SJ2-16", seat=1, cards=["QH"])  # both are seat 0's
    assert "seat 1 does not hold QH" in problem["detail"]


def test_sj2_16_kitty_buried_before_kitty_taken():
    table = new_table()
    table.deal({0: "2S"})
    table.ok("TrumpDeclared", seat=0, card="2S")
    table.ok("DealCompleted")
    table.ok("DeclarationWindowClosed")
    problem = table.rejected("KittyBuried", "SJ2-16", cards=table.dealt["kitty"])
    assert "kitty phase" in problem["detail"]
    table.rejected("CardsPlayed", "SJ2-16", seat=0, cards=["2S"])  # no play before the burial


# --- SJ2-18: settings ------------------------------------------------------------------------------

@pytest.mark.parametrize("settings, words", [
    ({"enforcment": "record"}, "unknown setting 'enforcment'"),
    ({"enforcement": "lenient"}, "enforcement must be one of strict, record"),
    ({"maxHands": 0}, "maxHands must be a whole number from 1 to 200"),
    ({"declarationWindowSeconds": -1}, "declarationWindowSeconds must be a whole number"),
    ({"targetLevel": "A"}, "targetLevel must be one of"),
    ({"ntOvercallableByLevelPair": "yes"}, "must be true or false"),
    ({"throwCheckAgainst": "partner"}, "throwCheckAgainst must be one of"),
])
def test_sj2_18_unknown_or_out_of_range_match_setting(settings, words):
    client = new_client()
    drawn_knockout(client, TID)
    before = client.get(f"/v1/tournaments/{TID}/events?limit=1000").json["events"]
    response = client.post(f"/v1/tournaments/{TID}/matches",
                           json={"match_id": "R1-1", "settings": settings})
    assert response.status_code == 422, response.json
    assert response.mimetype == "application/problem+json"
    assert (response.json["type"], response.json["status"]) == (
        "urn:paiju:problem:rule-violation", 422)
    assert response.json["rule"] == "SJ2-18"
    assert words in response.json["detail"]
    assert client.get(f"/v1/tournaments/{TID}/events?limit=1000").json["events"] == before
    assert client.get(f"/v1/tournaments/{TID}/matches/R1-1").status_code == 404
    # the same match with good settings starts
    response = client.post(f"/v1/tournaments/{TID}/matches",
                           json={"match_id": "R1-1", "settings": {"enforcement": "record"}})
    assert response.status_code == 201, response.json
    assert response.json["settings"]["enforcement"] == "record"


# --- bad input: 400, nothing stored ---------------------------------------------------------------

def bad_input(table: Table, event_type: str, path: str, **data) -> dict:
    before = table.events()
    response = table.post(event_type, **data)
    assert response.status_code == 400, response.json
    assert response.mimetype == "application/problem+json"
    assert (response.json["type"], response.json["status"]) == (
        "urn:paiju:problem:validation-failed", 400)
    assert path in [e["path"] for e in response.json["errors"]], response.json
    assert table.events() == before
    return next(e for e in response.json["errors"] if e["path"] == path)


@pytest.mark.parametrize("event_type, data, path", [
    ("CardsPlayed", {"seat": 0, "cards": ["10H"]}, "/data/cards/0"),
    ("CardsPlayed", {"seat": 0, "cards": ["2S", "QX"]}, "/data/cards/1"),
    ("CardsPlayed", {"seat": 0, "cards": ["qh"]}, "/data/cards/0"),
    ("KittyBuried", {"cards": ["3S"] * 7 + ["Q♥"]}, "/data/cards/7"),
    ("TrumpDeclared", {"seat": 0, "card": "10H"}, "/data/card"),
    ("TrumpOvercalled", {"seat": 1, "cards": ["2H", "QX"]}, "/data/cards/1"),
])
def test_malformed_card_is_400_naming_the_card(event_type, data, path):
    table = new_table()
    table.to_play({0: "2S"}, card="2S")
    error = bad_input(table, event_type, path, **data)
    assert "must be a card" in error["message"]


@pytest.mark.parametrize("event_type, data", [
    ("CardsPlayed", {"seat": 4, "cards": ["2S"]}),
    ("CardsPlayed", {"seat": -1, "cards": ["2S"]}),
    ("TrumpDeclared", {"seat": 4, "card": "2S"}),
    ("PlayCorrected", {"seat": 4, "cards": ["2S"]}),
])
def test_seat_out_of_range_is_400_naming_the_seat(event_type, data):
    table = new_table()
    table.to_play({0: "2S"}, card="2S")
    bad_input(table, event_type, "/data/seat", **data)


@pytest.mark.parametrize("derived", ["TrickCompleted", "HandCompleted", "MatchCompleted",
                                     "ThrowFailed", "FollowErrorEstablished", "TrumpFixed",
                                     "HandStarted"])
def test_derived_event_posted_by_a_client_is_400(derived):
    table = new_table()
    table.to_play({0: "2S"}, card="2S")
    error = bad_input(table, derived, "/type", trickNo=1, winner=0)
    assert f"{derived} is a derived fact" in error["message"]
    assert "cannot be posted" in error["message"]


@pytest.mark.parametrize("hand", [0, -1, "1"])
def test_hand_number_out_of_range_is_400_naming_the_hand(hand):
    table = new_table()
    table.to_play({0: "2S"}, card="2S")
    bad_input(table, "CardsPlayed", "/data/hand", hand=hand, seat=0, cards=["2S"])


# --- fixes found by these tests ---------------------------------------------------------------

def test_sj2_4_2_drawing_is_paused_while_lots_are_pending():
    table = new_table()
    table.deal({0: "2S", 1: "2H"})
    table.ok("TrumpDeclared", seat=0, card="2S")
    table.ok("TrumpDeclared", seat=1, card="2H", simultaneous=True)
    table.rejected("DealCompleted", "SJ2-4.2")
    table.ok("LotsDrawn", purpose="declaration", candidates=[0, 1], winner=0)
    table.ok("DealCompleted")


def test_sj2_12_3_a_kitty_error_cannot_be_reported_in_strict_mode():
    table = new_table()
    table.to_play({0: "2S"}, card="2S")
    before = table.events()
    response = table.post("IrregularityReported", rule="SJ2-12.3", detail="a kitty of 9 cards")
    assert (response.status_code, response.json["rule"]) == (422, "SJ2-12.3")
    assert table.events() == before and table.hand_view()["kitty_error"] is False


def test_sj2_12_4_only_a_follow_error_can_be_corrected():
    table = new_table({"enforcement": "record"})
    table.to_play({0: "2S QH", 1: "5H 4H"}, card="2S", no={1: "H"})
    table.ok("CardsPlayed", seat=0, cards=["QH"])
    table.ok("CardsPlayed", seat=1, cards=["5H"])  # a legal follow: nothing to correct
    problem = table.rejected("PlayCorrected", "SJ2-12.4", seat=1, cards=["4H"])
    assert "is not one" in problem["detail"]


def test_sj2_10_3_the_trick_in_play_shows_who_holds_it_so_far():
    table = new_table()
    table.to_play({0: "2S QH", 1: "AH 3C", 2: "5C"}, card="2S", no={2: "H"})
    table.ok("CardsPlayed", seat=0, cards=["QH"])
    assert table.hand_view()["current_trick"]["winning"] == 0
    table.ok("CardsPlayed", seat=1, cards=["AH"])
    assert table.hand_view()["current_trick"]["winning"] == 1


def test_sj2_12_3_a_kitty_error_is_found_only_in_a_buried_kitty():
    table = new_table({"enforcement": "record"})
    table.deal({0: "2S"})
    before = table.events()
    response = table.post("IrregularityReported", rule="SJ2-12.3", detail="the kitty looks thin")
    assert (response.status_code, response.json["rule"]) == (422, "SJ2-12.3")
    assert table.events() == before


def test_sj2_18_malformed_match_settings_are_refused_when_the_tournament_is_created():
    client = new_client()
    response = client.post("/v1/tournaments", json={
        "tournament_id": TID, "name": "n", "game": "SJ2", "format": "knockout",
        "settings": {"match": {"": 15}}})
    assert (response.status_code, response.json["rule"]) == (422, "SJ2-18")
    assert client.get(f"/v1/tournaments/{TID}").status_code == 404
