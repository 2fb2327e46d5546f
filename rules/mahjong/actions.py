"""Legal actions for bots and property tests: what a seat may do now, and the derived event
the engine owes, each a bounded list computed from the state alone (at most one draw; one
discard per distinct concealed tile; a handful of claims).

Every action listed is accepted by :func:`apply_action`; every action the transitions accept
in strict enforcement (up to the choice of equivalent tiles) is listed.
"""
from __future__ import annotations

from dataclasses import dataclass

from .claiming import claim, pass_claim, resolve_claims
from .claims import chow_options, window_decided
from .hand import Hand, began_with_draw
from .may_win import wins_with
from .opening import declare_void, exchange_choices, select_exchange
from .tiles import SUITS, suit
from .turns import discard, draw
from .wins_and_kongs import declare_kong, declare_win, exhaustive_draw

ACTION_KINDS = ("draw", "discard", "win", "kong", "claim", "pass", "exhaustive_draw",
                "exchange", "void")


@dataclass(frozen=True)
class Action:
    """One move of ``seat``: ``draw`` (``tile`` is the next wall tile, None when the wall was
    not recorded), ``discard`` / ``win`` (self-draw) / ``kong`` (``claim`` holds ``concealed``
    or ``added``) with ``tile``; ``claim`` (``claim`` = win/pong/chow/kong, ``tiles`` from the
    hand) or ``pass`` on the open discard; ``exhaustive_draw`` — the last drawer does not win;
    ``exchange`` (MJS-2.1, ``tiles``: three of one suit) and ``void`` (MJS-2.2, ``tile`` holds
    the suit letter) before play."""

    kind: str
    seat: int
    tile: str | None = None
    claim: str | None = None
    tiles: tuple[str, ...] = ()


def legal_actions(state: Hand, seat: int) -> tuple[Action, ...]:
    """The moves open to ``seat`` in ``state`` (strict enforcement). Before play: for 换三张
    one choice per suit of which the seat holds three (any three of one suit are accepted),
    and each suit as the void."""
    if state.phase == "exchange":
        return tuple(Action("exchange", seat, tiles=t) for t in exchange_choices(state, seat))
    if state.phase == "void":
        return () if state.voids[seat] else tuple(Action("void", seat, s) for s in SUITS)
    if state.phase == "claims":
        return _claim_actions(state, seat)
    if seat != state.turn or state.is_out(seat):
        return ()
    if state.phase == "draw" and state.wall_count:
        return (Action("draw", seat, _next_tile(state)),)
    if state.phase == "discard":
        return _turn_actions(state, seat)
    return ()


def _next_tile(state: Hand) -> str | None:
    if state.wall is None:
        return None
    return state.wall[-1] if state.replacement else state.wall[0]


def _claim_actions(state: Hand, seat: int) -> tuple[Action, ...]:
    """Each claim the seat's tiles allow, and the pass every seat answering the window has
    (MJO-4.5: the window waits for every other seat still in)."""
    w = state.window
    if seat not in w.open_to or w.answered(seat):
        return ()
    held = state.seats[seat].concealed
    out = []
    for kind in sorted(w.may[seat]):
        if kind == "chow":
            out.extend(Action("claim", seat, claim="chow", tiles=t)
                       for t in chow_options(held, w.tile))
        else:
            size = {"win": 0, "pong": 2, "kong": 3}[kind]
            out.append(Action("claim", seat, claim=kind, tiles=(w.tile,) * size))
    return (*out, Action("pass", seat))


def _turn_actions(state: Hand, seat: int) -> tuple[Action, ...]:
    settings = state.settings
    hand = state.seats[seat]
    out = []
    if began_with_draw(state) and state.barred[seat] is None \
            and wins_with(state, seat, hand.concealed):
        out.append(Action("win", seat, state.drawn))
    if state.wall_count == 0 and not settings.lastTileDiscard:
        return (*out, Action("exhaustive_draw", seat))
    out.extend(Action("discard", seat, tile) for tile in _discardable(state, seat))
    if state.wall_count:
        out.extend(_kong_actions(state, seat))
    return tuple(out)


