"""A mahjong hand's own-turn moves and its end (MJO-5, MJO-6, MJS-3, MJS-5, MJS-6): a self-drawn
``Win``, the referee's ruling on a win (MJO-5.6), ``KongDeclared`` (concealed or added, an
added kong open to robbing) and the exhaustive draw (``DrawGame``)."""
from __future__ import annotations

from collections.abc import Mapping

from ..frozen import evolve
from ..violations import RuleViolation
from .claiming import (
    _complete_added_kong,
    _kong_made,
    _must_not_meld_void,
    _play_on_after_wins,
    _settle,
)
from .claims import ClaimWindow
from .hand import (
    Hand,
    KongRecord,
    PendingRuling,
    SeatHand,
    WinRecord,
    _fail,
    _must_be_in_play,
    _must_be_on_turn,
    _recorded,
    _seat_arg,
    _tile_arg,
    _with_seat,
    began_with_draw,
    false_win,
)
from .may_win import _must_not_be_barred, may_win_on, must_win
from .tiles import Meld, remove_tiles
from .turns import _answering
from .wall import SEATS


def declare_win(state: Hand, data: Mapping) -> Hand:
    """``Win`` by self-draw (MJO-5.4): the seat on turn, after drawing — or the dealer on his
    first 14 tiles — holds a winning hand (MJO-5.1 to 5.3; MJS-5.5 no tile of his void suit),
    unless he is barred from winning (MJS-9, 10; a self-draw is never 过水, MJS-5.6). A win on
    a discard is a claim (MJO-4.4). In record enforcement an invalid hand waits for the referee
    (MJO-5.6) or is a false win (MJS-9.2)."""
    settings = state.settings
    seat = _seat_arg(settings, data)
    _must_be_in_play(state)
    if state.phase == "claims":
        w = state.window
        raise _fail(settings, "claimWin", "seat {seat} may win on seat {discarder}'s "
                                          "{tile} only by claiming it",
                                          seat=seat, discarder=w.discarder, tile=w.tile)
    _must_be_on_turn(state, seat, "discard", "declare a win")
    if not began_with_draw(state):
        raise _fail(settings, "selfDraw", "seat {seat} did not draw this turn: a "
                                          "self-drawn win needs the tile just drawn "
                                          "(or the dealer's first 14)",
                                          seat=seat)
    _must_not_be_barred(state, seat)
    try:
        must_win(state, seat, state.seats[seat].concealed)
    except RuleViolation as v:
        if settings.strict:
            raise
        if settings.falseWinPayment is not None:
            return false_win(state, seat)
        return evolve(state, phase="ruling", ruling=PendingRuling(seat, False, v.rule, v.message))
    return _self_drawn_win(state, seat)


def _self_drawn_win(state: Hand, seat: int) -> Hand:
    """A self-drawn win, paid by every other player still in (MJS-6.4), with 杠上开花 on a
    replacement and 海底捞月 on the last tile (MJS-6.2)."""
    payers = tuple(s for s in state.still_in if s != seat)
    win = WinRecord(seat, state.drawn, True, None, payers=payers,
                    kong_flower=state.drawn is not None and state.drawn_from_end,
                    last_tile=state.drawn is not None and state.wall_count == 0,
                    seq=state.records)
    state = _recorded(state, wins=state.wins + (win,), ruling=None)
    if not state.settings.bloodyBattle:
        return evolve(state, phase="over", result="win")
    return _play_on_after_wins(state, seat)


def rule_on_win(state: Hand, data: Mapping) -> Hand:
    """``RulingRecorded`` on a pending win (MJO-5.6, record enforcement): ``winValid`` true
    lets the win stand as declared; false withdraws it — a claim counts as a pass and the
    window is settled again, a self-draw declaration returns the seat to his discard."""
    settings = state.settings
    r = state.ruling
    if state.phase != "ruling" or r is None:
        raise _fail(settings, "falseWin", "no win is waiting for a ruling")
    valid = data.get("winValid")
    if type(valid) is not bool:
        raise _fail(settings, "falseWin", "a ruling on a win says winValid true or false")
    state = evolve(state, ruling=None)
    if not r.on_claim:
        return _self_drawn_win(state, r.seat) if valid else evolve(state, phase="discard")
    w = state.window
    old = w.claims[r.seat]
    claims = tuple((evolve(old, irregular=False) if valid else None) if s == r.seat else c
                   for s, c in enumerate(w.claims))
    w = evolve(w, claims=claims, passed=w.passed if valid else w.passed | {r.seat})
    return _settle(evolve(state, phase="claims", window=w), w)


