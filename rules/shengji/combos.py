"""Combinations, leads, throws, follows and trick winners of Shengji.

Rules: shared/rules/shengji-2deck.md SJ2-7 (pairs, tractors, canonical decomposition, shape),
SJ2-8 (leading and throwing), SJ2-9 (following) and SJ2-10 (winning the trick); and for three
decks shengji-3deck.md SJ3-6 (triples, triple-tractors, 俘虏), SJ3-7 (throws with a stated
structure) and SJ3-9 (winning the trick). The follow obligations of SJ3-8 are in
``obligations.py``; the run searches both games share are in ``units.py``.

A component is a run of ``length`` consecutive positions holding ``width`` identical cards each:
a single has width 1 (length 0 by convention), a pair width 2 and length 1, a k-tractor width 2
and length k, a triple width 3 and length 1, a triple-tractor width 3 and length k (SJ3-6).
``width`` is derived from the cards and ``priority`` orders triple-tractors > pair-tractors >
triples > pairs > singles (SJ3-9.2; SJ2 has no width 3). ``top`` is the highest run place
(``Trump.run_pos``), which orders cards as their positions do.

Everything here is pure; the run searches are memoised on immutable arguments only.
"""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from ..violations import RuleViolation
from . import units
from .cards import TRUMP, Trump, class_name, missing_cards, remove_cards

SINGLE, PAIR, TRACTOR = "single", "pair", "tractor"
TRIPLE, TRIPLE_TRACTOR = "triple", "tripleTractor"  # SJ3-6.1 / 6.2


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


def is_tractor(cards: Sequence[str], trump: Trump) -> bool:
    """SJ2-7.2: the cards are exactly one tractor (k >= 2 pairs of one class at consecutive
    positions, one pair per position)."""
    cards = tuple(cards)
    if not cards or len({trump.card_class(card) for card in cards}) != 1:
        return False
    components = decompose(cards, trump)
    return len(components) == 1 and components[0].kind == TRACTOR


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
        raise RuleViolation(rule, f"a lead must contain at least one card ({rule})")
    groups = _by_class(cards, trump)
    if len(groups) > 1:
        parts = "; ".join(f"{class_name(cls)} {trump.format_cards(held)}" for cls, held in groups.items())
        raise RuleViolation(rule, f"the lead {trump.format_cards(cards)} mixes classes ({parts}); "
                                  f"all cards of a lead must be of one class ({rule})")


def can_beat_component(holding: Sequence[str], component: Component, trump: Trump) -> bool:
    """SJ2-8.4 / SJ3-7.2: one player's cards of the component's class hold a higher single, or a
    higher run of as many places with as many identical cards each — a higher pair (two of a
    triple count), triple, tractor or triple-tractor of the same length."""
    own = trump.of_class(holding, component.cls)
    if component.kind == SINGLE:
        return any(trump.run_pos(card) > component.top for card in own)
    width, length = component.unit
    return any(top > component.top for top in units.tops(units.columns(own, trump), width, length))


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
    beaten = tuple(comp for comp in components
                   if any(can_beat_component(hand, comp, trump) for hand in opponent_hands))
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
    beaten = tuple(comp for comp in components
                   if any(can_beat_component(hand, comp, trump) for hand in opponent_hands))
    if beaten:
        forced = forced_component(beaten, lead).cards
    else:
        cls = trump.card_class(lead[0])
        forced = (min((card for card in lead if trump.card_class(card) == cls),
                      key=lambda card: (trump.pos(card), lead.index(card))),)
    return ThrowResult(True, beaten, sum(comp.size for comp in beaten), forced)


# --- following (SJ2-9) ----------------------------------------------------------------------

def must_play_lead_size(lead: Sequence[str], play: Sequence[str], trump: Trump, player: str,
                        rule: str = "SJ2-9.1") -> None:
    """SJ2-9.1 / SJ3-8.1: each player plays exactly as many cards as were led."""
    if len(play) != len(lead):
        raise RuleViolation(rule, f"{player} must play exactly {_count(len(lead), 'card')}, as many as "
                                  f"the lead {trump.format_cards(lead)}, but played {len(play)} ({rule})")


