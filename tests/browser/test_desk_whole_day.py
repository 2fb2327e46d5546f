"""A whole tournament day through the desk only (issue 34, acceptance): against a real ``paiju
serve`` started as ``make run`` starts it (its timer running), the officials sign in with
one-time codes and, by clicking and typing in Chromium (in Chinese),

(a) create an SJ3 积分编排 team event of 8 teams over 3 rounds recorded from score sheets, upload
    its entrants (CSV), draw round 1 by lots, start its tables, enter every table's sheet row by
    row to the match's end, pair and start rounds 2 and 3 and enter theirs;
(b) create a Guandan knockout of 8 pairs with check-in, upload and check them in, draw each
    round (playing cards, then lots), start it and enter every sheet to the final;
(c) the rule committee raises a dispute about a table of the last round on the disputes page,
    previews its ruling (a substituted row: the penalty was against the wrong side), records it
    and resolves the dispute with it;
(d) the organiser draws lots for the places the team event's standings still share (T-6.8).

The same day is then posted through the API to a second ``paiju serve``, by bearer tokens of
the same officials (same roles, same names), in the same order, with the lots the desk's server
drew (round 1's pairing, the knockout's draws, the standings' ties: the only things a server
chooses): the standings, the rounds, the bracket and the exports must be equal. What an export may differ in, and why, is :func:`comparable`'s docstring.

Each match's rows are chosen to end it in one or two rows (GD: five or six), as the rules allow:
a point penalty of 600 against the defenders gives the dealer side 3 + 10 levels (SJ3-10.4,
SJ3-11.1), past A (SJ3-12.3); 920 points to the defenders (600 of them a penalty against the
dealer side) give them the deal and 13 levels. A few pages are checked in English at the end
(the other desk tests cover both languages on every page). Screenshots go to test-artifacts/.
"""
from __future__ import annotations

import json
import re
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from browser_harness import LiveServer, chromium, screenshot
from clients import admin_client
from desk_driver import Api, DeskPage, Served
from tables import Clock, ok

from events.memory_store import InMemoryEventStore
from service import create_app
from service.sessions import issue_sign_in_code

LANGUAGE = "zh-CN"
OFFICIALS = {"organiser": "编排组 王老师", "referee": "裁判长 李老师", "committee": "仲裁委员会 钟致鹏"}

SJ3_TEAMS = [("hist", "历史系"), ("chin", "中文系"), ("math", "数学系"), ("phys", "物理系"),
             ("chem", "化学系"), ("lang", "外语系"), ("econ", "经济学院"), ("mgmt", "管理学院")]
GD_PAIRS = [(f"g{k}", name) for k, name in enumerate(
    ["华商一队", "华商二队", "侨联队", "同乡会队", "老友队", "新秀队", "海珠队", "天河队"], start=1)]


@dataclass
class Event:
    tid: str
    name: str
    game: str
    format: str
    venue: str
    typed: dict            # the form's settings, by the pointer of their field, as typed
    settings: dict         # what the tournament must then hold
    csv: str
    teams: list[str] = field(default_factory=list)

    def body(self) -> dict:
        """POST /v1/tournaments as the API replay sends it."""
        return {"tournament_id": self.tid, "name": self.name, "game": self.game,
                "format": self.format, "venue": self.venue, "settings": self.settings}


SJ3 = Event("sj3-day", "暨南大学“校庆杯”团体赛", "SJ3", "swiss-teams", "教职工之家",
            {"/settings/rounds": 3, "/settings/match/recording": "sheet"},
            {"rounds": 3, "match": {"recording": "sheet"}},
            "team_id,name,player1,player2,player3,player4,leader\n" + "".join(
                f"{t},{n},{n}甲,{n}乙,{n}丙,{n}丁,{n}领队\n" for t, n in SJ3_TEAMS),
            [t for t, _ in SJ3_TEAMS])
GD = Event("gd-day", "华商杯掼蛋邀请赛", "GD", "knockout", "侨联活动中心",
           {"/settings/checkIn": "leaveOut", "/settings/thirdPlace": "shared",
            "/settings/match/recording": "sheet"},
           {"checkIn": "leaveOut", "thirdPlace": "shared", "match": {"recording": "sheet"}},
           "team_id,name,player1,player2\n" + "".join(
               f"{t},{n},{n}东,{n}西\n" for t, n in GD_PAIRS),
           [t for t, _ in GD_PAIRS])
