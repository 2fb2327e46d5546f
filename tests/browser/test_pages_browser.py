"""The committee's pages in a real headless Chromium (issue 9, items 5 and 6): a 拖拉机 hand in
``record`` enforcement with a follow error (SJ2-9.2: seat 1 holds 4H, the only heart, and plays
6C on the led QH), disputed three tricks later, replayed event by event in the browser; the
dispute list, the bracket and the standings of its knockout; a mahjong table of tiles and its
groups. What each page shows is compared with what the API says at the same position.

The app runs on a real localhost port over a temporary SQLite database; screenshots go to
test-artifacts/. One Chromium serves the module; each test opens its own pages."""
from __future__ import annotations

import random

import pytest
from browser_harness import (
    LiveServer,
    chromium,
    codes,
    open_page,
    screenshot,
    texts,
    wait_until,
)
from clients import admin_client, token_for
from mj_table import opened
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from sj2_table import Table

from service import create_app

SJ2 = "sj2-test"
RULED = "sj2-ruled"
MJO = "mjo-test"
CLAIM = "seat 1 held 4H and played 6C on the led QH (SJ2-9.2); found three tricks later"
RULING = "seat 1 must follow with 4H"


class Scene:
    """The served app and what the tests scripted in it."""


@pytest.fixture(scope="module")
def scene(tmp_path_factory):
    db = tmp_path_factory.mktemp("pages") / "pages.db"
    app = create_app({"DATABASE": str(db), "SQLITE_SYNCHRONOUS": "NORMAL"})
    s = Scene()
    s.app, s.admin = app, admin_client(app)
    s.committee = token_for(app, "committee", SJ2)
    s.table, s.lead, s.irregular = _sj2_hand(s.admin, SJ2)
    s.table_first = hand_positions(s, SJ2, f"match-{SJ2}:R1-1")[0]
    s.ruled = _ruled_sj2_hand(s.admin, RULED)
    s.ruled_committee = token_for(app, "committee", RULED)
    s.mj = _mahjong_table(s.admin)
    s.mj_referee = token_for(app, "referee", MJO)
    s.server = LiveServer(app)
    yield s
    s.server.stop()
    app.extensions["paiju"].store.close()


@pytest.fixture(scope="module")
def browser():
    driver = chromium()
    yield driver
    driver.quit()


def _sj2_hand(client, tid: str) -> tuple[Table, int, int]:
    """Hand 1 of match R1-1 (the only hand: maxHands 1): seat 0 leads QH, seat 1 answers 6C
    though he holds 4H — stored and flagged in record mode — and the hand is played out; the
    follow error costs the defenders 40 (SJ2-12.4: raw 95 → 55) and so the match, which the
    dealer's side (east) wins by one level instead of a tie. The positions of the lead and of
    the irregular follow; the dispute is raised after trick 4."""
    table = Table(client, {"enforcement": "record", "maxHands": 1}, tid=tid)
    table.to_play({0: "2S QH", 1: "4H 6C"}, card="2S", no={1: "H"})
    lead = table.ok("CardsPlayed", seat=0, cards=["QH"])["position"]
    irregular = table.ok("CardsPlayed", seat=1, cards=["6C"])["position"]
    rng = random.Random(6)
    while len(table.hand_view()["tricks"]) < 4:
        table.play_legal(rng)
    _post(client, tid, "DisputeRaised", {"dispute_id": "D1", "match_id": "R1-1", "hand": 1,
                                         "positions": [irregular], "claim": CLAIM})
    table.finish_hand(seed=6)
    return table, lead, irregular


def _ruled_sj2_hand(client, tid: str) -> dict:
    """The same hand, and the committee's ruling on the dispute: seat 1's follow is taken as
    4H (a substitution, SJ2-9.2). His later play of 4H, a card he no longer holds, and the
    plays that followed it stay in the log, flagged with the rules they now break."""
    _, _, irregular = _sj2_hand(client, tid)
    ruling = _post(client, tid, "RulingRecorded", {
        "text": RULING, "dispute_id": "D1", "effects": [{
            "kind": "substitute", "rule": "SJ2-9.2", "member": "王主任", "position": irregular,
            "data": {"hand": 1, "seat": 1, "cards": ["4H"]}}]}, stream=f"match-{tid}:R1-1")
    _post(client, tid, "DisputeResolved", {"dispute_id": "D1", "ruling_event_id": ruling["id"],
                                           "text": "seat 1 follows with 4H"})
    return {"irregular": irregular, "ruling": ruling["position"]}


