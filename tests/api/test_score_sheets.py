"""Score-sheet recording (match setting ``recording: "sheet"``, issue 19): a match played card
by card by the simulator's bots, its result rows read back from ``GET …/hands`` and posted one
``HandResultRecorded`` / ``GDHandResultRecorded`` per hand into a match of a second tournament
recorded from score sheets — which must reach the same rows, levels, dealer, winner, bracket and
standings; and every row the rules make impossible refused with the rule (or the setting) at
fault, nothing stored."""
from __future__ import annotations

import json
import random

import gd_table
import pytest
import sj2_table
import sj3_table
from clients import admin_client, client_as
from spec import errors, is_valid, marshmallow_accepts
from tables import Clock, ok

from events import default_catalogue
from events.memory_store import InMemoryEventStore
from projections.shengji_views import match_view
from projections.viewers import Viewer
from rules import matches
from service import create_app
from service.simulator import bots

SHEET = {"recording": "sheet"}


def new_app(clock: Clock | None = None):
    return create_app(store=InMemoryEventStore(clock=clock or Clock()))


def bot_events(table, stamps) -> list[tuple[str, dict]]:
    """The whole SJ2 match played by the simulator's bots on the match folded here, from the
    referee's view (rules.matches, as the server folds it): the events to post, hand numbers
    left in. ``stamps`` gives each event's time (the declaration window is judged on it)."""
    rng = random.Random(11)
    m, events = table.state(), []
    while (action := bots.next_action(json.loads(json.dumps(match_view(m, Viewer("referee")))),
                                      rng)) is not None:
        m = matches.apply(m, *action, next(stamps))
        events.append(action)
    return events


def post_batch(table, events: list[tuple[str, dict]]) -> None:
    body = {"events": [{"type": t, "stream": table.stream, "data": d} for t, d in events]}
    ok(table.client.post(f"/v1/tournaments/{table.tid}/events", json=body))


def row_of_sj_result(result: dict, penalties: list[dict] = ()) -> dict:
    """What a score sheet says of a hand, taken from its result row, and its ``penalties`` as
    the referee's hand read shows them (a failed throw's, SJ2-8.5 / SJ3-7.3)."""
    return {"hand": result["hand"], "dealer": result["dealer"], "trump": result["trump"],
            "trick_points": result["trick_points"], "kitty_points": result["kitty_points"],
            "multiplier": result["multiplier"],
            "penalties": [{"side": p["side"], "points": p["points"], "rule": p["rule"]}
                          for p in penalties]}


def outcome(table) -> dict:
    """What the sheet must reproduce: the match's levels, dealer and end, its rows, the bracket
    and the standings (ids of the tournament left out)."""
    match = table.match()
    bracket = ok(table.client.get(f"/v1/tournaments/{table.tid}/bracket"))
    standings = ok(table.client.get(f"/v1/tournaments/{table.tid}/standings"))
    for read in (bracket, standings):
        read.pop("tournament_id", None)
        read.pop("position", None)
    keys = ("levels", "next_dealer", "level_team", "a_failures", "status", "winner",
            "winner_team", "reason", "hands_played", "next_hand", "last_result")
    return {"match": {k: match[k] for k in keys if k in match},
            "rows": table.results(), "bracket": bracket, "standings": standings}


def replayed_sj2(client, rows: list[dict], penalties: dict[int, list], tie: dict | None,
                 tid: str = "sj2-sheet") -> sj2_table.Table:
    sheet = sj2_table.Table(client, {"maxHands": 4, **SHEET}, tid=tid)
    for row in rows:
        sheet.ok("HandResultRecorded", **row_of_sj_result(row, penalties[row["hand"]]))
    if tie is not None:
        sheet.ok("LotsDrawn", **tie)
    return sheet


# --- SJ2: the same hands card by card and from the sheet ----------------------------------------

