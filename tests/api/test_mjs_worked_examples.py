"""The worked examples of mahjong-sichuan.md played through the HTTP API: the ledger of every
payment with its cause (win, kong, refund, draw settlement, penalty), the scores, who plays next
and the next dealer. (Every example is also a unit test of the engine: tests/unit/mahjong/.)"""
from __future__ import annotations

from clients import admin_client
from mjs_table import Table, ex7_added_kong, ex8_kong_replacement_discarded, opened
from tables import Clock

from events.memory_store import InMemoryEventStore
from service import create_app

READY_7S = "1m 2m 3m 4m 5m 6m 7s 8s 9s 5s 6s 2s 2s"


def client(clock=None):
    store = InMemoryEventStore()
    if clock is not None:
        store.clock = clock
    return admin_client(create_app(store=store))


def rows(hand: dict) -> list[tuple]:
    return [(p["from"], p["to"], p["amount"], p["reason"], p["rule"]) for p in hand["ledger"]]


def finished(table: Table) -> dict:
    """The last finished hand's result row, checked: every point explained by its ledger."""
    match = table.match()
    row = match["last_result"]
    per_seat = [0, 0, 0, 0]
    for p in row["ledger"]:
        per_seat[p["from"]] -= p["amount"]
        if p["to"] is not None:
            per_seat[p["to"]] += p["amount"]
    assert [a + b for a, b in zip(row["payments"], row["deductions"], strict=True)] == per_seat
    assert sum(row["payments"]) == 0
    assert [b + d for b, d in zip(row["balances_before"], per_seat, strict=True)] == \
        row["balances"]
    return row


def test_mjs_ex1_basic_discard_win_paid_by_the_discarder():
    table = opened(client(), {2: READY_7S}, voids="mmps", first="7s", settle=False)
    table.ok("Claim", seat=2, kind="win")
    table.settle()                                              # seats 1 and 3 pass
    hand = table.hand_view()
    assert rows(hand) == [(0, 2, 2, "win", "MJS-6.4")]
    assert hand["wins"][0]["value"] == {"pattern": "basic", "fans": {}, "fan": 0, "points": 2}
    assert hand["scores"] == [-2, 0, 2, 0] and hand["out"] == [False, False, True, False]
    assert hand["phase"] == "draw" and hand["turn"] == 3        # the battle goes on


def test_mjs_ex3_pure_seven_pairs_capped():
    table = opened(client(), {3: "1s 1s 3s 3s 3s 3s 5s 5s 7s 7s 9s 9s 8s"}, voids="ppsm",
                   first="8s", settle=False)
    table.ok("Win", seat=3, selfDrawn=False, discarder=0, tile="8s")
    table.settle()
    hand = table.hand_view()
    assert hand["wins"][0]["value"]["fans"] == {"sevenPairs": 2, "pure": 2, "gen": 1}
    assert rows(hand) == [(0, 3, 32, "win", "MJS-6.4")]


def test_mjs_ex4_concealed_kong_and_kong_flower():
    table = Table(client())
    table.deal({3: "9s", 0: "6m 6m 6m 1m 2m 3m 7p 8p 4p 4p 4p 5m 5m"}, dealer=3, wall="6m",
               end="9p")
    table.voids("sppp")
    table.ok("TileDiscarded", seat=3, tile="9s")
    table.settle()
    table.ok("TileDrawn", seat=0, tile="6m")
    table.ok("KongDeclared", seat=0, kind="concealed", tile="6m")
    assert table.hand_view()["scores"] == [12, -4, -4, -4]      # paid at once
    table.ok("TileDrawn", seat=0, tile="9p", fromEnd=True)
    table.ok("Win", seat=0, tile="9p")
    hand = table.hand_view()
    assert hand["wins"][0]["value"]["fans"] == {"gen": 1, "selfDraw": 1, "kongFlower": 1}
    assert hand["scores"] == [60, -20, -20, -20]
    assert [r[3] for r in rows(hand)] == ["kong"] * 3 + ["win"] * 3


def test_mjs_ex5_a_direct_kong_is_paid_by_the_discarder():
    table = opened(client(), {2: "7s 7s 7s"}, first="7s", settle=False)
    table.ok("Claim", seat=2, kind="kong", tiles=["7s", "7s", "7s"])
    table.settle()
    hand = table.hand_view()
    assert rows(hand) == [(0, 2, 2, "kong", "MJS-7.1")]
    assert hand["phase"] == "draw" and hand["turn"] == 2        # the replacement, from the end


def test_mjs_ex6_one_discard_two_winners_then_the_seat_after_the_last():
    table = opened(client(), {2: "1m 2m 3m 4m 6m 6s 7s 8s 1s 1s 1s 9s 9s",
                              3: "1m 1m 1m 3m 3m 3m 7m 7m 7m 5m 5m 9m 9m"},
                   voids="sppp", wall="5m", first="9p")
    table.ok("TileDrawn", seat=1, tile="5m")
    table.ok("TileDiscarded", seat=1, tile="5m")
    table.ok("Claim", seat=3, kind="win")
    table.ok("Claim", seat=2, kind="win")
    table.settle()                                              # seat 0 passes
    hand = table.hand_view()
    assert sorted(rows(hand)) == [(1, 2, 2, "win", "MJS-6.4"), (1, 3, 16, "win", "MJS-6.4")]
    assert hand["scores"] == [0, -18, 2, 16] and hand["turn"] == 0


