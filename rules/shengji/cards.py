"""Cards of the Shengji family: notation, decks, points, levels and the trump order.

Rules: shared/rules/README.md section 2 (notation) and shengji-2deck.md sections 1–3
(SJ2-1.1 decks, SJ2-1.5 point cards, SJ2-2 levels, SJ2-3 trump class and positions).
A card is a plain string (``"QH"``, ``"TD"``, ``"BJ"``); a hand, kitty or play is a tuple or
list of such strings, read as a multiset.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from .. import multisets
from ..messages import Message

RANKS = "23456789TJQKA"
SUITS = "SHDC"
JOKERS = ("BJ", "SJ")
LEVELS = tuple(RANKS)
TRUMP = "trump"  # the class name of the trump cards; plain classes are the suit letters

# SJ2-1.5: 5 = 5 points, T = 10, K = 10; every other rank (and a joker) scores nothing.
POINTS: Mapping[str, int] = MappingProxyType({r: {"5": 5, "T": 10, "K": 10}.get(r, 0) for r in RANKS})
_SCORING = {r: n for r, n in POINTS.items() if n}  # by a card's first letter: no joker scores

_CLASS_NAMES = MappingProxyType({TRUMP: Message("trumps"), "S": Message("spades"),
                                 "H": Message("hearts"), "D": Message("diamonds"),
                                 "C": Message("clubs")})


class CardError(ValueError):
    """Malformed card notation (README section 2); ``card`` is the offending text, ``text`` the
    sentence that says so (rules/messages.py): the error's one argument, so that whoever shows
    it says it in its reader's language (service/cli/common.py: said); ``str()`` its English."""

    def __init__(self, card: object, message: Message | None = None):
        # the sentence of GD-1.1's refusal (rules/guandan/cards.py): one translation for both
        self.text = message or Message("{text!r} is not a card: write rank then suit (ranks "
                                       "{RANKS}, suits {SUITS}) or BJ / SJ", text=card,
                                       RANKS=" ".join(RANKS), SUITS=" ".join(SUITS))
        super().__init__(self.text)
        self.card = card


def parse_card(text: str) -> str:
    """Accept exactly the notation of README section 2 ("QH", "TD", "BJ"); anything else
    ("10H", "qh", "H Q", "Q♥") raises :class:`CardError`."""
    if isinstance(text, str) and (text in JOKERS or (len(text) == 2 and text[0] in RANKS
                                                     and text[1] in SUITS)):
        return text
    raise CardError(text)


def parse_cards(items: Iterable[str] | str) -> tuple[str, ...]:
    """Parse a list of cards; a single string is read as a space-separated list ("QH QH JH")."""
    if isinstance(items, str):
        items = items.split()
    return tuple(parse_card(item) for item in items)


def deck(decks: int) -> Counter:
    """SJ2-1.1 / SJ3-1.1: ``decks`` standard decks with both jokers (54 cards each)."""
    if not isinstance(decks, int) or decks < 1:
        raise ValueError(f"the number of decks must be a positive integer, not {decks!r}")
    one = [r + s for s in SUITS for r in RANKS] + list(JOKERS)
    return Counter({card: decks for card in one})


def points(cards: Iterable[str]) -> int:
    """SJ2-1.5: point value of cards (each 5 scores 5, each T and K 10)."""
    return sum([_SCORING.get(card[0], 0) for card in cards])


def level_value(rank: str) -> int:
    """README section 2: numeric value of a level, 2..9 as is, T 10, J 11, Q 12, K 13, A 14."""
    if not isinstance(rank, str) or len(rank) != 1 or rank not in RANKS:
        raise CardError(rank, Message("{level!r} is not a level: use one of {RANKS}",
                                      level=rank, RANKS=" ".join(RANKS)))
    return RANKS.index(rank) + 2


def class_name(cls: str) -> Message | str:
    """The name of a class for messages: "trumps", "spades", "hearts", ... (a Message, said in
    its reader's language)."""
    return _CLASS_NAMES.get(cls, cls)


def missing_cards(hand: Iterable[str], cards: Iterable[str]) -> tuple[str, ...]:
    """The cards of ``cards`` (a multiset) that ``hand`` does not hold, in the order given."""
    return multisets.missing(hand, cards)


def remove_cards(hand: Iterable[str], cards: Iterable[str]) -> tuple[str, ...]:
    """``hand`` minus ``cards`` as multisets, keeping the hand's order. The cards must be held
    (a ValueError names the ones that are not)."""
    if type(hand) is tuple and type(cards) is tuple:
        if len(cards) == 1 and cards[0] in hand:
            index = hand.index(cards[0])  # a single played (most plays): its first copy goes
            return hand[:index] + hand[index + 1:]
        kept = list(hand)  # a few cards from a hand of dozens: each card's first copy goes
        try:
            for card in cards:
                kept.remove(card)
        except ValueError:
            pass  # not held: multisets.without names the cards
        else:
            return tuple(kept)
    return multisets.without(hand, cards)


