"""SJ3 leads (shengji-3deck.md SJ3-6.4, 6.5, SJ3-7): one component, or a throw whose structure is
stated — the parts read, a unit split refused, the components an opponent could beat, and the
options the thrower's next seat designates among when the throw fails."""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import lru_cache

from ..violations import RuleViolation
from .cards import Trump
from .combos import (
    KIND_NAMES,
    PAIR,
    SINGLE,
    TRACTOR,
    TRIPLE,
    TRIPLE_TRACTOR,
    Component,
    beaten_components,
    check_lead,
)

# SJ3-7.3: the component types, smallest first (the default choice takes the first present)
KIND_ORDER = (SINGLE, PAIR, TRIPLE, TRACTOR, TRIPLE_TRACTOR)


def single_component(cards: Sequence[str], trump: Trump) -> Component | None:
    """SJ3-6.1/6.2 (SJ2-7.1/7.2): the one component the cards are — a single, pair, triple,
    tractor or triple-tractor of one class, one card identity per run place — or None."""
    return _single_component(tuple(cards), trump)


def _single(card: str, trump: Trump) -> Component:
    """SJ3-6.1: one card led, a single of its class."""
    return Component(SINGLE, (card,), trump.card_class(card), trump.run_pos(card), 0)


# every lead and every stated part is read so, the same cards again and again in a hand (most
# leads are one card): memoised (immutable arguments, an immutable result)
@lru_cache(maxsize=4096)
def _single_component(cards: tuple[str, ...], trump: Trump) -> Component | None:
    if len(cards) == 1:  # a single (most leads)
        return _single(cards[0], trump)
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
    if structure is None:
        if len(cards) == 1:  # a single (most leads): one class, one component
            return (_single(cards[0], trump),)
        return _unit_lead(cards, trump)
    check_lead(cards, trump, rule="SJ3-7.1")
    return _stated(cards, tuple(tuple(part) for part in structure), trump)


@lru_cache(maxsize=4096)
def _unit_lead(cards: tuple[str, ...], trump: Trump) -> tuple[Component, ...]:
    """:func:`lead_components` without a stated structure (most leads): memoised, a refusal
    raised again each time."""
    check_lead(cards, trump, rule="SJ3-7.1")
    component = single_component(cards, trump)
    if component is not None:
        return (component,)
    if is_captive(cards, trump):
        raise RuleViolation("SJ3-6.5", "{format_cards} is a 俘虏 (triples and pairs together): "
                                       "it may not be led as a unit, only as a throw whose "
                                       "structure is stated, e.g. triple + pair (SJ3-6.5)",
                                       format_cards=trump.format_cards(cards))
    raise RuleViolation("SJ3-7.1", "{format_cards} is not one single, pair, triple, tractor or "
                                   "triple-tractor: a throw must state its structure (SJ3-7.1)",
                                   format_cards=trump.format_cards(cards))


def _stated(cards: tuple[str, ...], parts: tuple[tuple[str, ...], ...],
            trump: Trump) -> tuple[Component, ...]:
    """:func:`lead_components` of a throw with its stated ``parts`` (the cards of one class)."""
    stated = [card for part in parts for card in part]
    if Counter(stated) != Counter(cards):
        raise RuleViolation("SJ3-7.1", "the stated structure {map} is not exactly the cards "
                                       "led, {format_cards} (SJ3-7.1)",
                                       map=' | '.join(map(' '.join, parts)),
                                       format_cards=trump.format_cards(cards))
    components = []
    for part in parts:
        component = single_component(part, trump)
        if component is None:
            raise RuleViolation("SJ3-7.1", "{format_cards} in the stated structure is not a "
                                           "single, pair, triple, tractor or triple-tractor "
                                           "(SJ3-7.1)",
                                           format_cards=trump.format_cards(part))
        components.append(component)
    merged = merged_parts(components, trump)
    if merged is not None:
        unit = single_component([card for part in merged for card in part.cards], trump)
        shown_parts = " | ".join(trump.format_cards(part.cards) for part in merged)
        raise RuleViolation("SJ3-7.1", "the stated parts {shown_parts} are together one "
                                       "{kind}, {cards}: a throw's structure may not split a "
                                       "unit, or it would escape the rules for following and "
                                       "trumping it (SJ3-7.1, SJ3-8, SJ3-9)",
                                       shown_parts=shown_parts, kind=KIND_NAMES[unit.kind],
                                       cards=trump.format_cards(unit.cards))
    return tuple(sorted(components, key=lambda c: (c.priority, c.top), reverse=True))


def merged_parts(parts: Sequence[Component], trump: Trump) -> tuple[Component, ...] | None:
    """SJ3-7.1 with seed 十一, 十二, 十五, 十六: two or more stated parts whose cards together are
    one single, pair, triple, tractor or triple-tractor (``AH | AH`` is a pair, ``88 | 77`` a
    tractor, ``4433 | 4 | 3`` a triple-tractor), or None. A structure that splits a unit so would
    turn off the follow obligations and the shape a trump must match; the seed allows a 俘虏
    only as 「三条加一对或拖拉机加一单张」, which no union of its parts makes one unit.

    The search grows a set of parts from each part: while a place of its span holds fewer than
    ``width`` cards it must take a part of that place (at most three cards, so three parts, hold
    a place and card); a complete set of one part may take a part of the next place up."""
    if not _may_merge(parts, trump):
        return None
    for width in (2, 3):
        fitting = [i for i, part in enumerate(parts) if part.width <= width]
        for start in fitting:
            found = _grow(parts, fitting, frozenset({start}), width, trump, set())
            if found is not None:
                return tuple(parts[i] for i in sorted(found))
    return None


def _may_merge(parts: Sequence[Component], trump: Trump) -> bool:
    """Whether some parts could together be one unit, as :func:`merged_parts` searches (most
    throws: none can, and the search is skipped). In such a union of two or more parts either a
    place holds cards of two parts — one card identity per place, so the two share a card — or
    each place is one part's, every part then as wide as the unit, and two of them lie at
    adjacent places."""
    seen: set[str] = set()
    spans: dict[int, list[tuple[int, int]]] = {}
    for part in parts:
        cards = set(part.cards)
        if not seen.isdisjoint(cards):
            return True
        seen |= cards
        if part.width >= 2:
            places = [trump.run_pos(card) for card in cards]
            spans.setdefault(part.width, []).append((min(places), max(places)))
    return any(low == other_high + 1 for same in spans.values() for low, _ in same
               for _, other_high in same)


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
    return beaten_components(components, trump, opponent_hands)


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
