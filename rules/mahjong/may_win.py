"""Who may win a mahjong hand now (MJO-5, MJS-5, MJS-9, MJS-10): the void suit, the shape, a
seat barred or that passed a win (过水)."""
from __future__ import annotations

from collections.abc import Sequence

from ..violations import RuleViolation
from .completing import could_complete
from .hand import Hand, _fail
from .tiles import Meld, format_tiles, meld_tiles, suit
from .winning import Reading, is_winning_hand, must_be_winning_hand


def void_tiles(state: Hand, seat: int, tiles: Sequence[str]) -> tuple[str, ...]:
    """MJS-5.5: the tiles of ``tiles`` (and of the seat's melds) in his void suit."""
    void = state.voids[seat]
    if void is None:
        return ()
    melds = meld_tiles(state.seats[seat].melds)
    return tuple(t for t in (*tiles, *melds) if suit(t) == void)


def must_win(state: Hand, seat: int, concealed: Sequence[str]) -> tuple[Reading, ...]:
    """MJO-5.1 – 5.3, MJS-5.1 – 5.5: the winning readings of the seat's hand with these
    concealed tiles, or a RuleViolation: a tile of his void suit (MJS-5.5), else the shape."""
    void = void_tiles(state, seat, concealed)
    if void:
        raise _fail(state.settings, "voidWin",
                    "seat {seat}'s hand holds {tiles} of his void suit "
                    "({void}): a win has no tile of it",
                    seat=seat, tiles=format_tiles(void), void=state.voids[seat])
    return must_be_winning_hand(concealed, state.seats[seat].melds, state.settings, seat)


def wins_with(state: Hand, seat: int, concealed: Sequence[str]) -> bool:
    """Whether the seat's hand with these concealed tiles is a win of this game (MJS-5.5:
    no tile of his void suit) — whatever bars him from winning now. The tiles need not be in
    sort order."""
    melds = state.seats[seat].melds
    void = state.voids[seat]
    if void is not None and holds_suit(void, concealed, melds):
        return False
    return is_winning_hand(concealed, melds, state.settings)


def holds_suit(void: str, concealed: Sequence[str], melds: Sequence[Meld] = ()) -> bool:
    """MJS-5.5: whether any of the tiles, or of the melds', is of the suit ``void`` — what
    :func:`void_tiles` finds, without collecting it (asked for every seat on every discard)."""
    # README §3: a suit letter is lower case and a tile's only lower-case letter (the honours
    # are upper case: S, P are not s, p), so the joined text holds it exactly when a tile does
    return void in "".join(concealed) or any(void in "".join(m.tiles) for m in melds)


def _must_not_be_barred(state: Hand, seat: int) -> None:
    """MJS-9.1, 9.2, 10.2, 10.5: a seat barred from winning this hand plays on without
    winning."""
    rule = state.barred[seat]
    if rule is not None:
        raise RuleViolation(rule, "seat {seat} has lost the right to win in this hand and "
                                  "plays on without winning ({rule_})",
                                  seat=seat, rule_=rule)


def _must_not_have_passed_a_win(state: Hand, seat: int) -> None:
    """MJS-5.6 过水: after declining a win on a discard (or a kong), no win on a discard until
    the seat's next draw."""
    if seat in state.passed_win:
        raise _fail(state.settings, "passedWin",
                    "seat {seat} passed a win and may not win on a discard before "
                    "drawing his next tile (过水)",
                    seat=seat)


def may_win_on(state: Hand, seat: int, tile: str) -> bool:
    """Whether ``seat`` may claim a win on another seat's ``tile`` now: :func:`wins_with` the
    tile, for a seat not out, barred or after a passed win (asked for three seats on every
    discard: its steps inline, the cheapest first)."""
    if state.barred[seat] is not None or seat in state.passed_win or state.is_out(seat):
        return False
    hand = state.seats[seat]
    concealed = hand.concealed
    # most hands fail this cheap test, which never fails a win (MJO-5.1, MJS-5.3); the
    # stronger may_complete costs more here than the full tests it saves (measured)
    if not could_complete(concealed, tile):
        return False
    void = state.voids[seat]
    if void is not None and (suit(tile) == void or holds_suit(void, concealed, hand.melds)):
        return False  # MJS-5.5
    return is_winning_hand((*concealed, tile), hand.melds, state.settings)
