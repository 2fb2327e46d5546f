"""Cross-origin reads for a club's site (issue 18, item 5; service/cors.py): the public reads
and the subscriptions answer the configured origins, to GET and its preflight, without the
Authorization header; nothing else does, and no other origin is answered."""
from __future__ import annotations

import pytest
from sj2_table import Table

CLUB = "https://club.example"


@pytest.fixture
def app(app):
    app.config["CORS_ORIGINS"] = (CLUB,)
    return app


def test_a_configured_site_may_read_the_bracket_and_subscribe(client, app):
    table = Table(client)
    public = app.test_client()
    bracket = public.get(f"/v1/tournaments/{table.tid}/bracket", headers={"Origin": CLUB})
    assert bracket.status_code == 200
    assert bracket.headers["Access-Control-Allow-Origin"] == CLUB
    assert "ETag" in bracket.headers["Access-Control-Expose-Headers"]
    assert "Origin" in bracket.headers["Vary"]
    preflight = public.options(f"/v1/tournaments/{table.tid}/subscribe", headers={
        "Origin": CLUB, "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "last-event-id"})
    assert preflight.status_code == 204
    assert preflight.headers["Access-Control-Allow-Origin"] == CLUB
    assert preflight.headers["Access-Control-Allow-Headers"] == "Last-Event-ID, If-None-Match"
    assert "Authorization" not in preflight.headers["Access-Control-Allow-Headers"]


def test_other_origins_writes_and_the_raw_log_get_no_cors_header(client, app):
    table = Table(client)
    public = app.test_client()
    other = public.get(f"/v1/tournaments/{table.tid}/bracket",
                       headers={"Origin": "https://elsewhere.example"})
    assert "Access-Control-Allow-Origin" not in other.headers
    log = client.get(f"/v1/tournaments/{table.tid}/events", headers={"Origin": CLUB})
    assert log.status_code == 200 and "Access-Control-Allow-Origin" not in log.headers
    write = public.options(f"/v1/tournaments/{table.tid}/events", headers={
        "Origin": CLUB, "Access-Control-Request-Method": "POST"})
    assert "Access-Control-Allow-Origin" not in write.headers


def test_a_configured_site_may_frame_the_bracket_and_standings_and_nothing_else(client, app):
    app.config["FRAME_ANCESTORS"] = (CLUB,)
    table = Table(client)
    public = app.test_client()
    for page in ("bracket", "standings"):
        policy = public.get(f"/pages/tournaments/{table.tid}/{page}").headers[
            "Content-Security-Policy"]
        assert f"frame-ancestors 'self' {CLUB}" in policy
    for page in ("disputes", ""):
        policy = public.get(f"/pages/tournaments/{table.tid}/{page}".rstrip("/")).headers[
            "Content-Security-Policy"]
        assert "frame-ancestors 'none'" in policy
    app.config["FRAME_ANCESTORS"] = ()
    policy = public.get(f"/pages/tournaments/{table.tid}/bracket").headers[
        "Content-Security-Policy"]
    assert "frame-ancestors 'none'" in policy
