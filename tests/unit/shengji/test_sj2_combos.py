"""Combinations (SJ2-7), leads and throws (SJ2-8)."""
import pytest

from rules.shengji.cards import Trump
from rules.shengji.combos import (
    TRACTOR,
    Component,
    Shape,
    check_lead,
    decompose,
    judge_throw,
    pair_count,
    shape,
)
from rules.violations import RuleViolation

L4S = Trump("4", "S")
L4NT = Trump("4", None)


def cards(text):
    return tuple(text.split())


def kinds(components):
    return [(c.kind, " ".join(c.cards)) for c in components]


def is_tractor(cards, trump):
    """SJ2-7.2: the cards are exactly one tractor (k >= 2 pairs of one class at consecutive
    positions, one pair per position): decomposed, one tractor."""
    if not cards or len({trump.card_class(card) for card in cards}) != 1:
        return False
    components = decompose(cards, trump)
    return len(components) == 1 and components[0].kind == TRACTOR


# --- Ex 2: tractor or not -------------------------------------------------------------------

@pytest.mark.parametrize("text, trump, expected", [
    ("SJ SJ 4S 4S", L4S, True),                 # 15, 14
    ("4S 4S 4H 4H", L4S, True),                 # 14, 13
    ("4H 4H AS AS", L4S, True),                 # 13, 12
    ("4H 4H 4D 4D", L4S, False),                # both 13
    ("4S 4S 4H 4H 4D 4D", L4S, False),          # tractor + pair, no 3-tractor
    ("SJ SJ 4S 4S 4H 4H AS AS", L4S, True),     # 15..12
    ("5S 5S 3S 3S", L4S, True),                 # 3, 2: level 4 skipped
    ("5H 5H 3H 3H", L4S, True),                 # plain hearts 3, 2
    ("AD AD KD KD", L4S, True),
    ("3C 3C 2C 2C", L4S, True),
    ("KH KH QD QD", L4S, False),                # different classes
    ("BJ BJ SJ SJ 4H 4H", L4NT, True),          # no-trump 3, 2, 1
    ("4H 4H 4D 4D", L4NT, False),               # no-trump both 1
])
def test_sj2_ex2_tractor_table(text, trump, expected):
    assert is_tractor(cards(text), trump) is expected


@pytest.mark.parametrize("text, length, top", [
    ("SJ SJ 4S 4S", 2, 15), ("4S 4S 4H 4H", 2, 14), ("4H 4H AS AS", 2, 13),
    ("SJ SJ 4S 4S 4H 4H AS AS", 4, 15), ("5S 5S 3S 3S", 2, 3), ("3C 3C 2C 2C", 2, 2),
])
def test_sj2_ex2_tractor_length_and_rank(text, length, top):
    (component,) = decompose(cards(text), L4S)
    assert (component.kind, component.length, component.top, component.size) == ("tractor", length, top, 2 * length)


def test_sj2_ex2_three_level_pairs_decompose_into_tractor_and_pair():
    assert kinds(decompose(cards("4D 4D 4H 4H 4S 4S"), L4S)) == [("tractor", "4S 4S 4H 4H"), ("pair", "4D 4D")]


def test_sj2_ex2_no_trump_jokers_and_level_pair():
    (component,) = decompose(cards("4H 4H SJ SJ BJ BJ"), L4NT)
    assert (component.length, component.top, component.cards) == (3, 3, cards("BJ BJ SJ SJ 4H 4H"))


def test_not_a_tractor_single_pair_and_odd_cards():
    assert not is_tractor(cards("AD AD"), L4S)
    assert not is_tractor(cards("AD AD KD"), L4S)
    assert not is_tractor(cards("AD KD"), L4S)
    assert not is_tractor((), L4S)


def test_sj2_7_2_level_a_other_level_pair_is_adjacent_to_trump_king():
    t = Trump("A", "H")
    assert is_tractor(cards("AS AS KH KH"), t)
    assert is_tractor(cards("AH AH AS AS KH KH"), t)
    assert is_tractor(cards("KS KS QS QS"), t)     # plain spades 12, 11
    assert not is_tractor(cards("AS AS KS KS"), t)  # AS is trump, KS plain


def test_sj2_7_2_level_rank_is_skipped_in_every_suit():
    t = Trump("7", "H")
    assert is_tractor(cards("8H 8H 6H 6H"), t)
    assert is_tractor(cards("8C 8C 6C 6C"), t)
    assert not is_tractor(cards("8C 8C 7C 7C"), t)


# --- canonical decomposition (SJ2-7.3) ------------------------------------------------------

