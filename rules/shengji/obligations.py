"""Following in three-deck Shengji (shengji-3deck.md SJ3-8; seed 004 articles 十一 to 十三): what a
follower holding more cards of the led class than were led must play, in the seed's order of
fall-backs.

Each led pair, triple, tractor or triple-tractor asks for the first of its *options* (units, see
``units.py``; the remaining places are free) that the follower's cards of the led class can give:

- pair (SJ3-8.3): a pair, even out of a tractor or triple; else nothing;
- triple (SJ3-8.4): a triple; else a pair (and a single); else singles;
- tractor of k pairs (SJ3-8.5): a tractor of min(k, longest held) pairs, and as many more pairs
  as make min(k, pairs held) — triples broken for them; else those pairs alone;
- triple-tractor of k (SJ3-8.6, 「要先跟两连拖（如8877）加两个单张，如无跟三条，如无再跟两对加两个单张」):
  a triple-tractor of min(k, longest held); else a tractor of min(k, longest held) (+ free);
  else his triples, at most k, the places left filled with pairs if he holds them; else k pairs
  … down to one pair; else free.

A throw (SJ3-8.7) asks the same of each component, triple-tractors first, then tractors,
triples, pairs, each from the cards not already committed to an earlier one; singles ask
nothing. The obligations chosen are the strongest, in that order, that the follower's cards can
meet all together; the play complies when its cards can meet them all together.
"""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from ..messages import Message
from ..violations import RuleViolation
from . import units, words
from .cards import Trump, class_name, remove_cards
from .combos import KIND_NAMES, PAIR, SINGLE, TRACTOR, TRIPLE, TRIPLE_TRACTOR, Component
from .following import follows_single, must_follow_class, must_play_lead_size

Option = tuple[units.Unit, ...]

RULES = {PAIR: "SJ3-8.3", TRIPLE: "SJ3-8.4", TRACTOR: "SJ3-8.5", TRIPLE_TRACTOR: "SJ3-8.6"}
THROW_RULE = "SJ3-8.7"
# SJ3-8.1: as many cards as were led, and the led class first (a discard or trump while holding
# it is a renege, SJ3-8.9). The count is checked alone first by the hand: it is never recorded.
COUNT_RULE = "SJ3-8.1"


