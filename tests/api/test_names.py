"""Names that display as what they are (issue 41; T-1.2, rules/names.py): stored in NFC, and
refused (422 naming T-1.2, or the row and column of a CSV file) when empty once their invisible
characters are removed, or when they hold a direction-changing or another control or format
character; a log that already holds such a name still replays and reads. And the 415's title
names the media types the routes take."""
import unicodedata

import pytest

from events.catalogue import tournament_stream
from events.envelope import NewEvent
from rules.names import check_name, check_text
from rules.violations import RuleViolation
from tests.spec import assert_matches

TID = "ottawa-2006"
EVENTS = f"/v1/tournaments/{TID}/events"
ENTRANTS = f"/v1/tournaments/{TID}/entrants"
HEADER = "team_id,name,player1,player2,organisation\n"


def registered(team_id="a", name="北京一队", players=("王伟", "李雷"), **extra) -> dict:
    return {"type": "TeamRegistered", "stream": tournament_stream(TID),
            "data": {"team_id": team_id, "name": name, "players": list(players), **extra}}


def event(event_type: str, **data) -> dict:
    return {"type": event_type, "stream": tournament_stream(TID), "data": data}


def problem(response, status: int, slug: str) -> dict:
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    body = response.json
    assert_matches("Problem", body)
    assert body["type"] == f"urn:paiju:problem:{slug}"
    return body


def refused(response) -> dict:
    body = problem(response, 422, "rule-violation")
    assert body["rule"] == "T-1.2" and body["detail"].startswith("T-1.2: ")
    return body


def log(client) -> list[dict]:
    return client.get(f"{EVENTS}?limit=1000").json["events"]


def teams(client) -> list[dict]:
    return client.get(f"/v1/tournaments/{TID}").json["teams"]


# --- through the API ------------------------------------------------------------------------

def test_a_team_of_invisible_names_is_refused_and_nothing_is_stored(client, tournament):
    before = log(client)
    body = refused(client.post(EVENTS, json=registered(name="\u200b\u200b",
                                                       players=("\u200b", "\u200d"))))
    assert body["detail"] == "T-1.2: name is empty once its invisible characters are removed"
    assert (body["event_index"], body["path"]) == (0, "/")
    body = refused(client.post(EVENTS, json=registered(players=("王伟", "\u200d"))))
    assert body["detail"] == "T-1.2: players/1 is empty once its invisible characters are " \
                             "removed"
    body = refused(client.post(EVENTS, json=registered(players=("\u200b", "李雷"))))
    assert "players/0 is empty" in body["detail"]
    assert log(client) == before


@pytest.mark.parametrize("name", ["🀄️队\u202eטסט\u200b", "队\u202aA", "A\u2066队\u2069",
                                  "\u200f王伟"])
def test_a_name_holding_a_direction_control_is_refused(client, tournament, name):
    body = refused(client.post(EVENTS, json=registered(name=name)))
    assert "which changes the direction of the text around it" in body["detail"]
    assert teams(client) == []


def test_the_refusal_names_the_character(client, tournament):
    body = refused(client.post(EVENTS, json=registered(name="🀄️队\u202eטסט\u200b")))
    assert body["detail"] == ("T-1.2: name holds U+202E RIGHT-TO-LEFT OVERRIDE, which changes "
                              "the direction of the text around it: it would not display as "
                              "it is written")


@pytest.mark.parametrize("member, value", [
    ("name", "王\u200b伟"), ("name", "王\u200d伟"), ("name", "队\u00ad"), ("name", "\ufeff队"),
    ("name", "一\t队"), ("name", "一\n队"), ("organisation", "北京\u2028同乡会"),
    ("leader", "张\u0007三"), ("players", ["王伟", "李\u2060雷"]),
])
def test_other_control_and_format_characters_are_refused(client, tournament, member, value):
    extra = {"leader": "张三"} if member != "leader" else {}
    body = refused(client.post(EVENTS, json=registered(**{**extra, member: value})
                               if member != "players" else registered(players=value)))
    assert "an invisible control or format character" in body["detail"]
    assert teams(client) == []


def test_the_refusal_is_said_in_chinese(client, tournament):
    response = client.post(f"{EVENTS}?lang=zh", json=registered(players=("王伟", "李\u200b雷")))
    body = problem(response, 422, "rule-violation")
    assert body["rule"] == "T-1.2"
    assert body["detail"].startswith("T-1.2（")
    assert "players/1 含有 U+200B ZERO WIDTH SPACE，这是不可见的控制字符或格式字符" in body["detail"]


@pytest.mark.parametrize("name", [
    "👨\u200d👩\u200d👧",             # an emoji ZWJ sequence: a family
    "🏳️\u200d🌈 队",                  # with a variation selector before the joiner
    "👩🏽\u200d💻",                    # with a skin tone
    "🏴\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F",  # Scotland's flag
    "نیک\u200cنام",                    # Persian writes ZWNJ inside words
    "王　伟",                           # an ideographic space inside a name
    "葛\U000E0100城",                   # an ideographic variation sequence
    "🀄️队",
])
def test_the_characters_names_need_are_allowed(client, tournament, name):
    response = client.post(EVENTS, json=registered(name=name))
    assert response.status_code == 201, response.json
    assert teams(client)[0]["name"] == unicodedata.normalize("NFC", name)


