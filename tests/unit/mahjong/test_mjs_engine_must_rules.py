"""Every "must" rule of mahjong-sichuan.md refused by the engine with its rule ID (the API tests
check the same through HTTP, with nothing stored), and the shapes the rules accept: seven pairs
with four of a kind inside, no win ever holding three suits."""
from dataclasses import replace

import pytest
from mjs_states import (
    MJS,
    act,
    arranged,
    deal_data,
    dealt,
    payments,
    playing,
    settle,
    violated,
)

from rules import RuleViolation
from rules.mahjong import session as S
from rules.mahjong.actions import due_engine_event
from rules.mahjong.dealing import deal
from rules.mahjong.sichuan import sichuan_settings
from rules.mahjong.tiles import parse_tiles
from rules.mahjong.winning import is_winning_hand

FINAL = sichuan_settings({"final": True})
READY_7S = "1m 2m 3m 4m 5m 6m 7s 8s 9s 5s 6s 2s 2s"     # waits on 4s / 7s (Ex 1)


# --- MJS-1: tiles, the deal -----------------------------------------------------------------

def refused_deal(rule, data):
    with pytest.raises(RuleViolation) as info:
        deal(MJS, data)
    assert info.value.rule == rule and f"({rule})" in info.value.message
    return info.value


def test_mjs_1_1_the_set_has_no_honours():
    data = deal_data({})
    data["hands"][0][0] = "E"
    assert "not in the 108-tile set" in refused_deal("MJS-1.1", data).message


def test_mjs_1_2_the_dealer_holds_14_and_draws_follow_the_wall():
    data = deal_data({})
    data["hands"][1].append(data["hands"][0].pop())
    assert "holds 14" in refused_deal("MJS-1.2", data).message
    state = settle(act(playing({0: "9s"}, voids="mmmm"), "TileDiscarded", 0, tile="9s"))
    wrong = next(t for t in parse_tiles("1m 2m 3m") if t != state.wall[0])
    violated("MJS-1.2", state, "TileDrawn", 1, tile=wrong)


# --- MJS-2: 换三张 and the void suits ----------------------------------------------------------

def test_mjs_2_1_three_tiles_of_one_suit_held_once_then_the_dealers_roll():
    state = dealt({0: "1m 2m 3m 4p", 1: "1s 2s 3s", 2: "5m 6m 7m", 3: "7p 8p 9p"},
                  settings=FINAL)
    assert "one suit" in violated("MJS-2.1", state, "ExchangeTilesSelected", 0,
                                  tiles=["1m", "2m", "4p"]).message
    violated("MJS-2.1", state, "ExchangeTilesSelected", 0, tiles=["1m", "2m"])
    assert "does not hold" in violated("MJS-2.1", state, "ExchangeTilesSelected", 1,
                                       tiles=["1s", "2s", "9s"] if "9s" not in
                                       state.seats[1].concealed else ["1s", "1s", "1s"]).message
    violated("MJS-2.1", state, "TileDiscarded", 0, tile="4p")       # play waits
    violated("MJS-2.1", state, "VoidSuitDeclared", 0, suit="s")     # voids after the exchange
    state = act(state, "ExchangeTilesSelected", 0, tiles=["1m", "2m", "3m"])
    violated("MJS-2.1", state, "ExchangeTilesSelected", 0, tiles=["1m", "2m", "3m"])
    assert "have not" in violated("MJS-2.1", state, "DiceRolled", 0, purpose="exchange",
                                  dice=[1, 1]).message
    for seat, tiles in ((1, "1s 2s 3s"), (2, "5m 6m 7m"), (3, "7p 8p 9p")):
        state = act(state, "ExchangeTilesSelected", seat, tiles=tiles.split())
    assert "the dealer" in violated("MJS-2.1", state, "DiceRolled", 2, purpose="exchange",
                                    dice=[3, 3]).message
    state = act(state, "DiceRolled", 0, purpose="exchange", dice=[4, 1])
    violated("MJS-2.1", state, "DiceRolled", 0, purpose="exchange", dice=[4, 1])
    violated("MJS-2.1", state, "ExchangeTilesSelected", 1, tiles=["5m", "6m", "7m"])


