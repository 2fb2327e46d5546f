"""The name of each section of the rules, by the prefix of its rule IDs (``SJ2-9`` for
SJ2-9.2): a refusal names its rule in words as well as by its ID. The names are the headings
of ``shared/rules/``; where a heading gives the seed's Chinese word, the Chinese catalogue says
that word (``tests/test_glossary.py`` checks it)."""
from __future__ import annotations

from .messages import N_

TITLES = {
    "T-1": N_("The tournament"),
    "T-2": N_("Knockout by drawing lots"),
    "T-3": N_("Seed 000: the Ottawa friendship tournament"),
    "T-4": N_("Seed 002: the 东北同乡会 tournament"),
    "T-5": N_("Seed 001: the Guandan invitational"),
    "T-6": N_("The team event"),
    "T-7": N_("Seed 003: the Sichuan mahjong competition"),
    "T-8": N_("Mahjong coin sessions"),
    "T-9": N_("Result-only events"),
    "T-10": N_("Derived standings"),
    "SJ2-1": N_("Equipment and deal"),
    "SJ2-2": N_("Levels"),
    "SJ2-3": N_("Trump and the order of cards"),
    "SJ2-4": N_("Declaring trump and overcalling"),
    "SJ2-5": N_("The dealer"),
    "SJ2-6": N_("The kitty"),
    "SJ2-7": N_("Combinations"),
    "SJ2-8": N_("Leading and throwing"),
    "SJ2-9": N_("Following"),
    "SJ2-10": N_("Winning the trick"),
    "SJ2-11": N_("Points and the kitty"),
    "SJ2-12": N_("Penalties"),
    "SJ2-13": N_("Hand result and level change"),
    "SJ2-14": N_("Match result"),
    "SJ2-15": N_("Conduct and other rules"),
    "SJ2-16": N_("Hand lifecycle"),
    "SJ2-18": N_("Settings"),
    "SJ3-1": N_("Equipment and deal"),
    "SJ3-2": N_("Levels and trump"),
    "SJ3-3": N_("Revealing trump and counter-revealing"),
    "SJ3-4": N_("Dealer rotation"),
    "SJ3-5": N_("Kitty and leading"),
    "SJ3-6": N_("Combinations"),
    "SJ3-7": N_("Throws"),
    "SJ3-8": N_("Following"),
    "SJ3-9": N_("Winning the trick"),
    "SJ3-10": N_("Points, kitty capture and result"),
    "SJ3-11": N_("Penalties"),
    "SJ3-12": N_("Match"),
    "SJ3-13": N_("Hand lifecycle"),
    "SJ3-15": N_("Settings"),
    "GD-1": N_("Equipment, seats, levels"),
    "GD-2": N_("Card order and wildcards"),
    "GD-3": N_("Combinations"),
    "GD-4": N_("Comparing combinations"),
    "GD-5": N_("Playing a hand"),
    "GD-6": N_("Result and upgrade"),
    "GD-7": N_("Tribute and return"),
    "GD-8": N_("Shuffle, cut and draw"),
    "GD-9": N_("Time limits"),
    "GD-10": N_("Conduct"),
    "GD-11": N_("Match"),
    "GD-12": N_("Hand lifecycle"),
    "GD-14": N_("Settings"),
    "MJO-1": N_("Tiles and seats"),
    "MJO-2": N_("Dealer and deal"),
    "MJO-3": N_("Turn"),
    "MJO-4": N_("Claims"),
    "MJO-5": N_("Winning"),
    "MJO-6": N_("Exhaustive draw"),
    "MJO-7": N_("Payments"),
    "MJO-8": N_("Time limits"),
    "MJO-9": N_("Other rules"),
    "MJO-10": N_("Hand lifecycle"),
    "MJO-11": N_("Settings"),
    "MJS-1": N_("Tiles, seats, dealer"),
    "MJS-2": N_("Before play"),
    "MJS-3": N_("Turn, claims, kongs"),
    "MJS-4": N_("Bloody battle"),
    "MJS-5": N_("Winning hands"),
    "MJS-6": N_("Hand value"),
    "MJS-7": N_("Kong payments"),
    "MJS-8": N_("Exhaustive draw"),
    "MJS-9": N_("Irregular hands"),
    "MJS-10": N_("Conduct penalties"),
    "MJS-11": N_("Hand lifecycle"),
    "MJS-12": N_("Settings"),
}


def section_of(rule: str) -> str:
    """``SJ2-9`` for ``SJ2-9.2`` (and for ``SJ2-9``)."""
    return rule.split(".")[0]


def title_of(rule: str) -> str | None:
    """The English name of the section that holds ``rule``, or None for an ID of no section."""
    return TITLES.get(section_of(rule))
