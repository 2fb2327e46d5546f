"""Combinations of 掼蛋: classification, wildcard readings, comparison and the bomb ladder.

Rules: guandan.md GD-2.3/2.4 (wildcards and their declaration), GD-3 (the catalogue),
GD-4 (comparison).

**Readings.** A *reading* of a play is the list of cards its wildcards stand for — exactly the
``CardsPlayed.wildAs`` list of GD-2.4: one card per heart level card used as a substitute; a
wildcard not named there is simply itself, a level card (GD-2.3). Two wildcards are the same
card, so the order of ``wildAs`` does not matter. :func:`readings` lists every combination a set
of cards can make, one :class:`Combination` per distinct (type, key), each carrying in
``wild_as`` the fewest substitutions that make it; ``Combination.reading()`` gives the reading as
a JSON-ready mapping (``{"type": "straightFlush", "rank": "A", "wildAs": ["AS"]}``).
:func:`classify` decides one play: with ``wild_as`` it checks that reading; without it, it
infers the reading when every reading is of one type (taking the highest) and rejects the play
otherwise.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain, combinations_with_replacement

from ..frozen import evolve
from ..messages import N_, Message
from ..violations import RuleViolation
from .cards import (
    BIG_JOKER,
    JOKERS,
    RANKS,
    SMALL_JOKER,
    natural_value,
    parse_card,
    parse_cards,
    parse_level,
    plural_words,
    rank_name,
    rank_of,
    rank_value,
    rank_words,
    show,
    suit_of,
    violation,
    wildcard,
)
from .settings import GDSettings, settings_from

SINGLE, PAIR, TRIPLE, FULL_HOUSE = "single", "pair", "triple", "fullHouse"
STRAIGHT, PAIR_RUN, TRIPLE_RUN = "straight", "pairRun", "tripleRun"
BOMB, STRAIGHT_FLUSH, FOUR_JOKERS = "bomb", "straightFlush", "fourJokers"
TYPES = (SINGLE, PAIR, TRIPLE, FULL_HOUSE, STRAIGHT, PAIR_RUN, TRIPLE_RUN, BOMB, STRAIGHT_FLUSH,
         FOUR_JOKERS)
BOMB_TYPES = frozenset({BOMB, STRAIGHT_FLUSH, FOUR_JOKERS})
RUN_LENGTHS = {STRAIGHT: 5, STRAIGHT_FLUSH: 5, PAIR_RUN: 3, TRIPLE_RUN: 2}  # distinct ranks


@dataclass(frozen=True)
class Combination:
    """One play read as a combination (GD-3.1).

    ``key`` is ``v`` of the rank (GD-2.1) for singles, pairs, triples, full houses (the triple)
    and bombs, ``n(top)`` (GD-2.2) for straights, pair runs, triple runs and straight flushes, 0
    for the four jokers; ``rank`` is the rank of that key (the top of a run: ``"5"`` for
    A-2-3-4-5). ``cards`` are the cards played; ``wild_as`` the reading (module docstring)."""
    type: str
    key: int
    rank: str
    size: int
    cards: tuple[str, ...]
    wild_as: tuple[str, ...] = ()
    level: str = "2"

    @property
    def is_bomb(self) -> bool:
        """GD-4.1: bombs, straight flushes and the four jokers sit on the bomb ladder."""
        return self.type in BOMB_TYPES

    def ladder(self) -> tuple[int, ...]:
        """GD-4.1: position on the bomb ladder (higher tuple = higher bomb); (0,) for a non-bomb."""
        if self.type == FOUR_JOKERS:
            return (5,)
        if self.type == STRAIGHT_FLUSH:
            return (3, self.key)
        if self.type == BOMB:
            if self.size >= 6:
                return (4, self.size, self.key)
            return (2 if self.size == 5 else 1, self.key)
        return (0,)

    def reading(self) -> dict:
        """The reading as a JSON-ready mapping: type, rank of the key, and ``wildAs``."""
        return {"type": self.type, "rank": self.rank, "wildAs": list(self.wild_as)}

    def describe(self) -> str:
        """Plain English, for logs and views: "a pair of 9s", "a straight flush 10-J-Q-K-A"."""
        return describe(self.type, self.rank, self.size, self.level)

    def words(self) -> Message:
        """The description for a message, said in its reader's language; ``str()`` of it is
        :meth:`describe`."""
        return describe_words(self.type, self.rank, self.size, self.level)


# memoised: every play's description is logged with its trick (match.py), and the same few
# combinations recur through a match
@lru_cache(maxsize=1024)
def describe(type_: str, rank: str, size: int, level: str) -> str:
    """Plain-English name of a combination of a type whose key rank is ``rank``."""
    return str(describe_words(type_, rank, size, level))


@lru_cache(maxsize=1024)
def describe_words(type_: str, rank: str, size: int, level: str) -> Message:
    """:func:`describe` as a message (every word translatable): "a pair of 9s"."""
    if type_ == SINGLE:
        if rank == level:
            return Message("a single {rank} (a level card)", rank=rank_words(rank))
        return Message("a single {rank}", rank=rank_words(rank))
    if type_ == FOUR_JOKERS:
        return Message("the four jokers")
    if type_ in RUN_LENGTHS:
        run = "-".join(rank_name(r) for r in run_ranks(rank, RUN_LENGTHS[type_]))
        if type_ == STRAIGHT:
            return Message("a straight {run}", run=run)
        if type_ == STRAIGHT_FLUSH:
            return Message("a straight flush {run}", run=run)
        if type_ == PAIR_RUN:
            return Message("three consecutive pairs {run}", run=run)
        return Message("two consecutive triples {run}", run=run)
    if rank == level:  # "a pair of 9s (level cards)"
        return Message("{combination} (level cards)",
                       combination=_of_ranks_words(type_, size, plural_words(rank)))
    return _of_ranks_words(type_, size, plural_words(rank))


def _of_ranks_words(type_: str, size: int, ranks: Message) -> Message:
    """:func:`describe_words` of a pair, triple, full house or bomb."""
    if type_ == PAIR:
        return Message("a pair of {ranks}", ranks=ranks)
    if type_ == TRIPLE:
        return Message("three {ranks}", ranks=ranks)
    if type_ == FULL_HOUSE:
        return Message("a full house of three {ranks}", ranks=ranks)
    if size == 8:  # the article: "an 8-card bomb", "a 5-card bomb"
        return Message("an 8-card bomb of {ranks}", ranks=ranks)
    return Message("a {size}-card bomb of {ranks}", size=size, ranks=ranks)


def run_ranks(top: str, length: int) -> tuple[str, ...]:
    """GD-2.2: the ranks of a run of ``length`` ranks ending at ``top``, low to high (A low
    when the run ends below it: A-2-3-4-5)."""
    values = range(natural_value(top) - length + 1, natural_value(top) + 1)
    return tuple("A" if v == 1 else RANKS[v - 2] for v in values)


# --- natural classification (every card is what it says) ---------------------------------

def _run_top(ranks: Iterable[str], length: int) -> int | None:
    """GD-2.2: ``n(top)`` if the distinct ``ranks`` are ``length`` consecutive ranks of the
    natural order A 2 … K A (A low or high, never wrapping), else None."""
    values = sorted(natural_value(r) for r in ranks)
    if len(values) != length:
        return None
    if values[-1] - values[0] == length - 1:
        return values[-1]
    if values[-1] == 14:
        low = sorted(1 if v == 14 else v for v in values)
        if low[-1] - low[0] == length - 1:
            return low[-1]
    return None


def _of_a_kind(rank: str, n: int, level: str) -> tuple[str, int, str] | None:
    """GD-3.1: ``n`` cards of one rank — single, pair (jokers too), triple, bomb of 4–10."""
    kinds = {1: SINGLE, 2: PAIR, 3: TRIPLE}
    if n in kinds and (n < 3 or rank not in JOKERS):
        return kinds[n], rank_value(rank, level), rank
    if 4 <= n <= 10 and rank not in JOKERS:
        return BOMB, rank_value(rank, level), rank
    return None


def _five(read: tuple[str, ...], counts: dict[str, int], level: str,
          joker_pair: bool) -> tuple[str, int, str] | None:
    """GD-3.1/3.2/3.3: a full house, straight or straight flush of five cards."""
    if sorted(counts.values()) == [2, 3]:
        triple = next(r for r, c in counts.items() if c == 3)
        pair = next(r for r, c in counts.items() if c == 2)
        if triple in JOKERS or (pair in JOKERS and not joker_pair):
            return None
        return FULL_HOUSE, rank_value(triple, level), triple
    if len(counts) == 5 and not any(j in counts for j in JOKERS):
        top = _run_top(counts, 5)
        if top is not None:
            flush = len({suit_of(c) for c in read}) == 1
            return (STRAIGHT_FLUSH if flush else STRAIGHT), top, RANKS[top - 2]
    return None


def _six(counts: dict[str, int]) -> tuple[str, int, str] | None:
    """GD-3.1: three consecutive pairs or two consecutive triples (no jokers)."""
    if any(j in counts for j in JOKERS):
        return None
    for each, kind in ((2, PAIR_RUN), (3, TRIPLE_RUN)):
        if all(c == each for c in counts.values()):
            top = _run_top(counts, 6 // each)
            if top is not None:
                return kind, top, RANKS[top - 2]
    return None


def _rank_counts(read: tuple[str, ...]) -> dict[str, int]:
    """How many cards of each rank (a joker its own rank), in the order the ranks first come —
    a Counter's result, counted without its overhead (a play is a few cards)."""
    counts: dict[str, int] = {}
    for card in read:
        rank = card if card in JOKERS else card[0]
        counts[rank] = counts.get(rank, 0) + 1
    return counts


