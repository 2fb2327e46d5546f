"""api_spec.yaml against the Sichuan code: each MJS event's data schema accepts exactly what
marshmallow accepts, the EventRequest schema predicts which of them get 400, and the live answers
of a Sichuan table (before play, in play, after a drawn hand; for every viewer) and of the
Sichuan event's groups and standings match the responses the spec promises."""
from __future__ import annotations

import pytest
from clients import admin_client
from mjs_table import TID, Table, opened
from spec import assert_response
from spec_samples import assert_data_schema_agrees, post_samples

from events.memory_store import InMemoryEventStore
from service import create_app

DATA_SAMPLES = {
    "ExchangeTilesSelected": [
        {"hand": 1, "seat": 0, "tiles": ["1m", "2m", "3m"]},
        {"hand": 1, "seat": 0, "tiles": ["1m", "2m"]},
        {"hand": 1, "seat": 0, "tiles": ["1m", "2m", "3m", "4m"]},
        {"hand": 1, "seat": 0, "tiles": ["1m", "2m", "x"]}, {"hand": 1, "seat": 4,
                                                              "tiles": ["1m", "2m", "3m"]},
    ],
    "VoidSuitDeclared": [
        {"hand": 1, "seat": 0, "suit": "p"}, {"hand": 1, "seat": 3, "suit": "m"},
        {"hand": 1, "seat": 0, "suit": "E"}, {"hand": 1, "seat": 0},
        {"hand": 1, "seat": 0, "suit": "p", "x": 1},
    ],
    "WarningIssued": [
        {"hand": 1, "seat": 2, "offence": "peek"}, {"hand": 1, "seat": 2, "offence": "slow"},
        {"hand": 1, "seat": 2, "offence": "talking"}, {"hand": 1, "seat": 2},
    ],
    "FalseWinDeclared": [{"hand": 2, "seat": 1}, {"hand": 2}, {"hand": 2, "seat": 1, "x": 1}],
    "WrongTileCount": [
        {"hand": 1, "seat": 1, "count": "tooMany"}, {"hand": 1, "seat": 1, "count": "tooFew"},
        {"hand": 1, "seat": 1, "count": "many"}, {"hand": 1, "seat": 1},
    ],
    "ConductPenaltyAssessed": [
        {"hand": 1, "seat": 1, "offence": "ownHand"},
        {"hand": 1, "seat": 1, "offence": "otherHand", "victim": 2},
        {"hand": 1, "seat": 1, "offence": "ownHand", "victim": None},
        {"hand": 1, "seat": 1, "offence": "otherHand"},
        {"hand": 1, "seat": 1, "offence": "otherHand", "victim": None},
        {"hand": 1, "seat": 1, "offence": "ownHand", "victim": 2},
        {"hand": 1, "seat": 1, "offence": "otherHand", "victim": 4},
        {"hand": 1, "seat": 1, "offence": "gossip"},
    ],
    "TieDiceRolled": [
        {"round": 1, "rolls": {"p1": [1, 2], "p2": [6, 6]}},
        {"round": 1, "rolls": {"p1": [1, 2]}}, {"round": 0, "rolls": {"p1": [1, 2], "p2": [1, 1]}},
        {"round": 1, "rolls": {"p1": [1, 7], "p2": [1, 1]}},
        {"round": 1, "rolls": {"-p": [1, 2], "p2": [1, 1]}}, {"rolls": {"a": [1, 1], "b": [2, 2]}},
    ],
    "DiceRolled": [
        {"purpose": "exchange", "seat": 0, "dice": [5, 1], "hand": 3},
        {"purpose": "exchange", "seat": 0, "dice": [5, 1]},
        {"purpose": "exchange", "seat": 0, "dice": [5, 1], "hand": None},
    ],
}


@pytest.mark.parametrize("type_name", sorted(DATA_SAMPLES))
def test_sichuan_data_schemas_accept_exactly_what_marshmallow_accepts(type_name):
    assert_data_schema_agrees(type_name, DATA_SAMPLES[type_name])


def client():
    return admin_client(create_app(store=InMemoryEventStore()))


def test_the_event_request_schema_predicts_which_sichuan_events_get_400():
    c = client()
    table = Table(c)
    statuses = post_samples(c, TID, DATA_SAMPLES, lambda type_name: f"tournament-{TID}"
                            if type_name == "TieDiceRolled" else table.stream)
    assert {400, 422} <= statuses


def _every_read(c, table: Table) -> int:
    base = f"/v1/tournaments/{table.tid}"
    checks = 0
    for view in ("public", "seat:1", "referee"):
        for path, spec_path in (
                (f"{base}/matches/S1-T1?as={view}", "/v1/tournaments/{tid}/matches/{mid}"),
                (f"{base}/matches/S1-T1/hands/{table.hand}?as={view}",
                 "/v1/tournaments/{tid}/matches/{mid}/hands/{n}")):
            response = c.get(path)
            assert response.status_code == 200, response.json
            assert_response(response, "get", spec_path)
            checks += 1
    for path in ("matches", "groups", "standings"):
        response = c.get(f"{base}/{path}")
        assert_response(response, "get", f"/v1/tournaments/{{tid}}/{path}")
        checks += 1
    return checks


def test_live_sichuan_answers_match_the_spec():
    c = client()
    table = Table(c, final=True)
    table.deal({0: "1m 2m 3m 9s", 1: "1s 2s 3s", 2: "5m 6m 7m", 3: "7p 8p 9p"})
    checks = _every_read(c, table)                              # the exchange
    for seat, tiles in {0: "1m 2m 3m", 1: "1s 2s 3s", 2: "5m 6m 7m", 3: "7p 8p 9p"}.items():
        table.ok("ExchangeTilesSelected", seat=seat, tiles=tiles.split())
    table.ok("DiceRolled", purpose="exchange", seat=0, dice=[3, 4], hand=1)
    table.ok("VoidSuitDeclared", seat=0, suit="p")
    checks += _every_read(c, table)                             # the void suits
    for seat, suit in ((1, "m"), (2, "s"), (3, "s")):
        table.ok("VoidSuitDeclared", seat=seat, suit=suit)
    table.ok("WarningIssued", seat=2, offence="peek")
    table.ok("ConductPenaltyAssessed", seat=3, offence="otherHand", victim=1)
    table.ok("TileDiscarded", seat=0, tile=table.concealed(0)[0])
    checks += _every_read(c, table)                             # in play
    while table.hand_view()["phase"] != "over":
        table.draw_discard()
    checks += _every_read(c, table)                             # drawn, with its checks
    assert table.hand_view()["draw_checks"] and checks == 4 * 9


def test_a_hand_with_a_winner_out_matches_the_spec():
    c = client()
    table = opened(c, {2: "1m 2m 3m 4m 5m 6m 7s 8s 9s 5s 6s 2s 2s", 3: "9s 9s"}, voids="mmps",
                   first="7s", settle=False)
    table.ok("Claim", seat=2, kind="win")
    table.settle()
    assert _every_read(c, table) == 9
