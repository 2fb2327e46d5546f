"""The team event's rounds played through the API with SJ3 tables: the referee's lateness
(T-6.6, Ex 4) and the round's time (SJ3-12.1), forfeits counted for the team event (T-6.5) and
the exclusion after a second one (T-6.7), a round that cannot be paired and the referee's
manual pairing (T-6.4), the standings lots (T-6.8), and the reads at past positions."""
from __future__ import annotations

from clients import admin_client
from spec import assert_matches, assert_response
from tables import Clock, ok

from events.memory_store import InMemoryEventStore
from service import create_app

T = "/v1/tournaments"
TID = "jnu-2006"


class Event:
    """A team event on a server whose clock the test moves."""

    def __init__(self, teams: list[str], rounds: int = 4, **settings):
        self.clock = Clock()
        self.client = admin_client(create_app(store=InMemoryEventStore(clock=self.clock)))
        ok(self.client.post(T, json={"tournament_id": TID, "name": "校庆杯", "game": "SJ3",
                                     "format": "swiss-teams",
                                     "settings": {"rounds": rounds, **settings}}))
        for t in teams:
            ok(self.post("TeamRegistered", {
                "team_id": t, "name": f"{t}队", "leader": f"{t}领队",
                "players": [f"{t}甲", f"{t}乙", f"{t}丙", f"{t}丁"]}))

    def post(self, type_: str, data: dict, stream: str | None = None):
        return self.client.post(f"{T}/{TID}/events", json={
            "type": type_, "stream": stream or f"tournament-{TID}", "data": data})

    def pair(self, **body) -> dict:
        response = self.client.post(f"{T}/{TID}/pairings", json=body)
        return assert_response(response, "post", "/v1/tournaments/{tid}/pairings")["round"]

    def start_all(self, round_: dict) -> list[str]:
        tables = [t["match_id"] for m in round_["meetings"] for t in m["tables"]]
        for table in tables:
            ok(self.client.post(f"{T}/{TID}/matches", json={"match_id": table}))
        return tables

    def late(self, number: int, team: str, pair: str, minutes: int):
        return self.client.post(f"{T}/{TID}/rounds/{number}/lateness",
                                json={"team": team, "pair": pair, "minutes": minutes})

    def disqualify_pair_a(self, round_: dict, team: str) -> dict:
        """A ruling at ``team``'s table a of ``round_`` disqualifies its pair there (SJ3-11.9,
        seed 十〈5〉「重则判取消参赛资格」); returns the team's meeting."""
        meeting = meeting_of(round_, team)
        side = "AB"[meeting["teams"].index(team)]
        ok(self.post("RulingRecorded", {"text": "暗示同伴，取消参赛资格",
                                        "effect": {"kind": "disqualify", "side": side}},
                     stream=f"match-{TID}:{meeting['match_id']}a"))
        return meeting

    def call_time(self, number: int):
        self.clock.advance(minutes=80)
        return self.client.post(f"{T}/{TID}/rounds/{number}/time")

    def rounds(self, **query) -> dict:
        response = self.client.get(f"{T}/{TID}/rounds", query_string=query)
        return assert_response(response, "get", "/v1/tournaments/{tid}/rounds")

    def standings(self, **query) -> dict:
        response = self.client.get(f"{T}/{TID}/standings", query_string=query)
        view = assert_response(response, "get", "/v1/tournaments/{tid}/standings")
        for row in view["ranking"] + view["excluded"]:
            assert_matches("TeamEventStandingsRow", row)
        return view

    def row(self, team: str) -> dict:
        view = self.standings()
        return next(r for r in view["ranking"] + view["excluded"] if r["team"] == team)

    def match(self, table: str) -> dict:
        return ok(self.client.get(f"{T}/{TID}/matches/{table}"))


def meeting_of(round_: dict, team: str) -> dict:
    return next(m for m in round_["meetings"] if team in m["teams"])