# memoised: pure on a tuple of cards, and every play (and every wildcard reading tried) asks it
@lru_cache(maxsize=8192)
def natural_shape(read: tuple[str, ...], level: str,
                  joker_pair: bool = True) -> tuple[str, int, str] | None:
    """GD-3.1: (type, key, key rank) of cards taken at face value, or None (GD-3.4)."""
    counts = _rank_counts(read)
    n = len(read)
    if n == 4 and counts.get(BIG_JOKER) == 2 and counts.get(SMALL_JOKER) == 2:
        return FOUR_JOKERS, 0, ""
    if len(counts) == 1:
        return _of_a_kind(next(iter(counts)), n, level)
    if n == 5:
        return _five(read, counts, level, joker_pair)
    if n == 6:
        return _six(counts)
    return None


# --- readings ------------------------------------------------------------------------------

def physically_one_suit(cards: tuple[str, ...]) -> bool:
    """GD-3.2: five cards, as they lie on the table, all of one suit (wildcards are hearts)."""
    return len(cards) == 5 and all(c not in JOKERS for c in cards) and len({c[1] for c in cards}) == 1


def _substitutes(base: tuple[str, ...], level: str, size: int) -> tuple[str, ...]:
    """GD-2.3: the cards a wildcard may usefully stand for. Only straight flushes care about
    suits, so hearts plus (for five cards) the one suit all other cards share are enough to
    reach every distinct combination; the heart level card itself is "no substitution"."""
    suits = ["H"]
    shared = {c[1] for c in base if c not in JOKERS}
    if size == 5 and len(shared) == 1 and shared != {"H"} and not any(c in JOKERS for c in base):
        suits.append(shared.pop())
    return tuple(r + s for s in suits for r in RANKS if r + s != wildcard(level))


