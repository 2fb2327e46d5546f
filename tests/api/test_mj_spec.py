"""api_spec.yaml against the mahjong code: each mahjong event's data schema accepts exactly what
marshmallow accepts, the EventRequest schema predicts which mahjong events get 400, and the live
answers of a mahjong table and a groups tournament match the responses the spec promises."""
from __future__ import annotations

import pytest
from clients import admin_client
from mj_table import TID, Clock, Table, clocked_client, deal_tiles, opened
from spec import assert_response
from spec_samples import assert_data_schema_agrees, post_samples

from events.memory_store import InMemoryEventStore
from service import create_app

WALLS = [list(deal_tiles({})["wall"][:34])] * 4
HANDS = deal_tiles({})["hands"]

DATA_SAMPLES = {
    "DiceRolled": [
        {"purpose": "firstDealer", "seat": 0, "dice": [1, 6]},
        {"purpose": "wallBreak", "seat": 3, "dice": [6, 6], "hand": 2},
        {"purpose": "firstDealer", "seat": 0, "dice": [1, 6], "hand": None},
        {"purpose": "wallBreak", "seat": 3, "dice": [6, 6]},
        {"purpose": "wallBreak", "seat": 3, "dice": [6, 6], "hand": None},
        {"purpose": "tie", "seat": 0, "dice": [1, 1]},
        {"purpose": "firstDealer", "seat": 4, "dice": [1, 1]},
        {"purpose": "firstDealer", "seat": 0, "dice": [0, 1]},
        {"purpose": "firstDealer", "seat": 0, "dice": [1, 2, 3]},
        {"purpose": "firstDealer", "seat": 0, "dice": [1, 2], "extra": 1},
        {"purpose": "firstDealer", "dice": [1, 2]},
    ],
    "TilesDealt": [
        {"hand": 1, "hands": HANDS},
        {"hand": 1, "hands": HANDS, "wall": ["1m"], "dealer": 2},
        {"hand": 1, "walls": WALLS},
        {"hand": 1, "walls": WALLS, "dice": [[1, 2], [3, 4]], "hands": None, "wall": None},
        {"hand": 1, "hands": HANDS, "dice": None, "walls": None, "dealer": None},
        {"hand": 1},
        {"hand": 1, "hands": None, "walls": None},
        {"hand": 1, "hands": HANDS, "walls": WALLS},
        {"hand": 1, "walls": WALLS, "wall": ["1m"]},
        {"hand": 1, "hands": HANDS, "dice": [[1, 2], [3, 4]]},
        {"hand": 1, "hands": HANDS[:3]},
        {"hand": 1, "hands": [["1m"] * 21] + HANDS[1:]},
        {"hand": 1, "hands": [["1M"]] + HANDS[1:]},
        {"hand": 0, "hands": HANDS},
        {"hand": 1, "hands": HANDS, "dealer": 4},
        {"hand": 1, "walls": WALLS, "dice": [[1, 7], [3, 4]]},
    ],
    "TileDrawn": [
        {"hand": 1, "seat": 1, "tile": "E"}, {"hand": 1, "seat": 1, "tile": "9s", "fromEnd": True},
        {"hand": 1, "seat": 1, "tile": "E", "fromEnd": None},
        {"hand": 1, "seat": 1, "tile": "E", "fromEnd": "yes"},
        {"hand": 1, "seat": 1, "tile": "e"}, {"hand": 1, "seat": 1}, {"seat": 1, "tile": "E"},
    ],
    "TileDiscarded": [
        {"hand": 1, "seat": 0, "tile": "5p"}, {"hand": 1000, "seat": 3, "tile": "P"},
        {"hand": 1, "seat": 0, "tile": "5P"}, {"hand": 1, "seat": 0, "tile": "5p", "x": 1},
        {"hand": 1001, "seat": 0, "tile": "5p"}, {"hand": 1, "seat": -1, "tile": "5p"},
    ],
    "Claim": [
        {"hand": 1, "seat": 2, "kind": "chow", "tiles": ["4p", "6p"]},
        {"hand": 1, "seat": 2, "kind": "win"}, {"hand": 1, "seat": 2, "kind": "kong",
                                                 "tiles": ["7s"] * 3},
        {"hand": 1, "seat": 2, "kind": "win", "tiles": None},
        {"hand": 1, "seat": 2, "kind": "pass"}, {"hand": 1, "seat": 2, "kind": "pong",
                                                  "tiles": ["7s"] * 4},
        {"hand": 1, "seat": 2, "kind": "pong", "tiles": ["7x", "7s"]}, {"hand": 1, "seat": 2},
    ],
    "ClaimPassed": [{"hand": 1, "seat": 0}, {"hand": 1}, {"hand": 1, "seat": 0, "kind": "x"}],
    "ClaimWindowClosed": [{"hand": 1}, {}, {"hand": 1, "seat": 0}],
    "Win": [
        {"hand": 1, "seat": 0}, {"hand": 1, "seat": 0, "tile": "5m", "selfDrawn": True},
        {"hand": 1, "seat": 0, "selfDrawn": False, "discarder": 2, "tile": "5m"},
        {"hand": 1, "seat": 0, "selfDrawn": None, "discarder": None, "tile": None},
        {"hand": 1, "seat": 0, "selfDrawn": False, "tile": "5m"},
        {"hand": 1, "seat": 0, "selfDrawn": False, "discarder": 2},
        {"hand": 1, "seat": 0, "selfDrawn": False, "discarder": None, "tile": "5m"},
        {"hand": 1, "seat": 0, "discarder": 2}, {"hand": 1, "seat": 0, "selfDrawn": True,
                                                  "discarder": 2},
        {"hand": 1, "seat": 0, "tile": "55"}, {"hand": 1, "seat": 0, "selfDrawn": 0},
    ],
    "KongDeclared": [
        {"hand": 1, "seat": 0, "kind": "concealed", "tile": "9m"},
        {"hand": 1, "seat": 0, "kind": "added", "tile": "9m"},
        {"hand": 1, "seat": 0, "kind": "direct", "tile": "9m"},
        {"hand": 1, "seat": 0, "kind": "added"},
    ],
    "ExhaustiveDrawDeclared": [{"hand": 1, "seat": 3}, {"hand": 1, "seat": "3"}],
    "TimeLimitExceeded": [
        {"hand": 1, "seat": 1, "limit": "pong"}, {"hand": 1, "seat": 1, "limit": "firstDiscard"},
        {"hand": 1, "seat": 1, "limit": "claim"}, {"hand": 1, "seat": 1},
    ],
    "CoinPenaltyAssessed": [
        {"rule": "MJO-9.3", "seat": 1, "coins": 2},
        {"rule": "MJO-9.3", "seat": 1, "coins": 1000, "payees": [0, 2, 3], "hand": 4,
         "reason": "r" * 2000},
        {"rule": "MJO-9.3", "seat": 1, "coins": 2, "payees": None, "hand": None, "reason": None},
        {"rule": "MJO-9.3", "seat": 1, "coins": 0}, {"rule": "MJO-9.3", "seat": 1, "coins": 1001},
        {"rule": "MJO-9.3", "seat": 1, "coins": 2, "payees": []},
        {"rule": "MJO-9.3", "seat": 1, "coins": 2, "payees": [0, 1, 2, 3]},
        {"rule": "MJO-9.3", "seat": 1, "coins": 2, "payees": [4]},
        {"rule": "mjo-9", "seat": 1, "coins": 2}, {"rule": "MJO-9.3", "seat": 1, "coins": 2,
                                                    "reason": ""},
    ],
    "LotsDrawn": [
        {"purpose": "tables", "round": 1,
         "tables": [{"match_id": "S1-T1", "players": ["a", "b", "c", "d"]}]},
        {"purpose": "standingsTie", "round": 1, "candidates": ["a", "b"], "winner": "b"},
        {"purpose": "tables", "round": 1},
        {"purpose": "tables", "tables": []},
        {"purpose": "tables", "round": 1, "tables": [{"match_id": "S1-T1", "players": ["a"]}]},
        {"purpose": "tables", "round": 1,
         "tables": [{"match_id": "x" * 41, "players": ["a", "b", "c", "d"]}]},
        {"purpose": "standingsTie", "round": 1, "candidates": ["a", "b"]},
        {"purpose": "standingsTie", "candidates": ["a", "b"], "winner": "a"},
        {"purpose": "standingsTie", "round": 1, "candidates": ["a", 2], "winner": "a"},
        {"purpose": "standingsTie", "round": 1, "candidates": ["a", "b"], "winner": 1},
        {"purpose": "standingsTie", "round": 1, "candidates": ["a", "-b"], "winner": "a"},
    ],
}


