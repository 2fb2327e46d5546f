"""The standings page in a real headless Chromium for issue 22: a team event whose withdrawn team
missed two rounds lists it apart, unranked, with its reason (T-6.7), and says how the event
ended (T-6.11); a staged coin session shows its ranking's columns — stage, final balance, table
place (T-8.3) — first. What the page shows is compared with what the API says."""
from __future__ import annotations

import pytest
from browser_harness import LiveServer, chromium, open_page, screenshot, texts
from clients import admin_client
from mj_table import groups_tournament
from tables import Clock, ok

from events.memory_store import InMemoryEventStore
from service import create_app

TID = "jnu-pages"
T = f"/v1/tournaments/{TID}"


@pytest.fixture(scope="module")
def browser():
    driver = chromium()
    yield driver
    driver.quit()


def team_event() -> tuple:
    """Five teams, three rounds, every table drawn when the round's time is called; after round 1
    the first team of its first meeting withdraws, so it forfeits rounds 2 and 3 (T-6.7); the
    event ends after round 3, its last (T-6.11)."""
    clock = Clock()
    app = create_app(store=InMemoryEventStore(clock=clock))
    client = admin_client(app)
    ok(client.post("/v1/tournaments", json={"tournament_id": TID, "name": "校庆杯", "game": "SJ3",
                                            "format": "swiss-teams", "settings": {"rounds": 3}}))
    for t in ("T1", "T2", "T3", "T4", "T5"):
        ok(client.post(f"{T}/events", json={"type": "TeamRegistered", "stream": f"tournament-{TID}",
                                            "data": {"team_id": t, "name": f"{t}队",
                                                     "leader": f"{t}领队",
                                                     "players": [f"{t}{k}" for k in "甲乙丙丁"]}}))
    leaving = None
    for number in (1, 2, 3):
        round_ = ok(client.post(f"{T}/pairings"))["round"]
        for meeting in round_["meetings"]:
            for table in meeting["tables"]:
                ok(client.post(f"{T}/matches", json={"match_id": table["match_id"]}))
        clock.advance(minutes=80)
        ok(client.post(f"{T}/rounds/{number}/time"))
        if number == 1:
            leaving = round_["meetings"][0]["teams"][0]
            ok(client.post(f"{T}/events", json={"type": "TeamWithdrawn",
                                                "stream": f"tournament-{TID}",
                                                "data": {"team_id": leaving}}))
    return app, client, leaving


def test_t6_7_the_standings_page_lists_a_withdrawn_team_apart_with_its_reason(browser):
    app, client, leaving = team_event()
    view = ok(client.get(f"{T}/standings"))
    assert [r["team"] for r in view["excluded"]] == [leaving]
    server = LiveServer(app)
    try:
        open_page(browser, f"{server.url}/pages/tournaments/{TID}/standings")
        ranked = texts(browser, "#standings table:first-of-type td[data-col='place']")
        assert ranked == [str(r["place"]) for r in view["ranking"]]
        assert texts(browser, "#standings h2") == ["Not ranked"]
        (reason,) = texts(browser, "#standings td[data-col='excluded']")
        assert reason == f"T-6.7 · {view['excluded'][0]['excluded']['reason']}"
        assert "withdrawn after round 1" in reason
        (ended,) = texts(browser, "#standings p.ended")
        assert ended == f"Ended after round 3 (T-6.11): {view['ended']['reason']}"
        screenshot(browser, "team-event-standings")
    finally:
        server.stop()


def test_t8_3_the_standings_page_of_a_staged_coin_session_shows_its_order_first(browser):
    app = create_app(store=InMemoryEventStore())
    client = admin_client(app)
    groups_tournament(client, "mjo-pages", {"sessionHands": 1}, {"advance": 2},
                      [(f"p{k}", f"Player {k}") for k in range(1, 9)])
    ok(client.post("/v1/tournaments/mjo-pages/draws", json={}))
    server = LiveServer(app)
    try:
        open_page(browser, f"{server.url}/pages/tournaments/mjo-pages/standings")
        heads = texts(browser, "#standings th")
        assert heads[:6] == ["place", "team", "name", "stage", "coins", "table place"]
    finally:
        server.stop()
