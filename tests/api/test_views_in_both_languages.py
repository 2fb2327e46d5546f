"""The reads whose sentences the rules make say them in the reader's language, and nothing else
moves: a team event's rounds with the warnings of a pairing made by hand (T-6.4), the standings
sheet's note on an excluded team (T-6.7, SJ3-11.9), a Guandan table's clocks (GD-9, GD-11.2) and
its match ended at the time limit with the hand in play abandoned, the replays of a Guandan hand (each play's
combination) and of a Sichuan hand (its ledger's notes, a conduct penalty), and the flags and
penalties a ruling leaves in a match.

Each read is asked twice, in English and in Chinese (``Accept-Language``). The two answers have
the same shape and the same values but for the sentences; each of those is, in English, the
bytes the rules wrote before they said it in two languages (literal here, or the rules' own
English: a combination's ``describe``), and in Chinese, Chinese, with no English sentence left
(tests/api/test_refusals_in_both_languages.py's measure)."""
from __future__ import annotations

import csv
import io
import json
import re

from clients import admin_client
from gd_table import Clock as GDClock
from gd_table import Table as GDTable
from mjs_table import Table as MJSTable
from mjs_table import ex8_kong_replacement_discarded
from tables import ok
from test_refusals_in_both_languages import CHINESE, english_left
from test_rulings_effects import effect, plays, rule, started
from test_swiss_rounds_api import TID, Event

from events import default_catalogue
from events.memory_store import InMemoryEventStore
from projections.deadlines import without_countdown
from projections.matches import hand_view, load_match
from projections.viewers import Viewer
from rules import glossary
from rules.guandan.combos import describe
from service import create_app
from service.i18n import catalogue

T = "/v1/tournaments"
ENGLISH, CHINESE_READER = "en", "zh-CN,zh;q=0.9,en;q=0.5"


def read_twice(client, path: str, **query):
    """The answer to ``GET path`` in English and in Chinese, each saying its language."""
    en = client.get(path, query_string=query, headers={"Accept-Language": ENGLISH})
    zh = client.get(path, query_string=query, headers={"Accept-Language": CHINESE_READER})
    assert (en.status_code, zh.status_code) == (200, 200), (en.data[:300], zh.data[:300])
    assert (en.headers["Content-Language"], zh.headers["Content-Language"]) == ("en", "zh-Hans")
    return en, zh


def sentences_of(en, zh, path: str = "") -> dict[str, tuple[str, str]]:
    """Where two answers differ, by JSON pointer: (English, Chinese). Anything but a sentence —
    a key, a length, a number, a code — must be the same in both."""
    if isinstance(en, dict):
        assert isinstance(zh, dict) and list(en) == list(zh), path
        return {p: pair for key in en for p, pair in sentences_of(en[key], zh[key],
                                                                   f"{path}/{key}").items()}
    if isinstance(en, list):
        assert isinstance(zh, list) and len(en) == len(zh), path
        return {p: pair for k, (a, b) in enumerate(zip(en, zh))
                for p, pair in sentences_of(a, b, f"{path}/{k}").items()}
    if en == zh:
        return {}
    assert isinstance(en, str) and isinstance(zh, str), (path, en, zh)
    return {path: (en, zh)}


def english_in(text: str) -> list[str]:
    """The English words of a Chinese text (a team's pair a, 「a 对」, is a name, no article)."""
    return english_left(re.sub(r"\b[ab] ?对", "对", text))


def said_in_chinese(sentences: dict[str, tuple[str, str]]) -> None:
    for path, (_, zh) in sentences.items():
        assert CHINESE.search(zh) and not english_in(zh), (path, zh)


def kinds(sentences: dict) -> set[str]:
    """The members the sentences are found in (``/rounds/1/warnings/0`` → ``warnings``)."""
    return {next(p for p in reversed(path.split("/")) if not p.isdigit()) for path in sentences}


def no_english_anywhere(answer) -> None:
    """No text of a Chinese answer is an English sentence (names, codes and numbers stay)."""
    if isinstance(answer, dict):
        for value in answer.values():
            no_english_anywhere(value)
    elif isinstance(answer, list):
        for value in answer:
            no_english_anywhere(value)
    elif isinstance(answer, str):
        assert not english_in(answer), answer


# --- the team event: warnings of a pairing by hand, the standings sheet's note ------------------

