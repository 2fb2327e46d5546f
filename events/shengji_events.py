"""The events of a Shengji (拖拉机 / 升级) match: shared/rules/shengji-2deck.md §16 and, for three
decks, shengji-3deck.md §13. They live in the match's stream, ``match-<tid>:<match id>``; every
hand event names its hand number, so that an event meant for another hand than the one in play
is refused (SJ2-16, SJ3-13). SJ3 shares SJ2's types where the fact and its data are the same
(a deal, a reveal is a declaration, a counter-reveal an overcall, a play) and adds its own:
``DrawingEnded``, ``ThrowPenaltyChoice``, ``SJ3TimeLimitExceeded`` (MJO owns
``TimeLimitExceeded`` with other data), ``LatenessRecorded``, ``PairSeated`` and
``LatenessLimitReached``; its ``DeclarationWindowClosed`` ends the dealer's pause (SJ3-3.6).

Only what people and devices do is an event. What follows from it — a trick's winner, a failed
throw and its penalty, the hand's result, the match's winner — is derived by the projections
(see ``DERIVED`` and the README).
"""
from datetime import datetime

from marshmallow import ValidationError, fields, validate

from .catalogue import EventType, FullMatch
from .tournament_events import (
    IDENTIFIER,
    MATCH_ID,
    DataSchema,
    StrictBoolean,
    _optional,
)

CARD_PATTERN = r"^(?:[2-9TJQKA][SHDC]|BJ|SJ)$"
_card = FullMatch(CARD_PATTERN, "must be a card: a rank 2-9, T, J, Q, K or A then a suit S, H, "
                                "D or C (e.g. TH, AS), or BJ / SJ for the jokers")
RULE_PATTERN = r"^(?:SJ2|SJ3|GD|MJO|MJS|T)-[0-9]+(?:\.[0-9]+)?$"
_rule = FullMatch(RULE_PATTERN, "must be a rule ID of the rules specification, e.g. SJ2-12.3")


def card() -> fields.String:
    return fields.String(validate=_card)


def cards(low: int = 1, high: int = 60, **kwargs) -> fields.List:
    return fields.List(card(), validate=validate.Length(min=low, max=high), **kwargs)


_card_list = cards  # for schemas whose own field is named ``cards``


def hand_no() -> fields.Integer:
    return fields.Integer(required=True, strict=True, validate=validate.Range(min=1, max=1000))


def seat() -> fields.Integer:
    return fields.Integer(required=True, strict=True, validate=validate.Range(min=0, max=3))


_side = validate.OneOf(("A", "B"))
TEAM_KEYS = ("A", "B", "0", "1", "2", "3")  # the keys of MatchStarted.teams in any game
_team_key = validate.OneOf(TEAM_KEYS)
_text = validate.Length(min=1, max=2000)


class HandDealtData(DataSchema):
    hand = hand_no()
    hands = fields.List(cards(1, 60), required=True, validate=validate.Length(equal=4))
    kitty = cards(1, 20, required=True)  # in dealt order: card #3 can fix trump (SJ2-4.9)
    # SJ3-1.4: in the first deal, who turned up which card to count out the first drawer
    turned_by = _optional(fields.Integer(strict=True, validate=validate.Range(min=0, max=3)))
    turned_card = _optional(card())


class TrumpDeclaredData(DataSchema):
    hand = hand_no()
    seat = seat()
    card = fields.String(required=True, validate=_card)
    # SJ2-4.2: declared at the same time as the standing declaration and disputed; lots decide
    simultaneous = _optional(StrictBoolean())


class TrumpOvercalledData(DataSchema):
    hand = hand_no()
    seat = seat()
    cards = cards(2, 3, required=True)


class HandStepData(DataSchema):
    """DealCompleted, DeclarationWindowClosed (SJ2-4.7; SJ3-3.6: the end of the dealer's pause),
    DrawingEnded (SJ3-3.6): the hand number alone."""
    hand = hand_no()


class KittyTakenData(DataSchema):
    """KittyTaken: by the dealer; ``seat`` names who took it when it was not the dealer — in SJ3
    that hands the deal over (SJ3-4.3)."""
    hand = hand_no()
    seat = _optional(fields.Integer(strict=True, validate=validate.Range(min=0, max=3)))


class KittyBuriedData(DataSchema):
    hand = hand_no()
    cards = cards(1, 20, required=True)


class KittyCorrectedData(DataSchema):
    """SJ2-12.3: the cards the defenders drew from the kitty into the dealer's hand, or from the
    dealer's hand into the kitty, to make the kitty right."""
    hand = hand_no()
    to_dealer = cards(0, 20, load_default=list)
    to_kitty = cards(0, 20, load_default=list)


class CardsPlayedData(DataSchema):
    hand = hand_no()
    seat = seat()
    cards = cards(1, 60, required=True)
    # SJ3-7.1: a throw states its structure, the components that partition its cards
    structure = _optional(fields.List(_card_list(1, 60), validate=validate.Length(min=1, max=60)))


