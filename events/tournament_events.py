"""The tournament-level events every game shares (shared/rules/tournaments.md T-1.3). They live in the
tournament's own stream, ``tournament-<tid>``."""
from datetime import date

from marshmallow import Schema, ValidationError, fields, post_load, validate

from .catalogue import EventType, FullMatch

ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"
DATE_PATTERN = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"
_id = FullMatch(ID_PATTERN, "must be 1-64 letters, digits, '_', '.' or '-', starting with a "
                            "letter or digit")
_name = validate.Length(min=1, max=200)
_date_form = FullMatch(DATE_PATTERN, "must be a date, YYYY-MM-DD")


def _calendar_date(value: str) -> None:
    _date_form(value)
    try:
        date.fromisoformat(value)
    except ValueError:
        raise ValidationError("must be a date, YYYY-MM-DD") from None


class DataSchema(Schema):
    """Optional fields may be sent as ``null``, which means the same as leaving them out (so a
    view, which shows absent fields as null, can be sent back): they are not stored."""

    @post_load
    def _drop_nulls(self, data: dict, **kwargs) -> dict:
        return {key: value for key, value in data.items() if value is not None}


def _optional(field: fields.Field) -> fields.Field:
    field.allow_none = True
    return field


class TournamentCreatedData(DataSchema):
    tournament_id = fields.String(required=True, validate=_id)
    name = fields.String(required=True, validate=_name)
    game = fields.String(required=True, validate=validate.Length(min=1, max=20))
    format = fields.String(required=True, validate=validate.Length(min=1, max=20))
    settings = fields.Dict(keys=fields.String(validate=validate.Length(min=1, max=100)),
                           load_default=dict)
    date = _optional(fields.String(validate=_calendar_date))
    venue = _optional(fields.String(validate=_name))


class TeamRegisteredData(DataSchema):
    team_id = fields.String(required=True, validate=_id)
    name = fields.String(required=True, validate=_name)
    players = fields.List(fields.String(validate=validate.Length(min=1, max=100)), required=True,
                          validate=validate.Length(min=1, max=8))
    organisation = _optional(fields.String(validate=_name))


class TeamWithdrawnData(DataSchema):
    team_id = fields.String(required=True, validate=_id)
    reason = _optional(fields.String(validate=validate.Length(min=1, max=2000)))


class RulingRecordedData(DataSchema):
    text = fields.String(required=True, validate=validate.Length(min=1, max=10000))
    effect = _optional(fields.Dict(keys=fields.String()))


TOURNAMENT_EVENTS = (
    # Recorded by POST /v1/tournaments, which also chooses the id: not posted as an event.
    EventType("TournamentCreated", TournamentCreatedData, ("tournament",), postable=False),
    EventType("TeamRegistered", TeamRegisteredData, ("tournament",)),
    EventType("TeamWithdrawn", TeamWithdrawnData, ("tournament",)),
    # A ruling on the tournament (in its stream) or on one match (in the match's stream).
    EventType("RulingRecorded", RulingRecordedData, ("tournament", "match")),
)
