"""Winning the trick (SJ2-3.5, 3.6, 10.1–10.3): Ex 1, Ex 3, equal cards, throws against throws."""
from rules.shengji.cards import Trump
from rules.shengji.winning import trick_winner

L4S = Trump("4", "S")
L7H = Trump("7", "H")


def winner(trump, *plays):
    return trick_winner([tuple(play.split()) for play in plays], trump)


# --- Ex 1 -----------------------------------------------------------------------------------

def test_sj2_ex1_trump_beats_plain_and_higher_trump_beats_trump():
    # seat 1 leads KS; seat 2 3S; seat 3 4H (trump 3); seat 0 7C (trump 13) -> seat 0, index 3
    assert winner(L7H, "KS", "3S", "4H", "7C") == 3
    assert winner(L7H, "KS", "3S", "4H") == 2


def test_sj2_ex1_equal_level_cards_earlier_stays_then_higher_beats():
    # seat 0 leads 7D; seat 1 7S (equal 13, later: no); seat 2 7H (14); seat 3 SJ (15) -> seat 3
    assert winner(L7H, "7D", "7S") == 0
    assert winner(L7H, "7D", "7S", "7H") == 2
    assert winner(L7H, "7D", "7S", "7H", "SJ") == 3


# --- Ex 3 -----------------------------------------------------------------------------------

def test_sj2_ex3_no_follow_beats_the_led_tractor():
    assert winner(L4S, "QH QH JH JH", "9H 9H 8H 8H", "KH KH 7H 3H", "5H 6S 6S 9S") == 0


def test_sj2_ex3_variant_trump_tractor_wins():
    assert winner(L4S, "QH QH JH JH", "9H 9H 8H 8H", "KH KH 7H 3H", "6S 6S 5S 5S") == 3


def test_sj2_ex3_variant_trump_pair_and_singles_cannot_win():
    assert winner(L4S, "QH QH JH JH", "9H 9H 8H 8H", "KH KH 7H 3H", "6S 6S 9S TS") == 0


# --- SJ2-3.5 / 3.6 --------------------------------------------------------------------------

def test_sj2_3_5_identical_cards_the_earlier_wins():
    assert winner(L4S, "KH", "KH", "2H", "3H") == 0
    assert winner(L4S, "QH", "KH", "KH", "AH") == 3
    assert winner(L4S, "QH", "KH", "KH", "2H") == 1
    assert winner(L4S, "QH QH", "KH KH", "5S 5S", "5S 5S") == 2


def test_sj2_3_6_other_plain_suit_never_wins():
    assert winner(L4S, "2H", "AD", "AC", "KH") == 3
    assert winner(L4S, "2H", "AD", "AC", "3D") == 0


def test_trump_lead_higher_trump_wins_plain_cannot():
    assert winner(L4S, "AS", "4D", "4H", "AH") == 1
    assert winner(L4S, "4C", "4S", "BJ", "SJ") == 2


def test_no_trump_hand_level_cards_and_jokers():
    nt = Trump("4", None)
    assert winner(nt, "AS", "4H", "KS", "SJ") == 3
    assert winner(nt, "4D", "4H", "4S", "AS") == 0
    assert winner(nt, "4D 4D", "SJ SJ", "BJ BJ", "AD AD") == 2
    assert winner(nt, "AS AS KS KS", "4H 4H SJ SJ", "4C 4C 4D 4D", "QS QS JS JS") == 1


# --- SJ2-10.1 shape ---------------------------------------------------------------------------

def test_sj2_10_1_mixed_play_cannot_win():
    assert winner(L4S, "2H", "BJ") == 1
    assert winner(L4S, "2H 2H", "BJ AH") == 0


def test_sj2_10_1_pair_lead_needs_a_pair():
    assert winner(L4S, "2H 2H", "BJ SJ", "AH KH", "3S 3S") == 3
    assert winner(L4S, "2H 2H", "3H 3H") == 1


def test_sj2_10_1_unconnected_pairs_cannot_stand_for_a_tractor():
    assert winner(L4S, "KD KD QD QD", "AS AS 9S 9S") == 0
    assert winner(L4S, "KD KD QD QD", "4H 4H 4D 4D") == 0        # two 副级牌 pairs: same pos
    assert winner(L4S, "KD KD QD QD", "4H 4H AS AS") == 1


def test_sj2_10_1_tractor_serves_as_pairs_and_pair_as_singles():
    assert winner(L4S, "AD AD 9D 9D", "6S 6S 5S 5S") == 1        # tractor as two pairs
    assert winner(L4S, "AD KD", "3S 3S") == 1                     # pair as two singles
    assert winner(L4S, "AD AD KD", "3S 3S 2S") == 1


def test_sj2_10_3_trump_throw_beats_plain_throw_only_with_matching_shape():
    lead = "AD AD KD"                                   # throw: pair + single
    assert winner(L4S, lead, "3S 5S 2S") == 0           # three singles: wrong shape
    assert winner(L4S, lead, "3S 3S 2S") == 1           # pair + single
    assert winner(L4S, lead, "3S 3S 2S", "7S 7S 5S") == 2  # higher key pair
    assert winner(L4S, lead, "3S 3S 2S", "5S 5S 2S") == 2
    assert winner(L4S, lead, "7S 7S 2S", "5S 5S BJ") == 1  # key is the pair, not the single
    assert winner(L4S, lead, "7S 7S 2S", "7S 7S 3S") == 1  # equal key: earlier stays


def test_sj2_10_2_key_component_of_a_throw_is_its_longest_tractor():
    lead = "AD AD KD KD 2D 2D"                          # tractor 12-11 + pair 1
    assert winner(L4S, lead, "3S 3S 2S 2S AS AS") == 1   # trump tractor 2-1 + pair 12
    assert winner(L4S, lead, "3S 3S 2S 2S AS AS", "6S 6S 5S 5S 7S 7S") == 2
    assert winner(L4S, lead, "6S 6S 5S 5S 7S 7S", "3S 3S 2S 2S AS AS") == 1
    # 7S 6S 5S is a 3-tractor (5-4-3); arranged as tractor 5-4 + pair 3, its key top is 5
    assert winner(L4S, lead, "7S 7S 6S 6S 5S 5S", "BJ BJ 3S 3S 2S 2S") == 1   # BJ pair is not the key


def test_sj2_10_1_longer_tractor_lead_needs_as_long_a_tractor():
    lead = "AD AD KD KD QD QD"
    assert winner(L4S, lead, "6S 6S 5S 5S 2S 2S") == 0
    assert winner(L4S, lead, "6S 6S 5S 5S 3S 3S") == 1
