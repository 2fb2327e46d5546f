"""Pairing one round of the team event by scores (积分编排, tournaments.md T-6.4).

Seed 004: 「第二轮起按同分或近分原则编排对手」 — from round 2 opponents have equal or near scores.
Two methods (setting ``pairingMethod``):

``nearest`` (the default, T-6.4 as amended on 2026-12-01): "near" is measured in points.

1. **No rematch**, and **the bye** (odd number of teams) to the lowest-ranked team without a
   bye for which the others can be paired without a rematch.
2. Among those pairings, the one whose **largest score difference** between opponents is
   smallest; among those, the smallest **sum of squared differences**; among those, the one
   the **top-down** order reaches first (the highest-ranked free team takes the highest-ranked
   partner that keeps the rest optimal) — so it is deterministic and equals ``topDown``
   whenever ``topDown`` is already optimal.

``topDown`` (the method before the amendment, kept as it was): the teams in *score groups*
(one per distinct score); the pairing keeps the largest group distance as small as it can be
(the seed's 「同分或近分」 on groups), then top-down.

Both are exact. ``nearest`` is a maximum-weight perfect matching (networkx's implementation of
Edmonds' blossom algorithm, in integers only, so exact) on the teams and, for an odd number, a
*bye* vertex, with every criterion a tier of the edge weights — each tier's largest possible
total is smaller than one unit of the tier above, so the matching of greatest weight is the
best by the criteria in order (see :class:`_Weights`); the largest difference, which is not a
sum, is found by a binary search over the differences allowed. ``topDown`` is a depth-first
search in ranking order that remembers the sets of teams shown unpairable.

When no pairing avoids a rematch (nor, for an odd number, gives the bye to a team without one)
:func:`pair_round` answers ``None``: the round is not paired by itself. :func:`fewest_rematches`
then proposes the pairing with the fewest rematches (then the fewest second byes, then the same
criteria), which the chief referee confirms or replaces by hand.
"""
from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass

import networkx as nx

METHODS = ("nearest", "topDown")
DEFAULT_METHOD = "nearest"
BYE = -1                     # the bye vertex of the matching
SMALL = 16                   # up to this many teams, whether a pairing exists is searched
FEW = 12                     # up to this many, the least sum of squares too (least_squares)


@dataclass(frozen=True)
class Pairing:
    """The pairs of a round, each higher-ranked team first, in ranking order of their first
    team; and the team with the bye, if any."""

    pairs: tuple[tuple[str, str], ...]
    bye: str | None = None


def differences(pairing: Pairing, scores: Mapping[str, int]) -> list[int]:
    """The score difference of each pair."""
    return [abs(scores[a] - scores[b]) for a, b in pairing.pairs]


def score_groups(teams: Sequence[str], scores: Mapping[str, int]) -> dict[str, int]:
    """Each team's score group: 0 for the highest score among ``teams``, 1 for the next, …"""
    distinct = sorted({scores[t] for t in teams}, reverse=True)
    index = {score: n for n, score in enumerate(distinct)}
    return {t: index[scores[t]] for t in teams}


def pair_round(ranked: Sequence[str], scores: Mapping[str, int],
               met: Mapping[str, Collection[str]], had_bye: Collection[str],
               method: str = DEFAULT_METHOD) -> Pairing | None:
    """T-6.4: the pairing of ``ranked`` (best first) by ``method``; None when no pairing
    without a rematch exists (nor, for an odd number, a bye for a team without one)."""
    if method == "nearest":
        return _nearest(ranked, scores, met, had_bye)
    if len(ranked) % 2 == 0:
        pairs = nearest_groups(ranked, scores, met)
        return None if pairs is None else Pairing(pairs)
    for bye in reversed([t for t in ranked if t not in had_bye]):
        rest = [t for t in ranked if t != bye]
        if first_pairs(rest, lambda a, b: b not in met.get(a, ())) is not None:
            return Pairing(nearest_groups(rest, scores, met), bye)
    return None


def fewest_rematches(ranked: Sequence[str], scores: Mapping[str, int],
                     met: Mapping[str, Collection[str]], had_bye: Collection[str],
                     method: str = DEFAULT_METHOD) -> Pairing:
    """T-6.4, when no pairing avoids a rematch: the pairing with the fewest rematches, then the
    fewest second byes (the bye to the lowest-ranked team, a team without a bye first), then —
    ``nearest`` — the smallest largest difference, the smallest sum of squares, or —
    ``topDown`` — none of these, then the top-down order. For the referee to confirm."""
    found, _ = _optimal(ranked, scores, met, had_bye, near=method == "nearest")
    return found


# --- nearest: a maximum-weight matching ----------------------------------------------------------

