"""One hand of mahjong as a frozen state and pure transitions ``(state, data) -> state``.

Each transition checks one event of the hand lifecycle (mahjong-ottawa.md section 10,
mahjong-sichuan.md section 11) and returns the next state, or raises :class:`RuleViolation`
naming the broken rule of the game being played (``settings.rule``):

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

The Sichuan game's steps before play (换三张 and the void suits, MJS-2) are in :mod:`.opening`;
its penalties use :func:`false_win`, :func:`bar` and :func:`charge` here.

``seat`` is the acting seat of the event envelope. The phases of a hand are ``exchange`` and
``void`` (MJS-2: before play), ``discard`` (the seat on turn holds 14 tiles, counting melds as
three, and discards or wins), ``claims`` (a claim window is open on the last discard, or on an
added kong that may be robbed), ``draw`` (the seat on turn must draw), ``ruling`` (MJO record
mode: a win on an invalid hand waits for the referee, MJO-5.6) and ``over``.

With ``bloodyBattle`` (MJS-4) a win does not end the hand: the winner leaves with his tiles and
the others play on until three have won or the wall is exhausted; a seat that has won never
acts again. The facts that carry points — each win (with who pays it and its situational
fans), each kong (with who pays it), each penalty — are recorded in order (``seq``); their
amounts are the game's (:mod:`.sichuan` for MJS, :mod:`.mjo` for MJO).
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..frozen import evolve
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
    turn_order_after,
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
    suit,
    tile_set,
)
from .wall import SEATS, break_wall, deal_order, dealt_size, live_wall_size, next_seat
from .winning import Reading, is_winning_hand, must_be_winning_hand

PHASES = ("exchange", "void", "discard", "claims", "draw", "ruling", "over")


@dataclass(frozen=True)
class Discard:
    """A tile in a discard pool; ``claimed_by`` is the seat that took it into a meld.
    ``robbed``: the fourth tile of an added kong, won by robbing it (MJS-7.3) — it stays in
    front of the kong's maker, as a discard won on does."""

    tile: str
    claimed_by: int | None = None
    robbed: bool = False


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
    or on the discard of ``from_seat`` — or, ``robbed``, on the fourth tile of ``from_seat``'s
    added kong (MJS-7.3). A discard win leaves the tile in the discarder's pool; the winner's
    hand is his concealed tiles plus it. ``payers``: who pays it (MJS-6.4: every other player
    still in for a self-draw, else the discarder). The situational fans of MJS-6.2:
    ``kong_flower`` 杠上开花 (self-drawn on a kong replacement), ``after_kong`` 杠上炮 (on the
    discard right after the discarder's kong), ``last_tile`` 海底捞月 (self-drawn on the last
    wall tile). ``refunds``: the kongs a 杠上炮 cancels (MJS-7.2), on the first of its winners."""

    seat: int
    tile: str | None
    self_drawn: bool
    from_seat: int | None = None
    robbed: bool = False
    payers: tuple[int, ...] = ()
    kong_flower: bool = False
    after_kong: bool = False
    last_tile: bool = False
    refunds: tuple[int, ...] = ()
    seq: int = 0

    @property
    def how(self) -> str:
        """MJS section 11 row 12: ``selfDraw``, ``discard`` or ``robKong``."""
        return "selfDraw" if self.self_drawn else "robKong" if self.robbed else "discard"


KONG_KINDS = ("direct", "added", "concealed")


@dataclass(frozen=True)
class KongRecord:
    """A kong made (MJS-3.4) and who pays for it at once (MJS-7.1): the discarder of a direct
    kong, every other player still in for an added or concealed one."""

    seat: int
    kind: str
    tile: str
    payers: tuple[int, ...]
    from_seat: int | None = None
    seq: int = 0


@dataclass(frozen=True)
class PenaltyRecord:
    """A penalty of the hand (MJS-9, MJS-10): ``seat`` pays ``amount`` to each of ``payees``,
    or, with no payees, loses it — deducted, paid to no one (MJS-10.6)."""

    seat: int
    rule: str
    amount: int
    payees: tuple[int, ...]
    reason: str
    seq: int = 0


# MJS-2.1: the red die -> where each player's three tiles go (seats onward, README §4)
DIRECTIONS = {1: "next", 2: "next", 3: "opposite", 4: "opposite", 5: "previous", 6: "previous"}
_STEP = {"next": 1, "opposite": 2, "previous": 3}


@dataclass(frozen=True)
class Exchange:
    """MJS-2.1: each seat's three tiles (None until chosen) and the red die once rolled."""

    selections: tuple[tuple[str, ...] | None, ...] = (None,) * SEATS
    red: int | None = None
    dice: tuple[int, ...] = ()

    @property
    def chosen(self) -> bool:
        return all(s is not None for s in self.selections)

    @property
    def direction(self) -> str | None:
        return None if self.red is None else DIRECTIONS[self.red]

    def receiver(self, seat: int) -> int:
        """The seat that receives ``seat``'s three tiles."""
        return (seat + _STEP[self.direction]) % SEATS

    def received(self, seat: int) -> tuple[str, ...]:
        """The three tiles ``seat`` received, once the exchange is made."""
        giver = next(s for s in range(SEATS) if self.receiver(s) == seat)
        return self.selections[giver]


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
    nobody claims). ``drawn`` is the tile drawn this turn, None after a claim;
    ``drawn_from_end`` whether it was a kong replacement."""

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
    # --- the Sichuan game (MJS) ---
    voids: tuple[str | None, ...] = (None,) * SEATS        # MJS-2.2
    exchange: Exchange | None = None                       # MJS-2.1
    kongs: tuple[KongRecord, ...] = ()                     # MJS-3.4, 7.1
    turn_kongs: tuple[int, ...] = ()   # kongs made by the seat on turn this turn (MJS-7.2)
    drawn_from_end: bool = False                           # MJS-6.2 杠上开花
    barred: tuple[str | None, ...] = (None,) * SEATS       # the rule that bars a seat's win
    passed_win: frozenset[int] = frozenset()               # MJS-5.6 过水
    penalties: tuple[PenaltyRecord, ...] = ()              # MJS-9, MJS-10
    records: int = 0                                       # wins, kongs, penalties made
    warnings: tuple[int, ...] = (0,) * SEATS               # MJS-10.2, 10.3: this hand
    offences: tuple[int, ...] = (0,) * SEATS               # MJS-10.2: this hand

    def seat(self, seat: int) -> SeatHand:
        return self.seats[seat]

    @property
    def over(self) -> bool:
        return self.phase == "over"

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(w.seat for w in self.wins)

    @property
    def still_in(self) -> tuple[int, ...]:
        """MJS-4.2: the seats that have not won (in MJO a win ends the hand)."""
        won = set(self.winners)
        return tuple(s for s in range(SEATS) if s not in won)

    def is_out(self, seat: int) -> bool:
        return seat in self.winners


def winning_tiles(state: Hand, win: WinRecord) -> tuple[str, ...]:
    """The concealed tiles of a winner's hand, the claimed discard included."""
    concealed = state.seats[win.seat].concealed
    return concealed if win.self_drawn else add_tiles(concealed, (win.tile,))


