"""A Shengji match, event by event: hands one after another, levels, dealers and the match result
(shengji-2deck.md SJ2-2, SJ2-5, SJ2-13, SJ2-14; shengji-3deck.md SJ3-4, SJ3-10, SJ3-12 and, for
seed 004's team event, lateness and the round's time, tournaments.md T-6.5, T-6.6).

:func:`apply` is the fold step of a match stream: ``(match, event type, data, recorded_at)`` →
the next :class:`Match`, or :class:`RuleViolation`. Every hand event names its hand; an event for
a hand that has not been dealt, or has ended, is refused (SJ2-16, SJ3-13). ``MatchStarted``
names the game, SJ2 or SJ3, which picks the variant (``hand.Variant``) and its settings.
"""
from __future__ import annotations

from datetime import datetime, timedelta
from types import MappingProxyType
from typing import Mapping

from ..frozen import evolve
from ..match_clock import maybe_moment as _moment
from ..match_clock import timestamp
from ..messages import N_, Message, Sentence
from ..violations import RuleViolation
from . import dealing, irregularities, kitty, lateness, scoring, sheet, tricks
from .deadlines import deadlines  # noqa: F401  (the engine's pending time rules, rules.deadlines)
from .hand import POINTS_PENALTY, Hand
from .hand_result import scored
# forfeited: this engine's for rules/ruling_effects.py (a forfeit or disqualification, T-6.5)
from .match_state import (MATCH_RULES, SETTINGS, START_LEVELS, VARIANTS, Match,  # noqa: F401
                          forfeited, level_names, must_be_playing)
from .settings import Settings, parse_settings


def check_settings(raw: Mapping) -> None:
    """SJ2-18: the match settings a tournament gives its matches."""
    parse_settings(raw, Settings)


def seat_players(players: Mapping[str, list[str]], rule: str = "SJ2-1.2") -> list[str]:
    """SJ2-1.2 / SJ3-1.2: partners sit opposite — side A at seats 0 and 2, side B at 1 and 3."""
    for side, names in players.items():
        if len(names) != 2:
            raise RuleViolation(rule, "side {side} has {count} players; a side is two partners",
                                      side=side, count=len(names))
    return [players["A"][0], players["B"][0], players["A"][1], players["B"][1]]


def start(data: Mapping, at: datetime | None = None) -> Match:
    """MatchStarted: the two teams (side A at seats 0 and 2, side B at 1 and 3, SJ2-1.2), the
    players and the settings (SJ2-18, SJ3-15); its time starts the round's clock (SJ2-14.4,
    SJ3-12.1)."""
    game = data["game"]
    variant = VARIANTS.get(game)
    if variant is None:
        raise RuleViolation("T-1.1", "{game} matches are not played by this engine",
                                     game=game)
    if sorted(data["teams"]) != ["A", "B"] or data["teams"]["A"] == data["teams"]["B"]:
        raise RuleViolation(MATCH_RULES[game]["sides"], "a match is between two different "
                                                         "teams, sides A and B")
    return Match(match_id=data["match_id"], game=game, round=data.get("round"),
                 teams=MappingProxyType(dict(data["teams"])), seats=tuple(data["seats"]),
                 settings=parse_settings(data.get("settings", {}), SETTINGS[game]),
                 variant=variant, started_at=at)


def play_level(m: Match) -> str:
    """SJ2-2.2 / SJ3-2.1: a hand is played at the dealer side's level; a first deal at the level
    both sides share (2 in hand 1)."""
    if m.next_dealer is None:
        return scoring.level_name(m.levels["A"])
    return scoring.level_name(m.levels[scoring.side_of(m.next_dealer)])


# --- events of the match ---------------------------------------------------------------------

def deal(m: Match, data: Mapping) -> Match:
    """HandDealt: the next hand, or a new deal of a voided hand (SJ2-5.2, SJ3-3.7, SJ3-11.6).
    The first hand played carries the lateness points (T-6.6)."""
    must_be_playing(m)
    number = data["hand"]
    lifecycle = m.variant.rule("lifecycle")
    if m.hand is not None and m.hand.in_play:
        raise RuleViolation(lifecycle, "hand {number} is still being played; it must end "
                                       "before the next deal",
                                       number=m.hand.number)
    redeal = m.hand is not None and m.hand.phase == "voided" and m.hand.number == number
    if number != m.next_hand and not redeal:
        raise RuleViolation(lifecycle, "the next hand to deal is hand {next_hand}, not {number}",
                                       next_hand=m.next_hand, number=number)
    if m.time_called is not None:
        raise RuleViolation(m.rule("time"), "the round's time limit has passed; no new hand is "
                                            "dealt")
    dealt = dealing.deal(number, play_level(m), m.next_dealer, m.settings, m.variant, data)
    return evolve(m, hand=_with_first_hand_penalties(m, dealt))


