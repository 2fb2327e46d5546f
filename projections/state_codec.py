"""A folded state as data: JSON of the states' own fields, read back into the same objects, for
the checkpoint file (projections/checkpoints.py).

Data, not code: reading a checkpoint can only build values of the kinds listed here (a rule's
sentence, a ``Message`` or a ``Sentence`` of rules/messages.py, among them), and objects of the
frozen dataclasses, enums and named tuples of the rules (``rules.*``) and of
:class:`projections.streams.StreamState` — named in the text, looked up among those modules,
and filled with the fields their class has today (a class whose fields were renamed since is
refused). Whoever can write the file can make a read wrong, as with any cache; they cannot make
it run anything: a checkpoint is used only where the log's hash at its version is its own
(projections/streams.py), and anything else in it is refused with :class:`NotAState`.

The text is one JSON array ``[classes, value]``: ``classes`` lists each class once as
``[name, [field, ...]]``; a value is a JSON scalar, or an array whose first item says what it is
(a tuple, a list, a dict, an object of the n-th class, … : the constants below). A state shares structure (the same card tuple in a hand and in its trick), and the
caches' memory budget counts on that (projections/stream_cache.py), so an object met again is
written as ``["R", n]``, the n-th object built, and read back as that same object.

:func:`canonical` writes a state without those references and with sets in a fixed order: the
text whose digest says whether the folds' output moved (projections/fold_version.py).
"""
from __future__ import annotations

import dataclasses
import datetime
import enum
import functools
import importlib
import json
import re
import sys
import types
from typing import Any

from rules.messages import Message, Sentence

TUPLE, LIST, DICT, PROXY, FROZENSET, SET = "T", "L", "D", "P", "F", "S"
OBJECT, ENUM, NAMED, DATETIME, TIMEDELTA, REFERENCE = "O", "E", "N", "dt", "td", "R"
# a sentence of the rules with its blanks, and one as its English (rules/messages.py)
MESSAGE, SENTENCE = "M", "MS"
SCALARS = (str, int, float, bool, type(None))
# the modules whose classes a checkpoint may name
_MODULE_NAME = re.compile(r"(?!.*__)(rules(\.[a-z_][a-z0-9_]*)+|projections\.streams)")
_CLASS_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)*")


class NotAState(ValueError):
    """The text is not a state this code can read (damaged, foreign, or of other classes)."""


@functools.cache
def _field_names(cls: type) -> tuple[str, ...]:
    """The fields that make a value of ``cls``: those of its ``__init__`` (the others are
    derived from them, as a trump's table of card positions)."""
    return tuple(f.name for f in dataclasses.fields(cls) if f.init)


@functools.cache
def _builds_itself(cls: type) -> bool:
    """Whether a value of ``cls`` must be made by its ``__init__`` (it derives or checks
    something there) rather than by setting its fields."""
    return hasattr(cls, "__post_init__") or any(not f.init for f in dataclasses.fields(cls))


# --- writing ----------------------------------------------------------------------------------

class _Writer:
    def __init__(self, shared: bool):
        self.shared = shared            # whether an object met again is written as a reference
        self.classes: dict[type, int] = {}
        self.built: dict[int, int] = {}  # id of an object -> its number, in the order read back

    def class_number(self, cls: type) -> int:
        number = self.classes.get(cls)
        if number is None:
            number = self.classes[cls] = len(self.classes)
        return number

    def class_table(self) -> list:
        return [[f"{cls.__module__}:{cls.__qualname__}",
                 list(_field_names(cls)) if dataclasses.is_dataclass(cls) else []]
                for cls in self.classes]

    def value(self, value: Any) -> Any:
        if isinstance(value, SCALARS) and not isinstance(value, (enum.Enum, Sentence)):
            return value
        if self.shared:
            number = self.built.get(id(value))
            if number is not None:
                return [REFERENCE, number]
        written = self._compound(value)
        if self.shared:
            self.built[id(value)] = len(self.built)
        return written

    def _compound(self, value: Any) -> list:
        kind = type(value)
        if kind is tuple or kind is list:
            return [TUPLE if kind is tuple else LIST, *map(self.value, value)]
        if kind is dict or kind is types.MappingProxyType:
            return [DICT if kind is dict else PROXY,
                    *(x for pair in value.items() for x in map(self.value, pair))]
        if kind is frozenset or kind is set:
            items = value if self.shared else sorted(value, key=_order)
            return [FROZENSET if kind is frozenset else SET, *map(self.value, items)]
        if dataclasses.is_dataclass(kind):
            return [OBJECT, self.class_number(kind),
                    *(self.value(getattr(value, name)) for name in _field_names(kind))]
        if isinstance(value, enum.Enum):
            return [ENUM, self.class_number(kind), value.name]
        if isinstance(value, tuple) and hasattr(kind, "_fields"):
            return [NAMED, self.class_number(kind), *map(self.value, value)]
        if kind is datetime.datetime:
            return [DATETIME, value.isoformat()]
        if kind is datetime.timedelta:
            return [TIMEDELTA, value.days, value.seconds, value.microseconds]
        if kind is Message or kind is Sentence:
            message = value if kind is Message else value.message
            return [MESSAGE if kind is Message else SENTENCE, message.template,
                    *(x for pair in message.params.items() for x in map(self.value, pair))]
        raise TypeError(f"a state holds a {kind.__qualname__}, which a checkpoint cannot keep")


