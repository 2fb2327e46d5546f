"""Who is looking at a state: the public, one seat, or a privileged role (referee, committee,
auditor). Every game's views filter hidden information by it."""
from __future__ import annotations

from dataclasses import dataclass

PRIVILEGED = ("referee", "committee", "auditor")
VIEWERS = ("public", "seat:0", "seat:1", "seat:2", "seat:3") + PRIVILEGED


@dataclass(frozen=True)
class Viewer:
    role: str = "public"
    seat: int | None = None

    @classmethod
    def parse(cls, text: str) -> "Viewer":
        if text not in VIEWERS:
            raise ValueError(f"view must be one of {', '.join(VIEWERS)}")
        if text.startswith("seat:"):
            return cls("seat", int(text[5:]))
        return cls(text)

    @property
    def privileged(self) -> bool:
        return self.role in PRIVILEGED

    def __str__(self) -> str:
        return f"seat:{self.seat}" if self.role == "seat" else self.role
