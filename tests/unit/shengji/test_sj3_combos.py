"""Three-deck combinations, leads, throws and trick winners (shengji-3deck.md SJ3-6, SJ3-7, SJ3-9;
worked examples 2, 5 and 6). Examples use level 9, trump C (SJ3-2.4) unless stated."""
import pytest

from rules.shengji.cards import Trump, points
from rules.shengji.combos import PAIR, SINGLE, TRACTOR, TRIPLE, TRIPLE_TRACTOR
from rules.shengji.stated_leads import (
    beatable_components,
    default_throw_choice,
    is_captive,
    lead_components,
    single_component,
    throw_options,
)
from rules.shengji.winning import trick_winner
from rules.violations import RuleViolation

L9C = Trump("9", "C", chain=False)        # the seed's tractors: one suit (SJ3-6.3, seed 十一)
L9C_CHAIN = Trump("9", "C", chain=True)   # the spec's SJ2 chain (trumpChainAdjacency: true)


def c(text: str) -> list[str]:
    return text.split()


# --- SJ3-6.1 / 6.2: the components ----------------------------------------------------------------

@pytest.mark.parametrize("cards, kind, length", [
    ("AH", SINGLE, 0), ("KH KH", PAIR, 1), ("7H 7H 7H", TRIPLE, 1),
    ("JS JS TS TS", TRACTOR, 2), ("4D 4D 4D 3D 3D 3D", TRIPLE_TRACTOR, 2),
    ("8C 8C 7C 7C 6C 6C", TRACTOR, 3), ("TD TD 8D 8D", TRACTOR, 2),  # the level rank 9 is skipped
])
def test_sj3_6_1_6_2_one_component(cards, kind, length):
    component = single_component(c(cards), L9C)
    assert (component.kind, component.length) == (kind, length)


@pytest.mark.parametrize("cards", [
    "AH KH",            # two singles
    "4S 4S 4S 3S 3S",   # a 俘虏
    "QH QH JH JH 9H 9H",  # a gap (J then 9: T is between)
    "9S 9S 9H 9H",      # two level-card pairs of one position are never adjacent
    "AH AH AS AS",      # two suits
])
def test_sj3_6_2_not_one_component(cards):
    assert single_component(c(cards), L9C) is None


def test_sj3_6_3_level_cards_and_jokers_chain_only_with_the_setting():
    """Seed 十一 「相邻级别的同一花色的对子」: without the chain 9C 9C 9H 9H and BJ BJ SJ SJ are no
    tractors (the default, the seed's words); with trumpChainAdjacency they are (the spec)."""
    for cards in ("9C 9C 9H 9H", "BJ BJ SJ SJ", "9C 9C 9C 9H 9H 9H"):
        assert single_component(c(cards), L9C) is None
        assert single_component(c(cards), L9C_CHAIN).length == 2
    assert single_component(c("AC AC KC KC"), L9C).kind == TRACTOR  # the trump suit's own ranks


# --- SJ3-6.4, 6.5, 7.1: what may be led ------------------------------------------------------

def test_sj3_6_5_a_captive_is_refused_as_a_lead():
    assert is_captive(c("4S 4S 4S 3S 3S"), L9C) and is_captive(c("KH KH KH 2H 2H"), L9C)
    with pytest.raises(RuleViolation) as refused:
        lead_components(c("4S 4S 4S 3S 3S"), L9C)
    assert refused.value.rule == "SJ3-6.5"


@pytest.mark.parametrize("structure", [[["4S", "4S", "4S"], ["3S", "3S"]],
                                       [["4S", "4S", "3S", "3S"], ["4S"]]])
def test_sj3_6_5_a_captive_may_be_led_as_a_throw_with_its_structure_stated(structure):
    components = lead_components(c("4S 4S 4S 3S 3S"), L9C, structure)
    assert sorted(comp.kind for comp in components) == sorted(
        single_component(part, L9C).kind for part in structure)


@pytest.mark.parametrize("cards, structure, unit", [
    ("AH AH", [["AH"], ["AH"]], "pair"),                            # seed 十二: a pair is a pair
    ("8H 8H 7H 7H", [["8H", "8H"], ["7H", "7H"]], "tractor"),       # seed 十一
    ("AH AH AH", [["AH", "AH"], ["AH"]], "triple"),                 # seed 十三
    ("4S 4S 4S 3S 3S 3S", [c("4S 4S 3S 3S"), ["4S"], ["3S"]], "triple-tractor"),
    ("4S 4S 4S 3S 3S 3S", [c("4S 4S 4S"), c("3S 3S 3S")], "triple-tractor"),
    ("5S 5S 4S 4S 3S 3S", [c("5S 5S"), c("3S 3S"), c("4S 4S")], "tractor"),
    ("AS AS KS QS QS", [["AS"], ["AS"], ["KS"], c("QS QS")], "pair"),  # two singles of a throw
])
def test_sj3_7_1_a_stated_structure_may_not_split_a_unit(cards, structure, unit):
    """Seed 十二「你必须跟出对子」, 十一 (a tractor follows a tractor), 十六 (trumps of the same
    shape), 十五 (a 俘虏 only as 「三条加一对或拖拉机加一单张」): stated parts that together make one
    component would turn those rules off — refused, naming the unit."""
    with pytest.raises(RuleViolation, match=f"together one {unit}") as refused:
        lead_components(c(cards), L9C, structure)
    assert refused.value.rule == "SJ3-7.1"


