"""rules/guandan/tribute.py and the tribute transitions of hand.py against guandan.md GD-7
(Ex 7, Ex 8)."""
import pytest

from rules import RuleViolation
from rules.guandan.cards import two_decks
from rules.guandan.hand import (
    apply,
    choose_tribute_assignment,
    deal,
    declare_anti_tribute,
    pass_turn,
    pay_tribute,
    play,
    return_tribute,
    start_hand,
)
from rules.guandan.procedure import stacked_deal
from rules.guandan.tribute import (
    TributePlan,
    first_leader,
    return_choices,
    tribute_choices,
    tribute_plan,
)


def dealt(previous_order, level, fixed, low=(), settings=None):
    """A later hand at ``level`` after ``previous_order``, dealt with ``fixed`` cards."""
    return deal(start_hand(level, previous_order, settings), stacked_deal(fixed, level, low))


def violated(rule, fn, *args):
    with pytest.raises(RuleViolation) as info:
        fn(*args)
    assert info.value.rule == rule
    return info.value


# --- GD-7.1 cases ----------------------------------------------------------------------------

@pytest.mark.parametrize("order,case,payers,receivers", [
    ((0, 2), "double", (1, 3), (0, 2)),
    ((1, 3), "double", (2, 0), (1, 3)),
    ((1, 0, 3, 2), "single", (2,), (1,)),
    ((1, 0, 3), "single", (2,), (1,)),
    ((1, 2, 0, 3), "partnerLast", (0,), (1,)),
])
def test_gd_7_1_tribute_case_from_the_previous_order(order, case, payers, receivers):
    plan = tribute_plan(order)
    assert (plan.case, plan.payers, plan.receivers) == (case, payers, receivers)


def test_gd_7_1_partner_last_setting():
    assert tribute_plan((1, 2, 0, 3), {"tributeWhenPartnerLast": "lastPays"}).payers == (3,)
    none = tribute_plan((1, 2, 0, 3), {"tributeWhenPartnerLast": "none"})
    assert none.case == "none" and first_leader(none, {}, "5") == 1


def test_gd_7_1_hand_1_has_no_tribute():
    assert tribute_plan(None) == TributePlan()


# --- Ex 7: double down -----------------------------------------------------------------------

def test_gd_ex7_double_down_tribute_assignment_returns_and_first_lead():
    h = dealt((0, 2), "8", {0: ["BJ", "KS"], 2: ["BJ", "AD"], 1: ["SJ"], 3: ["8C"]}, low=(3, 1))
    assert h.phase == "tribute"
    assert tribute_choices(h.hands[1], "8") == ("SJ",) and tribute_choices(h.hands[3], "8") == ("8C",)
    h = pay_tribute(pay_tribute(h, 3, "8C"), 1, "SJ")
    assert h.assigned == {1: 0, 3: 2} and h.phase == "return"
    assert "SJ" in h.hands[0] and "8C" in h.hands[2]
    h = return_tribute(h, 0, "KS")  # any card; hidden until both are in
    assert h.phase == "return" and "KS" not in h.hands[1] and h.returned == {0: "KS"}
    h = return_tribute(h, 2, "AD")
    assert h.phase == "play" and "KS" in h.hands[1] and "AD" in h.hands[3]
    assert h.first_leader == 1 and h.turn == 1
    assert [len(cards) for cards in h.hands] == [27, 27, 27, 27]


def test_gd_ex7_wildcards_are_excluded_so_seat_1_still_pays_the_small_joker():
    h = dealt((0, 2), "8", {0: ["BJ"], 2: ["BJ"], 1: ["8H", "8H", "SJ"], 3: ["8C"]}, low=(3, 1))
    assert tribute_choices(h.hands[1], "8") == ("SJ",)
    assert "never paid" in violated("GD-7.6", pay_tribute, h, 1, "8H").message


def equal_aces(settings=None):
    winners = {0: ["BJ", "BJ", "SJ", "SJ", "8S", "8S", "8D", "4C"], 2: ["8D", "8C", "8C", "3C"]}
    return dealt((0, 2), "8", {**winners, 1: ["AS"], 3: ["AD"]}, low=(3, 1), settings=settings)


def test_gd_ex7_equal_tributes_next_of_p1_gives_to_p1_and_leads():
    h = pay_tribute(pay_tribute(equal_aces(), 3, "AD"), 1, "AS")
    assert h.assigned == {1: 0, 3: 2}
    h = return_tribute(return_tribute(h, 2, "3C"), 0, "4C")
    assert h.turn == 1
    violated("GD-7.7", play, h, 3, ["2S"])


