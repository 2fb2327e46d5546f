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
Move = Action | list[Action]  # one event, or a batch posted at once (a claim window's answers)
# how much a tile helps a hand: copies held, and neighbours in its suit
_NEAR = {t: tuple((n, 3 - abs(d)) for d in (-2, -1, 1, 2) if (n := shifted(t, d)))
         for t in KINDS}


def table_action(view: dict, rng: random.Random, deal: Callable[[dict, random.Random], Action],
                 play: Callable[[dict, int, random.Random], Move]) -> Move | None:
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
                  chances: Sequence[tuple[str, float]],
                  draw: Callable[[dict, int, int], Action] | None = None,
                  batch: bool = True,
                  turn: Callable[[dict, int, random.Random], Action] | None = None
                  ) -> list[Action]:
    """The answers to the claim window, posted by the table in one batch: every other seat
    still in answers it, the window waiting for them all (MJO-4.5, MJS-4.2). Each seat in turn
    answers — a win always; else each claim of ``chances`` (kind, chance; in that order) it may
    make, with its chance; else it passes — up to the first claim, which ends the batch (the
    seats after it answer the window as that claim leaves it). When every seat passes a
    discard and the wall is not spent, the next player's draw (``draw(hand, number, seat)``)
    and what he then does (``turn(the hand after the draw, number, rng)``: he sees the tile he
    drew) close the batch: what the table records next. A batch of passes is as silent as the
    passes one by one: each is the seat's own answer, and says nothing of its tiles.
    ``batch=False``: the first answer alone, as a table posting each seat's answer on its own
    would (bench/reads.py compares)."""
    window = hand["claim_window"]
    answered = set(window["passed"]) | {c["seat"] for c in window["claims"]}
    out = hand.get("out") or [False] * len(hand["seats"])    # MJS-4.1: the winners have left
    answers = []
    for seat in (s for s in map(int, sorted(window["may"])) if not out[s] and s not in answered):
        answer = _answer(hand, number, seat, rng, chances)
        answers.append(answer)
        if answer[0] == "Claim" or not batch:
            return answers
    if draw is not None and hand["wall_count"] > 0 and not window["claims"] and \
            not window["robbing"]:  # an added kong not robbed: its maker draws (MJS-7.3)
        drawn = draw(hand, number, next_in(window["discarder"], out))
        answers.append(drawn)
        if turn is not None and hand["wall_count"] > 1:  # after the last tile: read the view
            answers.append(turn(after_draw(hand, drawn[1]["seat"], drawn[1]["tile"]), number,
                                rng))
    return answers


def after_draw(hand: dict, seat: int, tile: str) -> dict:
    """The referee's view of the hand once ``seat`` has drawn ``tile`` from the front of the
    wall (the window closed by everyone's pass): what his turn is decided on."""
    seats = list(hand["seats"])
    seats[seat] = {**seats[seat], "concealed": seats[seat]["concealed"] + [tile],
                   "drawn": tile, "tile_count": seats[seat]["tile_count"] + 1}
    return {**hand, "seats": seats, "phase": "discard", "turn": seat, "claim_window": None,
            "wall_count": hand["wall_count"] - 1, "wall": hand["wall"][1:],
            "replacement": False}


def next_in(seat: int, out: Sequence[bool]) -> int:
    """The next seat after ``seat`` still in the hand, in the order of play."""
    return next(s for k in range(1, len(out) + 1) if not out[s := (seat + k) % len(out)])


def _answer(hand: dict, number: int, seat: int, rng: random.Random,
            chances: Sequence[tuple[str, float]]) -> Action:
    window = hand["claim_window"]
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
