"""One hand of mahjong as a frozen state and pure transitions ``(state, data) -> state``.

Each transition checks one event of the hand lifecycle (mahjong-ottawa.md section 10) and
returns the next state, or raises :class:`RuleViolation` naming the broken rule:

============================  ==================  ===============================================
event                         transition          data
============================  ==================  ===============================================
``HandDealt``                 :func:`deal`        ``dealer``, ``hands`` (4 lists), ``wall``?
(deal from the table)         :func:`deal_from_wall`  ``dealer``, ``walls`` (4), ``dice`` [[a,b],[c,d]]
``TileDrawn``                 :func:`draw`        ``seat``, ``tile``, ``fromEnd``?
``TileDiscarded``             :func:`discard`     ``seat``, ``tile``
``Claim``                     :func:`claim`       ``seat``, ``kind`` (win/pong/chow/kong), ``tiles``
``Claim`` kind ``pass``       :func:`pass_claim`  ``seat``
``ClaimsResolved`` (derived)  :func:`resolve_claims`  ``timedOut``?
``Win`` (self-draw)           :func:`declare_win` ``seat``
``KongDeclared``              :func:`declare_kong`  ``seat``, ``kind`` (concealed/added), ``tile``
``DrawGame`` (derived)        :func:`exhaustive_draw`  —
``RulingRecorded`` on a win   :func:`rule_on_win` ``winValid``
============================  ==================  ===============================================

``seat`` is the acting seat of the event envelope. The phases of a hand are ``discard`` (the
seat on turn holds 14 tiles, counting melds as three, and discards or wins), ``claims`` (a
claim window is open on the last discard), ``draw`` (the seat on turn must draw), ``ruling``
(record mode: a win on an invalid hand waits for the referee, MJO-5.6) and ``over``.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from ..violations import RuleViolation
from .claims import (
    CLAIM_KINDS,
    Claim,
    ClaimWindow,
    chow_options,
    claim_options,
    is_chow_with,
    meld_from_claim,
    successful_claims,
    window_decided,
)
from .settings import GameSettings
from .tiles import (
    COPIES,
    Meld,
    TileError,
    add_tiles,
    format_tiles,
    holds,
    kinds,
    meld_tiles,
    over_copies,
    parse_tile,
    remove_tiles,
    sort_tiles,
    tile_set,
)
from .wall import SEATS, break_wall, deal_order, dealt_size, live_wall_size, next_seat
from .winning import is_winning_hand, must_be_winning_hand

PHASES = ("discard", "claims", "draw", "ruling", "over")


@dataclass(frozen=True)
class Discard:
    """A tile in a discard pool; ``claimed_by`` is the seat that took it into a meld."""

    tile: str
    claimed_by: int | None = None


@dataclass(frozen=True)
class SeatHand:
    """One seat's tiles: concealed (sorted), melds, and every discard in the order made."""

    concealed: tuple[str, ...]
    melds: tuple[Meld, ...] = ()
    discards: tuple[Discard, ...] = ()

    @property
    def pool(self) -> tuple[str, ...]:
        """The tiles lying in the seat's pool, in order (claimed discards left it)."""
        return tuple(d.tile for d in self.discards if d.claimed_by is None)

    @property
    def size(self) -> int:
        """MJO-3.2: tiles held, each meld counted as three."""
        return len(self.concealed) + 3 * len(self.melds)

    @property
    def tiles(self) -> tuple[str, ...]:
        """Concealed and meld tiles together."""
        return self.concealed + meld_tiles(self.melds)


@dataclass(frozen=True)
class WinRecord:
    """A win: by ``seat`` on ``tile`` (None for the dealer's first 14, MJO-5.4), self-drawn
    or on the discard of ``from_seat``. A discard win leaves the tile in the discarder's pool;
    the winner's hand is his concealed tiles plus it."""

    seat: int
    tile: str | None
    self_drawn: bool
    from_seat: int | None = None


