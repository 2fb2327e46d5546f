"""A Shengji match, event by event: hands one after another, levels, dealers and the match result
(shengji-2deck.md SJ2-2, SJ2-5, SJ2-13, SJ2-14).

:func:`apply` is the fold step of a match stream: ``(match, event type, data, recorded_at)`` →
the next :class:`Match`, or :class:`RuleViolation`. Every hand event names its hand; an event for
a hand that has not been dealt, or has ended, is refused (SJ2-16).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from types import MappingProxyType
from typing import Mapping

from ..violations import RuleViolation
from . import hand as hands
from . import scoring
from .hand import SJ2, Hand, Variant
from .settings import Settings, parse_settings

VARIANTS: Mapping[str, Variant] = MappingProxyType({"SJ2": SJ2})
START_LEVELS = MappingProxyType({"A": 2, "B": 2})  # SJ2-2.1


@dataclass(frozen=True)
class Match:
    match_id: str
    game: str
    round: int | None
    teams: Mapping[str, str]            # side -> team id
    seats: tuple[str, ...]              # the players at seats 0-3
    settings: Settings
    variant: Variant
    levels: Mapping[str, int] = field(default_factory=lambda: START_LEVELS)
    hand: Hand | None = None            # the hand in play, or the last one played
    next_dealer: int | None = None      # the dealer of the next hand (None before hand 2)
    history: tuple[Mapping, ...] = ()   # one result row per completed hand
    finished: tuple[Hand, ...] = ()     # completed and voided hands, in order
    time_called: int | None = None      # minutes of a time limit reached (SJ2-14.4)
    status: str = "playing"             # "playing" | "awaiting_lots" | "completed"
    winner: str | None = None           # side
    reason: str | None = None           # "target" | "maxHands" | "time" | "lots"
    rulings: tuple[Mapping, ...] = ()
    started_at: datetime | None = None  # MatchStarted's recorded time: the round's clock

    @property
    def hands_played(self) -> int:
        """Completed hands: a voided deal does not count (SJ2-14.1)."""
        return len(self.history)

    @property
    def next_hand(self) -> int:
        return self.hands_played + 1

    def hand_number(self, number: int) -> Hand | None:
        """Hand ``number`` as it stands: in play, or as it ended (the last deal of that number)."""
        if self.hand is not None and self.hand.number == number:
            return self.hand
        return next((h for h in reversed(self.finished) if h.number == number), None)


def check_settings(raw: Mapping) -> None:
    """SJ2-18: the match settings a tournament gives its matches."""
    parse_settings(raw)


def seat_players(players: Mapping[str, list[str]]) -> list[str]:
    """SJ2-1.2: partners sit opposite — side A at seats 0 and 2, side B at 1 and 3."""
    for side, names in players.items():
        if len(names) != 2:
            raise RuleViolation("SJ2-1.2", f"side {side} has {len(names)} players; a side is "
                                           "two partners")
    return [players["A"][0], players["B"][0], players["A"][1], players["B"][1]]


def start(data: Mapping, at: datetime | None = None) -> Match:
    """MatchStarted: the two teams (side A at seats 0 and 2, side B at 1 and 3, SJ2-1.2), the
    players and the settings (SJ2-18); its time starts the round's clock (SJ2-14.4)."""
    variant = VARIANTS.get(data["game"])
    if variant is None:
        raise RuleViolation("T-1.1", f"{data['game']} matches are not played by this engine")
    if sorted(data["teams"]) != ["A", "B"] or data["teams"]["A"] == data["teams"]["B"]:
        raise RuleViolation("SJ2-1.2", "a match is between two different teams, sides A and B")
    return Match(match_id=data["match_id"], game=data["game"], round=data.get("round"),
                 teams=MappingProxyType(dict(data["teams"])), seats=tuple(data["seats"]),
                 settings=parse_settings(data.get("settings", {})), variant=variant,
                 started_at=at)


def play_level(m: Match) -> str:
    """SJ2-2.2: a hand is played at the dealer side's level; hand 1 at 2 (both sides start at 2)."""
    if m.next_dealer is None:
        return scoring.level_name(m.levels["A"])
    return scoring.level_name(m.levels[scoring.side_of(m.next_dealer)])


