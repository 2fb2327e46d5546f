"""What the server draws and pairs, as the data of the event that records it: a knockout round
by lots or by cards (T-2.1, T-5.5), a groups stage's tables (T-8.1), a team event's next round
(T-6.4: round 1 by lots, later rounds by scores, the referee's by hand, or the proposal the chief
referee confirms). Drawn once, recorded as ``LotsDrawn``/``RoundPaired``: replay reads the
outcome and never draws again (T-1.4)."""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from events.store import Tail
from projections import brackets, groups, team_event
from projections.streams import StreamCache
from rules import knockout, swiss
from rules.messages import Message

from .errors import Refusal


@dataclass(frozen=True)
class Pairing:
    """How the next round of a team event is to be paired: by the rules (nothing given), the
    referee's by hand (``matches``, ``byes``), or the proposal with the fewest rematches
    confirmed (``confirm``); ``round``, when given, must be the next one."""
    round: int | None = None
    confirm: bool = False
    matches: list[dict] | None = None
    byes: list[str] = field(default_factory=list)
    reason: str | None = None


def knockout_round(log: Tail, catalogue, cache: StreamCache | None, tid: str,
                   rng: random.Random, number: int | None, method: str | None) -> dict:
    """The next knockout round by lots — absent teams meet present ones (T-2.6) — or, with
    ``method="cards"``, by matching playing cards (T-5.5, seed 001)."""
    bracket = brackets.bracket_for_next_draw(log, catalogue, tid, cache)
    wanted = knockout.next_round(bracket)
    if number is not None and number != wanted:
        raise Refusal("T-2.1", Message("the next round to draw is {wanted}", wanted=wanted),
                      "round")
    if method == "cards":
        return knockout.propose_card_draw(bracket, rng)
    return knockout.propose_draw(bracket, rng,
                                 absent=brackets.absent_at_draw(log, catalogue, tid, cache))


def stage_tables(log: Tail, catalogue, cache: StreamCache | None, tid: str,
                 rng: random.Random, number: int | None, method: str | None) -> dict:
    """The next stage's players seated at tables of four by lots (T-8.1)."""
    if method not in (None, "lots"):
        raise Refusal("T-8.1", Message("the tables of a stage are drawn by lots"), "method")
    draw = groups.propose_draw(log, catalogue, tid, rng, cache)
    if number is not None and number != draw["round"]:
        raise Refusal("T-8.1", Message("the next stage to draw is {round}",
                                       round=draw["round"]), "round")
    return draw


def team_round(log: Tail, catalogue, cache: StreamCache | None, tid: str,
               rng: random.Random, how: Pairing) -> tuple[str, dict]:
    """The event type and data pairing a team event's next round (T-6.4)."""
    if how.confirm and how.matches is not None:
        raise Refusal("T-6.4", Message("confirm the proposed pairing or post one by hand "
                                       "(matches), not both"), "confirm")
    if how.matches is not None:
        data = {"round": how.round or _next_round(log, catalogue, cache, tid),
                "matches": how.matches, "byes": how.byes, "manual": True}
        return "RoundPaired", _with_reason(data, how)
    if how.confirm:
        data = _with_reason(team_event.proposed_pairing(log, catalogue, tid, cache), how)
        _must_be_next(how, data)
        return "RoundPaired", data
    data = team_event.propose_pairing(log, catalogue, tid, rng, cache)
    _must_be_next(how, data)
    return ("LotsDrawn" if data["round"] == 1 else "RoundPaired"), data


def _with_reason(data: dict, how: Pairing) -> dict:
    return {**data, "reason": how.reason} if how.reason is not None else data


def _must_be_next(how: Pairing, data: dict) -> None:
    if how.round is not None and how.round != data["round"]:
        raise Refusal("T-6.4", Message("the next round to pair is {round}",
                                       round=data["round"]), "round")


def _next_round(log: Tail, catalogue, cache: StreamCache | None, tid: str) -> int:
    ev = team_event.current(log, catalogue, tid, cache)
    return swiss.next_round(ev) or len(ev.rounds) + 1
