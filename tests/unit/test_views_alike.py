"""A 掼蛋 position's views share what every viewer sees alike (projections/guandan_views.py:
made once a position, each view a new dict with its viewer's own parts). Read in any order by
the public, the referee and each seat, every view of every position of the simulated Guandan
log is, byte for byte, the view made afresh for that viewer alone — so no seat's cards, count
or face-down return reaches another viewer through what is shared — and a position made alike
once is not made again."""
from __future__ import annotations

import json
import random

import pytest
from fold_logs import match_states

from projections import guandan_views
from projections.matches import folded_view, hand_view
from projections.viewers import Viewer

VIEWERS = (Viewer("public"), Viewer("referee")) + tuple(Viewer("seat", s) for s in range(4))


@pytest.fixture(scope="module")
def positions(fold_logs_store):
    return [f for f in match_states(fold_logs_store, 1) if f.state.game == "GD"]


def views_of(folded, viewer) -> str:
    state = folded.state
    views = [folded_view(folded, viewer)] + [hand_view(state, n, viewer)
                                             for n in range(1, state.next_hand)]
    return json.dumps(views, ensure_ascii=False)


def fresh(folded, viewer) -> str:
    for kept in (guandan_views._MATCHES, guandan_views._HANDS, guandan_views._ENDED_TRICKS):
        kept.clear()
    return views_of(folded, viewer)


def test_every_viewers_view_of_a_shared_position_is_its_own_view_made_afresh(positions):
    assert len(positions) > 500
    order = random.Random(7)
    seen_hidden = 0
    for folded in positions:
        alone = {viewer: fresh(folded, viewer) for viewer in VIEWERS}
        seen_hidden += alone[Viewer("public")] != alone[Viewer("seat", 0)]
        for viewer in order.sample(VIEWERS, len(VIEWERS)):  # the shared parts made by another
            assert views_of(folded, viewer) == alone[viewer], (folded.stream, folded.version, viewer)
    assert seen_hidden > len(positions) // 2  # the seats' views do differ from the public's


def test_a_position_is_made_alike_once_for_all_its_viewers(positions, monkeypatch):
    folded = positions[len(positions) // 2]
    made = []
    alike = guandan_views._match_alike
    monkeypatch.setattr(guandan_views, "_match_alike", lambda m: made.append(m) or alike(m))
    fresh(folded, Viewer("public"))
    for viewer in VIEWERS:
        views_of(folded, viewer)
    assert made == [folded.state]
