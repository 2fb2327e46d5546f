"""Property tests of the 掼蛋 match fold (rules/guandan/match.py): whole matches played event by
event by the simulator's bots (random legal deals, tributes, anti-tributes, plays, passes and
the referee's time limits) under several settings never break a rule; after every event the
hand in play holds, with the cards played, exactly the 108 cards; every completed hand ends with
a full finishing order and moves the levels as GD-6 says; and every match ends (GD-11)."""
import random
from collections import Counter

import pytest

from projections import guandan_views
from projections.viewers import Viewer
from rules import matches
from rules.guandan.cards import LEVELS, two_decks
from rules.guandan.levels import advance, upgrade
from rules.guandan.seats import team_of
from service.simulator import guandan_bots

AT = "2019-06-08T10:00:00Z"


def start(settings: dict):
    return matches.apply(None, "MatchStarted", {
        "match_id": "R1-1", "game": "GD", "teams": {"A": "east", "B": "west"},
        "seats": ["甲", "丙", "乙", "丁"], "settings": settings}, AT)


def held_and_played(deal) -> Counter:
    played = Counter(c for t in deal.tricks + ((deal.trick,) if deal.trick else ())
                     for p in t["plays"] if not p.get("pass") for c in p["cards"])
    return played + Counter(c for cards in deal.state.hands for c in cards)


def check_result(row: dict) -> None:
    """GD-5.6, GD-6.1/6.2: a full finishing order and the winners' upgrade."""
    places = row["places"]
    assert len(set(places)) == len(places)
    if row["double_down"]:
        assert len(places) == 2 and team_of(places[0]) == team_of(places[1])
    else:
        assert sorted(places) == [0, 1, 2, 3] and team_of(places[0]) != team_of(places[1])
    team, steps = upgrade(places)
    assert (row["winning_team"], row["upgrade"]) == ("AB"[team], steps)
    side = row["winning_team"]
    if row["game_winner"] is None and not row["failed_attempt"]:
        assert row["levels"][side] == advance(row["levels_before"][side], steps)


def play(settings: dict, seed: int, seconds_per_move: float, max_events: int = 4000):
    m, rng, version, counts = start(settings), random.Random(seed), 1, Counter()
    while version < max_events:
        view = {**guandan_views.match_view(m, Viewer("referee")), "version": version}
        action = guandan_bots.next_action(view, rng, seconds_per_move)
        if action is None:
            return m, counts
        event_type, data = action
        m = matches.apply(m, event_type, data, AT)
        version += 1
        counts[event_type] += 1
        if m.hand is not None:
            assert held_and_played(m.hand) == two_decks()
            state = m.hand.state
            if state.phase == "play":
                assert state.hands[state.turn], "the seat on turn holds cards"
        for deal in m.finished:
            if deal.result is not None:
                check_result(deal.result)
    raise AssertionError(f"no end after {max_events} events")


@pytest.mark.parametrize("settings, seed, seconds_per_move", [
    ({}, 1, 9),
    ({"antiTributeMode": "optional", "equalTributeAssignment": "winnersChoose"}, 2, 6),
    ({"tributeWhenPartnerLast": "lastPays", "jiefeng": False, "enforcement": "record"}, 3, 6),
    ({"returnSingle": "natural2to10", "returnMayBeTributeCard": True,
      "fullHouseJokerPair": False}, 4, 6),
])
def test_gd_random_matches_keep_the_cards_and_end_by_the_rules(settings, seed, seconds_per_move):
    m, counts = play(settings, seed, seconds_per_move)
    assert m.status == "completed" and m.winner in ("A", "B")
    assert m.reason in ("game", "time", "overtime", "extraHand")
    assert len(m.history) == m.hands_played == counts["GDHandDealt"]
    assert all(level in LEVELS for level in m.standing.levels)
    assert counts["TimeLimitReached"] >= 1 or m.reason == "game"
    assert counts["TributePaid"] >= 1


def test_gd_a_match_without_a_clock_is_won_through_a():
    m, counts = play({}, 1, seconds_per_move=0.001, max_events=6000)
    assert (m.status, m.reason) == ("completed", "game")
    last = m.history[-1]
    assert last["level"] == "A" and last["game_winner"] == m.winner
    assert last["places"][0] % 2 == "AB".index(m.winner)
    assert counts["TimeLimitReached"] == 0
