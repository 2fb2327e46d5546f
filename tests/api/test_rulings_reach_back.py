"""A ruling may reach back (tournaments.md T-1.8, issue 37): one that names a hand or a match that
has ended is recorded and re-scores that hand, the match and everything downstream — levels,
dealer, the match's end, the bracket, the standings, a session's coins and its stage ranking —
while every read ``?at=`` a position before it is what it was; and a disqualification has one
meaning in both its written forms, ``effect: {"kind": "disqualify", "side": …}`` and
``effects: [{"kind": "disqualify", "entrant": …}]``, after the match's end too.

SJ2, SJ3 and GD are played from score sheets and card by card; MJO and MJS are sessions of two
hands at a table of a stage of four."""
from __future__ import annotations

import gd_table
import pytest
import sj2_table
import sj3_table
from clients import admin_client, hand_results
from mj_table import deal_tiles, groups_tournament
from mjs_table import tournament as mjs_tournament
from rulings_desk import Desk
from spec import assert_response
from tables import Clock, ok
from test_mjs_groups import DECISIVE
from test_mjs_groups import play_hand as play_mjs_hand
from test_score_sheets import bot_events, post_batch

from events.memory_store import InMemoryEventStore
from service import create_app

SHEET = {"recording": "sheet"}
MEMBER = "曹选刚"


def new_client(clock=None):
    return admin_client(create_app(store=InMemoryEventStore(clock=clock or Clock())))


def effect(kind: str, rule: str, **members) -> dict:
    return {"kind": kind, "rule": rule, "member": MEMBER, **members}


def ruled(table, *effects: dict, single: dict | None = None) -> dict:
    """Records a ruling on the table's match (its ``effects``, or the single ``effect``)."""
    data = {"text": "the committee rules"}
    data.update({"effect": single} if single is not None else {"effects": list(effects)})
    return ok(table.client.post(f"/v1/tournaments/{table.tid}/events", json={
        "type": "RulingRecorded", "stream": table.stream, "data": data}))


def reads(table, at: int | None = None) -> dict:
    """The match, its result rows, and the tournament's bracket (knockout) or standings, as
    they read now or at position ``at``."""
    query = "" if at is None else f"?at={at}"
    base = f"/v1/tournaments/{table.tid}"
    match = ok(table.client.get(f"{base}/matches/{table.mid}{query}"))
    found = {"match": match, "rows": hand_results(table.client, table.tid, table.mid, at)}
    for name in ("bracket", "standings"):
        response = table.client.get(f"{base}/{name}{query}")
        if response.status_code == 200:
            found[name] = {k: v for k, v in response.json.items() if k != "position"}
    return found


def outcome(match: dict) -> tuple:
    return match["status"], match["winner"], match["reason"], match["levels"]


# --- one written form: both spellings of a disqualification fold the same -----------------------

def _gd(clock):
    table = gd_table.Table(new_client(clock))
    table.deal()
    return table


def _sj3(clock):
    table = sj3_table.Table(new_client(clock))
    table.clock = clock
    table.to_play({0: "2S"}, card="2S")
    return table


def _sj2(clock):
    table = sj2_table.Table(new_client(clock))
    table.to_play({0: "2S"}, card="2S")
    return table


@pytest.mark.parametrize("start", [_gd, _sj3, _sj2], ids=["GD", "SJ3", "SJ2"])
def test_both_spellings_of_a_disqualification_make_the_same_match_and_standings(start):
    folded = []
    for form in ("effect", "effects"):
        table = start(gd_table.Clock())
        if form == "effect":
            ruled(table, single={"kind": "disqualify", "side": "A"})
        else:
            ruled(table, effect("disqualify", "T-1.5", entrant="east"))
        found = reads(table)
        assert found["match"]["rulings"][0]["effect"] == (
            {"kind": "disqualify", "side": "A"} if form == "effect" else None)
        del found["match"]["rulings"]  # the words as written; all else is the same
        folded.append(found)
    assert folded[0] == folded[1]
    match = folded[0]["match"]
    assert (match["status"], match["winner"], match["winner_team"], match["reason"]) == (
        "completed", "B", "west", "disqualified")