def test_mjs_2_1_no_exchange_where_the_stage_has_none():
    state = dealt({0: "1m 2m 3m"})
    assert state.phase == "void"
    violated("MJS-2.1", state, "ExchangeTilesSelected", 0, tiles=["1m", "2m", "3m"])


def test_mjs_2_2_play_waits_for_all_four_void_suits_each_declared_once():
    state = dealt({0: "9s"})
    violated("MJS-2.2", state, "TileDiscarded", 0, tile="9s")
    violated("MJS-2.2", state, "Win", 0)
    state = act(state, "VoidSuitDeclared", 0, suit="p")
    assert "stands" in violated("MJS-2.2", state, "VoidSuitDeclared", 0, suit="m").message
    violated("MJS-2.2", state, "VoidSuitDeclared", 1, suit="E")
    for seat in (1, 2, 3):
        state = act(state, "VoidSuitDeclared", seat, suit="m")
    state = act(state, "TileDiscarded", 0, tile="9s")
    assert "stands" in violated("MJS-2.2", state, "VoidSuitDeclared", 1, suit="s").message


def test_mjs_2_2_no_pong_or_kong_of_the_void_suit():
    state = playing({0: "5p", 1: "5p 5p", 2: "5p"}, voids="mppm")
    state = act(state, "TileDiscarded", 0, tile="5p")
    assert state.window is None or "pong" not in state.window.may[1]
    state = playing({0: "5p", 1: "5p 5p 5p"}, voids="mpmm")
    state = act(state, "TileDiscarded", 0, tile="5p")
    assert "void suit" in violated("MJS-2.2", state, "Claim", 1, kind="pong").message
    violated("MJS-2.2", state, "Claim", 1, kind="kong")


def test_mjs_2_2_void_tiles_first_only_with_the_setting():
    settings = replace(MJS, voidFirstDiscards=True)
    state = playing({0: "1p 9s"}, voids="pmmm", settings=settings)
    assert "first" in violated("MJS-2.2", state, "TileDiscarded", 0, tile="9s").message
    act(playing({0: "1p 9s"}, voids="pmmm"), "TileDiscarded", 0, tile="9s")   # default: free


# --- MJS-3: turns, claims, kongs ---------------------------------------------------------------

def test_mjs_3_1_no_chow():
    state = act(playing({0: "3m", 1: "4m 5m 5m 5m"}, voids="pppp"), "TileDiscarded", 0,
                tile="3m")
    violated("MJS-3.1", state, "Claim", 1, kind="chow", tiles=["4m", "5m"])


def test_mjs_3_2_draw_after_the_previous_discard_discard_after_a_draw():
    state = playing({0: "9s"}, voids="mmmm")
    violated("MJS-3.2", state, "TileDrawn", 1, tile=state.wall[0])
    state = settle(act(state, "TileDiscarded", 0, tile="9s"))
    violated("MJS-3.2", state, "TileDrawn", 2, tile=state.wall[0])
    violated("MJS-3.2", state, "TileDiscarded", 1, tile=state.seats[1].concealed[0])


def test_mjs_3_3_a_claim_answers_its_window_once_never_ones_own_discard():
    state = act(playing({0: "5p", 1: "5p 5p"}, voids="mmmm"), "TileDiscarded", 0, tile="5p")
    violated("MJS-3.3", state, "Claim", 0, kind="pong")
    passed = act(state, "Claim", 1, kind="pass")
    violated("MJS-3.3", passed, "Claim", 1, kind="pong")


def test_mjs_3_4_kongs_need_the_tiles():
    state = arranged({0: ("6p 6p 6p 1m 2m 3m 5m 5m 7m 8m 9m 2s 3s", "")}, voids="ssss", turn=0,
                     wall="4m")
    state = act(state, "TileDrawn", 0, tile="4m")
    assert "four 6p" in violated("MJS-3.4", state, "KongDeclared", 0, kind="concealed",
                                 tile="6p").message
    violated("MJS-3.4", state, "KongDeclared", 0, kind="added", tile="6p")
    state = act(playing({0: "7s", 2: "7s 7s"}, voids="mmmm"), "TileDiscarded", 0, tile="7s")
    violated("MJS-3.4", state, "Claim", 2, kind="kong")


