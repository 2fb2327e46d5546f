"""Following (SJ2-9): Ex 3, the follow-class, tractor and pair rules, and a property test that the
bot helpers only produce legal moves."""
import random
from collections import Counter

import pytest

from rules.shengji.cards import SUITS, Trump, deck, missing_cards
from rules.shengji.combos import check_lead, decompose, judge_throw
from rules.shengji.following import check_follow
from rules.shengji.random_moves import random_follow, random_lead
from rules.shengji.winning import trick_winner
from rules.violations import RuleViolation

L4S = Trump("4", "S")
EX3_LEAD = ("QH", "QH", "JH", "JH")


def cards(text):
    return tuple(text.split())


def violation(lead, hand, play, trump=L4S, player="seat 1"):
    with pytest.raises(RuleViolation) as caught:
        check_follow(cards(lead), cards(hand), cards(play), trump, player)
    return caught.value


# --- Ex 3 -----------------------------------------------------------------------------------

SEAT1 = "9H 9H 8H 8H 6H 2H AS 3C 3C KD"
SEAT2 = "KH KH 7H 3H 2H 6S 6S 9S TS"
SEAT3 = "5H 6S 6S 9S 5S 5S AC"


def test_sj2_ex3_seat1_plays_the_tractor():
    check_follow(EX3_LEAD, cards(SEAT1), cards("9H 9H 8H 8H"), L4S, "seat 1")
    check_follow(EX3_LEAD, cards(SEAT1), cards("8H 9H 8H 9H"), L4S, "seat 1")  # order is free


def test_sj2_ex3_seat1_must_play_tractor_9_4():
    error = violation("QH QH JH JH", SEAT1, "9H 9H 6H 2H")
    assert error.rule == "SJ2-9.4"  # the tractor rule is reported before the pair rule
    assert "seat 1 holds the tractor 9H 9H 8H 8H" in error.message
    assert "QH QH JH JH" in error.message and "(SJ2-9.4)" in error.message


def test_sj2_ex3_seat1_two_singles_break_the_tractor_9_4():
    assert violation("QH QH JH JH", SEAT1, "9H 8H 6H 2H").rule == "SJ2-9.4"


@pytest.mark.parametrize("play", ["KH KH 7H 3H", "KH KH 3H 2H", "KH KH 7H 2H", "2H KH 7H KH"])
def test_sj2_ex3_seat2_plays_his_pair_and_any_two(play):
    check_follow(EX3_LEAD, cards(SEAT2), cards(play), L4S, "seat 2")


def test_sj2_ex3_seat2_must_play_his_pair_9_3():
    error = violation("QH QH JH JH", SEAT2, "KH 7H 3H 2H", player="seat 2")
    assert error.rule == "SJ2-9.3"
    assert "seat 2 holds 1 pair in hearts (KH KH)" in error.message
    assert "at least 1 pair" in error.message


def test_sj2_ex3_seat2_must_stay_in_hearts_9_2():
    assert violation("QH QH JH JH", SEAT2, "KH KH 7H 6S").rule == "SJ2-9.2"


def test_sj2_ex3_seat3_plays_his_heart_and_any_three():
    check_follow(EX3_LEAD, cards(SEAT3), cards("5H 6S 6S 9S"), L4S, "seat 3")
    check_follow(EX3_LEAD, cards(SEAT3), cards("5H 5S 5S AC"), L4S, "seat 3")


def test_sj2_ex3_seat3_must_play_his_only_heart_9_2():
    error = violation("QH QH JH JH", SEAT3, "6S 6S 9S 5S", player="seat 3")
    assert error.rule == "SJ2-9.2"
    assert "5H" in error.message and "must play all" in error.message


def test_sj2_ex3_variant_void_seat3_may_trump():
    check_follow(EX3_LEAD, cards("6S 6S 5S 5S 9S TS AC"), cards("6S 6S 5S 5S"), L4S, "seat 3")
    check_follow(EX3_LEAD, cards("6S 6S 5S 5S 9S TS AC"), cards("6S 6S 9S TS"), L4S, "seat 3")


# --- SJ2-9.1 / 9.2 --------------------------------------------------------------------------

