"""The worked examples of mahjong-ottawa.md played through the HTTP API: the payments of
examples 6 to 10 exact, with the balances and the next dealer (MJO-7.2, 7.3, 2.2); the claims
of example 11 settled by priority whatever order they arrive in (MJO-4.2, 4.4, 4.5); examples
1, 5 and 12. (Every example is also a unit test of the engine: tests/unit/mahjong/.)"""
from __future__ import annotations

from clients import admin_client
from mj_table import Table, opened

from events.memory_store import InMemoryEventStore
from service import create_app

WIN_5M = "1m 2m 3m 4p 5p 6p 7s 8s 9s C C C 5m 5m"      # Ex 1
WAIT_5M = "1m 2m 3m 4p 5p 6p 7s 8s 9s C C C 5m"         # waits on 5m only (Ex 5's shape)
WAIT_5P = "1m 2m 3m 4s 5s 6s 7s 8s 9s C C C 5p"


def client():
    return admin_client(create_app(store=InMemoryEventStore()))


def result(table: Table) -> tuple[list[int], list[int], int, int]:
    """The last hand's payments, the balances, the next dealer and the table's dealer now."""
    match = table.match()
    row = match["last_result"]
    assert row["balances"] == match["balances"]
    assert sum(row["payments"]) == 0
    return row["payments"], match["balances"], row["next_dealer"], match["dealer"]


def discard_in_turn(table: Table, seat: int, tile: str) -> None:
    """``seat``, on turn to draw once the open claim window is passed, draws the wall's next
    tile and discards ``tile``."""
    table.settle()
    assert table.hand_view()["turn"] == seat
    table.ok("TileDrawn", seat=seat, tile=table.next_tile())
    table.ok("TileDiscarded", seat=seat, tile=tile)


# --- MJO-7: payments (Ex 6 – 10) ---------------------------------------------------------------

def test_mjo_ex7_dealer_self_draw_each_pays_four():
    table = Table(client())
    table.deal({0: WIN_5M})                       # Ex 1: the dealer's first 14 are a win
    table.ok("Win", seat=0)                       # MJO-5.4: a dealer self-draw
    assert result(table) == ([12, -4, -4, -4], [32, 16, 16, 16], 0, 0)
    assert table.results()[0]["wins"] == [
        {"seat": 0, "tile": None, "self_drawn": True, "discarder": None}]


def test_mjo_ex6_dealer_wins_on_a_discard_the_discarder_pays_four():
    table = opened(client(), {0: WAIT_5M, 1: "E", 2: "5m S"}, wall="E S")
    discard_in_turn(table, 1, "E")
    discard_in_turn(table, 2, "5m")
    table.ok("Claim", seat=0, kind="win")
    table.settle()                                # seat 3, before seat 0 in turn, passes
    assert result(table) == ([8, -2, -4, -2], [28, 18, 16, 18], 0, 0)   # seat 0 deals again


def test_mjo_ex8_non_dealer_wins_on_the_dealers_discard_the_dealer_pays_two():
    table = opened(client(), {2: WAIT_5M}, first="5m", settle=False)
    table.ok("Claim", seat=2, kind="win")
    table.settle()                                # seat 1, before seat 2 in turn, passes
    assert result(table) == ([-2, -1, 4, -1], [18, 19, 24, 19], 1, 1)   # the deal passes


def test_mjo_ex8_the_discarder_pays_no_extra():
    table = opened(client(), {1: WAIT_5M, 3: "5m"}, wall="E S W")
    discard_in_turn(table, 1, "E")
    discard_in_turn(table, 2, "S")
    discard_in_turn(table, 3, "5m")
    table.ok("Win", seat=1, selfDrawn=False, discarder=3, tile="5m")  # = his win claim
    table.settle()                                # seat 0, before seat 1 in turn, passes
    assert result(table) == ([-2, 4, -1, -1], [18, 24, 19, 19], 1, 1)


def test_mjo_ex9_non_dealer_self_draw_the_dealer_pays_four():
    table = opened(client(), {3: WAIT_5M}, wall="E S 5m")
    discard_in_turn(table, 1, "E")
    discard_in_turn(table, 2, "S")
    table.settle()
    table.ok("TileDrawn", seat=3, tile="5m")
    table.ok("Win", seat=3, tile="5m")
    assert result(table) == ([-4, -2, -2, 8], [16, 18, 18, 28], 1, 1)


def test_mjo_ex10_a_negative_balance_is_a_bank_loan_and_play_goes_on():
    table = Table(client())
    table.deal({0: WIN_5M})
    table.ok("CoinPenaltyAssessed", rule="MJO-9.3", seat=2, coins=19, reason="Ex 10: seat 2 at 1")
    assert table.match()["balances"] == [20, 20, 1, 20]
    table.ok("Win", seat=0)
    assert result(table) == ([12, -4, -4, -4], [32, 16, -3, 16], 0, 0)   # MJO-7.3
    table.hand = 2
    table.deal()                                                          # play goes on
    assert table.match()["current_hand"]["balances_before"] == [32, 16, -3, 16]