def must_follow_class(cls: str, own: Sequence[str], n: int, play: Sequence[str], trump: Trump,
                      player: str, rule: str = "SJ2-9.2") -> None:
    """SJ2-9.2 / SJ3-8.1: with at most n cards of the led class play all of them; otherwise play
    n cards of that class."""
    name = class_name(cls)
    if len(own) <= n:
        left_out = missing_cards(play, own)
        if left_out:
            raise RuleViolation(rule, (
                f"{player} holds only {_count(len(own), 'card')} in {name} ({trump.format_cards(own)}), "
                f"no more than the {_count(n, 'card')} led, and must play all of them; the play "
                f"{trump.format_cards(play)} leaves out {trump.format_cards(left_out)} ({rule})"))
        return
    off = [card for card in play if trump.card_class(card) != cls]
    if off:
        raise RuleViolation(rule, (
            f"{player} holds {_count(len(own), 'card')} in {name}, more than the {_count(n, 'card')} led, "
            f"and must play all {n} from {name}; the play {trump.format_cards(play)} includes "
            f"{trump.format_cards(off)} ({rule})"))


def required_tractors(lead_components: Sequence[Component], own: Sequence[str],
                      trump: Trump) -> tuple[tuple[str, ...], ...]:
    """SJ2-9.4: for the lead's tractors, longest first, the follower's tractors of length
    min(k, longest still available) among his class cards not used for an earlier one (chosen so
    that the lengths are as long as possible, in order). Empty if the lead has no tractor or
    the follower none."""
    caps = sorted((comp.length for comp in lead_components if comp.kind == TRACTOR), reverse=True)
    if not caps:
        return ()
    pairs = _pair_cards(own, trump)
    runs = _best_runs(Counter({pos: len(held) for pos, held in pairs.items()}), caps)
    return tuple(_take_run(pairs, top, length) for length, top in runs)