def test_sj2_9_1_exactly_as_many_cards_as_led():
    error = violation("QH QH JH JH", SEAT2, "KH KH 7H")
    assert error.rule == "SJ2-9.1" and "exactly 4 cards" in error.message
    assert violation("AH", SEAT2, "KH KH").rule == "SJ2-9.1"


def test_sj2_9_2_exactly_n_of_the_class_plays_them_all():
    check_follow(cards("AD AD"), cards("KD 3D 5S"), cards("KD 3D"), L4S)
    assert violation("AD AD", "KD 3D 5S", "KD 5S").rule == "SJ2-9.2"


def test_sj2_9_2_void_player_plays_anything():
    check_follow(cards("AD"), cards("BJ 5S AH"), cards("AH"), L4S)
    check_follow(cards("AD"), cards("BJ 5S AH"), cards("BJ"), L4S)


def test_sj2_9_2_trump_lead_is_followed_with_trumps_including_level_cards_and_jokers():
    check_follow(cards("AS"), cards("4H 2C"), cards("4H"), L4S)
    assert violation("AS", "4H 2C", "2C").rule == "SJ2-9.2"
    check_follow(cards("BJ"), cards("SJ AH"), cards("SJ"), Trump("4", None))
    assert violation("4C", "SJ AH", "AH", trump=Trump("4", None)).rule == "SJ2-9.2"


def test_sj2_9_2_single_lead_has_no_pair_requirement():
    check_follow(cards("AH"), cards("KH KH 2H"), cards("2H"), L4S)


# --- SJ2-9.3 pairs --------------------------------------------------------------------------

def test_sj2_9_3_pair_lead_must_be_followed_by_a_pair_even_from_a_tractor():
    hand = "KH KH QH QH 2H 5S"
    check_follow(cards("AH AH"), cards(hand), cards("QH QH"), L4S)
    assert violation("AH AH", hand, "KH QH").rule == "SJ2-9.3"


def test_sj2_9_3_level_card_pairs_of_other_suits_are_pairs():
    check_follow(cards("AS AS"), cards("4H 4H 4D 2S"), cards("4H 4H"), L4S)
    error = violation("AS AS", "4H 4H 4D 2S", "4H 4D")
    assert error.rule == "SJ2-9.3" and "4H 4H" in error.message


def test_sj2_9_3_tractor_lead_without_follower_tractor_needs_pairs():
    hand = "AH AH 9H 9H 6H 5H"  # pairs at 12 and 7: no tractor
    check_follow(EX3_LEAD, cards(hand), cards("AH AH 9H 9H"), L4S)
    error = violation("QH QH JH JH", hand, "AH AH 6H 5H")
    assert error.rule == "SJ2-9.3" and "at least 2 pairs" in error.message


def test_sj2_9_3_throw_of_pair_and_singles_needs_min_pairs():
    lead = "AD AD KD QD"                    # P = 1
    check_follow(cards(lead), cards("JD JD TD 9D 2D"), cards("JD JD TD 2D"), L4S)
    assert violation(lead, "JD JD TD 9D 2D", "JD TD 9D 2D").rule == "SJ2-9.3"


# --- SJ2-9.4 tractors -----------------------------------------------------------------------

def test_sj2_9_4_longer_follower_tractor_gives_any_run_of_the_led_length():
    lead = "8H 8H 7H 7H"                     # pos 6-5
    hand = "KH KH QH QH JH JH 2H 5S"         # 3-tractor 11-10-9
    for play in ("KH KH QH QH", "QH QH JH JH", "JH QH JH QH"):
        check_follow(cards(lead), cards(hand), cards(play), L4S)
    error = violation(lead, hand, "KH KH JH JH")     # two pairs, but not consecutive
    assert error.rule == "SJ2-9.4" and "a tractor of 2 pairs" in error.message


