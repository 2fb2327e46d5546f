"""The committee's desk as read models (T-1.5): the disputes of a tournament, the
rulings that shaped its state, a ruling judged before it is stored, the state a proposed ruling
would make (an overlay of the log: the stored events and the proposed one, read by the same
projections — so a preview is what recording the ruling gives), and the structured difference
between two states of a projection.

The checks a dispute must pass look beyond its own stream (the match it names, the ruling that
resolves it); they are guards (projections/guards.py), run inside the write transaction.
"""
from __future__ import annotations

import json
from collections.abc import Iterator, Sequence

from events.catalogue import (
    Catalogue,
    match_stream,
    match_stream_prefix,
    tournament_stream,
)
from events.envelope import NewEvent, Record
from events.store import Tail
from rules import rulings
from rules.violations import RuleViolation

from . import brackets, groups, team_event
from .matches import Viewer, folded_view, hand_in_play, hand_results, hand_view, load_match
from .streams import StreamCache, load_stream, refold, stream_items
from .tournaments import tournament_view

RULE = rulings.RULE


# --- a ruling judged inside the write transaction ---------------------------------------------

def decide_ruling(log: Tail, catalogue: Catalogue, events: Sequence[NewEvent], index: int,
                  recorded_at: str):
    """The state of the stream of ``events[index]`` — a ruling that reaches back — once it is
    recorded: the stream folded again with it, judged strictly at every point it names (a
    substituted event the rules refuse, an effect that cannot apply, a target that is not an
    event of this stream: RuleViolation). The store gives the batch the positions after the
    log's last, in order."""
    event = events[index]
    first = log.last_position() + 1
    items = stream_items(log, catalogue, event.stream)
    items += [rulings.Item(first + i, e.type, e.data, recorded_at)
              for i, e in enumerate(events[:index + 1]) if e.stream == event.stream]
    return refold(log, catalogue, event.stream, items=items, strict=first + index).state


# --- guards: a dispute fits the tournament ------------------------------------------------------

def _committee_file(log: Tail, tournament_id: str) -> Iterator[tuple[Record, dict]]:
    for record in log.read_stream(tournament_stream(tournament_id)):
        if record.type in ("DisputeRaised", "DisputeResolved"):
            yield record, record.data_dict


def _disputes(log: Tail, tournament_id: str) -> dict[str, dict]:
    """dispute id -> {"raised": data, "resolved": data | None}."""
    found: dict[str, dict] = {}
    for record, data in _committee_file(log, tournament_id):
        if record.type == "DisputeRaised":
            found[data["dispute_id"]] = {"raised": data, "resolved": None}
        elif data["dispute_id"] in found:
            found[data["dispute_id"]]["resolved"] = data
    return found


def guard_dispute_raised(log: Tail, catalogue: Catalogue, tournament_id: str, data: dict,
                         cache: StreamCache | None) -> None:
    """DisputeRaised (T-1.5): a new dispute id; the match started, the hand dealt in it, and
    every position an event of that match or of the tournament's own stream."""
    dispute_id = data["dispute_id"]
    if dispute_id in _disputes(log, tournament_id):
        raise RuleViolation(RULE, "dispute {dispute_id!r} has already been raised",
                                  dispute_id=dispute_id)
    streams = [tournament_stream(tournament_id)]
    if data.get("match_id") is not None:
        stream = match_stream(tournament_id, data["match_id"])
        state = load_match(log, catalogue, tournament_id, data["match_id"], cache=cache).state
        if state is None:
            raise RuleViolation(RULE, "no match {match_id!r} has started in this tournament",
                                      match_id=data['match_id'])
        if data.get("hand") is not None and state.hand_number(data["hand"]) is None:
            raise RuleViolation(RULE, "hand {hand} of match {match_id!r} has not been dealt",
                                      hand=data['hand'], match_id=data['match_id'])
        streams.insert(0, stream)
    wanted = set(data.get("positions") or ())
    if wanted:
        known = {r.position for s in streams for r in log.read_stream(s)}
        missing = sorted(wanted - known)
        if missing and len(streams) == 2:  # the match's stream or the tournament's
            raise RuleViolation(RULE, "position {position} is not an event of {stream} or "
                                      "{stream2}", position=missing[0], stream=streams[0],
                                      stream2=streams[1])
        if missing:
            raise RuleViolation(RULE, "position {position} is not an event of {stream}",
                                      position=missing[0], stream=streams[0])


