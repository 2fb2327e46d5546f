"""The deadlines of a Shengji match (rules/shengji/deadlines.py through ``rules.matches``): the
declaration window (SJ2-4.7) and the dealer's pause (SJ3-3.6), the SJ3 move limits (SJ3-11.8,
7.3), the round's time (SJ2-14.4, SJ3-12.1) and the pair not seated at minute 21 (T-6.6), on the
match fold itself (no HTTP, no scheduler).

The invariant of every deadline: its event is accepted by the fold at its due time and refused
one microsecond earlier with the deadline's rule, and once applied the deadline is no longer
pending. It is checked on chosen positions and, bounded by size (fixed seeds, a fixed number of
events), at every step of matches played by the simulator's bots whose moves come at random
delays — so that windows close and moves overrun by the timer — with the match clock now and then
paused by the referee.
"""
from __future__ import annotations

import json
import random
from collections import Counter
from datetime import datetime, timedelta, timezone

import pytest
from deadline_checks import FoldedMatch, check_deadlines
from sj2_table import build_deal

from projections.shengji_views import match_view
from projections.viewers import Viewer
from rules import RuleViolation, matches
from rules.match_clock import timestamp
from rules.shengji import match as sj2
from rules.shengji import obligations, sj3
from rules.shengji.stated_leads import lead_components
from service.simulator import bots

T0 = datetime(2006, 5, 27, 9, 0, tzinfo=timezone.utc)
US = timedelta(microseconds=1)
S = timedelta(seconds=1)
MIN = timedelta(minutes=1)
REFEREE = Viewer("referee")
SIZES = {"SJ2": {"decks": 2, "kitty_size": 8}, "SJ3": {"decks": 3, "kitty_size": 6}}


class Timed(FoldedMatch):
    """A match folded through ``rules.matches`` with the server's time moved by the test."""

    def __init__(self, game: str = "SJ3", settings: dict | None = None):
        self.game = game
        super().__init__({
            "match_id": "R1-1", "game": game, "round": 1, "teams": {"A": "east", "B": "west"},
            "seats": ["甲", "丙", "乙", "丁"], "settings": settings or {}}, T0)

    def refused(self, rule: str, event_type: str, after: float = 1, **data) -> None:
        with pytest.raises(RuleViolation) as info:
            matches.apply(self.state, event_type, data,
                          timestamp(self.now + timedelta(seconds=after)))
        assert info.value.rule == rule, info.value

    @property
    def hand(self):
        return self.state.hand

    def deal(self, fixed: dict[int, str] | None = None, kitty=None, seed: int = 7,
             no: dict[int, str] | None = None, after: float = 1) -> dict:
        m = self.state
        number = m.hand.number if m.hand is not None and m.hand.phase == "voided" else m.next_hand
        dealt = build_deal(fixed or {}, kitty, seed, no, **SIZES[self.game])
        self.post("HandDealt", after, hand=number, **dealt)
        return dealt

    def to_play(self, fixed: dict[int, str], no: dict[int, str] | None = None) -> None:
        """Hand 1: seat 0 declares 2S (and so deals), the window closes by the timer, the kitty
        is taken 2 s later and buried back: the hand waits for the first lead."""
        dealt = self.deal({0: "2S " + fixed.get(0, ""), **{s: v for s, v in fixed.items() if s}},
                          no=no)
        self.post("TrumpDeclared", 1, hand=1, seat=0, card="2S")
        self.post("DrawingEnded" if self.game == "SJ3" else "DealCompleted", 1, hand=1)
        self.fire("h1/declaration/1")
        self.post("KittyTaken", 2, hand=1)
        self.post("KittyBuried", 5, hand=1, cards=dealt["kitty"])


def summary(table: Timed) -> list[tuple]:
    return [(d.key, d.due - T0, d.event_type, dict(d.data), d.rule)
            for d in check_deadlines(table.state)]


