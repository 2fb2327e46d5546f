"""Marshmallow schemas of request bodies (the envelope; each event type's ``data`` schema is in
the catalogue)."""
from __future__ import annotations

import uuid

from marshmallow import Schema, ValidationError, fields, validate

from events.catalogue import STREAM_PATTERN
from events.envelope import ANY, NO_STREAM

CLIENT_ROLES = ("organiser", "referee", "committee", "scorer", "player", "table", "system")


class ExpectedVersion(fields.Field):
    """A whole number >= 0 (the stream's version before this event), "no_stream" or "any"."""

    def _deserialize(self, value, attr, data, **kwargs):
        if value in (ANY, NO_STREAM):
            return value
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValidationError('must be a whole number >= 0, "no_stream" or "any"')
        if value < 0:
            raise ValidationError("must not be negative")
        return value


def _uuid(value: str) -> None:
    try:
        uuid.UUID(value)
    except ValueError:
        raise ValidationError("must be a UUID") from None


class MetaSchema(Schema):
    actor = fields.String(validate=validate.Length(min=1, max=200))
    role = fields.String(validate=validate.OneOf(CLIENT_ROLES))
    seat = fields.Integer(strict=True, validate=validate.Range(min=0, max=3))
    source = fields.String(validate=validate.Length(min=1, max=200))
    correlation_id = fields.String(validate=validate.Length(min=1, max=100))
    causation_id = fields.String(validate=validate.Length(min=1, max=100))


class EventRequestSchema(Schema):
    id = fields.String(validate=_uuid)
    type = fields.String(required=True, validate=validate.Length(min=1, max=100))
    stream = fields.String(required=True, validate=validate.Regexp(
        STREAM_PATTERN, error="must look like <kind>-<id>, e.g. tournament-t1 or match-m17"))
    expected_version = ExpectedVersion()
    data = fields.Dict(required=True, keys=fields.String())
    meta = fields.Nested(MetaSchema)


def batch_schema(max_events: int) -> Schema:
    """``{"events": [...]}``: the list's bounds here; each event is checked on its own after."""
    class BatchRequestSchema(Schema):
        events = fields.List(fields.Dict(), required=True,
                             validate=validate.Length(min=1, max=max_events))
    return BatchRequestSchema()
