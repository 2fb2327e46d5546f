"""The events of a mahjong table (shared/rules/mahjong-ottawa.md section 10; the engine is shared
with the Sichuan game, mahjong-sichuan.md section 11, whose tables add 换三张, the void suits and
the referee's penalties; and the dice that break ties in the Sichuan event's groups, T-7.2). They live in the table's match stream,
``match-<tid>:<match id>``; every hand event names its hand number, so that an event meant for
another hand than the one in play is refused (``MJO-10``).

Only what people and devices do is an event: dice, the deal, draws, discards, claims and passes,
a win, the timer's facts, penalties. What follows from them — which claim takes a discard
(``ClaimsResolved``), the exchange of three (``ExchangeCompleted``), the exhaustive draw
(``DrawGame``), every payment of a hand with its cause (``PaymentRecorded``), a hand's payments
and the balances (``HandCompleted``), the end of the session and its ranking
(``SessionCompleted``) — is derived by the fold and shown by the reads (see
``MAHJONG_DERIVED``).

Names: the card games own ``HandDealt`` (cards and a kitty); a mahjong deal is ``TilesDealt``,
so that the edge can check tile notation (a type has one data schema). The shared types
``RulingRecorded``, ``LotsDrawn`` (tournament_events) and ``TimeLimitReached``
(shengji_events) are reused, not copied.
"""
from marshmallow import ValidationError, fields, validate, validates_schema

from .catalogue import EventType, FullMatch
from .shengji_events import RULE_PATTERN, HandStepData, StrictBoolean, hand_no, seat
from .tournament_events import ID_PATTERN, DataSchema, _optional

# README §3: 1m..9m, 1p..9p, 1s..9s, winds E S W N, dragons C F P.
TILE_PATTERN = r"^(?:[1-9][mps]|[ESWNCFP])$"
_tile = FullMatch(TILE_PATTERN, "must be a tile: 1m-9m, 1p-9p, 1s-9s, a wind E S W N or a "
                                "dragon C F P")
_rule = FullMatch(RULE_PATTERN, "must be a rule ID of the rules specification, e.g. MJO-4.2")
_entrant = FullMatch(ID_PATTERN, "must be an entrant (team id)")
_text = validate.Length(min=1, max=2000)


def tile(**kwargs) -> fields.String:
    return fields.String(validate=_tile, **kwargs)


def tiles(low: int, high: int, **kwargs) -> fields.List:
    return fields.List(tile(), validate=validate.Length(min=low, max=high), **kwargs)


def _die() -> fields.Integer:
    """A die's face: 1 to 6 is a rule of the game (MJO-2.1, MJO-2.3, MJS-2.1, T-7.2), refused
    with its rule by the folds (rules/mahjong/wall.roll_total), not here."""
    return fields.Integer(strict=True)


def _throw(**kwargs) -> fields.List:
    """One throw of two dice (MJO-2.1, MJO-2.3)."""
    return fields.List(_die(), validate=validate.Length(equal=2), **kwargs)


def _optional_seat() -> fields.Integer:
    return _optional(fields.Integer(strict=True, validate=validate.Range(min=0, max=3)))


def _given(data: dict, name: str) -> bool:
    return data.get(name) is not None


DICE_PURPOSES = ("firstDealer", "wallBreak", "exchange")
_OF_A_HAND = ("wallBreak", "exchange")


class DiceRolledData(DataSchema):
    """MJO-2.1 / MJS-1.3: each seat rolls for the first dealer (``firstDealer``; ties among the
    highest roll again); MJO-2.3: the dealer and then the second roller break the wall of hand
    ``hand`` (``wallBreak``); MJS-2.1: the dealer rolls for 换三张 of hand ``hand``
    (``exchange``; the first die is the red one)."""
    purpose = fields.String(required=True, validate=validate.OneOf(DICE_PURPOSES))
    seat = seat()
    dice = _throw(required=True)
    hand = _optional(fields.Integer(strict=True, validate=validate.Range(min=1, max=1000)))

    @validates_schema
    def _hand_of_a_wall_break(self, data: dict, **kwargs) -> None:
        if data.get("purpose") in _OF_A_HAND and not _given(data, "hand"):
            raise ValidationError({"hand": [f"required when purpose is {data['purpose']}"]})


_ONE_WAY = ("give either hands (and optionally wall) or walls (and optionally dice), not both "
            "or neither")


