"""The API on a PostgreSQL deployment (``DATABASE`` a postgresql:// URL): the same answers as on
SQLite, tokens kept in the database, and a lost database a 503 problem that writes nothing,
after which the node reconnects by itself."""
from __future__ import annotations

import time

import psycopg
import pytest
from clients import admin_client, bearer

from service import create_app

TOURNAMENT = {"tournament_id": "pg-cup", "name": "杯", "game": "SJ2", "format": "knockout"}


def team(n):
    return {"type": "TeamRegistered", "stream": "tournament-pg-cup",
            "data": {"team_id": f"t{n}", "name": f"Team {n}", "players": [f"a{n}", f"b{n}"]}}


@pytest.fixture
def app(postgres_url, tmp_path):
    app = create_app({"DATABASE": postgres_url, "CHECKPOINTS": str(tmp_path / "checkpoints")})
    yield app
    app.extensions["paiju"].store.close()
    app.extensions["paiju"].cache.close()


def connections(url, allowed: bool):
    name = url.rsplit("/", 1)[-1]
    with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as admin:
        admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS {str(allowed).lower()}')
        if not allowed:
            admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                          "WHERE datname = %s", (name,))


def test_a_tournament_on_postgresql_is_created_read_and_verified(app):
    client = admin_client(app)
    assert client.post("/v1/tournaments", json=TOURNAMENT).status_code == 201
    assert client.post("/v1/tournaments/pg-cup/events", json={"events": [team(1), team(2)]}
                       ).status_code == 201
    assert client.get("/v1/health").json["store"] == "PostgresEventStore"
    teams = client.get("/v1/tournaments/pg-cup").json["teams"]
    assert [t["team_id"] for t in teams] == ["t1", "t2"]
    assert client.get("/v1/tournaments/pg-cup/verify").json["ok"] is True


def test_a_token_made_on_one_node_works_on_another(app, postgres_url, tmp_path):
    secret, _ = app.extensions["paiju"].tokens.create("admin")
    other = create_app({"DATABASE": postgres_url, "CHECKPOINTS": False})
    try:
        response = other.test_client().post("/v1/tournaments", json=TOURNAMENT,
                                            headers=bearer(secret))
        assert response.status_code == 201
    finally:
        other.extensions["paiju"].store.close()


def test_a_lost_database_is_a_503_that_writes_nothing_and_the_node_reconnects(app, postgres_url):
    client = admin_client(app)
    client.post("/v1/tournaments", json=TOURNAMENT)
    connections(postgres_url, allowed=False)
    try:
        response = client.post("/v1/tournaments/pg-cup/events", json=team(1))
        assert response.status_code == 503
        assert response.mimetype == "application/problem+json"
        assert response.json["type"] == "urn:paiju:problem:store-unavailable"
        assert response.headers["Retry-After"] == "1"
        # an outage of 8 s: the pool's own doubling retries (1, 3, 7, 15 s) would find the
        # database back only at 15 s, after the next request had given up
        time.sleep(5)
    finally:
        connections(postgres_url, allowed=True)
    response = client.post("/v1/tournaments/pg-cup/events", json=team(2))
    assert response.status_code == 201, response.json
    teams = client.get("/v1/tournaments/pg-cup").json["teams"]
    assert [t["team_id"] for t in teams] == ["t2"]  # nothing of the refused request


def test_a_node_never_judges_on_the_state_it_cached_before_another_node_wrote(app, postgres_url):
    """Node A folds the tournament (and keeps it cached); node B registers t2; A, asked to
    register t2 again, checks its cached state against the stream's stored version and folds
    B's event first: T-1.3 refuses the duplicate."""
    node_a = admin_client(app)
    node_a.post("/v1/tournaments", json=TOURNAMENT)
    assert node_a.post("/v1/tournaments/pg-cup/events", json=team(1)).status_code == 201
    assert node_a.get("/v1/tournaments/pg-cup").json["teams"][0]["team_id"] == "t1"
    other = create_app({"DATABASE": postgres_url, "CHECKPOINTS": False})
    try:
        assert admin_client(other).post("/v1/tournaments/pg-cup/events",
                                        json=team(2)).status_code == 201
    finally:
        other.extensions["paiju"].store.close()
    refused = node_a.post("/v1/tournaments/pg-cup/events", json=team(2))
    assert refused.status_code == 422 and refused.json["rule"] == "T-1.3"
    assert [t["team_id"] for t in node_a.get("/v1/tournaments/pg-cup").json["teams"]] == \
        ["t1", "t2"]


def test_the_timer_lease_in_postgresql_passes_on_when_its_holder_stops_renewing(postgres_url):
    from datetime import datetime, timedelta, timezone

    from events.postgres_store import Pool
    from service.leases import PostgresLease

    pool = Pool(postgres_url, 2)
    try:
        t0 = datetime(2026, 12, 1, 12, tzinfo=timezone.utc)
        first, second = PostgresLease(pool, "first"), PostgresLease(pool, "second")
        assert first.hold(t0) and not second.hold(t0 + timedelta(seconds=1))
        assert first.hold(t0 + timedelta(seconds=6))  # renewed: good until 16 s
        assert not second.hold(t0 + timedelta(seconds=15))
        assert second.hold(t0 + timedelta(seconds=17))  # the first stopped renewing
        assert not first.hold(t0 + timedelta(seconds=18))
        second.release()
        assert first.hold(t0 + timedelta(seconds=19))
    finally:
        pool.close()
