"""The committee and the referees at work on the disputes and replay pages (issue 34, item 7),
in a real headless Chromium: a follow error at an SJ2 table (record enforcement, SJ2-9.2) is
disputed from the replay at the event itself, the committee previews a ruling from the dispute
list — what it would change shown as the API's preview says, nothing stored — records it with
a double click that stores it once, and resolves the dispute with it. Each form is shown only
to a role that may use it (the public none, a referee or a captain the dispute, the committee
all), and each refusal of the API lands on the field it names, or in the form's box when it
names a rule, in Chinese and in English, nothing stored."""
from __future__ import annotations

import pytest
from browser_harness import LiveServer, chromium, open_page, screenshot, texts, wait_until
from clients import admin_client, token_for
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select
from sj2_table import Table
from tables import Clock, ok

from events.memory_store import InMemoryEventStore
from service import create_app

MID = "R1-1"


@pytest.fixture(scope="module")
def desk():
    """Hand 1 of an SJ2 match (record mode): seat 0 leads AH and seat 1, holding 4H, plays 6C
    — the follow error the dispute is about."""
    app = create_app(store=InMemoryEventStore(clock=Clock()))
    admin = admin_client(app)
    table = Table(admin, {"enforcement": "record"})
    table.to_play({0: "2S AH BJ BJ KH", 1: "4H 6C"}, card="2S", no={1: "H"})
    table.ok("CardsPlayed", seat=0, cards=["AH"])
    played = table.ok("CardsPlayed", seat=1, cards=["6C"])["position"]
    server = LiveServer(app)
    yield {"app": app, "admin": admin, "table": table, "position": played, "server": server,
           "tid": table.tid}
    server.stop()


@pytest.fixture(params=["zh-CN", "en-US"], ids=["zh", "en"])
def language(request):
    return request.param


def api_language(language: str) -> str:
    return language.split("-")[0]


def log(desk) -> list[dict]:
    return ok(desk["admin"].get(f"/v1/tournaments/{desk['tid']}/events?limit=1000"))["events"]


def replay_url(desk, secret: str | None = None) -> str:
    fragment = f"#pos={desk['position']}" + (f"&token={secret}" if secret else "")
    return (f"{desk['server'].url}/pages/tournaments/{desk['tid']}/matches/{MID}/hands/1/replay"
            + fragment)


def disputes_url(desk, secret: str | None = None) -> str:
    return (f"{desk['server'].url}/pages/tournaments/{desk['tid']}/disputes"
            + (f"#token={secret}" if secret else ""))


def fill_in(driver, form, name: str, text: str) -> None:
    field = form.find_element(By.CSS_SELECTOR, f"[name='{name}']")
    field.clear()
    field.send_keys(text)


def field_error(form, name: str) -> tuple[str | None, str]:
    """The aria-invalid of the field and the words beside it."""
    field = form.find_element(By.CSS_SELECTOR, f"[name='{name}']")
    box = form.find_element(By.CSS_SELECTOR, f"#{field.get_attribute('id')} ~ .field-error")
    return field.get_attribute("aria-invalid"), box.text


def refused_as_the_api_says(desk, language: str, path: str, body: dict) -> dict:
    """What the API itself answers to ``body`` in the page's language: the words the page
    must show."""
    response = desk["admin"].post(path, json=body,
                                  headers={"Accept-Language": api_language(language)})
    assert response.status_code in (400, 422), response.json
    return response.json


def wait_for_text(driver, css: str, what: str) -> str:
    return wait_until(driver, lambda d: " ".join(t for t in texts(d, css) if t), what)


# --- who sees which form ------------------------------------------------------------------------------

def test_the_public_and_the_roles_see_only_the_forms_they_may_use(desk):
    app, tid = desk["app"], desk["tid"]
    driver = chromium("en-US")
    try:
        open_page(driver, disputes_url(desk))  # the public (the hand in play is not its)
        assert driver.find_elements(By.CSS_SELECTOR, "main form") == []
        assert driver.find_element(By.ID, "raise").text == ""
        for role, wanted in (("referee", ["raise"]), ("player", ["raise"]),
                             ("committee", ["raise", "rule"]), ("auditor", [])):
            secret = token_for(app, role, tid, MID if role == "player" else None,
                               1 if role == "player" else None)
            driver.delete_all_cookies()
            driver.get("about:blank")
            open_page(driver, replay_url(desk, secret))
            shown = driver.execute_script(
                "return [...document.querySelectorAll('#committee-actions button')]"
                ".map(b => b.dataset.act)")
            assert shown == wanted, role
            driver.execute_script("sessionStorage.clear()")
    finally:
        driver.quit()


# --- raise a dispute at the event, from the replay -------------------------------------------------------