@dataclass(frozen=True)
class PendingRuling:
    """Record mode (MJO-5.6): ``seat`` declared a win on a hand that is not one, by a claim
    (``on_claim``) or by self-draw; ``rule`` and ``message`` say why."""

    seat: int
    on_claim: bool
    rule: str
    message: str


@dataclass(frozen=True)
class Hand:
    """The state of one hand (see the module docstring for the phases). ``wall`` is the live
    wall in draw order when the deal recorded it, else None; ``wall_count`` is always known.
    ``turn`` is the seat to draw or discard (while a window is open: the seat that draws if
    nobody claims). ``drawn`` is the tile drawn this turn, None after a claim."""

    settings: GameSettings
    dealer: int
    seats: tuple[SeatHand, ...]
    wall: tuple[str, ...] | None
    wall_count: int
    turn: int
    phase: str = "discard"
    drawn: str | None = None
    replacement: bool = False
    window: ClaimWindow | None = None
    wins: tuple[WinRecord, ...] = ()
    ruling: PendingRuling | None = None
    result: str | None = None     # "win" or "draw" once the hand is over

    def seat(self, seat: int) -> SeatHand:
        return self.seats[seat]

    @property
    def over(self) -> bool:
        return self.phase == "over"

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(w.seat for w in self.wins)


def winning_tiles(state: Hand, win: WinRecord) -> tuple[str, ...]:
    """The concealed tiles of a winner's hand, the claimed discard included."""
    concealed = state.seats[win.seat].concealed
    return concealed if win.self_drawn else add_tiles(concealed, (win.tile,))


# ---------------------------------------------------------------------------------------------
# helpers


def _fail(settings: GameSettings, key: str, message: str) -> RuleViolation:
    rule = settings.rule(key)
    return RuleViolation(rule, f"{message} ({rule})")


def _seat_arg(settings: GameSettings, data: Mapping, key: str = "seat") -> int:
    seat = data.get(key)
    if type(seat) is not int or not 0 <= seat < SEATS:
        raise _fail(settings, "turn", f"{key} must be a seat 0 to 3, not {seat!r}")
    return seat


def _tile_arg(settings: GameSettings, tile: object) -> str:
    """MJO-1.1: a tile of this game's set."""
    try:
        parsed = parse_tile(tile)
    except TileError as e:
        raise _fail(settings, "tiles", str(e)) from None
    if parsed not in kinds(settings.tileCount):
        raise _fail(settings, "tiles", f"{parsed} is not in the {settings.tileCount}-tile set")
    return parsed


def _tiles_arg(settings: GameSettings, tiles: object) -> tuple[str, ...]:
    if tiles is None:
        return ()
    if isinstance(tiles, str):
        tiles = tiles.split()
    return tuple(_tile_arg(settings, t) for t in tiles)


def _with_seat(state: Hand, seat: int, hand: SeatHand) -> tuple[SeatHand, ...]:
    return tuple(hand if s == seat else h for s, h in enumerate(state.seats))


def _must_be_in_play(state: Hand) -> None:
    if state.phase == "over":
        raise _fail(state.settings, "turn", "the hand is over")
    if state.phase == "ruling":
        r = state.ruling
        raise _fail(state.settings, "falseWin",
                    f"play waits for the referee's ruling on seat {r.seat}'s win")


def _must_be_on_turn(state: Hand, seat: int, phase: str, action: str) -> None:
    """MJO-3.2: a player draws only after the previous discard, and discards only after
    drawing or claiming; MJO-4.5: nobody draws while a claim window is open."""
    _must_be_in_play(state)
    if state.phase == "claims" and phase != "claims":
        w = state.window
        raise _fail(state.settings, "claimWindow",
                    f"seat {seat} may not {action} yet: the claim window on seat {w.discarder}'s "
                    f"{w.tile} is open")
    if state.phase == phase and seat == state.turn:
        return
    if state.phase == "discard" and state.drawn is None and not state.replacement:
        if began_with_draw(state):
            raise _fail(state.settings, "firstTurn",
                        f"seat {seat} may not {action}: the dealer, seat {state.dealer}, opens "
                        f"the hand by discarding from his 14 tiles (or winning)")
        raise _fail(state.settings, "turnAfterClaim",
                    f"seat {seat} may not {action}: seat {state.turn} claimed the last discard "
                    f"and discards next; the seats in between lose their turn")
    raise _fail(state.settings, "turn",
                f"seat {seat} may not {action}: it is seat {state.turn}'s turn to {state.phase}")