def named(team: str) -> str:
    """A team as the pages name it (common.js teamName): its name, then its id."""
    return f"{(dict(SJ3_TEAMS) | dict(GD_PAIRS))[team]} ({team})"


ROUNDS = 3  # both: the team event's setting; 8 pairs knocked out in 3


# --- the rows of each sheet (fields as the desk's entry row names them) ------------------------------

A_PASSES_A = {"dealer": 0, "trump": "S", "trick_points": 0, "penalty-B": 600}  # P −600: A +13
B_PASSES_A = {"dealer": 1, "trump": "H", "trick_points": 0, "penalty-A": 600}  # P −600: B +13
B_UP_TWO = {"dealer": 1, "trump": "D", "trick_points": 40, "error-A": True}     # P 40: B +2 (SJ3-11.2 floor +1)
A_TAKES_ALL = {"dealer": 3, "trump": "C", "trick_points": 280, "kitty_points": 20,
               "multiplier": 2, "penalty-B": 600}                                # P 920: A takes, +13
B_AGAIN = {"dealer": 3, "trump": "C", "trick_points": 0, "penalty-A": 600}       # P −600: B +13


def sj3_rows(mid: str) -> list[dict]:
    """Round n, meeting k: table a ends in one row, table b in two; who wins varies."""
    n, k, pair = re.fullmatch(r"R(\d+)-(\d+)([ab])", mid).groups()
    n, k = int(n), int(k)
    if pair == "a":
        return [A_PASSES_A if (n + k) % 2 == 0 else B_PASSES_A]
    return [B_UP_TWO, A_TAKES_ALL if (n + k) % 3 else B_AGAIN]


def sj3_data(hand: int, row: dict) -> dict:
    """The HandResultRecorded data the desk makes of a row (desk_sheet.js rowData)."""
    return {"hand": hand, "dealer": row["dealer"], "trump": row["trump"],
            "trick_points": row["trick_points"], "kitty_points": row.get("kitty_points", 0),
            "multiplier": row.get("multiplier", 0),
            "penalties": [{"side": s, "points": row[f"penalty-{s}"]} for s in "AB"
                          if f"penalty-{s}" in row],
            "follow_errors": [s for s in "AB" if row.get(f"error-{s}")]}


def gd_winner(mid: str) -> str:
    n, k = (int(x) for x in re.fullmatch(r"R(\d+)-(\d+)", mid).groups())
    return "A" if (n + k) % 2 == 0 else "B"


def gd_rows(mid: str) -> list[dict]:
    """A double-up four times and the hand at A (GD-6.1, GD-6.3): side A in five rows; side B
    after losing the first hand 1–4 (A +1), in six."""
    orders = [[0, 2, 1, 3]] * 5 if gd_winner(mid) == "A" else [[0, 1, 3, 2]] + [[1, 3, 0, 2]] * 5
    return [{f"place-{p}": seat for p, seat in enumerate(order, start=1)} for order in orders]


def gd_data(hand: int, row: dict) -> dict:
    return {"hand": hand, "order": [row[f"place-{p}"] for p in range(1, 5)]}


def planned(event: Event, mid: str) -> tuple[list[dict], list[dict]]:
    """A match's rows: as typed at the desk, and as the API's event data."""
    rows = sj3_rows(mid) if event.game == "SJ3" else gd_rows(mid)
    make = sj3_data if event.game == "SJ3" else gd_data
    return rows, [make(hand, row) for hand, row in enumerate(rows, start=1)]


# The dispute: the last round's first table, its one row's penalty against the wrong side.
DISPUTED = "R3-1a"
DISPUTE = {"dispute_id": "d-R3-1a", "claim": "记分员把600分罚分记在了防守方，应罚庄家方"}
RULING_TEXT = "罚分应记在庄家方：以更正后的记分行代替原行"
RESOLUTION = "按更正后的记分行计算本桌结果"


