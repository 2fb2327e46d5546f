"""Pages that follow live (issue 18, item 5), in a real headless Chromium against a real
``paiju serve`` (gevent in front, the timer on, as ``make run`` starts it): the bracket redraws
when a match starts, and a replay in follow mode moves to each event of the hand as it is
posted — without a reload. Screenshots before and after go to test-artifacts/."""
from __future__ import annotations

import pytest
from browser_harness import chromium, open_page, screenshot, texts, wait_until
from pg_nodes import Client, sqlite_node
from selenium.webdriver.common.by import By
from sj2_table import build_deal

TID = "live-ko"


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """An SJ2 knockout of four on a real server: round 1 drawn, R1-1 started and its hand 1
    dealt (a long declaration window, so the timer leaves it alone), R1-2 not started."""
    with sqlite_node(tmp_path_factory.mktemp("live-pages"), "pages") as (nodes, client, token):
        client.ok("POST", "/v1/tournaments", {
            "tournament_id": TID, "name": "直播杯", "game": "SJ2", "format": "knockout",
            "settings": {"match": {"declarationWindowSeconds": 600}}})
        for team, name, players in (("east", "东队", ["甲", "乙"]), ("west", "西队", ["丙", "丁"]),
                                    ("south", "南队", ["戊", "己"]), ("north", "北队", ["庚", "辛"])):
            post(client, "TeamRegistered", {"team_id": team, "name": name, "players": players})
        post(client, "LotsDrawn", {"purpose": "pairing", "round": 1, "byes": [], "matches": [
            {"match_id": "R1-1", "teams": ["east", "west"]},
            {"match_id": "R1-2", "teams": ["south", "north"]}]})
        client.ok("POST", f"/v1/tournaments/{TID}/matches", {"match_id": "R1-1"})
        post(client, "HandDealt", {"hand": 1, **build_deal({0: "2S"})}, "R1-1")
        yield nodes[0], client, token


def post(client: Client, event_type: str, data: dict, match: str | None = None) -> dict:
    stream = f"match-{TID}:{match}" if match else f"tournament-{TID}"
    return client.ok("POST", f"/v1/tournaments/{TID}/events",
                     {"type": event_type, "stream": stream, "data": data})


@pytest.fixture(scope="module")
def browser():
    driver = chromium()
    yield driver
    driver.quit()


def in_play(driver, match: str) -> bool | None:
    """Whether the bracket marks ``match`` in play (None: no such box), read in one script: a
    redraw between finding the box and reading it would leave a stale element."""
    return driver.execute_script(
        "const box = document.querySelector(`.match-box[data-match='${arguments[0]}']`);"
        "return box ? box.classList.contains('in-play') : null", match)


def redrawn(driver) -> int:
    return int(driver.execute_script("return document.body.dataset.redrawn || 0"))


def test_the_bracket_shows_a_match_starting_without_a_reload(served, browser):
    node, client, _ = served
    driver = browser
    open_page(driver, f"http://127.0.0.1:{node.port}/pages/tournaments/{TID}/bracket")
    wait_until(driver, lambda d: "following live" in d.find_element(By.ID, "live").text,
               "the page to follow the tournament")
    assert in_play(driver, "R1-2") is False
    assert texts(driver, ".in-play-line") == ["In play: R1-1 (东队 (east) v 西队 (west))"]
    screenshot(driver, "live-bracket-before")
    client.ok("POST", f"/v1/tournaments/{TID}/matches", {"match_id": "R1-2"})
    wait_until(driver, lambda d: in_play(d, "R1-2"), "R1-2 to show in play")
    assert texts(driver, ".in-play-line") == [
        "In play: R1-1 (东队 (east) v 西队 (west)), R1-2 (南队 (south) v 北队 (north))"]
    assert redrawn(driver) >= 1
    screenshot(driver, "live-bracket-after")


def test_a_replay_in_follow_mode_moves_to_each_event_as_it_is_posted(served, browser):
    node, client, token = served
    driver = browser
    open_page(driver, f"http://127.0.0.1:{node.port}/pages/tournaments/{TID}/matches/R1-1/"
                      f"hands/1/replay#token={token}&follow=1")
    wait_until(driver, lambda d: "following live" in d.find_element(By.ID, "live").text,
               "the replay to follow the hand")
    before = int(driver.execute_script("return document.body.dataset.shown"))
    assert driver.find_element(By.ID, "follow").get_attribute("aria-pressed") == "true"
    assert driver.find_element(By.ID, "event-line").text.startswith("HandDealt")
    screenshot(driver, "live-replay-before")
    declared = post(client, "TrumpDeclared", {"hand": 1, "seat": 0, "card": "2S"}, "R1-1")
    assert declared["position"] > before
    wait_until(driver, lambda d: int(d.execute_script("return document.body.dataset.shown"))
               == declared["position"], "the replay to show the declaration")
    assert driver.find_element(By.ID, "event-line").text.startswith("TrumpDeclared")
    assert driver.find_element(By.ID, "step-counter").text.startswith("Step 2 / 2")
    screenshot(driver, "live-replay-after")
