"""Following in three-deck Shengji (SJ3-8; seed 004 articles 十一–十三): worked examples 2, 3, 4,
the order of fall-backs against a triple-tractor, throws (SJ3-8.7), and a bounded property:
the bots' follow is always legal. Level 9, trump C."""
import random

import pytest

from rules.shengji import obligations
from rules.shengji.cards import Trump, deck
from rules.shengji.random_moves import random_component
from rules.shengji.stated_leads import lead_components
from rules.violations import RuleViolation

L9C = Trump("9", "C", chain=False)


def c(text: str) -> list[str]:
    return text.split()


def verdict(lead: str, hand: str, play: str, structure=None) -> str | None:
    """None for a legal follow, else the rule broken."""
    try:
        obligations.check_follow(lead_components(c(lead), L9C, structure), c(hand), c(play), L9C)
    except RuleViolation as violation:
        return violation.rule
    return None


# --- Ex 2: a triple led (SJ3-8.4) --------------------------------------------------------------

def test_sj3_ex2_a_triple_must_follow_a_triple():
    assert verdict("7H 7H 7H", "8H 8H 8H KH 2H 5S", "8H 8H 8H") is None
    assert verdict("7H 7H 7H", "8H 8H 8H KH 2H 5S", "8H KH 2H") == "SJ3-8.4"


def test_sj3_ex2_without_a_triple_a_pair_and_a_single():
    assert verdict("7H 7H 7H", "QH QH 3H 4H", "QH QH 3H") is None
    assert verdict("7H 7H 7H", "QH QH 3H 4H", "QH 3H 4H") == "SJ3-8.4"


def test_sj3_8_4_without_a_pair_any_three_of_the_suit():
    assert verdict("7H 7H 7H", "QH JH 3H 4H", "QH 3H 4H") is None


# --- Ex 3: a tractor led (SJ3-8.5) ---------------------------------------------------------------

def test_sj3_ex3_a_held_tractor_must_follow_the_tractor():
    assert verdict("JS JS TS TS", "6S 6S 6S 5S 5S KS", "6S 6S 5S 5S") is None
    assert verdict("JS JS TS TS", "6S 6S 6S 5S 5S KS", "6S 6S 6S KS") == "SJ3-8.5"


def test_sj3_ex3_no_tractor_the_pair_out_of_the_triple():
    assert verdict("JS JS TS TS", "QS QS QS 3S 7S 8S", "QS QS 7S 8S") is None
    assert verdict("JS JS TS TS", "QS QS QS 3S 7S 8S", "QS 3S 7S 8S") == "SJ3-8.5"


def test_sj3_ex3_one_spade_plays_it_and_any_three():
    assert verdict("JS JS TS TS", "AS 3D 4D 5H", "AS 3D 4D 5H") is None
    assert verdict("JS JS TS TS", "AS 3D 4D 5H 6H", "3D 4D 5H 6H") == "SJ3-8.1"


def test_sj3_8_5_pairs_as_many_as_held_up_to_the_length():
    assert verdict("JS JS TS TS", "AS AS 6S 6S 3S 2S", "AS AS 3S 2S") == "SJ3-8.5"
    assert verdict("JS JS TS TS", "AS AS 6S 6S 3S 2S", "AS AS 6S 6S") is None


# --- Ex 4: a triple-tractor led (SJ3-8.6) --------------------------------------------------------

LEAD_444333 = "4D 4D 4D 3D 3D 3D"


def test_sj3_ex4_step_2_a_pair_tractor_and_two_more():
    hand = "8D 8D 7D 7D KD QD JD"
    assert verdict(LEAD_444333, hand, "8D 8D 7D 7D KD QD") is None
    assert verdict(LEAD_444333, hand, "8D 8D 7D KD QD JD") == "SJ3-8.6"


def test_sj3_ex4_step_3_the_triple_before_two_pairs():
    hand = "AD AD AD 6D 6D 2D 2D"
    assert verdict(LEAD_444333, hand, "AD AD AD 6D 6D 2D") is None
    assert verdict(LEAD_444333, hand, "AD AD 6D 6D 2D 2D") == "SJ3-8.6"
    # the places left after the triple are filled with a pair if he holds one
    assert verdict(LEAD_444333, hand + " KD", "AD AD AD 6D 2D KD") == "SJ3-8.6"


def test_sj3_ex4_step_4_two_pairs_and_two_more():
    hand = "KD KD TD TD 5D QD 2D"
    assert verdict(LEAD_444333, hand, "KD KD TD TD 5D QD") is None
    assert verdict(LEAD_444333, hand, "KD KD TD 5D QD 2D") == "SJ3-8.6"


def test_sj3_8_6_step_1_a_held_triple_tractor_comes_first():
    hand = "8D 8D 8D 7D 7D 7D 6D 6D 5D 5D"
    assert verdict(LEAD_444333, hand, "8D 8D 8D 7D 7D 7D") is None
    assert verdict(LEAD_444333, hand, "8D 8D 7D 7D 6D 6D") == "SJ3-8.6"


def test_sj3_8_6_step_2_before_step_3_the_tractor_before_the_triple():
    hand = "AD AD AD 8D 8D 7D 7D"
    assert verdict(LEAD_444333, hand, "8D 8D 7D 7D AD AD") is None
    assert verdict(LEAD_444333, hand, "AD AD AD 8D 8D 7D") == "SJ3-8.6"


def test_sj3_8_6_two_triples_held_both_are_played():
    hand = "AD AD AD 6D 6D 6D 2D"
    assert verdict(LEAD_444333, hand, "AD AD AD 6D 6D 6D") is None
    assert verdict(LEAD_444333, hand, "AD AD AD 6D 6D 2D") == "SJ3-8.6"


def test_sj3_8_6_step_5_one_pair_and_four_more():
    assert verdict(LEAD_444333, "KD KD TD 8D 5D QD 2D", "KD TD 8D 5D QD 2D") == "SJ3-8.6"
    assert verdict(LEAD_444333, "KD KD TD 8D 5D QD 2D", "KD KD TD 8D 5D QD") is None


# --- SJ3-8.7: a throw led ---------------------------------------------------------------------------

def test_sj3_8_7_each_component_of_a_throw_asks_in_turn():
    lead, structure = "KH KH KH AH AH", [c("KH KH KH"), c("AH AH")]
    hand = "8H 8H 8H 6H 6H 5H"
    assert verdict(lead, hand, "8H 8H 8H 6H 6H", structure) is None
    assert verdict(lead, hand, "8H 8H 6H 6H 5H", structure) == "SJ3-8.7"
    # the triple's cards are committed to the triple: the pair comes from the rest
    assert verdict(lead, "8H 8H 8H 5H 4H 3H", "8H 8H 8H 5H 4H", structure) is None


# --- a bounded property: the bots' follows are legal ------------------------------------------------

@pytest.mark.parametrize("seed", range(25))
def test_sj3_8_a_random_follow_always_satisfies_the_obligations(seed):
    rng = random.Random(seed)
    cards = list(deck(3).elements())
    rng.shuffle(cards)
    leader, follower = cards[:39], cards[39:78]
    trump = Trump("9", "C", chain=bool(seed % 2))
    lead = random_component(leader, trump, rng)
    components = lead_components(lead, trump)
    play = obligations.random_follow(components, follower, trump, rng)
    obligations.check_follow(components, follower, play, trump)
    assert len(play) == len(lead)
