"""The desk's score sheet (/desk/t/<tid>/matches/<mid>/sheet) in a real headless Chromium, in
Chinese and English: an SJ3 table of a team event entered row by row to the end of its match —
the pair's lateness first (T-6.6) — each row's levels as the match read says them; a row that
breaks a rule refused on that row, in the page's language, nothing stored; a double click (and
the same row sent twice) stored once; the row's own live echo leaving the next row being typed
and its focus alone; a Guandan sheet with its time limit refused before its
minute and called after it (GD-11.2). Screenshots go to test-artifacts/."""
from __future__ import annotations

import time
from urllib.parse import quote

import pytest
from browser_harness import LiveServer, screenshot, texts, wait_until
from clients import admin_client
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select
from tables import Clock, ok

from events.memory_store import InMemoryEventStore
from service import create_app
from service.sessions import issue_sign_in_code



class Table:
    """One started match recorded from score sheets, served on a live port: an SJ3 table of a
    team event of two teams (R1-1a, pairs a), or a Guandan knockout of two pairs (R1-1)."""

    def __init__(self, game: str):
        self.clock = Clock()
        self.app = create_app(store=InMemoryEventStore(clock=self.clock))
        self.api = admin_client(self.app)
        self.tid = f"desk-{game.lower()}-sheet"
        self.base = f"/v1/tournaments/{self.tid}"
        team_event = game == "SJ3"
        ok(self.api.post("/v1/tournaments", json={
            "tournament_id": self.tid, "name": "校庆杯 sheet", "game": game,
            "format": "swiss-teams" if team_event else "knockout",
            "settings": {"match": {"recording": "sheet"}}}))
        for team, players in (("east", ["张三", "李四", "王五", "赵六"]), ("west", ["孙七", "周八", "吴九", "郑十"])):
            ok(self.post({"type": "TeamRegistered", "stream": f"tournament-{self.tid}", "data": {
                "team_id": team, "name": f"{team}队", "players": players if team_event else players[:2],
                **({"leader": f"{team}领队"} if team_event else {})}}))
        if team_event:
            ok(self.api.post(f"{self.base}/pairings"))
            self.mid = "R1-1a"
        else:
            ok(self.post({"type": "LotsDrawn", "stream": f"tournament-{self.tid}", "data": {
                "purpose": "pairing", "round": 1, "byes": [],
                "matches": [{"match_id": "R1-1", "teams": ["east", "west"]}]}}))
            self.mid = "R1-1"
        ok(self.api.post(f"{self.base}/matches", json={"match_id": self.mid}))
        self.stream = f"match-{self.tid}:{self.mid}"
        self.server = LiveServer(self.app)

    def post(self, event: dict, **headers):
        return self.api.post(f"{self.base}/events", json=event, headers=headers)

    def match(self) -> dict:
        return ok(self.api.get(f"{self.base}/matches/{self.mid}"))

    def rows_logged(self, type_: str = "HandResultRecorded") -> int:
        events = ok(self.api.get(f"{self.base}/events", query_string={"stream": self.stream}))["events"]
        return sum(1 for e in events if e["type"] == type_)

    def log_length(self) -> int:
        return len(ok(self.api.get(f"{self.base}/events?limit=1000"))["events"])

    def open(self, driver) -> None:
        """The sheet, signed in as a referee with a one-time code (the session cookie)."""
        code = issue_sign_in_code(self.app.extensions["paiju"].tokens, "referee", self.tid).code
        path = f"/desk/t/{self.tid}/matches/{self.mid}/sheet"
        driver.get("about:blank")
        driver.get(f"{self.server.url}/desk/signin?next={quote(path)}#code={code}")
        wait_until(driver, lambda d: d.execute_script(
            "return location.pathname === arguments[0] && document.body.dataset.ready", path), "the sheet")
        assert driver.execute_script("return document.body.dataset.ready") == "true"

    def refused_in(self, language: str, data: dict, type_: str = "HandResultRecorded") -> dict:
        """The API's refusal of this row in ``language`` (a refused row stores nothing)."""
        response = self.post({"type": type_, "stream": self.stream, "data": data},
                             **{"Accept-Language": language})
        assert response.status_code in (400, 422), response.json
        return response.json


