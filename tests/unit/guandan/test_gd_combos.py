"""rules/guandan/combos.py against guandan.md GD-2.2–2.4, GD-3 and GD-4 (worked examples 2–4)."""
import pytest

from rules import RuleViolation
from rules.guandan.combos import beats, check_beats, classify, readings


def violated(rule, cards, level="7", wild_as=None, settings=None):
    with pytest.raises(RuleViolation) as info:
        classify(cards, level, wild_as, settings)
    assert info.value.rule == rule
    assert f"({rule})" in info.value.message
    return info.value


# --- Ex 2: classification at level 7 ---------------------------------------------------------

@pytest.mark.parametrize("cards,wild_as,type_,rank,size", [
    ("7H", None, "single", "7", 1),
    ("QS 7H", None, "pair", "Q", 2),
    ("7H 7H", None, "pair", "7", 2),
    ("3S 4D 7H 6C 7D", None, "straight", "7", 5),
    ("TS JS QS KS 7H", ["AS"], "straightFlush", "A", 5),
    ("5S 5D 5C 7H 7H", ["5H", "5H"], "bomb", "5", 5),
    ("8C 8C 8D 8S 7H", ["8H"], "bomb", "8", 5),
    ("QD QD QH QC QS QS 7H 7H", ["QH", "QC"], "bomb", "Q", 8),
    ("AH 2C 3D 4S 5H", None, "straight", "5", 5),
    ("AS AD 2S 2H 3C 3C", None, "pairRun", "3", 6),
    ("KS KD KC AH AS AC", None, "tripleRun", "A", 6),
    ("QS QD QC 3H 3S", None, "fullHouse", "Q", 5),
    ("6S 6S 6D BJ BJ", None, "fullHouse", "6", 5),
])
def test_gd_ex2_classification_at_level_7(cards, wild_as, type_, rank, size):
    combo = classify(cards, "7", wild_as)
    assert (combo.type, combo.rank, combo.size) == (type_, rank, size)


def test_gd_ex2_single_wildcard_is_a_level_card_of_value_15():
    assert classify("7H", "7").key == 15


def test_gd_ex2_qs_with_wildcard_is_inferred_as_a_pair_of_queens():
    combo = classify("QS 7H", "7")
    assert combo.wild_as == ("QH",) and combo.key == 12


def test_gd_ex2_two_wildcards_take_the_highest_pair_the_level_pair():
    combo = classify("7H 7H", "7")
    assert combo.key == 15 and combo.wild_as == ()


def test_gd_ex2_straight_infers_the_missing_5_with_7d_in_its_natural_place():
    combo = classify("3S 4D 7H 6C 7D", "7")
    assert combo.key == 7 and [c[0] for c in combo.wild_as] == ["5"]


def test_gd_ex2_straight_flush_without_wildas_is_rejected_gd_2_4():
    error = violated("GD-2.4", "TS JS QS KS 7H")
    assert "straight" in error.message and "straight flush" in error.message and "wildAs" in error.message


def test_gd_ex2_bomb_or_full_house_without_wildas_is_rejected_gd_2_4():
    error = violated("GD-2.4", "5S 5D 5C 7H 7H")
    assert "full house" in error.message and "bomb" in error.message


def test_gd_ex2_five_cards_with_wildas_5h_5h_is_a_bomb_and_without_substitution_a_full_house():
    assert classify("5S 5D 5C 7H 7H", "7", ["5H", "5H"]).type == "bomb"
    full_house = classify("5S 5D 5C 7H 7H", "7", [])
    assert full_house.type == "fullHouse" and full_house.rank == "5"


def test_gd_ex2_eight_queens_are_inferred_without_wildas_too():
    assert classify("QD QD QH QC QS QS 7H 7H", "7").describe() == "an 8-card bomb of Qs"


def test_gd_ex2_jokers_with_a_wildcard_are_invalid_gd_2_3():
    assert "except a joker" in violated("GD-2.3", "BJ BJ SJ 7H").message


