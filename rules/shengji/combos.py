"""Combinations, leads, throws, follows and trick winners of two-deck Shengji.

Rules: shared/rules/shengji-2deck.md SJ2-7 (pairs, tractors, canonical decomposition, shape),
SJ2-8 (leading and throwing), SJ2-9 (following) and SJ2-10 (winning the trick).

A component is a run of ``length`` consecutive positions holding ``width`` identical cards each:
a single has width 1 (length 0 by convention), a pair width 2 and length 1, a k-tractor width 2
and length k. A three-deck variant (SJ3-6) can add triples and triple-tractors as width 3 with the
same fields: ``width`` is derived from the cards and ``priority`` already orders triple-tractors >
pair-tractors > triples > pairs > singles (SJ3-9.2).

Everything here is pure; the two run searches are memoised on immutable arguments only.
"""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from ..violations import RuleViolation
from .cards import TRUMP, Trump, class_name, missing_cards, remove_cards

SINGLE, PAIR, TRACTOR = "single", "pair", "tractor"


@dataclass(frozen=True)
class Component:
    """One single, pair or tractor of one class (SJ2-7.1/7.2). ``top`` is its highest position,
    ``length`` the number of pairs (0 for a single)."""

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
        """SJ2-10.2 (and SJ3-9.2) type order: tractors (longer first) > pair > single."""
        return (self.length >= 2, self.width, self.length)


