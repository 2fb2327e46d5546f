"""A 掼蛋 match through the HTTP API: tribute between hands (guandan.md Ex 7, Ex 8), levels and
the A rules (Ex 6, Ex 9), the match clock of seed 001 (Ex 10, T-5.4), 接风 (Ex 5), penalties,
rulings, a voided hand, hidden information (GD-5.7, GD-7.4, README §5) and reads at past
positions. The rules of each step are unit-tested in tests/unit/guandan; here the match's own
fold, its events and its reads are checked end to end."""
from __future__ import annotations

from gd_table import TID, Table

from events.memory_store import InMemoryEventStore
from service import create_app


def new_table(settings: dict | None = None) -> Table:
    return Table(create_app(store=InMemoryEventStore()).test_client(), settings)


def levels(table: Table) -> dict:
    return table.match()["levels"]


# --- Ex 6: places and upgrade, hand by hand ---------------------------------------------------

def test_gd_ex6_places_upgrade_and_the_level_of_the_next_hand():
    table = new_table()
    table.deal()
    row = table.steer([1, 3])  # team B 1st and 2nd: seats 0, 2 double down
    assert (row["winning_team"], row["upgrade"], row["places"], row["double_down"]) == \
        ("B", 3, [1, 3], True)
    assert row["levels"] == {"A": "2", "B": "5"}
    match = table.match()
    assert (match["level_team"], match["hands_played"], match["next_hand"]) == ("B", 1, 2)
    row = table.play_hand([0, 1, 2])  # hand 2 at B's 5: seat 3 is 4th; team A 1-3 → +2
    assert (row["level"], row["level_team"], row["places"], row["upgrade"]) == \
        ("5", "B", [0, 1, 2, 3], 2)
    row = table.play_hand([0, 1, 3])  # hand 3 at A's 4: seat 2 4th, team A 1-4 → +1
    assert (row["level"], row["places"], row["upgrade"], row["levels"]) == \
        ("4", [0, 1, 3, 2], 1, {"A": "5", "B": "5"})
    assert [r["hand"] for r in table.match()["history"]] == [1, 2, 3]


# --- Ex 7, Ex 8: tribute, return and the first lead -------------------------------------------

def team_a_at_8() -> Table:
    """Hands 1 and 2 go 0, 2 (team A 1st and 2nd twice: 2 → 5 → 8)."""
    table = new_table()
    table.deal()
    table.steer([0, 2])
    table.play_hand([0, 2])
    assert levels(table) == {"A": "8", "B": "2"}
    return table


def test_gd_ex7_double_down_tribute_returns_face_down_and_the_higher_payer_leads():
    table = team_a_at_8()
    table.deal({1: "8H 8H SJ", 3: "8C"}, low_seats=(1, 3))
    view = table.hand_view()
    assert (view["level"], view["wildcard"], view["phase"]) == ("8", "8H", "tribute")
    assert (view["tribute"]["case"], view["tribute"]["payers"], view["tribute"]["receivers"]) == \
        ("double", [1, 3], [0, 2])
    table.ok("TributePaid", seat=1, card="SJ")  # he still pays SJ: the wildcards are excluded
    table.ok("TributePaid", seat=3, card="8C")
    tribute = table.hand_view(view="public")["tribute"]
    assert {p["seat"]: (p["card"], p["to"]) for p in tribute["paid"]} == {1: ("SJ", 0),
                                                                         3: ("8C", 2)}
    given = table.held(0)[-1]
    table.ok("TributeReturned", seat=0, card=given)
    # face down until both returns are in (GD-7.4): only its giver and the officials see it
    for viewer, sees in (("public", False), ("seat:1", False), ("seat:0", True),
                         ("referee", True)):
        returns = {r["seat"]: r for r in table.hand_view(view=viewer)["tribute"]["returns"]}
        assert returns[0]["made"] and (returns[0]["card"] == given) is sees, viewer
        assert not returns[2]["made"] and returns[2]["card"] is None
    table.ok("TributeReturned", seat=2, card=table.held(2)[0])
    view = table.hand_view(view="public")
    assert all(r["card"] for r in view["tribute"]["returns"])
    assert (view["phase"], view["first_leader"], view["turn"]) == ("playing", 1, 1)
    assert sum(s["card_count"] for s in table.hand_view()["seats"]) == 108


