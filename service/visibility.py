"""What one token may see of each stored event: one rule for subscriptions and webhooks, made of
the reads' own.

Those who may read the raw log (``read-log``: officials) get the stored envelope, as
``GET …/events`` gives it. Everyone else gets the event's *notice* — what happened, where and
when: id, position, stream, version, type, time — with the data only of the events that every
read shows as they are (``permissions.PUBLIC_EVENTS``), and, for an event of a hand, the hand as
``GET …/matches/{mid}/hands/{n}?at=<its position>`` shows it to that token: a player's own
cards, never another seat's; the public, finished hands only. No rule of who sees which card is
written here: the hand read decides.

A match's view stream (``GET …/matches/{mid}/subscribe``) sends the match read itself after each
of its events: :class:`MatchViews` makes it once per event for each class of reader (a seat, the
public, an official role), with its frame, from the node's live state of the match."""
from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from functools import cached_property

from events.catalogue import Catalogue, match_stream_prefix
from events.envelope import Record
from events.store import EventStore
from projections.matches import Viewer, folded_view, hand_in_play, hand_view, load_match
from projections.stream_cache import StreamCache
from projections.streams import StreamState

from . import json_text, permissions
from .auth import natural_viewer
from .event_stream import compact, frame
from .tokens import Token

NOTICE_FIELDS = ("position", "id", "tournament_id", "stream", "version", "type", "recorded_at")
IN_PLAY = "the hand is in play: the public sees finished hands only"
WITHHELD = "withheld: this token may not read the raw log; the reads show what it may see"


@dataclass(frozen=True)
class Reader:
    """Who reads: a token (None: the public) of the tournament ``tournament_id``. What it may
    read is worked out once: a stream renders every event for the same reader (a revoked token
    ends the stream, service/event_stream.py)."""
    tournament_id: str
    token: Token | None

    @cached_property
    def reads_log(self) -> bool:
        return permissions.action_denied(self.token, "read-log") is None

    @cached_property
    def key(self) -> tuple:
        """Readers who see the same: an official; or a player of one match and seat; else the
        public, with or without a token (a token sees hands in play as the table does)."""
        t = self.token
        if self.reads_log:
            return ("log",)
        if t is not None and t.role == "player":
            return ("seat", t.match_id, t.seat)
        return ("table",) if t is not None else ("public",)


class Visibility:
    """Renders events for readers, keeping the last few thousand renderings: a thousand
    subscribers who see the same pay for one. The oldest made goes first: subscribers ask
    for events in log order, so the newest are the ones asked for again. A rendering found is
    read without the lock (one dict look-up, which the GIL makes whole): every live subscriber
    asks for every event, on the event loop's thread (bench/live.py)."""

    def __init__(self, store: EventStore, catalogue: Catalogue, cache: StreamCache,
                 keep: int = 4096):
        self.store, self.catalogue, self.cache, self.keep = store, catalogue, cache, keep
        self._done: dict[tuple, str] = {}  # in the order made
        self._lock = threading.Lock()  # for adding and evicting
        self.views = MatchViews(store, catalogue, cache)

    def render(self, record: Record, reader: Reader) -> str:
        """The event as ``reader`` may see it, as compact JSON text."""
        return self._render(record, reader, quick=False)

    def render_quick(self, record: Record, reader: Reader) -> str | None:
        """``render``, if it needs neither the store nor a fold: it is cached, or it is made
        from the record alone (all but a hand's event for a reader of less than the log);
        None otherwise."""
        return self._render(record, reader, quick=True)

    def _render(self, record: Record, reader: Reader, quick: bool) -> str | None:
        key = (record.position, record.id, reader.key)
        if (text := self._done.get(key)) is not None:
            return text
        if (seen := self.visible(record, reader, quick)) is None:
            return None
        text = compact(seen)
        with self._lock:
            self._done[key] = text
            while len(self._done) > self.keep:
                del self._done[next(iter(self._done))]
        return text

    def visible(self, record: Record, reader: Reader, quick: bool = False) -> dict | None:
        """What ``reader`` may see of ``record``; None if ``quick`` and that needs a fold."""
        if reader.reads_log:
            return record.to_dict()
        data = json.loads(record.data)
        notice = {name: getattr(record, name) for name in NOTICE_FIELDS}
        if (hand := self._hand_of(record, reader, data)) is not None:
            if quick:
                return None  # the hand read folds the match
            # a hand's event, public or not (lots drawn in play too): as the hand read shows it
            match_id, number = hand
            return {**notice, "hand": number, **self._hand(record, reader, match_id, number)}
        if record.type in permissions.PUBLIC_EVENTS:
            return {**notice, "data": data}
        return {**notice, "withheld": WITHHELD}

    @staticmethod
    def _hand_of(record: Record, reader: Reader, data) -> tuple[str, int] | None:
        """(match id, hand number) of an event of a hand of the reader's tournament, else None;
        ``data`` is the event's, parsed."""
        prefix = match_stream_prefix(reader.tournament_id)
        hand = data.get("hand") if isinstance(data, dict) else None
        if not record.stream.startswith(prefix) or not isinstance(hand, int):
            return None
        return record.stream[len(prefix):], hand

    def _hand(self, record: Record, reader: Reader, match_id: str, number: int) -> dict:
        """The hand as the hand read shows it to ``reader`` right after ``record``."""
        folded = load_match(self.store, self.catalogue, reader.tournament_id, match_id,
                            record.position, self.cache)
        if reader.token is None and hand_in_play(folded.state, number):
            return {"withheld": IN_PLAY}
        view = hand_view(folded.state, number, natural_viewer(reader.token, match_id))
        return {"view": view} if view is not None else {"withheld": WITHHELD}


