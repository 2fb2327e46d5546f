"""Dealing and table procedure (guandan.md GD-1.1, GD-8, GD-9).

Checks on ``HandDealt`` (27 cards each, exactly two decks; in hand 1 the marked card and its
holder), the counting of the first drawer, who shuffles/cuts/draws first in later hands, the time
limits, and a seeded random deal for tests and bots.
"""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping

from ..messages import Message
from .cards import JOKERS, RANKS, parse_cards, show, two_decks, value, violation

HAND_SIZE = 27
# GD-1.1: the two decks as one sorted tuple, to compare a deal with at once (sorted, it is the
# same multiset exactly when it is the same tuple)
_PACK = tuple(sorted(two_decks().elements()))

# GD-9.1/9.2: seconds allowed — tribute after the draw, return after the tribute, first lead
# after the return (after HandDealt when there is no tribute), any later play or pass.
TIME_LIMITS: Mapping[str, int] = {"tribute": 20, "return": 40, "firstLead": 40, "play": 20}


def check_hands(hands: Iterable[Iterable[str]]) -> tuple[tuple[str, ...], ...]:
    """GD-1.1/8.4: four hands of 27 cards that together are exactly the two decks."""
    hands = tuple(tuple(sorted(parse_cards(h))) for h in hands)
    if len(hands) != 4:
        raise violation("GD-1.1", "a deal has four hands, not {count}",
                                  count=len(hands))
    for seat, hand in enumerate(hands):
        if len(hand) != HAND_SIZE:
            raise violation("GD-8.4", "seat {seat} holds {count} cards; every player "
                                      "draws {HAND_SIZE}",
                                      seat=seat, count=len(hand), HAND_SIZE=HAND_SIZE)
    if tuple(sorted(card for hand in hands for card in hand)) == _PACK:
        return hands
    dealt = Counter(card for hand in hands for card in hand)
    pack = two_decks()
    if dealt != pack:
        extra = sorted((dealt - pack).elements())
        short = sorted((pack - dealt).elements())
        raise violation("GD-1.1", "the hands are not exactly two decks: extra {value}, "
                                  "missing {value2}",
                                  value=_cards_or_none(extra), value2=_cards_or_none(short))
    return hands


def _cards_or_none(cards: list[str]) -> str | Message:
    """Cards as written, or "none"."""
    return show(cards) if cards else Message("none")


def check_marked_card(card: str) -> str:
    """GD-8.2: the card turned up at the cut may not be a joker or ``2H`` (cut again)."""
    if card in JOKERS or card == "2H":
        raise violation("GD-8.2", "the turned card {card} is a joker or the 2 of "
                                  "hearts: cut again",
                                  card=card)
    return card


def first_drawer(marked_card: str) -> int:
    """GD-8.2 (Interpretation): counting counter-clockwise from South (seat 1) by the turned
    card's number (A = 1, J/Q/K = 11/12/13) gives the first drawer: ``number mod 4``."""
    check_marked_card(marked_card)
    number = 1 if marked_card[0] == "A" else RANKS.index(marked_card[0]) + 2
    return number % 4


def check_first_leader(hands: tuple[tuple[str, ...], ...], marked_card: str | None,
                       first_leader: int | None) -> int:
    """GD-5.1/8.2: in hand 1 the player who drew the marked card leads; ``HandDealt`` names the
    card and that seat, which must hold it."""
    if marked_card is None or first_leader is None:
        raise violation("GD-8.2", "the first hand's deal must name markedCard and firstLeader")
    check_marked_card(marked_card)
    if first_leader not in (0, 1, 2, 3) or marked_card not in hands[first_leader]:
        raise violation("GD-8.2", "firstLeader {first_leader} does not hold the marked "
                                  "card {marked_card}",
                                  first_leader=first_leader, marked_card=marked_card)
    return first_leader


def random_deal(rng: random.Random) -> tuple[tuple[str, ...], ...]:
    """GD-1.1: a shuffled deal of the two decks, 27 cards to each seat (for tests and bots)."""
    pack = list(two_decks().elements())
    rng.shuffle(pack)
    return tuple(tuple(sorted(pack[i::4])) for i in range(4))


def stacked_deal(fixed: Mapping[int, Iterable[str]], level: str = "2",
                 low_seats: Iterable[int] = ()) -> tuple[tuple[str, ...], ...]:
    """A legal deal (GD-1.1: two decks, 27 cards each) with the given cards at the given seats —
    for tests, demonstrations and referees re-entering a table. The other cards are dealt in a
    fixed order: first to ``low_seats`` the lowest remaining cards by GD-2.1 (so that their
    highest card is the one fixed), then to the other seats."""
    pack = two_decks()
    hands: dict[int, list[str]] = {seat: [] for seat in range(4)}
    for seat, cards in fixed.items():
        hands[seat] = list(parse_cards(cards))
        pack.subtract(hands[seat])
    if any(n < 0 for n in pack.values()) or any(len(h) > HAND_SIZE for h in hands.values()):
        raise ValueError(f"the fixed cards {dict(fixed)} do not fit in a two-deck deal")
    rest = sorted(pack.elements(), key=lambda c: (value(c, level), c))
    seats = list(dict.fromkeys(list(low_seats) + [0, 1, 2, 3]))
    for seat in seats:
        need = HAND_SIZE - len(hands[seat])
        hands[seat] += rest[:need]
        rest = rest[need:]
    return tuple(tuple(sorted(hands[seat])) for seat in range(4))