@pytest.fixture(scope="module")
def sj2_pair():
    """An SJ2 match of four hands played card by card (the bots, with their throws and the
    penalties these bring), and the same hands posted from score-sheet rows."""
    clock = Clock()
    client = admin_client(new_app(clock))
    cards = sj2_table.Table(client, {"maxHands": 4}, tid="sj2-cards")
    stamps = (f"2030-01-01T00:{n // 60000 % 60:02d}:{n // 1000 % 60:02d}.{n % 1000:03d}000Z"
              for n in range(10 ** 6))
    events = bot_events(cards, stamps)
    post_batch(cards, [e for e in events if not (e[0] == "LotsDrawn" and
                                                 e[1]["purpose"] == "matchTie")])
    tie = next((dict(d) for t, d in events if t == "LotsDrawn" and d["purpose"] == "matchTie"),
               None)
    if tie is not None:
        cards.ok("LotsDrawn", **tie)
    rows = cards.results()
    penalties = {row["hand"]: cards.hand_view(row["hand"])["penalties"] for row in rows}
    sheet = replayed_sj2(client, rows, penalties, tie)
    return cards, sheet, rows, penalties


def test_sj2_a_match_from_score_sheet_rows_reaches_the_same_levels_winner_and_bracket(sj2_pair):
    cards, sheet, rows, penalties = sj2_pair
    assert len(rows) == 4 and any(penalties.values())  # a failed throw's penalty is replayed
    played, recorded = outcome(cards), outcome(sheet)
    assert played["match"]["status"] == "completed"
    assert played == recorded  # rows, levels, next dealer, winner, bracket and standings
    assert recorded["bracket"]["champion"] == sheet.match()["winner_team"]


def test_sj2_the_sheet_match_reads_say_it_is_recorded_by_sheet(sj2_pair):
    cards, sheet, _, _ = sj2_pair
    assert (cards.match()["recording"], sheet.match()["recording"]) == ("cards", "sheet")
    assert sheet.match()["settings"]["recording"] == "sheet"
    assert sheet.match()["current_hand"] is None
    response = sheet.client.get(f"/v1/tournaments/{sheet.tid}/matches/{sheet.mid}/hands/2")
    assert response.status_code == 404
    assert response.json["detail"] == (
        "hand 2 of match 'R1-1' was recorded from a score sheet (match setting recording: "
        "\"sheet\"): card-by-card replay is not available; its result row is at "
        "/v1/tournaments/sj2-sheet/matches/R1-1/hands")
    # a hand not recorded yet is simply not there
    missing = sheet.client.get(f"/v1/tournaments/{sheet.tid}/matches/{sheet.mid}/hands/9")
    assert missing.status_code == 404 and "has not been dealt" in missing.json["detail"]


def test_sj2_after_the_match_ended_a_row_is_refused(sj2_pair):
    _, sheet, _, _ = sj2_pair
    problem = sheet.rejected("HandResultRecorded", "SJ2-14", hand=5, trick_points=0,
                             kitty_points=0, multiplier=0)
    assert "the match is over" in problem["detail"]


# --- SJ2: rows the rules make impossible ---------------------------------------------------------

@pytest.fixture
def sheet():
    return sj2_table.Table(admin_client(new_app()), {"maxHands": 3, **SHEET}, tid="sj2-rows")


def row(**given) -> dict:
    return {"hand": 1, "dealer": 0, "trump": "S", "trick_points": 60, "kitty_points": 10,
            "multiplier": 0, **given}


@pytest.mark.parametrize("given, rule, words", [
    ({"trick_points": 83}, "SJ2-1.5", "trick_points 83 is not a multiple of 5"),
    ({"kitty_points": 12}, "SJ2-1.5", "kitty_points 12 is not a multiple of 5"),
    ({"trick_points": 150, "kitty_points": 55}, "SJ2-1.5", "2 decks hold 200 points in all"),
    ({"trick_points": 100, "kitty_points": 85}, "SJ2-1.3", "a kitty of 8 cards holds at most 80"),
    ({"multiplier": 3}, "SJ2-11.2", ("multiplier 3 is not one a winning play gives the kitty: "
                                     "0 (not captured) or 2, 4, 8")),
    ({"multiplier": 1}, "SJ2-11.2", "multiplier 1 is not one"),
    ({"hand": 2}, "SJ2-16", "the next hand to record is hand 1, not 2"),
    ({"dealer": None}, "SJ2-5.1", "the row must name it (dealer)"),
], ids=["points-not-fives", "kitty-not-fives", "more-than-the-decks", "more-than-the-kitty",
        "multiplier-3", "multiplier-1", "wrong-hand", "no-first-dealer"])
