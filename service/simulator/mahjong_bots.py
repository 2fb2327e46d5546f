"""What the bots of both mahjong games do alike, from the referee's view of a table: the MJO bots
(``mahjong.py``) and the Sichuan ones (``sichuan.py``) roll for the first dealer, answer a claim
window, recognise the dealer's first turn and keep the tiles that help their hand the same way;
each game's module keeps its own deal and the moves only its rules have.
"""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence

from rules.mahjong.claims import chow_options
from rules.mahjong.table_deal import still_rolling
from rules.mahjong.tiles import KINDS, Meld, shifted, tile_set

Action = tuple[str, dict]
# how much a tile helps a hand: copies held, and neighbours in its suit
_NEAR = {t: tuple((n, 3 - abs(d)) for d in (-2, -1, 1, 2) if (n := shifted(t, d)))
         for t in KINDS}


def table_action(view: dict, rng: random.Random, deal: Callable[[dict, random.Random], Action],
                 play: Callable[[dict, int, random.Random], Action]) -> Action | None:
    """The next event of a table: None once the session is over; the next roll for the first
    dealer (MJO-2.1, MJS-1.3); ``deal(view, rng)`` between hands; else ``play(hand, number,
    rng)`` in the hand under way."""
    if view["status"] == "completed":
        return None
    if view["status"] == "rolling":
        return _roll_for_dealer(view, rng)
    hand = view["current_hand"]
    if hand is None or hand["phase"] == "over":
        return deal(view, rng)
    return play(hand, hand["hand"], rng)


def _roll_for_dealer(view: dict, rng: random.Random) -> Action:
    """The next seat that rolls for the first deal."""
    rounds = [{r["seat"]: tuple(r["dice"]) for r in round_}
              for round_ in view["first_dealer_rolls"]]
    rolling, current = still_rolling(rounds)
    seat = min(rolling - set(current))
    return "DiceRolled", {"purpose": "firstDealer", "seat": seat, "dice": throw(rng)}


def throw(rng: random.Random) -> list[int]:
    """Two dice."""
    return [rng.randint(1, 6), rng.randint(1, 6)]


def shuffled(tile_count: int, rng: random.Random) -> list[str]:
    """The game's tiles in a dealing machine's order."""
    tiles = list(tile_set(tile_count))
    rng.shuffle(tiles)
    return tiles


def answer_claims(hand: dict, number: int, rng: random.Random,
                  chances: Sequence[tuple[str, float]]) -> Action:
    """The next seat to answer the claim window — every other seat still in answers it, the
    window waiting for them all (MJO-4.5, MJS-4.2) — answers: a win always; else each claim of
    ``chances`` (kind, chance; in that order) it may make, with its chance; else it passes."""
    window = hand["claim_window"]
    answered = set(window["passed"]) | {c["seat"] for c in window["claims"]}
    out = hand.get("out") or [False] * len(hand["seats"])    # MJS-4.1: the winners have left
    seat = next(s for s in map(int, sorted(window["may"]))
                if not out[s] and s not in answered)
    kinds, tile = window["may"][str(seat)], window["tile"]
    base = {"hand": number, "seat": seat}
    if "win" in kinds:
        return "Claim", {**base, "kind": "win"}
    for kind, chance in chances:
        if kind in kinds and rng.random() < chance:
            return "Claim", {**base, "kind": kind,
                             "tiles": _claimed_with(kind, tile, hand["seats"][seat], rng)}
    return "ClaimPassed", base


def _claimed_with(kind: str, tile: str, seat: dict, rng: random.Random) -> list[str]:
    """The tiles a claim shows from the hand: two for a pong, three for a kong, a chow's two."""
    if kind == "chow":
        return list(rng.choice(chow_options(seat["concealed"], tile)))
    return [tile] * {"pong": 2, "kong": 3}[kind]


def melds(seat: dict) -> tuple[Meld, ...]:
    return tuple(Meld(m["kind"], tuple(m["tiles"])) for m in seat["melds"])


def first_turn(hand: dict, seat: int) -> bool:
    """The dealer's turn before anyone has discarded or claimed: his 14 dealt tiles may win."""
    return seat == hand["dealer"] and not any(s["discards"] or s["melds"] for s in hand["seats"])


def usefulness(tile: str, held: Counter) -> int:
    return 3 * (held[tile] - 1) + sum(held[n] * w for n, w in _NEAR[tile])


def least_useful(held: Counter, rng: random.Random) -> str:
    """The tile to discard: one of those that help the hand least, drawn at random."""
    scores = {t: usefulness(t, held) for t in held}
    least = min(scores.values())
    return rng.choice(sorted(t for t, n in scores.items() if n == least))
