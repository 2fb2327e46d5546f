"""Before play in the Sichuan game: 换三张 (exchange three) and 定缺 (the void suits).

Rules: MJS-2.1 — where the stage has it (setting ``exchangeThree``), every player chooses three
tiles of one suit, face down; once all four have chosen, the dealer rolls and the red die gives
the direction: 1–2 each passes his tiles to ``next(s)``, 3–4 to ``opp(s)``, 5–6 to ``prev(s)``
(「紅色骰子1和2換下家牌、3和4換對家牌、5和6換上家牌」); play starts after the exchange (the derived
``ExchangeCompleted``). The first die of the recorded throw is the red one.
MJS-2.2 — then every player declares the suit he will be void of, once; the declarations are
revealed together and play starts (the dealer discards or wins) once all four are in.
"""
from __future__ import annotations

from collections.abc import Mapping

from ..frozen import evolve
from .hand import Exchange, Hand, _fail, _seat_arg, _tiles_arg
from .tiles import SUITS, add_tiles, format_tiles, holds, remove_tiles, suit
from .wall import SEATS, roll_total


def _must_be_exchanging(state: Hand) -> None:
    if not state.settings.exchangeThree:
        raise _fail(state.settings, "exchange", "this stage is played without 换三张")
    if state.phase != "exchange":
        raise _fail(state.settings, "exchange", "换三张 is over: it comes before the void suits "
                                                "and play")


def select_exchange(state: Hand, data: Mapping) -> Hand:
    """``ExchangeTilesSelected`` (MJS-2.1): three tiles of one suit from the seat's hand, once;
    they stay hidden from the others until the exchange."""
    settings = state.settings
    seat = _seat_arg(settings, data)
    _must_be_exchanging(state)
    tiles = _tiles_arg(settings, data.get("tiles"))
    ex = (state.exchange or Exchange())
    if ex.selections[seat] is not None:
        raise _fail(settings, "exchange", "seat {seat} has already chosen his three "
                                          "tiles",
                                          seat=seat)
    if len(tiles) != 3 or len({suit(t) for t in tiles}) != 1:
        raise _fail(settings, "exchange", "seat {seat} passes three tiles of one suit, "
                                          "not {tiles}",
                                          seat=seat, tiles=format_tiles(tiles))
    if not holds(state.seats[seat].concealed, tiles):
        raise _fail(settings, "exchange", "seat {seat} does not hold {tiles}",
                                          seat=seat, tiles=format_tiles(tiles))
    selections = tuple(tuple(tiles) if s == seat else x for s, x in enumerate(ex.selections))
    return evolve(state, exchange=evolve(ex, selections=selections))


def roll_exchange(state: Hand, data: Mapping) -> Hand:
    """``DiceRolled`` ``exchange`` (MJS-2.1): once all four have chosen, the dealer rolls and
    the tiles change hands in the red die's direction (``ExchangeCompleted``); then the void
    suits are declared."""
    settings = state.settings
    seat = _seat_arg(settings, data)
    _must_be_exchanging(state)
    ex = (state.exchange or Exchange())
    if seat != state.dealer:
        raise _fail(settings, "exchange", "the dealer, seat {dealer}, rolls for 换三张, "
                                          "not seat {seat}",
                                          dealer=state.dealer, seat=seat)
    if not ex.chosen:
        waiting = ", ".join(str(s) for s, x in enumerate(ex.selections) if x is None)
        raise _fail(settings, "exchange", "the dealer rolls once every player has "
                                          "chosen his three tiles; seat(s) {waiting} "
                                          "have not",
                                          waiting=waiting)
    dice = tuple(data.get("dice") or ())
    roll_total(dice, settings, "exchange")
    ex = evolve(ex, red=dice[0], dice=dice)
    seats = state.seats
    for giver in range(SEATS):
        hand = seats[giver]
        seats = tuple(evolve(hand, concealed=remove_tiles(hand.concealed,
                                                           ex.selections[giver]))
                      if s == giver else h for s, h in enumerate(seats))
    for giver in range(SEATS):
        taker = ex.receiver(giver)
        hand = seats[taker]
        seats = tuple(evolve(hand, concealed=add_tiles(hand.concealed, ex.selections[giver]))
                      if s == taker else h for s, h in enumerate(seats))
    return evolve(state, seats=seats, exchange=ex,
                   phase="void" if settings.voidSuit else "discard")


def declare_void(state: Hand, data: Mapping) -> Hand:
    """``VoidSuitDeclared`` (MJS-2.2): before the first discard, after 换三张, each player
    names once the suit his winning hand will lack; it stands for the hand. Play starts when
    all four have declared."""
    settings = state.settings
    seat = _seat_arg(settings, data)
    if not settings.voidSuit:
        raise _fail(settings, "lifecycle", "there are no void suits in this game")
    declared = state.voids[seat]
    if declared is not None:
        raise _fail(settings, "void", "seat {seat} has declared {declared} as his void "
                                      "suit; it stands for the hand",
                                      seat=seat, declared=declared)
    if state.phase == "exchange":
        raise _fail(settings, "exchange", "the void suits are declared after 换三张")
    if state.phase != "void":
        raise _fail(settings, "void", "the void suits are declared before the first discard")
    chosen = data.get("suit")
    if chosen not in SUITS:
        raise _fail(settings, "void", "a void suit is m, p or s, not {chosen!r}",
                                      chosen=chosen)
    voids = tuple(chosen if s == seat else v for s, v in enumerate(state.voids))
    phase = "discard" if all(v is not None for v in voids) else "void"
    return evolve(state, voids=voids, phase=phase)


def exchange_choices(state: Hand, seat: int) -> tuple[tuple[str, ...], ...]:
    """For bots and property tests: one choice of three tiles per suit the seat holds three of
    (the first three in sort order), while he has not chosen."""
    if state.phase != "exchange" or (state.exchange or Exchange()).selections[seat] is not None:
        return ()
    held = state.seats[seat].concealed
    return tuple(tuple(t for t in held if suit(t) == s)[:3] for s in SUITS
                 if sum(suit(t) == s for t in held) >= 3)