def test_both_engine_modules_offer_the_deadlines():
    assert sj2.deadlines is sj3.deadlines
    assert matches.ENGINES["SJ2"].deadlines is matches.ENGINES["SJ3"].deadlines


# --- SJ2-4.7: the declaration window -------------------------------------------------------------

def test_sj2_4_7_the_window_closes_15_s_after_the_deal_and_fixes_trump_and_the_dealer():
    table = Timed("SJ2")
    table.deal({0: "2S"}, after=60)
    table.post("TrumpDeclared", 3, hand=1, seat=0, card="2S")     # while the cards are drawn
    assert summary(table) == []                                   # the window has no clock yet
    table.post("DealCompleted", 20, hand=1)
    assert summary(table) == [("h1/declaration/1", 83 * S + 15 * S, "DeclarationWindowClosed",
                               {"hand": 1}, "SJ2-4.7")]
    table.fire("h1/declaration/1")
    h = table.hand
    assert (h.phase, h.dealer, h.trump.suit, h.trump_source) == ("kitty", 0, "S", "declaration")
    assert table.pending() == {}                                  # SJ2 times no move


def test_sj2_4_7_each_overcall_restarts_the_15_s_and_after_the_close_reopens_the_window():
    table = Timed("SJ2")
    table.deal({0: "2S", 1: "2H 2H", 2: "BJ BJ"})
    table.post("TrumpDeclared", 1, hand=1, seat=0, card="2S")
    table.post("DealCompleted", 1, hand=1)
    table.post("TrumpOvercalled", 10, hand=1, seat=1, cards=["2H", "2H"])
    overcalled = table.now - T0
    assert summary(table) == [("h1/declaration/2", overcalled + 15 * S,
                               "DeclarationWindowClosed", {"hand": 1}, "SJ2-4.7")]
    table.fire("h1/declaration/2")
    assert (table.hand.dealer, table.hand.trump.suit) == (1, "H")
    # SJ2-4.8 (seed rule 4): until the kitty is taken an overcall opens the window again
    table.post("TrumpOvercalled", 4, hand=1, seat=2, cards=["BJ", "BJ"])
    assert (table.hand.phase, table.hand.trump) == ("declaring", None)
    assert summary(table) == [("h1/declaration/3", table.now - T0 + 15 * S,
                               "DeclarationWindowClosed", {"hand": 1}, "SJ2-4.7")]
    table.fire("h1/declaration/3")
    h = table.hand
    assert (h.dealer, h.trump.suit, h.trump_source) == (2, None, "declaration")   # no-trump


def test_sj2_4_9_without_a_declaration_the_timer_turns_kitty_card_3_and_lots_pick_the_dealer():
    table = Timed("SJ2")
    table.deal(kitty="4S 5S 6D 7C 8C 9C TC JC")     # nobody declares
    table.post("DealCompleted", 1, hand=1)
    table.fire("h1/declaration/0")
    h = table.hand
    assert (h.phase, h.trump.suit, h.trump_source) == ("awaiting_dealer", "D", "kitty3")
    assert table.pending() == {}                       # SJ2-5.2: the referee draws the lots


def test_sj2_14_4_the_time_limit_counts_from_the_start_and_between_hands_ends_the_match():
    table = Timed("SJ2", {"timeLimitMinutes": 120})
    assert summary(table) == [("time/120", 120 * MIN, "TimeLimitReached",
                               {"limit_minutes": 120}, "SJ2-14.4")]
    table.fire("time/120")
    # SJ2-14.3: levels equal, no hand in play: lots decide at once; no clock runs any more
    assert (table.state.time_called, table.state.status) == (120, "awaiting_lots")
    assert matches.deadlines(table.state) == ()


def test_sj2_record_mode_runs_no_table_clock_only_the_rounds():
    """A scorer transcribing a physical table records later than play: the timer closes no
    window there; the round's time counts from the start as the engine judges it."""
    table = Timed("SJ2", {"enforcement": "record", "timeLimitMinutes": 120})
    table.deal({0: "2S"})
    table.post("DealCompleted", 1, hand=1)
    assert [key for key, *_ in summary(table)] == ["time/120"]


