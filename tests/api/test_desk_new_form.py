"""The data of the desk's new-tournament form (service/api/desk_setup.py) against the server that
judges what the form sends: each game offered only with the formats its tournaments can be run
in, every setting's default one the server accepts when sent as it is, and every bad value
refused naming the setting's key — in English and in Chinese — which is how the form finds the
field a refusal of a setting belongs beside (the refusal's pointer is the body's root)."""
from __future__ import annotations

import json

import pytest
from clients import admin_client, client_as

from events.memory_store import InMemoryEventStore
from service import create_app
from service.api.desk_setup import new_tournament_choices
from service.settings_tables import match_tables, rule_texts_directory, tournament_tables


@pytest.fixture(scope="module")
def app():
    return create_app(store=InMemoryEventStore())


@pytest.fixture(scope="module")
def choices(app):
    with app.test_request_context("/desk/new", headers={"Accept-Language": "en"}):
        return new_tournament_choices()


def page_data(app, language: str = "en") -> dict:
    page = admin_client(app).get("/desk/new", headers={"Accept": "text/html",
                                                       "Accept-Language": language})
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    return json.loads(text.split('id="desk-choices">')[1].split("</script>")[0])


def offered(choices) -> list[tuple[str, str]]:
    return [(game, format_) for game, info in choices["games"].items()
            for format_ in info["formats"]]


def test_each_game_is_offered_with_the_formats_it_is_run_in(app, choices):
    assert {g: v["formats"] for g, v in choices["games"].items()} == {
        "SJ2": ["knockout"], "SJ3": ["knockout", "swiss-teams"], "GD": ["knockout"],
        "MJO": ["groups"], "MJS": ["groups"], "bridge": ["knockout"], "xiangqi": ["knockout"],
        "go": ["knockout"]}
    assert [g for g, v in choices["games"].items() if v["result_only"]] == ["bridge", "xiangqi",
                                                                          "go"]
    assert page_data(app)["games"] == choices["games"]


def test_the_form_shows_the_tables_the_documentation_shows(app, choices):
    data = page_data(app)
    assert data["formats"] == {k: t.to_dict() for k, t in tournament_tables().items()}
    assert set(data["matches"]) == set(match_tables()) == {"SJ2", "SJ3", "GD", "MJO", "MJS"}
    every = [s for tables in (data["formats"], data["matches"]) for table in tables.values()
             for s in table["settings"]]
    # every setting has its rules: from the code, or (three of MJS) from the rule text's table
    unnamed = [s["key"] for s in every if not s["rules"]]
    assert unnamed == ([] if rule_texts_directory() else
                       ["kongAdded", "kongConcealed", "claimWindowSeconds"])
    # each rule named in the reader's language
    assert data["titles"]["T-2.3"] == "Knockout by drawing lots"
    assert page_data(app, "zh")["titles"]["T-2.3"] == "抽签淘汰赛"


def _defaults(choices, game: str, format_: str) -> dict:
    """Every setting of the format and of the game's matches, given as its default."""
    table = choices["formats"].get(format_, {"settings": []})
    own = choices["group_defaults"].get(game, {}) if format_ == "groups" else {}
    settings = {s["key"]: own.get(s["key"], s["default"]) for s in table["settings"]
                if s["kind"] != "match" and (s["default"] is not None or s["key"] in own)}
    match = choices["matches"].get(game)
    if match:
        fixed = choices["fixed"].get(format_, [])
        settings["match"] = {
            s["key"]: s["default"] for s in match["settings"]
            if s["key"] not in fixed and (s["default"] is not None or s["nullable"])}
    return settings


def test_every_default_the_form_shows_is_accepted_as_it_is(app, choices):
    api = admin_client(app)
    for game, format_ in offered(choices):
        settings = _defaults(choices, game, format_)
        answer = api.post("/v1/tournaments", json={"name": "defaults", "game": game,
                                                   "format": format_, "settings": settings})
        assert answer.status_code == 201, (game, format_, answer.get_json())
        assert answer.get_json()["settings"] == settings


def _bad(setting: dict):
    if setting["kind"] == "choice":
        return "nope"
    if setting["kind"] == "flag":
        return "yes"
    if setting["kind"] in ("whole", "positive"):
        return (setting["bounds"] or [1, None])[0] - 1
    return None


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_bad_value_of_any_setting_is_refused_at_its_field(app, choices, language):
    """The API points at the setting's own field (the form shows the refusal beside its box),
    and says the key in the reader's language too."""
    api = admin_client(app)
    tried = 0
    for game, format_ in offered(choices):
        tables = [(choices["formats"].get(format_), False), (choices["matches"].get(game), True)]
        for table, of_match in tables:
            for s in table["settings"] if table else ():
                if (bad := _bad(s)) is None:
                    continue
                settings = {"match": {s["key"]: bad}} if of_match else {s["key"]: bad}
                answer = api.post("/v1/tournaments", headers={"Accept-Language": language},
                                  json={"name": "bad", "game": game, "format": format_,
                                        "settings": settings})
                body = answer.get_json()
                field = ("/settings/match/" if of_match else "/settings/") + s["key"]
                assert answer.status_code == 422 and body["path"] == field, (game, s["key"], body)
                assert s["key"] in body["detail"], (game, format_, s["key"], body["detail"])
                tried += 1
    assert tried > 100


def test_the_setup_pages_are_the_desks_only(app):
    api = admin_client(app)
    api.post("/v1/tournaments", json={"tournament_id": "t", "name": "t", "game": "GD",
                                      "format": "knockout"})
    for role in ("player", "auditor"):
        scope = {"tournament": "t"} | ({"match": "m", "seat": 0} if role == "player" else {})
        client = client_as(app, role, **scope)
        assert client.get("/desk/t/t/entrants").status_code == 403
    assert client_as(app, "organiser", "t").get("/desk/t/t/entrants").status_code == 200
    assert admin_client(app).get("/desk/t/nothing/entrants").status_code == 404


def test_an_unknown_setting_beside_good_ones_is_the_one_pointed_at(app):
    """The refusal lists the settings there are, good ones of the body among them: the field
    named is still the unknown one."""
    answer = admin_client(app).post("/v1/tournaments", json={
        "name": "bad", "game": "GD", "format": "knockout",
        "settings": {"match": {"enforcement": "strict", "alertAt": 95}}})
    assert answer.status_code == 422
    assert (answer.json["rule"], answer.json["path"]) == ("GD-14", "/settings/match/alertAt")
