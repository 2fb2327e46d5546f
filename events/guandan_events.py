"""The events of a 掼蛋 (Guandan) match: shared/rules/guandan.md section 12. They live in the
match's stream, ``match-<tid>:<match id>``; every hand event names its hand number, so that an
event meant for another hand than the one in play is refused (``GD-12``).

Only what people and devices do is an event: the deal (with hand 1's first-lead draw), tribute,
anti-tribute, the winners' choice of assignment, returns, plays and passes, a referee's level
penalty, the timer's report of a move's time overrun (``GDTimeLimitExceeded``, GD-9). What
follows from them — anti-tribute, the tribute assignment, the revealed returns and the first
leader, a trick's end and 接风, a player going out, the hand's result and the levels,
the game and the match won — is derived by the fold and shown by the reads (``GUANDAN_DERIVED``).

Names: a type has one data schema, so where the spec's name is taken by SJ2 with another shape
the Guandan type carries ``GD``: ``GDHandDealt`` (27 cards each, no kitty, hand 1's marked card
and first leader) and ``GDCardsPlayed`` (with the reading ``wildAs``, GD-2.4). A referee's
penalty in Guandan is counted in levels, not points: ``LevelPenaltyAssessed``. The shared types
are reused, not copied: ``IrregularityReported``, ``HandVoided``, ``TimeLimitReached`` (T-5.4)
from shengji_events, ``RulingRecorded`` from tournament_events. Data keys are the spec's
(``wildAs``, ``markedCard``, ``firstLeader``).
"""
from marshmallow import fields, validate

from .catalogue import EventType, FullMatch
from .shengji_events import (
    CARD_PATTERN,
    RULE_PATTERN,
    StrictBoolean,
    card,
    hand_no,
    seat,
)
from .shengji_events import cards as card_list
from .tournament_events import DataSchema, _optional

_card = FullMatch(CARD_PATTERN, "must be a card: a rank 2-9, T, J, Q, K or A then a suit S, H, "
                                "D or C (e.g. TH, AS), or BJ / SJ for the jokers")
_rule = FullMatch(RULE_PATTERN, "must be a rule ID of the rules specification, e.g. GD-10.1")
_side = validate.OneOf(("A", "B"))
# GD-3.1: the combination types, as a play's reading names them (rules/guandan/combos.py TYPES)
# GD-9.1/9.2: the waits a time overrun names (rules/guandan/procedure.py TIME_LIMITS)
GD_WAIT_KINDS = ("tribute", "return", "firstLead", "play")
COMBINATION_TYPES = ("single", "pair", "triple", "fullHouse", "straight", "pairRun", "tripleRun",
                     "bomb", "straightFlush", "fourJokers")


class GDHandDealtData(DataSchema):
    """GD-1.1, GD-8.2, GD-8.4: the four hands as drawn (27 cards each, exactly two decks —
    checked by the rules, which name the rule broken). Hand 1 also records the first-lead draw:
    the card turned up at the cut (``markedCard``) and the seat that drew it (``firstLeader``,
    who leads first, GD-5.1)."""
    hand = hand_no()
    hands = fields.List(card_list(1, 60), required=True, validate=validate.Length(equal=4))
    markedCard = _optional(card())
    firstLeader = _optional(fields.Integer(strict=True, validate=validate.Range(min=0, max=3)))


class GDSeatData(DataSchema):
    """``AntiTributeDeclared`` (GD-7.5, ``antiTributeMode: optional``) and ``Passed`` (GD-5.2):
    the hand and the seat."""
    hand = hand_no()
    seat = seat()


class TributeCardData(DataSchema):
    """``TributePaid`` (GD-7.1, 7.2, 7.6) and ``TributeReturned`` (GD-7.4): one card from the
    seat."""
    hand = hand_no()
    seat = seat()
    card = fields.String(required=True, validate=_card)


class TributeAssignedData(DataSchema):
    """GD-7.3 with ``equalTributeAssignment: winnersChoose``: a winner names the payer whose
    (equal) tribute goes to the first player out of the previous hand."""
    hand = hand_no()
    seat = seat()
    toFirst = fields.Integer(required=True, strict=True, validate=validate.Range(min=0, max=3))


