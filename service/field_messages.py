"""What a refused field says (``errors[].message`` of a 400), in the reader's language.

marshmallow says why a value is refused in sentences of its own — the fields'
``default_error_messages`` (``Not a valid integer.``), the schema's (``Unknown field.``), the
validators' templates with blanks (``Must be greater than or equal to {min}.``, ``Must be one
of: {choices}.``) — and our schemas give theirs to validators and to ``ValidationError``
(events/, service/). marshmallow fills a template with ``str.format`` before it raises, so what
reaches the edge is English text. Each of those sentences is written here once, as a template of
the catalogue with marshmallow's blanks; a message is read back into its template and the values
of its blanks (:func:`field_message`), and the problem says it in the reader's language
(service/problems.py). The English is the message as it came, byte for byte; text that is no
template here stays as it is. (Overriding marshmallow's messages where they are made would mean
changing a library's class attributes before any schema is built, and every schema's own
sentences as well: reading them back leaves the schemas as they are.)

tests/api/test_field_messages_in_both_languages.py walks the schemas and posts a fault of every
field and validator: a sentence added to a schema without its template here fails there.
"""
from __future__ import annotations

import functools
import re

from rules.messages import N_, Message

MARSHMALLOW = (
    # the fields' default_error_messages, the schema's (unknown, type)
    N_("Missing data for required field."),
    N_("Field may not be null."),
    N_("Invalid value."),
    N_("Invalid type."),
    N_("Invalid input type."),
    N_("Unknown field."),
    N_("Not a valid string."),
    N_("Not a valid utf-8 string."),
    N_("Not a valid number."),
    N_("Not a valid integer."),
    N_("Number too large."),
    N_("Special numeric values (nan or infinity) are not permitted."),
    N_("Not a valid boolean."),
    N_("Not a valid list."),
    N_("Not a valid tuple."),
    N_("Not a valid mapping type."),
    N_("Not a valid UUID."),
    N_("Not a valid URL."),
    N_("Not a valid email address."),
    # the validators' (Range composes its sentence of the bounds it has, open or closed)
    N_("Must be greater than or equal to {min}."),
    N_("Must be greater than {min}."),
    N_("Must be less than or equal to {max}."),
    N_("Must be less than {max}."),
    N_("Must be greater than or equal to {min} and less than or equal to {max}."),
    N_("Must be greater than or equal to {min} and less than {max}."),
    N_("Must be greater than {min} and less than or equal to {max}."),
    N_("Must be greater than {min} and less than {max}."),
    N_("Shorter than minimum length {min}."),
    N_("Longer than maximum length {max}."),
    N_("Length must be between {min} and {max}."),
    N_("Length must be {equal}."),
    N_("Must be one of: {choices}."),
    N_("Must be equal to {other}."),
    N_("String does not match expected pattern."),
    N_("Invalid input."),
)

