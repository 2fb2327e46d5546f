"""The desk's setup pages in a real headless Chromium, in Chinese and English: a new tournament
from the form (an SJ3 team event, a Guandan knockout), every setting with its default and its
rules, and the server's refusal shown beside the field it names; the entrants of a tournament
from a CSV file (a bad row: its row and column shown, nothing stored), one entrant registered
and corrected, and the check-in list (TeamCheckedIn, T-2.6) tapped team by team. What the pages
did is compared with what the API stored, and each refusal with the API's own words in the
page's language; a double click posts once. Screenshots go to test-artifacts/."""
from __future__ import annotations

from urllib.parse import urlencode

import pytest
from browser_harness import LiveServer, screenshot, texts, wait_until
from clients import admin_client, token_for
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select
from tables import ok

from events.memory_store import InMemoryEventStore
from service import create_app
from service.settings_tables import tournament_tables



class Desk:
    """An app served on a live port, an admin client of its API, and the requests it got."""

    def __init__(self, language: str):
        self.language = language
        self.app = create_app(store=InMemoryEventStore())
        self.api = admin_client(self.app)
        self.server = LiveServer(self.app)

    def said(self, method: str, path: str, **kwargs) -> dict:
        """The API's answer to a request in the page's language (what the page must show)."""
        response = getattr(self.api, method)(path, headers={"Accept-Language": self.language},
                                             **kwargs)
        return response.get_json()

    def tournaments(self) -> list[dict]:
        return ok(self.api.get("/v1/tournaments"))["tournaments"]

    def tournament(self, tid: str) -> dict:
        return ok(self.api.get(f"/v1/tournaments/{tid}"))

    def log(self, tid: str) -> list[dict]:
        return ok(self.api.get(f"/v1/tournaments/{tid}/events?limit=1000"))["events"]

    def posts_to(self, path: str) -> int:
        """How many requests the server got at ``path`` (the pages read other paths)."""
        return sum(1 for r in self.server.requests if r["path"] == path)

    def create(self, tid: str, game: str, format_: str, settings: dict,
               teams: list[tuple[str, list[str]]] = ()) -> None:
        ok(self.api.post("/v1/tournaments", json={"tournament_id": tid, "name": "春季赛",
                                                  "game": game, "format": format_,
                                                  "settings": settings}))
        for team_id, players in teams:
            ok(self.api.post(f"/v1/tournaments/{tid}/events", json={
                "type": "TeamRegistered", "stream": f"tournament-{tid}",
                "data": {"team_id": team_id, "name": f"{team_id}队", "players": players}}))

    def open(self, driver, path: str, role: str = "admin", tid: str | None = None) -> None:
        """Opens the desk page ``path`` signed in as ``role``: the sign-in page opens the
        browser's session with the tab's token, then goes on to the page."""
        driver.get("about:blank")
        driver.get(f"{self.server.url}/desk/signin?{urlencode({'next': path})}"
                   f"#token={token_for(self.app, role, tid)}")
        wait_until(driver, lambda d: d.execute_script(
            "return location.pathname === arguments[0] && document.body.dataset.ready", path),
            f"{path} to be drawn")
        assert driver.execute_script("return document.body.dataset.ready") == "true", \
            texts(driver, "#status")

    def stop(self) -> None:
        self.server.stop()


@pytest.fixture
def desk(language):
    made = Desk(language)
    yield made
    made.stop()


def css(driver, selector: str):
    return driver.find_element(By.CSS_SELECTOR, selector)


def setting(driver, pointer: str):
    return css(driver, f'[data-pointer="{pointer}"]')


def type_into(element, text: str) -> None:
    element.clear()
    element.send_keys(text)


def field_error(driver, pointer: str) -> str:
    """The words beside the field of ``pointer`` (its .field-error), once it is marked invalid."""
    wait_until(driver, lambda d: setting(d, pointer).get_attribute("aria-invalid") == "true",
               f"{pointer} marked invalid")
    return driver.execute_script(
        "const f = document.querySelector(`[data-pointer=\"${arguments[0]}\"]`);"
        "let n = f.nextElementSibling; while (n && !n.classList.contains('field-error'))"
        " n = n.nextElementSibling; return n.textContent", pointer)


def double_click(driver, element) -> None:
    """Two clicks in a row, the second before anything the first asked for has come back."""
    driver.execute_script("arguments[0].click(); arguments[0].click();", element)