@pytest.mark.parametrize("cards, structure", [
    ("4S 4S 4S 3S 3S", [c("4S 4S 3S 3S"), ["4S"]]),   # tractor + single (seed 十五)
    ("4S 4S 4S 3S 3S", [c("4S 4S 4S"), c("3S 3S")]),   # triple + pair (seed 十五)
    ("AH AH KH KH 8H", [c("AH AH KH KH"), ["8H"]]),     # Ex 5
    ("9H 9S", [["9H"], ["9S"]]),                         # two level cards of one place: no pair
    ("AS AS QS QS", [c("AS AS"), c("QS QS")]),           # K between: no tractor
])
def test_sj3_7_1_a_structure_whose_parts_make_no_unit_together_stands(cards, structure):
    components = lead_components(c(cards), L9C, structure)
    assert sorted(comp.cards for comp in components) == sorted(
        tuple(sorted(part, key=L9C.sort_key)) for part in structure)


def test_sj3_7_1_several_components_need_a_stated_structure():
    with pytest.raises(RuleViolation) as refused:
        lead_components(c("AH KH"), L9C)
    assert refused.value.rule == "SJ3-7.1"


@pytest.mark.parametrize("cards, structure", [
    ("AH KH", [["AH"]]),                     # does not cover the cards
    ("AH KH", [["AH", "KH"]]),               # a part that is no component
    ("AH AS", [["AH"], ["AS"]]),             # two classes
])
def test_sj3_7_1_the_structure_must_partition_one_class_into_components(cards, structure):
    with pytest.raises(RuleViolation) as refused:
        lead_components(c(cards), L9C, structure)
    assert refused.value.rule == "SJ3-7.1"


# --- SJ3-7.2 / 7.3: throws ------------------------------------------------------------------------

def test_sj3_ex5_a_failed_throw_offers_the_lowest_of_each_type():
    """Ex 5: seat 1 throws AH AH KH KH + 8H; opponent seat 2 holds the third AH (three decks:
    seat 1's two and this one — seat 0 holds none, only a lower heart): the single is
    beatable by seat 2 alone, the tractor (A-K, the top of hearts) is not. Options: 8H or the
    tractor."""
    components = lead_components(c("AH AH KH KH 8H"), L9C, [c("AH AH KH KH"), ["8H"]])
    seat_0, seat_2 = c("7H 3S"), c("AH 2D")
    assert not beatable_components(components, L9C, [seat_0])
    beaten = beatable_components(components, L9C, [seat_0, seat_2])
    assert [comp.cards for comp in beaten] == [("8H",)]
    options = throw_options(components)
    assert [comp.cards for comp in options] == [("8H",), ("AH", "AH", "KH", "KH")]
    assert default_throw_choice(options).cards == ("8H",)


def test_sj3_7_2_two_of_a_triple_beat_a_pair_and_a_higher_triple_beats_a_triple():
    components = lead_components(c("QS QS 5S 5S 5S"), L9C, [c("QS QS"), c("5S 5S 5S")])
    beaten = beatable_components(components, L9C, [c("KS KS KS 2D"), c("3H")])
    assert sorted(comp.kind for comp in beaten) == [PAIR, TRIPLE]
    assert not beatable_components(components, L9C, [c("JS JS 4S 4S 4S")])


def test_sj3_7_2_a_tractor_is_beaten_only_by_a_higher_one_as_long():
    components = lead_components(c("6S 6S 5S 5S 4S 4S AS"), L9C,
                                 [c("6S 6S 5S 5S 4S 4S"), ["AS"]])
    assert not beatable_components(components, L9C, [c("KS KS QS QS")])
    assert beatable_components(components, L9C, [c("KS KS QS QS JS JS")])[0].kind == TRACTOR


def test_sj3_7_3_one_type_leaves_no_choice_and_a_shorter_tractor_is_lower():
    singles = lead_components(c("AH QH 3H"), L9C, [["AH"], ["QH"], ["3H"]])
    assert [o.cards for o in throw_options(singles)] == [("3H",)]
    tractors = lead_components(c("AS AS KS KS QS QS 6S 6S 5S 5S"), L9C,
                               [c("AS AS KS KS QS QS"), c("6S 6S 5S 5S")])
    assert [o.length for o in throw_options(tractors)] == [2]


# --- SJ3-9: the trick's winner ---------------------------------------------------------------------

def test_sj3_ex2_a_trump_triple_wins_the_triple_trick_with_15_points():
    """Ex 2: 7H 7H 7H led; 8H 8H 8H beats it (pos 7 > 6); QH QH 3H does not qualify; seat 3
    trumps with 5C 5C 5C — same shape — and wins; the trick holds three 5C = 15 points."""
    lead = lead_components(c("7H 7H 7H"), L9C)
    plays = [c("7H 7H 7H"), c("8H 8H 8H"), c("QH QH 3H"), c("5C 5C 5C")]
    assert trick_winner(plays[:2], L9C, lead) == 1
    assert trick_winner(plays, L9C, lead) == 3
    assert points(card for play in plays for card in play) == 15


