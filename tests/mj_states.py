"""Mahjong hand states for the unit tests of rules/mahjong: a dealt table with chosen tiles,
one event applied, the claim window settled, a draw and a discard, a refused event."""
from collections import Counter

import pytest

from rules import RuleViolation
from rules.mahjong import MJO, apply
from rules.mahjong.hand import deal
from rules.mahjong.tiles import INDEX, parse_tiles, tile_set


def table(hands, dealer=0, wall="", settings=MJO):
    """A dealt hand: ``hands`` gives some tiles of some seats, the rest of every hand is filled
    with scattered tiles; the wall starts with ``wall``."""
    pool = Counter(tile_set(settings.tileCount))
    given = {s: list(parse_tiles(t)) for s, t in hands.items()}
    front = list(parse_tiles(wall))
    for tiles in (*given.values(), front):
        pool.subtract(tiles)
    assert min(pool.values()) >= 0
    copies = [(k, t) for t, n in pool.items() for k in range(n)]
    rest = [t for k, t in sorted(copies, key=lambda kt: (kt[0], INDEX[kt[1]]))]
    full = []
    for seat in range(4):
        tiles = given.get(seat, [])
        need = (14 if seat == dealer else 13) - len(tiles)
        full.append(tiles + rest[:need])
        rest = rest[need:]
    return deal(settings, {"dealer": dealer, "hands": full, "wall": front + rest})


def act(state, event, seat=None, **data):
    return apply(state, event, {"seat": seat, **data})


def settle(state):
    """Every seat still able to answer passes, and the window is resolved."""
    if state.phase == "claims":
        for seat in state.window.pending:
            state = act(state, "Claim", seat, kind="pass")
        state = apply(state, "ClaimsResolved", {})
    return state


def draw_discard(state, tile=None):
    """The seat on turn draws the next wall tile and discards ``tile`` (default: that tile)."""
    state = settle(state)
    drawn = state.wall[0]
    state = act(state, "TileDrawn", state.turn, tile=drawn)
    return act(state, "TileDiscarded", state.turn, tile=tile or drawn)


def violated(rule, state, event, seat=None, **data):
    with pytest.raises(RuleViolation) as info:
        act(state, event, seat, **data)
    assert info.value.rule == rule, info.value
    assert f"({rule})" in info.value.message
    return info.value