class TilesDealtData(DataSchema):
    """MJO-2.3 / MJO-2.4 (the spec's ``HandDealt`` row): either the four ``hands`` as dealt
    (dealer 14, others 13) with, optionally, the live ``wall`` in draw order; or the four
    ``walls`` as built (each read from its owner's right to left, top tile of a stack first)
    and the two wall-break throws ``dice`` (default: the hand's recorded ``DiceRolled``
    ``wallBreak`` throws), from which the deal is made. ``dealer`` defaults to the session's."""
    hand = hand_no()
    dealer = _optional_seat()
    hands = _optional(fields.List(tiles(0, 20), validate=validate.Length(equal=4)))
    wall = _optional(tiles(0, 136))
    walls = _optional(fields.List(tiles(0, 68), validate=validate.Length(equal=4)))
    dice = _optional(fields.List(_throw(), validate=validate.Length(equal=2)))

    @validates_schema
    def _one_way_of_dealing(self, data: dict, **kwargs) -> None:
        if _given(data, "hands") == _given(data, "walls"):
            raise ValidationError({"hands": [_ONE_WAY]})
        if _given(data, "wall") and not _given(data, "hands"):
            raise ValidationError({"wall": ["the live wall goes with hands, not walls"]})
        if _given(data, "dice") and not _given(data, "walls"):
            raise ValidationError({"dice": ["the wall-break throws go with walls"]})


class TileData(DataSchema):
    """``TileDiscarded`` (MJO-3.2): the seat on turn and the tile."""
    hand = hand_no()
    seat = seat()
    tile = tile(required=True)


class TileDrawnData(TileData):
    """MJO-3.2, MJO-2.4: the next tile of the wall; ``fromEnd`` for a kong replacement (MJS-1.2)."""
    fromEnd = _optional(StrictBoolean())


CLAIM_KINDS = ("win", "pong", "chow", "kong")


class ClaimData(DataSchema):
    """MJO-4.1 – 4.5: a claim on the open discard, with the tiles from the claimer's hand that go
    with it (two for a pong or chow; a kong is refused in MJO, MJO-4.3)."""
    hand = hand_no()
    seat = seat()
    kind = fields.String(required=True, validate=validate.OneOf(CLAIM_KINDS))
    tiles = _optional(tiles(0, 3))


class SeatStepData(DataSchema):
    """``ClaimPassed`` (MJO-4.5) and ``ExhaustiveDrawDeclared`` (MJO-6.1): a seat's answer."""
    hand = hand_no()
    seat = seat()


_ONLY_ON_A_DISCARD = "only a win on a discard (selfDrawn false) names the discarder"


class WinData(DataSchema):
    """MJO-5.4: a self-drawn win (``selfDrawn`` true, the default; ``tile`` is the tile just
    drawn), or a win on the open discard of ``discarder`` (``selfDrawn`` false, with ``tile``),
    which counts as that seat's win claim (MJO-4.4)."""
    hand = hand_no()
    seat = seat()
    tile = _optional(tile())
    selfDrawn = _optional(StrictBoolean())
    discarder = _optional_seat()

    @validates_schema
    def _how(self, data: dict, **kwargs) -> None:
        if data.get("selfDrawn") is False:
            missing = {name: ["required for a win on a discard (selfDrawn false)"]
                       for name in ("discarder", "tile") if not _given(data, name)}
            if missing:
                raise ValidationError(missing)
        elif _given(data, "discarder"):
            raise ValidationError({"discarder": [_ONLY_ON_A_DISCARD]})


class KongDeclaredData(DataSchema):
    """MJS-3.4 (MJO-4.3: no kongs at all): a concealed or an added kong of ``tile``."""
    hand = hand_no()
    seat = seat()
    kind = fields.String(required=True, validate=validate.OneOf(("concealed", "added")))
    tile = tile(required=True)


TIME_LIMITS = ("firstDiscard", "discard", "pong")


class TimeLimitExceededData(DataSchema):
    """MJO-8.1 / 8.2 (timer): ``seat`` overran a limit — the dealer's first discard (30 s), a
    discard (15 s) or a pong call (3 s). No automatic sanction; the committee decides."""
    hand = hand_no()
    seat = seat()
    limit = fields.String(required=True, validate=validate.OneOf(TIME_LIMITS))


class CoinPenaltyData(DataSchema):
    """A referee's coin penalty at an MJO table (MJO-9.3: the committee rules): ``seat`` pays
    ``coins`` to each seat of ``payees``, or, without payees, loses them (paid to no one)."""
    hand = _optional(fields.Integer(strict=True, validate=validate.Range(min=1, max=1000)))
    rule = fields.String(required=True, validate=_rule)
    seat = seat()
    coins = fields.Integer(required=True, strict=True, validate=validate.Range(min=1, max=1000))
    payees = _optional(fields.List(fields.Integer(strict=True, validate=validate.Range(
        min=0, max=3)), validate=validate.Length(min=1, max=3)))
    reason = _optional(fields.String(validate=_text))


# --- the Sichuan game (mahjong-sichuan.md section 11) ---------------------------------------

class ExchangeTilesSelectedData(DataSchema):
    """MJS-2.1: the three tiles of one suit the seat passes in 换三张 (hidden until all four)."""
    hand = hand_no()
    seat = seat()
    tiles = tiles(3, 3, required=True)


