"""Every "must" rule of MJO through the HTTP API: an event that breaks it is refused with 422
problem+json naming the rule, and nothing is stored (shared/rules/mahjong-ottawa.md; rules README
§5 "Rejection"). Bad input — unknown tiles, malformed deals, derived event types — is a 400
naming the field, nothing stored. ``Table.rejected`` checks the status, the media type, the rule
(in the body and the detail) and that the log did not grow."""
from __future__ import annotations

import mj_table
import pytest
from clients import admin_client
from mj_table import (
    TID,
    Clock,
    Table,
    clocked_client,
    deal_tiles,
    draw_table,
    groups_tournament,
    ok,
)

from events.memory_store import InMemoryEventStore
from service import create_app

WIN_5M = "1m 2m 3m 4p 5p 6p 7s 8s 9s C C C 5m 5m"      # MJO Ex 1: a win
WAIT_5M = "1m 2m 3m 4p 5p 6p 7s 8s 9s C C C 5m"         # MJO Ex 5: waits on 5m only
WAIT_5P = "1m 2m 3m 4m 5m 6m 7p 8p 9p E E E 5p"         # waits on 5p only


def new_client():
    return admin_client(create_app(store=InMemoryEventStore()))


def new_table(settings: dict | None = None) -> Table:
    return Table(new_client(), settings)


def opened(fixed: dict[int, str] | None = None, wall: str = "", settings=None,
           first: str = "N", settle: bool = True) -> Table:
    return mj_table.opened(new_client(), fixed, wall, settings, first, settle)


def claims_on_5p(seat3: str = "") -> Table:
    """MJO Ex 11: seat 1 discards 5p; seat 2 holds 4p 6p (a chow), seat 0 a pair of 5p."""
    table = opened({0: "5p 5p", 1: "5p", 2: "4p 6p", 3: seat3}, wall="E")
    table.ok("TileDrawn", seat=1, tile="E")
    table.ok("TileDiscarded", seat=1, tile="5p")
    return table


# --- MJO-1, MJO-2: tiles, dealer, deal ----------------------------------------------------------

def test_mjo_1_1_a_fifth_copy_of_a_tile_in_the_deal():
    table = new_table()
    deal = deal_tiles({0: "C C C C"})
    deal["hands"][1][0] = "C"
    problem = table.rejected("TilesDealt", "MJO-1.1", **deal)
    assert "more than four of C" in problem["detail"]
    assert table.match()["current_hand"] is None


def test_mjo_1_1_hands_and_wall_are_exactly_the_136_tiles():
    table = new_table()
    deal = deal_tiles({})
    gone = deal["wall"].pop()
    problem = table.rejected("TilesDealt", "MJO-1.1", **deal)
    assert f"missing {gone}" in problem["detail"]


@pytest.mark.parametrize("seat, change", [(1, +1), (0, -1), (3, -1)])
def test_mjo_2_3_the_dealer_is_dealt_fourteen_the_others_thirteen(seat, change):
    table = new_table()
    deal = deal_tiles({})
    if change > 0:
        deal["hands"][seat].append(deal["wall"].pop(0))
    else:
        deal["wall"].insert(0, deal["hands"][seat].pop())
    size = 14 if seat == 0 else 13
    problem = table.rejected("TilesDealt", "MJO-2.3", **deal)
    assert f"seat {seat} was dealt {size + change} tiles" in problem["detail"]


def test_mjo_2_1_the_first_dealer_is_rolled_for_or_named_by_the_deal():
    table = new_table()
    deal = deal_tiles({})
    del deal["dealer"]
    problem = table.rejected("TilesDealt", "MJO-2.1", **deal)
    assert "rolled for" in problem["detail"]
    for seat, dice in ((0, [6, 6]), (1, [6, 6]), (2, [1, 2]), (3, [3, 3])):
        table.ok("DiceRolled", purpose="firstDealer", seat=seat, dice=dice)
    table.rejected("DiceRolled", "MJO-2.1", purpose="firstDealer", seat=2, dice=[6, 6])
    table.ok("DiceRolled", purpose="firstDealer", seat=1, dice=[2, 3])
    table.rejected("DiceRolled", "MJO-2.1", purpose="firstDealer", seat=1, dice=[6, 6])
    problem = table.rejected("TilesDealt", "MJO-2.1", **deal)
    assert "seat(s) 0 roll (again)" in problem["detail"]
    table.ok("DiceRolled", purpose="firstDealer", seat=0, dice=[1, 1])
    view = table.match()
    assert (view["status"], view["first_dealer"], view["dealer"]) == ("playing", 1, 1)
    assert [len(r) for r in view["first_dealer_rolls"]] == [4, 2]
    table.rejected("TilesDealt", "MJO-2.2", **{**deal, "dealer": 0})  # seat 1 deals
    table.rejected("TilesDealt", "MJO-2.3", **deal)        # seat 1 deals, but 14 tiles at seat 0
    table.ok("TilesDealt", **deal_tiles({}, dealer=1))