def test_sj2_7_3_longest_tractor_first_then_pairs_then_singles():
    hand = cards("2H QH 7H 7H AH AH 9H 9H KH KH 8H 8H 5H 5H")
    assert kinds(decompose(hand, L4S)) == [
        ("tractor", "9H 9H 8H 8H 7H 7H"), ("tractor", "AH AH KH KH"), ("pair", "5H 5H"),
        ("single", "QH"), ("single", "2H")]


def test_sj2_7_3_lexicographically_greatest_tractor_lengths_through_level_cards():
    # pairs at 15, 14, 13 (three suits), 12: one 4-tractor beats 2+2 or 3+...; two pairs left.
    hand = cards("SJ SJ 4S 4S 4H 4H 4D 4D 4C 4C AS AS")
    components = decompose(hand, L4S)
    assert [(c.kind, c.length, c.top) for c in components] == [
        ("tractor", 4, 15), ("pair", 1, 13), ("pair", 1, 13)]
    assert sum(c.size for c in components) == len(hand)
    assert pair_count(hand, L4S) == 6


def test_sj2_7_3_tractor_ties_listed_from_highest_top():
    components = decompose(cards("3D 3D 2D 2D AD AD KD KD 8D"), L4S)
    assert [(c.kind, c.top) for c in components] == [("tractor", 12), ("tractor", 2), ("single", 6)]


def test_decompose_rejects_mixed_classes_and_accepts_empty():
    with pytest.raises(ValueError):
        decompose(cards("AH AS"), L4S)
    assert decompose((), L4S) == ()


def test_component_width_and_pairs():
    single, pair, tractor = (decompose(cards(t), L4S)[0] for t in ("AH", "AH AH", "AH AH KH KH QH QH"))
    assert (single.width, single.length, single.pairs) == (1, 0, 0)
    assert (pair.width, pair.length, pair.pairs) == (2, 1, 1)
    assert (tractor.width, tractor.length, tractor.pairs, tractor.size) == (2, 3, 3, 6)
    assert isinstance(tractor, Component) and hash(tractor)
    assert tractor.priority > pair.priority > single.priority
    assert decompose(cards("AH AH KH KH QH QH"), L4S)[0].priority > decompose(cards("AH AH KH KH"), L4S)[0].priority


# --- pair count (SJ2-11.2) and shape (SJ2-7.4) ----------------------------------------------

@pytest.mark.parametrize("text, trump, expected", [
    ("AH", L4S, 0), ("BJ BJ", L4S, 1), ("QD QD JD JD", Trump("9", "D"), 2),   # Ex 11: 2-tractor
    ("AH AH KH KH QH QH", L4S, 3), ("4H 4H 4D 4D", L4S, 2),                  # 副级牌 pairs
    ("AD AD KD KD 8D 8D 5D", L4S, 3),                                       # Ex 5: tractor(2)+pair
    ("BJ BJ SJ 4S 4S 3S", L4S, 2), ("KH QH JH", L4S, 0),
    ("BJ BJ AH AH", L4S, 2),                                                # class by class
])
def test_sj2_11_2_pair_count(text, trump, expected):
    assert pair_count(cards(text), trump) == expected


def test_sj2_7_4_shape():
    assert shape(cards("9H 9H 8H 8H 7H 7H AH AH KH KH 5H 5H QH 2H"), L4S) == Shape((3, 2), 1, 2)
    assert shape(cards("QH QH JH JH"), L4S) == Shape((2,), 0, 0)
    assert shape(cards("6S 6S 9S TS"), L4S) == Shape((), 1, 2)
    assert shape(cards("6S 6S 5S 5S"), L4S) == shape(cards("QH QH JH JH"), L4S)
    assert hash(shape(cards("AH"), L4S)) == hash(Shape((), 0, 1))


# --- leads (SJ2-8.2) ------------------------------------------------------------------------

def test_sj2_8_2_single_component_leads_are_legal():
    for text in ("AH", "AH AH", "QH QH JH JH", "BJ 4H 2S", "4H 4D"):
        check_lead(cards(text), L4S)


def test_sj2_8_2_mixed_or_empty_lead_is_rejected():
    with pytest.raises(RuleViolation) as caught:
        check_lead(cards("AH AS"), L4S)
    assert caught.value.rule == "SJ2-8.2"
    assert "mixes" in caught.value.message and "AS" in caught.value.message
    with pytest.raises(RuleViolation) as caught:
        check_lead((), L4S)
    assert caught.value.rule == "SJ2-8.2"
    with pytest.raises(RuleViolation):
        check_lead(cards("AS 4H AH"), L4NT)


# --- Ex 4: a failed throw (SJ2-8.3–8.5) -----------------------------------------------------

