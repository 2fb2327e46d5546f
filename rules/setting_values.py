"""The checks every settings table shares: a whole number within bounds, one of named choices.
Each table (a game's match settings, a tournament format's) keeps its own keys, rule IDs and
defaults; the same value is judged, and worded, the same way everywhere."""
from __future__ import annotations

from collections.abc import Mapping

from .messages import Message
from .violations import RuleViolation

# key -> (rule, lowest, highest, default) and key -> (rule, allowed values, default)
WholeNumbers = Mapping[str, tuple[str, int, int, "int | None"]]
Choices = Mapping[str, tuple[str, tuple[str, ...], str]]


def whole_number_fault(key: str, value: object, low: int, high: int) -> Message | None:
    if type(value) is not int or not low <= value <= high:
        return Message("setting {key} must be a whole number from {low} to {high}, not "
                       "{value!r}", key=key, low=low, high=high, value=value)
    return None


def choice_fault(key: str, value: object, allowed: tuple[str, ...]) -> Message | None:
    if value not in allowed:
        return Message("setting {key} must be one of {allowed}, not {value!r}", key=key,
                       allowed=", ".join(allowed), value=value)
    return None


def check_values(settings: Mapping, whole_numbers: WholeNumbers = {}, choices: Choices = {}
                 ) -> None:
    """Refuses, with the key's rule, the first value of ``settings`` outside its table; a
    whole number may be absent or null (its default), a choice absent."""
    for key, (rule, low, high, _) in whole_numbers.items():
        value = settings.get(key)
        if value is not None and (fault := whole_number_fault(key, value, low, high)):
            raise RuleViolation(rule, fault)
    for key, (rule, allowed, _) in choices.items():
        if key in settings and (fault := choice_fault(key, settings[key], allowed)):
            raise RuleViolation(rule, fault)