def _substitution_sets(options: tuple[str, ...], wilds: int) -> Iterable[tuple[str, ...]]:
    """Every multiset of at most ``wilds`` substitutes, fewest first."""
    return chain.from_iterable(combinations_with_replacement(options, k) for k in range(wilds + 1))


def _split(cards: tuple[str, ...], level: str) -> tuple[tuple[str, ...], int]:
    """The non-wildcard cards of a play and the number of wildcards in it (GD-2.3)."""
    wild = wildcard(level)
    if wild not in cards:  # the most of plays: nothing to take out
        return cards, 0
    return tuple(c for c in cards if c != wild), cards.count(wild)


def _read(base: tuple[str, ...], subs: tuple[str, ...], wilds: int, level: str) -> tuple[str, ...]:
    """The cards of a play under a reading: substitutes for some wildcards, the rest themselves."""
    return base + tuple(subs) + (wildcard(level),) * (wilds - len(subs))


def _type_order(combo: Combination) -> tuple[int, int]:
    return TYPES.index(combo.type), -combo.key


def readings(cards: Iterable[str] | str, level: str,
             settings: GDSettings | Mapping | None = None) -> list[Combination]:
    """GD-2.3/2.4: every combination the cards can make, one per distinct (type, key), in
    catalogue order and highest first within a type; each carries the reading (``wild_as``)
    with the fewest substitutions. Empty when the cards make no combination (GD-3.4)."""
    cards, level = parse_cards(cards), parse_level(level)
    return list(_readings(cards, level, settings_from(settings).full_house_joker_pair))