# --- SJ3-3.6: the dealer's pause ---------------------------------------------------------------

def test_sj3_3_6_the_timer_ends_the_pause_5_s_after_drawing_fixing_trump_and_the_dealer():
    table = Timed("SJ3")
    table.deal({0: "2S", 1: "2H 2H"}, after=30)
    table.post("TrumpDeclared", 5, hand=1, seat=0, card="2S")
    table.post("DrawingEnded", 40, hand=1)
    drawn = table.now - T0
    assert summary(table)[0] == ("h1/declaration/1", drawn + 5 * S, "DeclarationWindowClosed",
                                 {"hand": 1}, "SJ3-3.6")
    table.fire("h1/declaration/1")
    h = table.hand
    assert (h.phase, h.dealer, h.trump.suit, h.trump_source) == ("kitty", 0, "S", "reveal")
    table.post("KittyTaken", 2, hand=1)
    taken = table.now - T0
    assert summary(table)[0] == ("h1/kitty", taken + 60 * S, "SJ3TimeLimitExceeded",
                                 {"hand": 1, "seat": 0, "kind": "kitty"}, "SJ3-11.8")
    table.refused("SJ3-3.6", "TrumpOvercalled", hand=1, seat=1, cards=["2H", "2H"])


def test_sj3_3_6_a_counter_reveal_after_the_pause_before_the_kitty_reopens_and_closes_at_once():
    """Seed 004 〈4〉: no counter-reveal once the dealer has taken the kitty — the kitty is the
    cut-off, as in SJ2. The pause is not restarted (counterRevealRestartsPause false), so the
    window closes again at once, under a new key; in hand 1 the counter-reveal seizes the deal."""
    table = Timed("SJ3")
    table.deal({0: "2S", 1: "2H 2H"})
    table.post("TrumpDeclared", 1, hand=1, seat=0, card="2S")
    table.post("DrawingEnded", 1, hand=1)
    table.fire("h1/declaration/1")
    paused_until = table.now - T0
    table.post("TrumpOvercalled", 1, hand=1, seat=1, cards=["2H", "2H"])
    assert (table.hand.phase, table.hand.dealer, table.hand.trump) == ("declaring", None, None)
    assert summary(table)[0] == ("h1/declaration/2", paused_until, "DeclarationWindowClosed",
                                 {"hand": 1}, "SJ3-3.6")
    table.post("DeclarationWindowClosed", 0.5, hand=1)     # the timer, catching up
    assert (table.hand.phase, table.hand.dealer, table.hand.trump.suit) == ("kitty", 1, "H")


def test_sj3_3_6_with_the_setting_a_counter_reveal_restarts_the_pause():
    table = Timed("SJ3", {"counterRevealRestartsPause": True})
    table.deal({0: "2S", 1: "2H 2H"})
    table.post("TrumpDeclared", 1, hand=1, seat=0, card="2S")
    table.post("DrawingEnded", 1, hand=1)
    table.post("TrumpOvercalled", 3, hand=1, seat=1, cards=["2H", "2H"])
    assert summary(table)[0][:2] == ("h1/declaration/2", table.now - T0 + 5 * S)


def test_sj3_3_7_hand_1_without_a_reveal_is_void_at_the_end_of_the_pause_and_dealt_again():
    table = Timed("SJ3")
    table.deal()
    table.post("DrawingEnded", 1, hand=1)
    table.fire("h1/declaration/0")
    assert (table.hand.phase, table.hand.void_reason) == (
        "voided", "SJ3-3.7: no one revealed trump during the dealer's pause")
    table.deal({1: "2C"}, seed=8)
    table.post("DrawingEnded", 1, hand=1)
    assert "h1.1/declaration/0" in table.pending()      # the second deal of hand 1


