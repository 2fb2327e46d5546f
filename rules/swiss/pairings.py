"""Pairing the team event's rounds (T-6.4): round 1 by lots, later rounds by scores through
:mod:`rules.swiss_pairing`, the proposal with the fewest rematches for the chief referee to
confirm, the checks of a posted pairing (a manual one's warnings) and its record."""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import lru_cache

from ..messages import N_, Message, Sentence
from ..multisets import listed, roll_call
from ..swiss_pairing import Pairing, differences, fewest_rematches, pair_round, score_groups
from ..violations import RuleViolation
from .event import CLOSING, MATCH_ID_LENGTH, PAIRING, Meeting, Round, TeamEvent
from .rounds import ended, had_bye, in_play, met, next_round, pairing_order, round_complete
from .scoring import totals


# --- pairing a round ---------------------------------------------------------------------------

def _must_be_ready_for(ev: TeamEvent, number: int) -> list[str]:
    """The next round is ``number`` and the last one has been played; its teams."""
    over = ended(ev)
    if over is not None and over.how != "rounds":
        raise RuleViolation(CLOSING, "the event has ended after round {after_round} "
                                     "({reason}): no round is paired after it",
                                     after_round=over.after_round, reason=over.why)
    wanted = next_round(ev)
    if wanted is None:
        raise RuleViolation(PAIRING, "all {rounds} rounds have been paired",
                                     rounds=ev.settings.rounds)
    if number != wanted:
        raise RuleViolation(PAIRING, "the next round to pair is round {wanted}, not {number}",
                                     wanted=wanted, number=number)
    if ev.rounds and not round_complete(ev, len(ev.rounds)):
        waiting = [t for m in ev.rounds[-1].meetings for t in m.tables if t not in ev.results]
        raise RuleViolation(PAIRING, "round {round} is still being played ({waiting} without a "
                                     "result); results come before the next pairing",
                                     round=len(ev.rounds), waiting=', '.join(waiting))
    teams = in_play(ev)
    if len(teams) < 2:
        raise RuleViolation(CLOSING, "{count} team(s) left to pair; a round needs two",
                                     count=len(teams))
    return teams


def propose(ev: TeamEvent, rng: random.Random) -> dict:
    """The next round's pairing as event data: round 1 by lots (``LotsDrawn``: the drawn order
    pairs first with second, …, the last drawn of an odd number has the bye); later rounds by
    scores (``RoundPaired``). Raises :class:`RuleViolation` (T-6.4) when no valid pairing exists,
    saying why."""
    number = next_round(ev) or len(ev.rounds) + 1
    teams = _must_be_ready_for(ev, number)
    if number == 1:
        order = list(teams)
        rng.shuffle(order)
        bye = [order.pop()] if len(order) % 2 else []
        pairs = list(zip(order[::2], order[1::2]))
        return {"purpose": "pairing", "round": 1, "byes": bye, "matches": [
            {"match_id": f"R1-{k}", "teams": list(p)} for k, p in enumerate(pairs, 1)]}
    pairing = by_scores(ev, teams)
    return {"round": number, "byes": [pairing.bye] if pairing.bye else [], "manual": False,
            "matches": [{"match_id": f"R{number}-{k}", "teams": list(p)}
                        for k, p in enumerate(pairing.pairs, 1)]}


def by_scores(ev: TeamEvent, teams: Sequence[str]) -> Pairing:
    """T-6.4 from round 2: :func:`rules.swiss_pairing.pair_round` on the ranking by the setting
    ``pairingMethod``; raises when no pairing without a rematch exists."""
    ranked = pairing_order(ev, teams)
    scores = {t: totals(ev, t).score for t in ranked}
    pairing = _paired(ranked, scores, met(ev), had_bye(ev), ev.settings.pairing_method)
    if pairing is None:
        raise RuleViolation(PAIRING, "no valid pairing for round {round}: {why}; the chief "
                                     "referee confirms the pairing with the fewest rematches "
                                     "(POST …/pairings with confirm true; GET …/rounds shows "
                                     "it), pairs the round by hand (RoundPaired with manual "
                                     "true) or closes the event (TeamEventClosed, T-6.11)",
                                     round=len(ev.rounds) + 1,
                                     why=_why_unpairable(ranked, had_bye(ev)))
    return pairing