def _position_table(level: str, suit: str | None) -> dict[str, tuple[str, int]]:
    """SJ2-3.4: card -> (class, pos) for every card of a deck."""
    table: dict[str, tuple[str, int]] = {}
    plain_ranks = [r for r in RANKS if r != level]  # 2 .. A without the level rank: pos 1 .. 12
    for s in SUITS:
        cls = TRUMP if s == suit else s
        for pos, rank in enumerate(plain_ranks, start=1):
            table[rank + s] = (cls, pos)
        if suit is None:
            table[level + s] = (TRUMP, 1)
        else:
            table[level + s] = (TRUMP, 14 if s == suit else 13)
    table["BJ"] = (TRUMP, 3 if suit is None else 16)
    table["SJ"] = (TRUMP, 2 if suit is None else 15)
    return table


@dataclass(frozen=True)
class Trump:
    """The trump of a hand (SJ2-3): the level rank and the trump suit, ``suit=None`` for a
    no-trump hand (SJ2-3.2). ``chain`` (SJ3-6.3 ``trumpChainAdjacency``; SJ2 always chains)
    says whether jokers and level cards continue the runs of the trump class."""

    level: str
    suit: str | None
    chain: bool = True
    _table: Mapping[str, tuple[str, int]] = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        if not isinstance(self.level, str) or len(self.level) != 1 or self.level not in RANKS:
            raise ValueError(f"level must be one of {' '.join(RANKS)}, not {self.level!r}")
        if self.suit is not None and (not isinstance(self.suit, str) or len(self.suit) != 1
                                      or self.suit not in SUITS):
            raise ValueError(f"trump suit must be one of {' '.join(SUITS)} or None, not {self.suit!r}")
        object.__setattr__(self, "_table", MappingProxyType(_position_table(self.level, self.suit)))
        object.__setattr__(self, "_hash", hash((self.level, self.suit, self.chain)))

    def __hash__(self) -> int:
        # the key of the memoised decompositions and run searches, hashed once (the generated
        # __hash__ would build the tuple of the fields at every look-up)
        return self._hash

    def _entry(self, card: str) -> tuple[str, int]:
        try:
            return self._table[card]
        except (KeyError, TypeError):
            raise CardError(card) from None

    def is_trump(self, card: str) -> bool:
        """SJ2-3.1 / 3.2: jokers, level cards and (in a suit hand) the trump suit are trump."""
        return self._entry(card)[0] == TRUMP

    def card_class(self, card: str) -> str:
        """SJ2-3.4: ``"trump"`` or the letter of the card's plain suit."""
        return self._entry(card)[0]

    def of_class(self, cards: Iterable[str], cls: str) -> tuple[str, ...]:
        """The cards of ``cards`` in class ``cls``, in their order: ``card_class`` of each, read
        from the table at once (a follow sorts a whole hand so, at every play)."""
        cards = tuple(cards)
        table = self._table
        try:
            return tuple([card for card in cards if table[card][0] == cls])
        except (KeyError, TypeError):
            for card in cards:
                self._entry(card)  # the CardError card_class raises for the first unknown card
            raise

    def classes(self, cards: Iterable[str]) -> set[str]:
        """The classes ``cards`` belong to (``card_class`` of each)."""
        cards = tuple(cards)
        table = self._table
        try:
            return {table[card][0] for card in cards}
        except (KeyError, TypeError):
            for card in cards:
                self._entry(card)
            raise

    def pos(self, card: str) -> int:
        """SJ2-3.4: the card's position in its class (strength and adjacency)."""
        return self._entry(card)[1]

    def run_pos(self, card: str) -> int:
        """SJ2-7.2 / SJ3-6.3: the card's place on the line where consecutive places are adjacent
        (tractors). It is :meth:`pos`, except that without ``chain`` the jokers and level cards
        (positions 13–16) stand apart from each other and from the suit cards: the order is kept,
        only the adjacency goes."""
        pos = self._entry(card)[1]
        return pos if self.chain or pos <= 12 else 2 * pos

    def sort_key(self, card: str) -> tuple[int, int, int]:
        """Display order: trumps first, then the plain suits S H D C; inside a class from the
        highest position down, equal positions by suit."""
        cls, pos = self._entry(card)
        suit_rank = -1 if card in JOKERS else SUITS.index(card[1])
        return (0 if cls == TRUMP else 1 + SUITS.index(cls), -pos, suit_rank)

    def format_cards(self, cards: Iterable[str]) -> str:
        """Cards as a space-separated list in display order (:meth:`sort_key`)."""
        return " ".join(sorted(cards, key=self.sort_key))
