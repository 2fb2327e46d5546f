"""Groups of four through the HTTP API (tournaments.md T-8, T-7): tables drawn by lots on the
server and never again, the tables' sessions, one ranking by coins across tables (T-8 Ex 8),
lots for a tie at a prize place (T-8.3) and at a qualifying place (T-7.2), stages down to a
final table whose order gives the podium (T-7.4)."""
from __future__ import annotations

from clients import admin_client, hand_results
from mj_table import deal_tiles, groups_tournament, ok

from events.memory_store import InMemoryEventStore
from service import create_app

TID = "mjo-groups"
BASE = f"/v1/tournaments/{TID}"
WIN_5M = "1m 2m 3m 4p 5p 6p 7s 8s 9s C C C 5m 5m"


def players(n: int) -> list[tuple[str, str]]:
    return [(f"p{k}", f"Player {k}") for k in range(1, n + 1)]


def tournament(n: int, settings: dict | None = None, match: dict | None = None):
    client = admin_client(create_app(store=InMemoryEventStore()))
    groups_tournament(client, TID, {"sessionHands": 1, **(match or {})}, settings, players(n))
    return client


def post(client, event_type: str, stream: str, **data):
    return client.post(f"{BASE}/events", json={"type": event_type, "stream": stream,
                                               "data": data})


def dealer_wins(client, match_id: str, penalties=()) -> dict:
    """Starts the table and plays its one-hand session: seat 0 deals himself a win (MJO-5.4);
    ``penalties`` (seat, coins, payee) are assessed during the hand, while the session is
    open."""
    ok(client.post(f"{BASE}/matches", json={"match_id": match_id}))
    stream = f"match-{TID}:{match_id}"
    ok(post(client, "TilesDealt", stream, hand=1, **deal_tiles({0: WIN_5M})))
    for seat, coins, payee in penalties:
        penalty(client, match_id, seat, coins, payee)
    ok(post(client, "Win", stream, hand=1, seat=0))
    return ok(client.get(f"{BASE}/matches/{match_id}"))


def penalty(client, match_id: str, seat: int, coins: int, payee: int):
    ok(post(client, "CoinPenaltyAssessed", f"match-{TID}:{match_id}", rule="MJO-9.3", seat=seat,
            coins=coins, payees=[payee], hand=1))


def lots(client, stage: int, candidates: list[str], winner: str):
    return post(client, "LotsDrawn", f"tournament-{TID}", purpose="standingsTie", round=stage,
                candidates=candidates, winner=winner)


def seated(client, match_id: str) -> list[str]:
    table = next(t for s in ok(client.get(f"{BASE}/groups"))["stages"] for t in s["tables"]
                 if t["match_id"] == match_id)
    return [s["team"] for s in table["seats"]]


def test_t_8_1_tables_of_four_are_drawn_by_lots_once_and_entries_close():
    client = tournament(8)
    drawn = ok(client.post(f"{BASE}/draws", json={}))
    assert drawn["type"] == "LotsDrawn" and drawn["data"]["purpose"] == "tables"
    tables = drawn["data"]["tables"]
    assert [t["match_id"] for t in tables] == ["S1-T1", "S1-T2"]
    assert sorted(p for t in tables for p in t["players"]) == sorted(p for p, _ in players(8))
    again = client.post(f"{BASE}/draws", json={})
    assert (again.status_code, again.json["rule"]) == (422, "T-8.1")
    late = post(client, "TeamRegistered", f"tournament-{TID}", team_id="p9", name="9",
                players=["nine"])
    assert (late.status_code, late.json["rule"]) == (422, "T-8.1")
    redraw = post(client, "LotsDrawn", f"tournament-{TID}", purpose="tables", round=1,
                  tables=tables)
    assert (redraw.status_code, redraw.json["rule"]) == (422, "T-8.1")   # never drawn again
    started = ok(client.post(f"{BASE}/matches", json={"match_id": "S1-T2"}))
    assert [s["team"] for s in started["seats"]] == tables[1]["players"]


def test_t_8_1_the_players_must_fill_tables_of_four():
    client = tournament(6)
    response = client.post(f"{BASE}/draws", json={"round": 1})
    assert (response.status_code, response.json["rule"]) == (422, "T-8.1")
    assert "cannot sit at tables of four" in response.json["detail"]
    assert ok(client.get(f"{BASE}/groups"))["stages"] == []