VOID_SUITS = ("m", "p", "s")


class VoidSuitDeclaredData(DataSchema):
    """MJS-2.2: the suit the seat's winning hand will lack, declared once before the first
    discard (hidden until all four)."""
    hand = hand_no()
    seat = seat()
    suit = fields.String(required=True, validate=validate.OneOf(VOID_SUITS))


WARNING_OFFENCES = ("earlyDraw", "peek", "falsePong", "falseKong", "slow")


class WarningIssuedData(DataSchema):
    """MJS-10.2 / 10.3 (referee): ``seat`` drew early, peeked at the wall, called pong or kong
    without making it (a warning the first time, the loss of the right to win the second), or
    discarded too slowly (a warning); three warnings in a hand cost 10."""
    hand = hand_no()
    seat = seat()
    offence = fields.String(required=True, validate=validate.OneOf(WARNING_OFFENCES))


WRONG_COUNTS = ("tooMany", "tooFew")


class WrongTileCountData(DataSchema):
    """MJS-9.1 (referee): 相公 — ``seat`` holds too many (大相公) or too few (小相公) tiles."""
    hand = hand_no()
    seat = seat()
    count = fields.String(required=True, validate=validate.OneOf(WRONG_COUNTS))


DISCLOSURES = ("ownHand", "otherHand")


class ConductPenaltyData(DataSchema):
    """MJS-10.4 / 10.5 (referee): ``seat`` disclosed his own hand (``ownHand``: −20) or named
    the hand of ``victim`` (``otherHand``: 30 to him, no more winning this hand)."""
    hand = hand_no()
    seat = seat()
    offence = fields.String(required=True, validate=validate.OneOf(DISCLOSURES))
    victim = _optional_seat()

    @validates_schema
    def _victim_of_a_naming(self, data: dict, **kwargs) -> None:
        if data.get("offence") == "otherHand" and not _given(data, "victim"):
            raise ValidationError({"victim": ["required when offence is otherHand"]})
        if data.get("offence") == "ownHand" and _given(data, "victim"):
            raise ValidationError({"victim": ["only naming another player's hand has a victim"]})


class TieDiceRolledData(DataSchema):
    """T-7.2 / T-7.5 (the Sichuan event, tournament stream): one round of dice among players
    tied in stage ``round`` — at a table for a qualifying place, or in the ranking — each
    player's two dice; the higher total goes first, equal totals roll again."""
    round = fields.Integer(required=True, strict=True, validate=validate.Range(min=1, max=64))
    rolls = fields.Dict(keys=fields.String(validate=_entrant), values=_throw(), required=True,
                        validate=validate.Length(min=2, max=64))


def _hand(name: str, schema) -> EventType:
    return EventType(name, schema, ("match",))


MAHJONG_EVENTS = (
    _hand("DiceRolled", DiceRolledData),
    _hand("TilesDealt", TilesDealtData),
    _hand("TileDrawn", TileDrawnData),
    _hand("TileDiscarded", TileData),
    _hand("Claim", ClaimData),
    _hand("ClaimPassed", SeatStepData),
    _hand("ClaimWindowClosed", HandStepData),   # the timer: the hand number alone (MJO-4.5)
    _hand("Win", WinData),
    _hand("KongDeclared", KongDeclaredData),
    _hand("ExhaustiveDrawDeclared", SeatStepData),
    _hand("TimeLimitExceeded", TimeLimitExceededData),
    _hand("CoinPenaltyAssessed", CoinPenaltyData),
    # the Sichuan game (MJS-2, MJS-9, MJS-10)
    _hand("ExchangeTilesSelected", ExchangeTilesSelectedData),
    _hand("VoidSuitDeclared", VoidSuitDeclaredData),
    _hand("WarningIssued", WarningIssuedData),
    _hand("FalseWinDeclared", SeatStepData),
    _hand("WrongTileCount", WrongTileCountData),
    _hand("ConductPenaltyAssessed", ConductPenaltyData),
    EventType("TieDiceRolled", TieDiceRolledData, ("tournament",)),
)

# Derived facts of a mahjong table (MJO section 10 rows marked "derived"; HandStarted and
# HandCompleted are named with the card games' derived facts): never posted.
MAHJONG_DERIVED = {
    "ClaimsResolved": "GET …/matches/{mid}/hands/{n} (melds, wins, claim_window)",
    "DrawGame": "GET …/matches/{mid}/hands/{n} (result; draw_checks in MJS)",
    "ExchangeCompleted": "GET …/matches/{mid}/hands/{n} (exchange)",
    "PaymentRecorded": "GET …/matches/{mid}/hands/{n} (ledger)",
    "SessionCompleted": "GET /v1/tournaments/{tid}/matches/{mid} (status, ranking)",
}
