"""The pages as the server sends them (no browser): HTML that holds no data, served to anyone,
404 for a tournament that does not exist, and nothing that would load from another host."""
from __future__ import annotations

import re

import pytest
from clients import admin_client
from sj2_table import TID, Table

from events.memory_store import InMemoryEventStore
from service import create_app
from service.api.pages import STATIC_DIR

PAGES = ["", "/disputes", "/bracket", "/standings", "/groups", "/rounds",
         "/matches/R1-1/hands/1/replay"]


@pytest.fixture(scope="module")
def app():
    app = create_app(store=InMemoryEventStore())
    table = Table(admin_client(app), {"enforcement": "record"})
    table.to_play({0: "2S QH"}, card="2S")
    return app


@pytest.mark.parametrize("page", PAGES)
def test_every_page_is_public_html_that_holds_no_data(app, page):
    response = app.test_client().get(f"/pages/tournaments/{TID}{page}")
    assert response.status_code == 200
    assert response.mimetype == "text/html"
    html = response.get_data(as_text=True)
    # the ids of the URL only: no team, player or card reaches the HTML
    for data in ("east", "west", "甲", "乙", "QH", "2S", "SJ2 test"):
        assert data not in html
    assert f'data-tid="{TID}"' in html
    policy = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "connect-src 'self'" in policy
    assert response.headers["Referrer-Policy"] == "no-referrer"


@pytest.mark.parametrize("page", PAGES)
def test_a_page_of_a_tournament_that_does_not_exist_is_a_404_problem(app, page):
    response = app.test_client().get(f"/pages/tournaments/nowhere{page}?lang=en")
    assert response.status_code == 404
    assert response.mimetype == "application/problem+json"
    assert response.json["detail"] == "no tournament 'nowhere'"
    chinese = app.test_client().get(f"/pages/tournaments/nowhere{page}")  # the default
    assert (chinese.status_code, chinese.headers["Content-Language"]) == (404, "zh-Hans")
    assert "nowhere" in chinese.json["detail"] and chinese.json["detail"] != response.json["detail"]


def test_the_replay_page_carries_its_match_and_hand_and_hand_0_is_no_page(app):
    html = app.test_client().get(f"/pages/tournaments/{TID}/matches/R1-1/hands/3/replay").get_data(
        as_text=True)
    assert 'data-mid="R1-1"' in html and 'data-hand="3"' in html
    assert app.test_client().get(f"/pages/tournaments/{TID}/matches/R1-1/hands/0/replay").status_code == 404


def test_scripts_and_styles_come_from_this_host_only(app):
    html = app.test_client().get(f"/pages/tournaments/{TID}/matches/R1-1/hands/1/replay").get_data(
        as_text=True)
    sources = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert sources and all(s.startswith("/pages/") or s in ("data:,", "/") for s in sources), sources
    for name in ("common.js", "cards.js", "replay.js", "paiju.css"):
        assert f"/pages/assets/{name}" in sources
    for path in STATIC_DIR.iterdir():  # no file of the pages names another host
        # (the SVG namespace of the bracket's lines is a name, never fetched)
        text = path.read_text(encoding="utf-8").replace('"http://www.w3.org/2000/svg"', "")
        assert not re.search(r"https?://", text), path.name


@pytest.mark.parametrize("name,mimetype", [("replay.js", "text/javascript"),
                                           ("paiju.css", "text/css")])
def test_assets_are_served_with_their_type(app, name, mimetype):
    response = app.test_client().get(f"/pages/assets/{name}")
    assert response.status_code == 200
    assert response.mimetype == mimetype
    assert response.get_data() == (STATIC_DIR / name).read_bytes()


@pytest.mark.parametrize("name", ["nothing.js", "..", "%2E%2E%2Fapi%2Fpages.py"])
def test_an_unknown_asset_is_a_404(app, name):
    response = app.test_client().get(f"/pages/assets/{name}")
    assert response.status_code == 404
    assert response.mimetype == "application/problem+json"



@pytest.mark.parametrize("path", ["/", "/pages/", "/pages/tournaments"])
def test_the_list_of_tournaments_is_a_public_page_that_holds_no_data(app, path):
    response = app.test_client().get(path)
    assert response.status_code == 200 and response.mimetype == "text/html"
    html = response.get_data(as_text=True)
    assert "SJ2 test" not in html and "data-tid" not in html
    assert "/pages/assets/home.js" in html
    assert "script-src 'self'" in response.headers["Content-Security-Policy"]