def began_with_draw(state: Hand) -> bool:
    """MJO-5.4: whether the turn began with a draw — or is the dealer's first turn, on his 14
    dealt tiles — so that a win now is a self-draw."""
    if state.drawn is not None:
        return True
    return (state.turn == state.dealer and not state.replacement
            and not any(h.discards or h.melds for h in state.seats))


# ---------------------------------------------------------------------------------------------
# the deal


def _hands_arg(settings: GameSettings, hands: object) -> tuple[tuple[str, ...], ...]:
    if isinstance(hands, Mapping):
        hands = [hands.get(s, hands.get(str(s))) for s in range(SEATS)]
    if not isinstance(hands, Sequence) or len(hands) != SEATS or any(h is None for h in hands):
        raise _fail(settings, "deal", "a deal gives a hand to each of the four seats")
    return tuple(_tiles_arg(settings, h) for h in hands)


def _must_be_a_true_set(settings: GameSettings, tiles: Sequence[str], complete: bool) -> None:
    """MJO-1.1: no face more than four times; with the wall recorded, exactly the set."""
    extra = over_copies(tiles)
    if extra:
        raise _fail(settings, "tiles", f"the deal has more than four of {' '.join(extra)}")
    if complete and Counter(tiles) != Counter(tile_set(settings.tileCount)):
        missing = Counter(tile_set(settings.tileCount)) - Counter(tiles)
        raise _fail(settings, "tiles",
                    f"hands and wall hold {len(tiles)} tiles, not the {settings.tileCount} of "
                    f"the set (missing {format_tiles(missing.elements())})")


def deal(settings: GameSettings, data: Mapping) -> Hand:
    """``HandDealt`` (MJO-2.3, MJO-2.4): the dealer holds 14 tiles and the others 13; the
    live wall, when recorded, is the rest of the set in draw order. The dealer opens by
    discarding or winning (MJO-3.1)."""
    dealer = _seat_arg(settings, data, "dealer")
    hands = _hands_arg(settings, data.get("hands"))
    for seat, hand in enumerate(hands):
        if len(hand) != dealt_size(seat, dealer):
            raise _fail(settings, "deal", f"seat {seat} was dealt {len(hand)} tiles; the dealer "
                                          f"(seat {dealer}) holds 14 and the others 13")
    wall = data.get("wall")
    wall = None if wall is None else _tiles_arg(settings, wall)
    _must_be_a_true_set(settings, [t for h in hands for t in h] + list(wall or ()),
                        complete=wall is not None)
    return Hand(settings=settings, dealer=dealer,
                seats=tuple(SeatHand(sort_tiles(h)) for h in hands), wall=wall,
                wall_count=live_wall_size(settings.tileCount), turn=dealer)


def deal_from_wall(settings: GameSettings, data: Mapping) -> Hand:
    """MJO-2.3: the deal as the table makes it, from the four walls as built (each read from
    its owner's right to left, top tile of a stack first) and the two recorded throws."""
    dealer = _seat_arg(settings, data, "dealer")
    walls = data.get("walls")
    if not isinstance(walls, Sequence) or len(walls) != SEATS:
        raise _fail(settings, "deal", "the table has four walls, one in front of each seat")
    walls = tuple(_tiles_arg(settings, w) for w in walls)
    _must_be_a_true_set(settings, [t for w in walls for t in w], complete=True)
    sequence = break_wall(walls, dealer, data.get("dice") or (), settings)
    hands, live = deal_order(sequence, dealer)
    return deal(settings, {"dealer": dealer, "hands": hands, "wall": live})


