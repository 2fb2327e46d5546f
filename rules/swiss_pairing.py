"""Pairing one round of the team event by scores (积分编排, tournaments.md T-6.4).

Seed 004: 「第二轮起按同分或近分原则编排对手」 — from round 2 opponents have equal or near scores.
The issue adds: never the same opponent twice, and one bye for an odd number of teams, to the
lowest-ranked team that has not had one. What this module decides, in order of priority:

1. **No rematch.** Two teams that have met are never paired by the server. When no pairing
   without a rematch exists the answer is ``None`` (the referee may then post one by hand).
2. **The bye** (odd number of teams) goes to the lowest-ranked team without a bye *for which the
   other teams can be paired without a rematch*; if there is none, there is no valid pairing.
3. **Equal or near scores.** The teams to pair are put in *score groups* (one per distinct team
   score, highest first); the distance of a pair is how many groups apart its teams are. The
   pairing keeps the largest distance as small as it can be: every pair within one score group
   or two adjacent ones whenever such a pairing exists.
4. **Top-down.** Among those, the teams are taken in ranking order and each gets the
   highest-ranked team still free that leaves the rest pairable (T-6.4's *Interpretation*:
   「paired top-down, each with the highest-ranked team it has not yet met」).

The search is exact: a depth-first search in ranking order that remembers the sets of teams it
has shown cannot be paired, so every pairing it returns is the first one in that order and
``None`` means that none exists.
"""
from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Pairing:
    """The pairs of a round, each higher-ranked team first, in ranking order of their first
    team; and the team with the bye, if any."""

    pairs: tuple[tuple[str, str], ...]
    bye: str | None = None


def score_groups(teams: Sequence[str], scores: Mapping[str, int]) -> dict[str, int]:
    """Each team's score group: 0 for the highest score among ``teams``, 1 for the next, …"""
    distinct = sorted({scores[t] for t in teams}, reverse=True)
    index = {score: n for n, score in enumerate(distinct)}
    return {t: index[scores[t]] for t in teams}


def pair_round(ranked: Sequence[str], scores: Mapping[str, int],
               met: Mapping[str, Collection[str]], had_bye: Collection[str]) -> Pairing | None:
    """T-6.4: the pairing of ``ranked`` (best first) by the priorities above; None when no
    pairing without a rematch exists (nor, for an odd number, a bye for a team without one)."""
    if len(ranked) % 2 == 0:
        pairs = nearest_pairs(ranked, scores, met)
        return None if pairs is None else Pairing(pairs)
    for bye in reversed([t for t in ranked if t not in had_bye]):
        rest = [t for t in ranked if t != bye]
        if first_pairs(rest, lambda a, b: b not in met.get(a, ())) is not None:
            return Pairing(nearest_pairs(rest, scores, met), bye)
    return None


def nearest_pairs(ranked: Sequence[str], scores: Mapping[str, int],
                  met: Mapping[str, Collection[str]]) -> tuple[tuple[str, str], ...] | None:
    """The top-down pairing without a rematch whose largest score-group distance is the
    smallest possible; None if no pairing without a rematch exists."""
    groups = score_groups(ranked, scores)
    for limit in range(max(groups.values(), default=0) + 1):
        pairs = first_pairs(ranked, lambda a, b: b not in met.get(a, ()) and
                            abs(groups[a] - groups[b]) <= limit)
        if pairs is not None:
            return pairs
    return None


def first_pairs(ranked: Sequence[str],
                allowed: Callable[[str, str], bool]) -> tuple[tuple[str, str], ...] | None:
    """The first pairing of all of ``ranked`` in top-down order using ``allowed`` pairs only:
    the highest-ranked free team takes the highest-ranked partner that leaves the others
    pairable. None if there is no such pairing (an odd number of teams never pairs)."""
    n = len(ranked)
    if n % 2:
        return None
    partners = [[j for j in range(i + 1, n) if allowed(ranked[i], ranked[j])] for i in range(n)]
    unpairable: set[int] = set()

    def solve(free: int) -> list[tuple[int, int]] | None:
        if not free:
            return []
        if free in unpairable:
            return None
        i = (free & -free).bit_length() - 1          # the highest-ranked free team
        for j in partners[i]:
            if free >> j & 1:
                rest = solve(free & ~(1 << i) & ~(1 << j))
                if rest is not None:
                    return [(i, j), *rest]
        unpairable.add(free)
        return None

    found = solve((1 << n) - 1)
    return None if found is None else tuple((ranked[i], ranked[j]) for i, j in found)
