"""The hand's turns and its end against MJO-3.1, 3.2, 5.4, 5.6, 6.1, 6.2 (worked example 13),
and the kongs a Sichuan game would switch on (MJS-3.4) through the same transitions."""
from collections import Counter
from dataclasses import replace

import pytest
from mj_states import act, draw_discard, settle, table, violated

from rules.mahjong import MJO, apply, due_engine_event, mjo_settings
from rules.mahjong.dealer import next_dealer
from rules.mahjong.hand import tiles_in_play
from rules.mahjong.mjo import hand_payments
from rules.mahjong.tiles import INDEX, format_tiles, tile_set

WINNING = "1m 2m 3m 4p 5p 6p 7s 8s 9s C C C 5m 5m"
KONGS = replace(MJO, kongDirect=True, kongAdded=True, kongConcealed=True)


def test_mjo_3_1_the_dealer_opens_by_discarding_from_fourteen():
    state = table({}, dealer=2)
    assert state.turn == 2 and state.phase == "discard" and len(state.seats[2].concealed) == 14
    assert "opens the hand by discarding" in violated("MJO-3.1", state, "TileDrawn", 3,
                                                      tile=state.wall[0]).message
    violated("MJO-3.1", state, "TileDrawn", 2, tile=state.wall[0])
    violated("MJO-3.1", state, "TileDiscarded", 0, tile=state.seats[0].concealed[0])


def test_mjo_3_2_draw_after_the_previous_discard_then_discard_one():
    state = settle(act(table({0: "E"}), "TileDiscarded", 0, tile="E"))
    assert "seat 1's turn to draw" in violated("MJO-3.2", state, "TileDrawn", 2,
                                               tile=state.wall[0]).message
    violated("MJO-3.2", state, "TileDiscarded", 1, tile=state.seats[1].concealed[0])
    state = act(state, "TileDrawn", 1, tile=state.wall[0])
    assert state.seats[1].size == 14
    assert "does not hold" in violated("MJO-3.2", state, "TileDiscarded", 1, tile="E").message
    violated("MJO-3.2", state, "TileDrawn", 1, tile=state.wall[0])
    drawn = state.drawn
    state = act(state, "TileDiscarded", 1, tile=drawn)
    assert state.seats[1].size == 13 and state.seats[1].pool == (drawn,)


def test_mjo_5_4_the_dealer_may_win_on_his_first_fourteen():
    state = act(table({0: WINNING}), "Win", 0)
    (win,) = state.wins
    assert state.over and (win.seat, win.tile, win.self_drawn) == (0, None, True)
    assert hand_payments(state) == (12, -4, -4, -4)


def test_mjo_5_4_self_drawn_win_on_the_tile_just_drawn():
    state = table({0: "1m 2m 3m 4p 5p 6p 7s 8s 9s C C C 5m E"}, wall="S W N 5m")
    state = act(state, "TileDiscarded", 0, tile="E")
    for _ in range(3):
        state = draw_discard(state)
    state = settle(state)
    state = act(act(state, "TileDrawn", 0, tile="5m"), "Win", 0)
    assert state.wins[0].tile == "5m" and state.wins[0].self_drawn
    assert format_tiles(state.seats[0].concealed) == "1m 2m 3m 5m 5m 4p 5p 6p 7s 8s 9s C C C"
    assert state.seats[0].melds == ()


def test_mjo_5_4_no_self_drawn_win_without_a_draw():
    state = table({1: "5p", 0: "5p 5p 1m 2m 3m 7s 8s 9s C C C 2m 2m"}, dealer=1)
    state = settle(act(act(state, "TileDiscarded", 1, tile="5p"), "Claim", 0, kind="pong"))
    assert "did not draw this turn" in violated("MJO-5.4", state, "Win", 0).message


@pytest.mark.parametrize("hand,rule", [("1m 2m 3m 4p 5p 6p 7s 8s 9s C C C 3m 3m", "MJO-5.2"),
                                       ("2m 2m 5m 5m 8m 8m 2p 2p 5p 5p 8p 8p E E", "MJO-5.3"),
                                       ("1m 4m 7m 2p 5p 8p 3s 6s 9s E S W N C", "MJO-5.1")])
