"""The pages an organiser and a spectator use (issue 19, item 4), in a real headless Chromium:
the home page listing the tournaments (an archived one left out, a simulated one labelled), a
knockout's bracket with a match in play (its marker, the levels so far, the lines between
rounds), provisional standings whose undecided places are bands ("5–8", T-10.1), and the team
event's rounds page. What each page shows is compared with what the API says; screenshots go
to test-artifacts/."""
from __future__ import annotations

import pytest
from browser_harness import LiveServer, chromium, codes, open_page, screenshot, texts, wait_until
from clients import admin_client, token_for
from mj_table import TID as MJO
from mj_table import opened
from selenium.webdriver.common.by import By
from sj2_table import Table
from tables import Clock, ok

from events.memory_store import InMemoryEventStore
from service import create_app

KO = "spring-ko"  # an SJ2 knockout of four teams, R1-1 in play
BRIDGE = "bridge-ko"  # a bridge knockout of eight (T-9), two results of round 1 recorded
TEAMS = "jnu-teams"  # a team event (T-6) of four teams: round 1 played, round 2 in play
ARCHIVED = "old-cup"
SIMULATED = "sim-sj2"  # as paiju simulate makes one (T-1.7)


def post(client, tid: str, event_type: str, data: dict, stream: str | None = None) -> dict:
    return ok(client.post(f"/v1/tournaments/{tid}/events", json={
        "type": event_type, "stream": stream or f"tournament-{tid}", "data": data}))


def tournament(client, tid: str, name: str, game: str, format_: str, teams: list[tuple],
               settings: dict | None = None) -> None:
    ok(client.post("/v1/tournaments", json={"tournament_id": tid, "name": name, "game": game,
                                            "format": format_, "settings": settings or {}}))
    for team_id, team_name, players in teams:
        leader = {"leader": f"{team_name}领队"} if format_ == "swiss-teams" else {}  # T-6.2
        post(client, tid, "TeamRegistered", {"team_id": team_id, "name": team_name,
                                             "players": players, **leader})


def sj2_knockout(client) -> Table:
    """Four teams, thirdPlace shared; round 1 drawn by the referee's lots: R1-1 春 v 夏, R1-2
    秋 v 冬. R1-1 is started and its first hand played out (the levels move), then 夏 withdraws
    (T-1.3: it forfeits R1-1); 冬 withdraws before R1-2 starts. The final, R2-1 春 v 秋, is
    drawn and started, and its first hand played out: it is in play."""
    tournament(client, KO, "春季升级赛", "SJ2", "knockout", [
        ("spring", "春队", ["张三", "李四"]), ("summer", "夏队", ["王五", "赵六"]),
        ("autumn", "秋队", ["孙七", "周八"]), ("winter", "冬队", ["吴九", "郑十"])],
        {"thirdPlace": "shared", "match": {"declarationWindowSeconds": 0}})
    post(client, KO, "LotsDrawn", {"purpose": "pairing", "round": 1, "byes": [], "matches": [
        {"match_id": "R1-1", "teams": ["spring", "summer"]},
        {"match_id": "R1-2", "teams": ["autumn", "winter"]}]})
    play_a_hand(client, "R1-1")
    for team in ("summer", "winter"):
        post(client, KO, "TeamWithdrawn", {"team_id": team})
    post(client, KO, "LotsDrawn", {"purpose": "pairing", "round": 2, "byes": [], "matches": [
        {"match_id": "R2-1", "teams": ["spring", "autumn"]}]})
    return play_a_hand(client, "R2-1")


def play_a_hand(client, mid: str) -> Table:
    """Starts match ``mid`` of the SJ2 knockout and plays its first hand out."""
    ok(client.post(f"/v1/tournaments/{KO}/matches", json={"match_id": mid}))
    table = Table.attach(client, KO)
    table.mid, table.stream = mid, f"match-{KO}:{mid}"
    table.to_play(card="2S", fixed={0: "2S"})
    table.finish_hand(seed=3)
    return table