def test_a_table_seats_one_pair_of_each_team_with_side_a_the_first_team():
    ev = Event(["T1", "T2"])
    meeting = ev.pair()["meetings"][0]
    a, b = meeting["teams"]
    ok(ev.client.post(f"{T}/{TID}/matches", json={"match_id": meeting["match_id"] + "b"}))
    view = ev.match(meeting["match_id"] + "b")
    assert view["teams"] == {"A": a, "B": b} and view["round"] == 1
    assert [s["player"] for s in view["seats"]] == [f"{a}丙", f"{b}丙", f"{a}丁", f"{b}丁"]
    response = ev.client.post(f"{T}/{TID}/matches", json={
        "match_id": meeting["match_id"] + "a", "teams": {"A": b, "B": a}})
    assert response.status_code == 422 and response.json["rule"] == "T-6.4"


def test_t6_6_ex4_lateness_forfeits_and_the_exclusion_after_the_second():
    """Ex 4: a pair complete at 09:04 → warning; 6th minute → −20 in hand 1; 09:13 → −30; 09:18
    → hand 1 forfeited, the opponents at 3; 09:21 → the round forfeited (opponents 2 points,
    4 : 2). The same pair forfeits again in round 3 → its team leaves the standings and is not
    paired in round 4; its opponents keep their points."""
    ev = Event(["L", "B", "C", "D", "E", "F"])
    r1 = ev.pair()
    ev.start_all(r1)
    late_meeting = meeting_of(r1, "L")
    others = [m for m in r1["meetings"] if m is not late_meeting]
    x, z = others[0]["teams"][0], others[1]["teams"][0]
    ladder = ((x, "a", 4, "warning", 0), (x, "b", 6, "firstHandPoints", 20),
              (z, "a", 13, "firstHandPoints", 30), (z, "b", 18, "firstHandForfeited", 0))
    for team, pair, minutes, consequence, points in ladder:
        envelope = ok(ev.late(1, team, pair, minutes))
        assert envelope["type"] == "LatenessRecorded" and envelope["data"]["minutes"] == minutes
        meeting = meeting_of(r1, team)
        side = "AB"[meeting["teams"].index(team)]
        assert envelope["data"]["side"] == side
        match = ev.match(envelope["stream"].split(":")[1])
        assert [(e["side"], e["consequence"], e["points"]) for e in match["lateness"]] == [
            (side, consequence, points)]
    z_table = meeting_of(r1, z)["match_id"] + "b"
    levels = ev.match(z_table)["levels"]          # hand 1 forfeited: the opponents go up to 3
    assert levels["AB"[1 - meeting_of(r1, z)["teams"].index(z)]] == "3"
    ok(ev.late(1, "L", "a", 21))
    table = late_meeting["match_id"] + "a"
    result = ev.match(table)["result"]
    side = "A" if late_meeting["teams"][0] == "L" else "B"
    assert result["forfeited_by"] == side and result["levels"][side] == 2
    assert ev.rounds()["rounds"][0]["meetings"][r1["meetings"].index(late_meeting)][
        "tables"][0]["result"]["points"] == {side: 0, "AB".replace(side, ""): 2}
    opponent = late_meeting["teams"][1 - late_meeting["teams"].index("L")]
    line = ev.row(opponent)["pairs"][0]["rounds"][0]
    assert (line["points"], line["levels"], line["outcome"]) == (2, [4, 2], "forfeitWin")
    assert ev.row("L")["forfeits"] == [{"round": 1, "pair": "a"}]
    # the others: time is called for the round, tables not dealt end at once on equal levels
    ok(ev.call_time(1))
    assert ev.rounds()["rounds"][0]["complete"] is True
    r2 = ev.pair()
    ev.start_all(r2)
    ok(ev.call_time(2))
    r3 = ev.pair()
    ev.start_all(r3)
    ok(ev.late(3, "L", "a", 25))
    ok(ev.call_time(3))
    view = ev.standings()
    assert [r["team"] for r in view["excluded"]] == ["L"]
    assert view["excluded"][0]["excluded_after_round"] == 3 and view["excluded"][0]["place"] is None
    assert "L" not in [r["team"] for r in view["ranking"]]
    assert ev.row(opponent)["pairs"][0]["rounds"][0]["points"] == 2
    r4 = ev.pair()
    paired = [t for m in r4["meetings"] for t in m["teams"]] + [r4["bye"]]
    assert "L" not in paired and r4["bye"] is not None and len(paired) == 5
    assert ev.rounds()["excluded"] == {"L": 3}