def test_sj3_3_6_the_kitty_after_the_pause_still_works_when_nobody_closed_it():
    table = Timed("SJ3")
    table.deal({0: "2S"})
    table.post("TrumpDeclared", 1, hand=1, seat=0, card="2S")
    table.post("DrawingEnded", 1, hand=1)
    table.refused("SJ3-3.6", "KittyTaken", 4.9, hand=1)
    table.post("KittyTaken", 5, hand=1)
    assert (table.hand.phase, table.hand.trump.suit) == ("burying", "S")
    assert "h1/declaration/1" not in table.pending()


# --- SJ3-11.8 / 7.3: the move limits -------------------------------------------------------------

def test_sj3_11_8_60_s_to_bury_and_lead_then_15_s_to_lead_and_10_s_to_follow():
    table = Timed("SJ3")
    table.to_play({0: "AH"})
    taken = table.now - T0 - 5 * S
    assert summary(table)[0] == ("h1/kitty", taken + 60 * S, "SJ3TimeLimitExceeded",
                                 {"hand": 1, "seat": 0, "kind": "kitty"}, "SJ3-11.8")
    table.post("CardsPlayed", 20, hand=1, seat=0, cards=["AH"])
    assert summary(table)[0] == ("h1/t1/p1/follow", table.now - T0 + 10 * S,
                                 "SJ3TimeLimitExceeded", {"hand": 1, "seat": 1, "kind": "follow"},
                                 "SJ3-11.8")
    for _ in range(3):
        h = table.hand
        seat = h.turn()
        table.post("CardsPlayed", 2, hand=1, seat=seat, cards=[_a_follow(h, seat)])
    winner = table.hand.tricks[-1].winner
    assert summary(table)[0] == ("h1/t2/p0/lead", table.now - T0 + 15 * S,
                                 "SJ3TimeLimitExceeded", {"hand": 1, "seat": winner,
                                                          "kind": "lead"}, "SJ3-11.8")


def _a_follow(h, seat: int) -> str:
    """A legal follow to a single lead (the rules' own generator, as the bots use it)."""
    stated = None if h.trick.components is None else [list(c.cards) for c in h.trick.components]
    lead = lead_components(h.trick.plays[0][1], h.trump, stated)
    return obligations.random_follow(lead, list(h.hands[seat]), h.trump, random.Random(0))[0]


def test_sj3_11_8_the_first_overrun_of_a_side_is_a_warning_the_second_costs_20():
    """Ex 10 (time): side A's first overrun → a warning; its second (same match) → 20 points;
    side B's first → a warning. Each wait is reported once."""
    table = Timed("SJ3")
    table.to_play({0: "AH"})
    table.fire("h1/kitty")                                # seat 0 (A): warning
    assert "h1/kitty" not in table.pending()
    table.post("CardsPlayed", 1, hand=1, seat=0, cards=["AH"])
    table.fire("h1/t1/p1/follow")                         # seat 1 (B): warning
    table.post("CardsPlayed", 1, hand=1, seat=1, cards=[_a_follow(table.hand, 1)])
    table.fire("h1/t1/p2/follow")                         # seat 2 (A) again: 20 points
    m = table.state
    assert [(b["seat"], b["side"], b["kind"], b["consequence"]) for b in m.time_breaches] == [
        (0, "A", "kitty", "warning"), (1, "B", "follow", "warning"),
        (2, "A", "follow", "penalty")]
    assert [(p["rule"], p["side"], p["points"]) for p in m.hand.penalties] == [
        ("SJ3-11.8", "A", 20)]
    assert [i["rule"] for i in m.hand.irregularities] == ["SJ3-11.8", "SJ3-11.8"]