def next_in(state: Hand, seat: int) -> int:
    """MJS-3.5: the next seat after ``seat`` still in the hand (MJO: the next seat)."""
    return next((s for s in turn_order_after(seat) if not state.is_out(s)), next_seat(seat))


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
    """MJO-1.1 / MJS-1.1: a tile of this game's set."""
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
    if state.phase == "exchange":
        raise _fail(state.settings, "exchange", "play starts after 换三张: each player passes "
                                                "three tiles of one suit and the dealer rolls")
    if state.phase == "void":
        missing = ", ".join(str(s) for s, v in enumerate(state.voids) if v is None)
        raise _fail(state.settings, "void", f"play starts once every player has declared his "
                                            f"void suit; seat(s) {missing} have not")


def _must_be_still_in(state: Hand, seat: int, action: str) -> None:
    """MJS-4.1: a player who has won leaves the hand and never acts in it again."""
    if state.is_out(seat):
        raise _fail(state.settings, "out", f"seat {seat} has won and is out of this hand: he "
                                           f"may not {action}")


def _must_be_on_turn(state: Hand, seat: int, phase: str, action: str) -> None:
    """MJO-3.2: a player draws only after the previous discard, and discards only after
    drawing or claiming; MJO-4.5: nobody draws while a claim window is open."""
    _must_be_in_play(state)
    _must_be_still_in(state, seat, action)
    if state.phase == "claims" and phase != "claims":
        w = state.window
        what = f"{w.tile} being added to a kong" if w.robbing else w.tile
        raise _fail(state.settings, "claimWindow",
                    f"seat {seat} may not {action} yet: the claim window on seat {w.discarder}'s "
                    f"{what} is open")
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


