"""A tournament day driven as the desk's volunteers drive it: ``paiju serve`` started as ``make
run`` starts it (``paiju keys init``, then ``paiju serve``: its timer running), a small JSON
client of its API, and the desk's pages as page objects for Chromium under Selenium — sign in
with a one-time code, create a tournament, upload the entrants, check them in, draw or pair a
round and start it, enter a score sheet row by row, raise a dispute and rule on it.

Every page object method acts as a person does (clicks, typing, choosing in a list) and then
waits for what the page shows once the server has answered, never for a time."""
from __future__ import annotations

import http.client
import json
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote, urlsplit

from browser_harness import click, on_the_page_as_drawn, wait_until
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from service.simulator.server_process import free_port, stop, wait_until_ready

# The console script that `pip install` (and so `make run`) puts beside the interpreter.
PAIJU = Path(sys.executable).with_name("paiju")
READY_SECONDS = 60


# --- the server ------------------------------------------------------------------------------------

class Served:
    """A ``paiju serve`` of its own database in ``folder``, started as ``make run`` starts it,
    with an admin bearer token made by ``paiju token create`` (the operator's command).
    :meth:`prepare` runs the commands before the server; :meth:`start` starts it and waits
    for /v1/health, so that two servers may be prepared and started side by side."""

    def __init__(self, folder: Path):
        folder.mkdir(parents=True, exist_ok=True)
        self.folder, self.db = folder, folder / "paiju.db"
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen | None = None
        self.admin_token = ""
        self._commands: list[subprocess.Popen] = []

    def _paiju(self, *args: str, **options) -> subprocess.Popen:
        return subprocess.Popen([str(PAIJU), *args], cwd=self.folder,
                                env={**os.environ, "PYTHONUNBUFFERED": "1"}, **options)

    def prepare(self) -> None:
        assert PAIJU.exists(), f"{PAIJU} is missing: install the package (make test does)"
        self._commands = [
            self._paiju("keys", "init", "--db", str(self.db), stderr=subprocess.DEVNULL),
            self._paiju("token", "create", "--role", "admin", "--name", "运维", "--db",
                        str(self.db), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                        text=True)]

    def start(self) -> None:
        keys, token = self._commands
        assert keys.wait(timeout=READY_SECONDS) == 0
        secret, _ = token.communicate(timeout=READY_SECONDS)
        assert token.returncode == 0 and secret.startswith("pj_"), secret
        self.admin_token = secret.strip()
        with open(self.folder / "serve.log", "wb") as log:  # the child keeps its own descriptor
            self.process = self._paiju("serve", "--host", "127.0.0.1", "--port", str(self.port),
                                       "--db", str(self.db), stdout=log, stderr=subprocess.STDOUT)

    def wait_ready(self) -> None:
        try:
            wait_until_ready(self.process, self.port, READY_SECONDS)
        except RuntimeError:
            raise AssertionError(self.log_tail()) from None

    def log_tail(self) -> str:
        return (self.folder / "serve.log").read_text(errors="replace")[-3000:]

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            stop(self.process)

    def api(self, token: str | None = None, language: str = "zh") -> Api:
        return Api(self.url, token or self.admin_token, language)

    def token(self, role: str, tid: str, name: str) -> str:
        """A bearer token of ``role`` in ``tid`` held by ``name``, as ``paiju token create
        --role … --tournament … --name …`` makes it (the same registry call, in this process:
        the command takes seconds to start)."""
        from service.deployment import open_deployment

        deployment = open_deployment(str(self.db))
        try:
            secret, _ = deployment.tokens.create(role, tid, None, None, name)
        finally:
            deployment.close()
        return secret

    def operator_codes(self, wanted: list[tuple[str, str, str]]) -> dict[tuple[str, str], str]:
        """One-time sign-in codes by ``paiju token sign-in`` (the operator's command, which may
        name a tournament not created yet: an organiser's first sign-in, before the tournament
        it is to create exists), for each (role, tournament, name) of ``wanted``, the commands
        run side by side; the codes by (role, tournament)."""
        running = {(role, tid): self._paiju(
            "token", "sign-in", "--role", role, "--tournament", tid, "--name", name,
            "--base-url", self.url, "--db", str(self.db),
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            for role, tid, name in wanted}
        codes = {}
        for key, command in running.items():
            printed, _ = command.communicate(timeout=READY_SECONDS)
            code, link = printed.split()
            assert command.returncode == 0 and link == f"{self.url}/desk/signin#code={code}"
            codes[key] = code
        return codes


class Api:
    """A JSON client of a served API with a bearer token, answering in ``language``."""

    def __init__(self, url: str, token: str, language: str = "zh"):
        parts = urlsplit(url)
        self.host, self.port = parts.hostname, parts.port
        self.token, self.language = token, language

    def call(self, method: str, path: str, body=None, raw: bytes | None = None,
             content_type: str = "application/json") -> tuple[int, object]:
        headers = {"Authorization": f"Bearer {self.token}", "Accept-Language": self.language}
        payload = raw if raw is not None else (
            json.dumps(body).encode() if body is not None else None)
        if payload is not None:
            headers["Content-Type"] = content_type
        conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
        try:
            conn.request(method, path, body=payload, headers=headers)
            response = conn.getresponse()
            data = response.read().decode()
            kind = response.getheader("Content-Type") or ""
            whole = kind.startswith(("application/json", "application/problem+json"))
            return response.status, json.loads(data) if whole and data else data
        finally:
            conn.close()

    def ok(self, method: str, path: str, body=None, **options):
        status, answer = self.call(method, path, body, **options)
        assert 200 <= status < 300, (method, path, status, answer)
        return answer

    def get(self, path: str):
        return self.ok("GET", path)

    def post(self, path: str, body=None, **options):
        return self.ok("POST", path, body, **options)

    def event(self, tid: str, event_type: str, stream: str, data: dict) -> dict:
        return self.post(f"/v1/tournaments/{tid}/events",
                         {"type": event_type, "stream": stream, "data": data})

    def log(self, tid: str) -> list[dict]:
        events, path = [], f"/v1/tournaments/{tid}/events?limit=1000"
        while path:
            page = self.get(path)
            events += page["events"]
            path = page.get("next")
        return events


# --- the pages -------------------------------------------------------------------------------------

class DeskPage:
    """One Chromium at the desk of ``url``: the page objects' moves."""

    def __init__(self, driver, url: str):
        self.driver, self.url = driver, url

    # --- the basics ---------------------------------------------------------------------------
    def js(self, script: str, *args):
        return self.driver.execute_script(script, *args)

    def wait(self, condition, what: str):
        return wait_until(self.driver, lambda _: condition(), what)

    def wait_js(self, script: str, what: str, *args):
        return self.wait(lambda: self.js(script, *args), what)

    def find(self, css: str):
        return self.driver.find_element(By.CSS_SELECTOR, css)

    def texts(self, css: str) -> list[str]:
        return self.js("return [...document.querySelectorAll(arguments[0])]"
                       ".map(e => e.textContent.trim())", css)

    def present(self, css: str) -> bool:
        return bool(self.js("return !!document.querySelector(arguments[0])", css))

    def _again(self, move, what: str):
        return on_the_page_as_drawn(self.driver, move, what)

    def click(self, css: str) -> None:
        click(self.driver, css)

    def type(self, css: str, text) -> None:
        def move():
            box = self.find(css)
            box.clear()
            box.send_keys(str(text))
        self._again(move, f"type into {css}")

    def choose(self, css: str, value) -> None:
        self._again(lambda: Select(self.find(css)).select_by_value(str(value)), f"choose {css}")

    def at(self, path: str) -> None:
        """Waits until ``path`` is open and has drawn what it read."""
        try:
            self.wait_js("return location.pathname === arguments[0] && document.body.dataset.ready",
                         f"{path} drawn", path)
        except AssertionError as timed_out:
            where = self.js("return [location.href, document.body.dataset.ready]")
            raise AssertionError(f"{timed_out} (at {where})") from None
        ready = self.js("return document.body.dataset.ready")
        assert ready == "true", f"{path}: {self.texts('#status')}"

    def follow(self, link: str, path: str) -> None:
        """Clicks the link ``link`` to ``path`` and waits for the new page — the page it leaves
        may be ``path`` too, already drawn: it is marked, and the wait is for one unmarked."""
        self.js("window.paijuDriverLeft = true")
        self.click(link)
        self.wait_js("return !window.paijuDriverLeft", f"{path} opened")
        self.at(path)

    def go(self, nav: str, path: str) -> None:
        """Follows the desk's navigation link ``nav`` (data-nav) to ``path``."""
        self.follow(f"a[data-nav='{nav}']", path)

    # --- signing in ---------------------------------------------------------------------------
    def sign_in(self, code: str, next_path: str, typed: bool = False) -> None:
        """Signs in with a one-time code, typed in the box as a volunteer reads it out, or
        from the link that holds it (``/desk/signin#code=…``); then on to ``next_path``."""
        self.driver.get("about:blank")
        page = f"{self.url}/desk/signin?next={quote(next_path)}"
        if typed:
            self.driver.get(page)
            self.at("/desk/signin")
            self.type("#code", code)
            self.click("#sign-in-button")
        else:
            self.driver.get(f"{page}#code={code}")
        self.at(next_path)

    def sign_out(self) -> None:
        """The desk's sign-out button: the session ends and the sign-in page opens."""
        self.click("#desk-sign-out")
        self.at("/desk/signin")
        assert self.session() is None

    def session(self) -> dict | None:
        return self.driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "fetch('/v1/session', {credentials: 'same-origin'})"
            ".then(r => r.status === 200 ? r.json() : null).then(done)")

    # --- setup ---------------------------------------------------------------------------------
    def new_tournament(self, tid: str, name: str, game: str, format_: str, venue: str,
                       settings: dict[str, object]) -> None:
        """The form of /desk/new: ``settings`` by the pointer of their field (a flag is
        clicked, a choice chosen, anything else typed)."""
        self.choose("#f-game", game)
        self.choose("#f-format", format_)
        self.type("#f-name", name)
        self.type("#f-venue", venue)
        # an organiser signed in for this tournament finds its id given already
        self.wait(lambda: self.find("#f-id").get_attribute("value") == tid, "the id given")
        for pointer, value in settings.items():
            css = f"[data-pointer='{pointer}']"
            kind = self.find(css).tag_name
            if kind == "select":
                self.choose(css, value)
            elif self.find(css).get_attribute("type") == "checkbox":
                if self.find(css).is_selected() != value:
                    self.click(css)
            else:
                self.type(css, value)
        self.click("#create")
        self.wait_js("return document.querySelector('#created [data-created]')", "created")
        created = self.find("#created [data-created]").get_attribute("data-created")
        assert created == tid, (created, self.texts("#new-tournament .form-error"))

    def upload_entrants(self, csv_path: Path) -> str:
        self.find("#csv-file").send_keys(str(csv_path))
        self.click("#csv-upload")
        self.wait_js("return document.getElementById('csv-result').textContent || "
                     "document.querySelector('#csv-form .form-error').textContent",
                     "the entrants registered")
        errors = self.texts("#csv-form .form-error")
        assert errors == [""], errors
        return self.texts("#csv-result")[0]

    def check_in(self, teams: list[str]) -> None:
        """One tap per team, in the order given; each waits for the list to count it."""
        for done, team in enumerate(teams, start=1):
            self.click(f"#check-in li[data-team='{team}'] button[data-act='check-in']")
            self.wait_js("const c = document.querySelector('#check-in .count');"
                         "return c && c.dataset.checked === arguments[0]",
                         f"{team} checked in", str(done))

    # --- rounds --------------------------------------------------------------------------------
    def round_matches(self, round_: int) -> list[str]:
        """The matches of a round's block, in the order shown."""
        return self.js("return [...document.querySelectorAll("
                       "`section.round-block[data-round='${arguments[0]}'] tbody tr`)]"
                       ".map(r => r.dataset.match)", round_)

    def make_round(self, act: str, round_: int) -> list[str]:
        """Draws or pairs round ``round_`` with the button ``act`` (draw-lots, draw-cards,
        pair, confirm); the round's matches once it is shown."""
        self.click(f"#next [data-act='{act}']")
        self.wait(lambda: self.round_matches(round_) or self.texts("#next .form-error") != [""],
                  f"round {round_} made")
        assert self.texts("#next .form-error") in ([""], []), self.texts("#next .form-error")
        return self.round_matches(round_)

    def start_round(self, round_: int) -> None:
        block = f"section.round-block[data-round='{round_}']"
        count = len(self.round_matches(round_))
        self.click(f"{block} [data-act='start']")
        self.wait_js("return document.querySelectorAll(arguments[0]).length === arguments[1]",
                     f"round {round_} started", f"{block} a[data-link='sheet']", count)
        assert self.texts(f"{block} .form-error") in ([""], [])

    # --- score sheets ---------------------------------------------------------------------------
    def open_sheet(self, tid: str, mid: str) -> None:
        """From the rounds page, the match's score sheet link."""
        self.follow(f"tr[data-match='{mid}'] a[data-link='sheet']",
                    f"/desk/t/{quote(tid)}/matches/{quote(mid)}/sheet")

    def stored_rows(self) -> int:
        return self.js("return document.querySelectorAll('#rows tr.stored').length")

    def _entry(self, field: str) -> str:
        return f"#entry tr.entry [data-field='{field}'], #entry tr.entry [data-pointer='/data/{field}']"

    def enter_row(self, hand: int, fields: dict[str, object]) -> None:
        """Fills the sheet's entry row (``fields``: by data-field or pointer name; True ticks a
        box) and records it; waits until the row is stored and shown. A row the page redrew
        while it was typed is typed again."""
        assert self.texts("#entry tr.entry [data-col=hand]") == [str(hand)]
        for _ in range(3):
            self._fill(fields)
            if self._shows(fields):
                break
        else:
            raise AssertionError(f"hand {hand}: the entry row does not keep {fields}")
        self.click("#record")
        self.wait(lambda: self.stored_rows() >= hand or self.texts("#entry .form-error") not in
                  ([""], []), f"hand {hand} stored")
        assert self.stored_rows() == hand, self.texts("#entry .form-error")

    def _fill(self, fields: dict[str, object]) -> None:
        for field, value in fields.items():
            css = self._entry(field)
            if value is True:
                if not self.find(css).is_selected():
                    self.click(css)
            elif self.find(css).tag_name == "select":
                self.choose(css, value)
            else:
                self.type(css, value)

    def _shows(self, fields: dict[str, object]) -> bool:
        shown = self.js("return arguments[0].map(css => { const e = document.querySelector(css);"
                        " return e && (e.type === 'checkbox' ? e.checked : e.value); })",
                        [self._entry(f) for f in fields])
        return shown == [v if v is True else str(v) for v in fields.values()]

    def ended(self) -> bool:
        return self.present("#now .ended")

    # --- the committee (the disputes page) ------------------------------------------------------
    def fill_form(self, form: str, fields: dict[str, object]) -> None:
        """Types or chooses each field of ``form`` (form[data-form=…]) by its name."""
        self.wait(lambda: self.present(f"form[data-form='{form}']"), f"the form {form}")
        for name, value in fields.items():
            css = f"form[data-form='{form}'] [name='{name}']"
            if self.find(css).tag_name == "select":
                self.choose(css, value)
            else:
                self.type(css, value)

    def submit(self, form: str, action: str = "") -> None:
        button = f"[data-action='{action}']" if action else "button[type='submit']"
        self.click(f"form[data-form='{form}'] {button}")

    def done_or_refused(self, form: str) -> str:
        """The form's words once the server has answered: what was done; a refusal fails."""
        base = f"form[data-form='{form}']"
        self.wait(lambda: any(self.texts(f"{base} .form-done, {base} .form-error, "
                                         f"{base} .field-error")), f"{form} answered")
        refused = [t for t in self.texts(f"{base} .form-error, {base} .field-error") if t]
        assert not refused, refused
        return self.texts(f"{base} .form-done")[0]