@dataclass(frozen=True)
class Shape:
    """SJ2-7.4: the multiset of a play's component types."""

    tractors: tuple[int, ...] = ()  # tractor lengths, longest first
    pairs: int = 0
    singles: int = 0


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
    classes = {trump.card_class(card) for card in cards}
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
        by_pos.setdefault(trump.pos(card), []).extend([card] * (count // 2))
    return {pos: cards for pos, cards in by_pos.items() if cards}


def _pair_positions(cards: Sequence[str], trump: Trump) -> Counter:
    return Counter({pos: len(pairs) for pos, pairs in _pair_cards(cards, trump).items()})


def _pair_total(cards: Sequence[str]) -> int:
    """Disjoint pairs among ``cards`` (identical cards only, SJ2-7.1)."""
    return sum(count // 2 for count in Counter(cards).values())


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
    cards = tuple(cards)
    if not cards:
        return ()
    cls = _class_of(cards, trump)
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
    singles = [Component(SINGLE, (card,), cls, trump.pos(card), 0) for card in loose]
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


def _shape_of(components: Sequence[Component]) -> Shape:
    return Shape(tractors=tuple(sorted((c.length for c in components if c.kind == TRACTOR), reverse=True)),
                 pairs=sum(1 for c in components if c.kind == PAIR),
                 singles=sum(1 for c in components if c.kind == SINGLE))


def shape(cards: Sequence[str], trump: Trump) -> Shape:
    """SJ2-7.4: tractor lengths, number of pairs and of singles of the canonical decomposition
    (cards of one class; ValueError otherwise)."""
    return _shape_of(decompose(cards, trump))


# --- leading and throwing (SJ2-8) -----------------------------------------------------------

def check_lead(cards: Sequence[str], trump: Trump) -> None:
    """SJ2-8.2: a lead is one or more cards, all of one class."""
    cards = tuple(cards)
    if not cards:
        raise RuleViolation("SJ2-8.2", "a lead must contain at least one card (SJ2-8.2)")
    groups = _by_class(cards, trump)
    if len(groups) > 1:
        parts = "; ".join(f"{class_name(cls)} {trump.format_cards(held)}" for cls, held in groups.items())
        raise RuleViolation("SJ2-8.2", f"the lead {trump.format_cards(cards)} mixes classes ({parts}); "
                                       f"all cards of a lead must be of one class (SJ2-8.2)")


def can_beat_component(holding: Sequence[str], component: Component, trump: Trump) -> bool:
    """SJ2-8.4: one player's cards of the component's class hold a higher single, a higher pair,
    or k consecutive pairs with a higher top."""
    own = [card for card in holding if trump.card_class(card) == component.cls]
    if component.kind == SINGLE:
        return any(trump.pos(card) > component.top for card in own)
    avail = _pair_positions(own, trump)
    if component.kind == PAIR:
        return any(pos > component.top for pos in avail)
    return any(high - low + 1 >= component.length and high > component.top
               for low, high in _segments(avail))


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

def must_play_lead_size(lead: Sequence[str], play: Sequence[str], trump: Trump, player: str) -> None:
    """SJ2-9.1: each player plays exactly as many cards as were led."""
    if len(play) != len(lead):
        raise RuleViolation("SJ2-9.1", f"{player} must play exactly {_count(len(lead), 'card')}, as many as "
                                       f"the lead {trump.format_cards(lead)}, but played {len(play)} (SJ2-9.1)")


def must_follow_class(cls: str, own: Sequence[str], n: int, play: Sequence[str], trump: Trump,
                      player: str) -> None:
    """SJ2-9.2: with at most n cards of the led class play all of them; otherwise play n cards
    of that class."""
    name = class_name(cls)
    if len(own) <= n:
        left_out = missing_cards(play, own)
        if left_out:
            raise RuleViolation("SJ2-9.2", (
                f"{player} holds only {_count(len(own), 'card')} in {name} ({trump.format_cards(own)}), "
                f"no more than the {_count(n, 'card')} led, and must play all of them; the play "
                f"{trump.format_cards(play)} leaves out {trump.format_cards(left_out)} (SJ2-9.2)"))
        return
    off = [card for card in play if trump.card_class(card) != cls]
    if off:
        raise RuleViolation("SJ2-9.2", (
            f"{player} holds {_count(len(own), 'card')} in {name}, more than the {_count(n, 'card')} led, "
            f"and must play all {n} from {name}; the play {trump.format_cards(play)} includes "
            f"{trump.format_cards(off)} (SJ2-9.2)"))


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
    own = tuple(card for card in hand if trump.card_class(card) == cls)
    must_follow_class(cls, own, len(lead), play, trump, player)
    if len(own) <= len(lead):
        return
    must_follow_tractors(components, own, play, trump, player)
    must_follow_pairs(components, own, play, trump, player)


# --- winning the trick (SJ2-10) -------------------------------------------------------------

def arranged_key_top(cards: Sequence[str], lead_shape: Shape, trump: Trump) -> int | None:
    """SJ2-10.1/10.2: if the cards (one class) can be arranged into the lead's shape — a tractor
    serving as its pairs, a pair as two singles, never the reverse — the top position of the best
    key component of such an arrangement; else None."""
    if len(cards) != 2 * (sum(lead_shape.tractors) + lead_shape.pairs) + lead_shape.singles:
        return None
    avail = _pair_positions(cards, trump)
    if sum(avail.values()) < sum(lead_shape.tractors) + lead_shape.pairs:
        return None
    if lead_shape.tractors:
        key, rest = lead_shape.tractors[0], lead_shape.tractors[1:]
        for top in _window_tops(avail, key):
            _shift(avail, top, key, -1)
            fits = _place_runs(avail, rest) is not None
            _shift(avail, top, key, +1)
            if fits:
                return top
        return None
    if lead_shape.pairs:
        return max(avail)
    return max(trump.pos(card) for card in cards)


def trick_winner(plays: Sequence[Sequence[str]], trump: Trump) -> int:
    """SJ2-10.1–10.3: index of the play that wins the trick; ``plays[0]`` is the effective lead.
    A play competes only if it is all of the led class or all trump and fits the lead's shape;
    it beats the winner if it is trump against a non-trump winner, or of the winner's class with
    a strictly higher key component (equal: the earlier play keeps the trick)."""
    lead = tuple(plays[0])
    components = decompose(lead, trump)
    if not components:
        raise ValueError("a trick needs a lead")
    led_cls, lead_shape = components[0].cls, _shape_of(components)
    winner, win_cls, win_top = 0, led_cls, arranged_key_top(lead, lead_shape, trump)
    for index, play in enumerate(plays[1:], start=1):
        classes = {trump.card_class(card) for card in play}
        if classes not in ({led_cls}, {TRUMP}):
            continue
        cls = classes.pop()
        top = arranged_key_top(tuple(play), lead_shape, trump)
        if top is None:
            continue
        if (cls == TRUMP and win_cls != TRUMP) or (cls == win_cls and top > win_top):
            winner, win_cls, win_top = index, cls, top
    return winner


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
