"""An SJ3 match through the HTTP API: the reveals of worked example 1, the dealer rotation
(SJ3-4.2), lateness (Ex 10, T-6.6), the round's alert and the result the team event reads
(Ex 11, SJ3-12, T-6.5), a disqualification, hidden information (SJ3-5.1, 5.3) and reads at past
positions."""
from __future__ import annotations

from sj3_table import new_table


def test_sj3_ex1_reveals_in_hand_1_and_the_pause_before_the_kitty():
    table = new_table()
    table.deal({0: "2H 2H 2S 2S 2S", 2: "2D 2D", 3: "2C 2C 2C"})
    table.ok("TrumpDeclared", seat=2, card="2D")
    table.ok("TrumpOvercalled", seat=3, cards=["2C", "2C"])
    table.rejected("TrumpOvercalled", "SJ3-3.4", seat=0, cards=["2H", "2H"])
    table.rejected("TrumpOvercalled", "SJ3-3.4", seat=2, cards=["2D", "2D"])
    table.ok("TrumpOvercalled", seat=0, cards=["2S", "2S", "2S"])
    table.rejected("TrumpOvercalled", "SJ3-3.4", seat=3, cards=["2C", "2C", "2C"])
    bidding = table.hand_view()["bidding"]
    assert (bidding["standing"]["seat"], bidding["standing"]["suit"]) == (0, "S")
    assert [bid["seat"] for bid in bidding["history"]] == [2, 3, 0]
    table.ok("DrawingEnded")
    table.clock.advance(seconds=3)
    table.rejected("KittyTaken", "SJ3-3.6")
    table.clock.advance(seconds=2)
    table.ok("KittyTaken")
    view = table.hand_view()
    assert (view["dealer"], view["trump"]["suit"], view["trump"]["source"], view["phase"]) == \
        (0, "S", "reveal", "burying")
    assert view["seats"][0]["card_count"] == 45


def test_sj3_3_3_in_hand_1_a_counter_reveal_of_the_same_suit_seizes_the_deal():
    table = new_table()
    table.deal({0: "2H", 3: "2H 2H"})
    table.ok("TrumpDeclared", seat=0, card="2H")
    table.ok("TrumpOvercalled", seat=3, cards=["2H", "2H"])
    table.ok("DrawingEnded")
    table.clock.advance(seconds=5)
    table.ok("KittyTaken")
    view = table.hand_view()
    assert (view["dealer"], view["trump"]["suit"]) == (3, "H")


def test_sj3_4_2_the_dealer_side_going_up_hands_the_deal_to_the_partner_else_to_the_next():
    table = new_table()
    rows = [table.play_hand(seed) for seed in (1, 2, 3)]
    for row in rows:
        partner, nxt = (row["dealer"] + 2) % 4, (row["dealer"] + 1) % 4
        assert row["next_dealer"] == (partner if row["final_outcome"] >= 1 else nxt)
    for before, after in zip(rows, rows[1:]):
        assert after["dealer"] == before["next_dealer"]
        assert after["level"] == before["levels"][after["dealer_side"]]


# --- T-6.6: lateness (Ex 10) ----------------------------------------------------------------------

def test_sj3_ex10_eighteen_minutes_late_forfeits_hand_1_and_the_opponents_deal_hand_2_at_3():
    table = new_table()
    table.ok("LatenessRecorded", side="B", minutes=18)
    match = table.match()
    assert (match["levels"], match["next_hand"], match["next_dealer"]) == ({"A": "3", "B": "2"}, 2, 0)
    assert table.results() == [match["last_result"]] == [{"hand": 1, "forfeited_by": "B", "rule": "T-6.6",
                                 "levels_before": {"A": "2", "B": "2"},
                                 "levels": {"A": "3", "B": "2"}, "leveling_side": "A",
                                 "next_dealer": 0}]
    table.hand = 2
    table.deal(seed=3)
    view = table.hand_view()
    assert (view["level"], view["dealer"], view["first_drawer"]) == ("3", 0, 0)


def test_t_6_6_the_opponents_nominate_hand_2s_dealer():
    table = new_table()
    table.ok("LatenessRecorded", side="A", minutes=16, dealer=3)
    assert (table.match()["levels"], table.match()["next_dealer"]) == ({"A": "2", "B": "3"}, 3)


def test_sj3_ex10_twenty_five_minutes_late_forfeits_the_round_4_to_2():
    table = new_table()
    table.ok("LatenessRecorded", side="B", minutes=25)
    match = table.match()
    assert (match["status"], match["winner"], match["reason"]) == ("completed", "A", "forfeit")
    assert match["result"] == {
        "winner": "A", "winner_team": "east", "draw": False, "reason": "forfeit", "forfeit": True,
        "forfeited_by": "B", "teams": {"A": "east", "B": "west"}, "levels": {"A": 4, "B": 2},
        "level_difference": {"A": 2, "B": -2}, "match_points": {"A": 2, "B": 0},
        "hands_played": 0,
        "lateness": [{"side": "B", "minutes": 25, "rule": "T-6.6",
                      "consequence": "roundForfeited", "points": 0}]}
    table.rejected("HandDealt", "SJ3-12", hands=[["2S"]] * 4, kitty=["2S"] * 6)


