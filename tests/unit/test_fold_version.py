"""The folds' output version (projections/fold_version.py), which keys the checkpoints' validity:
the simulated logs of all five games (tests/fold_logs.py) fold to the digest recorded under
``FOLD_VERSION`` — a fold whose output moved without the version moving fails here — and every
state they make survives the checkpoints' text (projections/state_codec.py) equal, views and
shared structure included."""
from __future__ import annotations

import dataclasses
import hashlib
import types
from collections.abc import Iterable, Iterator

import pytest
from checkpoint_checks import assert_same_fold

from events import default_catalogue
from projections import streams
from projections.fold_version import FOLD_DIGESTS, FOLD_VERSION
from projections.state_codec import canonical, decode, encode
from projections.stream_cache import PERSIST_EVERY
from rules.rulings import DEAL_TYPES
from projections.streams import StreamState, fold

CATALOGUE = default_catalogue()
CHANGED = "fold output changed: bump FOLD_VERSION and record the new digest"


@pytest.fixture(scope="module")
def store(fold_logs_store):
    return fold_logs_store


def folds(store) -> Iterator[tuple[StreamState, bool]]:
    """Every state the folds of the logs make, stream by stream, event by event, each with
    whether the digest holds it: after a deal, every PERSIST_EVERY versions, and the stream's
    last (the states a checkpoint was written of when the digest was first recorded; a
    sample of the folds' output, whatever the checkpoints' own frequency is now)."""
    for stream in sorted({r.stream for r in store.read_type("TournamentCreated")} |
                         {r.stream for r in store.read_type("MatchStarted")}):
        state, records = StreamState(stream), list(store.read_stream(stream))
        for index, record in enumerate(records):
            state = fold(state, [record], CATALOGUE, store)
            last = index == len(records) - 1
            yield state, last or record.type in DEAL_TYPES or record.version % PERSIST_EVERY == 0


@pytest.fixture(scope="module")
def folded(store) -> list[tuple[StreamState, bool]]:
    return list(folds(store))


def digest(states: Iterable[tuple[StreamState, bool]]) -> str:
    """The digest of the states a checkpoint would hold, in the order of :func:`folds`."""
    found = hashlib.sha256()
    for state, kept in states:
        if kept:
            found.update(canonical(state).encode("utf-8") + b"\n")
    return found.hexdigest()


def assert_recorded(found: str) -> None:
    assert found == FOLD_DIGESTS.get(FOLD_VERSION), \
        f"{CHANGED}: FOLD_DIGESTS[{FOLD_VERSION + 1}] = {found!r} (projections/fold_version.py)"


def test_the_folds_of_the_five_games_are_the_output_recorded_under_the_version(folded):
    assert {state.stream.split("-", 1)[0] for state, _ in folded} == {"tournament", "match"}
    assert_recorded(digest(folded))
    assert FOLD_VERSION == max(FOLD_DIGESTS), "versions only move forwards"


def test_a_fold_whose_output_moved_without_the_version_moving_fails(store, monkeypatch):
    """A rule that scores otherwise, here a tournament step that renames every tournament: the
    digest moves, and the check says what to do."""
    step = streams.STEPS["tournament"]

    def renamed(state, event_type, data, at):
        state = step(state, event_type, data, at)
        return dataclasses.replace(state, name=state.name + "!")

    monkeypatch.setitem(streams.STEPS, "tournament", renamed)
    with pytest.raises(AssertionError, match=CHANGED):
        assert_recorded(digest(folds(store)))


def objects(value, seen: dict | None = None, fresh: dict | None = None) -> dict[int, object]:
    """Every compound object reachable from ``value``, by identity (the states' sharing), that
    is not in ``seen`` (added to it): in ``fresh``, which is returned."""
    seen = {} if seen is None else seen
    fresh = seen if fresh is None else fresh
    if isinstance(value, (str, int, float, type(None))) or id(value) in seen:
        return fresh
    seen[id(value)] = fresh[id(value)] = value
    if dataclasses.is_dataclass(value):
        parts = [getattr(value, field.name) for field in dataclasses.fields(value)]
    elif isinstance(value, (dict, types.MappingProxyType)):
        parts = [x for pair in value.items() for x in pair]
    else:
        parts = value if isinstance(value, (tuple, list, frozenset, set)) else ()
    for part in parts:
        objects(part, seen, fresh)
    return fresh


def test_every_state_the_folds_make_reads_back_equal_with_its_sharing(folded):
    """Each state a checkpoint would hold, and the first state holding each class the folds
    make (a claim window lives only between two events), read back from its text: equal, with
    the same views and the same number of objects (structure shared, not copied)."""
    classes: set[type] = set()
    met: dict[int, object] = {}  # every object of the states before (all alive: ids unique)
    checked = 0
    for state, kept in folded:
        new = {type(o) for o in objects(state, met, fresh={}).values()} - classes
        if kept or new:
            classes |= new
            back = decode(encode(state))
            assert type(back) is StreamState
            where = f"{state.stream}@{state.version}"
            if state.stream.startswith("match-"):
                assert_same_fold(back, state, where)  # its views too
            assert back == state, where
            assert canonical(back) == canonical(state)
            assert len(objects(back)) == len(objects(state)), where
            checked += 1
    names = {f"{c.__module__}.{c.__qualname__}" for c in classes}
    assert {"rules.shengji.match_state.Match", "rules.guandan.match_state.GDMatch",
            "rules.mahjong.table.Table", "rules.mahjong.claims.ClaimWindow",
            "rules.shengji.cards.Trump", "rules.tournament.Tournament"} <= names
    assert checked > 100