def test_sj2_ex4_failed_throw_penalty_4_cards_forced_9d():
    result = judge_throw(cards("KD KD QD 9D"), L4S, [cards("AD AD JD 3S"), cards("2D 5H")])
    assert result.failed
    assert [(c.kind, c.cards) for c in result.beaten] == [
        ("pair", ("KD", "KD")), ("single", ("QD",)), ("single", ("9D",))]
    assert result.penalty_cards == 4 and result.penalty_points == 40
    assert result.forced == ("9D",)


def test_sj2_ex4_variant_split_aces_do_not_beat_the_pair():
    result = judge_throw(cards("KD KD QD 9D"), L4S, [cards("AD JD"), cards("AD 2D")])
    assert result.failed
    assert [c.cards for c in result.beaten] == [("QD",), ("9D",)]
    assert (result.penalty_cards, result.penalty_points, result.forced) == (2, 20, ("9D",))


def test_sj2_ex4_variant_dealer_side_throw_is_judged_alike():
    # Whose side pays (P - 40 or P + 40) is the caller's; the judgement is the same.
    result = judge_throw(cards("9D KD QD KD"), L4S, [cards("AD AD JD"), cards("2D")])
    assert (result.failed, result.penalty_cards, result.forced) == (True, 4, ("9D",))


def test_sj2_8_3_throw_of_the_highest_cards_stands():
    lead = cards("AD AD KD")
    result = judge_throw(lead, L4S, [cards("KD QD QD JD"), cards("2D 3D")])
    assert not result.failed and result.beaten == () and result.penalty_cards == 0
    assert result.forced == lead


def test_sj2_8_2_one_component_is_never_a_throw():
    for lead in (cards("2D"), cards("3D 3D"), cards("3D 3D 2D 2D")):
        result = judge_throw(lead, L4S, [cards("AD AD KD KD QD QD")])
        assert not result.failed and result.forced == lead and result.penalty_cards == 0


def test_sj2_8_4_trumps_of_a_void_opponent_do_not_beat():
    result = judge_throw(cards("KD KD AD"), L4S, [cards("BJ BJ SJ SJ 4S 4S"), cards("QH QH")])
    assert not result.failed


def test_sj2_8_4_tractor_beaten_by_consecutive_pairs_through_level_cards():
    lead = cards("KS KS QS QS 2S")             # trump tractor 11-10 + single 2S (pos 1)
    result = judge_throw(lead, L4S, [cards("4H 4H AS AS")])  # 13-12 consecutive, top 13 > 11
    assert result.failed
    assert [c.kind for c in result.beaten] == ["tractor", "single"]
    assert result.forced == ("2S",) and result.penalty_cards == 5


def test_sj2_8_4_two_level_pairs_of_other_suits_are_not_a_tractor():
    result = judge_throw(cards("KS KS QS QS BJ"), L4S, [cards("4H 4H 4D 4D")])
    assert not result.failed


def test_sj2_8_5_only_pairs_beaten_forces_the_lowest_pair():
    result = judge_throw(cards("AD 9D 9D 7D 7D"), L4S, [cards("JD JD TD TD"), cards("8D 8D")])
    assert [c.cards for c in result.beaten] == [("9D", "9D"), ("7D", "7D")]
    assert result.forced == ("7D", "7D") and result.penalty_cards == 4


def test_sj2_8_5_only_tractors_beaten_forces_the_shortest_then_lowest():
    lead = cards("QD QD JD JD 6D 6D 5D 5D 3D 3D")   # tractor 10-9, tractor 4-3-2
    opponents = [cards("AD AD KD KD"), cards("TD TD 9D 9D 8D 8D")]
    result = judge_throw(lead, L4S, opponents)
    assert [c.length for c in result.beaten] == [3, 2]
    assert result.forced == cards("QD QD JD JD")        # shorter although higher
    assert result.penalty_cards == 10


def test_sj2_8_5_forced_single_ties_go_to_the_first_listed():
    opponents = [cards("4S")]
    assert judge_throw(cards("4D 4H"), L4S, opponents).forced == ("4D",)
    assert judge_throw(cards("4H 4D"), L4S, opponents).forced == ("4H",)


def test_sj2_8_4_higher_longer_tractor_beats_a_shorter_one():
    result = judge_throw(cards("9D 9D 8D 8D AD"), L4S, [cards("QD QD JD JD TD TD")])
    assert result.failed and [c.kind for c in result.beaten] == ["tractor"]
    assert result.forced == cards("9D 9D 8D 8D")


def test_sj2_8_2_judge_throw_rejects_a_mixed_lead():
    with pytest.raises(RuleViolation) as caught:
        judge_throw(cards("AD AH"), L4S, [])
    assert caught.value.rule == "SJ2-8.2"