def _post(client, tid: str, event_type: str, data: dict, stream: str | None = None) -> dict:
    response = client.post(f"/v1/tournaments/{tid}/events", json={
        "type": event_type, "stream": stream or f"tournament-{tid}", "data": data})
    assert response.status_code == 201, response.json
    return response.json


def _mahjong_table(client):
    """An MJO table: the dealer (seat 0) discards N, seat 2 pongs it with his pair of N."""
    table = opened(client, {2: "N N"}, settle=False)
    table.ok("ClaimPassed", seat=1)
    table.ok("Claim", seat=2, kind="pong", tiles=["N", "N"])
    table.settle()
    return table


def api(s, path: str) -> dict:
    response = s.admin.get(path)
    assert response.status_code == 200, response.json
    return response.json


def hand_positions(s, tid: str, stream: str, hand: int = 1) -> list[int]:
    events = api(s, f"/v1/tournaments/{tid}/streams/{stream}?limit=1000")["events"]
    return [e["position"] for e in events if e["data"].get("hand") == hand]


def hand_at(s, tid: str, mid: str, position: int | None = None) -> dict:
    at = "" if position is None else f"?at={position}"
    return api(s, f"/v1/tournaments/{tid}/matches/{mid}/hands/1{at}")


def replay_url(s, tid: str, mid: str, fragment: str = "") -> str:
    return f"{s.server.url}/pages/tournaments/{tid}/matches/{mid}/hands/1/replay" + fragment


def shown(driver) -> int:
    return int(driver.execute_script("return document.body.dataset.shown || 0"))


def click_and_wait(driver, element_id: str, position: int) -> None:
    driver.find_element(By.ID, element_id).click()
    wait_until(driver, lambda d: shown(d) == position, f"position {position} after {element_id}")


def counter(driver) -> str:
    return driver.find_element(By.ID, "step-counter").text


def seat_cards(driver, seat: int) -> list[str]:
    return codes(driver, f".seat-panel[data-seat='{seat}'] .hand-cards .card")


def trick(driver) -> dict[int, list[str]]:
    plays = driver.find_elements(By.CSS_SELECTOR, ".trick-area .play")
    return {int(p.get_attribute("data-seat")): [c.get_attribute("data-card") for c in
                                                p.find_elements(By.CSS_SELECTOR, ".card")]
            for p in plays}


# --- the replay -----------------------------------------------------------------------------------

