"""Signing in at the desk in a real Chromium, in 中文 and in English: with the link an organiser
was given (the code in its fragment), with a code typed in the box (a wrong one refused beside
the box), the desk's home showing who is signed in, a sign-in code issued from its form, and
sign-out ending the session (the desk sends the browser back to sign in)."""
from __future__ import annotations

import re

import pytest
from browser_harness import LiveServer, chromium, open_page, screenshot, wait_until
from clients import admin_client, token_for
from test_pages_languages import english_left

from service import create_app

TID, OTHER = "desk-2006", "other-2006"
WORDS = {
    "zh": {"organiser": "组织者", "referee": "裁判", "title": "编排台",
           "unknown": "登录码 ABCD-EFGH 不存在：请逐个字符核对", "sign in": "登录"},
    "en": {"organiser": "organiser", "referee": "referee", "title": "The desk",
           "unknown": "sign-in code ABCD-EFGH is unknown: check it letter by letter",
           "sign in": "Sign in"},
}
CODE = re.compile(r"^[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}$")


@pytest.fixture(scope="module")
def desk(tmp_path_factory):
    app = create_app({"DATABASE": str(tmp_path_factory.mktemp("desk") / "desk.db"),
                      "SQLITE_SYNCHRONOUS": "NORMAL"})
    admin = admin_client(app)
    for tid, name in ((TID, "校庆杯"), (OTHER, "友谊赛")):
        created = admin.post("/v1/tournaments", json={"tournament_id": tid, "name": name,
                                                      "game": "SJ2", "format": "knockout"})
        assert created.status_code == 201, created.json
    server = LiveServer(app)
    yield app, server
    server.stop()
    app.extensions["paiju"].store.close()


def organiser_link(app, base: str) -> str:
    response = admin_client(app).post(f"/v1/tournaments/{TID}/sign-in-codes",
                                      json={"role": "organiser", "name": "王组织"})
    assert response.status_code == 201, response.json
    return response.json["link"].replace("http://localhost", base)


def js(driver, script: str, *args):
    return driver.execute_script(script, *args)


def at_desk_home(driver) -> None:
    wait_until(driver, lambda d: d.current_url.split("?")[0].endswith("/desk/")
               and js(d, "return document.body.dataset.page") == "desk-home"
               and js(d, "return document.body.dataset.ready") == "true", "the desk's home")


def at_sign_in(driver) -> None:
    wait_until(driver, lambda d: "/desk/signin" in d.current_url
               and js(d, "return document.body.dataset.ready") == "true", "the sign-in page")


def field(driver, name: str) -> str:
    return js(driver, "return document.querySelector(`#who [data-field='${arguments[0]}']`)"
                      ".textContent.trim()", name)


@pytest.mark.parametrize("language", ["zh", "en"])
def test_sign_in_with_a_link_and_a_typed_code_then_sign_out(desk, language):
    app, server = desk
    words = WORDS[language]
    driver = chromium("zh-CN" if language == "zh" else "en-US")
    try:
        driver.get(f"{server.url}/desk/")  # not signed in: sent to sign in, to come back here
        at_sign_in(driver)
        assert driver.current_url == f"{server.url}/desk/signin?next=%2Fdesk%2F"
        screenshot(driver, f"desk-signin-{language}")

        driver.get(organiser_link(app, server.url))  # the link an organiser was sent
        at_desk_home(driver)
        assert "code=" not in driver.current_url
        assert js(driver, "return document.cookie").find("paiju_session") < 0  # HttpOnly
        assert field(driver, "role") == words["organiser"]
        assert (field(driver, "actor"), field(driver, "tournament")) == ("王组织", TID)
        assert js(driver, "return document.getElementById('title').textContent") == words["title"]
        if language == "zh":
            shown = js(driver, "return document.body.innerText")
            assert not english_left(shown), english_left(shown)[:8]
        links = js(driver, "return [...document.querySelectorAll('#links a')].map(a => a.getAttribute('href'))")
        assert {"/desk/new", f"/desk/t/{TID}/entrants", f"/desk/t/{TID}/rounds",
                f"/desk/t/{TID}/print/pairings", f"/desk/t/{TID}/print/bulletin",
                f"/pages/tournaments/{TID}", f"/pages/tournaments/{TID}/bracket"} <= set(links)

        # a referee's code from the desk's form
        driver.find_element("css selector", "#code-role option[value='referee']").click()
        driver.find_element("id", "code-name").send_keys("李裁判")
        driver.find_element("id", "code-issue").click()
        wait_until(driver, lambda d: js(d, "return document.querySelector('#issued .issued-code')"),
                   "the code issued")
        code = js(driver, "return document.querySelector('#issued [data-field=code]').textContent")
        link = js(driver, "return document.querySelector('#issued [data-field=link]').textContent")
        assert CODE.match(code) and link == f"{server.url}/desk/signin#code={code}"
        assert "李裁判" in js(driver, "return document.querySelector('#issued .issued-who').textContent")
        screenshot(driver, f"desk-home-{language}")

        driver.find_element("id", "desk-sign-out").click()
        at_sign_in(driver)

        box = driver.find_element("id", "code")
        box.send_keys("abcd efgh")  # no such code: refused beside the box
        driver.find_element("id", "sign-in-button").click()
        wait_until(driver, lambda d: js(d, "return document.querySelector('#sign-in .field-error').textContent"),
                   "the refusal")
        assert js(driver, "return document.querySelector('#sign-in .field-error').textContent") == words["unknown"]
        assert box.get_attribute("aria-invalid") == "true"
        screenshot(driver, f"desk-signin-refused-{language}")

        box.clear()
        box.send_keys(code.lower().replace("-", " "))  # as it may be typed
        driver.find_element("id", "sign-in-button").click()
        at_desk_home(driver)
        assert field(driver, "role") == words["referee"]
        assert js(driver, "return document.getElementById('codes').hidden") is True  # no codes
        # another tournament's public page, read as the public by this session's browser
        open_page(driver, f"{server.url}/pages/tournaments/{OTHER}/standings")
        driver.get(f"{server.url}/desk/")
        at_desk_home(driver)

        driver.find_element("id", "desk-sign-out").click()
        at_sign_in(driver)
        driver.get(f"{server.url}/desk/")  # the session has ended
        at_sign_in(driver)
        assert js(driver, "return document.getElementById('sign-in-button').textContent") == words["sign in"]
    finally:
        driver.quit()


def test_a_desk_page_opened_with_a_token_in_its_fragment_opens_a_session(desk):
    """An app's or a test's way in (``#token=``): the desk's gate cannot see the fragment, so
    the sign-in page it sends the browser to opens a session with that token, and goes on."""
    app, server = desk
    secret = token_for(app, "referee", TID, name="赵裁判")
    driver = chromium("en-US")
    try:
        driver.get(f"{server.url}/desk/?lang=en#token={secret}")
        at_desk_home(driver)
        assert (field(driver, "role"), field(driver, "actor")) == ("referee", "赵裁判")
        assert "token=" not in driver.current_url
        assert all(secret not in (r["query"] or "") for r in server.requests)
    finally:
        driver.quit()