# ---------------------------------------------------------------------------------------------
# turns


def _in_play(state: Hand) -> Counter:
    return Counter(t for h in state.seats for t in (*h.tiles, *h.pool))


def draw(state: Hand, data: Mapping) -> Hand:
    """``TileDrawn`` (MJO-3.2): the seat on turn draws after the previous discard's window
    closed; the tile is the next one of the recorded wall (MJO-2.4) — from its end for a kong
    replacement (MJS-1.2); there must be a tile left (MJO-6.1)."""
    settings = state.settings
    seat = _seat_arg(settings, data)
    _must_be_on_turn(state, seat, "draw", "draw")
    if state.wall_count == 0:
        raise _fail(settings, "exhaustive", "the wall is exhausted: there is no tile to draw")
    tile = _tile_arg(settings, data.get("tile"))
    from_end = data.get("fromEnd")
    if from_end is not None and bool(from_end) != state.replacement:
        where = "from the end of the wall, as a kong replacement" if state.replacement \
            else "from the front of the wall"
        raise _fail(settings, "kong" if state.replacement or settings.kongs else "wall",
                    f"seat {seat} draws {where}")
    wall = state.wall
    if wall is not None:
        expected = wall[-1] if state.replacement else wall[0]
        if tile != expected:
            raise _fail(settings, "wall", f"seat {seat} drew {tile}, but the next tile of the "
                                          f"recorded wall is {expected}")
        wall = wall[:-1] if state.replacement else wall[1:]
    elif _in_play(state)[tile] >= COPIES:
        raise _fail(settings, "tiles", f"all four {tile} are already in play; seat {seat} "
                                       f"cannot draw a fifth")
    hand = state.seats[seat]
    return replace(state, seats=_with_seat(state, seat, replace(
        hand, concealed=add_tiles(hand.concealed, (tile,)))), wall=wall,
        wall_count=state.wall_count - 1, phase="discard", drawn=tile, replacement=False)


def discard(state: Hand, data: Mapping) -> Hand:
    """``TileDiscarded`` (MJO-3.2): the seat on turn discards a tile he holds, after drawing or
    claiming (the dealer's first discard from 14, MJO-3.1). After the last wall tile there is no
    discard unless ``lastTileDiscard`` (MJO-6.1). The claim window opens (MJO-4.5)."""
    settings = state.settings
    seat = _seat_arg(settings, data)
    _must_be_on_turn(state, seat, "discard", "discard")
    if state.wall_count == 0 and not settings.lastTileDiscard:
        raise _fail(settings, "exhaustive", f"seat {seat} drew the last tile and may not "
                                            f"discard: he wins or the hand is drawn")
    tile = _tile_arg(settings, data.get("tile"))
    hand = state.seats[seat]
    if tile not in hand.concealed:
        raise _fail(settings, "turn", f"seat {seat} does not hold {tile} "
                                      f"(holds {format_tiles(hand.concealed)})")
    hand = replace(hand, concealed=remove_tiles(hand.concealed, (tile,)),
                   discards=hand.discards + (Discard(tile),))
    state = replace(state, seats=_with_seat(state, seat, hand), drawn=None)
    return _open_window(state, seat, tile)


def _open_window(state: Hand, discarder: int, tile: str) -> Hand:
    """MJO-4.5: after a discard each other seat may claim what its tiles allow; with nothing
    to claim (and in strict enforcement) the next seat draws at once."""
    settings = state.settings
    last = state.wall_count == 0
    may = tuple(
        claim_options(h.concealed, s, discarder, tile, settings, last_discard=last,
                      can_win=s != discarder
                      and is_winning_hand(add_tiles(h.concealed, (tile,)), h.melds, settings))
        for s, h in enumerate(state.seats))
    turn = next_seat(discarder)
    if not any(may) and settings.strict:
        return replace(state, phase="draw", turn=turn, window=None)
    return replace(state, phase="claims", turn=turn, window=ClaimWindow(discarder, tile, may))


