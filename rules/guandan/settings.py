"""Match settings of 掼蛋 (guandan.md section 14), with the spec's defaults — except where the
seed's words win over the spec: anti-tribute is the losers' option (「可抗贡」: ``antiTributeMode``
``optional``), and the single-down return is 「10（含）以下的任意牌」, any card of natural rank
2–10, level cards and the tribute card itself included (``returnSingle`` ``natural2to10``,
``returnMayBeTributeCard`` true). ``matchMinutes + overtimeMinutes`` is at most 1440, what
``TimeLimitReached.limit_minutes`` can say.

A match stores its settings in ``MatchStarted.settings`` with camelCase keys; omitted keys take
the defaults. (``enforcement``, README section 5, is the service's business: these rules
always decide strictly and leave recording irregular plays to the caller.)
:func:`settings_from` turns such a mapping (or ``None``, or a ready
:class:`GDSettings`) into a frozen :class:`GDSettings`; a value outside the allowed ones raises
``RuleViolation`` citing the rule the setting belongs to.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields

from .cards import violation

MAX_MINUTES = 1440  # TimeLimitReached.limit_minutes at most (a day): both limits must fit


@dataclass(frozen=True)
class GDSettings:
    """Section 14: the settings of a GD match; each field names the rule it belongs to."""

    full_house_joker_pair: bool = True                   # GD-3.3
    a_failures_before_reset: int = 3                     # GD-6.4
    tribute_when_partner_last: str = "thirdPays"         # GD-7.1
    equal_tribute_assignment: str = "rightSideToFirst"   # GD-7.3
    return_single: str = "natural2to10"                  # GD-7.4 (seed: 「10（含）以下的任意牌」)
    return_may_be_tribute_card: bool = True              # GD-7.4 (seed: any such card)
    anti_tribute_mode: str = "optional"                  # GD-7.5 (seed: 「可抗贡」, may)
    jiefeng: bool = True                                 # GD-5.5
    auto_pass_on_timeout: bool = False                   # GD-9.3
    match_minutes: int = 60                              # GD-11.2
    overtime_minutes: int = 30                           # GD-11.2
    recording: str = "cards"                             # GD-14 (Interpretation): rules/guandan/sheet.py

    @property
    def by_sheet(self) -> bool:
        """GD-14 ``recording: sheet``: the hands are score-sheet rows, not cards."""
        return self.recording == "sheet"


# camelCase key -> (field name, rule ID, allowed values or a type)
KEY_FIELDS: Mapping[str, tuple[str, str, tuple | type]] = {
    "fullHouseJokerPair": ("full_house_joker_pair", "GD-3.3", bool),
    "aFailuresBeforeReset": ("a_failures_before_reset", "GD-6.4", int),
    "tributeWhenPartnerLast": ("tribute_when_partner_last", "GD-7.1", ("thirdPays", "lastPays", "none")),
    "equalTributeAssignment": ("equal_tribute_assignment", "GD-7.3", ("rightSideToFirst", "winnersChoose")),
    "returnSingle": ("return_single", "GD-7.4", ("natural2to10NotLevel", "natural2to10")),
    "returnMayBeTributeCard": ("return_may_be_tribute_card", "GD-7.4", bool),
    "antiTributeMode": ("anti_tribute_mode", "GD-7.5", ("auto", "optional")),
    "jiefeng": ("jiefeng", "GD-5.5", bool),
    "autoPassOnTimeout": ("auto_pass_on_timeout", "GD-9.3", bool),
    "matchMinutes": ("match_minutes", "GD-11.2", int),
    "overtimeMinutes": ("overtime_minutes", "GD-11.2", int),
    "recording": ("recording", "GD-14", ("cards", "sheet")),
}
_FIELDS = {f.name for f in fields(GDSettings)}
KEYS = tuple(KEY_FIELDS)  # the camelCase keys of section 14


def settings_dict(settings: GDSettings) -> dict:
    """Section 14: every setting under its camelCase key (what a match view shows)."""
    return {key: getattr(settings, spec[0]) for key, spec in KEY_FIELDS.items()}


def _checked(key: str, value: object) -> object:
    """One setting value, checked against the allowed values of its rule (section 14)."""
    _, rule, allowed = KEY_FIELDS[key]
    if isinstance(allowed, tuple):
        if value not in allowed:
            raise violation(rule, "setting {key} is {value!r}; it must be one of "
                                  "{allowed}",
                                  key=key, value=value, allowed=', '.join(allowed))
        return value
    if allowed is bool and not isinstance(value, bool):
        raise violation(rule, "setting {key} is {value!r}; it must be true or false",
                              key=key, value=value)
    if allowed is int and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
        raise violation(rule, "setting {key} is {value!r}; it must be a positive whole "
                              "number",
                              key=key, value=value)
    return value


def settings_from(settings: GDSettings | Mapping | None = None) -> GDSettings:
    """GD section 14: the match settings with defaults for omitted keys. Keys of other games
    (the mapping may be a whole ``MatchStarted.settings``) are ignored."""
    if settings is None:
        return GDSettings()
    if isinstance(settings, GDSettings):
        return settings
    values = {}
    for key, value in settings.items():
        if key in KEY_FIELDS:
            values[KEY_FIELDS[key][0]] = _checked(key, value)
        elif key in _FIELDS:
            camel = next(k for k, spec in KEY_FIELDS.items() if spec[0] == key)
            values[key] = _checked(camel, value)
    return _check_minutes(GDSettings(**values))


def _check_minutes(conf: GDSettings) -> GDSettings:
    """GD-11.2: the second limit, matchMinutes + overtimeMinutes, must be a ``limit_minutes`` a
    ``TimeLimitReached`` can carry (at most 1440), or the match could never be timed out."""
    total = conf.match_minutes + conf.overtime_minutes
    if total > MAX_MINUTES:
        raise violation("GD-11.2", "settings matchMinutes {match_minutes} and "
                                   "overtimeMinutes {overtime_minutes} put the second "
                                   "time limit at {total} minutes; together they may "
                                   "be at most {MAX_MINUTES}",
                                   match_minutes=conf.match_minutes,
                                   overtime_minutes=conf.overtime_minutes, total=total,
                                   MAX_MINUTES=MAX_MINUTES)
    return conf
