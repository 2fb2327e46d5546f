"""Webhooks (issue 18, item 4) over the app's HTTP API, delivered to a real HTTP receiver on
127.0.0.1, on a fake clock the test moves: order, signatures, retries with backoff, disabling,
redelivery, a restart on the same database, PostgreSQL, bad input and who may."""
from __future__ import annotations

import hashlib
import hmac
import json
import socket
import threading
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from clients import admin_client, client_as

from service import create_app
from service.leases import LEASE_SECONDS
from service.webhook_delivery import retry_delay

TID = "hooks-2024"
START = datetime(2024, 3, 1, 9, 0, tzinfo=timezone.utc)


class Clock:
    def __init__(self):
        self.now = START

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Receiver:
    """An HTTP server that records every request and answers ``status``; ``port`` is fixed
    before it starts, so it can be down (nothing listening) and then up at the same URL."""

    def __init__(self, status: int = 204):
        self.port, self.status, self.requests = free_port(), status, []
        self.server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hook"

    def start(self) -> None:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                receiver.requests.append((dict(self.headers), body))
                self.send_response(receiver.status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()
            self.server = None

    def events(self) -> list[dict]:
        return [json.loads(body) for _, body in self.requests]


@pytest.fixture
def receiver():
    r = Receiver()
    yield r
    r.stop()


@pytest.fixture
def clock():
    return Clock()


def make_app(db, clock, signer, **config):
    return create_app({"DATABASE": str(db), "CHECKPOINTS": False, "NOW": clock,
                       "WEBHOOKS_ALLOW_PRIVATE": True, **config}, signer=signer)


@pytest.fixture
def app(tmp_path, clock, signer):
    return make_app(tmp_path / "hooks.db", clock, signer)


@pytest.fixture
def admin(app):
    client = admin_client(app)
    response = client.post("/v1/tournaments", json={
        "tournament_id": TID, "name": "春季升级赛", "game": "SJ2", "format": "swiss"})
    assert response.status_code == 201, response.json
    return client


def register(client, *team_ids):
    for team_id in team_ids:
        response = client.post(f"/v1/tournaments/{TID}/events", json={
            "type": "TeamRegistered", "stream": f"tournament-{TID}",
            "data": {"team_id": team_id, "name": f"队 {team_id}",
                     "players": [f"甲{team_id}", f"乙{team_id}"]}})
        assert response.status_code == 201, response.json


def create_hook(client, url, **fields):
    response = client.post(f"/v1/tournaments/{TID}/webhooks", json={"url": url, **fields})
    assert response.status_code == 201, response.json
    return response.json


def deliver(app):
    return app.extensions["paiju"].webhook_delivery.deliver_due()


def log_positions(client, type="TeamRegistered"):
    events = client.get(f"/v1/tournaments/{TID}/events?limit=1000").json["events"]
    return [(e["position"], e["id"]) for e in events if e["type"] == type]


def assert_signed(headers: dict, body: bytes, secret: str, clock_at: datetime):
    t, v1 = (part.split("=", 1)[1] for part in headers["Paiju-Signature"].split(","))
    assert int(t) == int(clock_at.timestamp())
    expected = hmac.new(secret.encode(), f"{t}.".encode() + body, hashlib.sha256).hexdigest()
    assert hmac.compare_digest(v1, expected)


def test_a_receiver_down_for_a_while_then_up_gets_every_event_in_order_signed(
        app, admin, clock, receiver):
    hook = create_hook(admin, receiver.url, types=["TeamRegistered"])
    assert hook["state"] == "active" and hook["secret"].startswith("whsec_")
    register(admin, "a", "b", "c")

    gaps, last = [], None
    for _ in range(6):  # down: each attempt fails, each retry waits twice as long
        made = deliver(app)
        assert [a.delivered for a in made] == [False]
        assert made[0].error.startswith("no answer")
        if last is not None:
            gaps.append((clock.now - last).total_seconds())
        last = clock.now
        wait = datetime.fromisoformat(made[0].next_attempt_at.replace("Z", "+00:00")) - clock.now
        clock.advance(wait.total_seconds() / 2)
        assert deliver(app) == []  # backing off: nothing before its time
        clock.advance(wait.total_seconds() / 2)
    assert gaps == [1, 2, 4, 8, 16]

    receiver.start()
    register(admin, "d")
    made = deliver(app)
    assert [a.delivered for a in made] == [True] * 4
    wanted = log_positions(admin)
    assert [(e["position"], e["id"]) for e in receiver.events()] == wanted
    assert [e["data"]["team_id"] for e in receiver.events()] == ["a", "b", "c", "d"]
    for (headers, body), (_, event_id) in zip(receiver.requests, wanted):
        assert headers["Paiju-Event-Id"] == event_id
        assert headers["Content-Type"] == "application/json"
        assert_signed(headers, body, hook["secret"], clock.now)
    assert len({h["Paiju-Delivery"] for h, _ in receiver.requests}) == 4
    now = admin.get(f"/v1/tournaments/{TID}/webhooks/{hook['id']}").json
    assert now["cursor"] == wanted[-1][0] and now["next_attempt_at"] is None
    assert "secret" not in now

    deliveries = admin.get(f"/v1/tournaments/{TID}/webhooks/{hook['id']}/deliveries").json
    rows = [(d["position"], d["attempt"], d["delivered"]) for d in deliveries["deliveries"]]
    first = wanted[0][0]
    assert rows == [(first, n, False) for n in range(1, 7)] + \
        [(p, 7 if p == first else 1, True) for p, _ in wanted]
    assert all(d["status"] == 204 for d in deliveries["deliveries"][6:])


def test_a_receiver_answering_500_is_retried_with_backoff_then_disabled_with_a_reason(
        app, admin, clock, receiver):
    receiver.status = 500
    receiver.start()
    hook = create_hook(admin, receiver.url)
    register(admin, "a")
    attempts = 0
    while True:
        made = deliver(app)
        assert len(made) == 1 and made[0].status == 500
        attempts += 1
        if made[0].next_attempt_at is None:
            break
        assert made[0].next_attempt_at == \
            (clock.now + timedelta(seconds=retry_delay(attempts))).strftime(
                "%Y-%m-%dT%H:%M:%S.%fZ")
        clock.advance(retry_delay(attempts))
    # 11 attempts by 1 + 2 + … + 512 = 1023 s, then one every 10 min until one comes more than
    # 3 h after the first failure
    assert attempts == 11 + (3 * 3600 - 1023) // 600 + 1 == 28
    assert len(receiver.requests) == attempts
    assert {h["Paiju-Event-Id"] for h, _ in receiver.requests} == {receiver.events()[0]["id"]}
    disabled = admin.get(f"/v1/tournaments/{TID}/webhooks/{hook['id']}").json
    assert disabled["state"] == "disabled"
    assert disabled["disabled_reason"].startswith("failing since 2024-03-01T09:00:00.000000Z")
    assert "the last with status 500" in disabled["disabled_reason"]
    clock.advance(3600)
    assert deliver(app) == []  # disabled: never tried again by itself

    receiver.status = 200  # fixed: redeliver enables it and resumes from the position given
    redone = admin.post(f"/v1/tournaments/{TID}/webhooks/{hook['id']}/redeliver",
                        json={"after": 0})
    assert redone.status_code == 200, redone.json
    assert redone.json["state"] == "active" and redone.json["cursor"] == 0
    made = deliver(app)
    assert [a.delivered for a in made] == [True, True]  # the tournament's creation too
    assert [e["type"] for e in receiver.events()[-2:]] == ["TournamentCreated", "TeamRegistered"]


def test_a_restart_on_the_same_database_resumes_from_the_stored_cursor(
        tmp_path, clock, signer, receiver):
    db = tmp_path / "restart.db"
    first = make_app(db, clock, signer)
    admin = admin_client(first)
    admin.post("/v1/tournaments", json={"tournament_id": TID, "name": "春季升级赛",
                                        "game": "SJ2", "format": "swiss"})
    hook = create_hook(admin, receiver.url)
    receiver.start()
    register(admin, "a", "b")
    assert len(deliver(first)) == 2
    receiver.stop()
    register(admin, "c")
    assert [a.delivered for a in deliver(first)] == [False]
    first.extensions["paiju"].store.close()

    # the first died holding the webhooks' lease: the second delivers once it has lapsed
    clock.advance(LEASE_SECONDS + 1)
    second = make_app(db, clock, signer)
    admin = admin_client(second)
    register(admin, "d")
    stored = admin.get(f"/v1/tournaments/{TID}/webhooks/{hook['id']}").json
    assert stored["cursor"] == log_positions(admin)[1][0]  # after b, as the first app left it
    receiver.start()
    assert [a.delivered for a in deliver(second)] == [True, True]
    assert [e["data"]["team_id"] for e in receiver.events()] == ["a", "b", "c", "d"]


def test_filters_skip_what_they_do_not_want_and_the_cursor_moves_past_it(app, admin, receiver):
    receiver.start()
    hook = create_hook(admin, receiver.url, types=["TeamWithdrawn"])
    register(admin, "a", "b")
    assert deliver(app) == []
    skipped = admin.get(f"/v1/tournaments/{TID}/webhooks/{hook['id']}").json
    assert skipped["cursor"] == log_positions(admin)[-1][0]
    history = create_hook(admin, receiver.url, after=0, streams=[f"tournament-{TID}"])
    assert history["cursor"] == 0
    assert [a.position for a in deliver(app)] == [1] + [p for p, _ in log_positions(admin)]


def test_the_secret_is_shown_once_and_never_in_the_log_or_the_export(app, admin, receiver):
    hook = create_hook(admin, receiver.url)
    listed = admin.get(f"/v1/tournaments/{TID}/webhooks").json["webhooks"]
    assert [h["id"] for h in listed] == [hook["id"]] and "secret" not in listed[0]
    register(admin, "a")
    log = admin.get(f"/v1/tournaments/{TID}/events?limit=1000").get_data(as_text=True)
    export = admin.get(f"/v1/tournaments/{TID}/export")
    assert export.status_code == 200
    assert hook["secret"] not in log and hook["secret"] not in export.get_data(as_text=True)
    assert hook["url"] not in export.get_data(as_text=True)


def test_the_public_payload_withholds_what_the_public_may_not_see(app, admin, receiver):
    receiver.start()
    create_hook(admin, receiver.url)
    response = admin.post(f"/v1/tournaments/{TID}/events", json={
        "type": "RulingRecorded", "stream": f"tournament-{TID}",
        "data": {"text": "secret words", "effect": {}}})
    assert response.status_code == 201, response.json
    deliver(app)
    assert "secret words" not in receiver.requests[-1][1].decode()
    assert "withheld" in receiver.events()[-1]


@pytest.mark.parametrize("body, path", [
    ({"url": "ftp://127.0.0.1/hook"}, "/url"),
    ({"url": "javascript:alert(1)"}, "/url"),
    ({"url": "http://127.0.0.1/" + "x" * 2000}, "/url"),
    ({"url": "not a url"}, "/url"),
    ({}, "/url"),
    ({"url": "http://127.0.0.1/hook", "types": ["NoSuchEvent"]}, "/types"),
    ({"url": "http://127.0.0.1/hook", "types": []}, "/types"),
    ({"url": "http://127.0.0.1/hook", "streams": ["tournament-other"]}, "/streams/0"),
    ({"url": "http://127.0.0.1/hook", "after": -1}, "/after"),
])
def test_bad_input_is_a_400_naming_the_field(admin, body, path):
    response = admin.post(f"/v1/tournaments/{TID}/webhooks", json=body)
    assert response.status_code == 400, response.json
    assert response.mimetype == "application/problem+json"
    assert [e["path"] for e in response.json["errors"]] == [path]


@pytest.mark.parametrize("url", [
    "http://127.0.0.1/hook", "http://localhost:8080/hook", "http://10.1.2.3/hook",
    "http://192.168.0.1/hook", "http://169.254.169.254/latest/meta-data", "http://[::1]/hook",
    "http://224.0.0.1/hook", "http://0.0.0.0/hook", "https://[fe80::1]/hook",
])
def test_private_loopback_and_link_local_addresses_are_refused_unless_allowed(
        tmp_path, clock, signer, url):
    strict = make_app(tmp_path / "strict.db", clock, signer, WEBHOOKS_ALLOW_PRIVATE=False)
    admin = admin_client(strict)
    admin.post("/v1/tournaments", json={"tournament_id": TID, "name": "春季升级赛",
                                        "game": "SJ2", "format": "swiss"})
    response = admin.post(f"/v1/tournaments/{TID}/webhooks", json={"url": url})
    assert response.status_code == 400, response.json
    (error,) = response.json["errors"]
    assert error["path"] == "/url" and "not a public address" in error["message"]


def test_a_player_token_is_refused_and_another_tournaments_organiser_too(app, admin, receiver):
    player = client_as(app, "player", TID, "R1-1", 0)
    response = player.post(f"/v1/tournaments/{TID}/webhooks", json={"url": receiver.url})
    assert response.status_code == 403
    assert "may not manage the tournament's webhooks" in response.json["detail"]
    assert player.get(f"/v1/tournaments/{TID}/webhooks").status_code == 403
    other = client_as(app, "organiser", "elsewhere")
    assert other.get(f"/v1/tournaments/{TID}/webhooks").status_code == 403
    organiser = client_as(app, "organiser", TID)
    assert organiser.post(f"/v1/tournaments/{TID}/webhooks",
                          json={"url": receiver.url}).status_code == 201
    assert app.test_client().get(f"/v1/tournaments/{TID}/webhooks").status_code == 401


def test_an_unknown_webhook_is_404_and_disable_stops_deliveries(app, admin, receiver):
    missing = admin.get(f"/v1/tournaments/{TID}/webhooks/wh_nope/deliveries")
    assert missing.status_code == 404 and "wh_nope" in missing.json["detail"]
    receiver.start()
    hook = create_hook(admin, receiver.url)
    off = admin.post(f"/v1/tournaments/{TID}/webhooks/{hook['id']}/disable",
                     json={"reason": "moving the receiver"})
    assert (off.json["state"], off.json["disabled_reason"]) == ("disabled",
                                                                "moving the receiver")
    register(admin, "a")
    assert deliver(app) == [] and receiver.requests == []


def test_the_postgresql_registry_keeps_webhooks_and_their_cursor(postgres_url, clock, signer,
                                                                 receiver):
    pg = create_app({"DATABASE": postgres_url, "CHECKPOINTS": False, "NOW": clock,
                     "WEBHOOKS_ALLOW_PRIVATE": True}, signer=signer)
    try:
        admin = admin_client(pg)
        admin.post("/v1/tournaments", json={"tournament_id": TID, "name": "春季升级赛",
                                            "game": "SJ2", "format": "swiss"})
        hook = create_hook(admin, receiver.url)
        register(admin, "a", "b")
        assert [a.delivered for a in deliver(pg)] == [False]
        receiver.start()
        clock.advance(1)
        assert [a.delivered for a in deliver(pg)] == [True, True]
        assert [e["data"]["team_id"] for e in receiver.events()] == ["a", "b"]
        stored = admin.get(f"/v1/tournaments/{TID}/webhooks/{hook['id']}/deliveries").json
        assert [d["attempt"] for d in stored["deliveries"]] == [1, 2, 1]
        assert stored["webhook"]["cursor"] == log_positions(admin)[-1][0]
    finally:
        pg.extensions["paiju"].store.close()


def test_a_commit_wakes_the_deliverer_only_while_a_webhook_is_active(app, admin, receiver):
    """With no active webhook, a round finds nobody to deliver to and a commit does not wake
    the thread (its poll looks again each second); a webhook made wakes it, and from then on
    each commit does."""
    delivery = app.extensions["paiju"].webhook_delivery
    assert deliver(app) == []
    delivery._wake.clear()
    delivery._heard(1, ())
    assert not delivery._wake.is_set()
    create_hook(admin, receiver.url)
    assert delivery._wake.is_set()  # made here: a round at once
    delivery._wake.clear()
    deliver(app)
    delivery._wake.clear()
    delivery._heard(2, ())
    assert delivery._wake.is_set()
