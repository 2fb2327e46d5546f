"""Names that display as what they are (T-1.2, interpretation).

A name is read by people — on the pages, on a score sheet, in a ruling — and two names that look
the same must be the same name (T-1.6 tells entered players apart by their names). So a name
(a team's, a player's, an affiliation's, the tournament's, its venue's, a committee member's) is
refused when:

* nothing visible is left of it once its invisible characters are removed (white space, zero
  width spaces and joiners, variation selectors, fillers): ``"\\u200b\\u200b"`` is no name;
* it holds a character that changes the direction of the text around it — the bidirectional
  embeddings and overrides U+202A–U+202E, the isolates U+2066–U+2069, and the marks U+200E,
  U+200F, U+061C: ``"队\\u202eטסט"`` would be shown otherwise than it is written (the pages
  isolate each name in ``<bdi dir="auto">``, which is what mixed scripts need);
* it holds any other control or format character (Unicode categories Cc and Cf, and the line
  and paragraph separators Zl, Zp): a zero width space, a soft hyphen, a byte-order mark, a
  tab or a line break make a name look like another or break the line it is shown in.

A *text* — a ruling's words, a dispute's claim, a reason — is judged the same way, except that
it may hold line breaks and tabs (LF, CR, TAB, NEL, U+2028, U+2029): paragraphs are a text's
own.

Decided: the format characters some scripts and emoji need stay allowed where they are needed,
and nowhere else —

* U+200D ZERO WIDTH JOINER between two pictographic symbols (category So; an emoji modifier or
  a variation selector may follow the first): the emoji sequences 👨‍👩‍👧, 🏳️‍🌈, 👩🏽‍💻;
* U+200C ZERO WIDTH NON-JOINER and U+200D between two letters (or marks) of a script that
  joins or forms conjuncts (Arabic, Persian by it, Syriac, N'Ko, Mongolian and the Brahmic
  scripts of India and Sri Lanka): Persian and Indic names are written with them;
* the tag characters U+E0020–U+E007F in an emoji tag sequence after U+1F3F4 (the flags of
  England, Scotland, Wales).

A Chinese name never needs any of them: a joiner between two Han characters is refused.

The rule judges *new* events only (service/appending.py ``decide``, and the rows of a CSV file
before them): a stored event is a fact, and a log that already holds such a name replays and
reads as it always did. The text it judges has been normalised to NFC at the edge (the event
schemas, events/tournament_events.py ``DataSchema``), so what is stored is NFC.
"""
from __future__ import annotations

import unicodedata
from collections.abc import Iterator, Mapping

from .violations import RuleViolation

RULE = "T-1.2"

# Which members of an event's data are names (one line) and which are texts (line breaks
# allowed): a path of members, "*" for each item of a list. A member absent or null is skipped;
# a list of strings (players) is judged item by item.
NAMES: Mapping[str, tuple[str, ...]] = {
    "TournamentCreated": ("name", "venue"),
    "TeamRegistered": ("name", "players", "organisation", "leader"),
    "RulingRecorded": ("effects/*/member",),
    "ResultRecorded": ("score",),
}
TEXTS: Mapping[str, tuple[str, ...]] = {
    "RulingRecorded": ("text", "effects/*/reason"),
    "DisputeRaised": ("claim",),
    "DisputeResolved": ("text",),
    "TeamWithdrawn": ("reason",),
    "TournamentArchived": ("reason",),
    "RoundPaired": ("reason",),
    "TeamEventClosed": ("reason",),
    "MatchClockPaused": ("reason",),
    "PenaltyAssessed": ("reason",),
    "LevelPenaltyAssessed": ("reason",),
    "CoinPenaltyAssessed": ("reason",),
    "HandVoided": ("reason",),
    "IrregularityReported": ("detail",),
    "HandResultRecorded": ("penalties/*/reason",),
}

# the characters that change the direction of the text around them
_DIRECTION = frozenset({*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F, 0x061C})
# a text's own: line feed, carriage return, tab, next line, the line and paragraph separators
_LINE_BREAKS = frozenset("\n\r\t\x85\u2028\u2029")
_ZWNJ, _ZWJ = "\u200c", "\u200d"
_TAG_BASE = "\U0001F3F4"  # WAVING BLACK FLAG, before a flag's tag sequence
_TAGS = range(0xE0020, 0xE0080)
_TAG_END = "\U000E007F"
_VARIATION = frozenset({*range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)})
_MODIFIERS = range(0x1F3FB, 0x1F400)  # emoji skin tones
# invisible though not control or format characters: the combining grapheme joiner, Mongolian
# and Khmer invisibles, the Hangul fillers, the braille blank (and the variation selectors)
_BLANK = frozenset({0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, *range(0x180B, 0x1810), 0x2800,
                    0x3164, 0xFFA0}) | _VARIATION