def test_a_single_effect_disqualification_names_a_side_of_the_match():
    table = _sj2(Clock())
    table.rejected("RulingRecorded", "SJ2-15.3", text="x",
                   effect={"kind": "disqualify", "side": "east"})
    desk = Desk(table.client, table.tid)
    problem = desk.refused("RulingRecorded", f"tournament-{table.tid}", {
        "text": "x", "effect": {"kind": "disqualify", "side": "A"}}, 422, "T-1.5")
    assert '[{"kind": "disqualify", "entrant": …}]' in problem["detail"]


# --- the SJ3 team event: a pair disqualified after the round's time -----------------------------

T = "/v1/tournaments"
TEAMS_TID = "jnu-reach-back"


class TeamEvent:
    def __init__(self):
        self.clock = Clock()
        self.client = admin_client(create_app(store=InMemoryEventStore(clock=self.clock)))
        ok(self.client.post(T, json={"tournament_id": TEAMS_TID, "name": "校庆杯", "game": "SJ3",
                                     "format": "swiss-teams", "settings": {"rounds": 3}}))
        for t in ("T1", "T2", "T3", "T4"):
            ok(self.client.post(f"{T}/{TEAMS_TID}/events", json={
                "type": "TeamRegistered", "stream": f"tournament-{TEAMS_TID}", "data": {
                    "team_id": t, "name": f"{t}队", "leader": f"{t}领队",
                    "players": [f"{t}甲", f"{t}乙", f"{t}丙", f"{t}丁"]}}))
        response = self.client.post(f"{T}/{TEAMS_TID}/pairings", json={})
        self.round = assert_response(response, "post", "/v1/tournaments/{tid}/pairings")["round"]
        for meeting in self.round["meetings"]:
            for table in meeting["tables"]:
                ok(self.client.post(f"{T}/{TEAMS_TID}/matches",
                                    json={"match_id": table["match_id"]}))
        self.clock.advance(minutes=80)
        self.timed = ok(self.client.post(f"{T}/{TEAMS_TID}/rounds/1/time"))

    def read(self, name: str, at: int | None = None) -> dict:
        query = "" if at is None else f"?at={at}"
        return ok(self.client.get(f"{T}/{TEAMS_TID}/{name}{query}"))

    def last_position(self) -> int:
        return self.read("events?limit=1000")["events"][-1]["position"]


@pytest.mark.parametrize("form", ["effect", "effects"])
def test_sj3_a_pair_disqualified_after_the_rounds_time_forfeits_its_table(form):
    """T-1.8 with T-6.5 / SJ3-12.4: every table of round 1 ended at the alert, level (a draw,
    1 : 1); then the committee disqualifies T1's pair a — its table becomes a forfeit, 0 : 2
    match points, levels 2 : 4, and T1 leaves the pairing (SJ3-11.9) — in either written form."""
    ev = TeamEvent()
    meeting = next(m for m in ev.round["meetings"] if "T1" in m["teams"])
    side = "AB"[meeting["teams"].index("T1")]
    other = meeting["teams"][1 - meeting["teams"].index("T1")]
    table = meeting["match_id"] + "a"
    before = ev.last_position()
    assert ev.read(f"matches/{table}")["result"]["draw"] is True
    data = {"text": "暗示同伴，取消参赛资格"}
    data.update({"effect": {"kind": "disqualify", "side": side}} if form == "effect" else
                {"effects": [effect("disqualify", "SJ3-11.9", entrant="T1")]})
    ok(ev.client.post(f"{T}/{TEAMS_TID}/events", json={
        "type": "RulingRecorded", "stream": f"match-{TEAMS_TID}:{table}", "data": data}))
    result = ev.read(f"matches/{table}")["result"]
    assert (result["forfeit"], result["forfeited_by"], result["reason"]) == (
        True, side, "disqualified")
    assert result["match_points"] == {side: 0, "AB"["AB".index(side) - 1]: 2}
    assert result["levels"] == {side: 2, "AB"["AB".index(side) - 1]: 4}
    standings = ev.read("standings")
    excluded = {r["team"]: r for r in standings["excluded"]}
    assert excluded["T1"]["disqualified"] == {"round": 1, "pair": "a"}
    winner = next(r for r in standings["ranking"] if r["team"] == other)
    assert winner["pairs"][0]["rounds"][0]["outcome"] == "forfeitWin"
    # before the ruling: the draw, and T1 ranked
    was = ev.read("standings", at=before)
    assert "T1" in [r["team"] for r in was["ranking"]] and was["excluded"] == []
    assert ev.read(f"matches/{table}", at=before)["result"]["draw"] is True


