"""Knockout by drawing lots (shared/rules/tournaments.md, T-2; T-5.5 card draw; T-9.2 result-only events).

A :class:`Bracket` is a frozen value folded from the facts of the log, in this order:

1. :func:`start` — the entrants (registered, not withdrawn) and the settings ``byePolicy`` (T-2.2)
   and ``thirdPlace`` (T-2.3);
2. :func:`record_draw` — one ``LotsDrawn{purpose:"pairing"}`` per round (T-1.4, T-2.1)::

       {"purpose": "pairing", "round": 1,
        "matches": [{"match_id": "R1-1", "teams": ["T1", "T2"], "kind": "main"}, ...],
        "byes": ["T3", ...],
        "cards": {"T1": "2H", "T2": "2D", "T3": "3S"}}      # optional, T-5.5 only

   ``purpose`` and ``kind`` may be left out (``"pairing"``, ``"main"``); ``byes`` defaults to none.
3. :func:`record_result` — the winner of a match (the game's ``MatchCompleted``, or ``ResultRecorded``
   for result-only disciplines, T-9.3);
4. :func:`withdraw` — ``TeamWithdrawn`` / a forfeit (T-1.3).

Only :func:`propose_draw` and :func:`propose_card_draw` use randomness, through the ``rng`` passed in;
what they propose is recorded as ``LotsDrawn`` and replay folds the recorded draw, never re-draws.

Decisions (interpretations of T-2 made here):

- **Rounds.** Every round draws the whole field: the winners of the previous round plus its byes.
  The round whose field is two entrants is the **final**; no round follows it.
- **Byes (T-2.2).** ``firstRoundPowerOfTwo``: ``2^ceil(log2 n) - n`` byes, which is the round-1 rule
  and 0 in every later round — unless a withdrawal has broken the power of two, which the same
  formula then restores. ``oddGetsBye``: one bye whenever the field is odd.
- **Third place (T-2.3).** The semi-final round is the round before the final; its main-match losers
  are the semi-final losers. Under ``playoff`` the final round's draw holds exactly two matches: the
  final (main, the two entrants in play) and ``kind: "third_place"`` between the two semi-final
  losers. It has that second match only when the semi-final round had exactly two main matches and
  both losers are still in the event (a loser who withdraws before that draw gives up the match;
  under ``oddGetsBye`` a semi-final round of three has one loser, who is third alone).
  Under ``shared`` there is never a third-place match and the semi-final losers share 3rd.
- **Withdrawal.** A team with an undecided match forfeits it (its opponent wins, the match records
  ``forfeit``). A team still in the field but not yet drawn leaves it and is out in the round it
  would have been drawn in. A semi-final loser awaiting the third-place draw gives it up. A team
  with nothing left to play (already out, or the decided champion) changes nothing.
- **Check-in (T-2.6, interpretation; the seeds are silent).** Setting ``checkIn``: ``off``
  (default: every registered team is drawn, as the seeds do), ``leaveOut`` (round 1 is drawn
  among the teams checked in, ``TeamCheckedIn``; the others are not entrants of the bracket,
  as a team withdrawn before the draw is not) or ``walkover`` (round 1 is drawn among every
  team; then each team not checked in is out by walkover: its opponent wins the match, which
  records the absent team as ``forfeit``; an absent team on a bye, or whose opponent is also
  absent, leaves the field as a team withdrawn after the draw does — out in round 2, whose
  byes restore the power of two). The server's lots (:func:`propose_draw`) give the byes to
  teams present and pair absent teams with present ones while there are any.
- **Seeding (T-2.7, interpretation; default off — the seeds draw by lots).** Setting
  ``seeding: {"seeds": [best, second, …]}``. Each round is still drawn by lots over the whole
  field (T-2.1), with one constraint: in a round of k slots (its main matches and its byes),
  the k best seeds still in play are drawn into different slots — no two of them meet. So
  seeds 1 and 2 can meet only in the final, seeds 1–4 not before the semi-finals (the
  quarters of a bracket), 1–8 not before the quarter-finals. Byes stay lots (T-2.2); a seed
  may draw one. A seed that is not an entrant of the draw (withdrawn, not checked in) is
  passed over and the seeds after it move up.
- **Ranking (T-2.4, T-10.1).** Places are shared on equal standing and the next place skips
  (1, 2, 3, 3, 5, ...). Standing = still in (best), then the later the round a team went out in,
  then the third-place winner before the rest of its round, then — among teams out in the same
  round — a team that withdrew after those that did not. Before the tournament is decided the
  list is provisional: the teams still in share place 1.
- **Places still open (T-10.1).** A provisional place is not a place won: :func:`place_ranges`
  gives each team the band of places it may still end in (the teams still in of eight, before
  any result: 1–8; the round-1 losers: 5–8; the semi-final losers until the third-place match:
  3–4). A band of more than one place that nothing can narrow any more (the round-1 losers of a
  decided knockout) is a place shared: T-2.4's place is its first.
"""
from __future__ import annotations