def test_mjo_2_3_the_wall_is_broken_by_the_dealer_then_the_seat_his_throw_names():
    table = new_table()
    for seat, dice in enumerate(([6, 6], [1, 1], [1, 2], [2, 2])):
        table.ok("DiceRolled", purpose="firstDealer", seat=seat, dice=dice)
    problem = table.rejected("DiceRolled", "MJO-2.3", purpose="wallBreak", hand=1, seat=1,
                             dice=[2, 3])
    assert "the first throw to break the wall is seat 0's" in problem["detail"]
    table.ok("DiceRolled", purpose="wallBreak", hand=1, seat=0, dice=[2, 3])   # 5: East again
    table.rejected("DiceRolled", "MJO-2.3", purpose="wallBreak", hand=1, seat=1, dice=[1, 1])
    table.ok("DiceRolled", purpose="wallBreak", hand=1, seat=0, dice=[4, 4])
    table.rejected("DiceRolled", "MJO-2.3", purpose="wallBreak", hand=1, seat=0, dice=[1, 1])
    tiles = deal_tiles({})
    everything = [t for h in tiles["hands"] for t in h] + tiles["wall"]
    walls = [everything[34 * k:34 * k + 34] for k in range(4)]
    table.rejected("TilesDealt", "MJO-2.3", walls=walls, dice=[[1, 1], [1, 1]])  # not recorded
    table.ok("TilesDealt", walls=walls)
    hand = table.hand_view()
    assert hand["wall_dice"] == [{"seat": 0, "dice": [2, 3]}, {"seat": 0, "dice": [4, 4]}]
    assert [s["tile_count"] for s in hand["seats"]] == [14, 13, 13, 13]
    assert hand["wall_count"] == 83


def test_mjo_2_2_the_next_hand_is_dealt_by_the_sessions_dealer():
    table = new_table()
    table.deal({0: WIN_5M})
    table.ok("Win", seat=0)                     # MJO-5.4: the dealer wins on his first 14
    table.hand = 2
    deal = deal_tiles({}, dealer=1)
    problem = table.rejected("TilesDealt", "MJO-2.2", **deal)
    assert "seat 0 deals hand 2, not seat 1" in problem["detail"]  # he won: he deals again


# --- MJO-2.4, MJO-3: the order of play ---------------------------------------------------------

def test_mjo_2_4_a_draw_is_the_next_tile_of_the_recorded_wall():
    table = opened(wall="E S")
    problem = table.rejected("TileDrawn", "MJO-2.4", seat=1, tile="S")
    # the refusal goes to whoever posted it: it does not name the wall's next tile
    assert "not the next wall tile" in problem["detail"] and " E" not in problem["detail"]


def test_mjo_3_1_the_dealer_opens_by_discarding():
    table = new_table()
    table.deal()
    table.rejected("TileDrawn", "MJO-3.1", seat=1, tile=table.dealt["wall"][0])
    table.rejected("TileDiscarded", "MJO-3.1", seat=1, tile=table.dealt["hands"][1][0])


def test_mjo_3_2_draw_in_turn_and_discard_a_tile_held():
    table = opened({1: "7s"}, wall="E S")
    table.rejected("TileDrawn", "MJO-3.2", seat=2, tile="E")
    table.rejected("TileDiscarded", "MJO-3.2", seat=1, tile="7s")   # draws first
    table.ok("TileDrawn", seat=1, tile="E")
    problem = table.rejected("TileDiscarded", "MJO-3.2", seat=1, tile="F")
    assert "seat 1 does not hold F" in problem["detail"]
    table.rejected("TileDiscarded", "MJO-3.2", seat=2, tile="E")