def test_mjs_3_4_a_concealed_kong_of_four_held_and_the_seeds_literal_reading():
    """MJS-3.4: "four identical tiles in hand on one's own turn" (seed 5c describes the usual
    case, the fourth drawn); ``concealedKongLater: false`` reads seed 5c literally — only on
    drawing the fourth."""
    hand = "6p 6p 6p 6p 1m 2m 3m 5m 5m 7m 8m 9m 2s"
    state = act(arranged({0: (hand, "")}, voids="ssss", turn=0, wall="4m"), "TileDrawn", 0,
                tile="4m")
    assert act(state, "KongDeclared", 0, kind="concealed", tile="6p").kongs[0].kind == \
        "concealed"
    literal = replace(state, settings=replace(MJS, concealedKongLater=False))
    assert "on drawing the fourth" in violated("MJS-3.4", literal, "KongDeclared", 0,
                                               kind="concealed", tile="6p").message


def test_mjs_3_4_a_non_dealer_dealt_four_kongs_them_on_his_first_turn_paid_4_by_each():
    """MJS-3.4, 7.1: seat 1, dealt four 6p, draws another tile and declares the concealed
    kong; each other player still in pays 4 (kongConcealed)."""
    state = settle(act(playing({0: "9s", 1: "6p 6p 6p 6p"}, voids="mmmm", wall="1s"),
                       "TileDiscarded", 0, tile="9s"))
    state = act(state, "TileDrawn", 1, tile="1s")
    state = act(state, "KongDeclared", 1, kind="concealed", tile="6p")
    assert [(k.seat, k.kind, k.tile) for k in state.kongs] == [(1, "concealed", "6p")]
    assert payments(state) == [(0, 1, 4, "kong"), (2, 1, 4, "kong"), (3, 1, 4, "kong")]
    assert state.phase == "draw" and state.replacement and state.turn == 1


def test_mjs_3_4_an_added_kong_only_with_the_tile_just_drawn():
    state = arranged({0: ("6p 1m 2m 3m 5m 5m 7m 8m 9m 2s", "[pong 6p]")}, voids="ssss",
                     turn=0, wall="4m")
    state = act(state, "TileDrawn", 0, tile="4m")
    assert "just drawn" in violated("MJS-3.4", state, "KongDeclared", 0, kind="added",
                                    tile="6p").message


# --- MJS-4: bloody battle ----------------------------------------------------------------------

def test_mjs_4_1_a_player_who_has_won_never_acts_again():
    state = playing({0: "7s 5p", 2: READY_7S, 3: "5p 5p"}, voids="mmps")
    state = settle(act(act(state, "TileDiscarded", 0, tile="7s"), "Claim", 2, kind="win"))
    assert state.is_out(2) and state.turn == 3
    violated("MJS-4.1", state, "TileDrawn", 2, tile=state.wall[0])
    state = act(state, "TileDrawn", 3, tile=state.wall[0])
    violated("MJS-4.1", state, "TileDiscarded", 2, tile=state.seats[2].concealed[0])
    violated("MJS-4.1", state, "Win", 2)
    state = act(state, "TileDiscarded", 3, tile=state.drawn)
    state = settle(state)
    state = act(act(state, "TileDrawn", 0, tile=state.wall[0]), "TileDiscarded", 0, tile="5p")
    assert state.window is not None and not state.window.may[2]
    violated("MJS-4.1", state, "Claim", 2, kind="pong")
    violated("MJS-4.1", settle(state), "Claim", 2, kind="win")


# --- MJS-5: winning hands ----------------------------------------------------------------------

def test_mjs_5_1_a_win_claim_on_a_hand_that_is_not_one():
    state = playing({0: "9p", 1: "1m 4m 7m 2m 5m 8m 1p 4p 7p 2p 5p 8p 9p"}, voids="msss")
    state = act(state, "TileDiscarded", 0, tile="9p")
    assert "four sets" in violated("MJS-5.1", state, "Claim", 1, kind="win").message


