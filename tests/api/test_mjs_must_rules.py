"""Every "must" rule of the Sichuan game through the HTTP API: 422 with the rule ID (and the rule
named in the detail), nothing stored — and the issue's bad input: a 换三张 of mixed suits, a void
suit changed after the first discard, a kong of a tile not held four times, a win claim after
passing the same tile, a payment posted by a client."""
from __future__ import annotations

import pytest
from clients import admin_client
from mjs_table import TID, Table, ex7_added_kong, opened, tournament
from tables import Clock, ok

from events.memory_store import InMemoryEventStore
from service import create_app

READY_7S = "1m 2m 3m 4m 5m 6m 7s 8s 9s 5s 6s 2s 2s"     # waits on 4s / 7s


def client(clock=None):
    store = InMemoryEventStore()
    if clock is not None:
        store.clock = clock
    return admin_client(create_app(store=store))


# --- the bad input ---------------------------------------------------------------------

def test_bad_input_an_exchange_of_mixed_suits_is_refused_mjs_2_1():
    table = Table(client(), final=True)
    table.deal({0: "1m 2m 4p"})
    detail = table.rejected("ExchangeTilesSelected", "MJS-2.1", seat=0,
                            tiles=["1m", "2m", "4p"])["detail"]
    assert "three tiles of one suit" in detail


def test_bad_input_a_void_suit_changed_after_the_first_discard_is_refused_mjs_2_2():
    table = opened(client())
    assert "stands" in table.rejected("VoidSuitDeclared", "MJS-2.2", seat=1, suit="p")["detail"]


def test_bad_input_a_kong_of_a_tile_not_held_four_times_is_refused_mjs_3_4():
    table = Table(client())
    table.deal({0: "6p 6p 6p 9s"})
    table.voids("mmmm")
    detail = table.rejected("KongDeclared", "MJS-3.4", seat=0, kind="concealed",
                            tile="6p")["detail"]
    assert "four 6p" in detail
    table.rejected("KongDeclared", "MJS-3.4", seat=0, kind="added", tile="6p")


def test_bad_input_a_win_claim_after_passing_the_same_tile_is_refused():
    # in the same window: the pass was his answer (MJS-3.3)
    table = opened(client(), {2: READY_7S, 3: "7s 7s"}, voids="mmps", first="7s", settle=False)
    table.ok("ClaimPassed", seat=2)
    table.rejected("Claim", "MJS-3.3", seat=2, kind="win")
    table.rejected("Win", "MJS-3.3", seat=2, selfDrawn=False, discarder=0, tile="7s")


def test_bad_input_passing_a_win_then_winning_on_the_next_discard_is_refused_mjs_5_6():
    waiting = "1m 2m 3m 4m 5m 6m 7m 8m 9m 9m 9m 4p 5p"        # waits on 3p / 6p (Ex 12)
    table = opened(client(), {0: "6p 6p", 2: waiting}, voids="sssm", wall="6p", first="3p")
    table.ok("TileDrawn", seat=1, tile="6p")
    table.ok("TileDiscarded", seat=1, tile="6p")
    assert "过水" in table.rejected("Claim", "MJS-5.6", seat=2, kind="win")["detail"]
    table.rejected("Win", "MJS-5.6", seat=2, selfDrawn=False, discarder=1, tile="6p")


@pytest.mark.parametrize("derived", ["PaymentRecorded", "ExchangeCompleted", "DrawGame",
                                     "HandCompleted"])
def test_bad_input_a_payment_or_other_derived_fact_posted_by_a_client_is_400(derived):
    table = opened(client())
    before = table.events()
    response = table.post(derived, **{"from": 1, "to": 2, "amount": 32, "reason": "win"})
    assert response.status_code == 400 and response.json["errors"][0]["path"] == "/type"
    assert "derived fact" in response.json["errors"][0]["message"]
    assert table.events() == before


# --- MJS-1, MJS-2 --------------------------------------------------------------------------------

def test_mjs_1_1_and_1_2_the_deal():
    table = Table(client())
    from mjs_states import deal_data
    data = deal_data({})
    data["hands"][0][0] = "C"
    table.rejected("TilesDealt", "MJS-1.1", **data)
    data = deal_data({})
    data["hands"][1].append(data["hands"][0].pop())
    table.rejected("TilesDealt", "MJS-1.2", **data)
    walls = [deal_data({})["wall"][:27]] * 4
    table.rejected("TilesDealt", "MJS-1.2", walls=walls, dealer=0)
    table.deal({0: "9s"})
    table.voids("mmmm")
    table.ok("TileDiscarded", seat=0, tile="9s")
    table.settle()
    wrong = "1m" if table.next_tile() != "1m" else "2m"
    table.rejected("TileDrawn", "MJS-1.2", seat=1, tile=wrong)


