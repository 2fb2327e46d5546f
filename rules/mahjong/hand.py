"""One hand of mahjong as a frozen state, and what every transition of it checks alike.

The transitions ``(state, data) -> state`` are in the modules of the hand's phases; each checks
one event of the hand lifecycle (mahjong-ottawa.md section 10, mahjong-sichuan.md section 11)
and returns the next state, or raises :class:`RuleViolation` naming the broken rule of the game
being played (``settings.rule``):

============================  =======================================  ==========================
event                         transition                               data
============================  =======================================  ==========================
``HandDealt``                 :func:`.dealing.deal`                    ``dealer``, ``hands`` (4 lists), ``wall``?
(deal from the table)         :func:`.dealing.deal_from_wall`          ``dealer``, ``walls`` (4), ``dice`` [[a,b],[c,d]]
``TileDrawn``                 :func:`.turns.draw`                      ``seat``, ``tile``, ``fromEnd``?
``TileDiscarded``             :func:`.turns.discard`                   ``seat``, ``tile``
``Claim``                     :func:`.claiming.claim`                  ``seat``, ``kind`` (win/pong/chow/kong), ``tiles``
``Claim`` kind ``pass``       :func:`.claiming.pass_claim`             ``seat``
``ClaimsResolved`` (derived)  :func:`.claiming.resolve_claims`         ``timedOut``?
``Win`` (self-draw)           :func:`.wins_and_kongs.declare_win`      ``seat``
``KongDeclared``              :func:`.wins_and_kongs.declare_kong`     ``seat``, ``kind`` (concealed/added), ``tile``
``DrawGame`` (derived)        :func:`.wins_and_kongs.exhaustive_draw`  —
``RulingRecorded`` on a win   :func:`.wins_and_kongs.rule_on_win`      ``winValid``
============================  =======================================  ==========================

Who may win now (the void suit, a seat barred, 过水) is :mod:`.may_win`. The Sichuan game's steps
before play (换三张 and the void suits, MJS-2) are in :mod:`.opening`; its penalties use
:func:`false_win`, :func:`bar` and :func:`charge` here.

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
from ..messages import Message, sentence
from ..violations import RuleViolation
from .claims import ClaimWindow, turn_order_after
from .settings import GameSettings
from .tiles import Meld, TileError, add_tiles, kinds, meld_tiles, parse_tile
from .wall import SEATS, next_seat
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
    reason: str  # the rules' words (a Sentence), or the referee's
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

    # winners, still_in and is_out are asked many times on every event, mostly before anyone
    # has won: that case answers at once

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(w.seat for w in self.wins) if self.wins else ()

    @property
    def still_in(self) -> tuple[int, ...]:
        """MJS-4.2: the seats that have not won (in MJO a win ends the hand)."""
        if not self.wins:
            return _EVERY_SEAT
        won = set(self.winners)
        return tuple(s for s in range(SEATS) if s not in won)

    def is_out(self, seat: int) -> bool:
        for w in self.wins:
            if w.seat == seat:
                return True
        return False


_EVERY_SEAT = tuple(range(SEATS))


def winning_tiles(state: Hand, win: WinRecord) -> tuple[str, ...]:
    """The concealed tiles of a winner's hand, the claimed discard included."""
    concealed = state.seats[win.seat].concealed
    return concealed if win.self_drawn else add_tiles(concealed, (win.tile,))


def next_in(state: Hand, seat: int) -> int:
    """MJS-3.5: the next seat after ``seat`` still in the hand (MJO: the next seat)."""
    if not state.wins:
        return next_seat(seat)
    return next((s for s in turn_order_after(seat) if not state.is_out(s)), next_seat(seat))


# ---------------------------------------------------------------------------------------------
# helpers


def _fail(settings: GameSettings, key: str, message: str | Message, /, **params) -> RuleViolation:
    """The refusal of the rule that ``settings`` name for ``key``, its message citing it."""
    rule = settings.rule(key)
    return RuleViolation(rule, "{message_} ({rule_})", message_=Message(message, **params)
                         if isinstance(message, str) else message,
                         rule_=rule)


def _seat_arg(settings: GameSettings, data: Mapping, key: str = "seat") -> int:
    seat = data.get(key)
    if type(seat) is not int or not 0 <= seat < SEATS:
        raise _fail(settings, "turn", "{key} must be a seat 0 to 3, not {seat!r}",
                                      key=key, seat=seat)
    return seat


def _tile_arg(settings: GameSettings, tile: object) -> str:
    """MJO-1.1 / MJS-1.1: a tile of this game's set."""
    faces = _FACES.get(settings.tileCount)
    if faces is not None and type(tile) is str and tile in faces:
        return tile  # (every drawn and discarded tile: what the checks below return)
    try:
        parsed = parse_tile(tile)
    except TileError as e:
        raise _fail(settings, "tiles", e.text) from None
    if parsed not in kinds(settings.tileCount):
        raise _fail(settings, "tiles", "{parsed} is not in the {tileCount}-tile set",
                                       parsed=parsed, tileCount=settings.tileCount)
    return parsed


def _tiles_arg(settings: GameSettings, tiles: object) -> tuple[str, ...]:
    if tiles is None:
        return ()
    if isinstance(tiles, str):
        tiles = tiles.split()
    tiles = tuple(tiles)
    # a deal names every tile of the set: when all are faces of it, they stand as given (what
    # _tile_arg returns for each); else _tile_arg names the first that is not
    faces = _FACES.get(settings.tileCount)
    if faces is not None and all(isinstance(t, str) for t in tiles) and faces.issuperset(tiles):
        return tiles
    return tuple(_tile_arg(settings, t) for t in tiles)