def test_lateness_bad_input_is_refused_and_nothing_stored():
    ev = Event(["T1", "T2"])
    r1 = ev.pair()
    before = len(ev.client.get(f"{T}/{TID}/events?limit=1000").json["events"])
    assert ev.late(1, "T1", "a", 5).json["rule"] == "T-6.6"          # table not started
    ev.start_all(r1)
    after_start = len(ev.client.get(f"{T}/{TID}/events?limit=1000").json["events"])
    response = ev.late(1, "T1", "a", -3)
    assert response.status_code == 400 and response.json["errors"][0]["path"] == "/minutes"
    table = r1["meetings"][0]["match_id"] + "a"
    response = ev.post("LatenessRecorded", {"side": "A", "minutes": -1},
                       stream=f"match-{TID}:{table}")
    assert response.status_code == 400
    assert ev.late(2, "T1", "a", 5).json["rule"] == "T-6.4"          # round 2 not paired
    assert ev.late(1, "T9", "a", 5).status_code == 422
    assert len(ev.client.get(f"{T}/{TID}/events?limit=1000").json["events"]) == after_start
    assert after_start == before + 2                                  # two tables started


def test_sj3_12_1_the_round_time_waits_for_the_alert_minute():
    ev = Event(["T1", "T2"])
    ev.start_all(ev.pair())
    response = ev.client.post(f"{T}/{TID}/rounds/1/time")
    assert response.status_code == 422 and "80 minutes end at" in response.json["detail"]
    assert ev.client.post(f"{T}/{TID}/rounds/2/time").json["rule"] == "T-6.4"
    called = ok(ev.call_time(1))
    # round_started_at: the first table's MatchStarted (this test once asserted the data was
    # limit_minutes alone; the round's start is now part of the one alert, SJ3-12.1)
    started = first_start(ev)
    assert [e["data"] for e in called["events"]] == [
        {"limit_minutes": 80, "round_started_at": started}] * 2
    assert ev.client.post(f"{T}/{TID}/rounds/1/time").json["rule"] == "SJ3-12.1"
    rows = ev.standings()["ranking"]
    assert [(r["score"], r["tie_break_1"], r["tie_break_2"]) for r in rows] == [(2, 1, 0)] * 2


def first_start(ev: Event) -> str:
    events = ev.client.get(f"{T}/{TID}/events?limit=1000").json["events"]
    return min(e["recorded_at"] for e in events if e["type"] == "MatchStarted")


def test_sj3_12_1_one_alert_for_tables_that_started_minutes_apart():
    """「终场前10分钟裁判长统一提醒」: table a starts, table b 7 minutes later; the chief referee's one
    alert at the round's start + 80 minutes calls the time at both tables (before, at b's own
    minute 73, its match would have refused it)."""
    ev = Event(["T1", "T2"])
    meeting = ev.pair()["meetings"][0]["match_id"]
    ok(ev.client.post(f"{T}/{TID}/matches", json={"match_id": meeting + "a"}))
    ev.clock.advance(minutes=7)
    ok(ev.client.post(f"{T}/{TID}/matches", json={"match_id": meeting + "b"}))
    ev.clock.advance(minutes=72, seconds=59)
    early = ev.client.post(f"{T}/{TID}/rounds/1/time")
    assert (early.status_code, early.json["rule"]) == (422, "SJ3-12.1")
    ev.clock.advance(seconds=1)
    called = ok(ev.client.post(f"{T}/{TID}/rounds/1/time"))
    assert [e["stream"].split(":")[1] for e in called["events"]] == [meeting + "a", meeting + "b"]
    for table in ("a", "b"):
        match = ev.match(meeting + table)
        assert (match["time_limit_reached"], match["status"]) == (80, "completed")
    assert ev.rounds()["rounds"][0]["complete"] is True