# ---------------------------------------------------------------------------------------------
# claims


def _must_be_claimable(state: Hand, seat: int) -> ClaimWindow:
    """MJO-4.5: a claim answers the open window once, by a seat other than the discarder."""
    _must_be_in_play(state)
    w = state.window
    if state.phase != "claims" or w is None:
        raise _fail(state.settings, "claimWindow", f"seat {seat} cannot claim: no discard is "
                                                   f"open to claims")
    if seat == w.discarder:
        raise _fail(state.settings, "claimWindow", f"seat {seat} cannot claim his own discard")
    if w.answered(seat):
        raise _fail(state.settings, "claimWindow", f"seat {seat} has already answered the claim "
                                                   f"window on {w.tile}")
    return w


def claim(state: Hand, data: Mapping) -> Hand:
    """``Claim`` (MJO-4.1 to 4.5): a win, pong, chow (or, where the game has them, a direct
    kong) on the open discard, with the tiles from the claimer's hand."""
    settings = state.settings
    seat = _seat_arg(settings, data)
    kind = data.get("kind")
    if kind == "pass":
        return pass_claim(state, data)
    w = _must_be_claimable(state, seat)
    if kind not in CLAIM_KINDS:
        raise _fail(settings, "claimWindow", f"a claim is win, pong, chow or kong, not {kind!r}")
    if state.wall_count == 0 and kind != "win":
        raise _fail(settings, "exhaustive", f"seat {seat} may not {kind} the discard after the "
                                            f"last tile: only a win may be claimed on it")
    tiles = _tiles_arg(settings, data.get("tiles"))
    made = _CLAIM_CHECKS[kind](state, w, seat, tiles)
    claims = tuple(made if s == seat else c for s, c in enumerate(w.claims))
    return replace(state, window=replace(w, claims=claims))


def _chow_claim(state: Hand, w: ClaimWindow, seat: int, tiles: tuple[str, ...]) -> Claim:
    """MJO-4.1: a chow takes only the previous player's discard, with two tiles of the hand
    making three consecutive tiles of its suit (MJS-3.1: no chow at all)."""
    settings = state.settings
    if not settings.chow:
        raise _fail(settings, "chow", f"seat {seat} may not chow: there is no chow in this game")
    if seat != next_seat(w.discarder):
        raise _fail(settings, "chow", f"seat {seat} may not chow the discard of seat "
                                      f"{w.discarder}: a chow takes only the previous "
                                      f"player's discard")
    concealed = state.seats[seat].concealed
    if not tiles:
        options = chow_options(concealed, w.tile)
        if len(options) != 1:
            raise _fail(settings, "chow", f"seat {seat} must name the two tiles that make a chow "
                                          f"with {w.tile}" if options else
                        f"seat {seat} holds no two tiles that make a chow with {w.tile}")
        tiles = options[0]
    if not is_chow_with(w.tile, tiles):
        raise _fail(settings, "chow", f"{format_tiles(tiles)} and {w.tile} are not three "
                                      f"consecutive tiles of one suit")
    if not holds(concealed, tiles):
        raise _fail(settings, "chow", f"seat {seat} does not hold {format_tiles(tiles)}")
    return Claim(seat, "chow", sort_tiles(tiles))


def _pong_claim(state: Hand, w: ClaimWindow, seat: int, tiles: tuple[str, ...]) -> Claim:
    """MJO-4.2: a pong takes a discard of any player with a pair of it from the hand."""
    settings = state.settings
    if tiles and tiles != (w.tile, w.tile):
        raise _fail(settings, "pong", f"a pong of {w.tile} takes two {w.tile} from the hand, "
                                      f"not {format_tiles(tiles)}")
    if state.seats[seat].concealed.count(w.tile) < 2:
        raise _fail(settings, "pong", f"seat {seat} does not hold a pair of {w.tile} to pong it")
    return Claim(seat, "pong", (w.tile, w.tile))