OURS = (
    # events/: the forms of ids, cards, tiles, rules, times
    N_("must be 1-{most} letters, digits, '_', '.' or '-', starting with a letter or digit"),
    N_("must look like <kind>-<id>, e.g. tournament-t1 or match-m17"),
    N_("must be a card: a rank 2-9, T, J, Q, K or A then a suit S, H, D or C (e.g. TH, AS), "
       "or BJ / SJ for the jokers"),
    N_("must be a tile: 1m-9m, 1p-9p, 1s-9s, a wind E S W N or a dragon C F P"),
    N_("must be a rule ID of the rules specification, e.g. {example}"),
    N_("must be a rule ID of the rules specification (e.g. SJ2-12.4) or \"discretion\""),
    N_("must be an event id (a UUID in canonical form)"),
    N_("must be an entrant (team id)"),
    N_("must be a date, YYYY-MM-DD"),
    N_("must be a time zone of the IANA database, such as Asia/Shanghai or America/Toronto"),
    N_("must be a UTC time as the server records it, YYYY-MM-DDTHH:MM:SS.ffffffZ"),
    N_("must be one of {choices} (T-1.1)"),
    # events/: the members that go together
    N_("required when purpose is {purpose}"),
    N_("each candidate must be a seat, 0-3"),
    N_("must be a seat, 0-3"),
    N_("each candidate must be a side, \"A\" or \"B\""),
    N_("must be a side, \"A\" or \"B\""),
    N_("each candidate must be an entrant (team id)"),
    N_("the live wall goes with hands, not walls"),
    N_("the wall-break throws go with walls"),
    N_("give either hands (and optionally wall) or walls (and optionally dice), not both or "
       "neither"),
    N_("required for a win on a discard (selfDrawn false)"),
    N_("only a win on a discard (selfDrawn false) names the discarder"),
    N_("required when offence is otherHand"),
    N_("only naming another player's hand has a victim"),
    N_("required in a {kind} effect"),
    N_("not a member of a {kind} effect"),
    N_("a void effect names positions, or a range from-to, not both"),
    N_("a range names both from and to"),
    N_("must not be before from"),
    N_("a penalty is counted in one of points, levels or coins"),
    N_("a penalty is against a side (card games) or a seat (mahjong), one of them"),
    N_("a penalty is a positive amount"),
    N_("a level adjustment moves a side by at least one level"),
    N_("a hand is a hand of a match: name match_id"),
    N_("name the ruling that resolves the dispute, or say noChange: true (one of them)"),
    # service/: the envelope, the webhooks, the live filter
    N_("must be a UUID in canonical form, e.g. 0b4f6a7e-8f1c-4b7a-9c7e-2f0d5b9a1c33"),
    N_("must be a whole number >= 0, \"no_stream\" or \"any\""),
    N_("must not be negative"),
    N_("is set from the bearer token; leave it out"),
    N_("is set by the server's timer on the events it appends; leave it out"),
    N_("unknown event type(s): {types}"),
    N_("no stream {stream} in tournament {tournament}"),
    N_("{stream} is not a stream of tournament {tournament} ({tournament_stream} or "
       "{match_prefix}<match>)"),
    N_("must be at most {most} characters"),
    # i18n: {error} is Python's own words on the address
    N_("is not a URL: {error}"),
    N_("must be an http or https URL with a host"),
    N_("must not hold a user name or password (the signature authenticates)"),
    # i18n: {error} is the resolver's own words
    N_("host {host} does not resolve ({error})"),
    N_("host {host} is {address}, not a public address (private, loopback, link-local, "
       "multicast and reserved addresses are refused)"),
)

TEMPLATES = MARSHMALLOW + OURS
_BLANK = re.compile(r"\{(\w+)\}")


def field_message(message: object) -> object:
    """``message`` as a :class:`Message` of its template, said in the reader's language where
    the problem is answered; a message that is no template's (or is a Message already) as it
    is."""
    if not isinstance(message, str):
        return message
    return _read_back(message) or message


def said_in_the_readers_language(errors: list[dict]) -> list[dict]:
    """The faults of a 400, each plain-text message made a :class:`Message` of the catalogue."""
    return [{**e, "message": field_message(e["message"])} if "message" in e else e
            for e in errors]


@functools.lru_cache(maxsize=4096)  # a batch repeats the same few messages
def _read_back(text: str) -> Message | None:
    exact, with_blanks = _patterns()
    if text in exact:
        return Message(text)
    for template, pattern in with_blanks:
        found = pattern.fullmatch(text)
        if found:
            message = Message(template, **found.groupdict())
            return message if str(message) == text else None
    return None


@functools.cache
def _patterns() -> tuple[frozenset[str], list[tuple[str, re.Pattern]]]:
    """The templates without blanks, and those with, as patterns, the one with the most words
    of its own first (``Must be greater than or equal to {min} and less than or equal to
    {max}.`` before ``Must be greater than or equal to {min}.``, which fits it too)."""
    exact = frozenset(t for t in TEMPLATES if not _BLANK.search(t))
    with_blanks = sorted((t for t in TEMPLATES if _BLANK.search(t)),
                         key=lambda t: -len(_BLANK.sub("", t)))
    return exact, [(t, _pattern(t)) for t in with_blanks]


def _pattern(template: str) -> re.Pattern:
    parts = _BLANK.split(template)  # words, blank, words, blank, …, words
    return re.compile("".join(re.escape(part) if n % 2 == 0 else f"(?P<{part}>.+?)"
                              for n, part in enumerate(parts)), re.DOTALL)