# --- GD: a score-sheet knockout ------------------------------------------------------------------

THROUGH_A = [[0, 2, 1, 3]] * 5   # side A: 2 → 5 → 8 → J → A, then through A in hand 5


def gd_sheet(tid: str = "gd-reach") -> gd_table.Table:
    table = gd_table.Table(new_client(gd_table.Clock()), SHEET, tid=tid)
    for hand, order in enumerate(THROUGH_A, start=1):
        table.ok("GDHandResultRecorded", hand=hand, order=order)
    return table


@pytest.mark.parametrize("single", [True, False], ids=["effect", "effects"])
def test_gd_a_disqualification_after_the_sheet_match_ended_gives_the_other_side_the_match(
        single):
    table = gd_sheet()
    before = reads(table)
    position = table.match()["position"]
    assert outcome(before["match"]) == ("completed", "A", "game", {"A": "A", "B": "2"})
    assert before["bracket"]["champion"] == "east"
    if single:
        ruled(table, single={"kind": "disqualify", "side": "A"})
    else:
        ruled(table, effect("disqualify", "GD-10.1", entrant="east"))
    after = reads(table)
    assert outcome(after["match"]) == ("completed", "B", "disqualified", {"A": "A", "B": "2"})
    assert after["match"]["winner_team"] == "west" and after["rows"] == before["rows"]
    assert after["bracket"]["champion"] == "west"
    assert [(r["team"], r["place"]) for r in after["standings"]["ranking"]] == [
        ("west", 1), ("east", 2)]
    assert reads(table, at=position) == before


def test_gd_a_level_penalty_in_an_earlier_sheet_hand_rescores_the_match_downstream():
    """One level against A in hand 4: A ends hand 4 at K, not A; hand 5, played at A's K and won
    by a double down, takes A to A but not through it — the match is not over, the bracket has
    no champion. Reads before the ruling are unchanged."""
    table = gd_sheet()
    position = table.match()["position"]
    before = reads(table)
    ruled(table, effect("penalty", "GD-10.1", side="A", levels=1, hand=4))
    after = reads(table)
    assert outcome(after["match"]) == ("playing", None, None, {"A": "A", "B": "2"})
    # each row: the level played and the levels its upgrade made (a penalty follows, GD-10.3)
    assert [(r["level"], r["levels"]["A"]) for r in after["rows"]] == [
        ("2", "5"), ("5", "8"), ("8", "J"), ("J", "A"), ("K", "A")]
    assert after["match"]["penalties"][0]["applied_after_hand"] == 4
    assert after["bracket"]["champion"] is None
    assert [e["edit"] for e in after["match"]["edits"]] == ["rescored"]
    assert reads(table, at=position) == before
    table.ok("GDHandResultRecorded", hand=6, order=[0, 2, 1, 3])  # now through A
    assert outcome(table.match())[:3] == ("completed", "A", "game")


def test_gd_a_penalty_in_hand_1_moves_every_level_after_it():
    table = gd_table.Table(new_client(gd_table.Clock()), SHEET, tid="gd-early")
    for hand, order in enumerate([[0, 2, 1, 3], [0, 2, 1, 3], [1, 3, 0, 2]], start=1):
        table.ok("GDHandResultRecorded", hand=hand, order=order)
    position = table.match()["position"]
    before = reads(table)
    assert [r["levels"] for r in before["rows"]] == [
        {"A": "5", "B": "2"}, {"A": "8", "B": "2"}, {"A": "8", "B": "5"}]
    ruled(table, effect("penalty", "GD-10.1", side="A", levels=2, hand=1))
    rows = hand_results(table.client, table.tid, table.mid)
    assert [(r["level"], r["levels"]) for r in rows] == [
        ("2", {"A": "5", "B": "2"}), ("3", {"A": "6", "B": "2"}), ("6", {"A": "6", "B": "5"})]
    assert table.match()["levels"] == {"A": "6", "B": "5"}
    assert reads(table, at=position) == before


# --- GD card by card: the last hand of a match won through A -------------------------------------