def test_gd_ex7_one_big_joker_each_is_anti_tribute_and_the_first_player_leads():
    table = team_a_at_8()
    table.deal({1: "BJ", 3: "BJ"}, low_seats=(1, 3))
    view = table.hand_view(view="public")
    assert view["tribute"]["anti_tribute"] == [1, 3]
    assert view["tribute"]["big_jokers_shown"] == [{"seat": 1, "count": 1},
                                                   {"seat": 3, "count": 1}]
    assert (view["phase"], view["first_leader"], view["tribute"]["paid"]) == ("playing", 0, [])


def test_gd_ex8_single_down_last_pays_first_and_leads():
    table = new_table()
    table.deal()
    row = table.steer([1, 0, 3])  # team B 1st and 3rd → +2; seat 2 last
    assert (row["upgrade"], row["levels"]) == (2, {"A": "2", "B": "4"})
    table.deal({1: "6D JD 4D", 2: "AS"}, low_seats=(2,))
    table.ok("TributePaid", seat=2, card="AS")
    table.ok("TributeReturned", seat=1, card="6D")
    view = table.hand_view()
    assert (view["tribute"]["case"], view["first_leader"], view["turn"]) == ("single", 2, 2)
    assert "AS" in view["seats"][1]["cards"] and "6D" in view["seats"][2]["cards"]


def test_gd_ex8_partner_last_third_pays_first_and_leads():
    table = new_table()
    table.deal()
    row = table.steer([1, 2, 0])  # team B 1st and 4th → +1
    assert (row["upgrade"], row["places"]) == (1, [1, 2, 0, 3])
    table.deal()
    view = table.hand_view()
    assert (view["tribute"]["case"], view["tribute"]["payers"]) == ("partnerLast", [0])
    table.settle_tribute()
    assert table.hand_view()["first_leader"] == 0


# --- Ex 5: 接风 -----------------------------------------------------------------------------------

def test_gd_ex5_the_trick_ends_on_an_out_players_play_and_his_partner_leads():
    table = new_table()
    table.deal()
    table.steer([0, 2], until_out=0)  # seat 0 plays his last cards and is 1st
    assert table.hand_view()["turn"] == 1
    for seat in (1, 2, 3):
        table.ok("Passed", seat=seat)
    view = table.hand_view()
    ended = view["tricks"][-1]
    assert (ended["winner"], ended["next_leader"], ended["jiefeng"]) == (0, 2, True)
    last_play = [p for p in ended["plays"] if not p["pass"]][-1]
    assert last_play["seat"] == 0 and last_play["went_out"]
    assert (view["turn"], view["current_trick"], view["top"]) == (2, None, None)
    table.rejected("Passed", "GD-5.2", seat=2)  # he leads: a leader cannot pass


# --- Ex 9: playing A --------------------------------------------------------------------------

def team_a_at_ace() -> Table:
    table = new_table()
    table.deal()
    table.steer([0, 2])
    for _ in range(3):
        table.play_hand([0, 2])
    match = table.match()
    assert (match["levels"], match["level_team"]) == ({"A": "A", "B": "2"}, "A")
    return table


def test_gd_ex9_1_first_and_third_at_a_wins_the_game_and_the_match():
    table = team_a_at_ace()
    row = table.play_hand([2, 1, 0])
    assert (row["level"], row["game_winner"], row["failed_attempt"]) == ("A", "A", False)
    match = table.match()
    assert (match["status"], match["winner"], match["winner_team"], match["reason"]) == \
        ("completed", "A", "east", "game")
    bracket = table.client.get(f"/v1/tournaments/{TID}/bracket").json
    assert bracket["rounds"][0]["matches"][0]["winner"] == "east"
    assert bracket["champion"] == "east"