def test_sj3_ex6_several_trumps_compare_the_tractor_first():
    """Ex 6: spades 6S 6S 5S 5S + AS led (a throw that stands). Seat 1 QC QC JC JC 3C beats it,
    seat 2 AC AC KC KC 2C beats seat 1 (tractor first, though 2C < 3C), seat 3 9C 9C 9H 9H 4C
    is a tractor 14-13 only with the SJ2 chain: then seat 3 wins; without it (the default, the
    seed's tractors of one suit) it is two pairs and a single, and seat 2 wins."""
    plays = [c("6S 6S 5S 5S AS"), c("QC QC JC JC 3C"), c("AC AC KC KC 2C"), c("9C 9C 9H 9H 4C")]
    structure = [c("6S 6S 5S 5S"), ["AS"]]
    assert trick_winner(plays[:2], L9C_CHAIN, lead_components(plays[0], L9C_CHAIN, structure)) == 1
    assert trick_winner(plays[:3], L9C_CHAIN, lead_components(plays[0], L9C_CHAIN, structure)) == 2
    assert trick_winner(plays, L9C_CHAIN, lead_components(plays[0], L9C_CHAIN, structure)) == 3
    assert trick_winner(plays, L9C, lead_components(plays[0], L9C, structure)) == 2


def test_sj3_9_1_a_play_that_cannot_be_arranged_in_the_leads_shape_does_not_win():
    lead = lead_components(c("4D 4D 4D 3D 3D 3D"), L9C)
    trumps = c("AC AC AC 2C 2C 2C")   # two triples, not adjacent: not a triple-tractor
    assert trick_winner([c("4D 4D 4D 3D 3D 3D"), trumps], L9C, lead) == 0
    assert trick_winner([c("4D 4D 4D 3D 3D 3D"), c("3C 3C 3C 2C 2C 2C")], L9C, lead) == 1


def test_sj3_9_2_a_triple_serves_as_a_pair_and_a_single_never_the_reverse():
    pair_and_single = lead_components(c("5H 5H 3H"), L9C, [c("5H 5H"), ["3H"]])
    assert trick_winner([c("5H 5H 3H"), c("2C 2C 2C")], L9C, pair_and_single) == 1
    triple = lead_components(c("5H 5H 5H"), L9C)
    assert trick_winner([c("5H 5H 5H"), c("2C 2C 3C")], L9C, triple) == 0


def test_sj3_9_2_two_trumps_equal_on_the_key_component_compare_the_next_in_order():
    """Seed 十六 「如有单张，三条或拖拉机，则先比较拖拉机，三条，单张的级别大小」: AS AS + KS led; seat 1
    trumps with 9H 9H 3C, seat 2 with 9D 9D AC — the 副级牌 pairs are equal (13 = 13), so the
    single decides: AC (12) over 3C (2), seat 2 wins. Comparing the key component alone would
    leave the trick with seat 1, the earlier play (SJ2-10.2)."""
    lead = lead_components(c("AS AS KS"), L9C, [c("AS AS"), ["KS"]])
    plays = [c("AS AS KS"), c("9H 9H 3C"), c("9D 9D AC")]
    assert trick_winner(plays, L9C, lead, in_order=True) == 2
    assert trick_winner(plays, L9C, lead) == 1
    # equal in every component: the earlier play keeps the trick (SJ3-9.3)
    assert trick_winner([c("AS AS KS"), c("9H 9H 3C"), c("9D 9D 3C")], L9C, lead,
                        in_order=True) == 1


def test_sj3_9_2_after_the_key_the_next_component_then_the_singles_highest_first():
    """Triple + pair + single led: two trumps equal on the triple (副级牌, 13 = 13) are decided
    by the pair — 4C 4C over 3C 3C though the other's single AC is higher; with only singles
    left to compare, the highest first, then the next."""
    lead = lead_components(c("QS QS QS 8S 8S 4S"), L9C, [c("QS QS QS"), c("8S 8S"), ["4S"]])
    plays = [c("QS QS QS 8S 8S 4S"), c("9H 9H 9H 3C 3C AC"), c("9D 9D 9D 4C 4C 2C")]
    assert trick_winner(plays, L9C, lead, in_order=True) == 2
    singles = lead_components(c("QS QS 8S 4S"), L9C, [c("QS QS"), ["8S"], ["4S"]])
    plays = [c("QS QS 8S 4S"), c("9H 9H AC 2C"), c("9D 9D AC 3C")]
    assert trick_winner(plays, L9C, singles, in_order=True) == 2


def test_sj3_9_3_equal_key_components_the_earlier_play_keeps_the_trick():
    lead = lead_components(c("4S"), L9C)
    assert trick_winner([c("4S"), c("9H"), c("9D")], L9C, lead) == 1  # 副级牌 equal: 13 = 13
