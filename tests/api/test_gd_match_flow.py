"""A 掼蛋 match through the HTTP API: tribute between hands (guandan.md Ex 7, Ex 8), levels and
the A rules (Ex 6, Ex 9), the match clock of seed 001 (Ex 10, T-5.4), 接风 (Ex 5), penalties,
rulings, a voided hand, hidden information (GD-5.7, GD-7.4, README §5) and reads at past
positions. The rules of each step are unit-tested in tests/unit/guandan; here the match's own
fold, its events and its reads are checked end to end."""
from __future__ import annotations

from clients import admin_client
from gd_table import TID, Clock, Table, drawn_knockout

from events.memory_store import InMemoryEventStore
from service import create_app


def new_table(settings: dict | None = None, clock: Clock | None = None) -> Table:
    return Table(admin_client(create_app(store=InMemoryEventStore(clock=clock))), settings)


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
    assert [r["hand"] for r in table.results()] == [1, 2, 3]


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
    assert table.hand_view()["phase"] == "tribute"  # 「可抗贡」: the losers may (GD-7.5)
    table.ok("AntiTributeDeclared", seat=3)
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
    clock = Clock()
    table = new_table(clock=clock)
    table.deal()
    table.steer([0, 2])           # A 5
    table.play_hand([1, 3])       # B 5
    table.play_hand([0, 2])       # A 8
    table.play_hand([1, 3])       # B 8
    table.play_hand([1, 3])       # B J
    table.play_hand([0, 1, 3])    # A 9
    assert levels(table) == {"A": "9", "B": "J"}
    clock.advance(60)
    table.ok("TimeLimitReached", limit_minutes=60)
    match = table.match()
    assert (match["status"], match["winner"], match["reason"]) == ("completed", "B", "time")
    assert match["clock"]["limits_reached"][0]["limit_minutes"] == 60


def test_gd_11_2_a_limit_is_refused_before_it_has_passed_on_the_servers_clock():
    clock = Clock()
    table = new_table(clock=clock)
    started = table.match()["clock"]["started_at"]
    assert started == "2019-06-08T10:00:00.005000Z"  # MatchStarted, after 4 tournament events
    assert table.match()["clock"]["next_limit_at"] == "2019-06-08T11:00:00.005000Z"
    problem = table.rejected("TimeLimitReached", "GD-11.2", limit_minutes=60)
    assert "T-5.4: the 60 minutes from the match's start end at 2019-06-08T11:00:00.005000Z" \
        in problem["detail"]
    clock.advance(59.9)
    table.rejected("TimeLimitReached", "GD-11.2", limit_minutes=60)
    clock.advance(0.1)
    table.ok("TimeLimitReached", limit_minutes=60)  # 2 : 2 → overtime, 30 more minutes
    assert table.match()["clock"]["next_limit_at"] == "2019-06-08T11:30:00.005000Z"
    clock.advance(29)
    table.rejected("TimeLimitReached", "GD-11.2", limit_minutes=90)
    clock.advance(1)
    table.ok("TimeLimitReached", limit_minutes=90)
    assert table.match()["clock"]["stage"] == "extraHand"


def test_gd_ex10_equal_levels_play_30_more_minutes_then_one_more_hand():
    clock = Clock()
    table = new_table(clock=clock)
    table.deal()
    table.steer([0, 2])
    for order in ([1, 3], [0, 2], [1, 3], [0, 2], [1, 3], [0, 1, 3], [1, 2, 0]):
        table.play_hand(order)
    assert levels(table) == {"A": "Q", "B": "Q"}
    table.deal()                  # hand 9, in play at 60 minutes
    clock.advance(60)
    table.ok("TimeLimitReached", limit_minutes=60)
    match = table.match()
    assert (match["status"], match["clock"]["stage"], match["clock"]["next_limit"]) == \
        ("playing", "overtime", 90)
    assert table.hand_view()["phase"] == "tribute"  # equal: the hand goes on into overtime
    table.settle_tribute()
    table.steer([0, 1, 3])        # A K
    table.play_hand([1, 2, 0])    # B K
    table.deal()                  # hand 11, in play at 90 minutes
    table.settle_tribute()
    clock.advance(30)
    table.ok("TimeLimitReached", limit_minutes=90)  # K : K at once; hand 11 does not count
    match = table.match()
    assert (levels(table), match["status"], match["clock"]["stage"], match["next_hand"]) == \
        ({"A": "K", "B": "K"}, "playing", "extraHand", 11)
    assert table.hand_view(11)["phase"] == "voided"
    assert "abandoned at the 90-minute limit" in table.hand_view(11)["void_reason"]
    table.deal(hand=11)            # the extra hand
    table.settle_tribute()
    row = table.steer([3, 0, 1])  # seat 3 goes out first: B 1st and 3rd, K + 2 → A
    assert (row["extra_hand"], row["levels"]) == (True, {"A": "K", "B": "A"})
    match = table.match()
    assert (match["status"], match["winner"], match["winner_team"], match["reason"]) == \
        ("completed", "B", "west", "extraHand")
    table.rejected("TimeLimitReached", "GD-11.1", limit_minutes=120)