def test_gd_cards_rulings_after_the_match_ended_a_penalty_in_its_last_hand_and_a_disqualification():
    """Played card by card through A in five hands. A level against A in hand 5 is recorded
    in that hand (GD-10.3: it takes effect when the hand ends) — A has played through A by
    then (GD-6.3), so the match stays A's; the disqualification then gives it to B."""
    table = gd_table.Table(new_client(gd_table.Clock()), tid="gd-cards")
    for order in ([0, 2], [0, 2], [0, 2], [0, 2], [0, 2]):
        table.play_hand(order)
    position = table.match()["position"]
    before = reads(table)
    assert outcome(before["match"])[:3] == ("completed", "A", "game")
    ruled(table, effect("penalty", "GD-10.1", side="A", levels=1, hand=5))
    match = table.match()
    assert outcome(match)[:3] == ("completed", "A", "game")
    assert [(p["levels"], p["applied_after_hand"]) for p in match["penalties"]] == [(1, 5)]
    assert [e["edit"] for e in match["edits"]] == ["rescored"]
    ruled(table, single={"kind": "disqualify", "side": "A"})
    assert outcome(table.match())[:3] == ("completed", "B", "disqualified")
    assert ok(table.client.get(f"/v1/tournaments/{table.tid}/bracket"))["champion"] == "west"
    assert table.match()["flags"] == []
    assert reads(table, at=position) == before


# --- SJ3: the match ended by the chief referee's alert -------------------------------------------

def sj3_row(hand: int, **given) -> dict:
    return {"hand": hand, "trick_points": 0, "kitty_points": 0, "multiplier": 0,
            **({"dealer": 0, "trump": "S"} if hand == 1 else {}), **given}


@pytest.mark.parametrize("single", [True, False], ids=["effect", "effects"])
def test_sj3_a_disqualification_after_the_alert_ended_the_sheet_match_is_a_forfeit(single):
    table = sj3_table.new_table(SHEET)
    table.ok("HandResultRecorded", **sj3_row(1, trick_points=120))
    table.clock.advance(minutes=80)
    alert = table.ok("TimeLimitReached", limit_minutes=80)
    before = reads(table)
    assert before["match"]["result"]["draw"] is True
    if single:
        ruled(table, single={"kind": "disqualify", "side": "A"})
    else:
        ruled(table, effect("disqualify", "SJ3-11.9", entrant="east"))
    result = table.match()["result"]
    assert (result["winner"], result["forfeited_by"], result["reason"], result["match_points"],
            result["levels"]) == ("B", "A", "disqualified", {"A": 0, "B": 2}, {"A": 2, "B": 4})
    assert reads(table, at=alert["position"]) == before


def test_sj3_a_penalty_in_an_earlier_sheet_hand_after_the_alert_changes_the_winner():
    """Two hands of P = 0 (side A dealing: +3, +3 → 8), then the alert: A wins on time. 120
    points against A in hand 1: P = 120 there, the defenders take the deal (SJ3-10.4), so
    hand 2 is B's deal: B +3, and B wins at the alert."""
    table = sj3_table.new_table(SHEET)
    table.ok("HandResultRecorded", **sj3_row(1))
    table.ok("HandResultRecorded", **sj3_row(2))
    table.clock.advance(minutes=80)
    alert = table.ok("TimeLimitReached", limit_minutes=80)
    before = reads(table)
    assert (before["match"]["result"]["winner"], before["match"]["levels"]) == (
        "A", {"A": "8", "B": "2"})
    ruled(table, effect("penalty", "SJ3-11.1", side="A", points=120, hand=1))
    after = reads(table)
    rows = after["rows"]
    assert [(r["hand"], r["dealer"], r["penalty_points"], r["levels"]) for r in rows] == [
        (1, 0, 120, {"A": "2", "B": "2"}), (2, 1, 0, {"A": "2", "B": "5"})]
    assert (after["match"]["result"]["winner"], after["match"]["levels"]) == (
        "B", {"A": "2", "B": "5"})
    assert after["match"]["flags"] == []
    assert reads(table, at=alert["position"]) == before


def test_sj3_cards_a_penalty_in_the_last_hand_after_the_alert_rescores_it():
    table = sj3_table.new_table()
    played = table.play_hand(seed=5)
    table.clock.advance(minutes=80)
    alert = table.ok("TimeLimitReached", limit_minutes=80)
    before = reads(table)
    dealer_side = played["dealer_side"]
    ruled(table, effect("penalty", "SJ3-11.1", side=dealer_side, points=300, hand=1))
    row = hand_results(table.client, table.tid, table.mid)[0]
    assert row["result"]["winner"] == "defenders"
    match = table.match()
    assert match["result"]["winner"] != dealer_side and match["flags"] == []
    penalties = table.hand_view(1)["penalties"]
    assert (penalties[-1]["points"], penalties[-1]["source"]) == (300, "committee")
    assert reads(table, at=alert["position"]) == before


