"""掼蛋 in ``record`` enforcement (rules README §5), through the HTTP API: a scorer transcribing a
physical table stores only what the rules *penalise*; plays the rules simply forbid are refused
as in ``strict``. GD attaches no penalty to a play, a tribute or a return, so the issue's bad
input — a wildcard used as a joker, a straight of 6, a tribute of a wildcard, a return card above
10, a play after a player has finished — and every other breach is 4xx with nothing stored."""
from __future__ import annotations

from clients import admin_client
from gd_table import Table

from events.memory_store import InMemoryEventStore
from service import create_app

RECORD = {"enforcement": "record"}


def new_table(settings: dict | None = None) -> Table:
    return Table(admin_client(create_app(store=InMemoryEventStore())), {**RECORD, **(settings or {})})


def test_record_refuses_a_wildcard_used_as_a_joker_and_a_straight_of_six():
    table = new_table()
    table.deal({0: "9S TS JS QS KS AS 2H SJ BJ BJ"}, leader=0)
    table.rejected("GDCardsPlayed", "GD-3.4", seat=0, cards=["9S", "TS", "JS", "QS", "KS", "AS"])
    table.rejected("GDCardsPlayed", "GD-2.3", seat=0, cards=["SJ", "2H"])
    table.rejected("GDCardsPlayed", "GD-2.3", seat=0, cards=["BJ", "BJ", "SJ", "2H"])
    assert table.hand_view()["irregularities"] == []
    table.ok("GDCardsPlayed", seat=0, cards=["BJ", "BJ"])  # then a legal lead


def test_record_refuses_a_play_that_does_not_beat_and_what_the_table_cannot_do():
    table = new_table()
    table.deal({0: "9S 9D", 1: "8S 8D"}, leader=0)
    table.ok("GDCardsPlayed", seat=0, cards=["9S", "9D"])
    table.rejected("GDCardsPlayed", "GD-4.2", seat=1, cards=["8S", "8D"])
    table.rejected("GDCardsPlayed", "GD-5.2", seat=1, cards=["BJ", "BJ", "BJ"])  # not held
    table.rejected("GDCardsPlayed", "GD-5.2", seat=2, cards=[table.held(2)[0]])  # out of turn
    assert table.hand_view()["irregularities"] == []
    table.ok("Passed", seat=1)


def test_record_refuses_a_play_after_the_player_has_finished():
    table = new_table()
    table.deal()
    table.steer([0, 1, 2], until_out=0)
    view = table.hand_view()
    assert view["order"] == [0]
    table.rejected("GDCardsPlayed", "GD-5.4", seat=0, cards=["3S"])
    table.rejected("Passed", "GD-5.4", seat=0)


def single_down(fixed: dict) -> Table:
    table = new_table()
    table.deal()
    table.steer([1, 0, 3])  # B +2 → 4; seat 2 last pays seat 1
    table.deal(fixed, low_seats=(2,))
    return table


def test_record_refuses_a_tribute_of_a_wildcard_or_not_the_highest_card():
    table = single_down({2: "4H BJ 3C"})
    table.rejected("TributePaid", "GD-7.6", seat=2, card="4H")  # a wildcard
    table.rejected("TributePaid", "GD-7.2", seat=2, card="3C")  # not his highest
    assert table.hand_view()["irregularities"] == []
    table.ok("TributePaid", seat=2, card="BJ")
    assert table.hand_view()["phase"] == "return"


def test_record_refuses_a_return_above_ten():
    table = single_down({1: "JD 6D", 2: "BJ"})
    table.ok("TributePaid", seat=2, card="BJ")
    problem = table.rejected("TributeReturned", "GD-7.4", seat=1, card="JD")
    assert "must return a card of 10 or lower" in problem["detail"]
    table.ok("TributeReturned", seat=1, card="6D")
    assert table.hand_view()["turn"] == 2
