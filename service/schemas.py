"""Marshmallow schemas of request bodies (the envelope; each event type's ``data`` schema is in
the catalogue)."""
from __future__ import annotations

import functools
import uuid

from marshmallow import Schema, ValidationError, fields, validate

from events.catalogue import STREAM_NAME
from events.envelope import ANY, NO_STREAM


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
    """Only the canonical form (lowercase, hyphenated), so that one event has one id string."""
    try:
        canonical = str(uuid.UUID(value))
    except ValueError:
        canonical = None
    if value != canonical:
        raise ValidationError("must be a UUID in canonical form, e.g. "
                              "0b4f6a7e-8f1c-4b7a-9c7e-2f0d5b9a1c33")


class FromToken(fields.Field):
    """Who posted an event is what their bearer token says, never what the body claims."""

    def _deserialize(self, value, attr, data, **kwargs):
        raise ValidationError("is set from the bearer token; leave it out")


class FromTimer(FromToken):
    """The deadline a timer event fires for is the server's timer's to say."""

    def _deserialize(self, value, attr, data, **kwargs):
        raise ValidationError("is set by the server's timer on the events it appends; leave it out")


class MetaSchema(Schema):
    actor = FromToken()
    role = FromToken()
    seat = FromToken()
    token_id = FromToken()
    deadline = FromTimer()
    source = fields.String(validate=validate.Length(min=1, max=200))
    correlation_id = fields.String(validate=validate.Length(min=1, max=100))
    causation_id = fields.String(validate=validate.Length(min=1, max=100))


class EventRequestSchema(Schema):
    id = fields.String(validate=_uuid)
    type = fields.String(required=True, validate=validate.Length(min=1, max=100))
    stream = fields.String(required=True, validate=STREAM_NAME)
    expected_version = ExpectedVersion()
    data = fields.Dict(required=True, keys=fields.String())
    meta = fields.Nested(MetaSchema, allow_none=True)  # null: the same as leaving it out


@functools.cache
def batch_schema(max_events: int) -> Schema:
    """``{"events": [...]}``: the list's bounds here; each event is checked on its own after."""
    class BatchRequestSchema(Schema):
        events = fields.List(fields.Dict(), required=True,
                             validate=validate.Length(min=1, max=max_events))
    return BatchRequestSchema()


# Instances are reused: building one costs more than a load, and load keeps no state.
EVENT_REQUEST = EventRequestSchema()
META = MetaSchema()
