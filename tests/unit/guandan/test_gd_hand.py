"""Property test: whole matches folded event by event through rules/guandan/hand.py with random
legal decisions never break a rule, keep the 108 cards, and end as GD-5.6/GD-6 say."""
import random
from collections import Counter

import pytest

from rules.guandan.cards import two_decks
from rules.guandan.hand import apply, start_hand
from rules.guandan.levels import GDGame, complete_hand, hand_level
from rules.guandan.moves import random_legal_play
from rules.guandan.procedure import random_deal
from rules.guandan.seats import is_double_down, is_finished, team_of
from rules.guandan.tribute import return_choices, tribute_choices


def settle_tribute(h, rng):
    """Every payer pays an allowed card, then every receiver returns one."""
    for payer in h.plan.payers:
        h = apply(h, "TributePaid", payer, {"card": rng.choice(tribute_choices(h.hands[payer], h.level))})
    for payer, receiver in sorted(h.assigned.items()):
        card = rng.choice(return_choices(h.plan, h.hands[receiver], h.paid[payer], h.level))
        h = apply(h, "TributeReturned", receiver, {"card": card})
    return h


def play_out(h, rng):
    """Random legal plays and passes until the hand is over; checks invariants on the way."""
    played = []
    while h.phase == "play":
        seat = h.turn
        combo = random_legal_play(h.hands[seat], h.level, h.trick.top, rng)
        if combo is None or (not h.trick.is_lead and rng.random() < 0.4):
            h = apply(h, "Passed", seat, {})
        else:
            h = apply(h, "CardsPlayed", seat, {"cards": list(combo.cards), "wildAs": list(combo.wild_as)})
            played += combo.cards
            assert h.trick.top_seat == seat or h.phase == "over"
        assert Counter(played) + Counter(c for hand in h.hands for c in hand) == two_decks()
        assert h.turn is None or h.hands[h.turn]
    return h


def play_hand(game, previous_order, rng):
    level = hand_level(game)
    h = start_hand(level, previous_order)
    hands = random_deal(rng)
    marked = next(c for c in hands[0] if c not in ("BJ", "SJ", "2H"))
    h = apply(h, "HandDealt", None,
              {"hands": [list(x) for x in hands], "markedCard": marked, "firstLeader": 0})
    if h.phase == "tribute":
        h = settle_tribute(h, rng)
    assert h.phase == "play" and sum(len(x) for x in h.hands) == 108
    return play_out(h, rng)


@pytest.mark.parametrize("seed", range(3))
def test_gd_random_matches_fold_without_breaking_a_rule(seed):
    rng = random.Random(seed)
    game, previous = GDGame(), None
    for _ in range(4):
        h = play_hand(game, previous, rng)
        order = h.order
        assert h.phase == "over" and len(order) in (2, 3)
        assert is_double_down(order) == (len(order) == 2)
        assert is_finished(order) and not is_finished(order[:-1])
        game, outcome = complete_hand(game, order)
        assert outcome.winning_team == team_of(order[0])
        if game.winner is not None:
            break
        previous = order



def test_gd_random_hands_go_through_every_tribute_case():
    rng, seen = random.Random(0), set()
    for previous in [(0, 2), (1, 0, 3), (1, 2, 0), (2, 1, 0), (3, 1)]:
        h = play_hand(GDGame(), previous, rng)
        seen.add("anti" if h.anti else h.plan.case)
        assert h.phase == "over"
    assert seen >= {"double", "single", "partnerLast"}