def test_sj2_9_4_shorter_follower_tractor_is_played_whole():
    lead = "AH AH KH KH QH QH"               # 3-tractor
    hand = "9H 9H 8H 8H 5H 3H 3H 2H"         # 2-tractor 7-6 and pair 3H (pos 2)
    check_follow(cards(lead), cards(hand), cards("9H 9H 8H 8H 3H 3H"), L4S)
    check_follow(cards(lead), cards("9H 9H 8H 8H 5H 2H 2C"), cards("9H 9H 8H 8H 5H 2H"), L4S)
    error = violation(lead, hand, "9H 9H 3H 3H 8H 5H")
    assert error.rule == "SJ2-9.4" and "9H 9H 8H 8H" in error.message


def test_sj2_9_4_trump_tractor_through_level_cards():
    lead = "SJ SJ BJ BJ"                     # 16-15
    hand = "4H 4H AS AS 4D 4D 2S"            # 13-12 tractor; 4D 4D could not pair with 4H 4H
    check_follow(cards(lead), cards(hand), cards("4H 4H AS AS"), L4S)
    check_follow(cards(lead), cards(hand), cards("4D 4D AS AS"), L4S)
    error = violation(lead, hand, "4H 4H 4D 4D")
    assert error.rule == "SJ2-9.4" and "AS AS" in error.message


def test_sj2_9_4_two_led_tractors_need_two_disjoint_tractors():
    lead = "AH AH KH KH QH QH 9H 9H 8H 8H"         # 3-tractor 12-10 + 2-tractor 7-6
    hand = "JH JH TH TH 7H 7H 6H 6H 5H 5H 2H 2H"   # runs 9-8 and 5-4-3, pair at 1
    check_follow(cards(lead), cards(hand), cards("JH JH TH TH 7H 7H 6H 6H 5H 5H"), L4S)
    error = violation(lead, hand, "2H 2H JH JH TH TH 7H 7H 6H 6H")   # five pairs, no 3-tractor
    assert error.rule == "SJ2-9.4"
    assert "tractors 7H 7H 6H 6H 5H 5H and JH JH TH TH" in error.message
    assert "tractors of 3 and 2 pairs" in error.message


def test_sj2_9_4_second_tractor_only_from_cards_not_used_by_the_first():
    lead = "AH AH KH KH QH QH 9H 9H 8H 8H"         # 3-tractor + 2-tractor
    hand = "7H 7H 6H 6H 5H 5H 3H 3H JH TH 2H 2C"   # one 4-run 5..2: a 3-tractor, then one pair
    check_follow(cards(lead), cards(hand), cards("7H 7H 6H 6H 5H 5H 3H 3H JH TH"), L4S)
    check_follow(cards(lead), cards(hand), cards("6H 6H 5H 5H 3H 3H 7H 7H 2H JH"), L4S)
    error = violation(lead, hand, "7H 7H 6H 6H 5H 3H 3H JH TH 2H")
    assert error.rule == "SJ2-9.4" and "a tractor of 3 pairs" in error.message


def test_sj2_9_4_requirement_is_checked_before_9_3_and_after_9_2():
    assert violation("QH QH JH JH", SEAT1, "9H 9H 8H AS").rule == "SJ2-9.2"


# --- property: the bot helpers make legal moves ---------------------------------------------

