"""Drawing a knockout round (T-2.1, T-2.2, T-2.3, T-2.6, T-2.7; T-5.5 by cards): checking a
recorded draw, folding it in, and proposing one by lots from the ``rng`` passed in."""
from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import replace

from ..violations import RuleViolation
from .bracket import (
    CARD_RANKS,
    CARD_SUITS,
    JOKERS,
    KINDS,
    MAIN,
    SEEDING_RULE,
    THIRD_PLACE_MATCH,
    Bracket,
    Match,
    Round,
    _third_place_candidates,
    _undecided,
    expected_byes,
    in_play,
    next_round,
    protected_seeds,
)


def check_draw(bracket: Bracket, draw: Mapping) -> None:
    """T-2.1 / T-2.2 / T-2.3 (and T-5.5 when cards are given): ``draw`` is a valid pairing for the
    next round. Raises :class:`RuleViolation` otherwise."""
    if draw.get("purpose", "pairing") != "pairing":
        raise RuleViolation("T-2.1", "a {purpose!r} draw is not a pairing draw",
                                     purpose=draw.get('purpose'))
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
        raise RuleViolation("T-2.1", "the next round to draw is round {expected}, not {given!r}",
                                     expected=expected, given=rnd)
    undecided = _undecided(bracket)
    if undecided:
        ids = ", ".join(m.match_id for m in undecided)
        raise RuleViolation("T-2.1", "round {round} cannot be drawn while round {previous} has "
                                     "undecided matches ({ids})",
                                     round=rnd, previous=rnd - 1, ids=ids)


def _check_match_shape(match: Mapping) -> dict:
    """T-2.1: a match pairs exactly two distinct entrants, has an id and a known kind."""
    if not isinstance(match, Mapping):
        raise RuleViolation("T-2.1", "a drawn match is an object with match_id and teams, not "
                                     "{match!r}",
                                     match=match)
    match_id, teams = match.get("match_id"), match.get("teams")
    kind = match.get("kind", MAIN)
    if not isinstance(match_id, str) or not match_id:
        raise RuleViolation("T-2.1", "every drawn match needs a match_id")
    if isinstance(teams, (str, bytes)) or not isinstance(teams, Sequence) \
            or len(teams) != 2 or teams[0] == teams[1]:
        raise RuleViolation("T-2.1", "match {match_id} must pair exactly two different entrants",
                                     match_id=match_id)
    if kind not in KINDS:
        raise RuleViolation("T-2.1", "match {match_id} has unknown kind {kind!r}; one of "
                                     "{kinds}",
                                     match_id=match_id, kind=kind, kinds=', '.join(KINDS))
    return {"match_id": match_id, "teams": tuple(teams), "kind": kind}


def _check_match_ids(bracket: Bracket, ids: list[str]) -> None:
    """T-2.1: a match id names one match of the event, never reused."""
    seen = set()
    for match_id in ids:
        if match_id in bracket.matches or match_id in seen:
            raise RuleViolation("T-2.1", "match id {match_id} is already used",
                                         match_id=match_id)
        seen.add(match_id)


def _check_third_place(bracket: Bracket, third: list[dict]) -> None:
    """T-2.3: the final round's draw holds the third-place match between the two semi-final losers
    (``playoff``) — and no other draw holds one."""
    candidates = _third_place_candidates(bracket)
    if len(candidates) == 2:
        if len(third) != 1 or set(third[0]["teams"]) != set(candidates):
            raise RuleViolation("T-2.3", "the final round must also draw the third-place match "
                                         "between the semi-final losers {a} and {b}",
                                         a=candidates[0], b=candidates[1])
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
            raise RuleViolation("T-2.1", "{team} is drawn twice",
                                         team=team)
        if team not in field_:
            raise RuleViolation("T-2.1", "{team} is not in play for this round",
                                         team=team)
        seen.add(team)
    missing = [t for t in field_ if t not in seen]
    if missing:
        raise RuleViolation("T-2.1", "the draw leaves out {missing}",
                                     missing=', '.join(missing))


def _check_bye_count(bracket: Bracket, rnd: int, byes: int) -> None:
    """T-2.2: as many byes as the bye policy gives this field."""
    wanted = expected_byes(bracket, rnd)
    if byes != wanted:
        raise RuleViolation("T-2.2", "round {round} must have {wanted} bye(s) under {policy}, "
                                     "not {byes}",
                                     round=rnd, wanted=wanted,
                                     policy=bracket.settings['byePolicy'], byes=byes)


def _check_seeds(bracket: Bracket, pairs: list[tuple[str, str]], byes: list[str]) -> None:
    """T-2.7: no two of the round's protected seeds (as many as it has slots) meet."""
    if not bracket.seeds:
        return
    protected = protected_seeds(bracket, [t for p in pairs for t in p] + byes,
                                len(pairs) + len(byes))
    for a, b in pairs:
        if a in protected and b in protected:
            raise RuleViolation(SEEDING_RULE, "seeds {a} ({seed_a}) and {b} ({seed_b}) may not "
                                              "meet in a round of {slots} slots",
                                              a=a, seed_a=bracket.seeds.index(a) + 1, b=b,
                                              seed_b=bracket.seeds.index(b) + 1,
                                              slots=len(pairs) + len(byes))


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
        raise RuleViolation("T-5.5", "not a card in the notation of the rules README §2 (e.g. "
                                     "2H, TS, BJ): {bogus}",
                                     bogus=', '.join(bogus))
    players = [t for pair in pairs for t in pair]
    missing = [t for t in players if t not in cards]
    if missing:
        raise RuleViolation("T-5.5", "no card recorded for {missing}",
                                     missing=', '.join(missing))
    drawn = players + [t for t in byes if t in cards]
    ranks = [card_rank(cards[t]) for t in drawn]
    for a, b in pairs:
        if card_rank(cards[a]) != card_rank(cards[b]):
            raise RuleViolation("T-5.5", "{a} ({card_a}) and {b} ({card_b}) did not draw the "
                                         "same rank",
                                         a=a, card_a=cards[a], b=b, card_b=cards[b])
        if ranks.count(card_rank(cards[a])) != 2:
            raise RuleViolation("T-5.5", "more than two teams drew rank {rank}",
                                         rank=card_rank(cards[a]))
    for team in (t for t in byes if t in cards):
        if ranks.count(card_rank(cards[team])) != 1:
            raise RuleViolation("T-5.5", "{team}'s card {card} has a twin: it is no bye",
                                         team=team, card=cards[team])


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
        raise RuleViolation("T-5.5", "{pairs} matches need {pairs} ranks; a deck has {ranks}",
                                     pairs=pairs, ranks=len(CARD_RANKS))
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