def corrected(row: dict) -> dict:
    """The disputed row with its penalty against the other side (and the trick points the
    defenders then took): the other side wins."""
    data = sj3_data(1, row)
    against = data["penalties"][0]["side"]
    return {**data, "trick_points": 300,
            "penalties": [{"side": "A" if against == "B" else "B", "points": 600}]}


def row_position(api: Api, tid: str, mid: str, hand: int) -> int:
    stream = f"match-{tid}:{mid}"
    return next(e["position"] for e in api.log(tid) if e["stream"] == stream
                and e["type"] == "HandResultRecorded" and e["data"]["hand"] == hand)


def ruling_data(position: int) -> dict:
    """The RulingRecorded data of the committee's form (ruling.js body())."""
    return {"text": RULING_TEXT, "dispute_id": DISPUTE["dispute_id"], "effects": [{
        "kind": "substitute", "rule": "discretion", "member": OFFICIALS["committee"],
        "dispute_id": DISPUTE["dispute_id"], "position": position,
        "data": corrected(sj3_rows(DISPUTED)[0])}]}


# --- the day, once at the desk and once through the API ----------------------------------------------

def tables_of(api: Api, event: Event, n: int) -> list[str]:
    """Round ``n``'s matches as the server lists them (a team event's meetings, table a then
    b; a bracket's matches)."""
    if event.format == "swiss-teams":
        round_ = api.get(f"/v1/tournaments/{event.tid}/rounds")["rounds"][n - 1]
        return [t["match_id"] for m in round_["meetings"] for t in m["tables"]]
    return [m["match_id"] for m in api.get(f"/v1/tournaments/{event.tid}/bracket")["rounds"][n - 1]["matches"]]


def round_act(api: Api, event: Event, n: int) -> str:
    """The desk's button for round ``n``: the team event's round 1 by lots, later rounds by
    the rules (or the proposal confirmed where every pairing is a rematch, T-6.4); the
    knockout's round 1 by playing cards (T-5.5), later rounds by lots (T-2.1)."""
    if event.format == "knockout":
        return "draw-cards" if n == 1 else "draw-lots"
    if n == 1:
        return "draw-lots"
    return "pair" if api.get(f"/v1/tournaments/{event.tid}/rounds")["next"]["pairable"] else "confirm"


def play_day(day, tmp_path: Path) -> None:
    """The day's order of work, the same for the desk and for the API."""
    began = time.monotonic()

    def said(what: str) -> None:  # where the time goes (pytest -s)
        print(f"{type(day).__name__} {time.monotonic() - began:6.1f} s  {what}")
    for event in (SJ3, GD):
        said(f"{event.tid}")
        day.create(event)
        day.entrants(event, tmp_path)
        if event.format == "knockout":
            day.check_in(event)
        for n in range(1, ROUNDS + 1):
            day.make_round(event, n)
            day.start(event, n)
            day.sheets(event, n)
            said(f"{event.tid} round {n}")
        day.ended(event)
    day.dispute(SJ3)
    said("the dispute ruled")
    day.settle_ties(SJ3)  # after the ruling, which may have changed the places
    said("the standings final")