def test_mjo_3_3_after_a_pong_the_seats_in_between_lose_their_turn():
    table = claims_on_5p()
    table.ok("Claim", seat=0, kind="pong", tiles=["5p", "5p"])
    table.settle()                          # seats 2 and 3 answer too (MJO-4.5)
    view = table.hand_view()
    assert (view["phase"], view["turn"]) == ("discard", 0)
    assert view["seats"][0]["melds"][0]["text"] == "[pong 5p]"
    table.rejected("TileDrawn", "MJO-3.3", seat=2, tile=table.next_tile())


# --- MJO-4: claims -----------------------------------------------------------------------------

def test_mjo_4_1_a_chow_only_from_the_previous_player():
    table = claims_on_5p(seat3="4p 6p")
    problem = table.rejected("Claim", "MJO-4.1", seat=3, kind="chow", tiles=["4p", "6p"])
    assert "only the previous player's discard" in problem["detail"]
    table.rejected("Claim", "MJO-4.1", seat=2, kind="chow", tiles=["4p", "7p"])


def test_mjo_4_2_a_pong_needs_a_pair_of_the_discard():
    table = claims_on_5p()
    table.rejected("Claim", "MJO-4.2", seat=3, kind="pong", tiles=["5p", "5p"])


def test_mjo_4_3_no_kong_on_a_discard_and_no_declared_kong():
    table = opened({1: "7s", 3: "7s 7s 7s"}, wall="E")    # MJO Ex 12
    table.ok("TileDrawn", seat=1, tile="E")
    table.ok("TileDiscarded", seat=1, tile="7s")
    problem = table.rejected("Claim", "MJO-4.3", seat=3, kind="kong", tiles=["7s"] * 3)
    assert "he may pong it" in problem["detail"]
    table.ok("Claim", seat=3, kind="pong", tiles=["7s", "7s"])
    table.settle()
    assert table.hand_view()["seats"][3]["melds"][0]["text"] == "[pong 7s]"
    other = new_table()
    other.deal({0: "9m 9m 9m 9m"})
    other.rejected("KongDeclared", "MJO-4.3", seat=0, kind="concealed", tile="9m")


def test_mjo_4_4_a_win_on_a_tile_no_one_discarded():
    table = claims_on_5p(seat3=WAIT_5M)
    problem = table.rejected("Win", "MJO-4.4", seat=3, selfDrawn=False, discarder=1, tile="5m")
    assert "the discard open to claims is seat 1's 5p" in problem["detail"]
    table.rejected("Win", "MJO-4.4", seat=3, selfDrawn=False, discarder=2, tile="5p")


def test_mjo_4_5_a_claim_after_the_window_and_on_ones_own_discard():
    table = claims_on_5p()
    problem = table.rejected("Claim", "MJO-4.5", seat=1, kind="pong", tiles=["5p", "5p"])
    assert "cannot claim his own discard" in problem["detail"]  # he discarded this turn
    table.ok("Claim", seat=0, kind="pong", tiles=["5p", "5p"])
    table.settle()                                              # seats 2 and 3 pass: settled
    problem = table.rejected("Claim", "MJO-4.5", seat=2, kind="chow", tiles=["4p", "6p"])
    assert "no discard is open" in problem["detail"]


def test_mjo_4_5_the_window_is_answered_once_and_blocks_the_next_draw():
    table = claims_on_5p()
    table.rejected("TileDrawn", "MJO-4.5", seat=2, tile=table.next_tile())
    table.ok("ClaimPassed", seat=2)
    table.rejected("Claim", "MJO-4.5", seat=2, kind="chow", tiles=["4p", "6p"])
    table.rejected("ClaimPassed", "MJO-4.5", seat=2)


def test_mjo_4_5_claims_are_made_within_the_window_time():
    table = opened({0: "5p 5p", 1: "5p"}, wall="E", settings={"claimWindowSeconds": 0})
    table.ok("TileDrawn", seat=1, tile="E")
    table.ok("TileDiscarded", seat=1, tile="5p")
    problem = table.rejected("Claim", "MJO-4.5", seat=0, kind="pong", tiles=["5p", "5p"])
    assert "0 s after the discard" in problem["detail"]
    table.ok("ClaimPassed", seat=2)        # the next seat, who could chow, passes
    table.ok("ClaimWindowClosed")          # the timer: nobody claimed in time
    assert table.hand_view()["phase"] == "draw"
    table.rejected("ClaimWindowClosed", "MJO-4.5")