# --- SJ2: a score-sheet match of four hands, and one played card by card -------------------------

def sj2_sheet(client=None) -> sj2_table.Table:
    table = sj2_table.Table(client or new_client(), {"maxHands": 4, **SHEET}, tid="sj2-reach")
    table.ok("HandResultRecorded", hand=1, dealer=0, trump="S", trick_points=0,
             kitty_points=0, multiplier=0)                       # A +3, seat 2 deals
    for hand in (2, 3):
        table.ok("HandResultRecorded", hand=hand, trick_points=85, kitty_points=0,
                 multiplier=0)                                     # the deal passes, no level
    table.ok("HandResultRecorded", hand=4, trick_points=30, kitty_points=0, multiplier=0)
    return table


def test_sj2_a_penalty_in_hand_1_after_four_sheet_hands_rescores_the_match_and_bracket():
    """The issue's case: a 40-point penalty against side A in hand 1, recorded after the later
    rows (it was refused "hand 1 has ended"). Hand 1: P = 40, A +1 (not +3); the rows after it
    are scored again at the levels and the dealers that follow — the match, the bracket and
    the standings with them — and every read before the ruling stays as it was."""
    table = sj2_sheet()
    position = table.match()["position"]
    before = reads(table)
    assert [(r["dealer"], r["levels"]) for r in before["rows"]] == [
        (0, {"A": "5", "B": "2"}), (2, {"A": "5", "B": "2"}), (3, {"A": "5", "B": "2"}),
        (0, {"A": "7", "B": "2"})]
    assert outcome(before["match"]) == ("completed", "A", "maxHands", {"A": "7", "B": "2"})
    ruled(table, effect("penalty", "SJ2-12.1", side="A", points=40, hand=1))
    after = reads(table)
    assert [(r["final_points"], r["result"]["levels"], r["levels"]) for r in after["rows"]] == [
        (40, 1, {"A": "3", "B": "2"}), (85, 0, {"A": "3", "B": "2"}),
        (85, 0, {"A": "3", "B": "2"}), (30, 2, {"A": "5", "B": "2"})]
    assert outcome(after["match"]) == ("completed", "A", "maxHands", {"A": "5", "B": "2"})
    assert [e["edit"] for e in after["match"]["edits"]] == ["rescored"]
    assert after["bracket"]["champion"] == "east"
    assert reads(table, at=position) == before


def test_sj2_a_penalty_that_passes_the_deal_moves_the_dealers_and_the_winner_downstream():
    table = sj2_sheet()
    position = table.match()["position"]
    before = reads(table)
    ruled(table, effect("penalty", "SJ2-12.1", side="A", points=120, hand=1))
    after = reads(table)
    # hand 1: P = 120, B +1 and B's seat 1 deals hand 2; the deal passes on (85) to seats 2, 3
    assert [(r["dealer"], r["levels"]) for r in after["rows"]] == [
        (0, {"A": "2", "B": "3"}), (1, {"A": "2", "B": "3"}), (2, {"A": "2", "B": "3"}),
        (3, {"A": "2", "B": "5"})]
    assert outcome(after["match"]) == ("completed", "B", "maxHands", {"A": "2", "B": "5"})
    assert after["bracket"]["champion"] == "west"
    assert [(r["team"], r["place"]) for r in after["standings"]["ranking"]] == [
        ("west", 1), ("east", 2)]
    assert reads(table, at=position) == before


def test_sj2_a_penalty_naming_a_hand_never_recorded_is_refused_and_nothing_stored():
    table = sj2_sheet()
    desk = Desk(table.client, table.tid)
    problem = desk.refused("RulingRecorded", table.stream, {"text": "x", "effects": [
        effect("penalty", "SJ2-12.1", side="A", points=40, hand=9)]}, 422, "SJ2-14")
    assert "the match is over" in problem["detail"]
    live = sj2_table.Table(new_client(), {"maxHands": 4, **SHEET}, tid="sj2-live")
    live.ok("HandResultRecorded", hand=1, dealer=0, trump="S", trick_points=0, kitty_points=0,
            multiplier=0)
    Desk(live.client, live.tid).refused("RulingRecorded", live.stream, {"text": "x", "effects": [
        effect("penalty", "SJ2-12.1", side="A", points=40, hand=2)]}, 422, "SJ2-16")