import random
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from .violations import RuleViolation

BYE_POLICIES = ("firstRoundPowerOfTwo", "oddGetsBye")  # T-2.2, default first
THIRD_PLACE = ("playoff", "shared")  # T-2.3, default first
CHECK_IN = ("off", "leaveOut", "walkover")  # T-2.6, default first
CHECK_IN_RULE = "T-2.6"
SEEDING_RULE = "T-2.7"
MAX_SEEDS = 1024
MAIN, THIRD_PLACE_MATCH = "main", "third_place"
KINDS = (MAIN, THIRD_PLACE_MATCH)
CARD_RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A")  # README §2
CARD_SUITS = ("S", "H", "D", "C")  # README §2
JOKERS = ("BJ", "SJ")


@dataclass(frozen=True)
class Match:
    match_id: str
    round: int
    teams: tuple[str, str]
    kind: str = MAIN
    winner: str | None = None
    forfeit: str | None = None  # the team that withdrew from it, if it was decided that way

    @property
    def loser(self) -> str | None:
        if self.winner is None:
            return None
        return self.teams[1] if self.winner == self.teams[0] else self.teams[0]

    def to_dict(self) -> dict:
        return {"match_id": self.match_id, "round": self.round, "teams": list(self.teams),
                "kind": self.kind, "winner": self.winner, "forfeit": self.forfeit}


@dataclass(frozen=True)
class Round:
    number: int
    match_ids: tuple[str, ...]  # in draw order
    byes: tuple[str, ...]
    cards: Mapping[str, str] | None = None  # T-5.5, as drawn

    def to_dict(self, matches: Mapping[str, Match]) -> dict:
        out = {"round": self.number, "matches": [matches[m].to_dict() for m in self.match_ids],
               "byes": list(self.byes)}
        if self.cards is not None:
            out["cards"] = dict(self.cards)
        return out


@dataclass(frozen=True)
class Bracket:
    entrants: tuple[str, ...]
    settings: Mapping[str, str]  # byePolicy, thirdPlace
    rounds: tuple[Round, ...] = ()
    # match_id -> Match in draw order; like the other mappings never mutated: each change copies.
    matches: Mapping[str, Match] = field(default_factory=dict)
    eliminated: Mapping[str, int] = field(default_factory=dict)  # team -> round it went out in
    withdrawn: tuple[str, ...] = ()
    absent: tuple[str, ...] = ()  # T-2.6 walkover: out, not checked in
    left_out: tuple[str, ...] = ()  # T-2.6 leaveOut: not checked in, not drawn
    seeds: tuple[str, ...] = ()  # T-2.7: the seeded entrants, best first

    def to_dict(self) -> dict:
        return {"entrants": list(self.entrants), "settings": dict(self.settings),
                "seeds": list(self.seeds), "not_checked_in": list(self.left_out + self.absent),
                "rounds": [r.to_dict(self.matches) for r in self.rounds],
                "eliminated": {t: self.eliminated[t] for t in self.entrants if t in self.eliminated},
                "withdrawn": list(self.withdrawn), "in_play": list(in_play(self)),
                "next_round": next_round(self), "champion": champion(self)}


# ---------------------------------------------------------------- start and derived state

def start(entrants: Sequence[str], settings: Mapping, left_out: Sequence[str] = ()) -> Bracket:
    """T-2.1: a knockout needs at least two distinct entrants; T-2.2 / T-2.3 settings checked.
    ``left_out``: the teams not checked in, left out of the draw (T-2.6 ``leaveOut``)."""
    entrants = tuple(entrants)
    if len(set(entrants)) != len(entrants):
        raise RuleViolation("T-2.1", "an entrant is listed twice")
    if len(entrants) < 2:
        raise RuleViolation("T-2.1", f"a knockout needs at least two entrants, not {len(entrants)}")
    seeds = tuple(t for t in _seed_list(settings or {}) if t in entrants)
    return Bracket(entrants=entrants, settings=_settings(settings or {}), seeds=seeds,
                   left_out=tuple(left_out))


def _seed_list(settings: Mapping) -> tuple[str, ...]:
    return tuple((settings.get("seeding") or {}).get("seeds") or ())


