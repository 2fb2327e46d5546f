"""Match settings of the Shengji games (SJ2-18): the spec's keys, its defaults, and the values
each may take. A match stores its settings in ``MatchStarted.settings``; omitted keys take the
defaults, so a match's settings are fixed by its own log."""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Mapping

from ..violations import RuleViolation
from .cards import LEVELS


@dataclass(frozen=True)
class Settings:
    enforcement: str = "strict"                            # rules README §5
    declarationWindowSeconds: int = 15                     # SJ2-4.7
    firstDeclarationAfterDealRestartsWindow: bool = True   # SJ2-4.7
    # SJ2-4.4 and SJ2-5.2: the seeds' words, not the spec's Interpretation, set these defaults
    # (rule 4: only the first declarer's return is barred once no-trump stands; with no
    # declaration "kitty card #3 is trump", hand 1 included — lots then pick the dealer).
    ntOvercallableByLevelPair: bool = True                 # SJ2-4.4
    firstHandNoDeclaration: str = "lotDealer"              # SJ2-5.2
    throwCheckAgainst: str = "opponents"                   # SJ2-8.4
    maxHands: int = 20                                     # SJ2-14.1
    targetLevel: str = "T"                                 # SJ2-14.2
    timeLimitMinutes: int | None = None                    # SJ2-14.4

    @property
    def strict(self) -> bool:
        return self.enforcement == "strict"

    def to_dict(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self)}


_CHOICES = {
    "enforcement": ("strict", "record"),
    "firstHandNoDeclaration": ("redeal", "lotDealer"),
    "throwCheckAgainst": ("opponents", "allOthers"),
    "targetLevel": LEVELS[:-1],  # a side must be able to climb past it
}
_WHOLE_NUMBERS = {"declarationWindowSeconds": (0, 3600), "maxHands": (1, 200),
                  "timeLimitMinutes": (1, 24 * 60)}
_FLAGS = ("firstDeclarationAfterDealRestartsWindow", "ntOvercallableByLevelPair")


def parse_settings(raw: Mapping) -> Settings:
    """SJ2-18: the settings of a match; an unknown key or a value out of range is refused."""
    known = {f.name for f in fields(Settings)}
    for key, value in raw.items():
        if key not in known:
            raise RuleViolation("SJ2-18", f"unknown setting {key!r}; the settings are "
                                          f"{', '.join(sorted(known))}")
        if value is None and key == "timeLimitMinutes":
            continue
        _check_value(key, value)
    return Settings(**raw)


def _check_value(key: str, value: object) -> None:
    if key in _CHOICES and value not in _CHOICES[key]:
        raise RuleViolation("SJ2-18", f"setting {key} must be one of "
                                      f"{', '.join(map(str, _CHOICES[key]))}, not {value!r}")
    if key in _WHOLE_NUMBERS:
        low, high = _WHOLE_NUMBERS[key]
        if type(value) is not int or not low <= value <= high:
            raise RuleViolation("SJ2-18", f"setting {key} must be a whole number from {low} "
                                          f"to {high}, not {value!r}")
    if key in _FLAGS and type(value) is not bool:
        raise RuleViolation("SJ2-18", f"setting {key} must be true or false, not {value!r}")
