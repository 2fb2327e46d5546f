"""rules.frozen.evolve: the next value of a frozen state with fields changed is the value
dataclasses.replace would make, and the old value is untouched (caches and checkpoints keep it)."""
from __future__ import annotations

import dataclasses
from functools import cached_property

import pytest

from rules.frozen import evolve


@dataclasses.dataclass(frozen=True)
class Trick:
    leader: int
    plays: tuple = ()


@dataclasses.dataclass(frozen=True)
class Checked:
    points: int

    def __post_init__(self):
        if self.points < 0:
            raise ValueError("points below 0")


@dataclasses.dataclass(frozen=True)
class Memoised:
    rounds: tuple = ()

    @cached_property
    def count(self) -> int:
        return len(self.rounds)


def test_the_new_value_is_what_replace_makes_and_the_old_one_is_untouched():
    old = Trick(1, ((1, ("QH",)),))
    new = evolve(old, plays=old.plays + ((2, ("KH",)),))
    assert new == dataclasses.replace(old, plays=new.plays)
    assert old.plays == ((1, ("QH",)),) and new is not old


def test_a_class_that_checks_in_post_init_still_checks():
    with pytest.raises(ValueError, match="points below 0"):
        evolve(Checked(3), points=-1)


def test_a_value_cached_on_the_old_state_is_not_carried_into_the_new_one():
    old = Memoised(("R1",))
    assert old.count == 1
    assert evolve(old, rounds=("R1", "R2")).count == 2


def test_an_unknown_field_is_refused_as_replace_refuses_it():
    with pytest.raises(TypeError):
        evolve(Trick(0), winner=2)