class DeskDay:
    """The day at the desk: the organiser's Chromium and a referee's (where the committee signs
    in at the end), each signed in with one-time codes."""

    def __init__(self, served: Served, organiser, referee, morning_codes: dict):
        self.served, self.admin = served, served.api()
        self.morning_codes = morning_codes  # the operator's, by (role, tournament)
        self.organiser = DeskPage(organiser, served.url)
        self.referee = DeskPage(referee, served.url)
        self.referee_of: str | None = None

    def code(self, event: Event, role: str) -> str:
        """A code issued through the API (POST …/sign-in-codes) with the operator's token."""
        return self.admin.post(f"/v1/tournaments/{event.tid}/sign-in-codes",
                               {"role": role, "name": OFFICIALS[role]})["code"]

    def create(self, event: Event) -> None:
        # the organiser's code is the operator's: the tournament it is for is yet to be made
        code = self.morning_codes[("organiser", event.tid)]
        page = self.organiser
        if page.driver.current_url.startswith(self.served.url):
            page.sign_out()  # signed in for the tournament before: a code is typed anew
        page.sign_in(code, "/desk/new", typed=True)
        assert (page.session()["role"], page.session()["actor"]) == ("organiser", OFFICIALS["organiser"])
        page.new_tournament(event.tid, event.name, event.game, event.format, event.venue, event.typed)
        screenshot(page.driver, f"desk-day-{event.game}-created")
        made = self.admin.get(f"/v1/tournaments/{event.tid}")
        assert (made["name"], made["format"], made["settings"]) == (event.name, event.format, event.settings)
        page.follow("#created a[data-page='entrants']", f"/desk/t/{event.tid}/entrants")

    def entrants(self, event: Event, tmp_path: Path) -> None:
        path = tmp_path / f"{event.tid}.csv"
        path.write_text(event.csv, encoding="utf-8")
        said = self.organiser.upload_entrants(path)
        assert said == f"已登记 {len(event.teams)} 支参赛队。"
        if event.format != "knockout":  # T-2.6: a knockout's check-in only
            assert not self.organiser.present("#check-in button")
        self.organiser.wait(lambda: len(self.organiser.texts("#teams tbody tr")) == len(event.teams),
                            "the entrants listed")
        screenshot(self.organiser.driver, f"desk-day-{event.game}-entrants")

    def check_in(self, event: Event) -> None:
        self.organiser.check_in(event.teams)
        assert all(t["checked_in"] for t in self.admin.get(f"/v1/tournaments/{event.tid}")["teams"])

    def make_round(self, event: Event, n: int) -> None:
        page = self.organiser
        page.go("desk-rounds", f"/desk/t/{event.tid}/rounds")
        act = round_act(self.admin, event, n)
        if act == "confirm":
            page.type("#next input[name=reason]", "八队三轮，按建议编排")
        shown = page.make_round(act, n)
        assert shown == tables_of(self.admin, event, n)

    def start(self, event: Event, n: int) -> None:
        self.organiser.start_round(n)
        started = {m["match_id"] for m in self.admin.get(f"/v1/tournaments/{event.tid}/matches")["matches"]}
        assert set(tables_of(self.admin, event, n)) <= started
        if n == 1:
            screenshot(self.organiser.driver, f"desk-day-{event.game}-round-1-started")

    def sheets(self, event: Event, n: int) -> None:
        page, rounds = self.referee, f"/desk/t/{event.tid}/rounds"
        if self.referee_of != event.tid:
            page.sign_in(self.code(event, "referee"), rounds)
            self.referee_of = event.tid
        else:
            page.go("desk-rounds", rounds)
        for mid in tables_of(self.admin, event, n):
            page.open_sheet(event.tid, mid)
            rows, _ = planned(event, mid)
            for hand, row in enumerate(rows, start=1):
                page.enter_row(hand, row)
            page.wait(page.ended, f"{mid} over")
            match = self.admin.get(f"/v1/tournaments/{event.tid}/matches/{mid}")
            assert (match["status"], match["hands_played"]) == ("completed", len(rows))
            shown = page.js("const x = document.querySelector('#now .levels');"
                            "return {A: x.dataset.a, B: x.dataset.b}")
            assert shown == match["levels"]
            assert page.texts("#now .ended") == ["比赛结束"]
            if mid in ("R1-1b", "R3-1") and n in (1, 3):
                screenshot(page.driver, f"desk-day-{event.game}-sheet-{mid}")
            page.go("desk-rounds", rounds)

    def ended(self, event: Event) -> None:
        """The organiser's rounds page once the last round is in: the knockout's champion."""
        page = self.organiser
        page.go("desk-rounds", f"/desk/t/{event.tid}/rounds")
        if event.format == "knockout":
            champion = self.admin.get(f"/v1/tournaments/{event.tid}/bracket")["champion"]
            assert page.texts("#next .champion") == [f"冠军：{named(champion)}"]
        else:
            assert page.texts("#next .ended")[0].startswith("第3轮后结束（T-6.11）")
        screenshot(page.driver, f"desk-day-{event.game}-ended")

    def settle_ties(self, event: Event) -> None:
        """T-6.8: places still shared after the last round are drawn by lots, from the rounds
        page, by the tournament's organiser (signed in again: the desk last ran the other)."""
        page = self.organiser
        page.sign_out()
        page.sign_in(self.code(event, "organiser"), f"/desk/t/{event.tid}/rounds")
        if self.admin.get(f"/v1/tournaments/{event.tid}/standings")["final"]:
            assert not page.present("[data-act='standings-lots']")
            return
        screenshot(page.driver, "desk-day-SJ3-tied")
        page.click("#next [data-act='standings-lots']")
        page.wait(lambda: not page.present("[data-act='standings-lots']")
                  or page.texts("#next .form-error") != [""], "the lots drawn")
        assert page.texts("#next .form-error") in ([""], [])
        assert self.admin.get(f"/v1/tournaments/{event.tid}/standings")["final"]

    def dispute(self, event: Event) -> None:
        page = self.referee
        disputes = f"/pages/tournaments/{event.tid}/disputes"
        page.sign_in(self.code(event, "committee"), disputes)
        position = row_position(self.admin, event.tid, DISPUTED, 1)
        page.fill_form("raise", {**DISPUTE, "match_id": DISPUTED, "hand": 1, "positions": position})
        page.submit("raise")
        assert page.done_or_refused("raise") == f"申诉 {DISPUTE['dispute_id']} 已提出。"
        page.click(f"[data-act='rule'][data-dispute='{DISPUTE['dispute_id']}']")
        ruling = ruling_data(position)
        effect = ruling["effects"][0]
        stream = f"match-{event.tid}:{DISPUTED}"
        page.fill_form("ruling", {"stream": stream, "text": RULING_TEXT, "kind": "substitute"})
        assert page.find("form[data-form='ruling'] [name='member']").get_attribute("value") == effect["member"]
        page.fill_form("ruling", {"position": position,
                                  "data": json.dumps(effect["data"], ensure_ascii=False)})
        before = len(self.admin.log(event.tid))
        page.submit("ruling", "preview")
        page.wait(lambda: page.texts("form[data-form='ruling'] .preview h4"), "the preview")
        preview = self.admin.post(f"/v1/tournaments/{event.tid}/rulings/preview",
                                  {"stream": stream, "data": ruling})
        shown = page.js("return [...document.querySelectorAll('.preview .change')].map(c =>"
                        " [c.dataset.projection, [...c.querySelectorAll('td[data-col=path]')]"
                        ".map(td => td.textContent)])")
        assert shown == [[p["projection"], [c["path"] for c in p["changes"]]]
                         for p in preview["projections"]]
        assert "/winner" in dict(shown)["match"]  # the other side wins the table
        assert len(self.admin.log(event.tid)) == before  # a preview stores nothing
        screenshot(page.driver, "desk-day-ruling-preview")
        page.submit("ruling", "record")
        page.wait(lambda: page.present("form[data-form='resolve']"), "the resolve form")
        page.fill_form("resolve", {"text": RESOLUTION})
        page.submit("resolve")
        assert page.done_or_refused("resolve") == f"申诉 {DISPUTE['dispute_id']} 已裁决。"