def check_seeding(seeding: object) -> None:
    """T-2.7: setting ``seeding`` is ``{"seeds": [team id, …]}``, best first, each once."""
    if not isinstance(seeding, Mapping) or set(seeding) != {"seeds"}:
        raise RuleViolation(SEEDING_RULE, 'setting seeding must be {"seeds": [team id, …]}, '
                                          "the seeded entrants best first")
    seeds = seeding["seeds"]
    if isinstance(seeds, (str, bytes)) or not isinstance(seeds, Sequence) \
            or not 1 <= len(seeds) <= MAX_SEEDS \
            or not all(isinstance(t, str) and t for t in seeds):
        raise RuleViolation(SEEDING_RULE, f"setting seeding.seeds must list 1 to {MAX_SEEDS} "
                                          "team ids, best first")
    twice = sorted({t for t in seeds if seeds.count(t) > 1})
    if twice:
        raise RuleViolation(SEEDING_RULE, f"setting seeding.seeds names {', '.join(twice)} twice")


def unknown_seeds(settings: Mapping, registered: Iterable[str]) -> list[str]:
    """T-2.7: the seeds that name no registered team (a misspelt id would seed nobody)."""
    registered = set(registered)
    return [t for t in _seed_list(settings) if t not in registered]


def protected_seeds(bracket: Bracket, field_: Iterable[str], slots: int) -> tuple[str, ...]:
    """T-2.7: the ``slots`` best seeds among ``field_``, who must be drawn into different
    slots of the round."""
    field_ = set(field_)
    return tuple(t for t in bracket.seeds if t in field_)[:slots]


def _settings(settings: Mapping) -> dict:
    """T-2.2 ``byePolicy`` and T-2.3 ``thirdPlace``, defaults filled in."""
    policy = settings.get("byePolicy", BYE_POLICIES[0])
    if policy not in BYE_POLICIES:
        raise RuleViolation("T-2.2", f"unknown byePolicy {policy!r}; one of {', '.join(BYE_POLICIES)}")
    third = settings.get("thirdPlace", THIRD_PLACE[0])
    if third not in THIRD_PLACE:
        raise RuleViolation("T-2.3", f"unknown thirdPlace {third!r}; one of {', '.join(THIRD_PLACE)}")
    return {"byePolicy": policy, "thirdPlace": third}


def _round_matches(bracket: Bracket, rnd: Round, kind: str = MAIN) -> list[Match]:
    return [bracket.matches[m] for m in rnd.match_ids if bracket.matches[m].kind == kind]


def _is_final(bracket: Bracket, rnd: Round) -> bool:
    """The final is the round whose field is two: one main match, no bye."""
    return len(_round_matches(bracket, rnd)) == 1 and not rnd.byes


def _final_drawn(bracket: Bracket) -> bool:
    return bool(bracket.rounds) and _is_final(bracket, bracket.rounds[-1])


def _undecided(bracket: Bracket) -> list[Match]:
    return [m for m in bracket.matches.values() if m.winner is None]


def _advancing(bracket: Bracket) -> list[str | None]:
    """Who goes on from the last round: each main match's winner (None while undecided), then the byes."""
    if not bracket.rounds:
        return list(bracket.entrants)
    last = bracket.rounds[-1]
    return [m.winner for m in _round_matches(bracket, last)] + list(last.byes)


def in_play(bracket: Bracket) -> tuple[str, ...]:
    """T-2.1: the entrants to be drawn for the next round — the last round's winners, then its byes
    (round 1: the entrants), less those who withdrew. Undecided matches add nobody yet; empty once
    the final has been drawn."""
    if _final_drawn(bracket):
        return ()
    return tuple(t for t in _advancing(bracket) if t is not None and t not in bracket.eliminated)


def _field_size(bracket: Bracket) -> int:
    """The size the next round's field will have: every undecided main match sends one team on."""
    return sum(1 for t in _advancing(bracket) if t is None or t not in bracket.eliminated)


def next_round(bracket: Bracket) -> int | None:
    """T-2.1: the number of the next round to draw; None when no round will follow (the final has
    been drawn, or fewer than two entrants are left)."""
    if _final_drawn(bracket) or _field_size(bracket) < 2:
        return None
    return len(bracket.rounds) + 1


def is_decided(bracket: Bracket) -> bool:
    """Every match is decided and no round is left to draw (T-10.1)."""
    return next_round(bracket) is None and not _undecided(bracket)


def _byes_for(policy: str, n: int) -> int:
    """T-2.2 for a field of n: up to the next power of two, or one for an odd field."""
    if policy == "oddGetsBye":
        return n % 2
    return (1 << max(n - 1, 0).bit_length()) - n


