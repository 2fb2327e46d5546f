"""A refusal says its detail in the reader's language and nothing else moves (issue 33, item 4).

The "must" rules of the five games are already walked by their own test modules, each event
that breaks a rule posted once. Here those scenarios run again with every refused POST asked
twice: in English (what the scenario asserts) and in Chinese (``Accept-Language: zh-CN``). A
refused event stores nothing, so both answers are about the same position. Each pair must keep
``type``, ``status``, ``rule``, the JSON pointers and every machine field identical; ``title``
and ``detail`` in the language asked, said by ``Content-Language``; the Chinese detail names the
rule by its ID and in words, and leaves no English sentence behind."""
from __future__ import annotations

import importlib
import inspect
import re
from dataclasses import dataclass

import pytest
from flask.testing import FlaskClient
from werkzeug.datastructures import Headers

SCENARIOS = {  # game -> the module that walks its "must" rules
    "SJ2": "test_sj2_must_rules", "SJ3": "test_sj3_must_rules", "GD": "test_gd_must_rules",
    "MJO": "test_mj_must_rules", "MJS": "test_mjs_must_rules",
}
CHINESE = re.compile(r"[\u3400-\u9fff]")
# words of an English sentence; a Chinese detail keeps codes and quoted values, never these
ENGLISH_WORDS = re.compile(r"\b(the|must|and|not|only|has|have|was|were|which|is|are|of|to|"
                           r"with|from|cannot|may|a|an)\b")  # lower case: side A is no article
LANGUAGE_FIELDS = {"title", "detail", "errors"}


@dataclass
class Pair:
    path: str
    english: object  # the responses
    chinese: object


def _asked_in(kwargs: dict, language: str) -> dict:
    headers = Headers(kwargs.get("headers") or {})
    headers["Accept-Language"] = language
    return {**kwargs, "headers": headers}


@pytest.fixture
def refusals(monkeypatch) -> list[Pair]:
    """Every refused POST of the test, answered in English and asked again in Chinese."""
    pairs, opened = [], FlaskClient.open

    def open_twice(self, *args, **kwargs):
        response = opened(self, *args, **_asked_in(kwargs, "en"))
        if kwargs.get("method") == "POST" and response.status_code in (400, 422) \
                and response.mimetype == "application/problem+json":
            again = opened(self, *args, **_asked_in(kwargs, "zh-CN,zh;q=0.9,en;q=0.5"))
            pairs.append(Pair(args[0] if args else kwargs.get("path"), response, again))
        return response

    monkeypatch.setattr(FlaskClient, "open", open_twice)
    return pairs


def scenarios(module_name: str):
    module = importlib.import_module(module_name)
    return [f for name, f in vars(module).items() if name.startswith("test_")
            and inspect.isfunction(f) and not inspect.signature(f).parameters]


def english_left(detail: str) -> list[str]:
    """English words in a detail, once its quoted values and codes are set aside."""
    unquoted = re.sub(r"'[^']*'|\"[^\"]*\"|`[^`]*`", "", detail)
    return ENGLISH_WORDS.findall(unquoted)


@pytest.mark.parametrize("game", list(SCENARIOS))
def test_every_refusal_of_a_game_in_chinese_and_in_english(game, refusals):
    for scenario in scenarios(SCENARIOS[game]):
        scenario()
    rule_refusals = [p for p in refusals if p.english.status_code == 422]
    assert len(rule_refusals) >= 20, f"{game}: only {len(rule_refusals)} refusals walked"
    leftovers = {}
    for pair in refusals:
        en, zh = pair.english.get_json(), pair.chinese.get_json()
        assert pair.english.status_code == pair.chinese.status_code
        assert pair.english.headers["Content-Language"] == "en"
        assert pair.chinese.headers["Content-Language"] == "zh-Hans"
        same = {k: v for k, v in en.items() if k not in LANGUAGE_FIELDS}
        assert same == {k: v for k, v in zh.items() if k not in LANGUAGE_FIELDS}, pair.path
        if "errors" in en:
            assert [e["path"] for e in en["errors"]] == [e["path"] for e in zh["errors"]]
        assert CHINESE.search(zh["title"]) and not CHINESE.search(en["title"])
        if pair.english.status_code != 422:
            continue
        rule = en["rule"]
        assert en["detail"].startswith(f"{rule}: "), en["detail"]
        assert zh["detail"].startswith(f"{rule}（"), zh["detail"]  # SJ2-9.2（跟牌）：…
        assert CHINESE.search(zh["detail"].split("：", 1)[1]), zh["detail"]
        if english_left(zh["detail"]):
            leftovers[en["detail"]] = zh["detail"]
    assert not leftovers, f"{len(leftovers)} Chinese details keep English: " \
                          f"{list(leftovers.items())[:5]}"


def test_a_client_that_asks_nothing_reads_the_deployments_language():
    from clients import admin_client

    from events.memory_store import InMemoryEventStore
    from service import create_app

    for language, tag in (("zh", "zh-Hans"), ("en", "en")):
        app = create_app({"LANGUAGE": language}, store=InMemoryEventStore())
        client = admin_client(app)
        client.environ_base.pop("HTTP_ACCEPT_LANGUAGE", None)
        refused = client.post("/v1/tournaments", json={"tournament_id": "x", "name": "x",
                                                        "game": "SJ9", "format": "knockout"})
        assert refused.status_code in (400, 422)
        assert refused.headers["Content-Language"] == tag
        assert bool(CHINESE.search(refused.get_json()["title"])) == (language == "zh")


@pytest.mark.parametrize("header", ["fr-FR", "xx;q=2", ";;;q=abc,,", "zh-Hant-TW;q=0.1, *;q=0",
                                    "\u00e9\u00e9", "a" * 500])
def test_an_unknown_or_malformed_language_is_the_default_never_an_error(header):
    from clients import admin_client

    from events.memory_store import InMemoryEventStore
    from service import create_app

    client = admin_client(create_app({"LANGUAGE": "en"}, store=InMemoryEventStore()))
    for asked in ({"headers": {"Accept-Language": header}}, {"query_string": {"lang": header}}):
        answer = client.get("/v1/tournaments/nowhere", **asked)
        assert answer.status_code == 404
        assert answer.headers["Content-Language"] in ("en", "zh-Hans")
        page = client.get("/", **asked)
        assert page.status_code == 200
