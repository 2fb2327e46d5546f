"""The reads of a Sichuan table (hidden information, rules README §5; MJS-2.1, 2.2, 5.6): what
each viewer sees of the exchange, the void suits, the tiles, 过水, the ledger — and every read
as of an earlier position equals what was shown then."""
from __future__ import annotations

from clients import admin_client
from mjs_table import Table, opened

from events.memory_store import InMemoryEventStore
from service import create_app

READY_7S = "1m 2m 3m 4m 5m 6m 7s 8s 9s 5s 6s 2s 2s"


def client():
    return admin_client(create_app(store=InMemoryEventStore()))


def test_mjs_2_2_void_suits_are_shown_together_once_all_four_are_declared():
    table = Table(client())
    table.deal({0: "9s"})
    table.ok("VoidSuitDeclared", seat=0, suit="p")
    table.ok("VoidSuitDeclared", seat=1, suit="s")
    assert table.hand_view(view="public")["voids"] == [None, None, None, None]
    assert table.hand_view(view="seat:1")["voids"] == [None, "s", None, None]
    assert table.hand_view(view="referee")["voids"] == ["p", "s", None, None]
    assert table.hand_view(view="public")["voids_declared"] == [True, True, False, False]
    table.ok("VoidSuitDeclared", seat=2, suit="m")
    table.ok("VoidSuitDeclared", seat=3, suit="m")
    assert table.hand_view(view="public")["voids"] == ["p", "s", "m", "m"]


def test_mjs_2_1_each_seat_sees_the_three_tiles_it_passes_until_the_exchange():
    table = Table(client(), final=True)
    table.deal({0: "1m 2m 3m", 2: "4p 5p 6p"})
    table.ok("ExchangeTilesSelected", seat=0, tiles=["1m", "2m", "3m"])
    table.ok("ExchangeTilesSelected", seat=2, tiles=["4p", "5p", "6p"])
    exchange = table.hand_view(view="seat:2")["exchange"]
    assert exchange["selections"] == [None, None, ["4p", "5p", "6p"], None]
    assert exchange["chosen"] == [True, False, True, False] and exchange["direction"] is None
    assert table.hand_view(view="public")["exchange"]["selections"] == [None] * 4
    assert table.hand_view(view="public")["phase"] == "exchange"


def test_a_seats_tiles_are_its_own_until_it_wins_then_laid_down():
    table = opened(client(), {2: READY_7S, 3: "9p 9p"}, voids="mmps", first="7s", settle=False)
    public = table.hand_view(view="public")
    assert [s["concealed"] for s in public["seats"]] == [None] * 4
    assert table.hand_view(view="seat:3")["seats"][3]["concealed"] is not None
    table.ok("Claim", seat=2, kind="win")
    public = table.hand_view(view="public")
    assert public["seats"][2]["concealed"] == sorted(READY_7S.split(), key=lambda t: (
        "mps".index(t[1]), t[0]))
    assert [s["concealed"] for s in public["seats"] if s["seat"] != 2] == [None] * 3
    assert public["out"] == [False, False, True, False]
    assert public["ledger"] == table.hand_view(view="referee")["ledger"]   # payments are public
    assert public["scores"] == [-2, 0, 2, 0]


def test_reads_as_of_an_earlier_position_equal_what_was_shown_then():
    table = opened(client(), {2: READY_7S}, voids="mmps", first="7s", settle=False)
    before = table.hand_view(view="referee")
    position = before["position"]
    table.ok("Claim", seat=2, kind="win")
    table.draw_discard()
    then = table.hand_view(view="referee", at=position)
    assert then == before
    assert then["wins"] == [] and table.hand_view()["wins"][0]["seat"] == 2
    assert table.match(at=position)["current_hand"]["ledger"] == []
    assert table.match()["current_hand"]["ledger"][0]["reason"] == "win"