def test_sj2_cards_after_the_match_a_penalty_in_its_last_hand_and_a_disqualification():
    clock = Clock()
    client = new_client(clock)
    table = sj2_table.Table(client, {"maxHands": 2}, tid="sj2-cards-reach")
    stamps = (f"2030-01-01T00:{n // 60000 % 60:02d}:{n // 1000 % 60:02d}.{n % 1000:03d}000Z"
              for n in range(10 ** 6))
    events = bot_events(table, stamps)
    post_batch(table, [e for e in events if not (e[0] == "LotsDrawn" and
                                                 e[1]["purpose"] == "matchTie")])
    if table.match()["status"] == "awaiting_lots":
        table.ok("LotsDrawn", **next(d for t, d in events if t == "LotsDrawn"
                                     and d["purpose"] == "matchTie"))
    position = table.match()["position"]
    before = reads(table)
    assert before["match"]["status"] == "completed"
    last = before["rows"][-1]
    penalised = last["dealer_side"]
    ruled(table, effect("penalty", "SJ2-12.1", side=penalised, points=200, hand=last["hand"]))
    after = reads(table)
    assert after["rows"][:-1] == before["rows"][:-1]
    assert after["rows"][-1]["result"]["winner"] == "defenders"
    assert after["rows"][-1]["final_points"] == last["final_points"] + 200
    assert after["match"]["flags"] == [] and after["match"]["status"] == "completed"
    assert reads(table, at=position) == before
    winner = after["match"]["winner_team"]
    assert after["bracket"]["champion"] == winner
    ruled(table, effect("disqualify", "SJ2-15.3", entrant=winner))
    match = table.match()
    assert (match["status"], match["reason"]) == ("completed", "disqualified")
    assert match["winner_team"] != winner
    assert ok(client.get(f"/v1/tournaments/{table.tid}/bracket"))["champion"] == \
        match["winner_team"]


# --- MJO and MJS: a ruling on an earlier hand of a session ---------------------------------------

MJO_TID = "mjo-reach"
WIN_5M = "1m 2m 3m 4p 5p 6p 7s 8s 9s C C C 5m 5m"


def test_mjo_a_coin_penalty_on_hand_1_after_the_session_changes_coins_and_the_ranking():
    """A session of two hands, both won by the dealer (seat 0) by self-draw: 44, 12, 12, 12.
    Then a ruling on hand 1: seat 0 pays 30 coins to seat 3 — hand 1's result row explains
    it, the balances after it move, and the stage's ranking puts seat 3 first."""
    client = new_client()
    base = f"/v1/tournaments/{MJO_TID}"
    groups_tournament(client, MJO_TID, {"sessionHands": 2}, None,
                      [(f"p{k}", f"Player {k}") for k in range(1, 5)])
    ok(client.post(f"{base}/draws", json={}))
    mid = ok(client.get(f"{base}/groups"))["stages"][0]["tables"][0]["match_id"]
    ok(client.post(f"{base}/matches", json={"match_id": mid}))
    stream = f"match-{MJO_TID}:{mid}"

    def post(event_type: str, **data):
        return ok(client.post(f"{base}/events", json={"type": event_type, "stream": stream,
                                                      "data": data}))
    post("TilesDealt", hand=1, **deal_tiles({0: WIN_5M}))
    post("Win", hand=1, seat=0)
    second = deal_tiles({0: WIN_5M})
    second.pop("dealer")
    post("TilesDealt", hand=2, **second)
    last = post("Win", hand=2, seat=0)
    seats = [s["team"] for s in ok(client.get(f"{base}/groups"))["stages"][0]["tables"][0]
             ["seats"]]
    standings = ok(client.get(f"{base}/standings"))
    assert ok(client.get(f"{base}/matches/{mid}"))["balances"] == [44, 12, 12, 12]
    assert standings["ranking"][0]["team"] == seats[0]
    post("RulingRecorded", text="hand 1: seat 0 signalled", effects=[
        effect("penalty", "MJO-9.3", seat=0, coins=30, payees=[3], hand=1)])
    match = ok(client.get(f"{base}/matches/{mid}"))
    assert match["balances"] == [14, 12, 12, 42] and match["flags"] == []
    rows = hand_results(client, MJO_TID, mid)
    assert (rows[0]["balances"], rows[1]["balances_before"]) == ([2, 16, 16, 46], [2, 16, 16, 46])
    assert [(p["seat"], p["coins"], p["hand"]) for p in rows[0]["penalties"]] == [(0, 30, 1)]
    ranking = ok(client.get(f"{base}/standings"))["ranking"]
    assert [(r["team"], r["coins"], r["place"]) for r in ranking][:2] == [
        (seats[3], 42, 1), (seats[0], 14, 2)]
    assert ok(client.get(f"{base}/standings?at={last['position']}")) == standings
    assert ok(client.get(f"{base}/matches/{mid}?at={last['position']}"))["balances"] == [
        44, 12, 12, 12]