def _paired(ranked: Sequence[str], scores: Mapping[str, int], seen: Mapping[str, set[str]],
            byes: set[str], method: str, fewest: bool = False) -> Pairing | None:
    """:func:`rules.swiss_pairing.pair_round` (``fewest``: ``fewest_rematches``) on what
    matters of the event: every read of the same state asks the same, and a manual round's
    warnings ask it again whenever the event is folded."""
    playing = set(ranked)
    return _paired_once(tuple(ranked), tuple(scores[t] for t in ranked),
                        frozenset(frozenset((a, b)) for a in ranked for b in seen.get(a, ())
                                  if b in playing),
                        frozenset(byes & playing), method, fewest)


@lru_cache(maxsize=512)
def _paired_once(ranked: tuple[str, ...], scores: tuple[int, ...], met_pairs: frozenset,
                 byes: frozenset, method: str, fewest: bool) -> Pairing | None:
    score = dict(zip(ranked, scores))
    seen: dict[str, set[str]] = {t: set() for t in ranked}
    for a, b in map(tuple, met_pairs):
        seen[a].add(b)
        seen[b].add(a)
    if fewest:
        return fewest_rematches(ranked, score, seen, byes, method)
    return pair_round(ranked, score, seen, byes, method)


def proposal(ev: TeamEvent) -> dict | None:
    """T-6.4, when the next round cannot be paired by itself: the pairing with the fewest
    rematches (then the fewest second byes, then the method's criteria) as ``RoundPaired`` data
    for the chief referee to confirm (``manual: true``, with the warnings it departs from); None
    when the round can be paired by the rules, or cannot be paired now at all."""
    number = next_round(ev) or len(ev.rounds) + 1
    try:
        teams = _must_be_ready_for(ev, number)
        if number == 1:
            return None
        by_scores(ev, teams)
        return None
    except RuleViolation as v:
        if v.rule != PAIRING or "no valid pairing" not in v.message:
            return None
    ranked = pairing_order(ev, teams)
    scores = {t: totals(ev, t).score for t in ranked}
    found = _paired(ranked, scores, met(ev), had_bye(ev), ev.settings.pairing_method, True)
    return {"round": number, "byes": [found.bye] if found.bye else [], "manual": True,
            "reason": "the pairing with the fewest rematches, confirmed by the chief referee "
                      "(T-6.4)",
            "matches": [{"match_id": f"R{number}-{k}", "teams": list(p)}
                        for k, p in enumerate(found.pairs, 1)],
            "warnings": list(manual_warnings(ev, teams, found))}


def _why_unpairable(ranked: Sequence[str], byes: set[str]) -> Message:
    if len(ranked) % 2 and all(t in byes for t in ranked):
        return Message("{count} teams in play, one must sit out, and every team in play has "
                       "had its bye", count=len(ranked))
    if len(ranked) % 2:
        return Message("whichever team without a bye sits out, the others cannot all meet "
                       "teams they have not met")
    return Message("the {count} teams in play cannot all meet teams they have not met",
                   count=len(ranked))


# --- recording a pairing -----------------------------------------------------------------------

def check_pairing(ev: TeamEvent, data: Mapping, by_lots: bool) -> tuple[Sentence, ...]:
    """A round's pairing — round 1 by lots (``by_lots``: ``LotsDrawn``), later rounds
    ``RoundPaired`` — fits the event: the next round, after the last one has been played; every
    team in play once, at a meeting or as the bye; one bye exactly when their number is odd; new
    match ids. A pairing by scores must be the one the rules give (T-6.4); a manual one may
    depart from it, and the departures are returned as warnings."""
    number = data["round"]
    if by_lots and number != 1:
        raise RuleViolation(PAIRING, "only round 1 is drawn by lots; round {number} is paired "
                                     "by scores (RoundPaired)",
                                     number=number)
    if not by_lots and number == 1:
        raise RuleViolation(PAIRING, "round 1 is drawn by lots (LotsDrawn, purpose pairing)")
    teams = _must_be_ready_for(ev, number)
    _must_name_each_once(data, teams)
    _must_use_new_ids(ev, data)
    if any(m.get("kind", "main") != "main" for m in data["matches"]):
        raise RuleViolation(PAIRING, "the team event has no third-place match")
    if by_lots:
        return ()
    given = Pairing(tuple(tuple(m["teams"]) for m in data["matches"]),
                    data["byes"][0] if data.get("byes") else None)
    if data.get("manual"):
        return manual_warnings(ev, teams, given)
    wanted = by_scores(ev, teams)
    if given != wanted:
        pairs = listed([Message("{a} v {b}", a=a, b=b) for a, b in wanted.pairs])
        if wanted.bye:
            raise RuleViolation(PAIRING, "round {number} paired by scores is {pairs}, bye "
                                         "{bye}; a different pairing is posted with manual "
                                         "true",
                                         number=number, pairs=pairs, bye=wanted.bye)
        raise RuleViolation(PAIRING, "round {number} paired by scores is {pairs}; a different "
                                     "pairing is posted with manual true",
                                     number=number, pairs=pairs)
    return ()


