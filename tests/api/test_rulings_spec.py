"""api_spec.yaml says what the committee's desk does (issue 9): the data schemas of the dispute
events and of structured rulings accept exactly what the code accepts, and the live answers of
the desk's routes — disputes, rulings, a preview, a difference, their refusals — match their
documented schemas."""
from __future__ import annotations

import pytest
from rulings_desk import Desk
from sj2_table import Table
from spec import assert_response, errors, is_valid, marshmallow_accepts

from events import default_catalogue

ID = "01a22827-5fe7-7e47-8af6-8a6edd82391f"


def effect(kind: str, **members) -> dict:
    return {"kind": kind, "rule": "SJ2-12.4", "member": "钟致鹏", **members}


def ruling(*effects) -> dict:
    return {"text": "r", "effects": list(effects)}


SAMPLES = {
    "DisputeRaised": [
        {"dispute_id": "d1", "claim": "c"},
        {"dispute_id": "d1", "match_id": "R1-1", "hand": 3, "positions": [4, 5], "claim": "c"},
        {"dispute_id": "d1", "match_id": None, "hand": None, "positions": None, "claim": "c"},
        {"dispute_id": "d1", "match_id": "R1-1", "claim": "c" * 10000},
        {"dispute_id": "d1", "hand": 3, "claim": "c"}, {"dispute_id": "d1", "claim": ""},
        {"dispute_id": "d1", "match_id": None, "hand": 3, "claim": "c"},
        {"dispute_id": "-d", "claim": "c"}, {"claim": "c"}, {"dispute_id": "d1"},
        {"dispute_id": "d1", "positions": [], "claim": "c"},
        {"dispute_id": "d1", "positions": [0], "claim": "c"},
        {"dispute_id": "d1", "hand": 1001, "match_id": "m", "claim": "c"},
        {"dispute_id": "d1", "claim": "c", "seat": 1},
    ],
    "DisputeResolved": [
        {"dispute_id": "d1", "ruling_event_id": ID, "text": "t"},
        {"dispute_id": "d1", "noChange": True, "text": "t"},
        {"dispute_id": "d1", "noChange": True, "ruling_event_id": None, "text": "t"},
        {"dispute_id": "d1", "ruling_event_id": ID, "noChange": None, "text": "t"},
        {"dispute_id": "d1", "text": "t"}, {"dispute_id": "d1", "noChange": False, "text": "t"},
        {"dispute_id": "d1", "noChange": True, "ruling_event_id": ID, "text": "t"},
        {"dispute_id": "d1", "ruling_event_id": ID.upper(), "text": "t"},
        {"dispute_id": "d1", "noChange": "yes", "text": "t"},
        {"dispute_id": "d1", "noChange": True, "text": ""},
    ],
    "RulingRecorded": [
        {"text": "t", "dispute_id": "d1"}, {"text": "t", "effects": None, "dispute_id": None},
        ruling(effect("void", positions=[1, 2])), ruling(effect("void", **{"from": 1, "to": 1})),
        ruling(effect("substitute", position=3, data={"hand": 1}, type="CardsPlayed")),
        ruling(effect("penalty", side="A", points=40, hand=2, after=9)),
        ruling(effect("penalty", seat=1, coins=5, payees=[0, 2])),
        ruling(effect("penalty", side="B", levels=2), {**effect("cancelPenalty", position=4),
                                                       "rule": "discretion",
                                                       "dispute_id": "d1", "reason": "r"}),
        ruling(effect("awardHand", hand=1, result={"points": 0}, **{"from": 7})),
        ruling(effect("replayHand", hand=1, **{"from": 7})),
        ruling(effect("adjustLevel", side="A", levels=-2, after=3)),
        ruling(effect("forfeit", entrant="east"), effect("disqualify", entrant="west")),
        ruling(effect("setting", key="maxHands", value=None, from_hand=2)),
        ruling(), ruling(effect("void")), ruling(effect("void", positions=[1], to=3)),
        ruling(effect("void", **{"from": 1})), ruling(effect("void", positions=[0])),
        ruling(effect("substitute", position=3)), ruling(effect("penalty", side="A")),
        ruling(effect("penalty", side="A", seat=1, points=5)),
        ruling(effect("penalty", side="A", points=5, coins=1)),
        ruling(effect("penalty", side="A", points=0)), ruling(effect("cancelPenalty")),
        ruling(effect("awardHand", hand=1)), ruling(effect("replayHand", hand=1)),
        ruling(effect("adjustLevel", side="A", levels=0)),
        ruling(effect("adjustLevel", side="C", levels=1)),
        ruling(effect("forfeit", entrant="east", hand=1)), ruling(effect("forfeit")),
        ruling(effect("setting", key="k", value=1)), ruling(effect("nothing")),
        ruling({**effect("forfeit", entrant="east"), "rule": "rule 7"}),
        ruling({**effect("forfeit", entrant="east"), "member": ""}),
        ruling({"kind": "forfeit", "rule": "T-1.5", "entrant": "east"}),
        ruling(*[effect("forfeit", entrant="east")] * 51),
    ],
}


