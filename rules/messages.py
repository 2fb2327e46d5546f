"""A refusal's words: a sentence of English with named blanks, filled when it is read.

The sentence with its blanks (``"match {match_id!r} has already started"``) is the message id
of the project's catalogues (``pybabel extract`` finds it in ``RuleViolation(rule, "…")`` and
``Message("…")`` calls); ``str()`` fills the English, and the edge that knows its reader's
language fills the translation with the same values. The rules stay pure: they never ask
which language anyone reads."""
from __future__ import annotations

from typing import Callable


def N_(text: str) -> str:
    """Marks a sentence for the catalogues where it is written (``pybabel extract`` finds it);
    it is translated where it is read."""
    return text


class Message:
    __slots__ = ("template", "params")

    def __init__(self, template: str, /, **params) -> None:
        self.template = template
        self.params = params

    def __str__(self) -> str:
        return self.translated(lambda text: text)

    def __repr__(self) -> str:
        return f"Message({str(self)!r})"

    def __eq__(self, other) -> bool:
        return isinstance(other, Message) and (self.template, self.params) == \
            (other.template, other.params)

    def __hash__(self) -> int:
        return hash(self.template)

    def translated(self, gettext: Callable[[str], str]) -> str:
        """The sentence in the language of ``gettext``, its blanks filled, a blank that is a
        message itself in the same language (a template without blanks is not formatted, so its
        braces are its own)."""
        text = gettext(self.template)
        if not self.params:
            return text
        return text.format(**{name: _said(value, gettext) for name, value in self.params.items()})


def _said(value, gettext: Callable[[str], str]):
    if isinstance(value, Sentence):
        value = value.message
    return value.translated(gettext) if isinstance(value, Message) else value


class Sentence(str):
    """A message as text: its English — what a comparison, a digest or a stream's frame written
    as plain JSON has — carrying the message, which the edge that knows its reader's language
    says in it (service/i18n.py). The rules keep their words in a state as one (a flag, a
    penalty's reason), and the views give them as one: it compares, hashes and prints as its
    English, and a checkpoint keeps its message (projections/state_codec.py)."""
    __slots__ = ("message",)

    def __new__(cls, message: Message) -> Sentence:
        made = super().__new__(cls, str(message))
        made.message = message
        return made

    def __reduce__(self):
        return Sentence, (self.message,)


def sentence(text: Message | str | None) -> Sentence | str | None:
    """``text`` for a view: a message as a :class:`Sentence`; anything else (someone's own
    words, a code, None) as it is."""
    return Sentence(text) if isinstance(text, Message) else text