def test_sj3_7_3_the_designator_has_throw_choice_seconds_then_the_default_is_played():
    table = Timed("SJ3", {"throwChoiceSeconds": 12})
    table.to_play({0: "AH AH KH KH 8H", 1: "AH"}, no={1: "H"})
    table.post("CardsPlayed", 3, hand=1, seat=0, cards=["AH", "AH", "KH", "KH", "8H"],
               structure=[["AH", "AH", "KH", "KH"], ["8H"]])
    thrown = table.now - T0
    assert summary(table)[0] == ("h1/t1/p0/throwChoice", thrown + 12 * S,
                                 "SJ3TimeLimitExceeded",
                                 {"hand": 1, "seat": 1, "kind": "throwChoice"}, "SJ3-7.3")
    table.fire("h1/t1/p0/throwChoice")
    trick = table.hand.trick
    assert (trick.plays[0], trick.throw["chosen"]) == ((0, ("8H",)), "default")
    assert table.state.time_breaches == ()                # SJ3-7.3: no breach is counted
    assert summary(table)[0][:2] == ("h1/t1/p1/follow", thrown + 12 * S + 10 * S)


# --- SJ3-12.1: the alert ------------------------------------------------------------------------

def test_sj3_12_1_the_alert_at_minute_80_of_the_match_and_the_hand_in_play_is_the_last():
    table = Timed("SJ3")
    assert summary(table)[-1] == ("time/80", 80 * MIN, "TimeLimitReached",
                                  {"limit_minutes": 80}, "SJ3-12.1")
    table.to_play({0: "AH"})
    table.fire("time/80")
    assert (table.state.time_called, table.state.status) == (80, "playing")
    assert "time/80" not in table.pending() and "h1/kitty" in table.pending()


# --- T-6.6: a pair not seated at minute 21 ------------------------------------------------

def test_t_6_6_a_pair_not_seated_when_minute_21_begins_forfeits_the_round():
    table = Timed("SJ3")
    assert summary(table)[0] == ("lateness/A+B", 20 * MIN, "LatenessLimitReached",
                                 {"sides": ["A", "B"]}, "T-6.6")
    table.post("PairSeated", 30, side="A")
    assert summary(table)[0] == ("lateness/B", 20 * MIN, "LatenessLimitReached",
                                 {"sides": ["B"]}, "T-6.6")
    table.fire("lateness/B")
    m = table.state
    assert (m.status, m.winner, m.forfeited_by, m.reason) == ("completed", "A", "B", "forfeit")
    assert m.lateness == ({"side": "B", "minutes": 21, "rule": "T-6.6",
                           "consequence": "roundForfeited", "points": 0},)
    assert sj2.match_result(m)["levels"] == {"A": 4, "B": 2}


def test_t_6_6_both_pairs_missing_both_forfeit():
    table = Timed("SJ3")
    table.fire("lateness/A+B")
    m = table.state
    assert (m.status, m.winner, m.forfeited_by) == ("completed", None, "both")
    assert sj2.match_result(m)["match_points"] == {"A": 0, "B": 0}


def test_t_6_6_the_referees_count_or_the_first_deal_tells_the_pair_is_seated():
    counted = Timed("SJ3")
    counted.post("LatenessRecorded", 60, side="B", minutes=12)       # sat down 12 min late
    assert "lateness/A" in counted.pending()
    counted.post("PairSeated", 1, side="A")
    assert not any(k.startswith("lateness") for k in counted.pending())
    assert counted.state.first_hand_penalties[0]["points"] == 30
    dealt = Timed("SJ3")
    dealt.deal()
    assert not any(k.startswith("lateness") for k in dealt.pending())


def test_t_6_6_what_the_table_and_the_timer_may_record():
    table = Timed("SJ3")
    table.post("PairSeated", 1, side="B")
    table.refused("T-6.6", "PairSeated", side="B")                       # once
    table.refused("T-6.6", "LatenessLimitReached", 20 * 60, sides=["B"])  # B is seated
    table.refused("T-6.6", "LatenessLimitReached", 20 * 60, sides=["A", "A"])
    table.deal()
    table.refused("T-6.6", "PairSeated", side="A")                       # both, once dealt
    table.refused("T-6.6", "LatenessLimitReached", 20 * 60, sides=["A"])
    sj2_match = Timed("SJ2")
    sj2_match.refused("SJ2-16", "PairSeated", side="A")                  # no ladder in SJ2
    assert not any(k.startswith("lateness") for k in sj2_match.pending())


