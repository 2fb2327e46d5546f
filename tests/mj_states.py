"""Mahjong hand states for the unit tests of rules/mahjong: a dealt table with chosen tiles,
one event applied, the claim window settled, a draw and a discard, a refused event; and for the
property tests of random legal play, how useful a tile is and the check that the legal-move
list is exact."""
from collections import Counter
from collections.abc import Callable

import pytest

from rules import RuleViolation
from rules.mahjong import MJO, apply, apply_action
from rules.mahjong.actions import Action
from rules.mahjong.dealing import deal
from rules.mahjong.tiles import COPIES, INDEX, KINDS, Meld, kinds, parse_tiles, shifted, tile_set


def table(hands, dealer=0, wall="", settings=MJO):
    """A dealt hand: ``hands`` gives some tiles of some seats, the rest of every hand is filled
    with scattered tiles; the wall starts with ``wall``."""
    return deal(settings, filled_deal(settings.tileCount, hands, dealer, wall))


def filled_deal(tile_count: int, hands: dict[int, str], dealer: int = 0, wall: str = "",
                end: str = "", order: Callable[[str], int] = INDEX.__getitem__) -> dict:
    """``TilesDealt`` data of the ``tile_count`` tiles with chosen tiles: the given tiles where
    given, every other tile dealt four rounds through the faces in ``order``, so that the rest
    of each hand is scattered; the dealer 14, the others 13; the live wall starts with ``wall``
    and ends with ``end``."""
    pool = Counter(tile_set(tile_count))
    given = {s: list(parse_tiles(t)) for s, t in hands.items()}
    front, tail = list(parse_tiles(wall)), list(parse_tiles(end))
    for tiles in (*given.values(), front, tail):
        pool.subtract(tiles)
    assert min(pool.values()) >= 0, "more than four of a tile"
    copies = [(k, t) for t, n in pool.items() for k in range(n)]
    rest = [t for k, t in sorted(copies, key=lambda kt: (kt[0], order(kt[1])))]
    full = []
    for seat in range(4):
        tiles = given.get(seat, [])
        need = (14 if seat == dealer else 13) - len(tiles)
        full.append(tiles + rest[:need])
        rest = rest[need:]
    return {"dealer": dealer, "hands": full, "wall": front + rest + tail}


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


# --- random legal play ---------------------------------------------------------------------

# how much a tile helps a hand: copies held, and neighbours in its suit
_NEAR = {t: tuple((n, 3 - abs(d)) for d in (-2, -1, 1, 2) if (n := shifted(t, d)))
         for t in KINDS}


def usefulness(tile, held: Counter) -> int:
    """How much a tile helps a hand: copies held and neighbours in its suit."""
    return 3 * (held[tile] - 1) + sum(held[n] * w for n, w in _NEAR[tile])


def accepted(state, action) -> bool:
    try:
        apply_action(state, action)
    except RuleViolation:
        return False
    return True


def check_listing_is_exact(state, listed) -> None:
    """Every discard, pong, win claim and self-drawn win the transitions accept is listed,
    and every listed move is accepted."""
    for seat in range(4):
        tries = [Action("claim", seat, claim="win"), Action("win", seat, state.drawn)]
        for tile in kinds(state.settings.tileCount):
            tries += [Action("discard", seat, tile),
                      Action("claim", seat, claim="pong", tiles=(tile, tile))]
        for action in tries:
            assert accepted(state, action) == (action in listed[seat]), action
        assert all(accepted(state, action) for action in listed[seat])


# --- random hands for the property tests of the win and claim searches -----------------------

MELDS = (Meld("pong", ("9s",) * 3), Meld("chow", ("1p", "2p", "3p")), Meld("kong", ("E",) * 4))


def random_hand(rng, settings, size):
    """``size`` tiles of a few faces, none more than four times — near-wins are common."""
    faces = rng.sample(kinds(settings.tileCount), rng.randint(2, 8))
    pool = [f for f in faces for _ in range(COPIES)]
    return rng.sample(pool, min(size, len(pool)))


def random_melds(rng, settings):
    melds = [m for m in MELDS if set(m.tiles) <= set(kinds(settings.tileCount))]
    return tuple(rng.sample(melds, rng.randint(0, len(melds)))) if rng.random() < 0.4 else ()
