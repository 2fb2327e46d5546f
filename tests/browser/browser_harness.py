"""What the browser tests share: the app served on a real localhost port (werkzeug, in a thread)
over a temporary SQLite database, a headless Debian Chromium driven by chromedriver (Selenium),
waiting for a page to be drawn, and screenshots under test-artifacts/ at the repository root.

Chromium runs with the flags this machine needs (no sandbox as root, no GPU, and no background
networking: the machine's network is closed) and a fresh profile each time. In CI (CI=true) a
missing browser is a failure, never a skip: .ci/run installs it."""
from __future__ import annotations

import os
import shutil
import tempfile
import threading
from pathlib import Path
from urllib.parse import unquote

import pytest
from werkzeug.serving import make_server

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
WAIT_SECONDS = 15  # the longest any page may take to draw; each test takes a few seconds
CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--window-size=1400,1300")


class LiveServer:
    """``app`` on 127.0.0.1 at a free port, served by werkzeug's threaded server in a daemon
    thread; every request's path and query string is kept (``requests``), to check that no
    token ever travels in a URL."""

    def __init__(self, app):
        self.requests: list[dict] = []
        self._lock = threading.Lock()
        self._server = make_server("127.0.0.1", 0, self._recording(app), threaded=True)
        self.port = self._server.server_port
        self.url = f"http://127.0.0.1:{self.port}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def _recording(self, app):
        def wsgi(environ, start_response):
            with self._lock:
                self.requests.append({
                    "path": unquote(environ.get("PATH_INFO", "")),
                    "query": unquote(environ.get("QUERY_STRING", "")),
                    "authorization": environ.get("HTTP_AUTHORIZATION"),
                    "referer": environ.get("HTTP_REFERER")})
            return app(environ, start_response)
        return wsgi

    def stop(self) -> None:
        self._server.shutdown()
        self._thread.join(timeout=10)
        self._server.server_close()


def chromium(language: str = "en-US"):
    """A headless Chromium under chromedriver, with a new empty profile (removed by ``quit``),
    whose reader prefers ``language`` (its Accept-Language): English unless a test says."""
    if not (os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER)):
        message = f"{CHROMIUM} and {CHROMEDRIVER} are needed (apt-get install chromium chromium-driver)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)  # CI installs them (.ci/run): never skip there
        pytest.skip(message)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="paiju-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in CHROMIUM_FLAGS + (f"--user-data-dir={profile}", f"--lang={language}"):
        options.add_argument(flag)
    options.add_experimental_option("prefs", {"intl.accept_languages": language})
    driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
    driver.set_page_load_timeout(WAIT_SECONDS)
    driver.set_script_timeout(WAIT_SECONDS)
    quit_driver = driver.quit

    def quit_and_clean():
        try:
            quit_driver()
        finally:
            shutil.rmtree(profile, ignore_errors=True)
    driver.quit = quit_and_clean
    return driver


def wait_until(driver, condition, what: str):
    """Waits (at most WAIT_SECONDS) for ``condition(driver)`` to be truthy; returns it."""
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.support.ui import WebDriverWait

    try:
        return WebDriverWait(driver, WAIT_SECONDS, poll_frequency=0.05).until(condition)
    except TimeoutException:
        status = driver.execute_script(
            "const s = document.getElementById('status'); return s ? s.textContent : null")
        raise AssertionError(f"timed out waiting for {what}; the page says: {status!r}") from None


def open_page(driver, url: str) -> None:
    """Opens ``url`` and waits until the page has drawn what it read (body[data-ready]); a page
    that failed (data-ready="error") fails the test with its status line."""
    driver.get("about:blank")  # a fresh document: data-ready of the last page is gone
    driver.get(url)
    ready = wait_until(driver, lambda d: d.execute_script("return document.body.dataset.ready"),
                       f"{url} to be drawn")
    if ready != "true":
        status = driver.execute_script("return document.getElementById('status').textContent")
        raise AssertionError(f"{url} failed: {status}")


def on_the_page_as_drawn(driver, move, what: str):
    """``move`` done on the page as it is now drawn: a page redrawn under the hand (another
    desk's event arriving, or the live log's echo of our own) replaces its elements, and the
    move is made again on the new ones."""
    from selenium.common.exceptions import StaleElementReferenceException

    for _ in range(5):
        try:
            return move()
        except StaleElementReferenceException:
            wait_until(driver, lambda d: d.execute_script(
                "return document.body.dataset.ready === 'true'"), f"{what}: redrawn")
    raise AssertionError(f"{what}: the page kept being redrawn")


def click(driver, css: str) -> None:
    """Clicks ``css`` once it is on the page and enabled, on the page as drawn at the click."""
    from selenium.webdriver.common.by import By

    wait_until(driver, lambda d: d.execute_script(
        "const e = document.querySelector(arguments[0]); return !!e && !e.disabled", css),
        f"{css} to be clickable")
    on_the_page_as_drawn(driver, lambda: driver.find_element(By.CSS_SELECTOR, css).click(),
                         f"click {css}")


def screenshot(driver, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    driver.save_screenshot(str(path))
    assert path.stat().st_size > 0
    return path


def texts(driver, css: str) -> list[str]:
    return driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map(e => e.textContent.trim())", css)


def codes(driver, css: str, attribute: str = "card") -> list[str]:
    """The card (or tile) codes of the elements under ``css``, in the order shown."""
    return driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map(e => e.dataset[arguments[1]])",
        css, attribute)