# --- events of the match ---------------------------------------------------------------------

def deal(m: Match, data: Mapping) -> Match:
    """HandDealt: the next hand, or a new deal of a voided hand (SJ2-5.2)."""
    _must_be_playing(m)
    number = data["hand"]
    if m.hand is not None and m.hand.in_play:
        raise RuleViolation("SJ2-16", f"hand {m.hand.number} is still being played; it must end "
                                      "before the next deal")
    redeal = m.hand is not None and m.hand.phase == "voided" and m.hand.number == number
    if number != m.next_hand and not redeal:
        raise RuleViolation("SJ2-16", f"the next hand to deal is hand {m.next_hand}, not {number}")
    if m.time_called is not None:
        raise RuleViolation("SJ2-14.4", "the round's time limit has passed; no new hand is dealt")
    dealt = hands.deal(number, play_level(m), m.next_dealer, m.settings, m.variant, data)
    return replace(m, hand=dealt)


def _must_be_playing(m: Match) -> None:
    if m.status == "completed":
        raise RuleViolation("SJ2-14", f"the match is over: side {m.winner} won ({m.reason})")
    if m.status == "awaiting_lots":
        raise RuleViolation("SJ2-14.3", "the levels are equal after the last hand: lots must "
                                        "decide the match (LotsDrawn, purpose matchTie)")


def current_hand(m: Match, number: int) -> Hand:
    """The hand an event names must be the one in play (SJ2-16)."""
    _must_be_playing(m)
    h = m.hand
    if h is None or number > h.number:
        raise RuleViolation("SJ2-16", f"hand {number} has not been dealt")
    if number < h.number or not h.in_play:
        how = "was voided and must be dealt again" if h.phase == "voided" else "has ended"
        raise RuleViolation("SJ2-16", f"hand {number} {how}")
    return h


def with_hand(m: Match, h: Hand) -> Match:
    """The match after its hand changed: a completed hand moves levels and dealer on (SJ2-13)
    and may end the match (SJ2-14); a voided one waits for a new deal."""
    if h.phase == "voided":  # dealt again, unless the time is up: then the levels decide
        m = replace(m, hand=h, finished=m.finished + (h,))
        return _decided(m) if m.time_called is not None else m
    if h.phase != "completed":
        return replace(m, hand=h)
    outcome = h.result["result"]
    levels = scoring.apply_result(dict(m.levels), h.dealer, outcome)
    row = _result_row(m, h, levels)
    h = replace(h, result=row)
    m = replace(m, hand=h, finished=m.finished + (h,), history=m.history + (row,),
                levels=MappingProxyType(levels),
                next_dealer=row["next_dealer"])
    return _decided(m)


def _result_row(m: Match, h: Hand, levels: Mapping[str, int]) -> dict:
    """The full result row of a hand (SJ2-16 HandCompleted, derived)."""
    outcome = h.result["result"]
    return {**h.result, "result": outcome.to_dict(), "hand": h.number, "dealer": h.dealer,
            "dealer_side": h.dealer_side, "level": h.level,
            "trump": h.trump.suit if h.trump.suit else "NT",
            "levels_before": {side: scoring.level_name(v) for side, v in m.levels.items()},
            "levels": {side: scoring.level_name(v) for side, v in levels.items()},
            "leveling_side": scoring.leveling_side(h.dealer, outcome) if outcome.levels else None,
            "next_dealer": scoring.next_dealer(h.dealer, outcome.deal_passes)}


def _decided(m: Match) -> Match:
    """SJ2-14: past the target level wins at once; otherwise after maxHands (or once a time
    limit has passed, SJ2-14.4) the higher level wins and equal levels go to lots."""
    target = scoring.level_value(m.settings.targetLevel)
    winner, reason = scoring.match_winner(dict(m.levels), m.hands_played, target,
                                          m.settings.maxHands)
    if reason is None and m.time_called is not None:
        winner, reason = scoring.time_limit_winner(dict(m.levels))
    if reason is None:
        return m
    if winner is None:
        return replace(m, status="awaiting_lots")
    return replace(m, status="completed", winner=winner, reason=reason)


