"""The tokens held in memory by a node (service/token_cache.py): requests and an open stream's
rechecks read no row of the ``tokens`` table — every statement the process runs is counted, on
SQLite and PostgreSQL —, while a token revoked or made by another process holds within 5 s, and
every change of the table, whoever makes it, moves the change counter the node watches."""
from __future__ import annotations

import re
import sqlite3
import threading
from datetime import datetime, timedelta, timezone

import psycopg
import pytest
from pg_nodes import poll
from sse import frames, take

from events.envelope import utc_timestamp
from events.postgres_store import Pool
from service import create_app
from service.deployment import admin_token, open_deployment
from service.token_cache import SERIAL
from service.tokens import (InMemoryTokenRegistry, NotHeld, PostgresTokenRegistry,
                            SQLiteTokenRegistry)

READS_TOKENS = re.compile(r"\bfrom\s+tokens\b", re.IGNORECASE)
POLLER = "paiju-tokens"  # the thread that reads the counter, and the tokens when it moved
TID = "cache-t"


@pytest.fixture(params=["sqlite", "postgres"])
def database(request, tmp_path):
    """A deployment's database: a SQLite file or a PostgreSQL URL, its schema current."""
    if request.param == "sqlite":
        return str(tmp_path / "paiju.db")
    return request.getfixturevalue("postgres_url")


@pytest.fixture
def statements(database, monkeypatch):
    """(thread name, SQL) of every statement run by the connections opened from now on."""
    seen: list[tuple[str, str]] = []

    def note(sql) -> None:
        seen.append((threading.current_thread().name, str(sql)))

    if database.startswith("postgresql://"):
        execute = psycopg.Connection.execute

        def counted(self, query, params=None, **kwargs):
            note(query)
            return execute(self, query, params, **kwargs)
        monkeypatch.setattr(psycopg.Connection, "execute", counted)
    else:
        connect = sqlite3.connect

        def traced(*args, **kwargs):
            conn = connect(*args, **kwargs)
            conn.set_trace_callback(note)
            return conn
        monkeypatch.setattr(sqlite3, "connect", traced)
    return seen


class Elsewhere:
    """The deployment's tokens as another process sees them (``paiju token …``): its own
    registry, straight on the table."""

    def __init__(self, database: str):
        self.pool = Pool(database, 2) if database.startswith("postgresql://") else None
        self.registry = PostgresTokenRegistry(self.pool) if self.pool else \
            SQLiteTokenRegistry(database)

    def run(self, work):
        """``work()``'s answer, on a thread of its own, so that its statements are not
        counted as the node's."""
        answer = []
        thread = threading.Thread(target=lambda: answer.append(work()), name="elsewhere")
        thread.start()
        thread.join()
        return answer[0]

    def close(self) -> None:
        self.registry.close()
        if self.pool:
            self.pool.close()


def reads_of_tokens(statements, threads=lambda name: name not in (POLLER, "elsewhere")
                    ) -> list[str]:
    return [sql for name, sql in statements if threads(name) and READS_TOKENS.search(sql)]


def test_no_request_and_no_stream_recheck_reads_the_tokens_table(database, statements):
    admin = admin_token(database, "admin")
    elsewhere = Elsewhere(database)
    referee, token = elsewhere.registry.create("referee", TID, name="裁判")  # before the start
    app = create_app({"DATABASE": database, "CHECKPOINTS": False,
                      "LIVE_TOKEN_RECHECK_SECONDS": 0})
    s = app.extensions["paiju"]
    try:
        client = app.test_client()
        as_admin = {"Authorization": f"Bearer {admin}"}
        assert client.post("/v1/tournaments", headers=as_admin, json={
            "tournament_id": TID, "name": "缓存", "game": "SJ2",
            "format": "knockout"}).status_code == 201
        statements.clear()
        stream = client.get(f"/v1/tournaments/{TID}/subscribe", buffered=False, headers={
            "Authorization": f"Bearer {referee}", "Accept-Language": "en"})
        assert stream.status_code == 200
        received = frames(stream.response)
        take(received, 1)  # TournamentCreated: the stream's token checked at every frame
        for team in "abcdefgh":
            assert register(client, as_admin, team).status_code == 201
            assert take(received, 1)[0].data["data"]["team_id"] == team
            assert client.get(f"/v1/tournaments/{TID}/verify", headers={
                "Authorization": f"Bearer {referee}"}).status_code == 200
        assert client.get(f"/v1/tournaments/{TID}/verify", headers={
            "Authorization": "Bearer pj_" + "x" * 43}).status_code == 401  # unknown: a miss
        assert len(statements) > 20  # the counting sees the requests' own statements
        assert reads_of_tokens(statements) == []

        elsewhere.run(lambda: elsewhere.registry.revoke(token.token_id))
        refused = poll(lambda: (r := client.get(f"/v1/tournaments/{TID}/verify", headers={
            "Authorization": f"Bearer {referee}", "Accept-Language": "en"})).status_code == 401
            and r, 5,
            "the token revoked elsewhere refused")
        assert "was revoked" in refused.get_json()["detail"]
        register(client, as_admin, "late")  # the stream's next frame: its token looked up
        (end,) = take(received, 1)
        assert end.event == "end" and "revoked" in end.data["reason"]
        assert reads_of_tokens(statements, lambda name: name == POLLER)  # read by the poller
        assert reads_of_tokens(statements) == []  # and by nothing else
        stream.close()
    finally:
        s.tokens.close()
        s.store.close()
        elsewhere.close()