def test_mjo_5_6_strict_an_invalid_win_is_rejected(hand, rule):
    violated(rule, table({0: hand}), "Win", 0)


def test_mjo_5_6_record_mode_an_invalid_self_draw_waits_for_the_referee():
    state = table({0: "1m 4m 7m 2p 5p 8p 3s 6s 9s E S W N C"},
                  settings=mjo_settings({"enforcement": "record"}))
    pending = act(state, "Win", 0)
    assert pending.phase == "ruling" and pending.ruling.rule == "MJO-5.1"
    assert "referee" in violated("MJO-5.6", pending, "TileDiscarded", 0, tile="E").message
    back = apply(pending, "RulingRecorded", {"winValid": False})
    assert back.phase == "discard" and act(back, "TileDiscarded", 0, tile="E").seats[0].pool == ("E",)
    upheld = apply(pending, "RulingRecorded", {"winValid": True})
    assert upheld.over and upheld.winners == (0,)
    assert apply(state, "RulingRecorded", {"text": "no effect"}) is state
    violated("MJO-5.6", state, "RulingRecorded", winValid=True)


def test_mjo_5_6_record_mode_an_invalid_win_claim_withdrawn_lets_the_pong_stand():
    state = table({1: "5p", 0: "5p 5p", 3: "1m 4m 7m 2p 5p 8p 3s 6s 9s E S W N"}, dealer=1,
                  settings=mjo_settings({"enforcement": "record"}))
    state = act(state, "TileDiscarded", 1, tile="5p")
    state = act(act(state, "Claim", 3, kind="win"), "Claim", 0, kind="pong")
    state = apply(state, "ClaimsResolved", {"timedOut": True})
    assert state.phase == "ruling" and state.ruling.seat == 3 and state.ruling.on_claim
    state = apply(state, "RulingRecorded", {"winValid": False})
    assert str(state.seats[0].melds[0]) == "[pong 5p]" and state.turn == 0 and not state.wins


def test_mjo_6_1_the_last_tile_may_win_and_is_not_discarded():
    state = settle(act(table({0: "E", 1: "1m 2m 3m 4p 5p 6p 7s 8s 9s C C C 5m"}), "TileDiscarded",
                       0, tile="E"))
    last = next(t for t in state.wall if t != "5m")
    end = replace(state, wall=(last,), wall_count=1)
    after = act(end, "TileDrawn", 1, tile=last)
    assert after.wall_count == 0
    assert "may not discard" in violated("MJO-6.1", after, "TileDiscarded", 1, tile=last).message
    assert due_engine_event(after) == "DrawGame"
    winning = act(act(replace(state, wall=("5m",), wall_count=1), "TileDrawn", 1, tile="5m"),
                  "Win", 1)
    assert winning.winners == (1,)


def test_mjo_6_1_setting_last_tile_discard_only_a_win_may_be_claimed():
    state = table({0: "E", 2: "5p 5p", 1: "5p"}, settings=mjo_settings({"lastTileDiscard": True}))
    state = settle(act(state, "TileDiscarded", 0, tile="E"))
    end = act(replace(state, wall=(state.wall[0],), wall_count=1), "TileDrawn", 1,
              tile=state.wall[0])
    state = act(end, "TileDiscarded", 1, tile="5p")
    if state.phase == "claims":
        violated("MJO-6.1", state, "Claim", 2, kind="pong")
        state = settle(state)
    assert state.phase == "draw" and state.wall_count == 0
    assert "exhausted" in violated("MJO-6.1", state, "TileDrawn", 2, tile="E").message
    assert due_engine_event(state) == "DrawGame"
    assert apply(state, "DrawGame", {}).result == "draw"


def test_mjo_6_1_no_draw_game_while_tiles_are_left():
    violated("MJO-6.1", table({}), "DrawGame")


