"""Signing in at the desk (service/sessions.py, service/api/sessions.py): one-time sign-in codes,
the session cookie, CSRF on writes, sign-out, the desk's gate; and a session that outlives a
restart of a real ``paiju serve``."""
from __future__ import annotations

import http.client
import json
import subprocess
import sys
import threading
from datetime import timedelta
from http.cookies import SimpleCookie
from pathlib import Path

import pytest
from clients import bearer, client_as, token_for
from spec import assert_response

from events.memory_store import InMemoryEventStore
from events.postgres_store import Pool
from service import create_app
from service.api.sessions import THROTTLE
from service.deployment import admin_token
from service.sessions import (
    COOKIE,
    FailureThrottle,
    csrf_token,
    issue_sign_in_code,
    later,
)
from service.simulator.server_process import free_port, stop, wait_until_ready
from service.tokens import (
    InMemoryTokenRegistry,
    PostgresTokenRegistry,
    SQLiteTokenRegistry,
    digest,
)

T1, T2 = "ottawa-2006", "jnu-2006"
EVENTS = f"/v1/tournaments/{T1}/events"
PAIJU = Path(sys.executable).with_name("paiju")


def team(team_id: str, tid: str = T1) -> dict:
    return {"type": "TeamRegistered", "stream": f"tournament-{tid}",
            "data": {"team_id": team_id, "name": f"队{team_id}", "players": ["王芳", "李雷"]}}


@pytest.fixture
def app():
    app = create_app(store=InMemoryEventStore())
    admin = client_as(app, "admin")
    for tid in (T1, T2):
        created = admin.post("/v1/tournaments", json={"tournament_id": tid, "name": tid,
                                                      "game": "SJ2", "format": "knockout"})
        assert created.status_code == 201, created.json
    return app


def log_length(app) -> int:
    return app.extensions["paiju"].store.last_position()


def issued(app, role: str = "referee", tid: str = T1, **body) -> dict:
    """A code issued through the API by the tournament's organiser."""
    organiser = client_as(app, "organiser", tid)
    response = organiser.post(f"/v1/tournaments/{tid}/sign-in-codes", json={"role": role, **body})
    assert response.status_code == 201, response.json
    return assert_response(response, "post", "/v1/tournaments/{tid}/sign-in-codes")


def browser(app, language: str = "en"):
    client = app.test_client()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    return client


def signed_in(app, role: str = "organiser", tid: str = T1, **body):
    """A browser signed in with a new code: (client, session body)."""
    client = browser(app)
    response = client.post("/v1/sessions", json={"code": issued(app, role, tid, **body)["code"]})
    assert response.status_code == 201, response.json
    return client, response.json


def csrf(session: dict) -> dict:
    return {"X-CSRF-Token": session["csrf_token"]}


# --- codes ----------------------------------------------------------------------------------

def test_a_code_opens_a_session_once_and_the_cookie_is_httponly_and_strict(app):
    code = issued(app, "referee", name="李裁判", minutes=30)
    assert code["link"] == f"http://localhost/desk/signin#code={code['code']}"
    assert (code["role"], code["tournament_id"], code["name"]) == ("referee", T1, "李裁判")
    client = browser(app)
    typed = code["code"].lower().replace("-", " ")  # as a volunteer may type it
    response = client.post("/v1/sessions", json={"code": typed})
    session = assert_response(response, "post", "/v1/sessions")
    assert response.status_code == 201
    assert session["role"] == "referee" and session["tournament_id"] == T1
    assert session["actor"] == "李裁判"
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith(f"{COOKIE}=pj_")
    assert {"HttpOnly", "Path=/", "SameSite=Strict", "Max-Age=43200"} <= {
        part.strip() for part in cookie.split(";")}
    assert session["csrf_token"] == csrf_token(client.get_cookie(COOKIE).value)
    read = client.get("/v1/session")
    assert assert_response(read, "get", "/v1/session") == session
    assert read.headers["Cache-Control"] == "no-store"

    again = browser(app).post("/v1/sessions", json={"code": code["code"]})
    assert again.status_code == 401
    assert again.json["detail"].startswith(f"sign-in code {code['code']} was already used")
    assert again.json["path"] == "/code"


def test_an_expired_code_is_refused(app):
    tokens = app.extensions["paiju"].tokens
    clock = tokens.clock
    tokens.clock = lambda: later(clock(), timedelta(minutes=-16))
    try:
        code = issued(app, "referee")  # 15 minutes from 16 minutes ago
    finally:
        tokens.clock = clock
    response = browser(app).post("/v1/sessions", json={"code": code["code"]})
    assert response.status_code == 401
    assert response.json["detail"] == (f"sign-in code {code['code']} expired at "
                                       f"{code['expires_at']}: ask for a new one")