def wait_for(driver, condition, what: str):
    return wait_until(driver, lambda _: condition(), what)


def entry(driver, field: str):
    return driver.find_element(By.CSS_SELECTOR, f"#entry tr.entry [data-field='{field}'], "
                                                f"#entry tr.entry input[data-pointer='/data/{field}']")


def type_into(driver, field: str, value) -> None:
    box = entry(driver, field)
    box.clear()
    box.send_keys(str(value))


def fill_sj_row(driver, row: dict) -> None:
    """Types a Shengji row into the entry row as a scorer copies it from the paper sheet."""
    if "dealer" in row:
        Select(entry(driver, "dealer")).select_by_value(str(row["dealer"]))
    Select(entry(driver, "trump")).select_by_value(row["trump"])
    for field in ("trick_points", "kitty_points", "multiplier"):
        if field in row:
            type_into(driver, field, row[field])
    for side, points in row.get("penalties", {}).items():
        type_into(driver, f"penalty-{side}", points)
    for side in row.get("follow_errors", ()):
        entry(driver, f"error-{side}").click()


def stored_levels(driver) -> list[dict]:
    return driver.execute_script(
        "return [...document.querySelectorAll('#rows tr.stored [data-col=levels] .levels')]"
        ".map(x => ({A: x.dataset.a, B: x.dataset.b}))")


def levels_now(driver) -> dict:
    return driver.execute_script("const x = document.querySelector('#now .levels');"
                                 "return {A: x.dataset.a, B: x.dataset.b}")


def record(driver) -> None:
    driver.find_element(By.ID, "record").click()


# --- SJ3 -----------------------------------------------------------------------------------------

SJ3_ROWS = [  # hand 1 names its dealer (SJ3-4.1); the rest follow the rotation the page offers
    {"dealer": 0, "trump": "S", "trick_points": 60},
    {"trump": "H", "trick_points": 125, "kitty_points": 10, "multiplier": 2},
    {"trump": "D", "trick_points": 0, "follow_errors": ["B"]},
    {"trump": "C", "trick_points": 40, "penalties": {"A": 20}},
]
ZERO_ROW = {"trump": "S", "trick_points": 0}  # the dealer side +3 (SJ3-10.4): towards passing A


def test_an_sj3_sheet_is_entered_row_by_row_to_the_end_of_the_match(browser, language):
    table = Table("SJ3")
    try:
        table.open(browser)
        # T-6.6: side A's pair was 7 minutes late: 20 points off in the first hand
        late = table.match()["teams"]["A"]
        Select(browser.find_element(By.CSS_SELECTOR, "form[data-action=lateness] select")).select_by_value(late)
        browser.find_element(By.CSS_SELECTOR, "form[data-action=lateness] input").send_keys("7")
        browser.find_element(By.CSS_SELECTOR, "[data-act=lateness]").click()
        wait_for(browser, lambda: table.match()["lateness"], "the lateness recorded")
        assert [(x["side"], x["minutes"], x["points"]) for x in table.match()["lateness"]] == [("A", 7, 20)]
        wait_for(browser, lambda: texts(browser, "#time ul.notes li"), "the lateness shown")

        rows = list(SJ3_ROWS)
        while table.match()["status"] == "playing":
            assert len(rows) < 12 or not rows, "the match should have ended"
            row = rows.pop(0) if rows else ZERO_ROW
            hand = table.match()["next_hand"]
            assert texts(browser, "#entry tr.entry [data-col=hand]") == [str(hand)]
            fill_sj_row(browser, row)
            record(browser)
            wait_for(browser, lambda: table.match()["hands_played"] == hand, f"hand {hand} stored")
            wait_for(browser, lambda: len(stored_levels(browser)) == hand, f"hand {hand} shown")
            match = table.match()
            assert stored_levels(browser)[-1] == match["levels"] == levels_now(browser)
            if match["status"] == "playing":
                dealer = browser.execute_script(
                    "return document.querySelector('#rows tr.stored:last-child [data-col=next_dealer]').textContent")
                player = match["seats"][match["next_dealer"]]["player"]
                assert dealer == (f"seat {match['next_dealer']} · {player}" if language == "en"
                                  else f"{match['next_dealer']}号座位 · {player}")
        rows_read = ok(table.api.get(f"{table.base}/matches/{table.mid}/hands"))["hands"]
        assert stored_levels(browser) == [r["levels"] for r in rows_read]
        match = table.match()
        assert (match["status"], match["reason"]) == ("completed", "target")
        assert not browser.find_elements(By.CSS_SELECTOR, "#entry")
        assert browser.find_elements(By.CSS_SELECTOR, "#now .ended")
        screenshot(browser, f"desk-sheet-sj3-{language}")
    finally:
        table.server.stop()