def guard_dispute_resolved(log: Tail, catalogue: Catalogue, tournament_id: str, data: dict,
                           cache: StreamCache | None) -> None:
    """DisputeResolved (T-1.5): a dispute raised and still open; the ruling named is a
    RulingRecorded of this tournament."""
    dispute = _disputes(log, tournament_id).get(data["dispute_id"])
    if dispute is None:
        raise RuleViolation(RULE, "no dispute {dispute_id!r} has been raised",
                                  dispute_id=data['dispute_id'])
    if dispute["resolved"] is not None:
        raise RuleViolation(RULE, "dispute {dispute_id!r} is resolved already",
                                  dispute_id=data['dispute_id'])
    ruling_id = data.get("ruling_event_id")
    if ruling_id is None:
        return
    record = log.records_by_id([ruling_id]).get(ruling_id)
    if record is None or record.tournament_id != tournament_id or \
            record.type != "RulingRecorded":
        raise RuleViolation(RULE, "event {ruling_id} is not a ruling (RulingRecorded) of this "
                                  "tournament",
                                  ruling_id=ruling_id)


def guard_ruling(log: Tail, catalogue: Catalogue, tournament_id: str, data: dict,
                 cache: StreamCache | None) -> None:
    """RulingRecorded: the disputes it answers have been raised."""
    named = {data.get("dispute_id")} | {e.get("dispute_id") for e in data.get("effects") or ()}
    named.discard(None)
    if not named:
        return
    raised = _disputes(log, tournament_id)
    for dispute_id in sorted(named):
        if dispute_id not in raised:
            raise RuleViolation(RULE, "no dispute {dispute_id!r} has been raised",
                                      dispute_id=dispute_id)


# --- the committee's file as read models -------------------------------------------------------

def _who(record: Record) -> dict:
    meta = json.loads(record.meta)
    return {key: meta[key] for key in ("actor", "role", "seat") if key in meta}


def disputes_view(log, catalogue: Catalogue, tournament_id: str, at: int | None = None,
                  cache: StreamCache | None = None, officials: bool = True) -> dict:
    """Every dispute of the tournament in the order raised, with its status and resolution.
    ``officials``: every claim is shown; to anyone else a claim is ``null`` while what it is
    about is still being played (:func:`_claim_withheld`)."""
    items: dict[str, dict] = {}
    for record in log.read_stream(tournament_stream(tournament_id), until_position=at):
        if record.type not in ("DisputeRaised", "DisputeResolved"):
            continue
        data = catalogue.upcast(record)
        if record.type == "DisputeRaised":
            items[data["dispute_id"]] = {
                "dispute_id": data["dispute_id"], "match_id": data.get("match_id"),
                "hand": data.get("hand"), "positions": list(data.get("positions") or ()),
                "claim": data["claim"], "status": "open", "raised_at": record.recorded_at,
                "raised_by": _who(record), "position": record.position, "resolution": None}
            continue
        entry = items[data["dispute_id"]]
        resolution = {"text": data["text"], "at": record.recorded_at,
                      "position": record.position, "by": _who(record)}
        if data.get("ruling_event_id"):
            resolution["ruling_event_id"] = data["ruling_event_id"]
        else:
            resolution["noChange"] = True
        entry.update(status="resolved", resolution=resolution)
    if not officials:
        matches: dict[str, object] = {}  # match id -> its state as of ``at``, folded once
        for entry in items.values():
            mid = entry["match_id"]
            if mid is not None and mid not in matches:
                matches[mid] = load_match(log, catalogue, tournament_id, mid, at, cache).state
            if _claim_withheld(entry, matches.get(mid)):
                entry["claim"] = None
    return {"disputes": list(items.values())}


def _claim_withheld(dispute: dict, state) -> bool:
    """Whether a dispute's claim is kept from a reader who is not an official: a claim raised
    during play ("partner held AH") may name cards still held, so while the hand it names is
    in play — or, naming no hand, while the match it names is (``state``: that match) — only
    officials read it. Afterwards, everyone."""
    if state is None:
        return False
    if dispute["hand"] is not None:
        return hand_in_play(state, dispute["hand"])
    return state.status != "completed"


