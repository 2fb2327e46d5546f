"""The worked examples of mahjong-sichuan.md section 13 on the engine: each example's hands, the
value (fan and cap, MJS-6), who pays (MJS-6.4, 7.1 – 7.3, 8.3, 9.2, 10.3), who plays next
(MJS-3.5) and the dealer (MJS-1.3). (The API tests play them through HTTP too.)"""

from mjs_states import (
    MJS,
    act,
    arranged,
    dealt,
    paid,
    payments,
    playing,
    settle,
    violated,
)

from rules.mahjong.dealer import next_dealer
from rules.mahjong.hand import KongRecord
from rules.mahjong.sichuan import draw_checks, hand_value, sichuan_settings, win_value
from rules.mahjong.tiles import parse_meld, parse_tiles

EX1 = "1m 2m 3m 4m 5m 6m 7s 8s 9s 5s 6s 2s 2s"


def claim_win(state, *seats):
    for seat in seats:
        state = act(state, "Claim", seat, kind="win")
    return settle(state)


def test_mjs_ex1_basic_discard_win_is_2_paid_by_the_discarder():
    state = playing({0: "7s", 2: EX1}, voids="mmps")
    state = claim_win(act(state, "TileDiscarded", 0, tile="7s"), 2)
    (win,) = state.wins
    assert win_value(state, win).to_dict() == {"pattern": "basic", "fans": {}, "fan": 0,
                                               "points": 2}
    assert payments(state) == [(0, 2, 2, "win")]
    assert not state.over and state.phase == "draw" and state.turn == 3   # MJS-4.1, 3.5


def test_mjs_ex2_all_pongs_self_draw_paid_by_the_two_still_in():
    state = arranged({1: ("5p 5p 5p 9s 9s 2s 2s", "[pong 3p] [pong 8s]")}, voids="pmsp",
                     turn=1, wall="2s", won=(3,))
    state = act(act(state, "TileDrawn", 1, tile="2s"), "Win", 1)
    value = win_value(state, state.wins[-1])
    assert dict(value.fans) == {"allPongs": 1, "selfDraw": 1} and value.points == 8
    assert payments(state) == [(0, 1, 8, "win"), (2, 1, 8, "win")]
    assert paid(state) == (-8, 16, -8, 0)


def test_mjs_ex3_pure_seven_pairs_with_a_gen_is_capped_at_32():
    state = playing({0: "8s", 3: "1s 1s 3s 3s 3s 3s 5s 5s 7s 7s 9s 9s 8s"}, voids="ppsm")
    state = claim_win(act(state, "TileDiscarded", 0, tile="8s"), 3)
    value = win_value(state, state.wins[0])
    assert dict(value.fans) == {"sevenPairs": 2, "pure": 2, "gen": 1} and value.fan == 5
    assert value.points == 32 and payments(state) == [(0, 3, 32, "win")]


def test_mjs_ex4_concealed_kong_then_kong_flower():
    hand = "6m 6m 6m 1m 2m 3m 7p 8p 4p 4p 4p 5m 5m"
    state = playing({3: "9s", 0: hand}, voids="sppp", dealer=3, wall="6m", end="9p")
    state = settle(act(state, "TileDiscarded", 3, tile="9s"))
    state = act(state, "TileDrawn", 0, tile="6m")
    state = act(state, "KongDeclared", 0, kind="concealed", tile="6m")
    assert payments(state) == [(1, 0, 4, "kong"), (2, 0, 4, "kong"), (3, 0, 4, "kong")]
    state = act(state, "TileDrawn", 0, tile="9p", fromEnd=True)
    state = act(state, "Win", 0)
    value = win_value(state, state.wins[0])
    assert dict(value.fans) == {"gen": 1, "selfDraw": 1, "kongFlower": 1}
    assert value.points == 16
    assert paid(state) == (60, -20, -20, -20)


def test_mjs_ex5_kong_payments_at_once():
    # a direct kong: the discarder pays 2
    state = playing({0: "7s", 2: "7s 7s 7s"}, voids="mmmm")
    state = act(act(state, "TileDiscarded", 0, tile="7s"), "Claim", 2, kind="kong")
    assert payments(settle(state)) == [(0, 2, 2, "kong")]
    # an added kong: each other player still in pays 2 (+6; +4 once seat 1 has won)
    for won, gain in (((), 6), ((1,), 4)):
        state = arranged({3: ("1m 2m 3m 5m 5m 7m 8m 9m 1s 2s", "[pong 4p]")}, voids="sssm",
                         turn=3, wall="4p", won=won)
        state = act(act(state, "TileDrawn", 3, tile="4p"), "KongDeclared", 3, kind="added",
                    tile="4p")
        assert state.phase == "claims" and state.window.robbing   # MJS-7.3: may it be robbed?
        state = settle(state)
        assert state.phase == "draw" and state.replacement
        assert paid(state)[3] == gain and all(p[2] == 2 for p in payments(state))
    # a concealed kong: 4 from each of three
    state = arranged({0: ("9p 9p 9p 1m 2m 3m 5m 5m 7m 8m 9m 1s 2s", "")}, voids="ssss",
                     turn=0, wall="9p")
    state = act(act(state, "TileDrawn", 0, tile="9p"), "KongDeclared", 0, kind="concealed",
                tile="9p")
    assert paid(state) == (12, -4, -4, -4)


