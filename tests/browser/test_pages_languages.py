"""Every page in 中文 and in English, in a real headless Chromium (issue 33, item 2).

A reader whose browser asks for Chinese (Accept-Language: zh-CN) gets every page in Chinese,
``<html lang="zh-Hans">``, with no English sentence of the catalogues or English term of the
glossary left in what the page shows; ``?lang=en`` turns the same page English, with no Chinese
sentence of the catalogues left in its own words, and the choice is kept for the next page. The
data — team and player names, the committee's texts — is the tournament's own, in Chinese here,
and shown as it was typed in either language. Screenshots of both go to test-artifacts/
(lang-zh-*.png, lang-en-*.png)."""
from __future__ import annotations

import re
import string

import pytest
import test_pages_browser as committee_scene
import test_team_event_pages as team_scene
from babel.messages.pofile import read_po
from browser_harness import LiveServer, chromium, open_page, screenshot
from clients import token_for

from rules.glossary import TERMS
from service import create_app
from service.i18n import TRANSLATIONS

SJ2, MJO = committee_scene.SJ2, committee_scene.MJO
CHINESE = re.compile(r"[\u3400-\u9fff]")


def catalogue_entries(domain: str, only_from: str | None = None) -> list:
    with open(TRANSLATIONS / "zh" / "LC_MESSAGES" / f"{domain}.po", "rb") as po:
        return [m for m in read_po(po) if m.id and m.string and (
            only_from is None or any(path.startswith(only_from) for path, _ in m.locations))]


def fragments(text: str) -> list[str]:
    """The fixed words of a sentence around its blanks, each worth looking for (a word of three
    letters or more)."""
    pieces = [literal for literal, *_ in string.Formatter().parse(text)]
    return [p.strip(" .,:;·—()…") for p in pieces if re.search(r"[A-Za-z]{3,}", p)]


def ui_sentences():
    """(English, Chinese) of every sentence a page says: its scripts' and its templates'."""
    entries = catalogue_entries("pages") + catalogue_entries("messages", "service/pages/")
    return [(m.id, m.string) for m in entries]


ENGLISH = sorted({f for english, _ in ui_sentences() for f in fragments(english)}
                 | {term.en for table in TERMS.values() for term in table.values()
                    if re.search(r"[a-z]{3,}", term.en)}, key=len, reverse=True)
CHINESE_LABELS = sorted({chinese.strip("：: ") for _, chinese in ui_sentences()
                         if "{" not in chinese and len(CHINESE.findall(chinese)) >= 2})


def english_left(shown: str) -> list[str]:
    return [f for f in ENGLISH if re.search(rf"(?<![A-Za-z]){re.escape(f)}(?![A-Za-z])", shown)]


@pytest.fixture(scope="module")
def scene(tmp_path_factory, monkeypatch_module):
    monkeypatch_module.setattr(committee_scene, "CLAIM", "1号座位有红桃4却垫了草花6（SJ2-9.2）")
    monkeypatch_module.setattr(committee_scene, "RULING", "1号座位须跟红桃4")
    db = tmp_path_factory.mktemp("languages") / "pages.db"
    app = create_app({"DATABASE": str(db), "SQLITE_SYNCHRONOUS": "NORMAL"})
    from clients import admin_client
    admin = admin_client(app)
    committee_scene._sj2_hand(admin, SJ2)
    committee_scene._mahjong_table(admin)
    created = admin.post("/v1/tournaments", json={
        "tournament_id": "tz-test", "name": "北京时间杯", "game": "SJ2", "format": "knockout",
        "time_zone": "Asia/Shanghai"})
    assert created.status_code == 201, created.json
    team_app, _, _ = team_scene.team_event()
    servers = LiveServer(app), LiveServer(team_app)
    yield {"servers": servers, "committee": token_for(app, "committee", SJ2),
           "referee": token_for(app, "referee", MJO), "typed": typed_in(app, team_app)}
    for server in servers:
        server.stop()
    app.extensions["paiju"].store.close()


@pytest.fixture(scope="module")
def monkeypatch_module():
    with pytest.MonkeyPatch.context() as patch:
        yield patch