def bridge_knockout(client) -> None:
    """Eight teams, round 1 drawn; R1-1 and R1-2 decided by the referee (T-9.3)."""
    tournament(client, BRIDGE, "桥牌淘汰赛", "bridge", "knockout",
               [(f"b{k}", f"桥{k}队", [f"p{k}a", f"p{k}b"]) for k in range(1, 9)])
    post(client, BRIDGE, "LotsDrawn", {"purpose": "pairing", "round": 1, "byes": [], "matches": [
        {"match_id": f"R1-{k}", "teams": [f"b{2 * k - 1}", f"b{2 * k}"]} for k in range(1, 5)]})
    post(client, BRIDGE, "ResultRecorded", {"match_id": "R1-1", "winner": "b1", "score": "120–87"})
    post(client, BRIDGE, "ResultRecorded", {"match_id": "R1-2", "winner": "b4"})


def team_event(client, clock: Clock) -> None:
    """Four teams of two pairs, two rounds: round 1 drawn by lots, its tables started and timed
    out (T-6.5: the levels at time are the result), round 2 paired by scores and started."""
    tournament(client, TEAMS, "校庆杯团体赛", "SJ3", "swiss-teams",
               [(f"T{k}", f"{k}号队", [f"T{k}{p}" for p in "甲乙丙丁"]) for k in range(1, 5)],
               {"rounds": 2})
    for number in (1, 2):
        round_ = ok(client.post(f"/v1/tournaments/{TEAMS}/pairings"))["round"]
        for meeting in round_["meetings"]:
            for table in meeting["tables"]:
                ok(client.post(f"/v1/tournaments/{TEAMS}/matches", json={"match_id": table["match_id"]}))
        if number == 1:
            clock.advance(minutes=80)
            ok(client.post(f"/v1/tournaments/{TEAMS}/rounds/1/time"))


def mahjong_hand(client):
    """An MJO table whose hand 1 runs 24 turns of draw and discard, every claim window passed:
    some 120 events, each a step of the replay."""
    table = opened(client)
    for _ in range(24):
        table.draw_discard()
    return table


class Scene:
    """The served app and what the tests scripted in it."""


@pytest.fixture(scope="module")
def scene():
    clock = Clock()
    app = create_app(store=InMemoryEventStore(clock=clock))
    s = Scene()
    s.app, s.admin = app, admin_client(app)
    s.table = sj2_knockout(s.admin)
    bridge_knockout(s.admin)
    team_event(s.admin, clock)
    s.mj = mahjong_hand(s.admin)
    s.mj_referee = token_for(app, "referee", MJO)
    ok(s.admin.post("/v1/tournaments", json={"tournament_id": SIMULATED, "name": "paiju simulate "
                    "sj2 (seed 1)", "game": "SJ2", "format": "knockout", "simulated": True}))
    tournament(s.admin, ARCHIVED, "去年的杯赛", "SJ2", "knockout", [])
    post(s.admin, ARCHIVED, "TournamentArchived", {"reason": "last year's"})
    s.server = LiveServer(app)
    yield s
    s.server.stop()


@pytest.fixture(scope="module")
def browser():
    driver = chromium()
    yield driver
    driver.quit()


def api(s, path: str) -> dict:
    return ok(s.admin.get(path))