def test_an_unknown_or_malformed_code_is_refused_naming_the_box(app):
    unknown = browser(app).post("/v1/sessions", json={"code": "ABCD-EFGH"})
    assert unknown.status_code == 401
    assert unknown.json["detail"] == "sign-in code ABCD-EFGH is unknown: check it letter by letter"
    malformed = browser(app).post("/v1/sessions", json={"code": "ABCD-EFG0"})  # 0 is never in one
    body = assert_response(malformed, "post", "/v1/sessions")
    assert body["errors"] == [{"path": "/code",
                               "message": "a sign-in code is 8 letters and digits, like ABCD-EFGH"}]
    chinese = browser(app, "zh-CN").post("/v1/sessions", json={"code": "ABCD-EFGH"})
    assert chinese.json["detail"] == "登录码 ABCD-EFGH 不存在：请逐个字符核对"


def test_a_code_of_another_tournament_is_refused_and_stays_good_where_it_belongs(app):
    code = issued(app, "organiser", T1)
    elsewhere = browser(app).post("/v1/sessions", json={"code": code["code"], "tournament_id": T2})
    assert elsewhere.status_code == 401
    assert elsewhere.json["detail"] == (f"sign-in code {code['code']} is for tournament "
                                        f"'{T1}', not '{T2}'")
    client = browser(app)
    assert client.post("/v1/sessions", json={"code": code["code"], "tournament_id": T1}
                       ).status_code == 201
    session = client.get("/v1/session").json
    before = log_length(app)
    refused = client.post(f"/v1/tournaments/{T2}/events", json=team("east", T2),
                          headers=csrf(session))
    assert refused.status_code == 403
    assert refused.json["detail"] == (f"this organiser token is for tournament '{T1}', "
                                      f"not '{T2}'")
    assert log_length(app) == before
    # what anyone may read of the other tournament, its browser reads as the public
    assert client.get(f"/v1/tournaments/{T2}").status_code == 200
    assert client.get(f"/pages/tournaments/{T2}", headers={"Accept": "text/html"}).status_code == 200
    referee = signed_in(app, "referee", T1)[0]
    assert referee.get(f"/v1/tournaments/{T1}/events").status_code == 200
    assert referee.get(f"/v1/tournaments/{T2}/events").status_code == 403  # the raw log: not


def test_two_redemptions_at_once_one_wins(app):
    code = issued(app, "referee")["code"]
    start, answers = threading.Barrier(6), []

    def redeem():
        client = browser(app)
        start.wait()
        answers.append(client.post("/v1/sessions", json={"code": code}).status_code)
    threads = [threading.Thread(target=redeem) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answers) == [201] + [401] * 5


@pytest.fixture(params=["memory", "sqlite", "postgres"])
def registries(request, tmp_path):
    """Two registries of one deployment (two nodes on one database; memory: one shared)."""
    if request.param == "memory":
        one = InMemoryTokenRegistry()
        yield one, one
    elif request.param == "sqlite":
        pair = SQLiteTokenRegistry(tmp_path / "t.db"), SQLiteTokenRegistry(tmp_path / "t.db")
        yield pair
        for registry in pair:
            registry.close()
    else:
        pools = [Pool(request.getfixturevalue("postgres_url"), 4) for _ in range(2)]
        yield tuple(PostgresTokenRegistry(pool) for pool in pools)
        for pool in pools:
            pool.close()