def test_sj2_an_impossible_row_is_refused_with_the_rule(sheet, given, rule, words):
    problem = sheet.rejected("HandResultRecorded", rule, **row(**given))
    assert words in problem["detail"]


def test_sj2_a_row_must_follow_the_dealer_rotation_and_may_repeat_it(sheet):
    sheet.ok("HandResultRecorded", **row(trick_points=85))  # the defenders take the deal
    problem = sheet.rejected("HandResultRecorded", "SJ2-5.3",
                             **row(hand=2, dealer=2, trick_points=0))
    assert problem["detail"] == "SJ2-5.3: seat 1 deals this hand by the rotation, not seat 2"
    sheet.ok("HandResultRecorded", **row(hand=2, dealer=1, trick_points=0))
    assert sheet.match()["levels"] == {"A": "2", "B": "5"}  # P = 0: dealer side +3


def test_sj2_a_rows_penalties_and_errors_are_scored_as_a_played_hands(sheet):
    """SJ2-12.6: P = 50 + 10 × 4 − 20 (a penalty against the defenders, B) = 70; the defenders'
    follow error first, max(70 − 40, 0) = 30, then the dealer side's, max(30 + 40, 80) = 80:
    the defenders take the deal without a level (SJ2-13.1), seat 1 deals next (SJ2-5.3)."""
    sheet.ok("HandResultRecorded", **row(trick_points=50, kitty_points=10, multiplier=4,
                                        penalties=[{"side": "B", "points": 20}],
                                        follow_errors=["A", "B"]))
    result = sheet.results()[0]
    assert {k: result[k] for k in ("kitty_captured", "kitty_capture", "penalty_points",
                                   "raw_points", "final_points", "result", "levels",
                                   "next_dealer")} == {
        "kitty_captured": True, "kitty_capture": 40, "penalty_points": -20, "raw_points": 70,
        "final_points": 80, "result": {"winner": "defenders", "levels": 0, "deal_passes": True},
        "levels": {"A": "2", "B": "2"}, "next_dealer": 1}
    assert [(a["kind"], a["before"], a["after"]) for a in result["adjustments"]] == [
        ("defenders_follow_error", 70, 30), ("dealer_follow_error", 30, 80)]


def test_sj2_a_card_event_in_a_sheet_match_is_refused_naming_the_setting(sheet):
    problem = sheet.rejected("HandDealt", "SJ2-18", **sj2_table.build_deal({}, seed=3))
    assert problem["detail"] == (
        "SJ2-18: setting recording is \"sheet\": this match is recorded from score sheets, one "
        "HandResultRecorded per hand; HandDealt records cards")
    sheet.rejected("CardsPlayed", "SJ2-18", seat=0, cards=["2S"])


def test_sj2_a_row_in_a_match_recorded_by_cards_is_refused_naming_the_setting():
    table = sj2_table.Table(admin_client(new_app()))
    problem = table.rejected("HandResultRecorded", "SJ2-18", **row())
    assert problem["detail"].startswith("SJ2-18: setting recording is \"cards\": ")


def test_sj2_a_row_is_checked_by_its_schema_and_a_recording_by_the_settings(sheet):
    sheet.bad("HandResultRecorded", **row(trick_points="60"))
    sheet.bad("HandResultRecorded", **row(follow_errors=["C"]))
    client = admin_client(new_app())
    response = client.post("/v1/tournaments", json={
        "tournament_id": "t", "name": "x", "game": "SJ2", "format": "knockout",
        "settings": {"match": {"recording": "paper"}}})
    assert response.status_code == 422
    assert response.json["detail"] == "SJ2-18: setting recording must be one of cards, sheet, " \
                                      "not 'paper'"


def test_sj2_the_scorer_is_the_table_or_a_referee_not_a_player(sheet):
    app = sheet.client.application
    url = f"/v1/tournaments/{sheet.tid}/events"
    body = {"type": "HandResultRecorded", "stream": sheet.stream, "data": row()}
    player = client_as(app, "player", sheet.tid, sheet.mid, seat=0)
    assert player.post(url, json=body).status_code == 403
    assert client_as(app, "table", sheet.tid, sheet.mid).post(url, json=body).status_code == 201


# --- Guandan: the same hands played and from the sheet ------------------------------------------