def test_names_are_stored_in_nfc(client, tournament):
    decomposed = "Zoe\u0301"                # e + COMBINING ACUTE ACCENT
    compatibility = "\uf9d1"              # CJK COMPATIBILITY IDEOGRAPH-F9D1 (六)
    response = client.post(EVENTS, json=registered(
        name=f"第{compatibility}队", players=(decomposed, "李雷"), organisation="Cafe\u0301"))
    assert response.status_code == 201, response.json
    stored = response.json["data"]
    assert stored["name"] == "第六队" and stored["name"] != f"第{compatibility}队"
    assert stored["players"] == ["Zoé", "李雷"] and stored["organisation"] == "Café"
    assert teams(client)[0]["players"][0] == "Zo\u00e9"
    # the same player, sent composed, is the same name: entered once (T-1.6)
    body = problem(client.post(EVENTS, json=registered("b", players=("Zo\u00e9", "韩梅梅"))),
                   422, "rule-violation")
    assert body["rule"] == "T-1.6"


def test_the_tournament_name_and_venue(client):
    body = refused(client.post("/v1/tournaments", json={
        "name": "春季赛\u202e", "game": "SJ2", "format": "knockout"}))
    assert body["detail"].startswith("T-1.2: name holds U+202E")
    body = refused(client.post("/v1/tournaments", json={
        "name": "春季赛", "venue": "\u200b", "game": "SJ2", "format": "knockout"}))
    assert body["detail"] == "T-1.2: venue is empty once its invisible characters are removed"
    assert client.get("/v1/tournaments").json["tournaments"] == []
    response = client.post("/v1/tournaments", json={
        "name": "Cafe\u0301 杯", "game": "SJ2", "format": "knockout"})
    assert response.status_code == 201 and response.json["name"] == "Café 杯"


def test_ruling_and_dispute_texts(client, tournament):
    body = refused(client.post(EVENTS, json=event("RulingRecorded", text="判定\u202e无效")))
    assert body["detail"].startswith("T-1.2: text holds U+202E")
    body = refused(client.post(EVENTS, json=event(
        "RulingRecorded", text="判定", effects=[{"kind": "forfeit", "rule": "discretion",
                                                "member": "\u200b", "entrant": "x"}])))
    assert body["detail"].startswith("T-1.2: effects/0/member is empty")
    body = refused(client.post(EVENTS, json=event("DisputeRaised", dispute_id="d1",
                                                  claim="\u200b \u200b")))
    assert body["detail"].startswith("T-1.2: claim is empty")
    # a text may hold paragraphs
    response = client.post(EVENTS, json=event("RulingRecorded",
                                              text="第一段\n第二段\r\n\t第三段\u2028完"))
    assert response.status_code == 201, response.json
    body = refused(client.post(EVENTS, json=event("TeamWithdrawn", team_id="a",
                                                  reason="退赛\u0000")))
    assert body["detail"].startswith("T-1.2: reason holds U+0000")


def test_the_faulty_event_of_a_batch_is_named(client, tournament):
    before = log(client)
    body = refused(client.post(EVENTS, json={"events": [
        registered("a"), registered("b", name="二队", players=("甲", "乙\u202e"))]}))
    assert (body["event_index"], body["path"]) == (1, "/events/1")
    assert body["detail"].startswith("T-1.2: players/1 holds U+202E")
    assert log(client) == before


def test_a_name_is_judged_alone_by_the_rule():
    """The rule itself (rules/names.py), pure: names refuse line breaks, texts allow them."""
    check_text("text", "a\nb")
    with pytest.raises(RuleViolation) as refused_:
        check_name("name", "a\nb")
    assert refused_.value.rule == "T-1.2"
    for ok in ("王伟", "Zoé", "👨\u200d👩\u200d👧", "क्\u200dष"):
        check_name("name", ok)
    for bad in ("", " ", "\u3000", "\u3164", "\ufe0f", "\u2800", "a\U000E0067", "\u200d王"):
        with pytest.raises(RuleViolation):
            check_name("name", bad)


# --- through the CSV import -----------------------------------------------------------------

def upload(client, text: str, content_type: str = "text/csv"):
    return client.post(ENTRANTS, data=text.encode("utf-8"), headers={"Content-Type": content_type})


def test_csv_names_are_judged_by_row_and_column_and_nothing_is_stored(client, tournament):
    before = log(client)
    text = HEADER + ("p1,北京一队,王伟,李雷,北京同乡会\n"
                     "p2,\u200b\u200b,甲,乙,\n"
                     "p3,三队,丙,丁\u202e,\n"
                     "p4,四队,戊,己,同乡\u200b会\n"
                     "-x,五队,庚,\u200d,\n")
    body = problem(upload(client, text), 400, "validation-failed")
    faults = [(e["row"], e["column"], e.get("rule")) for e in body["errors"]]
    assert faults == [(3, "name", "T-1.2"), (4, "player2", "T-1.2"),
                      (5, "organisation", "T-1.2"), (6, "team_id", None),
                      (6, "player2", "T-1.2")]
    assert body["errors"][0] == {
        "path": "/3/name", "in": "csv", "row": 3, "column": "name", "rule": "T-1.2",
        "message": "T-1.2: name is empty once its invisible characters are removed"}
    assert body["errors"][1]["message"].startswith("T-1.2: player2 holds U+202E")
    assert body["detail"].startswith("4 bad row(s): nothing was stored.")
    assert log(client) == before