def test_the_warnings_of_a_pairing_by_hand_and_the_note_of_an_excluded_team_in_both_languages():
    """T1's pair a is disqualified in round 1 (SJ3-11.9): T1 is out and noted on the standings
    sheet. Round 2 is paired by hand as a rematch of round 1, the third team given the bye: the
    rematch is warned of in the reader's language."""
    ev = Event(["T1", "T2", "T3", "T4"])
    r1 = ev.pair()
    ev.start_all(r1)
    ev.disqualify_pair_a(r1, "T1")
    ok(ev.call_time(1))
    x, y = next(m["teams"] for m in r1["meetings"] if "T1" not in m["teams"])
    bye = next(t for t in ("T2", "T3", "T4") if t not in (x, y))
    ev.pair(matches=[{"match_id": "R2-1", "teams": [x, y]}], byes=[bye], reason="场地")
    en, zh = read_twice(ev.client, f"{T}/{TID}/rounds")
    sentences = sentences_of(en.json, zh.json)
    assert kinds(sentences) == {"warnings", "problem"}  # and why round 3 waits
    warned = en.json["rounds"][1]["warnings"]
    assert warned == [f"rematch: {x} and {y} met in round 1"]
    assert zh.json["rounds"][1]["warnings"][0] == f"重复对阵：{x}与{y}已在第 1 轮相遇"
    said_in_chinese(sentences)

    en, zh = read_twice(ev.client, f"{T}/{TID}/standings", format="csv")
    en_rows, zh_rows = (list(csv.reader(io.StringIO(r.data.decode("utf-8-sig")))) for r in (en, zh))
    assert en_rows[0] == zh_rows[0] and en_rows[0][-1] == "备注 note"  # the sheet's own labels
    assert [row[:-1] for row in en_rows] == [row[:-1] for row in zh_rows]
    (en_note,) = [row[-1] for row in en_rows if row[1] == "T1"]
    (zh_note,) = [row[-1] for row in zh_rows if row[1] == "T1"]
    assert en_note == "取消参赛资格 pair a disqualified in round 1 (SJ3-11.9; not ranked from " \
                      "round 1 on)"
    assert zh_note.startswith("取消参赛资格 ") and "SJ3-11.9" in zh_note
    said_in_chinese({"note": (en_note, zh_note)})
    assert [row[-1] for row in en_rows[1:] if row[1] != "T1"] == ["", "", ""]

    # the desk's printed standings say the exclusion's reason in the reader's language too
    desk = ev.client.application.test_client()
    code = ok(ev.client.post(f"{T}/{TID}/sign-in-codes", json={"role": "organiser"}))["code"]
    ok(desk.post("/v1/sessions", json={"code": code}))
    en, zh = read_twice(desk, f"/desk/t/{TID}/print/standings")
    assert "T1队</bdi> — SJ3-11.9 pair a disqualified in round 1</li>" in en.get_data(as_text=True)
    assert "T1队</bdi> — SJ3-11.9 a 对在第1轮被取消资格</li>" in zh.get_data(as_text=True)


# --- Guandan: the end of a match at its time limit, and a hand's plays ----------------------------

def test_a_guandan_match_ended_by_its_time_limit_says_why_in_both_languages():
    """A wins hand 1 (A at 5), hand 2 is in play at 60 minutes: the higher level wins at once
    and hand 2, unfinished, does not count (GD-11.2)."""
    clock = GDClock()
    table = GDTable(admin_client(create_app(store=InMemoryEventStore(clock=clock))))
    table.deal()
    table.steer([0, 2])
    table.deal()
    match_path = f"{T}/{table.tid}/matches/{table.mid}"
    en, zh = read_twice(table.client, f"{match_path}/clock")  # what a table clock shows
    labels = {(c["label"], z["label"]) for c, z in zip(en.json["clocks"], zh.json["clocks"])}
    payers = table.hand_view()["tribute"]["payers"]
    assert labels == {("end of the match time (60 minutes)", "比赛时间结束（60分钟）")} | {
        (f"seat {seat} to pay tribute", f"轮到{seat}号座位进贡") for seat in payers}
    assert kinds(sentences_of(without_countdown(en.json), without_countdown(zh.json))) == {"label"}
    clock.advance(60)
    table.ok("TimeLimitReached", limit_minutes=60)

    en, zh = read_twice(table.client, match_path)
    sentences = sentences_of(en.json, zh.json)
    assert (en.json["status"], en.json["reason"]) == ("completed", "time")
    assert en.json["reason_text"] == "the higher level at the time limit (GD-11.2)"
    assert zh.json["reason_text"] == catalogue("zh").gettext(en.json["reason_text"])
    assert kinds(sentences) == {"reason_text", "void_reason"}
    said_in_chinese(sentences)
    no_english_anywhere(zh.json)

    en, zh = read_twice(table.client, f"{match_path}/hands/2")
    assert en.json["void_reason"] == "abandoned at the 60-minute limit (GD-11.2)"
    assert sentences_of(en.json, zh.json) == {
        "/void_reason": (en.json["void_reason"], "到60分钟时限时未打完，本副不计（GD-11.2）")}

    en, zh = read_twice(table.client, f"{match_path}/hands/1/replay")
    sentences = sentences_of(en.json, zh.json)
    assert kinds(sentences) == {"description"}
    played = [(step, play) for step in en.json["steps"]
              for trick in step["view"]["tricks"] + [step["view"]["current_trick"] or {"plays": []}]
              for play in trick["plays"] if not play["pass"]]
    assert len(played) > 20
    for step, play in played:  # the rules' own English, as the trick keeps it
        reading = play["reading"]
        assert play["description"] == describe(reading["type"], reading["rank"],
                                               len(play["cards"]), step["view"]["level"])
    said_in_chinese(sentences)
    no_english_anywhere(zh.json)


