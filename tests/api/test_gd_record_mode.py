"""掼蛋 in ``record`` enforcement (rules README §5), through the HTTP API: a scorer transcribing a
physical table stores what a player did wrong with cards he holds on his turn — a play that is
no combination or does not beat the table, a wrong tribute card, a return card the rules do not
allow — flagged with the rule; the card is taken back at the table, so the hand is unchanged and
the player still owes his move. Everything else is refused as in ``strict`` mode."""
from __future__ import annotations

from gd_table import Table

from events.memory_store import InMemoryEventStore
from service import create_app

RECORD = {"enforcement": "record"}


def new_table(settings: dict | None = None) -> Table:
    return Table(create_app(store=InMemoryEventStore()).test_client(), {**RECORD, **(settings or {})})


def test_record_a_play_that_does_not_beat_is_flagged_and_taken_back():
    table = new_table()
    table.deal({0: "9S 9D", 1: "8S 8D"}, leader=0)
    table.ok("GDCardsPlayed", seat=0, cards=["9S", "9D"])
    before = table.hand_view()
    table.ok("GDCardsPlayed", seat=1, cards=["8S", "8D"])  # stored: GD-4.2
    view = table.hand_view(view="public")
    flagged = view["irregularities"]
    assert [(f["kind"], f["event"], f["seat"], f["rule"], f["cards"]) for f in flagged] == [
        ("recorded", "GDCardsPlayed", 1, "GD-4.2", ["8S", "8D"])]
    assert "does not beat a pair of 9s" in flagged[0]["message"]  # the cards were on the table
    after = table.hand_view()
    assert (after["turn"], after["top"], after["seats"]) == (1, before["top"], before["seats"])
    table.ok("Passed", seat=1)


def test_record_a_wildcard_used_as_a_joker_is_flagged():
    table = new_table()
    table.deal({0: "BJ BJ SJ 2H"}, leader=0)
    table.ok("GDCardsPlayed", seat=0, cards=["BJ", "BJ", "SJ", "2H"])
    assert table.hand_view()["irregularities"][0]["rule"] == "GD-2.3"
    table.ok("GDCardsPlayed", seat=0, cards=["BJ", "BJ"])  # then a legal lead


def test_record_still_refuses_what_the_table_cannot_do():
    table = new_table()
    table.deal({0: "9S 9D"}, leader=0)
    table.rejected("GDCardsPlayed", "GD-5.2", seat=0, cards=["BJ"])       # not held
    table.rejected("GDCardsPlayed", "GD-5.1", seat=1, cards=[table.held(1)[0]])  # out of turn
    table.rejected("Passed", "GD-5.2", seat=0)                           # a leader passing
    assert table.hand_view()["irregularities"] == []


def single_down(fixed: dict) -> Table:
    table = new_table()
    table.deal()
    table.steer([1, 0, 3])  # B +2 → 4; seat 2 last pays seat 1
    table.deal(fixed, low_seats=(2,))
    return table


def test_record_a_wrong_tribute_card_is_flagged_and_hidden_until_the_hand_ends():
    table = single_down({2: "4H BJ 3C"})
    table.ok("TributePaid", seat=2, card="4H")  # a wildcard: GD-7.6
    table.ok("TributePaid", seat=2, card="3C")  # not his highest: GD-7.2
    referee = table.hand_view()["irregularities"]
    assert [(f["rule"], f["card"]) for f in referee] == [("GD-7.6", "4H"), ("GD-7.2", "3C")]
    assert "(BJ)" in referee[1]["message"]
    # the message names the payer's best card: only he and the officials see it
    public = table.hand_view(view="public")["irregularities"]
    assert [f["message"] for f in public] == [None, None]
    assert table.hand_view(view="seat:2")["irregularities"][1]["message"] == referee[1]["message"]
    assert table.hand_view()["tribute"]["paid"] == []
    table.rejected("TributePaid", "GD-7.2", seat=2, card="SJ")  # not held: refused
    table.ok("TributePaid", seat=2, card="BJ")
    assert table.hand_view()["phase"] == "return"


def test_record_a_return_above_ten_is_flagged_and_its_card_hidden():
    table = single_down({1: "JD 6D", 2: "BJ"})
    table.ok("TributePaid", seat=2, card="BJ")
    table.ok("TributeReturned", seat=1, card="JD")  # GD-7.4: above 10
    flagged = table.hand_view(view="public")["irregularities"][0]
    assert (flagged["rule"], flagged["card"], flagged["message"]) == ("GD-7.4", None, None)
    assert table.hand_view(view="seat:1")["irregularities"][0]["card"] == "JD"
    table.rejected("TributeReturned", "GD-7.4", seat=3, card=table.held(3)[0])  # not his to make
    table.ok("TributeReturned", seat=1, card="6D")
    assert table.hand_view()["turn"] == 2
