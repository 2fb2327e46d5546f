"""Bounded property tests of the fast winning-hand test and its cheap pre-filters (MJO-5.1 to
5.3, MJO-5.5, MJS-5.3): ``is_winning_hand`` answers as the full search of every reading
(``winning_readings``) does, and a pre-filter never says "cannot win" of a hand that wins;
and the unsorted one-tile changes of a sorted hand are the sorting ones."""
import random
from dataclasses import replace

import pytest

from rules.mahjong import MJO, MJS
from rules.mahjong.completing import completing_groups, could_complete, may_complete
from rules.mahjong.tiles import (
    add_tiles,
    kinds,
    remove_tiles,
    sort_tiles,
    with_one,
    without_one,
)
from rules.mahjong.winning import is_winning_hand, winning_faces, winning_readings
from tests.mj_states import random_hand, random_melds

SETTINGS = [
    MJO,                                                      # pair 2, 5 or 8; no seven pairs
    MJS,                                                      # 108 tiles, seven pairs
    replace(MJO, pairRanks=None),
    replace(MJO, sevenPairs=True, fourAsTwoPairs=False),
    replace(MJS, fourAsTwoPairs=False),
]


@pytest.mark.parametrize("seed", range(4))
def test_mjo_5_5_fast_test_agrees_with_the_full_search(seed):
    rng = random.Random(seed)
    for _ in range(3000):
        settings = rng.choice(SETTINGS)
        melds = random_melds(rng, settings)
        size = 14 - 3 * len(melds) + rng.choice((0, 0, 0, 0, -1, 1))
        tiles = random_hand(rng, settings, size)
        expected = bool(winning_readings(tiles, melds, settings))
        assert is_winning_hand(tiles, melds, settings) is expected, (tiles, melds, settings)


@pytest.mark.parametrize("seed", range(4))
def test_mjo_5_1_a_prefilter_never_refuses_a_winning_tile(seed):
    rng = random.Random(100 + seed)
    checked = 0
    for _ in range(1500):
        settings = rng.choice(SETTINGS)
        melds = random_melds(rng, settings)
        concealed = random_hand(rng, settings, 13 - 3 * len(melds))
        groups = completing_groups(concealed)
        for tile in kinds(settings.tileCount):
            if is_winning_hand((*concealed, tile), melds, settings):
                checked += 1
                assert could_complete(concealed, tile), (concealed, tile)
                assert may_complete(concealed, melds, settings, tile, groups), \
                    (concealed, melds, tile, settings)
    assert checked > 100  # the hands drawn do win often enough to test the filters


def test_mjo_5_1_prefilters_on_known_hands():
    # 1m2m3m 4p5p6p 7s8s9s E E E 5m: waits on 5m (pair, MJO-5.2 allows a 5)
    concealed = ("1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E", "E", "5m")
    assert completing_groups(concealed) == frozenset({"m"})
    assert could_complete(concealed, "5m") and not could_complete(concealed, "9m")
    assert not could_complete(concealed, "S")  # an honour not held completes nothing
    assert is_winning_hand((*concealed, "5m"), (), MJO)
    # the tiles need not be in sort order
    assert is_winning_hand(("5m", *reversed(concealed)), (), MJO)
    # six pairs and a single (MJS-5.3): the single is the one tile for seven pairs
    pairs = ("1m", "1m", "4m", "4m", "2p", "2p", "7p", "7p", "3s", "3s", "3s", "3s", "9s")
    assert completing_groups(pairs) == frozenset()  # 1m1m4m4m2p2p7p7p3s3s3s3s9s: 4, 4, 5
    assert may_complete(pairs, (), MJS, "9s", frozenset())
    assert not may_complete(pairs, (), MJO, "9s", frozenset())  # MJO-5.3: no seven pairs
    assert is_winning_hand((*pairs, "9s"), (), MJS)


def test_mjo_1_1_more_than_four_copies_still_answer_as_the_full_search():
    for tiles in (["1m"] * 6 + ["2m", "3m", "4m"] + ["5p"] * 3 + ["2s"] * 2,
                  ["E"] * 5 + ["1m", "2m", "3m"] * 3, ["1s"] * 14):
        for settings in SETTINGS:
            assert is_winning_hand(tiles, (), settings) is \
                bool(winning_readings(tiles, (), settings))


@pytest.mark.parametrize("seed", range(3))
def test_mjo_3_2_a_draw_or_discard_keeps_a_sorted_hand_as_sorting_would(seed):
    # a seat's concealed tiles are always in canonical order: one tile in or out keeps it
    rng = random.Random(200 + seed)
    for _ in range(2000):
        settings = rng.choice(SETTINGS)
        hand = sort_tiles(random_hand(rng, settings, rng.randint(0, 14)))
        tile = rng.choice(kinds(settings.tileCount))
        assert with_one(hand, tile) == add_tiles(hand, (tile,))
        if hand:
            held = rng.choice(hand)
            assert without_one(hand, held) == remove_tiles(hand, (held,))


@pytest.mark.parametrize("seed", range(3))
def test_mjs_8_2_winning_faces_are_the_faces_that_win(seed):
    rng = random.Random(300 + seed)
    for _ in range(600):
        settings = rng.choice(SETTINGS)
        melds = random_melds(rng, settings)
        concealed = random_hand(rng, settings, 13 - 3 * len(melds) + rng.choice((0, 0, 0, 1)))
        faces = kinds(settings.tileCount)
        assert winning_faces(concealed, melds, settings, faces) == tuple(
            t for t in faces if is_winning_hand((*concealed, t), melds, settings))