def test_mjo_4_5_the_timer_does_not_close_the_window_early():
    table = claims_on_5p()                  # 60 s window (the test table's setting)
    problem = table.rejected("ClaimWindowClosed", "MJO-4.5")
    assert "stays open until" in problem["detail"]


# --- MJO-5: winning ------------------------------------------------------------------------------

@pytest.mark.parametrize("tiles, rule, words", [
    ("1m 2m 3m 4p 5p 6p 7s 8s 9s C C C 3m 3m", "MJO-5.2", "the pair 3m3m"),      # Ex 2
    ("2m 2m 5m 5m 8m 8m 2p 2p 5p 5p 8p 8p E E", "MJO-5.3", "seven pairs"),       # Ex 4
    ("1m 2m 3m 4p 5p 6p 7s 8s 9s C C F 5m 5m", "MJO-5.1", "cannot be read"),
])
def test_mjo_5_a_self_drawn_win_must_be_four_sets_and_a_two_five_eight_pair(tiles, rule, words):
    table = new_table()
    table.deal({0: tiles})
    problem = table.rejected("Win", rule, seat=0)
    assert words in problem["detail"]


def test_mjo_5_2_a_win_claim_without_a_two_five_eight_pair():
    table = opened({1: "3m", 2: "1m 2m 3m 4p 5p 6p 7s 8s 9s C C C 3m"}, wall="E")
    table.ok("TileDrawn", seat=1, tile="E")
    table.ok("TileDiscarded", seat=1, tile="3m")
    table.rejected("Claim", "MJO-5.2", seat=2, kind="win")


def test_mjo_5_4_a_self_drawn_win_needs_the_tile_just_drawn():
    table = claims_on_5p()
    table.ok("Claim", seat=0, kind="pong", tiles=["5p", "5p"])
    table.settle()
    problem = table.rejected("Win", "MJO-5.4", seat=0)
    assert "did not draw this turn" in problem["detail"]
    table = opened({1: "1m 2m 3m 4p 5p 6p 7s 8s 9s C C C 5m"}, wall="5m")
    table.ok("TileDrawn", seat=1, tile="5m")
    problem = table.rejected("Win", "MJO-5.4", seat=1, tile="C")
    assert "did not draw C" in problem["detail"] and "5m" not in problem["detail"]
    table.ok("Win", seat=1, tile="5m")


# --- MJO-6: the last tile ------------------------------------------------------------------------

def _to_wall_end(deal: dict, tile: str) -> None:
    """Puts a copy of ``tile`` held by seats 0-2 or in the wall at the end of the wall."""
    wall = deal["wall"]
    if tile not in wall:
        seat = next(s for s in range(3) if tile in deal["hands"][s])
        hand = deal["hands"][seat]
        swap = next(t for t in wall if t != tile)
        hand[hand.index(tile)] = swap
        wall[wall.index(swap)] = tile
    wall.remove(tile)
    wall.append(tile)


def test_mjo_6_1_after_the_last_tile_no_discard_and_only_its_drawer_declares_the_draw():
    """Every drawn tile is discarded at once and every window passed, so the turn goes round
    from seat 1: seat 3 draws the 83rd and last tile, 5m, which completes his hand."""
    table = new_table()
    deal = deal_tiles({3: WAIT_5M})
    _to_wall_end(deal, "5m")
    table.ok("TilesDealt", **deal)
    table.ok("TileDiscarded", seat=0, tile=deal["hands"][0][0])
    for k, tile in enumerate(deal["wall"]):
        table.settle()
        table.ok("TileDrawn", seat=(1 + k) % 4, tile=tile)
        if k < len(deal["wall"]) - 1:
            table.ok("TileDiscarded", seat=(1 + k) % 4, tile=tile)
    view = table.hand_view()
    assert (view["phase"], view["turn"], view["wall_count"]) == ("discard", 3, 0)
    problem = table.rejected("TileDiscarded", "MJO-6.1", seat=3, tile="5m")
    assert "drew the last tile and may not discard" in problem["detail"]
    table.rejected("ExhaustiveDrawDeclared", "MJO-6.1", seat=2)
    table.ok("ExhaustiveDrawDeclared", seat=3)        # he may also not win: the hand is drawn
    match, row = table.match(), table.results()[0]
    assert (row["result"], row["payments"], row["next_dealer"]) == ("draw", [0, 0, 0, 0], 1)
    assert match["dealer"] == 1 and match["balances"] == [20] * 4          # MJO-6.2, MJO-2.2
    table.rejected("TileDrawn", "MJO-10", seat=0, tile="5m")