# --- MJO-4: claims by priority, not by arrival (Ex 11) -------------------------------------------

def ex11(seat3: str = "") -> Table:
    """Seat 1 discards 5p; seat 2 (next) holds 4p 6p, seat 0 a pair of 5p."""
    table = opened(client(), {0: "5p 5p", 1: "5p", 2: "4p 6p", 3: seat3}, wall="E")
    discard_in_turn(table, 1, "5p")
    return table


def outcome(table: Table) -> dict:
    view = table.hand_view()
    return {k: view[k] for k in ("phase", "turn", "seats", "wins", "payments", "claim_window")}


def test_mjo_ex11_pong_beats_chow_whatever_the_order():
    chow_first = ex11()
    chow_first.ok("Claim", seat=2, kind="chow", tiles=["4p", "6p"])
    assert chow_first.hand_view()["phase"] == "claims"    # seat 0 may still pong: it waits
    chow_first.ok("Claim", seat=0, kind="pong", tiles=["5p", "5p"])
    chow_first.settle()                                    # seat 3 passes
    pong_first = ex11()
    pong_first.ok("Claim", seat=0, kind="pong", tiles=["5p", "5p"])
    assert pong_first.hand_view()["phase"] == "claims"    # seats 2 and 3 answer too
    pong_first.ok("Claim", seat=2, kind="chow", tiles=["4p", "6p"])
    pong_first.settle()
    assert outcome(chow_first) == outcome(pong_first)
    view = chow_first.hand_view()
    assert view["seats"][0]["melds"][0]["text"] == "[pong 5p]"
    assert view["seats"][1]["discards"][-1] == {"tile": "5p", "claimed_by": 0}
    assert (view["phase"], view["turn"]) == ("discard", 0)
    chow_first.ok("TileDiscarded", seat=0, tile="N" if "N" in chow_first.concealed(0)
                  else chow_first.concealed(0)[0])
    chow_first.settle()
    assert chow_first.hand_view()["turn"] == 1          # the turn passes to seat 1


def test_mjo_ex11_a_win_beats_pong_and_chow_whatever_the_order():
    last = ex11(seat3=WAIT_5P)                            # waits on 5p (pair 5p5p)
    last.ok("Claim", seat=2, kind="chow", tiles=["4p", "6p"])
    last.ok("Claim", seat=0, kind="pong", tiles=["5p", "5p"])
    assert last.hand_view()["phase"] == "claims"          # seat 3 may still win
    last.ok("Claim", seat=3, kind="win")
    first = ex11(seat3=WAIT_5P)
    first.ok("Claim", seat=3, kind="win")
    assert first.hand_view()["phase"] == "claims"         # seat 2, before seat 3, answers
    first.ok("Claim", seat=0, kind="pong", tiles=["5p", "5p"])
    first.ok("Claim", seat=2, kind="chow", tiles=["4p", "6p"])
    assert outcome(last) == outcome(first)
    assert result(last) == ([-2, -1, -1, 4], [18, 19, 19, 24], 1, 1)
    assert last.hand_view()["seats"][0]["melds"] == []    # the pong lapsed


def test_mjo_4_4_several_win_claims_the_first_in_turn_after_the_discarder_wins():
    def table():
        t = opened(client(), {1: "5m", 2: WAIT_5M, 3: "7p 8p 9p 1s 2s 3s 4s 5s 6s F F F 5m"},
                   wall="E")
        discard_in_turn(t, 1, "5m")
        return t
    late = table()
    late.ok("Claim", seat=3, kind="win")
    late.ok("Claim", seat=2, kind="win")
    early = table()
    early.ok("Claim", seat=2, kind="win")
    early.rejected("Claim", "MJO-10", seat=3, kind="win")      # the hand is over
    assert outcome(late) == outcome(early)
    assert [w["seat"] for w in late.hand_view()["wins"]] == [2]


# --- Ex 5 and Ex 12 ----------------------------------------------------------------------------

def test_mjo_ex5_a_single_wait_on_8s_wins_on_the_discard():
    table = opened(client(), {1: "8s", 2: "1m 2m 3m 4m 5m 6m 7p 8p 9p E E E 8s"}, wall="W")
    discard_in_turn(table, 1, "8s")
    table.ok("Claim", seat=2, kind="win")
    assert table.hand_view()["wins"] == [
        {"seat": 2, "tile": "8s", "self_drawn": False, "discarder": 1}]


def test_mjo_ex12_four_identical_tiles_a_pung_and_a_chow():
    table = Table(client())
    table.deal({0: "9m 9m 9m 9m 7m 8m 4p 5p 6p 2s 3s 4s 5p 5p"})
    table.ok("Win", seat=0)                          # 999m + 789m + 456p + 234s + 55p
    assert table.results()[0]["result"] == "win"