def test_mjs_1_3_the_first_dealer_by_dice_then_the_sessions_dealer():
    table = Table(client())
    table.ok("DiceRolled", purpose="firstDealer", seat=0, dice=[6, 6])
    table.rejected("DiceRolled", "MJS-1.3", purpose="firstDealer", seat=0, dice=[1, 1])
    for seat in (1, 2, 3):
        table.ok("DiceRolled", purpose="firstDealer", seat=seat, dice=[1, 2])
    from mjs_states import deal_data
    table.rejected("TilesDealt", "MJS-1.3", **deal_data({}, dealer=1))   # seat 0 rolled 12
    table.deal()                                                          # dealer: the roll's
    assert table.hand_view()["dealer"] == 0


def test_mjs_3_5_after_a_pong_the_claimer_discards_the_seats_between_lose_their_turn():
    table = opened(client(), {2: "9s 9s"}, settle=False)
    table.ok("Claim", seat=2, kind="pong", tiles=["9s", "9s"])
    table.settle()
    table.rejected("TileDrawn", "MJS-3.5", seat=1, tile=table.next_tile())
    table.ok("TileDiscarded", seat=2, tile=table.concealed(2)[0])


def test_mjs_2_1_no_exchange_at_a_table_that_is_not_the_final():
    table = Table(client())
    table.deal({0: "1m 2m 3m"})
    table.rejected("ExchangeTilesSelected", "MJS-2.1", seat=0, tiles=["1m", "2m", "3m"])
    table.rejected("DiceRolled", "MJS-2.1", purpose="exchange", seat=0, dice=[1, 2], hand=1)


def test_mjs_2_1_the_dealer_rolls_once_all_four_have_chosen():
    table = Table(client(), final=True)
    picks = {0: "1m 2m 3m", 1: "1s 2s 3s", 2: "5m 6m 7m", 3: "7p 8p 9p"}
    table.deal(picks)
    table.rejected("VoidSuitDeclared", "MJS-2.1", seat=0, suit="p")
    table.rejected("TileDiscarded", "MJS-2.1", seat=0, tile="1m")
    table.ok("ExchangeTilesSelected", seat=0, tiles=picks[0].split())
    table.rejected("ExchangeTilesSelected", "MJS-2.1", seat=0, tiles=picks[0].split())
    table.rejected("DiceRolled", "MJS-2.1", purpose="exchange", seat=0, dice=[1, 2], hand=1)
    for seat in (1, 2, 3):
        table.ok("ExchangeTilesSelected", seat=seat, tiles=picks[seat].split())
    table.rejected("DiceRolled", "MJS-2.1", purpose="exchange", seat=3, dice=[1, 2], hand=1)
    table.ok("DiceRolled", purpose="exchange", seat=0, dice=[1, 2], hand=1)
    assert table.hand_view()["phase"] == "void"


def test_mjs_2_2_play_waits_for_the_four_void_suits_and_no_pong_of_ones_void():
    table = Table(client())
    table.deal({0: "5p 9s", 1: "5p 5p"})
    table.rejected("TileDiscarded", "MJS-2.2", seat=0, tile="9s")
    table.voids("mpmm")
    table.ok("TileDiscarded", seat=0, tile="5p")
    table.rejected("Claim", "MJS-2.2", seat=1, kind="pong")


# --- MJS-3, MJS-4, MJS-5 -------------------------------------------------------------------------

def test_mjs_3_1_3_2_no_chow_and_turns():
    table = opened(client(), {1: "4m 5m"}, first="3m", settle=False)
    table.rejected("Claim", "MJS-3.1", seat=1, kind="chow", tiles=["4m", "5m"])
    table.settle()
    table.rejected("TileDrawn", "MJS-3.2", seat=2, tile=table.next_tile())
    table.rejected("TileDiscarded", "MJS-3.2", seat=1, tile=table.concealed(1)[0])


def test_mjs_3_3_a_claim_after_its_window_closed():
    clock = Clock()
    table = opened(client(clock), {1: "9s 9s"}, settings={"claimWindowSeconds": 3},
                   settle=False)
    clock.advance(seconds=4)
    assert "closed for a pong" in table.rejected("Claim", "MJS-3.3", seat=1,
                                                 kind="pong")["detail"]


