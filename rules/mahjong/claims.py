"""Claims on a discard: who may claim what, and which claim a closed window gives the tile to.

Rules: MJO-4.1 (chow only from the previous player), MJO-4.2 (pong from anyone; pong beats
chow), MJO-4.3 (no kongs — setting), MJO-4.4 (win beats both; ``multipleWinners``),
MJO-4.5 (the claim window); MJS-3.1 (no chow), MJS-3.3 (direct kong; several winners), MJS-2.2
(no pong or kong of one's void suit), MJS-7.3 (a window on an added kong: only a win robs it).

A window is decided by the priority of the claims, never by the order they arrived in — nor
by what the tiles of the seats yet to answer allow them to claim, which the table does not see.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .settings import GameSettings
from .tiles import KINDS, Meld, shifted, sort_tiles, suit
from .wall import SEATS, next_seat

CLAIM_KINDS = ("win", "kong", "pong", "chow")
PRIORITY = {"win": 3, "kong": 2, "pong": 2, "chow": 1}   # MJO-4.2, MJO-4.4, MJS-3.3


@dataclass(frozen=True)
class Claim:
    """A claim on the open discard. ``tiles`` are the tiles from the claimer's hand that go
    with the discard (two for a pong or chow, three for a kong, none for a win).
    ``irregular`` marks a win claim on a hand that is not a win, recorded in ``record``
    enforcement for the referee to rule on (MJO-5.6)."""

    seat: int
    kind: str
    tiles: tuple[str, ...] = ()
    irregular: bool = False


@dataclass(frozen=True)
class ClaimWindow:
    """The open claim window after a discard (MJO-4.5): the seats that answer it
    (``open_to``: every other seat still in the hand, MJS-4.2), per seat the kinds its tiles
    allow it to claim (``may``: hidden information — the window never closes or stays open
    because of it, so that nobody learns from the table's phase whether someone could claim),
    the claims made and the seats that passed. ``last``: the discard after the last wall
    tile, on which only a win may be claimed (MJO-6.1, MJS-8.1). ``robbing``: the window is on
    the fourth tile of an added kong, which only a win may take (MJS-7.3; ``discarder`` is the
    kong's maker). ``kongs``: the kongs the discarder made in the turn that ended with this
    discard — a win on it is 杠上炮 and cancels their payments (MJS-7.2); indexes into the
    hand's kongs."""

    discarder: int
    tile: str
    may: tuple[frozenset[str], ...]
    claims: tuple[Claim | None, ...] = (None,) * SEATS
    passed: frozenset[int] = frozenset()
    robbing: bool = False
    kongs: tuple[int, ...] = ()
    open_to: frozenset[int] = frozenset()
    last: bool = False

    def answered(self, seat: int) -> bool:
        return self.claims[seat] is not None or seat in self.passed

    @property
    def pending(self) -> tuple[int, ...]:
        """Seats, in turn order after the discarder, that answer the window and have not
        answered yet."""
        return tuple(s for s in turn_order_after(self.discarder)
                     if s in self.open_to and not self.answered(s))

    def could_claim(self, seat: int, settings: GameSettings) -> frozenset[str]:
        """The kinds of claim ``seat`` could make as far as the table can see — what the
        game allows a seat in its position, whatever its tiles: only a win on the last
        discard or a kong being robbed; else a win, a pong, a direct kong where the game has
        them, a chow for the next seat where it has chows."""
        if seat not in self.open_to:
            return frozenset()
        if self.last or self.robbing:
            return frozenset({"win"})
        return frozenset({"win", "pong"}
                         | ({"kong"} if settings.kongDirect is not None else set())
                         | ({"chow"} if settings.chow and seat == next_seat(self.discarder)
                            else set()))

    @property
    def made(self) -> tuple[Claim, ...]:
        """The claims made, in turn order after the discarder."""
        return tuple(c for s in turn_order_after(self.discarder)
                     if (c := self.claims[s]) is not None)


def turn_order_after(seat: int) -> tuple[int, ...]:
    """MJO-1.3: the other seats in playing order after ``seat``."""
    if 0 <= seat < SEATS:
        return _TURN_ORDERS[seat]  # every window asks at every event: worked out once
    return tuple((seat + k) % SEATS for k in range(1, SEATS))


_TURN_ORDERS = tuple(tuple((seat + k) % SEATS for k in range(1, SEATS)) for seat in range(SEATS))


def _chows_with(tile: str) -> tuple[tuple[str, str], ...]:
    """MJO-4.1: the pairs of tiles that make a chow with ``tile``: the tile low, middle or
    high in the sequence, those inside ranks 1..9."""
    options = []
    for low in (-2, -1, 0):
        others = tuple(shifted(tile, low + k) for k in range(3) if low + k != 0)
        if None not in others:
            options.append(others)
    return tuple(options)


# every discard asks the next seat's chows: the pairs of each tile worked out once
_CHOWS_WITH = {tile: _chows_with(tile) for tile in KINDS}


def chow_options(concealed: Sequence[str], tile: str) -> tuple[tuple[str, str], ...]:
    """MJO-4.1: the pairs of tiles from the hand that make a chow with ``tile`` (at most
    three: the tile low, middle or high in the sequence)."""
    pairs = _CHOWS_WITH.get(tile)
    if pairs is None:  # not a tile: no chow, as shifted finds none
        pairs = _chows_with(tile)
    return tuple(p for p in pairs if p[0] in concealed and p[1] in concealed)


def is_chow_with(tile: str, tiles: Sequence[str]) -> bool:
    """MJO-4.1: ``tiles`` (two, from the hand) and the discard form three consecutive tiles
    of one suit."""
    return len(tiles) == 2 and tuple(sort_tiles(tiles)) in chow_options(tiles, tile)


def claim_options(concealed: Sequence[str], seat: int, discarder: int, tile: str,
                  settings: GameSettings, *, can_win: bool, last_discard: bool,
                  void: str | None = None) -> frozenset[str]:
    """MJO-4.1 to 4.4, MJO-6.1: what ``seat`` may claim on ``discarder``'s ``tile``.
    ``can_win`` says whether the hand plus the tile is a win; on the discard after the last
    wall tile (``last_discard``) only a win may be claimed; a tile of the seat's ``void`` suit
    is never ponged or konged (MJS-2.2)."""
    if seat == discarder:
        return frozenset()
    kinds = {"win"} if can_win else set()
    if last_discard or (void is not None and suit(tile) == void):
        return frozenset(kinds)
    held = concealed.count(tile)
    if held >= 2:
        kinds.add("pong")
    if held >= 3 and settings.kongDirect is not None:
        kinds.add("kong")
    if settings.chow and seat == next_seat(discarder) and chow_options(concealed, tile):
        kinds.add("chow")
    return frozenset(kinds)


def outranks(kind: str, seat: int, best: Claim, discarder: int, settings: GameSettings) -> bool:
    """MJO-4.4: whether a claim of ``kind`` by ``seat`` would change a window whose best claim
    so far is ``best``: a higher kind; or another win, which counts when every winner wins
    (``all``) or when the seat is earlier in turn order after the discarder."""
    if PRIORITY[kind] != PRIORITY[best.kind]:
        return PRIORITY[kind] > PRIORITY[best.kind]
    if kind != "win":
        return False
    if settings.multipleWinners == "all":
        return True
    order = turn_order_after(discarder)
    return order.index(seat) < order.index(best.seat)


def window_decided(window: ClaimWindow, settings: GameSettings) -> bool:
    """MJO-4.5 (section 10 row 7: "window closed (timer) or every other seat answered"): the
    window can be resolved before its time is up when every seat that answers it has
    answered — or when a claim made can no longer be beaten by any claim the seats yet to
    answer could make, whatever their tiles (:meth:`ClaimWindow.could_claim`). What their
    tiles allow (``may``) never decides it: the table would learn from the window staying
    open or closing whether someone can claim."""
    if not any(window.claims):
        # asked after every event of a window, mostly before any claim: with none made it is
        # decided exactly when every seat that answers has passed
        return window.open_to <= window.passed
    pending = window.pending
    if not pending:
        return True
    made = window.made
    if not made:
        return False
    best = max(made, key=lambda c: PRIORITY[c.kind])
    return not any(outranks(kind, seat, best, window.discarder, settings)
                   for seat in pending for kind in window.could_claim(seat, settings))


def successful_claims(window: ClaimWindow, settings: GameSettings) -> tuple[Claim, ...]:
    """MJO-4.2 / MJO-4.4: the claims that take the discard — every win claim in turn order
    (``all``) or the first one after the discarder (``firstInTurn``); else the pong or kong;
    else the chow; else none."""
    if not any(window.claims):
        return ()  # every seat passed: the common close of a window
    made = window.made
    wins = tuple(c for c in made if c.kind == "win")
    if wins:
        return wins if settings.multipleWinners == "all" else wins[:1]
    for kinds in (("kong", "pong"), ("chow",)):
        taken = tuple(c for c in made if c.kind in kinds)
        if taken:
            return taken[:1]
    return ()


def meld_from_claim(claim: Claim, tile: str, discarder: int) -> Meld:
    """MJO-4.1 / 4.2, MJS-3.4: the exposed meld a pong, chow or direct kong makes."""
    tiles = sort_tiles((*claim.tiles, tile))
    return Meld(claim.kind, tiles, claimed=tile, from_seat=discarder)
