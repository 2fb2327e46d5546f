"""Folding one stream: the state the rules see before the next event of that stream.

Each kind of stream (the prefix of its name) has a fold step from ``rules/``: the same function
validates a new event and replays a stored one, which is what makes replay exact.

A committee ruling that reaches back into its stream (rules/rulings.py: a void, a substitution, a
hand replayed…) makes the fold read the stream again from its start with the committee's edits
(:func:`refold`); events that break a rule under that history are flagged, not applied.
"""
from __future__ import annotations

import functools
import logging
from itertools import groupby
from typing import Any, Callable, Iterable, Sequence

from marshmallow import ValidationError

from events.catalogue import Catalogue, UnknownEventType
from events.envelope import Record
from events.store import EventStore, Tail
from rules import matches, ruling_effects, rulings, tournament
from rules.violations import RuleViolation

from .stream_cache import StreamCache, checkpoint_due, persist_due
from .stream_state import StreamState

log_checkpoints = logging.getLogger("paiju.checkpoints")

# (state, event type, data, recorded_at) -> state. ``recorded_at`` is the server's time of the
# event, the only clock the rules know (time limits are measured on it).
Step = Callable[[Any, str, dict, str], Any]

# the committee's file (events/ruling_events.py): a dispute changes no tournament state; the
# disputes are listed by projections/rulings.py
DISPUTE_TYPES = frozenset({"DisputeRaised", "DisputeResolved"})


def _tournament_step(t, event_type: str, data: dict, at: str | None = None):
    if event_type in DISPUTE_TYPES:
        if t is None:
            raise RuleViolation("T-1.3", "the tournament has not been created")
        return t
    return tournament.apply(t, event_type, data, at)


# stream kind -> the rules' fold step. Games add their stream kinds here.
PLAIN_STEPS: dict[str, Step] = {
    "tournament": _tournament_step,
    "match": matches.apply,
}
# ... with the effects a ruling applies at its own position (rules/rulings.py)
STEPS: dict[str, Step] = {kind: rulings.ruled_step(step, ruling_effects.EFFECTS[kind])
                          for kind, step in PLAIN_STEPS.items()}


def stream_kind(stream: str) -> str:
    return stream.split("-", 1)[0]


def step_for(stream: str) -> Step | None:
    return STEPS.get(stream_kind(stream))


def fold(start: StreamState, records: Iterable[Record], catalogue: Catalogue,
         log: Tail | None = None, cache: StreamCache | None = None,
         committed: bool = False) -> StreamState:
    """``records`` folded onto ``start``. A ruling that reaches back is applied by folding the
    stream again from its start up to the ruling (read from ``log``; without one it acts only
    at its own position). With a ``cache``, the states after deals and every few versions are
    left in it as checkpoints (projections/stream_cache.py), and, ``committed`` (the records are
    committed events), each state made as the stream's live state when it is the next."""
    step = step_for(start.stream)
    state, version, position, last_hash = start.state, start.version, start.position, start.hash
    flags, edits = start.flags, start.edits
    follow = cache is not None and committed and cache.live
    for record in records:
        data = catalogue.upcast(record)
        if step is not None and log is not None and rulings.rewrites_history(record.type, data):
            ruled = refold(log, catalogue, start.stream, record.position)
            state, flags, edits = ruled.state, ruled.flags, ruled.edits
        elif step is not None:
            state = step(state, record.type, data, record.recorded_at)
        version, position, last_hash = record.version, record.position, record.hash
        if follow or (cache is not None and checkpoint_due(record.type, version)):
            made = StreamState(start.stream, state, version, position, last_hash, flags, edits)
            if follow:
                cache.follow(made)
            if checkpoint_due(record.type, version):
                cache.checkpoint(made, persist_due(start.stream, record.type, version))
    return StreamState(start.stream, state, version, position, last_hash, flags, edits)


def stream_items(log: Tail, catalogue: Catalogue, stream: str,
                 until: int | None = None) -> list[rulings.Item]:
    return [rulings.Item(r.position, r.type, catalogue.upcast(r), r.recorded_at)
            for r in log.read_stream(stream, until_position=until)]


def refold(log: Tail, catalogue: Catalogue, stream: str, until: int | None = None,
           items: list[rulings.Item] | None = None, strict: int | None = None) -> rulings.Ruled:
    """The stream up to ``until`` folded from its start with every ruling in it (``items``:
    its events, when the caller has them — a decision adds the batch it judges). ``strict``:
    the position of a ruling being decided, whose faults are raised, not flagged."""
    items = stream_items(log, catalogue, stream, until) if items is None else items
    check = functools.partial(checked_data, catalogue, stream_kind(stream))
    plan, flags = rulings.build_plan(items, check, strict)
    return rulings.fold_ruled(items, PLAIN_STEPS[stream_kind(stream)],
                              ruling_effects.EFFECTS[stream_kind(stream)], plan, flags, strict, check)


