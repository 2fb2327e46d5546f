"""api_spec.yaml against SJ3: the documented settings and defaults are the code's, the new event
data schemas accept exactly what the code accepts, and live SJ3 reads — every phase, viewer,
a failed throw waiting for its designator, a forfeited match — match the documented views."""
from __future__ import annotations

import pytest
from sj3_table import new_table
from spec import SPEC, assert_response, is_valid, marshmallow_accepts

from events import default_catalogue
from rules.shengji.settings import SJ3Settings

MATCH, HAND = "/v1/tournaments/{tid}/matches/{mid}", "/v1/tournaments/{tid}/matches/{mid}/hands/{n}"


def test_the_documented_sj3_match_settings_and_defaults_are_the_codes():
    documented = SPEC["components"]["schemas"]["SJ3MatchSettings"]["properties"]
    defaults = SJ3Settings().to_dict()
    assert set(documented) == set(defaults)
    for key, value in defaults.items():
        assert documented[key].get("default") == value, key


SAMPLES = {
    "ThrowPenaltyChoice": [{"hand": 1, "seat": 1, "component": ["8H"]},
                           {"hand": 1, "seat": 4, "component": ["8H"]},
                           {"hand": 1, "seat": 1, "component": []},
                           {"hand": 1, "seat": 1}],
    "SJ3TimeLimitExceeded": [{"hand": 2, "seat": 0, "kind": "kitty"},
                             {"hand": 2, "seat": 0, "kind": "throwChoice"},
                             {"hand": 2, "seat": 0, "kind": "nap"}, {"hand": 2, "kind": "lead"}],
    "LatenessRecorded": [{"side": "A", "minutes": 0}, {"side": "B", "minutes": 17, "dealer": 0},
                         {"side": "B", "minutes": 17, "dealer": None},
                         {"side": "B", "minutes": -1}, {"side": "C", "minutes": 3},
                         {"side": "A", "minutes": 1441}, {"side": "A", "minutes": 3.5}],
    "DrawingEnded": [{"hand": 1}, {"hand": 0}, {"hand": 1, "seat": 0}],
    "KittyTaken": [{"hand": 1}, {"hand": 1, "seat": 2}, {"hand": 1, "seat": None},
                   {"hand": 1, "seat": 4}],
    "CardsPlayed": [{"hand": 1, "seat": 0, "cards": ["AH", "KH"], "structure": [["AH"], ["KH"]]},
                    {"hand": 1, "seat": 0, "cards": ["AH"], "structure": None},
                    {"hand": 1, "seat": 0, "cards": ["AH"], "structure": [[]]},
                    {"hand": 1, "seat": 0, "cards": ["AH"], "structure": []},
                    {"hand": 1, "seat": 0, "cards": ["AH"], "structure": [["1H"]]}],
    "HandDealt": [{"hand": 1, "hands": [["AH"]] * 4, "kitty": ["KH"], "turned_by": 2,
                   "turned_card": "7C"},
                  {"hand": 1, "hands": [["AH"]] * 4, "kitty": ["KH"], "turned_by": 5},
                  {"hand": 1, "hands": [["AH"]] * 4, "kitty": ["KH"], "turned_card": "7X"}],
    "IrregularityReported": [{"hand": 1, "rule": "SJ3-11.6", "seats": [0, 3], "detail": "x"},
                             {"hand": 1, "rule": "SJ3-11.6", "seats": [], "detail": "x"},
                             {"hand": 1, "rule": "SJ3-11.6", "seats": [7], "detail": "x"}],
}


@pytest.mark.parametrize("type_name", sorted(SAMPLES))
def test_sj3_data_schemas_accept_exactly_what_the_code_accepts(type_name):
    event_type = default_catalogue().get(type_name)
    verdicts = [(marshmallow_accepts(event_type, sample),
                 is_valid(event_type.schema.__name__, sample)) for sample in SAMPLES[type_name]]
    assert all(code == spec for code, spec in verdicts), list(zip(SAMPLES[type_name], verdicts))
    assert any(code for code, _ in verdicts) and not all(code for code, _ in verdicts)


def reads(table, hand: int = 1) -> None:
    for view in ("referee", "seat:0", "seat:3"):
        assert_response(table.client.get(
            f"/v1/tournaments/{table.tid}/matches/{table.mid}?as={view}"), "get", MATCH)
        assert_response(table.client.get(
            f"/v1/tournaments/{table.tid}/matches/{table.mid}/hands/{hand}?as={view}"), "get", HAND)
    assert_response(table.client.get(f"/v1/tournaments/{table.tid}/matches"), "get",
                    "/v1/tournaments/{tid}/matches")


def test_sj3_reads_match_the_spec_in_every_phase():
    table = new_table({"enforcement": "record"})
    table.ok("LatenessRecorded", side="A", minutes=7)
    table.deal({0: "2S AH AH KH KH 8H", 1: "AH 2H 2H"}, turned_by=2, turned_card="7C")
    table.ok("TrumpDeclared", seat=0, card="2S")
    table.ok("TrumpOvercalled", seat=1, cards=["2H", "2H"])
    reads(table)
    table.ok("DrawingEnded")
    table.clock.advance(seconds=5)
    table.ok("KittyTaken")
    reads(table)
    table.ok("KittyBuried", cards=table.dealt["kitty"])
    table.ok("IrregularityReported", rule="SJ3-11.5", seat=2, detail="exposed 9D")
    events = table.play_out(2)
    table.batch(events[:9])
    reads(table)
    table.batch(events[9:])
    reads(table)
    table.clock.advance(minutes=80)
    table.ok("TimeLimitReached", limit_minutes=80)
    reads(table)


def test_sj3_reads_match_the_spec_with_a_throw_waiting_and_after_a_forfeit():
    table = new_table()
    table.to_play({0: "2S AH AH KH KH 8H", 1: "AH"}, card="2S", no={1: "H"})
    table.ok("CardsPlayed", seat=0, cards=["AH", "AH", "KH", "KH", "8H"],
             structure=[["AH", "AH", "KH", "KH"], ["8H"]])
    reads(table)
    forfeited = new_table()
    forfeited.ok("LatenessRecorded", side="B", minutes=18)
    forfeited.ok("LatenessRecorded", side="A", minutes=30)
    assert_response(forfeited.client.get(
        f"/v1/tournaments/{forfeited.tid}/matches/{forfeited.mid}?as=referee"), "get", MATCH)