def test_gd_ex9_2_to_5_three_failed_attempts_send_team_a_back_to_2():
    table = team_a_at_ace()
    row = table.play_hand([0, 1, 3])  # 1-4: failed attempt 1, next hand again at A
    assert (row["failed_attempt"], row["a_failures"], row["levels"]["A"]) == (True, {"A": 1, "B": 0}, "A")
    row = table.play_hand([3, 1])  # team B +3: failed attempt 2, next hand at B's level
    assert (row["level"], row["failed_attempt"], row["a_failures"]["A"]) == ("A", True, 2)
    row = table.play_hand([0, 2])  # team A wins at B's 5: stays at A, no attempt counted
    assert (row["level"], row["failed_attempt"], row["levels"]["A"], row["a_failures"]["A"]) == \
        ("5", False, "A", 2)
    row = table.play_hand([1, 3])  # team B wins at A: failed attempt 3 → A back to 2
    assert (row["level"], row["failed_attempt"]) == ("A", True)
    assert row["levels"] == {"A": "2", "B": "8"} and row["a_failures"] == {"A": 0, "B": 0}
    assert table.match()["status"] == "playing"


# --- Ex 10: the match clock (T-5.4, GD-11.2) -------------------------------------------------------

def test_gd_ex10_at_60_minutes_the_higher_level_wins():
    table = new_table()
    table.deal()
    table.steer([0, 2])           # A 5
    table.play_hand([1, 3])       # B 5
    table.play_hand([0, 2])       # A 8
    table.play_hand([1, 3])       # B 8
    table.play_hand([1, 3])       # B J
    table.play_hand([0, 1, 3])    # A 9
    assert levels(table) == {"A": "9", "B": "J"}
    table.ok("TimeLimitReached", limit_minutes=60)
    match = table.match()
    assert (match["status"], match["winner"], match["reason"]) == ("completed", "B", "time")
    assert match["clock"]["limits_reached"][0]["limit_minutes"] == 60


def test_gd_ex10_equal_levels_play_30_more_minutes_then_one_more_hand():
    table = new_table()
    table.deal()
    table.steer([0, 2])
    for order in ([1, 3], [0, 2], [1, 3], [0, 2], [1, 3], [0, 1, 3], [1, 2, 0]):
        table.play_hand(order)
    assert levels(table) == {"A": "Q", "B": "Q"}
    table.ok("TimeLimitReached", limit_minutes=60)
    match = table.match()
    assert (match["status"], match["clock"]["stage"], match["clock"]["next_limit"]) == \
        ("playing", "overtime", 90)
    table.play_hand([0, 1, 3])    # A K
    table.deal()
    table.settle_tribute()
    table.ok("TimeLimitReached", limit_minutes=90)  # the hand in play is finished first
    assert table.match()["clock"]["decision_pending"] == 90
    table.steer([1, 2, 0])        # B K
    match = table.match()
    assert (levels(table), match["status"], match["clock"]["stage"]) == \
        ({"A": "K", "B": "K"}, "playing", "extraHand")
    row = table.play_hand([3, 0, 1])  # the extra hand: seat 3 goes out first
    assert row["extra_hand"] is True
    match = table.match()
    assert (match["status"], match["winner"], match["winner_team"], match["reason"]) == \
        ("completed", "B", "west", "extraHand")
    table.rejected("TimeLimitReached", "GD-11.1", limit_minutes=120)


def test_gd_11_2_a_limit_during_a_hand_waits_for_its_end():
    table = new_table()
    table.deal()
    table.ok("TimeLimitReached", limit_minutes=60)
    assert table.match()["status"] == "playing"
    table.steer([1, 0, 3])
    match = table.match()
    assert (match["status"], match["winner"], match["reason"]) == ("completed", "B", "time")
    assert match["clock"]["limits_reached"][0]["hand"] == 1


def test_gd_11_2_limits_follow_the_match_settings():
    table = new_table({"matchMinutes": 45, "overtimeMinutes": 15})
    table.rejected("TimeLimitReached", "GD-11.2", limit_minutes=60)
    table.ok("TimeLimitReached", limit_minutes=45)  # equal levels: overtime
    table.rejected("TimeLimitReached", "GD-11.2", limit_minutes=90)
    table.ok("TimeLimitReached", limit_minutes=60)  # still equal: one more hand
    assert table.match()["clock"]["stage"] == "extraHand"
    table.rejected("TimeLimitReached", "GD-11.2", limit_minutes=75)
    table.deal()
    assert table.hand_view()["extra_hand"] is True