def _recorded(state: Hand, **changes) -> Hand:
    """The state with one more record of points (a win, a kong or a penalty) counted."""
    return evolve(state, records=state.records + 1, **changes)


# ---------------------------------------------------------------------------------------------
# who may win (MJO-5, MJS-5, MJS-9, MJS-10)


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
                    f"seat {seat}'s hand holds {format_tiles(void)} of his void suit "
                    f"({state.voids[seat]}): a win has no tile of it")
    return must_be_winning_hand(concealed, state.seats[seat].melds, state.settings, seat)


def wins_with(state: Hand, seat: int, concealed: Sequence[str]) -> bool:
    """Whether the seat's hand with these concealed tiles is a win of this game (MJS-5.5:
    no tile of his void suit) — whatever bars him from winning now."""
    return not void_tiles(state, seat, concealed) and \
        is_winning_hand(concealed, state.seats[seat].melds, state.settings)


def _must_not_be_barred(state: Hand, seat: int) -> None:
    """MJS-9.1, 9.2, 10.2, 10.5: a seat barred from winning this hand plays on without
    winning."""
    rule = state.barred[seat]
    if rule is not None:
        raise RuleViolation(rule, f"seat {seat} has lost the right to win in this hand and plays "
                                  f"on without winning ({rule})")


def _must_not_have_passed_a_win(state: Hand, seat: int) -> None:
    """MJS-5.6 过水: after declining a win on a discard (or a kong), no win on a discard until
    the seat's next draw."""
    if seat in state.passed_win:
        raise _fail(state.settings, "passedWin",
                    f"seat {seat} passed a win and may not win on a discard before drawing "
                    f"his next tile (过水)")


def may_win_on(state: Hand, seat: int, tile: str) -> bool:
    """Whether ``seat`` may claim a win on another seat's ``tile`` now."""
    return (not state.is_out(seat) and state.barred[seat] is None
            and seat not in state.passed_win
            and wins_with(state, seat, add_tiles(state.seats[seat].concealed, (tile,))))


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


def opening_phase(settings: GameSettings) -> str:
    """MJS-2: 换三张 first where the stage has it, then the void suits; MJO: play at once."""
    if settings.exchangeThree:
        return "exchange"
    return "void" if settings.voidSuit else "discard"


def deal(settings: GameSettings, data: Mapping) -> Hand:
    """``HandDealt`` (MJO-2.3, MJO-2.4): the dealer holds 14 tiles and the others 13; the
    live wall, when recorded, is the rest of the set in draw order. The dealer opens by
    discarding or winning (MJO-3.1) — in MJS after 换三张 and the void suits (MJS-2)."""
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
                wall_count=live_wall_size(settings.tileCount), turn=dealer,
                phase=opening_phase(settings))


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
        where = "from the end of the wall, as a kong replacement" if state.replacement \
            else "from the front of the wall"
        raise _fail(settings, "kong" if state.replacement or settings.kongs else "wall",
                    f"seat {seat} draws {where}")
    wall = state.wall
    if wall is not None:
        expected = wall[-1] if state.replacement else wall[0]
        # the refusal names neither the wall's tile nor where the copies of the tile are:
        # it goes to whoever posted the draw (rules README §5, hidden information)
        if tile != expected:
            raise _fail(settings, "wall", f"seat {seat} drew {tile}: it is not the next wall "
                                          f"tile")
        wall = wall[:-1] if state.replacement else wall[1:]
    elif _in_play(state)[tile] >= COPIES:
        raise _fail(settings, "tiles", f"seat {seat} drew {tile}: it is not a possible draw")
    hand = state.seats[seat]
    return evolve(state, seats=_with_seat(state, seat, evolve(
        hand, concealed=add_tiles(hand.concealed, (tile,)))), wall=wall,
        wall_count=state.wall_count - 1, phase="discard", drawn=tile, replacement=False,
        drawn_from_end=state.replacement,
        turn_kongs=state.turn_kongs if state.replacement else (),
        passed_win=state.passed_win - {seat})


