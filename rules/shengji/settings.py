"""Match settings of the Shengji games: SJ2-18 and SJ3-15 — the spec's keys, its defaults, and the
values each may take. A match stores its settings in ``MatchStarted.settings``; omitted keys take
the defaults, so a match's settings are fixed by its own log.

Each game's settings also answer the few questions the shared match engine asks of them
(``time_limit_minutes``, ``target_level``, ``max_hands``, ``equal_levels``), so the engine reads
no game's keys by name.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import ClassVar, Mapping

from ..violations import RuleViolation
from .cards import LEVELS, level_value

# SJ3-12.2 / T-6.5 (Interpretation; the seed gives only the forfeit's 「对手得2分」)
MATCH_POINTS_DEFAULT = MappingProxyType({"win": 2, "draw": 1, "loss": 0})


@dataclass(frozen=True)
class Settings:
    """SJ2-18."""
    RULE: ClassVar[str] = "SJ2-18"

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
    recording: str = "cards"                               # SJ2-18 (Interpretation): rules/shengji/sheet.py

    @property
    def strict(self) -> bool:
        return self.enforcement == "strict"

    @property
    def by_sheet(self) -> bool:
        """SJ2-18 ``recording: sheet``: the hands are score-sheet rows, not cards."""
        return self.recording == "sheet"

    @property
    def time_limit_minutes(self) -> int | None:
        """SJ2-14.4: the minute of the round's time limit (TimeLimitReached), if any."""
        return self.timeLimitMinutes

    @property
    def target_level(self) -> int | None:
        """SJ2-14.2: a side above this level wins at once."""
        return level_value(self.targetLevel)

    @property
    def max_hands(self) -> int | None:
        """SJ2-14.1: after this many hands the higher level wins."""
        return self.maxHands

    @property
    def equal_levels(self) -> str:
        """SJ2-14.3: a match ending at equal levels is decided by lots."""
        return "lots"

    @property
    def level_cap(self) -> int | None:
        """SJ2-14.2: a winning side's level is recorded as reached (A+1, A+2, …)."""
        return None

    @property
    def match_points(self) -> Mapping[str, int]:
        """SJ2 knockouts count no match points; a result states T-6.5's 2 / 1 / 0."""
        return MATCH_POINTS_DEFAULT

    def to_dict(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass(frozen=True)
class SJ3Settings:
    """SJ3-15."""
    RULE: ClassVar[str] = "SJ3-15"

    enforcement: str = "strict"                            # rules README §5
    counterRevealRestartsPause: bool = False               # SJ3-3.6
    noRevealRule: str = "kittyFirstNonJoker"               # SJ3-3.7
    # SJ3-6.3: the seed's words win over the spec's Interpretation — a tractor is 「相邻级别的同一
    # 花色的对子」 (seed 十一), pairs of adjacent ranks of ONE suit: no chain through the jokers and
    # level cards; true adopts the SJ2 chain
    trumpChainAdjacency: bool = False                      # SJ3-6.3
    throwCheckAgainst: str = "opponents"                   # SJ3-7.2
    throwChoiceSeconds: int = 10                           # SJ3-7.3
    timeWarningScope: str = "sidePerMatch"                 # SJ3-11.8
    matchMinutes: int = 90                                 # SJ3-12.1 「每轮比赛1小时30分」
    alertAtMinute: int = 80                                # SJ3-12.1 「最后10分钟大会统一提醒」
    endOnPassingA: bool = True                             # SJ3-12.3
    matchPoints: Mapping[str, int] = field(default_factory=lambda: MATCH_POINTS_DEFAULT)  # SJ3-12.2
    recording: str = "cards"                               # SJ3-15 (Interpretation): rules/shengji/sheet.py

    @property
    def strict(self) -> bool:
        return self.enforcement == "strict"

    @property
    def by_sheet(self) -> bool:
        """SJ3-15 ``recording: sheet``: the hands are score-sheet rows, not cards."""
        return self.recording == "sheet"

    @property
    def time_limit_minutes(self) -> int | None:
        """SJ3-12.1: the alert ends the match once the hand in play is finished."""
        return self.alertAtMinute

    @property
    def target_level(self) -> int | None:
        """SJ3-12.3: with ``endOnPassingA`` a side that climbs past A wins at once."""
        return level_value("A") if self.endOnPassingA else None

    @property
    def max_hands(self) -> int | None:
        """SJ3-12.1: the round is limited by time, not by hands."""
        return None

    @property
    def equal_levels(self) -> str:
        """SJ3-12.2: equal levels at the end are a draw."""
        return "draw"

    @property
    def match_points(self) -> Mapping[str, int]:
        """SJ3-12.2: the setting ``matchPoints``."""
        return self.matchPoints

    @property
    def level_cap(self) -> int | None:
        """SJ3-12.3: a side that climbs past A is recorded at 15 (with ``endOnPassingA``;
        without it a side stays at A and the match goes on)."""
        return level_value("A") + (1 if self.endOnPassingA else 0)

    def to_dict(self) -> dict:
        return {f.name: dict(v) if isinstance(v := getattr(self, f.name), Mapping) else v
                for f in fields(self)}


# SJ2-18 / SJ3-15 / GD-14 (Interpretation): a match is recorded card by card (the
# default) or from the table's score sheet, one result row per hand (rules/shengji/sheet.py)
RECORDINGS = ("cards", "sheet")

# class -> key -> allowed values / (low, high) for whole numbers / bool for flags
_CHOICES = {
    Settings: {"enforcement": ("strict", "record"),
               "firstHandNoDeclaration": ("redeal", "lotDealer"),
               "throwCheckAgainst": ("opponents", "allOthers"),
               "targetLevel": LEVELS[:-1],  # a side must be able to climb past it
               "recording": RECORDINGS},
    SJ3Settings: {"enforcement": ("strict", "record"),
                  "noRevealRule": ("kittyFirstNonJoker", "redeal"),
                  "throwCheckAgainst": ("opponents", "allOthers"),
                  "timeWarningScope": ("sidePerMatch", "sidePerHand"),
                  "recording": RECORDINGS},
}
_WHOLE_NUMBERS = {
    Settings: {"declarationWindowSeconds": (0, 3600), "maxHands": (1, 200),
               "timeLimitMinutes": (1, 24 * 60)},
    SJ3Settings: {"throwChoiceSeconds": (0, 600), "matchMinutes": (1, 24 * 60),
                  "alertAtMinute": (1, 24 * 60)},
}
_FLAGS = {
    Settings: ("firstDeclarationAfterDealRestartsWindow", "ntOvercallableByLevelPair"),
    SJ3Settings: ("counterRevealRestartsPause", "trumpChainAdjacency", "endOnPassingA"),
}
_NULLABLE = {Settings: ("timeLimitMinutes",), SJ3Settings: ()}


def parse_settings(raw: Mapping, kind: type = Settings):
    """SJ2-18 / SJ3-15: the settings of a match of the game whose settings class is ``kind``;
    an unknown key or a value out of range is refused citing the game's settings rule."""
    known = {f.name for f in fields(kind)}
    for key, value in raw.items():
        if key not in known:
            raise RuleViolation(kind.RULE, "unknown setting {key!r}; the settings are {known}",
                                           key=key, known=', '.join(sorted(known)))
        if value is None and key in _NULLABLE[kind]:
            continue
        _check_value(kind, key, value)
    if kind is SJ3Settings:
        _check_sj3(raw)
        if "matchPoints" in raw:
            raw = {**raw, "matchPoints": MappingProxyType(dict(raw["matchPoints"]))}
    return kind(**raw)


def _check_value(kind: type, key: str, value: object) -> None:
    rule, choices = kind.RULE, _CHOICES[kind]
    if key in choices and value not in choices[key]:
        raise RuleViolation(rule, "setting {key} must be one of {map}, not {value!r}",
                                  key=key, map=', '.join(map(str, choices[key])), value=value)
    if key in _WHOLE_NUMBERS[kind]:
        low, high = _WHOLE_NUMBERS[kind][key]
        if type(value) is not int or not low <= value <= high:
            raise RuleViolation(rule, "setting {key} must be a whole number from {low} to "
                                      "{high}, not {value!r}",
                                      key=key, low=low, high=high, value=value)
    if key in _FLAGS[kind] and type(value) is not bool:
        raise RuleViolation(rule, "setting {key} must be true or false, not {value!r}",
                                  key=key, value=value)


def _check_sj3(raw: Mapping) -> None:
    """SJ3-12.1: the alert comes before the end of the round; SJ3-12.2: match points for a win,
    a draw and a loss, in that order of merit."""
    defaults = SJ3Settings()
    minutes = raw.get("matchMinutes", defaults.matchMinutes)
    alert = raw.get("alertAtMinute", defaults.alertAtMinute)
    if alert >= minutes:
        raise RuleViolation("SJ3-15", "setting alertAtMinute ({alert}) must come before the "
                                      "end of the round, matchMinutes ({minutes})",
                                      alert=alert, minutes=minutes)
    points = raw.get("matchPoints", MATCH_POINTS_DEFAULT)
    if not isinstance(points, Mapping) or sorted(points) != ["draw", "loss", "win"] or \
            any(type(v) is not int or not 0 <= v <= 100 for v in points.values()) or \
            not points["win"] >= points["draw"] >= points["loss"]:
        raise RuleViolation("SJ3-15", 'setting matchPoints must be {{"win": w, "draw": d, '
                                      '"loss": l}}, whole numbers 0-100 with w ≥ d ≥ l, not '
                                      "{points!r}",
                                      points=points)
