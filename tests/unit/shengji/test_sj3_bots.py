"""The simulator's Shengji bots also play SJ3 (service/simulator/bots.py): hands dealt, revealed,
buried and played by them through the match's own fold, from the referee's view as the server
would serve it, complete with every card of the three decks accounted for (SJ3-1.1, 1.3)."""
import json
import random
from collections import Counter
from datetime import datetime, timedelta, timezone

import pytest

from projections.shengji_views import match_view
from projections.viewers import Viewer
from rules import matches
from rules.shengji.cards import deck
from service.simulator import bots


def bot_played(seed: int, settings: dict, hands: int):
    """A match of ``hands`` hands played by the bots; each event 6 s after the one before, so
    the dealer's 5-second pause (SJ3-3.6) has always passed."""
    moment = datetime(2006, 5, 27, 9, 0, tzinfo=timezone.utc)

    def at() -> str:
        nonlocal moment
        moment += timedelta(seconds=6)
        return moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ")

    m = matches.apply(None, "MatchStarted", {
        "match_id": "R1-a", "game": "SJ3", "teams": {"A": "t1", "B": "t2"},
        "seats": ["甲", "丙", "乙", "丁"], "settings": settings}, at())
    rng, posted = random.Random(seed), Counter()
    while m.hands_played < hands:
        view = json.loads(json.dumps(match_view(m, Viewer("referee"))))
        event_type, data = bots.next_action(view, rng)
        m = matches.apply(m, event_type, data, at())
        posted[event_type] += 1
    return m, posted


@pytest.mark.parametrize("seed, settings", [
    (1, {}), (2, {"enforcement": "record"}), (3, {"trumpChainAdjacency": True}),
])
def test_bot_played_sj3_hands_complete_with_every_card_conserved(seed, settings):
    m, posted = bot_played(seed, settings, hands=2)
    played = [h for h in m.finished if h.phase == "completed"]
    assert len(played) == 2 and posted["HandDealt"] >= 2
    for h in played:
        cards = [card for t in h.tricks for _, cs in t.plays for card in cs] + list(h.kitty)
        assert Counter(cards) == deck(3)
        for seat in range(4):
            assert sum(len(cs) for t in h.tricks for s, cs in t.plays if s == seat) == 39
        assert len(h.kitty) == 6 and not any(h.hands)
        assert h.result["final_outcome"] == h.result["normal_outcome"]  # the bots never renege
    assert m.history[-1]["levels"] == {side: str(v) for side, v in m.levels.items()}


def test_the_bots_throw_with_a_structure_and_designate_a_failed_throws_play():
    _, posted = bot_played(3, {}, hands=3)
    assert posted["ThrowPenaltyChoice"] >= 1
    assert posted["DrawingEnded"] == posted["KittyTaken"] == posted["KittyBuried"]
