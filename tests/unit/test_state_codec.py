"""The checkpoints' text (projections/state_codec.py) builds values and the rules' state objects,
nothing else: a text naming any other class or function, a class whose fields have changed, or
anything malformed is refused with NotAState — and nothing named is called."""
from __future__ import annotations

import json
from types import MappingProxyType

import pytest

from projections.state_codec import NotAState, canonical, decode, encode
from projections.streams import StreamState
from rules.shengji.cards import Trump
from rules.tournament import Team

TEAM_FIELDS = ["team_id", "name", "players", "organisation", "withdrawn", "leader", "player_ids",
               "checked_in"]


def text(classes: list, value) -> bytes:
    return json.dumps([classes, value]).encode()


def test_values_of_every_kind_read_back_equal_and_shared():
    cards = ("2S", "3S")
    team = Team("t1", "一队", ("甲", "乙"))
    state = StreamState("match-x", {
        "cards": cards, "again": cards, "team": team, "trump": Trump("2", None),
        "read_only": MappingProxyType({1: frozenset({"a", "b"})}), "list": [1.5, None, True],
        (1, 2): {"x"}})
    back = decode(encode(state))
    assert back == state and canonical(back) == canonical(state)
    assert back.state["cards"] is back.state["again"]  # one tuple, as in the state
    assert type(back.state["read_only"]) is MappingProxyType
    assert back.state["trump"].is_trump("2H")  # made by its __init__: its table derived again


@pytest.mark.parametrize("name", [
    "os:system", "builtins:eval", "subprocess:Popen", "rules.frozen:evolve",
    "rules.violations:RuleViolation", "projections.checkpoints:CheckpointFile",
    "rules.tournament:Team.__init__", "rules.__init__:Team", "rules.nothing:Team",
    "rules.tournament:Nothing", "rules.tournament", 42])
def test_a_text_naming_what_is_not_a_state_class_is_refused(name):
    with pytest.raises(NotAState):
        decode(text([[name, []]], ["O", 0]))


def test_a_class_whose_fields_changed_is_refused():
    written = text([["rules.tournament:Team", TEAM_FIELDS[:-1]]],
                   ["O", 0, "t1", "一队", ["T", "甲", "乙"], None, False, None, ["T"]])
    with pytest.raises(NotAState, match="other fields"):
        decode(written)


@pytest.mark.parametrize("number", [-1, 1, "0", True])
def test_an_object_of_a_class_the_text_does_not_name_is_refused(number):
    team = ["t1", "一队", ["T", "甲", "乙"], None, False, None, ["T"], False]
    assert decode(text([["rules.tournament:Team", TEAM_FIELDS]], ["O", 0, *team])) == \
        Team("t1", "一队", ("甲", "乙"))
    with pytest.raises(NotAState):
        decode(text([["rules.tournament:Team", TEAM_FIELDS]], ["O", number, *team]))


@pytest.mark.parametrize("written", [
    b"", b"\x80\x04K\x01.", b"{}", b"[[], {\"a\": 1}]", b"[[], [\"X\"]]", b"[[], [\"R\", 0]]",
    b"[[], [\"T\", [\"R\", -1]]]", b"[[], []]", b"[[], [\"O\", 3]]", b"[[], [\"O\", -1]]",
    b"[1, 2]",
    b"[[], " + b"[\"T\", " * 100_000 + b"1" + b"]" * 100_001])
def test_malformed_texts_are_refused(written):
    with pytest.raises(NotAState):
        decode(written)


def test_a_value_no_checkpoint_can_keep_is_not_written():
    with pytest.raises(TypeError, match="cannot keep"):
        encode(StreamState("match-x", object()))