def test_replay_steps_through_the_disputed_trick(scene, browser):
    s, driver = scene, browser
    steps = hand_positions(s, SJ2, f"match-{SJ2}:R1-1")
    n = len(steps)
    open_page(driver, replay_url(s, SJ2, "R1-1", f"#token={s.committee}"))
    wait_until(driver, lambda d: d.find_element(By.ID, "timeline").get_attribute("data-scan") == "done",
               "the timeline to be checked")
    # the token left the address bar for this tab's sessionStorage
    assert s.committee not in driver.current_url
    assert driver.execute_script("return sessionStorage.getItem('paiju.token')") == s.committee

    # step 1, the deal: every seat holds the cards the API folds at that position
    assert counter(driver) == f"Step 1 / {n} · position {steps[0]}"
    dealt = hand_at(s, SJ2, "R1-1", steps[0])
    for seat in range(4):
        assert seat_cards(driver, seat) == dealt["seats"][seat]["cards"]
        assert len(seat_cards(driver, seat)) == 25

    # the timeline marks the irregular follow, the dispute on it, and the next play, where the
    # follow error is established (SJ2-12.4); nothing else
    marked = [int(p) for p in driver.execute_script(
        "return [...document.querySelectorAll('#timeline li.marked')].map(li => li.dataset.position)")]
    following = steps[steps.index(s.irregular) + 1]
    assert marked == [s.irregular, following]
    chips = texts(driver, f"#timeline li[data-position='{s.irregular}'] .mark")
    assert chips == ["⚠ SJ2-9.2", "⚑ dispute D1 (open)"]

    # "marked ▶" jumps to the irregular follow: QH led, 6C answered, flagged SJ2-9.2
    click_and_wait(driver, "next-issue", s.irregular)
    index = steps.index(s.irregular) + 1
    assert counter(driver) == f"Step {index} / {n} · position {s.irregular}"
    assert trick(driver) == {0: ["QH"], 1: ["6C"]}
    flagged = driver.find_element(By.CSS_SELECTOR, ".trick-area .play.flagged")
    assert flagged.get_attribute("data-seat") == "1"
    assert flagged.find_element(By.CSS_SELECTOR, ".irregular").text == "⚠ SJ2-9.2"
    here = texts(driver, "#here li")
    assert here[0].startswith("⚠ irregular play — SJ2-9.2: seat 1 holds only 1 card in hearts (4H)")
    assert here[1].startswith("⚑ dispute D1 (open)") and CLAIM in here[1]
    at_irregular = hand_at(s, SJ2, "R1-1", s.irregular)
    assert seat_cards(driver, 1) == at_irregular["seats"][1]["cards"]
    assert "4H" in seat_cards(driver, 1)
    screenshot(driver, "replay-sj2-irregular-follow")

    # one step on: seat 2 plays, the follow error is established
    click_and_wait(driver, "forward", following)
    assert "⚠ follow error established — SJ2-9.2: seat 1 holds only 1 card in hearts (4H)" in \
        " ".join(texts(driver, "#here li"))
    assert sorted(trick(driver)) == [0, 1, 2]

    # two steps back: the lead alone, seat 1 holds his 6C again, nothing flagged
    click_and_wait(driver, "back", s.irregular)
    click_and_wait(driver, "back", s.lead)
    assert trick(driver) == {0: ["QH"]}
    assert not driver.find_elements(By.CSS_SELECTOR, ".play.flagged")
    assert seat_cards(driver, 1) == hand_at(s, SJ2, "R1-1", s.lead)["seats"][1]["cards"]
    assert seat_cards(driver, 1).count("6C") == at_irregular["seats"][1]["cards"].count("6C") + 1
    assert texts(driver, "#here p.quiet") == ["Nothing irregular here."]

    # jump to the last event: the hand's result, with the defenders' follow error taken off
    jump = driver.find_element(By.ID, "jump")
    jump.clear()
    jump.send_keys(str(n), Keys.ENTER)
    wait_until(driver, lambda d: shown(d) == steps[-1], "the last event")
    assert counter(driver) == f"Step {n} / {n} · position {steps[-1]}"
    result = hand_at(s, SJ2, "R1-1", steps[-1])["result"]
    shown_result = dict(zip(texts(driver, "[data-panel='result'] dt"),
                            texts(driver, "[data-panel='result'] dd")))
    assert shown_result["final points"] == str(result["final_points"])
    assert shown_result["raw points"] == str(result["raw_points"])
    assert "kind: defenders_follow_error; rule: SJ2-12.4" in shown_result["adjustments"]
    screenshot(driver, "replay-sj2-result")

    # the keyboard: Home is the deal again
    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.HOME)
    wait_until(driver, lambda d: shown(d) == steps[0], "the first event")

    # the token went to the server only as a header, never in a URL
    requests = s.server.requests
    assert not [r for r in requests if s.committee in r["path"] + r["query"]]
    assert not [r for r in requests if r["referer"] and s.committee in r["referer"]]
    replay_reads = [r for r in requests
                    if r["path"] == f"/v1/tournaments/{SJ2}/matches/R1-1/hands/1/replay"]
    assert replay_reads and all(r["authorization"] == f"Bearer {s.committee}" for r in replay_reads)


def test_a_link_to_a_position_opens_the_replay_there(scene, browser):
    s, driver = scene, browser
    open_page(driver, replay_url(s, SJ2, "R1-1", f"#token={s.committee}&pos={s.irregular}"))
    wait_until(driver, lambda d: shown(d) == s.irregular, "the linked position")
    assert trick(driver) == {0: ["QH"], 1: ["6C"]}
    assert driver.execute_script("return location.hash") == f"#pos={s.irregular}"


def test_without_a_log_token_the_finished_hand_is_shown_as_it_ended(scene, browser):
    """The public may read a finished hand but not the log: no steps, the hand as it ended."""
    s, driver = scene, browser
    driver.get(f"{s.server.url}/pages/assets/paiju.css")  # this origin, to clear its storage
    driver.execute_script("sessionStorage.clear()")
    before = len(s.server.requests)
    open_page(driver, replay_url(s, SJ2, "R1-1"))
    assert not driver.find_element(By.ID, "controls").is_displayed()
    assert "needs a token that may read the log" in driver.find_element(By.ID, "status").text
    assert all(r["authorization"] is None for r in s.server.requests[before:])
    final = api(s, f"/v1/tournaments/{SJ2}/matches/R1-1/hands/1")
    assert all(seat_cards(driver, seat) == [] for seat in range(4))  # every card was played
    shown_result = dict(zip(texts(driver, "[data-panel='result'] dt"),
                            texts(driver, "[data-panel='result'] dd")))
    assert shown_result["final points"] == str(final["result"]["final_points"])
    screenshot(driver, "replay-sj2-public")