def test_t_6_5_both_pairs_forfeiting_leaves_no_winner_and_no_points():
    table = new_table()
    table.ok("LatenessRecorded", side="B", minutes=25)
    table.ok("LatenessRecorded", side="A", minutes=30)
    result = table.match()["result"]
    assert (result["winner"], result["forfeited_by"], result["match_points"], result["levels"]) == \
        (None, "both", {"A": 0, "B": 0}, {"A": 2, "B": 2})


# --- SJ3-12: the round's alert and the result (Ex 11) ------------------------------------------------

def test_sj3_ex11_the_alert_during_a_hand_lets_it_finish_then_the_higher_level_wins():
    table = new_table()
    table.to_play({0: "2S"}, card="2S")
    table.clock.advance(minutes=80)
    table.ok("TimeLimitReached", limit_minutes=80)
    assert table.match()["status"] == "playing"  # the hand being played is finished
    table.finish_hand(2)
    match = table.match()
    levels = {side: int(level) for side, level in match["levels"].items()}
    winner = max(levels, key=levels.get) if levels["A"] != levels["B"] else None
    assert (match["status"], match["winner"], match["reason"]) == ("completed", winner, "time")
    result = match["result"]
    assert result["levels"] == levels and result["hands_played"] == 1
    assert result["level_difference"] == {"A": levels["A"] - levels["B"],
                                          "B": levels["B"] - levels["A"]}
    points = {winner: 2, "B" if winner == "A" else "A": 0} if winner else {"A": 1, "B": 1}
    assert result["match_points"] == points
    listed = table.client.get(f"/v1/tournaments/{table.tid}/matches").json["matches"][0]
    assert listed["result"] == result


def test_sj3_ex11_an_alert_between_hands_at_equal_levels_is_a_draw():
    table = new_table()
    table.clock.advance(minutes=85)
    table.ok("TimeLimitReached", limit_minutes=80)
    result = table.match()["result"]
    assert (result["winner"], result["draw"], result["match_points"],
            result["level_difference"]) == (None, True, {"A": 1, "B": 1}, {"A": 0, "B": 0})


def test_sj3_11_9_a_disqualification_forfeits_the_round():
    table = new_table()
    table.to_play({0: "2S"}, card="2S")
    table.ok("RulingRecorded", text="signals by gestures throughout, a serious case (SJ3-11.9)",
             effect={"kind": "disqualify", "side": "A"})
    result = table.match()["result"]
    assert (result["winner"], result["reason"], result["forfeited_by"], result["levels"]) == \
        ("B", "disqualified", "A", {"A": 2, "B": 4})


# --- hidden information and past positions -------------------------------------------------------

def test_sj3_5_1_the_dealer_does_not_see_the_buried_kitty():
    table = new_table()
    table.deal({0: "2S"})
    table.ok("TrumpDeclared", seat=0, card="2S")
    table.ok("DrawingEnded")
    table.clock.advance(seconds=5)
    table.ok("KittyTaken")
    assert table.hand_view(view="seat:0")["seats"][0]["card_count"] == 45
    table.ok("KittyBuried", cards=table.dealt["kitty"])
    assert table.hand_view(view="seat:0")["kitty"]["cards"] is None
    assert table.hand_view(view="referee")["kitty"]["cards"] == table.dealt["kitty"]


def test_sj3_5_3_a_seat_sees_its_own_cards_of_the_last_trick_only_and_the_won_points_are_public():
    table = new_table()
    table.to_play({0: "2S"}, card="2S")
    for event_type, data in table.play_out(6):  # until two tricks are complete
        table.ok(event_type, **{k: v for k, v in data.items() if k != "hand"})
        view = table.hand_view()
        if len(view["tricks"]) == 2 and view["current_trick"] is None:
            break
    seat_view = table.hand_view(view="seat:1")
    first, last = seat_view["tricks"]
    assert [p["cards"] for p in first["plays"]] == [None] * 4
    assert [p["cards"] is not None for p in last["plays"]] == [p["seat"] == 1 for p in last["plays"]]
    referee = table.hand_view()
    won = [c for t in referee["tricks"] if t["winner"] % 2 == 1
           for p in t["plays"] for c in p["cards"] if c[0] in "5TK"]
    assert seat_view["point_cards_won"] == referee["point_cards_won"] == won
    assert seat_view["seats"][0]["cards"] is None and seat_view["seats"][1]["cards"]


def test_sj3_every_past_read_with_at_equals_what_was_live_then():
    table = new_table()
    table.to_play({0: "2S"}, card="2S")
    live = []
    for event_type, data in table.play_out(3)[:12]:
        table.ok(event_type, **{k: v for k, v in data.items() if k != "hand"})
        live.append(table.match())
    for then in live[::3]:
        assert table.match(at=then["position"]) == then