MJS_TID = "mjs-event"   # test_mjs_groups' tournament, whose hands play_mjs_hand posts


def test_mjs_a_conduct_penalty_on_hand_1_after_the_session_changes_the_scores_and_ranking():
    """Two hands at table 1 of a stage of eight (each: the dealer's 5m, three winners); then a
    ruling on hand 1 — seat 3 named another player's hand: 30 to seat 0 (MJS-10.5) — moves
    hand 1's scores and every balance after it, and the stage ranking."""
    client = new_client()
    base = f"/v1/tournaments/{MJS_TID}"
    mjs_tournament(client, MJS_TID, {"sessionHands": 2},
                   players=[(f"p{k}", f"Player {k}") for k in range(1, 9)])
    ok(client.post(f"{base}/draws", json={}))
    mid = ok(client.get(f"{base}/groups"))["stages"][0]["tables"][0]["match_id"]
    ok(client.post(f"{base}/matches", json={"match_id": mid}))
    play_mjs_hand(client, mid, 1, DECISIVE)
    dealer = ok(client.get(f"{base}/matches/{mid}"))["dealer"]
    play_mjs_hand(client, mid, 2, DECISIVE, dealer=dealer)
    match = ok(client.get(f"{base}/matches/{mid}"))
    position, balances = match["position"], match["balances"]
    standings = ok(client.get(f"{base}/standings"))
    seats = [s["team"] for s in ok(client.get(f"{base}/groups"))["stages"][0]["tables"][0]
             ["seats"]]
    ok(client.post(f"{base}/events", json={
        "type": "RulingRecorded", "stream": f"match-{MJS_TID}:{mid}", "data": {
            "text": "hand 1: seat 3 named seat 1's tiles", "effects": [
                effect("penalty", "MJS-10.5", seat=3, points=30, payees=[0], hand=1)]}}))
    match = ok(client.get(f"{base}/matches/{mid}"))
    assert match["balances"] == [balances[0] + 30, balances[1], balances[2], balances[3] - 30]
    assert match["flags"] == [] and [e["edit"] for e in match["edits"]] == ["rescored"]
    rows = hand_results(client, MJS_TID, mid)
    assert rows[1]["balances_before"] == rows[0]["balances"]
    coins = {r["team"]: r["coins"] for r in ok(client.get(f"{base}/standings"))["ranking"]}
    assert [coins[seats[s]] for s in range(4)] == match["balances"]
    assert ok(client.get(f"{base}/standings"))["ranking"][0]["team"] == seats[0]
    assert standings["ranking"][0]["team"] == seats[3]
    assert ok(client.get(f"{base}/standings?at={position}")) == standings


# --- the committee's desk: the preview is what recording gives; a rebuild reads as live ----------

def test_a_ruling_that_rescores_an_ended_hand_is_previewed_and_rebuilt_exactly(signer):
    table = sj2_sheet(admin_client(create_app(store=InMemoryEventStore(clock=Clock()),
                                              signer=signer)))
    desk = Desk(table.client, table.tid)
    log_before, export_before = desk.log(), desk.export()
    ruling = {"text": "hand 1: 120 points against A", "effects": [
        effect("penalty", "SJ2-12.1", side="A", points=120, hand=1)]}
    preview = desk.preview(table.stream, ruling)
    assert {p["projection"] for p in preview["projections"]} >= {"match", "bracket", "standings"}
    desk.rule(table.stream, ruling)
    desk.assert_preview_is_the_state_after(preview)
    desk.assert_history_untouched(log_before, export_before)
    desk.assert_rebuild_reads_as_live()
    assert [r["status"] for r in desk.rulings()] == ["applied"]
    assert [e["edit"] for e in desk.rulings()[0]["edits"]] == ["rescored"]
