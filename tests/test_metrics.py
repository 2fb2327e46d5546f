"""/metrics (issue 35): the Prometheus text format made by prometheus-client, read back with
its own parser; counters that move by exactly what a test posts; labels by route pattern and
never a tournament's name or id; what the node keeps read when scraped; access only with the
metrics token or an admin token; counters summed over processes in multi-process mode; and a
real ``paiju serve`` with its start-up phases."""
from __future__ import annotations

import http.client
import json
import os
import subprocess
import sys
import textwrap
import time
from dataclasses import replace
from pathlib import Path

import pytest
import sj2_table
from clients import admin_client, bearer, client_as, token_for
from prometheus_client.openmetrics.parser import (
    text_string_to_metric_families as openmetrics,
)
from prometheus_client.parser import text_string_to_metric_families
from sj2_table import Table
from tables import Clock, ok

from events.memory_store import InMemoryEventStore
from events.postgres_store import PostgresEventStore
from events.sqlite_store import SQLiteEventStore
from service import create_app
from service.simulator.server_process import free_port, stop, wait_until_ready
from service.subscriptions import Filter

METRICS_TOKEN = "scrape-" + "s3cret" * 4
EVENTS = "/v1/tournaments/<tid>/events"


def scrape(app, headers: dict | None = None) -> dict:
    """Every sample of a scrape with an admin token: {(name, ((label, value), …)): value}."""
    response = app.test_client().get("/metrics", headers=headers or bearer(
        token_for(app, "admin")))
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.mimetype == "text/plain"
    return samples(response.get_data(as_text=True))


def samples(text: str) -> dict:
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def value(found: dict, name: str, **labels) -> float:
    return found.get((name, tuple(sorted(labels.items()))), 0.0)


def moved(before: dict, after: dict) -> dict:
    """The samples that changed, and by how much."""
    return {key: after.get(key, 0.0) - before.get(key, 0.0)
            for key in set(before) | set(after) if after.get(key, 0.0) != before.get(key, 0.0)}


def team(client, tid: str, team_id: str):
    return ok(client.post(f"/v1/tournaments/{tid}/events", json={
        "type": "TeamRegistered", "stream": f"tournament-{tid}",
        "data": {"team_id": team_id, "name": f"队 {team_id}",
                 "players": [f"甲{team_id}", f"乙{team_id}"]}}))


def tournament(client, tid: str, game: str = "SJ2", name: str = "春季升级赛") -> None:
    ok(client.post("/v1/tournaments", json={"tournament_id": tid, "name": name, "game": game,
                                            "format": "knockout"}))


@pytest.fixture
def sqlite_app(tmp_path, signer):
    store = SQLiteEventStore(tmp_path / "metrics.db")
    yield create_app(store=store, signer=signer)
    store.close()


# --- the format -----------------------------------------------------------------------------

def test_the_text_parses_with_prometheus_clients_own_parsers(sqlite_app):
    client = admin_client(sqlite_app)
    tournament(client, "spring")
    team(client, "spring", "east")
    client.get("/v1/tournaments/spring")
    response = client.get("/metrics")
    assert response.status_code == 200
    assert response.headers["Content-Type"].startswith("text/plain; version=0.0.4")
    assert response.headers["Cache-Control"] == "no-store"
    families = {f.name: f for f in text_string_to_metric_families(response.get_data(as_text=True))}
    assert {"paiju_events_appended", "paiju_refusals", "paiju_http_requests",
            "paiju_http_request_duration_seconds", "paiju_timer_deadlines_fired",
            "paiju_group_commit_size", "paiju_subscribers", "paiju_webhooks",
            "paiju_lease_held", "paiju_stream_cache_events", "paiju_build_info"} <= set(families)
    assert not [name for name in families if name.endswith("_created")]
    assert families["paiju_events_appended"].type == "counter"
    assert families["paiju_http_request_duration_seconds"].type == "histogram"
    assert families["paiju_group_commit_size"].type == "histogram"
    assert families["paiju_subscribers"].type == "gauge"
    scraped = samples(client.get("/metrics").get_data(as_text=True))
    assert not [k for k in scraped if ("route", "/metrics") in k[1]]  # scrapes are not counted
    # OpenMetrics when Prometheus asks for it, read by that parser too
    asked = client.get("/metrics", headers={"Accept": "application/openmetrics-text; "
                                                      "version=1.0.0"})
    assert asked.mimetype == "application/openmetrics-text"
    names = {f.name for f in openmetrics(asked.get_data(as_text=True))}
    assert {"paiju_events_appended", "paiju_group_commit_size"} <= names