@dataclass(frozen=True)
class Seen:
    """What a class of a match's subscribers see: the match read of ``viewer`` (who; whether a
    hand in play is shown at all: the public without a token sees finished hands only), with
    the link to its hand results (the same for every reader of the match)."""
    viewer: Viewer
    live_shown: bool
    hand_results: str


def match_read(folded: StreamState, seen: Seen) -> dict:
    """The match read (``GET …/matches/{mid}``, service/api/matches.py) of ``folded``, as the
    readers of class ``seen`` get it."""
    view = {**folded_view(folded, seen.viewer), "stream": folded.stream,
            "hand_results": seen.hand_results}
    current = view["current_hand"]
    if not seen.live_shown and current and hand_in_play(folded.state, current["hand"]):
        view["current_hand"] = None  # the public sees finished hands only
    return view


class MatchViews:
    """The frame of a match's view after each of its events for each class of reader, made
    once for all of that class, the last ``keep`` kept (the oldest made goes first). The state
    is the node's live state of the match (projections/stream_cache.py): a view of an event
    just appended reads nothing from the log."""

    # a frame is about 10 KiB (a Guandan hand's tricks): two seconds' worth at 200 tables,
    # which is what the subscribers of a class ask for right after the fan-out made it
    KEEP = 1024

    def __init__(self, store: EventStore, catalogue: Catalogue, cache: StreamCache,
                 keep: int = KEEP):
        self.store, self.catalogue, self.cache, self.keep = store, catalogue, cache, keep
        self._done: dict[tuple, bytes] = {}
        self._lock = threading.Lock()

    def quick(self, record: Record, seen: Seen) -> bytes | None:
        """The frame if it is made (None: it is not, yet)."""
        return self._done.get((record.stream, record.position, seen))

    def frame(self, record: Record, tournament_id: str, match_id: str, seen: Seen) -> bytes:
        """The frame of the view of match ``match_id`` after ``record``, one of its events."""
        key = (record.stream, record.position, seen)
        if (made := self._done.get(key)) is not None:
            return made
        folded = load_match(self.store, self.catalogue, tournament_id, match_id,
                            record.position, self.cache)
        made = frame(json_text.dumps(match_read(folded, seen)), record.position, "view")
        with self._lock:
            self._done[key] = made
            while len(self._done) > self.keep:
                del self._done[next(iter(self._done))]
        return made