def checked_data(catalogue: Catalogue, kind: str, event_type: str, data: dict) -> dict:
    """A substituted event's data as its type's schema loads it (T-1.5: a ruling substitutes
    an event the stream could hold)."""
    try:
        wanted = catalogue.get(event_type)
    except UnknownEventType:
        raise RuleViolation("T-1.5", "a substitute names an unknown event type {event_type!r}",
                                     event_type=event_type) from None
    if kind not in wanted.stream_kinds or not wanted.postable or event_type == "RulingRecorded":
        raise RuleViolation("T-1.5", "{event_type} is not an event a ruling can put into a "
                                     "{kind} stream",
                                     event_type=event_type, kind=kind)
    try:
        return wanted.load(data)
    except ValidationError as error:
        raise RuleViolation("T-1.5", "the substituted data is not {event_type} data: {messages}",
                                     event_type=event_type, messages=error.messages) from None


def load_stream(log: Tail, catalogue: Catalogue, stream: str, at: int | None = None,
                cache: StreamCache | None = None) -> StreamState:
    """The stream's state now, or as it was at global position ``at``. ``log`` is a store, or
    the view of one inside its write transaction. With a ``cache``: a state held that is the
    stream as of ``at`` exactly is the answer, with no read at all (projections/stream_cache.py:
    the live state); else the fold starts from the newest remembered state (head, live state or
    checkpoint) at or before ``at`` whose event still has its hash, takes checkpoints on its
    way, and leaves its result as the head (reads now only). What a store's own reads fold
    (committed events: not a transaction's view) also advances the live state."""
    if cache is None:
        return fold(StreamState(stream), log.read_stream(stream, until_position=at), catalogue,
                    log)
    if at is not None and (held := cache.exact(stream, at)) is not None:
        return held
    committed = isinstance(log, EventStore)
    start, records = _start(log, cache, stream, at)
    folded = fold(start, records, catalogue, log, cache, committed)
    if at is None and folded.version:
        cache.put(folded, committed)
    return folded


def advance(log: EventStore, catalogue: Catalogue, cache: StreamCache | None,
            records: Sequence[Record]) -> None:
    """Fold ``records``, just committed (an append's, or a commit another node made), onto
    the live states of their streams: once each, by the fold that reads make, so that every
    read and view of the new position needs no read of the log. A stream whose live state is
    not the version just before is left as it is: its next read folds from the log."""
    if cache is None or not cache.live:
        return
    for stream, mine in groupby(sorted(records, key=lambda r: (r.stream, r.version)),
                                key=lambda r: r.stream):
        if step_for(stream) is None:
            continue
        mine = list(mine)
        held = cache.live_state(stream) or (StreamState(stream) if mine[0].version == 1 else None)
        if held is None or held.version >= mine[-1].version:
            continue
        mine = [r for r in mine if r.version > held.version]
        if mine[0].version == held.version + 1:
            fold(held, mine, catalogue, log, cache, committed=True)


def keep_live(store: EventStore, catalogue: Catalogue, cache: StreamCache) -> None:
    """Each of this process's commits folded onto the live states of its streams by the
    thread that committed it, before anyone else hears of it (events/commits.py): once, in
    commit order. The appending thread and the fan-out, woken together by the commit, each
    folded it when their turn came — the fan-out, often first, reading the stream's tail back
    from the log to do so, and both of them at once as often as not (bench/paced_tables.py).
    The appending thread's own :func:`advance` then finds the state held."""
    if cache.live:
        store.commits.listen_own(lambda _last, records: advance(store, catalogue, cache,
                                                                  records))


def _start(log: Tail, cache: StreamCache, stream: str,
           at: int | None) -> tuple[StreamState, Iterable[Record]]:
    """The state to fold from, and the records after it (up to ``at``)."""
    for candidate in cache.starts(stream, at):
        records = log.read_stream(stream, from_version=candidate.version, until_position=at)
        first = next(records, None)
        if first is None:
            # That version is not visible here (committed after this read began, or rolled
            # back): try an older state, and leave this one to the writer.
            continue
        if first.hash != candidate.hash:  # another event holds that version: of no use
            log_checkpoints.info("%s@%d is of another history: dropped", stream,
                                 candidate.version)
            cache.forget(candidate)
            continue
        return candidate, records
    return StreamState(stream), log.read_stream(stream, until_position=at)