def test_mjs_ex6_one_discard_two_winners():
    state = playing({0: "9p", 2: "1m 2m 3m 4m 6m 6s 7s 8s 1s 1s 1s 9s 9s",
                     3: "1m 1m 1m 3m 3m 3m 7m 7m 7m 5m 5m 9m 9m"}, voids="sppp", wall="5m")
    state = settle(act(state, "TileDiscarded", 0, tile="9p"))
    state = act(act(state, "TileDrawn", 1, tile="5m"), "TileDiscarded", 1, tile="5m")
    state = claim_win(state, 3, 2)                   # the order of the claims does not matter
    values = {w.seat: win_value(state, w).points for w in state.wins}
    assert values == {2: 2, 3: 16}
    assert paid(state) == (0, -18, 2, 16)
    assert state.turn == 0 and state.phase == "draw"   # after the last winner, seat 3


def test_mjs_ex7_robbing_an_added_kong():
    robber = "4p 5p 1s 2s 3s 7s 8s 9s 2p 2p 2p 9s 9s"
    state = arranged({0: ("1m 2m 3m 5m 5m 7m 8m 9m 2m 3m", "[pong 6p]"), 2: (robber, "")},
                     voids="smms", turn=0, wall="6p")
    state = act(act(state, "TileDrawn", 0, tile="6p"), "KongDeclared", 0, kind="added",
                tile="6p")
    assert state.phase == "claims" and state.window.robbing and state.window.may[2] == {"win"}
    state = claim_win(state, 2)
    (win,) = state.wins
    assert win.how == "robKong" and dict(win_value(state, win).fans) == {"robKong": 1}
    assert payments(state) == [(0, 2, 4, "win")]            # no kong payment
    assert [str(m) for m in state.seats[0].melds] == ["[pong 6p]"] and not state.kongs
    assert state.turn == 3 and state.phase == "draw"


def test_mjs_ex8_win_on_the_discard_after_a_kong_cancels_the_kong_payment():
    winner = "2s 3s 1p 2p 3p 5p 6p 7p 8s 8s 8s 6p 6p"
    state = playing({1: "9m", 3: "9m 9m 9m", 0: winner}, voids="mppp", dealer=1, end="4s")
    state = act(act(state, "TileDiscarded", 1, tile="9m"), "Claim", 3, kind="kong")
    state = settle(state)
    assert payments(state) == [(1, 3, 2, "kong")]
    state = act(state, "TileDrawn", 3, tile="4s", fromEnd=True)
    state = claim_win(act(state, "TileDiscarded", 3, tile="4s"), 0)
    (win,) = state.wins
    assert dict(win_value(state, win).fans) == {"afterKong": 1}
    assert payments(state) == [(1, 3, 2, "kong"), (3, 0, 4, "win"), (3, 1, 2, "refund")]
    assert paid(state) == (4, 0, 0, -4)


def test_mjs_ex9_exhaustive_draw_flower_pig_and_not_ready_pay_the_ready_player():
    state = arranged({0: ("1m 1m 2m 2m 3m 3m 5m 5m 7m 7m 9m 9m 4p", ""),
                      1: ("1m 4m 7m 2p 5p 8p 1p 1p 1p 3p", "[kong 6p]"),
                      2: ("1m 2m 3m 1p 2p 3p 1s 2s 3s 4s 5s 6s 9s", "")},
                     voids="smms", turn=1, won=(3,),
                     kongs=(KongRecord(1, "direct", "6p", (3,), from_seat=3, seq=1),),
                     wall_count=0)
    state = act(state, "DrawGame")
    assert state.over and state.result == "draw"
    checks = {c.seat: (c.status, c.value.points if c.value else None) for c in draw_checks(state)}
    assert checks == {0: ("ready", 8), 1: ("notReady", None), 2: ("flowerPig", None)}
    settlement = paid(state, reasons=("refund", "drawSettlement"))
    assert settlement == (16, -10, -8, 2)
    assert (1, 3, 2, "refund") in payments(state)


def test_mjs_ex10_false_win_pays_32_to_each_player_still_in():
    state = arranged({}, voids="mmmm", turn=0, won=(3,))
    state = act(state, "FalseWinDeclared", 2)
    assert payments(state) == [(2, 0, 32, "penalty"), (2, 1, 32, "penalty")]
    assert paid(state) == (32, 32, -64, 0) and state.barred[2] == "MJS-9.2"
    assert state.phase == "draw" and state.turn == 0          # play resumes