def test_gd_ex2_six_card_straight_is_invalid_gd_3_4():
    assert "exactly five" in violated("GD-3.4", "9S TS JS QS KS AS").message


def test_gd_ex2_big_and_small_joker_are_not_a_pair_gd_3_4():
    assert "not a pair" in violated("GD-3.4", "BJ SJ").message


def test_gd_ex2_lowest_straight_has_top_5():
    assert classify("AH 2C 3D 4S 5H", "7").key == 5


# --- GD-2.2 natural order, GD-2.3/2.4 wildcards, GD-3 catalogue ---------------------------------

def test_gd_2_2_level_rank_stands_in_its_natural_place_in_runs():
    assert classify("6S 7D 8C 9S TH", "T").type == "straight"


@pytest.mark.parametrize("cards", ["QS KD AC 2S 3D", "KS KD AS AD 2C 2C", "KS KD KC 2S 2D 2C"])
def test_gd_2_2_runs_never_wrap_round_the_ace_gd_3_4(cards):
    violated("GD-3.4", cards)


def test_gd_2_2_ace_low_and_high_runs_are_lowest_and_highest():
    assert classify("AS AD 2C 2C 3S 3D", "5").key < classify("4S 4D 2C 2C 3S 3D", "5").key
    assert classify("QS QD KC KC AS AD", "5").key == 14
    assert classify("AS AD AC 2S 2D 2C", "5").key == 2
    assert classify("TS JD QC KS AD", "5").key == 14


def test_gd_2_4_seed_wildcard_combinations_rank_like_natural_ones():
    # 「如打 2 时，"10-J-Q-K-A"与"10-J-Q-2-A"一样大；"9999"与"9992"一样大」
    natural = classify("TS JS QS KS AS", "2")
    wild = classify("TS JS QS 2H AS", "2", ["KS"])
    assert wild.type == natural.type == "straightFlush" and wild.key == natural.key
    assert not beats(wild, natural) and not beats(natural, wild)
    nines, with_wild = classify("9S 9S 9D 9C", "2"), classify("9S 9D 9C 2H", "2")
    assert with_wild.type == "bomb" and with_wild.key == nines.key
    assert not beats(with_wild, nines) and not beats(nines, with_wild)


def test_gd_2_4_one_suit_run_with_wildcard_is_a_straight_flush_top_depends_on_wildas():
    assert classify("3H 4H 5H 6H 7H", "7").key == 7  # the highest reading: 7H as itself
    low = classify("3H 4H 5H 6H 7H", "7", ["2H"])
    assert (low.type, low.key) == ("straightFlush", 6)


def test_gd_3_2_a_run_of_one_suit_is_a_plain_straight_when_the_reading_says_so():
    """Seed: 「顺子：五张连续单牌…不分花色」."""
    assert classify("3H 4H 5H 6H 7H", "7", ["2C"]).type == "straight"  # 7H read as 2C
    plain = classify("9D TD JD QD KD", "2", read_as="straight")
    assert (plain.type, plain.key) == ("straight", 13)
    wild = classify("3H 4H 5H 6H 7H", "7", read_as="straight")
    assert (wild.type, wild.key) == ("straight", 7)
    with pytest.raises(RuleViolation) as info:
        classify("9D TD JD QD KD", "2", read_as="pair")
    assert info.value.rule == "GD-2.4" and "cannot be read as a pair" in info.value.message


def test_gd_3_2_natural_one_suit_run_is_a_straight_flush():
    assert classify("9D TD JD QD KD", "2").type == "straightFlush"


def test_gd_2_4_mixed_suits_with_wildcard_may_be_declared_a_plain_straight():
    assert classify("TS JS QS KS 7H", "7", ["AD"]).type == "straight"


def test_gd_2_4_wildas_naming_more_cards_than_wildcards_is_rejected():
    assert "1 wildcard" in violated("GD-2.4", "QS 7H", "7", ["QH", "QD"]).message