def test_mjs_3_3_the_robbing_window_of_an_added_kong_lasts_its_3_s():
    """MJS section 11: "the claim window is 3 s after a discard or an added kong" — the timer
    may not close it at once, and a rob after its 3 s is late (MJS-3.3, 7.3)."""
    clock = Clock()
    table = Table(client(clock), {"claimWindowSeconds": 3})
    ex7_added_kong(table)
    window = table.hand_view()["claim_window"]
    assert window["tile"] == "6p" and window["opened_at"] is not None
    assert "stays open until" in table.rejected("ClaimWindowClosed", "MJS-3.3")["detail"]
    clock.advance(seconds=4)
    assert "closed for a win" in table.rejected("Claim", "MJS-3.3", seat=2,
                                                kind="win")["detail"]
    table.ok("ClaimWindowClosed")                               # the kong is made
    hand = table.hand_view()
    assert hand["phase"] == "draw" and hand["replacement"] and not hand["wins"]
    assert [m["text"] for m in hand["seats"][0]["melds"]] == ["[kong 6p]"]


def test_mjs_4_1_a_player_who_has_won_does_not_act_again():
    table = opened(client(), {2: READY_7S}, voids="mmps", first="7s", settle=False)
    table.ok("Claim", seat=2, kind="win")
    table.settle()
    assert table.hand_view()["turn"] == 3
    table.rejected("TileDrawn", "MJS-4.1", seat=2, tile=table.next_tile())
    table.rejected("Claim", "MJS-4.1", seat=2, kind="pong")


def test_mjs_5_1_and_5_5_a_win_needs_the_shape_and_no_void_tile():
    table = opened(client(), {1: "1p 4p 7p 2p 5p 8p 1s 4s 2s 5s 8s 9p 3p", 2: READY_7S,
                              3: "7s 7s"}, voids="mmsm", first="7s", settle=False)
    table.rejected("Claim", "MJS-5.1", seat=1, kind="win")
    table.rejected("Claim", "MJS-5.5", seat=2, kind="win")     # seat 2's void is s


# --- the timer and the events of another game ---------------------------------------------------

def test_mjs_10_3_the_only_time_limit_is_the_discard_and_only_once_passed():
    clock = Clock()
    table = opened(client(clock), {1: "9s 9s"}, settle=False)
    table.rejected("TimeLimitExceeded", "MJS-10.3", seat=1, limit="pong")
    table.settle()
    table.rejected("TimeLimitExceeded", "MJS-10.3", seat=1, limit="discard")   # not 30 s yet
    clock.advance(seconds=31)
    table.ok("TimeLimitExceeded", seat=1, limit="discard")
    assert table.hand_view()["warnings"] == [0, 1, 0, 0]


def test_mjs_10_3_a_slow_discard_is_one_warning_the_timers_or_the_referees():
    """Seed 「每次出牌時間為30秒，違者警告一次」: the timer's report and the referee's slow warning
    for the same discard are one warning, not two; the next discard may be warned again."""
    clock = Clock()
    table = opened(client(clock))
    clock.advance(seconds=31)
    table.ok("TimeLimitExceeded", seat=1, limit="discard")
    problem = table.rejected("WarningIssued", "MJS-10.3", seat=1, offence="slow")
    assert "already been warned for this discard" in problem["detail"]
    table.ok("WarningIssued", seat=1, offence="peek")          # another offence is no slow one
    table.draw_discard()                                        # seat 1 discards: a new clock
    clock.advance(seconds=31)
    table.ok("WarningIssued", seat=2, offence="slow")          # the referee first, this time
    table.rejected("TimeLimitExceeded", "MJS-10.3", seat=2, limit="discard")
    assert table.hand_view()["warnings"] == [0, 2, 1, 0]


def test_mjs_11_events_of_the_other_game_are_refused():
    table = opened(client())
    table.rejected("CoinPenaltyAssessed", "MJS-11", rule="MJS-10.4", seat=1, coins=20, hand=1)
    table.rejected("DiceRolled", "MJS-11", purpose="wallBreak", seat=0, dice=[1, 2], hand=2)
    from mj_table import Table as MjoTable
    mjo = MjoTable(client())
    mjo.deal({})
    mjo.rejected("VoidSuitDeclared", "MJO-10", seat=0, suit="p")
    mjo.rejected("WarningIssued", "MJO-10", seat=0, offence="slow")
    mjo.rejected("DiceRolled", "MJO-10", purpose="exchange", seat=0, dice=[1, 2], hand=1)


def test_mjs_12_table_settings_are_checked_when_the_tournament_is_created():
    c = client()
    response = c.post("/v1/tournaments", json={"tournament_id": TID, "name": "x", "game": "MJS",
                                               "format": "groups",
                                               "settings": {"match": {"multipleWinners": "all"}}})
    assert response.status_code == 422 and response.json["rule"] == "MJS-12"
    response = c.post("/v1/tournaments", json={"tournament_id": TID, "name": "x", "game": "MJS",
                                               "format": "knockout"})
    assert response.status_code == 422 and response.json["rule"] == "T-1.1"


