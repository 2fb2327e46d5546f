"""The desk's own check that a preview is the state after recording (tests/rulings_desk.py):
it must notice a difference anywhere the preview reports — also in a projection the preview
names unchanged, and in a hand of the match — not only in those it shows changed."""
from __future__ import annotations

import pytest
from rulings_desk import Desk
from sj2_table import Table

FINE = {"text": "talking across the table", "effects": [
    {"kind": "penalty", "rule": "SJ2-12.1", "member": "钟致鹏", "side": "B", "points": 10}]}


@pytest.fixture
def previewed(client):
    table = Table(client)
    table.to_play({0: "2S"}, card="2S")
    desk = Desk(client, table.tid)
    preview = desk.preview(table.stream, FINE)
    assert "tournament" in preview["unchanged"]
    desk.rule(table.stream, FINE)
    return table, desk, preview


def test_the_check_holds_when_only_the_ruling_was_recorded(previewed):
    _, desk, preview = previewed
    desk.assert_preview_is_the_state_after(preview)


def test_the_check_notices_a_change_of_a_projection_the_preview_names_unchanged(previewed):
    table, desk, preview = previewed
    desk.raise_dispute("later", "something else happened")   # the tournament's stream moves on
    with pytest.raises(AssertionError, match="tournament"):
        desk.assert_preview_is_the_state_after(preview)


def test_the_check_reads_every_hand_of_the_match_not_only_those_shown(previewed):
    """A preview that left out a hand it changes (here: hand 1, which the ruling's penalty
    changes) is caught: the hand is read as it was before the preview, and differs now."""
    _, desk, preview = previewed
    preview["projections"][:] = [p for p in preview["projections"] if p.get("hand") != 1]
    with pytest.raises(AssertionError, match="'hand', 'R1-1', 1"):
        desk.assert_preview_is_the_state_after(preview)


def test_the_check_refuses_a_preview_it_did_not_make(previewed):
    table, _, preview = previewed
    with pytest.raises(AssertionError, match="not previewed by this desk"):
        Desk(table.client, table.tid).assert_preview_is_the_state_after(preview)
