"""The rule committee's desk (tournaments.md T-1.5, the seeds' 「规则上没有出现的解释条文，
由组委会最终裁定」): disputes raised and resolved, in the tournament's stream, and the structured
effects a ``RulingRecorded`` may carry (its data schema is tournament_events.RulingRecordedData,
whose ``effects`` are :class:`RulingEffect` items).

A dispute is words and pointers: which match, hand and event positions it is about, and the
claim. A ruling's effects are what the folds apply (rules/rulings.py): the log itself is never
edited — a voided or substituted event stays stored exactly as it was, and the projections fold
the stream again with the committee's edits.
"""
from marshmallow import (
    Schema,
    ValidationError,
    fields,
    post_load,
    validate,
    validates_schema,
)

from .catalogue import EventType, FullMatch
from .shengji_events import RULE_PATTERN, StrictBoolean
from .tournament_events import IDENTIFIER, MATCH_ID, DataSchema, _optional

# what an effect cites: a rule of the specification, or the committee's discretion (T-1.5)
DISCRETION = "discretion"
_rule_id = FullMatch(RULE_PATTERN, "must be a rule ID of the rules specification (e.g. SJ2-12.4) "
                                   "or \"discretion\"")


def _rule_or_discretion(value: str) -> str:
    return value if value == DISCRETION else _rule_id(value)
EVENT_ID_PATTERN = r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"
_event_id = FullMatch(EVENT_ID_PATTERN, "must be an event id (a UUID in canonical form)")
_text = validate.Length(min=1, max=10000)
_position = validate.Range(min=1)

# kind -> the members an effect of that kind has besides kind, rule, member, dispute_id, reason
# (required members first; a member of another kind is refused)
EFFECT_MEMBERS = {
    "void": ((), ("positions", "from", "to")),
    "substitute": (("position", "data"), ("type",)),
    "penalty": ((), ("hand", "side", "seat", "points", "levels", "coins", "payees", "after")),
    "cancelPenalty": (("position",), ()),
    "awardHand": (("hand", "result"), ("from",)),
    "replayHand": (("hand", "from"), ()),
    "adjustLevel": (("side", "levels"), ("after",)),
    "forfeit": (("entrant",), ("after",)),
    "disqualify": (("entrant",), ("after",)),
    "setting": (("key", "value", "from_hand"), ()),
}
EFFECT_KINDS = tuple(EFFECT_MEMBERS)
_COMMON = ("kind", "rule", "member", "dispute_id", "reason")
_AMOUNTS = ("points", "levels", "coins")


def _int(low: int | None = None, high: int | None = None, **kw) -> fields.Integer:
    return fields.Integer(strict=True, validate=validate.Range(min=low, max=high), **kw)


class RulingEffect(Schema):
    """One effect of a ruling: its ``kind``, the ``rule`` it applies (or ``discretion``), the
    deciding ``member`` of the committee, and the members of its kind (EFFECT_MEMBERS):

    * ``void`` — ``positions``, or a range ``from``–``to``, of the ruling's own stream: the fold
      skips those events;
    * ``substitute`` — the event at ``position`` is folded as ``data`` (of its own type, or of
      ``type``) instead of what it says;
    * ``penalty`` — ``points`` (Shengji, Sichuan), ``levels`` (Guandan) or ``coins`` (MJO)
      against a ``side`` or ``seat`` (``payees`` for coins or points paid to others), in
      ``hand``; ``cancelPenalty`` — the penalties the event at ``position`` brought are
      cancelled;
    * ``awardHand`` — ``hand`` ends with ``result`` (events of it ``from`` a position are
      skipped); ``replayHand`` — events of ``hand`` from position ``from`` are skipped and the
      hand is played again by new events;
    * ``adjustLevel`` — a ``side``'s level moves by ``levels``; ``forfeit`` / ``disqualify`` —
      the ``entrant`` loses the match (the tournament, in the tournament's stream);
    * ``setting`` — ``key`` becomes ``value`` from hand ``from_hand`` on.

    ``after`` places an effect right after that position of the stream (default: the ruling's
    own position); ``dispute_id`` names the dispute the effect answers."""

    kind = fields.String(required=True, validate=validate.OneOf(EFFECT_KINDS))
    rule = fields.String(required=True, validate=_rule_or_discretion)
    member = fields.String(required=True, validate=validate.Length(min=1, max=200))
    dispute_id = fields.String(validate=IDENTIFIER)
    reason = fields.String(validate=validate.Length(min=1, max=2000))
    positions = fields.List(_int(1), validate=validate.Length(min=1, max=1000))
    from_ = _int(1, data_key="from")
    to = _int(1)
    position = _int(1)
    after = _int(1)
    type = fields.String(validate=validate.Length(min=1, max=64))
    data = fields.Dict(keys=fields.String())
    hand = _int(1, 1000)
    side = fields.String(validate=validate.OneOf(("A", "B")))
    seat = _int(0, 3)
    points = _int(-1000, 1000)
    levels = _int(-13, 13)
    coins = _int(1, 100_000)
    payees = fields.List(_int(0, 3), validate=validate.Length(min=1, max=3))
    result = fields.Dict(keys=fields.String())
    entrant = fields.String(validate=IDENTIFIER)
    key = fields.String(validate=validate.Length(min=1, max=100))
    value = fields.Raw(allow_none=True)
    from_hand = _int(1, 1000)

    @validates_schema
    def _members_of_the_kind(self, data: dict, **kwargs) -> None:
        kind = data.get("kind")
        if kind not in EFFECT_MEMBERS:
            return
        given = {("from" if k == "from_" else k) for k in data}
        required, optional = EFFECT_MEMBERS[kind]
        errors = {name: [f"required in a {kind} effect"] for name in required
                  if name not in given}
        errors.update({name: [f"not a member of a {kind} effect"]
                       for name in sorted(given - set(required) - set(optional) - set(_COMMON))})
        if kind == "void" and not errors:
            errors.update(_void_members(data))
        if kind == "penalty" and not errors:
            errors.update(_penalty_members(data))
        if kind == "adjustLevel" and data.get("levels") == 0:
            errors["levels"] = ["a level adjustment moves a side by at least one level"]
        if errors:
            raise ValidationError(errors)

    @post_load
    def _plain_keys(self, data: dict, **kwargs) -> dict:
        """``from`` is a Python keyword: the schema's attribute is ``from_``, the data's key
        stays ``from`` (what was sent is what is stored)."""
        if "from_" in data:
            data["from"] = data.pop("from_")
        return data