def test_t_8_ex8_two_tables_ranked_together_by_final_balance():
    client = tournament(8)
    ok(client.post(f"{BASE}/draws", json={}))
    for match_id, moves in (("S1-T1", ((3, 9, 0), (3, 13, 1), (2, 4, 1))),
                            ("S1-T2", ((3, 3, 0), (3, 4, 1), (3, 1, 2)))):
        dealer_wins(client, match_id, moves)
        row = hand_results(client, TID, match_id)[0]
        assert row["payments"] == [12, -4, -4, -4] and len(row["penalties"]) == 3
    standings = ok(client.get(f"{BASE}/standings"))
    assert [r["coins"] for r in standings["ranking"]] == [41, 35, 33, 20, 17, 12, 8, -6]
    assert [r["place"] for r in standings["ranking"]] == list(range(1, 9))
    assert standings["final"] and standings["champion"] == seated(client, "S1-T1")[0]
    assert standings["ranking"][0]["coins"] == 41 and standings["prize_places"] == 3


def test_t_8_3_a_tie_for_a_prize_place_is_drawn_by_lots():
    client = tournament(8)
    ok(client.post(f"{BASE}/draws", json={}))
    for match_id in ("S1-T1", "S1-T2"):
        dealer_wins(client, match_id)
    standings = ok(client.get(f"{BASE}/standings"))
    assert [(r["place"], r["tied"]) for r in standings["ranking"][:3]] == [
        (1, True), (1, True), (3, True)]
    assert not standings["final"] and standings["champion"] is None
    top = [seated(client, "S1-T1")[0], seated(client, "S1-T2")[0]]
    unequal = lots(client, 1, [top[0], seated(client, "S1-T1")[1]], top[0])
    assert (unequal.status_code, unequal.json["rule"]) == (422, "T-8.3")
    ok(lots(client, 1, top, top[1]))
    sixteens = [r["team"] for r in standings["ranking"][2:]]
    ok(lots(client, 1, sixteens, sixteens[4]))
    standings = ok(client.get(f"{BASE}/standings"))
    assert standings["final"] and standings["champion"] == top[1]
    assert [(r["team"], r["place"]) for r in standings["ranking"][:3]] == [
        (top[1], 1), (top[0], 2), (sixteens[4], 3)]
    assert {(r["place"], r["tied"]) for r in standings["ranking"][3:]} == {(4, True)}


def test_t_7_2_the_top_of_each_table_goes_on_and_the_final_table_gives_the_podium():
    client = tournament(16, {"advance": 1, "stageCoins": "reset"})   # the T-7.2 model
    ok(client.post(f"{BASE}/draws", json={}))
    early = client.post(f"{BASE}/draws", json={})
    assert (early.status_code, early.json["rule"]) == (422, "T-7.2")   # stage 1 is in play
    for k in range(1, 4):
        dealer_wins(client, f"S1-T{k}")
    dealer_wins(client, "S1-T4", [(0, 8, 1)])          # 24, 24: a tie for the one place
    response = client.post(f"{BASE}/draws", json={})
    assert (response.status_code, response.json["rule"]) == (422, "T-7.2")
    stage = ok(client.get(f"{BASE}/groups"))["stages"][0]
    assert stage["complete"] and stage["qualified"] is None and "S1-T4" in stage["awaiting_lots"]
    tied = seated(client, "S1-T4")[:2]
    ok(lots(client, 1, tied, tied[1]))
    stage = ok(client.get(f"{BASE}/groups"))["stages"][0]
    winners = [seated(client, f"S1-T{k}")[0] for k in range(1, 4)] + [tied[1]]
    assert stage["qualified"] == winners
    final = ok(client.post(f"{BASE}/draws", json={"round": 2}))["data"]["tables"]
    assert [t["match_id"] for t in final] == ["S2-T1"] and sorted(final[0]["players"]) == \
        sorted(winners)
    final_view = dealer_wins(client, "S2-T1")
    assert final_view["round"] == 2 and final_view["status"] == "completed"
    standings = ok(client.get(f"{BASE}/standings"))
    assert standings["ranking"][0]["team"] == final[0]["players"][0]
    assert [r["eliminated_in"] for r in standings["ranking"][:5]] == [None] * 4 + [1]
    assert not standings["final"]                      # the three others tie at 16 for 2nd
    ok(lots(client, 2, final[0]["players"][1:], final[0]["players"][3]))
    ok(lots(client, 2, final[0]["players"][1:3], final[0]["players"][1]))
    standings = ok(client.get(f"{BASE}/standings"))
    assert standings["final"] and [r["team"] for r in standings["ranking"][:4]] == [
        final[0]["players"][k] for k in (0, 3, 1, 2)]
    assert ok(client.get(f"{BASE}/groups"))["next_stage"] is None
    done = client.post(f"{BASE}/draws", json={})
    assert (done.status_code, done.json["rule"]) == (422, "T-8.1")


