"""Who wins a Shengji trick (shengji-2deck.md SJ2-10, shengji-3deck.md SJ3-9): the plays that fit
the lead's shape ranked by their key component, or in SJ3 by their components in key order."""
from __future__ import annotations

from collections.abc import Sequence

from . import units
from .cards import TRUMP, Trump
from .combos import Component, _canonical_shape, decompose, shape_of

_SETS = {((2, 1),): 2, ((3, 1),): 3}  # the units of a pair or a triple led: its size


def _key_top(cards: Sequence[str], size: int, needed: tuple[units.Unit, ...],
             trump: Trump) -> int | None:
    """SJ2-10.1/10.2, SJ3-9.1/9.2: if the cards (one class) can be arranged into the lead's
    shape (``size`` cards, ``needed`` units: :attr:`Shape.units`) — a tractor serving as its
    pairs, a triple as a pair and a single, a pair as two singles, never the reverse — the top
    place of the best key component (the first of the units, else the highest single) of such
    an arrangement; else None."""
    if len(cards) != size:
        return None
    if not needed:
        return max(map(trump.run_pos, cards))
    if _SETS.get(needed) == size:  # a pair or triple led: a play ranks by its place if alike
        return trump.run_pos(cards[0]) if cards.count(cards[0]) == size else None
    return units.best_top(units.columns(cards, trump), needed[0], needed[1:])


def trick_winner(plays: Sequence[Sequence[str]], trump: Trump,
                 lead_components: Sequence[Component] | None = None,
                 in_order: bool = False) -> int:
    """SJ2-10.1–10.3 / SJ3-9: index of the play that wins the trick; ``plays[0]`` is the
    effective lead, read as ``lead_components`` (SJ3: the stated structure) or else by its
    canonical decomposition (SJ2-7.3). A play competes only if it is all of the led class or all
    trump and fits the lead's shape; it beats the winner if it is trump against a non-trump
    winner, or of the winner's class and strictly higher (equal: the earlier play keeps the
    trick) — by its key component (SJ2-10.2), or with ``in_order`` (SJ3, seed 十六:
    「先比较拖拉机，三条，单张的级别大小」) by its components in key order and then its singles: the
    places of its best arrangement into the lead's shape, compared as tuples (the key component
    first, then the next one, …)."""
    lead = tuple(plays[0])
    if len(lead) == 1:  # most tricks: a single led, ranked alike in SJ3 (its tops are its place)
        return _single_winner(plays, trump, trump.card_class(lead[0]))
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
        if in_order and _SETS.get(needed) != size:  # SJ3: its components in key order
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