def _order(item: Any) -> str:
    """A set's items in a fixed order (a set's own order varies from process to process)."""
    return canonical(item)


def _text(writer: _Writer, state: Any) -> str:
    value = writer.value(state)
    return json.dumps([writer.class_table(), value], ensure_ascii=False, separators=(",", ":"),
                      allow_nan=False)


def encode(state: Any) -> bytes:
    """``state`` as UTF-8 JSON text."""
    return _text(_Writer(shared=True), state).encode("utf-8")


def canonical(state: Any) -> str:
    """``state`` as one text for equal states whatever their sharing: no references, sets in
    order (a digest's input, never read back)."""
    return _text(_Writer(shared=False), state)


# --- reading ----------------------------------------------------------------------------------

def _known_class(name: str, fields: list) -> type:
    """The class ``name`` ("module:qualified name") if a checkpoint may hold it and its fields
    are still ``fields``."""
    module_name, _, qualified = name.partition(":") if isinstance(name, str) else ("", "", "")
    if not _MODULE_NAME.fullmatch(module_name) or not _CLASS_NAME.fullmatch(qualified):
        raise NotAState(f"a checkpoint cannot hold a {name!r}")
    module = sys.modules.get(module_name)
    if module is None:  # one of our own modules, not yet imported by this process
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            raise NotAState(f"no module {module_name}") from None
    cls: Any = module
    for part in qualified.split("."):
        cls = getattr(cls, part, None)
    if not isinstance(cls, type) or cls.__module__ != module_name:
        raise NotAState(f"no class {name}")
    if dataclasses.is_dataclass(cls):
        if list(_field_names(cls)) != fields:
            raise NotAState(f"{name} has other fields now")
    elif not (issubclass(cls, enum.Enum) or (issubclass(cls, tuple) and hasattr(cls, "_fields"))):
        raise NotAState(f"a checkpoint cannot hold a {name}")
    return cls


class _Reader:
    def __init__(self, classes: list):
        if not isinstance(classes, list) or not all(
                isinstance(c, list) and len(c) == 2 for c in classes):
            raise NotAState("no class table")
        self.classes = [_known_class(name, fields) for name, fields in classes]
        self.built: list = []

    def value(self, written: Any) -> Any:
        if not isinstance(written, list):
            if isinstance(written, dict):
                raise NotAState("a JSON object is not a value of a state")
            return written
        if not written or not isinstance(written[0], str):
            raise NotAState("an array without its kind")
        tag = written[0]
        if tag == REFERENCE:
            number = written[1]
            if type(number) is not int or not 0 <= number < len(self.built):
                raise NotAState("a reference to no object read before")
            return self.built[number]
        value = self._compound(tag, written)
        self.built.append(value)
        return value

    def _compound(self, tag: str, written: list) -> Any:
        if tag == TUPLE:
            return tuple(map(self.value, written[1:]))
        if tag == LIST:
            return list(map(self.value, written[1:]))
        if tag in (DICT, PROXY):
            items = list(map(self.value, written[1:]))
            mapping = dict(zip(items[::2], items[1::2]))
            return mapping if tag == DICT else types.MappingProxyType(mapping)
        if tag in (FROZENSET, SET):
            items = map(self.value, written[1:])
            return frozenset(items) if tag == FROZENSET else set(items)
        if tag == OBJECT:
            return self._object(self._class(written[1]), written[2:])
        if tag == ENUM:
            return self._class(written[1])[written[2]]
        if tag == NAMED:
            return self._class(written[1])._make(map(self.value, written[2:]))
        if tag == DATETIME:
            return datetime.datetime.fromisoformat(written[1])
        if tag == TIMEDELTA:
            return datetime.timedelta(*written[1:4])
        if tag == MESSAGE:
            return self._message(written[1:])
        if tag == SENTENCE:
            return Sentence(self._message(written[1:]))
        raise NotAState(f"no kind of value {tag!r}")

    def _message(self, written: list) -> Message:
        if not written or not isinstance(written[0], str):
            raise NotAState("a message without its sentence")
        items = list(map(self.value, written[1:]))
        names = items[::2]
        if len(items) % 2 or not all(isinstance(name, str) for name in names):
            raise NotAState("a message's blanks are named")
        return Message(written[0], **dict(zip(names, items[1::2])))

    def _class(self, number: Any) -> type:
        if type(number) is not int or not 0 <= number < len(self.classes):
            raise NotAState("a class the text does not name")
        return self.classes[number]

    def _object(self, cls: type, written: list) -> Any:
        names = _field_names(cls)
        if len(written) != len(names):
            raise NotAState(f"{cls.__qualname__} with {len(written)} fields")
        values = dict(zip(names, map(self.value, written)))
        if _builds_itself(cls):
            return cls(**values)
        made = object.__new__(cls)
        if hasattr(made, "__dict__"):  # frozen: its fields set at once, as rules/frozen.py does
            object.__setattr__(made, "__dict__", values)
        else:
            for name, value in values.items():
                object.__setattr__(made, name, value)
        return made


def decode(blob: bytes) -> Any:
    """The state :func:`encode` wrote. Raises :class:`NotAState` for anything else."""
    try:
        classes, value = json.loads(blob)
        return _Reader(classes).value(value)
    except NotAState:
        raise
    except (ValueError, TypeError, IndexError, KeyError, AttributeError,
            RecursionError) as error:
        raise NotAState(f"not a checkpoint's text ({error})") from None
