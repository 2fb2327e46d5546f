"""Bad rulings and disputes (issue 9): each gets a clear 4xx — the same from POST …/events and
from the preview — and nothing is stored: a ruling that voids a position outside the tournament
or outside its own stream, substitutes cards the player never held, targets a hand that does not
exist, or comes from a role that may not rule; a dispute about what does not exist, resolved
twice, or by what is not a ruling."""
from __future__ import annotations

import pytest
from clients import bearer, token_for
from rulings_desk import Desk
from sj2_table import Table

RECORD = {"enforcement": "record"}
MEMBER = "钟致鹏"


@pytest.fixture
def table(client) -> Table:
    """Hand 1 in play (record mode): seat 0 leads AH, seat 1 plays 6C holding 4H (SJ2-9.2)."""
    table = Table(client, RECORD)
    table.to_play({0: "2S AH", 1: "4H 6C"}, card="2S", no={1: "H"})
    table.ok("CardsPlayed", seat=0, cards=["AH"])
    table.revoke = table.ok("CardsPlayed", seat=1, cards=["6C"])["position"]
    return table


def ruling(*effects: dict) -> dict:
    return {"text": "the committee rules", "effects": list(effects)}


def effect(kind: str, **members) -> dict:
    return {"kind": kind, "rule": "SJ2-15.3", "member": MEMBER, **members}


def test_t_1_5_voiding_a_position_outside_the_tournament_is_refused(client, table):
    desk = Desk(client, table.tid)
    client.post("/v1/tournaments", json={"tournament_id": "other", "name": "x", "game": "SJ2",
                                         "format": "knockout"})
    elsewhere = desk.log()[-1]["position"] + 1  # the other tournament's TournamentCreated
    assert client.get("/v1/tournaments/other/events").json["events"][0]["position"] == elsewhere
    for positions in ([99_999], [elsewhere]):
        body = desk.refused("RulingRecorded", table.stream,
                            ruling(effect("void", positions=positions)), 422, "T-1.5")
        assert f"position {positions[0]} is not an event of this stream" in body["detail"]


def test_t_1_5_a_ruling_edits_only_its_own_streams_events(client, table):
    desk = Desk(client, table.tid)
    registered = next(e["position"] for e in desk.log() if e["type"] == "TeamRegistered")
    desk.refused("RulingRecorded", table.stream, ruling(effect("void", positions=[registered])),
                 422, "T-1.5")
    # and the tournament's stream cannot void the match's plays either
    desk.refused("RulingRecorded", f"tournament-{table.tid}",
                 ruling(effect("void", positions=[table.revoke])), 422, "T-1.5")
    # a range whose ends are not events of the stream
    desk.refused("RulingRecorded", table.stream,
                 ruling(effect("void", **{"from": table.revoke, "to": 99_999})), 422, "T-1.5")
    # nor the match's start, nor a ruling to come
    start = next(e["position"] for e in desk.log() if e["type"] == "MatchStarted")
    body = desk.refused("RulingRecorded", table.stream, ruling(effect("void", positions=[start])),
                        422, "T-1.5")
    assert "cannot be voided" in body["detail"]


def test_sj2_16_substituting_cards_the_player_never_held_is_refused(client, table):
    desk = Desk(client, table.tid)
    held = set(table.held(1)) | {"6C"}
    never = next(c for c in ("9D", "8D", "7D", "6D", "5D", "3D") if c not in held)
    body = desk.refused("RulingRecorded", table.stream, ruling(effect(
        "substitute", position=table.revoke,
        data={"hand": 1, "seat": 1, "cards": [never]})), 422, "SJ2-16")
    assert f"seat 1 does not hold {never}" in body["detail"]
    # a substitute that is not data of the event's type
    body = desk.refused("RulingRecorded", table.stream, ruling(effect(
        "substitute", position=table.revoke, data={"hand": 1, "seat": 1})), 422, "T-1.5")
    assert "not CardsPlayed data" in body["detail"]
    # nor an event of another game
    desk.refused("RulingRecorded", table.stream, ruling(effect(
        "substitute", position=table.revoke, type="Claim",
        data={"hand": 1, "seat": 1, "kind": "win"})), 422)


def test_a_ruling_on_a_hand_that_does_not_exist_is_refused(client, table):
    desk = Desk(client, table.tid)
    body = desk.refused("RulingRecorded", table.stream,
                        ruling(effect("penalty", hand=5, side="B", points=10)), 422, "SJ2-16")
    assert "hand 5 has not been dealt" in body["detail"]
    desk.refused("RulingRecorded", table.stream,
                 ruling(effect("awardHand", hand=5, result={"points": 40})), 422, "SJ2-16")
    body = desk.refused("RulingRecorded", table.stream,
                        ruling(effect("replayHand", hand=5, **{"from": table.revoke})), 422,
                        "T-1.5")
    assert f"position {table.revoke} is not an event of hand 5" in body["detail"]
    body = desk.refused("DisputeRaised", f"tournament-{table.tid}", {
        "dispute_id": "d9", "match_id": "R1-1", "hand": 5, "claim": "x"}, 422, "T-1.5")
    assert "hand 5 of match 'R1-1' has not been dealt" in body["detail"]