@pytest.mark.parametrize("path", ["/", "/pages/", "/pages/tournaments"])
def test_the_home_page_lists_the_tournaments_and_leaves_the_archived_out(scene, browser, path):
    s, driver = scene, browser
    listed = api(s, "/v1/tournaments")["tournaments"]
    open_page(driver, s.server.url + path)
    assert texts(driver, "#tournaments td[data-col='name'] a") == [t["name"] for t in listed] == \
        ["春季升级赛", "桥牌淘汰赛", "校庆杯团体赛", "渥太华麻将 test", "paiju simulate sj2 (seed 1)"]
    assert "去年的杯赛" not in driver.find_element(By.ID, "tournaments").text
    assert texts(driver, "#tournaments [data-mark='simulated']") == ["simulation"]
    assert texts(driver, f"tr[data-tournament='{SIMULATED}'] td[data-col='name']") == [
        "paiju simulate sj2 (seed 1) simulation"]
    # the games and formats by their names (rules/glossary.py), their codes kept in the cells
    assert texts(driver, "#tournaments td[data-col='game']") == [
        "Tractor (two decks)", "Bridge", "Tractor (three decks)", "Mahjong (Ottawa)",
        "Tractor (two decks)"]
    assert codes(driver, "#tournaments td[data-col='game']", "game") == [
        "SJ2", "bridge", "SJ3", "MJO", "SJ2"]
    assert texts(driver, "#tournaments td[data-col='format']") == [
        "Knockout", "Knockout", "Team event (Swiss)", "Groups of four", "Knockout"]
    assert codes(driver, "#tournaments td[data-col='format']", "format") == [
        "knockout", "knockout", "swiss-teams", "groups", "knockout"]
    assert texts(driver, f"tr[data-tournament='{TEAMS}'] td[data-col='pages'] a") == [
        "Rounds", "Standings", "Disputes"]
    links = driver.find_elements(By.CSS_SELECTOR, f"tr[data-tournament='{KO}'] td[data-col='pages'] a")
    assert [(a.text, a.get_attribute("href")) for a in links] == [
        (label, f"{s.server.url}/pages/tournaments/{KO}{rest}") for label, rest in
        (("Bracket", "/bracket"), ("Standings", "/standings"), ("Disputes", "/disputes"))]
    if path == "/":
        screenshot(driver, "home")


def test_the_tournament_page_links_the_pages_its_format_has(scene, browser):
    s, driver = scene, browser
    open_page(driver, f"{s.server.url}/pages/tournaments/{KO}")
    assert texts(driver, "#pages a") == ["Bracket", "Standings", "Disputes"]
    shown = [a.text for a in driver.find_elements(By.CSS_SELECTOR, "header nav a[data-nav]")
             if a.is_displayed()]
    assert shown == ["Tournaments", "Tournament", "Bracket", "Standings", "Disputes"]


def test_the_bracket_shows_the_match_in_play_its_levels_and_the_lines(scene, browser):
    s, driver = scene, browser
    bracket = api(s, f"/v1/tournaments/{KO}/bracket")
    # the JSON read: the final has started and has no result, so it is in play and its teams
    # are still in (issue 19: "in_play": [] while a match was being played)
    assert bracket["matches_in_play"] == ["R2-1"]
    assert bracket["in_play"] == ["spring", "autumn"] and bracket["to_draw"] == []
    (final,) = bracket["rounds"][1]["matches"]
    assert final["status"] == "in_play" and final["started"] and final["winner"] is None
    levels = final["score"]["levels"]
    assert final["score"]["hands_played"] == 1 and sorted(levels) == ["autumn", "spring"]
    assert sorted(levels.values()) != ["2", "2"]  # a hand was won: someone went up
    r1 = {m["match_id"]: m for m in bracket["rounds"][0]["matches"]}
    assert (r1["R1-1"]["status"], r1["R1-1"]["forfeit"], r1["R1-1"]["score"]["hands_played"]) == \
        ("decided", "summer", 1)
    assert (r1["R1-2"]["status"], r1["R1-2"]["started"], r1["R1-2"]["score"]) == ("decided", False, None)

    open_page(driver, f"{s.server.url}/pages/tournaments/{KO}/bracket")
    box = driver.find_element(By.CSS_SELECTOR, ".match-box[data-match='R2-1']")
    assert "in-play" in box.get_attribute("class")
    assert box.find_element(By.CSS_SELECTOR, ".match-status").text == "● in play · 1 hand"
    shown = {t.get_attribute("data-team"): t.find_element(By.CSS_SELECTOR, ".level").text
             for t in box.find_elements(By.CSS_SELECTOR, ".team")}
    assert shown == {team: f"level {level}" for team, level in levels.items()}
    assert texts(driver, ".in-play-line") == ["In play: R2-1 (春队 (spring) v 秋队 (autumn))"]
    assert texts(driver, ".match-box[data-match='R1-1'] .forfeit") == ["forfeited by 夏队 (summer)"]
    assert texts(driver, ".match-box[data-match='R1-1'] .team.winner .name") == ["春队 (spring)"]
    # a line from each semi-final to its winner's place in the final, drawn left to right
    lines = driver.execute_script("""return [...document.querySelectorAll('svg.lines path')].map(p => {
        const r = p.getBoundingClientRect();
        return [p.dataset.to, p.dataset.team, Math.round(r.width)]; })""")
    assert sorted(line[:2] for line in lines) == [["R2-1", "autumn"], ["R2-1", "spring"]]
    assert all(width >= 20 for *_, width in lines), lines
    screenshot(driver, "bracket-in-play")