def test_the_groups_and_standings_as_of_a_past_position():
    client = tournament(8)
    ok(client.post(f"{BASE}/draws", json={}))
    before = ok(client.get(f"{BASE}/groups"))
    position = ok(client.get(f"{BASE}"))["position"]
    dealer_wins(client, "S1-T1")
    assert ok(client.get(f"{BASE}/groups?at={position}")) == before
    assert ok(client.get(f"{BASE}/standings?at={position}"))["ranking"][0]["coins"] == 20
    assert client.get(f"{BASE}/groups?at=0").status_code == 404


def test_t_8_3_lots_are_drawn_among_all_the_players_tied_at_the_place():
    client = tournament(16, {"advance": 2})
    ok(client.post(f"{BASE}/draws", json={}))
    for k in range(1, 5):
        dealer_wins(client, f"S1-T{k}")               # 32 16 16 16: three tie for 2nd place
    s = seated(client, "S1-T1")
    left_out = lots(client, 1, s[1:3], s[1])
    assert (left_out.status_code, left_out.json["rule"]) == (422, "T-8.3")
    assert s[3] in left_out.json["detail"]
    ok(lots(client, 1, s[1:], s[1]))
    places = [x["place"] for x in ok(client.get(f"{BASE}/groups"))["stages"][0]["tables"][0][
        "seats"]]
    assert places == [1, 2, 3, 3]                      # the two others are still tied


def test_t_7_2_a_withdrawn_qualifier_is_not_drawn_into_the_next_stage():
    client = tournament(16, {"advance": 1})
    ok(client.post(f"{BASE}/draws", json={}))
    dealer_wins(client, "S1-T1", [(2, 1, 1)])         # 32, 17, 15, 16
    for k in range(2, 5):
        dealer_wins(client, f"S1-T{k}")
    first, second = seated(client, "S1-T1")[:2]
    ok(post(client, "TeamWithdrawn", f"tournament-{TID}", team_id=first))
    assert ok(client.get(f"{BASE}/groups"))["stages"][0]["qualified"][0] == second
    final = ok(client.post(f"{BASE}/draws", json={}))["data"]["tables"][0]["players"]
    assert first not in final and second in final


def test_t_8_3_coins_carry_over_to_the_next_stage_and_rank_by_final_balance():
    client = tournament(16, {"advance": 1})           # stageCoins: carry, the default for MJO
    ok(client.post(f"{BASE}/draws", json={}))
    for k in range(1, 5):
        dealer_wins(client, f"S1-T{k}")               # each table's winner: 32
    ok(client.post(f"{BASE}/draws", json={}))
    dealer_wins(client, "S2-T1")                      # +12 for seat 0, -4 for the others
    final = ok(client.get(f"{BASE}/groups"))["stages"][1]["tables"][0]["seats"]
    assert [x["coins"] for x in final] == [44, 28, 28, 28]
    standings = ok(client.get(f"{BASE}/standings"))
    assert [r["coins"] for r in standings["ranking"][:5]] == [44, 28, 28, 28, 16]
    assert standings["ranking"][0]["team"] == final[0]["team"]


def test_t_1_1_a_game_is_created_only_in_a_format_it_is_played_in():
    client = admin_client(create_app(store=InMemoryEventStore()))
    for k, (game, fmt, status) in enumerate((
            ("MJO", "knockout", 422), ("MJO", "swiss", 422), ("SJ2", "groups", 422),
            ("MJO", "groups", 201), ("SJ2", "knockout", 201), ("GD", "knockout", 201),
            ("bridge", "knockout", 201), ("go", "knockout", 201))):
        response = client.post("/v1/tournaments", json={
            "tournament_id": f"t{k}", "name": "x", "game": game, "format": fmt})
        assert response.status_code == status, (game, fmt, response.json)
        if status == 422:
            assert response.json["rule"] == "T-1.1"
            assert f"cannot be played in format {fmt}" in response.json["detail"]