@pytest.mark.parametrize("role", ["referee", "organiser", "table", "player", "auditor"])
def test_a_role_that_may_not_rule_gets_403_for_the_ruling_and_its_preview(client, table, role):
    desk = Desk(client, table.tid)
    scope = {"table": {"match": "R1-1"}, "player": {"match": "R1-1", "seat": 1}}.get(role, {})
    auth = bearer(token_for(client.application, role, tournament=table.tid, **scope))
    data = ruling(effect("penalty", side="B", points=10))
    body = desk.refused("RulingRecorded", table.stream, data, 403, headers=auth)
    assert "may not post" in body["detail"] or "ruling event" in body["detail"]
    committee = bearer(token_for(client.application, "committee", tournament=table.tid))
    assert desk.preview(table.stream, data, headers=committee)["projections"]
    assert desk.post("RulingRecorded", table.stream, data, committee).status_code == 201


def test_the_public_may_not_preview(client, table):
    anonymous = client.application.test_client()
    response = anonymous.post(f"/v1/tournaments/{table.tid}/rulings/preview",
                              json={"stream": table.stream, "data": ruling()})
    assert response.status_code == 401


@pytest.mark.parametrize("bad, where", [
    (effect("void"), "/data/effects/0/positions"),
    (effect("void", positions=[3], **{"from": 1, "to": 2}), "/data/effects/0/positions"),
    (effect("void", **{"from": 5, "to": 2}), "/data/effects/0/to"),
    (effect("substitute", position=3), "/data/effects/0/data"),
    (effect("penalty", side="B"), "/data/effects/0/points"),
    (effect("penalty", side="B", seat=1, points=10), "/data/effects/0/side"),
    (effect("penalty", side="B", points=-10), "/data/effects/0/points"),
    (effect("adjustLevel", side="A", levels=0), "/data/effects/0/levels"),
    (effect("replayHand", hand=1), "/data/effects/0/from"),
    (effect("forfeit", entrant="east", hand=1), "/data/effects/0/hand"),
    ({**effect("forfeit", entrant="east"), "rule": "SJ2"}, "/data/effects/0/rule"),
    ({"kind": "forfeit", "rule": "T-1.5", "entrant": "east"}, "/data/effects/0/member"),
    (effect("explode"), "/data/effects/0/kind"),
])
def test_malformed_effects_are_400(client, table, bad, where):
    desk = Desk(client, table.tid)
    before = desk.log()
    for path in ("events", "rulings/preview"):
        body = {"stream": table.stream, "data": ruling(bad)}
        if path == "events":
            body["type"] = "RulingRecorded"
        response = client.post(f"/v1/tournaments/{table.tid}/{path}", json=body)
        assert response.status_code == 400, response.json
        assert where in {e["path"] for e in response.json["errors"]}, response.json
    assert desk.log() == before


def test_t_1_5_a_dispute_names_what_exists_and_is_resolved_once_by_a_ruling(client, table):
    desk = Desk(client, table.tid)
    stream = f"tournament-{table.tid}"
    desk.refused("DisputeRaised", stream, {"dispute_id": "d1", "match_id": "R9-9", "claim": "x"},
                 422, "T-1.5")
    body = desk.refused("DisputeRaised", stream, {"dispute_id": "d1", "match_id": "R1-1",
                                                  "positions": [table.revoke, 99_999],
                                                  "claim": "x"}, 422, "T-1.5")
    assert "position 99999 is not an event of" in body["detail"]
    desk.refused("DisputeRaised", stream, {"dispute_id": "d1", "hand": 1, "claim": "x"}, 400)
    desk.raise_dispute("d1", "seat 1 revoked", match_id="R1-1", positions=[table.revoke])
    desk.refused("DisputeRaised", stream, {"dispute_id": "d1", "claim": "again"}, 422, "T-1.5")
    # resolved: by a ruling of this tournament, or no change — once
    desk.refused("DisputeResolved", stream, {"dispute_id": "d2", "noChange": True, "text": "x"},
                 422, "T-1.5")
    play = next(e for e in desk.log() if e["position"] == table.revoke)
    body = desk.refused("DisputeResolved", stream, {"dispute_id": "d1", "text": "x",
                                                    "ruling_event_id": play["id"]}, 422, "T-1.5")
    assert "is not a ruling (RulingRecorded) of this tournament" in body["detail"]
    desk.refused("DisputeResolved", stream, {"dispute_id": "d1", "text": "x", "noChange": True,
                                             "ruling_event_id": play["id"]}, 400)
    desk.refused("DisputeResolved", stream, {"dispute_id": "d1", "text": "x", "noChange": False},
                 400)
    desk.refused("RulingRecorded", table.stream, {"text": "r", "dispute_id": "d7"}, 422, "T-1.5")
    desk.resolve("d1", None, "the follow error stands as recorded")
    desk.refused("DisputeResolved", stream, {"dispute_id": "d1", "noChange": True, "text": "x"},
                 422, "T-1.5")
    (dispute,) = desk.disputes()
    assert dispute["status"] == "resolved" and dispute["resolution"]["noChange"] is True


def test_a_captain_raises_disputes_about_his_own_match_only(client, table):
    desk = Desk(client, table.tid)
    stream = f"tournament-{table.tid}"
    elsewhere = bearer(token_for(client.application, "player", tournament=table.tid,
                                 match="R1-2", seat=1))
    body = desk.refused("DisputeRaised", stream, {"dispute_id": "d1", "match_id": "R1-1",
                                                  "claim": "x"}, 403, headers=elsewhere)
    assert "match 'R1-2' only" in body["detail"]
    desk.refused("DisputeResolved", stream, {"dispute_id": "d1", "noChange": True, "text": "x"},
                 403, headers=elsewhere)
    auditor = bearer(token_for(client.application, "auditor", tournament=table.tid))
    desk.refused("DisputeRaised", stream, {"dispute_id": "d1", "claim": "x"}, 403,
                 headers=auditor)