# scripts that write ZWJ / ZWNJ inside words (the first word of a character's Unicode name)
_JOINING_SCRIPTS = frozenset({
    "ARABIC", "SYRIAC", "NKO", "MONGOLIAN", "DEVANAGARI", "BENGALI", "GURMUKHI", "GUJARATI",
    "ORIYA", "TAMIL", "TELUGU", "KANNADA", "MALAYALAM", "SINHALA"})


def check_name(field: str, text: str) -> None:
    """T-1.2: ``text``, the name at ``field``, displays as what it is; raises RuleViolation."""
    _check(field, text, allowed=frozenset())


def check_text(field: str, text: str) -> None:
    """T-1.2: ``text``, the words at ``field``, display as what they are; line breaks and tabs
    are allowed."""
    _check(field, text, allowed=_LINE_BREAKS)


def normalised(text: str) -> str:
    """The text in Unicode normalisation form C, as the edge stores it."""
    return unicodedata.normalize("NFC", text)


def event_texts(event_type: str, data: Mapping) -> Iterator[tuple[tuple, bool, str]]:
    """The names and texts of an event's ``data``: (path, is_text, value), the path a tuple of
    members and list indices (``("players", 1)``)."""
    for is_text, table in ((False, NAMES), (True, TEXTS)):
        for member in table.get(event_type, ()):
            for path, value in _found(data, tuple(member.split("/")), ()):
                yield path, is_text, value


def check_event(event_type: str, data: Mapping) -> None:
    """T-1.2 on every name and text of a new event; the first fault is raised, naming its
    member (``players/1``)."""
    for path, is_text, value in event_texts(event_type, data):
        (check_text if is_text else check_name)("/".join(map(str, path)), value)


def _found(value, members: tuple[str, ...], path: tuple) -> Iterator[tuple[tuple, str]]:
    if isinstance(value, str) and not members:
        yield path, value
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _found(item, members[1:] if members and members[0] == "*" else members,
                              path + (index,))
    elif isinstance(value, Mapping) and members and members[0] in value:
        yield from _found(value[members[0]], members[1:], path + (members[0],))


def _check(field: str, text: str, allowed: frozenset) -> None:
    if not any(_visible(c) for c in text):
        raise RuleViolation(RULE, "{field} is empty once its invisible characters are removed",
                            field=field)
    for index, c in enumerate(text):
        if ord(c) in _DIRECTION:
            raise RuleViolation(RULE, "{field} holds {char}, which changes the direction of the "
                                      "text around it: it would not display as it is written",
                                field=field, char=_named(c))
        if c in allowed or not _control(c) or _needed(text, index):
            continue
        raise RuleViolation(RULE, "{field} holds {char}, an invisible control or format "
                                  "character", field=field, char=_named(c))


def _control(c: str) -> bool:
    return unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp")


def _visible(c: str) -> bool:
    return not (c.isspace() or _control(c) or unicodedata.category(c) == "Zs"
                or ord(c) in _BLANK)


def _needed(text: str, index: int) -> bool:
    """The format character at ``index`` is one an emoji sequence or a joining script needs
    there (see the module's docstring)."""
    c = text[index]
    if ord(c) in _TAGS:
        start = index
        while start > 0 and ord(text[start - 1]) in _TAGS:
            start -= 1
        end = index
        while end < len(text) - 1 and ord(text[end + 1]) in _TAGS and text[end] != _TAG_END:
            end += 1
        return start > 0 and text[start - 1] == _TAG_BASE and text[end] == _TAG_END \
            and end > start
    if c not in (_ZWJ, _ZWNJ) or index == 0 or index == len(text) - 1:
        return False
    before, after = index - 1, text[index + 1]
    while before > 0 and (ord(text[before]) in _VARIATION or ord(text[before]) in _MODIFIERS):
        before -= 1
    first = text[before]
    if c == _ZWJ and unicodedata.category(first) == "So" and \
            unicodedata.category(after) == "So":
        return True
    return _joining(text[index - 1]) and _joining(after)


def _joining(c: str) -> bool:
    return unicodedata.category(c)[0] in "LM" and \
        unicodedata.name(c, "").split(" ", 1)[0] in _JOINING_SCRIPTS


def _named(c: str) -> str:
    """``U+202E RIGHT-TO-LEFT OVERRIDE``: a character no one can see, named."""
    name = unicodedata.name(c, "")
    return f"U+{ord(c):04X} {name}" if name else f"U+{ord(c):04X}"
