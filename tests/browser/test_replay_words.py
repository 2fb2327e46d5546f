"""The replay page names the games' own things in the reader's language, in Chromium (zh, en):
a Guandan hand's tribute case by the words of seed 001 (单下: 「末家向头游进贡一张」) where it
showed the API's code (``single``, ``partnerLast``), a Sichuan ledger's payments by why they are
made (杠分, not ``kong``) with the server's note said in the same language, and a win's value
by its pattern and fans (基本胡, 杠后炮)."""
from __future__ import annotations

import pytest
from browser_harness import LiveServer, open_page, screenshot, texts, wait_until
from clients import admin_client, token_for
from gd_table import Table as GDTable
from mjs_table import Table as MJSTable
from mjs_table import ex8_kong_replacement_discarded
from tables import ok

from events.memory_store import InMemoryEventStore
from service import create_app


@pytest.fixture(scope="module")
def tables():
    app = create_app(store=InMemoryEventStore())
    admin = admin_client(app)
    gd = GDTable(admin)
    gd.deal()
    gd.steer([0, 1, 2])          # seats 0 and 2 first and third: single down
    gd.deal()                    # hand 2, its tribute not yet paid
    mjs = MJSTable(admin)
    ex8_kong_replacement_discarded(mjs)
    mjs.ok("Claim", seat=0, kind="win")
    mjs.settle()
    server = LiveServer(app)
    yield app, admin, server, gd, mjs
    server.stop()


def replay_at_the_end(driver, app, server, table, hand: int) -> None:
    """The replay of ``hand`` at its last step, read with the committee's token."""
    steps = ok(admin_client(app).get(
        f"/v1/tournaments/{table.tid}/matches/{table.mid}/hands/{hand}/replay"))["steps"]
    last = steps[-1]["position"]
    token = token_for(app, "committee", table.tid)
    open_page(driver, f"{server.url}/pages/tournaments/{table.tid}/matches/{table.mid}/hands/"
                      f"{hand}/replay#token={token}&pos={last}")
    wait_until(driver, lambda d: d.execute_script("return document.body.dataset.shown") == str(last),
               f"position {last} to be shown")


def hand_player(hand: dict, seat: int) -> str:
    return next(s["player"] for s in hand["seats"] if s["seat"] == seat)


def test_the_tribute_case_is_said_in_the_seeds_words(tables, browser, language):
    app, _, server, gd, _ = tables
    replay_at_the_end(browser, app, server, gd, 2)
    said = texts(browser, "section.panel[data-panel=tribute] .in-words p")
    assert said == {"zh": ["进贡：单下，末家向头游进贡一张。"],
                    "en": ["Tribute: single down, the last player pays the first one card."]}[language]
    screenshot(browser, f"replay-tribute-{language}")


def test_the_ledger_says_why_each_payment_is_made_in_the_readers_language(tables, browser, language):
    app, admin, server, _, mjs = tables
    replay_at_the_end(browser, app, server, mjs, 1)
    hand = ok(admin.get(f"/v1/tournaments/{mjs.tid}/matches/{mjs.mid}/hands/1",
                        headers={"Accept-Language": language}))
    payments = texts(browser, "section.panel[data-panel=ledger] li")
    why = {"zh": ["杠分 (MJS-7.1)", "胡牌 (MJS-6.4)", "退杠分 (MJS-7.2)"],
           "en": ["kong payment (MJS-7.1)", "win (MJS-6.4)", "kong payment returned (MJS-7.2)"]}
    who = {"zh": "座位{seat}（{player}）", "en": "seat {seat} ({player})"}[language]
    assert len(payments) == len(hand["ledger"]) == 3
    for shown, reason, payment in zip(payments, why[language], hand["ledger"], strict=True):
        payer = who.format(seat=payment["from"], player=hand_player(hand, payment["from"]))
        payee = who.format(seat=payment["to"], player=hand_player(hand, payment["to"]))
        assert shown.lower().startswith(payer.lower()) and payee in shown, shown
        assert shown.endswith(f" — {reason}: {payment['note']}"), shown
    assert hand["ledger"][0]["note"] == {"zh": "3号座位的直杠（9m）",
                                         "en": "seat 3's direct kong (直杠) of 9m"}[language]
    win = texts(browser, ".tiles-centre .win")
    assert len(win) == 1 and win[0].endswith({
        "zh": " · 基本胡；杠后炮1番：共1番，4分",
        "en": " · basic; win on the discard after a kong 1: fan 1, 4 points"}[language]), win
    screenshot(browser, f"replay-ledger-{language}")
