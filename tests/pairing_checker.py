"""An independent check of one round of the team event's pairing (tournaments.md T-6.4), for the
property tests: it shares no code with ``rules/swiss_pairing.py`` or ``rules/swiss/``.

    problems = check_round(teams, pairing)     # [] when the round is paired as the rules say

``teams`` describes every team in play before the round: its ranking key, score, the opponents
it has met and whether it has had a bye. ``pairing`` is ``(pairs, bye)`` as the server made it,
or ``None`` when it reported that no valid pairing exists. The checker verifies:

- every team in play once, paired or given the bye; no rematch; one bye exactly when the
  number is odd, to a team that has had none;
- the bye is the lowest-ranked team without a bye for which the others can be paired;
- every pair comes from equal or adjacent score groups whenever such a pairing exists (with
  that bye);
- "no valid pairing" only when a search confirms that none exists: by enumerating every
  pairing for up to ``BRUTE_FORCE_TEAMS`` teams, by a memoised exhaustive search above.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

BRUTE_FORCE_TEAMS = 10


@dataclass(frozen=True)
class TeamInPlay:
    team: str
    rank_key: tuple          # smaller is better: (-score, -tie-break 1, -tie-break 2, lot)
    score: int
    met: frozenset[str]
    had_bye: bool


def all_pairings(teams: tuple[str, ...]):
    """Every way to pair ``teams`` (even in number): plain enumeration, no pruning."""
    if not teams:
        yield ()
        return
    first, rest = teams[0], teams[1:]
    for k, other in enumerate(rest):
        for tail in all_pairings(rest[:k] + rest[k + 1:]):
            yield ((first, other),) + tail


def exists_pairing(teams: tuple[str, ...], ok) -> bool:
    """Whether ``teams`` can be paired using only pairs ``ok(a, b)`` accepts."""
    if len(teams) % 2:
        return False
    if len(teams) <= BRUTE_FORCE_TEAMS:
        return any(all(ok(a, b) for a, b in p) for p in all_pairings(teams))
    good = {frozenset((a, b)) for a, b in combinations(teams, 2) if ok(a, b)}

    @lru_cache(maxsize=None)
    def search(left: frozenset) -> bool:
        if not left:
            return True
        first = min(left)
        return any(frozenset((first, o)) in good and search(left - {first, o})
                   for o in left if o != first)

    return search(frozenset(teams))


def _groups(teams: list[TeamInPlay]) -> dict[str, int]:
    scores = sorted({t.score for t in teams}, reverse=True)
    return {t.team: scores.index(t.score) for t in teams}


def check_round(teams: list[TeamInPlay], pairing) -> list[str]:
    by_id = {t.team: t for t in teams}

    def unmet(a: str, b: str) -> bool:
        return b not in by_id[a].met and a not in by_id[b].met

    ranked = sorted(teams, key=lambda t: t.rank_key)
    bye_candidates = [t.team for t in reversed(ranked) if not t.had_bye] if len(teams) % 2 \
        else [None]

    def rest(bye):
        return tuple(t.team for t in ranked if t.team != bye)

    if pairing is None:
        for bye in bye_candidates:
            if exists_pairing(rest(bye), unmet):
                return [f"no valid pairing was reported, but with bye {bye} one exists"]
        return []

    pairs, bye = pairing
    problems = []
    named = [x for p in pairs for x in p] + ([bye] if bye else [])
    if sorted(named) != sorted(by_id):
        problems.append(f"teams named {sorted(named)} are not the teams in play {sorted(by_id)}")
        return problems
    for a, b in pairs:
        if not unmet(a, b):
            problems.append(f"rematch {a} v {b}")
    if (bye is not None) != (len(teams) % 2 == 1):
        problems.append(f"bye {bye} with {len(teams)} teams in play")
    if bye is not None:
        if by_id[bye].had_bye:
            problems.append(f"{bye} has a second bye")
        lower = bye_candidates[:bye_candidates.index(bye)] if bye in bye_candidates else []
        for other in lower:
            if exists_pairing(rest(other), unmet):
                problems.append(f"bye to {bye}, but lower-ranked {other} could have it")
                break
    playing = [by_id[t] for t in rest(bye)]
    group = _groups(playing)
    far = [(a, b) for a, b in pairs if abs(group[a] - group[b]) > 1]
    if far and exists_pairing(rest(bye), lambda a, b: unmet(a, b) and
                              abs(group[a] - group[b]) <= 1):
        problems.append(f"pairs {far} are not from equal or adjacent score groups, but such "
                        f"a pairing exists")
    return problems


# --- pairingMethod nearest (T-6.4 as amended on 2026-12-01) ----------------------------------------

def nearest_key(pairs, score: dict, order: list[str]) -> tuple:
    """What ``nearest`` minimises, in order: the largest score difference, the sum of squared
    differences, then the top-down order — the partner of each team in ranking order, as its
    ranking index (teams already placed skipped), so that the first pairing the top-down order
    reaches is the smallest."""
    diffs = [abs(score[a] - score[b]) for a, b in pairs]
    partner = {}
    for a, b in pairs:
        partner[a], partner[b] = b, a
    rank = {t: k for k, t in enumerate(order)}
    seen, lex = set(), []
    for t in order:
        if t in partner and t not in seen:
            lex.append(rank[partner[t]])
            seen |= {t, partner[t]}
    return (max(diffs, default=0), sum(d * d for d in diffs), tuple(lex))


def best_nearest(teams: list[TeamInPlay], fewest_rematches: bool = False):
    """By plain enumeration (up to ``BRUTE_FORCE_TEAMS`` teams after the bye): the pairing
    ``nearest`` must give — the bye as T-6.4 gives it (the lowest-ranked team without a bye for
    which the others can be paired without a rematch), then the smallest :func:`nearest_key`.
    With ``fewest_rematches`` (no valid pairing exists): the fewest rematches, then the fewest
    second byes, then the bye to the lowest-ranked team, then the same key. ``(pairs, bye)``
    with pairs as a set of frozensets, or None when no valid pairing exists."""
    by_id = {t.team: t for t in teams}
    order = [t.team for t in sorted(teams, key=lambda t: t.rank_key)]
    score = {t.team: t.score for t in teams}

    def met(a, b):
        return b in by_id[a].met or a in by_id[b].met

    byes = [None] if len(order) % 2 == 0 else list(reversed(order))
    best = None
    for bye in byes:
        rest = tuple(t for t in order if t != bye)
        second = bye is not None and by_id[bye].had_bye
        for pairs in all_pairings(rest):
            rematches = sum(met(a, b) for a, b in pairs)
            if not fewest_rematches and (rematches or second):
                continue
            lower = -order.index(bye) if bye is not None else 0
            key = (rematches, second, lower, *nearest_key(pairs, score, order))
            if best is None or key < best[0]:
                best = (key, pairs, bye)
        if best is not None and not fewest_rematches:
            break        # the lowest-ranked possible bye
    if best is None:
        return None
    return {frozenset(p) for p in best[1]}, best[2]
