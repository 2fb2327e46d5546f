"""Pure game and tournament rules: no HTTP, no SQL, no clocks, no randomness.

Every rule is a function from (state, event data) to a new state, or a :class:`RuleViolation`
that names the rule ID of the rules specification, ``../shared/rules`` beside this
repository (e.g. ``T-1.2``).
"""
from .violations import RuleViolation

__all__ = ["RuleViolation"]