def _kong_claim(state: Hand, w: ClaimWindow, seat: int, tiles: tuple[str, ...]) -> Claim:
    """MJO-4.3: no kongs at all; MJS-3.4: a direct kong takes a discard with three of it."""
    settings = state.settings
    if not settings.kongDirect:
        raise _fail(settings, "kong", f"seat {seat} may not kong {w.tile}: kongs are not "
                                      f"allowed in this game (he may pong it)")
    if tiles and tiles != (w.tile,) * 3:
        raise _fail(settings, "kong", f"a kong of {w.tile} takes three {w.tile} from the hand")
    if state.seats[seat].concealed.count(w.tile) < 3:
        raise _fail(settings, "kong", f"seat {seat} does not hold three {w.tile} to kong it")
    return Claim(seat, "kong", (w.tile,) * 3)


def _win_claim(state: Hand, w: ClaimWindow, seat: int, tiles: tuple[str, ...]) -> Claim:
    """MJO-4.4 / MJO-5: the hand plus the discard must be a win; in record enforcement an
    invalid claim is kept for the referee (MJO-5.6)."""
    hand = state.seats[seat]
    try:
        must_be_winning_hand(add_tiles(hand.concealed, (w.tile,)), hand.melds, state.settings,
                             seat)
    except RuleViolation:
        if state.settings.strict:
            raise
        return Claim(seat, "win", irregular=True)
    return Claim(seat, "win")


_CLAIM_CHECKS = {"chow": _chow_claim, "pong": _pong_claim, "kong": _kong_claim,
                 "win": _win_claim}


def pass_claim(state: Hand, data: Mapping) -> Hand:
    """``Claim`` kind ``pass`` (MJO-4.5): the seat will not claim this discard. Passing a win
    carries no restriction (MJO-4.6)."""
    seat = _seat_arg(state.settings, data)
    w = _must_be_claimable(state, seat)
    return replace(state, window=replace(w, passed=w.passed | {seat}))


def resolve_claims(state: Hand, data: Mapping | None = None) -> Hand:
    """``ClaimsResolved`` (MJO-4.5): when every seat that could claim has answered, or no
    answer still due could change the outcome, or the window's time is up (``timedOut``),
    the claims are settled by priority — win, then pong (or kong), then chow (MJO-4.2,
    MJO-4.4) — whatever order they arrived in."""
    settings = state.settings
    _must_be_in_play(state)
    w = state.window
    if state.phase != "claims" or w is None:
        raise _fail(settings, "claimWindow", "no claim window is open")
    if not (data or {}).get("timedOut") and not window_decided(w, settings):
        seats = ", ".join(map(str, w.pending))
        raise _fail(settings, "claimWindow", f"the claim window on seat {w.discarder}'s "
                                             f"{w.tile} is still open: seat(s) {seats} have "
                                             f"not answered")
    return _settle(state, w)


def _settle(state: Hand, w: ClaimWindow) -> Hand:
    taken = successful_claims(w, state.settings)
    if not taken:
        return replace(state, phase="draw", window=None)
    if taken[0].kind == "win":
        return _settle_wins(state, w, taken)
    return _make_meld(state, w, taken[0])


def _settle_wins(state: Hand, w: ClaimWindow, taken: tuple[Claim, ...]) -> Hand:
    """MJO-4.4: the winner(s) of the discard; the hand ends (MJO-5). A claim on an invalid
    hand, kept in record enforcement, first goes to the referee (MJO-5.6)."""
    irregular = next((c for c in taken if c.irregular), None)
    if irregular is not None:
        hand = state.seats[irregular.seat]
        try:
            must_be_winning_hand(add_tiles(hand.concealed, (w.tile,)), hand.melds,
                                 state.settings, irregular.seat)
        except RuleViolation as v:
            return replace(state, phase="ruling",
                           ruling=PendingRuling(irregular.seat, True, v.rule, v.message))
    wins = tuple(WinRecord(c.seat, w.tile, False, w.discarder) for c in taken)
    return replace(state, phase="over", result="win", wins=state.wins + wins, window=None,
                   turn=taken[0].seat)


