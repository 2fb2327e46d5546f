"""The reads of a Sichuan table (hidden information, rules README §5; MJS-2.1, 2.2, 5.6): what
each viewer sees of the exchange, the void suits, the tiles, 过水, the ledger — and every read
as of an earlier position equals what was shown then."""
from __future__ import annotations

import pytest
from clients import admin_client
from mj_table import clocked_client
from mjs_table import Table, opened
from tables import Clock

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


def test_mjs_2_1_the_tiles_pass_face_down_a_seat_sees_what_it_passed_and_received():
    """The exchange made (red die 5: each passes to the previous seat, seat 2 receiving seat
    3's), seat 2 sees only his three and the three he received, the public none of them —
    until the hand is over."""
    table = Table(client(), final=True)
    picks = {0: "2p 5p 9p", 1: "1s 1s 7s", 2: "3m 4m 8m", 3: "6p 6p 2p"}     # Ex 11
    table.deal(picks, dealer=1)
    for seat, tiles in picks.items():
        table.ok("ExchangeTilesSelected", seat=seat, tiles=tiles.split())
    table.ok("DiceRolled", purpose="exchange", seat=1, dice=[5, 2], hand=1)
    seat2 = table.hand_view(view="seat:2")["exchange"]
    assert seat2["selections"] == [None, None, ["3m", "4m", "8m"], None]
    assert seat2["received"] == [None, None, ["6p", "6p", "2p"], None]
    public = table.hand_view(view="public")["exchange"]
    assert public["selections"] == [None] * 4 and public["received"] == [None] * 4
    assert public["direction"] == "previous" and public["chosen"] == [True] * 4
    table.voids("sspm")
    table.ok("TileDiscarded", seat=1, tile=table.concealed(1)[0])
    while table.hand_view()["phase"] != "over":
        table.draw_discard()
    over = table.hand_view(view="public")["exchange"]           # a finished hand is public
    assert over["selections"][0] == ["2p", "5p", "9p"] and over["received"][3] == \
        ["2p", "5p", "9p"]


def test_a_seats_tiles_are_its_own_until_it_wins_then_laid_down():
    table = opened(client(), {2: READY_7S, 3: "9p 9p"}, voids="mmps", first="7s", settle=False)
    public = table.hand_view(view="public")
    assert [s["concealed"] for s in public["seats"]] == [None] * 4
    assert table.hand_view(view="seat:3")["seats"][3]["concealed"] is not None
    table.ok("Claim", seat=2, kind="win")
    assert table.hand_view(view="public")["seats"][2]["concealed"] is None   # not yet settled
    table.settle()
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


@pytest.mark.parametrize("enforcement", ["strict", "record"])
def test_mjs_3_3_the_table_cannot_tell_whether_anyone_may_claim_a_discard(enforcement):
    """Hidden information (rules README §5): two deals that differ only in whether seat 2
    holds a pair of the dealer's 9s look the same to the public after the discard — a claim
    window open, waiting for the three others — and the next player's draw is refused the
    same way in both (strict: 422 MJS-3.3; record: the draw shows the window closed); who
    may claim is shown to that seat and the officials only."""
    views, answers = [], []
    for seat2, wall in (("9s 9s", "1m 9s"), ("", "1m 9s 9s 9s")):
        table = opened(clocked_client(Clock()), {2: seat2} if seat2 else {}, first="9s",
                       wall=wall, settle=False, settings={"enforcement": enforcement})
        views.append(table.hand_view(view="public"))
        response = table.post("TileDrawn", seat=1, tile="1m")
        answers.append((response.status_code, response.json.get("detail"),
                        table.hand_view(view="public")["phase"]))
    assert views[0] == views[1]
    assert views[0]["phase"] == "claims" and views[0]["claim_window"]["may"] == {}
    assert answers[0] == answers[1]
    assert answers[0][0] == (422 if enforcement == "strict" else 201)