class ApiDay:
    """The same day through the API of another server: bearer tokens of the same officials,
    the desk server's lots (``lots_from``) recorded as they were drawn."""

    def __init__(self, served: Served, lots_from: Api):
        self.served, self.lots_from = served, lots_from
        self.clients: dict[tuple[str, str], Api] = {}

    def as_(self, role: str, event: Event) -> Api:
        key = (role, event.tid)
        if key not in self.clients:
            self.clients[key] = self.served.api(self.served.token(role, event.tid, OFFICIALS[role]))
        return self.clients[key]

    def create(self, event: Event) -> None:
        self.as_("organiser", event).post("/v1/tournaments", event.body())

    def entrants(self, event: Event, tmp_path: Path) -> None:
        self.as_("organiser", event).post(f"/v1/tournaments/{event.tid}/entrants",
                                          raw=event.csv.encode(), content_type="text/csv; charset=utf-8")

    def check_in(self, event: Event) -> None:
        for team in event.teams:
            self.as_("organiser", event).event(event.tid, "TeamCheckedIn", f"tournament-{event.tid}",
                                               {"team_id": team})

    def make_round(self, event: Event, n: int) -> None:
        api = self.as_("organiser", event)
        act = round_act(api, event, n)
        if act.startswith("draw"):  # what the server drew, recorded as it was
            (drawn,) = [e["data"] for e in self.lots_from.log(event.tid) if e["type"] == "LotsDrawn"
                        and e["data"]["purpose"] == "pairing" and e["data"]["round"] == n]
            api.event(event.tid, "LotsDrawn", f"tournament-{event.tid}", drawn)
        elif act == "pair":
            api.post(f"/v1/tournaments/{event.tid}/pairings", {"round": n})
        else:
            api.post(f"/v1/tournaments/{event.tid}/pairings",
                     {"round": n, "confirm": True, "reason": "八队三轮，按建议编排"})

    def start(self, event: Event, n: int) -> None:
        for mid in tables_of(self.as_("organiser", event), event, n):
            self.as_("organiser", event).post(f"/v1/tournaments/{event.tid}/matches", {"match_id": mid})

    def sheets(self, event: Event, n: int) -> None:
        api = self.as_("referee", event)
        kind = "HandResultRecorded" if event.game == "SJ3" else "GDHandResultRecorded"
        for mid in tables_of(api, event, n):
            for data in planned(event, mid)[1]:
                api.event(event.tid, kind, f"match-{event.tid}:{mid}", data)

    def ended(self, event: Event) -> None:
        pass

    def settle_ties(self, event: Event) -> None:
        api = self.as_("organiser", event)
        if api.get(f"/v1/tournaments/{event.tid}/standings")["final"]:
            return
        # one after the other, as the server appended them: each draw is judged on the log
        # with the draws before it (a batch is judged on the log before the batch)
        for drawn in self.lots_from.log(event.tid):
            if drawn["type"] == "LotsDrawn" and drawn["data"]["purpose"] == "standingsTie":
                api.event(event.tid, "LotsDrawn", drawn["stream"], drawn["data"])

    def dispute(self, event: Event) -> None:
        api = self.as_("committee", event)
        position = row_position(api, event.tid, DISPUTED, 1)
        stream = f"tournament-{event.tid}"
        api.event(event.tid, "DisputeRaised", stream,
                  {**DISPUTE, "match_id": DISPUTED, "hand": 1, "positions": [position]})
        ruled = api.event(event.tid, "RulingRecorded", f"match-{event.tid}:{DISPUTED}",
                          ruling_data(position))
        api.event(event.tid, "DisputeResolved", stream, {
            "dispute_id": DISPUTE["dispute_id"], "text": RESOLUTION, "ruling_event_id": ruled["id"]})