def test_gd_7_3_winners_choose_equal_tributes_when_the_setting_says_so():
    h = pay_tribute(pay_tribute(equal_aces({"equalTributeAssignment": "winnersChoose"}), 3, "AD"), 1, "AS")
    assert h.phase == "tribute" and not h.assigned
    assert "not a winner" in violated("GD-7.3", choose_tribute_assignment, h, 1, 3).message
    h = apply(h, "TributeAssigned", 0, {"toFirst": 3})
    assert h.assigned == {3: 0, 1: 2} and "AD" in h.hands[0]
    violated("GD-7.3", choose_tribute_assignment, h, 0, 1)


def test_gd_7_3_no_choice_is_taken_by_default():
    h = pay_tribute(pay_tribute(equal_aces(), 3, "AD"), 1, "AS")
    violated("GD-7.3", choose_tribute_assignment, h, 0, 3)


def test_gd_7_3_the_higher_tribute_goes_to_p1_whoever_pays_it():
    winners = {0: ["BJ", "BJ", "SJ", "2S"], 2: ["8S", "8S", "8D", "8D", "8C", "2D"]}
    h = dealt((0, 2), "8", {**winners, 1: ["KS"], 3: ["8C"]}, low=(1, 3))
    h = pay_tribute(pay_tribute(h, 1, "KS"), 3, "8C")
    assert h.assigned == {3: 0, 1: 2}
    h = return_tribute(return_tribute(h, 0, "2S"), 2, "2D")
    assert h.turn == 3  # the loser who paid the higher card leads


AUTO = {"antiTributeMode": "auto"}  # the spec's Interpretation; the seed's 「可抗贡」 is optional


def test_gd_ex7_one_big_joker_each_is_anti_tribute_and_p1_leads():
    h = dealt((0, 2), "8", {1: ["BJ"], 3: ["BJ"]}, settings=AUTO)
    assert h.phase == "play" and h.anti == (1, 3) and h.turn == 0
    assert "no tribute" in violated("GD-7.5", pay_tribute, h, 1, "BJ").message


def test_gd_ex7_one_loser_holding_both_big_jokers_is_anti_tribute_too():
    h = dealt((0, 2), "8", {3: ["BJ", "BJ"]}, settings=AUTO)
    assert h.anti == (3,) and h.turn == 0


def test_gd_7_5_by_default_anti_tribute_is_declared_even_after_the_partner_has_paid():
    h = dealt((0, 2), "8", {1: ["BJ"], 3: ["BJ"]})
    assert h.phase == "tribute" and not h.anti  # 「可抗贡」: the losers may
    h = pay_tribute(h, 1, "BJ")
    h = declare_anti_tribute(h, 3)
    assert h.phase == "play" and h.anti == (1, 3) and h.turn == 0 and not h.paid
    assert h.hands[1].count("BJ") == 1  # the tribute paid stays with its payer


def test_gd_ex7_both_small_jokers_and_one_big_joker_do_not_exempt():
    h = dealt((0, 2), "8", {1: ["SJ", "SJ", "BJ"], 0: ["BJ"]}, low=(3,))
    assert h.phase == "tribute" and not h.anti
    assert tribute_choices(h.hands[1], "8") == ("BJ",)
    assert "(BJ), not SJ" in violated("GD-7.2", pay_tribute, h, 1, "SJ").message


# --- Ex 8: single down and the P1-P4 case ----------------------------------------------------

def single_down(**kwargs):
    return dealt((1, 0, 3, 2), "5", {1: ["6D", "JD", "5D", "3S"], 2: ["BJ", "9C"]}, **kwargs)


def test_gd_ex8_last_pays_first_who_returns_ten_or_lower_and_last_leads():
    h = pay_tribute(single_down(), 2, "BJ")
    assert h.assigned == {2: 1} and h.phase == "return"
    allowed = return_choices(h.plan, h.hands[1], "BJ", "5")
    # seed 「10（含）以下的任意牌」: a level card (5D) too, not a J
    assert "6D" in allowed and "JD" not in allowed and "5D" in allowed
    assert "10 or lower" in violated("GD-7.4", return_tribute, h, 1, "JD").message
    h = return_tribute(h, 1, "6D")
    assert h.phase == "play" and h.turn == 2 and "6D" in h.hands[2] and "BJ" in h.hands[1]


def test_gd_ex8_last_holding_both_big_jokers_is_anti_tribute_and_first_leads():
    h = dealt((1, 0, 3, 2), "5", {2: ["BJ", "BJ"]}, settings=AUTO)
    assert h.anti == (2,) and h.turn == 1


def test_gd_ex8_partner_last_third_pays_first_and_leads():
    h = dealt((1, 2, 0, 3), "4", {1: ["3C"], 0: ["SJ"]}, low=(0,))
    assert h.plan.case == "partnerLast" and h.plan.payers == (0,)
    h = return_tribute(pay_tribute(h, 0, "SJ"), 1, "3C")
    assert h.turn == 0


# --- GD-7.1/7.2/7.4/7.5 rejections ------------------------------------------------------------

