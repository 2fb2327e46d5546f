"""Claims on a discard (MJO-4.5 – 4.8, MJS section 11): ``Claim`` (win, pong, chow, kong or
pass), and the window resolved (``ClaimsResolved``, derived): the successful claims settled,
the melds made, the wins recorded and who plays on."""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..frozen import evolve
from ..violations import RuleViolation
from .claims import (
    CLAIM_KINDS,
    Claim,
    ClaimWindow,
    chow_options,
    is_chow_with,
    meld_from_claim,
    successful_claims,
    window_decided,
)
from .hand import (
    Discard,
    Hand,
    KongRecord,
    PendingRuling,
    WinRecord,
    _fail,
    _must_be_in_play,
    _must_be_still_in,
    _recorded,
    _seat_arg,
    _tiles_arg,
    _with_seat,
    false_win,
    may_not,
    next_in,
)
from .may_win import _must_not_be_barred, _must_not_have_passed_a_win, must_win
from .tiles import add_tiles, format_tiles, holds, remove_tiles, sort_tiles, suit
from .wall import SEATS, next_seat
from .winning import must_be_winning_hand


def _must_be_claimable(state: Hand, seat: int) -> ClaimWindow:
    """MJO-4.5: a claim answers the open window once, by a seat other than the discarder
    still in the hand (MJS-4.2)."""
    _must_be_in_play(state)
    _must_be_still_in(state, seat, "claim")
    w = state.window
    if state.phase != "claims" or w is None:
        raise _fail(state.settings, "claimWindow", "seat {seat} cannot claim: no discard "
                                                   "is open to claims",
                                                   seat=seat)
    if seat == w.discarder:
        raise _fail(state.settings, "claimWindow", "seat {seat} cannot claim his own "
                                                   "discard",
                                                   seat=seat)
    if w.answered(seat):
        raise _fail(state.settings, "claimWindow", "seat {seat} has already answered the "
                                                   "claim window on {tile}",
                                                   seat=seat, tile=w.tile)
    return w


def claim(state: Hand, data: Mapping) -> Hand:
    """``Claim`` (MJO-4.1 to 4.5): a win, pong, chow (or, where the game has them, a direct
    kong) on the open discard, with the tiles from the claimer's hand; only a win on a kong
    being robbed (MJS-7.3)."""
    settings = state.settings
    seat = _seat_arg(settings, data)
    kind = data.get("kind")
    if kind == "pass":
        return pass_claim(state, data)
    w = _must_be_claimable(state, seat)
    if kind not in CLAIM_KINDS:
        raise _fail(settings, "claimWindow", "a claim is win, pong, chow or kong, not "
                                             "{kind!r}",
                                             kind=kind)
    if w.robbing and kind != "win":
        raise _fail(settings, "robKong", "seat {seat} {may_not} the {tile} seat "
                                         "{discarder} adds to his pong: only a win "
                                         "robs a kong",
                                         seat=seat, may_not=may_not(kind), tile=w.tile,
                                         discarder=w.discarder)
    if state.wall_count == 0 and kind != "win":
        raise _fail(settings, "exhaustive", "seat {seat} {may_not} the discard "
                                            "after the last tile: only a win may be "
                                            "claimed on it",
                                            seat=seat, may_not=may_not(kind))
    tiles = _tiles_arg(settings, data.get("tiles"))
    made = _CLAIM_CHECKS[kind](state, w, seat, tiles)
    claims = tuple(made if s == seat else c for s, c in enumerate(w.claims))
    return evolve(state, window=evolve(w, claims=claims))