def _make_meld(state: Hand, w: ClaimWindow, c: Claim) -> Hand:
    """MJO-3.3: the claimer exposes the meld and continues — after a pong or chow by
    discarding, after a direct kong by drawing a replacement (MJS-3.4); seats in between lose
    their turn."""
    meld = meld_from_claim(c, w.tile, w.discarder)
    claimer = state.seats[c.seat]
    claimer = replace(claimer, concealed=remove_tiles(claimer.concealed, c.tiles),
                      melds=claimer.melds + (meld,))
    giver = state.seats[w.discarder]
    giver = replace(giver, discards=giver.discards[:-1] + (Discard(w.tile, c.seat),))
    seats = tuple(claimer if s == c.seat else giver if s == w.discarder else h
                  for s, h in enumerate(state.seats))
    kong = c.kind == "kong"
    return replace(state, seats=seats, turn=c.seat, window=None, drawn=None,
                   phase="draw" if kong else "discard", replacement=kong)


# ---------------------------------------------------------------------------------------------
# wins, kongs, the end of the wall


def declare_win(state: Hand, data: Mapping) -> Hand:
    """``Win`` by self-draw (MJO-5.4): the seat on turn, after drawing — or the dealer on his
    first 14 tiles — holds a winning hand (MJO-5.1 to 5.3). A win on a discard is a claim
    (MJO-4.4). In record enforcement an invalid hand waits for the referee (MJO-5.6)."""
    settings = state.settings
    seat = _seat_arg(settings, data)
    _must_be_in_play(state)
    if state.phase == "claims":
        w = state.window
        raise _fail(settings, "claimWin", f"seat {seat} may win on seat {w.discarder}'s "
                                          f"{w.tile} only by claiming it")
    _must_be_on_turn(state, seat, "discard", "declare a win")
    if not began_with_draw(state):
        raise _fail(settings, "selfDraw", f"seat {seat} did not draw this turn: a self-drawn win "
                                          f"needs the tile just drawn (or the dealer's first 14)")
    hand = state.seats[seat]
    try:
        must_be_winning_hand(hand.concealed, hand.melds, settings, seat)
    except RuleViolation as v:
        if settings.strict:
            raise
        return replace(state, phase="ruling", ruling=PendingRuling(seat, False, v.rule, v.message))
    return _self_drawn_win(state, seat)


def _self_drawn_win(state: Hand, seat: int) -> Hand:
    win = WinRecord(seat, state.drawn, True, None)
    return replace(state, phase="over", result="win", wins=state.wins + (win,), ruling=None)


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
    state = replace(state, ruling=None)
    if not r.on_claim:
        return _self_drawn_win(state, r.seat) if valid else replace(state, phase="discard")
    w = state.window
    old = w.claims[r.seat]
    claims = tuple((replace(old, irregular=False) if valid else None) if s == r.seat else c
                   for s, c in enumerate(w.claims))
    w = replace(w, claims=claims, passed=w.passed if valid else w.passed | {r.seat})
    return _settle(replace(state, phase="claims", window=w), w)