# --- counters move by exactly what a test posts ----------------------------------------------

def test_three_appends_move_their_type_by_exactly_three(sqlite_app):
    client = admin_client(sqlite_app)
    tournament(client, "spring")
    before = scrape(sqlite_app)
    for team_id in ("east", "west", "north"):
        team(client, "spring", team_id)
    after = scrape(sqlite_app)
    assert value(after, "paiju_events_appended_total", type="TeamRegistered", game="SJ2") - \
        value(before, "paiju_events_appended_total", type="TeamRegistered", game="SJ2") == 3
    changed = moved(before, after)
    appended = {k: v for k, v in changed.items() if k[0] == "paiju_events_appended_total"}
    assert appended == {("paiju_events_appended_total",
                         (("game", "SJ2"), ("type", "TeamRegistered"))): 3}
    # one at a time: three commits of one append each
    assert changed[("paiju_group_commit_size_count", ())] == 3
    assert changed[("paiju_group_commit_size_sum", ())] == 3
    assert changed[("paiju_group_commit_size_bucket", (("le", "1.0"),))] == 3
    assert value(changed, "paiju_http_requests_total", method="POST", route=EVENTS,
                 status="201") == 3
    assert value(changed, "paiju_http_request_duration_seconds_count", method="POST",
                 route=EVENTS) == 3
    assert not [k for k in changed if k[0] == "paiju_refusals_total"]


def test_a_batch_counts_each_of_its_events_in_one_commit(sqlite_app):
    client = admin_client(sqlite_app)
    tournament(client, "spring")
    before = scrape(sqlite_app)
    events = [{"type": "TeamRegistered", "stream": "tournament-spring",
               "data": {"team_id": t, "name": t, "players": [f"甲{t}", f"乙{t}"]}}
              for t in ("a", "b")]
    events.append({"type": "RulingRecorded", "stream": "tournament-spring",
                   "data": {"text": "seating as drawn"}})
    ok(client.post("/v1/tournaments/spring/events", json={"events": events}))
    changed = moved(before, scrape(sqlite_app))
    assert value(changed, "paiju_events_appended_total", type="TeamRegistered", game="SJ2") == 2
    assert value(changed, "paiju_events_appended_total", type="RulingRecorded", game="SJ2") == 1
    assert changed[("paiju_group_commit_size_count", ())] == 1


def test_on_postgresql_appends_and_commits_are_counted_alike(postgres_url):
    store = PostgresEventStore(postgres_url, 4)
    try:
        app = create_app(store=store)
        client = admin_client(app)
        tournament(client, "spring", game="GD")
        before = scrape(app)
        for team_id in ("east", "west", "north"):
            team(client, "spring", team_id)
        changed = moved(before, scrape(app))
        assert value(changed, "paiju_events_appended_total", type="TeamRegistered",
                     game="GD") == 3
        assert changed[("paiju_group_commit_size_count", ())] == 3
        assert changed[("paiju_group_commit_size_sum", ())] == 3
    finally:
        store.close()


def ex3_table(client) -> Table:
    """tests/api/test_sj2_must_rules.py's Ex 3: seat 1 leads next, seat 3 holds one heart."""
    table = Table(client)
    table.to_play({0: "2S QH QH JH JH", 1: "9H 9H 8H 8H 6H 3H", 2: "KH KH 7H 4H 3H",
                   3: "5H 6S 6S 9S"}, card="2S", no={1: "H", 2: "H", 3: "H"})
    table.ok("CardsPlayed", seat=0, cards=["QH", "QH", "JH", "JH"])
    table.ok("CardsPlayed", seat=1, cards=["9H", "9H", "8H", "8H"])
    table.ok("CardsPlayed", seat=2, cards=["KH", "KH", "7H", "4H"])
    return table


