"""Bounded property tests: tiles are conserved and the legal-action list is exact through
random legal play (MJO and a Sichuan-like setting: 108 tiles, kongs, no chow, seven pairs,
every winner), and the winning-hand search agrees with a brute-force search (MJO-5.5)."""
import random
from collections import Counter
from dataclasses import replace
from functools import cache
from itertools import combinations

import pytest
from mj_states import check_listing_is_exact, usefulness

from rules.mahjong import MJO, apply, apply_action, apply_engine_event, due_engine_event
from rules.mahjong.actions import legal_actions
from rules.mahjong.hand import tiles_in_play
from rules.mahjong.tiles import (
    KINDS,
    Meld,
    is_chow,
    shifted,
    sort_tiles,
    tile_set,
)
from rules.mahjong.winning import is_winning_hand, set_readings, waits, winning_readings

SICHUAN_LIKE = replace(MJO, tileCount=108, chow=False, kongDirect=True, kongAdded=True,
                       kongConcealed=True, sevenPairs=True, pairRanks=None,
                       multipleWinners="all", lastTileDiscard=True)


def new_hand(rng, settings):
    tiles = list(tile_set(settings.tileCount))
    rng.shuffle(tiles)
    stacks = len(tiles) // 2
    sizes = [2 * (stacks // 4 + (k < stacks % 4)) for k in range(4)]
    walls, start = [], 0
    for size in sizes:
        walls.append(tiles[start:start + size])
        start += size
    dice = [[rng.randint(1, 6), rng.randint(1, 6)] for _ in range(2)]
    return apply(None, "HandDealt", {"dealer": rng.randrange(4), "walls": walls, "dice": dice},
                 settings)


def choose(rng, state, actions):
    """A plain bot, so that hands end both ways: it always wins when it can, keeps useful
    tiles, claims now and then, and otherwise passes."""
    wins = [a for a in actions if a.kind == "win" or a.claim == "win"]
    if wins:
        return rng.choice(wins)
    discards = [a for a in actions if a.kind == "discard"]
    if discards and rng.random() < 0.9:
        held = Counter(state.seats[discards[0].seat].concealed)
        scores = [usefulness(a.tile, held) for a in discards]
        least = min(scores)
        return rng.choice([a for a, n in zip(discards, scores, strict=True) if n == least])
    weights = [{"pass": 6, "claim": 2}.get(a.kind, 1) for a in actions]
    return rng.choices(actions, weights)[0]


def play(seed, settings, check_listing=False):
    rng = random.Random(seed)
    state = new_hand(rng, settings)
    full = Counter(tile_set(settings.tileCount))
    for step in range(1000):
        assert tiles_in_play(state) == full
        if state.over:
            return state
        sizes = [h.size for h in state.seats]
        on_turn = state.turn if state.phase == "discard" else None
        assert all(n == (14 if s == on_turn else 13) for s, n in enumerate(sizes)), sizes
        due = due_engine_event(state)
        if due:
            state = apply_engine_event(state, due)
            continue
        listed = {s: legal_actions(state, s) for s in range(4)}
        if check_listing and step % 4 == 0:
            check_listing_is_exact(state, listed)
        actions = [a for s in range(4) for a in listed[s]]
        assert actions, state.phase
        state = apply_action(state, choose(rng, state, actions))
    raise AssertionError("a hand did not end")


def test_tiles_are_conserved_through_random_legal_play_mjo():
    results = Counter(play(seed, MJO).result for seed in range(50))
    assert results["win"] and results["draw"]


def test_tiles_are_conserved_through_random_legal_play_sichuan_like_settings():
    hands = [play(seed, SICHUAN_LIKE) for seed in range(100, 120)]
    assert any(m.kind == "kong" for h in hands for s in h.seats for m in s.melds)
    assert not any(m.kind == "chow" for h in hands for s in h.seats for m in s.melds)


def test_tiles_are_conserved_in_record_enforcement_and_with_every_winner():
    settings = replace(MJO, enforcement="record", multipleWinners="all", lastTileDiscard=True)
    results = Counter(play(seed, settings).result for seed in range(300, 310))
    assert sum(results.values()) == 10


def test_the_legal_action_list_is_exact():
    for seed in range(200, 204):
        play(seed, MJO, check_listing=True)


# --- the winning-hand search against brute force -------------------------------------------


def _is_set(three):
    return len(set(three)) == 1 or is_chow(three)


@cache
def _brute_sets(tiles):
    """Every multiset of sets that uses all of ``tiles``, by trying every triple."""
    if not tiles:
        return frozenset({()})
    found = set()
    for picked in combinations(range(len(tiles)), 3):
        three = tuple(tiles[i] for i in picked)
        if not _is_set(three):
            continue
        rest = tuple(t for i, t in enumerate(tiles) if i not in picked)
        for others in _brute_sets(rest):
            found.add(tuple(sorted((three, *others))))
    return frozenset(found)


def brute_readings(tiles):
    readings = set()
    for pair in set(tiles):
        if tiles.count(pair) >= 2:
            rest = list(tiles)
            rest.remove(pair)
            rest.remove(pair)
            for sets in _brute_sets(tuple(sort_tiles(rest))):
                readings.add((pair, sets))
    return readings


FACES = ("1m", "2m", "3m", "4m", "5m", "6m", "2p", "3p", "4p", "E")


def small_hand(rng, size):
    """Half the time sets and a pair (often a win), else any tiles of a few faces."""
    if rng.random() < 0.5:
        return sort_tiles(rng.choice(FACES) for _ in range(size))
    tiles = [rng.choice(FACES)] * 2
    while len(tiles) < size:
        low = rng.choice(FACES[:4] + FACES[6:7])
        tiles += [low] * 3 if rng.random() < 0.4 else [low, shifted(low, 1), shifted(low, 2)]
    return sort_tiles(tiles)


@pytest.mark.parametrize("size", [5, 8, 11])
def test_the_search_agrees_with_brute_force_on_small_hands(size):
    rng = random.Random(size)
    padding = (Meld("pong", ("9s",) * 3),) * (4 - (size - 2) // 3)
    checked = wins = 0
    while checked < 150:
        tiles = small_hand(rng, size)
        if max(Counter(tiles).values()) > 4:
            continue
        checked += 1
        expected = brute_readings(tiles)
        got = {(r.pair, tuple(sorted(r.sets))) for r in set_readings(tiles, padding)}
        assert got == expected, tiles
        winning = any(pair in ("2m", "5m", "2p") for pair, _ in expected)
        assert is_winning_hand(tiles, padding, MJO) == winning, tiles
        wins += winning
    assert wins > 10


def test_waits_agree_with_trying_every_tile():
    rng = random.Random(7)
    for _ in range(40):
        tiles = sort_tiles(rng.sample(tile_set(136)[:60], 13))
        expected = tuple(t for t in KINDS if tiles.count(t) < 4
                         and is_winning_hand((*tiles, t), (), MJO))
        assert waits(tiles, (), MJO) == expected


@pytest.mark.parametrize("settings", [MJO, SICHUAN_LIKE], ids=["mjo", "sichuan-like"])
def test_the_quick_win_test_agrees_with_the_readings(settings):
    rng = random.Random(11)
    faces = ("2s", "3s", "4s", "5s", "6s", "8s", "8p", "9p")
    for _ in range(300):
        tiles = sort_tiles(rng.choice(faces) for _ in range(14))
        if max(Counter(tiles).values()) > 4:
            continue
        assert is_winning_hand(tiles, (), settings) == bool(winning_readings(tiles, (), settings))