# --- comparing the two days ---------------------------------------------------------------------------

def comparable(export: str) -> list[dict]:
    """An export (jsonl) with what legitimately differs between two servers given the same
    day left out:

    * each event's ``id`` (the desk's script or the server makes a new UUID for each),
      ``recorded_at`` (the clock of the moment) and ``hash`` / ``prev_hash`` (they chain over
      the ids and times); an event id named in another event's data (a dispute resolved by a
      ruling) is replaced by the position of the event it names, which must be the same;
    * ``meta.correlation_id`` (a request's id) and ``meta.token_id`` (each server's tokens
      and sessions have their own ids) — ``meta.actor`` and ``meta.role`` are compared: the
      same officials, by name, posted each event;
    * the manifest's ``exported_at``, ``last_hash`` and ``signature`` (each deployment signs
      with its own key) — its counts and positions are compared.

    Everything else — every event's type, stream, data, position and version — must be equal."""
    lines = [json.loads(line) for line in export.splitlines() if line.strip()]
    *events, manifest = lines
    positions = {e["id"]: e["position"] for e in events}

    def named(value):
        if isinstance(value, dict):
            return {k: named(v) for k, v in value.items()}
        if isinstance(value, list):
            return [named(v) for v in value]
        return {"event at position": positions[value]} if value in positions else value

    kept = [{**{k: named(v) for k, v in e.items() if k not in ("id", "recorded_at", "hash", "prev_hash")},
             "meta": {k: v for k, v in e["meta"].items() if k not in ("correlation_id", "token_id")}}
            for e in events]
    return kept + [{k: v for k, v in manifest["manifest"].items() if k not in ("exported_at", "last_hash")}]