def _with_first_hand_penalties(m: Match, h: Hand) -> Hand:
    """T-6.6: the first hand played carries the lateness points."""
    if all(f.phase == "voided" for f in m.finished):  # no hand has been played yet
        for penalty in m.first_hand_penalties:
            h = irregularities.add_penalty(h, lateness.RULE, penalty["side"], penalty["points"],
                                           "engine", penalty["reason"])
    return h


def record_row(m: Match, data: Mapping) -> Match:
    """HandResultRecorded (``recording: "sheet"``, rules/shengji/sheet.py): the score sheet's
    row of the next hand, checked as a deal is (the next hand, the match not over, no time
    limit passed), scored as a hand played card by card, and folded like one (:func:`with_hand`)."""
    sheet.by_sheet_only(m.settings, m.variant)
    must_be_playing(m)
    number, lifecycle = data["hand"], m.variant.rule("lifecycle")
    if number != m.next_hand:
        raise RuleViolation(lifecycle, "the next hand to record is hand {next_hand}, not "
                                       "{number}",
                                       next_hand=m.next_hand, number=number)
    if m.time_called is not None:
        raise RuleViolation(m.rule("time"), "the round's time limit has passed; no new hand is "
                                            "played")
    h, counted = sheet.hand_from_row(number, play_level(m), m.next_dealer, m.settings,
                                     m.variant, data)
    return with_hand(m, scored(_with_first_hand_penalties(m, h), *counted))


def current_hand(m: Match, number: int) -> Hand:
    """The hand an event names must be the one in play (SJ2-16, SJ3-13)."""
    if m.status != "playing":
        must_be_playing(m)
    h = m.hand
    if h is None or number > h.number:
        raise RuleViolation(m.variant.rule("lifecycle"), "hand {number} has not been dealt",
                                                         number=number)
    if number < h.number or not h.in_play:
        if h.phase == "voided":
            raise RuleViolation(m.variant.rule("lifecycle"), "hand {number} was voided and "
                                                             "must be dealt again",
                                                             number=number)
        raise RuleViolation(m.variant.rule("lifecycle"), "hand {number} has ended",
                                                         number=number)
    return h


def with_hand(m: Match, h: Hand) -> Match:
    """The match after its hand changed: a completed hand moves levels and dealer on (SJ2-13,
    SJ3-4.2) and may end the match (SJ2-14, SJ3-12); a voided one waits for a new deal."""
    if h.phase == "voided":  # dealt again, unless the time is up: then the levels decide
        m = evolve(m, hand=h, finished=m.finished + (h,))
        return decided(m) if m.time_called is not None else m
    if h.phase != "completed":
        return evolve(m, hand=h)
    outcome = h.result["result"]
    levels = scoring.apply_result(dict(m.levels), h.dealer, outcome, m.settings.level_cap)
    row = _result_row(m, h, levels)
    h = evolve(h, result=row)
    m = evolve(m, hand=h, finished=m.finished + (h,), history=m.history + (row,),
                levels=MappingProxyType(levels), next_dealer=row["next_dealer"])
    return decided(m)


def _result_row(m: Match, h: Hand, levels: Mapping[str, int]) -> dict:
    """The full result row of a hand (SJ2-16 / SJ3-13 HandCompleted, derived)."""
    outcome = h.result["result"]
    trump = None if h.trump is None else (h.trump.suit or "NT")
    return {**h.result, "result": outcome.to_dict(), "hand": h.number, "dealer": h.dealer,
            "dealer_side": h.dealer_side, "level": h.level, "trump": trump,
            "levels_before": level_names(m.levels), "levels": level_names(levels),
            "leveling_side": scoring.leveling_side(h.dealer, outcome) if outcome.levels else None,
            "next_dealer": scoring.next_dealer(h.dealer, outcome.deal_passes)}