def test_a_row_breaking_a_rule_is_refused_on_that_row_and_nothing_is_stored(browser, language):
    table = Table("SJ3")
    try:
        table.open(browser)
        before = table.log_length()
        bad = {"hand": 1, "dealer": 0, "trump": "S", "trick_points": 63, "kitty_points": 0, "multiplier": 0}
        fill_sj_row(browser, {**bad, "trick_points": 63})
        record(browser)
        problem = table.refused_in(language, {**bad, "penalties": [], "follow_errors": []})
        assert problem["rule"] == "SJ3-1.5"
        wait_for(browser, lambda: texts(browser, "#entry .form-error") != [""], "the refusal on the row")
        assert texts(browser, "#entry .form-error") == [problem["detail"]]
        assert browser.find_element(By.ID, "sheet").get_attribute("data-rule") == "SJ3-1.5"
        assert table.log_length() == before and table.match()["hands_played"] == 0
        screenshot(browser, f"desk-sheet-refused-{language}")

        # a value that is no number: the schema's word beside its box, nothing stored
        type_into(browser, "trick_points", "sixty")
        record(browser)
        schema = table.refused_in(language, {**bad, "trick_points": "sixty"})
        (fault,) = schema["errors"]
        assert fault["path"] == "/data/trick_points"
        wait_for(browser, lambda: texts(browser, "#entry td[data-col=trick_points] .field-error") != [""],
                 "the field's refusal")
        assert texts(browser, "#entry td[data-col=trick_points] .field-error") == [fault["message"]]
        assert entry(browser, "trick_points").get_attribute("aria-invalid") == "true"
        assert table.log_length() == before

        type_into(browser, "trick_points", "65")
        record(browser)
        wait_for(browser, lambda: table.match()["hands_played"] == 1, "the corrected row stored")
        assert table.log_length() == before + 1
    finally:
        table.server.stop()


@pytest.mark.parametrize("language", ["en"])
def test_a_double_click_stores_one_row(browser, language):
    table = Table("SJ3")
    try:
        table.open(browser)
        fill_sj_row(browser, SJ3_ROWS[0])
        ActionChains(browser).double_click(browser.find_element(By.ID, "record")).perform()
        wait_for(browser, lambda: len(stored_levels(browser)) == 1, "the row shown")
        assert table.rows_logged() == 1
        # the same row sent twice at once (the button made clickable again): one event id, one row
        fill_sj_row(browser, {"trump": "H", "trick_points": 80})
        posts = sum(1 for r in table.server.requests if r["path"].endswith("/events"))
        browser.execute_script("const b = document.getElementById('record'); b.click(); b.disabled = false; b.click();")
        wait_for(browser, lambda: len(stored_levels(browser)) == 2, "the second row shown")
        wait_for(browser, lambda: sum(1 for r in table.server.requests if r["path"].endswith("/events")) == posts + 2,
                 "both posts made")
        assert table.rows_logged() == 2
        assert [r["hand"] for r in ok(table.api.get(f"{table.base}/matches/{table.mid}/hands"))["hands"]] == [1, 2]
    finally:
        table.server.stop()