def _chow_claim(state: Hand, w: ClaimWindow, seat: int, tiles: tuple[str, ...]) -> Claim:
    """MJO-4.1: a chow takes only the previous player's discard, with two tiles of the hand
    making three consecutive tiles of its suit (MJS-3.1: no chow at all)."""
    settings = state.settings
    if not settings.chow:
        raise _fail(settings, "chow", "seat {seat} may not chow: there is no chow in "
                                      "this game",
                                      seat=seat)
    if seat != next_seat(w.discarder):
        raise _fail(settings, "chow", "seat {seat} may not chow the discard of seat "
                                      "{discarder}: a chow takes only the previous "
                                      "player's discard",
                                      seat=seat, discarder=w.discarder)
    concealed = state.seats[seat].concealed
    if not tiles:
        options = chow_options(concealed, w.tile)
        if len(options) != 1:
            if options:
                raise _fail(settings, "chow", "seat {seat} must name the two tiles that make a "
                                              "chow with {tile}", seat=seat, tile=w.tile)
            raise _fail(settings, "chow", "seat {seat} holds no two tiles that make a chow with "
                                          "{tile}", seat=seat, tile=w.tile)
        tiles = options[0]
    if not is_chow_with(w.tile, tiles):
        raise _fail(settings, "chow", "{tiles} and {tile} are not three "
                                      "consecutive tiles of one suit",
                                      tiles=format_tiles(tiles), tile=w.tile)
    if not holds(concealed, tiles):
        raise _fail(settings, "chow", "seat {seat} does not hold {tiles}",
                                      seat=seat, tiles=format_tiles(tiles))
    return Claim(seat, "chow", sort_tiles(tiles))


def _must_not_meld_void(state: Hand, seat: int, tile: str, kind: str) -> None:
    """MJS-2.2: a player does not pong or kong a tile of his void suit."""
    if state.voids[seat] is not None and suit(tile) == state.voids[seat]:
        raise _fail(state.settings, "void", "seat {seat} {may_not} {tile}: "
                                            "{void} is his void suit",
                                            seat=seat, may_not=may_not(kind), tile=tile,
                                            void=state.voids[seat])


def _pong_claim(state: Hand, w: ClaimWindow, seat: int, tiles: tuple[str, ...]) -> Claim:
    """MJO-4.2: a pong takes a discard of any player with a pair of it from the hand."""
    settings = state.settings
    if tiles and tiles != (w.tile, w.tile):
        raise _fail(settings, "pong", "a pong of {tile} takes two {tile} from the "
                                      "hand, not {tiles}",
                                      tile=w.tile, tiles=format_tiles(tiles))
    if state.seats[seat].concealed.count(w.tile) < 2:
        raise _fail(settings, "pong", "seat {seat} does not hold a pair of {tile} to "
                                      "pong it",
                                      seat=seat, tile=w.tile)
    _must_not_meld_void(state, seat, w.tile, "pong")
    return Claim(seat, "pong", (w.tile, w.tile))


def _kong_claim(state: Hand, w: ClaimWindow, seat: int, tiles: tuple[str, ...]) -> Claim:
    """MJO-4.3: no kongs at all; MJS-3.4: a direct kong takes a discard with three of it."""
    settings = state.settings
    if settings.kongDirect is None:
        raise _fail(settings, "kong", "seat {seat} may not kong {tile}: kongs are not "
                                      "allowed in this game (he may pong it)",
                                      seat=seat, tile=w.tile)
    if tiles and tiles != (w.tile,) * 3:
        raise _fail(settings, "kong", "a kong of {tile} takes three {tile} from the "
                                      "hand",
                                      tile=w.tile)
    if state.seats[seat].concealed.count(w.tile) < 3:
        raise _fail(settings, "kong", "seat {seat} does not hold three {tile} to kong "
                                      "it",
                                      seat=seat, tile=w.tile)
    _must_not_meld_void(state, seat, w.tile, "kong")
    return Claim(seat, "kong", (w.tile,) * 3)


def _win_claim(state: Hand, w: ClaimWindow, seat: int, tiles: tuple[str, ...]) -> Claim:
    """MJO-4.4 / MJO-5, MJS-5: the hand plus the discard must be a win; a seat barred from
    winning (MJS-9, 10) or under 过水 (MJS-5.6) may not claim one. In record enforcement an
    invalid hand is kept — for the referee (MJO-5.6) or as a false win (炸胡, MJS-9.2)."""
    _must_not_be_barred(state, seat)
    _must_not_have_passed_a_win(state, seat)
    try:
        must_win(state, seat, add_tiles(state.seats[seat].concealed, (w.tile,)))
    except RuleViolation:
        if state.settings.strict:
            raise
        return Claim(seat, "win", irregular=True)
    return Claim(seat, "win")


