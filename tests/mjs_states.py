"""Sichuan (MJS) hand states for the unit tests of rules/mahjong: a dealt table of the 108 tiles
with chosen tiles (the data serves the API tests too), the void suits declared, a position
arranged in the middle of a hand, and the payments of the ledger; one event, the claim window
settled and a refused event are the shared mahjong helpers of mj_states.

    state = playing({0: "7s", 2: "1m 2m 3m ..."}, voids="mmps")   # the dealer seat 0 to discard
    state = act(state, "TileDiscarded", 0, tile="7s")
    assert payments(settle(act(state, "Claim", 2, kind="win"))) == [(0, 2, 2, "win")]
"""
from __future__ import annotations

from dataclasses import replace

from mj_states import act, filled_deal, settle, violated

from rules.mahjong import MJS
from rules.mahjong.dealing import deal
from rules.mahjong.hand import SeatHand, WinRecord
from rules.mahjong.sichuan import ledger, totals
from rules.mahjong.tiles import parse_meld, parse_tiles, sort_tiles

WON = "1s 1s 1s 2s 2s 2s 3s 3s 3s 4s 4s 4s 5s 5s"    # an earlier winner's hand

__all__ = ["MJS", "act", "arranged", "dealt", "paid", "payments", "playing", "settle",
           "violated"]


# The faces in the order the filler deals them: ranks three apart in each suit, so that a
# seat's filler tiles make few sets, pairs or claims of their own (and hold every suit).
SPREAD = [f"{r}{s}" for start in (1, 2, 3) for s in "mps" for r in (start, start + 3, start + 6)]


def deal_data(hands: dict[int, str], dealer: int = 0, wall: str = "", end: str = "") -> dict:
    """``TilesDealt`` data of the 108 tiles: the given tiles where given, every other tile in
    the ``SPREAD`` order, four rounds through the faces; the live wall starts with ``wall``
    and ends with ``end`` (kong replacements are drawn from the end: the last tile first)."""
    return filled_deal(108, hands, dealer, wall, end, order=SPREAD.index)


def dealt(hands: dict[int, str], dealer: int = 0, wall: str = "", end: str = "",
          settings=MJS):
    """A dealt Sichuan hand (``settings`` MJS unless given), see :func:`deal_data`."""
    return deal(settings, deal_data(hands, dealer, wall, end))


def playing(hands: dict[int, str], voids: str, dealer: int = 0, wall: str = "", end: str = "",
            settings=MJS):
    """Dealt and the void suits declared (``voids``: a suit letter per seat, seat 0 first):
    the dealer is to discard (MJS-2.2)."""
    state = dealt(hands, dealer, wall, end, settings)
    for seat, suit in enumerate(voids):
        state = act(state, "VoidSuitDeclared", seat, suit=suit)
    assert state.phase == "discard"
    return state


def arranged(seats: dict[int, tuple[str, str]], voids: str, turn: int, *, phase: str = "draw",
             wall: str = "", won: tuple[int, ...] = (), dealer: int = 0, settings=MJS, **more):
    """A position in the middle of a hand, for the examples that start there: ``seats`` gives
    seat -> (concealed tiles, melds such as "[pong 3p] [kong 6m]"); ``won`` the seats that have
    won already (self-drawn, paid before: they hold ``WON`` unless given); ``turn`` the seat to
    ``phase``; the wall starts with ``wall``. The other seats hold scattered tiles. (Tiles are
    not conserved: these states test what a rule decides, not the deal.)"""
    state = playing({}, voids, dealer=dealer, settings=settings)
    seats = {**{s: (WON, "") for s in won}, **seats}
    hands = list(state.seats)
    for seat, (concealed, melds) in seats.items():
        hands[seat] = SeatHand(sort_tiles(parse_tiles(concealed)),
                               tuple(parse_meld(f"[{m.strip()}") for m in melds.split("[")
                                     if m.strip()))
    front = list(parse_tiles(wall))
    rest = list(state.wall)
    for tile in front:
        rest.remove(tile)
    wins = tuple(WinRecord(s, None, True, None, payers=(), seq=k) for k, s in enumerate(won))
    more.setdefault("records", len(wins) + len(more.get("kongs", ())))
    return replace(state, seats=tuple(hands), wall=tuple(front + rest), turn=turn, phase=phase,
                   wins=wins, **more)


def payments(state) -> list[tuple]:
    """The ledger as (from, to, amount, reason) rows — ``to`` None for a deduction."""
    return [(p.payer, p.payee, p.amount, p.reason) for p in ledger(state)]


def paid(state, *, reasons: tuple[str, ...] | None = None) -> tuple[int, ...]:
    """Each seat's net points in the ledger (of ``reasons`` only, if given), deductions
    included."""
    chosen = [p for p in ledger(state) if reasons is None or p.reason in reasons]
    transfers, deductions = totals(chosen)
    return tuple(a + b for a, b in zip(transfers, deductions, strict=True))