def test_gd_2_4_wildas_on_a_play_without_wildcards_is_rejected():
    violated("GD-2.4", "QS QD", "7", ["QH"])


def test_gd_2_4_impossible_reading_is_rejected_gd_3_4():
    assert "read as 2S" in violated("GD-3.4", "TS JS QS KS 7H", "7", ["2S"]).message


def test_gd_2_3_wildas_naming_a_joker_is_rejected():
    violated("GD-2.3", "SJ 7H", "7", ["SJ"])


def test_gd_2_3_wildcard_cannot_complete_a_joker_pair():
    violated("GD-2.3", "SJ 7H")


def test_gd_2_3_wildcard_in_a_nine_and_ten_card_bomb():
    assert classify("AS AS AH AH AD AD AC AC 7H 7H", "7").describe() == "a 10-card bomb of As"
    assert classify("AS AS AH AH AD AD AC 7H 7H", "7").size == 9


def test_gd_3_1_level_rank_bomb_has_at_most_eight_cards():
    combo = classify("7S 7S 7H 7H 7D 7D 7C 7C", "7")
    assert (combo.type, combo.size, combo.key) == ("bomb", 8, 15)


def test_gd_3_1_four_jokers_and_joker_pairs():
    assert classify("BJ SJ BJ SJ", "7").type == "fourJokers"
    assert classify("BJ BJ", "7").key == 17 and classify("SJ SJ", "7").key == 16


@pytest.mark.parametrize("cards,hint", [
    ("3S 3D 3C 4S", "triple with a single"),
    ("3S 3D 4S 4D 5S 5D 6S 6D", "exactly three pairs"),
    ("3S 3D 3C 4S 4D 4C 5S 5D 5C", "exactly two triples"),
    ("BJ BJ SJ", "jokers only"),
    ("3S 5D", "not a single, pair"),
])
def test_gd_3_4_other_sets_are_not_combinations(cards, hint):
    assert hint in violated("GD-3.4", cards).message


def test_gd_3_4_empty_play_is_not_a_combination():
    violated("GD-3.4", [])


def test_gd_3_3_joker_pair_in_full_house_follows_the_setting():
    violated("GD-3.4", "6S 6S 6D BJ BJ", settings={"fullHouseJokerPair": False})


def test_gd_3_1_five_of_one_rank_is_a_bomb_not_a_full_house():
    assert classify("5S 5D 5C 5H 5H", "7").type == "bomb"


def test_gd_1_1_unknown_card_notation_is_rejected():
    violated("GD-1.1", "10H 10S")


def test_gd_2_4_readings_list_every_type_with_its_wildas():
    found = {(c.type, c.rank): c.wild_as for c in readings("TS JS QS KS 7H", "7")}
    assert found[("straightFlush", "A")] == ("AS",)
    assert found[("straightFlush", "K")] == ("9S",)
    assert ("straight", "A") in found and ("straight", "K") in found
    best = readings("TS JS QS KS 7H", "7")[0]
    assert best.reading() == {"type": "straight", "rank": "A", "wildAs": ["AH"]}


def test_gd_2_4_readings_are_empty_for_a_non_combination():
    assert readings("3S 5D", "7") == []


# --- Ex 3: bombs at level 7 ------------------------------------------------------------------

@pytest.mark.parametrize("a,b,higher", [
    ("7S 7S 7D 7C", "AS AH AD AC", "A"),
    ("2S 2S 2D 2H 2C", "7S 7S 7D 7C", "A"),
    ("2C 3C 4C 5C 6C", "7S 7S 7D 7D 7C", "A"),
    ("3S 3S 3D 3D 3C 3C", "TH JH QH KH AH", "A"),
    ("9H TH JH QH KH", "TC JC QC KC AC", "B"),
    ("3S 4S 5S 6S 7S", "4S 5S 6S 7S 8S", "B"),
    ("7S 7S 7D 7D 7C 7C", "AS AS AH AD AC AC", "A"),
    ("2S 2S 2D 2D 2C 2C 2H", "7S 7S 7D 7D 7C 7C", "A"),
    ("BJ BJ SJ SJ", "AS AS AH AH AD AD AC AC 7H 7H", "A"),
])
def test_gd_ex3_bomb_ladder_at_level_7(a, b, higher):
    play_a, play_b = classify(a, "7"), classify(b, "7")
    assert play_a.is_bomb and play_b.is_bomb
    winner, loser = (play_a, play_b) if higher == "A" else (play_b, play_a)
    assert beats(winner, loser) and not beats(loser, winner)


