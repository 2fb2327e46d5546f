"""rules/mahjong/mjo.py against MJO-7 (worked examples 6 to 10), MJO-2.2, MJO-4.4 (several
winners), MJO-6.2, MJO section 11 (settings) and tournaments.md T-8 (Ex 8 ranking)."""
from dataclasses import replace

import pytest
from mj_states import act, draw_discard, settle, table

from rules import RuleViolation
from rules.mahjong import MJO, apply, mjo_settings
from rules.mahjong.mjo import (
    complete_hand,
    hand_outcome,
    hand_payments,
    rank_by_coins,
    session_over,
    start_session,
    win_payments,
)

WAITING_5M = "1m 2m 3m 4p 5p 6p 7s 8s 9s C C C 5m"


def claim_win(state, seat):
    return apply(act(state, "Claim", seat, kind="win"), "ClaimsResolved", {"timedOut": True})


def test_mjo_7_1_every_player_starts_with_twenty_coins():
    session = start_session(MJO, first_dealer=0)
    assert session.balances == (20, 20, 20, 20) and session.dealer == 0 and session.hand_no == 1
    assert start_session(mjo_settings({"startingCoins": 50}), 3).balances == (50,) * 4


def test_mjo_ex6_dealer_wins_on_a_discard():
    state = table({0: WAITING_5M + " N", 2: "5m"}, wall="W W")
    state = act(state, "TileDiscarded", 0, tile="N")
    state = draw_discard(state)                     # seat 1
    state = draw_discard(state, tile="5m")          # seat 2 discards 5m
    state = claim_win(state, 0)
    assert state.wins[0].from_seat == 2
    assert hand_payments(state) == (8, -2, -4, -2)
    session = complete_hand(start_session(MJO, 0), state)
    assert session.balances == (28, 18, 16, 18)
    assert session.dealer == 0                      # seat 0 deals again


def test_mjo_ex7_dealer_self_draw():
    state = table({0: WAITING_5M + " N"}, wall="S W E 5m")
    state = act(state, "TileDiscarded", 0, tile="N")
    for _ in range(3):
        state = draw_discard(state)
    state = act(act(settle(state), "TileDrawn", 0, tile="5m"), "Win", 0)
    assert hand_payments(state) == (12, -4, -4, -4)
    session = complete_hand(start_session(MJO, 0), state)
    assert session.balances == (32, 16, 16, 16) and session.dealer == 0


def test_mjo_ex8_non_dealer_wins_on_the_dealers_discard():
    state = table({0: "5m", 2: WAITING_5M})
    state = claim_win(act(state, "TileDiscarded", 0, tile="5m"), 2)
    assert hand_payments(state) == (-2, -1, 4, -1)   # the dealer pays 2, not more as discarder
    outcome = hand_outcome(start_session(MJO, 0), state)
    assert outcome.next_dealer == 1 and outcome.balances == (18, 19, 24, 19)
    assert outcome.to_dict()["payments"] == {"0": -2, "1": -1, "2": 4, "3": -1}


def test_mjo_ex8_the_discarder_pays_no_extra():
    assert win_payments(dealer=0, winner=1, discarder=3) == (-2, 4, -1, -1)


def test_mjo_ex9_non_dealer_self_draw():
    assert win_payments(dealer=0, winner=3, discarder=None) == (-4, -2, -2, 8)


def test_mjo_ex10_negative_balance_is_a_bank_loan():
    session = replace(start_session(MJO, 0), balances=(20, 20, 1, 20))
    state = act(table({0: "1m 2m 3m 4p 5p 6p 7s 8s 9s C C C 5m 5m"}), "Win", 0)
    session = complete_hand(session, state)
    assert session.balances == (32, 16, -3, 16)
    assert session.hand_no == 2 and session.dealer == 0     # play goes on


@pytest.mark.parametrize("dealer,winner,discarder,gain", [
    (0, 0, 2, 8), (0, 0, None, 12), (0, 2, 0, 4), (0, 2, 1, 4), (0, 2, None, 8),
    (3, 3, 1, 8), (3, 1, 3, 4)])
def test_mjo_7_2_the_payment_table(dealer, winner, discarder, gain):
    deltas = win_payments(dealer, winner, discarder)
    assert deltas[winner] == gain and sum(deltas) == 0
    for seat in range(4):
        if seat == winner:
            continue
        if winner == dealer:
            assert -deltas[seat] == (4 if discarder in (None, seat) else 2)
        elif discarder is None:
            assert -deltas[seat] == (4 if seat == dealer else 2)
        else:
            assert -deltas[seat] == (2 if seat == dealer else 1)


def test_mjo_4_4_all_winners_each_win_settled_on_its_own():
    settings = replace(MJO, multipleWinners="all")
    state = table({0: "5m E", 1: WAITING_5M.replace("C C C", "F F F"),
                   3: WAITING_5M.replace("C C C", "P P P").replace("1m 2m 3m", "4m 5m 6m")},
                  settings=settings)
    state = act(state, "TileDiscarded", 0, tile="5m")
    state = apply(act(act(state, "Claim", 1, kind="win"), "Claim", 3, kind="win"),
                  "ClaimsResolved", {"timedOut": True})
    # seat 1's win: 0 pays 2, 2 and 3 pay 1; seat 3's win: 0 pays 2, 1 and 2 pay 1
    assert hand_payments(state) == (-4, 3, -2, 3)
    assert hand_outcome(start_session(settings, 0), state).next_dealer == 1


