"""The match read is a summary (issue 21): its size does not grow with the hands played — the
result rows of every hand are paged at ``GET …/matches/{mid}/hands`` — so a table app that
reads the match after every move pays the same at hand 32 as at hand 1."""
from __future__ import annotations

import json

import pytest
from clients import admin_client, hand_results
from mj_table import Table

from events.memory_store import InMemoryEventStore
from service import create_app

WIN_5M = "1m 2m 3m 4p 5p 6p 7s 8s 9s C C C 5m 5m"  # MJO Ex 1: the dealer's first 14 win
HANDS = 32


@pytest.fixture(scope="module")
def session():
    """An MJO table of 32 hands, each won by the dealer on his first 14 tiles (MJO-5.4: he
    deals again), with the positions just after each deal and each win."""
    client = admin_client(create_app(store=InMemoryEventStore()))
    table = Table(client, {"sessionHands": HANDS})
    dealt, won = {}, {}
    for number in range(1, HANDS + 1):
        table.hand = number
        dealt[number] = table.deal({0: WIN_5M})["position"]
        won[number] = table.ok("Win", seat=0)["position"]
    return table, dealt, won


def size(table: Table, at: int) -> int:
    response = table.client.get(f"/v1/tournaments/{table.tid}/matches/{table.mid}",
                                query_string={"as": "referee", "at": at})
    assert response.status_code == 200
    return len(response.get_data())


@pytest.mark.parametrize("moment", ["dealt", "won"])
def test_the_match_read_at_the_last_hand_is_the_size_of_the_one_at_hand_1(session, moment):
    table, dealt, won = session
    positions = {"dealt": dealt, "won": won}[moment]
    first, last = size(table, positions[1]), size(table, positions[HANDS])
    assert last <= 1.5 * first and first <= 1.5 * last, (first, last)
    # what the read used to inline: 32 result rows, more than twice the whole read
    rows = hand_results(table.client, table.tid, table.mid)
    assert len(rows) == HANDS and len(json.dumps(rows).encode()) > 2 * last


def test_the_match_read_carries_the_last_result_and_where_the_others_are(session):
    table, _, won = session
    match = table.match()
    assert match["status"] == "completed" and match["hands_played"] == HANDS
    assert match["last_result"] == table.results()[-1]
    assert match["last_result"]["hand"] == HANDS and match["last_result"]["payments"] == \
        [12, -4, -4, -4]
    assert match["hand_results"] == f"/v1/tournaments/{table.tid}/matches/{table.mid}/hands"
    assert "history" not in match
    before = table.match(at=won[1] - 1)
    assert before["last_result"] is None and before["current_hand"]["hand"] == 1


def test_the_result_rows_are_paged_by_hand_number(session):
    table, _, won = session
    url = f"/v1/tournaments/{table.tid}/matches/{table.mid}/hands"
    first = table.client.get(url, query_string={"limit": 10})
    page = first.get_json()
    assert [row["hand"] for row in page["hands"]] == list(range(1, 11))
    assert page["next"] == f"{url}?after=10&limit=10"
    assert first.headers["Link"] == f'<{page["next"]}>; rel="next"'
    last = table.client.get(url, query_string={"after": 30, "limit": 10}).get_json()
    assert [row["hand"] for row in last["hands"]] == [31, 32] and last["next"] is None
    assert "Link" not in table.client.get(url, query_string={"after": 30}).headers
    # as of a past position: the hands finished by then
    early = table.client.get(url, query_string={"at": won[3]}).get_json()
    assert [row["hand"] for row in early["hands"]] == [1, 2, 3]
    assert hand_results(table.client, table.tid, table.mid, limit=7) == table.results()


@pytest.mark.parametrize("query, name", [({"after": "ten"}, "after"), ({"after": "-1"}, "after"),
                                         ({"after": "1.5"}, "after"), ({"limit": "0"}, "limit"),
                                         ({"limit": "100000"}, "limit")])
def test_a_cursor_that_is_not_a_hand_number_is_400(session, query, name):
    table, *_ = session
    response = table.client.get(f"/v1/tournaments/{table.tid}/matches/{table.mid}/hands",
                                query_string=query)
    assert response.status_code == 400
    assert response.headers["Content-Type"] == "application/problem+json"
    assert response.get_json()["errors"][0]["path"] == name


def test_the_result_rows_of_an_unknown_match_are_404(session):
    table, *_ = session
    response = table.client.get(f"/v1/tournaments/{table.tid}/matches/nope/hands")
    assert response.status_code == 404