def test_one_refusal_of_sj2_9_2_moves_that_rule_by_one():
    app = create_app(store=InMemoryEventStore())
    table = ex3_table(admin_client(app))
    before = scrape(app)
    others = [c for c in table.hand_view()["seats"][3]["cards"] if c != "5H"][:4]
    table.rejected("CardsPlayed", "SJ2-9.2", seat=3, cards=others)
    changed = moved(before, scrape(app))
    assert {k: v for k, v in changed.items() if k[0] == "paiju_refusals_total"} == {
        ("paiju_refusals_total", (("rule", "SJ2-9.2"),)): 1}
    assert not [k for k in changed if k[0] == "paiju_events_appended_total"]  # nothing stored
    assert value(changed, "paiju_http_requests_total", method="POST", route=EVENTS,
                 status="422") == 1


def test_the_game_of_a_tournament_made_before_the_node_started_is_read_from_the_log(tmp_path):
    path = tmp_path / "earlier.db"
    store = SQLiteEventStore(path)
    tournament(admin_client(create_app(store=store)), "autumn", game="GD")
    store.close()
    store = SQLiteEventStore(path)  # a new process: it heard no TournamentCreated
    try:
        app = create_app(store=store)
        before = scrape(app)
        team(admin_client(app), "autumn", "east")
        assert moved(before, scrape(app))[
            ("paiju_events_appended_total", (("game", "GD"), ("type", "TeamRegistered")))] == 1
    finally:
        store.close()


def test_labels_carry_routes_never_a_tournament_name_or_id():
    app = create_app(store=InMemoryEventStore())
    client = admin_client(app)
    tournament(client, "secret-tid-7", name="机密邀请赛 hidden-cup")
    team(client, "secret-tid-7", "east")
    for path in ("/v1/tournaments/secret-tid-7", "/v1/tournaments/other-tid-8",
                 "/v1/tournaments/secret-tid-7/matches", "/no/such/path/secret-tid-7"):
        client.get(path)
    text = client.get("/metrics").get_data(as_text=True)
    assert "secret-tid-7" not in text and "other-tid-8" not in text
    assert "hidden-cup" not in text and "机密" not in text
    found = samples(text)
    assert value(found, "paiju_http_requests_total", method="GET",
                 route="/v1/tournaments/<tid>", status="200") == 1
    assert value(found, "paiju_http_requests_total", method="GET",
                 route="/v1/tournaments/<tid>", status="404") == 1
    assert value(found, "paiju_http_requests_total", method="GET", route="unmatched",
                 status="404") == 1


# --- the timer --------------------------------------------------------------------------------

def test_a_deadline_fired_is_counted_once(timed):
    table = sj2_table.Table(timed.client, {"declarationWindowSeconds": 15})
    table.deal({0: "2S"})
    table.ok("TrumpDeclared", seat=0, card="2S")
    table.ok("DealCompleted")
    before = scrape(timed.app)
    [closed] = timed.run_to_next()
    assert closed.type == "DeclarationWindowClosed"
    changed = moved(before, scrape(timed.app))
    assert value(changed, "paiju_timer_deadlines_fired_total",
                 type="DeclarationWindowClosed") == 1
    assert value(changed, "paiju_events_appended_total", type="DeclarationWindowClosed",
                 game="SJ2") == 1
    assert timed.fire_due() == []
    assert value(moved(before, scrape(timed.app)), "paiju_timer_deadlines_fired_total",
                 type="DeclarationWindowClosed") == 1


