"""Appending events: the one path every write takes (clients, routes, and later timers).

    validate (catalogue) → fold the stream (projections) → decide (rules) → append (store)

The decision is guarded by optimistic concurrency: each event is appended with the version of its
stream that the rules saw. If another writer got in between and the client pinned no version, the
decision is simply made again on the new state.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Sequence

from events.catalogue import Catalogue, tournament_stream
from events.envelope import ANY, NewEvent
from events.store import (AppendResult, EventStore, StreamBelongsElsewhere, WrongExpectedVersion,
                          check_expected_version)
from projections.streams import load_stream, step_for
from rules import RuleViolation

RETRIES = 5


class TournamentNotFound(Exception):
    pass


@dataclass
class EventRuleViolation(Exception):
    index: int  # which event of the batch
    violation: RuleViolation


def append_events(store: EventStore, catalogue: Catalogue, tournament_id: str,
                  events: Sequence[NewEvent], creating: bool = False) -> AppendResult:
    """Validate ``events`` against the rules and append them atomically.

    Raises TournamentNotFound, EventRuleViolation, or the store's errors (version, idempotency,
    stream ownership). ``events`` must already match their catalogue schemas.
    """
    if not creating and _tournament_missing(store, tournament_id):
        raise TournamentNotFound(tournament_id)
    if any(e.id and store.get(e.id) for e in events):
        # A retry (or a reused id): the store returns the stored batch or refuses it; the rules
        # must not judge an event a second time.
        return store.append(tournament_id, events)
    pinned = any(e.expected_version not in (None, ANY) for e in events)
    for attempt in range(RETRIES):
        guarded = decide(store, catalogue, tournament_id, events)
        try:
            return store.append(tournament_id, guarded)
        except WrongExpectedVersion:
            if pinned or attempt == RETRIES - 1:
                raise
    raise AssertionError("unreachable")


def decide(store: EventStore, catalogue: Catalogue, tournament_id: str,
           events: Sequence[NewEvent]) -> list[NewEvent]:
    """Check every event against the rules, in order, each on the state its predecessors made.

    Returns the events with ``expected_version`` set to the version the decision was made on.
    """
    states: dict[str, list] = {}  # stream -> [state, version]
    guarded = []
    for index, event in enumerate(events):
        if event.stream not in states:
            states[event.stream] = _current(store, catalogue, tournament_id, event.stream)
        state, version = states[event.stream]
        check_expected_version(event.stream, event.expected_version, version)
        step = step_for(event.stream)
        if step is not None:
            try:
                state = step(state, event.type, event.data)
            except RuleViolation as violation:
                raise EventRuleViolation(index, violation) from None
        states[event.stream] = [state, version + 1]
        guarded.append(replace(event, expected_version=version))
    return guarded


def _current(store: EventStore, catalogue: Catalogue, tournament_id: str, stream: str) -> list:
    head = store.stream_head(stream)
    if head is not None and head[0] != tournament_id:
        raise StreamBelongsElsewhere(stream, head[0])
    folded = load_stream(store, catalogue, stream)
    return [folded.state, folded.version]


def _tournament_missing(store: EventStore, tournament_id: str) -> bool:
    head = store.stream_head(tournament_stream(tournament_id))
    return head is None or head[0] != tournament_id
