"""The irregular hands and conduct penalties of MJS-9 and MJS-10, each with its exact points, the
bars they bring, and the draw settlement of a barred or 相公 player."""
from dataclasses import replace

import pytest
from mjs_states import MJS, act, arranged, paid, payments, playing, settle, violated

from rules.mahjong.hand import KongRecord
from rules.mahjong.sichuan import draw_checks, ledger, totals

READY_7S = "1m 2m 3m 4m 5m 6m 7s 8s 9s 5s 6s 2s 2s"
READY_4P = "1m 1m 2m 2m 3m 3m 5m 5m 7m 7m 9m 9m 4p"     # Ex 9: seven pairs on 4p, worth 8


def middle(won=()):
    return arranged({}, voids="mmmm", turn=0, won=won)


def test_mjs_9_1_wrong_tile_count_cannot_win_and_settles_as_not_ready():
    state = arranged({0: (READY_4P, ""), 1: ("1m 2m 3m 4m 5m 6m 7m 8m 9m 2p 3p 4p 9p", "")},
                     voids="ssss", turn=0, kongs=(KongRecord(1, "concealed", "6p", (0, 2, 3)),),
                     wall_count=0)
    state = act(state, "WrongTileCount", 1)
    assert state.barred[1] == "MJS-9.1"
    assert [p for p in payments(state) if p[3] == "penalty"] == []     # no points by itself
    state = act(state, "DrawGame")
    check = {c.seat: c.status for c in draw_checks(state)}
    assert check[1] == "notReady"                         # 相公, though his tiles wait on 9p
    settlement = [p for p in payments(state) if p[3] in ("refund", "drawSettlement")]
    assert (1, 0, 4, "refund") in settlement and (1, 2, 4, "refund") in settlement
    assert (1, 0, 8, "drawSettlement") in settlement


def test_mjs_9_2_false_win_declared_by_the_referee_pays_32_to_each_player_still_in():
    state = act(middle(), "FalseWinDeclared", 1)
    assert paid(state) == (32, -96, 32, 32) and state.barred[1] == "MJS-9.2"
    assert [p.rule for p in ledger(state)] == ["MJS-9.2"] * 3


def test_mjs_9_2_record_mode_a_self_drawn_win_on_a_non_win_is_a_false_win():
    settings = replace(MJS, enforcement="record")
    state = playing({0: "9s"}, voids="mmmm", settings=settings)
    state = act(state, "Win", 0)                              # the dealer's 14 are no win
    assert state.phase == "discard" and state.turn == 0 and not state.wins
    assert paid(state) == (-96, 32, 32, 32)
    violated("MJS-9.2", state, "Win", 0)                      # barred now


def test_mjs_9_2_record_mode_a_win_claim_on_a_non_win_is_a_false_win_when_settled():
    settings = replace(MJS, enforcement="record")
    state = playing({0: "9p", 2: READY_7S}, voids="ssps", settings=settings)
    state = act(state, "TileDiscarded", 0, tile="9p")
    state = settle(act(state, "Claim", 2, kind="win"))       # seat 2 waits on 4s / 7s
    assert not state.wins and state.barred[2] == "MJS-9.2"
    assert paid(state) == (32, 32, -96, 32)


def test_mjs_10_2_first_offence_a_warning_second_the_right_to_win():
    state = act(middle(), "WarningIssued", 2, offence="earlyDraw")
    assert (state.warnings[2], state.barred[2], paid(state)) == (1, None, (0, 0, 0, 0))
    state = act(state, "WarningIssued", 2, offence="falseKong")
    assert (state.warnings[2], state.barred[2], paid(state)) == (1, "MJS-10.2", (0, 0, 0, 0))


def test_mjs_10_3_three_warnings_of_any_kind_in_a_hand_cost_10_once():
    state = middle()
    for offence in ("peek", "slow", "slow"):
        state = act(state, "WarningIssued", 3, offence=offence)
    assert paid(state) == (0, 0, 0, -10)
    assert payments(state) == [(3, None, 10, "penalty")]
    state = act(state, "WarningIssued", 3, offence="slow")   # a fourth: no second deduction
    assert paid(state) == (0, 0, 0, -10)
    transfers, deductions = totals(ledger(state))
    assert sum(transfers) == 0 and deductions == (0, 0, 0, -10)


def test_mjs_10_4_disclosing_ones_own_hand_costs_20_deducted():
    state = act(middle(), "ConductPenaltyAssessed", 0, offence="ownHand")
    assert paid(state) == (-20, 0, 0, 0) and state.barred[0] is None
    assert ledger(state)[0].rule == "MJS-10.4" and ledger(state)[0].payee is None


def test_mjs_10_5_naming_another_players_hand_pays_him_30_and_bars_the_win():
    state = act(middle(), "ConductPenaltyAssessed", 0, offence="otherHand", victim=2)
    assert paid(state) == (-30, 0, 30, 0) and state.barred[0] == "MJS-10.5"
    each = replace(middle(), settings=replace(MJS, disclosurePayee="eachOther"))
    each = act(each, "ConductPenaltyAssessed", 0, offence="otherHand", victim=2)
    assert paid(each) == (-90, 30, 30, 30)
    violated("MJS-10.5", middle(), "ConductPenaltyAssessed", 0, offence="otherHand", victim=0)
    violated("MJS-10.5", middle(), "ConductPenaltyAssessed", 0, offence="otherHand")


@pytest.mark.parametrize("event, data", [
    ("WarningIssued", {"offence": "slow"}), ("WrongTileCount", {}),
    ("ConductPenaltyAssessed", {"offence": "ownHand"}), ("FalseWinDeclared", {})])
def test_no_penalty_at_the_table_once_the_hand_is_over(event, data):
    over = replace(middle(), phase="over", result="draw")
    assert "committee" in violated("MJS-11", over, event, 1, **data).message


def test_a_warning_names_an_offence_of_the_rules():
    violated("MJS-10.2", middle(), "WarningIssued", 1, offence="talking")


def test_a_player_barred_while_ready_pays_at_the_draw_like_one_not_ready():
    state = arranged({0: (READY_4P, ""), 2: (READY_4P.replace("4p", "6p"), "")},
                     voids="ssss", turn=0, wall_count=0)
    state = act(state, "ConductPenaltyAssessed", 2, offence="otherHand", victim=1)
    state = act(state, "DrawGame")
    statuses = {c.seat: c.status for c in draw_checks(state)}
    assert statuses[2] == "notReady" and statuses[0] == "ready"
    assert (2, 0, 8, "drawSettlement") in payments(state)