def options(component: Component) -> tuple[Option, ...]:
    """The fall-backs one led component asks for, strongest first, ending with no obligation."""
    k = component.length
    pair, triple = (2, 1), (3, 1)
    if component.kind == SINGLE:
        return ((),)
    if component.kind == PAIR:
        return ((pair,), ())
    if component.kind == TRIPLE:
        return ((triple,), (pair,), ())
    if component.kind == TRACTOR:
        runs = tuple(((2, m),) + (pair,) * j for m in range(k, 1, -1) for j in range(k - m, -1, -1))
        return runs + _pairs(k)
    triple_runs = tuple(((3, m),) for m in range(k, 1, -1))
    pair_runs = tuple(((2, m),) for m in range(k, 1, -1))
    triples = tuple((triple,) * t + (pair,) * j for t in range(k, 0, -1)
                    for j in range(3 * (k - t) // 2, -1, -1))
    return triple_runs + pair_runs + triples + _pairs(k)


def _pairs(k: int) -> tuple[Option, ...]:
    return tuple(((2, 1),) * j for j in range(k, 0, -1)) + ((),)


def _in_order(lead_components: Sequence[Component]) -> list[Component]:
    """SJ3-8.7: triple-tractors, tractors, triples, pairs (longer, then higher first)."""
    rank = {TRIPLE_TRACTOR: 0, TRACTOR: 1, TRIPLE: 2, PAIR: 3}
    return sorted((c for c in lead_components if c.kind in rank),
                  key=lambda c: (rank[c.kind], -c.length, -c.top))


def required_units(lead_components: Sequence[Component], own: Sequence[str],
                   trump: Trump) -> tuple[units.Unit, ...]:
    """What ``own`` (the follower's cards of the led class, more than were led) must contain: for
    each led component in the order of SJ3-8.7 the first option that his cards can still meet
    together with those chosen before it."""
    ordered = _in_order(lead_components)
    if not ordered:
        return ()  # singles led: nothing but the class is owed
    state = units.columns(own, trump)
    committed: tuple[units.Unit, ...] = ()
    for component in ordered:
        for option in options(component):
            if units.fits(state, committed + option):
                committed += option
                break
    return committed


def rule_of(lead_components: Sequence[Component]) -> str:
    """The rule a follow to this lead answers to: the led component's, or SJ3-8.7 for a throw."""
    if len(lead_components) > 1:
        return THROW_RULE
    return RULES.get(lead_components[0].kind, COUNT_RULE)


def check_follow(lead_components: Sequence[Component], hand: Sequence[str], play: Sequence[str],
                 trump: Trump, player: str | Message = words.THE_PLAYER) -> None:
    """SJ3-8.1–8.7: is ``play`` (cards the player holds) a legal follow to the lead read as
    ``lead_components`` from ``hand`` (his cards before playing)? Raises RuleViolation naming the
    rule broken; a wrong number of cards is SJ3-8.1 (never a renege that can be recorded)."""
    key = lead_components[0]
    hand, play = tuple(hand), tuple(play)
    if len(lead_components) == 1:  # one component led (most leads): its cards are the lead
        lead = key.cards
        if len(lead) == 1 and len(play) == 1 and follows_single(lead[0], hand, play[0], trump):
            return  # a single led asks only for its class
    else:
        lead = tuple(card for comp in lead_components for card in comp.cards)
    cls = key.cls
    must_play_lead_size(lead, play, trump, player, rule=COUNT_RULE)
    own = trump.of_class(hand, cls)
    must_follow_class(cls, own, len(lead), play, trump, player, rule=COUNT_RULE)
    if len(own) <= len(lead):
        return
    if len(play) <= 3 and play.count(play[0]) == len(play):
        return  # a pair or triple of the class meets whatever two or three cards led ask for
    if len(lead_components) == 1 and key.kind in (PAIR, TRIPLE) and \
            _meets_set(key.size, own, play):
        return
    needed = required_units(lead_components, own, trump)
    if not needed or units.fits(units.columns(play, trump), needed):
        return
    rule = rule_of(lead_components)
    held = units.place(units.columns(own, trump), needed)
    blanks = {"player": player,
              "held": words.joined([trump.format_cards(cards) for cards in held]),
              "class_name": class_name(cls), "needed": _describe(needed),
              "led": words.joined([KIND_NAMES[c.kind] for c in lead_components], words.PLUS),
              "lead": trump.format_cards(lead), "play": trump.format_cards(play), "rule": rule}
    if len(needed) > 1:
        raise RuleViolation(rule, "{player} holds {held} in {class_name} and must play "
                                  "{needed} to follow the led {led} {lead}; the play {play} "
                                  "does not contain them ({rule})",
                                  **blanks)
    raise RuleViolation(rule, "{player} holds {held} in {class_name} and must play {needed} "
                              "to follow the led {led} {lead}; the play {play} does not "
                              "contain it ({rule})",
                              **blanks)


def _meets_set(width: int, own: tuple[str, ...], play: tuple[str, ...]) -> bool:
    """Whether ``play`` meets what a pair (SJ3-8.3) or triple (SJ3-8.4, ``width`` 3) led asks
    of ``own``, counted without the search of :func:`required_units`: the most identical cards
    he holds, up to ``width`` — a triple, else a pair, else nothing owed — must be in the play.
    False sends the play to the search, which names what is owed."""
    owed = min(width, max(map(own.count, set(own))))
    return owed < 2 or max(map(play.count, set(play))) >= owed


def _describe(needed: Sequence[units.Unit]) -> Message | str:
    """"a triple and 2 pairs", "a tractor of 3" …: the units owed, each kind counted."""
    return words.joined([_units(unit, k) for unit, k in Counter(needed).items()])


def _units(unit: units.Unit, k: int) -> Message:
    """``k`` units of one kind: "a pair", "2 triples", "a tractor of 3" …"""
    width, length = unit
    if length == 1 and width == 2:
        return Message("a pair") if k == 1 else words.pairs(k)
    if length == 1 and k == 1:  # the catalogue's "a triple" is Guandan's (三张), ours 三条
        return Message("a {kind}", kind=KIND_NAMES[TRIPLE])
    if length == 1:
        return Message("{n} triples", n=k)
    if width == 2:
        if k == 1:
            return Message("a tractor of {length}", length=length)
        return Message("{n} tractor of {length}s", n=k, length=length)
    if k == 1:
        return Message("a triple-tractor of {length}", length=length)
    return Message("{n} triple-tractor of {length}s", n=k, length=length)


def random_follow(lead_components: Sequence[Component], hand: Sequence[str], trump: Trump,
                  rng: random.Random) -> tuple[str, ...]:
    """A random follow that satisfies SJ3-8: the required units from the led class, then random
    cards (of the led class while any are left)."""
    n = sum(comp.size for comp in lead_components)
    cls = lead_components[0].cls
    own = [card for card in hand if trump.card_class(card) == cls]
    if len(own) <= n:
        others = [card for card in hand if trump.card_class(card) != cls]
        return tuple(own) + tuple(rng.sample(others, n - len(own)))
    needed = required_units(lead_components, own, trump)
    chosen = [card for cards in units.place(units.columns(own, trump), needed) or () for card in cards]
    rest = list(remove_cards(own, chosen))
    return tuple(chosen) + tuple(rng.sample(rest, n - len(chosen)))