@lru_cache(maxsize=4096)
def _readings(cards: tuple[str, ...], level: str, joker_pair: bool) -> tuple[Combination, ...]:
    """:func:`readings` of parsed cards, memoised (pure on immutable arguments; the same plays
    recur through a match)."""
    base, wilds = _split(cards, level)
    mono = physically_one_suit(cards)
    if not wilds:  # no wildcard: the one reading is the cards at face value (GD-2.3)
        shape = natural_shape(cards, level, joker_pair)
        if shape is None or (shape[0] == STRAIGHT and mono):
            return ()
        return (Combination(shape[0], shape[1], shape[2], len(cards), cards, (), level),)
    found: dict[tuple[str, int], Combination] = {}
    for subs in _substitution_sets(_substitutes(base, level, len(cards)), wilds):
        shape = natural_shape(_read(base, subs, wilds, level), level, joker_pair)
        if shape is None or (shape[0] == STRAIGHT and mono):
            continue  # GD-2.4: unread, a run of one suit is a straight flush (readAs: straight)
        if (shape[0], shape[1]) not in found:
            found[shape[0], shape[1]] = Combination(shape[0], shape[1], shape[2], len(cards), cards,
                                                    tuple(subs), level)
    return tuple(sorted(found.values(), key=_type_order))


# --- classification of one play ------------------------------------------------------------

def _hint(cards: tuple[str, ...]) -> Message:
    """Why a set of cards is not a combination (GD-3.4)."""
    counts = Counter(rank_of(c) for c in cards)
    n = len(cards)
    if n == 2 and set(counts) == set(JOKERS):
        return Message("a big joker and a small joker are not a pair")
    if any(j in counts for j in JOKERS):
        return Message("jokers only make a single, a pair of the same joker, the pair of a full "
                       "house or the four jokers")
    if n > 5 and len(counts) == n:
        return Message("a straight has exactly five cards")
    if n > 6 and set(counts.values()) == {2}:
        return Message("a run of pairs has exactly three pairs")
    if n > 6 and set(counts.values()) == {3}:
        return Message("a run of triples has exactly two triples")
    if n == 4 and sorted(counts.values()) == [1, 3]:
        return Message("a triple with a single is not a combination")
    return Message("it is not a single, pair, triple, full house, straight of five, three "
                   "consecutive pairs, two consecutive triples, bomb, straight flush or the four "
                   "jokers")


def _not_a_combination(cards: tuple[str, ...], level: str, joker_pair: bool) -> RuleViolation:
    """GD-2.3 when only a wildcard standing for a joker would make it a combination, else GD-3.4."""
    base, wilds = _split(cards, level)
    options = JOKERS + _substitutes(base, level, len(cards))
    for subs in _substitution_sets(options, wilds):
        if any(j in subs for j in JOKERS) and natural_shape(_read(base, subs, wilds, level), level,
                                                            joker_pair):
            return violation("GD-2.3", "{show} is not a combination: a wildcard "
                                       "({wildcard}) may stand for any card except a "
                                       "joker",
                                       show=show(cards), wildcard=wildcard(level))
    return violation("GD-3.4", "{show} is not a combination: {hint}",
                               show=show(cards), hint=_hint(cards))


def _parse_wild_as(cards: tuple[str, ...], level: str, wild_as: Iterable[str]) -> tuple[str, ...]:
    """GD-2.3/2.4: a stated reading names at most one card per wildcard, never a joker."""
    subs = tuple(parse_card(c) for c in ([wild_as] if isinstance(wild_as, str) else wild_as))
    wilds = cards.count(wildcard(level))
    for card in subs:
        if card in JOKERS:
            raise violation("GD-2.3", "wildAs names {card}, but a wildcard "
                                      "({wildcard}) may stand for any card except a "
                                      "joker",
                                      card=card, wildcard=wildcard(level))
    if len(subs) > wilds:
        raise violation("GD-2.4", "wildAs names {count} card(s) ({show}) but {show2} "
                                  "holds {wilds} wildcard(s) ({wildcard}) at level "
                                  "{rank_name}",
                                  count=len(subs), show=show(subs), show2=show(cards),
                                  wilds=wilds, wildcard=wildcard(level),
                                  rank_name=rank_name(level))
    return subs