def _discardable(state: Hand, seat: int) -> tuple[str, ...]:
    """MJO-3.2: any tile held — with ``voidFirstDiscards``, those of the void suit first."""
    held = tuple(dict.fromkeys(state.seats[seat].concealed))
    void = state.voids[seat]
    if state.settings.voidFirstDiscards and any(suit(t) == void for t in held):
        return tuple(t for t in held if suit(t) == void)
    return held


def _kong_actions(state: Hand, seat: int) -> list[Action]:
    settings = state.settings
    hand = state.seats[seat]
    void = state.voids[seat]
    out = []
    if settings.kongConcealed is not None:
        fours = [t for t in dict.fromkeys(hand.concealed) if hand.concealed.count(t) == 4]
        dealers_first = state.drawn is None and began_with_draw(state)
        if not (settings.concealedKongLater or dealers_first):
            fours = [t for t in fours if t == state.drawn]   # seed 5c read literally
        out.extend(Action("kong", seat, t, claim="concealed") for t in fours if suit(t) != void)
    if settings.kongAdded is not None:
        ponged = {m.tiles[0] for m in hand.melds if m.kind == "pong"}
        candidates = set(hand.concealed) if settings.addedKongLater else {state.drawn}
        out.extend(Action("kong", seat, t, claim="added") for t in sorted(ponged & candidates))
    return out


def due_engine_event(state: Hand) -> str | None:
    """The derived event the engine owes now, if any: ``ClaimsResolved`` once the open window
    is decided (MJO-4.5); ``DrawGame`` once the wall is exhausted and nobody can still win
    (MJO-6.1, MJS-8.1) — the last drawer, who may not discard, holding no winning hand or
    barred from winning (MJS-9, 10), or no win on the last discard."""
    if state.phase == "claims" and window_decided(state.window, state.settings):
        return "ClaimsResolved"
    if state.wall_count or state.phase not in ("draw", "discard"):
        return None
    if state.phase == "draw":
        return "DrawGame"
    if not state.settings.lastTileDiscard and not _may_win_now(state, state.turn):
        return "DrawGame"
    return None


def _may_win_now(state: Hand, seat: int) -> bool:
    """Whether the seat on turn may declare a self-drawn win now: a winning hand of his
    (MJS-5.5) and no bar on his winning (MJS-9.1, 9.2, 10.2, 10.5)."""
    return state.barred[seat] is None and wins_with(state, seat, state.seats[seat].concealed)


def apply_action(state: Hand, action: Action) -> Hand:
    """Apply one :class:`Action` through the transition of its event."""
    data = {"seat": action.seat, "tile": action.tile}
    if action.kind == "draw":
        return draw(state, {**data, "fromEnd": state.replacement})
    if action.kind == "discard":
        return discard(state, data)
    if action.kind == "win":
        return declare_win(state, data)
    if action.kind == "kong":
        return declare_kong(state, {**data, "kind": action.claim})
    if action.kind == "claim":
        return claim(state, {"seat": action.seat, "kind": action.claim, "tiles": action.tiles})
    if action.kind == "pass":
        return pass_claim(state, data)
    if action.kind == "exhaustive_draw":
        return exhaustive_draw(state, data)
    if action.kind == "exchange":
        return select_exchange(state, {"seat": action.seat, "tiles": action.tiles})
    if action.kind == "void":
        return declare_void(state, {"seat": action.seat, "suit": action.tile})
    raise ValueError(f"unknown action kind {action.kind!r}; one of {', '.join(ACTION_KINDS)}")


def apply_engine_event(state: Hand, event: str) -> Hand:
    """Apply a derived event named by :func:`due_engine_event`."""
    if event == "ClaimsResolved":
        return resolve_claims(state, {})
    if event == "DrawGame":
        return exhaustive_draw(state, {})
    raise ValueError(f"unknown derived event {event!r}")