# --- the tournament's pages -----------------------------------------------------------------------

def test_the_dispute_list_links_each_dispute_to_its_position(scene, browser):
    s, driver = scene, browser
    open_page(driver, f"{s.server.url}/pages/tournaments/{SJ2}/disputes#token={s.committee}")
    rows = driver.find_elements(By.CSS_SELECTOR, "#dispute-list tbody tr")
    assert len(rows) == 1
    cell = {c.get_attribute("data-col"): c.text for c in rows[0].find_elements(By.TAG_NAME, "td")}
    assert (cell["dispute_id"], cell["status"], cell["match_id"], cell["hand"]) == (
        "D1", "open", "R1-1", "hand 1")
    assert cell["claim"] == CLAIM and cell["positions"] == f"#{s.irregular}"
    driver.find_element(By.CSS_SELECTOR, "[data-filter='resolved']").click()
    assert texts(driver, "#dispute-list p") == ["No resolved dispute."]
    screenshot(driver, "disputes")
    driver.find_element(By.CSS_SELECTOR, "[data-filter='open']").click()
    driver.find_element(By.CSS_SELECTOR, "#dispute-list [data-col='positions'] a").click()
    wait_until(driver, lambda d: shown(d) == s.irregular, "the disputed position")


def test_bracket_and_standings_show_the_knockout_as_the_api_says(scene, browser):
    s, driver = scene, browser
    bracket = api(s, f"/v1/tournaments/{SJ2}/bracket")
    open_page(driver, f"{s.server.url}/pages/tournaments/{SJ2}/bracket")
    box = driver.find_element(By.CSS_SELECTOR, ".match-box[data-match='R1-1']")
    assert [t.get_attribute("data-team") for t in box.find_elements(By.CSS_SELECTOR, ".team")] == \
        bracket["rounds"][0]["matches"][0]["teams"] == ["east", "west"]
    assert box.find_element(By.CSS_SELECTOR, ".team.winner").get_attribute("data-team") == \
        bracket["champion"] == "east"
    assert driver.find_element(By.CSS_SELECTOR, ".champion").text == "Champion: east"
    screenshot(driver, "bracket")

    standings = api(s, f"/v1/tournaments/{SJ2}/standings")["ranking"]
    open_page(driver, f"{s.server.url}/pages/tournaments/{SJ2}/standings")
    assert texts(driver, "#standings td[data-col='place']") == [str(r["place"]) for r in standings]
    assert texts(driver, "#standings td[data-col='team']") == ["east", "west"]
    assert texts(driver, "#standings td[data-col='eliminated_in']") == ["—", "1"]
    screenshot(driver, "standings")

    # the tournament's page: its match, won by east, links to the replay of its hand, which
    # the committee (its token given here, not left by an earlier test) steps through
    open_page(driver, f"{s.server.url}/pages/tournaments/{SJ2}#token={s.committee}")
    assert texts(driver, "#matches td[data-col='match_id']") == ["R1-1"]
    assert texts(driver, "#matches td[data-col='winner']") == ["east"]
    driver.find_element(By.CSS_SELECTOR, "#matches td[data-col='hands'] a").click()
    # the tournament page is ready too: wait for the replay's own address and its mark
    replay_path = f"/pages/tournaments/{SJ2}/matches/R1-1/hands/1/replay"
    wait_until(driver, lambda d: d.execute_script(
        "return location.pathname === arguments[0] && document.body.dataset.ready", replay_path),
        "the replay")
    assert driver.current_url == replay_url(s, SJ2, "R1-1", f"#pos={s.table_first}")


