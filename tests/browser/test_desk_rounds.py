"""The desk's rounds page (/desk/t/<tid>/rounds) in a real headless Chromium, in Chinese and
English: a team event's round 1 drawn by lots and its tables started, the chief referee's alert
for the round, round 2 paired by the rules, by hand (stored with the server's warnings) and — when
every pairing is a rematch — the proposed pairing confirmed; a Guandan knockout's round drawn by
playing cards and its matches started; a refusal shown as the server words it. What the page
shows and what it did are compared with what the API says; screenshots go to test-artifacts/."""
from __future__ import annotations

from urllib.parse import quote

import pytest
from browser_harness import LiveServer, click, screenshot, texts, wait_until
from clients import admin_client, token_for
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select
from tables import Clock, ok

from events.memory_store import InMemoryEventStore
from service import create_app
from service.sessions import issue_sign_in_code

TEAMS = ("T1", "T2", "T3", "T4")


class Day:
    """A tournament served on a live port, its clock the test's, and an admin client of the API."""

    def __init__(self, tid: str, game: str, format_: str, settings: dict, teams: list[tuple]):
        self.clock = Clock()
        self.app = create_app(store=InMemoryEventStore(clock=self.clock))
        self.api = admin_client(self.app)
        self.tid, self.base = tid, f"/v1/tournaments/{tid}"
        ok(self.api.post("/v1/tournaments", json={"tournament_id": tid, "name": "校庆杯 desk",
                                                  "game": game, "format": format_,
                                                  "settings": settings}))
        for team_id, players in teams:
            leader = {"leader": f"{team_id}领队"} if format_ == "swiss-teams" else {}
            ok(self.api.post(f"{self.base}/events", json={
                "type": "TeamRegistered", "stream": f"tournament-{tid}",
                "data": {"team_id": team_id, "name": f"{team_id}队", "players": players,
                         **leader}}))
        self.server = LiveServer(self.app)

    def get(self, path: str = "") -> dict:
        return ok(self.api.get(self.base + path))

    def open(self, driver, role: str) -> None:
        """The rounds page, signed in as a volunteer is: with a one-time code of ``role``."""
        signed_in(driver, self.server.url, self.app, self.tid, role, f"/desk/t/{self.tid}/rounds")

    def started(self) -> set[str]:
        return {m["match_id"] for m in self.get("/matches")["matches"]}

    def log_length(self) -> int:
        return len(self.get("/events?limit=1000")["events"])


def signed_in(driver, url: str, app, tid: str, role: str, path: str) -> None:
    """Opens ``path`` through the sign-in link of a new one-time code of ``role`` (the session
    cookie then carries the role) and waits until the page has drawn what it read."""
    code = issue_sign_in_code(app.extensions["paiju"].tokens, role, tid).code
    driver.get("about:blank")
    driver.get(f"{url}/desk/signin?next={quote(path)}#code={code}")
    wait_until(driver, lambda d: d.execute_script(
        "return location.pathname === arguments[0] && document.body.dataset.ready", path), f"{path} signed in")
    ready = driver.execute_script("return document.body.dataset.ready")
    assert ready == "true", driver.execute_script("return document.getElementById('status').textContent")


def team_event(rounds: int = 3) -> Day:
    return Day("desk-teams", "SJ3", "swiss-teams", {"rounds": rounds, "match": {"recording": "sheet"}},
               [(t, [f"{t}{k}" for k in "甲乙丙丁"]) for t in TEAMS])


def rows_shown(driver, round_: int) -> list[tuple[str, str]]:
    """(table, teams) of each row of a round's block, as the page shows them."""
    return [tuple(row) for row in driver.execute_script(
        "return [...document.querySelectorAll(`section.round-block[data-round='${arguments[0]}'] tbody tr`)]"
        ".map(r => [r.dataset.match, r.querySelector('[data-col=teams]').textContent])", round_)]