def test_a_timer_process_shows_its_pending_and_overdue_deadlines(tmp_path, signer):
    clock = Clock()
    store = SQLiteEventStore(tmp_path / "timer.db", clock=clock)
    try:
        app = create_app({"NOW": lambda: clock.now + clock.step, "TIMER": True}, store=store,
                         signer=signer)
        services = app.extensions["paiju"]
        timekeeper = services.timekeeper
        timekeeper.start()
        table = sj2_table.Table(admin_client(app), {"declarationWindowSeconds": 15})
        table.deal({0: "2S"})
        table.ok("DealCompleted")
        timekeeper.catch_up()
        found = scrape(app)
        assert (value(found, "paiju_timer_deadlines_pending"),
                value(found, "paiju_timer_deadlines_overdue")) == (1, 0)
        caught_up = getattr(services.timer, "caught_up", None)
        assert value(found, "paiju_timer_caught_up") == (
            1 if caught_up is None or caught_up.is_set() else 0)
        if hasattr(timekeeper, "unknown"):  # the matches left to read at start: none
            assert ("paiju_timer_matches_to_fold", ()) in found
            assert value(found, "paiju_timer_matches_to_fold") == 0
        clock.advance(seconds=20)
        found = scrape(app)
        assert (value(found, "paiju_timer_deadlines_pending"),
                value(found, "paiju_timer_deadlines_overdue")) == (1, 1)
        assert value(found, "paiju_lease_held", lease="timer") == 1  # a sole process
        assert len(timekeeper.tick()) == 1
        found = scrape(app)
        assert (value(found, "paiju_timer_deadlines_pending"),
                value(found, "paiju_timer_deadlines_overdue")) == (0, 0)
    finally:
        store.close()


def test_a_node_without_a_timer_shows_no_timer_gauges():
    found = scrape(create_app(store=InMemoryEventStore()))
    assert not [k for k in found if k[0].startswith("paiju_timer_deadlines_pending")]
    assert not [k for k in found if k[0] == "paiju_timer_caught_up"]


# --- what the node keeps, read when scraped ---------------------------------------------------

def test_subscribers_webhooks_and_leases_are_read_when_scraped(tmp_path):
    app = create_app({"DATABASE": str(tmp_path / "deployment.db"), "CHECKPOINTS": False,
                      "WEBHOOKS_ALLOW_PRIVATE": True})
    services = app.extensions["paiju"]
    try:
        client = admin_client(app)
        tournament(client, "spring")
        found = scrape(app)
        assert value(found, "paiju_subscribers") == 0
        assert [value(found, "paiju_webhooks", state=s) for s in ("open", "lagging",
                                                                 "disabled")] == [0, 0, 0]
        # a deployment's leases are held by no one until a timer or a deliverer takes them
        assert value(found, "paiju_lease_held", lease="timer") == 0
        assert value(found, "paiju_lease_held", lease="webhooks") == 0

        subscription = services.hub.subscribe("spring", Filter(), None)
        hooks = [services.webhooks.create("spring", f"http://127.0.0.1:9/{n}", None, None, 0,
                                          "2026-01-01T00:00:00Z")[1] for n in range(3)]
        services.webhooks.save(replace(hooks[1], failures=2,
                                       failing_since="2026-01-01T00:00:01Z"))
        services.webhook_delivery.disable(hooks[2], "a test")
        services.timekeeper.fire_due()  # takes the timer's lease
        found = scrape(app)
        assert value(found, "paiju_subscribers") == 1
        assert [value(found, "paiju_webhooks", state=s) for s in ("open", "lagging",
                                                                 "disabled")] == [1, 1, 1]
        assert value(found, "paiju_lease_held", lease="timer") == 1
        assert value(found, "paiju_lease_held", lease="webhooks") == 0
        services.hub.unsubscribe(subscription)
        assert value(scrape(app), "paiju_subscribers") == 0
    finally:
        services.hub.close()
        services.store.close()