def reads(api: Api, event: Event) -> dict:
    base = f"/v1/tournaments/{event.tid}"
    paths = ["/standings", "/rounds"] if event.format == "swiss-teams" else ["/standings", "/bracket"]
    out = {path: api.get(base + path) for path in paths}
    out["export"] = comparable(api.get(base + "/export?format=jsonl"))
    return out


# --- the test -----------------------------------------------------------------------------------------

@pytest.fixture
def servers(tmp_path):
    """Two servers as ``make run`` starts them: the desk's, and the one the API replay posts to."""
    desk, replay = Served(tmp_path / "desk"), Served(tmp_path / "replay")
    try:
        for served in (desk, replay):
            served.prepare()
        for served in (desk, replay):
            served.start()
        # the operator hands the organiser a code per tournament (made before the tournament)
        codes = desk.operator_codes([("organiser", event.tid, OFFICIALS["organiser"])
                                     for event in (SJ3, GD)])
        for served in (desk, replay):
            served.wait_ready()
        yield desk, replay, codes
    finally:
        for served in (desk, replay):
            served.stop()


def test_a_whole_day_through_the_desk_equals_the_same_day_through_the_api(servers, tmp_path):
    began = time.monotonic()
    desk, replay, codes = servers
    organiser, referee = two_browsers()
    try:
        play_day(DeskDay(desk, organiser, referee, codes), tmp_path)
        at_the_desk = {event.tid: reads(desk.api(), event) for event in (SJ3, GD)}
        check_the_day(desk.api(), at_the_desk)
        check_in_english(DeskPage(organiser, desk.url), DeskPage(referee, desk.url), desk.api())
    finally:
        organiser.quit()
        referee.quit()
    play_day(ApiDay(replay, desk.api()), tmp_path)
    by_the_api = {event.tid: reads(replay.api(), event) for event in (SJ3, GD)}
    for tid in (SJ3.tid, GD.tid):
        for read in at_the_desk[tid]:
            assert at_the_desk[tid][read] == by_the_api[tid][read], (tid, read)
    print(f"the whole day took {time.monotonic() - began:.1f} s")


def two_browsers() -> tuple:
    """The organiser's and the referee's Chromium, started side by side (neither left running
    if the other fails to start)."""
    with ThreadPoolExecutor(2) as pool:
        starting = [pool.submit(chromium, LANGUAGE) for _ in range(2)]
    started = [f.result() for f in starting if f.exception() is None]
    if len(started) < 2:
        for driver in started:
            driver.quit()
        for f in starting:
            f.result()  # raises what stopped it
    return tuple(started)


def check_the_day(api: Api, seen: dict) -> None:
    """What the day made, as a person at the event would check it."""
    standings = seen[SJ3.tid]["/standings"]
    assert standings["final"] and len(standings["ranking"]) == len(SJ3.teams)
    table = api.get(f"/v1/tournaments/{SJ3.tid}/matches/{DISPUTED}")
    planned_winner = "A" if sj3_rows(DISPUTED)[0] is A_PASSES_A else "B"
    assert table["winner"] != planned_winner and table["edits"]  # the ruling holds
    disputes = api.get(f"/v1/tournaments/{SJ3.tid}/disputes")["disputes"]
    assert [(d["dispute_id"], d["status"]) for d in disputes] == [(DISPUTE["dispute_id"], "resolved")]
    bracket = seen[GD.tid]["/bracket"]
    (final,) = bracket["rounds"][-1]["matches"]
    assert bracket["champion"] == final["teams"][0 if gd_winner(final["match_id"]) == "A" else 1]
    for event, row_type in ((SJ3, "HandResultRecorded"), (GD, "GDHandResultRecorded")):
        events = seen[event.tid]["export"][:-1]
        matches = [mid for n in range(1, ROUNDS + 1) for mid in tables_of(api, event, n)]
        counts = Counter(e["type"] for e in events)
        assert (counts["TeamRegistered"], counts["MatchStarted"], counts[row_type]) == (
            len(event.teams), len(matches), sum(len(planned(event, mid)[0]) for mid in matches))
        assert counts["TeamCheckedIn"] == (len(event.teams) if event is GD else 0)
        roles = {e["meta"]["role"] for e in events}
        assert roles == ({"organiser", "referee", "committee"} if event is SJ3 else {"organiser", "referee"})