# --- the lifecycle, the session, the table -------------------------------------------------------

def test_mjo_10_an_event_for_a_hand_not_in_play():
    table = new_table()
    table.rejected("TileDiscarded", "MJO-10", seat=0, tile="1m")         # not dealt
    table.rejected("TilesDealt", "MJO-10", **{**deal_tiles({}), "hand": 2})
    table.deal({0: WIN_5M})
    table.rejected("TileDiscarded", "MJO-10", hand=2, seat=0, tile="C")
    table.rejected("TilesDealt", "MJO-10", **{**deal_tiles({}), "hand": 2})  # 1 is in play
    table.ok("Win", seat=0)
    table.rejected("TileDiscarded", "MJO-10", hand=1, seat=0, tile="C")   # hand 1 has ended


def test_t_8_2_nothing_is_played_after_the_session():
    table = new_table({"sessionHands": 1})
    table.deal({0: WIN_5M})
    table.ok("Win", seat=0)
    assert table.match()["status"] == "completed"
    table.hand = 2
    problem = table.rejected("TilesDealt", "T-8.2", **deal_tiles({}))
    assert "the session is over after 1 hand(s)" in problem["detail"]
    table.rejected("TimeLimitReached", "T-8.2", limit_minutes=60)


def test_t_8_2_time_is_called_only_at_the_session_minutes_after_the_start():
    clock = Clock()
    untimed = Table(clocked_client(clock))
    untimed.deal()
    clock.advance(seconds=24 * 60 * 60)
    problem = untimed.rejected("TimeLimitReached", "T-8.2", limit_minutes=1)
    assert "no time limit (sessionMinutes)" in problem["detail"]
    table = Table(clocked_client(clock), {"sessionMinutes": 120})
    table.rejected("TimeLimitReached", "T-8.2", limit_minutes=5)       # not its limit
    clock.advance(seconds=119 * 60)
    problem = table.rejected("TimeLimitReached", "T-8.2", limit_minutes=120)
    assert "not before" in problem["detail"]
    clock.advance(seconds=60)
    table.ok("TimeLimitReached", limit_minutes=120)    # before any hand: the session ends
    assert table.match()["status"] == "completed"
    table.rejected("TimeLimitReached", "T-8.2", limit_minutes=120)


def test_mjo_8_1_a_time_limit_is_recorded_only_when_it_applies_and_has_passed():
    clock = Clock()
    table = Table(clocked_client(clock), {"claimWindowSeconds": 3})
    table.deal({0: "5p", 2: "5p 5p"})
    table.rejected("TimeLimitExceeded", "MJO-8.1", seat=2, limit="firstDiscard")  # not dealer
    table.rejected("TimeLimitExceeded", "MJO-8.1", seat=0, limit="discard")       # first turn
    table.rejected("TimeLimitExceeded", "MJO-8.1", seat=3, limit="pong")          # no window
    clock.advance(seconds=29)
    problem = table.rejected("TimeLimitExceeded", "MJO-8.1", seat=0, limit="firstDiscard")
    assert "runs until" in problem["detail"]
    clock.advance(seconds=1)
    table.ok("TimeLimitExceeded", seat=0, limit="firstDiscard")
    table.ok("TileDiscarded", seat=0, tile="5p")
    table.rejected("TimeLimitExceeded", "MJO-8.1", seat=0, limit="firstDiscard")  # discarded
    table.rejected("TimeLimitExceeded", "MJO-8.1", seat=3, limit="pong")   # holds no pair
    table.rejected("TimeLimitExceeded", "MJO-8.1", seat=2, limit="pong")   # 3 s not up
    clock.advance(seconds=3)
    table.ok("TimeLimitExceeded", seat=2, limit="pong")
    table.rejected("TimeLimitExceeded", "MJO-8.1", seat=2, limit="discard")  # seat 1's turn
    table.rejected("TimeLimitExceeded", "MJO-8.1", seat=1, limit="discard")  # 15 s not up
    clock.advance(seconds=12)
    table.ok("TimeLimitExceeded", seat=1, limit="discard")
    assert [(r["seat"], r["limit"]) for r in table.hand_view()["time_limits"]] == [
        (0, "firstDiscard"), (2, "pong"), (1, "discard")]
    # a pong's report shows the seat could pong: its own and the officials' while in play
    for view, seen in (("seat:2", [0, 2, 1]), ("seat:1", [0, 1]), ("public", [0, 1])):
        assert [r["seat"] for r in table.hand_view(view=view)["time_limits"]] == seen


