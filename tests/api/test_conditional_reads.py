"""Conditional requests (issue 21): every GET route of api_spec.yaml answers with an ETag and a
Cache-Control; the ETag sent back in If-None-Match gets 304 with no body; a write changes the
ETag of the reads it affects and leaves the others alone; a read ``?at=`` a reached position
is immutable; a malformed If-None-Match gets the full answer."""
from __future__ import annotations

import re

import pytest
from clients import admin_client, bearer, token_for
from mj_table import draw_table, groups_tournament
from sj2_table import Table
from spec import SPEC, assert_response
from tables import ok

from events.memory_store import InMemoryEventStore
from service import create_app

KO, OTHER, GROUPS, TEAMS = "etag-ko", "etag-other", "etag-groups", "etag-teams"


@pytest.fixture(scope="module")
def served(signer):
    """A knockout with hand 1 of R1-1 dealt, a second knockout, an MJO groups tournament with
    its table drawn and an SJ3 team event: one of each kind of read."""
    app = create_app({"WEBHOOKS_ALLOW_PRIVATE": True}, store=InMemoryEventStore(), signer=signer)
    client = admin_client(app)
    table = Table(client, tid=KO)
    table.deal()
    ok(client.post(f"/v1/tournaments/{KO}/webhooks", json={"url": "http://127.0.0.1:9/hook"}))
    other = Table(client, tid=OTHER)
    other.deal()
    groups_tournament(client, GROUPS)
    draw_table(client, GROUPS)
    ok(client.post("/v1/tournaments", json={"tournament_id": TEAMS, "name": "team event",
                                            "game": "SJ3", "format": "swiss-teams"}))
    return client, table, other


def _url(template: str, client, table) -> str:
    """A URL of the route ``template`` that answers 200 in the served deployment."""
    tid = GROUPS if "groups" in template else TEAMS if "rounds" in template else KO
    first = ok(client.get(f"/v1/tournaments/{KO}/events?limit=1"))["events"][0]
    webhook = ok(client.get(f"/v1/tournaments/{KO}/webhooks"))["webhooks"][0]["id"]
    values = {"tid": tid, "mid": table.mid, "n": "1", "event_id": first["id"],
              "stream": table.stream, "name": "paiju.css", "webhook_id": webhook}
    return re.sub(r"\{(\w+)\}", lambda m: values[m.group(1)], template)


def _streams_forever(item: dict) -> bool:
    """A subscription (text/event-stream): an answer that never ends has no ETag to match."""
    return "text/event-stream" in item["get"]["responses"]["200"].get("content", {})


GET_ROUTES = sorted(path for path, item in SPEC["paths"].items()
                    if "get" in item and not _streams_forever(item))


@pytest.mark.parametrize("template", GET_ROUTES)
def test_every_read_answers_304_to_its_own_etag(served, template):
    client, table, _ = served
    url = _url(template, client, table)
    full = client.get(url)
    assert full.status_code == 200, (url, full.get_data(as_text=True)[:300])
    assert_response(full, "get", template)
    etag = full.headers["ETag"]
    assert full.headers["Cache-Control"]
    again = client.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.get_data() == b""
    assert again.headers["ETag"] == etag
    assert_response(again, "get", template)
    # one of several tags, and the wildcard, match too (RFC 9110 §13.1.2)
    assert client.get(url, headers={"If-None-Match": f'"other", {etag}'}).status_code == 304
    assert client.get(url, headers={"If-None-Match": "*"}).status_code == 304


@pytest.mark.parametrize("header", ['"unterminated', "garbage", "W/", '""', "\x00" * 3,
                                    '"' + "x" * 5000 + '"'])
def test_a_malformed_if_none_match_gets_the_full_answer(served, header):
    client, table, _ = served
    response = client.get(f"/v1/tournaments/{KO}/matches/{table.mid}",
                          headers={"If-None-Match": header})
    assert response.status_code == 200 and response.get_json()["match_id"] == table.mid


def _etags(client, *urls: str) -> dict[str, str]:
    return {url: client.get(url).headers["ETag"] for url in urls}


def test_a_write_changes_the_etags_of_the_reads_it_affects_and_only_those(served):
    client, table, other = served
    mine = [f"/v1/tournaments/{KO}/matches/{table.mid}",
            f"/v1/tournaments/{KO}/matches/{table.mid}/hands/1",
            "/v1/health"]  # it names the log's last position
    theirs = [f"/v1/tournaments/{OTHER}/matches/{other.mid}",
              f"/v1/tournaments/{OTHER}/matches/{other.mid}/hands/1",
              f"/v1/tournaments/{OTHER}/bracket", f"/v1/tournaments/{OTHER}/standings",
              f"/v1/tournaments/{OTHER}", f"/v1/tournaments/{GROUPS}/groups",
              f"/v1/tournaments/{KO}/matches/{table.mid}/hands"]  # no hand has ended
    before = _etags(client, *mine, *theirs)
    table.ok("DealCompleted")
    after = _etags(client, *mine, *theirs)
    assert [url for url in mine if after[url] == before[url]] == []
    assert {url: after[url] for url in theirs} == {url: before[url] for url in theirs}


def test_each_viewer_has_its_own_etag_and_a_tokens_read_is_private(served):
    client, table, _ = served
    url = f"/v1/tournaments/{KO}/matches/{table.mid}/hands/1"
    seat = client.get(url, headers=bearer(token_for(client.application, "player", KO,
                                                    table.mid, 0)))
    referee = client.get(url)
    assert seat.headers["ETag"] != referee.headers["ETag"]
    assert seat.headers["Cache-Control"] == referee.headers["Cache-Control"] == \
        "private, no-cache"
    assert "Authorization" in seat.headers["Vary"]
    public = client.application.test_client().get(f"/v1/tournaments/{KO}/bracket")
    assert public.headers["Cache-Control"] == "public, no-cache"
    # the referee's tag is no good for the seat: the full answer
    again = client.get(url, headers={**bearer(token_for(client.application, "player", KO,
                                                        table.mid, 0)),
                                     "If-None-Match": referee.headers["ETag"]})
    assert again.status_code == 200


def test_a_read_at_a_reached_position_is_immutable_and_a_later_one_is_not(served):
    client, table, _ = served
    now = ok(client.get(f"/v1/tournaments/{KO}/matches/{table.mid}"))["position"]
    past = client.get(f"/v1/tournaments/{KO}/matches/{table.mid}?at={now}")
    assert past.headers["Cache-Control"] == "private, max-age=31536000, immutable"
    future = client.get(f"/v1/tournaments/{KO}/bracket?at={now + 10_000}")
    assert future.headers["Cache-Control"] == "private, no-cache"


def test_the_export_is_tagged_weakly_by_the_logs_head(served):
    client, *_ = served
    url = f"/v1/tournaments/{OTHER}/export"
    first, second = client.get(url), client.get(url)
    assert first.headers["ETag"].startswith('W/"') and first.headers["ETag"] == \
        second.headers["ETag"]
    assert first.headers["X-Paiju-Last-Position"] in first.headers["ETag"]
    again = client.get(url, headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.get_data() == b""