def test_the_stream_caches_counts_are_shown_when_it_keeps_them():
    app = create_app(store=InMemoryEventStore(), config={"CACHE_BUDGET": 1234})
    found = scrape(app)
    assert value(found, "paiju_stream_cache_budget_events") == 1234
    assert value(found, "paiju_stream_cache_events") == 0
    cache = app.extensions["paiju"].cache
    cache.hits, cache.misses, cache.fold_seconds = 7, 2, 0.25  # what the cache may count
    found = scrape(app)
    assert (value(found, "paiju_checkpoint_hits_total"),
            value(found, "paiju_checkpoint_misses_total"),
            value(found, "paiju_fold_seconds_total")) == (7, 2, 0.25)


def test_a_part_that_fails_is_left_out_and_the_scrape_still_answers():
    app = create_app(store=InMemoryEventStore())

    class Broken:
        def every(self):
            raise RuntimeError("the database went away")

    services = app.extensions["paiju"]
    object.__setattr__(services, "webhooks", Broken())
    found = scrape(app)
    assert not [k for k in found if k[0] == "paiju_webhooks"]
    assert value(found, "paiju_subscribers") == 0


# --- who may read them ------------------------------------------------------------------------

def assert_refused(response, status: int) -> None:
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    problem = response.get_json()
    assert problem["status"] == status and problem["instance"] == "/metrics"
    assert "Traceback" not in response.get_data(as_text=True)


def test_only_the_metrics_token_or_an_admin_token_reads_the_metrics():
    app = create_app(store=InMemoryEventStore(), config={"METRICS_TOKEN": METRICS_TOKEN})
    tournament(admin_client(app), "spring")
    public = app.test_client()
    assert_refused(public.get("/metrics"), 401)
    assert public.get("/metrics").headers["WWW-Authenticate"].startswith("Bearer")
    assert_refused(public.get("/metrics", headers=bearer(METRICS_TOKEN + "x")), 401)
    assert_refused(public.get("/metrics", headers=bearer(METRICS_TOKEN[:-1])), 401)
    assert_refused(public.get("/metrics", headers={"Authorization": "Basic c2NyYXBlOng="}), 401)
    for role, tid in (("organiser", "spring"), ("referee", "spring"), ("auditor", "spring"),
                      ("system", "spring")):
        assert_refused(client_as(app, role, tid).get("/metrics"), 403)
    assert public.get("/metrics", headers=bearer(METRICS_TOKEN)).status_code == 200
    assert public.get("/metrics", headers={"Authorization": f"bearer  {METRICS_TOKEN} "}) \
        .status_code == 200
    assert admin_client(app).get("/metrics").status_code == 200


def test_without_a_metrics_token_only_admin_tokens_read_them():
    app = create_app(store=InMemoryEventStore())
    assert_refused(app.test_client().get("/metrics", headers=bearer(METRICS_TOKEN)), 401)
    assert_refused(app.test_client().get("/metrics", headers=bearer("")), 401)
    assert admin_client(app).get("/metrics").status_code == 200


# --- several processes on one machine ---------------------------------------------------------

APPEND = textwrap.dedent("""
    import sys
    from events.sqlite_store import SQLiteEventStore
    from service import create_app

    database, count = sys.argv[1], int(sys.argv[2])
    store = SQLiteEventStore(database)
    app = create_app(store=store)
    secret, _ = app.extensions["paiju"].tokens.create("admin")
    client = app.test_client()
    client.environ_base["HTTP_AUTHORIZATION"] = "Bearer " + secret
    if "create" in sys.argv[4:]:
        assert client.post("/v1/tournaments", json={"tournament_id": "shared", "name": "x",
                           "game": "GD", "format": "knockout"}).status_code == 201
    for n in range(count):
        response = client.post("/v1/tournaments/shared/events", json={
            "type": "TeamRegistered", "stream": "tournament-shared",
            "data": {"team_id": f"t{sys.argv[3]}-{n}", "name": "x",
                     "players": [f"a{sys.argv[3]}{n}", f"b{sys.argv[3]}{n}"]}})
        assert response.status_code == 201, response.get_json()
    if "scrape" in sys.argv[4:]:
        print(client.get("/metrics").get_data(as_text=True))
    store.close()
""")