def test_the_bracket_of_a_result_only_knockout_joins_its_rounds(scene, browser):
    """Bridge (T-9): round 2 drawn from the winners of round 1, one line to each of its teams."""
    s, driver = scene, browser
    at = api(s, f"/v1/tournaments/{BRIDGE}")["position"]  # before the rest of round 1
    for k in (3, 4):
        post(s.admin, BRIDGE, "ResultRecorded", {"match_id": f"R1-{k}", "winner": f"b{2 * k}"})
    post(s.admin, BRIDGE, "LotsDrawn", {"purpose": "pairing", "round": 2, "byes": [], "matches": [
        {"match_id": "R2-1", "teams": ["b1", "b4"]}, {"match_id": "R2-2", "teams": ["b6", "b8"]}]})
    open_page(driver, f"{s.server.url}/pages/tournaments/{BRIDGE}/bracket")
    lines = driver.execute_script(
        "return [...document.querySelectorAll('svg.lines path')].map(p => [p.dataset.to, p.dataset.team])")
    assert sorted(lines) == [["R2-1", "b1"], ["R2-1", "b4"], ["R2-2", "b6"], ["R2-2", "b8"]]
    open_page(driver, f"{s.server.url}/pages/tournaments/{BRIDGE}/bracket#at={at}")
    assert driver.find_elements(By.CSS_SELECTOR, "svg.lines path") == []  # no round 2 then


def test_provisional_standings_show_undecided_places_as_bands(scene, browser):
    s, driver = scene, browser
    # as of the second result of round 1 (a test above may have gone on): two of four decided
    events = api(s, f"/v1/tournaments/{BRIDGE}/streams/tournament-{BRIDGE}?limit=100")["events"]
    at = [e["position"] for e in events if e["type"] == "ResultRecorded"][1]
    view = api(s, f"/v1/tournaments/{BRIDGE}/standings?at={at}")
    assert view["final"] is False
    bands = {r["team"]: r["places"] for r in view["ranking"]}
    # the winners of R1-1 and R1-2 are in the last four; their losers hold 5–8; the four
    # teams of R1-3 and R1-4, still to play, may end anywhere
    assert bands == {"b1": [1, 4], "b4": [1, 4], "b2": [5, 8], "b3": [5, 8],
                     "b5": [1, 8], "b6": [1, 8], "b7": [1, 8], "b8": [1, 8]}
    open_page(driver, f"{s.server.url}/pages/tournaments/{BRIDGE}/standings#at={at}")
    shown = dict(zip(texts(driver, "#standings td[data-col='team']"),
                     texts(driver, "#standings td[data-col='place']")))
    assert shown == {f"桥{t[1:]}队 ({t})": f"{lo}–{hi}" for t, (lo, hi) in bands.items()}
    assert texts(driver, "#title .badge") == ["provisional"]
    screenshot(driver, "standings-provisional")


def test_the_rounds_page_shows_each_rounds_pairings_and_results(scene, browser):
    s, driver = scene, browser
    view = api(s, f"/v1/tournaments/{TEAMS}/rounds")
    one, two = view["rounds"]
    assert one["complete"] and not two["complete"]
    open_page(driver, f"{s.server.url}/pages/tournaments/{TEAMS}/rounds")
    assert texts(driver, "#rounds h2") == ["Round 1 complete", "Round 2 in progress"]
    names = {t["team"]: t["name"] for t in view["teams"]}
    for number, round_ in ((1, one), (2, two)):
        for meeting in round_["meetings"]:
            for table in meeting["tables"]:
                row = f"section[data-round='{number}'] tr[data-match='{table['match_id']}']"
                cells = dict(zip(["table", "pair", "A", "B", "status", "result", "points"],
                                 texts(driver, row + " td")))
                a, b = meeting["teams"]
                assert cells["A"].startswith(f"{names[a]} ({a}) " + "、".join(table["players"]["A"]))
                assert cells["B"].startswith(f"{names[b]} ({b}) " + "、".join(table["players"]["B"]))
                result = table["result"]
                if number == 1:
                    assert cells["status"] == "played"
                    assert cells["result"].startswith(
                        f"levels {result['levels']['A']} : {result['levels']['B']}")
                    assert cells["points"] == f"{result['points']['A']} : {result['points']['B']}"
                else:
                    assert (cells["status"], cells["result"]) == ("● in play", "—")
    screenshot(driver, "rounds")

    # linked from the tournament's page and from the home page
    open_page(driver, f"{s.server.url}/pages/tournaments/{TEAMS}")
    assert texts(driver, "#pages a") == ["Rounds", "Standings", "Disputes"]