def register(client, headers, team: str):
    return client.post(f"/v1/tournaments/{TID}/events", headers=headers, json={
        "type": "TeamRegistered", "stream": f"tournament-{TID}",
        "data": {"team_id": team, "name": f"队 {team}", "players": [f"甲{team}", f"乙{team}"]}})


def test_a_token_made_elsewhere_works_at_its_first_request(database):
    """A secret the node does not know sends it to the counter, and to the table if it moved:
    a token made by ``paiju token create`` a moment ago is not refused."""
    app = create_app({"DATABASE": database, "CHECKPOINTS": False})
    elsewhere = Elsewhere(database)
    try:
        client = app.test_client()
        assert client.get("/v1/tournaments", headers={
            "Authorization": "Bearer pj_" + "y" * 43}).status_code == 401
        secret, _ = elsewhere.registry.create("admin", name="new")
        assert client.get("/v1/tournaments", headers={
            "Authorization": f"Bearer {secret}"}).status_code == 200
    finally:
        app.extensions["paiju"].tokens.close()
        app.extensions["paiju"].store.close()
        elsewhere.close()


def test_every_change_of_the_tokens_table_moves_its_counter(database):
    elsewhere = Elsewhere(database)
    registry = elsewhere.registry

    def serial() -> int:
        if elsewhere.pool:
            return elsewhere.pool.query(SERIAL)[0][0]
        with sqlite3.connect(database) as conn:
            return conn.execute(SERIAL).fetchone()[0]
    try:
        seen = [serial()]
        secret, token = registry.create("organiser", "t1")
        seen.append(serial())
        registry.revoke(token.token_id)
        seen.append(serial())
        registry.lookup(secret)  # a read moves nothing
        registry.all()
        seen.append(serial())
        change = "DELETE FROM tokens WHERE token_id = ?"  # by hand, in the database
        if elsewhere.pool:
            elsewhere.pool.execute(change, (token.token_id,))
        else:
            with sqlite3.connect(database) as conn:
                conn.execute(change, (token.token_id,))
        seen.append(serial())
        assert seen == [0, 1, 2, 2, 3]
    finally:
        elsewhere.close()


def test_watchers_are_told_of_a_token_revoked_elsewhere_and_of_one_that_expired(database):
    """What lets an idle stream end at once (service/api/live.py watches its token)."""
    deployment = open_deployment(database, {"TOKEN_REFRESH_SECONDS": 0.1})
    elsewhere = Elsewhere(database)
    try:
        secret, revoked = elsewhere.registry.create("referee", TID)
        soon = utc_timestamp(datetime.now(timezone.utc) + timedelta(seconds=1))
        _, expiring = elsewhere.registry.create("referee", TID, expires_at=soon)
        assert deployment.tokens.lookup(secret) == revoked  # made elsewhere: read at once
        told: list[frozenset[str]] = []
        stop = deployment.tokens.watch(told.append)
        elsewhere.registry.revoke(revoked.token_id)
        poll(lambda: frozenset({revoked.token_id}) in told, 5, "the revocation told")
        poll(lambda: frozenset({expiring.token_id}) in told, 5, "the expiry told")
        stop()
        assert deployment.tokens.lookup(secret).revoked_at
    finally:
        deployment.close()
        elsewhere.close()


def test_a_registry_tells_its_watchers_of_a_revocation_made_through_it():
    registry, told = InMemoryTokenRegistry(), []
    _, token = registry.create("admin")
    stop = registry.watch(told.append)
    registry.revoke(token.token_id)
    stop()
    registry.revoke(registry.create("admin")[1].token_id)
    assert told == [frozenset({token.token_id})]


def test_a_node_holding_its_tokens_answers_a_look_up_without_a_read_and_says_when_it_cannot(
        database, statements):
    """``held``, for the event loop's own thread (an open stream's recheck there): the token
    as the node holds it — revoked, here or elsewhere once the poller has seen it — without
    a statement; a secret it does not hold is NotHeld (finding out is a read: a thread's)."""
    admin_token(database, "admin")
    elsewhere = Elsewhere(database)
    secret, token = elsewhere.registry.create("referee", TID, name="裁判")
    app = create_app({"DATABASE": database, "CHECKPOINTS": False})
    tokens = app.extensions["paiju"].tokens
    try:
        assert tokens.lookup(secret) == token  # the poller starts: the tokens are held
        statements.clear()
        assert tokens.held(secret) == token
        assert tokens.held("not a token") is None  # malformed: no token, nothing to ask
        with pytest.raises(NotHeld):
            tokens.held("pj_" + "y" * 43)  # made elsewhere a moment ago? A read would say
        assert reads_of_tokens(statements) == []
        elsewhere.run(lambda: elsewhere.registry.revoke(token.token_id))
        assert poll(lambda: (tokens.held(secret) or token).revoked_at, 5, "the revocation held")
        with pytest.raises(NotHeld):  # a registry on the table itself holds nothing
            elsewhere.registry.held(secret)
    finally:
        tokens.close()
        app.extensions["paiju"].store.close()
        elsewhere.close()
