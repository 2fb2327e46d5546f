"""A turn at a mahjong table (MJO-4, MJS-4): ``TileDrawn`` and ``TileDiscarded``, and the claim
window every discard opens."""
from __future__ import annotations

from collections.abc import Mapping

from ..frozen import evolve
from .claims import ClaimWindow, claim_options
from .completing import could_complete
from .hand import (
    Discard,
    Hand,
    _fail,
    _in_play,
    _must_be_on_turn,
    _seat_arg,
    _tile_arg,
    _with_seat,
    next_in,
)
from .may_win import holds_suit, may_win_on
from .tiles import COPIES, KINDS, format_tiles, suit, with_one, without_one
from .wall import SEATS


def draw(state: Hand, data: Mapping) -> Hand:
    """``TileDrawn`` (MJO-3.2): the seat on turn draws after the previous discard's window
    closed; the tile is the next one of the recorded wall (MJO-2.4) — from its end for a kong
    replacement (MJS-1.2); there must be a tile left (MJO-6.1). A draw lifts the seat's 过水
    bar (MJS-5.6); a turn's kongs are those since its first draw (MJS-7.2)."""
    settings = state.settings
    seat = _seat_arg(settings, data)
    _must_be_on_turn(state, seat, "draw", "draw")
    if state.wall_count == 0:
        raise _fail(settings, "exhaustive", "the wall is exhausted: there is no tile to draw")
    tile = _tile_arg(settings, data.get("tile"))
    from_end = data.get("fromEnd")
    if from_end is not None and bool(from_end) != state.replacement:
        key = "kong" if state.replacement or settings.kongs else "wall"
        if state.replacement:
            raise _fail(settings, key, "seat {seat} draws from the end of the wall, as a kong "
                                       "replacement", seat=seat)
        raise _fail(settings, key, "seat {seat} draws from the front of the wall", seat=seat)
    wall = state.wall
    if wall is not None:
        expected = wall[-1] if state.replacement else wall[0]
        # the refusal names neither the wall's tile nor where the copies of the tile are:
        # it goes to whoever posted the draw (rules README §5, hidden information)
        if tile != expected:
            raise _fail(settings, "wall", "seat {seat} drew {tile}: it is not the next "
                                          "wall tile",
                                          seat=seat, tile=tile)
        wall = wall[:-1] if state.replacement else wall[1:]
    elif _in_play(state)[tile] >= COPIES:
        raise _fail(settings, "tiles", "seat {seat} drew {tile}: it is not a possible "
                                       "draw",
                                       seat=seat, tile=tile)
    hand = state.seats[seat]
    return evolve(state, seats=_with_seat(state, seat, evolve(
        hand, concealed=with_one(hand.concealed, tile))), wall=wall,
        wall_count=state.wall_count - 1, phase="discard", drawn=tile, replacement=False,
        drawn_from_end=state.replacement,
        turn_kongs=state.turn_kongs if state.replacement else (),
        passed_win=state.passed_win - {seat} if seat in state.passed_win
        else state.passed_win)  # (mostly nobody passed a win: the same set, not a copy)


def discard(state: Hand, data: Mapping) -> Hand:
    """``TileDiscarded`` (MJO-3.2): the seat on turn discards a tile he holds, after drawing or
    claiming (the dealer's first discard from 14, MJO-3.1). After the last wall tile there is no
    discard unless ``lastTileDiscard`` (MJO-6.1). With ``voidFirstDiscards`` the tiles of the
    void suit go first (MJS-2.2). The claim window opens (MJO-4.5)."""
    settings = state.settings
    seat = _seat_arg(settings, data)
    _must_be_on_turn(state, seat, "discard", "discard")
    if state.wall_count == 0 and not settings.lastTileDiscard:
        raise _fail(settings, "exhaustive", "seat {seat} drew the last tile and may "
                                            "not discard: he wins or the hand is drawn",
                                            seat=seat)
    tile = _tile_arg(settings, data.get("tile"))
    hand = state.seats[seat]
    if tile not in hand.concealed:
        raise _fail(settings, "turn", "seat {seat} does not hold {tile} (holds "
                                      "{held})",
                                      seat=seat, tile=tile,
                                      held=format_tiles(hand.concealed))
    void = state.voids[seat]
    if settings.voidFirstDiscards and void is not None and suit(tile) != void \
            and holds_suit(void, hand.concealed):
        left = [t for t in hand.concealed if suit(t) == void]
        raise _fail(settings, "void", "seat {seat} still holds {tiles} of his "
                                      "void suit and discards those first",
                                      seat=seat, tiles=format_tiles(left))
    hand = evolve(hand, concealed=without_one(hand.concealed, tile),
                   discards=hand.discards + (_PLAIN_DISCARDS[tile],))
    # one copy of the state for the discard and its window (a fold step makes one per event)
    return _open_window(state, seat, tile, seats=_with_seat(state, seat, hand), drawn=None)


# A discard not (yet) claimed, one frozen value per face made once: every discard makes one,
# and an equal value serves them all (a claim replaces it with a new Discard, claiming.py).
_PLAIN_DISCARDS = {tile: Discard(tile) for tile in KINDS}


def _open_window(state: Hand, discarder: int, tile: str, **discarded) -> Hand:
    """MJO-4.5, MJS section 11: after every discard a claim window opens, answered by each
    other seat still in (MJS-4.2), each able to claim what its tiles allow. It opens even when
    no seat can claim anything: a window closing at once would tell the whole table that
    nobody holds a pair of the tile or waits on it (rules README §5, hidden information).
    ``state`` is the state before the discard, ``discarded`` the discard's own changes to it:
    what the window reads — the other seats' tiles, who is still in — is the same in both."""
    settings = state.settings
    last = state.wall_count == 0
    may = tuple(
        _NO_CLAIM if s == discarder or not could_complete(h.concealed, tile)
        or state.is_out(s) else
        claim_options(h.concealed, s, discarder, tile, settings, last_discard=last,
                      can_win=may_win_on(state, s, tile), void=state.voids[s])
        for s, h in enumerate(state.seats))
    return evolve(state, phase="claims", turn=next_in(state, discarder), turn_kongs=(),
                   window=ClaimWindow(discarder, tile, may, kongs=state.turn_kongs,
                                      open_to=_answering(state, discarder), last=last),
                   **discarded)


# What a seat may claim on a discard it holds nothing near: every claim needs a held tile
# within two ranks of the discard in its suit, or a copy of it (:func:`.completing.
# could_complete`) — a win joins the tile to a pair or a set (MJO-5.1, MJS-5.3), a pong or kong
# takes copies (MJO-4.2, MJS-3.4), a chow two neighbours (MJO-4.1). Most seats on most discards:
# their claim_options and win test are skipped (the shortcut is checked against them by
# tests/unit/mahjong/test_mj_claim_window_shortcut.py).
_NO_CLAIM: frozenset[str] = frozenset()


def _answering(state: Hand, discarder: int) -> frozenset[int]:
    """The seats that answer a claim window: every other seat still in the hand."""
    if not state.wins:
        return _OTHERS[discarder]  # before any win (every MJO window): worked out once
    return frozenset(s for s in state.still_in if s != discarder)


_OTHERS = tuple(frozenset(s for s in range(SEATS) if s != seat) for seat in range(SEATS))