# going-out orders steered through the A rules (GD-6): A climbs 2 → 5 → 8 → J → K → A, fails
# at A (1st with its partner last), fails again as B wins a hand, wins one at B's level and stays
# at A, then plays through A (1st and 2nd)
GD_ORDERS = ([0, 2], [0, 2], [0, 2], [0, 3, 2], [0, 2], [0, 1, 3], [1, 3], [2, 1, 0], [0, 2])


def row_of_gd_result(result: dict) -> dict:
    """What a score sheet says of a hand: the four seats first out to last (a double down's
    losers, not ranked by the result, in seat order) and the anti-tribute."""
    places = result["places"]
    return {"hand": result["hand"], "order": places + [s for s in range(4) if s not in places],
            "antiTribute": result["anti_tribute"]}


@pytest.fixture(scope="module")
def gd_pair():
    client = admin_client(new_app(gd_table.Clock()))
    cards = gd_table.Table(client, tid="gd-cards")
    for order in GD_ORDERS:
        cards.play_hand(order)
    sheet = gd_table.Table(client, SHEET, tid="gd-sheet")
    for result in cards.results():
        sheet.ok("GDHandResultRecorded", **row_of_gd_result(result))
    return cards, sheet


def test_gd_a_match_from_score_sheet_rows_reaches_the_same_levels_winner_and_bracket(gd_pair):
    cards, sheet = gd_pair
    played, recorded = outcome(cards), outcome(sheet)
    rows = played["rows"]
    assert [r["tribute"] for r in rows] == ["none", "double", "double", "double", "single",
                                            "double", "partnerLast", "double", "single"]
    assert [r["hand"] for r in rows if r["failed_attempt"]] == [6, 7]  # at A's own A
    assert (played["match"]["status"], played["match"]["winner"], played["match"]["reason"]) \
        == ("completed", "A", "game")
    assert played == recorded  # rows, levels, winner, bracket and standings
    match = sheet.match()
    assert (match["recording"], match["current_hand"], match["a_failures"]) == \
        ("sheet", None, {"A": 2, "B": 0})


def test_gd_after_the_match_ended_a_row_is_refused(gd_pair):
    _, sheet = gd_pair
    problem = sheet.rejected("GDHandResultRecorded", "GD-11.1", hand=10, order=[0, 2, 1, 3])
    assert problem["detail"].startswith("GD-11.1: the match is over: side A won")


def test_gd_a_sheet_hand_has_no_card_by_card_replay(gd_pair):
    _, sheet = gd_pair
    response = sheet.client.get(f"/v1/tournaments/{sheet.tid}/matches/{sheet.mid}/hands/1")
    assert response.status_code == 404
    assert "recorded from a score sheet (match setting recording: \"sheet\"): card-by-card " \
           "replay is not available" in response.json["detail"]


@pytest.fixture
def gd_sheet():
    return gd_table.Table(admin_client(new_app(gd_table.Clock())), SHEET, tid="gd-rows")


@pytest.mark.parametrize("given, rule, words", [
    ({"order": [0, 0, 1, 2]}, "GD-5.4", ("order [0, 0, 1, 2] must be a permutation of the "
                                         "four seats 0-3")),
    ({"antiTribute": True}, "GD-7.5", "no tribute is due in this hand"),
    ({"hand": 2}, "GD-12", "the next hand to record is hand 1, not 2"),
], ids=["not-a-permutation", "anti-tribute-in-hand-1", "wrong-hand"])
def test_gd_an_impossible_row_is_refused_with_the_rule(gd_sheet, given, rule, words):
    problem = gd_sheet.rejected("GDHandResultRecorded", rule,
                                **{"hand": 1, "order": [1, 3, 0, 2], **given})
    assert words in problem["detail"]


def test_gd_a_row_of_three_seats_is_refused_by_its_schema(gd_sheet):
    gd_sheet.bad("GDHandResultRecorded", hand=1, order=[1, 3, 0])


def test_gd_anti_tribute_is_taken_where_tribute_is_due(gd_sheet):
    gd_sheet.ok("GDHandResultRecorded", hand=1, order=[1, 3, 0, 2])
    gd_sheet.ok("GDHandResultRecorded", hand=2, order=[0, 1, 2, 3], antiTribute=True)
    rows = gd_sheet.results()
    assert [(r["tribute"], r["anti_tribute"], r["level"], r["levels"]) for r in rows] == [
        ("none", False, "2", {"A": "2", "B": "5"}),
        ("double", True, "5", {"A": "4", "B": "5"})]