_FACES = {count: frozenset(kinds(count)) for count in (136, 108)}


def _with_seat(state: Hand, seat: int, hand: SeatHand) -> tuple[SeatHand, ...]:
    return tuple(hand if s == seat else h for s, h in enumerate(state.seats))


def _must_be_in_play(state: Hand) -> None:
    if state.phase == "over":
        raise _fail(state.settings, "turn", "the hand is over")
    if state.phase == "ruling":
        r = state.ruling
        raise _fail(state.settings, "falseWin",
                    "play waits for the referee's ruling on seat {seat}'s win",
                    seat=r.seat)
    if state.phase == "exchange":
        raise _fail(state.settings, "exchange", "play starts after 换三张: each player passes "
                                                "three tiles of one suit and the dealer rolls")
    if state.phase == "void":
        missing = ", ".join(str(s) for s, v in enumerate(state.voids) if v is None)
        raise _fail(state.settings, "void", "play starts once every player has "
                                            "declared his void suit; seat(s) {missing} "
                                            "have not",
                                            missing=missing)


# What a seat may not do (``action`` of the checks below, a claim's ``kind``), each said whole
# so that it is a sentence of the catalogues: "seat 2 {may_not}: …"
_MAY_NOT = {
    "draw": Message("may not draw"),
    "discard": Message("may not discard"),
    "claim": Message("may not claim"),
    "declare a win": Message("may not declare a win"),
    "declare a kong": Message("may not declare a kong"),
    "chow": Message("may not chow"),
    "pong": Message("may not pong"),
    "kong": Message("may not kong"),
}


def may_not(action: str) -> Message:
    """The words "may not ``action``" (an action of :data:`_MAY_NOT`)."""
    return _MAY_NOT[action]


def _must_be_still_in(state: Hand, seat: int, action: str) -> None:
    """MJS-4.1: a player who has won leaves the hand and never acts in it again."""
    if state.is_out(seat):
        raise _fail(state.settings, "out", "seat {seat} has won and is out of this "
                                           "hand: he {may_not}",
                                           seat=seat, may_not=may_not(action))


def _must_be_on_turn(state: Hand, seat: int, phase: str, action: str) -> None:
    """MJO-3.2: a player draws only after the previous discard, and discards only after
    drawing or claiming; MJO-4.5: nobody draws while a claim window is open."""
    _must_be_in_play(state)
    _must_be_still_in(state, seat, action)
    if state.phase == "claims" and phase != "claims":
        w = state.window
        if w.robbing:
            raise _fail(state.settings, "claimWindow",
                        "seat {seat} {may_not} yet: the claim window on seat {discarder}'s "
                        "{tile} being added to a kong is open",
                        seat=seat, may_not=may_not(action), discarder=w.discarder, tile=w.tile)
        raise _fail(state.settings, "claimWindow",
                    "seat {seat} {may_not} yet: the claim window on seat {discarder}'s {tile} "
                    "is open",
                    seat=seat, may_not=may_not(action), discarder=w.discarder, tile=w.tile)
    if state.phase == phase and seat == state.turn:
        return
    if state.phase == "discard" and state.drawn is None and not state.replacement:
        if began_with_draw(state):
            raise _fail(state.settings, "firstTurn",
                        "seat {seat} {may_not}: the dealer, seat {dealer}, "
                        "opens the hand by discarding from his 14 tiles (or winning)",
                        seat=seat, may_not=may_not(action), dealer=state.dealer)
        raise _fail(state.settings, "turnAfterClaim",
                    "seat {seat} {may_not}: seat {turn} claimed the last "
                    "discard and discards next; the seats in between lose their turn",
                    seat=seat, may_not=may_not(action), turn=state.turn)
    # (the hand is in play and no window is open: the phase is "draw" or "discard")
    if state.phase == "draw":
        raise _fail(state.settings, "turn",
                    "seat {seat} {may_not}: it is seat {turn}'s turn to draw",
                    seat=seat, may_not=may_not(action), turn=state.turn)
    raise _fail(state.settings, "turn",
                "seat {seat} {may_not}: it is seat {turn}'s turn to discard",
                seat=seat, may_not=may_not(action), turn=state.turn)


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


def _in_play(state: Hand) -> Counter:
    return Counter(t for h in state.seats for t in (*h.tiles, *h.pool))


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
           reason: Message | str) -> Hand:
    """A penalty of the hand: ``seat`` pays ``amount`` to each payee, or loses it to no one."""
    record = PenaltyRecord(seat, rule, amount, tuple(payees), sentence(reason), seq=state.records)
    return _recorded(state, penalties=state.penalties + (record,))


def false_win(state: Hand, seat: int) -> Hand:
    """MJS-9.2 炸胡: a win declared on a hand that is not one — the seat pays
    ``falseWinPayment`` to each other player still in, his tiles stand as they were, play
    resumes and he may not win in this hand."""
    settings = state.settings
    rule = settings.rule("falseWin")
    payees = [s for s in state.still_in if s != seat]
    state = charge(state, seat, rule, settings.falseWinPayment, payees,
                   Message("seat {seat} declared a false win (炸胡)", seat=seat))
    return bar(state, seat, rule)


def tiles_in_play(state: Hand) -> Counter:
    """Every tile of the hand: concealed, melds, pools and (when recorded) the wall. With a
    recorded wall this is always exactly the set (MJO-1.1)."""
    return _in_play(state) + Counter(state.wall or ())