# --- penalties, rulings, a voided hand ------------------------------------------------------------

def test_a_level_penalty_applies_at_once_between_hands_and_after_the_hand_in_play():
    table = new_table()
    table.deal()
    table.steer([1, 3])  # B at 5
    table.ok("LevelPenaltyAssessed", rule="GD-10.1", side="B", levels=2, reason="signals")
    assert levels(table) == {"A": "2", "B": "3"}
    table.deal()
    table.ok("LevelPenaltyAssessed", rule="GD-9.3", side="A", levels=1)
    assert levels(table) == {"A": "2", "B": "3"}  # the hand keeps its level
    penalties = table.match()["penalties"]
    assert [p["applied_after_hand"] for p in penalties] == [1, None]
    table.settle_tribute()
    row = table.steer([1, 3])   # B +3 at 3 → 6; A stays at 2 (never below 2)
    assert row["levels"] == {"A": "2", "B": "6"}
    assert [p["applied_after_hand"] for p in table.match()["penalties"]] == [1, 2]


def test_gd_10_1_a_disqualified_side_loses_the_match():
    table = new_table()
    table.deal()
    table.ok("RulingRecorded", text="以表情示意对家，取消成绩",
             effect={"kind": "disqualify", "side": "A"})
    match = table.match()
    assert (match["status"], match["winner"], match["winner_team"], match["reason"]) == \
        ("completed", "B", "west", "disqualified")
    assert match["rulings"][0]["effect"] == {"kind": "disqualify", "side": "A"}
    table.rejected("Passed", "GD-11.1", seat=1)
    bracket = table.client.get(f"/v1/tournaments/{TID}/bracket").json
    assert bracket["champion"] == "west"


def test_gd_8_4_a_voided_hand_is_dealt_again_and_decides_a_waiting_limit():
    table = new_table()
    table.deal()
    table.ok("IrregularityReported", rule="GD-8.4", seat=2, detail="seat 2 counted 26 cards")
    table.ok("TimeLimitReached", limit_minutes=60)
    table.ok("HandVoided", reason="wrong count: the deck is one card short")
    view = table.hand_view()
    assert (view["phase"], view["void_reason"]) == ("voided", "wrong count: the deck is one card short")
    assert view["irregularities"][0]["rule"] == "GD-8.4"
    match = table.match()
    assert (match["hands_played"], match["next_hand"], match["clock"]["stage"]) == \
        (0, 1, "overtime")  # 2 : 2 at the limit
    table.deal(hand=1)
    assert table.hand_view()["phase"] == "playing"


# --- hidden information and reads -------------------------------------------------------------------

def test_hidden_information_a_seat_sees_its_own_cards_and_the_counts_of_ten_or_fewer():
    table = new_table()
    table.deal(leader=0)
    for viewer, own in (("public", None), ("seat:1", 1), ("referee", "all")):
        seats = table.hand_view(view=viewer)["seats"]
        for s in seats:
            sees = own == "all" or own == s["seat"]
            assert (s["cards"] is not None, s["dealt"] is not None) == (sees, sees), viewer
            assert (s["card_count"] is not None) == sees, viewer  # 27 cards: not announced
    table.steer([0, 2], until_out=0)
    public = table.hand_view(view="public")
    assert public["seats"][0]["card_count"] == 0 and public["seats"][0]["cards"] is None
    assert {"seat": 0, "count": 0} in public["announced"]
    table.steer([0, 2])
    public = table.hand_view(view="public")  # a finished hand is public
    assert all(s["cards"] is not None for s in public["seats"])


def test_reads_at_a_past_position_equal_what_was_live_then():
    table = new_table()
    table.deal()
    live = table.match()
    table.steer([1, 3])
    table.deal()
    assert table.match(at=live["position"]) == live
    hand_then = table.hand_view(1, at=live["position"])
    assert hand_then["phase"] == "playing" and hand_then["result"] is None
    listed = table.client.get(f"/v1/tournaments/{TID}/matches").json["matches"][0]
    assert (listed["game"], listed["hands_played"], listed["levels"]) == \
        ("GD", 1, {"A": "2", "B": "5"})