def expected_byes(bracket: Bracket, round: int) -> int:
    """T-2.2: the number of byes of ``round`` — a drawn round or the next one. With
    ``firstRoundPowerOfTwo``: 2^ceil(log2 n) − n (round 1; 0 later unless a withdrawal broke the power
    of two); with ``oddGetsBye``: 1 if the field is odd."""
    if 1 <= round <= len(bracket.rounds):
        rnd = bracket.rounds[round - 1]
        n = 2 * len(_round_matches(bracket, rnd)) + len(rnd.byes)
    elif round == next_round(bracket):
        n = _field_size(bracket)
    else:
        raise ValueError(f"round {round} is neither drawn nor the next round")
    return _byes_for(bracket.settings["byePolicy"], n)


def _third_place_candidates(bracket: Bracket) -> tuple[str, ...]:
    """T-2.3: under ``playoff``, while the final is the next round, the losers of the semi-final
    round's main matches (if it had exactly two) who are still in the event."""
    if (bracket.settings["thirdPlace"] != "playoff" or not bracket.rounds
            or _final_drawn(bracket) or _field_size(bracket) != 2):
        return ()
    semis = _round_matches(bracket, bracket.rounds[-1])
    if len(semis) != 2:
        return ()
    return tuple(m.loser for m in semis if m.loser is not None and m.loser not in bracket.withdrawn)


# ---------------------------------------------------------------- draws

def check_draw(bracket: Bracket, draw: Mapping) -> None:
    """T-2.1 / T-2.2 / T-2.3 (and T-5.5 when cards are given): ``draw`` is a valid pairing for the
    next round. Raises :class:`RuleViolation` otherwise."""
    if draw.get("purpose", "pairing") != "pairing":
        raise RuleViolation("T-2.1", f"a {draw.get('purpose')!r} draw is not a pairing draw")
    _check_round_number(bracket, draw.get("round"))
    matches = [_check_match_shape(m) for m in draw.get("matches") or ()]
    byes = list(draw.get("byes") or ())
    _check_match_ids(bracket, [m["match_id"] for m in matches])
    _check_third_place(bracket, [m for m in matches if m["kind"] == THIRD_PLACE_MATCH])
    main_teams = [t for m in matches if m["kind"] == MAIN for t in m["teams"]]
    _check_field(bracket, main_teams + byes)
    _check_bye_count(bracket, draw["round"], len(byes))
    _check_seeds(bracket, [m["teams"] for m in matches if m["kind"] == MAIN], byes)
    if draw.get("cards") is not None:
        _check_cards(draw["cards"], [m["teams"] for m in matches if m["kind"] == MAIN], byes)


def _check_round_number(bracket: Bracket, rnd) -> None:
    """T-2.1: rounds are drawn one after another, each once the previous one is decided."""
    expected = next_round(bracket)
    if expected is None:
        raise RuleViolation("T-2.1", "no round is left to draw: the final has been drawn "
                                     "or fewer than two entrants remain")
    if rnd != expected:
        raise RuleViolation("T-2.1", f"the next round to draw is round {expected}, not {rnd!r}")
    undecided = _undecided(bracket)
    if undecided:
        ids = ", ".join(m.match_id for m in undecided)
        raise RuleViolation("T-2.1", f"round {rnd} cannot be drawn while round {rnd - 1} has "
                                     f"undecided matches ({ids})")


def _check_match_shape(match: Mapping) -> dict:
    """T-2.1: a match pairs exactly two distinct entrants, has an id and a known kind."""
    if not isinstance(match, Mapping):
        raise RuleViolation("T-2.1", f"a drawn match is an object with match_id and teams, not {match!r}")
    match_id, teams = match.get("match_id"), match.get("teams")
    kind = match.get("kind", MAIN)
    if not isinstance(match_id, str) or not match_id:
        raise RuleViolation("T-2.1", "every drawn match needs a match_id")
    if isinstance(teams, (str, bytes)) or not isinstance(teams, Sequence) \
            or len(teams) != 2 or teams[0] == teams[1]:
        raise RuleViolation("T-2.1", f"match {match_id} must pair exactly two different entrants")
    if kind not in KINDS:
        raise RuleViolation("T-2.1", f"match {match_id} has unknown kind {kind!r}; one of {', '.join(KINDS)}")
    return {"match_id": match_id, "teams": tuple(teams), "kind": kind}


