"""Bounded property tests of the Sichuan game over random legal play (fixed seeds, fixed counts):
the 108 tiles are conserved; the payments between players sum to zero at every step; a player
who has won never has a move and never acts again; no win ever holds three suits or a tile of
the winner's void; a hand ends with three winners or an exhausted wall; the legal-move list is
exact for discards, pongs and wins. Referee events (warnings, false wins, disclosures) are
mixed in now and then."""
import random
from collections import Counter
from dataclasses import replace

from mj_states import check_listing_is_exact, usefulness
from mjs_states import MJS

from rules import RuleViolation
from rules.mahjong import apply, apply_action, apply_engine_event, due_engine_event
from rules.mahjong.actions import legal_actions
from rules.mahjong.hand import Exchange, tiles_in_play, winning_tiles
from rules.mahjong.sichuan import draw_checks, ledger, sichuan_settings, totals
from rules.mahjong.tiles import suit, tile_set

FULL = Counter(tile_set(108))
FINAL = sichuan_settings({"final": True})
REFEREE = (("WarningIssued", {"offence": "slow"}), ("WarningIssued", {"offence": "peek"}),
           ("FalseWinDeclared", {}), ("ConductPenaltyAssessed", {"offence": "ownHand"}),
           ("WrongTileCount", {}))


def new_hand(rng, settings):
    tiles = list(tile_set(108))
    rng.shuffle(tiles)
    dealer = rng.randrange(4)
    hands, start = [], 0
    for seat in range(4):
        size = 14 if seat == dealer else 13
        hands.append(tiles[start:start + size])
        start += size
    return apply(None, "HandDealt", {"dealer": dealer, "hands": hands, "wall": tiles[start:]},
                 settings)


def choose(rng, state, actions):
    """A plain bot, so that hands end both ways: it wins whenever it can, declares the suit it
    holds least of as its void and discards that first, then the least useful tile; it pongs
    and kongs now and then."""
    wins = [a for a in actions if a.kind == "win" or a.claim == "win"]
    if wins:
        return rng.choice(wins)
    voids = [a for a in actions if a.kind == "void"]
    if voids:
        held = Counter(suit(t) for t in state.seats[voids[0].seat].concealed)
        return min(voids, key=lambda a: held[a.tile])
    kongs = [a for a in actions if a.kind == "kong"]
    if kongs and rng.random() < 0.5:
        return rng.choice(kongs)
    discards = [a for a in actions if a.kind == "discard"]
    if discards and rng.random() < 0.9:
        seat = discards[0].seat
        held = Counter(state.seats[seat].concealed)
        void = state.voids[seat]

        def use(tile):
            return suit(tile) != void, usefulness(tile, held)
        least = min(use(a.tile) for a in discards)
        return rng.choice([a for a in discards if use(a.tile) == least])
    weights = [{"pass": 5, "claim": 3, "kong": 3}.get(a.kind, 1) for a in actions]
    return rng.choices(actions, weights)[0]


def check_invariants(state):
    assert tiles_in_play(state) == FULL
    transfers, _ = totals(ledger(state))
    assert sum(transfers) == 0
    for seat in range(4):
        if state.is_out(seat):
            assert legal_actions(state, seat) == ()
    for win in state.wins:
        held = (*winning_tiles(state, win), *(t for m in state.seats[win.seat].melds
                                              for t in m.tiles))
        suits = {suit(t) for t in held}
        assert len(suits) <= 2 and state.voids[win.seat] not in suits, (win, held)
    for seat in state.still_in:
        size = state.seats[seat].size
        on_turn = state.phase in ("discard", "exchange", "void") and state.turn == seat
        # an added kong being robbed: its fourth tile is still in the maker's hand (MJS-7.3)
        on_turn |= state.phase == "claims" and state.window.robbing and \
            state.window.discarder == seat
        assert size == (14 if on_turn else 13), (seat, size, state.phase)


def play(seed, settings, referee=0.0, check_listing=False):
    rng = random.Random(seed)
    state = new_hand(rng, settings)
    for step in range(2000):
        check_invariants(state)
        if state.over:
            return state
        due = due_engine_event(state)
        if due:
            state = apply_engine_event(state, due)
            continue
        if state.phase == "exchange" and (state.exchange or Exchange()).chosen:  # MJS-2.1
            dice = [rng.randint(1, 6), rng.randint(1, 6)]
            state = apply(state, "DiceRolled", {"seat": state.dealer, "dice": dice})
            continue
        if state.phase in ("discard", "draw", "claims") and rng.random() < referee:
            event, data = rng.choice(REFEREE)
            try:
                state = apply(state, event, {"seat": rng.randrange(4), **data})
            except RuleViolation:
                pass        # e.g. a false win of a seat that has won
            continue
        listed = {s: legal_actions(state, s) for s in range(4)}
        if check_listing and state.phase in ("discard", "claims") and step % 3 == 0:
            check_listing_is_exact(state, listed)
        actions = [a for s in range(4) for a in listed[s]]
        assert actions, state.phase
        action = choose(rng, state, actions)
        assert not state.is_out(action.seat)
        state = apply_action(state, action)
    raise AssertionError("a hand did not end")


def check_the_end(state):
    winners = len(state.wins)
    if state.result == "win":
        assert winners == 3
    else:
        assert state.result == "draw" and state.wall_count == 0 and winners <= 2
        assert {c.seat for c in draw_checks(state)} == set(state.still_in)


def test_random_legal_hands_keep_every_invariant():
    hands = [play(seed, MJS) for seed in range(40)]
    for hand in hands:
        check_the_end(hand)
    results = Counter(h.result for h in hands)
    assert results["win"] and results["draw"]
    assert {"direct", "concealed"} <= {k.kind for h in hands for k in h.kongs}
    assert sum(len(h.wins) for h in hands) > 40


def test_random_final_hands_with_the_exchange_and_referee_events():
    hands = [play(seed, FINAL, referee=0.01) for seed in range(100, 115)]
    for hand in hands:
        check_the_end(hand)
        assert hand.exchange is not None and hand.exchange.red is not None
    assert any(p.reason == "penalty" for h in hands for p in ledger(h))
    assert any(h.wins for h in hands)


def test_random_hands_in_record_enforcement_keep_every_invariant():
    record = replace(MJS, enforcement="record")
    for seed in range(300, 306):
        check_the_end(play(seed, record, referee=0.01))


def test_the_legal_move_list_is_exact():
    for seed in range(200, 203):
        play(seed, MJS, check_listing=True)
