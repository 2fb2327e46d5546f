"""The knockout bracket (tournaments.md T-2): its value, the state derived from it and its
outcome (T-2.4, T-10.1). :mod:`rules.knockout` tells the order its facts are folded in and
the interpretations made."""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from ..violations import RuleViolation

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
        raise RuleViolation("T-2.1", "a knockout needs at least two entrants, not {count}",
                                     count=len(entrants))
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
        raise RuleViolation(SEEDING_RULE, "setting seeding.seeds must list 1 to {most} team "
                                          "ids, best first",
                                          most=MAX_SEEDS)
    twice = sorted({t for t in seeds if seeds.count(t) > 1})
    if twice:
        raise RuleViolation(SEEDING_RULE, "setting seeding.seeds names {teams} twice",
                                          teams=', '.join(twice))


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
        raise RuleViolation("T-2.2", "unknown byePolicy {policy!r}; one of {policies}",
                                     policy=policy, policies=', '.join(BYE_POLICIES))
    third = settings.get("thirdPlace", THIRD_PLACE[0])
    if third not in THIRD_PLACE:
        raise RuleViolation("T-2.3", "unknown thirdPlace {third!r}; one of {choices}",
                                     third=third, choices=', '.join(THIRD_PLACE))
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