def test_gd_7_1_only_a_payer_pays_and_only_once():
    h = single_down()
    assert "pays no tribute" in violated("GD-7.1", pay_tribute, h, 3, "2S").message
    paid_first = dealt((0, 2), "8", {0: ["BJ", "BJ"], 1: ["SJ"], 3: ["SJ"]}, low=(1, 3))
    paid_first = pay_tribute(paid_first, 1, "SJ")
    assert "already paid" in violated("GD-7.1", pay_tribute, paid_first, 1, "SJ").message


def test_gd_7_2_the_tribute_must_be_the_highest_card_held():
    h = single_down()
    assert "highest card" in violated("GD-7.2", pay_tribute, h, 2, "9C").message
    assert "does not hold" in violated("GD-7.2", pay_tribute, dealt((1, 0, 3, 2), "5", {1: ["BJ", "BJ"]}),
                                       2, "BJ").message


def test_gd_7_6_a_heart_level_card_is_never_tribute():
    violated("GD-7.6", pay_tribute, dealt((1, 0, 3, 2), "5", {2: ["5H"]}), 2, "5H")


def test_gd_7_4_only_the_receiver_returns_and_not_before_the_tribute():
    h = single_down()
    violated("GD-7.4", return_tribute, h, 1, "6D")
    h = pay_tribute(h, 2, "BJ")
    assert "owes no return" in violated("GD-7.4", return_tribute, h, 0, "6D").message
    absent = next(card for card in sorted(two_decks()) if card not in h.hands[1])
    assert "does not hold" in violated("GD-7.4", return_tribute, h, 1, absent).message


def test_gd_7_4_the_tribute_card_itself_may_not_be_returned_under_the_spec_setting():
    plan, spec = tribute_plan((1, 0, 3, 2)), {"returnMayBeTributeCard": False}
    assert return_choices(plan, ["9S", "JD", "QD"], "9S", "5", spec) == ("JD",)
    assert return_choices(plan, ["9S", "9S", "JD"], "9S", "5", spec) == ("9S",)
    assert "9S" in return_choices(plan, ["9S", "JD"], "9S", "5")  # the seed: 任意牌, by default
    faces = [r + s for r in "JQK" for s in "SHDC"] * 2 + ["AS", "AD", "AC"]
    h = dealt((1, 0, 3, 2), "5", {2: ["9S"], 1: faces}, low=(2,), settings=spec)
    assert tribute_choices(h.hands[2], "5") == ("9S",)
    h = pay_tribute(h, 2, "9S")
    assert "tribute card just received" in violated("GD-7.4", return_tribute, h, 1, "9S").message


def test_gd_7_4_without_a_low_card_the_lowest_card_is_returned():
    plan = tribute_plan((1, 0, 3, 2))
    spec = {"returnSingle": "natural2to10NotLevel"}
    assert return_choices(plan, ["AS", "JD", "JC", "5S", "BJ"], "BJ", "5", spec) == ("JD", "JC")


def test_gd_7_4_return_single_setting_admits_level_cards():
    plan = tribute_plan((1, 0, 3, 2))
    assert "5D" in return_choices(plan, ["5D", "JD", "BJ"], "BJ", "5", {"returnSingle": "natural2to10"})


def test_gd_7_4_double_down_returns_any_card():
    plan = tribute_plan((0, 2))
    assert set(return_choices(plan, ["BJ", "AS", "3C"], "BJ", "5")) == {"BJ", "AS", "3C"}


def test_gd_7_5_optional_anti_tribute_is_declared_by_a_payer():
    optional = {"antiTributeMode": "optional"}
    h = dealt((1, 0, 3, 2), "5", {2: ["BJ", "BJ"]}, settings=optional)
    assert h.phase == "tribute"
    assert "cannot declare" in violated("GD-7.5", declare_anti_tribute, h, 1).message
    declared = apply(h, "AntiTributeDeclared", 2, {})
    assert declared.anti == (2,) and declared.turn == 1
    paid = pay_tribute(h, 2, "BJ")  # he may pay instead
    violated("GD-7.5", declare_anti_tribute, paid, 2)


def test_gd_7_5_anti_tribute_needs_both_big_jokers():
    h = dealt((1, 0, 3, 2), "5", {2: ["BJ"], 1: ["BJ"]}, settings={"antiTributeMode": "optional"})
    assert "both big jokers" in violated("GD-7.5", declare_anti_tribute, h, 2).message


def test_gd_7_7_first_lead_after_tribute_then_normal_turns():
    h = return_tribute(pay_tribute(single_down(), 2, "BJ"), 1, "6D")
    assert "seat 2's turn to lead" in violated("GD-7.7", play, h, 1, ["3S"]).message
    h = play(h, 2, ["6D"])
    assert h.turn == 3
    violated("GD-5.2", pass_turn, h, 0)
