"""``GET …/matches/{mid}/hands/{n}/replay``: a hand's replay in one read — every step
of hand n with the hand view at its position, as the token sees it (the hand read's visibility:
service/auth.py ``viewer_for``; the public sees finished hands only), each event's data only
for a token that may read the log. The replay page reads it once instead of the hand at every
position (about 300 requests for a mahjong hand)."""
from __future__ import annotations

from flask import Blueprint, jsonify, url_for

from projections.matches import hand_in_play, no_card_record, recorded_by_sheet
from projections.replays import MAX_STEPS, hand_replay, public_sees
from rules.messages import Message

from ..auth import allows, current_token, viewer_for
from ..problems import Problem
from ..requests import int_arg
from ..visibility import Reader
from .common import hand_not_dealt, no_match, require_tournament, services
from .matches import hand_results_url

bp = Blueprint("replays", __name__, url_prefix="/v1/tournaments/<tid>")


@bp.get("/matches/<mid>/hands/<int:n>/replay")
@allows("read")
def get_hand_replay(tid: str, mid: str, n: int):
    at = int_arg("at", None, 0)
    after = int_arg("after", 0, 0)
    limit = int_arg("limit", MAX_STEPS, 1, MAX_STEPS)
    viewer, live_shown = viewer_for(mid)
    s = services()
    require_tournament(tid)
    shown = (lambda state: None) if live_shown else public_sees(n)
    with_data = Reader(tid, current_token()).reads_log  # the tournament's token: checked above
    replay = hand_replay(s.store, s.catalogue, tid, mid, n, viewer, shown, with_data,
                         at, after, limit, s.cache)
    if replay is None:
        raise no_match(mid, tid, at)
    if recorded_by_sheet(replay["state"], n):  # a score sheet's row holds no cards
        raise Problem(404, "not-found", no_card_record(
            mid, n, hand_results_url(tid, mid)))
    if not replay["steps"] and not after:
        raise hand_not_dealt(n, mid, at)
    if not live_shown and hand_in_play(replay["state"], n):
        raise Problem(401, "unauthorized", Message("hand {n} of match {mid!r} is in play: the "
                                                   "public sees finished hands only; a token "
                                                   "is needed",
                                                   n=n, mid=mid))
    steps = replay["steps"]
    next_url = url_for(".get_hand_replay", tid=tid, mid=mid, n=n, at=at,
                       after=steps[-1]["position"], limit=limit) if replay["more"] else None
    response = jsonify({"match_id": mid, "hand": n, "game": replay["state"].game,
                        "viewer": str(viewer), "with_data": with_data, "limit": limit,
                        "steps": steps, "next": next_url})
    if next_url:
        response.headers["Link"] = f'<{next_url}>; rel="next"'
    return response