def test_mjs_ex7_robbing_an_added_kong():
    table = Table(client())
    ex7_added_kong(table)
    window = table.hand_view()["claim_window"]
    assert window["may"] == {"1": [], "2": ["win"], "3": []} and window["tile"] == "6p"
    table.rejected("Claim", "MJS-7.3", seat=3, kind="pong")    # only a win robs a kong
    table.rejected("TileDrawn", "MJS-3.3", seat=0, tile=table.hand_view()["wall"][-1],
                   fromEnd=True)                                # play waits for the window
    table.ok("Claim", seat=2, kind="win")
    table.settle()
    hand = table.hand_view()
    assert rows(hand) == [(0, 2, 4, "win", "MJS-6.4")]          # no kong payment
    assert hand["wins"][0]["how"] == "robKong"
    assert [m["text"] for m in hand["seats"][0]["melds"]] == ["[pong 6p]"]
    assert hand["turn"] == 3 and hand["phase"] == "draw"


def test_mjs_ex8_win_after_a_kong_refunds_the_kong():
    table = Table(client())
    ex8_kong_replacement_discarded(table)
    table.ok("Claim", seat=0, kind="win")
    table.settle()
    hand = table.hand_view()
    assert rows(hand) == [(1, 3, 2, "kong", "MJS-7.1"), (3, 0, 4, "win", "MJS-6.4"),
                          (3, 1, 2, "refund", "MJS-7.2")]
    assert hand["scores"] == [4, 0, 0, -4]


READY_4P = "1m 1m 2m 2m 3m 3m 5m 5m 7m 7m 9m 9m 4p"     # Ex 9: seven pairs on 4p, value 8
NOT_READY = "6p 6p 6p 4m 7m 9m 1p 3p 8p 9p 2m 5m 8m"     # Ex 9: kongs 6p, then not ready
FLOWER_PIG = "1m 4p 7s"                                  # Ex 9: all three suits, 花猪


def test_mjs_ex9_exhaustive_draw_the_not_ready_and_the_flower_pig_pay_the_ready_player():
    """Ex 9: seat 1 makes a direct kong on seat 3's 6p (seat 3 pays 2), seat 3 wins (on seat
    2's 7s) and leaves; at the exhaustive draw seat 0 is ready (seven pairs on 4p, 8), seat 1
    not ready, seat 2 a 花猪. Settlement: seat 1 refunds 2 to seat 3 and pays seat 0 8, seat 2
    pays seat 0 8 — net +16, −10, −8, +2."""
    table = opened(client(), {0: READY_4P, 1: NOT_READY, 2: FLOWER_PIG, 3: READY_7S},
                   voids="ssmp", wall="1s 8s 6p 7s", end="3s")
    table.draw_discard(1)                                       # 1s
    table.draw_discard(2)                                       # 8s
    table.draw_discard(3)                                       # 6p
    table.ok("Claim", seat=1, kind="kong", tiles=["6p"] * 3)
    table.settle()
    table.ok("TileDrawn", seat=1, tile="3s", fromEnd=True)
    table.ok("TileDiscarded", seat=1, tile="3s")
    table.draw_discard(2)                                       # 7s: seat 3 wins on it
    table.ok("Claim", seat=3, kind="win")
    table.settle()
    assert table.hand_view()["out"] == [False, False, False, True]
    while table.hand_view()["phase"] != "over":
        table.draw_discard()                                    # each discards what he draws
    row = finished(table)
    assert row["result"] == "draw" and row["winners"] == [3]
    checks = {c["seat"]: (c["status"], c["value"] and c["value"]["points"])
              for c in row["draw_checks"]}
    assert checks == {0: ("ready", 8), 1: ("notReady", None), 2: ("flowerPig", None)}
    settlement = [(p["from"], p["to"], p["amount"], p["reason"]) for p in row["ledger"]
                  if p["reason"] in ("refund", "drawSettlement")]
    assert settlement == [(1, 3, 2, "refund"), (1, 0, 8, "drawSettlement"),
                          (2, 0, 8, "drawSettlement")]
    net = [0, 0, 0, 0]
    for payer, payee, amount, _ in settlement:
        net[payer] -= amount
        net[payee] += amount
    assert net == [16, -10, -8, 2]
    # with the kong (3 → 1: 2) and seat 3's win (2 → 3: 2) before it, the hand's balances
    assert row["balances"] == [16, -8, -10, 2] and row["next_dealer"] == 1