def _check_match_ids(bracket: Bracket, ids: list[str]) -> None:
    """T-2.1: a match id names one match of the event, never reused."""
    seen = set()
    for match_id in ids:
        if match_id in bracket.matches or match_id in seen:
            raise RuleViolation("T-2.1", f"match id {match_id} is already used")
        seen.add(match_id)


def _check_third_place(bracket: Bracket, third: list[dict]) -> None:
    """T-2.3: the final round's draw holds the third-place match between the two semi-final losers
    (``playoff``) — and no other draw holds one."""
    candidates = _third_place_candidates(bracket)
    if len(candidates) == 2:
        if len(third) != 1 or set(third[0]["teams"]) != set(candidates):
            raise RuleViolation("T-2.3", "the final round must also draw the third-place match "
                                         f"between the semi-final losers {candidates[0]} and {candidates[1]}")
    elif third:
        raise RuleViolation("T-2.3", "no third-place match belongs in this draw: it is played only "
                                     "in the final round, between two semi-final losers, under "
                                     "thirdPlace=playoff")


def _check_field(bracket: Bracket, drawn: list[str]) -> None:
    """T-2.1: the draw places every entrant in play exactly once (in a match or on a bye)."""
    field_ = in_play(bracket)
    seen = set()
    for team in drawn:
        if team in seen:
            raise RuleViolation("T-2.1", f"{team} is drawn twice")
        if team not in field_:
            raise RuleViolation("T-2.1", f"{team} is not in play for this round")
        seen.add(team)
    missing = [t for t in field_ if t not in seen]
    if missing:
        raise RuleViolation("T-2.1", f"the draw leaves out {', '.join(missing)}")


def _check_bye_count(bracket: Bracket, rnd: int, byes: int) -> None:
    """T-2.2: as many byes as the bye policy gives this field."""
    wanted = expected_byes(bracket, rnd)
    if byes != wanted:
        raise RuleViolation("T-2.2", f"round {rnd} must have {wanted} bye(s) under "
                                     f"{bracket.settings['byePolicy']}, not {byes}")


def _check_seeds(bracket: Bracket, pairs: list[tuple[str, str]], byes: list[str]) -> None:
    """T-2.7: no two of the round's protected seeds (as many as it has slots) meet."""
    if not bracket.seeds:
        return
    protected = protected_seeds(bracket, [t for p in pairs for t in p] + byes,
                                len(pairs) + len(byes))
    for a, b in pairs:
        if a in protected and b in protected:
            raise RuleViolation(SEEDING_RULE, f"seeds {a} ({bracket.seeds.index(a) + 1}) and {b} "
                                              f"({bracket.seeds.index(b) + 1}) may not meet in a "
                                              f"round of {len(pairs) + len(byes)} slots")


def card_rank(card: str) -> str:
    """README §2: a card is rank then suit; a joker is its own rank."""
    return card if card in JOKERS else card[:-1]


def is_card(card: object) -> bool:
    """README §2 card notation: a rank 2-9, T, J, Q, K, A then a suit S, H, D, C — or BJ, SJ."""
    return isinstance(card, str) and (card in JOKERS or (
        len(card) == 2 and card[0] in CARD_RANKS and card[1] in CARD_SUITS))


def _check_cards(cards: Mapping[str, str], pairs: list[tuple[str, str]], byes: list[str]) -> None:
    """T-5.5: every card is a real card; the two teams of a match drew the same rank; a bye's card,
    if it drew one, has no twin among the drawn. A team with a bye needs no card: byes beyond
    what a deck's ranks can carry are drawn by plain lots (:func:`propose_card_draw`)."""
    bogus = sorted(f"{team} ({card!r})" for team, card in cards.items() if not is_card(card))
    if bogus:
        raise RuleViolation("T-5.5", f"not a card in the notation of the rules README §2 (e.g. 2H, "
                                     f"TS, BJ): {', '.join(bogus)}")
    players = [t for pair in pairs for t in pair]
    missing = [t for t in players if t not in cards]
    if missing:
        raise RuleViolation("T-5.5", f"no card recorded for {', '.join(missing)}")
    drawn = players + [t for t in byes if t in cards]
    ranks = [card_rank(cards[t]) for t in drawn]
    for a, b in pairs:
        if card_rank(cards[a]) != card_rank(cards[b]):
            raise RuleViolation("T-5.5", f"{a} ({cards[a]}) and {b} ({cards[b]}) did not draw the same rank")
        if ranks.count(card_rank(cards[a])) != 2:
            raise RuleViolation("T-5.5", f"more than two teams drew rank {card_rank(cards[a])}")
    for team in (t for t in byes if t in cards):
        if ranks.count(card_rank(cards[team])) != 1:
            raise RuleViolation("T-5.5", f"{team}'s card {cards[team]} has a twin: it is no bye")


