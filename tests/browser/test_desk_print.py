"""The desk's print views (issue 34, item 6) in a real headless Chromium signed in at the desk:
the round's pairing table (对阵表), a pre-filled score sheet per table with its QR code, the
standings and the results bulletin (成绩公告), each printed to PDF by Chromium (printToPDF, A4
from the print style sheet). The PDF's own text is read back (pypdf) and compared with what the
API says — tables, matches, teams, the players at seats 0-3, levels, places and tie-breaks —
and each sheet's QR code is decoded from the PDF page (rendered by pdfium, read by zxing-cpp):
it opens that table's sheet-entry form. In Chinese and in English. The tournaments are set up
through the API: an SJ3 team event (积分编排) of four teams recorded from score sheets, and a
GD knockout of eight pairs played to its end from score sheets."""
from __future__ import annotations

import base64
import io
import re

import pypdf
import pypdfium2
import pytest
import zxingcpp
from browser_harness import ARTIFACTS, LiveServer, chromium, open_page, screenshot, wait_until
from clients import admin_client, client_as
from tables import Clock, ok

from events.memory_store import InMemoryEventStore
from service import create_app

T = "/v1/tournaments"
SJ3, GD = "jnu-desk", "gd-desk"
A4 = (595, 842)  # points, within one point
SHEET = {"recording": "sheet"}


# --- the tournaments, through the API -------------------------------------------------------------

def post(client, tid: str, event_type: str, data: dict, stream: str | None = None) -> dict:
    return ok(client.post(f"{T}/{tid}/events", json={
        "type": event_type, "stream": stream or f"tournament-{tid}", "data": data}))


def team_event(client) -> None:
    """SJ3, 积分编排 (T-6): four teams of a leader and two pairs; round 1 paired by lots and its
    four tables started; one row entered on the first table's sheet."""
    ok(client.post(T, json={"tournament_id": SJ3, "name": "暨南大学“校庆杯”", "game": "SJ3",
                            "format": "swiss-teams", "date": "2006-05-27",
                            "settings": {"rounds": 3, "match": SHEET}}))
    for k, team in enumerate(["红棉", "木棉", "紫荆", "凤凰"], 1):
        post(client, SJ3, "TeamRegistered", {
            "team_id": f"t{k}", "name": f"{team}队", "leader": f"{team}领队",
            "players": [f"{team}{n}" for n in "甲乙丙丁"]})
    ok(client.post(f"{T}/{SJ3}/pairings"))
    for table in tables_of(client, SJ3, 1):
        ok(client.post(f"{T}/{SJ3}/matches", json={"match_id": table["match_id"]}))
    first = tables_of(client, SJ3, 1)[0]["match_id"]
    post(client, SJ3, "HandResultRecorded", {"hand": 1, "dealer": 0, "trump": "S",
                                             "trick_points": 60, "kitty_points": 10,
                                             "multiplier": 0}, f"match-{SJ3}:{first}")


def tables_of(client, tid: str, n: int) -> list[dict]:
    """The tables of round ``n`` as the rounds read lists them (a meeting's a, then b)."""
    rnd = ok(client.get(f"{T}/{tid}/rounds"))["rounds"][n - 1]
    return [{**table, "teams": meeting["teams"]} for meeting in rnd["meetings"]
            for table in meeting["tables"]]


def finish_team_event_round(client) -> None:
    """Every table of round 1 played out from its sheet: the dealers' side takes every hand
    with the defenders at 0 (SJ3: three levels a hand) until it passes A."""
    for table in tables_of(client, SJ3, 1):
        play_out(client, SJ3, table["match_id"], "HandResultRecorded",
                 lambda n: {"hand": n, "dealer": 0, "trump": "S", "trick_points": 0,
                            "kitty_points": 0, "multiplier": 0} if n == 1 else
                 {"hand": n, "trick_points": 0, "kitty_points": 0, "multiplier": 0})


def play_out(client, tid: str, mid: str, event_type: str, row) -> None:
    for _ in range(30):
        match = ok(client.get(f"{T}/{tid}/matches/{mid}"))
        if match["status"] == "completed":
            return
        post(client, tid, event_type, row(match["next_hand"]), f"match-{tid}:{mid}")
    raise AssertionError(f"{mid} did not end")


def guandan_knockout(client) -> None:
    """GD, knockout of eight pairs (seed 001): every round drawn by the server and played out
    from the sheets, side A (the first drawn) going out first and third each hand."""
    ok(client.post(T, json={"tournament_id": GD, "name": "华商杯掼蛋邀请赛", "game": "GD",
                            "format": "knockout", "settings": {"match": SHEET}}))
    for k in range(1, 9):
        post(client, GD, "TeamRegistered", {"team_id": f"p{k}", "name": f"第{k}队",
                                            "players": [f"甲{k}", f"乙{k}"]})
    for _ in range(3):
        ok(client.post(f"{T}/{GD}/draws"))
        bracket = ok(client.get(f"{T}/{GD}/bracket"))
        for line in bracket["rounds"][-1]["matches"]:
            ok(client.post(f"{T}/{GD}/matches", json={"match_id": line["match_id"]}))
            play_out(client, GD, line["match_id"], "GDHandResultRecorded",
                     lambda n: {"hand": n, "order": [0, 2, 1, 3]})