def time_limit(m: Match, data: Mapping, at: datetime | None) -> Match:
    """TimeLimitReached (SJ2-14.4): only with a time limit set, once, and not before it has
    passed on the server's clock; the hand in play is finished, then SJ2-14.3 decides."""
    _must_be_playing(m)
    limit = m.settings.timeLimitMinutes
    if limit is None or data["limit_minutes"] != limit:
        raise RuleViolation("SJ2-14.4", f"this match's time limit is {limit} minutes"
                            if limit else "this match has no time limit (timeLimitMinutes)")
    if m.time_called is not None:
        raise RuleViolation("SJ2-14.4", "the time limit has already been reached")
    ends = m.started_at + timedelta(minutes=limit)
    if at is not None and at < ends:
        raise RuleViolation("SJ2-14.4", f"the {limit} minutes end at "
                                        f"{ends.strftime('%Y-%m-%dT%H:%M:%S.%fZ')}, not before")
    m = replace(m, time_called=limit)
    if m.hand is not None and m.hand.in_play:
        return m
    return _decided(m)


def match_lots(m: Match, data: Mapping) -> Match:
    """LotsDrawn{purpose: matchTie} (SJ2-14.3): lots between the two sides at equal levels."""
    if m.status != "awaiting_lots":
        raise RuleViolation("SJ2-14.3", "lots decide a match only when its levels are equal at "
                                        "the end")
    if sorted(data["candidates"]) != ["A", "B"]:
        raise RuleViolation("SJ2-14.3", "the match-tie lots are drawn between sides A and B")
    return replace(m, status="completed", winner=data["winner"], reason="lots")


def record_ruling(m: Match, data: Mapping) -> Match:
    """RulingRecorded on this match (SJ2-15.3)."""
    return replace(m, rulings=m.rulings + ({"text": data["text"], "effect": data.get("effect")},))


# --- the fold step -----------------------------------------------------------------------------

_HAND_EVENTS = {
    "TrumpDeclared": hands.declare,
    "TrumpOvercalled": hands.overcall,
    "DealCompleted": lambda h, data, at: hands.deal_completed(h, at),
    "DeclarationWindowClosed": lambda h, data, at: hands.close_window(h, at),
    "KittyTaken": lambda h, data, at: hands.take_kitty(h),
    "KittyBuried": lambda h, data, at: hands.bury_kitty(h, data),
    "KittyCorrected": lambda h, data, at: hands.correct_kitty(h, data),
    "CardsPlayed": lambda h, data, at: hands.play(h, data),
    "PlayCorrected": lambda h, data, at: hands.correct_play(h, data),
    "PenaltyAssessed": lambda h, data, at: hands.assess_penalty(h, data),
    "IrregularityReported": lambda h, data, at: hands.report_irregularity(h, data),
    "HandVoided": lambda h, data, at: hands.void(h, data),
}

_MATCH_EVENTS = {
    "HandDealt": lambda m, data, at: deal(m, data),
    "TimeLimitReached": time_limit,
    "RulingRecorded": lambda m, data, at: record_ruling(m, data),
}


def apply(m: Match | None, event_type: str, data: dict, at: str | None = None) -> Match:
    """The next state of a match stream after one event recorded at ``at``."""
    if event_type == "MatchStarted":
        if m is not None:
            raise RuleViolation("SJ2-16", "the match has already started")
        return start(data, _moment(at))
    if m is None:
        raise RuleViolation("SJ2-16", "the match has not started (MatchStarted comes first)")
    if event_type in _MATCH_EVENTS:
        return _MATCH_EVENTS[event_type](m, data, _moment(at))
    if event_type == "LotsDrawn":
        if data["purpose"] == "matchTie":
            return match_lots(m, data)
        if data["purpose"] not in ("declaration", "dealer"):
            raise RuleViolation("T-1.4", f"lots for {data['purpose']} are drawn in the "
                                         "tournament's stream, not a match's")
    step = _HAND_EVENTS.get(event_type, hands.lots if event_type == "LotsDrawn" else None)
    if step is None:
        raise RuleViolation("SJ2-16", f"{event_type} is not an event of a {m.game} match")
    h = current_hand(m, data["hand"])
    return with_hand(m, step(h, data, _moment(at)))


def _moment(at: str | None) -> datetime | None:
    return None if at is None else datetime.fromisoformat(at.replace("Z", "+00:00"))