def test_a_mahjong_hand_is_drawn_as_tiles_and_its_table_in_the_groups(scene, browser):
    s, driver = scene, browser
    steps = hand_positions(s, MJO, f"match-{MJO}:S1-T1")
    pong = s.mj.match()["current_hand"]  # the referee's view now
    open_page(driver, replay_url(s, MJO, "S1-T1", f"#token={s.mj_referee}"))
    driver.find_element(By.ID, "last").click()
    wait_until(driver, lambda d: shown(d) == steps[-1], "the last event")
    for seat in range(4):
        panel = f".seat-panel[data-seat='{seat}']"
        assert codes(driver, f"{panel} .concealed .tile", "tile") == pong["seats"][seat]["concealed"]
    assert codes(driver, ".seat-panel[data-seat='2'] .meld .tile", "tile") == ["N", "N", "N"]
    discard = driver.find_element(By.CSS_SELECTOR, ".seat-panel[data-seat='0'] .discards .tile")
    assert (discard.get_attribute("data-tile"), discard.text) == ("N", "北")
    assert "claimed" in discard.get_attribute("class")
    screenshot(driver, "replay-mjo-pong")

    open_page(driver, f"{s.server.url}/pages/tournaments/{MJO}/groups")
    table = driver.find_element(By.CSS_SELECTOR, ".match-box[data-match='S1-T1']")
    groups = api(s, f"/v1/tournaments/{MJO}/groups")["stages"][0]["tables"][0]
    assert texts(driver, ".match-box[data-match='S1-T1'] td[data-col='coins']") == \
        [str(seat["coins"]) for seat in groups["seats"]]
    assert "playing" in table.find_element(By.TAG_NAME, "header").text
    screenshot(driver, "groups")


def test_a_ruling_is_shown_where_it_acts_and_what_it_made_illegal(scene, browser):
    s, driver = scene, browser
    flags = api(s, f"/v1/tournaments/{RULED}/matches/R1-1")["flags"]
    assert flags and flags[0]["rule"] == "SJ2-16"  # seat 1's later 4H: no longer held
    open_page(driver, replay_url(s, RULED, "R1-1", f"#token={s.ruled_committee}"))
    wait_until(driver, lambda d: d.find_element(By.ID, "timeline").get_attribute("data-scan") == "done",
               "the timeline to be checked")
    irregular, ruling = s.ruled["irregular"], s.ruled["ruling"]
    # the ruling is the last step; it names the irregular follow, which keeps its flag as
    # played, and each event it made illegal is marked with the rule that event now breaks;
    # the hand as ruled has follow errors of its own (record mode), marked on the ruling
    assert texts(driver, "#timeline li:last-child .type") == ["RulingRecorded"]
    ruled_errors = hand_at(s, RULED, "R1-1")["follow_errors"]
    # (each both as the flagged play and as the error established)
    assert texts(driver, f"#timeline li[data-position='{ruling}'] .mark") == \
        ["⚠ SJ2-9.2"] * 2 * len(ruled_errors) + ["⚖ ruling"]
    assert texts(driver, f"#timeline li[data-position='{irregular}'] .mark") == [
        "⚠ SJ2-9.2", "⚑ dispute D1 (resolved)", "⚖ substitute"]
    for flag in flags:
        assert f"✗ {flag['rule']}" in texts(driver, f"#timeline li[data-position='{flag['position']}'] .mark")
    assert len(driver.find_elements(By.CSS_SELECTOR, "[data-panel='flags'] li")) == len(flags)

    # on the first event made illegal: what rule it breaks now, in words
    driver.find_element(By.CSS_SELECTOR, f"#timeline li[data-position='{flags[0]['position']}'] button").click()
    wait_until(driver, lambda d: shown(d) == flags[0]["position"], "the first flagged event")
    assert f"✗ illegal after a ruling — SJ2-16: {flags[0]['message']}" in texts(driver, "#here li")

    # on the ruling: the hand as ruled — trick 1 has seat 1's 4H, as the API now folds it
    click_and_wait(driver, "last", ruling)
    assert texts(driver, "#here li.ruling")[0].startswith(
        f"⚖ the ruling (applied): {RULING} — substitute (SJ2-9.2, 王主任)")
    issues = texts(driver, "#here li.issue")
    for error in ruled_errors:
        assert f"⚠ follow error established — SJ2-9.2: {error['message']}" in issues
    ruled = hand_at(s, RULED, "R1-1")["tricks"][0]["plays"]
    assert [p["cards"] for p in ruled][:2] == [["QH"], ["4H"]]
    assert codes(driver, "[data-panel='tricks'] tbody tr:first-child .card") == \
        [card for play in ruled for card in play["cards"]]
    screenshot(driver, "replay-sj2-ruling")

    # the dispute list: resolved by the ruling
    open_page(driver, f"{s.server.url}/pages/tournaments/{RULED}/disputes")
    cell = {c.get_attribute("data-col"): c.text
            for c in driver.find_elements(By.CSS_SELECTOR, "#dispute-list tbody tr td")}
    assert cell["status"] == "resolved"
    assert "seat 1 follows with 4H" in cell["resolution"]