def served(*set_ups):
    """An app of its own, each set-up done through its API, and its live server."""
    app = create_app(store=InMemoryEventStore(clock=Clock()))
    admin = admin_client(app)
    for set_up in set_ups:
        set_up(admin)
    return app, admin, LiveServer(app)


@pytest.fixture(scope="module")
def day():
    app, admin, server = served(team_event, guandan_knockout)
    yield app, admin, server
    server.stop()


@pytest.fixture(scope="module")
def finished_team_event():
    """The team event of ``day`` with its round 1 played out, on a server of its own: the
    tests of ``day`` expect that round as it was left (one row entered), in whatever order the
    workers take them."""
    app, admin, server = served(team_event, finish_team_event_round)
    yield app, admin, server
    server.stop()


# --- the browser, signed in at the desk, and its PDFs ------------------------------------------------

def signed_in(server, admin, tid: str, language: str):
    """Chromium signed in as the tournament's referee with a one-time code, as a volunteer
    would be (the session cookie; no token in any URL)."""
    driver = chromium(language)
    code = ok(admin.post(f"{T}/{tid}/sign-in-codes", json={"role": "referee",
                                                         "name": "裁判长"}))["code"]
    driver.get(server.url + "/pages/")
    status = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch('/v1/sessions', {method: 'POST', credentials: 'same-origin',"
        " headers: {'Content-Type': 'application/json'}, body: JSON.stringify({code: arguments[0]})})"
        ".then(r => done(r.status), e => done(String(e)));", code)
    assert status == 201
    return driver


@pytest.fixture(params=["zh-CN", "en-US"], ids=["zh", "en"])
def language(request):
    return request.param


def printed(driver, url: str, name: str) -> bytes:
    """The page at ``url`` printed to PDF by Chromium, at the page size the print style sheet
    asks for; a screenshot of the page on screen beside it."""
    open_page(driver, url)
    screenshot(driver, name)
    pdf = base64.b64decode(driver.execute_cdp_cmd("Page.printToPDF", {
        "preferCSSPageSize": True, "printBackground": True})["data"])
    (ARTIFACTS / f"{name}.pdf").write_bytes(pdf)
    return pdf


def pages_of(pdf: bytes) -> list[str]:
    """Each page's text as pypdf reads it, without white space (a PDF places words, not
    spaces: what counts is the order of what is written)."""
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    for page in reader.pages:
        width, height = float(page.mediabox.width), float(page.mediabox.height)
        assert abs(width - A4[0]) < 1.5 and abs(height - A4[1]) < 1.5, (width, height)
    return [squash(page.extract_text()) for page in reader.pages]


def squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def in_order(text: str, *items: str) -> None:
    """Each of ``items`` is in ``text``, each after the one before."""
    at = 0
    for item in items:
        found = text.find(squash(item), at)
        assert found >= 0, f"{item!r} not found after {text[max(0, at - 40):at]!r} in {text!r}"
        at = found + len(squash(item))


def qr_codes(pdf: bytes) -> list[list[str]]:
    """The QR codes on each page of the PDF, decoded from the page as pdfium draws it."""
    found = []
    for page in pypdfium2.PdfDocument(pdf):
        bitmap = page.render(scale=3, grayscale=True)
        pixels = memoryview(bitmap.buffer).cast("B", shape=[bitmap.height, bitmap.stride])
        found.append([code.text for code in zxingcpp.read_barcodes(pixels)])
    return found


WORDS = {"zh-CN": {"pairings": "对阵表", "seat": "座位", "sheet": "记分表", "start": "开始时级别",
                   "after": "第1局后级别", "bulletin": "成绩公告", "ties": "同分时的排名",
                   "final": "最终成绩"},
         "en-US": {"pairings": "Pairing table", "seat": "Seat", "sheet": "Score sheet",
                   "start": "Levels at start", "after": "Levels after hand 1",
                   "bulletin": "Results bulletin", "ties": "How ties are broken",
                   "final": "Final."}}


# --- the pairing table ------------------------------------------------------------------------------

def test_the_pairing_table_prints_each_table_with_its_teams_and_seats(day, language):
    app, admin, server = day
    driver = signed_in(server, admin, SJ3, language)
    try:
        pdf = printed(driver, f"{server.url}/desk/t/{SJ3}/print/pairings?round=1",
                      f"desk-print-pairings-{language}")
    finally:
        driver.quit()
    (text,) = pages_of(pdf)
    words = WORDS[language]
    in_order(text, words["pairings"], "暨南大学“校庆杯”", words["seat"] + "0", words["seat"] + "3")
    names = {t["team_id"]: t["name"] for t in ok(admin.get(f"{T}/{SJ3}"))["teams"]}
    tables = tables_of(admin, SJ3, 1)
    assert len(tables) == 4
    expected = []
    for number, table in enumerate(tables, 1):
        seats = ok(admin.get(f"{T}/{SJ3}/matches/{table['match_id']}"))["seats"]
        # T-6.4: pair a against pair a; SJ3-1.2: partners opposite, side A at seats 0 and 2
        assert [s["player"] for s in seats] == [table["players"]["A"][0], table["players"]["B"][0],
                                                table["players"]["A"][1], table["players"]["B"][1]]
        expected += [f"{number}{table['match_id']}", names[table["teams"][0]],
                     names[table["teams"][1]], *(s["player"] for s in seats)]
    in_order(text, *expected)


# --- the score sheets -------------------------------------------------------------------------------

def test_each_table_gets_its_own_sheet_whose_qr_code_opens_its_entry_form(day, language):
    app, admin, server = day
    tables = tables_of(admin, SJ3, 1)
    driver = signed_in(server, admin, SJ3, language)
    try:
        pdf = printed(driver, f"{server.url}/desk/t/{SJ3}/print/sheets?round=1",
                      f"desk-print-sheets-{language}")
        pages, codes = pages_of(pdf), qr_codes(pdf)
        # scanned, the last table's code opens that match's sheet-entry form at the desk
        driver.get(codes[-1][0])
        opened = wait_until(driver, lambda d: d.execute_script(
            "return document.body.dataset.page === 'desk-sheet' && document.body.dataset.mid"),
            "the sheet-entry form")
        assert opened == tables[-1]["match_id"]
    finally:
        driver.quit()
    assert len(pages) == len(codes) == len(tables)  # one A4 page a table
    names = {t["team_id"]: t["name"] for t in ok(admin.get(f"{T}/{SJ3}"))["teams"]}
    words = WORDS[language]
    for number, (table, text, found) in enumerate(zip(tables, pages, codes), 1):
        mid = table["match_id"]
        match = ok(admin.get(f"{T}/{SJ3}/matches/{mid}"))
        assert found == [f"{server.url}/desk/t/{SJ3}/matches/{mid}/sheet"]
        seats = [f"{words['seat']}{s['seat']}{s['player']}" for s in match["seats"]]
        in_order(text, words["sheet"], mid, *seats, names[table["teams"][0]],
                 names[table["teams"][1]])
        if match["hands_played"]:  # the row entered already is on the sheet, grey
            assert match["levels"] == {"A": "3", "B": "2"}
            in_order(text, words["after"], "3", "2", "1", "0", "60", "10", "0")
        else:
            assert match["levels"] == {"A": "2", "B": "2"}
            in_order(text, words["start"], "2", "2")
        in_order(text, *(str(n) for n in range(1, 17)))  # SJ3's sixteen rows


def test_a_guandan_sheet_has_the_going_out_order_and_opens_its_own_match(day):
    app, admin, server = day
    driver = signed_in(server, admin, GD, "zh-CN")
    try:
        pdf = printed(driver, f"{server.url}/desk/t/{GD}/print/matches/R1-3/sheet",
                      "desk-print-sheet-gd-zh")
    finally:
        driver.quit()
    (text,), (found,) = pages_of(pdf), qr_codes(pdf)
    assert found == [f"{server.url}/desk/t/{GD}/matches/R1-3/sheet"]
    match = ok(admin.get(f"{T}/{GD}/matches/R1-3"))
    in_order(text, "记分表", "R1-3", *(s["player"] for s in match["seats"]),
             "头游", "二游", "三游", "末游", "抗贡")
    # the five rows played, each with the level played and the levels after it
    for row in ok(admin.get(f"{T}/{GD}/matches/R1-3/hands"))["hands"]:
        in_order(text, f"{row['hand']}{row['level']}", row["levels"]["A"], row["levels"]["B"])


# --- the standings and the bulletin ----------------------------------------------------------------------

def test_the_bulletin_prints_the_places_and_how_ties_are_broken(day, language):
    app, admin, server = day
    driver = signed_in(server, admin, GD, language)
    try:
        pdf = printed(driver, f"{server.url}/desk/t/{GD}/print/bulletin",
                      f"desk-print-bulletin-{language}")
    finally:
        driver.quit()
    (text,) = pages_of(pdf)
    standings = ok(admin.get(f"{T}/{GD}/standings"))
    assert standings["final"] and standings["champion"]
    words = WORDS[language]
    champion = next(r["name"] for r in standings["ranking"] if r["team"] == standings["champion"])
    in_order(text, words["bulletin"], "华商杯掼蛋邀请赛", words["final"], champion)
    # T-2.4: the final and the third-place match decide 1-4; the four out in round 1 share 5-8
    assert [r["places"] for r in standings["ranking"]] == [[1, 1], [2, 2], [3, 3], [4, 4]] + \
        [[5, 8]] * 4
    places = [(f"{r['places'][0]}–{r['places'][1]}" if r["places"][0] != r["places"][1]
               else str(r["place"])) + r["name"] for r in standings["ranking"]]
    assert places[0] == "1" + champion
    in_order(text, *places, words["ties"], "T-2.4")


def test_the_team_event_standings_print_scores_and_tie_breaks(finished_team_event):
    app, admin, server = finished_team_event
    driver = signed_in(server, admin, SJ3, "zh-CN")
    try:
        pdf = printed(driver, f"{server.url}/desk/t/{SJ3}/print/standings",
                      "desk-print-standings-zh")
        bulletin = printed(driver, f"{server.url}/desk/t/{SJ3}/print/bulletin",
                           "desk-print-bulletin-team-event-zh")
    finally:
        driver.quit()
    standings = ok(admin.get(f"{T}/{SJ3}/standings"))
    rows = [(str(r["place"]) + ("=" if r["tied"] else ""), r["name"], r["leader"],
             str(r["score"]), str(r["tie_break_1"]), str(r["tie_break_2"]))
            for r in standings["ranking"]]
    assert [r[3] for r in rows] == ["4", "4", "0", "0"]  # both tables of a meeting won
    (text,), (said,) = pages_of(pdf), pages_of(bulletin)
    in_order(text, "名次", *(cell for row in rows for cell in row))
    in_order(said, "成绩公告", *(cell for row in rows for cell in row), "同分时的排名", "T-6.8")


# --- who may print, and what is asked ------------------------------------------------------------------

def test_the_print_views_are_the_desk_s_and_refuse_what_is_not_drawn(day):
    app, admin, server = day
    views = ("print", "print/pairings", "print/sheets", "print/standings", "print/bulletin",
             "print/matches/R1-1/sheet")
    for view in views:
        assert admin.get(f"/desk/t/{GD}/{view}").status_code == 200, view
        player = client_as(app, "player", GD, "R1-1", 0)
        assert player.get(f"/desk/t/{GD}/{view}").status_code == 403, view
        assert app.test_client().get(f"/desk/t/{GD}/{view}").status_code == 401, view
    assert admin.get(f"/desk/t/{GD}/print/pairings?round=9").status_code == 404
    assert admin.get(f"/desk/t/{GD}/print/sheets?round=x").status_code == 400
    assert admin.get(f"/desk/t/{GD}/print/matches/R9-9/sheet").status_code == 404
    assert admin.get("/desk/t/nowhere/print/pairings").status_code == 404
    page = admin.get(f"/desk/t/{GD}/print").get_data(as_text=True)
    for n in (1, 2, 3):  # one click to every round's pairing table and sheets
        assert f"/desk/t/{GD}/print/pairings?round={n}" in page
        assert f"/desk/t/{GD}/print/sheets?round={n}" in page


def test_groups_of_four_print_their_tables_seats_and_no_mahjong_rows(day):
    """A Sichuan mahjong stage (T-8.1, tables of four by lots): the pairing table seats each
    entrant where the draw put it; a mahjong table has no score sheet to fill (it is recorded
    from its tablets), its page only the seats and the QR code of its live page."""
    app, admin, server = day
    tid = "mjs-desk"
    ok(admin.post(T, json={"tournament_id": tid, "name": "川麻比赛", "game": "MJS",
                           "format": "groups"}))
    for k in range(1, 9):
        post(admin, tid, "TeamRegistered", {"team_id": f"m{k}", "name": f"选手{k}",
                                            "players": [f"选手{k}"]})
    ok(admin.post(f"{T}/{tid}/draws"))
    stage = ok(admin.get(f"{T}/{tid}/groups"))["stages"][0]
    page = admin.get(f"/desk/t/{tid}/print/pairings", headers={"Accept-Language": "zh"})
    cells = re.findall(r'<td data-seat="(\d)"><bdi dir="auto" class="player">(.*?)</bdi>',
                       page.get_data(as_text=True))
    assert cells == [(str(s["seat"]), f"选手{s['team'][1:]}") for table in stage["tables"]
                     for s in table["seats"]]
    sheet = admin.get(f"/desk/t/{tid}/print/matches/{stage['tables'][0]['match_id']}/sheet",
                      headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "there is no score sheet to fill" in sheet and 'class="print rows"' not in sheet
    assert f"/pages/tournaments/{tid}/matches/{stage['tables'][0]['match_id']}/hands/1/replay" \
        in sheet
