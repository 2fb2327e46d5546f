"""A hand's replay in one read (GET …/hands/{n}/replay): each step's view is the hand read at
that step's position, with the same token — for a late hand too, whose fold starts from the
match as it stood before the hand (its checkpoint), not from the match's first event."""
from __future__ import annotations

import random

from clients import bearer, token_for
from sj2_table import Table


def test_each_step_of_a_late_hand_is_the_hand_read_at_its_position(client, app):
    table = Table(client)
    table.to_play({0: "2S"}, card="2S")
    table.finish_hand(seed=1)
    table.hand = 2
    table.to_play(seed=9)
    rng = random.Random(2)
    for _ in range(5):
        table.play_legal(rng)
    hand = f"/v1/tournaments/{table.tid}/matches/R1-1/hands/2"
    for headers in ({}, bearer(token_for(app, "player", table.tid, "R1-1", 1))):
        replay = client.get(f"{hand}/replay", headers=headers or None).get_json()
        assert len(replay["steps"]) >= 10
        for step in replay["steps"]:
            read = client.get(f"{hand}?at={step['position']}", headers=headers or None)
            assert step["view"] == read.get_json(), step["position"]