def declare_kong(state: Hand, data: Mapping) -> Hand:
    """``KongDeclared`` (MJO-4.3: no kongs at all; MJS-3.4 where the game has them): a
    concealed kong of four held tiles, or an added kong of the tile just drawn (any held tile
    with ``addedKongLater``) onto a pong; a replacement is then drawn from the wall's end."""
    settings = state.settings
    seat = _seat_arg(settings, data)
    kind, tile = data.get("kind"), _tile_arg(settings, data.get("tile"))
    if not settings.kongs:
        raise _fail(settings, "kong", f"seat {seat} may not declare a kong of {tile}: kongs are "
                                      f"not allowed in this game; a fourth identical tile is "
                                      f"used in another set or discarded")
    allowed = {"concealed": settings.kongConcealed, "added": settings.kongAdded}
    if not allowed.get(kind):
        raise _fail(settings, "kong", f"seat {seat} may not declare a {kind!r} kong: the kinds "
                                      f"allowed are "
                                      f"{', '.join(k for k, on in allowed.items() if on)}")
    _must_be_on_turn(state, seat, "discard", "declare a kong")
    if state.wall_count == 0:
        raise _fail(settings, "kong", f"seat {seat} may not kong: no tile is left for the "
                                      f"replacement")
    hand = state.seats[seat]
    if kind == "concealed":
        hand = _concealed_kong(settings, hand, seat, tile)
    else:
        hand = _added_kong(state, hand, seat, tile)
    return replace(state, seats=_with_seat(state, seat, hand), phase="draw", replacement=True,
                   drawn=None)


def _concealed_kong(settings: GameSettings, hand: SeatHand, seat: int, tile: str) -> SeatHand:
    if hand.concealed.count(tile) < 4:
        raise _fail(settings, "kong", f"seat {seat} does not hold four {tile} for a concealed kong")
    return replace(hand, concealed=remove_tiles(hand.concealed, (tile,) * 4),
                   melds=hand.melds + (Meld("kong", (tile,) * 4, concealed=True),))


def _added_kong(state: Hand, hand: SeatHand, seat: int, tile: str) -> SeatHand:
    settings = state.settings
    pong = next((k for k, m in enumerate(hand.melds) if m.kind == "pong" and m.tiles[0] == tile),
                None)
    if pong is None or tile not in hand.concealed:
        raise _fail(settings, "kong", f"seat {seat} has no pong of {tile} and a fourth {tile} "
                                      f"to add to it")
    if not settings.addedKongLater and state.drawn != tile:
        raise _fail(settings, "kong", f"seat {seat} may add only the tile just drawn to a pong")
    old = hand.melds[pong]
    melds = tuple(replace(old, kind="kong", tiles=(tile,) * 4) if k == pong else m
                  for k, m in enumerate(hand.melds))
    return replace(hand, concealed=remove_tiles(hand.concealed, (tile,)), melds=melds)


def exhaustive_draw(state: Hand, data: Mapping | None = None) -> Hand:
    """``DrawGame`` (MJO-6.1, 6.2): the wall is exhausted and nobody won — the last drawer did
    not win (and, unless ``lastTileDiscard``, does not discard), or nobody won on the last
    discard. Nobody pays; the deal passes (MJO-2.2)."""
    settings = state.settings
    _must_be_in_play(state)
    if state.wall_count:
        raise _fail(settings, "exhaustive", f"the hand is not drawn: {state.wall_count} wall "
                                            f"tile(s) are left")
    if not (state.phase == "draw" or (state.phase == "discard" and not settings.lastTileDiscard)):
        raise _fail(settings, "exhaustive", f"the hand is not drawn yet: seat {state.turn} still "
                                            f"discards the last tile"
                    if state.phase == "discard" else "the claim window on the last discard is open")
    return replace(state, phase="over", result="draw", window=None)


def tiles_in_play(state: Hand) -> Counter:
    """Every tile of the hand: concealed, melds, pools and (when recorded) the wall. With a
    recorded wall this is always exactly the set (MJO-1.1)."""
    return _in_play(state) + Counter(state.wall or ())


def hand_of(state: Hand, seat: int) -> str:
    """The seat's tiles in notation: concealed tiles then melds."""
    h = state.seats[seat]
    return " ".join([format_tiles(h.concealed), *map(str, h.melds)]).strip()

