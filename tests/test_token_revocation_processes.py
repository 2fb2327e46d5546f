"""A token revoked by ``paiju token revoke`` (another process), or one that expires, loses its
next request and its open stream within 5 s, on real ``paiju serve`` processes that hold the
tokens in memory (service/token_cache.py): one node on a SQLite file, and two nodes on one
PostgreSQL database — revoked once, refused by both."""
from __future__ import annotations

import socket
import time
from datetime import datetime, timedelta, timezone

import pytest
from pg_nodes import Client, admin_token, cluster, poll, sqlite_node
from sse import HttpSubscriber, take

from events.envelope import utc_timestamp
from events.postgres_store import Pool
from service.cli import main
from service.event_stream import EventStream
from service.tokens import PostgresTokenRegistry, SQLiteTokenRegistry

WITHIN = 5  # seconds: how soon a revocation or an expiry holds on every node
LIFETIME = 3  # seconds: the expiring token's
TID = "revoked"

# An idle stream learns of its token's end only when it is woken: it needs the registry's
# word (TokenRegistry.watch) and a recheck on that word (EventStream.recheck_now).
streams_told = pytest.mark.skipif(not hasattr(EventStream, "recheck_now"),
                                  reason="service/api/live.py does not yet watch the tokens")


def tokens_of(db: str):
    """The deployment's tokens, as ``paiju token create`` makes them (another process)."""
    if db.startswith("postgresql://"):
        pool = Pool(db, 2)
        return PostgresTokenRegistry(pool), pool.close
    registry = SQLiteTokenRegistry(db)
    return registry, registry.close


def setup(db: str, admin_port: int, admin: str) -> dict:
    """A tournament; a referee's token that will be revoked and one that expires in 3 s."""
    Client(admin_port, admin).ok("POST", "/v1/tournaments", {
        "tournament_id": TID, "name": "吊销", "game": "SJ2", "format": "knockout"})
    registry, close = tokens_of(db)
    try:
        revoked, token = registry.create("referee", TID, name="裁判")
        expires = datetime.now(timezone.utc) + timedelta(seconds=LIFETIME)
        expiring, _ = registry.create("referee", TID, name="限时", expires_at=utc_timestamp(expires))
    finally:
        close()
    return {"revoked": revoked, "token_id": token.token_id, "expiring": expiring,
            "expires_at": time.monotonic() + (expires - datetime.now(timezone.utc)).total_seconds()}


def subscribed(port: int, secret: str, query: str = "") -> HttpSubscriber:
    sub = HttpSubscriber(port, f"/v1/tournaments/{TID}/subscribe{query}", secret)
    take(sub.frames, 1)  # TournamentCreated: the stream is open, and idle from here
    return sub


def refused_within(port: int, secret: str, deadline: float, what: str) -> dict:
    client = Client(port, secret)
    _, problem = poll(lambda: (answer := client.get(f"/v1/tournaments/{TID}/verify"))[0] == 401
                      and answer, deadline - time.monotonic(), what)
    client.close()
    return problem


def ended_within(sub: HttpSubscriber, deadline: float, why: str, said: str) -> None:
    """The stream ends within the deadline, its last frame saying ``said`` (in the language
    of the request that opened it: the node's default, Chinese, or ``?lang=en``)."""
    sub.conn.sock.settimeout(max(deadline - time.monotonic(), 0.01))
    try:
        (end,) = take(sub.frames, 1)
    except (socket.timeout, TimeoutError):
        raise AssertionError(f"the stream was still open {WITHIN} s after {why}") from None
    finally:
        sub.close()
    assert end.event == "end" and said in end.data["reason"], end


def ended_in_both_languages(subs: dict, deadline: float, why: str, said: dict) -> None:
    """Each of ``subs`` (by language) ended, saying ``said[language]``."""
    for language, sub in subs.items():
        ended_within(sub, deadline, f"{why} ({language})", said[language])


def both_languages(port: int, secret: str) -> dict:
    """A stream in the node's default language (Chinese) and one asked in English."""
    return {"zh": subscribed(port, secret), "en": subscribed(port, secret, "?lang=en")}


REVOKED = {"zh": "已被吊销；订阅就此结束", "en": "was revoked; the stream ends"}
EXPIRED = {"zh": "过期；订阅就此结束", "en": "expired at"}


def revoke(db: str, token_id: str) -> float:
    assert main(["token", "revoke", token_id, "--db", db]) == 0
    return time.monotonic()


def test_a_revoked_or_expired_token_loses_its_next_request_on_a_sqlite_node(tmp_path):
    with sqlite_node(tmp_path, "A") as (nodes, _, admin):
        db, port = nodes[0].url, nodes[0].port
        made = setup(db, port, admin)
        assert Client(port, made["revoked"]).get(f"/v1/tournaments/{TID}/verify")[0] == 200
        revoked_at = revoke(db, made["token_id"])
        problem = refused_within(port, made["revoked"], revoked_at + WITHIN, "revoked: 401")
        assert problem["title"] and made["token_id"] in problem["detail"]
        refused_within(port, made["expiring"], made["expires_at"] + WITHIN, "expired: 401")


def test_a_revoked_or_expired_token_loses_its_next_request_on_both_postgresql_nodes(
        postgres_url, tmp_path):
    admin = admin_token(postgres_url)
    with cluster(postgres_url, 2, tmp_path) as (a, b):
        made = setup(postgres_url, a.port, admin)
        for node in (a, b):
            assert Client(node.port, made["revoked"]).get(f"/v1/tournaments/{TID}/verify")[0] \
                == 200  # each node holds it
        revoked_at = revoke(postgres_url, made["token_id"])
        for node in (a, b):
            refused_within(node.port, made["revoked"], revoked_at + WITHIN,
                           f"revoked: 401 on {node.name}")
            refused_within(node.port, made["expiring"], made["expires_at"] + WITHIN,
                           f"expired: 401 on {node.name}")


@streams_told
def test_a_revoked_or_expired_token_loses_its_idle_stream_on_a_sqlite_node(tmp_path):
    with sqlite_node(tmp_path, "A") as (nodes, _, admin):
        db, port = nodes[0].url, nodes[0].port
        made = setup(db, port, admin)
        revoked = both_languages(port, made["revoked"])
        expiring = both_languages(port, made["expiring"])
        ended_in_both_languages(revoked, revoke(db, made["token_id"]) + WITHIN, "revoked",
                                REVOKED)
        ended_in_both_languages(expiring, made["expires_at"] + WITHIN, "expired", EXPIRED)


@streams_told
def test_a_revoked_or_expired_token_loses_its_idle_streams_on_both_postgresql_nodes(
        postgres_url, tmp_path):
    admin = admin_token(postgres_url)
    with cluster(postgres_url, 2, tmp_path) as (a, b):
        made = setup(postgres_url, a.port, admin)
        revoked = [both_languages(node.port, made["revoked"]) for node in (a, b)]
        expiring = [both_languages(node.port, made["expiring"]) for node in (a, b)]
        revoked_at = revoke(postgres_url, made["token_id"])
        for subs in revoked:
            ended_in_both_languages(subs, revoked_at + WITHIN, "revoked", REVOKED)
        for subs in expiring:
            ended_in_both_languages(subs, made["expires_at"] + WITHIN, "expired", EXPIRED)