def test_mjo_4_5_each_claim_comes_within_its_own_time_after_the_seed():
    """Seed 八: a pong within 3 s; seed 六: a chow within the next player's 15 s; a win while
    the window lasts."""
    clock = Clock()
    table = Table(clocked_client(clock), {"claimWindowSeconds": 3})
    table.deal({0: "5p", 1: "4p 6p", 2: "5p 5p"})
    table.ok("TileDiscarded", seat=0, tile="5p")
    clock.advance(seconds=4)
    problem = table.rejected("Claim", "MJO-4.5", seat=2, kind="pong", tiles=["5p", "5p"])
    assert "closed for a pong" in problem["detail"]
    table.rejected("ClaimWindowClosed", "MJO-4.5")     # seat 1 may still chow
    table.ok("Claim", seat=1, kind="chow", tiles=["4p", "6p"])
    table.ok("ClaimWindowClosed")
    assert table.hand_view()["seats"][1]["melds"][0]["text"]
    late = Table(clocked_client(clock), {"claimWindowSeconds": 3})
    late.deal({0: "5p", 1: "4p 6p"})
    late.ok("TileDiscarded", seat=0, tile="5p")
    clock.advance(seconds=16)
    problem = late.rejected("Claim", "MJO-4.5", seat=1, kind="chow", tiles=["4p", "6p"])
    assert "15 s after the discard" in problem["detail"]
    winner = Table(clocked_client(clock), {"claimWindowSeconds": 3})
    winner.deal({0: "5p", 1: "4p 6p", 3: WAIT_5P})
    winner.ok("TileDiscarded", seat=0, tile="5p")
    clock.advance(seconds=10)                                     # the window lasts for seat 1's chow
    winner.ok("Claim", seat=3, kind="win")
    winner.settle()                               # seats 1 and 2, earlier in turn, pass
    assert winner.hand_view()["wins"][0]["seat"] == 3


@pytest.mark.parametrize("typed", [("pong", "win"), ("win", "pong")])
def test_mjo_4_5_record_mode_priority_not_typing_order_decides(typed):
    table = opened({2: "5p 5p", 3: WAIT_5P}, settings={"enforcement": "record"}, first="5p",
                   settle=False)
    claims = {"pong": {"seat": 2, "kind": "pong", "tiles": ["5p", "5p"]},
              "win": {"seat": 3, "kind": "win"}}
    for kind in typed:
        table.ok("Claim", **claims[kind])
    assert table.hand_view()["phase"] == "claims"      # seat 1 may still call a win
    table.ok("ClaimWindowClosed")
    view = table.hand_view()
    assert view["phase"] == "over" and [w["seat"] for w in view["wins"]] == [3]


def test_mjo_3_2_a_self_drawn_win_out_of_turn_names_no_tile():
    table = opened(wall="7s 8s 9s")
    table.ok("TileDrawn", seat=1, tile="7s")
    problem = table.rejected("Win", "MJO-3.2", seat=3, tile="1m")
    assert "7s" not in problem["detail"]
    problem = table.rejected("Win", "MJO-5.4", seat=1, tile="1m")
    assert "7s" not in problem["detail"]


def test_t_1_5_no_penalty_at_the_table_after_the_session():
    table = new_table({"sessionHands": 1})
    table.deal({0: WIN_5M})
    table.ok("Win", seat=0)
    problem = table.rejected("CoinPenaltyAssessed", "T-1.5", rule="MJO-9.3", seat=0, coins=50)
    assert "the session is over" in problem["detail"]
    table.rejected("CoinPenaltyAssessed", "T-1.5", hand=1, rule="MJO-9.3", seat=1, coins=3,
                   payees=[2])
    assert table.match()["balances"] == [32, 16, 16, 16]