def test_gd_a_card_event_in_a_sheet_match_and_a_row_in_a_cards_match_name_the_setting(gd_sheet):
    problem = gd_sheet.rejected("GDHandDealt", "GD-14", hands=[["2H"]] * 4)
    assert problem["detail"] == (
        "GD-14: setting recording is \"sheet\": this match is recorded from score sheets, one "
        "GDHandResultRecorded per hand; GDHandDealt records cards")
    cards = gd_table.Table(admin_client(new_app(gd_table.Clock())))
    problem = cards.rejected("GDHandResultRecorded", "GD-14", hand=1, order=[0, 1, 2, 3])
    assert problem["detail"].startswith("GD-14: setting recording is \"cards\": ")


# --- SJ3: a hand played and from the sheet, the match's end --------------------------------------

def test_sj3_a_played_hand_and_its_sheet_row_give_the_same_result_row():
    cards = sj3_table.new_table()
    played = cards.play_hand(seed=5)
    sheet = sj3_table.Table(cards.client, SHEET, tid="sj3-sheet")
    sheet.ok("HandResultRecorded", **row_of_sj_result(played, cards.hand_view(1)["penalties"]))
    assert sheet.results() == [played]
    assert sheet.match()["levels"] == cards.match()["levels"]


def sj3_row(hand: int, **given) -> dict:
    return {"hand": hand, "trick_points": 0, "kitty_points": 0, "multiplier": 0,
            **({"dealer": 0, "trump": "S"} if hand == 1 else {}), **given}


def test_sj3_a_sheet_match_ends_when_a_side_passes_a():
    """SJ3-10.4: P = 0, the dealer side +3 each hand (2 → 5 → 8 → J → A), then past A: the
    match is won at once, recorded at 15 (SJ3-12.3), with its match points (SJ3-12.2)."""
    sheet = sj3_table.new_table(SHEET)
    for hand in range(1, 6):
        sheet.ok("HandResultRecorded", **sj3_row(hand))
    match = sheet.match()
    assert [r["levels"]["A"] for r in sheet.results()] == ["5", "8", "J", "A", "A+1"]
    assert (match["status"], match["winner"], match["reason"]) == ("completed", "A", "target")
    assert {k: match["result"][k] for k in ("levels", "match_points")} == {
        "levels": {"A": 15, "B": 2}, "match_points": {"A": 2, "B": 0}}
    sheet.rejected("HandResultRecorded", "SJ3-12", **sj3_row(6))


def test_sj3_a_sheet_match_ends_at_the_alert_between_rows_and_takes_no_row_after_it():
    sheet = sj3_table.new_table(SHEET)
    sheet.ok("HandResultRecorded", **sj3_row(1, trick_points=120))  # B takes the deal
    sheet.clock.advance(minutes=80)
    sheet.ok("TimeLimitReached", limit_minutes=80)
    match = sheet.match()
    assert (match["status"], match["reason"], match["result"]["draw"]) == ("completed", "time", True)
    sheet.rejected("HandResultRecorded", "SJ3-12", **sj3_row(2))


@pytest.mark.parametrize("given, rule, words", [
    ({"trump": "NT"}, "SJ3-2.2", "SJ3 plays no no-trump hand"),
    ({"kitty_error": True}, "SJ3-5.1", "a kitty error cannot arise"),
    ({"multiplier": 1}, "SJ3-10.2", "0 (not captured) or 2, 3, 4, 5, 6, 7, 8, …"),
    ({"kitty_points": 65}, "SJ3-1.3", "a kitty of 6 cards holds at most 60 points"),
    ({"trick_points": 250, "kitty_points": 55}, "SJ3-1.5", "3 decks hold 300 points in all"),
    ({"trick_points": 7}, "SJ3-1.5", "trick_points 7 is not a multiple of 5"),
    ({"dealer": None}, "SJ3-4.1", "the row must name it (dealer)"),
], ids=["no-trump", "kitty-error", "multiplier-1", "more-than-the-kitty", "more-than-the-decks",
        "points-not-fives", "no-first-dealer"])
