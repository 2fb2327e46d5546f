"""rules/mahjong/wall.py and the deal (rules/mahjong/hand.py) against MJO-1.1, MJO-2.3,
MJO-2.4 and MJO-6.1 (the whole wall is live), MJS-1.2 (55 tiles left of 108)."""
import random
from collections import Counter

import pytest

from rules import RuleViolation
from rules.mahjong import MJO, apply
from rules.mahjong.dealing import deal, deal_from_wall
from rules.mahjong.hand import tiles_in_play
from rules.mahjong.turns import draw
from rules.mahjong.tiles import KINDS, parse_tiles, tile_set
from rules.mahjong.wall import break_wall, deal_order, live_wall_size, second_roller


def violated(rule, fn, *args):
    with pytest.raises(RuleViolation) as info:
        fn(*args)
    assert info.value.rule == rule
    assert f"({rule})" in info.value.message
    return info.value


def shuffled(seed, count=136):
    tiles = list(tile_set(count))
    random.Random(seed).shuffle(tiles)
    return tiles


def dealt(seed=1, dealer=0):
    tiles = shuffled(seed)
    hands = [tiles[:14], tiles[14:27], tiles[27:40], tiles[40:53]]
    hands = hands[-dealer:] + hands[:-dealer] if dealer else hands
    return deal(MJO, {"dealer": dealer, "hands": hands, "wall": tiles[53:]})


@pytest.mark.parametrize("total,seat", [(5, 0), (9, 0), (2, 1), (6, 1), (10, 1), (3, 2), (7, 2),
                                        (11, 2), (4, 3), (8, 3), (12, 3)])
def test_mjo_2_3_the_first_throw_names_the_second_roller(total, seat):
    assert second_roller(0, total) == seat
    assert second_roller(2, total) == (seat + 2) % 4


def test_mjo_2_3_the_sum_is_counted_right_to_left_along_the_second_rollers_wall():
    walls = [shuffled(10 + s)[:34] for s in range(4)]
    # dealer 0 throws 5: East (the dealer) throws again, 2 -> 7: the 7th stack of seat 0's wall
    sequence = break_wall(walls, 0, [[2, 3], [1, 1]], MJO)
    assert list(sequence[:22]) == walls[0][12:34]
    assert list(sequence[22:56]) == walls[3]          # then clockwise: the wall of prev(0)
    assert list(sequence[-12:]) == walls[0][:12]
    # dealer 1 throws 12: North of the dealer (seat 0) throws 12 -> 24 runs on to seat 3's wall
    sequence = break_wall(walls, 1, [[6, 6], [6, 6]], MJO)
    assert list(sequence[:2]) == walls[3][12:14]


def test_mjo_2_3_dealer_takes_fourteen_with_the_jump_others_thirteen():
    sequence = tile_set(136)       # four of each face in order: block k is KINDS[k] x 4
    hands, live = deal_order(sequence, dealer=2)
    assert Counter(hands[2]) == Counter({"1m": 4, "5m": 4, "9m": 4, "4p": 1, "5p": 1})
    assert Counter(hands[3]) == Counter({"2m": 4, "6m": 4, "1p": 4, "4p": 1})
    assert Counter(hands[0]) == Counter({"3m": 4, "7m": 4, "2p": 4, "4p": 1})
    assert Counter(hands[1]) == Counter({"4m": 4, "8m": 4, "3p": 4, "4p": 1})
    assert live[0] == "5p" and len(live) == 83 == live_wall_size(136)
    assert KINDS[13] == "5p"


def test_mjo_2_3_hand_dealt_from_the_walls_and_dice():
    tiles = shuffled(3)
    walls = [tiles[34 * s:34 * s + 34] for s in range(4)]
    state = apply(None, "HandDealt", {"dealer": 1, "walls": walls, "dice": [[3, 4], [2, 5]]})
    assert [len(s.concealed) for s in state.seats] == [13, 14, 13, 13]
    assert state.turn == 1 and state.phase == "discard" and state.wall_count == 83
    assert tiles_in_play(state) == Counter(tile_set(136))


