"""Claims on a discard against MJO-3.3 and MJO-4.1 to 4.6 (worked examples 11 and 12)."""
from dataclasses import replace

import pytest
from mj_states import act, settle, table, violated

from rules import RuleViolation
from rules.mahjong import MJO, apply


def ex11(**settings):
    """Seat 1 (the dealer) discards 5p; seat 2 could chow 4p 6p, seat 0 pong 5p 5p, seat 3
    win on it."""
    state = table({1: "5p 1m 1m", 2: "4p 6p", 0: "5p 5p",
                   3: "1m 2m 3m 4p 6p 7s 8s 9s C C C 2s 2s"}, dealer=1,
                  settings=replace(MJO, **settings))
    return act(state, "TileDiscarded", 1, tile="5p")


def test_mjo_ex11_pong_beats_chow_whatever_the_order():
    for order in ((2, 0), (0, 2)):
        state = ex11()
        state = act(state, "Claim", 3, kind="pass")
        for seat in order:
            claim = {2: {"kind": "chow", "tiles": ["4p", "6p"]},
                     0: {"kind": "pong", "tiles": ["5p", "5p"]}}[seat]
            state = act(state, "Claim", seat, **claim)
        state = apply(state, "ClaimsResolved", {})
        assert str(state.seats[0].melds[-1]) == "[pong 5p]"
        assert state.seats[0].melds[-1].from_seat == 1
        assert state.turn == 0 and state.phase == "discard"
        assert state.seats[1].pool == () and state.seats[1].discards[-1].claimed_by == 0
        state = act(state, "TileDiscarded", 0, tile=state.seats[0].concealed[0])
        assert settle(state).turn == 1     # the turn passes to next(0) = seat 1


def test_mjo_ex11_a_win_beats_pong_and_chow():
    state = ex11()
    state = act(state, "Claim", 2, kind="chow", tiles=["4p", "6p"])
    state = act(state, "Claim", 0, kind="pong")
    state = act(state, "Claim", 3, kind="win")
    state = apply(state, "ClaimsResolved", {})
    assert state.over and state.result == "win" and state.winners == (3,)
    (win,) = state.wins
    assert (win.tile, win.self_drawn, win.from_seat) == ("5p", False, 1)


def test_mjo_ex11_only_the_next_seat_may_chow():
    message = violated("MJO-4.1", ex11(), "Claim", 3, kind="chow", tiles=["4p", "6p"]).message
    assert message == ("seat 3 may not chow the discard of seat 1: a chow takes only the "
                       "previous player's discard (MJO-4.1)")


def test_mjo_4_1_a_chow_is_three_consecutive_tiles_held_by_the_claimer():
    state = ex11()
    violated("MJO-4.1", state, "Claim", 2, kind="chow", tiles=["4p", "7p"])
    violated("MJO-4.1", state, "Claim", 2, kind="chow", tiles=["3p", "4p"])   # 3p not held
    with_options = table({1: "5p", 2: "3p 4p 6p 7p"}, dealer=1)
    state = act(with_options, "TileDiscarded", 1, tile="5p")
    assert "name the two tiles" in violated("MJO-4.1", state, "Claim", 2, kind="chow").message
    state = act(state, "Claim", 2, kind="chow", tiles=["6p", "7p"])
    state = settle(state)
    assert str(state.seats[2].melds[0]) == "[chow 5p6p7p]"


def test_mjo_4_2_a_pong_needs_a_pair_of_the_discard():
    state = ex11()
    assert "pair of 5p" in violated("MJO-4.2", state, "Claim", 2, kind="pong").message
    violated("MJO-4.2", state, "Claim", 0, kind="pong", tiles=["5p", "6p"])


def test_mjo_ex12_no_kong_on_a_discard_but_a_pong():
    state = table({1: "7s", 3: "7s 7s 7s"}, dealer=1)
    state = act(state, "TileDiscarded", 1, tile="7s")
    message = violated("MJO-4.3", state, "Claim", 3, kind="kong", tiles=["7s", "7s", "7s"]).message
    assert "he may pong it" in message
    state = settle(act(state, "Claim", 3, kind="pong"))
    assert str(state.seats[3].melds[0]) == "[pong 7s]" and state.seats[3].concealed.count("7s") == 1


def test_mjo_4_3_no_concealed_or_added_kong():
    state = table({0: "9m 9m 9m 9m"})
    for kind in ("concealed", "added"):
        violated("MJO-4.3", state, "KongDeclared", 0, kind=kind, tile="9m")


def test_mjo_4_4_several_win_claims_first_in_turn_after_the_discarder_wins():
    waiting = "1m 2m 3m 4p 5p 6p 7s 8s 9s C C C 5m"
    state = table({0: "5m E", 1: waiting.replace("C C C", "F F F"),
                   3: waiting.replace("C C C", "P P P").replace("1m 2m 3m", "4m 5m 6m")})
    state = act(state, "TileDiscarded", 0, tile="5m")
    assert state.window.may[1] >= {"win"} and state.window.may[3] >= {"win"}
    state = act(state, "Claim", 3, kind="win")
    with pytest.raises(RuleViolation):
        apply(state, "ClaimsResolved", {})     # seat 1, before seat 3, may still claim
    state = act(state, "Claim", 1, kind="win")
    state = apply(state, "ClaimsResolved", {"timedOut": True})
    assert state.winners == (1,)