def rulings_view(log, catalogue: Catalogue, tournament_id: str, match_id: str | None = None,
                 at: int | None = None, cache: StreamCache | None = None,
                 officials: bool = True) -> dict:
    """The rulings of the tournament (of one match's stream with ``match_id``) in the order
    recorded: their words and effects, the disputes they answer, and what became of them —
    ``applied``, or ``overturned`` by a later ruling that voided it — with the events each
    edited and the faults of effects that no longer apply. ``officials``: the substituted
    events' data and the faults' messages (either may name cards still held) are shown."""
    streams = [match_stream(tournament_id, match_id)] if match_id else None
    resolving = _resolutions(log, catalogue, tournament_id, at)
    folded: dict[str, object] = {}
    out = []
    for record in log.read_tournament(tournament_id, type="RulingRecorded", until_position=at):
        if streams is not None and record.stream not in streams:
            continue
        if record.stream not in folded:
            folded[record.stream] = load_stream(log, catalogue, record.stream, at, cache)
        out.append(_ruling(record, catalogue.upcast(record), folded[record.stream],
                           resolving.get(record.id, []), tournament_id, officials))
    return {"rulings": out}


def _resolutions(log, catalogue: Catalogue, tournament_id: str, at: int | None) -> dict:
    """ruling event id -> the disputes resolved by it."""
    found: dict[str, list[str]] = {}
    for record in log.read_stream(tournament_stream(tournament_id), until_position=at):
        if record.type == "DisputeResolved":
            data = catalogue.upcast(record)
            if data.get("ruling_event_id"):
                found.setdefault(data["ruling_event_id"], []).append(data["dispute_id"])
    return found


def _ruling(record: Record, data: dict, folded, resolves: list[str], tournament_id: str,
            officials: bool) -> dict:
    prefix = match_stream_prefix(tournament_id)
    mine = [e for e in folded.edits if e["ruling"] == record.position]
    overturned = next((e["ruling"] for e in folded.edits
                       if e["position"] == record.position and e["edit"] == "voided"), None)
    effects = [dict(e) for e in data.get("effects") or ()]
    faults = [dict(f) for f in folded.flags if f["position"] == record.position]
    if not officials:
        effects = [{**e, "data": None} if e["kind"] == "substitute" else e for e in effects]
        # the rule's words may name cards held, as in the match's own flags (ruled_view)
        faults = [{k: v for k, v in f.items() if k != "message"} for f in faults]
    answers = sorted({data.get("dispute_id"), *(e.get("dispute_id") for e in effects)}
                     - {None})
    return {"event_id": record.id, "position": record.position, "stream": record.stream,
            "match_id": record.stream[len(prefix):] if record.stream.startswith(prefix) else None,
            "recorded_at": record.recorded_at, "recorded_by": _who(record),
            "text": data["text"], "effect": data.get("effect"), "effects": effects,
            "disputes": answers, "resolves": resolves,
            "status": "overturned" if overturned is not None else "applied",
            "overturned_by": overturned, "edits": [dict(e) for e in mine],
            "faults": faults}


# --- the log with a proposed event: what recording it would make ------------------------------

class OverlayLog:
    """The store as it would be with ``extra`` records appended (a proposed ruling): read by
    the same projections, so what they show is what recording the ruling makes. Nothing is
    written anywhere."""

    def __init__(self, store, extra: Sequence[Record] = ()):
        self.store, self.extra = store, list(extra)

    def _extra(self, **match) -> list[Record]:
        return [r for r in self.extra if all(getattr(r, k) == v for k, v in match.items())]

    def read_stream(self, stream, from_version=1, limit=None, until_position=None):
        records = list(self.store.read_stream(stream, from_version, None, until_position))
        records += [r for r in self._extra(stream=stream) if r.version >= from_version
                    and (until_position is None or r.position <= until_position)]
        return iter(records if limit is None else records[:limit])

    def read_tournament(self, tournament_id, after=0, limit=None, stream=None, type=None,
                        until_position=None):
        records = list(self.store.read_tournament(tournament_id, after, None, stream, type,
                                                  until_position))
        records += [r for r in self._extra(tournament_id=tournament_id) if r.position > after
                    and (stream is None or r.stream == stream) and (type is None or r.type == type)
                    and (until_position is None or r.position <= until_position)]
        return iter(records if limit is None else records[:limit])

    def stream_head(self, stream):
        mine = self._extra(stream=stream)
        if mine:
            return mine[-1].tournament_id, mine[-1].version
        return self.store.stream_head(stream)

    def tournament_head(self, tournament_id):
        mine = self._extra(tournament_id=tournament_id)
        if mine:
            return mine[-1].position, mine[-1].hash
        return self.store.tournament_head(tournament_id)

    def last_position(self) -> int:
        return max([self.store.last_position()] + [r.position for r in self.extra])

    def get(self, event_id: str) -> Record | None:
        return next((r for r in self.extra if r.id == event_id), None) or self.store.get(event_id)

    def records_by_id(self, ids):
        return {i: r for i in ids if (r := self.get(i)) is not None}


