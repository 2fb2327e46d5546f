"""Liveness and readiness (issue 35): ``/v1/health`` answers as soon as the process serves;
``/v1/ready`` is 200 only when the store answers, its schema is current and the timer has
caught up, else 503 problem+json ``not-ready`` naming the reason — and each of those turns back
to 200 when its cause is gone (SQLite and PostgreSQL)."""
from __future__ import annotations

import sqlite3
import threading
import time

import postgres
import psycopg
import pytest
from clients import bearer
from spec import assert_response

from events.memory_store import InMemoryEventStore
from events.postgres_store import SCHEMA_VERSION as PG_SCHEMA
from events.postgres_store import PostgresEventStore
from events.sqlite_store import SCHEMA_VERSION as SQLITE_SCHEMA
from events.sqlite_store import SQLiteEventStore
from events.store import StoreUnavailable
from rules.messages import Message
from service import create_app

ENGLISH = {"Accept-Language": "en"}


def ready(app, headers: dict | None = None):
    response = app.test_client().get("/v1/ready", headers={**ENGLISH, **(headers or {})})
    body = assert_response(response, "get", "/v1/ready")
    assert response.headers["Cache-Control"] == "no-store"
    return response, body


def assert_ready(app, timer: str = "off") -> None:
    response, body = ready(app)
    assert response.status_code == 200, body
    assert body == {"status": "ready", "checks": {"store": "ok", "schema": "ok", "timer": timer}}


def assert_not_ready(app, **checks) -> dict:
    response, problem = ready(app)
    assert response.status_code == 503, problem
    assert response.mimetype == "application/problem+json"
    assert problem["type"] == "urn:paiju:problem:not-ready"
    assert int(response.headers["Retry-After"]) >= 1
    assert {k: problem["checks"][k] for k in checks} == checks, problem
    return problem


class FlakyStore(InMemoryEventStore):
    """A store whose database may be away (``away``: what reaching it raises)."""

    away: Exception | None = None

    def schema_versions(self):
        if self.away is not None:
            raise self.away
        return 1, 1


def test_health_and_readiness_of_a_node_without_a_timer():
    app = create_app(store=InMemoryEventStore())
    assert app.test_client().get("/v1/health").status_code == 200
    assert_ready(app, timer="off")
    response = app.test_client().get("/v1/ready", headers={"X-Request-ID": "probe-1"})
    assert response.headers["X-Request-Id"] == "probe-1"


def test_a_store_that_cannot_be_reached_is_not_ready_until_it_is_back():
    store = FlakyStore()
    app = create_app(store=store)
    assert_ready(app)
    store.away = StoreUnavailable(Message("the database is unavailable: {error}",
                                          error="connection refused"))
    problem = assert_not_ready(app, store="unreachable", schema="unknown", timer="off")
    assert problem["detail"] == "the database is unavailable: connection refused"
    store.away = sqlite3.OperationalError("disk I/O error\nmore")
    problem = assert_not_ready(app, store="unreachable", schema="unknown")
    assert problem["detail"] == "the store cannot be read: disk I/O error"
    assert "Traceback" not in problem["detail"]
    store.away = None
    assert_ready(app)
    # liveness does not ask for readiness: health answers whatever the schema or the timer


def test_a_sqlite_schema_not_current_is_not_ready_until_it_is(tmp_path):
    path = tmp_path / "ready.db"
    store = SQLiteEventStore(path)
    try:
        app = create_app(store=store)
        assert_ready(app)

        def set_version(version: int) -> None:
            with sqlite3.connect(path) as conn:
                conn.execute(f"PRAGMA user_version = {version}")

        set_version(SQLITE_SCHEMA + 1)  # a newer paiju opened the file
        problem = assert_not_ready(app, store="ok", schema="newer")
        assert problem["detail"] == (
            f"the database's store schema is {SQLITE_SCHEMA + 1}, newer than the "
            f"{SQLITE_SCHEMA} this node knows: upgrade this node")
        set_version(SQLITE_SCHEMA - 1)
        problem = assert_not_ready(app, schema="older")
        assert "paiju db upgrade" in problem["detail"]
        set_version(SQLITE_SCHEMA)
        assert_ready(app)
    finally:
        store.close()