def test_csv_names_are_stored_in_nfc(client, tournament):
    response = upload(client, HEADER + "p1,Cafe\u0301,Zoe\u0301,\uf9d1,\n")
    assert response.status_code == 201, response.json
    team = teams(client)[0]
    assert (team["name"], team["players"]) == ("Café", ["Zoé", "六"])


# --- the 415's title ------------------------------------------------------------------------

TITLE = "The request body must be application/json (text/csv for a file of entrants), in UTF-8"


@pytest.mark.parametrize("content_type, detail", [
    ("text/csv; charset=gbk", "charset must be utf-8, not gbk: save the file as CSV UTF-8"),
    ("application/json", "Content-Type must be text/csv, not application/json"),
])
def test_the_csv_route_says_what_it_takes(client, tournament, content_type, detail):
    body = problem(client.post(ENTRANTS, data=b"team_id", headers={"Content-Type": content_type}),
                   415, "unsupported-media-type")
    assert (body["title"], body["detail"]) == (TITLE, detail)
    assert body["accept"] == ["text/csv; charset=utf-8"]


def test_a_json_route_says_what_it_takes(client, tournament):
    body = problem(client.post(EVENTS, data=b"team_id", content_type="text/csv"),
                   415, "unsupported-media-type")
    assert (body["title"], body["accept"]) == (TITLE, ["application/json"])
    body = problem(client.post(f"{EVENTS}?lang=zh", data=b"{}",
                               content_type="application/json; charset=gbk"),
                   415, "unsupported-media-type")
    assert body["title"] == "请求体必须是 UTF-8 编码的 application/json（参赛者文件为 text/csv）"


# --- a log from before the rule -------------------------------------------------------------

def test_a_log_holding_such_names_still_replays_and_reads(app, client, tournament):
    """An old log — its events appended before the rule, straight to the store as an import or
    an earlier version did — is a fact: it folds, reads, verifies and takes new events."""
    store = app.extensions["paiju"].store
    old = [NewEvent("TeamRegistered", tournament_stream(TID),
                    {"team_id": "old", "name": "\u200b\u200b", "players": ["\u200b", "\u200d"]}),
           NewEvent("TeamRegistered", tournament_stream(TID),
                    {"team_id": "rtl", "name": "🀄️队\u202eטסט\u200b",
                     "players": ["Zoe\u0301", "李\u2066雷"]}),
           NewEvent("RulingRecorded", tournament_stream(TID), {"text": "旧\u202e裁决"})]
    store.append(TID, old)
    view = client.get(f"/v1/tournaments/{TID}").json
    assert [(t["name"], t["players"]) for t in view["teams"]] == [
        ("\u200b\u200b", ["\u200b", "\u200d"]),
        ("🀄️队\u202eטסט\u200b", ["Zoe\u0301", "李\u2066雷"])]  # as stored: not normalised
    assert view["rulings"][0]["text"] == "旧\u202e裁决"
    assert [e["data"].get("name") for e in log(client)[1:3]] == ["\u200b\u200b",
                                                                  "🀄️队\u202eטסט\u200b"]
    # new events are judged, the old ones are not judged again
    assert client.post(EVENTS, json=event("TeamWithdrawn", team_id="old")).status_code == 201
    assert client.post(EVENTS, json=registered("new")).status_code == 201
    refused(client.post(EVENTS, json=registered("bad", name="\u200b")))
    assert [t["team_id"] for t in teams(client)] == ["old", "rtl", "new"]
    assert client.get(f"/v1/tournaments/{TID}/export").status_code == 200
    assert store.verify(TID).ok
    assert client.get(f"/pages/tournaments/{TID}").status_code == 200  # the page


# --- a tournament's time zone (the pages show its moments in it) ------------------------------

@pytest.mark.parametrize("zone, status", [("Asia/Shanghai", 201), ("America/Toronto", 201),
                                          ("Mars/Base", 400), ("America", 400), ("../etc", 400)])
def test_a_tournament_names_its_time_zone_from_the_iana_database(zone, status):
    from clients import admin_client

    from events.memory_store import InMemoryEventStore
    from service import create_app

    client = admin_client(create_app(store=InMemoryEventStore()))
    response = client.post("/v1/tournaments", json={
        "tournament_id": "tz", "name": "北京时间杯", "game": "SJ2", "format": "knockout",
        "time_zone": zone})
    assert response.status_code == status, response.json
    if status == 201:
        assert client.get("/v1/tournaments/tz").json["time_zone"] == zone
    else:
        assert [e["path"] for e in response.json["errors"]] == ["/time_zone"]