class ThrowPenaltyChoiceData(DataSchema):
    """SJ3-7.3: the failed thrower's next seat designates the component he plays."""
    hand = hand_no()
    seat = seat()
    component = cards(1, 60, required=True)


class PenaltyAssessedData(DataSchema):
    """A referee's point penalty (SJ2-12.1): against a side, in points of the defenders' count."""
    hand = hand_no()
    rule = fields.String(required=True, validate=_rule)
    side = fields.String(required=True, validate=_side)
    points = fields.Integer(required=True, strict=True, validate=validate.Range(min=1, max=1000))
    reason = _optional(fields.String(validate=_text))


class IrregularityReportedData(DataSchema):
    hand = hand_no()
    rule = fields.String(required=True, validate=_rule)
    seat = _optional(fields.Integer(strict=True, validate=validate.Range(min=0, max=3)))
    # SJ3-11.6: the seats whose card count is wrong (both sides: the hand is replayed)
    seats = _optional(fields.List(fields.Integer(strict=True, validate=validate.Range(min=0, max=3)),
                                  validate=validate.Length(min=1, max=4)))
    detail = fields.String(required=True, validate=_text)


class HandVoidedData(DataSchema):
    hand = hand_no()
    reason = fields.String(required=True, validate=_text)


class SheetPenaltyData(DataSchema):
    """A point penalty on a score sheet's row: against a side, in points of the defenders'
    count (SJ2-12.1, SJ3-11.1), with the rule that gave it (default SJ2-12.1 / SJ3-11.1)."""
    side = fields.String(required=True, validate=_side)
    points = fields.Integer(required=True, strict=True, validate=validate.Range(min=1, max=1000))
    rule = _optional(fields.String(validate=_rule))
    reason = _optional(fields.String(validate=_text))


class HandResultRecordedData(DataSchema):
    """One row of a score sheet (match setting ``recording: "sheet"``, rules/shengji/sheet.py):
    hand ``hand``'s dealer (required where the declarations made him: hand 1), its trump (a
    suit, or NT in SJ2), the defenders' points in tricks, the kitty's points and the multiplier
    of its capture (0: not captured), the point penalties, one side per follow error
    established (SJ2-12.4; SJ3: each side whose renege or light signals floor the outcome) and
    SJ2's kitty error (SJ2-12.3). The rules check the points and the multiplier (multiples of 5,
    never negative, the decks' points, the multipliers a play can give: 422 with the rule) and
    derive the result row."""
    hand = hand_no()
    dealer = _optional(fields.Integer(strict=True, validate=validate.Range(min=0, max=3)))
    trump = _optional(fields.String(validate=validate.OneOf(("S", "H", "D", "C", "NT"))))
    # no bounds here: what the decks hold and the multipliers a play gives are rules of the
    # game, refused with their rule (SJ2-1.5 / SJ3-1.5, SJ2-11.2 / SJ3-10.2: rules/shengji/sheet.py)
    trick_points = fields.Integer(required=True, strict=True)
    kitty_points = fields.Integer(required=True, strict=True)
    multiplier = fields.Integer(required=True, strict=True)
    penalties = fields.List(fields.Nested(SheetPenaltyData), validate=validate.Length(max=50),
                            load_default=list)
    follow_errors = fields.List(fields.String(validate=_side), validate=validate.Length(max=50),
                                load_default=list)
    kitty_error = StrictBoolean(load_default=False)


# the server's timestamps (``recorded_at``): UTC, microseconds, a Z suffix
TIMESTAMP_PATTERN = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6}Z$"
_timestamp_form = FullMatch(TIMESTAMP_PATTERN, "must be a UTC time as the server records it, "
                                               "YYYY-MM-DDTHH:MM:SS.ffffffZ")


def _timestamp(value: str) -> None:
    _timestamp_form(value)
    try:
        datetime.strptime(value, "%Y-%m-%dT%H:%M:%S.%fZ")
    except ValueError:
        raise ValidationError("must be a UTC time as the server records it, "
                              "YYYY-MM-DDTHH:MM:SS.ffffffZ") from None


class TimeLimitReachedData(DataSchema):
    """A round's time limit has passed (SJ2-14.4, T-5.4): the hand in play is finished, then
    the levels decide. ``round_started_at`` (a Shengji match of a round of several tables,
    SJ3-12.1 「终场前10分钟裁判长统一提醒」): the time the round's first table started, from which
    the one alert for all its tables counts; without it the match's own MatchStarted."""
    limit_minutes = fields.Integer(required=True, strict=True,
                                   validate=validate.Range(min=1, max=24 * 60))
    round_started_at = _optional(fields.String(validate=_timestamp))


SJ3_MOVE_KINDS = ("kitty", "lead", "follow", "throwChoice")


class SJ3TimeLimitExceededData(DataSchema):
    """SJ3-11.8 (timer): ``seat`` overran the time of a move — ``kitty`` (burying and the first
    lead, 60 s), ``lead`` (15 s), ``follow`` (10 s) — or, as the designator of a failed throw,
    ``throwChoice`` (SJ3-7.3). The engine derives the warning or the 20 points."""
    hand = hand_no()
    seat = seat()
    kind = fields.String(required=True, validate=validate.OneOf(SJ3_MOVE_KINDS))