def test_mjs_5_3_seven_pairs_accept_four_of_a_kind_as_two_pairs():
    tiles = parse_tiles("1m 1m 1m 1m 3m 3m 5m 5m 7p 7p 9p 9p 2p 2p")
    assert is_winning_hand(tiles, (), MJS)
    state = playing({0: "2p", 3: "1m 1m 1m 1m 3m 3m 5m 5m 7p 7p 9p 9p 2p"}, voids="mmms")
    state = settle(act(act(state, "TileDiscarded", 0, tile="2p"), "Claim", 3, kind="win"))
    assert state.winners == (3,)


def test_mjs_5_5_no_win_holds_a_tile_of_the_void_suit():
    state = playing({0: "7s", 2: READY_7S}, voids="mmms")     # seat 2 void s: holds bamboo
    state = act(state, "TileDiscarded", 0, tile="7s")
    assert state.window.may[2] == frozenset()
    violated("MJS-5.5", state, "Claim", 2, kind="win")
    state = playing({0: "7s", 2: READY_7S, 3: "7s 7s"}, voids="mmms")
    state = act(state, "TileDiscarded", 0, tile="7s")
    assert "void suit" in violated("MJS-5.5", state, "Claim", 2, kind="win").message


def test_mjs_5_5_three_suits_never_win_even_if_the_shape_is_a_win():
    hand = "1m 2m 3m 4p 5p 6p 7s 8s 9s 2s 2s 5m 6m"           # waits 4m / 7m, holds m p s
    for void in "mps":
        state = playing({0: "7m", 2: hand, 3: "7m 7m"}, voids=f"ss{void}s")
        state = act(state, "TileDiscarded", 0, tile="7m")
        violated("MJS-5.5", state, "Claim", 2, kind="win")


def test_mjs_5_6_a_passed_win_bars_discard_wins_until_the_next_draw():
    waiting = "1m 2m 3m 4m 5m 6m 7m 8m 9m 9m 9m 4p 5p"
    state = playing({0: "3p 6p 6p", 2: waiting}, voids="sssm", wall="6p")
    state = settle(act(state, "TileDiscarded", 0, tile="3p"))
    state = act(act(state, "TileDrawn", 1, tile="6p"), "TileDiscarded", 1, tile="6p")
    assert "(过水)" in violated("MJS-5.6", state, "Claim", 2, kind="win").message


# --- MJS-7.3, MJS-8.1 --------------------------------------------------------------------------

def test_mjs_7_3_only_a_win_takes_a_kong_being_robbed():
    robber = "4p 5p 1s 2s 3s 7s 8s 9s 2p 2p 2p 9s 9s"
    state = arranged({0: ("1m 2m 3m 5m 5m 7m 8m 9m 2m 3m", "[pong 6p]"), 2: (robber, ""),
                      3: ("6p 1s 1s 4s 4s 7s 7s 1m 4m 7m 2s 5s 8s", "")},
                     voids="smms", turn=0, wall="6p")
    state = act(act(state, "TileDrawn", 0, tile="6p"), "KongDeclared", 0, kind="added",
                tile="6p")
    violated("MJS-7.3", state, "Claim", 3, kind="pong")
    violated("MJS-3.3", state, "TileDiscarded", 0, tile="1m")   # the window is open


def test_mjs_8_1_only_a_win_on_the_discard_after_the_last_tile():
    state = arranged({1: ("5p 5p 1m 2m 3m 4m 5m 6m 7m 8m 9m 1s 1s", ""),
                      0: ("5p 1s 2s 3s 4s 5s 6s 7s 8s 9s 2m 2m 3m 3m", "")},
                     voids="pmmm", turn=0, phase="discard")
    state = replace(state, wall=(), wall_count=0)
    state = act(state, "TileDiscarded", 0, tile="5p")
    assert state.window.last and not any(state.window.may)   # no pong on the last discard
    violated("MJS-8.1", state, "Claim", 1, kind="pong")
    state = settle(state)
    assert due_engine_event(state) == "DrawGame"
    state = act(state, "DrawGame")
    assert state.over and state.result == "draw"


# --- bars (MJS-9, MJS-10) ----------------------------------------------------------------------