def _must_name_each_once(data: Mapping, teams: Sequence[str]) -> None:
    named = [t for m in data["matches"] for t in m["teams"]] + list(data.get("byes") or [])
    what = roll_call(named, teams, {"twice": N_("named twice: {names}"),
                                    "missing": N_("left out: {names}"),
                                    "extra": N_("not in play: {names}")})
    if what:
        raise RuleViolation(PAIRING, "a round pairs each of the {count} teams in play once "
                                     "({what})",
                                     count=len(teams), what=what)
    byes = len(data.get("byes") or [])
    if byes != len(teams) % 2:
        raise RuleViolation(PAIRING, "{count} teams in play: {wanted} bye, not {byes}",
                                     count=len(teams), wanted=len(teams) % 2, byes=byes)


def _must_use_new_ids(ev: TeamEvent, data: Mapping) -> None:
    ids = [m["match_id"] for m in data["matches"]]
    long = [i for i in ids if len(i) > MATCH_ID_LENGTH]
    if long:
        raise RuleViolation(PAIRING, "a meeting id has at most {most} characters (its tables "
                                     "add a and b): {ids}",
                                     most=MATCH_ID_LENGTH, ids=', '.join(long))
    clash = sorted({i for i in ids if ids.count(i) > 1 or ev.meeting(i) is not None})
    if clash:
        raise RuleViolation(PAIRING, "meeting id(s) {ids} are already used",
                                     ids=', '.join(clash))


def manual_warnings(ev: TeamEvent, teams: Sequence[str],
                    given: Pairing) -> tuple[Sentence, ...]:
    """What a manual pairing departs from, each in English and said in its reader's language
    where it is shown (a :class:`~rules.messages.Sentence`): rematches, a second bye, and
    scores further apart than the method allows (T-6.4) — ``nearest``: a difference larger
    than the largest one of the best pairing (without a rematch when there is one, else with
    the fewest); ``topDown``: pairs further apart than adjacent score groups. Derived whenever
    the round is folded, never stored in the log."""
    seen = met(ev)
    scores = {t: totals(ev, t).score for t in teams}
    playing = [t for t in teams if t != given.bye]
    near = ev.settings.pairing_method == "nearest"
    if near:
        ranked = pairing_order(ev, teams)
        best = _paired(ranked, scores, seen, had_bye(ev), "nearest") or \
            _paired(ranked, scores, seen, had_bye(ev), "nearest", True)
        limit = max(differences(best, scores), default=0)
    else:
        groups = score_groups(playing, scores)
    warnings = []
    for a, b in given.pairs:
        if b in seen[a]:
            before = [r.number for r in ev.rounds if (m := r.meeting_of(a)) and b in m.teams]
            warnings.append(Message("rematch: {a} and {b} met in round {rounds}",
                                    a=a, b=b, rounds=", ".join(map(str, before))))
        elif near and abs(scores[a] - scores[b]) > limit:
            warnings.append(Message("{a} ({a_score}) and {b} ({b_score}) are {apart} points "
                                    "apart; the nearest pairing keeps every difference within "
                                    "{limit}",
                                    a=a, a_score=scores[a], b=b, b_score=scores[b],
                                    apart=abs(scores[a] - scores[b]), limit=limit))
        elif not near and abs(groups[a] - groups[b]) > 1:
            warnings.append(Message("{a} ({a_score}) and {b} ({b_score}) are not in equal or "
                                    "adjacent score groups",
                                    a=a, a_score=scores[a], b=b, b_score=scores[b]))
    if given.bye in had_bye(ev):
        warnings.append(Message("second bye: {bye} has had a bye", bye=given.bye))
    return tuple(map(Sentence, warnings))


def record_pairing(ev: TeamEvent, data: Mapping, warnings: Sequence[Sentence] = ()) -> TeamEvent:
    number = data["round"]
    meetings = tuple(Meeting(m["match_id"], number, tuple(m["teams"])) for m in data["matches"])
    byes = data.get("byes") or []
    new = Round(number, meetings, byes[0] if byes else None, bool(data.get("manual")),
                tuple(warnings), data.get("reason"))
    return replace(ev, rounds=ev.rounds + (new,))
