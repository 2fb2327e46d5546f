"""The event catalogue: every event type, the marshmallow schema of its ``data``, its schema
version, the kind of stream it lives in, and whether a client may post it.

Upcasting convention
--------------------
A stored event is never rewritten: it keeps the ``data`` and ``schema_version`` it was written
with (that is what its hash covers). When a type's data changes shape, bump its
``schema_version`` and add one *upcaster* per step: ``upcasters[n]`` is a pure function that turns
version-``n`` data into version-``n+1`` data. Readers call :meth:`Catalogue.upcast`, which applies
the steps in order, so projections only ever see the current shape. New events are always written
at the current version.
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from typing import Callable, Iterable, Mapping

from marshmallow import Schema, ValidationError, validate

from rules.messages import Message

from .envelope import Record

STREAM_PATTERN = r"^[a-z][a-z0-9]*-[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$"


class FullMatch(validate.Validator):
    """A regular-expression validator over the whole value. (marshmallow's Regexp uses
    ``re.match``, whose ``$`` also matches before a final newline: ``"t1\n"`` would pass.)
    The pattern keeps its ``^…$`` so that the same text serves in the OpenAPI spec."""

    def __init__(self, pattern: str, error: str):
        self.regex, self.error = re.compile(pattern.removeprefix("^").removesuffix("$")), error

    def __call__(self, value: str) -> str:
        if not self.regex.fullmatch(value):
            raise ValidationError(self.error)
        return value


STREAM_NAME = FullMatch(STREAM_PATTERN, "must look like <kind>-<id>, e.g. tournament-t1 or match-m17")


class UnknownEventType(KeyError):
    def __init__(self, name: str):
        super().__init__(name)
        self.name = name


@dataclass(frozen=True)
class EventType:
    name: str
    schema: type[Schema]
    # the prefixes of the streams it may live in; "tournament" means exactly tournament-<tid>
    stream_kinds: tuple[str, ...]
    schema_version: int = 1
    postable: bool = True  # False: recorded by the backend only (derived facts, route-made events)
    upcasters: Mapping[int, Callable[[dict], dict]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # Every stored version must be liftable, or reading an old event would fail later.
        missing = [v for v in range(1, self.schema_version) if v not in self.upcasters]
        if missing:
            raise ValueError(f"{self.name}: no upcaster from schema version(s) {missing}")

    def load(self, data: object) -> dict:
        """Validated ``data``; raises marshmallow's ValidationError naming each field at fault."""
        return _schema_instance(self.schema).load(data)

    def stream_error(self, stream: str, tournament_id: str) -> str | None:
        """Why ``stream`` cannot hold this type in this tournament, or None."""
        refusal = self.stream_refusal(stream, tournament_id)
        return None if refusal is None else str(refusal)

    def stream_refusal(self, stream: str, tournament_id: str) -> Message | None:
        """:meth:`stream_error` as a message with blanks, for the reader's language."""
        places = []
        for kind in self.stream_kinds:
            if kind == "tournament":
                wanted = tournament_stream(tournament_id)
                if stream == wanted:
                    return None
                places.append(Message("stream {stream!r}", stream=wanted))
            elif kind == "match":
                prefix = match_stream_prefix(tournament_id)
                if stream.startswith(prefix) and len(stream) > len(prefix):
                    return None
                places.append(Message("a {prefix}<match id> stream", prefix=prefix))
            else:
                if stream.startswith(kind + "-"):
                    return None
                places.append(Message("a {kind}-<id> stream", kind=kind))
        listed = places[-1]
        for place in reversed(places[:-1]):
            listed = Message("{first} or {rest}", first=place, rest=listed)
        return Message("{event_type} lives in {places}", event_type=self.name, places=listed)


@functools.cache
def _schema_instance(schema: type[Schema]) -> Schema:
    """One instance per schema class: building one deep-copies its fields (~0.2 ms), and
    ``load`` keeps no state between calls, so an instance serves every thread."""
    return schema()


def tournament_stream(tournament_id: str) -> str:
    return f"tournament-{tournament_id}"


def match_stream_prefix(tournament_id: str) -> str:
    return f"match-{tournament_id}:"


def match_stream(tournament_id: str, match_id: str) -> str:
    """A match's stream names its tournament: match ids repeat across tournaments (R1-1...),
    stream names may not (a stream belongs to one tournament)."""
    return f"{match_stream_prefix(tournament_id)}{match_id}"


class Catalogue:
    """The event types, and the names of the derived facts: what the backend computes from the
    log (a trick's winner, a hand's result) is never an event a client may post; ``derived``
    maps each such name to the read that shows it."""

    def __init__(self, types: Iterable[EventType], derived: Mapping[str, str] | None = None):
        self._types = {t.name: t for t in types}
        self.derived = dict(derived or {})

    def get(self, name: str) -> EventType:
        try:
            return self._types[name]
        except KeyError:
            raise UnknownEventType(name) from None

    def names(self) -> list[str]:
        return sorted(self._types)

    def __iter__(self):
        return iter(self._types.values())

    def upcast(self, record: Record) -> dict:
        """The record's data in the current shape of its type."""
        data = record.data_dict
        event_type = self._types.get(record.type)
        if event_type is None:
            return data
        for version in range(record.schema_version, event_type.schema_version):
            data = event_type.upcasters[version](data)
        return data