def test_gd_ex3_level_card_is_natural_in_a_straight_flush():
    assert classify("3S 4S 5S 6S 7S", "7").key == 7


def test_gd_4_3_equal_bomb_does_not_beat():
    bomb = classify("9S 9S 9D 9C", "7")
    with pytest.raises(RuleViolation) as info:
        check_beats(classify("9H 9H 9D 9C", "7"), bomb, seat=1)
    assert info.value.rule == "GD-4.3" and "seat 1" in info.value.message


def test_gd_4_3_smaller_bomb_does_not_beat_a_straight_flush():
    with pytest.raises(RuleViolation) as info:
        check_beats(classify("AS AS AD AC AC", "7"), classify("2C 3C 4C 5C 6C", "7"))
    assert info.value.rule == "GD-4.3"


def test_gd_4_2_every_bomb_beats_any_non_bomb():
    assert beats(classify("2S 2D 2C 2H", "7"), classify("TC JD QS KH AD", "7"))
    assert beats(classify("2C 3C 4C 5C 6C", "7"), classify("BJ BJ", "7"))


# --- Ex 4: ordinary plays at level 7 ---------------------------------------------------------

@pytest.mark.parametrize("play,top", [
    ("7D 7C", "AS AH"),
    ("TC JD QS KH AD", "9C TD JS QH KD"),
    ("3S 3D 3C AH AS", "2S 2D 2C KH KS"),
    ("2S 2D 3S 3D 4S 4D", "AS AD 2C 2H 3C 3H"),
])
def test_gd_ex4_ordinary_plays_beat_lower_ones_of_the_same_type(play, top):
    assert beats(classify(play, "7"), classify(top, "7"))
    assert not beats(classify(top, "7"), classify(play, "7"))


def test_gd_ex4_a_straight_never_beats_a_full_house_gd_4_2():
    with pytest.raises(RuleViolation) as info:
        check_beats(classify("TC JD QS KH AD", "7"), classify("3S 3D 3C 2H 2S", "7"), seat=3)
    assert info.value.rule == "GD-4.2" and "same type" in info.value.message


def test_gd_ex4_full_house_with_equal_key_is_rejected_gd_4_2():
    with pytest.raises(RuleViolation) as info:
        check_beats(classify("4S 4D 4C 3H 3S", "7"), classify("4H 4C 4D 2S 2D", "7"), seat=0)
    assert info.value.rule == "GD-4.2" and "equal is not enough" in info.value.message


def test_gd_4_2_lower_pair_message_names_both_plays():
    with pytest.raises(RuleViolation) as info:
        check_beats(classify("7S 7D", "2"), classify("9S 9C", "2"), seat=2)
    assert info.value.message == ("seat 2 plays a pair of 7s, which does not beat a pair of 9s on the "
                                  "table: its key must be higher; equal is not enough (GD-4.2)")


def test_gd_4_2_non_bomb_never_beats_a_bomb():
    with pytest.raises(RuleViolation) as info:
        check_beats(classify("BJ BJ", "7"), classify("2S 2D 2C 2H", "7"))
    assert info.value.rule == "GD-4.2" and "only a higher bomb" in info.value.message


def test_gd_4_2_level_single_beats_ace_and_jokers_beat_level():
    assert beats(classify("7D", "7"), classify("AS", "7"))
    assert beats(classify("SJ", "7"), classify("7D", "7"))
    assert beats(classify("BJ", "7"), classify("SJ", "7"))