def _exchange(red: int):
    picks = {0: "2p 5p 9p", 1: "1s 1s 7s", 2: "3m 4m 8m", 3: "6p 6p 2p"}
    state = dealt(picks, dealer=1, settings=sichuan_settings({"final": True}))
    assert state.phase == "exchange"                          # the final: 换三张 (MJS-2.1)
    before = [list(h.concealed) for h in state.seats]
    for seat, tiles in picks.items():
        state = act(state, "ExchangeTilesSelected", seat, tiles=tiles.split())
    state = act(state, "DiceRolled", 1, purpose="exchange", dice=[red, 1])
    assert state.phase == "void"
    return state, before


def test_mjs_ex11_exchange_three_by_the_red_die():
    state, before = _exchange(5)                              # 5 -> pass to the previous seat
    assert state.exchange.direction == "previous"
    assert {s: state.exchange.received(s) for s in range(4)} == {
        0: ("1s", "1s", "7s"), 1: ("3m", "4m", "8m"), 2: ("6p", "6p", "2p"),
        3: ("2p", "5p", "9p")}
    got = list(before[0])
    for tile in "2p 5p 9p".split():
        got.remove(tile)
    assert sorted(state.seats[0].concealed) == sorted(got + ["1s", "1s", "7s"])
    state, _ = _exchange(2)                                   # 2 -> to the next seat
    assert state.exchange.received(1) == ("2p", "5p", "9p")
    state, _ = _exchange(3)                                   # 3 -> opposite
    assert state.exchange.received(0) == ("3m", "4m", "8m")
    assert state.exchange.received(1) == ("6p", "6p", "2p")


def test_mjs_ex12_passing_a_win_bars_discard_wins_until_the_next_draw():
    waiting = "1m 2m 3m 4m 5m 6m 7m 8m 9m 9m 9m 4p 5p"
    state = playing({0: "3p 6p 6p", 2: waiting}, voids="sssm", wall="6p 6p 3p")
    state = act(state, "TileDiscarded", 0, tile="3p")
    assert "win" in state.window.may[2]
    state = settle(state)                                    # seat 2 passes the 3p
    assert 2 in state.passed_win
    state = act(act(state, "TileDrawn", 1, tile="6p"), "TileDiscarded", 1, tile="6p")
    assert "win" not in state.window.may[2]
    violated("MJS-5.6", state, "Claim", 2, kind="win")
    state = settle(state)
    state = act(state, "TileDrawn", 2, tile="6p")
    assert 2 not in state.passed_win
    won = act(state, "Win", 2)                                # self-draw is never barred
    assert won.wins[0].self_drawn
    # after his draw he may again win on a discard: he discards the 6p, still waiting on
    # 3p / 6p, and wins on seat 3's 3p
    state = settle(act(state, "TileDiscarded", 2, tile="6p"))
    state = act(act(state, "TileDrawn", 3, tile="3p"), "TileDiscarded", 3, tile="3p")
    assert "win" in state.window.may[2]
    state = claim_win(state, 2)
    assert state.winners == (2,) and state.wins[0].from_seat == 3 and not state.wins[0].self_drawn


def test_mjs_ex13_fan_and_cap_table():
    melds = (parse_meld("[kong 2m]"),)

    def value(tiles, melds=(), fans=()):
        return hand_value(parse_tiles(tiles), melds, MJS, fans)

    assert value("1m 2m 3m 4m 5m 6m 7s 8s 9s 5s 6s 7s 2s 2s", fans=["selfDraw"]).points == 4
    gen_pongs = value("3m 3m 3m 5p 5p 5p 9p 9p 9p 7m 7m", melds, ["selfDraw"])
    assert gen_pongs.fan == 3 and gen_pongs.points == 16
    pure_pairs = value("1s 1s 2s 2s 3s 3s 4s 4s 5s 5s 6s 6s 9s 9s")
    assert pure_pairs.fan == 4 and pure_pairs.points == 32
    capped = value("1s 1s 2s 2s 3s 3s 4s 4s 5s 5s 6s 6s 9s 9s", fans=["selfDraw"])
    assert capped.fan == 5 and capped.points == 32
    last = value("1m 2m 3m 4m 5m 6m 7s 8s 9s 5s 6s 7s 2s 2s", fans=["selfDraw", "lastTile"])
    assert last.fan == 2 and last.points == 8


def test_mjs_ex14_three_time_warnings_in_a_hand_cost_10_deducted():
    state = arranged({}, voids="mmmm", turn=0)
    for _ in range(3):
        state = act(state, "WarningIssued", 1, offence="slow")
    assert payments(state) == [(1, None, 10, "penalty")]
    assert paid(state) == (0, -10, 0, 0)


def test_mjs_ex15_the_dealer_keeps_the_deal_if_among_the_winners():
    assert next_dealer(0, (2, 0), MJS) == 0
    assert next_dealer(0, (1, 2, 3), MJS) == 1
    assert next_dealer(0, (), MJS) == 1                       # a draw without a win passes