def _void_members(data: dict) -> dict:
    if ("positions" in data) == ("from_" in data or "to" in data):
        return {"positions": ["a void effect names positions, or a range from-to, not both"]}
    if "positions" not in data and not ("from_" in data and "to" in data):
        return {"to" if "from_" in data else "from": ["a range names both from and to"]}
    if "positions" not in data and data["from_"] > data["to"]:
        return {"to": ["must not be before from"]}
    return {}


def _penalty_members(data: dict) -> dict:
    amounts = [name for name in _AMOUNTS if name in data]
    if len(amounts) != 1:
        return {"points": ["a penalty is counted in one of points, levels or coins"]}
    if ("side" in data) == ("seat" in data):
        return {"side": ["a penalty is against a side (card games) or a seat (mahjong), "
                         "one of them"]}
    if data[amounts[0]] <= 0:
        return {amounts[0]: ["a penalty is a positive amount"]}
    return {}


class DisputeRaisedData(DataSchema):
    """DisputeRaised (T-1.5): a team's captain or a referee brings a case to the committee —
    which match, hand and event positions it is about, and the claim in words."""
    dispute_id = fields.String(required=True, validate=IDENTIFIER)
    match_id = _optional(fields.String(validate=MATCH_ID))
    hand = _optional(_int(1, 1000))
    positions = _optional(fields.List(_int(1), validate=validate.Length(min=1, max=100)))
    claim = fields.String(required=True, validate=_text)

    @validates_schema
    def _hand_of_a_match(self, data: dict, **kwargs) -> None:
        if data.get("hand") is not None and data.get("match_id") is None:
            raise ValidationError({"hand": ["a hand is a hand of a match: name match_id"]})


class DisputeResolvedData(DataSchema):
    """DisputeResolved (T-1.5): the committee's answer — the ruling that settles the dispute
    (``ruling_event_id``, a ``RulingRecorded`` of the tournament) or ``noChange``, and its
    words."""
    dispute_id = fields.String(required=True, validate=IDENTIFIER)
    ruling_event_id = _optional(fields.String(validate=_event_id))
    noChange = _optional(StrictBoolean(validate=validate.Equal(True)))
    text = fields.String(required=True, validate=_text)

    @validates_schema
    def _ruling_or_no_change(self, data: dict, **kwargs) -> None:
        ruling = data.get("ruling_event_id") is not None
        if ruling == bool(data.get("noChange")):
            raise ValidationError({"ruling_event_id": [
                "name the ruling that resolves the dispute, or say noChange: true (one of them)"]})


RULING_EVENTS = (
    EventType("DisputeRaised", DisputeRaisedData, ("tournament",)),
    EventType("DisputeResolved", DisputeResolvedData, ("tournament",)),
)