def claimed_at_once(registries, key: str, claims: int = 4) -> list:
    """What ``claims`` claims of ``key`` at the same moment got, the registries taking turns."""
    start, claimed = threading.Barrier(claims), []

    def claim(registry):
        start.wait()
        claimed.append(registry.claim(key))
    threads = [threading.Thread(target=claim, args=(registries[i % 2],)) for i in range(claims)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return claimed


def test_a_code_is_claimed_by_exactly_one_of_two_nodes_at_once(registries):
    for attempt in range(5):
        code = issue_sign_in_code(registries[0], "table", T1, match_id="R1-1").code
        claimed = claimed_at_once(registries, digest(code.replace("-", "")))
        won = [token for token in claimed if token is not None]
        assert len(won) == 1, attempt
        assert (won[0].role, won[0].match_id, won[0].revoked_at is not None) == (
            "table", "R1-1", True)
        assert registries[1].lookup(code) is None  # never a bearer token


def test_failed_codes_from_one_address_wait_a_minute(app):
    now = [1000.0]
    app.extensions[THROTTLE] = FailureThrottle(clock=lambda: now[0])
    good = issued(app, "referee")["code"]
    client = browser(app)
    for wrong in range(10):
        assert client.post("/v1/sessions", json={"code": "ABCD-EFGH"}).status_code == 401
    held = client.post("/v1/sessions", json={"code": good})  # even a good one waits
    assert_response(held, "post", "/v1/sessions")
    assert (held.status_code, held.headers["Retry-After"]) == (429, "60")
    assert held.json["detail"] == ("too many wrong sign-in codes from this address: try again "
                                   "in 60 s")
    now[0] += 60
    assert client.post("/v1/sessions", json={"code": good}).status_code == 201


# --- the cookie: CSRF, sign-out ------------------------------------------------------------

def test_a_write_without_or_with_a_wrong_csrf_token_stores_nothing(app):
    client, session = signed_in(app, "organiser", name="王组织")
    before = log_length(app)
    missing = client.post(EVENTS, json=team("east"))
    assert (missing.status_code, missing.json["type"]) == (403, "urn:paiju:problem:csrf")
    assert missing.json["detail"] == ("a write from a signed-in browser needs the X-CSRF-Token "
                                      "header (GET /v1/session gives it)")
    wrong = client.post(EVENTS, json=team("east"), headers={"X-CSRF-Token": "0" * 64})
    assert (wrong.status_code, wrong.json["detail"]) == (
        403, "the X-CSRF-Token header is not this session's")
    other = signed_in(app, "organiser")[1]  # another browser's token is not this one's
    assert client.post(EVENTS, json=team("east"), headers=csrf(other)).status_code == 403
    assert log_length(app) == before
    stored = client.post(EVENTS, json=team("east"), headers=csrf(session))
    assert stored.status_code == 201, stored.json
    assert (stored.json["meta"]["actor"], stored.json["meta"]["role"]) == ("王组织", "organiser")
    assert log_length(app) == before + 1


def test_sign_out_ends_the_session_at_once(app):
    client, session = signed_in(app, "organiser")
    secret = client.get_cookie(COOKIE).value
    assert client.delete("/v1/session").status_code == 403  # a write: the CSRF token first
    assert client.get("/v1/session").status_code == 200
    out = client.delete("/v1/session", headers=csrf(session))
    assert out.status_code == 204
    assert out.headers["Set-Cookie"].startswith(f"{COOKIE}=;")
    assert client.get_cookie(COOKIE) is None
    assert client.get("/v1/session").status_code == 401
    stale = browser(app)  # the old cookie, kept by someone: refused, and cleared
    stale.set_cookie(COOKIE, secret)
    before = log_length(app)
    refused = stale.post(EVENTS, json=team("east"), headers=csrf(session))
    assert refused.status_code == 401
    assert refused.json["detail"] == "the session has ended (signed out, or expired): sign in again"
    assert stale.get_cookie(COOKIE) is None
    assert log_length(app) == before


def test_signing_in_again_ends_the_browsers_old_session(app):
    client = signed_in(app, "organiser")[0]
    old = client.get_cookie(COOKIE).value
    assert client.post("/v1/sessions", json={"code": issued(app, "referee")["code"]}
                       ).status_code == 201
    assert client.get("/v1/session").json["role"] == "referee"
    stale = browser(app)
    stale.set_cookie(COOKIE, old)
    assert stale.get("/v1/session").status_code == 401


# --- the desk's gate --------------------------------------------------------------------------

@pytest.mark.parametrize("role, scope", [("player", {"match_id": "R1-1", "seat": 0}),
                                         ("table", {"match_id": "R1-1"})])
def test_a_players_or_tables_session_cannot_reach_the_desk(app, role, scope):
    client, session = signed_in(app, role, **scope)
    before = log_length(app)
    page = client.get("/desk/", headers={"Accept": "text/html"})
    assert page.status_code == 403 and page.mimetype == "text/html"
    assert "the desk (it is for organisers, referees and the committee)" in page.get_data(True)
    problem = client.get("/desk/")
    assert (problem.status_code, problem.json["type"]) == (403, "urn:paiju:problem:forbidden")
    assert client.post(f"/v1/tournaments/{T1}/sign-in-codes", json={"role": "referee"},
                       headers=csrf(session)).status_code == 403
    assert client.post(EVENTS, json=team("east"), headers=csrf(session)).status_code == 403
    assert log_length(app) == before


def test_an_auditors_session_from_the_command_line_cannot_reach_the_desk(app):
    code = issue_sign_in_code(app.extensions["paiju"].tokens, "auditor", T1, name="审计").code
    client = browser(app)
    assert client.post("/v1/sessions", json={"code": code}).status_code == 201
    assert client.get("/desk/", headers={"Accept": "text/html"}).status_code == 403


def test_a_browser_not_signed_in_is_sent_to_sign_in_and_comes_back(app):
    client = browser(app)
    sent = client.get("/desk/?x=1", headers={"Accept": "text/html,*/*;q=0.8"})
    assert (sent.status_code, sent.headers["Location"]) == (302, "/desk/signin?next=%2Fdesk%2F%3Fx%3D1")
    assert client.get("/desk/").status_code == 401  # a program gets the problem
    page = client.get("/desk/signin?next=/desk/")
    assert page.status_code == 200 and "script-src 'self'" in page.headers["Content-Security-Policy"]
    session = signed_in(app, "referee")[0]
    assert session.get("/desk/", headers={"Accept": "text/html"}).status_code == 200


def test_an_ended_session_on_a_page_is_forgotten_and_the_desk_asks_to_sign_in(app):
    client, session = signed_in(app, "referee")
    client.delete("/v1/session", headers=csrf(session))
    stale = browser(app)
    stale.set_cookie(COOKIE, "pj_" + "x" * 43)
    sent = stale.get("/desk/", headers={"Accept": "text/html"})
    assert sent.status_code == 302 and sent.headers["Location"].startswith("/desk/signin")
    assert stale.get_cookie(COOKIE) is None
    stale.set_cookie(COOKIE, "pj_" + "x" * 43)
    assert stale.get(f"/pages/tournaments/{T1}").status_code == 200  # a public page still shows
    stale.set_cookie(COOKIE, "pj_" + "x" * 43)
    read = stale.get(f"/v1/tournaments/{T1}")  # and what the public may read, as the public
    assert read.status_code == 200 and read.headers["Cache-Control"] == "private, no-cache"
    assert stale.get_cookie(COOKIE) is None
    stale.set_cookie(COOKIE, "pj_" + "x" * 43)
    ended = stale.get(f"/v1/tournaments/{T1}/events")  # what needs a session says it has ended
    assert (ended.status_code, ended.json["detail"]) == (
        401, "the session has ended (signed out, or expired): sign in again")
    stale.set_cookie(COOKIE, "pj_" + "x" * 43)
    assert stale.get("/v1/session").json["detail"] == ended.json["detail"]


# --- issuing codes --------------------------------------------------------------------------

@pytest.mark.parametrize("body, pointer, english", [
    ({"role": "admin"}, "/role", None),
    ({"role": "table"}, "/match_id", "a table code needs match_id"),
    ({"role": "player", "match_id": "R1-1"}, "/seat", "a player code needs seat"),
    ({"role": "referee", "seat": 2}, "/seat", "a referee code is not bound to a seat"),
    ({"role": "committee", "match_id": "R1-1"}, "/match_id",
     "a committee code is not bound to a match"),
    ({"role": "referee", "minutes": 0}, "/minutes", None),
])
def test_a_code_that_cannot_be_issued_names_the_field(app, body, pointer, english):
    organiser = client_as(app, "organiser", T1)
    response = organiser.post(f"/v1/tournaments/{T1}/sign-in-codes", json=body)
    problem = assert_response(response, "post", "/v1/tournaments/{tid}/sign-in-codes")
    assert response.status_code == 400
    assert [e["path"] for e in problem["errors"]] == [pointer]
    if english:
        assert problem["errors"][0]["message"] == english


def test_a_code_names_in_chinese_what_it_needs(app):
    organiser = app.test_client()
    organiser.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {token_for(app, 'organiser', T1)}"
    response = organiser.post(f"/v1/tournaments/{T1}/sign-in-codes", json={"role": "table"},
                              headers={"Accept-Language": "zh-CN"})
    assert response.json["errors"] == [{"path": "/match_id", "message": "table 登录码须指定 match_id"}]


def codes_kept(app) -> int:
    return sum(t.token_id.startswith("code-") for t in app.extensions["paiju"].tokens.all())


def test_only_an_organiser_of_the_tournament_or_an_admin_issues_codes(app):
    refused = client_as(app, "organiser", T1).post(f"/v1/tournaments/{T2}/sign-in-codes",
                                                    json={"role": "referee"})
    assert refused.status_code == 403
    others = [client_as(app, "referee", T1), client_as(app, "committee", T1),
              client_as(app, "table", T1, "R1-1"), client_as(app, "player", T1, "R1-1", 0),
              client_as(app, "auditor", T1)]
    for other in others:
        assert other.post(f"/v1/tournaments/{T1}/sign-in-codes", json={"role": "referee"}
                          ).status_code == 403
    assert codes_kept(app) == 0
    assert client_as(app, "admin").post(f"/v1/tournaments/{T2}/sign-in-codes", json={
        "role": "committee"}).status_code == 201
    assert codes_kept(app) == 1


# --- bearer tokens ---------------------------------------------------------------------------

def test_bearer_tokens_work_as_before_and_win_over_a_cookie(app):
    secret = token_for(app, "organiser", T1, name="app")
    client = browser(app)
    client.set_cookie(COOKIE, "pj_" + "x" * 43)  # an ended session's cookie, not looked at
    stored = client.post(EVENTS, json=team("east"), headers=bearer(secret))  # no CSRF token
    assert stored.status_code == 201 and stored.json["meta"]["actor"] == "app"
    who = client.get("/v1/session", headers=bearer(secret))
    assert who.json["role"] == "organiser" and who.json["csrf_token"] is None
    assert client.delete("/v1/session", headers=bearer(secret)).status_code == 204
    assert client.get("/v1/session", headers=bearer(secret)).status_code == 200  # not ended


def test_a_bearer_token_opens_a_session_of_its_own_scope(app):
    client = browser(app)
    secret = token_for(app, "referee", T1, name="李")
    opened = client.post("/v1/sessions", json={}, headers=bearer(secret))
    assert opened.status_code == 201
    assert (opened.json["role"], opened.json["tournament_id"], opened.json["actor"]) == (
        "referee", T1, "李")
    assert client.get("/v1/session").json == opened.json
    assert browser(app).post("/v1/sessions", json={}).json["errors"][0]["path"] == "/code"


# --- a real server, restarted -------------------------------------------------------------------

def call(port, method, path, body=None, headers=None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        sent = {"Accept-Language": "en", **(headers or {})}
        if body is not None:
            sent["Content-Type"] = "application/json"
        conn.request(method, path, body=None if body is None else json.dumps(body), headers=sent)
        response = conn.getresponse()
        data = response.read()
        return response.status, response.getheader("Set-Cookie"), (
            json.loads(data) if data else None)
    finally:
        conn.close()


def serve(db: Path, port: int, log: Path) -> subprocess.Popen:
    with open(log, "ab") as out:  # the server writes on its own copy of the file
        process = subprocess.Popen([str(PAIJU), "serve", "--host", "127.0.0.1", "--port",
                                    str(port), "--db", str(db), "--synchronous", "OFF"],
                                   stdout=out, stderr=subprocess.STDOUT)
    wait_until_ready(process, port, 60)
    return process


def test_a_session_survives_a_restart_of_paiju_serve(tmp_path):
    db = tmp_path / "desk.db"
    admin = {"Authorization": f"Bearer {admin_token(str(db), 'desk test')}"}
    port = free_port()
    process = serve(db, port, tmp_path / "serve.log")
    try:
        assert call(port, "POST", "/v1/tournaments", {"tournament_id": T1, "name": "渥太华",
                    "game": "SJ2", "format": "knockout"}, admin)[0] == 201
        status, _, code = call(port, "POST", f"/v1/tournaments/{T1}/sign-in-codes",
                               {"role": "organiser", "name": "王组织"}, admin)
        assert status == 201 and code["link"] == f"http://127.0.0.1:{port}/desk/signin#code={code['code']}"
        status, set_cookie, session = call(port, "POST", "/v1/sessions", {"code": code["code"]})
        assert status == 201
    finally:
        stop(process)
    cookie = {"Cookie": f"{COOKIE}={SimpleCookie(set_cookie)[COOKIE].value}"}
    process = serve(db, port, tmp_path / "serve.log")
    try:
        assert call(port, "GET", "/v1/session", headers=cookie)[2] == session
        status, _, problem = call(port, "POST", EVENTS, team("east"), cookie)
        assert (status, problem["type"]) == (403, "urn:paiju:problem:csrf")
        with_csrf = {**cookie, "X-CSRF-Token": session["csrf_token"]}
        status, _, stored = call(port, "POST", EVENTS, team("east"), with_csrf)
        assert status == 201 and stored["meta"]["actor"] == "王组织"
        status, _, events = call(port, "GET", f"{EVENTS}?limit=10", headers=admin)
        assert [e["type"] for e in events["events"]] == ["TournamentCreated", "TeamRegistered"]
        assert call(port, "DELETE", "/v1/session", headers=with_csrf)[0] == 204
        assert call(port, "GET", "/v1/session", headers=cookie)[0] == 401
    finally:
        stop(process)