def test_a_timer_that_has_not_caught_up_is_not_ready_until_it_has():
    app = create_app({"TIMER": True}, store=InMemoryEventStore())
    timer = app.extensions["paiju"].timer
    if getattr(timer, "caught_up", None) is None:
        timer.caught_up = threading.Event()  # the TimerService of before issue 35's item 1
    timer.caught_up.clear()
    problem = assert_not_ready(app, store="ok", schema="ok", timer="catching-up")
    assert problem["detail"] == "the timer is still reading the deadlines of the running matches"
    assert app.test_client().get("/v1/health").status_code == 200  # alive all the same
    timer.caught_up.set()
    assert_ready(app, timer="ok")


def test_not_ready_is_said_in_the_readers_language():
    app = create_app({"TIMER": True}, store=InMemoryEventStore())
    timer = app.extensions["paiju"].timer
    timer.caught_up = getattr(timer, "caught_up", None) or threading.Event()
    timer.caught_up.clear()
    problem = app.test_client().get("/v1/ready").get_json()  # the deployment's default: zh
    assert problem["title"] == "本节点尚未就绪，请稍后重试或改用其他节点"
    assert problem["detail"] == "计时器仍在读取进行中比赛的截止时间"
    assert problem["checks"]["timer"] == "catching-up"  # the machine's words stay English


def test_readiness_is_public_but_a_bad_token_is_still_refused():
    app = create_app(store=InMemoryEventStore())
    response = app.test_client().get("/v1/ready", headers=bearer("no-such-token"))
    assert response.status_code == 401
    assert_response(response, "get", "/v1/ready")


# --- PostgreSQL --------------------------------------------------------------------------------

def _admin():
    return psycopg.connect(f"{postgres.SERVER}/postgres", autocommit=True, connect_timeout=5)


def wait_for(condition, seconds: float = 60):
    """Until the node has reconnected (not a timing assertion: the limit ends a hung test)."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "gave up waiting"
        time.sleep(0.2)


def test_postgresql_unreachable_or_behind_is_not_ready_until_it_is_back(postgres_url):
    store = PostgresEventStore(postgres_url, 4)
    name = postgres_url.rsplit("/", 1)[1]
    try:
        app = create_app(store=store)
        assert_ready(app)
        with psycopg.connect(postgres_url, autocommit=True) as conn:
            conn.execute("UPDATE paiju_schema SET version = %s", (PG_SCHEMA - 1,))
        problem = assert_not_ready(app, store="ok", schema="older")
        assert "paiju db upgrade" in problem["detail"]
        with psycopg.connect(postgres_url, autocommit=True) as conn:
            conn.execute("UPDATE paiju_schema SET version = %s", (PG_SCHEMA,))
        assert_ready(app)

        with _admin() as admin:  # the database goes away: no new connection, the open ones cut
            admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
            admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                          "WHERE datname = %s AND pid <> pg_backend_pid()", (name,))
        try:
            assert_not_ready(app, store="unreachable", schema="unknown")
        finally:
            with _admin() as admin:
                admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
        wait_for(lambda: ready(app)[0].status_code == 200)
        assert_ready(app)
    finally:
        store.close()


@pytest.mark.parametrize("versions, schema", [((0, PG_SCHEMA), "older"),
                                              ((PG_SCHEMA + 1, PG_SCHEMA), "newer")])
def test_the_schema_check_names_older_and_newer(versions, schema):
    store = FlakyStore()
    store.schema_versions = lambda: versions
    assert_not_ready(create_app(store=store), store="ok", schema=schema)