def _as_type(combo: Combination, read_as: str) -> Combination | None:
    """GD-3.2 by the seed (「顺子：五张连续单牌…不分花色」): five consecutive cards are a straight
    whatever their suits, so a run of one suit may be read as a plain straight; otherwise a
    reading of type ``read_as`` is the combination itself. None if it is not of that type."""
    if combo.type == read_as:
        return combo
    if read_as == STRAIGHT and combo.type == STRAIGHT_FLUSH:
        return evolve(combo, type=STRAIGHT)
    return None


def _not_read_as(cards: tuple[str, ...], level: str, read_as: str,
                 subs: tuple[str, ...] = ()) -> RuleViolation:
    """GD-2.4: the play (under its stated substitutions ``subs``) is not of type ``read_as``."""
    kind = _kind_words(read_as, len(cards))
    if subs:
        return violation("GD-2.4", "{show} with {wildcard} read as {read} cannot be read as "
                                   "{kind}",
                                   show=show(cards), wildcard=wildcard(level), read=show(subs),
                                   kind=kind)
    return violation("GD-2.4", "{show} cannot be read as {kind}", show=show(cards), kind=kind)


def _classify_declared(cards: tuple[str, ...], level: str, wild_as: Iterable[str],
                       joker_pair: bool, read_as: str | None = None) -> Combination:
    """GD-2.4: the play under the stated reading, which must make a combination (of type
    ``read_as`` when the play states it)."""
    subs = _parse_wild_as(cards, level, wild_as)
    base, wilds = _split(cards, level)
    shape = natural_shape(_read(base, subs, wilds, level), level, joker_pair)
    if shape is None:
        hint = _hint(_read(base, subs, wilds, level))
        if subs:
            raise violation("GD-3.4", "{show} with {wildcard} read as {read} is not a "
                                      "combination: {hint}",
                                      show=show(cards), wildcard=wildcard(level), read=show(subs),
                                      hint=hint)
        raise violation("GD-3.4", "{show} is not a combination: {hint}", show=show(cards),
                                  hint=hint)
    kept = tuple(sorted(c for c in subs if c != wildcard(level)))
    combo = Combination(shape[0], shape[1], shape[2], len(cards), cards, kept, level)
    if read_as is None:
        return combo
    typed = _as_type(combo, read_as)
    if typed is None:
        raise _not_read_as(cards, level, read_as, subs)
    return typed


def _classify_read_as(cards: tuple[str, ...], level: str, found: list[Combination],
                      read_as: str) -> Combination:
    """GD-2.4: the highest reading of the stated type."""
    typed = [c for c in (_as_type(combo, read_as) for combo in found) if c is not None]
    if not typed:
        raise _not_read_as(cards, level, read_as)
    return max(typed, key=lambda c: c.key)


def classify(cards: Iterable[str] | str, level: str, wild_as: Iterable[str] | None = None,
             settings: GDSettings | Mapping | None = None,
             read_as: str | None = None) -> Combination:
    """GD-2.4/3.1: the combination a play makes.

    With ``wild_as`` (the play's reading) that reading is checked. Without it, every reading is
    tried: one type → the highest of that type; several types → rejected (GD-2.4, the play must
    state ``wildAs``); none → rejected (GD-2.3 if only a wildcard standing for a joker would make
    it a combination, else GD-3.4). ``read_as`` (the reading's type, e.g. ``"straight"``) keeps
    only the readings of that type — the seed's straight 「不分花色」 lets a run of one suit be
    read as a plain straight (GD-3.2); without it, such a run is a straight flush."""
    cards, level = parse_cards(cards), parse_level(level)
    return classify_parsed(cards, level, wild_as, settings_from(settings).full_house_joker_pair,
                           read_as)