def test_mjo_4_4_all_winners_the_dealer_among_them_keeps_the_deal():
    settings = replace(MJO, multipleWinners="all")
    state = table({2: "5m E", 0: WAITING_5M.replace("C C C", "F F F") + " N",
                   3: WAITING_5M.replace("C C C", "P P P").replace("1m 2m 3m", "4m 5m 6m")},
                  wall="W W", settings=settings)
    state = draw_discard(act(state, "TileDiscarded", 0, tile="N"))      # seat 1
    state = draw_discard(state, tile="5m")                              # seat 2 discards 5m
    state = apply(act(act(state, "Claim", 0, kind="win"), "Claim", 3, kind="win"),
                  "ClaimsResolved", {"timedOut": True})
    assert state.winners == (3, 0)
    assert hand_payments(state) == (8 - 2, -2 - 1, -4 - 1, -2 + 4)
    assert hand_outcome(start_session(settings, 0), state).next_dealer == 0


def test_mjo_6_2_a_drawn_hand_pays_nothing_and_the_deal_passes():
    state = replace(table({}, dealer=3), phase="over", result="draw")
    session = complete_hand(start_session(MJO, 3), state)
    assert session.balances == (20,) * 4 and session.dealer == 0
    assert session.outcomes[-1].result == "draw"


def test_mjo_7_2_nothing_is_paid_before_the_hand_is_over():
    with pytest.raises(RuleViolation) as info:
        hand_payments(table({}))
    assert info.value.rule == "MJO-7.2"


def test_mjo_2_2_the_hand_must_be_dealt_by_the_sessions_dealer():
    with pytest.raises(RuleViolation) as info:
        hand_outcome(start_session(MJO, 1), act(table({0: WAITING_5M + " 5m"}), "Win", 0))
    assert info.value.rule == "MJO-2.2"


def test_mjo_2_2_setting_dealer_repeats_on_win_off():
    settings = mjo_settings({"dealerRepeatsOnWin": False})
    state = act(table({0: WAITING_5M + " 5m"}, settings=settings), "Win", 0)
    assert complete_hand(start_session(settings, 0), state).dealer == 1


@pytest.mark.parametrize("raw", [{"kongs": True}, {"multipleWinners": "some"},
                                 {"startingCoins": "20"}, {"lastTileDiscard": 1},
                                 {"enforcement": "lenient"}, {"claimWindowSeconds": -1}])
def test_mjo_11_settings_are_checked(raw):
    with pytest.raises(RuleViolation) as info:
        mjo_settings(raw)
    assert info.value.rule == "MJO-11"


def test_mjo_11_defaults_and_overrides():
    assert mjo_settings({}) == MJO
    assert (MJO.startingCoins, MJO.multipleWinners, MJO.claimWindowSeconds, MJO.lastTileDiscard,
            MJO.dealerRepeatsOnWin, MJO.enforcement) == (20, "firstInTurn", 3, False, True,
                                                         "strict")
    assert not (MJO.kongs or MJO.sevenPairs) and MJO.pairRanks == {2, 5, 8}
    assert mjo_settings({"multipleWinners": "all", "sessionHands": 8}).multipleWinners == "all"


def test_t_8_2_the_session_ends_after_its_hands_or_its_time():
    settings = mjo_settings({"sessionHands": 2})
    session = start_session(settings, 0)
    hand = replace(table({}), phase="over", result="draw")
    assert not session_over(session)
    session = complete_hand(session, hand)
    assert not session_over(session)
    assert session_over(complete_hand(session, replace(hand, dealer=1)))
    timed = start_session(mjo_settings({"sessionMinutes": 90}), 0)
    assert not session_over(timed) and session_over(timed, time_limit_reached=True)


def test_t_8_ex8_ottawa_mahjong_ranking():
    balances = dict(zip("abcdefgh", (41, 33, 12, -6, 35, 20, 17, 8), strict=True))
    ranking = rank_by_coins(balances)
    assert [s.coins for s in ranking] == [41, 35, 33, 20, 17, 12, 8, -6]
    assert ranking[0].player == "a" and ranking[0].place == 1 and not ranking[0].tied


def test_t_8_3_ties_share_a_place_until_lots_are_drawn():
    ranking = rank_by_coins({"a": 30, "b": 25, "c": 25, "d": 0})
    assert [(s.place, s.tied) for s in ranking] == [(1, False), (2, True), (2, True), (4, False)]
    ranking = rank_by_coins({"a": 30, "b": 25, "c": 25, "d": 0}, lots=["c", "b"])
    assert [(s.player, s.place) for s in ranking] == [("a", 1), ("c", 2), ("b", 3), ("d", 4)]


def test_mjo_7_4_a_tables_ranking_by_coins():
    session = replace(start_session(MJO, 0), balances=(12, 31, -3, 40))
    balances = dict(zip(["东", "南", "西", "北"], session.balances, strict=True))
    assert [s.player for s in rank_by_coins(balances)] == ["北", "南", "东", "西"]