def late_live_frames(wsgi_app, seconds: float):
    """``wsgi_app`` with each write of a live stream (…/subscribe) sent ``seconds`` late, as on a
    slow hall network: a row's echo then reaches the page after the page has read the row."""
    def app(environ, start_response):
        body = wsgi_app(environ, start_response)
        if not environ.get("PATH_INFO", "").endswith("/subscribe"):
            return body

        def late():
            try:
                for chunk in body:
                    time.sleep(seconds)
                    yield chunk
            finally:
                getattr(body, "close", lambda: None)()
        return late()
    return app


def test_the_rows_own_live_echo_leaves_the_next_row_and_its_focus_alone(browser, language):
    """A row recorded comes back on the page's live stream a moment later: the page has already
    drawn it, so the next row the scorer is typing into is not drawn again under the cursor."""
    table = Table("SJ3")
    table.app.wsgi_app = late_live_frames(table.app.wsgi_app, seconds=0.5)  # after the row's own read
    try:
        table.open(browser)
        echoes = lambda: int(browser.execute_script("return document.body.dataset.redrawn || 0"))  # noqa: E731
        before = echoes()
        fill_sj_row(browser, SJ3_ROWS[0])
        record(browser)
        wait_for(browser, lambda: len(stored_levels(browser)) == 1, "the row shown")
        first_box = browser.find_element(By.CSS_SELECTOR, "#entry tr.entry select, #entry tr.entry input")
        wait_for(browser, lambda: browser.switch_to.active_element == first_box, "the next row's first box focused")
        wait_for(browser, lambda: echoes() > before, "the row's live echo read")
        assert browser.switch_to.active_element == first_box  # neither redrawn nor unfocused
        fill_sj_row(browser, {"trump": "H", "trick_points": 80})
        record(browser)
        wait_for(browser, lambda: len(stored_levels(browser)) == 2, "the second row shown")
        assert table.rows_logged() == 2
    finally:
        table.server.stop()


# --- Guandan -------------------------------------------------------------------------------------

def test_a_guandan_sheet_and_its_time_limit(browser, language):
    table = Table("GD")
    try:
        table.open(browser)
        for hand, order in ((1, [0, 2, 1, 3]), (2, [1, 0, 3, 2])):
            for place, seat in enumerate(order, start=1):
                Select(entry(browser, f"place-{place}")).select_by_value(str(seat))
            record(browser)
            wait_for(browser, lambda: len(stored_levels(browser)) == hand, f"hand {hand} shown")
            assert stored_levels(browser)[-1] == table.match()["levels"] == levels_now(browser)
        assert stored_levels(browser) == [{"A": "5", "B": "2"}, {"A": "5", "B": "4"}]

        # GD-11.2: the 60 minutes have not passed on the server's clock: refused, nothing stored
        before = table.log_length()
        browser.find_element(By.CSS_SELECTOR, "[data-act=time]").click()
        wait_for(browser, lambda: texts(browser, "form[data-action=time] .form-error") != [""], "the refusal")
        early = table.refused_in(language, {"limit_minutes": 60}, "TimeLimitReached")
        assert early["rule"] == "GD-11.2"
        assert texts(browser, "form[data-action=time] .form-error") == [early["detail"]]
        assert table.log_length() == before

        table.clock.advance(minutes=61)
        browser.find_element(By.CSS_SELECTOR, "[data-act=time]").click()
        wait_for(browser, lambda: table.match()["time_limit_reached"] == 60, "the limit recorded")
        match = table.match()
        assert (match["status"], match["winner"], match["reason"]) == ("completed", "A", "time")
        wait_for(browser, lambda: browser.find_elements(By.CSS_SELECTOR, "#time .time-called[data-minute='60']"),
                 "the time called shown")
        assert not browser.find_elements(By.CSS_SELECTOR, "#entry")
        screenshot(browser, f"desk-sheet-gd-{language}")
    finally:
        table.server.stop()