def classify_parsed(cards: tuple[str, ...], level: str, wild_as: Iterable[str] | None,
                    joker_pair: bool, read_as: str | None = None) -> Combination:
    """:func:`classify` of cards and a level already parsed, with the setting
    ``fullHouseJokerPair`` (GD-3.1): what a hand's play calls, having parsed both."""
    if not cards:
        raise violation("GD-3.4", "a play needs at least one card")
    if read_as is not None and read_as not in TYPES:
        raise violation("GD-2.4", "readAs is {read_as!r}; it must be one of {TYPES}",
                                  read_as=read_as, TYPES=', '.join(TYPES))
    if wild_as is not None:
        return _classify_declared(cards, level, wild_as, joker_pair, read_as)
    found = _readings(cards, level, joker_pair)
    if not found:
        raise _not_a_combination(cards, level, joker_pair)
    if read_as is not None:
        return _classify_read_as(cards, level, found, read_as)
    if len(found) > 1 and any(c.type != found[0].type for c in found):  # several types
        options = _either({str(kind): kind for kind in map(_kind, found)}.values())
        raise violation("GD-2.4", "{show} can be read as {options}; state wildAs, the "
                                  "card each wildcard {wildcard} stands for",
                                  show=show(cards), options=options, wildcard=wildcard(level))
    return found[0]


def _kind(combo: Combination) -> Message:
    """A type in words, for the ambiguity message."""
    return _kind_words(combo.type, combo.size)


def _either(kinds: Iterable[Message]) -> Message:
    """"a full house or a straight": the kinds one after another, "or" between them."""
    kinds = iter(kinds)
    said = next(kinds)
    for kind in kinds:
        said = Message("{kinds} or {kind}", kinds=said, kind=kind)
    return said


# a type in words: "a pair" (for a bomb, see _kind_words)
_KIND_WORDS = {SINGLE: N_("a single"), PAIR: N_("a pair"), TRIPLE: N_("a triple"),
               FULL_HOUSE: N_("a full house"), STRAIGHT: N_("a straight"),
               PAIR_RUN: N_("three consecutive pairs"), TRIPLE_RUN: N_("two consecutive triples"),
               STRAIGHT_FLUSH: N_("a straight flush"), FOUR_JOKERS: N_("the four jokers")}


def _kind_words(type_: str, size: int) -> Message:
    if type_ == BOMB:
        if size == 8:  # the article
            return Message("an 8-card bomb")
        return Message("a {size}-card bomb", size=size)
    return Message(_KIND_WORDS[type_])


# --- comparison ----------------------------------------------------------------------------

def beats(play: Combination, top: Combination) -> bool:
    """GD-4.2/4.3: whether ``play`` may be played on ``top``. A non-bomb beats only the same type
    with the same number of cards and a higher key; a bomb beats every non-bomb and every bomb
    below it on the ladder (GD-4.1). Equal is never enough."""
    if play.is_bomb:
        return not top.is_bomb or play.ladder() > top.ladder()
    if top.is_bomb:
        return False
    return play.type == top.type and play.size == top.size and play.key > top.key


def check_beats(play: Combination, top: Combination, seat: int | None = None) -> None:
    """GD-4.2/4.3: reject a play that does not beat the top play on the table."""
    if beats(play, top):
        return
    who = Message("the play") if seat is None else Message("seat {seat}", seat=seat)
    said = {"who": who, "play": play.words(), "top": top.words()}
    if play.is_bomb:
        raise violation("GD-4.3", "{who} plays {play}, which does not beat {top} on the table: a "
                                  "bomb must be higher on the bomb ladder (four jokers > 6+ "
                                  "cards > straight flush > 5 cards > 4 cards); equal is not "
                                  "enough", **said)
    if top.is_bomb:
        raise violation("GD-4.2", "{who} plays {play}, which does not beat {top} on the table: "
                                  "only a higher bomb beats a bomb", **said)
    if play.type != top.type or play.size != top.size:
        raise violation("GD-4.2", "{who} plays {play}, which does not beat {top} on the table: "
                                  "only the same type with as many cards, or a bomb, can beat "
                                  "it", **said)
    raise violation("GD-4.2", "{who} plays {play}, which does not beat {top} on the table: its "
                              "key must be higher; equal is not enough", **said)
