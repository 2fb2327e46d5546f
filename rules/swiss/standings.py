"""The team event's standings (T-6.8): the ranked teams by score and tie-breaks, the excluded
ones after them, the places lots must still separate (``standingsTie``) and whether the
ranking is final."""
from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace

from ..violations import RuleViolation
from .event import STANDINGS, TeamEvent
from .forfeits import Exclusion, excluded, exclusion
from .rounds import ended
from .scoring import Totals, totals


# --- the standings -----------------------------------------------------------------------------

def ranked_teams(ev: TeamEvent) -> list[str]:
    """The teams in the standings: every entrant except those excluded (T-6.7, SJ3-11.9)."""
    gone = excluded(ev)
    return [t for t in ev.entries if t not in gone]


@dataclass(frozen=True)
class Row:
    place: int | None      # None: excluded (T-6.7), not ranked
    totals: Totals
    tied: bool
    excluded_after: int | None
    exclusion: Exclusion | None = None


def standings(ev: TeamEvent) -> list[Row]:
    """T-6.8: the ranked teams best first — score, tie-break 1, tie-break 2, then lots; equal
    teams that no lots separate share a place (1, 2, 2, 4) — then the excluded teams (T-6.7),
    without a place, in order of registration."""
    lots = ev.tie_lots

    def key(team: str) -> tuple:
        drawn = lots.index(team) if team in lots else len(lots)
        return (*(-v for v in totals(ev, team).key()), drawn)

    ranked = sorted(ranked_teams(ev), key=lambda t: (key(t), list(ev.entries).index(t)))
    keys = [key(t) for t in ranked]
    rows = [Row(keys.index(k) + 1, totals(ev, t), keys.count(k) > 1, None)
            for t, k in zip(ranked, keys, strict=True)]
    gone = {t: exclusion(ev, t) for t in ev.entries}
    return rows + [Row(None, totals(ev, t), False, e.after_round, e)
                   for t, e in gone.items() if e is not None]


def tie_groups(ev: TeamEvent) -> list[list[str]]:
    """Groups of teams that share a place, best place first."""
    rows = [r for r in standings(ev) if r.tied]
    groups: dict[int, list[str]] = {}
    for r in rows:
        groups.setdefault(r.place, []).append(r.totals.team)
    return [groups[p] for p in sorted(groups)]


def final(ev: TeamEvent) -> bool:
    """The event has ended (T-6.11) and no place is shared: lots have decided every tie
    (T-6.8)."""
    return ended(ev) is not None and not tie_groups(ev)


# --- lots for the ties (standingsTie) ----------------------------------------------------------

def tied_with(ev: TeamEvent, team: str) -> list[str]:
    """The ranked teams with the same score and tie-breaks as ``team``."""
    key = totals(ev, team).key()
    return [t for t in ranked_teams(ev) if totals(ev, t).key() == key]


def check_tie_lots(ev: TeamEvent, data: Mapping) -> None:
    """T-6.8: lots separate teams equal on score and both tie-breaks, after the last round;
    drawn among all the teams tied at that place that no earlier lots have placed."""
    if ended(ev) is None:
        raise RuleViolation(STANDINGS, "lots decide places once every round has been played "
                                       "or the event has ended (T-6.11)")
    if data["round"] != len(ev.rounds):
        raise RuleViolation(STANDINGS, "the standings lots are drawn after the last round, "
                                       "{last}, not {round}",
                                       last=len(ev.rounds), round=data['round'])
    candidates = list(data["candidates"])
    if data["winner"] not in candidates or len(set(candidates)) != len(candidates):
        raise RuleViolation(STANDINGS, "the lots are drawn among different teams and the "
                                       "winner is one of them")
    ranked = ranked_teams(ev)
    unranked = [t for t in candidates if t not in ranked]
    if unranked:
        raise RuleViolation(STANDINGS, "{teams} is not in the standings",
                                       teams=', '.join(unranked))
    placed = [t for t in candidates if t in ev.tie_lots]
    if placed:
        raise RuleViolation(STANDINGS, "{teams} already won a draw of these lots",
                                       teams=', '.join(placed))
    tied = [t for t in tied_with(ev, candidates[0]) if t not in ev.tie_lots]
    if sorted(tied) != sorted(candidates):
        raise RuleViolation(STANDINGS, "lots are drawn among all the teams tied at that place: "
                                       "{tied}, not {candidates}",
                                       tied=', '.join(tied), candidates=', '.join(candidates))


def record_tie_lots(ev: TeamEvent, data: Mapping) -> TeamEvent:
    return replace(ev, tie_lots=ev.tie_lots + (data["winner"],))


def propose_tie_lots(ev: TeamEvent, rng: random.Random) -> list[dict]:
    """Lots for every tie left in the final standings: for each group of k equal teams, k − 1
    draws, each among the teams not yet placed (the winner takes the best place left)."""
    draws, lots = [], list(ev.tie_lots)
    for group in tie_groups(ev):
        left = [t for t in group if t not in lots]
        while len(left) > 1:
            winner = rng.choice(left)
            draws.append({"purpose": "standingsTie", "round": len(ev.rounds),
                          "candidates": list(left), "winner": winner})
            lots.append(winner)
            left.remove(winner)
    return draws