def choose(driver, game: str, format_: str) -> None:
    Select(css(driver, "#f-game")).select_by_value(game)
    Select(css(driver, "#f-format")).select_by_value(format_)


def created_id(driver) -> str:
    wait_until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#created [data-created]"),
               "the tournament created")
    return css(driver, "#created [data-created]").get_attribute("data-created")


def rows_shown(driver, box: str) -> list[dict]:
    """Each setting the form shows in ``box``: its key, default and rule IDs as drawn."""
    return driver.execute_script(
        "return [...document.querySelectorAll(arguments[0] + ' .setting')].map(r => ({"
        "key: r.dataset.setting,"
        "default: JSON.parse(r.querySelector('[data-pointer]').dataset.default),"
        "rules: r.querySelector('.rules').dataset.rules.split(' ').filter(Boolean),"
        "about: r.querySelector('.about').textContent}))", box)


# --- a new tournament ----------------------------------------------------------------------------

def test_an_sj3_team_event_is_created_through_the_form(browser, language, desk):
    desk.open(browser, "/desk/new")
    choose(browser, "SJ3", "swiss-teams")
    formats = [o.get_attribute("value") for o in Select(css(browser, "#f-format")).options]
    assert formats == ["knockout", "swiss-teams"]
    # every setting of the team event with its default and its rule, as the rules' table says
    table = tournament_tables()["swiss-teams"]
    shown = rows_shown(browser, "#format-rows")
    assert [(r["key"], r["default"], r["rules"]) for r in shown] == [
        (s.key, s.default, list(s.rules)) for s in table.settings if s.kind != "match"]
    rounds = next(r for r in shown if r["key"] == "rounds")
    assert rounds["about"] == ("default: 4 · T-6.1 The team event" if language == "en"
                               else "默认：4 · T-6.1 积分编排团体赛")
    match_keys = [r["key"] for r in rows_shown(browser, "#match-rows")]
    assert "matchPoints" not in match_keys and "recording" in match_keys  # T-6.5: 2 / 1 / 0

    type_into(css(browser, "#f-name"), "校庆杯团体赛")
    type_into(css(browser, "#f-venue"), "教职工之家")
    type_into(setting(browser, "/settings/rounds"), "3")
    Select(setting(browser, "/settings/match/recording")).select_by_value("sheet")
    css(browser, "#create").click()
    tid = created_id(browser)
    t = desk.tournament(tid)
    assert (t["name"], t["game"], t["format"], t["venue"]) == ("校庆杯团体赛", "SJ3", "swiss-teams",
                                                               "教职工之家")
    assert t["settings"] == {"rounds": 3, "match": {"recording": "sheet"}}  # the rest: defaults
    links = browser.execute_script("return [...document.querySelectorAll('#created a')]"
                                   ".map(a => new URL(a.href).pathname)")
    assert f"/desk/t/{tid}/entrants" in links
    screenshot(browser, f"desk-new-team-event-{language}")


def test_a_guandan_knockout_is_created_by_one_double_click(browser, language, desk):
    desk.open(browser, "/desk/new")
    choose(browser, "GD", "knockout")
    formats = [o.get_attribute("value") for o in Select(css(browser, "#f-format")).options]
    assert formats == ["knockout"]
    type_into(css(browser, "#f-name"), "华商杯掼蛋邀请赛")
    type_into(css(browser, "#f-id"), "gd-cup")
    Select(setting(browser, "/settings/checkIn")).select_by_value("leaveOut")
    Select(setting(browser, "/settings/thirdPlace")).select_by_value("shared")
    type_into(setting(browser, "/settings/match/matchMinutes"), "45")
    setting(browser, "/settings/match/jiefeng").click()  # default true: now false
    double_click(browser, css(browser, "#create"))
    assert created_id(browser) == "gd-cup"
    t = desk.tournament("gd-cup")
    assert (t["name"], t["game"], t["format"]) == ("华商杯掼蛋邀请赛", "GD", "knockout")
    assert t["settings"] == {"checkIn": "leaveOut", "thirdPlace": "shared",
                             "match": {"matchMinutes": 45, "jiefeng": False}}
    assert desk.posts_to("/v1/tournaments") == 1
    assert texts(browser, "#new-tournament .form-error") == [""]


