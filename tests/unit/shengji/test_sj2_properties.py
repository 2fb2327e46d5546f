"""Properties of whole hands over random deals and random legal play, on the match fold itself
(no HTTP): cards are conserved at every step, the 200 points are all accounted for, and the
result row follows from the tricks exactly as SJ2-11 – SJ2-13 say.

Bounded by size: a fixed number of seeded matches of a few hands each."""
import random

import pytest

from projections.matches import Viewer, match_view
from rules import matches
from rules.shengji import scoring
from rules.shengji.cards import points
from rules.shengji.combos import pair_count
from service.simulator.bots import next_action

REFEREE = Viewer("referee")
SEEDS = range(12)
HANDS_PER_MATCH = 3


def start(settings: dict) -> object:
    return matches.apply(None, "MatchStarted", {
        "match_id": "m", "game": "SJ2", "teams": {"A": "east", "B": "west"},
        "seats": ["甲", "丙", "乙", "丁"], "settings": {"declarationWindowSeconds": 0,
                                                      "maxHands": HANDS_PER_MATCH, **settings}})


def play(seed: int, settings: dict | None = None):
    """Folds bot events until the match ends; yields (state, event type) after each event."""
    rng, state, second = random.Random(seed), start(settings or {}), 0
    while (action := next_action(match_view(state, REFEREE), rng)) is not None:
        second += 1
        at = f"2006-12-23T10:{second // 60 % 60:02d}:{second % 60:02d}.000000Z"
        state = matches.apply(state, action[0], action[1], at)
        yield state, action[0]


def cards_in_play(h) -> int:
    played = sum(len(cards) for t in h.tricks for _, cards in t.plays)
    current = sum(len(cards) for _, cards in h.trick.plays) if h.trick else 0
    return sum(len(cards) for cards in h.hands) + len(h.kitty) + played + current


@pytest.mark.parametrize("seed", SEEDS)
def test_cards_are_conserved_at_every_step(seed):
    steps = 0
    for state, _ in play(seed):
        if state.hand is not None:
            assert cards_in_play(state.hand) == 108
            steps += 1
    assert steps > 100


@pytest.mark.parametrize("seed", SEEDS)
def test_every_point_is_accounted_for_and_the_result_follows_from_the_tricks(seed):
    checked = 0
    for state, event_type in play(seed):
        h = state.hand
        if h is None or h.phase != "completed" or event_type != "CardsPlayed":
            continue
        defenders = h.defenders
        won = {side: sum(t.points for t in h.tricks if scoring.side_of(t.winner) == side)
               for side in ("A", "B")}
        last = h.tricks[-1]
        captured = scoring.side_of(last.winner) == defenders
        uncaptured = 0 if captured else points(h.kitty)
        kitty_if_captured = points(h.kitty) if captured else 0
        # SJ2-1.5: 200 points in all, before penalties and before the kitty multiplier
        assert won["A"] + won["B"] + kitty_if_captured + uncaptured == 200
        winning = next(cards for seat, cards in last.plays if seat == last.winner)
        capture = kitty_if_captured * 2 ** (1 + pair_count(winning, h.trump)) if captured else 0
        penalties = sum(p["points"] if p["side"] != defenders else -p["points"]
                        for p in h.penalties)
        row = h.result
        assert row["trick_points"] == won[defenders]
        assert row["kitty_capture"] == capture
        assert row["penalty_points"] == penalties
        assert row["raw_points"] == row["final_points"] == won[defenders] + capture + penalties
        expected = scoring.hand_result(row["final_points"]).to_dict()
        assert row["result"] == expected
        assert row["next_dealer"] == scoring.next_dealer(h.dealer, expected["deal_passes"])
        checked += 1
    assert checked == HANDS_PER_MATCH


def test_failed_throws_are_penalised_somewhere_in_the_sample():
    """The sample is not blind to throws: some fail, and each costs 10 points a beaten card."""
    failed = []
    for seed in SEEDS:
        for state, event_type in play(seed):
            h = state.hand
            trick = h.trick or (h.tricks[-1] if h and h.tricks else None)
            if event_type == "CardsPlayed" and trick and trick.throw and len(trick.plays) == 1:
                failed.append(trick.throw)
    assert failed
    assert all(t["penalty"] == 10 * sum(len(c) for c in t["beaten"]) for t in failed)
    assert all(len(t["forced"]) < len(t["attempt"]) for t in failed)


def test_levels_and_dealers_follow_the_result_rows():
    for seed in SEEDS[:4]:
        *_, (final, _) = play(seed)
        levels = {"A": 2, "B": 2}
        for row in final.history:
            assert {s: scoring.level_value(v) for s, v in row["levels_before"].items()} == levels
            outcome = scoring.HandResult(row["result"]["winner"], row["result"]["levels"],
                                         row["result"]["deal_passes"])
            levels = scoring.apply_result(levels, row["dealer"], outcome)
            assert {s: scoring.level_value(v) for s, v in row["levels"].items()} == levels
        for before, after in zip(final.history, final.history[1:]):
            assert after["dealer"] == before["next_dealer"]
        assert (final.status, final.hands_played) == ("completed", HANDS_PER_MATCH)
        assert final.winner == (scoring.higher_side(dict(final.levels)) or final.winner)