def _nearest(ranked: Sequence[str], scores: Mapping[str, int],
             met: Mapping[str, Collection[str]], had_bye: Collection[str]) -> Pairing | None:
    """The pairing without a rematch that T-6.4 ``nearest`` gives, or None. The same result
    as :func:`_optimal` when that finds no departure, in fewer and smaller matchings: the bye
    and the smallest largest difference by whether a perfect matching of allowed pairs exists
    (a maximum-cardinality matching; up to ``SMALL`` teams the exact search of
    :func:`first_pairs`), then one weighted matching of the pairs within it."""
    def unmet(a: str, b: str) -> bool:
        return b not in met.get(a, ()) and a not in met.get(b, ())

    def pairs_of(teams: Sequence[str], limit: int | None) -> list[tuple[int, int]]:
        return [(i, j) for i in range(len(teams)) for j in range(i + 1, len(teams))
                if unmet(teams[i], teams[j]) and
                (limit is None or abs(scores[teams[i]] - scores[teams[j]]) <= limit)]

    def perfect(teams: Sequence[str], limit: int | None) -> bool:
        if len(teams) <= SMALL:     # the exact search of topDown, quicker for a few teams
            return first_pairs(teams, lambda a, b: unmet(a, b) and (
                limit is None or abs(scores[a] - scores[b]) <= limit)) is not None
        graph = nx.Graph(pairs_of(teams, limit))
        if graph.number_of_nodes() < len(teams):
            return False        # a team with no allowed partner
        return len(nx.max_weight_matching(graph, maxcardinality=True)) * 2 == len(teams)

    rest, bye = list(ranked), None
    if len(ranked) % 2:
        bye = next((t for t in reversed(ranked) if t not in had_bye and
                    perfect([x for x in ranked if x != t], None)), None)
        if bye is None:
            return None
        rest.remove(bye)
    elif not perfect(rest, None):
        return None
    if not rest:
        return Pairing((), bye)
    allowed = sorted({abs(scores[rest[i]] - scores[rest[j]]) for i, j in pairs_of(rest, None)})
    low, high = 0, len(allowed) - 1
    while low < high:
        mid = (low + high) // 2
        if perfect(rest, allowed[mid]):
            high = mid
        else:
            low = mid + 1
    n, limit = len(rest), allowed[low]
    edges = pairs_of(rest, limit)
    diff = {(i, j): abs(scores[rest[i]] - scores[rest[j]]) for i, j in edges}
    if n <= FEW:
        mates = least_squares(n, {e: d * d for e, d in diff.items()})
        return Pairing(tuple((rest[i], rest[j]) for i, j in mates), bye)
    weigh = _Weights(n, limit, frozenset(), frozenset(), diff, True)
    graph = nx.Graph()
    graph.add_weighted_edges_from((i, j, weigh.pair(i, j)) for i, j in edges)
    mates = sorted(tuple(sorted(e)) for e in nx.max_weight_matching(graph, maxcardinality=True))
    return Pairing(tuple((rest[i], rest[j]) for i, j in mates), bye)


def _optimal(ranked: Sequence[str], scores: Mapping[str, int],
             met: Mapping[str, Collection[str]], had_bye: Collection[str],
             near: bool = True) -> tuple[Pairing, int]:
    """The best pairing of ``ranked`` by the tiers of :class:`_Weights` and how many departures
    (rematches, a second bye) it has. Every pair is allowed, so a pairing always exists (for
    fewer than two teams, the empty one)."""
    n = len(ranked)
    if n < 2:
        return Pairing((), ranked[0] if ranked else None), 0
    index = {t: i for i, t in enumerate(ranked)}
    diff = {(i, j): abs(scores[ranked[i]] - scores[ranked[j]])
            for i in range(n) for j in range(i + 1, n)}
    bad = {(i, j) for i in range(n) for j in range(i + 1, n)
           if ranked[j] in met.get(ranked[i], ()) or ranked[i] in met.get(ranked[j], ())}
    no_bye = {index[t] for t in had_bye if t in index}
    weigh = _Weights(n, max(diff.values()), frozenset(bad), frozenset(no_bye), diff, near)

    solved: dict[int | None, tuple[tuple[int, int], set]] = {}

    def solve(limit: int | None) -> tuple[tuple[int, int], set]:
        if limit not in solved:
            graph = nx.Graph()
            graph.add_nodes_from(range(n))
            for (i, j), d in diff.items():
                if limit is None or d <= limit:
                    graph.add_edge(i, j, weight=weigh.pair(i, j))
            if n % 2:
                for i in range(n):
                    graph.add_edge(i, BYE, weight=weigh.bye(i))
            edges = {tuple(sorted(e)) for e in nx.max_weight_matching(graph, maxcardinality=True)}
            solved[limit] = (len(edges), weigh.top(edges)), edges
        return solved[limit]

    best, edges = solve(None)
    if near:  # the smallest largest difference that keeps tiers 1 and 2 as good
        allowed = sorted(set(diff.values()))
        low = 0
        high = allowed.index(max((diff[e] for e in edges if min(e) != BYE), default=0))
        while low < high:
            mid = (low + high) // 2
            if solve(allowed[mid])[0] == best:
                high = mid
            else:
                low = mid + 1
        edges = solve(allowed[low])[1]
    bye = next((ranked[max(e)] for e in edges if min(e) == BYE), None)
    pairs = sorted((e for e in edges if min(e) != BYE))
    pairing = Pairing(tuple((ranked[i], ranked[j]) for i, j in pairs), bye)
    departures = sum(e in bad for e in pairs) + (bye is not None and index[bye] in no_bye)
    return pairing, departures


