"""Appending events: the one path every write takes (clients, routes, and later timers).

    validate (catalogue, at the edge) → inside the store's write transaction:
    fold each stream (projections) → decide (rules) → append (store)

Some rules judge only what is new: the names and texts of an event (rules/names.py, T-1.2) are
checked here, before the fold, and never by the fold itself — a stored event is a fact, and a
log that holds a name recorded before the rule still replays.

The decision runs inside the transaction that appends, on the log exactly as the new events will
follow it, so two writers can never both be judged on the same state; concurrent appends still
share commits (see events/sqlite_store.py). Once committed, the new events advance the node's
live state of their streams (projections/streams.py: advance), outside the transaction: the
thread that committed them folds them before anyone hears of the commit (keep_live), so every
read and view of the new position finds it; the appending thread's own advance then finds the
state held (it folds only where no one did, as an app without that listener).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from events.catalogue import Catalogue, tournament_stream
from events.envelope import NewEvent
from events.store import (
    AppendResult,
    EventStore,
    Tail,
    check_expected_version,
    owned_stream_version,
)
from projections.guards import guard_for, stream_guard_for
from projections.rulings import decide_ruling
from projections.streams import StreamCache, advance, load_stream, step_for
from projections.tournaments import tournament_exists
from rules import RuleViolation
from rules.names import check_event as check_names
from rules.rulings import rewrites_history


class TournamentNotFound(Exception):
    pass


@dataclass
class EventRuleViolation(Exception):
    index: int  # which event of the batch
    violation: RuleViolation
    # the JSON pointer of the request's field at fault, where a use case knows it (a setting)
    field: str | None = None


def append_events(store: EventStore, catalogue: Catalogue, tournament_id: str,
                  events: Sequence[NewEvent], cache: StreamCache | None = None,
                  creating: bool = False) -> AppendResult:
    """Judge ``events`` by the rules and append them atomically.

    Raises TournamentNotFound, EventRuleViolation, or the store's errors (version, idempotency,
    stream ownership). ``events`` must already match their catalogue schemas.
    """
    def decide_in_transaction(log: Tail, recorded_at: str) -> None:
        if not creating and not _exists(log, tournament_id, cache):
            raise TournamentNotFound(tournament_id)
        decide(log, catalogue, tournament_id, events, recorded_at, cache)

    result = store.append(tournament_id, events, decide=decide_in_transaction)
    if result.created:
        advance(store, catalogue, cache, result.records)
    return result


def _exists(log: Tail, tournament_id: str, cache: StreamCache | None) -> bool:
    """Whether the tournament exists: its stream has its first event. A committed state of
    that stream held by the node says so without a read, for good (nothing is ever deleted)."""
    held = cache.live_state(tournament_stream(tournament_id)) if cache is not None else None
    return (held is not None and held.version > 0) or tournament_exists(log, tournament_id)


def decide(log: Tail, catalogue: Catalogue, tournament_id: str, events: Sequence[NewEvent],
           recorded_at: str, cache: StreamCache | None = None) -> None:
    """Check every event against the rules, in order, each on the state its predecessors made.

    A wrong ``expected_version`` is reported before any rule: the client judged another state.
    Rules that look across streams (a draw needs the results of the last round; a withdrawal
    ends a knockout match) are checked by the guards of the event's type and of its stream's
    kind, on the log as it stood before the batch. The names and texts of each event must
    display as what they are (T-1.2, rules/names.py): a check of new events only.
    """
    states: dict[str, tuple] = {}  # stream -> (state, version)
    for index, event in enumerate(events):
        if event.stream not in states:
            states[event.stream] = _current(log, catalogue, tournament_id, event.stream, cache)
        state, version = states[event.stream]
        check_expected_version(event.stream, event.expected_version, version)
        step, guard = step_for(event.stream), guard_for(event.type)
        stream_guard = stream_guard_for(event.stream)
        try:
            check_names(event.type, event.data)
            if guard is not None:
                guard(log, catalogue, tournament_id, event.data, cache)
            if stream_guard is not None:
                stream_guard(log, catalogue, tournament_id, state, event.type, cache)
            if step is not None and rewrites_history(event.type, event.data):
                # a ruling that reaches back: its stream folded again with it (rules/rulings.py)
                state = decide_ruling(log, catalogue, events, index, recorded_at)
            elif step is not None:
                state = step(state, event.type, event.data, recorded_at)
        except RuleViolation as violation:
            raise EventRuleViolation(index, violation) from None
        states[event.stream] = (state, version + 1)


def _current(log: Tail, catalogue: Catalogue, tournament_id: str, stream: str,
             cache: StreamCache | None) -> tuple:
    owned_stream_version(tournament_id, stream, log)  # refuses another tournament's stream
    folded = load_stream(log, catalogue, stream, cache=cache)
    return folded.state, folded.version