def test_sj3_record_mode_runs_no_table_clock_and_no_lateness_only_the_alert():
    table = Timed("SJ3", {"enforcement": "record"})
    table.deal({0: "2S"})
    table.post("TrumpDeclared", 1, hand=1, seat=0, card="2S")
    table.post("DrawingEnded", 1, hand=1)
    assert [key for key, *_ in summary(table)] == ["time/80"]


# --- the referee's pause (T-1.5) -----------------------------------------------------------------

def test_a_pause_moves_every_deadline_by_the_paused_time():
    table = Timed("SJ3")
    table.to_play({0: "AH"})
    table.post("CardsPlayed", 2, hand=1, seat=0, cards=["AH"])
    before = {k: table.wall(d) for k, d in table.pending().items()}
    assert set(before) == {"h1/t1/p1/follow", "time/80"}
    table.post("MatchClockPaused", 4, reason="a ruling")
    assert all(table.wall(d) is None for d in table.pending().values())   # nothing falls due
    check_deadlines(table.state)
    table.post("MatchClockResumed", 40)
    moved = {k: table.wall(d) for k, d in table.pending().items()}
    assert moved == {k: due + 40 * S for k, due in before.items()}
    check_deadlines(table.state)
    with pytest.raises(RuleViolation) as info:        # the old time has passed, not the new
        matches.apply(table.state, "SJ3TimeLimitExceeded",
                      {"hand": 1, "seat": 1, "kind": "follow"},
                      timestamp(before["h1/t1/p1/follow"] + 39 * S))
    assert info.value.rule == "SJ3-11.8"
    table.fire("h1/t1/p1/follow")
    assert table.now == before["h1/t1/p1/follow"] + 40 * S


def test_a_pause_moves_the_sj2_window_too():
    table = Timed("SJ2")
    table.deal({0: "2S"})
    table.post("DealCompleted", 1, hand=1)
    due = table.wall(table.pending()["h1/declaration/0"])
    table.post("MatchClockPaused", 3)
    table.post("MatchClockResumed", 20)
    assert table.wall(table.pending()["h1/declaration/0"]) == due + 20 * S
    check_deadlines(table.state)


# --- properties over simulated matches ------------------------------------------------------------

DELAYS = (0.3, 0.8, 1.5, 2, 3, 4, 6, 9, 12, 20, 70)  # seconds before a bot's next move
PAUSE_CHANCE = 0.01
MAX_EVENTS = 2500
LIMIT = 40  # minutes: the round's time limit (SJ2-14.4) or the alert (SJ3-12.1), 3-4 hands
SIMULATED = {
    ("SJ2", 0): {"timeLimitMinutes": LIMIT}, ("SJ2", 1): {"timeLimitMinutes": LIMIT},
    ("SJ2", 2): {"timeLimitMinutes": LIMIT, "firstDeclarationAfterDealRestartsWindow": False},
    ("SJ3", 0): {"alertAtMinute": LIMIT}, ("SJ3", 1): {"alertAtMinute": LIMIT},
    ("SJ3", 2): {"alertAtMinute": LIMIT, "counterRevealRestartsPause": True,
                 "timeWarningScope": "sidePerHand", "throwChoiceSeconds": 5},
}