# --- the projections a ruling touches, and their difference -----------------------------------

def match_views(log, catalogue: Catalogue, tournament_id: str, match_id: str, viewer: Viewer,
                live_shown: bool = True, at: int | None = None,
                cache: StreamCache | None = None) -> dict | None:
    """The match and each of its hands dealt, as ``viewer`` sees them (the public: finished
    hands only); None before the match started."""
    folded = load_match(log, catalogue, tournament_id, match_id, at, cache)
    if folded.state is None:
        return None
    # the committee compares whole histories: the result row of every hand, not only the
    # last one that the match read carries
    view = {**folded_view(folded, viewer), "stream": match_stream(tournament_id, match_id),
            "history": hand_results(folded.state)}
    current = view["current_hand"]
    if not live_shown and current and hand_in_play(folded.state, current["hand"]):
        view["current_hand"] = None
    hands = {}
    number = 1
    while (shown := hand_view(folded.state, number, viewer)) is not None:
        if live_shown or not hand_in_play(folded.state, number):
            hands[number] = {**shown, "match_id": match_id, "version": folded.version,
                             "position": folded.position}
        number += 1
    return {"match": view, "hands": hands}


def tournament_views(log, catalogue: Catalogue, tournament_id: str, at: int | None = None,
                     cache: StreamCache | None = None) -> dict:
    """The tournament-wide reads: the tournament itself, and those of its format — the bracket
    and standings of a knockout, the groups and standings of groups of four, the rounds and
    standings of the team event."""
    t = brackets.tournament_at(log, catalogue, tournament_id, at, cache)
    if t is None:
        return {}
    views = {"tournament": tournament_view(log, catalogue, tournament_id, at, cache)}
    if t.format == "groups":
        return {**views, "groups": groups.groups_view(log, catalogue, tournament_id, at, cache),
                "standings": groups.standings_view(log, catalogue, tournament_id, at, cache)}
    if t.format == "swiss-teams":
        return {**views,
                "rounds": team_event.rounds_view(log, catalogue, tournament_id, at, cache),
                "standings": team_event.standings_view(log, catalogue, tournament_id, at, cache)}
    return {**views, "bracket": brackets.bracket_view(log, catalogue, tournament_id, at, cache),
            "standings": brackets.standings_view(log, catalogue, tournament_id, at, cache)}


def diff(before: object, after: object, path: str = "") -> list[dict]:
    """The structured difference of two JSON values: one change per member that differs,
    named by its JSON Pointer — ``replace`` (both sides), ``add`` (only after) or ``remove``
    (only before). Objects compare member by member, arrays item by item."""
    if isinstance(before, dict) and isinstance(after, dict):
        changes = []
        for key in list(before) + [k for k in after if k not in before]:
            where = f"{path}/{_escaped(str(key))}"
            if key not in after:
                changes.append({"path": where, "op": "remove", "before": before[key]})
            elif key not in before:
                changes.append({"path": where, "op": "add", "after": after[key]})
            else:
                changes += diff(before[key], after[key], where)
        return changes
    if isinstance(before, list) and isinstance(after, list):
        changes = []
        for index in range(max(len(before), len(after))):
            where = f"{path}/{index}"
            if index >= len(after):
                changes.append({"path": where, "op": "remove", "before": before[index]})
            elif index >= len(before):
                changes.append({"path": where, "op": "add", "after": after[index]})
            else:
                changes += diff(before[index], after[index], where)
        return changes
    if before == after and type(before) is type(after):
        return []
    return [{"path": path, "op": "replace", "before": before, "after": after}]


def _escaped(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def compared(name: str, before: object, after: object, **where) -> dict | None:
    """One projection's before and after with their changes; None when they are equal."""
    changes = diff(before, after)
    if not changes:
        return None
    return {"projection": name, **where, "before": before, "after": after, "changes": changes}

