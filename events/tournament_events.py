"""The tournament-level events every game shares (shared/rules/tournaments.md T-1.3). They live in the
tournament's own stream, ``tournament-<tid>``."""
import re
from datetime import date
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from marshmallow import (
    Schema,
    ValidationError,
    fields,
    post_load,
    pre_load,
    validate,
    validates_schema,
)

from rules.names import normalised
from rules.tournament import FORMATS, GAMES

from .catalogue import EventType, FullMatch

ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"
# A match's stream is match-<tid>:<match id>, and a stream name has at most 128 characters after
# its kind: 64 for the tournament id, so 40 for the match id leaves room.
MATCH_ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$"
DATE_PATTERN = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"
IDENTIFIER = FullMatch(ID_PATTERN, "must be 1-64 letters, digits, '_', '.' or '-', starting with a "
                            "letter or digit")
_name = validate.Length(min=1, max=200)
_ID_TEXT = re.compile(ID_PATTERN.removeprefix("^").removesuffix("$"))
MATCH_ID = FullMatch(MATCH_ID_PATTERN, "must be 1-40 letters, digits, '_', '.' or '-', starting "
                                       "with a letter or digit")
_date_form = FullMatch(DATE_PATTERN, "must be a date, YYYY-MM-DD")


def _calendar_date(value: str) -> None:
    _date_form(value)
    try:
        date.fromisoformat(value)
    except ValueError:
        raise ValidationError("must be a date, YYYY-MM-DD") from None


def _time_zone(value: str) -> None:
    """An IANA time zone (Asia/Shanghai, America/Toronto): the pages show the tournament's
    moments in it."""
    try:
        ZoneInfo(value)
    except (ValueError, OSError, ZoneInfoNotFoundError):  # a bad key, a folder, none
        raise ValidationError("must be a time zone of the IANA database, such as "
                              "Asia/Shanghai or America/Toronto") from None


class DataSchema(Schema):
    """Optional fields may be sent as ``null``, which means the same as leaving them out (so a
    view, which shows absent fields as null, can be sent back): they are not stored.

    Every text of the data (at any depth; the members' names aside) is normalised to Unicode
    NFC before it is validated: a name sent decomposed (``e`` + U+0301) is stored as
    the same name composed (``é``), so names that are the same look the same and compare equal
    (T-1.6). This is the edge: a stored event keeps what it was stored with (its hash covers
    it) and is read as it is (a ruling's substitute, loaded by its type's schema when the
    ruling is folded, is folded in NFC; nothing stored changes)."""

    @pre_load
    def _normalised(self, data, **kwargs):
        return _nfc(data)

    @post_load
    def _drop_nulls(self, data: dict, **kwargs) -> dict:
        return {key: value for key, value in data.items() if value is not None}