def decided(m: Match) -> Match:
    """SJ2-14 / SJ3-12: past the target level wins at once (SJ2: ``targetLevel``; SJ3: past A);
    otherwise after ``maxHands`` (SJ2), or once a time limit has passed and the hand in play is
    finished (SJ2-14.4, SJ3-12.1), the higher level wins; equal levels go to lots (SJ2-14.3) or
    are a draw (SJ3-12.2)."""
    settings = m.settings
    winner, reason = scoring.match_winner(dict(m.levels), m.hands_played, settings.target_level,
                                          settings.max_hands)
    if reason is None and m.time_called is not None:
        winner, reason = scoring.time_limit_winner(dict(m.levels))
    if reason is None:
        return m
    if winner is None and settings.equal_levels == "lots":
        return evolve(m, status="awaiting_lots")
    if winner is None:
        reason = "time" if reason == "lots" else reason
    return evolve(m, status="completed", winner=winner, reason=reason)


def time_limit(m: Match, data: Mapping, at: datetime | None) -> Match:
    """TimeLimitReached (SJ2-14.4; SJ3-12.1: the chief referee's alert at ``alertAtMinute``,
    「自宣布之时起手中正在打的这副牌打完结束比赛」): only with a time limit set, once, and not before it
    has passed on the server's clock since the round started — ``round_started_at``, the first
    table's start, for the one alert of a round of several tables (「终场前10分钟裁判长统一提醒」),
    else this match's MatchStarted; the hand in play is finished, then the levels decide (a hand
    is in play once dealt; between hands the match ends at once)."""
    must_be_playing(m)
    limit, rule = m.settings.time_limit_minutes, m.rule("time")
    if limit is None or data["limit_minutes"] != limit:
        if not limit:
            raise RuleViolation(rule, "this match has no time limit (timeLimitMinutes)")
        raise RuleViolation(rule, "this match's time limit is {limit} minutes", limit=limit)
    if m.time_called is not None:
        raise RuleViolation(rule, "the time limit has already been reached")
    started = _round_start(m, data, rule)
    ends = started + timedelta(minutes=limit) if started else None
    if at is not None and ends is not None and at < ends:
        raise RuleViolation(rule, "the {limit} minutes end at {timestamp}, not before",
                                  limit=limit, timestamp=timestamp(ends))
    m = evolve(m, time_called=limit)
    if m.hand is not None and m.hand.in_play:
        return m
    return decided(m)


def _round_start(m: Match, data: Mapping, rule: str) -> datetime | None:
    """The moment the round's time counts from: ``round_started_at`` if given — never after this
    table started (a round starts with its first table) — else MatchStarted's time."""
    if "round_started_at" not in data:
        return m.started_at
    started = _moment(data["round_started_at"])
    if m.started_at is not None and started > m.started_at:
        raise RuleViolation(rule, "the round cannot have started at {round_started_at}, after "
                                  "this table started at {timestamp}",
                                  round_started_at=data['round_started_at'],
                                  timestamp=timestamp(m.started_at))
    return started


def match_lots(m: Match, data: Mapping) -> Match:
    """LotsDrawn{purpose: matchTie} (SJ2-14.3): lots between the two sides at equal levels."""
    if m.status != "awaiting_lots":
        raise RuleViolation("SJ2-14.3", "lots decide a match only when its levels are equal at "
                                        "the end")
    if sorted(data["candidates"]) != ["A", "B"]:
        raise RuleViolation("SJ2-14.3", "the match-tie lots are drawn between sides A and B")
    return evolve(m, status="completed", winner=data["winner"], reason="lots")


def record_ruling(m: Match, data: Mapping) -> Match:
    """RulingRecorded on this match (SJ2-15.3): its words are kept with the match. What it
    does — ``effects``, and a disqualification written as the single ``effect``
    ``{"kind": "disqualify", "side": "A"}`` (SJ3-11.9: the round forfeited, T-6.5), the same
    ruling as ``effects: [{"kind": "disqualify", "entrant": …}]`` — is applied by the ruled
    fold (rules/rulings.py, rules/ruling_effects.py), after the match's end too (T-1.8)."""
    return evolve(m, rulings=m.rulings + ({"text": data["text"], "effect": data.get("effect")},))


# --- SJ3: move times (SJ3-11.8); lateness (T-6.6) is lateness.py's -----------------------------