class GDCardsPlayedData(DataSchema):
    """GD-5.2, GD-2.4: the cards a seat plays, and the reading — for each heart level card used
    as a substitute, the card it stands for. Without ``wildAs`` the backend infers the reading
    when every reading is of one type; ``[]`` means every wildcard stands for itself.
    ``readAs``, the reading's type, keeps only readings of that type: ``straight`` reads five
    consecutive cards of one suit as a plain straight (GD-3.2 by the seed, 「不分花色」)."""
    hand = hand_no()
    seat = seat()
    cards = card_list(1, 60, required=True)
    wildAs = _optional(card_list(0, 10))
    readAs = _optional(fields.String(validate=validate.OneOf(COMBINATION_TYPES)))


class LevelPenaltyAssessedData(DataSchema):
    """A referee's or the committee's penalty in levels against a side (GD-9.3, GD-10.3: the
    committee decides the consequence): its level goes down by ``levels`` (never below 2), after
    the hand in play if there is one."""
    rule = fields.String(required=True, validate=_rule)
    side = fields.String(required=True, validate=_side)
    # 1 to 12 (from A down to 2) is a rule of the game, GD-1.2: rules/guandan/outcome.py
    levels = fields.Integer(required=True, strict=True)
    reason = _optional(fields.String(validate=validate.Length(min=1, max=2000)))


class GDTimeLimitExceededData(DataSchema):
    """GD-9 (timer; the spec's ``TimeLimitExceeded``, whose name MJO owns with other data):
    ``seat`` overran the time of the wait in progress — ``tribute`` (20 s from the deal),
    ``return`` (40 s from the tribute), ``firstLead`` (40 s from the return, or from the start
    of play without tribute), ``play`` (20 s from the previous play or pass). The consequence is
    the committee's (GD-9.3), or a pass with ``autoPassOnTimeout``."""
    hand = hand_no()
    seat = seat()
    kind = fields.String(required=True, validate=validate.OneOf(GD_WAIT_KINDS))


class GDHandResultRecordedData(DataSchema):
    """One row of a score sheet (match setting ``recording: "sheet"``, rules/guandan/sheet.py):
    hand ``hand``'s going-out ``order``, the four seats first out to last (GD-5.4), and
    ``antiTribute``, whether the losers refused tribute by the big jokers (GD-7.5). Level,
    tribute case, upgrade, the A rules and the match's end are derived (GD-6, GD-7.1, GD-11)."""
    hand = hand_no()
    order = fields.List(fields.Integer(strict=True, validate=validate.Range(min=0, max=3)),
                        required=True, validate=validate.Length(equal=4))
    antiTribute = _optional(StrictBoolean())


def _hand(name: str, schema) -> EventType:
    return EventType(name, schema, ("match",))


GUANDAN_EVENTS = (
    _hand("GDHandDealt", GDHandDealtData),
    _hand("AntiTributeDeclared", GDSeatData),
    _hand("TributePaid", TributeCardData),
    _hand("TributeAssigned", TributeAssignedData),
    _hand("TributeReturned", TributeCardData),
    _hand("GDCardsPlayed", GDCardsPlayedData),
    _hand("Passed", GDSeatData),
    EventType("LevelPenaltyAssessed", LevelPenaltyAssessedData, ("match",)),
    _hand("GDTimeLimitExceeded", GDTimeLimitExceededData),
    _hand("GDHandResultRecorded", GDHandResultRecordedData),  # a score sheet's row
)

# Derived facts of a Guandan match (guandan.md section 12 rows marked "derived"; HandStarted,
# HandCompleted and MatchCompleted are named with SJ2's): never posted.
GUANDAN_DERIVED = {
    "AntiTribute": "GET …/matches/{mid}/hands/{n} (tribute.anti_tribute)",
    "ReturnsRevealed": "GET …/matches/{mid}/hands/{n} (tribute.returns, first_leader)",
    "TrickEnded": "GET …/matches/{mid}/hands/{n} (tricks)",
    "PlayerFinished": "GET …/matches/{mid}/hands/{n} (order, seats[].place)",
    "LevelChanged": "GET /v1/tournaments/{tid}/matches/{mid} (levels, history)",
    "GameWon": "GET /v1/tournaments/{tid}/matches/{mid} (status, winner, reason)",
}
