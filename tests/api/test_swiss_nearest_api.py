"""Issue 22 through the API: the team event's pairing by nearest scores (T-6.4 as amended on
2026-12-01), the proposal with the fewest rematches the chief referee confirms, withdrawals
counted as forfeits (T-6.7 as amended) and the event's end (T-6.11, ``TeamEventClosed``)."""
from __future__ import annotations

import csv
import io

import pytest
from clients import client_as
from spec import assert_response
from tables import ok
from test_swiss_rounds_api import TID, Event, T

STREAM = f"tournament-{TID}"


def win(ev: Event, table: str, side: str):
    """The committee moves ``side`` two levels up at ``table`` before its first hand: when the
    round's time is called the table ends 4 : 2 for it (2 match points, SJ3-12.2)."""
    ok(ev.post("RulingRecorded", {"text": "levels", "effects": [
        {"kind": "adjustLevel", "rule": "SJ3-12.2", "member": "committee", "side": side,
         "levels": 2}]}, stream=f"match-{TID}:{table}"))


def play(ev: Event, number: int, round_: dict, outcomes: dict[str, str]):
    """Plays round ``number``: ``outcomes`` maps a meeting id to one letter per table, a and
    b — ``A`` side A wins, ``B`` side B wins, ``=`` a draw (the time called before a hand)."""
    ev.start_all(round_)
    for meeting, letters in outcomes.items():
        for pair, letter in zip("ab", letters, strict=True):
            if letter != "=":
                win(ev, f"{meeting}{pair}", letter)
    ok(ev.call_time(number))


def events_stored(ev: Event) -> int:
    return len(ok(ev.client.get(f"{T}/{TID}/events?limit=1000"))["events"])


def the_example(method: str) -> Event:
    """Seven teams, two rounds: after them A 7, B 6, C 5, D 5, E 1, F 1 (and G 7), C and D have
    met; then G withdraws and the six others are paired for round 3."""
    ev = Event(list("ABCDEFG"), rounds=4, pairingMethod=method)
    ok(ev.post("LotsDrawn", {"purpose": "pairing", "round": 1, "byes": ["A"], "matches": [
        {"match_id": "R1-1", "teams": ["B", "C"]}, {"match_id": "R1-2", "teams": ["D", "E"]},
        {"match_id": "R1-3", "teams": ["G", "F"]}]}))
    r1 = ev.rounds()["rounds"][0]
    play(ev, 1, r1, {"R1-1": "==", "R1-2": "AA", "R1-3": "A="})
    r2 = ev.pair(matches=[{"match_id": "R2-1", "teams": ["A", "E"]},
                          {"match_id": "R2-2", "teams": ["B", "F"]},
                          {"match_id": "R2-3", "teams": ["C", "D"]}],
                 byes=["G"], reason="the example")
    play(ev, 2, r2, {"R2-1": "A=", "R2-2": "AA", "R2-3": "A="})
    ok(ev.post("TeamWithdrawn", {"team_id": "G"}))
    return ev


@pytest.mark.parametrize("method, pairs", [
    ("nearest", [["A", "C"], ["B", "D"], ["E", "F"]]),
    ("topDown", [["A", "B"], ["C", "E"], ["D", "F"]]),
])
def test_t6_4_nearest_pairs_the_example_within_2_points_where_top_down_meets_4_apart(method,
                                                                                    pairs):
    ev = the_example(method)
    scores = {r["team"]: r["score"] for r in ev.standings()["ranking"]}
    assert {t: scores[t] for t in "ABCDEF"} == {"A": 7, "B": 6, "C": 5, "D": 5, "E": 1, "F": 1}
    upcoming = ev.rounds()["next"]
    assert (upcoming["method"], upcoming["pairable"]) == (method, True)
    assert [m["teams"] for m in upcoming["pairing"]["matches"]] == pairs
    r3 = ev.pair()
    assert [m["teams"] for m in r3["meetings"]] == pairs and r3["bye"] is None
    diffs = [abs(scores[a] - scores[b]) for a, b in pairs]
    assert max(diffs) == (2 if method == "nearest" else 4)