def check_in_english(organiser: DeskPage, committee: DeskPage, api: Api) -> None:
    """The language switch (中文 / English) on a few pages: the desk's rounds of the team
    event, the public standings and bracket; the committee's browser stays in Chinese."""
    page = organiser
    assert page.texts("#next .ended")[0].startswith("第3轮后结束")
    page.follow("a[data-lang='en']", f"/desk/t/{SJ3.tid}/rounds")
    assert page.texts("#next .ended")[0].startswith("Ended after round 3 (T-6.11)")
    assert page.texts("#title")[0].startswith("Rounds at the desk · ")
    screenshot(page.driver, "desk-day-sj3-rounds-en")
    for event, read in ((SJ3, "standings"), (GD, "bracket")):
        champion = named(api.get(f"/v1/tournaments/{event.tid}/{read}")["champion"])
        page.driver.get(f"{page.url}/pages/tournaments/{event.tid}/{read}")
        page.at(f"/pages/tournaments/{event.tid}/{read}")
        assert page.texts(".champion") == [f"Champion: {champion}"]
        screenshot(page.driver, f"desk-day-{event.game}-{read}-en")
        if event is SJ3:
            committee.driver.get(f"{committee.url}/pages/tournaments/{event.tid}/{read}")
            committee.at(f"/pages/tournaments/{event.tid}/{read}")
            assert committee.texts(".champion") == [f"冠军：{champion}"]
            screenshot(committee.driver, f"desk-day-{event.game}-{read}-zh")


# --- the places still shared, drawn by lots at the desk (T-6.8) ------------------------------------------

def test_tied_places_are_drawn_by_lots_from_the_rounds_page():
    """A team event of four teams whose one round every table ends level at the chief
    referee's alert (SJ3-12.1): all four share first place; the organiser draws the lots from
    the rounds page (in English), recorded as the server drew them; the button is gone once
    no place is shared, and the standings are final."""
    clock = Clock()
    app = create_app(store=InMemoryEventStore(clock=clock))
    api, base = admin_client(app), "/v1/tournaments/ties"
    ok(api.post("/v1/tournaments", json={"tournament_id": "ties", "name": "平局杯", "game": "SJ3",
                                         "format": "swiss-teams", "settings": {"rounds": 1}}))
    for team, name in SJ3_TEAMS[:4]:
        ok(api.post(f"{base}/events", json={"type": "TeamRegistered", "stream": "tournament-ties", "data": {
            "team_id": team, "name": name, "leader": f"{name}领队", "players": [f"{name}{k}" for k in "甲乙丙丁"]}}))
    for meeting in ok(api.post(f"{base}/pairings"))["round"]["meetings"]:
        for table in meeting["tables"]:
            ok(api.post(f"{base}/matches", json={"match_id": table["match_id"]}))
    clock.advance(minutes=80)
    ok(api.post(f"{base}/rounds/1/time"))
    assert {r["place"] for r in ok(api.get(f"{base}/standings"))["ranking"]} == {1}
    server, driver = LiveServer(app), chromium("en-US")
    try:
        page = DeskPage(driver, server.url)
        page.sign_in(issue_sign_in_code(app.extensions["paiju"].tokens, "organiser", "ties").code,
                     "/desk/t/ties/rounds")
        assert page.texts("[data-act='standings-lots']") == ["Draw lots between the equal teams (T-6.8)"]
        page.click("#next [data-act='standings-lots']")
        page.wait(lambda: not page.present("[data-act='standings-lots']"), "the lots drawn")
        standings = ok(api.get(f"{base}/standings"))
        assert standings["final"] and [r["place"] for r in standings["ranking"]] == [1, 2, 3, 4]
        lots = [e for e in ok(api.get(f"{base}/events?limit=100"))["events"] if e["type"] == "LotsDrawn"
                and e["data"]["purpose"] == "standingsTie"]
        assert len(lots) == 3 and {e["meta"]["role"] for e in lots} == {"organiser"}  # k − 1 draws
        assert page.texts("#next .ended")[0].startswith("Ended after round 1 (T-6.11)")
        assert page.texts("#next .form-error") == []
    finally:
        driver.quit()
        server.stop()