def test_sj3_11_9_a_disqualified_pair_takes_its_team_out_of_the_next_pairing():
    """Seed 十〈5〉「重则判取消参赛资格」: a ruling disqualifies T1's pair a at its table in round 1:
    that table is forfeited (2 points, 4 : 2 to the opponents); T1 plays only as two pairs, so
    it is absent from round 2's pairing and listed apart in the standings."""
    ev = Event(["T1", "T2", "T3", "T4"])
    r1 = ev.pair()
    ev.start_all(r1)
    meeting = ev.disqualify_pair_a(r1, "T1")
    ok(ev.call_time(1))
    assert ev.rounds()["excluded"] == {"T1": 1}
    r2 = ev.pair()
    paired = [t for m in r2["meetings"] for t in m["teams"]] + [r2["bye"]]
    assert sorted(paired) == ["T2", "T3", "T4"]
    row = ev.row("T1")
    assert (row["place"], row["excluded_after_round"], row["disqualified"]) == (
        None, 1, {"round": 1, "pair": "a"})
    opponent = ev.row(meeting["teams"][1 - meeting["teams"].index("T1")])
    assert opponent["pairs"][0]["rounds"][0]["outcome"] == "forfeitWin"
    csv_rows = ev.client.get(f"{T}/{TID}/standings?format=csv").data.decode("utf-8-sig")
    assert "取消参赛资格 pair a disqualified in round 1" in csv_rows


def test_t6_4_no_valid_pairing_then_a_manual_pairing_with_warnings():
    """Four teams, four rounds: after three rounds every team has met every other; the server
    says so plainly and the referee pairs round 4 by hand, warned of the rematches."""
    ev = Event(["T1", "T2", "T3", "T4"], rounds=4)
    for number in (1, 2, 3):
        ev.start_all(ev.pair())
        ok(ev.call_time(number))
    nxt = ev.rounds()["next"]
    assert nxt["pairable"] is False and "no valid pairing for round 4" in nxt["problem"]
    before = len(ev.client.get(f"{T}/{TID}/events?limit=1000").json["events"])
    response = ev.client.post(f"{T}/{TID}/pairings")
    assert response.status_code == 422 and response.json["rule"] == "T-6.4"
    assert "no valid pairing for round 4" in response.json["detail"]
    assert len(ev.client.get(f"{T}/{TID}/events?limit=1000").json["events"]) == before
    r4 = ev.pair(matches=[{"match_id": "R4-1", "teams": ["T1", "T2"]},
                          {"match_id": "R4-2", "teams": ["T3", "T4"]}],
                 reason="所有队已相遇")
    assert r4["manual"] is True and r4["reason"] == "所有队已相遇"
    assert [w.split(" met")[0] for w in r4["warnings"]] == ["rematch: T1 and T2",
                                                           "rematch: T3 and T4"]
    ev.start_all(r4)
    ok(ev.call_time(4))
    view = ev.standings()
    assert view["rounds_played"] == 4 and view["final"] is False   # all drawn: a 4-way tie
    assert [r["place"] for r in view["ranking"]] == [1, 1, 1, 1]
    drawn = ok(ev.client.post(f"{T}/{TID}/standings/lots"))["events"]
    assert [len(e["data"]["candidates"]) for e in drawn] == [4, 3, 2]
    view = ev.standings()
    assert view["final"] is True and [r["place"] for r in view["ranking"]] == [1, 2, 3, 4]
    assert [r["team"] for r in view["ranking"]][:3] == [e["data"]["winner"] for e in drawn]
    assert view["champion"] == drawn[0]["data"]["winner"]
    assert ev.client.post(f"{T}/{TID}/standings/lots").json["rule"] == "T-6.8"
    assert ev.client.post(f"{T}/{TID}/pairings").json["rule"] == "T-6.4"   # all rounds paired


def test_rounds_and_standings_at_a_past_position_are_what_was_served_then():
    ev = Event(["T1", "T2", "T3"])
    ev.start_all(ev.pair())
    seen = []
    for number in (1, 2):
        head = ev.client.get(f"{T}/{TID}/events?limit=1000").json["events"][-1]["position"]
        seen.append((head, ev.client.get(f"{T}/{TID}/rounds").data,
                     ev.client.get(f"{T}/{TID}/standings").data))
        ok(ev.call_time(number))
        if number == 1:
            ev.start_all(ev.pair())
    assert seen[0][2] != seen[1][2]                   # round 1's results changed the standings
    for head, rounds, standings in seen:
        assert ev.client.get(f"{T}/{TID}/rounds?at={head}").data == rounds
        assert ev.client.get(f"{T}/{TID}/standings?at={head}").data == standings