def test_t6_4_an_unknown_pairing_method_is_refused_listing_the_valid_ones():
    ev = Event(["T1", "T2"])
    response = ev.client.post(T, json={"tournament_id": "other", "name": "x", "game": "SJ3",
                                       "format": "swiss-teams",
                                       "settings": {"pairingMethod": "closest"}})
    assert response.status_code == 422 and response.json["rule"] == "T-6.4"
    assert "must be one of nearest, topDown, not 'closest'" in response.json["detail"]
    assert ev.client.get(f"{T}/other").status_code == 404
    assert ev.rounds()["settings"]["pairingMethod"] == "nearest"        # the default


def test_t6_4_without_a_rematch_free_pairing_the_referee_confirms_the_fewest_rematches():
    ev = Event(["T1", "T2", "T3", "T4"], rounds=4)
    for number in (1, 2, 3):
        round_ = ev.pair()
        play(ev, number, round_, {m["match_id"]: "==" for m in round_["meetings"]})
    upcoming = ev.rounds()["next"]
    assert upcoming["pairable"] is False and upcoming["rule"] == "T-6.4"
    assert "no valid pairing" in upcoming["problem"] and "confirm" in upcoming["problem"]
    proposal = upcoming["proposal"]
    assert len(proposal["matches"]) == 2 and len(proposal["warnings"]) == 2
    assert all(w.startswith("rematch") for w in proposal["warnings"])
    before = events_stored(ev)
    refused = ev.client.post(f"{T}/{TID}/pairings", json={})
    assert refused.status_code == 422 and refused.json["rule"] == "T-6.4"
    both = ev.client.post(f"{T}/{TID}/pairings", json={"confirm": True, "matches": [
        {"match_id": "R4-1", "teams": ["T1", "T2"]}]})
    assert both.status_code == 422 and both.json["rule"] == "T-6.4"
    assert events_stored(ev) == before
    r4 = ev.pair(confirm=True)
    assert r4["manual"] is True and r4["warnings"] == proposal["warnings"]
    assert [m["teams"] for m in r4["meetings"]] == [m["teams"] for m in proposal["matches"]]


def test_t6_4_confirm_is_refused_while_the_rules_pair_the_round():
    ev = Event(["T1", "T2", "T3", "T4"])
    r1 = ev.pair()
    play(ev, 1, r1, {m["match_id"]: "==" for m in r1["meetings"]})
    response = ev.client.post(f"{T}/{TID}/pairings", json={"confirm": True})
    assert response.status_code == 422 and response.json["rule"] == "T-6.4"
    assert "no proposal to confirm" in response.json["detail"]


def test_t6_7_a_team_withdrawn_that_misses_two_rounds_is_listed_apart_with_the_reason():
    """Seed 004 「如连续或间接弃权的队或对子不再安排比赛，并不计算全队团体成绩」: a team withdrawn after round 1
    forfeits rounds 2 and 3; after round 3 it is not ranked — in the read, the CSV, and with
    its reason — and its opponents keep their points."""
    ev = Event(["T1", "T2", "T3", "T4", "T5"], rounds=4)
    r1 = ev.pair()
    play(ev, 1, r1, {m["match_id"]: "AA" for m in r1["meetings"]})
    leaving = r1["meetings"][0]["teams"][0]              # won both tables in round 1
    ok(ev.post("TeamWithdrawn", {"team_id": leaving}))
    r2 = ev.pair()
    play(ev, 2, r2, {m["match_id"]: "==" for m in r2["meetings"]})
    row = ev.row(leaving)
    assert row["place"] is not None and row["excluded"] is None and row["withdrawn"]
    assert row["forfeits"] == [{"round": 2, "pair": "a"}, {"round": 2, "pair": "b"}]
    assert row["pairs"][0]["rounds"][1]["outcome"] == "forfeitLoss"
    r3 = ev.pair()
    play(ev, 3, r3, {m["match_id"]: "==" for m in r3["meetings"]})
    view = ev.standings()
    assert leaving not in [r["team"] for r in view["ranking"]]
    (out,) = view["excluded"]
    assert out["team"] == leaving and out["place"] is None and out["score"] == 4
    assert out["excluded"]["rule"] == "T-6.7" and out["excluded"]["after_round"] == 3
    assert "forfeited in rounds 2 and 3" in out["excluded"]["reason"]
    assert "withdrawn after round 1" in out["excluded"]["reason"]
    assert ev.rounds()["excluded"] == {leaving: 3}
    beaten = r1["meetings"][0]["teams"][1]
    assert ev.row(beaten)["pairs"][0]["rounds"][0]["points"] == 0     # lost to it, kept
    response = ev.client.get(f"{T}/{TID}/standings?format=csv")
    rows = list(csv.reader(io.StringIO(response.get_data(as_text=True).lstrip("\ufeff"))))
    assert rows[-1][1] == leaving and rows[-1][0] == ""
    assert "T-6.7" in rows[-1][-1] and "withdrawn after round 1" in rows[-1][-1]