# the moves whose time is kept, by their codes (SJ3TimeLimitExceeded.kind), which the English shows
_MOVE_WORDS = {  # i18n: a move of SJ3 whose time ran out ("seat 2 overran the lead time")
    "kitty": N_("kitty"), "lead": N_("lead"), "follow": N_("follow")}

def _move_word(kind: str) -> Message | str:
    word = _MOVE_WORDS.get(kind)
    return kind if word is None else Message(word)


def time_overrun(m: Match, data: Mapping, at: datetime | None) -> Match:
    """SJ3TimeLimitExceeded (SJ3-11.8, 「第一次警告，以后每次扣20分」): a move's overrun, reported by the
    timer; the side's first breach (per match, or per hand with ``timeWarningScope:
    sidePerHand``) is a warning, each later one costs it 20 points in the hand in play. A
    designator's overrun (SJ3-7.3) plays the default choice and counts no breach."""
    h = tricks.overrun(current_hand(m, data["hand"]), data, at)
    if data["kind"] == "throwChoice":
        return with_hand(m, h)
    seat = data["seat"]
    side = scoring.side_of(seat)
    earlier = [b for b in m.time_breaches if b["side"] == side and
               (m.settings.timeWarningScope == "sidePerMatch" or b["hand"] == h.number)]
    breach = {"hand": h.number, "seat": seat, "side": side, "kind": data["kind"],
              "consequence": "penalty" if earlier else "warning"}
    kind = _move_word(data["kind"])
    if earlier:
        h = irregularities.add_penalty(h, "SJ3-11.8", side, POINTS_PENALTY, "engine",
                                       Message("seat {seat} overran the {kind} time again: 20 "
                                               "points", seat=seat, kind=kind))
    else:
        warning = {"rule": "SJ3-11.8", "seat": seat,
                   "detail": Sentence(Message("seat {seat} overran the {kind} time: warning",
                                              seat=seat, kind=kind))}
        h = evolve(h, irregularities=h.irregularities + (warning,))
    return with_hand(evolve(m, time_breaches=m.time_breaches + (breach,)), h)


# --- the result the team event reads (T-6.5, SJ3-12.2) --------------------------------------

def match_result(m: Match) -> dict | None:
    """SJ3-12.2 / 12.4, T-6.5: the result of a completed match — the winning side (None: a draw,
    or both forfeited), the levels as recorded (a forfeit: 4 : 2), each side's level difference
    and match points (``matchPoints``), the forfeit and the lateness recorded. None while the
    match is being played."""
    if m.status != "completed":
        return None
    points = m.settings.match_points
    forfeit = m.forfeited_by is not None
    levels = dict(m.levels)
    if m.forfeited_by in ("A", "B"):
        levels = {m.winner: lateness.FORFEIT_LEVELS["winner"],
                  m.forfeited_by: lateness.FORFEIT_LEVELS["loser"]}
    if m.forfeited_by == "both":
        match_points = {"A": points["loss"], "B": points["loss"]}
        levels = dict(START_LEVELS)
    elif m.winner is None:
        match_points = {"A": points["draw"], "B": points["draw"]}
    else:
        match_points = {m.winner: points["win"], scoring.other_side(m.winner): points["loss"]}
    return {"winner": m.winner, "winner_team": m.teams[m.winner] if m.winner else None,
            "draw": m.winner is None and not forfeit, "reason": m.reason,
            "forfeit": forfeit, "forfeited_by": m.forfeited_by, "teams": dict(m.teams),
            "levels": levels,
            "level_difference": {"A": levels["A"] - levels["B"], "B": levels["B"] - levels["A"]},
            "match_points": match_points, "hands_played": m.hands_played,
            "lateness": [dict(entry) for entry in m.lateness]}


# --- the fold step -----------------------------------------------------------------------------

_HAND_EVENTS = {
    "TrumpDeclared": dealing.declare,
    "TrumpOvercalled": dealing.overcall,
    "DealCompleted": lambda h, data, at: dealing.deal_completed(h, at),
    "DrawingEnded": lambda h, data, at: dealing.deal_completed(h, at),
    "DeclarationWindowClosed": lambda h, data, at: dealing.close_window(h, at),
    "KittyTaken": kitty.take_kitty,
    "KittyBuried": lambda h, data, at: kitty.bury_kitty(h, data),
    "KittyCorrected": lambda h, data, at: kitty.correct_kitty(h, data),
    "CardsPlayed": tricks.play,  # the play sets the move's time itself
    "PlayCorrected": lambda h, data, at: tricks.correct_play(h, data),
    "ThrowPenaltyChoice": lambda h, data, at: tricks.choose_throw_component(h, data),
    "PenaltyAssessed": lambda h, data, at: irregularities.assess_penalty(h, data),
    "IrregularityReported": lambda h, data, at: irregularities.report_irregularity(h, data),
    "HandVoided": lambda h, data, at: irregularities.void(h, data),
    "LotsDrawn": dealing.lots,
}
# the moves a time limit counts from (SJ3-11.8, SJ3-7.3), besides CardsPlayed (tricks.play)
_MOVES = ("KittyTaken", "ThrowPenaltyChoice")