def _nfc(value):
    if isinstance(value, str):
        return normalised(value)
    if isinstance(value, dict):
        return {key: _nfc(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_nfc(item) for item in value]
    return value


def _optional(field: fields.Field) -> fields.Field:
    field.allow_none = True
    return field


class StrictBoolean(fields.Boolean):
    """true or false only (marshmallow's Boolean also takes "yes", 1, "on", …)."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, bool):
            raise self.make_error("invalid")
        return value


class TournamentCreatedData(DataSchema):
    tournament_id = fields.String(required=True, validate=IDENTIFIER)
    name = fields.String(required=True, validate=_name)
    # T-1.1: the disciplines and formats are closed sets, refused at the edge (400 naming the
    # field, as the spec's enums say); which game is played in which format is the rule's (422)
    game = fields.String(required=True, validate=validate.OneOf(
        GAMES, error="must be one of {choices} (T-1.1)"))
    format = fields.String(required=True, validate=validate.OneOf(
        FORMATS, error="must be one of {choices} (T-1.1)"))
    settings = fields.Dict(keys=fields.String(validate=validate.Length(min=1, max=100)),
                           load_default=dict)
    date = _optional(fields.String(validate=_calendar_date))
    venue = _optional(fields.String(validate=_name))
    # where the tournament is played: its moments are shown in this time zone (a fact of the
    # tournament, like its venue; absent, a page shows its reader's own)
    time_zone = _optional(fields.String(validate=[validate.Length(max=64), _time_zone]))
    # T-1.7 (interpretation): made by ``paiju simulate`` (bots, not people); the index can
    # leave it out (?simulated=false) and the pages label it. A fact of the tournament's
    # origin, not a setting the rules read: beside name and game, not in ``settings``.
    simulated = _optional(StrictBoolean())


class TeamRegisteredData(DataSchema):
    team_id = fields.String(required=True, validate=IDENTIFIER)
    name = fields.String(required=True, validate=_name)
    players = fields.List(fields.String(validate=validate.Length(min=1, max=100)), required=True,
                          validate=validate.Length(min=1, max=8))
    organisation = _optional(fields.String(validate=_name))
    # the team's leader (领队, T-6.2): named by every team of the team event (swiss-teams)
    leader = _optional(fields.String(validate=validate.Length(min=1, max=100)))
    # T-1.6: the players' stable ids, one per player in order (default <team_id>.<n>): what
    # tells namesakes apart
    player_ids = _optional(fields.List(fields.String(validate=IDENTIFIER),
                                       validate=validate.Length(min=1, max=8)))


class TeamWithdrawnData(DataSchema):
    team_id = fields.String(required=True, validate=IDENTIFIER)
    reason = _optional(fields.String(validate=validate.Length(min=1, max=2000)))


class TeamCheckedInData(DataSchema):
    """TeamCheckedIn (T-2.6): the team is at the venue for the draw of round 1."""
    team_id = fields.String(required=True, validate=IDENTIFIER)


class TournamentArchivedData(DataSchema):
    reason = _optional(fields.String(validate=validate.Length(min=1, max=2000)))


class RulingRecordedData(DataSchema):
    """RulingRecorded (T-1.5): the committee's words; ``effect``, the single effect some engines
    read (a disqualification, ``winValid``); ``effects``, structured effects the folds apply
    (events/ruling_events.py ``RulingEffect``, rules/rulings.py); ``dispute_id``, the dispute
    it answers."""
    text = fields.String(required=True, validate=validate.Length(min=1, max=10000))
    effect = _optional(fields.Dict(keys=fields.String()))
    # by name: ruling_events imports this module
    effects = _optional(fields.List(fields.Nested("RulingEffect"),
                                    validate=validate.Length(min=1, max=50)))
    dispute_id = _optional(fields.String(validate=IDENTIFIER))


class DrawnMatchSchema(Schema):
    match_id = fields.String(required=True, validate=MATCH_ID)
    teams = fields.List(fields.String(validate=IDENTIFIER), required=True,
                        validate=validate.Length(equal=2))
    kind = fields.String(validate=validate.OneOf(("main", "third_place")), load_default="main")


class DrawnTableSchema(Schema):
    """A table of four drawn by lots (T-8.1): its match id and the entrants at seats 0-3."""
    match_id = fields.String(required=True, validate=MATCH_ID)
    players = fields.List(fields.String(validate=IDENTIFIER), required=True,
                          validate=validate.Length(equal=4))


_SEAT_PURPOSES = ("declaration", "dealer")  # candidates and winner are seats 0-3
# groups of four (tournament stream): a stage's tables (T-8.1), lots between equal players (T-7.2,
# T-8.3); candidates and winner are entrant ids
_GROUP_PURPOSES = ("tables", "standingsTie")
LOTS_PURPOSES = ("pairing", "matchTie") + _SEAT_PURPOSES + _GROUP_PURPOSES
_LOTS_FIELDS = {"pairing": ("round", "matches"), "declaration": ("hand", "candidates", "winner"),
                "dealer": ("hand", "candidates", "winner"), "matchTie": ("candidates", "winner"),
                "tables": ("round", "tables"), "standingsTie": ("round", "candidates", "winner")}


class LotsDrawnData(DataSchema):
    """Lots (T-1.4): the drawn outcome is the fact, so replay never draws again. ``pairing``
    draws a knockout round (tournament stream); ``declaration`` settles simultaneous trump
    declarations (SJ2-4.2), ``dealer`` picks a dealer (SJ2-5.2 lotDealer) and ``matchTie`` a
    tied match's winner (SJ2-14.3), in the match's stream. In a groups tournament ``tables``
    seats a stage's players at tables of four (T-8.1) and ``standingsTie`` orders players of a
    stage (``round``) with equal coins (T-7.2, T-8.3), in the tournament's stream."""
    purpose = fields.String(required=True, validate=validate.OneOf(LOTS_PURPOSES))
    round = _optional(fields.Integer(strict=True, validate=validate.Range(min=1, max=64)))
    matches = _optional(fields.List(fields.Nested(DrawnMatchSchema),
                                    validate=validate.Length(max=512)))
    byes = _optional(fields.List(fields.String(validate=IDENTIFIER), validate=validate.Length(max=1024)))
    cards = _optional(fields.Dict(keys=fields.String(validate=IDENTIFIER), values=fields.String(
        validate=validate.Length(min=1, max=3))))
    tables = _optional(fields.List(fields.Nested(DrawnTableSchema),
                                   validate=validate.Length(max=256)))
    hand = _optional(fields.Integer(strict=True, validate=validate.Range(min=1, max=1000)))
    candidates = _optional(fields.List(fields.Raw(), validate=validate.Length(min=2, max=1024)))
    winner = _optional(fields.Raw())

    @validates_schema
    def _fields_of_the_purpose(self, data: dict, **kwargs) -> None:
        purpose = data.get("purpose")
        missing = {name: ["required when purpose is " + purpose]
                   for name in _LOTS_FIELDS.get(purpose, ()) if data.get(name) is None}
        if missing:
            raise ValidationError(missing)
        if purpose in _SEAT_PURPOSES:
            _lots_values(data, lambda v: type(v) is int and 0 <= v <= 3, "a seat, 0-3")
        elif purpose == "matchTie":
            _lots_values(data, lambda v: v in ("A", "B"), 'a side, "A" or "B"')
        elif purpose == "standingsTie":
            _lots_values(data, lambda v: isinstance(v, str) and _ID_TEXT.fullmatch(v) is not None,
                         "an entrant (team id)")


def _lots_values(data: dict, fits, what: str) -> None:
    errors = {}
    if not all(fits(v) for v in data["candidates"]):
        errors["candidates"] = [f"each candidate must be {what}"]
    if not fits(data["winner"]):
        errors["winner"] = [f"must be {what}"]
    if errors:
        raise ValidationError(errors)


class ResultRecordedData(DataSchema):
    """A referee's result of a result-only match (T-9.3: bridge, xiangqi, go): the winning
    team, or "draw" followed later by a result naming the tie-break's winner."""
    match_id = fields.String(required=True, validate=MATCH_ID)
    winner = fields.String(required=True, validate=IDENTIFIER)
    score = _optional(fields.String(validate=validate.Length(min=1, max=200)))
    tie_break = _optional(fields.String(validate=validate.OneOf(("playoff", "lots"))))


TOURNAMENT_EVENTS = (
    # Recorded by POST /v1/tournaments, which also chooses the id: not posted as an event.
    EventType("TournamentCreated", TournamentCreatedData, ("tournament",), postable=False),
    EventType("TeamRegistered", TeamRegisteredData, ("tournament",)),
    EventType("TeamWithdrawn", TeamWithdrawnData, ("tournament",)),
    # T-2.6: a knockout with setting checkIn draws round 1 among the teams checked in
    EventType("TeamCheckedIn", TeamCheckedInData, ("tournament",)),
    # A ruling on the tournament (in its stream) or on one match (in the match's stream).
    EventType("RulingRecorded", RulingRecordedData, ("tournament", "match")),
    EventType("LotsDrawn", LotsDrawnData, ("tournament", "match")),
    EventType("ResultRecorded", ResultRecordedData, ("tournament",)),
    # Leaves the tournament list; the log stays whole (T-1.3).
    EventType("TournamentArchived", TournamentArchivedData, ("tournament",)),
)
