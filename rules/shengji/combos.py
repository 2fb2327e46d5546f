"""Combinations, leads and throws of Shengji.

Rules: shared/rules/shengji-2deck.md SJ2-7 (pairs, tractors, canonical decomposition, shape) and
SJ2-8 (leading and throwing); for three decks shengji-3deck.md SJ3-6 (triples, triple-tractors,
俘虏). The rest of the play reads these: ``following.py`` (SJ2-9), ``winning.py`` (who wins the
trick, SJ2-10, SJ3-9), ``stated_leads.py`` (SJ3-6.4 – 6.5, SJ3-7: throws with a stated
structure), ``obligations.py`` (the follow obligations of SJ3-8) and ``random_moves.py`` (the
bots' legal moves); the run searches both games share are in ``units.py``.

A component is a run of ``length`` consecutive positions holding ``width`` identical cards each:
a single has width 1 (length 0 by convention), a pair width 2 and length 1, a k-tractor width 2
and length k, a triple width 3 and length 1, a triple-tractor width 3 and length k (SJ3-6).
``width`` is derived from the cards and ``priority`` orders triple-tractors > pair-tractors >
triples > pairs > singles (SJ3-9.2; SJ2 has no width 3). ``top`` is the highest run place
(``Trump.run_pos``), which orders cards as their positions do.

Everything here is pure; the run searches are memoised on immutable arguments only.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from ..messages import Message
from ..violations import RuleViolation
from . import units, words
from .cards import Trump, class_name, remove_cards

SINGLE, PAIR, TRACTOR = "single", "pair", "tractor"
TRIPLE, TRIPLE_TRACTOR = "triple", "tripleTractor"  # SJ3-6.1 / 6.2
# the kinds by name, for messages (a Message each, said in its reader's language)
KIND_NAMES = {SINGLE: Message("single"), PAIR: Message("pair"), TRIPLE: Message("triple"),
              TRACTOR: Message("tractor"), TRIPLE_TRACTOR: Message("triple-tractor")}


@dataclass(frozen=True)
class Component:
    """One single, pair, tractor, triple or triple-tractor of one class (SJ2-7.1/7.2,
    SJ3-6.1/6.2). ``top`` is its highest run place, ``length`` the number of places it spans
    (0 for a single)."""

    kind: str
    cards: tuple[str, ...]
    cls: str
    top: int
    length: int

    @property
    def size(self) -> int:
        return len(self.cards)

    @property
    def width(self) -> int:
        """Identical cards per position: 1 single, 2 pair or pair-tractor (3 for SJ3 triples)."""
        return 1 if self.length == 0 else self.size // self.length

    @property
    def pairs(self) -> int:
        """Pairs the component counts for (SJ2-9.3, SJ2-11.2): a k-tractor counts k."""
        return self.length if self.width >= 2 else 0

    @property
    def priority(self) -> tuple[bool, int, int]:
        """SJ2-10.2 (and SJ3-9.2) type order: tractors (longer first) > pair > single; with
        three decks triple-tractors > pair-tractors > triples > pairs > singles."""
        return (self.length >= 2, self.width, self.length)

    @property
    def unit(self) -> units.Unit | None:
        """(width, length) of a pair, triple or run; None for a single."""
        return None if self.length == 0 else (self.width, self.length)


@dataclass(frozen=True)
class Shape:
    """SJ2-7.4: the multiset of a play's component types (SJ3-9.1: with triples and
    triple-tractors)."""

    tractors: tuple[int, ...] = ()  # tractor lengths, longest first
    pairs: int = 0
    singles: int = 0
    triples: int = 0
    triple_tractors: tuple[int, ...] = ()  # longest first

    @property
    def units(self) -> tuple[units.Unit, ...]:
        """The non-single components as units, in key order (SJ3-9.2, SJ2-10.2): triple-tractors,
        pair-tractors (longest first), triples, pairs."""
        return (tuple((3, k) for k in self.triple_tractors) + tuple((2, k) for k in self.tractors)
                + ((3, 1),) * self.triples + ((2, 1),) * self.pairs)

    @property
    def size(self) -> int:
        return sum(w * k for w, k in self.units) + self.singles


@dataclass(frozen=True)
class ThrowResult:
    """SJ2-8.4/8.5: outcome of a lead. ``forced`` is the effective lead (the whole lead when the
    throw stands); ``penalty_cards`` the cards of all beatable components."""

    failed: bool
    beaten: tuple[Component, ...]
    penalty_cards: int
    forced: tuple[str, ...]

    @property
    def penalty_points(self) -> int:
        """SJ2-8.5 / 12.2: 10 points per card of every beatable component."""
        return 10 * self.penalty_cards


# --- positions of pairs and runs of consecutive pairs (SJ2-7.2) -----------------------------

def _class_of(cards: Sequence[str], trump: Trump) -> str:
    """The one class of ``cards``; ValueError if they are empty or mix classes."""
    classes = trump.classes(cards)
    if len(classes) != 1:
        raise ValueError(f"cards must all be of one class, got {trump.format_cards(cards) or 'none'}")
    return classes.pop()


def _by_class(cards: Sequence[str], trump: Trump) -> dict[str, list[str]]:
    groups: dict[str, list[str]] = {}
    for card in cards:
        groups.setdefault(trump.card_class(card), []).append(card)
    return groups


def _pair_cards(cards: Sequence[str], trump: Trump) -> dict[int, list[str]]:
    """pos -> one entry per pair held there (SJ2-7.1); several only at the 副级牌 position."""
    by_pos: dict[int, list[str]] = {}
    for card, count in sorted(Counter(cards).items(), key=lambda item: trump.sort_key(item[0])):
        by_pos.setdefault(trump.run_pos(card), []).extend([card] * (count // 2))
    return {pos: cards for pos, cards in by_pos.items() if cards}


def _pair_positions(cards: Sequence[str], trump: Trump) -> Counter:
    return Counter({pos: len(pairs) for pos, pairs in _pair_cards(cards, trump).items()})


def _pair_total(cards: Sequence[str]) -> int:
    """Disjoint pairs among ``cards`` (identical cards only, SJ2-7.1): in sorted order each run
    of identical cards pairs off two by two (the pair rule of every follow counts a hand's
    pairs so; a scan is cheaper than a Counter of the hand)."""
    ordered = sorted(cards)
    pairs, i, last = 0, 0, len(ordered) - 1
    while i < last:
        if ordered[i] == ordered[i + 1]:
            pairs, i = pairs + 1, i + 2
        else:
            i += 1
    return pairs


def _segments(avail: Counter) -> list[tuple[int, int]]:
    """Maximal runs (low, high) of consecutive positions that still hold a pair."""
    segments: list[tuple[int, int]] = []
    for pos in sorted(p for p, n in avail.items() if n > 0):
        if segments and segments[-1][1] == pos - 1:
            segments[-1] = (segments[-1][0], pos)
        else:
            segments.append((pos, pos))
    return segments


def _longest_run(avail: Counter) -> int:
    return max((high - low + 1 for low, high in _segments(avail)), default=0)


def _window_tops(avail: Counter, length: int) -> list[int]:
    """Tops of every run of ``length`` consecutive pairs, highest first."""
    tops = [top for low, high in _segments(avail) for top in range(low + length - 1, high + 1)]
    return sorted(tops, reverse=True)


def _shift(avail: Counter, top: int, length: int, delta: int) -> None:
    for pos in range(top - length + 1, top + 1):
        avail[pos] += delta


def _state(avail: Counter) -> tuple[tuple[int, int], ...]:
    return tuple(sorted((pos, n) for pos, n in avail.items() if n > 0))


def _place_runs(avail: Counter, lengths: Sequence[int]) -> tuple[int, ...] | None:
    """Tops of disjoint runs of the given lengths (longest first), or None if they do not fit."""
    return _place_runs_in(_state(avail), tuple(lengths))


@lru_cache(maxsize=4096)
def _place_runs_in(state: tuple[tuple[int, int], ...], lengths: tuple[int, ...]) -> tuple[int, ...] | None:
    if not lengths:
        return ()
    avail = Counter(dict(state))
    if sum(lengths) > sum(avail.values()):
        return None
    for top in _window_tops(avail, lengths[0]):
        _shift(avail, top, lengths[0], -1)
        rest = _place_runs_in(_state(avail), lengths[1:])
        _shift(avail, top, lengths[0], +1)
        if rest is not None:
            return (top, *rest)
    return None


def _best_runs(avail: Counter, caps: Sequence[int]) -> tuple[tuple[int, int], ...]:
    """(length, top) of disjoint tractors, one per cap (caps longest first), each as long as
    possible up to its cap, taken in order: the lexicographically greatest lengths (SJ2-9.4).
    Stops at the first cap for which no tractor is left."""
    return _best_runs_in(_state(avail), tuple(caps))


@lru_cache(maxsize=4096)
def _best_runs_in(state: tuple[tuple[int, int], ...], caps: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    avail = Counter(dict(state))
    length = min(caps[0], _longest_run(avail)) if caps else 0
    if length < 2:
        return ()
    best: tuple[tuple[int, int], ...] = ()
    for top in _window_tops(avail, length):
        _shift(avail, top, length, -1)
        candidate = ((length, top), *_best_runs_in(_state(avail), caps[1:]))
        _shift(avail, top, length, +1)
        if [n for n, _ in candidate] > [n for n, _ in best]:
            best = candidate
        if [n for n, _ in best] == list(caps):
            break
    return best


def _take_run(pairs: dict[int, list[str]], top: int, length: int) -> tuple[str, ...]:
    """Remove one pair per position top, top-1, ... from ``pairs`` and return their cards."""
    cards: list[str] = []
    for pos in range(top, top - length, -1):
        card = pairs[pos].pop(0)
        cards += [card, card]
    return tuple(cards)


# --- decomposition, tractors, shape (SJ2-7) -------------------------------------------------

def decompose(cards: Sequence[str], trump: Trump) -> tuple[Component, ...]:
    """SJ2-7.3 canonical decomposition of cards of one class: every pair formed, pairs grouped into
    tractors with the lexicographically greatest list of lengths, the rest singles. Ordered
    tractors (longest first), pairs, singles, each from the highest top. ValueError if the cards
    mix classes."""
    return _decompose(tuple(cards), trump)


# a lead is decomposed by its judgement, each follow's check and the trick's winner: memoised
# (immutable arguments, an immutable result)
@lru_cache(maxsize=8192)
def _decompose(cards: tuple[str, ...], trump: Trump) -> tuple[Component, ...]:
    if not cards:
        return ()
    cls = _class_of(cards, trump)
    if len(set(cards)) == len(cards):  # no two alike, no pair: singles (most leads are one card)
        return tuple(Component(SINGLE, (card,), cls, trump.run_pos(card), 0)
                     for card in sorted(cards, key=trump.sort_key))
    if len(cards) == 2:  # two alike: a pair (most leads of more than one card)
        return (Component(PAIR, cards, cls, trump.run_pos(cards[0]), 1),)
    pairs = _pair_cards(cards, trump)
    avail = Counter({pos: len(held) for pos, held in pairs.items()})
    runs = []
    while +avail:
        # Longest run first is optimal: a position holds two pairs or more only at 13 (副级牌),
        # whose neighbours hold at most one, so no other choice can give a longer first run.
        low, high = max(_segments(avail), key=lambda seg: (seg[1] - seg[0], seg[1]))
        runs.append((high - low + 1, high))
        _shift(avail, high, high - low + 1, -1)
    grouped = [Component(TRACTOR if length >= 2 else PAIR, _take_run(pairs, top, length), cls, top,
                         length) for length, top in runs]
    paired = Counter(card for comp in grouped for card in comp.cards)
    loose = remove_cards(sorted(cards, key=trump.sort_key), list(paired.elements()))
    singles = [Component(SINGLE, (card,), cls, trump.run_pos(card), 0) for card in loose]
    grouped.sort(key=lambda comp: (-comp.length, -comp.top, trump.sort_key(comp.cards[0])))
    return tuple(grouped + singles)


def pair_count(cards: Sequence[str], trump: Trump) -> int:
    """SJ2-9.3 / SJ2-11.2: pairs in the canonical decomposition, a k-tractor counting k. Cards of
    several classes are decomposed class by class."""
    return sum(comp.pairs for group in _by_class(tuple(cards), trump).values()
               for comp in decompose(group, trump))


def shape_of(components: Sequence[Component]) -> Shape:
    """SJ2-7.4 / SJ3-9.1: the shape of a play read as ``components``."""
    def lengths(kind: str) -> tuple[int, ...]:
        return tuple(sorted((c.length for c in components if c.kind == kind), reverse=True))

    return Shape(tractors=lengths(TRACTOR), pairs=sum(1 for c in components if c.kind == PAIR),
                 singles=sum(1 for c in components if c.kind == SINGLE),
                 triples=sum(1 for c in components if c.kind == TRIPLE),
                 triple_tractors=lengths(TRIPLE_TRACTOR))


@lru_cache(maxsize=4096)
def _canonical_shape(cards: tuple[str, ...],
                     trump: Trump) -> tuple[Shape, int, tuple[units.Unit, ...]]:
    """The shape of a lead read by its canonical decomposition, with its size and units, worked
    out once per lead (a trick's winner ranks every play against them)."""
    found = shape_of(decompose(cards, trump))
    return found, found.size, found.units


def shape(cards: Sequence[str], trump: Trump) -> Shape:
    """SJ2-7.4: tractor lengths, number of pairs and of singles of the canonical decomposition
    (cards of one class; ValueError otherwise)."""
    return shape_of(decompose(cards, trump))


# --- leading and throwing (SJ2-8) -----------------------------------------------------------

def check_lead(cards: Sequence[str], trump: Trump, rule: str = "SJ2-8.2") -> None:
    """SJ2-8.2 (SJ3-7.1): a lead is one or more cards, all of one class."""
    cards = tuple(cards)
    if not cards:
        raise RuleViolation(rule, "a lead must contain at least one card ({rule_})",
                                  rule_=rule)
    groups = _by_class(cards, trump)
    if len(groups) > 1:
        parts = words.joined([Message("{class_name} {cards}", class_name=class_name(cls),
                                      cards=trump.format_cards(held))
                              for cls, held in groups.items()], words.SEMICOLON)
        raise RuleViolation(rule, "the lead {format_cards} mixes classes ({parts}); all cards "
                                  "of a lead must be of one class ({rule_})",
                                  format_cards=trump.format_cards(cards), parts=parts,
                                  rule_=rule)


def beaten_components(components: Sequence[Component], trump: Trump,
                      opponent_hands: Sequence[Sequence[str]]) -> tuple[Component, ...]:
    """SJ2-8.4 / SJ3-7.2: the components (in their order) that one opponent's cards of the
    component's class can beat — a higher single, or a higher run of as many places with as
    many identical cards each: a higher pair (two of a triple count), triple, tractor or
    triple-tractor of the same length (cards of two opponents never combine). Each opponent's
    cards of a class, and their runs, are read once for all the components of that class."""
    held: dict[str, list[tuple[str, ...]]] = {}   # class -> each opponent's cards of it
    runs: dict[str, list[units.Columns]] = {}     # class -> their columns, once a run is led
    beaten = []
    for comp in components:
        if comp.cls not in held:
            held[comp.cls] = [trump.of_class(hand, comp.cls) for hand in opponent_hands]
        if comp.kind == SINGLE:
            beats = any(trump.run_pos(card) > comp.top for own in held[comp.cls] for card in own)
        else:
            if comp.cls not in runs:
                runs[comp.cls] = [units.columns(own, trump) for own in held[comp.cls]]
            width, length = comp.unit
            beats = any(top > comp.top for state in runs[comp.cls]
                        for top in units.tops(state, width, length))
        if beats:
            beaten.append(comp)
    return tuple(beaten)


def forced_component(beaten: Sequence[Component], lead: Sequence[str]) -> Component:
    """SJ2-8.5: the lowest beatable single, else the lowest beatable pair, else the shortest then
    lowest beatable tractor; equal ones: the first listed in the lead."""
    lead = list(lead)

    def first_listed(comp: Component) -> int:
        return min(lead.index(card) for card in comp.cards)

    for kind in (SINGLE, PAIR):
        candidates = [comp for comp in beaten if comp.kind == kind]
        if candidates:
            return min(candidates, key=lambda comp: (comp.top, first_listed(comp)))
    return min(beaten, key=lambda comp: (comp.length, comp.top, first_listed(comp)))


def judge_throw(lead: Sequence[str], trump: Trump,
                opponent_hands: Sequence[Sequence[str]]) -> ThrowResult:
    """SJ2-8.3–8.5: a throw fails if any component can be beaten by one opponent's cards of that
    class (cards of two opponents never combine). The caller chooses the opponents
    (setting ``throwCheckAgainst``). A one-component lead is never a throw."""
    lead = tuple(lead)
    check_lead(lead, trump)
    components = decompose(lead, trump)
    if len(components) == 1:
        return ThrowResult(False, (), 0, lead)
    beaten = beaten_components(components, trump, opponent_hands)
    if not beaten:
        return ThrowResult(False, (), 0, lead)
    return ThrowResult(True, beaten, sum(comp.size for comp in beaten),
                       forced_component(beaten, lead).cards)


def judge_mixed_lead(lead: Sequence[str], trump: Trump,
                     opponent_hands: Sequence[Sequence[str]]) -> ThrowResult:
    """SJ2-12.5 (seed rule 10: 「牌脱手后不能再收回；如果所出的牌有错，则按照“甩牌错误”处理」): a lead
    that mixes classes, once released, is judged as a failed throw — each class's components
    against the opponents' cards of that class (SJ2-8.4), 10 points per beatable card, the lowest
    beatable component played (SJ2-8.5). **Interpretation:** when no component is beatable the
    penalty is 0 and the lowest card of the first listed card's class is played."""
    lead = tuple(lead)
    components = [comp for group in _by_class(lead, trump).values()
                  for comp in decompose(group, trump)]
    beaten = beaten_components(components, trump, opponent_hands)
    if beaten:
        forced = forced_component(beaten, lead).cards
    else:
        cls = trump.card_class(lead[0])
        forced = (min((card for card in lead if trump.card_class(card) == cls),
                      key=lambda card: (trump.pos(card), lead.index(card))),)
    return ThrowResult(True, beaten, sum(comp.size for comp in beaten), forced)