def discard(state: Hand, data: Mapping) -> Hand:
    """``TileDiscarded`` (MJO-3.2): the seat on turn discards a tile he holds, after drawing or
    claiming (the dealer's first discard from 14, MJO-3.1). After the last wall tile there is no
    discard unless ``lastTileDiscard`` (MJO-6.1). With ``voidFirstDiscards`` the tiles of the
    void suit go first (MJS-2.2). The claim window opens (MJO-4.5)."""
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
    void = state.voids[seat]
    if settings.voidFirstDiscards and void is not None and suit(tile) != void:
        left = [t for t in hand.concealed if suit(t) == void]
        if left:
            raise _fail(settings, "void", f"seat {seat} still holds {format_tiles(left)} of his "
                                          f"void suit and discards those first")
    hand = evolve(hand, concealed=remove_tiles(hand.concealed, (tile,)),
                   discards=hand.discards + (Discard(tile),))
    state = evolve(state, seats=_with_seat(state, seat, hand), drawn=None)
    return _open_window(state, seat, tile)


def _open_window(state: Hand, discarder: int, tile: str) -> Hand:
    """MJO-4.5, MJS section 11: after every discard a claim window opens, answered by each
    other seat still in (MJS-4.2), each able to claim what its tiles allow. It opens even when
    no seat can claim anything: a window closing at once would tell the whole table that
    nobody holds a pair of the tile or waits on it (rules README §5, hidden information)."""
    settings = state.settings
    last = state.wall_count == 0
    may = tuple(
        frozenset() if state.is_out(s) else
        claim_options(h.concealed, s, discarder, tile, settings, last_discard=last,
                      can_win=s != discarder and may_win_on(state, s, tile),
                      void=state.voids[s])
        for s, h in enumerate(state.seats))
    return evolve(state, phase="claims", turn=next_in(state, discarder), turn_kongs=(),
                   window=ClaimWindow(discarder, tile, may, kongs=state.turn_kongs,
                                      open_to=_answering(state, discarder), last=last))


def _answering(state: Hand, discarder: int) -> frozenset[int]:
    """The seats that answer a claim window: every other seat still in the hand."""
    return frozenset(s for s in state.still_in if s != discarder)


# ---------------------------------------------------------------------------------------------
# claims