def test_gd_11_2_after_the_extra_hand_equal_levels_go_to_its_first_player_out():
    clock = Clock()
    table = new_table(clock=clock)
    table.deal()
    table.steer([0, 2])
    for order in ([0, 2], [0, 2], [0, 2], [1, 3], [1, 3], [1, 3], [1, 3]):
        table.play_hand(order)    # A: 5, 8, J, A; B: 5, 8, J, A (A's first attempt failed)
    assert levels(table) == {"A": "A", "B": "A"}
    clock.advance(60)
    table.ok("TimeLimitReached", limit_minutes=60)
    clock.advance(30)
    table.ok("TimeLimitReached", limit_minutes=90)
    assert table.match()["clock"]["stage"] == "extraHand"
    row = table.play_hand([0, 1, 2])  # at B's A: A wins 1-3 and stays at A; B fails once
    assert (row["extra_hand"], row["levels"], row["failed_attempt"]) == \
        (True, {"A": "A", "B": "A"}, True)
    match = table.match()
    assert (match["status"], match["winner"], match["reason"]) == ("completed", "A", "extraHand")


def test_gd_11_2_a_deciding_limit_abandons_the_hand_in_play():
    clock = Clock()
    table = new_table(clock=clock)
    table.deal()
    table.steer([1, 3])           # B 5 within the 60 minutes
    table.deal()
    table.settle_tribute()
    table.steer([0, 2], until_out=0)  # hand 2 half played: seat 0 is out
    clock.advance(60)
    table.ok("TimeLimitReached", limit_minutes=60)
    match = table.match()
    assert (match["status"], match["winner"], match["reason"]) == ("completed", "B", "time")
    assert match["clock"]["limits_reached"][0]["hand"] == 2
    assert (match["hands_played"], match["levels"]) == (1, {"A": "2", "B": "5"})
    assert table.hand_view(2)["phase"] == "voided"
    table.rejected("Passed", "GD-11.1", hand=2, seat=table.hand_view(2)["turn"] or 1)


def test_gd_11_2_limits_follow_the_match_settings():
    clock = Clock()
    table = new_table({"matchMinutes": 45, "overtimeMinutes": 15}, clock)
    clock.advance(60)
    table.rejected("TimeLimitReached", "GD-11.2", limit_minutes=60)
    table.ok("TimeLimitReached", limit_minutes=45)  # equal levels: overtime
    table.rejected("TimeLimitReached", "GD-11.2", limit_minutes=90)
    table.ok("TimeLimitReached", limit_minutes=60)  # still equal: one more hand
    assert table.match()["clock"]["stage"] == "extraHand"
    table.rejected("TimeLimitReached", "GD-11.2", limit_minutes=75)
    table.deal()
    assert table.hand_view()["extra_hand"] is True


def test_gd_11_2_the_limits_must_fit_a_time_limit_event():
    client = admin_client(create_app(store=InMemoryEventStore()))
    drawn_knockout(client)
    response = client.post(f"/v1/tournaments/{TID}/matches", json={
        "match_id": "R1-1", "settings": {"matchMinutes": 1400, "overtimeMinutes": 41}})
    assert response.status_code == 422 and response.json["rule"] == "GD-11.2"
    assert "at most 1440" in response.json["detail"]
    response = client.post(f"/v1/tournaments/{TID}/matches", json={
        "match_id": "R1-1", "settings": {"matchMinutes": 1400, "overtimeMinutes": 40}})
    assert response.status_code == 201


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


def test_gd_8_4_a_voided_hand_is_dealt_again():
    clock = Clock()
    table = new_table(clock=clock)
    table.deal()
    table.ok("IrregularityReported", rule="GD-8.4", seat=2, detail="seat 2 counted 26 cards")
    clock.advance(60)
    table.ok("TimeLimitReached", limit_minutes=60)  # 2 : 2: overtime, the hand goes on
    table.ok("HandVoided", reason="wrong count: the deck is one card short")
    view = table.hand_view()
    assert (view["phase"], view["void_reason"]) == ("voided", "wrong count: the deck is one card short")
    assert view["irregularities"][0]["rule"] == "GD-8.4"
    match = table.match()
    assert (match["hands_played"], match["next_hand"], match["clock"]["stage"]) == \
        (0, 1, "overtime")
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