def test_a_refused_setting_is_shown_beside_its_field(browser, language, desk):
    desk.open(browser, "/desk/new")
    choose(browser, "SJ3", "swiss-teams")
    type_into(css(browser, "#f-name"), "校庆杯")
    type_into(setting(browser, "/settings/rounds"), "50")
    css(browser, "#create").click()
    refusal = desk.said("post", "/v1/tournaments", json={
        "name": "校庆杯", "game": "SJ3", "format": "swiss-teams", "settings": {"rounds": 50}})
    assert refusal["status"] == 422 and refusal["rule"] == "T-6.1"
    assert field_error(browser, "/settings/rounds") == refusal["detail"]
    assert ("积分编排" in refusal["detail"]) == (language == "zh")

    # a match setting that another one bounds: beside the setting the rule names first
    type_into(setting(browser, "/settings/rounds"), "4")
    type_into(setting(browser, "/settings/match/alertAtMinute"), "95")
    css(browser, "#create").click()
    refusal = desk.said("post", "/v1/tournaments", json={
        "name": "校庆杯", "game": "SJ3", "format": "swiss-teams",
        "settings": {"match": {"alertAtMinute": 95}}})
    assert field_error(browser, "/settings/match/alertAtMinute") == refusal["detail"]
    assert setting(browser, "/settings/rounds").get_attribute("aria-invalid") is None

    # a field of the body's schema: the pointer the API names
    type_into(setting(browser, "/settings/match/alertAtMinute"), "80")
    css(browser, "#f-name").clear()
    css(browser, "#create").click()
    refusal = desk.said("post", "/v1/tournaments", json={"name": "", "game": "SJ3",
                                                           "format": "swiss-teams"})
    (error,) = refusal["errors"]
    assert error["path"] == "/name"
    assert field_error(browser, "/name") == error["message"]
    assert desk.tournaments() == []
    screenshot(browser, f"desk-new-refused-{language}")


# --- entrants ------------------------------------------------------------------------------------

BAD_CSV = ("team_id,name,player1,player2\n"
           "t1,一队,王伟,李雷\n"
           "t2,,韩梅梅,张三\n"
           "t3,三队,李四\n"
           "t4,四队,王伟,赵六\n")
GOOD_CSV = ("team_id,name,player1,player2,organisation\n"
            "t1,一队,王伟,李雷,北京同乡会\n"
            "t2,二队,韩梅梅,张三,\n")


def upload(driver, tmp_path, text: str) -> None:
    path = tmp_path / "entrants.csv"
    path.write_text(text, encoding="utf-8")
    css(driver, "#csv-file").send_keys(str(path))
    css(driver, "#csv-upload").click()


def test_a_csv_file_with_bad_rows_shows_each_row_and_column_and_stores_nothing(
        browser, language, desk, tmp_path):
    desk.create("gd-ko", "GD", "knockout", {})
    desk.open(browser, "/desk/t/gd-ko/entrants", "organiser", "gd-ko")
    before = len(desk.log("gd-ko"))
    upload(browser, tmp_path, BAD_CSV)
    refusal = desk.said("post", "/v1/tournaments/gd-ko/entrants", data=BAD_CSV.encode(),
                        content_type="text/csv; charset=utf-8")
    assert refusal["status"] == 400 and len(refusal["errors"]) >= 3
    wait_until(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "table.faults tbody tr"),
               "the faults shown")
    shown = browser.execute_script(
        "return [...document.querySelectorAll('table.faults tbody tr')].map(r =>"
        " [...r.cells].map(c => c.textContent))")
    assert shown == [[str(e["row"]), e["column"] or "—", e["message"], e.get("rule") or "—"]
                     for e in refusal["errors"]]
    assert [(e["row"], e["column"]) for e in refusal["errors"]] == [
        (3, "name"), (4, "player1"), (5, "player1")]
    assert texts(browser, "#csv-form .form-error") == [refusal["detail"]]
    assert len(desk.log("gd-ko")) == before and desk.tournament("gd-ko")["teams"] == []
    screenshot(browser, f"desk-entrants-csv-refused-{language}")

    upload(browser, tmp_path, GOOD_CSV)
    wait_until(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#teams tbody tr")) == 2,
               "the entrants listed")
    assert [t["team_id"] for t in desk.tournament("gd-ko")["teams"]] == ["t1", "t2"]
    assert texts(browser, "#csv-result") == ["2 entrants registered." if language == "en"
                                             else "已登记 2 支参赛队。"]
    assert texts(browser, "table.faults") == []