@pytest.mark.parametrize("event, data, rule", [
    ("WrongTileCount", {}, "MJS-9.1"),
    ("FalseWinDeclared", {}, "MJS-9.2"),
    ("ConductPenaltyAssessed", {"offence": "otherHand", "victim": 1}, "MJS-10.5"),
])
def test_a_barred_player_may_not_win(event, data, rule):
    state = playing({0: "7s", 2: READY_7S, 3: "7s 7s"}, voids="mmps")
    state = act(act(state, event, 2, **data), "TileDiscarded", 0, tile="7s")
    assert state.window is None or "win" not in state.window.may[2]
    assert "lost the right to win" in violated(rule, state, "Claim", 2, kind="win").message


def test_mjs_10_2_the_second_offence_bars_the_win():
    state = playing({0: "7s", 2: READY_7S, 3: "7s 7s"}, voids="mmps")
    state = act(state, "WarningIssued", 2, offence="peek")
    assert state.barred[2] is None and state.warnings[2] == 1
    state = act(state, "WarningIssued", 2, offence="falsePong")
    assert state.barred[2] == "MJS-10.2" and state.warnings[2] == 1
    state = act(state, "TileDiscarded", 0, tile="7s")
    violated("MJS-10.2", state, "Claim", 2, kind="win")


# --- MJS-8.1 with lastDiscardWinnable false: a barred last drawer ------------------------------

NO_LAST_DISCARD = replace(MJS, lastTileDiscard=False)


def last_tile_for_a_barred_seat(rule_event: str, **data):
    """Seat 1, barred from winning by ``rule_event``, draws the last wall tile, 7s, which
    completes his hand's shape (Ex 1); the last drawer may not discard (lastDiscardWinnable
    false)."""
    state = arranged({1: (READY_7S, "")}, voids="pppp", turn=1, wall="7s",
                     settings=NO_LAST_DISCARD)
    state = replace(state, wall=("7s",), wall_count=1)
    state = act(state, rule_event, 1, **data)
    return act(state, "TileDrawn", 1, tile="7s")


@pytest.mark.parametrize("event, data, rule", [
    ("WrongTileCount", {}, "MJS-9.1"),
    ("ConductPenaltyAssessed", {"offence": "otherHand", "victim": 2}, "MJS-10.5"),
])
def test_mjs_8_1_a_barred_last_drawer_holding_a_winning_shape_ends_the_hand_drawn(event, data,
                                                                                   rule):
    state = last_tile_for_a_barred_seat(event, **data)
    assert state.wall_count == 0 and state.phase == "discard"
    violated(rule, state, "Win", 1)                           # barred
    violated("MJS-8.1", state, "TileDiscarded", 1, tile="7s")  # the last drawer does not discard
    assert due_engine_event(state) == "DrawGame"              # so the hand is drawn
    state = act(state, "DrawGame")
    assert state.over and state.result == "draw" and not state.wins


def test_mjs_8_1_the_last_drawer_may_declare_the_draw_when_he_may_not_discard():
    """At a table with lastDiscardWinnable false the last drawer who does not win declares the
    hand drawn (ExhaustiveDrawDeclared); with the default he discards instead (MJS-8.1)."""
    def table_at_the_last_tile(settings: dict):
        t = S.apply(None, "MatchStarted", {
            "match_id": "S1-T1", "game": "MJS", "round": 1,
            "teams": {str(s): f"p{s}" for s in range(4)}, "seats": ["甲", "乙", "丙", "丁"],
            "settings": settings})
        t = S.apply(t, "TilesDealt", {"hand": 1, **deal_data({}, dealer=1)})
        state = arranged({1: (READY_7S, "")}, voids="pppp", turn=1, wall="7s",
                         dealer=1, settings=t.settings)
        state = act(replace(state, wall=("7s",), wall_count=1), "TileDrawn", 1, tile="7s")
        return replace(t, current=replace(t.current, state=state))

    t = table_at_the_last_tile({"lastDiscardWinnable": False})
    t = S.apply(t, "ExhaustiveDrawDeclared", {"hand": 1, "seat": 1})
    assert t.current is None and t.finished[0].state.result == "draw"
    t = table_at_the_last_tile({})
    with pytest.raises(RuleViolation) as info:
        S.apply(t, "ExhaustiveDrawDeclared", {"hand": 1, "seat": 1})
    assert info.value.rule == "MJS-8.1"