def least_squares(n: int, cost: Mapping[tuple[int, int], int]) -> list[tuple[int, int]]:
    """Of the pairings of teams ``0 … n−1`` (in ranking order) that use only the pairs of
    ``cost``, the one with the least total cost that the top-down order reaches first — an
    exact search for a few teams, where it is quicker than a matching.

    Why it is exact: every pairing pairs the highest-ranked team with exactly one partner, so
    ``best(free)`` — the highest-ranked free team with each partner in turn, then the best of
    the rest — meets every pairing of the free teams once; the best completion depends only on
    which teams are free, so it is remembered by that set. Among equal totals the first
    partner in ranking order is kept (a strict ``<``), and the rest is the first again: the
    first the top-down order reaches. There must be a pairing (the caller has found one)."""
    partners = [[j for j in range(i + 1, n) if (i, j) in cost] for i in range(n)]
    memo: dict[int, tuple[int, int] | None] = {0: (0, -1)}

    def best(free: int) -> tuple[int, int] | None:
        if free not in memo:
            i = (free & -free).bit_length() - 1
            found = None
            for j in partners[i]:
                if free >> j & 1:
                    rest = best(free & ~(1 << i) & ~(1 << j))
                    if rest is not None and (found is None or cost[(i, j)] + rest[0] < found[0]):
                        found = (cost[(i, j)] + rest[0], j)
            memo[free] = found
        return memo[free]

    free, out = (1 << n) - 1, []
    while free:
        i = (free & -free).bit_length() - 1
        j = best(free)[1]
        out.append((i, j))
        free &= ~(1 << i) & ~(1 << j)
    return out


@dataclass(frozen=True)
class _Weights:
    """The integer weight of each possible pair and bye: tiers, each unit worth more than the
    largest possible total of all the tiers below it.

    ======  ============================================================  ===================
    tier    per pair (i, j), i ranked above j                              per bye to i
    ======  ============================================================  ===================
    1       1 if not a rematch                                             0
    2       0                                                              i, + n if i had no
                                                                           bye before
    3       D² + 1 − d², d the score difference (``near`` only)            0
    4       B^(n−1−i) · (n − j): top-down order, B = n + 2                 0
    ======  ============================================================  ===================

    Tier 1 counts the pairs that are not rematches (a perfect matching has a fixed number of
    edges); tier 2 gives the bye to a team without one, the lowest-ranked; tier 3 is the sum of
    squares (D the largest difference there is); tier 4 compares two pairings as the top-down
    order does: at the first team (in ranking order) whose partner differs, both are the
    higher-ranked team of their pair (the partners of the teams before are the same), and the
    pairing giving it the higher-ranked partner gains at least B^(n−1−i), more than all later
    teams can give back (at most (n − 1) · Σ B^k over k < n − 1 − i)."""

    n: int
    top_d: int
    bad: frozenset
    no_bye: frozenset
    diff: Mapping
    near: bool

    def __post_init__(self):
        base = self.n + 2
        unit3 = base ** self.n                                  # > the tier-4 total
        unit2 = (self.n // 2 + 1) * (self.top_d ** 2 + 1) * unit3   # > tiers 3 and 4
        unit1 = (2 * self.n + 1) * unit2                        # > tiers 2 to 4
        object.__setattr__(self, "units", (unit1, unit2, unit3, base))

    def pair(self, i: int, j: int) -> int:
        unit1, _, unit3, base = self.units
        tier1 = 0 if (i, j) in self.bad else 1
        tier3 = self.top_d ** 2 + 1 - self.diff[(i, j)] ** 2 if self.near else 0
        tier4 = base ** (self.n - 1 - i) * (self.n - j)
        return tier1 * unit1 + tier3 * unit3 + tier4

    def bye(self, i: int) -> int:
        unit1, unit2, _, _ = self.units
        return (i + (0 if i in self.no_bye else self.n)) * unit2

    def top(self, edges) -> tuple[int, int]:
        """Tiers 1 and 2 of a matching: what the largest difference may not make worse."""
        unit1, unit2, _, _ = self.units
        total = sum(self.bye(max(e)) if min(e) == BYE else self.pair(*e) for e in edges)
        return total // unit1, total % unit1 // unit2


# --- topDown: score groups, then top-down ---------------------------------------------------------

def nearest_groups(ranked: Sequence[str], scores: Mapping[str, int],
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