def declare_kong(state: Hand, data: Mapping) -> Hand:
    """``KongDeclared`` (MJO-4.3: no kongs at all; MJS-3.4 where the game has them): a
    concealed kong of four held tiles on one's turn — with ``concealedKongLater`` false (seed
    003 5c read literally) only when the fourth is the tile just drawn —, or an added kong of
    the tile just drawn
    (any held tile with ``addedKongLater``) onto a pong, which a win may rob first (MJS-7.3);
    never of the void suit (MJS-2.2). A replacement is then drawn from the wall's end, and the
    kong is paid at once (MJS-7.1)."""
    settings = state.settings
    seat = _seat_arg(settings, data)
    kind, tile = data.get("kind"), _tile_arg(settings, data.get("tile"))
    if not settings.kongs:
        raise _fail(settings, "kong", "seat {seat} may not declare a kong of {tile}: "
                                      "kongs are not allowed in this game; a fourth "
                                      "identical tile is used in another set or "
                                      "discarded",
                                      seat=seat, tile=tile)
    allowed = {"concealed": settings.kongConcealed is not None,
               "added": settings.kongAdded is not None}
    if not allowed.get(kind):
        raise _fail(settings, "kong", "seat {seat} may not declare a {kind!r} kong: "
                                      "the kinds allowed are {allowed}",
                                      seat=seat, kind=kind,
                                      allowed=', '.join((k for k, on in allowed.items() if on)))
    _must_be_on_turn(state, seat, "discard", "declare a kong")
    if state.wall_count == 0:
        raise _fail(settings, "kong", "seat {seat} may not kong: no tile is left for "
                                      "the replacement",
                                      seat=seat)
    _must_not_meld_void(state, seat, tile, "kong")
    hand = state.seats[seat]
    if kind == "added":
        _must_add_to_a_pong(state, hand, seat, tile)
        if state.settings.robKong:
            return evolve(state, phase="claims", window=ClaimWindow(
                seat, tile, _may_rob(state, seat, tile), robbing=True,
                open_to=_answering(state, seat)))
        return _complete_added_kong(state, seat, tile)
    hand = _concealed_kong(state, hand, seat, tile)
    payers = tuple(s for s in state.still_in if s != seat)
    state = evolve(state, seats=_with_seat(state, seat, hand), phase="draw", replacement=True,
                    drawn=None)
    return _kong_made(state, KongRecord(seat, "concealed", tile, payers))


def _concealed_kong(state: Hand, hand: SeatHand, seat: int, tile: str) -> SeatHand:
    settings = state.settings
    if hand.concealed.count(tile) < 4:
        raise _fail(settings, "kong", "seat {seat} does not hold four {tile} for a "
                                      "concealed kong",
                                      seat=seat, tile=tile)
    dealers_first = state.drawn is None and began_with_draw(state)
    if not (settings.concealedKongLater or state.drawn == tile or dealers_first):
        raise _fail(settings, "kong", "seat {seat} may make a concealed kong of {tile} "
                                      "only on drawing the fourth {tile}",
                                      seat=seat, tile=tile)
    return evolve(hand, concealed=remove_tiles(hand.concealed, (tile,) * 4),
                   melds=hand.melds + (Meld("kong", (tile,) * 4, concealed=True),))


def _must_add_to_a_pong(state: Hand, hand: SeatHand, seat: int, tile: str) -> None:
    settings = state.settings
    pong = any(m.kind == "pong" and m.tiles[0] == tile for m in hand.melds)
    if not pong or tile not in hand.concealed:
        raise _fail(settings, "kong", "seat {seat} has no pong of {tile} and a fourth "
                                      "{tile} to add to it",
                                      seat=seat, tile=tile)
    if not settings.addedKongLater and state.drawn != tile:
        raise _fail(settings, "kong", "seat {seat} may add only the tile just drawn to "
                                      "a pong",
                                      seat=seat)


def _may_rob(state: Hand, maker: int, tile: str) -> tuple[frozenset[str], ...]:
    """MJS-7.3: who may rob the added kong of ``tile`` — a win on it, as on a discard (MJS-5.6:
    not under 过水). The robbing window opens whether or not anyone may (MJS section 11: "the
    claim window is 3 s after a discard or an added kong"), so that the table does not learn
    from it who waits on the tile."""
    return tuple(frozenset({"win"}) if s != maker and may_win_on(state, s, tile) else frozenset()
                 for s in range(SEATS))


def exhaustive_draw(state: Hand, data: Mapping | None = None) -> Hand:
    """``DrawGame`` (MJO-6.1, 6.2; MJS-8.1): the wall is exhausted and the hand ends without
    another win — the last drawer did not win (and, unless ``lastTileDiscard``, does not
    discard), or nobody won on the last discard."""
    settings = state.settings
    _must_be_in_play(state)
    if state.wall_count:
        raise _fail(settings, "exhaustive", "the hand is not drawn: {wall_count} wall "
                                            "tile(s) are left",
                                            wall_count=state.wall_count)
    if not (state.phase == "draw" or (state.phase == "discard" and not settings.lastTileDiscard)):
        if state.phase == "discard":
            raise _fail(settings, "exhaustive", "the hand is not drawn yet: seat {turn} still "
                                                "discards the last tile", turn=state.turn)
        raise _fail(settings, "exhaustive", "the claim window on the last discard is open")
    return evolve(state, phase="over", result="draw", window=None)