def test_t_7_4_the_final_is_started_as_the_final_and_no_other_table_is():
    c = client()
    tournament(c, players=[(f"p{k}", f"P{k}") for k in range(1, 5)])
    ok(c.post(f"/v1/tournaments/{TID}/draws", json={}))
    response = c.post(f"/v1/tournaments/{TID}/matches",
                      json={"match_id": "S1-T1", "settings": {"final": False}})
    assert response.status_code == 422 and response.json["rule"] == "T-7.4"
    assert "final true" in response.json["detail"]
    started = ok(c.post(f"/v1/tournaments/{TID}/matches", json={"match_id": "S1-T1"}))
    assert started["settings"]["final"] is True  # the draw says it is the final
    c2 = client()
    tournament(c2)
    ok(c2.post(f"/v1/tournaments/{TID}/draws", json={}))
    response = c2.post(f"/v1/tournaments/{TID}/matches",
                       json={"match_id": "S1-T1", "settings": {"final": True}})
    assert response.status_code == 422 and response.json["rule"] == "T-7.4"


def test_t_7_4_only_the_final_is_played_with_the_exchange():
    """Seed 「決賽：采用換三張打法」: exchangeThree is the table's final — a table of the first
    stage started with it, from the request or the tournament's settings.match, is refused,
    and so is a final without it."""
    c = client()
    tournament(c)
    ok(c.post(f"/v1/tournaments/{TID}/draws", json={}))
    response = c.post(f"/v1/tournaments/{TID}/matches",
                      json={"match_id": "S1-T1", "settings": {"exchangeThree": True}})
    assert response.status_code == 422 and response.json["rule"] == "T-7.4"
    assert "only the final is played with 换三张" in response.json["detail"]
    ok(c.post(f"/v1/tournaments/{TID}/matches", json={"match_id": "S1-T1"}))
    c2 = client()
    tournament(c2, match_settings={"exchangeThree": True})
    ok(c2.post(f"/v1/tournaments/{TID}/draws", json={}))
    response = c2.post(f"/v1/tournaments/{TID}/matches", json={"match_id": "S1-T2"})
    assert response.status_code == 422 and response.json["rule"] == "T-7.4"
    c3 = client()
    tournament(c3, players=[(f"p{k}", f"P{k}") for k in range(1, 5)])
    ok(c3.post(f"/v1/tournaments/{TID}/draws", json={}))
    response = c3.post(f"/v1/tournaments/{TID}/matches",
                       json={"match_id": "S1-T1", "settings": {"exchangeThree": False}})
    assert response.status_code == 422 and response.json["rule"] == "T-7.4"
    assert "the final: it is played with 换三张" in response.json["detail"]
    started = ok(c3.post(f"/v1/tournaments/{TID}/matches", json={"match_id": "S1-T1"}))
    assert started["settings"]["exchangeThree"] is True


# --- record enforcement: a physical table transcribed ---------------------------------------------

def test_mjs_9_2_record_mode_a_false_win_is_stored_and_costs_32_to_each_player_still_in():
    table = opened(client(), settings={"enforcement": "record"})
    table.ok("TileDrawn", seat=1, tile=table.next_tile())
    table.ok("Win", seat=1)                                  # the hand is no win: 炸胡
    hand = table.hand_view()
    assert [(p["from"], p["to"], p["amount"], p["rule"]) for p in hand["ledger"]] == [
        (1, 0, 32, "MJS-9.2"), (1, 2, 32, "MJS-9.2"), (1, 3, 32, "MJS-9.2")]
    assert hand["barred"][1] == "MJS-9.2" and hand["phase"] == "discard" and not hand["wins"]
    table.rejected("Win", "MJS-9.2", seat=1)                 # no more winning this hand


def test_record_mode_a_claim_window_waits_only_for_the_players_still_in():
    table = opened(client(), {2: READY_7S}, voids="mmps", first="7s", settle=False,
                   settings={"enforcement": "record"})
    table.ok("Claim", seat=2, kind="win")
    for seat in (1, 3):
        table.ok("ClaimPassed", seat=seat)
    assert table.hand_view()["out"] == [False, False, True, False]
    table.ok("TileDrawn", seat=3, tile=table.next_tile())
    table.ok("TileDiscarded", seat=3, tile=table.concealed(3)[0])
    for seat in (0, 1):
        table.ok("ClaimPassed", seat=seat)
    hand = table.hand_view()
    assert hand["phase"] == "draw" and hand["turn"] == 0     # seat 2, out, is not waited for