def test_a_mahjong_replay_is_loaded_in_one_request(scene, browser):
    """The replay page used to read the hand at every position (about 300 requests for a
    mahjong hand); it reads GET …/hands/1/replay once, and steps through what it answered."""
    s, driver = scene, browser
    replay = api(s, f"/v1/tournaments/{MJO}/matches/S1-T1/hands/1/replay")
    steps = replay["steps"]
    assert len(steps) > 100 and replay["next"] is None
    before = len(s.server.requests)
    open_page(driver, f"{s.server.url}/pages/tournaments/{MJO}/matches/S1-T1/hands/1/replay"
                      f"#token={s.mj_referee}")
    driver.find_element(By.ID, "last").click()
    wait_until(driver, lambda d: d.execute_script("return document.body.dataset.shown") ==
               str(steps[-1]["position"]), "the last step")
    asked = [r["path"] + ("?" + r["query"] if r["query"] else "") for r in s.server.requests[before:]
             if r["path"].startswith("/v1/")]
    assert [p for p in asked if "/hands/" in p] == [f"/v1/tournaments/{MJO}/matches/S1-T1/hands/1/replay"]
    assert len(asked) <= 6, asked  # the tournament, the match, the replay, disputes, rulings
    assert texts(driver, "#step-counter") == [
        f"Step {len(steps)} / {len(steps)} · position {steps[-1]['position']}"]
    last = steps[-1]["view"]
    for seat in range(4):
        shown = driver.execute_script(
            "return [...document.querySelectorAll(arguments[0])].map(e => e.dataset.tile)",
            f".seat-panel[data-seat='{seat}'] .concealed .tile")
        assert shown == last["seats"][seat]["concealed"]
    screenshot(driver, "replay-mjo-one-request")


def test_a_hands_result_is_told_in_words_with_the_players_beside_their_seats(scene, browser):
    s, driver = scene, browser
    match = api(s, f"/v1/tournaments/{KO}/matches/R2-1")
    result = api(s, f"/v1/tournaments/{KO}/matches/R2-1/hands/1")["result"]
    up = result["leveling_side"]
    players = ", ".join(seat["player"] for seat in match["seats"] if seat["side"] == up)
    defenders = "B" if result["dealer_side"] == "A" else "A"
    defending = ", ".join(seat["player"] for seat in match["seats"] if seat["side"] == defenders)
    driver.get(f"{s.server.url}/pages/assets/paiju.css")  # this origin, to clear its storage
    driver.execute_script("sessionStorage.clear()")
    open_page(driver, f"{s.server.url}/pages/tournaments/{KO}/matches/R2-1/hands/1/replay")
    said = texts(driver, "[data-panel='result'] .in-words p")
    assert f"Side {up} ({players}) up {result['result']['levels']} level" in said[1]
    assert said[1].endswith(f": {result['levels_before'][up]} → {result['levels'][up]}.")
    assert said[0].startswith(f"The defenders, side {defenders} ({defending}), took "
                              f"{result['final_points']} points")
    seat = match["seats"][2]
    assert texts(driver, ".seat-panel[data-seat='2'] .who strong") == ["Seat 2"]
    assert f"Seat 2 {seat['player']} · side {seat['side']}" in texts(driver, ".seat-panel[data-seat='2'] .who")[0]
    screenshot(driver, "replay-result-in-words")
