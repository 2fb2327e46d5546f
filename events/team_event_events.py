"""The events of the team event (积分编排, tournaments.md T-6) that no other format has. They
live in the tournament's stream, ``tournament-<tid>``.

Round 1 is drawn by lots (``LotsDrawn{purpose: "pairing"}``, shared with the knockout); every
later round is a ``RoundPaired``: the pairing by scores the server computed (``POST …/pairings``)
or one the referee made by hand (``manual: true``). A published pairing is a fact of the
tournament's history — its tables are played — so it is recorded, not derived again: a result
corrected later changes the standings, never a round already paired. Results, forfeits, team
scores, exclusions and the standings are derived (``GET …/rounds``, ``GET …/standings``).
``TeamEventClosed`` is the chief referee's closing of the event before its last round (T-6.11).
"""
from marshmallow import Schema, fields, validate

from .catalogue import EventType, FullMatch
from .shengji_events import StrictBoolean
from .tournament_events import IDENTIFIER, DataSchema, _optional

# A meeting's tables are its id with "a" and "b" appended, and a match id has at most 40
# characters: a meeting id has at most 39.
MEETING_ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,38}$"
_meeting_id = FullMatch(MEETING_ID_PATTERN, "must be 1-39 letters, digits, '_', '.' or '-', "
                                            "starting with a letter or digit")


class PairedMeetingSchema(Schema):
    """Team against team: ``teams[0]`` is side A at both tables, ``<match_id>a`` (the pairs a)
    and ``<match_id>b`` (the pairs b)."""
    match_id = fields.String(required=True, validate=_meeting_id)
    teams = fields.List(fields.String(validate=IDENTIFIER), required=True,
                        validate=validate.Length(equal=2))


class RoundPairedData(DataSchema):
    """A round of the team event from round 2 on (T-6.4): its meetings and the bye (one team
    when the teams in play are odd, else none). Without ``manual`` it must be the pairing by
    scores the rules give; ``manual: true`` is a referee's pairing, checked for its shape and
    stored with warnings for what it departs from (rematches, a second bye, distant scores)."""
    round = fields.Integer(required=True, strict=True, validate=validate.Range(min=1, max=64))
    matches = fields.List(fields.Nested(PairedMeetingSchema), required=True,
                          validate=validate.Length(min=1, max=512))
    byes = fields.List(fields.String(validate=IDENTIFIER), load_default=list,
                       validate=validate.Length(max=1))
    manual = StrictBoolean(load_default=False)
    reason = _optional(fields.String(validate=validate.Length(min=1, max=2000)))


class TeamEventClosedData(DataSchema):
    """The chief referee closes the team event early (T-6.11): after the last round played,
    when the next round cannot be paired and no manual pairing is wanted. The standings are
    final once it is closed (lots for remaining ties may then be drawn)."""
    reason = fields.String(required=True, validate=validate.Length(min=1, max=2000))


TEAM_EVENT_EVENTS = (
    EventType("RoundPaired", RoundPairedData, ("tournament",)),
    EventType("TeamEventClosed", TeamEventClosedData, ("tournament",)),
)