@pytest.mark.parametrize("type_name", sorted(DATA_SAMPLES))
def test_mahjong_data_schemas_accept_exactly_what_marshmallow_accepts(type_name):
    assert_data_schema_agrees(type_name, DATA_SAMPLES[type_name])


def test_the_event_request_schema_predicts_which_mahjong_events_get_400():
    client = admin_client(create_app(store=InMemoryEventStore()))
    table = Table(client)
    statuses = post_samples(client, TID, DATA_SAMPLES, lambda type_name: f"tournament-{TID}"
                            if type_name == "LotsDrawn" else table.stream)
    assert {201, 400, 422} <= statuses


def test_live_mahjong_answers_match_the_spec():
    clock = Clock()
    client = clocked_client(clock)
    table = opened(client, {0: "5p 5p", 1: "5p", 2: "4p 6p"}, wall="E",
                   settings={"sessionMinutes": 60})
    base = f"/v1/tournaments/{TID}"
    checks = 0

    def check(path: str, spec_path: str) -> dict:
        nonlocal checks
        response = client.get(path)
        assert response.status_code == 200, response.json
        checks += 1
        return assert_response(response, "get", spec_path)

    def every_read():
        for view in ("public", "seat:1", "referee"):
            check(f"{base}/matches/S1-T1?as={view}", "/v1/tournaments/{tid}/matches/{mid}")
            check(f"{base}/matches/S1-T1/hands/1?as={view}",
                  "/v1/tournaments/{tid}/matches/{mid}/hands/{n}")
        check(f"{base}/matches", "/v1/tournaments/{tid}/matches")
        check(f"{base}/groups", "/v1/tournaments/{tid}/groups")
        check(f"{base}/standings", "/v1/tournaments/{tid}/standings")

    every_read()
    table.ok("TileDrawn", seat=1, tile="E")
    table.ok("TileDiscarded", seat=1, tile="5p")
    table.ok("Claim", seat=2, kind="chow", tiles=["4p", "6p"])
    clock.advance(seconds=16)
    table.ok("TimeLimitExceeded", seat=2, limit="discard")
    every_read()                                            # a claim window open
    table.ok("Claim", seat=0, kind="pong", tiles=["5p", "5p"])
    table.ok("ClaimPassed", seat=3)
    table.ok("CoinPenaltyAssessed", hand=1, rule="MJO-9.3", seat=3, coins=1, payees=[1])
    clock.advance(seconds=60 * 60)
    table.ok("TimeLimitReached", limit_minutes=60)
    discard = table.concealed(0)[0]
    table.ok("TileDiscarded", seat=0, tile=discard)
    while table.hand_view()["phase"] != "over":
        table.draw_discard()
    every_read()                                            # the hand and the session over
    assert table.match()["status"] == "completed"
    assert checks == 3 * 9


def test_the_groups_routes_answer_as_the_spec_says():
    client = admin_client(create_app(store=InMemoryEventStore()))
    from mj_table import groups_tournament
    groups_tournament(client)
    base = f"/v1/tournaments/{TID}"
    assert_response(client.get(f"{base}/groups"), "get", "/v1/tournaments/{tid}/groups")
    response = client.post(f"{base}/draws", json={})
    assert response.status_code == 201
    assert_response(response, "post", "/v1/tournaments/{tid}/draws")
    response = client.post(f"{base}/matches", json={"match_id": "S1-T1"})
    assert response.status_code == 201
    assert_response(response, "post", "/v1/tournaments/{tid}/matches")
    response = client.post(f"{base}/draws", json={})
    assert response.status_code == 422
    assert_response(response, "post", "/v1/tournaments/{tid}/draws")
