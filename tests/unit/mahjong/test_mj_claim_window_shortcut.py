"""Bounded, seeded property tests of the fold's shortcuts in a mahjong claim window (MJO-4.5,
MJS section 11): a seat holding nothing near the discard is given no claim without asking
``claim_options`` or the win test (rules/mahjong/turns.py ``_NO_CLAIM``) — the same answer as
the full search of every reading (``winning_readings``) and every claim kind."""
import random
from dataclasses import replace

import pytest

from rules.mahjong import MJO, MJS
from rules.mahjong.claims import claim_options
from rules.mahjong.completing import could_complete
from rules.mahjong.hand import Hand, SeatHand, WinRecord
from rules.mahjong.may_win import may_win_on
from rules.mahjong.tiles import SUITS, kinds, sort_tiles
from rules.mahjong.turns import _open_window
from rules.mahjong.winning import winning_readings
from tests.mj_states import random_hand, random_melds

SETTINGS = [
    MJO,                                              # chows, pair 2/5/8, no kongs
    MJS,                                              # no chow, kongs, seven pairs, voids
    replace(MJO, pairRanks=None, sevenPairs=True),
    replace(MJS, fourAsTwoPairs=False),
]


def sorted_hand(rng, settings, size):
    """A random hand (tests/mj_states.py) in the order a seat holds its tiles."""
    return sort_tiles(random_hand(rng, settings, size))


def full_search_wins(concealed, melds, tile, settings, void):
    """MJO-5.1 – 5.3, MJS-5.5 the slow way: every reading of the hand with the tile."""
    if void is not None and any(t[1:] == void for t in (*concealed, tile,
                                                          *(x for m in melds for x in m.tiles))):
        return False
    return bool(winning_readings((*concealed, tile), melds, settings))


@pytest.mark.parametrize("seed", range(4))
def test_mjo_4_5_a_seat_with_nothing_near_the_discard_has_no_claim(seed):
    rng = random.Random(400 + seed)
    skipped = 0
    for _ in range(3000):
        settings = rng.choice(SETTINGS)
        melds = random_melds(rng, settings)
        concealed = sorted_hand(rng, settings, 13 - 3 * len(melds) - rng.choice((0, 0, 0, 3)))
        tile = rng.choice(kinds(settings.tileCount))
        void = rng.choice((None, *SUITS)) if settings.game == "MJS" else None
        discarder, seat = rng.sample(range(4), 2)
        if could_complete(concealed, tile):
            continue
        skipped += 1
        for last in (False, True):
            slow = claim_options(concealed, seat, discarder, tile, settings, last_discard=last,
                                 can_win=full_search_wins(concealed, melds, tile, settings, void),
                                 void=void)
            assert slow == frozenset(), (concealed, melds, tile, settings.game, void, last)
    assert skipped > 1000  # the shortcut is tested often


def random_state(rng, settings):
    seats = []
    for _ in range(4):
        melds = random_melds(rng, settings)
        seats.append(SeatHand(sorted_hand(rng, settings, 13 - 3 * len(melds)), melds))
    mjs = settings.game == "MJS"
    voids = tuple(rng.choice(SUITS) for _ in range(4)) if mjs and rng.random() < 0.8 \
        else (None,) * 4
    wins = tuple(WinRecord(s, None, True) for s in range(4) if mjs and rng.random() < 0.2)
    return Hand(settings, 0, tuple(seats), None, rng.choice((0, 5, 40)), 0, voids=voids,
                wins=wins, passed_win=frozenset(s for s in range(4) if rng.random() < 0.2),
                barred=tuple("MJS-9.2" if mjs and rng.random() < 0.1 else None
                             for _ in range(4)))


@pytest.mark.parametrize("seed", range(3))
def test_mjo_4_5_the_window_lets_each_seat_claim_what_the_slow_way_allows(seed):
    rng = random.Random(500 + seed)
    for _ in range(600):
        settings = rng.choice(SETTINGS)
        state = random_state(rng, settings)
        discarder = rng.randrange(4)
        tile = rng.choice(kinds(settings.tileCount))
        may = _open_window(state, discarder, tile).window.may
        last = state.wall_count == 0
        slow = tuple(
            frozenset() if s == discarder or state.is_out(s) else
            claim_options(h.concealed, s, discarder, tile, settings, last_discard=last,
                          can_win=may_win_on(state, s, tile), void=state.voids[s])
            for s, h in enumerate(state.seats))
        assert may == slow, (state, discarder, tile)