# --- Sichuan: the ledger's notes -----------------------------------------------------------------

def test_a_sichuan_hands_ledger_is_explained_in_both_languages():
    """mahjong-sichuan.md Ex 8 (a kong, a win on its replacement discard, the kong refunded: 杠上炮)
    and a conduct penalty (MJS-10.4), replayed."""
    table = MJSTable(admin_client(create_app(store=InMemoryEventStore())))
    ex8_kong_replacement_discarded(table)
    table.ok("ConductPenaltyAssessed", seat=2, offence="ownHand")
    table.ok("Claim", seat=0, kind="win")
    table.settle()
    path = f"{T}/{table.tid}/matches/{table.mid}/hands/1"

    en, zh = read_twice(table.client, path)
    assert [p["note"] for p in en.json["ledger"]] == [
        "seat 3's direct kong (直杠) of 9m",
        "seat 2 disclosed his own hand to mislead the others",
        "seat 0 wins 4s on seat 3's discard: basic; afterKong 1: fan 1 → 4",
        "杠上炮: seat 3 returns the payment for his direct kong (直杠) of 9m"]
    assert [p["note"] for p in zh.json["ledger"]] == [
        "3号座位的直杠（9m）",
        "2号座位透露自己的牌以误导他人",
        "0号座位胡4s，3号座位点炮：基本胡；杠后炮1番：共1番 → 4分",
        "杠上炮：3号座位退还其直杠（9m）所收的杠分"]
    sentences = sentences_of(en.json, zh.json)
    assert kinds(sentences) == {"note"}
    said_in_chinese(sentences)

    en, zh = read_twice(table.client, f"{path}/replay")
    sentences = sentences_of(en.json, zh.json)
    assert kinds(sentences) == {"note"}
    said_in_chinese(sentences)
    no_english_anywhere(zh.json)


def test_the_ledgers_words_for_the_fans_are_the_glossarys():
    """The Chinese a ledger's note gives a pattern or fan (MJS-6) is the word the replay page
    shows for it (rules/glossary.py, the seed's)."""
    zh = catalogue("zh")
    for code, term in glossary.FANS.items():
        assert zh.gettext(code) == term.zh, code


# --- what a ruling leaves in a match: flags and a committee's penalty ------------------------------

def test_the_flags_and_penalties_of_a_ruling_in_both_languages(client):
    """Voiding the first play of a trick leaves the later ones out of turn, flagged (SJ2-8.1);
    the committee's penalty carries its reason."""
    table, desk = started(client)
    first, _, _ = plays(table, 3)
    rule(desk, table.stream, effect("penalty", side="B", points=10, hand=1))
    rule(desk, table.stream, effect("void", positions=[first]))
    match_path = f"{T}/{table.tid}/matches/{table.mid}"

    en, zh = read_twice(client, match_path)
    sentences = sentences_of(en.json, zh.json)
    assert en.json["flags"] and kinds(sentences) >= {"message"}
    assert all("is seat" in f["message"] for f in en.json["flags"])
    said_in_chinese(sentences)

    en, zh = read_twice(client, f"{match_path}/hands/1")
    (penalty,) = [p for p in en.json["penalties"] if p["source"] == "committee"]
    assert penalty["reason"] == "committee ruling: ruled by 钟致鹏"
    (said,) = [p["reason"] for p in zh.json["penalties"] if p["source"] == "committee"]
    assert said == "仲裁委员会裁定：由钟致鹏裁定"
    said_in_chinese(sentences_of(en.json, zh.json))


def test_a_sentence_is_english_wherever_a_view_is_written_as_plain_json():
    """A stream's frame is the view written without a request: its sentences in English, as
    the English answer has them."""
    store = InMemoryEventStore()
    table = MJSTable(admin_client(create_app(store=store)))
    ex8_kong_replacement_discarded(table)
    table.ok("Claim", seat=0, kind="win")
    table.settle()
    folded = load_match(store, default_catalogue(), table.tid, table.mid)
    view = hand_view(folded.state, 1, Viewer("referee"))
    english = table.client.get(f"{T}/{table.tid}/matches/{table.mid}/hands/1").json
    assert json.loads(json.dumps(view))["ledger"] == english["ledger"]