@pytest.mark.parametrize("type_name", sorted(SAMPLES))
def test_the_data_schemas_accept_exactly_what_marshmallow_accepts(type_name):
    event_type = default_catalogue().get(type_name)
    name = event_type.schema.__name__
    verdicts = [(sample, marshmallow_accepts(event_type, sample), is_valid(name, sample))
                for sample in SAMPLES[type_name]]
    assert any(code for _, code, _ in verdicts) and not all(code for _, code, _ in verdicts)
    wrong = [f"code {'accepts' if code else 'refuses'}: {sample!r} {errors(name, sample)}"
             for sample, code, spec in verdicts if code != spec]
    assert not wrong, "\n".join(wrong)


def test_the_desks_answers_match_the_spec(client):
    table = Table(client, {"enforcement": "record"})
    table.to_play({0: "2S AH", 1: "4H 6C"}, card="2S", no={1: "H"})
    table.ok("CardsPlayed", seat=0, cards=["AH"])
    revoke = table.ok("CardsPlayed", seat=1, cards=["6C"])["position"]
    desk = Desk(client, table.tid)
    base = f"/v1/tournaments/{table.tid}"
    desk.raise_dispute("d1", "4H", match_id="R1-1", hand=1, positions=[revoke])
    data = {"text": "4H", "dispute_id": "d1", "effects": [effect(
        "substitute", position=revoke, data={"hand": 1, "seat": 1, "cards": ["4H"]})]}
    preview = client.post(f"{base}/rulings/preview", json={"stream": table.stream, "data": data})
    assert assert_response(preview, "post", "/v1/tournaments/{tid}/rulings/preview")
    bad = client.post(f"{base}/rulings/preview", json={"stream": table.stream, "data": ruling(
        effect("void", positions=[99_999]))})
    assert assert_response(bad, "post", "/v1/tournaments/{tid}/rulings/preview")["rule"] == \
        "T-1.5"
    malformed = client.post(f"{base}/rulings/preview", json={"stream": "x", "data": {}})
    assert_response(malformed, "post", "/v1/tournaments/{tid}/rulings/preview")
    recorded = desk.rule(table.stream, data)
    desk.resolve("d1", recorded["id"], "4H")
    desk.raise_dispute("d2", "again", match_id="R1-1")
    for path, url in (("/v1/tournaments/{tid}/disputes", f"{base}/disputes"),
                      ("/v1/tournaments/{tid}/rulings", f"{base}/rulings"),
                      ("/v1/tournaments/{tid}/rulings", f"{base}/rulings?match=R1-1"),
                      ("/v1/tournaments/{tid}/matches/{mid}/diff",
                       f"{base}/matches/R1-1/diff?from={revoke}&to={recorded['position']}"),
                      ("/v1/tournaments/{tid}/matches/{mid}/diff",
                       f"{base}/matches/R1-1/diff?hand=1"),
                      ("/v1/tournaments/{tid}/matches/{mid}", f"{base}/matches/R1-1")):
        response = client.get(url)
        assert response.status_code == 200, (url, response.json)
        assert_response(response, "get", path)
    assert [d["status"] for d in desk.disputes()] == ["resolved", "open"]