def test_mjo_4_4_setting_all_every_claimant_wins():
    waiting = "1m 2m 3m 4p 5p 6p 7s 8s 9s C C C 5m"
    state = table({0: "5m E", 1: waiting.replace("C C C", "F F F"),
                   3: waiting.replace("C C C", "P P P").replace("1m 2m 3m", "4m 5m 6m")},
                  settings=replace(MJO, multipleWinners="all"))
    state = act(state, "TileDiscarded", 0, tile="5m")
    state = act(state, "Claim", 1, kind="win")
    with pytest.raises(RuleViolation):
        apply(state, "ClaimsResolved", {})     # seat 3 may still add a win
    state = settle(act(state, "Claim", 3, kind="win"))
    assert state.winners == (1, 3)


def test_mjo_4_4_a_win_on_a_discard_is_claimed_not_declared():
    state = ex11()
    assert "only by claiming it" in violated("MJO-4.4", state, "Win", 3).message
    state = apply(act(act(act(state, "Claim", 3, kind="win"), "Claim", 0, kind="pass"),
                      "Claim", 2, kind="pass"), "ClaimsResolved", {})
    assert apply(state, "Win", {"seat": 3, "selfDrawn": False, "from": 1}) is state
    violated("MJO-4.4", state, "Win", 0, selfDrawn=False, **{"from": 1})


def test_mjo_4_5_the_window_takes_one_answer_from_each_other_seat():
    state = ex11()
    assert "his own discard" in violated("MJO-4.5", state, "Claim", 1, kind="pong").message
    state = act(state, "Claim", 0, kind="pass")
    assert "already answered" in violated("MJO-4.5", state, "Claim", 0, kind="pong").message
    violated("MJO-4.5", state, "Claim", 2, kind="steal")
    closed = settle(state)
    assert "no discard is open" in violated("MJO-4.5", closed, "Claim", 3, kind="win").message


def test_mjo_4_5_resolved_only_when_decided_or_timed_out():
    state = ex11()
    message = str(pytest.raises(RuleViolation, apply, state, "ClaimsResolved", {}).value)
    assert "still open" in message and "MJO-4.5" in message
    timed_out = apply(state, "ClaimsResolved", {"timedOut": True})
    assert timed_out.phase == "draw" and timed_out.turn == 2 and timed_out.window is None
    # seat 3's win claim: seat 2, earlier in turn, could win too as far as the table knows —
    # what his tiles allow does not decide the window (hidden information); once he has
    # passed nothing seat 0 could claim beats it: decided before seat 0 answers
    claimed = act(state, "Claim", 3, kind="win")
    with pytest.raises(RuleViolation):
        apply(claimed, "ClaimsResolved", {})
    assert apply(act(claimed, "Claim", 2, kind="pass"), "ClaimsResolved", {}).winners == (3,)


def test_mjo_4_5_nobody_draws_while_the_window_is_open():
    state = ex11()
    assert "claim window" in violated("MJO-4.5", state, "TileDrawn", 2,
                                      tile=state.wall[0]).message


def test_mjo_4_5_a_window_opens_even_when_nobody_can_claim():
    """Hidden information (rules README §5): a window closing at once would tell the table
    that nobody holds a pair of the tile; it waits for the three others' answers."""
    state = table({0: "E"})
    state = act(state, "TileDiscarded", 0, tile="E")
    assert state.phase == "claims" and not any(state.window.may)
    assert state.window.pending == (1, 2, 3)
    violated("MJO-4.5", state, "TileDrawn", 1, tile=state.wall[0])
    state = settle(state)
    assert state.phase == "draw" and state.turn == 1


def test_mjo_3_3_after_a_pong_the_seats_in_between_lose_their_turn():
    state = table({1: "5p", 0: "5p 5p"}, dealer=1)
    state = settle(act(act(state, "TileDiscarded", 1, tile="5p"), "Claim", 0, kind="pong"))
    message = violated("MJO-3.3", state, "TileDrawn", 2, tile=state.wall[0]).message
    assert "lose their turn" in message
    state = settle(act(state, "TileDiscarded", 0, tile=state.seats[0].concealed[-1]))
    assert state.turn == 1 and state.phase == "draw"


def test_mjo_4_6_passing_a_win_carries_no_restriction():
    waiting = "1m 2m 3m 4p 5p 6p 7s 8s 9s C C C 5m"
    state = table({0: "5m E", 2: waiting, 3: "5m"}, wall="W W")
    state = settle(act(act(state, "TileDiscarded", 0, tile="5m"), "Claim", 2, kind="pass"))
    for seat in (1, 2):
        state = act(state, "TileDrawn", seat, tile="W")
        state = settle(act(state, "TileDiscarded", seat, tile="W"))
    state = act(state, "TileDrawn", 3, tile=state.wall[0])
    state = act(state, "TileDiscarded", 3, tile="5m")
    state = apply(act(state, "Claim", 2, kind="win"), "ClaimsResolved", {"timedOut": True})
    assert state.winners == (2,) and state.wins[0].from_seat == 3