def tables_of(round_view: dict, names: dict) -> list[tuple[str, str]]:
    """(table, "A v B") of each table of a round of GET …/rounds, in its order."""
    return [(tb["match_id"], f"{names[m['teams'][0]]} v {names[m['teams'][1]]}")
            for m in round_view["meetings"] for tb in m["tables"]]


def wait_for(driver, condition, what: str):
    return wait_until(driver, lambda _: condition(), what)


def names() -> dict:
    return {t: f"{t}队 ({t})" for t in TEAMS}


def versus(language: str) -> str:
    return " v " if language == "en" else " 对 "


def play_round_by_the_clock(day: Day, number: int) -> None:
    """Round ``number`` paired by the server, its tables started, then the alert at minute 80:
    every table ends at its levels (drawn, 2 : 2: no hand is recorded)."""
    round_ = ok(day.api.post(f"{day.base}/pairings"))["round"]
    for meeting in round_["meetings"]:
        for table in meeting["tables"]:
            ok(day.api.post(f"{day.base}/matches", json={"match_id": table["match_id"]}))
    day.clock.advance(minutes=80)
    ok(day.api.post(f"{day.base}/rounds/{number}/time"))


# --- the team event ----------------------------------------------------------------------------

def test_a_team_event_round_is_drawn_started_alerted_and_the_next_paired(browser, language):
    day = team_event()
    try:
        day.open(browser, "organiser")
        assert texts(browser, "[data-act=draw-lots]") == [
            "Draw round 1 by lots" if language == "en" else "抽签排定第1轮"]
        click(browser, "[data-act=draw-lots]")
        wait_for(browser, lambda: day.get("/rounds")["rounds"], "round 1 drawn")
        wait_for(browser, lambda: rows_shown(browser, 1), "round 1 shown")
        (round_1,) = day.get("/rounds")["rounds"]
        shown = {k: v.replace(versus(language), " v ") for k, v in rows_shown(browser, 1)}
        assert shown == dict(tables_of(round_1, names()))
        assert not day.started()
        click(browser, "section.round-block[data-round='1'] [data-act=start]")
        wait_for(browser, lambda: day.started() == set(shown), "every table started")
        wait_for(browser, lambda: len(browser.find_elements(By.CSS_SELECTOR, "a[data-link=sheet]")) == 4,
                 "the score sheets linked")
        links = browser.execute_script("return [...document.querySelectorAll('a[data-link=sheet]')]"
                                       ".map(a => new URL(a.href).pathname)")
        assert links == [f"/desk/t/{day.tid}/matches/{mid}/sheet" for mid in shown]
        screenshot(browser, f"desk-rounds-started-{language}")

        # the chief referee's alert for the round (SJ3-12.1), from a referee's desk
        day.clock.advance(minutes=80)
        day.open(browser, "referee")
        click(browser, "section.round-block[data-round='1'] [data-act=alert]")
        wait_for(browser, lambda: day.get("/rounds")["rounds"][0]["complete"], "round 1 ended")
        tables = [day.get(f"/matches/{mid}") for mid in shown]
        assert {(m["status"], m["reason"], m["time_limit_reached"]) for m in tables} == {
            ("completed", "time", 80)}

        # round 2 by the rules, as the page showed it before the click
        day.open(browser, "organiser")
        proposed = day.get("/rounds")["next"]["pairing"]
        listed = texts(browser, "#next ul.pairing li")
        assert [x.split(" · ")[0] for x in listed] == [m["match_id"] for m in proposed["matches"]]
        click(browser, "[data-act=pair]")
        wait_for(browser, lambda: len(day.get("/rounds")["rounds"]) == 2, "round 2 paired")
        round_2 = day.get("/rounds")["rounds"][1]
        assert [m["teams"] for m in round_2["meetings"]] == [m["teams"] for m in proposed["matches"]]
        assert not round_2["manual"]
        wait_for(browser, lambda: rows_shown(browser, 2), "round 2 shown")
        click(browser, "section.round-block[data-round='2'] [data-act=start]")
        wait_for(browser, lambda: len(day.started()) == 8, "round 2 started")
    finally:
        day.server.stop()