def test_mjo_2_3_dealer_holds_fourteen_others_thirteen():
    tiles = shuffled(2)
    hands = [tiles[:13], tiles[13:27], tiles[27:40], tiles[40:53]]
    message = violated("MJO-2.3", deal, MJO, {"dealer": 0, "hands": hands}).message
    assert "seat 0 was dealt 13 tiles" in message


@pytest.mark.parametrize("dice", [[[0, 3], [1, 1]], [[3, 7], [1, 1]], [[3, 3]], [[1, 2, 3], [1, 1]]])
def test_mjo_2_3_two_throws_of_two_dice(dice):
    tiles = shuffled(4)
    walls = [tiles[34 * s:34 * s + 34] for s in range(4)]
    violated("MJO-2.3", deal_from_wall, MJO, {"dealer": 0, "walls": walls, "dice": dice})


def test_mjo_1_1_no_face_more_than_four_times_and_the_wall_completes_the_set():
    tiles = shuffled(5)
    hands = [tiles[:14], tiles[14:27], tiles[27:40], tiles[40:53]]
    bad = [["E"] * 5 + hands[0][5:], *hands[1:]]
    assert "more than four of E" in violated("MJO-1.1", deal, MJO,
                                             {"dealer": 0, "hands": bad}).message
    violated("MJO-1.1", deal, MJO, {"dealer": 0, "hands": hands, "wall": tiles[54:]})
    violated("MJO-1.1", deal, MJO, {"dealer": 0, "hands": hands, "wall": tiles[53:] + ["E"]})
    violated("MJO-1.1", deal, MJO, {"dealer": 0, "hands": [["1x"] + hands[0][1:], *hands[1:]]})


def test_mjs_1_1_honours_are_not_in_a_108_tile_set():
    from dataclasses import replace
    sichuan = replace(MJO, tileCount=108)
    tiles = shuffled(6, 108)
    hands = [tiles[:14], tiles[14:27], tiles[27:40], tiles[40:53]]
    state = deal(sichuan, {"dealer": 0, "hands": hands, "wall": tiles[53:]})
    assert state.wall_count == 55
    hands[1] = ["E"] + hands[1][1:]
    assert "not in the 108-tile set" in violated("MJO-1.1", deal, sichuan,
                                                 {"dealer": 0, "hands": hands}).message


def test_mjo_2_4_draws_follow_the_recorded_wall():
    state = apply(dealt(), "TileDiscarded", {"seat": 0, "tile": dealt().seats[0].concealed[0]})
    if state.phase == "claims":
        state = apply(state, "ClaimsResolved", {"timedOut": True})
    nxt = state.wall[0]
    wrong = next(t for t in KINDS if t != nxt)
    message = violated("MJO-2.4", draw, state, {"seat": 1, "tile": wrong}).message
    assert "not the next wall tile" in message and nxt not in message   # hidden: the wall
    after = draw(state, {"seat": 1, "tile": nxt})
    assert after.wall_count == 82 and after.wall == state.wall[1:] and after.drawn == nxt


def test_mjo_1_1_without_a_recorded_wall_a_fifth_copy_cannot_be_drawn():
    hands = parse_tiles("1m 1m 1m 1m 2m 3m 4m 5m 6m 7m 8m 9m E E"), *(
        parse_tiles(h) for h in ("1p 2p 3p 4p 5p 6p 7p 8p 9p S S S W",
                                 "1s 2s 3s 4s 5s 6s 7s 8s 9s N N N W",
                                 "2p 3p 4p 5p 6p 7p 8p 9p 2s 3s 4s 5s C"))
    state = deal(MJO, {"dealer": 0, "hands": list(hands)})
    assert state.wall is None and state.wall_count == 83
    state = apply(state, "TileDiscarded", {"seat": 0, "tile": "1m"})
    state = apply(state, "ClaimsResolved", {"timedOut": True}) if state.phase == "claims" else state
    message = violated("MJO-1.1", draw, state, {"seat": 1, "tile": "1m"}).message
    assert "not a possible draw" in message and "four" not in message   # nor others' tiles
    assert draw(state, {"seat": 1, "tile": "P"}).seats[1].concealed.count("P") == 1