def _must_be_claimable(state: Hand, seat: int) -> ClaimWindow:
    """MJO-4.5: a claim answers the open window once, by a seat other than the discarder
    still in the hand (MJS-4.2)."""
    _must_be_in_play(state)
    _must_be_still_in(state, seat, "claim")
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
    kong) on the open discard, with the tiles from the claimer's hand; only a win on a kong
    being robbed (MJS-7.3)."""
    settings = state.settings
    seat = _seat_arg(settings, data)
    kind = data.get("kind")
    if kind == "pass":
        return pass_claim(state, data)
    w = _must_be_claimable(state, seat)
    if kind not in CLAIM_KINDS:
        raise _fail(settings, "claimWindow", f"a claim is win, pong, chow or kong, not {kind!r}")
    if w.robbing and kind != "win":
        raise _fail(settings, "robKong", f"seat {seat} may not {kind} the {w.tile} seat "
                                         f"{w.discarder} adds to his pong: only a win robs a kong")
    if state.wall_count == 0 and kind != "win":
        raise _fail(settings, "exhaustive", f"seat {seat} may not {kind} the discard after the "
                                            f"last tile: only a win may be claimed on it")
    tiles = _tiles_arg(settings, data.get("tiles"))
    made = _CLAIM_CHECKS[kind](state, w, seat, tiles)
    claims = tuple(made if s == seat else c for s, c in enumerate(w.claims))
    return evolve(state, window=evolve(w, claims=claims))


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


def _must_not_meld_void(state: Hand, seat: int, tile: str, kind: str) -> None:
    """MJS-2.2: a player does not pong or kong a tile of his void suit."""
    if state.voids[seat] is not None and suit(tile) == state.voids[seat]:
        raise _fail(state.settings, "void", f"seat {seat} may not {kind} {tile}: "
                                            f"{state.voids[seat]} is his void suit")


def _pong_claim(state: Hand, w: ClaimWindow, seat: int, tiles: tuple[str, ...]) -> Claim:
    """MJO-4.2: a pong takes a discard of any player with a pair of it from the hand."""
    settings = state.settings
    if tiles and tiles != (w.tile, w.tile):
        raise _fail(settings, "pong", f"a pong of {w.tile} takes two {w.tile} from the hand, "
                                      f"not {format_tiles(tiles)}")
    if state.seats[seat].concealed.count(w.tile) < 2:
        raise _fail(settings, "pong", f"seat {seat} does not hold a pair of {w.tile} to pong it")
    _must_not_meld_void(state, seat, w.tile, "pong")
    return Claim(seat, "pong", (w.tile, w.tile))


def _kong_claim(state: Hand, w: ClaimWindow, seat: int, tiles: tuple[str, ...]) -> Claim:
    """MJO-4.3: no kongs at all; MJS-3.4: a direct kong takes a discard with three of it."""
    settings = state.settings
    if settings.kongDirect is None:
        raise _fail(settings, "kong", f"seat {seat} may not kong {w.tile}: kongs are not "
                                      f"allowed in this game (he may pong it)")
    if tiles and tiles != (w.tile,) * 3:
        raise _fail(settings, "kong", f"a kong of {w.tile} takes three {w.tile} from the hand")
    if state.seats[seat].concealed.count(w.tile) < 3:
        raise _fail(settings, "kong", f"seat {seat} does not hold three {w.tile} to kong it")
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
        raise _fail(settings, "claimWindow", f"the claim window on seat {w.discarder}'s "
                                             f"{w.tile} is still open: seat(s) {seats} have "
                                             f"not answered")
    return _settle(state, w)


def _passed_wins(state: Hand, w: ClaimWindow, taken: Sequence[Claim]) -> Hand:
    """MJS-5.6 过水: every seat that could have won on this tile and does not win on it."""
    if not state.settings.passedWinBar:
        return state
    winners = {c.seat for c in taken if c.kind == "win"}
    passed = {s for s in range(SEATS) if "win" in w.may[s] and s not in winners}
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
    if state.settings.falseWinPayment is None:
        return state, w
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


# ---------------------------------------------------------------------------------------------
# wins, kongs, the end of the wall


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
        raise _fail(settings, "claimWin", f"seat {seat} may win on seat {w.discarder}'s "
                                          f"{w.tile} only by claiming it")
    _must_be_on_turn(state, seat, "discard", "declare a win")
    if not began_with_draw(state):
        raise _fail(settings, "selfDraw", f"seat {seat} did not draw this turn: a self-drawn win "
                                          f"needs the tile just drawn (or the dealer's first 14)")
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
        raise _fail(settings, "kong", f"seat {seat} may not declare a kong of {tile}: kongs are "
                                      f"not allowed in this game; a fourth identical tile is "
                                      f"used in another set or discarded")
    allowed = {"concealed": settings.kongConcealed is not None,
               "added": settings.kongAdded is not None}
    if not allowed.get(kind):
        raise _fail(settings, "kong", f"seat {seat} may not declare a {kind!r} kong: the kinds "
                                      f"allowed are "
                                      f"{', '.join(k for k, on in allowed.items() if on)}")
    _must_be_on_turn(state, seat, "discard", "declare a kong")
    if state.wall_count == 0:
        raise _fail(settings, "kong", f"seat {seat} may not kong: no tile is left for the "
                                      f"replacement")
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
        raise _fail(settings, "kong", f"seat {seat} does not hold four {tile} for a concealed kong")
    dealers_first = state.drawn is None and began_with_draw(state)
    if not (settings.concealedKongLater or state.drawn == tile or dealers_first):
        raise _fail(settings, "kong", f"seat {seat} may make a concealed kong of {tile} only on "
                                      f"drawing the fourth {tile}")
    return evolve(hand, concealed=remove_tiles(hand.concealed, (tile,) * 4),
                   melds=hand.melds + (Meld("kong", (tile,) * 4, concealed=True),))


def _must_add_to_a_pong(state: Hand, hand: SeatHand, seat: int, tile: str) -> None:
    settings = state.settings
    pong = any(m.kind == "pong" and m.tiles[0] == tile for m in hand.melds)
    if not pong or tile not in hand.concealed:
        raise _fail(settings, "kong", f"seat {seat} has no pong of {tile} and a fourth {tile} "
                                      f"to add to it")
    if not settings.addedKongLater and state.drawn != tile:
        raise _fail(settings, "kong", f"seat {seat} may add only the tile just drawn to a pong")


def _may_rob(state: Hand, maker: int, tile: str) -> tuple[frozenset[str], ...]:
    """MJS-7.3: who may rob the added kong of ``tile`` — a win on it, as on a discard (MJS-5.6:
    not under 过水). The robbing window opens whether or not anyone may (MJS section 11: "the
    claim window is 3 s after a discard or an added kong"), so that the table does not learn
    from it who waits on the tile."""
    return tuple(frozenset({"win"}) if s != maker and may_win_on(state, s, tile) else frozenset()
                 for s in range(SEATS))


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


def exhaustive_draw(state: Hand, data: Mapping | None = None) -> Hand:
    """``DrawGame`` (MJO-6.1, 6.2; MJS-8.1): the wall is exhausted and the hand ends without
    another win — the last drawer did not win (and, unless ``lastTileDiscard``, does not
    discard), or nobody won on the last discard."""
    settings = state.settings
    _must_be_in_play(state)
    if state.wall_count:
        raise _fail(settings, "exhaustive", f"the hand is not drawn: {state.wall_count} wall "
                                            f"tile(s) are left")
    if not (state.phase == "draw" or (state.phase == "discard" and not settings.lastTileDiscard)):
        raise _fail(settings, "exhaustive", f"the hand is not drawn yet: seat {state.turn} still "
                                            f"discards the last tile"
                    if state.phase == "discard" else "the claim window on the last discard is open")
    return evolve(state, phase="over", result="draw", window=None)


# ---------------------------------------------------------------------------------------------
# penalties that change play (MJS-9, MJS-10)


def bar(state: Hand, seat: int, rule: str) -> Hand:
    """The seat loses the right to win in this hand and plays on (MJS-9.1, 9.2, 10.2, 10.5);
    the first bar stands."""
    if state.barred[seat] is not None:
        return state
    return evolve(state, barred=tuple(rule if s == seat else b
                                       for s, b in enumerate(state.barred)))


def charge(state: Hand, seat: int, rule: str, amount: int, payees: Sequence[int],
           reason: str) -> Hand:
    """A penalty of the hand: ``seat`` pays ``amount`` to each payee, or loses it to no one."""
    record = PenaltyRecord(seat, rule, amount, tuple(payees), reason, seq=state.records)
    return _recorded(state, penalties=state.penalties + (record,))


def false_win(state: Hand, seat: int) -> Hand:
    """MJS-9.2 炸胡: a win declared on a hand that is not one — the seat pays
    ``falseWinPayment`` to each other player still in, his tiles stand as they were, play
    resumes and he may not win in this hand."""
    settings = state.settings
    rule = settings.rule("falseWin")
    payees = [s for s in state.still_in if s != seat]
    state = charge(state, seat, rule, settings.falseWinPayment, payees,
                   f"seat {seat} declared a false win (炸胡)")
    return bar(state, seat, rule)


def tiles_in_play(state: Hand) -> Counter:
    """Every tile of the hand: concealed, melds, pools and (when recorded) the wall. With a
    recorded wall this is always exactly the set (MJO-1.1)."""
    return _in_play(state) + Counter(state.wall or ())


def hand_of(state: Hand, seat: int) -> str:
    """The seat's tiles in notation: concealed tiles then melds."""
    h = state.seats[seat]
    return " ".join([format_tiles(h.concealed), *map(str, h.melds)]).strip()