@pytest.mark.parametrize("language", ["zh"])
def test_a_pairing_by_hand_is_stored_with_the_servers_warnings(browser, language):
    """Round 2 paired by hand as a copy of round 1: two rematches, each a warning the server
    stores with the round (T-6.4) and the page shows on it."""
    day = team_event()
    try:
        play_round_by_the_clock(day, 1)
        round_1 = day.get("/rounds")["rounds"][0]
        day.open(browser, "referee")
        click(browser, "[data-act=open-by-hand]")
        meetings = browser.find_elements(By.CSS_SELECTOR, "#by-hand p.meeting")
        for meeting, old in zip(meetings, round_1["meetings"], strict=True):
            a, b = meeting.find_elements(By.TAG_NAME, "select")
            Select(a).select_by_value(old["teams"][0])
            Select(b).select_by_value(old["teams"][1])
        browser.find_element(By.CSS_SELECTOR, "#by-hand input[name=reason]").send_keys("场地安排")
        before = day.log_length()
        click(browser, "[data-act=pair-by-hand]")
        wait_for(browser, lambda: len(day.get("/rounds")["rounds"]) == 2, "round 2 paired by hand")
        assert day.log_length() == before + 1
        round_2 = day.get("/rounds")["rounds"][1]
        assert (round_2["manual"], round_2["reason"]) == (True, "场地安排")
        assert len(round_2["warnings"]) == 2 and all(w.startswith("rematch:") for w in round_2["warnings"])
        wait_for(browser, lambda: rows_shown(browser, 2), "round 2 shown")
        shown = texts(browser, "section.round-block[data-round='2'] ul.warnings li")
        said = ok(day.api.get(day.base + "/rounds", headers={"Accept-Language": "zh"}))
        assert shown == ["⚠ " + w for w in said["rounds"][1]["warnings"]]   # in the page's words
        assert all(w.startswith("⚠ 重复对阵：") for w in shown)
        assert texts(browser, "#status") == ["第2轮已手工编排，存有2条警告（见该轮）。"]
        screenshot(browser, "desk-rounds-by-hand-zh")
    finally:
        day.server.stop()


@pytest.mark.parametrize("language", ["en"])
def test_the_proposed_pairing_is_confirmed_when_every_pairing_is_a_rematch(browser, language):
    """Four teams after three rounds have met every other team: round 4 cannot be paired by the
    rules, the server proposes the pairing with the fewest rematches (T-6.4) and the chief
    referee confirms it from the desk, with a reason."""
    day = team_event(rounds=4)
    try:
        for number in (1, 2, 3):
            play_round_by_the_clock(day, number)
        nxt = day.get("/rounds")["next"]
        assert not nxt["pairable"] and nxt["proposal"]["warnings"]
        day.open(browser, "referee")
        assert texts(browser, "#next p.issue") == [f"{nxt['rule']}: {nxt['problem']}"]
        assert texts(browser, "#next ul.warnings li") == ["⚠ " + w for w in nxt["proposal"]["warnings"]]
        browser.find_element(By.CSS_SELECTOR, "#next input[name=reason]").send_keys("all have met")
        click(browser, "[data-act=confirm]")
        wait_for(browser, lambda: len(day.get("/rounds")["rounds"]) == 4, "round 4 confirmed")
        round_4 = day.get("/rounds")["rounds"][3]
        assert [m["teams"] for m in round_4["meetings"]] == [m["teams"] for m in nxt["proposal"]["matches"]]
        assert (round_4["manual"], round_4["reason"]) == (True, "all have met")
    finally:
        day.server.stop()


# --- the knockout ----------------------------------------------------------------------------