def simulate(game: str, seed: int):
    """A match played by the simulator's bots, each move after a random delay — unless a
    deadline comes first, whose event the timer then records at its time — with the match
    clock now and then paused and resumed. The bots' own closing of the window (SJ2) and their
    kitty before the end of the pause (SJ3) wait for the timer. Yields (state before, event,
    how, state after)."""
    rng, table = random.Random(seed), Timed(game, SIMULATED[game, seed])
    for _ in range(MAX_EVENTS):
        state = table.state
        if state.status == "completed":
            return
        when = table.now + timedelta(seconds=rng.choice(DELAYS))
        pending = [d for d in matches.deadlines(state) if table.wall(d) is not None]
        first = min(pending, key=lambda d: (table.wall(d), d.key), default=None)
        if state.match_clock.running and rng.random() < PAUSE_CHANCE:
            event, how = ("MatchClockPaused", {"reason": "ruling"}), "referee"
        elif not state.match_clock.running:
            event, how = ("MatchClockResumed", {}), "referee"
        else:
            event, how = _bot_move(state, rng), "bot"
            if first is not None and (table.wall(first) <= when or _waits(state, event, first)):
                event, how = (first.event_type, dict(first.data)), first
                when = max(table.wall(first), table.now)
        table.now = when
        table.state = matches.apply(state, *event, timestamp(when))
        yield state, event, how, table.state
    pytest.fail(f"the {game} match did not end within {MAX_EVENTS} events")


def _bot_move(state, rng: random.Random) -> tuple[str, dict]:
    """The bots' next event; an SJ3 window closed by the timer: the dealer takes the kitty."""
    if state.game == "SJ3" and state.hand is not None and state.hand.phase == "kitty":
        return "KittyTaken", {"hand": state.hand.number}
    return bots.next_action(json.loads(json.dumps(match_view(state, REFEREE))), rng)


def _waits(state, event: tuple[str, dict], first) -> bool:
    """The move is the timer's (SJ2's close), or must wait for the pause's end (SJ3-3.6)."""
    return event[0] == "DeclarationWindowClosed" or (
        event[0] == "KittyTaken" and state.hand.phase == "declaring")


@pytest.mark.parametrize("game", ["SJ2", "SJ3"])
@pytest.mark.parametrize("seed", range(3))
def test_every_deadline_of_a_simulated_match_holds_at_every_step(game, seed):
    fired, steps, m = Counter(), 0, None
    for before, (event_type, data), how, m in simulate(game, seed):
        check_deadlines(m)
        steps += 1
        now_pending = {d.key for d in matches.deadlines(m)}
        if how not in ("bot", "referee"):            # the timer fired it: no longer pending
            fired[event_type] += 1
            assert how.key not in now_pending
        if event_type in ("CardsPlayed", "ThrowPenaltyChoice"):   # the awaited move
            assert not [d.key for d in matches.deadlines(before)
                        if d.seat == data["seat"] and d.key in now_pending]
        if event_type in ("KittyTaken", "DeclarationWindowClosed", "HandDealt"):
            assert not [d.key for d in matches.deadlines(before)
                        if d.event_type in ("DeclarationWindowClosed", "LatenessLimitReached")
                        and d.key in now_pending]
    assert steps > 250 and m.status == "completed"
    assert m.time_called == LIMIT or m.reason == "target"
    assert {"DeclarationWindowClosed", "TimeLimitReached"} <= set(fired) or m.reason == "target"
    if game == "SJ3":
        assert fired["SJ3TimeLimitExceeded"] > 0
        _breaches_are_warned_then_penalised(m)


def _breaches_are_warned_then_penalised(m) -> None:
    """SJ3-11.8: per side (per match, or per hand with sidePerHand) the first breach is a
    warning, each later one 20 points in the hand it happened in."""
    per_hand = m.settings.timeWarningScope == "sidePerHand"
    seen = Counter()
    for breach in m.time_breaches:
        scope = (breach["side"], breach["hand"] if per_hand else None)
        assert breach["consequence"] == ("penalty" if seen[scope] else "warning"), breach
        seen[scope] += 1
    hands = {h.number: h for h in m.finished if h.phase == "completed"}
    for number, h in hands.items():
        for side in "AB":
            penalised = sum(1 for b in m.time_breaches if b["hand"] == number
                            and b["side"] == side and b["consequence"] == "penalty")
            assert [p["points"] for p in h.penalties if p["rule"] == "SJ3-11.8"
                    and p["side"] == side] == [20] * penalised
