"""Following in Shengji (shengji-2deck.md SJ2-9): as many cards as were led, of the led class while
any are held, the tractors and then the pairs the lead calls for. SJ3's follow obligations
(SJ3-8) are in ``obligations.py``, which shares the count and class rules here."""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ..messages import Message
from ..violations import RuleViolation
from . import words
from .cards import Trump, class_name, missing_cards
from .combos import (
    TRACTOR,
    Component,
    _best_runs,
    _pair_cards,
    _pair_positions,
    _pair_total,
    _place_runs,
    _take_run,
    decompose,
)


def must_play_lead_size(lead: Sequence[str], play: Sequence[str], trump: Trump,
                        player: str | Message, rule: str = "SJ2-9.1") -> None:
    """SJ2-9.1 / SJ3-8.1: each player plays exactly as many cards as were led."""
    if len(play) != len(lead):
        raise RuleViolation(rule, "{player} must play exactly {cards}, as many as the lead "
                                  "{lead}, but played {played} ({rule})",
                                  player=player, cards=words.cards(len(lead)),
                                  lead=trump.format_cards(lead), played=len(play), rule=rule)


def must_follow_class(cls: str, own: Sequence[str], n: int, play: Sequence[str], trump: Trump,
                      player: str | Message, rule: str = "SJ2-9.2") -> None:
    """SJ2-9.2 / SJ3-8.1: with at most n cards of the led class play all of them; otherwise play
    n cards of that class."""
    name = class_name(cls)
    if len(own) <= n:
        left_out = missing_cards(play, own)
        if left_out:
            raise RuleViolation(rule, "{player} holds only {held} in {class_name} ({own}), "
                                      "no more than the {led} led, and must play all of "
                                      "them; the play {play} leaves out {left_out} ({rule})",
                                      player=player, held=words.cards(len(own)),
                                      class_name=name, own=trump.format_cards(own),
                                      led=words.cards(n), play=trump.format_cards(play),
                                      left_out=trump.format_cards(left_out), rule=rule)
        return
    off = [card for card in play if trump.card_class(card) != cls]
    if off:
        raise RuleViolation(rule, "{player} holds {held} in {class_name}, more than the {led} "
                                  "led, and must play all {n} from {class_name}; the play "
                                  "{play} includes {off} ({rule})",
                                  player=player, held=words.cards(len(own)), class_name=name,
                                  led=words.cards(n), n=n, play=trump.format_cards(play),
                                  off=trump.format_cards(off), rule=rule)


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
                         trump: Trump, player: str | Message) -> None:
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
    led_cards = words.joined([trump.format_cards(comp.cards) for comp in led])
    if len(led) > 1:
        led_tractors = Message("the led tractors {cards}", cards=led_cards)
    else:
        led_tractors = Message("the led tractor {cards}", cards=led_cards)
    blanks = {"player": player, "held": words.joined([trump.format_cards(run) for run in held]),
              "class_name": class_name(lead_components[0].cls),
              "lengths": words.joined(lengths), "led": led_tractors,
              "play": trump.format_cards(play)}
    if len(held) > 1:
        raise RuleViolation("SJ2-9.4", "{player} holds the tractors {held} in {class_name} and "
                                       "must play tractors of {lengths} pairs to follow {led}; "
                                       "the play {play} does not contain them (SJ2-9.4)",
                                       **blanks)
    raise RuleViolation("SJ2-9.4", "{player} holds the tractor {held} in {class_name} and must "
                                   "play a tractor of {lengths} pairs to follow {led}; the play "
                                   "{play} does not contain one (SJ2-9.4)",
                                   **blanks)


def must_follow_pairs(lead_components: Sequence[Component], own: Sequence[str], play: Sequence[str],
                      trump: Trump, player: str | Message) -> None:
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
    raise RuleViolation("SJ2-9.3", "{player} holds {held} in {class_name} ({held_cards}) "
                                   "and must play at least {need} to follow the {led} "
                                   "led; the play {play} contains {have} (SJ2-9.3)",
                                   player=player, held=words.pairs(held),
                                   class_name=class_name(lead_components[0].cls),
                                   held_cards=trump.format_cards(held_cards),
                                   need=words.pairs(need), led=words.pairs(led_pairs),
                                   play=trump.format_cards(play), have=have)


def check_follow(lead: Sequence[str], hand: Sequence[str], play: Sequence[str], trump: Trump,
                 player: str | Message = words.THE_PLAYER) -> None:
    """SJ2-9.1–9.4: is ``play`` (cards the player holds) a legal follow to the effective ``lead``
    from ``hand`` (his cards before playing)? Raises RuleViolation with the first rule broken;
    the tractor rule is checked before the pair rule (SJ2 Ex 3)."""
    lead, hand, play = tuple(lead), tuple(hand), tuple(play)
    if len(lead) == 1 and len(play) == 1 and follows_single(lead[0], hand, play[0], trump):
        return
    components = decompose(lead, trump)
    if not components:
        raise ValueError("there is no lead to follow")
    cls = components[0].cls
    must_play_lead_size(lead, play, trump, player)
    own = trump.of_class(hand, cls)
    must_follow_class(cls, own, len(lead), play, trump, player)
    if len(own) <= len(lead):
        return
    if len(lead) == 2 and play[0] == play[1]:  # two led, followed by a pair: no tractor owed
        return
    must_follow_tractors(components, own, play, trump, player)
    must_follow_pairs(components, own, play, trump, player)


def follows_single(led: str, hand: tuple[str, ...], card: str, trump: Trump) -> bool:
    """Whether one card held follows a single led (most follows) by SJ2-9.2: of the led class,
    or from a hand void in it (a single calls for no pair or tractor, SJ2-9.3/9.4, nor for
    anything else in SJ3-8). False sends the play to the full check, which names the rule
    broken."""
    cls = trump.card_class(led)
    if card not in hand:
        return False
    return trump.card_class(card) == cls or not trump.of_class(hand, cls)