_MATCH_EVENTS = {
    "HandDealt": lambda m, data, at: deal(m, data),
    "TimeLimitReached": time_limit,
    "RulingRecorded": lambda m, data, at: record_ruling(m, data),
    "LatenessRecorded": lambda m, data, at: lateness.record_lateness(m, data),
    "SJ3TimeLimitExceeded": time_overrun,
    "PairSeated": lambda m, data, at: lateness.record_seated(m, data),
    "LatenessLimitReached": lateness.lateness_limit,
    sheet.ROW_EVENT: lambda m, data, at: record_row(m, data),
}
# what a match recorded from score sheets takes (sheet.py): the rows, and the match's own events
_SHEET_EVENTS = frozenset({"TimeLimitReached", "RulingRecorded", "LatenessRecorded", "PairSeated",
                           "LatenessLimitReached", sheet.ROW_EVENT})

_COMMON = {"HandDealt", "TimeLimitReached", "RulingRecorded", "TrumpDeclared", "TrumpOvercalled",
           "KittyTaken", "KittyBuried", "CardsPlayed", "PlayCorrected", "PenaltyAssessed",
           "IrregularityReported", "HandVoided", sheet.ROW_EVENT}
EVENTS: Mapping[str, frozenset[str]] = MappingProxyType({
    "SJ2": frozenset(_COMMON | {"DealCompleted", "DeclarationWindowClosed", "KittyCorrected",
                                "LotsDrawn"}),
    # SJ3-13: DrawingEnded for the end of the deal, the pause's end (DeclarationWindowClosed,
    # the timer's) or KittyTaken closes the reveals; throws are designated; lateness and move
    # times are the referee's, the table's (PairSeated) and the timer's
    "SJ3": frozenset(_COMMON | {"DrawingEnded", "DeclarationWindowClosed", "ThrowPenaltyChoice",
                                "LatenessRecorded", "PairSeated", "LatenessLimitReached",
                                "SJ3TimeLimitExceeded"}),
})


def apply(m: Match | None, event_type: str, data: dict, at: str | None = None) -> Match:
    """The next state of a match stream after one event recorded at ``at``."""
    if event_type == "MatchStarted":
        if m is not None:
            raise RuleViolation("SJ2-16", "the match has already started")
        return start(data, _moment(at))
    if m is None:
        raise RuleViolation("SJ2-16", "the match has not started (MatchStarted comes first)")
    if event_type not in EVENTS[m.game]:
        raise RuleViolation(m.variant.rule("lifecycle"),
                            "{event_type} is not an event of a {game} match",
                            event_type=event_type, game=m.game)
    if event_type not in _SHEET_EVENTS and m.settings.by_sheet and not _match_tie(event_type, data):
        sheet.not_by_sheet(m.settings, m.variant, event_type)  # raises: a card event
    moment = _moment(at)
    if event_type in _MATCH_EVENTS:
        return _MATCH_EVENTS[event_type](m, data, moment)
    if event_type == "LotsDrawn":
        if data["purpose"] == "matchTie":
            return match_lots(m, data)
        if data["purpose"] not in ("declaration", "dealer"):
            raise RuleViolation("T-1.4", "lots for {purpose} are drawn in the tournament's "
                                         "stream, not a match's",
                                         purpose=data['purpose'])
    h = _HAND_EVENTS[event_type](current_hand(m, data["hand"]), data, moment)
    if event_type in _MOVES:
        h = tricks.move_clock(h, moment)
    return with_hand(m, h)


def _match_tie(event_type: str, data: Mapping) -> bool:
    """LotsDrawn{purpose: matchTie} (SJ2-14.3) decides a match, in a score-sheet match too."""
    return event_type == "LotsDrawn" and data.get("purpose") == "matchTie"