def test_with_prometheus_multiproc_dir_the_counters_are_summed_over_processes(tmp_path):
    folder = tmp_path / "prometheus"
    folder.mkdir()
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(folder)}
    database = str(tmp_path / "shared.db")
    root = Path(__file__).resolve().parent.parent

    def run(count: int, name: str, *then: str) -> str:
        args = [sys.executable, "-c", APPEND, database, str(count), name, *then]
        done = subprocess.run(args, cwd=root, env=env, capture_output=True, text=True,
                              timeout=120)
        assert done.returncode == 0, done.stderr
        return done.stdout

    run(2, "b", "create")
    text = run(3, "c", "scrape")  # the second process answers for both
    found = samples(text)
    assert value(found, "paiju_events_appended_total", type="TeamRegistered", game="GD") == 5
    assert value(found, "paiju_events_appended_total", type="TournamentCreated",
                 game="GD") == 1
    assert value(found, "paiju_http_requests_total", method="POST", route=EVENTS,
                 status="201") == 5


# --- a real paiju serve -----------------------------------------------------------------------

def http_get(port: int, path: str, headers: dict | None = None) -> tuple[int, dict, str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", path, headers=headers or {})
        response = conn.getresponse()
        return response.status, dict(response.getheaders()), response.read().decode()
    finally:
        conn.close()


def test_paiju_serve_answers_metrics_with_its_start_up_phases(tmp_path):
    port = free_port()
    env = {**os.environ, "PAIJU_METRICS_TOKEN": METRICS_TOKEN}
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    log = open(tmp_path / "serve.log", "wb")
    process = subprocess.Popen([sys.executable, "-m", "service.cli", "serve", "--db",
                                str(tmp_path / "served.db"), "--port", str(port),
                                "--synchronous", "OFF"],
                               stdout=log, stderr=subprocess.STDOUT, env=env)
    try:
        wait_until_ready(process, port, 60)
        deadline = time.monotonic() + 60  # the timer reads the running matches: none here
        while http_get(port, "/v1/ready")[0] != 200:
            assert time.monotonic() < deadline, "never ready"
            time.sleep(0.1)
        status, headers, body = http_get(port, "/metrics")
        assert status == 401 and headers["Content-Type"] == "application/problem+json"
        assert json.loads(body)["type"] == "urn:paiju:problem:unauthorized"
        status, headers, body = http_get(port, "/metrics", bearer(METRICS_TOKEN))
        assert status == 200, body
        found = samples(body)
        phases = {dict(labels)["phase"]: v for (name, labels), v in found.items()
                  if name == "paiju_startup_phase_seconds"}
        assert {"opened", "timer-started", "listening", "timer-caught-up"} <= set(phases)
        assert 0 < phases["opened"] <= phases["timer-started"] <= phases["listening"]
        assert value(found, "paiju_timer_caught_up") == 1
        assert value(found, "paiju_http_requests_total", method="GET", route="/v1/health",
                     status="200") >= 1  # the wait for the start asked it
        assert value(found, "paiju_build_info", version=next(
            dict(labels)["version"] for (name, labels) in found
            if name == "paiju_build_info")) == 1
    finally:
        stop(process)
        log.close()


def test_a_short_metrics_token_is_refused_at_the_start(tmp_path):
    done = subprocess.run([sys.executable, "-m", "service.cli", "serve", "--db",
                           str(tmp_path / "x.db"), "--metrics-token", "short"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--metrics-token" in done.stderr
    assert not (tmp_path / "x.db").exists()


def test_a_prometheus_multiproc_dir_that_is_not_a_directory_stops_the_start(tmp_path):
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(tmp_path / "missing")}
    done = subprocess.run([sys.executable, "-m", "service.cli", "serve", "--db",
                           str(tmp_path / "x.db"), "--port", str(free_port())],
                          capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 2
    assert "PROMETHEUS_MULTIPROC_DIR" in done.stderr and "Traceback" not in done.stderr