def test_t6_11_an_event_with_fewer_than_two_teams_left_ends_and_its_standings_become_final():
    ev = Event(["T1", "T2", "T3"], rounds=4)
    r1 = ev.pair()
    play(ev, 1, r1, {r1["meetings"][0]["match_id"]: "=="})
    assert ev.standings()["final"] is False
    playing = r1["meetings"][0]["teams"]
    ok(ev.post("TeamWithdrawn", {"team_id": r1["bye"]}))
    ok(ev.post("TeamWithdrawn", {"team_id": playing[0]}))
    rounds = ev.rounds()
    assert rounds["next"] is None and rounds["ended"]["how"] == "teams"
    assert rounds["ended"]["after_round"] == 1 and rounds["ended"]["rule"] == "T-6.11"
    refused = ev.client.post(f"{T}/{TID}/pairings", json={})
    assert refused.status_code == 422 and refused.json["rule"] == "T-6.11"
    view = ev.standings()
    assert view["ended"]["how"] == "teams" and view["final"] is False     # two teams tie
    lots = ok(ev.client.post(f"{T}/{TID}/standings/lots"))["events"]
    assert [(e["data"]["round"], sorted(e["data"]["candidates"])) for e in lots] == [
        (1, sorted(playing))]
    view = ev.standings()
    # the bye's two forfeit wins (4) first; no round was missed by the withdrawn teams
    assert view["final"] is True and view["champion"] == r1["bye"]
    assert [r["team"] for r in view["ranking"]][1] == lots[0]["data"]["winner"]


def test_t6_11_the_chief_referee_closes_an_event_whose_next_round_cannot_be_paired():
    ev = Event(["T1", "T2"], rounds=3)
    app = ev.client.application
    referee = client_as(app, "referee", TID)
    organiser = client_as(app, "organiser", TID)
    close = {"type": "TeamEventClosed", "stream": STREAM, "data": {"reason": "all have met"}}
    too_early = referee.post(f"{T}/{TID}/events", json=close)
    assert too_early.status_code == 422 and too_early.json["rule"] == "T-6.11"
    assert "no round has been paired" in too_early.json["detail"]
    r1 = ev.pair()
    play(ev, 1, r1, {r1["meetings"][0]["match_id"]: "A="})
    before = events_stored(ev)
    forbidden = organiser.post(f"{T}/{TID}/events", json=close)
    assert forbidden.status_code == 403 and "T-6.11" in forbidden.json["detail"]
    no_reason = referee.post(f"{T}/{TID}/events", json={**close, "data": {}})
    assert no_reason.status_code == 400
    assert events_stored(ev) == before
    closed = assert_response(referee.post(f"{T}/{TID}/events", json=close), "post",
                             "/v1/tournaments/{tid}/events")
    assert closed["type"] == "TeamEventClosed"
    twice = referee.post(f"{T}/{TID}/events", json={**close, "data": {"reason": "again"}})
    assert twice.status_code == 422 and twice.json["rule"] == "T-6.11"
    assert "already closed after round 1" in twice.json["detail"]
    assert events_stored(ev) == before + 1
    rounds = ev.rounds()
    assert rounds["next"] is None and rounds["ended"] == {
        "how": "closed", "after_round": 1, "reason": "all have met", "rule": "T-6.11"}
    view = ev.standings()
    assert view["final"] is True and view["ended"]["how"] == "closed"
    assert view["champion"] == r1["meetings"][0]["teams"][0]      # won a, drew b
    after = ev.client.post(f"{T}/{TID}/pairings", json={})
    assert after.status_code == 422 and after.json["rule"] == "T-6.11"


def test_t6_11_an_event_whose_next_round_can_be_paired_is_not_closed():
    ev = Event(["T1", "T2", "T3", "T4"])
    r1 = ev.pair()
    play(ev, 1, r1, {m["match_id"]: "==" for m in r1["meetings"]})
    response = ev.post("TeamEventClosed", {"reason": "we are tired"})
    assert response.status_code == 422 and response.json["rule"] == "T-6.11"
    assert "round 2 can be paired by the rules" in response.json["detail"]
