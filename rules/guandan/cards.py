"""Cards of 掼蛋: notation, the two-deck pack, rank values at a level, wildcards.

Rules: shared/rules/README.md section 2 (notation), guandan.md GD-1.1 (two decks), GD-2.1 (rank
order at a level), GD-2.2 (natural order for runs), GD-2.3 (the two heart level cards are
wildcards). A card is a plain string (``"QH"``, ``"TD"``, ``"BJ"``); a hand or a play is a tuple
of such strings read as a multiset. A level is a rank character ``"2"`` … ``"A"``.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from .. import multisets
from ..messages import Message
from ..violations import RuleViolation

RANKS = "23456789TJQKA"
SUITS = "SHDC"
BIG_JOKER, SMALL_JOKER = "BJ", "SJ"
JOKERS = (BIG_JOKER, SMALL_JOKER)
LEVELS = tuple(RANKS)

_RANK_NAMES = {"T": "10", "J": "J", "Q": "Q", "K": "K", "A": "A",
               BIG_JOKER: "big joker", SMALL_JOKER: "small joker"}


def violation(rule: str, message: str | Message, /, **params) -> RuleViolation:
    """A :class:`RuleViolation` whose message ends by citing the rule."""
    return RuleViolation(rule, "{message_} ({rule_})", message_=Message(message, **params)
                         if isinstance(message, str) else message,
                         rule_=rule)


# GD-1.1: the 54 distinct cards of a deck, for a parse by one set look-up (every event carries
# cards, so parsing is on the path of every fold step)
CARDS = frozenset([r + s for s in SUITS for r in RANKS] + list(JOKERS))


def parse_card(text: object) -> str:
    """README section 2 / GD-1.1: a card of the two decks ("QH", "TD", "BJ"); anything else
    ("10H", "qh", "Q♥") is not a card of the game."""
    if isinstance(text, str) and text in CARDS:
        return text
    raise violation("GD-1.1", "{text!r} is not a card: write rank then suit (ranks "
                              "{RANKS}, suits {SUITS}) or BJ / SJ",
                              text=text, RANKS=' '.join(RANKS), SUITS=' '.join(SUITS))


def parse_cards(items: Iterable[str] | str) -> tuple[str, ...]:
    """GD-1.1: a list of cards; a single string is read as a space-separated list."""
    if isinstance(items, str):
        items = items.split()
    cards = tuple(items)
    for item in cards:
        if not (isinstance(item, str) and item in CARDS):
            parse_card(item)  # raises, naming the first that is not a card
    return cards


def parse_level(level: object) -> str:
    """GD-1.2: a level is one of the ranks 2 … A."""
    if isinstance(level, str) and len(level) == 1 and level in RANKS:
        return level
    raise violation("GD-1.2", "{level!r} is not a level: use one of {RANKS}",
                              level=level, RANKS=' '.join(RANKS))


def two_decks() -> Counter:
    """GD-1.1: the 108-card pack, two of every card."""
    return Counter({card: 2 for card in [r + s for s in SUITS for r in RANKS] + list(JOKERS)})


def rank_of(card: str) -> str:
    """The rank character of a card; a joker's "rank" is the joker itself."""
    return card if card in JOKERS else card[0]


def suit_of(card: str) -> str | None:
    """The suit letter of a card; jokers have no suit."""
    return None if card in JOKERS else card[1]


def wildcard(level: str) -> str:
    """GD-2.3: the wildcard (逢人配) of a hand is the heart of the level rank, e.g. ``"7H"``."""
    return level + "H"


def is_wildcard(card: str, level: str) -> bool:
    """GD-2.3: whether the card is one of the two heart level cards."""
    return card == wildcard(level)


def rank_value(rank: str, level: str) -> int:
    """GD-2.1: value ``v`` of a rank at a level: BJ 17, SJ 16, the level rank 15, A 14 … 2."""
    if rank == BIG_JOKER:
        return 17
    if rank == SMALL_JOKER:
        return 16
    if rank == level:
        return 15
    return RANKS.index(rank) + 2


def value(card: str, level: str) -> int:
    """GD-2.1: value ``v`` of a card at a level (suits never matter)."""
    return rank_value(rank_of(card), level)


def natural_value(rank: str) -> int:
    """GD-2.2: natural value ``n`` of a rank in runs, 2 … K = 2 … 13, A = 14 (1 when low)."""
    return RANKS.index(rank) + 2


def rank_name(rank: str) -> str:
    """Plain-English name of a rank for messages: "10", "Q", "big joker"."""
    return _RANK_NAMES.get(rank, rank)


def rank_words(rank: str) -> str | Message:
    """:func:`rank_name` for a message: a joker's name is words to translate ("big joker"), any
    other rank its own code ("10", "Q")."""
    if rank == BIG_JOKER:
        return Message("big joker")
    if rank == SMALL_JOKER:
        return Message("small joker")
    return rank_name(rank)


def plural_words(rank: str) -> Message:
    """A rank in the plural, for a message: "10s", "Qs", "big jokers" (a joker's words
    translated, any other rank its own code)."""
    if rank == BIG_JOKER:
        return Message("big jokers")
    if rank == SMALL_JOKER:
        return Message("small jokers")
    return Message("{rank}s", rank=rank_name(rank))


def sort_cards(cards: Iterable[str], level: str) -> tuple[str, ...]:
    """Cards from high to low by GD-2.1, then by suit letter (a stable display order)."""
    return tuple(sorted(cards, key=lambda c: (-value(c, level), SUITS.find(suit_of(c) or "S"), c)))


def remove_cards(hand: Iterable[str], cards: Iterable[str]) -> tuple[str, ...]:
    """``hand`` without ``cards`` (a multiset the hand holds), sorted."""
    return tuple(sorted(multisets.without(hand, cards)))


def take_cards(hand: Iterable[str],
               cards: Iterable[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``hand`` without ``cards`` (sorted) and the cards of ``cards`` it does not hold, in the
    order given — :func:`remove_cards` and ``multisets.missing`` in one pass over the hand, as
    every play asks both (GD-5.2)."""
    left, absent = list(hand), []
    for card in cards:
        try:
            left.remove(card)  # one copy: a multiset
        except ValueError:
            absent.append(card)
    left.sort()
    return tuple(left), tuple(absent)


def show(cards: Iterable[str]) -> str:
    """Cards as written in the spec: space-separated."""
    return " ".join(cards)