def test_mjs_ex10_false_win_declared_by_the_referee():
    table = opened(client(), {3: READY_7S}, voids="mmmp", first="7s", settle=False)
    table.ok("Claim", seat=3, kind="win")
    table.settle()                                              # seat 3 wins and leaves
    table.ok("FalseWinDeclared", seat=2)
    hand = table.hand_view()
    assert rows(hand)[1:] == [(2, 0, 32, "penalty", "MJS-9.2"), (2, 1, 32, "penalty", "MJS-9.2")]
    assert hand["barred"] == [None, None, "MJS-9.2", None]
    assert hand["phase"] == "draw"                              # play resumes


def test_mjs_ex11_the_final_exchanges_three_by_the_red_die():
    table = Table(client(), final=True)
    picks = {0: "2p 5p 9p", 1: "1s 1s 7s", 2: "3m 4m 8m", 3: "6p 6p 2p"}
    table.deal(picks, dealer=1)
    for seat, tiles in picks.items():
        table.ok("ExchangeTilesSelected", seat=seat, tiles=tiles.split())
    assert table.hand_view(view="seat:0")["exchange"]["selections"] == [
        ["2p", "5p", "9p"], None, None, None]                  # hidden: face down
    table.ok("DiceRolled", purpose="exchange", seat=1, dice=[5, 2], hand=1)
    hand = table.hand_view(view="public")
    assert hand["exchange"]["direction"] == "previous" and hand["phase"] == "void"
    assert hand["exchange"]["selections"] == [None] * 4         # the tiles passed face down
    assert hand["exchange"]["received"] == [None] * 4
    assert table.hand_view(view="referee")["exchange"]["received"] == [
        ["1s", "1s", "7s"], ["3m", "4m", "8m"], ["6p", "6p", "2p"], ["2p", "5p", "9p"]]
    seat0 = table.hand_view(view="seat:0")["exchange"]
    assert seat0["selections"] == [["2p", "5p", "9p"], None, None, None]
    assert seat0["received"] == [["1s", "1s", "7s"], None, None, None]   # seat 1's
    assert sorted(table.dealt["hands"][0][3:] + ["1s", "1s", "7s"]) == \
        sorted(table.concealed(0))                              # seat 0 received seat 1's


def test_mjs_ex12_passing_a_win_then_self_drawing_it():
    waiting = "1m 2m 3m 4m 5m 6m 7m 8m 9m 9m 9m 4p 5p"
    table = opened(client(), {0: "6p 6p", 2: waiting}, voids="sssm", wall="6p 6p", first="3p")
    table.ok("TileDrawn", seat=1, tile="6p")
    table.ok("TileDiscarded", seat=1, tile="6p")
    table.rejected("Claim", "MJS-5.6", seat=2, kind="win")
    assert table.hand_view(view="seat:2")["passed_win"] == [2]
    assert table.hand_view(view="seat:1")["passed_win"] == []
    table.settle()
    table.ok("TileDrawn", seat=2, tile="6p")
    table.ok("Win", seat=2, tile="6p")
    assert table.hand_view()["wins"][0]["how"] == "selfDraw"


def test_mjs_ex14_three_slow_discards_cost_10():
    clock = Clock()
    table = opened(client(clock))
    for turn in range(3):
        clock.advance(seconds=31)
        table.ok("TimeLimitExceeded", seat=1, limit="discard")
        if turn == 0:
            table.rejected("TimeLimitExceeded", "MJS-10.3", seat=1, limit="discard")
        for _ in range(4):
            table.draw_discard()
    hand = table.hand_view()
    assert hand["warnings"] == [0, 3, 0, 0]
    assert rows(hand) == [(1, None, 10, "penalty", "MJS-10.3")]
    assert hand["scores"] == [0, -10, 0, 0]


THREE_ON_5M = {2: "4m 6m 1s 2s 3s 4s 5s 6s 7s 8s 9s 9s 9s",      # void p
               3: "5m 5m 5m 6m 7m 1s 1s 1s 3s 3s 3s 8s 8s"}     # void p
DEALER_ON_5M = "1m 2m 3m 4m 6m 7p 8p 9p 1p 1p 1p 9p 9p"         # void s


def test_mjs_ex15_the_dealer_keeps_the_deal_only_as_a_winner():
    table = Table(client())
    table.deal({0: DEALER_ON_5M + " 9s", 1: "5m", **THREE_ON_5M}, wall="2m")
    table.voids("sspp")
    table.ok("TileDiscarded", seat=0, tile="9s")
    table.settle()
    table.ok("TileDrawn", seat=1, tile="2m")
    table.ok("TileDiscarded", seat=1, tile="5m")
    for seat in (0, 2, 3):
        table.ok("Claim", seat=seat, kind="win")
    row = finished(table)
    assert row["winners"] == [2, 3, 0] and row["result"] == "win" and row["next_dealer"] == 0
    table.hand = 2                                              # the dealer won: he deals again
    table.deal({0: "5m", 1: DEALER_ON_5M, **THREE_ON_5M})
    table.voids("mspp")
    table.ok("TileDiscarded", seat=0, tile="5m")
    for seat in (1, 2, 3):
        table.ok("Claim", seat=seat, kind="win")
    row = finished(table)
    assert row["dealer"] == 0 and row["winners"] == [1, 2, 3] and row["next_dealer"] == 1
    assert table.match()["dealer"] == 1