def test_a_referee_raises_a_dispute_at_the_event_and_a_refusal_names_its_fields(desk, language):
    tid, position = desk["tid"], desk["position"]
    dispute = "d-" + api_language(language)
    driver = chromium(language)
    try:
        open_page(driver, replay_url(desk, token_for(desk["app"], "referee", tid)))
        driver.find_element(By.CSS_SELECTOR, "#committee-actions [data-act='raise']").click()
        form = driver.find_element(By.CSS_SELECTOR, "form[data-form='raise']")
        prefilled = {name: form.find_element(By.NAME, name).get_attribute("value")
                     for name in ("match_id", "hand", "positions")}
        assert prefilled == {"match_id": MID, "hand": "1", "positions": str(position)}
        before = log(desk)
        fill_in(driver, form, "dispute_id", "d 1")  # a space: not an identifier; no claim
        form.find_element(By.CSS_SELECTOR, "button[type='submit']").click()
        wait_for_text(driver, "form[data-form='raise'] .field-error", "the refusal on its fields")
        expected = refused_as_the_api_says(desk, language, f"/v1/tournaments/{tid}/events", {
            "type": "DisputeRaised", "stream": f"tournament-{tid}", "data": {
                "dispute_id": "d 1", "match_id": MID, "hand": 1, "positions": [position],
                "claim": ""}})
        said = {e["path"]: e["message"] for e in expected["errors"]}
        assert field_error(form, "dispute_id") == ("true", said["/data/dispute_id"])
        assert field_error(form, "claim") == ("true", said["/data/claim"])
        assert field_error(form, "match_id") == (None, "")
        screenshot(driver, f"desk-committee-raise-refused-{language}")
        assert log(desk) == before  # nothing stored
        fill_in(driver, form, "dispute_id", dispute)
        fill_in(driver, form, "claim", "座位1持有红桃4，却垫了草花6")
        form.find_element(By.CSS_SELECTOR, "button[type='submit']").click()
        wait_until(driver, lambda d: any(x["dispute_id"] == dispute for x in ok(
            desk["admin"].get(f"/v1/tournaments/{tid}/disputes"))["disputes"]), "the dispute")
    finally:
        driver.quit()
    raised = next(x for x in ok(desk["admin"].get(f"/v1/tournaments/{tid}/disputes"))["disputes"]
                  if x["dispute_id"] == dispute)
    assert (raised["match_id"], raised["hand"], raised["positions"], raised["status"]) == (
        MID, 1, [position], "open")
    assert raised["raised_by"]["role"] == "referee"


# --- the committee: preview, record (a double click), resolve ---------------------------------------------