class LatenessRecordedData(DataSchema):
    """T-6.6 / SJ3-11.10: the started minutes side ``side``'s pair was late at the round's start;
    the match derives the consequence. ``dealer``: with 16-20 minutes, the opponents' nominee to
    deal hand 2 (default their lower seat)."""
    side = fields.String(required=True, validate=_side)
    minutes = fields.Integer(required=True, strict=True, validate=validate.Range(min=0, max=24 * 60))
    dealer = _optional(fields.Integer(strict=True, validate=validate.Range(min=0, max=3)))


class PairSeatedData(DataSchema):
    """T-6.6: the table records that side ``side``'s pair has sat down (before the first deal):
    the timer's lateness clock stops for it."""
    side = fields.String(required=True, validate=_side)


class LatenessLimitReachedData(DataSchema):
    """T-6.6 / SJ3-11.10 (timer): minute 21 after the start has begun and the pairs of these
    sides are not seated: each forfeits the round."""
    sides = fields.List(fields.String(validate=_side), required=True,
                        validate=validate.Length(min=1, max=2))


class MatchStartedData(DataSchema):
    match_id = fields.String(required=True, validate=MATCH_ID)
    game = fields.String(required=True, validate=validate.Length(min=1, max=20))
    round = _optional(fields.Integer(strict=True, validate=validate.Range(min=1, max=64)))
    # side -> team (A, B) in the card games, seat -> entrant ("0".."3") at a mahjong table; the
    # game's engine checks which keys its matches have
    teams = fields.Dict(keys=fields.String(validate=_team_key), values=fields.String(validate=IDENTIFIER),
                        required=True, validate=validate.Length(min=2, max=4))
    seats = fields.List(fields.String(validate=validate.Length(min=1, max=100)),
                        required=True, validate=validate.Length(equal=4))
    settings = fields.Dict(keys=fields.String(validate=validate.Length(min=1, max=100)),
                           load_default=dict)


def _hand(name: str, schema=HandStepData) -> EventType:
    return EventType(name, schema, ("match",))


SHENGJI_EVENTS = (
    # Recorded by POST /v1/tournaments/{tid}/matches, which takes teams, seats and settings
    # from the draw, the entrants and the tournament: not posted as an event.
    EventType("MatchStarted", MatchStartedData, ("match",), postable=False),
    _hand("HandDealt", HandDealtData),
    _hand("TrumpDeclared", TrumpDeclaredData),
    _hand("TrumpOvercalled", TrumpOvercalledData),
    _hand("DealCompleted"),
    _hand("DeclarationWindowClosed"),
    _hand("KittyTaken", KittyTakenData),
    _hand("KittyBuried", KittyBuriedData),
    _hand("KittyCorrected", KittyCorrectedData),
    _hand("CardsPlayed", CardsPlayedData),
    _hand("PlayCorrected", CardsPlayedData),
    _hand("PenaltyAssessed", PenaltyAssessedData),
    _hand("IrregularityReported", IrregularityReportedData),
    _hand("HandVoided", HandVoidedData),
    EventType("TimeLimitReached", TimeLimitReachedData, ("match",)),
    # SJ3 (shengji-3deck.md §13)
    _hand("DrawingEnded"),
    _hand("ThrowPenaltyChoice", ThrowPenaltyChoiceData),
    _hand("SJ3TimeLimitExceeded", SJ3TimeLimitExceededData),
    EventType("LatenessRecorded", LatenessRecordedData, ("match",)),
    EventType("PairSeated", PairSeatedData, ("match",)),
    EventType("LatenessLimitReached", LatenessLimitReachedData, ("match",)),
    # a score sheet's row (SJ2 and SJ3, setting recording: "sheet")
    _hand("HandResultRecorded", HandResultRecordedData),
)

# Derived facts (rules README §5, SJ2-16 rows marked "derived"): computed by the projections
# from the events above, shown by the reads named here, never posted.
DERIVED = {
    "HandStarted": "GET /v1/tournaments/{tid}/matches/{mid} (current_hand)",
    "TrumpFixed": "GET …/matches/{mid}/hands/{n} (trump)",
    "ThrowFailed": "GET …/matches/{mid}/hands/{n} (tricks[].throw)",
    "RenegeEstablished": "GET …/matches/{mid}/hands/{n} (follow_errors)",
    "FollowErrorEstablished": "GET …/matches/{mid}/hands/{n} (follow_errors)",
    "TrickCompleted": "GET …/matches/{mid}/hands/{n} (tricks)",
    "HandCompleted": "GET …/matches/{mid}/hands/{n} (result)",
    "MatchCompleted": "GET /v1/tournaments/{tid}/matches/{mid} (status, winner, result)",
    "PairingPublished": "GET /v1/tournaments/{tid}/bracket",
    "StandingsComputed": "GET /v1/tournaments/{tid}/standings",
}
