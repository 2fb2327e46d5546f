"""Match read models of every game: a match as of any position, one of its hands, a line of the
match list — each rendered by its game's views module and filtered for the viewer."""
from __future__ import annotations

import functools
from types import MappingProxyType
from typing import Callable, Mapping

from events.catalogue import Catalogue, match_stream
from events.store import Tail
from rules.messages import Message

from . import guandan_views, mahjong_views, shengji_views
from .streams import StreamCache, StreamState, load_stream
from .viewers import VIEWERS, Viewer

__all__ = ["VIEWERS", "Viewer", "load_match", "match_states", "match_view", "hand_view",
           "hand_in_play", "hand_results", "summary", "folded_view", "ruled_view", "recording",
           "recorded_by_sheet", "no_card_record"]

# game -> module with match_view(state, viewer), numbered_hand_view(state, n, viewer),
# hand_results(state, after, count) and summary(state)
VIEWS: Mapping = MappingProxyType({"SJ2": shengji_views, "SJ3": shengji_views,
                                    "GD": guandan_views, "MJO": mahjong_views,
                                    "MJS": mahjong_views})


def load_match(log: Tail, catalogue: Catalogue, tournament_id: str, match_id: str,
               at: int | None = None, cache: StreamCache | None = None) -> StreamState:
    """The match's folded stream as of ``at`` (default: now)."""
    return load_stream(log, catalogue, match_stream(tournament_id, match_id), at, cache)


def match_states(log: Tail, catalogue: Catalogue, tournament_id: str, at: int | None = None,
                 cache: StreamCache | None = None) -> Callable[[str], object]:
    """Each match's state as of ``at``, by match id, each folded once however often a
    tournament-wide read (a bracket, the team event's rounds) asks for it."""
    @functools.cache
    def played(match_id: str):
        return load_match(log, catalogue, tournament_id, match_id, at, cache).state
    return played


# Every view below holds the rules' sentences as :class:`rules.messages.Sentence`, never as a
# bare message: the English as text wherever it is written as plain JSON (a stream's frame),
# said in its reader's language by the edge that knows it (service/i18n.py).
# tests/unit/test_view_sentences.py checks the views of every game's simulated log.

def match_view(state, viewer: Viewer) -> dict:
    return VIEWS[state.game].match_view(state, viewer)


def hand_view(state, number: int, viewer: Viewer) -> dict | None:
    """Hand ``number`` of the match as it stands (in play, or as it ended); None if not dealt."""
    return VIEWS[state.game].numbered_hand_view(state, number, viewer)


ALL = 1 << 62  # a count no match reaches


def hand_results(state, after: int = 0, count: int | None = None) -> list[dict]:
    """The result rows of the match's finished hands numbered after ``after``, in order: at
    most ``count`` (default: all). A finished hand is public: every viewer sees the same rows.
    The match read carries only the last of them (``last_result``); the rest are paged."""
    return VIEWS[state.game].hand_results(state, after, ALL if count is None else count)


def recording(state) -> str:
    """How the match's hands are recorded (match setting ``recording``, SJ2-18, SJ3-15,
    GD-14): ``cards``, event by event, or ``sheet``, one score-sheet row per hand (mahjong
    always by tiles: ``cards``)."""
    return getattr(state.settings, "recording", "cards")


def recorded_by_sheet(state, number: int) -> bool:
    """Whether hand ``number`` is a score sheet's row: it has a result but no cards to show
    or replay."""
    return recording(state) == "sheet" and state.hand_number(number) is not None


def no_card_record(match_id: str, number: int, rows_url: str) -> Message:
    """Why a hand read or replay of a score-sheet hand answers 404 (its row is at ``rows_url``)."""
    return Message("hand {number} of match {match_id!r} was recorded from a score sheet (match "
                   "setting recording: \"sheet\"): card-by-card replay is not available; its "
                   "result row is at {rows_url}", number=number, match_id=match_id,
                   rows_url=rows_url)


def hand_in_play(state, number: int) -> bool:
    """Whether hand ``number`` has been dealt and is not over (every engine's match state keeps
    its hands by number, each knowing whether it is in play)."""
    hand = state.hand_number(number)
    return hand is not None and hand.in_play


def summary(state) -> dict:
    return VIEWS[state.game].summary(state)


def folded_view(folded: StreamState, viewer: Viewer) -> dict:
    return {**match_view(folded.state, viewer), "version": folded.version,
            "position": folded.position, **ruled_view(folded, viewer)}


def ruled_view(folded: StreamState, viewer: Viewer) -> dict:
    """What the committee's rulings did to the match's events (rules/rulings.py): ``flags``,
    the events not applied because they break a rule under the ruled history (the rule's words
    may name cards held: officials only), and ``edits``, the events voided, substituted, or
    whose penalties were cancelled."""
    flags = [dict(f) if viewer.privileged else {k: v for k, v in f.items() if k != "message"}
             for f in folded.flags]
    return {"flags": flags, "edits": [dict(e) for e in folded.edits]}