def test_mjo_9_3_the_result_row_explains_a_penalty_during_the_hand():
    table = new_table()
    table.deal({0: WIN_5M})
    table.ok("CoinPenaltyAssessed", hand=1, rule="MJO-9.3", seat=1, coins=5)
    table.ok("Win", seat=0)
    row = table.results()[0]
    penalties = [sum(p["deltas"][s] for p in row["penalties"]) for s in range(4)]
    assert penalties == [0, -5, 0, 0]
    assert [b + p + q for b, p, q in zip(row["balances_before"], row["payments"], penalties)] \
        == row["balances"] == [32, 11, 16, 16]


def test_t_1_4_no_lots_at_a_table():
    table = new_table()
    table.rejected("LotsDrawn", "T-1.4", purpose="dealer", hand=1, candidates=[0, 1, 2, 3],
                   winner=2)


def test_mjo_9_3_a_penalty_is_paid_to_other_seats():
    table = new_table()
    table.rejected("CoinPenaltyAssessed", "MJO-9.3", rule="MJO-9.3", seat=1, coins=2)  # no session
    table.deal()
    table.rejected("CoinPenaltyAssessed", "MJO-9.3", rule="MJO-9.3", seat=1, coins=2,
                   payees=[1, 2])
    table.ok("CoinPenaltyAssessed", hand=1, rule="MJO-8.2", seat=1, coins=2, payees=[0, 2],
             reason="slow discards")
    assert table.match()["balances"] == [22, 16, 22, 20]
    assert table.hand_view()["penalties"][0]["deltas"] == [2, -4, 2, 0]


def test_mjo_5_6_a_ruling_on_a_win_needs_a_win_waiting_for_it():
    table = new_table({"enforcement": "record"})
    table.deal()
    table.rejected("RulingRecorded", "MJO-5.6", text="the win stands",
                   effect={"winValid": True})
    table.ok("RulingRecorded", text="the table was late")   # a ruling without an effect


def test_mjo_11_settings_of_a_table_are_checked():
    client = new_client()
    groups_tournament(client)
    draw_table(client)
    before = client.get(f"/v1/tournaments/{TID}/events?limit=1000").json["events"]
    for settings, words in (({"sessionHands": 0}, "sessionHands must be a whole number"),
                            ({"kongs": True}, "unknown setting 'kongs'"),
                            ({"enforcement": "lenient"}, "enforcement must be one of")):
        response = client.post(f"/v1/tournaments/{TID}/matches",
                               json={"match_id": "S1-T1", "settings": settings})
        assert response.status_code == 422, response.json
        assert response.json["rule"] == "MJO-11" and words in response.json["detail"]
    assert client.get(f"/v1/tournaments/{TID}/events?limit=1000").json["events"] == before


def test_t_8_1_a_table_is_started_as_the_lots_seated_it():
    client = new_client()
    groups_tournament(client)
    for body in ({"match_id": "S1-T1"}, {"match_id": "S1-T9"}):
        response = client.post(f"/v1/tournaments/{TID}/matches", json=body)
        assert (response.status_code, response.json["rule"]) == (422, "T-8.1"), response.json
    draw_table(client)
    wrong = {"0": "south", "1": "east", "2": "west", "3": "north"}
    response = client.post(f"/v1/tournaments/{TID}/matches",
                           json={"match_id": "S1-T1", "teams": wrong})
    assert (response.status_code, response.json["rule"]) == (422, "T-8.1")
    assert "seat 0 east" in response.json["detail"]
    response = client.post(f"/v1/tournaments/{TID}/matches",
                           json={"match_id": "S1-T1", "teams": {"A": "east", "B": "west"}})
    assert (response.status_code, response.json["errors"][0]["path"]) == (400, "/teams")
    right = {"0": "east", "1": "south", "2": "west", "3": "north"}
    started = ok(client.post(f"/v1/tournaments/{TID}/matches",
                             json={"match_id": "S1-T1", "teams": right}))
    assert started["round"] == 1 and started["teams"] == right
    again = client.post(f"/v1/tournaments/{TID}/matches", json={"match_id": "S1-T1"})
    assert again.status_code == 409


# --- record enforcement --------------------------------------------------------------------------

