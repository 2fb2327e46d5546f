"""Numbers a body may carry (issue 20): the stores keep 64-bit integers, so a number beyond
2^63-1 anywhere in a JSON body — inside settings, a ruling's free-form effect, a batch — is a
400 at the edge naming its place, in our words (not the interpreter's: a 4,300-digit integer
used to answer "Exceeds the limit (4300 digits) for integer string conversion")."""
from __future__ import annotations

import pytest
from clients import admin_client
from spec import assert_response

from events.memory_store import InMemoryEventStore
from service import create_app

LIMIT = 2**63 - 1
RANGE = f"numbers must lie between {-LIMIT - 1} and {LIMIT}"


@pytest.fixture
def client(signer):
    return admin_client(create_app(store=InMemoryEventStore(), signer=signer))


def create(client, raw: str):
    response = client.post("/v1/tournaments", data=raw, content_type="application/json")
    return response, assert_response(response, "post", "/v1/tournaments")


@pytest.mark.parametrize("number, shown", [
    (str(2**64), str(2**64)),
    (str(-LIMIT - 2), str(-LIMIT - 2)),
    ("9" * 5000, "9" * 20 + "…"),
    ("1e400", "1e400"),
    ("-1e400", "-1e400"),
])
def test_a_number_beyond_what_the_store_keeps_is_refused_naming_its_place(client, number, shown):
    response, problem = create(client, '{"name": "春季", "game": "SJ2", "format": "swiss", '
                                       f'"settings": {{"rounds": 5, "a/b": [1, {number}]}}}}')
    assert response.status_code == 400
    assert problem["type"] == "urn:paiju:problem:validation-failed"
    assert problem["errors"] == [{"path": "/settings/a~1b/1",
                                  "message": f"the number {shown} is out of range: {RANGE}"}]
    assert "4300" not in str(problem) and "conversion" not in str(problem)
    assert client.get("/v1/tournaments").get_json()["tournaments"] == []


def test_every_out_of_range_number_of_a_batch_is_named(client):
    tid = client.post("/v1/tournaments", json={"name": "x", "game": "SJ2",
                                               "format": "swiss"}).get_json()["id"]
    ruling = ('{"type": "RulingRecorded", "stream": "tournament-%s", "data": {"text": "r", '
              '"effect": {"k": %s}}}')
    body = '{"events": [%s, %s]}' % (ruling % (tid, 2**63), ruling % (tid, "1" * 4301))
    response = client.post(f"/v1/tournaments/{tid}/events", data=body,
                           content_type="application/json")
    problem = assert_response(response, "post", "/v1/tournaments/{tid}/events")
    assert response.status_code == 400
    assert [e["path"] for e in problem["errors"]] == ["/events/0/data/effect/k",
                                                      "/events/1/data/effect/k"]


def test_the_largest_numbers_the_store_keeps_pass_the_edge(client):
    tid = client.post("/v1/tournaments", json={"name": "x", "game": "SJ2",
                                               "format": "swiss"}).get_json()["id"]
    response = client.post(f"/v1/tournaments/{tid}/events", json={
        "type": "RulingRecorded", "stream": f"tournament-{tid}",
        "data": {"text": "r", "effect": {"max": LIMIT, "min": -LIMIT - 1, "f": 1.5e300}}})
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["data"]["effect"] == {"max": LIMIT, "min": -LIMIT - 1, "f": 1.5e300}