def test_a_guandan_knockout_round_is_drawn_by_cards_and_started(browser, language):
    day = Day("desk-gd", "GD", "knockout", {"match": {"recording": "sheet"}},
              [(f"p{k}", [f"p{k}甲", f"p{k}乙"]) for k in range(1, 9)])
    try:
        # a referee may not draw (the organiser's): the server's refusal, in the page's language
        day.open(browser, "referee")
        before = day.log_length()
        click(browser, "[data-act=draw-cards]")
        wait_for(browser, lambda: texts(browser, "form[data-action=draw] .form-error") != [""], "the refusal")
        refusal = day.api.post(f"/v1/tournaments/{day.tid}/draws", json={"round": 1, "method": "cards"},
                               headers={"Authorization": f"Bearer {token_for(day.app, 'referee', day.tid)}",
                                        "Accept-Language": language})
        assert refusal.status_code == 403
        assert texts(browser, "form[data-action=draw] .form-error") == [refusal.json["detail"]]
        assert day.log_length() == before

        day.open(browser, "organiser")
        click(browser, "[data-act=draw-cards]")
        wait_for(browser, lambda: day.get("/bracket")["drawn"], "round 1 drawn")
        wait_for(browser, lambda: rows_shown(browser, 1), "round 1 shown")
        (round_1,) = day.get("/bracket")["rounds"]
        assert sorted(round_1["cards"]) == [f"p{k}" for k in range(1, 9)]  # T-5.5: by cards
        shown = dict(rows_shown(browser, 1))
        assert list(shown) == [m["match_id"] for m in round_1["matches"]]
        for match in round_1["matches"]:
            a, b = (f"{t}队 ({t})" for t in match["teams"])
            assert shown[match["match_id"]] == a + versus(language) + b
        click(browser, "section.round-block[data-round='1'] [data-act=start]")
        wait_for(browser, lambda: day.started() == set(shown), "round 1 started")
        for mid in shown:
            match = day.get(f"/matches/{mid}")
            assert (match["recording"], match["round"]) == ("sheet", 1)
        wait_for(browser, lambda: len(browser.find_elements(By.CSS_SELECTOR, "a[data-link=sheet]")) == 4,
                 "the score sheets linked")
        assert not browser.find_elements(By.CSS_SELECTOR, "[data-act=start]")
        screenshot(browser, f"desk-rounds-knockout-{language}")
    finally:
        day.server.stop()


# --- the gate (no browser) ---------------------------------------------------------------------

@pytest.mark.parametrize("path", ["/rounds", "/matches/R1-1a/sheet"])
def test_the_desk_pages_are_for_the_desks_roles_and_hold_no_data(path):
    app = create_app(store=InMemoryEventStore())
    api = admin_client(app)
    ok(api.post("/v1/tournaments", json={"tournament_id": "gate", "name": "门禁杯", "game": "SJ3",
                                         "format": "swiss-teams", "settings": {}}))
    ok(api.post("/v1/tournaments/gate/events", json={
        "type": "TeamRegistered", "stream": "tournament-gate",
        "data": {"team_id": "east", "name": "东队", "leader": "东", "players": ["甲", "乙", "丙", "丁"]}}))
    page = f"/desk/t/gate{path}"
    asked = {"Accept": "application/json"}
    for role, status in (("organiser", 200), ("referee", 200), ("committee", 200),
                         ("auditor", 403), ("player", 403)):
        match = {"match": "R1-1a", "seat": 0} if role == "player" else {}
        secret = token_for(app, role, "gate", **match)
        response = app.test_client().get(page, headers={**asked, "Authorization": f"Bearer {secret}"})
        assert response.status_code == status, (role, response.get_json())
        if status == 200:
            html = response.get_data(as_text=True)
            assert "门禁杯" not in html and "东队" not in html and 'data-tid="gate"' in html
            assert "script-src 'self'" in response.headers["Content-Security-Policy"]
    assert app.test_client().get(page, headers=asked).status_code == 401
    other = token_for(app, "admin")
    assert app.test_client().get(f"/desk/t/none{path}",
                                 headers={**asked, "Authorization": f"Bearer {other}"}).status_code == 404
