"""Cheap necessary conditions for one more tile to complete a winning hand, tested before the
full test (:func:`.winning.is_winning_hand`) where it is asked most: for every other seat
after every discard (who may win on it, MJO-4.4, MJS-3.3: :func:`could_complete`) and for
every face of a hand's waits (MJO-5.2 Ex 5, MJS-8.2: :func:`completing_groups` once, then
:func:`may_complete` per face). Each may say "perhaps" of a hand that does not win, never "no"
of one that does (tests/unit/mahjong/test_mj_win_filters.py checks it against the full test).

Rules: MJO-5.1 (four sets and a pair; a set is a chow or a pung, within one suit), MJS-5.1 –
5.3 (kongs count as sets, exposed melds are fixed; seven pairs, fully concealed).
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence

from .settings import GameSettings
from .tiles import HONOURS, KINDS, SUITS, Meld, rank


def _near(tile: str) -> frozenset[str]:
    r = rank(tile)
    if r is None:
        return frozenset({tile})
    return frozenset(f"{k}{tile[1]}" for k in range(max(1, r - 2), min(9, r + 2) + 1))


# MJO-5.1 / MJS-5.3: a tile that completes a hand joins its pair, a pung or a chow (or one of
# seven pairs) with tiles the hand holds: a copy of it, or a tile of its suit at most two
# ranks away. (Exposed melds are fixed sets: a new tile never joins them.)
_NEAR = {tile: _near(tile) for tile in KINDS}


def could_complete(concealed: Iterable[str], tile: str) -> bool:
    """Whether the concealed tiles hold one that ``tile`` could make a pair or a set with: a
    copy of it, or a tile of its suit within two ranks. False: no win with the tile."""
    return not _NEAR[tile].isdisjoint(concealed)


def completing_groups(concealed: Sequence[str]) -> frozenset[str]:
    """For four sets and a pair (MJO-5.1): the suits (and honour faces) of which one more
    tile could make the concealed tiles a win; empty when none. A set or the pair lies in one
    suit (an honour's in one face), so with the tile every suit holds a multiple of three
    tiles but the pair's, which holds two more: the tile goes to the one suit one over a
    multiple of three, or to one of two suits two over."""
    # README §3: a suit letter is a tile's only lower-case letter and an honour is one upper-
    # case letter, so counting letters in the joined text counts the tiles of each (in C)
    text = "".join(concealed)
    ones, twos = [], []
    for group in SUITS if text.islower() or not text else SUITS + HONOURS:
        left = text.count(group) % 3
        if left == 1:
            ones.append(group)
        elif left == 2:
            twos.append(group)
    if len(ones) == 1 and not twos:
        return frozenset(ones)
    if not ones and len(twos) == 2:
        return frozenset(twos)
    return frozenset()



def may_complete(concealed: Sequence[str], melds: Sequence[Meld], settings: GameSettings,
                 tile: str, groups: frozenset[str]) -> bool:
    """Whether ``concealed`` plus ``tile`` (and the melds) may be a win, given ``groups`` =
    :func:`completing_groups` of ``concealed``: the tile's suit is one of them, or, where the
    game has seven pairs (MJS-5.3), the hand could be six pairs and a single of the tile —
    13 concealed tiles of at most seven faces, the tile among them; and
    :func:`could_complete`. False: no win; True: the full test decides."""
    return ((tile[1] if len(tile) == 2 else tile) in groups
            or settings.sevenPairs and not melds and len(concealed) == 13
            and tile in concealed and len(set(concealed)) <= 7) \
        and could_complete(concealed, tile)
