"""The words of the Shengji refusals that are not sentences of their own — a count of cards or
pairs, a seat, a list of things — each a :class:`~rules.messages.Message`, so that a sentence
that takes one as a blank is read whole in its reader's language (rules/messages.py): nothing
here is English glued into a template. A plural is a second template, chosen by the count; a
list is a template of two blanks (``"{a} and {b}"``) applied pair by pair."""
from __future__ import annotations

from collections.abc import Sequence

from ..messages import N_, Message

AND = N_("{a} and {b}")          # "3H 3H 4H 4H and 9S 9S TS TS", "2 and 3"
PLUS = N_("{a} + {b}")           # the parts of a throw: "triple + pair"
SEMICOLON = N_("{a}; {b}")       # clauses: "too many …; missing …"
COMMA = N_("{a}, {b}")           # items: "QH ×3 (the decks hold 2), …"


def joined(parts: Sequence, template: str = AND) -> Message | str:
    """``parts`` (words, messages, card codes) as one phrase, ``template`` applied pairwise:
    ``[x, y, z]`` -> ``"x and y and z"``. One part is itself; none, empty."""
    if not parts:
        return ""
    phrase = parts[0]
    for part in parts[1:]:
        phrase = Message(template, a=phrase, b=part)
    return phrase


def seat(number: int) -> Message:
    """A player named by his seat, as the follow rules name him: "seat 2"."""
    return Message("seat {seat}", seat=number)


THE_PLAYER = Message("the player")   # a player not named (the follow rules' default)


def cards(n: int) -> Message:
    """ "1 card", "3 cards"."""
    if n == 1:
        return Message("{n} card", n=n)
    return Message("{n} cards", n=n)


def pairs(n: int) -> Message:
    """ "1 pair", "2 pairs"."""
    if n == 1:
        return Message("{n} pair", n=n)
    return Message("{n} pairs", n=n)
