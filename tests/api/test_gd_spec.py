"""The Guandan part of api_spec.yaml against the code: each GD data schema accepts exactly what
its marshmallow schema accepts (the server's 400 for data; tests/api/test_spec.py checks that
the catalogue, the request branches and the field lists agree)."""
from __future__ import annotations

import pytest
from spec import is_valid, marshmallow_accepts

from events import default_catalogue

HANDS = [["3S"] * 27] * 4  # the schema checks cards, the rules check the deal

SAMPLES = {
    "GDHandDealt": [
        {"hand": 1, "hands": HANDS, "markedCard": "5S", "firstLeader": 2},
        {"hand": 2, "hands": HANDS}, {"hand": 2, "hands": HANDS, "markedCard": None,
                                      "firstLeader": None},
        {"hand": 1, "hands": HANDS[:3]}, {"hand": 0, "hands": HANDS},
        {"hand": 1, "hands": HANDS, "markedCard": "5X"},
        {"hand": 1, "hands": HANDS, "firstLeader": 4},
        {"hand": 1, "hands": HANDS, "firstLeader": "0"},
        {"hand": 1, "hands": HANDS, "kitty": ["3S"]}, {"hands": HANDS},
        {"hand": 1, "hands": [["3S"] * 61] * 4}, {"hand": 1, "hands": [[]] * 4},
    ],
    "GDCardsPlayed": [
        {"hand": 1, "seat": 0, "cards": ["TS", "JS", "QS", "KS", "2H"], "wildAs": ["AS"]},
        {"hand": 1, "seat": 3, "cards": ["BJ"]}, {"hand": 1, "seat": 0, "cards": ["2H"], "wildAs": []},
        {"hand": 1, "seat": 0, "cards": ["2H"], "wildAs": None},
        {"hand": 1, "seat": 0, "cards": []}, {"hand": 1, "seat": 0, "cards": ["10H"]},
        {"hand": 1, "seat": 0, "cards": ["2H"], "wildAs": ["AS"] * 11},
        {"hand": 1, "seat": 0, "cards": ["2H"], "wildAs": "AS"},
        {"hand": 1, "seat": -1, "cards": ["2H"]}, {"hand": 1, "cards": ["2H"]},
        {"hand": 1, "seat": 0, "cards": ["2H"], "reading": "pair"},
    ],
    "Passed": [
        {"hand": 3, "seat": 1}, {"hand": 3}, {"hand": 3, "seat": "1"}, {"hand": 3, "seat": 1, "x": 1},
    ],
    "TributePaid": [
        {"hand": 2, "seat": 1, "card": "SJ"}, {"hand": 2, "seat": 1}, {"hand": 2, "seat": 1, "card": "sj"},
        {"hand": 2, "seat": 1, "card": ["SJ"]},
    ],
    "TributeAssigned": [
        {"hand": 2, "seat": 1, "toFirst": 0}, {"hand": 2, "seat": 1}, {"hand": 2, "seat": 1, "toFirst": 5},
    ],
    "LevelPenaltyAssessed": [
        {"rule": "GD-10.1", "side": "A", "levels": 1},
        {"rule": "GD-9.3", "side": "B", "levels": 12, "reason": "slow play"},
        {"rule": "GD-9.3", "side": "B", "levels": 1, "reason": None},
        {"rule": "GD-9", "side": "B", "levels": 1, "hand": 2},
        {"rule": "GD 9.3", "side": "B", "levels": 1}, {"rule": "GD-9.3", "side": "C", "levels": 1},
        {"rule": "GD-9.3", "side": "A", "levels": 13}, {"rule": "GD-9.3", "side": "A", "levels": 0},
        {"rule": "GD-9.3", "side": "A", "levels": 1, "reason": ""},
    ],
}


@pytest.mark.parametrize("type_name", sorted(SAMPLES))
def test_gd_data_schemas_accept_exactly_what_marshmallow_accepts(type_name):
    event_type = default_catalogue().get(type_name)
    schema_name = event_type.schema.__name__
    verdicts = [(marshmallow_accepts(event_type, s), is_valid(schema_name, s), s)
                for s in SAMPLES[type_name]]
    assert any(code for code, _, _ in verdicts) and not all(code for code, _, _ in verdicts)
    disagreements = [sample for code, spec, sample in verdicts if code != spec]
    assert not disagreements