def pages(scene) -> dict[str, str]:
    """Every page: its name -> its URL (the replays with the token that may see the cards)."""
    main, team = (server.url for server in scene["servers"])
    tournament, groups = f"{main}/pages/tournaments/{SJ2}", f"{main}/pages/tournaments/{MJO}"
    return {
        "home": f"{main}/",
        "tournament": tournament,
        "bracket": f"{tournament}/bracket",
        "standings": f"{tournament}/standings",
        "disputes": f"{tournament}/disputes",
        "replay-sj2": f"{tournament}/matches/R1-1/hands/1/replay#token={scene['committee']}",
        "groups": f"{groups}/groups",
        "replay-mjo": f"{groups}/matches/S1-T1/hands/1/replay#token={scene['referee']}",
        "rounds": f"{team}/pages/tournaments/{team_scene.TID}/rounds",
        "team-standings": f"{team}/pages/tournaments/{team_scene.TID}/standings",
    }


def shown(driver) -> str:
    return driver.execute_script("return document.body.innerText")


def typed_in(*apps) -> list[str]:
    """The texts in Chinese that people typed into the scene's log (names, a claim, a ruling),
    longest first: a page shows them as they are, in any language."""
    found = set()
    for app in apps:
        for record in app.extensions["paiju"].store.read_all():
            found |= {text for text in _texts(record.data_dict) if CHINESE.search(text)}
    return sorted(found, key=len, reverse=True)


def _texts(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else []
    return [text for item in items for text in _texts(item)]


def own_words(text: str, typed: list[str]) -> str:
    """What the page says in its own words: ``text`` without the texts people typed (the
    claim "1号座位…" says 座位, a leader "T1领队" says 领队: neither is the page's)."""
    for data in typed:
        text = text.replace(data, "\n")
    return text


def with_query(url: str, query: str) -> str:
    path, _, fragment = url.partition("#")
    return path + ("&" if "?" in path else "?") + query + ("#" + fragment if fragment else "")


def test_a_chinese_reader_reads_every_page_in_chinese(scene):
    driver = chromium("zh-CN")
    try:
        for name, url in pages(scene).items():
            open_page(driver, url)
            assert driver.execute_script("return document.documentElement.lang") == "zh-Hans"
            text = shown(driver)
            assert CHINESE.search(text), name
            assert not english_left(text), f"{name} still says {english_left(text)[:8]}"
            screenshot(driver, f"lang-zh-{name}")
    finally:
        driver.quit()


def test_lang_en_turns_every_page_english_and_is_kept(scene):
    driver = chromium("zh-CN")
    try:
        for name, url in pages(scene).items():
            open_page(driver, with_query(url, "lang=en"))
            assert driver.execute_script("return document.documentElement.lang") == "en"
            text = own_words(shown(driver), scene["typed"])
            left = [label for label in CHINESE_LABELS if label in text]
            assert not left, f"{name} (English) still says {left[:8]}"
            screenshot(driver, f"lang-en-{name}")
        main = scene["servers"][0].url
        open_page(driver, f"{main}/pages/tournaments/{SJ2}/standings")  # no ?lang: the cookie
        assert driver.execute_script("return document.documentElement.lang") == "en"
        driver.find_element("css selector", "[data-lang='zh']").click()
        committee_scene.wait_until(
            driver, lambda d: d.execute_script("return document.documentElement.lang") == "zh-Hans"
            and d.execute_script("return document.body.dataset.ready") == "true",
            "the page in Chinese")
        assert "lang=zh" in driver.current_url
    finally:
        driver.quit()


def test_a_moment_is_shown_in_the_tournaments_time_zone(scene):
    """A tournament played in Beijing shows 04:30 UTC as 12:30, naming the zone, to a reader
    wherever his browser is."""
    driver = chromium("zh-CN")
    try:
        open_page(driver, f"{scene['servers'][0].url}/pages/tournaments/tz-test?lang=en")
        shown = driver.execute_script("return Paiju.when('2006-12-23T04:30:00Z')")
        assert "12:30" in shown and shown.endswith("(Asia/Shanghai)"), shown
        assert "2006" in shown
    finally:
        driver.quit()