def oracle_is_legal(lead, hand, play, trump):
    """SJ2-9 restated independently for a one-component lead (Ex 3 wording)."""
    cls = trump.card_class(lead[0])
    own = [card for card in hand if trump.card_class(card) == cls]
    if len(play) != len(lead):
        return False
    if len(own) <= len(lead):
        return not missing_cards(play, own)
    if any(trump.card_class(card) != cls for card in play):
        return False

    def pairs(cs):
        return sum(n // 2 for n in Counter(cs).values())

    def longest(cs):
        positions = {trump.pos(card) for card, n in Counter(cs).items() if n >= 2}
        best = 0
        for low in positions - {p + 1 for p in positions}:
            run = 1
            while low + run in positions:
                run += 1
            best = max(best, run)
        return best

    led_pairs = pairs(lead)
    if led_pairs >= 2:
        held = longest(own)
        if held >= 2 and longest(play) < min(led_pairs, held):
            return False
    return pairs(play) >= min(led_pairs, pairs(own))


def deal(rng, pair_rich=False):
    """Four hands of 25 from two decks; ``pair_rich`` keeps most identical cards together so that
    pairs and tractors (and the SJ2-9.3/9.4 requirements) are common."""
    cards_ = list(deck(2).elements())
    rng.shuffle(cards_)
    if pair_rich:
        units = [[card, card] if rng.random() < 0.85 else [card] for card in sorted(set(cards_))]
        units += [[card] for unit in units if len(unit) == 1 for card in unit]
        rng.shuffle(units)
        cards_ = [card for unit in units for card in unit]
    hands = [tuple(cards_[25 * i:25 * (i + 1)]) for i in range(4)]
    trump = Trump(rng.choice("23456789TJQKA"), rng.choice(list(SUITS) + [None]))
    return hands, trump


def random_throw(hand, trump, rng):
    groups = {}
    for card in hand:
        groups.setdefault(trump.card_class(card), []).append(card)
    components = decompose(groups[rng.choice(sorted(groups))], trump)
    chosen = rng.sample(components, rng.randint(1, len(components)))
    return tuple(card for comp in chosen for card in comp.cards)


@pytest.mark.parametrize("pair_rich", [False, True], ids=["shuffled", "pair-rich"])
def test_sj2_9_random_follow_always_passes_check_follow(pair_rich):
    """300 seeded deals: random_follow satisfies check_follow; for one-component leads
    check_follow agrees with an independent restatement of SJ2-9 on random candidate plays."""
    rng = random.Random(20061223 + pair_rich)
    checked = disagreements = 0
    for _ in range(300):
        hands, trump = deal(rng, pair_rich)
        leader = rng.randrange(4)
        mode = rng.choice(["bot", "bot", "tractor", "throw"])
        throw = mode == "throw"
        lead = {"bot": random_lead, "tractor": largest_component, "throw": random_throw}[mode](
            hands[leader], trump, rng)
        check_lead(lead, trump)
        assert not missing_cards(hands[leader], lead)
        if not throw:
            assert len(decompose(lead, trump)) == 1
        plays = [lead]
        for step in range(1, 4):
            hand = hands[(leader + step) % 4]
            play = random_follow(lead, hand, trump, rng)
            assert not missing_cards(hand, play)
            check_follow(lead, hand, play, trump, f"seat {(leader + step) % 4}")
            plays.append(play)
            if not throw:
                assert oracle_is_legal(lead, hand, play, trump)
                for candidate in candidates(lead, hand, trump, rng):
                    checked += 1
                    try:
                        check_follow(lead, hand, candidate, trump)
                        accepted = True
                    except RuleViolation:
                        accepted = False
                    disagreements += accepted != oracle_is_legal(lead, hand, candidate, trump)
        winner = trick_winner(plays, trump)
        assert 0 <= winner < 4
        classes = {trump.card_class(card) for card in plays[winner]}
        assert classes in ({trump.card_class(lead[0])}, {"trump"})
        judge_throw(lead, trump, [hands[(leader + 1) % 4], hands[(leader + 3) % 4]])
    assert disagreements == 0
    assert checked > 1000


def largest_component(hand, trump, rng):
    """The leader's longest tractor (else a pair, else a single), so that tractor leads are common."""
    components = [comp for group in {trump.card_class(c) for c in hand}
                  for comp in decompose([c for c in hand if trump.card_class(c) == group], trump)]
    best = max(comp.priority for comp in components)
    return rng.choice([comp for comp in components if comp.priority == best]).cards


def candidates(lead, hand, trump, rng):
    """A few random plays of the right size: from the whole hand, from the led class, and from the
    led class's pairs first (to meet the pair rule while often missing the tractor rule)."""
    cls = trump.card_class(lead[0])
    own = [card for card in hand if trump.card_class(card) == cls]
    n = len(lead)
    yield tuple(rng.sample(hand, n))
    if len(own) >= n:
        yield tuple(rng.sample(own, n))
        pairs = [card for card, count in Counter(own).items() if count >= 2]
        rng.shuffle(pairs)
        play = [card for card in pairs[:n // 2] for _ in (1, 2)]
        rest = list(own)
        for card in play:
            rest.remove(card)
        yield tuple(play + rng.sample(rest, n - len(play)))