def test_record_mode_keeps_a_false_win_claim_for_the_referee_strict_refuses_it():
    strict = opened({1: "3m", 2: "1m 2m 3m 4p 5p 6p 7s 8s 9s C C F 3m"}, wall="E")
    strict.ok("TileDrawn", seat=1, tile="E")
    strict.ok("TileDiscarded", seat=1, tile="3m")
    strict.rejected("Claim", "MJO-5.1", seat=2, kind="win")
    table = opened({1: "3m", 2: "1m 2m 3m 4p 5p 6p 7s 8s 9s C C F 3m"}, wall="E",
                   settings={"enforcement": "record"})
    table.ok("TileDrawn", seat=1, tile="E")
    table.ok("TileDiscarded", seat=1, tile="3m")
    table.ok("Claim", seat=2, kind="win")   # nobody else may claim: it goes to the referee
    view = table.hand_view(view="seat:0")
    assert view["phase"] == "ruling" and view["ruling"]["rule"] == "MJO-5.1"
    assert view["ruling"]["message"] is None            # it shows seat 2's tiles
    assert table.hand_view(view="seat:2")["ruling"]["message"]
    table.rejected("TileDrawn", "MJO-5.6", seat=2, tile=table.next_tile())
    table.ok("RulingRecorded", text="no win: the hand is not complete",
             effect={"winValid": False})
    view = table.hand_view()
    assert (view["phase"], view["turn"], view["ruling"]) == ("draw", 2, None)


def test_record_mode_the_next_draw_shows_the_window_closed():
    table = opened({0: "5p 5p", 1: "5p"}, wall="E S", settings={"enforcement": "record"})
    table.ok("TileDrawn", seat=1, tile="E")
    table.ok("TileDiscarded", seat=1, tile="5p")
    assert table.hand_view()["phase"] == "claims"
    table.ok("TileDrawn", seat=2, tile="S")          # nobody claimed: the scorer goes on
    assert table.hand_view()["claim_window"] is None


# --- bad input: 400, nothing stored ----------------------------------------------------------------

@pytest.mark.parametrize("tile", ["5P", "0m", "10m", "east", "中", "5 m", "", "s5"])
def test_an_unknown_tile_is_400_naming_it(tile):
    table = new_table()
    table.deal()
    error = table.bad_input("TileDiscarded", "/data/tile", seat=0, tile=tile)
    assert "must be a tile" in str(error)


@pytest.mark.parametrize("change, path", [
    (lambda d: d["hands"][1].__setitem__(3, "Z"), "/data/hands/1/3"),
    (lambda d: d["hands"].pop(), "/data/hands"),
    (lambda d: d.update(walls=[[]] * 4), "/data/hands"),
    (lambda d: d.update(dice=[[1, 2], [3, 4]]), "/data/dice"),
    (lambda d: d["wall"].__setitem__(0, "9z"), "/data/wall/0"),
    (lambda d: d.update(dealer=4), "/data/dealer"),
])
def test_a_malformed_deal_is_400_naming_the_field(change, path):
    table = new_table()
    deal = deal_tiles({})
    change(deal)
    table.bad_input("TilesDealt", path, **deal)


@pytest.mark.parametrize("event_type, data, path", [
    ("Claim", {"seat": 1, "kind": "steal"}, "/data/kind"),
    ("Claim", {"seat": 4, "kind": "pong"}, "/data/seat"),
    ("Win", {"seat": 1, "selfDrawn": False, "tile": "5p"}, "/data/discarder"),
    ("Win", {"seat": 1, "discarder": 0}, "/data/discarder"),
    ("Win", {"seat": 1, "selfDrawn": "no"}, "/data/selfDrawn"),
    ("DiceRolled", {"purpose": "firstDealer", "seat": 0, "dice": ["6", 1]}, "/data/dice/0"),
    ("DiceRolled", {"purpose": "wallBreak", "seat": 0, "dice": [1, 1]}, "/data/hand"),
    ("TimeLimitExceeded", {"seat": 0, "limit": "lunch"}, "/data/limit"),
    ("CoinPenaltyAssessed", {"rule": "mjo-9.3", "seat": 0, "coins": 1}, "/data/rule"),
])
def test_malformed_table_events_are_400_naming_the_field(event_type, data, path):
    table = new_table()
    table.deal()
    table.bad_input(event_type, path, **data)


@pytest.mark.parametrize("derived", ["ClaimsResolved", "DrawGame", "HandCompleted",
                                     "SessionCompleted", "StandingsComputed"])
def test_a_derived_fact_posted_by_a_client_is_400(derived):
    table = new_table()
    table.deal()
    error = table.bad_input(derived, "/type", winners=[1])
    assert f"{derived} is a derived fact" in str(error)