def test_check_in_taps_store_once_and_the_list_follows(browser, language, desk):
    teams = [(f"t{k}", [f"p{k}a", f"p{k}b"]) for k in range(1, 5)]
    desk.create("gd-ko", "GD", "knockout", {"checkIn": "leaveOut"}, teams)
    desk.open(browser, "/desk/t/gd-ko/entrants", "organiser", "gd-ko")
    count = lambda: browser.execute_script(  # noqa: E731  (the list is redrawn as it is read)
        "const c = document.querySelector('#check-in .count'); return c && c.dataset.checked")
    assert count() == "0"
    css(browser, "#check-in li[data-team=t1] button[data-act=check-in]").click()
    wait_until(browser, lambda d: count() == "1", "t1 checked in")
    ActionChains(browser).double_click(
        css(browser, "#check-in li[data-team=t3] button[data-act=check-in]")).perform()
    wait_until(browser, lambda d: count() == "2", "t3 checked in")
    checked = [e["data"]["team_id"] for e in desk.log("gd-ko") if e["type"] == "TeamCheckedIn"]
    assert checked == ["t1", "t3"]
    assert desk.posts_to("/v1/tournaments/gd-ko/events") == 2  # one per tap, the double one too
    assert [t["checked_in"] for t in desk.tournament("gd-ko")["teams"]] == [True, False, True,
                                                                           False]
    assert texts(browser, "#check-in .count") == ["2 of 4 teams checked in" if language == "en"
                                                  else "已签到 2 / 4 队"]
    assert texts(browser, "#check-in .form-error") == [""]
    assert browser.find_elements(By.CSS_SELECTOR, "#check-in li[data-team=t1] button") == []
    screenshot(browser, f"desk-check-in-{language}")


def test_check_in_is_refused_where_the_format_has_none(browser, language, desk):
    desk.create("gd-open", "GD", "knockout", {}, [("t1", ["a", "b"])])
    desk.open(browser, "/desk/t/gd-open/entrants", "organiser", "gd-open")
    assert browser.find_elements(By.CSS_SELECTOR, "#check-in button") == []
    assert "T-2.6" in texts(browser, "#check-in")[0]


def test_one_entrant_is_registered_then_corrected(browser, language, desk):
    desk.create("gd-ko", "GD", "knockout", {})
    desk.open(browser, "/desk/t/gd-ko/entrants", "organiser", "gd-ko")
    # a refusal of the schema, beside the field it names
    type_into(css(browser, "[data-field=team_id]"), "t1")
    type_into(css(browser, "[data-field='players/0']"), "王伟")
    type_into(css(browser, "[data-field='players/1']"), "李雷")
    css(browser, "#entrant-save").click()
    refusal = desk.said("post", "/v1/tournaments/gd-ko/events", json={"events": [{
        "type": "TeamRegistered", "stream": "tournament-gd-ko",
        "data": {"team_id": "t1", "players": ["王伟", "李雷"]}}]})
    (error,) = refusal["errors"]
    assert error["path"] == "/events/0/data/name"
    assert field_error(browser, "/events/0/data/name") == error["message"]

    type_into(css(browser, "[data-field=name]"), "一队")
    posted = desk.posts_to("/v1/tournaments/gd-ko/events")
    double_click(browser, css(browser, "#entrant-save"))
    wait_until(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#teams tr[data-team=t1]"),
               "t1 listed")
    assert desk.posts_to("/v1/tournaments/gd-ko/events") == posted + 1
    assert [(t["team_id"], t["name"], t["players"]) for t in desk.tournament("gd-ko")["teams"]] == [
        ("t1", "一队", ["王伟", "李雷"])]
    assert texts(browser, "#entrant-form .form-error") == [""]

    # corrected: withdrawn and registered again under a new id, in one batch
    css(browser, "#teams tr[data-team=t1] button[data-act=correct]").click()
    assert css(browser, "[data-field=team_id]").get_attribute("value") == "t1-2"
    type_into(css(browser, "[data-field='players/1']"), "李磊")
    css(browser, "#entrant-save").click()
    wait_until(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#teams tr[data-team=t1-2]"),
               "the corrected entrant listed")
    teams = desk.tournament("gd-ko")["teams"]
    assert [(t["team_id"], t["players"], t["withdrawn"]) for t in teams] == [
        ("t1", ["王伟", "李雷"], True), ("t1-2", ["王伟", "李磊"], False)]
    batches = [e for e in desk.log("gd-ko") if e["type"] in ("TeamWithdrawn", "TeamRegistered")]
    assert [e["type"] for e in batches] == ["TeamRegistered", "TeamWithdrawn", "TeamRegistered"]
    screenshot(browser, f"desk-entrants-{language}")

