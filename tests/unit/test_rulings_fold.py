"""rules/rulings.py on a toy stream (T-1.5): the plan of a stream's rulings and the fold that
applies it — voided events skipped, substituted ones folded as ruled, effects applied where they
are placed, later events that break a rule under the new history flagged and not applied, and a
ruling being decided refused where what it names does not hold."""
from __future__ import annotations

import pytest

from rules.rulings import EffectStep, Item, build_plan, fold_ruled, rewrites_history
from rules.violations import RuleViolation

COUNT = "TOY-1"  # the toy stream's one rule: each number is the one after the last


def step(state, event_type: str, data: dict, at=None):
    """A counter: ``Counted`` must carry the next number; a ruling changes nothing itself."""
    state = state or ()
    if event_type == "RulingRecorded":
        return state
    expected = (state[-1] + 1) if state else 1
    if data["n"] != expected:
        raise RuleViolation(COUNT, f"{data['n']} is not {expected}")
    return state + (data["n"],)


class Bonus(EffectStep):
    """The toy's one effect: ``penalty`` appends minus its points (and refuses 13)."""

    def apply(self, state, effect, at):
        if effect["kind"] != "penalty":
            return super().apply(state, effect, at)
        if effect["points"] == 13:
            raise RuleViolation(COUNT, "13 is unlucky")
        return (state or ()) + (-effect["points"],)


def counted(*numbers: int, start: int = 1) -> list[Item]:
    return [Item(start + k, "Counted", {"n": n}) for k, n in enumerate(numbers)]


def ruling(position: int, *effects: dict) -> Item:
    return Item(position, "RulingRecorded", {"text": "r", "effects": list(effects)})


def effect(kind: str, **members) -> dict:
    return {"kind": kind, "rule": "discretion", "member": "m", **members}


def fold(items, strict=None, check=None):
    plan, flags = build_plan(items, check, strict)
    return fold_ruled(items, step, Bonus(), plan, flags, strict, check)


def test_a_void_skips_the_event_and_flags_what_no_longer_follows():
    items = counted(1, 2, 3) + [ruling(4, effect("void", positions=[2]))] + counted(2, start=5)
    ruled = fold(items)
    assert ruled.state == (1, 2)  # 1, (2 voided), 3 flagged, then the 2 counted after the ruling
    assert ruled.flags == ({"position": 3, "type": "Counted", "rule": COUNT,
                            "message": "3 is not 2"},)
    assert [(e["position"], e["edit"], e["ruling"]) for e in ruled.edits] == [(2, "voided", 4)]


def test_a_range_voids_every_event_of_the_stream_between_its_ends():
    items = counted(1, 2, 3, 4) + [ruling(5, effect("void", **{"from": 2, "to": 3}))]
    ruled = fold(items)
    assert ruled.state == (1,) and [f["position"] for f in ruled.flags] == [4]
    assert [e["position"] for e in ruled.edits] == [2, 3]


def test_a_substitute_is_folded_instead_of_what_was_recorded():
    items = counted(1, 5, 3) + [ruling(4, effect("substitute", position=2, data={"n": 2}))]
    assert fold(items).state == (1, 2, 3)  # the 3 recorded after the wrong 5 now follows


def test_effects_act_where_they_are_placed():
    items = counted(1, 2) + [ruling(3, effect("penalty", points=7, after=1),
                                    effect("penalty", points=8))]
    assert rewrites_history("RulingRecorded", items[-1].data)
    ruled = fold(items)
    # after position 1: -7 is the last number, so 2 is flagged; at the ruling: -8
    assert ruled.state == (1, -7, -8) and [f["position"] for f in ruled.flags] == [2]


def test_a_ruling_voided_by_a_later_ruling_is_overturned_with_its_effects():
    items = counted(1, 2, 3) + [ruling(4, effect("void", positions=[3])),
                                ruling(5, effect("void", positions=[4]))]
    plan, _ = build_plan(items)
    assert plan.overturned == {4: 5} and plan.rulings == [5]
    ruled = fold(items)
    assert ruled.state == (1, 2, 3) and not ruled.flags
    assert [(e["position"], e["edit"]) for e in ruled.edits] == [(4, "voided")]


def test_the_ruling_being_decided_is_refused_where_it_names_what_does_not_hold():
    items = counted(1, 2) + [ruling(3, effect("substitute", position=2, data={"n": 9}))]
    with pytest.raises(RuleViolation) as refused:
        fold(items, strict=3)
    assert refused.value.rule == COUNT
    items = counted(1, 2) + [ruling(3, effect("penalty", points=13))]
    with pytest.raises(RuleViolation, match="unlucky"):
        fold(items, strict=3)
    items = counted(1, 2) + [ruling(3, effect("void", positions=[7]))]
    with pytest.raises(RuleViolation) as refused:
        build_plan(items, strict=3)
    assert refused.value.rule == "T-1.5"


def test_a_stored_rulings_fault_is_flagged_not_raised():
    """A later ruling may leave an earlier ruling's effect unable to apply: the earlier ruling
    is flagged (its position, the effect's index) and the fold goes on."""
    items = counted(1) + [ruling(2, effect("penalty", points=13))] + counted(2, start=3)
    ruled = fold(items)
    assert ruled.state == (1, 2)
    assert ruled.flags == ({"position": 2, "type": "RulingRecorded", "effect": 0,
                            "rule": COUNT, "message": "13 is unlucky"},)


def test_a_substitute_is_checked_by_the_callers_schema():
    def check(event_type, data):
        if "n" not in data:
            raise RuleViolation("T-1.5", "not Counted data")
        return data
    items = counted(1, 2) + [ruling(3, effect("substitute", position=2, data={"x": 1}))]
    with pytest.raises(RuleViolation, match="not Counted data"):
        fold(items, strict=3, check=check)


def test_only_effects_that_reach_back_refold_the_stream():
    assert not rewrites_history("RulingRecorded", {"text": "t"})
    assert not rewrites_history("RulingRecorded", {"text": "t", "effects": [
        effect("penalty", points=1), effect("forfeit", entrant="east")]})
    for reaching in (effect("void", positions=[1]), effect("cancelPenalty", position=1),
                     effect("replayHand", hand=1, **{"from": 1}),
                     effect("awardHand", hand=1, result={}, **{"from": 1}),
                     effect("setting", key="k", value=1, from_hand=2),
                     effect("adjustLevel", side="A", levels=1, after=3)):
        assert rewrites_history("RulingRecorded", {"text": "t", "effects": [reaching]})
    assert not rewrites_history("CardsPlayed", {"effects": [effect("void", positions=[1])]})


def test_effects_placed_at_one_point_apply_in_the_order_they_were_ruled():
    items = counted(1, 2) + [ruling(3, effect("penalty", points=5, after=1)),
                             ruling(4, effect("penalty", points=6, after=1),
                                    effect("penalty", points=7, after=1))]
    assert fold(items).state[:4] == (1, -5, -6, -7)


def test_a_later_ruling_overturning_the_overturning_one_restores_the_first():
    items = counted(1, 2) + [ruling(3, effect("void", positions=[2])),
                             ruling(4, effect("void", positions=[3])),
                             ruling(5, effect("void", positions=[4]))]
    plan, _ = build_plan(items)
    assert plan.rulings == [3, 5] and plan.overturned == {4: 5}
    assert fold(items).state == (1,)
