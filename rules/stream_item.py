"""One event of a stream as the ruled fold reads it (rules/rulings.py), a small piece of its own
because the effects of rulings (rules/ruling_effects.py) take it too, and rulings.py imports
those."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Item:
    """One event of a stream as the ruled fold reads it: its global position (known before it
    is stored: the store gives the next positions in order), type, data and recorded time."""
    position: int
    type: str
    data: Mapping
    at: str | None = None

    @property
    def hand(self) -> int | None:
        value = self.data.get("hand")
        return value if type(value) is int else None