def test_sj3_an_impossible_row_is_refused_with_the_rule(given, rule, words):
    sheet = sj3_table.new_table(SHEET)
    problem = sheet.rejected("HandResultRecorded", rule, **sj3_row(1, **given))
    assert words in problem["detail"]


def test_sj3_a_card_event_in_a_sheet_match_is_refused_naming_the_setting():
    sheet = sj3_table.new_table(SHEET)
    problem = sheet.rejected("HandDealt", "SJ3-15", **sj3_table.build_deal({}, seed=2))
    assert problem["detail"].startswith("SJ3-15: setting recording is \"sheet\": ")


def test_sj2_a_sheet_hands_replay_says_card_by_card_replay_is_not_available(sj2_pair):
    _, sheet, _, _ = sj2_pair
    response = sheet.client.get(f"/v1/tournaments/{sheet.tid}/matches/{sheet.mid}/hands/1/replay")
    assert response.status_code == 404
    assert response.json["detail"].startswith(
        "hand 1 of match 'R1-1' was recorded from a score sheet (match setting recording: "
        "\"sheet\"): card-by-card replay is not available")


# --- the spec's schemas of the rows accept exactly what the code accepts ------------------------

SJ_ROW = {"hand": 1, "trick_points": 60, "kitty_points": 10, "multiplier": 0}
ROW_SAMPLES = {
    "HandResultRecorded": [
        SJ_ROW, {**SJ_ROW, "dealer": 3, "trump": "NT", "follow_errors": ["A", "A"],
                 "kitty_error": True, "penalties": [{"side": "B", "points": 20,
                                                     "rule": "SJ2-8.5", "reason": "r"}]},
        {**SJ_ROW, "dealer": None, "trump": None, "penalties": [{"side": "A", "points": 5,
                                                                 "rule": None}]},
        {**SJ_ROW, "trick_points": 300, "kitty_points": 0, "multiplier": 8192},
        {**SJ_ROW, "trick_points": 301}, {**SJ_ROW, "trick_points": -5},
        {**SJ_ROW, "multiplier": 8193}, {**SJ_ROW, "trick_points": "60"},
        {**SJ_ROW, "trump": "X"}, {**SJ_ROW, "dealer": 4}, {**SJ_ROW, "follow_errors": ["C"]},
        {**SJ_ROW, "follow_errors": None}, {**SJ_ROW, "kitty_error": None},
        {**SJ_ROW, "kitty_error": 1}, {**SJ_ROW, "penalties": [{"side": "A"}]},
        {**SJ_ROW, "penalties": [{"side": "A", "points": 0}]},
        {**SJ_ROW, "penalties": [{"side": "A", "points": 5, "why": "x"}]},
        {**SJ_ROW, "seat": 0}, {"hand": 1, "trick_points": 60, "kitty_points": 10},
    ],
    "GDHandResultRecorded": [
        {"hand": 1, "order": [1, 3, 0, 2]}, {"hand": 2, "order": [0, 0, 0, 0], "antiTribute": True},
        {"hand": 2, "order": [0, 1, 2, 3], "antiTribute": None},
        {"hand": 1, "order": [1, 3, 0]}, {"hand": 1, "order": [1, 3, 0, 2, 1]},
        {"hand": 1, "order": [1, 3, 0, 4]}, {"hand": 1, "order": [1, 3, 0, "2"]},
        {"hand": 1, "order": [1, 3, 0, 2], "antiTribute": "yes"}, {"hand": 1},
        {"hand": 0, "order": [1, 3, 0, 2]}, {"hand": 1, "order": [1, 3, 0, 2], "tribute": []},
    ],
}


@pytest.mark.parametrize("type_name", sorted(ROW_SAMPLES))
def test_the_spec_schema_of_a_row_accepts_exactly_what_the_code_accepts(type_name):
    event_type = default_catalogue().get(type_name)
    schema_name = event_type.schema.__name__
    verdicts = []
    for sample in ROW_SAMPLES[type_name]:
        by_code = marshmallow_accepts(event_type, sample)
        assert by_code == is_valid(schema_name, sample), (sample, errors(schema_name, sample))
        verdicts.append(by_code)
    assert any(verdicts) and not all(verdicts)