def test_mjo_ex13_exhaustive_draw_no_payments_and_the_deal_passes():
    state = table({1: "N 1m 4m 7m 2p 5p 8p", 3: "N N", 2: "3s 6s 9s E S W"}, dealer=1)
    state = act(state, "TileDiscarded", 1, tile="N")
    state = settle(act(state, "Claim", 3, kind="pong"))
    state = act(state, "TileDiscarded", 3, tile=state.seats[3].concealed[0])
    while state.wall_count:
        state = settle(state)
        state = act(state, "TileDrawn", state.turn, tile=state.wall[0])
        if state.wall_count:
            state = act(state, "TileDiscarded", state.turn, tile=state.drawn)
        assert tiles_in_play(state) == Counter(tile_set(136))
    assert state.turn == 2 and state.phase == "discard"      # seat 2 drew the last tile
    assert due_engine_event(state) == "DrawGame"                 # and cannot win
    state = apply(state, "DrawGame", {})
    assert state.over and state.result == "draw" and not state.wins
    assert hand_payments(state) == (0, 0, 0, 0)
    assert next_dealer(1, state.winners, MJO) == 2


def test_mjs_3_4_direct_kong_then_a_replacement_from_the_end_of_the_wall():
    state = table({1: "7s", 3: "7s 7s 7s"}, dealer=1, settings=KONGS)
    state = act(state, "TileDiscarded", 1, tile="7s")
    assert "kong" in state.window.may[3]
    state = settle(act(state, "Claim", 3, kind="kong"))
    assert str(state.seats[3].melds[0]) == "[kong 7s]" and state.phase == "draw"
    assert state.replacement and state.turn == 3
    other = next(t for t in INDEX if t != state.wall[-1])
    violated("MJO-2.4", state, "TileDrawn", 3, tile=other, fromEnd=True)
    violated("MJO-4.3", state, "TileDrawn", 3, tile=state.wall[-1], fromEnd=False)
    state = act(state, "TileDrawn", 3, tile=state.wall[-1], fromEnd=True)
    assert state.wall_count == 82 and state.seats[3].size == 14
    state = act(state, "TileDiscarded", 3, tile=state.drawn)
    assert tiles_in_play(state) == Counter(tile_set(136))


def test_mjs_3_4_concealed_kong_and_added_kong_of_the_tile_just_drawn():
    state = table({0: "9m 9m 9m 9m 5p 5p 5p"}, settings=KONGS)
    state = act(state, "KongDeclared", 0, kind="concealed", tile="9m")
    assert str(state.seats[0].melds[0]) == "[kong 9m concealed]" and state.replacement
    violated("MJO-3.2", state, "TileDiscarded", 0, tile="5p")
    state = act(state, "TileDrawn", 0, tile=state.wall[-1])
    violated("MJO-4.3", state, "KongDeclared", 0, kind="concealed", tile="5p")

    pong = table({1: "5p", 0: "5p 5p"}, dealer=1, wall="E E E 5p", settings=KONGS)
    pong = settle(act(act(pong, "TileDiscarded", 1, tile="5p"), "Claim", 0, kind="pong"))
    pong = act(pong, "TileDiscarded", 0, tile=pong.seats[0].concealed[-1])
    for _ in range(3):
        pong = draw_discard(pong)
    pong = act(settle(pong), "TileDrawn", 0, tile="5p")
    pong = act(pong, "KongDeclared", 0, kind="added", tile="5p")
    assert str(pong.seats[0].melds[0]) == "[kong 5p]" and pong.seats[0].melds[0].from_seat == 1


def test_mjs_3_4_added_kong_only_with_the_tile_just_drawn():
    state = table({1: "5p", 0: "5p 5p 5p"}, dealer=1, settings=KONGS)
    state = settle(act(act(state, "TileDiscarded", 1, tile="5p"), "Claim", 0, kind="pong"))
    state = draw_discard(act(state, "TileDiscarded", 0, tile=state.seats[0].concealed[0]))
    state = draw_discard(draw_discard(state))
    state = act(settle(state), "TileDrawn", 0, tile=state.wall[0])
    message = violated("MJO-4.3", state, "KongDeclared", 0, kind="added", tile="5p").message
    assert "only the tile just drawn" in message
    later = replace(state, settings=replace(KONGS, addedKongLater=True))
    assert act(later, "KongDeclared", 0, kind="added", tile="5p").replacement