_CLAIM_CHECKS = {"chow": _chow_claim, "pong": _pong_claim, "kong": _kong_claim,
                 "win": _win_claim}


def pass_claim(state: Hand, data: Mapping) -> Hand:
    """``Claim`` kind ``pass`` (MJO-4.5): the seat will not claim this discard. Passing a win
    carries no restriction in MJO (MJO-4.6); in MJS it is 过水 (MJS-5.6, when the window
    settles)."""
    seat = _seat_arg(state.settings, data)
    w = _must_be_claimable(state, seat)
    return evolve(state, window=evolve(w, passed=w.passed | {seat}))


def resolve_claims(state: Hand, data: Mapping | None = None) -> Hand:
    """``ClaimsResolved`` (MJO-4.5): when every other seat still in has answered, or no
    answer still due could change the outcome whatever the tiles of the seats yet to answer,
    or the window's time is up (``timedOut``),
    the claims are settled by priority — win, then pong (or kong), then chow (MJO-4.2,
    MJO-4.4) — whatever order they arrived in."""
    settings = state.settings
    _must_be_in_play(state)
    w = state.window
    if state.phase != "claims" or w is None:
        raise _fail(settings, "claimWindow", "no claim window is open")
    if not (data or {}).get("timedOut") and not window_decided(w, settings):
        seats = ", ".join(map(str, w.pending))
        raise _fail(settings, "claimWindow", "the claim window on seat {discarder}'s "
                                             "{tile} is still open: seat(s) {seats} "
                                             "have not answered",
                                             discarder=w.discarder, tile=w.tile, seats=seats)
    return _settle(state, w)


def _passed_wins(state: Hand, w: ClaimWindow, taken: Sequence[Claim]) -> Hand:
    """MJS-5.6 过水: every seat that could have won on this tile and does not win on it."""
    if not state.settings.passedWinBar:
        return state
    winners = {c.seat for c in taken if c.kind == "win"}
    passed = {s for s in range(SEATS) if "win" in w.may[s] and s not in winners}
    if passed <= state.passed_win:
        return state  # nobody newly barred: the same state, not a copy of it
    return evolve(state, passed_win=state.passed_win | passed)


def _settle(state: Hand, w: ClaimWindow) -> Hand:
    state, w = _false_win_claims(state, w)
    taken = successful_claims(w, state.settings)
    state = _passed_wins(state, w, taken)
    if taken and taken[0].kind == "win":
        return _settle_wins(state, w, taken)
    if w.robbing:
        return _complete_added_kong(evolve(state, phase="discard", window=None), w.discarder,
                                    w.tile)
    if not taken:
        return evolve(state, phase="draw", window=None)
    return _make_meld(state, w, taken[0])


def _false_win_claims(state: Hand, w: ClaimWindow) -> tuple[Hand, ClaimWindow]:
    """Record enforcement with a false-win penalty (MJS-9.2): a win claim on a hand that is
    not a win is a 炸胡 — the claimer pays, is barred from winning, and his claim counts as a
    pass."""
    if state.settings.falseWinPayment is None or \
            not any(c is not None and c.irregular for c in w.claims):
        return state, w  # (the state as it was: nothing to settle before the claims)
    for c in w.made:
        if c.irregular:
            state = false_win(state, c.seat)
            claims = tuple(None if s == c.seat else x for s, x in enumerate(w.claims))
            w = evolve(w, claims=claims, passed=w.passed | {c.seat})
    return evolve(state, window=w), w


def _settle_wins(state: Hand, w: ClaimWindow, taken: tuple[Claim, ...]) -> Hand:
    """MJO-4.4: the winner(s) of the discard — or of the kong being robbed (MJS-7.3). A claim
    on an invalid hand, kept in MJO record enforcement, first goes to the referee (MJO-5.6).
    In MJO the hand ends; in MJS the winners leave (MJS-4.1)."""
    irregular = next((c for c in taken if c.irregular), None)
    if irregular is not None:
        hand = state.seats[irregular.seat]
        try:
            must_be_winning_hand(add_tiles(hand.concealed, (w.tile,)), hand.melds,
                                 state.settings, irregular.seat)
        except RuleViolation as v:
            return evolve(state, phase="ruling",
                           ruling=PendingRuling(irregular.seat, True, v.rule, v.message))
    if w.robbing:
        state = _robbed(state, w.discarder, w.tile)
    wins = []
    for k, c in enumerate(taken):
        wins.append(WinRecord(c.seat, w.tile, False, w.discarder, robbed=w.robbing,
                              payers=(w.discarder,), after_kong=bool(w.kongs),
                              refunds=w.kongs if k == 0 else (), seq=state.records + k))
    state = evolve(state, wins=state.wins + tuple(wins), window=None,
                    records=state.records + len(wins))
    if not state.settings.bloodyBattle:
        return evolve(state, phase="over", result="win", turn=taken[0].seat)
    return _play_on_after_wins(state, taken[-1].seat)


