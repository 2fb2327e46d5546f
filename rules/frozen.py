"""The next value of a frozen dataclass with some fields changed, fast enough for a fold step.

Every game state is a frozen dataclass, and every event makes a few new ones from the last
(``hand`` → ``match``). :func:`dataclasses.replace` builds each through its generated
``__init__`` with every field passed by keyword, which made it the largest single cost of a
rebuild (bench/fold.py). :func:`evolve` copies the old value's fields and sets the changed ones:
the same new value, the old one untouched — states stay immutable, as the caches and checkpoints
that keep references to them need.

It falls back to :func:`dataclasses.replace` for a class whose ``__init__`` does more than store
its fields (a ``__post_init__`` deriving or checking something, a field with ``init=False``), or
that caches derived values in its instances (``functools.cached_property``), where copying would
keep a stale derived value.
"""
from __future__ import annotations

import dataclasses
import functools
from typing import TypeVar

T = TypeVar("T")

# class -> its field names when a copy is the same as a new value, None when it is not
_COPYABLE: dict[type, frozenset[str] | None] = {}


def _copyable_fields(cls: type) -> frozenset[str] | None:
    fields = dataclasses.fields(cls)
    if hasattr(cls, "__post_init__") or hasattr(cls, "__slots__") or \
            any(not f.init for f in fields) or _caches_in_its_dict(cls):
        return None
    return frozenset(f.name for f in fields)


def _caches_in_its_dict(cls: type) -> bool:
    """Whether the class keeps derived values in its instances' dict (``cached_property``): a
    copy of the dict would carry the old value's into the new one."""
    return any(isinstance(member, functools.cached_property)
               for klass in cls.__mro__ for member in vars(klass).values())


_UNSEEN = object()
_new = object.__new__
_set_attribute = object.__setattr__


def evolve(value: T, **changes) -> T:
    """``value`` with ``changes`` (field name → new value): :func:`dataclasses.replace`'s
    result, made by copying (the old value's field dict copied at once, the changes set in the
    copy, the copy made the new value's)."""
    cls = type(value)
    names = _COPYABLE.get(cls, _UNSEEN)
    if names is _UNSEEN:
        names = _COPYABLE[cls] = _copyable_fields(cls)
    if names is None or not names.issuperset(changes):
        return dataclasses.replace(value, **changes)  # its own errors for an unknown field
    state = value.__dict__.copy()
    state.update(changes)
    new = _new(cls)
    _set_attribute(new, "__dict__", state)
    return new
