"""A hand's replay in one read: the match stream folded once, event by event, and the
hand view at each event of the hand — what ``GET …/hands/{n}?at=P`` answers at every position
P, without a request (and a fold from the start) per position.

The events of hand n are those naming it (``data.hand``), the match's events without a hand
that fall within it (a time limit, a ruling), and the rulings recorded later that act on it
(their effects name the hand, or a position of it): stepping onto one shows the hand as ruled.
A hand is bounded (an SJ2 hand is about 110 events, an SJ3 or Guandan hand a few hundred, a
mahjong hand up to about 300): a read answers at most ``limit`` steps, and the URL of the rest."""
from __future__ import annotations

from typing import Callable

from events.catalogue import Catalogue, match_stream
from events.store import Tail
from rules.messages import Message, Sentence

from .matches import hand_in_play, hand_view, load_match
from .stream_cache import StreamCache
from .streams import fold
from .viewers import Viewer

MAX_STEPS = 1000  # more than any hand has; a longer one is paged (``after``)
# why a step shows no hand, said in its reader's language
NOT_DEALT = Sentence(Message("the hand is not dealt yet at this position"))
IN_PLAY = Sentence(Message("in play: the public sees finished hands only"))

_POSITION_KEYS = ("position", "after", "from", "to")


def _names_hand(data: dict, number: int, first: int, last: int) -> bool:
    """A ruling acts on hand ``number``: an effect names it, or a position within it."""
    for effect in data.get("effects") or ():
        if effect.get("hand") == number:
            return True
        spots = list(effect.get("positions") or ()) + [effect.get(k) for k in _POSITION_KEYS]
        if any(isinstance(p, int) and first <= p <= last for p in spots):
            return True
    return False


def hand_replay(log: Tail, catalogue: Catalogue, tournament_id: str, match_id: str,
                number: int, viewer: Viewer, shown: Callable[[object], str | None],
                with_data: bool, at: int | None = None, after: int = 0,
                limit: int = MAX_STEPS, cache: StreamCache | None = None) -> dict | None:
    """The steps of hand ``number`` as of ``at``, after position ``after``: each with its
    position, type, seat, the event's data when ``with_data`` (the token may read the log: a
    deal's data names every card) and the hand view at that position as ``viewer`` sees it —
    or ``withheld``, the reason ``shown(state)`` gives for not showing it (the public and a
    hand in play). None if the match has no stream; ``steps`` empty if the hand was not dealt.
    At most ``limit`` steps; ``more`` tells that others follow; ``state``: the match as of
    ``at``. The fold starts from the match as it stood just before the hand (``cache``: its
    nearest checkpoint), so a late hand of a long match costs its own events only."""
    stream = match_stream(tournament_id, match_id)
    records = list(log.read_stream(stream, until_position=at))
    if not records:
        return None
    datas = [catalogue.upcast(r) for r in records]
    own = [r.position for r, d in zip(records, datas) if d.get("hand") == number]
    if not own:
        return {"steps": [], "more": False, "state": None}
    first, last = own[0], own[-1]

    def in_hand(record, data) -> bool:
        if data.get("hand") == number:
            return True
        if "hand" not in data and first < record.position < last:
            return True
        return record.type == "RulingRecorded" and record.position > last and \
            _names_hand(data, number, first, last)

    state = load_match(log, catalogue, tournament_id, match_id, first - 1, cache)
    steps, more = [], False
    for record, data in zip(records, datas):
        if record.position < first:
            continue  # folded already
        state = fold(state, [record], catalogue, log)
        if record.position <= after or not in_hand(record, data):
            continue
        if len(steps) == limit:
            more = True  # folded on: ``state`` is the match as of ``at``
            continue
        step = {"position": record.position, "type": record.type,
                "seat": data.get("seat") if isinstance(data.get("seat"), int) else None}
        if with_data:
            step["data"] = data
        why = shown(state.state)
        view = None if why else hand_view(state.state, number, viewer)
        if why:
            step["withheld"] = why
        elif view is None:
            step["withheld"] = NOT_DEALT
        else:
            step["view"] = {**view, "match_id": match_id, "version": state.version,
                            "position": state.position}
        steps.append(step)
    return {"steps": steps, "more": more, "state": state.state}


def public_sees(number: int) -> Callable[[object], Sentence | None]:
    """The public sees finished hands only (as ``GET …/hands/{n}``)."""
    def withheld(state) -> Sentence | None:
        return IN_PLAY if hand_in_play(state, number) else None
    return withheld
