"""The node's JSON text (service/json_text.py): orjson's bytes are the standard library's, for
every view a reader of any game can get, in English and said in Chinese; and what orjson would
say otherwise or refuses is said by the standard library, as before."""
from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest
from fold_logs import match_states

from projections.matches import folded_view, hand_view
from projections.viewers import Viewer
from service import json_text
from service.i18n import Saying, catalogue

VIEWERS = (Viewer("referee"), Viewer("public"), *(Viewer("seat", n) for n in range(4)))
EVERY = 7  # the views of every seventh state of a stream, and of its last


def standard(value, sort_keys: bool = False, default=None) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=sort_keys,
                      default=default).encode()


@pytest.fixture(scope="module")
def store(fold_logs_store):
    return fold_logs_store


def views_of(store):
    for state in match_states(store, EVERY):
        for viewer in VIEWERS:
            yield state.state.game, folded_view(state, viewer)
            if state.state.next_hand > 1:
                yield state.state.game, hand_view(state.state, state.state.next_hand - 1, viewer)


def test_every_view_of_the_five_games_is_written_in_the_standard_librarys_bytes(store):
    zh = Saying(catalogue("zh").gettext)
    games, compared = set(), 0
    for game, view in views_of(store):
        games.add(game)
        for value in (view, zh.said(view)):
            for sort_keys in (False, True):
                assert json_text.dumps(value, sort_keys) == standard(value, sort_keys)
                compared += 1
    assert games == {"SJ2", "SJ3", "GD", "MJO", "MJS"}
    assert compared > 2000


def test_what_orjson_would_say_otherwise_or_not_at_all_is_said_as_before():
    when = datetime(2026, 12, 4, 10, 0, tzinfo=timezone.utc)
    odd = {"b": {2: "two", 10: "ten"}, "a": 2 ** 70, "when": when, "deep": [[[[[]]]]] * 2}
    said = json_text.dumps(odd, sort_keys=True, default=str)
    assert said == standard(odd, sort_keys=True, default=str)
    assert b'"when":"2026-12-04 10:00:00+00:00"' in said  # by default=, not orjson's own form
    assert b'{"10":"ten","2":"two"}' not in said  # int keys sorted as ints, as json sorts them
    with pytest.raises(TypeError):
        json_text.dumps({"a set": {1}})