def must_follow_tractors(lead_components: Sequence[Component], own: Sequence[str], play: Sequence[str],
                         trump: Trump, player: str) -> None:
    """SJ2-9.4: holding a tractor in the led class, follow each led tractor (longest first) with a
    tractor of min(k, longest available) pairs; some assignment of the played cards must
    satisfy every such requirement."""
    held = required_tractors(lead_components, own, trump)
    if not held:
        return
    lengths = [len(run) // 2 for run in held]
    if _place_runs(_pair_positions(play, trump), lengths) is not None:
        return
    led = [comp for comp in lead_components if comp.kind == TRACTOR]
    many = len(held) > 1
    raise RuleViolation("SJ2-9.4", (
        f"{player} holds the tractor{'s' if many else ''} "
        f"{' and '.join(trump.format_cards(run) for run in held)} in {class_name(lead_components[0].cls)} "
        f"and must play {'tractors' if many else 'a tractor'} of {' and '.join(map(str, lengths))} pairs "
        f"to follow the led tractor{'s' if len(led) > 1 else ''} "
        f"{' and '.join(trump.format_cards(comp.cards) for comp in led)}; the play "
        f"{trump.format_cards(play)} does not contain {'them' if many else 'one'} (SJ2-9.4)"))


def must_follow_pairs(lead_components: Sequence[Component], own: Sequence[str], play: Sequence[str],
                      trump: Trump, player: str) -> None:
    """SJ2-9.3: the play contains at least min(P, pairs held in the led class) disjoint pairs,
    P = pairs of the lead (a k-tractor counts k)."""
    led_pairs = sum(comp.pairs for comp in lead_components)
    if not led_pairs:
        return  # nothing to match: no pair is owed
    held = _pair_total(own)
    need = min(led_pairs, held)
    have = _pair_total(play)
    if have >= need:
        return
    held_cards = [card for cards in _pair_cards(own, trump).values() for card in cards for _ in (1, 2)]
    raise RuleViolation("SJ2-9.3", (
        f"{player} holds {_count(held, 'pair')} in {class_name(lead_components[0].cls)} "
        f"({trump.format_cards(held_cards)}) and must play at least {_count(need, 'pair')} to follow "
        f"the {_count(led_pairs, 'pair')} led; the play {trump.format_cards(play)} contains {have} (SJ2-9.3)"))


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def check_follow(lead: Sequence[str], hand: Sequence[str], play: Sequence[str], trump: Trump,
                 player: str = "the player") -> None:
    """SJ2-9.1–9.4: is ``play`` (cards the player holds) a legal follow to the effective ``lead``
    from ``hand`` (his cards before playing)? Raises RuleViolation with the first rule broken;
    the tractor rule is checked before the pair rule (SJ2 Ex 3)."""
    lead, hand, play = tuple(lead), tuple(hand), tuple(play)
    components = decompose(lead, trump)
    if not components:
        raise ValueError("there is no lead to follow")
    cls = components[0].cls
    must_play_lead_size(lead, play, trump, player)
    own = trump.of_class(hand, cls)
    must_follow_class(cls, own, len(lead), play, trump, player)
    if len(own) <= len(lead):
        return
    must_follow_tractors(components, own, play, trump, player)
    must_follow_pairs(components, own, play, trump, player)


# --- winning the trick (SJ2-10) -------------------------------------------------------------

def arranged_key_top(cards: Sequence[str], lead_shape: Shape, trump: Trump) -> int | None:
    """SJ2-10.1/10.2, SJ3-9.1/9.2: if the cards (one class) can be arranged into the lead's
    shape — a tractor serving as its pairs, a triple as a pair and a single, a pair as two
    singles, never the reverse — the top place of the best key component (the first of
    :attr:`Shape.units`, else the highest single) of such an arrangement; else None."""
    return _key_top(cards, lead_shape.size, lead_shape.units, trump)


def _key_top(cards: Sequence[str], size: int, needed: tuple[units.Unit, ...],
             trump: Trump) -> int | None:
    """:func:`arranged_key_top` for a lead shape of ``size`` cards and ``needed`` units."""
    if len(cards) != size:
        return None
    if not needed:
        return max(map(trump.run_pos, cards))
    return units.best_top(units.columns(cards, trump), needed[0], needed[1:])


def arranged_tops(cards: Sequence[str], lead_shape: Shape, trump: Trump) -> tuple[int, ...] | None:
    """SJ3-9.1/9.2 with seed 十六 (「先比较拖拉机，三条，单张的级别大小」): if the cards (one class) can be
    arranged into the lead's shape, the places of its best arrangement component by component in
    key order (:attr:`Shape.units`), then its singles highest first; else None. Two plays of one
    class compare as these tuples: the key component first, then the next one, …"""
    if len(cards) != lead_shape.size:
        return None
    return units.best_tops(units.columns(cards, trump), lead_shape.units)


def trick_winner(plays: Sequence[Sequence[str]], trump: Trump,
                 lead_components: Sequence[Component] | None = None,
                 in_order: bool = False) -> int:
    """SJ2-10.1–10.3 / SJ3-9: index of the play that wins the trick; ``plays[0]`` is the
    effective lead, read as ``lead_components`` (SJ3: the stated structure) or else by its
    canonical decomposition (SJ2-7.3). A play competes only if it is all of the led class or all
    trump and fits the lead's shape; it beats the winner if it is trump against a non-trump
    winner, or of the winner's class and strictly higher (equal: the earlier play keeps the
    trick) — by its key component (SJ2-10.2), or with ``in_order`` (SJ3, seed 十六) by its
    components in key order and then its singles (:func:`arranged_tops`)."""
    lead = tuple(plays[0])
    components = tuple(lead_components) if lead_components else decompose(lead, trump)
    if not components:
        raise ValueError("a trick needs a lead")
    led_cls = components[0].cls
    if lead_components:
        lead_shape = shape_of(components)
        size, needed = lead_shape.size, lead_shape.units
    else:
        lead_shape, size, needed = _canonical_shape(lead, trump)
    if size == 1 and not in_order:
        return _single_winner(plays, trump, led_cls)

    def rank(cards: tuple[str, ...]) -> tuple[int, ...] | None:
        if in_order:  # arranged_tops, the lead's size and units read once
            return None if len(cards) != size else units.best_tops(units.columns(cards, trump),
                                                                   needed)
        top = _key_top(cards, size, needed, trump)
        return None if top is None else (top,)

    winner, win_cls, win_rank = 0, led_cls, rank(lead)
    competing = ({led_cls}, {TRUMP})
    for index in range(1, len(plays)):
        play = plays[index]
        classes = trump.classes(play)
        if classes not in competing:
            continue
        cls = classes.pop()
        play_rank = rank(tuple(play))
        if play_rank is None:
            continue
        if (cls == TRUMP and win_cls != TRUMP) or (cls == win_cls and play_rank > win_rank):
            winner, win_cls, win_rank = index, cls, play_rank
    return winner


def _single_winner(plays: Sequence[Sequence[str]], trump: Trump, led_cls: str) -> int:
    """:func:`trick_winner` of a single led (most tricks): the highest card of the led class
    wins, or the highest trump once one is played (equal: the earlier card keeps the trick)."""
    winner, win_cls, win_top = 0, led_cls, trump.run_pos(plays[0][0])
    for index in range(1, len(plays)):
        play = plays[index]
        if len(play) != 1:
            continue  # it cannot fit the lead's shape
        cls = trump.card_class(play[0])
        if cls != led_cls and cls != TRUMP:
            continue
        top = trump.run_pos(play[0])
        if (cls == TRUMP and win_cls != TRUMP) or (cls == win_cls and top > win_top):
            winner, win_cls, win_top = index, cls, top
    return winner


# --- SJ3 leads: one component, or a throw with a stated structure (SJ3-6.4, 6.5, 7) ----------

# SJ3-7.3: the component types, smallest first (the default choice takes the first present)
KIND_ORDER = (SINGLE, PAIR, TRIPLE, TRACTOR, TRIPLE_TRACTOR)


def single_component(cards: Sequence[str], trump: Trump) -> Component | None:
    """SJ3-6.1/6.2 (SJ2-7.1/7.2): the one component the cards are — a single, pair, triple,
    tractor or triple-tractor of one class, one card identity per run place — or None."""
    cards = tuple(cards)
    if not cards or len({trump.card_class(card) for card in cards}) != 1:
        return None
    counts = Counter(cards)
    width = counts[cards[0]]
    places = sorted({trump.run_pos(card) for card in counts})
    if any(n != width for n in counts.values()) or width > 3 or len(places) != len(counts):
        return None  # unequal sets, or two different cards at one place (副级牌)
    if places != list(range(places[0], places[0] + len(places))):
        return None
    length = len(places)
    if width == 1:
        return Component(SINGLE, cards, trump.card_class(cards[0]), places[0], 0) \
            if length == 1 else None
    kind = {(2, False): PAIR, (2, True): TRACTOR, (3, False): TRIPLE,
            (3, True): TRIPLE_TRACTOR}[(width, length >= 2)]
    return Component(kind, tuple(sorted(cards, key=trump.sort_key)), trump.card_class(cards[0]),
                     places[-1], length)


def is_captive(cards: Sequence[str], trump: Trump) -> bool:
    """SJ3-6.5 俘虏: cards of one class held as triples and pairs together — a triple and a pair
    (「“三条”加一“对子”」), or chained ones like 44433."""
    cards = tuple(cards)
    return len({trump.card_class(card) for card in cards}) == 1 and \
        set(Counter(cards).values()) == {2, 3}


def lead_components(cards: Sequence[str], trump: Trump,
                    structure: Sequence[Sequence[str]] | None = None) -> tuple[Component, ...]:
    """SJ3-6.4, 6.5, 7.1: the components of an SJ3 lead, key component first. Without a stated
    structure the cards must be one component (a 俘虏 is refused by SJ3-6.5, any other several
    components by SJ3-7.1: a throw states its structure); with one, its parts must each be a
    component and together be exactly the cards led, all of one class."""
    cards = tuple(cards)
    check_lead(cards, trump, rule="SJ3-7.1")
    if structure is None:
        component = single_component(cards, trump)
        if component is not None:
            return (component,)
        if is_captive(cards, trump):
            raise RuleViolation("SJ3-6.5", f"{trump.format_cards(cards)} is a 俘虏 (triples and pairs together): it may "
                                           "not be led as a unit, only as a throw whose structure "
                                           "is stated, e.g. triple + pair (SJ3-6.5)")
        raise RuleViolation("SJ3-7.1", f"{trump.format_cards(cards)} is not one single, pair, triple, tractor or "
                                       "triple-tractor: a throw must state its structure (SJ3-7.1)")
    parts = [tuple(part) for part in structure]
    stated = [card for part in parts for card in part]
    if Counter(stated) != Counter(cards):
        raise RuleViolation("SJ3-7.1", f"the stated structure {' | '.join(map(' '.join, parts))} "
                                       f"is not exactly the cards led, {trump.format_cards(cards)} (SJ3-7.1)")
    components = []
    for part in parts:
        component = single_component(part, trump)
        if component is None:
            raise RuleViolation("SJ3-7.1", f"{trump.format_cards(part)} in the stated structure is "
                                           "not a single, pair, triple, tractor or triple-tractor "
                                           "(SJ3-7.1)")
        components.append(component)
    merged = merged_parts(components, trump)
    if merged is not None:
        unit = single_component([card for part in merged for card in part.cards], trump)
        shown_parts = " | ".join(trump.format_cards(part.cards) for part in merged)
        raise RuleViolation("SJ3-7.1", f"the stated parts {shown_parts} are together one "
                                       f"{_KIND_NAMES[unit.kind]}, "
                                       f"{trump.format_cards(unit.cards)}: a throw's structure may "
                                       "not split a unit, or it would escape the rules for "
                                       "following and trumping it (SJ3-7.1, SJ3-8, SJ3-9)")
    return tuple(sorted(components, key=lambda c: (c.priority, c.top), reverse=True))


_KIND_NAMES = {SINGLE: "single", PAIR: "pair", TRIPLE: "triple", TRACTOR: "tractor",
               TRIPLE_TRACTOR: "triple-tractor"}


def merged_parts(parts: Sequence[Component], trump: Trump) -> tuple[Component, ...] | None:
    """SJ3-7.1 with seed 十一, 十二, 十五, 十六: two or more stated parts whose cards together are
    one single, pair, triple, tractor or triple-tractor (``AH | AH`` is a pair, ``88 | 77`` a
    tractor, ``4433 | 4 | 3`` a triple-tractor), or None. A structure that splits a unit so would
    turn off the follow obligations and the shape a trump must match; the seed allows a 俘虏
    only as 「三条加一对或拖拉机加一单张」, which no union of its parts makes one unit.

    The search grows a set of parts from each part: while a place of its span holds fewer than
    ``width`` cards it must take a part of that place (at most three cards, so three parts, hold
    a place and card); a complete set of one part may take a part of the next place up."""
    for width in (2, 3):
        fitting = [i for i, part in enumerate(parts) if part.width <= width]
        for start in fitting:
            found = _grow(parts, fitting, frozenset({start}), width, trump, set())
            if found is not None:
                return tuple(parts[i] for i in sorted(found))
    return None


def _grow(parts: Sequence[Component], fitting: Sequence[int], chosen: frozenset[int], width: int,
          trump: Trump, seen: set) -> frozenset[int] | None:
    if chosen in seen:
        return None
    seen.add(chosen)
    held: dict[int, Counter] = {}
    for i in chosen:
        for card in parts[i].cards:
            held.setdefault(trump.run_pos(card), Counter())[card] += 1
    if any(len(at) > 1 or sum(at.values()) > width for at in held.values()):
        return None  # two different cards at one place (副级牌), or too many
    low, high = min(held), max(held)
    short = next((p for p in range(low, high + 1) if sum(held.get(p, Counter()).values()) < width),
                 None)
    if short is None and len(chosen) > 1:
        cards = [card for i in chosen for card in parts[i].cards]
        return chosen if single_component(cards, trump) is not None else None
    place = high + 1 if short is None else short
    for j in fitting:
        if j not in chosen and any(trump.run_pos(card) == place for card in parts[j].cards):
            found = _grow(parts, fitting, chosen | {j}, width, trump, seen)
            if found is not None:
                return found
    return None


def beatable_components(components: Sequence[Component], trump: Trump,
                        opponent_hands: Sequence[Sequence[str]]) -> tuple[Component, ...]:
    """SJ3-7.2: the components of a throw that one opponent's cards could beat (the cards of two
    opponents never combine). A lead of one component is no throw: nothing to beat."""
    if len(components) < 2:
        return ()
    return tuple(comp for comp in components
                 if any(can_beat_component(hand, comp, trump) for hand in opponent_hands))


def throw_options(components: Sequence[Component]) -> tuple[Component, ...]:
    """SJ3-7.3 (「由甩错者的下家指定出其中的一种最小的单张或组合」): for each type of component in
    the stated structure, its lowest one (a shorter tractor before a longer), smallest type
    first. With one type there is nothing to choose."""
    options = []
    for kind in KIND_ORDER:
        of_kind = [comp for comp in components if comp.kind == kind]
        if of_kind:
            options.append(min(of_kind, key=lambda comp: (comp.length, comp.top)))
    return tuple(options)


def default_throw_choice(options: Sequence[Component]) -> Component:
    """SJ3-7.3 **Interpretation**: a designator who does not choose in time gets the lowest
    single, else the smallest component — the first option."""
    return options[0]


# --- random legal moves for bots and property tests ----------------------------------------

def random_lead(hand: Sequence[str], trump: Trump, rng: random.Random) -> tuple[str, ...]:
    """A random single-component lead (SJ2-8.2) from ``hand``: a single, a pair or a tractor
    of one randomly chosen class."""
    hand = tuple(hand)
    if not hand:
        raise ValueError("an empty hand cannot lead")
    groups = _by_class(hand, trump)
    own = groups[rng.choice(sorted(groups))]
    pairs = _pair_cards(own, trump)
    avail = Counter({pos: len(held) for pos, held in pairs.items()})
    runs = [(length, top) for length in range(2, _longest_run(avail) + 1)
            for top in _window_tops(avail, length)]
    kinds = [SINGLE] + ([PAIR] if pairs else []) + ([TRACTOR] if runs else [])
    kind = rng.choice(kinds)
    if kind == SINGLE:
        return (rng.choice(own),)
    if kind == PAIR:
        card = rng.choice([card for held in pairs.values() for card in held])
        return (card, card)
    length, top = rng.choice(runs)
    return _take_run(pairs, top, length)


def random_follow(lead: Sequence[str], hand: Sequence[str], trump: Trump,
                  rng: random.Random) -> tuple[str, ...]:
    """A random follow that satisfies SJ2-9: the required tractors, then the required pairs from
    the led class, then random cards (of the led class while any are left)."""
    lead, hand = tuple(lead), tuple(hand)
    components = decompose(lead, trump)
    n, cls = len(lead), components[0].cls
    own = [card for card in hand if trump.card_class(card) == cls]
    if len(own) <= n:
        others = [card for card in hand if trump.card_class(card) != cls]
        return tuple(own) + tuple(rng.sample(others, n - len(own)))
    chosen = [card for run in required_tractors(components, own, trump) for card in run]
    rest = list(remove_cards(own, chosen))
    need = min(sum(comp.pairs for comp in components), _pair_total(own)) - len(chosen) // 2
    if need > 0:
        loose_pairs = [card for card, count in Counter(rest).items() for _ in range(count // 2)]
        extra = [card for card in rng.sample(loose_pairs, need) for _ in (1, 2)]
        chosen += extra
        rest = list(remove_cards(rest, extra))
    return tuple(chosen + rng.sample(rest, n - len(chosen)))


def random_component(hand: Sequence[str], trump: Trump, rng: random.Random) -> tuple[str, ...]:
    """A random one-component lead (SJ3-6.4) from ``hand``: a single, pair, triple, tractor or
    triple-tractor of one randomly chosen class."""
    hand = tuple(hand)
    if not hand:
        raise ValueError("an empty hand cannot lead")
    groups = _by_class(hand, trump)
    own = groups[rng.choice(sorted(groups))]
    state = units.columns(own, trump)
    shapes = [(1, 1)] + [(width, length) for width in (2, 3)
                         for length in range(1, units.longest(state, width) + 1)]
    width, length = rng.choice(shapes)
    if width == 1:
        return (rng.choice(own),)
    top = rng.choice(units.tops(state, width, length))
    held = dict(state)
    cards: list[str] = []
    for place in range(top, top - length, -1):
        card = rng.choice([card for card, n in held[place] if n >= width])
        cards += [card] * width
    return tuple(cards)