def signed_in_as_committee(desk, language: str):
    """Chromium signed in at the desk as the committee with a one-time code: the session
    cookie, its writes sent with the CSRF token."""
    driver = chromium(language)
    code = ok(desk["admin"].post(f"/v1/tournaments/{desk['tid']}/sign-in-codes", json={
        "role": "committee", "name": "钟致鹏"}))["code"]
    driver.get(desk["server"].url + "/pages/")
    status = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch('/v1/sessions', {method: 'POST', credentials: 'same-origin',"
        " headers: {'Content-Type': 'application/json'}, body: JSON.stringify({code: arguments[0]})})"
        ".then(r => done(r.status), e => done(String(e)));", code)
    assert status == 201
    return driver


def ruling_body(desk, text: str) -> dict:
    return {"text": text, "dispute_id": "d-zh", "effects": [{
        "kind": "substitute", "rule": "discretion", "member": "钟致鹏", "dispute_id": "d-zh",
        "position": desk["position"], "data": {"hand": 1, "seat": 1, "cards": ["4H"]}}]}


def test_the_committee_previews_records_once_and_resolves_from_the_dispute_list(desk):
    tid, admin = desk["tid"], desk["admin"]
    stream = f"match-{tid}:{MID}"
    if not any(d["dispute_id"] == "d-zh" for d in ok(admin.get(
            f"/v1/tournaments/{tid}/disputes"))["disputes"]):  # run alone: raised here
        ok(admin.post(f"/v1/tournaments/{tid}/events", json={
            "type": "DisputeRaised", "stream": f"tournament-{tid}", "data": {
                "dispute_id": "d-zh", "match_id": MID, "hand": 1,
                "positions": [desk["position"]], "claim": "座位1持有红桃4，却垫了草花6"}}))
    driver = signed_in_as_committee(desk, "zh-CN")
    try:
        open_page(driver, disputes_url(desk))
        driver.find_element(By.CSS_SELECTOR, "[data-act='rule'][data-dispute='d-zh']").click()
        form = wait_until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "form[data-form='ruling']"),
                          "the ruling form")[0]
        assert Select(form.find_element(By.NAME, "stream")).first_selected_option \
            .get_attribute("value") == stream
        Select(form.find_element(By.NAME, "kind")).select_by_value("substitute")
        fill_in(driver, form, "position", str(desk["position"]))
        fill_in(driver, form, "data", '{"hand": 1, "seat": 1, "cards": ["4H"]}')
        fill_in(driver, form, "member", "钟致鹏")
        before = log(desk)
        form.find_element(By.CSS_SELECTOR, "[data-action='preview']").click()  # no words yet
        wait_for_text(driver, "form[data-form='ruling'] .field-error", "the refusal")
        said = refused_as_the_api_says(desk, "zh-CN", f"/v1/tournaments/{tid}/rulings/preview",
                                       {"stream": stream, "data": ruling_body(desk, "")})
        assert field_error(form, "text") == ("true", said["errors"][0]["message"])
        fill_in(driver, form, "text", "座位1以红桃4跟红桃A：记分员误录为草花6")
        form.find_element(By.CSS_SELECTOR, "[data-action='preview']").click()
        wait_for_text(driver, "form[data-form='ruling'] .preview h4", "the preview")
        preview = ok(admin.post(f"/v1/tournaments/{tid}/rulings/preview", json={
            "stream": stream, "data": ruling_body(desk, "座位1以红桃4跟红桃A：记分员误录为草花6")}))
        shown = driver.execute_script(
            "return [...document.querySelectorAll('.preview .change')].map(c => [c.dataset.projection,"
            " [...c.querySelectorAll('td[data-col=path]')].map(td => td.textContent)])")
        assert shown == [[p["projection"], [c["path"] for c in p["changes"]]]
                         for p in preview["projections"]]
        # seat 1's play becomes 4H, no longer flagged as a follow error
        assert {"/current_trick/plays/1/cards/0", "/current_trick/plays/1/flagged"} <= set(
            dict(shown)["hand"])
        screenshot(driver, "desk-committee-preview-zh")
        assert log(desk) == before  # a preview stores nothing
        record = form.find_element(By.CSS_SELECTOR, "[data-action='record']")
        driver.execute_script("arguments[0].click(); arguments[0].click();", record)
        resolve = wait_until(driver, lambda d: d.find_elements(
            By.CSS_SELECTOR, "form[data-form='resolve']"), "the resolve form")[0]
        recorded = [e for e in log(desk) if e["type"] == "RulingRecorded"]
        assert len(recorded) == 1 and len(log(desk)) == len(before) + 1  # one ruling, once
        assert recorded[0]["meta"]["role"] == "committee" and recorded[0]["stream"] == stream
        assert Select(resolve.find_element(By.NAME, "ruling_event_id")).first_selected_option \
            .get_attribute("value") == recorded[0]["id"]
        fill_in(driver, resolve, "text", "按实际出牌恢复")
        resolve.find_element(By.CSS_SELECTOR, "button[type='submit']").click()
        wait_until(driver, lambda d: "已裁决" in (resolve.find_element(By.CSS_SELECTOR, ".form-done").text),
                   "resolved")
    finally:
        driver.quit()
    dispute = next(d for d in ok(admin.get(f"/v1/tournaments/{tid}/disputes"))["disputes"]
                   if d["dispute_id"] == "d-zh")
    assert (dispute["status"], dispute["resolution"]["ruling_event_id"]) == (
        "resolved", recorded[0]["id"])
    play = ok(admin.get(f"/v1/tournaments/{tid}/matches/{MID}/hands/1"))["current_trick"]["plays"][1]
    assert (play["cards"], play.get("flagged")) == (["4H"], None)  # the ruling holds


def test_a_rule_s_refusal_is_shown_in_the_form_in_the_reader_s_language(desk, language):
    tid = desk["tid"]
    driver = chromium(language)
    try:
        open_page(driver, replay_url(desk, token_for(desk["app"], "committee", tid)))
        driver.find_element(By.CSS_SELECTOR, "#committee-actions [data-act='rule']").click()
        form = driver.find_element(By.CSS_SELECTOR, "form[data-form='ruling']")
        fill_in(driver, form, "text", "void")
        fill_in(driver, form, "member", "钟致鹏")
        fill_in(driver, form, "positions", "9999")
        before = log(desk)
        form.find_element(By.CSS_SELECTOR, "[data-action='preview']").click()
        shown = wait_for_text(driver, "form[data-form='ruling'] .form-error", "the rule's refusal")
        said = refused_as_the_api_says(desk, language, f"/v1/tournaments/{tid}/rulings/preview", {
            "stream": f"match-{tid}:{MID}", "data": {"text": "void", "effects": [{
                "kind": "void", "rule": "discretion", "member": "钟致鹏", "positions": [9999]}]}})
        assert said["rule"] == "T-1.5" and shown == said["detail"]
        form.find_element(By.CSS_SELECTOR, "[data-action='record']").click()
        wait_until(driver, lambda d: form.find_element(By.CSS_SELECTOR, ".form-error").text,
                   "the refusal of the ruling")
        assert log(desk) == before
        screenshot(driver, f"desk-committee-rule-refused-{language}")
    finally:
        driver.quit()
