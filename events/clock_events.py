"""The match clock's events, the same in every game (rules/match_clock.py): a referee stops a
match's clock, e.g. while a ruling is made, and starts it again; every deadline of the match
moves by the time it stood. They live in the match's stream."""
from marshmallow import fields, validate

from .catalogue import EventType
from .tournament_events import DataSchema, _optional


class MatchClockPausedData(DataSchema):
    """Why the clock stands (shown on the clock read), optional."""
    reason = _optional(fields.String(validate=validate.Length(min=1, max=500)))


class MatchClockResumedData(DataSchema):
    """No data: the clock runs again from the moment the server records this."""


CLOCK_EVENTS = (
    EventType("MatchClockPaused", MatchClockPausedData, ("match",)),
    EventType("MatchClockResumed", MatchClockResumedData, ("match",)),
)
