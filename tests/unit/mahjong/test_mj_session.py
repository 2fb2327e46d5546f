"""A table's session folded event by event (rules/mahjong/session.py): the first dealer by dice
(MJO-2.1), the deal from the walls and the recorded wall-break throws (MJO-2.3), the derived
facts (claims resolved, the exhaustive draw, each hand's payments), the rotation of the deal and
the rounds of winds (MJO-2.2, MJS-1.4), the end of the session (T-8.2), record enforcement
(MJO-5.6), penalties — and, over seeded random play, the properties: the 136 tiles are conserved
at every step, every hand's coins sum to zero, and folding the same events again gives the same
table."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from rules import RuleViolation
from rules.mahjong import session as S
from rules.mahjong.actions import legal_actions
from rules.mahjong.hand import tiles_in_play
from rules.mahjong.tiles import KINDS, parse_tiles, shifted, tile_set
from rules.mahjong.wall import next_seat, second_roller

FULL = Counter(tile_set(136))
NEAR = {t: tuple((n, 3 - abs(d)) for d in (-2, -1, 1, 2) if (n := shifted(t, d))) for t in KINDS}


def started(settings: dict | None = None):
    return S.apply(None, "MatchStarted", {
        "match_id": "S1-T1", "game": "MJO", "round": 1,
        "teams": {str(s): f"p{s}" for s in range(4)}, "seats": ["甲", "乙", "丙", "丁"],
        "settings": settings or {}})


def walls(rng: random.Random) -> list[list[str]]:
    tiles = list(tile_set(136))
    rng.shuffle(tiles)
    return [tiles[34 * k:34 * k + 34] for k in range(4)]


def roll_first_dealer(t, rng: random.Random, log: list):
    while t.status == "rolling":
        rolling, this_round = S.still_rolling(t.first_rolls)
        for seat in sorted(rolling - set(this_round)):
            data = {"purpose": "firstDealer", "seat": seat,
                    "dice": [rng.randint(1, 6), rng.randint(1, 6)]}
            t = step(t, log, "DiceRolled", data)
    return t


def step(t, log: list, event: str, data: dict, at: str | None = None):
    log.append((event, data, at))
    return S.apply(t, event, data, at)


def deal(t, rng, log):
    number, dealer = t.next_hand, t.dealer
    first = [rng.randint(1, 6), rng.randint(1, 6)]
    t = step(t, log, "DiceRolled", {"purpose": "wallBreak", "hand": number, "seat": dealer,
                                     "dice": first})
    t = step(t, log, "DiceRolled", {"purpose": "wallBreak", "hand": number,
                                     "seat": second_roller(dealer, sum(first)),
                                     "dice": [rng.randint(1, 6), rng.randint(1, 6)]})
    return step(t, log, "TilesDealt", {"hand": number, "walls": walls(rng)})


def choose(rng, state, actions):
    """A plain bot: it wins when it can, keeps useful tiles, claims now and then."""
    wins = [a for a in actions if a.kind == "win" or a.claim == "win"]
    if wins:
        return rng.choice(wins)
    discards = [a for a in actions if a.kind == "discard"]
    if discards:
        held = Counter(state.seats[discards[0].seat].concealed)
        score = {a: 3 * (held[a.tile] - 1) + sum(held[n] * w for n, w in NEAR[a.tile])
                 for a in discards}
        least = min(score.values())
        return rng.choice([a for a in discards if score[a] == least])
    weights = [{"pass": 5, "claim": 2}.get(a.kind, 1) for a in actions]
    return rng.choices(actions, weights)[0]


EVENT_OF = {"draw": "TileDrawn", "discard": "TileDiscarded", "win": "Win",
            "pass": "ClaimPassed", "exhaustive_draw": "ExhaustiveDrawDeclared"}


def event_of(action, number: int) -> tuple[str, dict]:
    data = {"hand": number, "seat": action.seat}
    if action.kind == "claim":
        return "Claim", {**data, "kind": action.claim, "tiles": list(action.tiles)}
    if action.kind in ("draw", "discard"):
        data["tile"] = action.tile
    return EVENT_OF[action.kind], data


def play_session(seed: int, settings: dict):
    rng, log = random.Random(seed), []
    t = roll_first_dealer(started(settings), rng, log)
    while t.status != "completed":
        dealer_before, coins_before = t.dealer, sum(t.balances)
        t = deal(t, rng, log)
        while t.current is not None:
            state = t.current.state
            assert tiles_in_play(state) == FULL
            actions = [a for s in range(4) for a in legal_actions(state, s)]
            assert actions, state.phase
            t = step(t, log, *event_of(choose(rng, state, actions), t.current.number))
        rec = t.finished[-1]
        o = rec.outcome
        assert sum(o.payments) == 0 and sum(t.balances) == coins_before  # MJO-7.2
        assert tiles_in_play(rec.state) == FULL
        won = dealer_before in o.winners
        assert o.next_dealer == (dealer_before if won else next_seat(dealer_before))  # MJO-2.2
    return t, log


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_sessions_conserve_tiles_and_coins_and_rotate_the_deal(seed):
    t, log = play_session(seed, {"sessionHands": 6})
    assert t.hands_played == 6 and t.status == "completed"                         # T-8.2
    assert Counter(r.outcome.result for r in t.finished)
    replayed = started({"sessionHands": 6})
    for event, data, at in log:
        replayed = S.apply(replayed, event, data, at)
    assert replayed == t          # the fold is deterministic: a fresh fold gives the same table


def test_random_sessions_end_after_a_round_of_winds_with_wins_and_draws():
    results, rounds = Counter(), []
    for seed in range(10, 16):
        t, _ = play_session(seed, {"sessionRounds": 1})
        results.update(r.outcome.result for r in t.finished)
        rounds.append(t.session.rotation.rounds_completed)
        assert t.hands_played >= 4
    assert rounds == [1] * 6                                                       # MJS-1.4
    assert results["win"] and results["draw"], results


# --- the first dealer and the deal ---------------------------------------------------------------

def roll(t, seat, dice):
    return S.apply(t, "DiceRolled", {"purpose": "firstDealer", "seat": seat, "dice": dice})


def test_mjo_2_1_ties_for_the_highest_roll_roll_again_until_one_is_highest():
    t = started()
    for seat, dice in ((0, [6, 5]), (1, [2, 2]), (2, [5, 6]), (3, [1, 1])):
        t = roll(t, seat, dice)
    assert t.status == "rolling" and S.still_rolling(t.first_rolls)[0] == {0, 2}
    with pytest.raises(RuleViolation, match="seat 1 does not roll now") as info:
        roll(t, 1, [6, 6])
    assert info.value.rule == "MJO-2.1"
    t = roll(t, 2, [3, 3])
    with pytest.raises(RuleViolation, match="already rolled"):
        roll(t, 2, [6, 6])
    t = roll(t, 0, [4, 3])
    assert (t.status, t.dealer, t.session.rotation.first_dealer) == ("playing", 0, 0)
    with pytest.raises(RuleViolation, match="known already"):
        roll(t, 3, [6, 6])


def test_mjo_2_3_the_deal_from_the_walls_uses_the_recorded_wall_break_throws():
    rng = random.Random(4)
    t = S.apply(started(), "TilesDealt", {"hand": 1, "dealer": 2, "walls": walls(rng),
                                          "dice": [[3, 4], [1, 2]]})
    assert t.current.state.dealer == 2 and t.current.state.wall_count == 83
    t, log = roll_first_dealer(started(), random.Random(5), []), []
    dealer = t.dealer
    with pytest.raises(RuleViolation, match=f"the first throw to break the wall is seat {dealer}"):
        S.apply(t, "DiceRolled", {"purpose": "wallBreak", "hand": 1,
                                  "seat": next_seat(dealer), "dice": [1, 1]})
    with pytest.raises(RuleViolation, match="needs the two wall-break throws") as info:
        S.apply(t, "TilesDealt", {"hand": 1, "walls": walls(rng)})
    assert info.value.rule == "MJO-2.3"
    t = deal(t, rng, log)
    assert t.current.wall_dice == tuple((e[1]["seat"], tuple(e[1]["dice"])) for e in log[:2])
    with pytest.raises(RuleViolation, match="hand 1 is still being played") as info:
        S.apply(t, "TilesDealt", {"hand": 2, "walls": walls(rng)})
    assert info.value.rule == "MJO-10"


# --- the end of the session, record enforcement, penalties ----------------------------------------

def finish_hand(t, rng, log=None):
    log = [] if log is None else log
    while t.current is not None:
        state = t.current.state
        actions = [a for s in range(4) for a in legal_actions(state, s)]
        t = step(t, log, *event_of(choose(rng, state, actions), t.current.number))
    return t


def test_t_8_2_time_called_in_a_hand_finishes_it_and_ends_the_session():
    rng = random.Random(6)
    t = deal(roll_first_dealer(started({"sessionMinutes": 90}), rng, []), rng, [])
    t = S.apply(t, "TimeLimitReached", {"limit_minutes": 90})
    assert t.status == "playing" and t.time_called == 90   # the hand in play goes on
    t = finish_hand(t, rng)
    assert t.status == "completed" and t.hands_played == 1
    with pytest.raises(RuleViolation, match="the session is over") as info:
        deal(t, rng, [])
    assert info.value.rule == "T-8.2"


def test_mjo_5_6_record_mode_a_false_win_waits_for_the_ruling():
    t = S.apply(started({"enforcement": "record"}), "TilesDealt", {
        "hand": 1, "dealer": 0, "hands": [list(parse_tiles("1m 2m 3m 4m 5m 6m 7m 8m 9m E E S W N")),
                                          list(parse_tiles("1p 2p 3p 4p 5p 6p 7p 8p 9p 1s 1s 3s 4s")),
                                          list(parse_tiles("2s 2s 3s 5s 6s 7s 8s 9s C C F F P")),
                                          list(parse_tiles("2m 3m 4m 5m 6m 7m 8m 9m 2p 3p 4p 5p P"))]})
    t = S.apply(t, "Win", {"hand": 1, "seat": 0})      # not a winning hand: kept for the referee
    assert t.current.state.phase == "ruling" and t.current.state.ruling.rule == "MJO-5.1"
    with pytest.raises(RuleViolation) as info:
        S.apply(t, "TileDiscarded", {"hand": 1, "seat": 0, "tile": "N"})
    assert info.value.rule == "MJO-5.6"
    t = S.apply(t, "RulingRecorded", {"text": "no win", "effect": {"winValid": False}})
    assert t.current.state.phase == "discard" and t.rulings[-1]["text"] == "no win"
    t = S.apply(t, "TileDiscarded", {"hand": 1, "seat": 0, "tile": "N"})
    with pytest.raises(RuleViolation, match="no win is waiting") as info:
        S.apply(t, "RulingRecorded", {"text": "x", "effect": {"winValid": True}})
    assert info.value.rule == "MJO-5.6"


def test_mjo_9_3_a_penalty_moves_coins_and_balances_may_go_negative():
    t = roll_first_dealer(started({"startingCoins": 3}), random.Random(7), [])
    t = S.apply(t, "CoinPenaltyAssessed", {"rule": "MJO-9.3", "seat": 1, "coins": 2,
                                           "payees": [0, 2]})
    assert t.balances == (5, -1, 5, 3)                                     # MJO-7.3
    t = S.apply(t, "CoinPenaltyAssessed", {"rule": "MJO-8.2", "seat": 3, "coins": 1})
    assert t.balances == (5, -1, 5, 2) and t.penalties[-1]["deltas"] == [0, 0, 0, -1]
    with pytest.raises(RuleViolation) as info:
        S.apply(t, "CoinPenaltyAssessed", {"rule": "MJO-9.3", "seat": 1, "coins": 1,
                                           "payees": [1]})
    assert info.value.rule == "MJO-9.3"
