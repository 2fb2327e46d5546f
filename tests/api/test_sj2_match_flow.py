"""The match around the hands (shengji-2deck.md SJ2-5, SJ2-14; tournaments.md T-11 Ex 7): a
redeal when nobody declares in hand 1, a referee's voided hand, the round's time limit, the
20-hand limit and lots on equal levels, and the bracket following the match's result."""
import random

from clients import admin_client
from sj2_table import Table, build_deal
from tables import Clock

from events.memory_store import InMemoryEventStore
from service import create_app


def new_table(settings: dict | None = None, clock: Clock | None = None) -> Table:
    store = InMemoryEventStore()
    if clock is not None:
        store.clock = clock
    return Table(admin_client(create_app(store=store)), settings)


def play_hand(table: Table, seed: int) -> dict:
    """Deals hand ``table.hand`` (seat 0 declares in hand 1), plays it out; its result row."""
    number = table.hand
    fixed = {0: "2S"} if number == 1 else {}
    table.to_play(fixed, card="2S" if number == 1 else None, seed=seed)
    table.finish_hand(seed)
    table.hand = number + 1
    return table.hand_view(number)["result"]


def test_sj2_5_2_hand_1_without_a_declaration_is_void_and_dealt_again_with_the_setting():
    table = new_table({"firstHandNoDeclaration": "redeal"})
    table.deal(seed=3)
    table.ok("DealCompleted")
    table.ok("DeclarationWindowClosed")
    view = table.hand_view()
    assert (view["phase"], view["void_reason"]) == ("voided", "noDeclarationFirstHand")
    table.rejected("KittyTaken", "SJ2-16")
    table.deal({2: "2H"}, seed=4)  # hand 1 again
    table.ok("TrumpDeclared", seat=2, card="2H")
    table.ok("DealCompleted")
    table.ok("DeclarationWindowClosed")
    assert table.hand_view()["dealer"] == 2
    assert table.match()["hands_played"] == 0


def test_a_referee_voids_a_hand_and_it_is_dealt_again_without_counting():
    table = new_table()
    table.to_play({0: "2S"}, card="2S")
    table.ok("HandVoided", reason="a card was exposed during the deal; the committee orders a redeal")
    assert table.hand_view()["phase"] == "voided"
    table.rejected("CardsPlayed", "SJ2-16", seat=0, cards=["2S"])
    table.to_play({1: "2D"}, declarer=1, card="2D", seed=9)
    assert table.hand_view()["dealer"] == 1
    table.finish_hand(2)
    assert [row["hand"] for row in table.results()] == [1]


LEVELS = "23456789TJQKA"


def test_t11_ex7_sj2_14_4_at_the_time_limit_the_hand_is_finished_then_the_higher_level_wins():
    clock = Clock()
    table = new_table({"timeLimitMinutes": 120}, clock)
    play_hand(table, seed=1)
    table.to_play({}, seed=1)
    problem = table.rejected("TimeLimitReached", "SJ2-14.4", limit_minutes=120)
    assert "end at 2006-12-23T11:30:00" in problem["detail"]  # the match started at 09:30
    table.rejected("TimeLimitReached", "SJ2-14.4", limit_minutes=60)  # not this match's limit
    clock.advance(minutes=120)
    table.ok("TimeLimitReached", limit_minutes=120)
    assert table.match()["status"] == "playing"  # the hand in play is finished first
    table.rejected("TimeLimitReached", "SJ2-14.4", limit_minutes=120)
    table.finish_hand(1)
    match = table.match()
    assert match["hands_played"] == 2 and match["levels"]["A"] != match["levels"]["B"]
    higher = max(("A", "B"), key=lambda side: LEVELS.index(match["levels"][side]))
    assert (match["status"], match["winner"], match["reason"]) == ("completed", higher, "time")
    table.hand = 3
    table.rejected("HandDealt", "SJ2-14", **build_deal({}, seed=5))


def test_sj2_14_4_no_time_limit_no_time_event():
    table = new_table()
    problem = table.rejected("TimeLimitReached", "SJ2-14.4", limit_minutes=1)
    assert "no time limit" in problem["detail"]


def test_sj2_14_4_a_hand_voided_after_the_time_limit_is_not_dealt_again():
    clock = Clock()
    table = new_table({"timeLimitMinutes": 60, "firstHandNoDeclaration": "redeal"}, clock)
    play_hand(table, seed=1)
    table.deal(seed=3)
    clock.advance(minutes=61)
    table.ok("TimeLimitReached", limit_minutes=60)
    table.ok("HandVoided", reason="misdeal")
    match = table.match()
    assert match["status"] in ("completed", "awaiting_lots") and match["hands_played"] == 1
    rule = "SJ2-14" if match["status"] == "completed" else "SJ2-14.3"
    table.rejected("HandDealt", rule, **build_deal({}, seed=4))


def test_sj2_14_3_equal_levels_at_the_end_go_to_lots_and_the_bracket_follows_them():
    table = new_table({"maxHands": 1})
    row = play_hand(table, seed=6)
    assert 80 <= row["final_points"] < 120  # the defenders take the deal without a level
    match = table.match()
    assert (match["status"], match["levels"]) == ("awaiting_lots", {"A": "2", "B": "2"})
    table.hand = 2
    table.rejected("HandDealt", "SJ2-14.3", **build_deal({}, seed=5))
    table.rejected("LotsDrawn", "SJ2-14.3", purpose="matchTie", candidates=["A", "A"], winner="A")
    table.ok("LotsDrawn", purpose="matchTie", candidates=["A", "B"], winner="B")
    match = table.match()
    assert (match["status"], match["winner"], match["reason"]) == ("completed", "B", "lots")
    bracket = table.client.get(f"/v1/tournaments/{table.tid}/bracket").json
    assert bracket["rounds"][0]["matches"][0]["winner"] == match["teams"]["B"] == bracket["champion"]


def test_sj2_5_3_the_next_dealer_and_the_level_of_the_next_hand_follow_the_result():
    table = new_table()
    first = play_hand(table, seed=7)
    table.deal(seed=8)
    hand2 = table.hand_view()
    assert hand2["dealer"] == first["next_dealer"]
    dealer_side = "A" if first["next_dealer"] % 2 == 0 else "B"
    assert hand2["level"] == first["levels"][dealer_side]


def test_t1_3_a_withdrawal_decides_the_match_by_forfeit_and_ends_its_play():
    table = new_table()
    table.to_play({0: "2S"}, card="2S")
    response = table.client.post(f"/v1/tournaments/{table.tid}/events", json={
        "type": "TeamWithdrawn", "stream": f"tournament-{table.tid}",
        "data": {"team_id": "west", "reason": "a player fell ill"}})
    assert response.status_code == 201
    seat, cards = table.legal_play(random.Random(1))
    problem = table.rejected("CardsPlayed", "T-1.3", seat=seat, cards=cards)
    assert "decided by forfeit" in problem["detail"]
    bracket = table.client.get(f"/v1/tournaments/{table.tid}/bracket").json
    match = bracket["rounds"][0]["matches"][0]
    assert (match["winner"], match["forfeit"], bracket["champion"]) == ("east", "west", "east")
    standings = table.client.get(f"/v1/tournaments/{table.tid}/standings").json
    assert [r["team"] for r in standings["ranking"]] == ["east", "west"]