def record_draw(bracket: Bracket, draw: Mapping) -> Bracket:
    """``LotsDrawn{purpose:"pairing"}`` (T-1.4, T-2.1): the next round as drawn, once checked."""
    check_draw(bracket, draw)
    number = draw["round"]
    new = {m["match_id"]: Match(m["match_id"], number, tuple(m["teams"]), m.get("kind", MAIN))
           for m in draw["matches"]}
    cards = dict(draw["cards"]) if draw.get("cards") is not None else None
    rnd = Round(number, tuple(new), tuple(draw.get("byes") or ()), cards)
    return replace(bracket, rounds=bracket.rounds + (rnd,), matches={**bracket.matches, **new})


def _check_can_draw(bracket: Bracket) -> int:
    """T-2.1: the round a proposal is for; the same refusals as :func:`check_draw`."""
    rnd = next_round(bracket)
    _check_round_number(bracket, rnd)
    return rnd


def _third_place_entry(bracket: Bracket, match_id: str) -> list[dict]:
    """T-2.3: the third-place match of the final round's draw, if one is due."""
    candidates = _third_place_candidates(bracket)
    if len(candidates) != 2:
        return []
    return [{"match_id": match_id, "teams": list(candidates), "kind": THIRD_PLACE_MATCH}]


def propose_draw(bracket: Bracket, rng: random.Random, match_id_prefix: str = "",
                 absent: Collection[str] = ()) -> dict:
    """T-2.1 / T-2.2 / T-2.3: draw the next round by lots — shuffle the field, the first drawn get the
    byes, the rest meet in drawn order; the final round adds the third-place match. With seeds
    (T-2.7) the best seeds in play are drawn into different slots first. ``absent``: the teams
    that will be out by walkover (T-2.6), drawn last for a bye and against present teams."""
    rnd = _check_can_draw(bracket)
    order = list(in_play(bracket))
    rng.shuffle(order)
    byes = expected_byes(bracket, rnd)
    if bracket.seeds:
        pairs, bye_teams = _seeded_slots(bracket, order, byes, rng)
    elif absent:
        pairs, bye_teams = _present_first(order, byes, set(absent), rng)
    else:
        rest = order[byes:]
        pairs, bye_teams = [rest[2 * k:2 * k + 2] for k in range(len(rest) // 2)], order[:byes]
    matches = [{"match_id": f"{match_id_prefix}R{rnd}-{k + 1}", "teams": pair, "kind": MAIN}
               for k, pair in enumerate(pairs)]
    matches += _third_place_entry(bracket, f"{match_id_prefix}R{rnd}-{len(matches) + 1}")
    return {"purpose": "pairing", "round": rnd, "matches": matches, "byes": bye_teams}


def _seeded_slots(bracket: Bracket, order: list[str], byes: int,
                  rng: random.Random) -> tuple[list[list[str]], list[str]]:
    """T-2.7: the round's slots (byes, then matches); the protected seeds each take a slot of
    their own by lots, the rest of the (shuffled) field fills the places left in order."""
    slots = byes + (len(order) - byes) // 2
    protected = protected_seeds(bracket, order, slots)
    placed = dict(zip(rng.sample(range(slots), len(protected)), protected))
    others = [t for t in order if t not in protected]
    filled = []
    for slot in range(slots):
        size = 1 if slot < byes else 2
        teams = [placed[slot]] if slot in placed else []
        while len(teams) < size:
            teams.append(others.pop())
        if size == 2 and rng.random() < 0.5:
            teams.reverse()  # side A: whoever was drawn first
        filled.append(teams)
    return filled[byes:], [t for (t,) in filled[:byes]]


def _present_first(order: list[str], byes: int, absent: set[str],
                   rng: random.Random) -> tuple[list[list[str]], list[str]]:
    """T-2.6 walkover: byes to present teams first; absent teams against present ones while
    any are left; the matches in drawn order."""
    ranked = [t for t in order if t not in absent] + [t for t in order if t in absent]
    bye_teams, rest = ranked[:byes], ranked[byes:]
    present = [t for t in rest if t not in absent]
    away = [t for t in rest if t in absent]
    pairs = []
    while present and away:
        pairs.append([present.pop(), away.pop()])
    rest = present + away
    pairs += [rest[2 * k:2 * k + 2] for k in range(len(rest) // 2)]
    rng.shuffle(pairs)
    return pairs, bye_teams


def propose_card_draw(bracket: Bracket, rng: random.Random, match_id_prefix: str = "") -> dict:
    """T-5.5: each team in play draws a card from a prepared set — one pair of ranks (hearts and
    diamonds) per match and one single spade of another rank per bye (T-2.2). Same rank meet; the
    card without a twin is a bye. Matches are numbered in rank order. A deck has 13 ranks: byes
    beyond the ranks the matches leave are drawn first by plain lots and draw no card (20 teams:
    4 matches, 9 byes by card, 3 by lots — the seed's 16 to 20 teams, T-11 Ex 1); a round of more
    than 13 matches cannot be drawn this way (RuleViolation T-5.5)."""
    rnd = _check_can_draw(bracket)
    if bracket.seeds:
        raise RuleViolation(SEEDING_RULE, "a seeded round is drawn by lots (method lots): "
                                          "matching cards cannot keep the seeds apart")
    field_ = list(in_play(bracket))
    byes = expected_byes(bracket, rnd)
    pairs = (len(field_) - byes) // 2
    if pairs > len(CARD_RANKS):
        raise RuleViolation("T-5.5", f"{pairs} matches need {pairs} ranks; a deck has "
                                     f"{len(CARD_RANKS)}")
    carded = min(byes, len(CARD_RANKS) - pairs)
    by_lots = rng.sample(field_, byes - carded) if byes > carded else []
    drawers = [team for team in field_ if team not in by_lots]
    deck = [r + s for r in CARD_RANKS[:pairs] for s in "HD"] + [r + "S" for r in CARD_RANKS[pairs:pairs + carded]]
    rng.shuffle(deck)
    cards = dict(zip(drawers, deck))
    holder = {card: team for team, card in cards.items()}
    matches = [{"match_id": f"{match_id_prefix}R{rnd}-{k + 1}", "kind": MAIN,
                "teams": [holder[r + "H"], holder[r + "D"]]} for k, r in enumerate(CARD_RANKS[:pairs])]
    matches += _third_place_entry(bracket, f"{match_id_prefix}R{rnd}-{len(matches) + 1}")
    bye_teams = by_lots + [holder[r + "S"] for r in CARD_RANKS[pairs:pairs + carded]]
    return {"purpose": "pairing", "round": rnd, "matches": matches, "byes": bye_teams, "cards": cards}


# ---------------------------------------------------------------- results and withdrawals

def record_result(bracket: Bracket, match_id: str, winner: str) -> Bracket:
    """T-2.1: a drawn, undecided match is won by one of its two teams; a main-match loser is out
    (T-2.3: the third-place match decides places only)."""
    match = bracket.matches.get(match_id)
    if match is None:
        raise RuleViolation("T-2.1", f"no match {match_id} has been drawn")
    if match.winner is not None:
        raise RuleViolation("T-2.1", f"match {match_id} is already decided ({match.winner} won)")
    if winner not in match.teams:
        raise RuleViolation("T-2.1", f"{winner} does not play in match {match_id} "
                                     f"({match.teams[0]} v {match.teams[1]})")
    return _decide(bracket, replace(match, winner=winner))


def _decide(bracket: Bracket, match: Match) -> Bracket:
    eliminated = bracket.eliminated
    if match.kind == MAIN:
        eliminated = {**eliminated, match.loser: match.round}
    return replace(bracket, matches={**bracket.matches, match.match_id: match}, eliminated=eliminated)


def _pending_match(bracket: Bracket, team: str) -> Match | None:
    return next((m for m in _undecided(bracket) if team in m.teams), None)


def walk_over(bracket: Bracket, team: str) -> Bracket:
    """T-2.6 ``walkover``: a team not checked in is out once round 1 is drawn — as a withdrawal
    would put it out (its match forfeited to its opponent; on a bye, out in round 2), but
    marked absent, not withdrawn."""
    if team not in bracket.entrants or team in bracket.absent:
        return bracket
    pending = _pending_match(bracket, team)
    absent = bracket.absent + (team,)
    if pending is not None:
        opponent = pending.teams[1] if pending.teams[0] == team else pending.teams[0]
        return replace(_decide(bracket, replace(pending, winner=opponent, forfeit=team)),
                       absent=absent)
    if team not in bracket.eliminated and not _final_drawn(bracket):
        return replace(bracket, absent=absent,
                       eliminated={**bracket.eliminated, team: len(bracket.rounds) + 1})
    return replace(bracket, absent=absent)


def withdraw(bracket: Bracket, team: str) -> Bracket:
    """T-1.3 ``TeamWithdrawn`` in a knockout (T-2.1, T-2.3): an undecided match is forfeited to the
    opponent; a team in play but not yet drawn leaves the field (out in the round it would have been
    drawn in); a semi-final loser gives up the third-place match; otherwise nothing changes."""
    if team not in bracket.entrants:
        raise RuleViolation("T-2.1", f"{team} is not an entrant of this knockout")
    if team in bracket.withdrawn:
        raise RuleViolation("T-1.3", f"{team} has already withdrawn")
    pending = _pending_match(bracket, team)
    withdrawn = bracket.withdrawn + (team,)
    if pending is not None:
        opponent = pending.teams[1] if pending.teams[0] == team else pending.teams[0]
        forfeited = replace(pending, winner=opponent, forfeit=team)
        return replace(_decide(bracket, forfeited), withdrawn=withdrawn)
    if team not in bracket.eliminated and not _final_drawn(bracket):
        return replace(bracket, withdrawn=withdrawn,
                       eliminated={**bracket.eliminated, team: len(bracket.rounds) + 1})
    if team in _third_place_candidates(bracket):
        return replace(bracket, withdrawn=withdrawn)
    return bracket


# ---------------------------------------------------------------- outcome

def champion(bracket: Bracket) -> str | None:
    """T-2.4: the final's winner; or, when everyone else withdrew, the last team left."""
    if _final_drawn(bracket):
        return _round_matches(bracket, bracket.rounds[-1])[0].winner
    if is_decided(bracket) and len(in_play(bracket)) == 1:
        return in_play(bracket)[0]
    return None


def _standing(bracket: Bracket, team: str) -> tuple:
    """T-2.4 sort key, smaller is better: still in; later round out; third-place winner; not withdrawn."""
    out = bracket.eliminated.get(team)
    third_won = any(m.kind == THIRD_PLACE_MATCH and m.winner == team for m in bracket.matches.values())
    return (out is not None, -(out or 0), not third_won, team in bracket.withdrawn)


def ranking(bracket: Bracket) -> list[dict]:
    """T-2.4 / T-10.1: every entrant once, best first: ``{"place", "team", "eliminated_in", "withdrawn"}``.
    Decided: 1 final winner, 2 final loser, 3/4 third-place winner/loser (``shared``: both 3rd), then
    by the round a team went out in, later first, equal standing sharing a place. Before the end the
    list is provisional: the teams still in share place 1 (``eliminated_in`` None)."""
    keys = {t: _standing(bracket, t) for t in bracket.entrants}
    order = sorted(bracket.entrants, key=lambda t: keys[t])  # stable: entrant order within a place
    rows = []
    for i, team in enumerate(order):
        place = rows[-1]["place"] if rows and keys[order[i - 1]] == keys[team] else i + 1
        rows.append({"place": place, "team": team, "eliminated_in": bracket.eliminated.get(team),
                     "withdrawn": team in bracket.withdrawn})
    return rows



def _out_in(round_: int) -> tuple:
    """The standing (:func:`_standing`) of a team that loses a main match of ``round_``."""
    return (True, -round_, True, False)


def place_ranges(bracket: Bracket) -> dict[str, tuple[int, int]]:
    """T-2.4 / T-10.1, the places still open: team -> (best, worst) place it may end in,
    assuming no further withdrawal. The teams that go out in one round share one band of
    places, from one after those who outlast the round to the last of them (eight teams: the
    round-1 losers hold 5–8 — already while round 1 is played, once a team of it is out —
    and T-2.4's shared place is the band's first); the third-place match splits its band
    ("3–4" until it is decided). A team still in may win (best 1) or lose its next main match
    (worst: the end of that round's band; a team waiting for the next draw: the number of
    teams that outlast the matches drawn)."""
    keys = {t: _standing(bracket, t) for t in bracket.entrants}
    alive = [t for t in bracket.entrants if t not in bracket.eliminated]
    undecided = [m for m in _undecided(bracket) if m.kind == MAIN]
    playing = {t: m.round for m in undecided for t in m.teams}
    # each undecided main match sends one of its two teams out in its round (T-2.1)
    out = [keys[t] for t in bracket.entrants if t in bracket.eliminated]
    out += [_out_in(m.round) for m in undecided]
    outlast = len(alive) - len(undecided)  # still in when every match drawn is decided

    def band(key: tuple) -> tuple[int, int]:
        ahead = outlast + sum(1 for k in out if k < key)
        return ahead + 1, ahead + sum(1 for k in out if k == key)

    return {t: band(keys[t]) if t in bracket.eliminated
            else (1, band(_out_in(playing[t]))[1] if t in playing else outlast)
            for t in bracket.entrants}