def _robbed(state: Hand, maker: int, tile: str) -> Hand:
    """MJS-7.3: the kong does not happen — the tile leaves the maker's hand for his pool,
    where it is won on, and his pong stays a pong."""
    hand = state.seats[maker]
    hand = evolve(hand, concealed=remove_tiles(hand.concealed, (tile,)),
                   discards=hand.discards + (Discard(tile, robbed=True),))
    return evolve(state, seats=_with_seat(state, maker, hand))


def _play_on_after_wins(state: Hand, last: int) -> Hand:
    """MJS-4.1, 3.5, 8.1: the hand ends once three have won or the wall is exhausted (a drawn
    hand when two or more are still in); otherwise the next player still in after the last
    winner — counted from the discarder — draws."""
    if len(state.still_in) <= 1:
        return evolve(state, phase="over", result="win", window=None, drawn=None)
    if state.wall_count == 0:
        return evolve(state, phase="over", result="draw", window=None, drawn=None)
    return evolve(state, phase="draw", turn=next_in(state, last), window=None, drawn=None,
                   replacement=False, turn_kongs=())


def _make_meld(state: Hand, w: ClaimWindow, c: Claim) -> Hand:
    """MJO-3.3: the claimer exposes the meld and continues — after a pong or chow by
    discarding, after a direct kong by drawing a replacement (MJS-3.4), paid at once by the
    discarder (MJS-7.1); seats in between lose their turn."""
    meld = meld_from_claim(c, w.tile, w.discarder)
    claimer = state.seats[c.seat]
    claimer = evolve(claimer, concealed=remove_tiles(claimer.concealed, c.tiles),
                      melds=claimer.melds + (meld,))
    giver = state.seats[w.discarder]
    giver = evolve(giver, discards=giver.discards[:-1] + (Discard(w.tile, c.seat),))
    seats = tuple(claimer if s == c.seat else giver if s == w.discarder else h
                  for s, h in enumerate(state.seats))
    kong = c.kind == "kong"
    state = evolve(state, seats=seats, turn=c.seat, window=None, drawn=None,
                    phase="draw" if kong else "discard", replacement=kong, turn_kongs=())
    if kong:
        state = _kong_made(state, KongRecord(c.seat, "direct", w.tile, (w.discarder,),
                                             from_seat=w.discarder))
    return state


def _kong_made(state: Hand, kong: KongRecord) -> Hand:
    return _recorded(state, kongs=state.kongs + (evolve(kong, seq=state.records),),
                     turn_kongs=state.turn_kongs + (len(state.kongs),))


def _complete_added_kong(state: Hand, seat: int, tile: str) -> Hand:
    """MJS-3.4 / 7.1: the fourth tile joins the pong; every other player still in pays; the
    maker draws a replacement."""
    hand = state.seats[seat]
    k = next(i for i, m in enumerate(hand.melds) if m.kind == "pong" and m.tiles[0] == tile)
    melds = tuple(evolve(m, kind="kong", tiles=(tile,) * 4) if i == k else m
                  for i, m in enumerate(hand.melds))
    hand = evolve(hand, concealed=remove_tiles(hand.concealed, (tile,)), melds=melds)
    payers = tuple(s for s in state.still_in if s != seat)
    state = evolve(state, seats=_with_seat(state, seat, hand), phase="draw", replacement=True,
                    drawn=None, turn=seat)
    return _kong_made(state, KongRecord(seat, "added", tile, payers,
                                        from_seat=hand.melds[k].from_seat))
