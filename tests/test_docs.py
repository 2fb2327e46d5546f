"""The documentation site (mkdocs.yml, docs/, `make docs`): its strict build passes on the tree;
a broken link, a broken anchor or a missing page in a copy of the tree fails it; the generated
reference pages follow the spec and the code; every page of the navigation is built, in English
and under /zh/.

Two builds, run at once by one fixture: the tree as it is (into a temporary site directory),
and a copy of its docs/ with one link broken, one anchor broken, one page of the navigation
deleted and one route added to its api_spec.yaml — that build must fail, and still writes its
pages, where the new route must show. The event catalogue's page is checked without a build: it
is made by a function of the catalogue (docs/gen/reference.py), called with a changed one.
"""
from __future__ import annotations

import dataclasses
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("PAIJU_SHARED_DIR") or REPO.parent / "shared")
GEN = REPO / "docs" / "gen"
# the banners Material and ProperDocs print about MkDocs' future, not about this site
QUIET = {"NO_MKDOCS_2_WARNING": "1", "DISABLE_MKDOCS_2_WARNING": "true"}

PROBE_ROUTE = "/v1/docs-probe/{probe_id}"
PROBE_TEXT = "A route that tests/test_docs.py adds to a copy of the spec, and no other."
SUMMARY = "guides/summary.md"  # guides/summary.zh.md: on the 简体中文 site only


def _reference():
    """docs/gen/reference.py, the generated pages' functions."""
    if str(GEN) not in sys.path:
        sys.path.insert(0, str(GEN))
    import reference
    return reference


def _build(config: Path, site: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--clean", "-f", str(config),
         "-d", str(site)],
        cwd=config.parent, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env={**os.environ, **QUIET})


@dataclasses.dataclass
class Build:
    site: Path
    returncode: int
    output: str
    broken: dict[str, str] = dataclasses.field(default_factory=dict)

    def page(self, url: str) -> str:
        return (self.site / url / "index.html").read_text(encoding="utf-8")


def _with_probe_route(spec: str) -> str:
    """The spec with one more route, first under ``paths:``."""
    route = (f"  {PROBE_ROUTE}:\n    get:\n      tags: [health]\n      operationId: docsProbe\n"
             f"      summary: Docs probe\n      description: {PROBE_TEXT}\n"
             "      responses:\n        '200':\n          description: The probe.\n")
    assert "\npaths:\n" in spec
    return spec.replace("\npaths:\n", "\npaths:\n" + route, 1)


def _break(docs: Path) -> dict[str, str]:
    """In a copy of docs/: the first relative link to a page is made to point at no page, a
    link to a rule's anchor is added whose anchor no rule has, and the last page of the
    navigation that is a file of docs/ is deleted. What each did, to find in the build's
    warnings."""
    broken = {}
    last = [p for p in _pages(_config()["nav"])
            if (docs / p).is_file() and p != "reference/http-api.md"][-1]
    link = re.compile(r"\]\((?!https?:|#)([^)\s#]+\.md)(#[^)\s]*)?\)")
    for path in sorted(docs.rglob("*.md")):
        if path == docs / last:
            continue
        text = path.read_text(encoding="utf-8")
        # a link, not text in a code block that looks like one
        prose = re.sub(r"^```.*?^```", lambda m: " " * len(m.group(0)), text, flags=re.M | re.S)
        if found := link.search(prose):
            target = found.group(1).replace(".md", "-is-not-there.md")
            path.write_text(text[:found.start(1)] + target + text[found.end(1):],
                            encoding="utf-8")
            broken["link"] = target
            break
    api = docs / "reference" / "http-api.md"
    api.write_text(api.read_text(encoding="utf-8")
                   + "\nSee [a rule](../rules/shengji-2deck.md#SJ2-99.99).\n", encoding="utf-8")
    broken["anchor"] = "#SJ2-99.99"
    (docs / last).unlink()
    broken["page"] = last
    return broken


@pytest.fixture(scope="module")
def builds(tmp_path_factory) -> dict[str, Build]:
    root = tmp_path_factory.mktemp("docs")
    copy = root / "copy" / "main"
    copy.mkdir(parents=True)
    shutil.copytree(REPO / "docs", copy / "docs",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(REPO / "mkdocs.yml", copy / "mkdocs.yml")
    (copy / "api_spec.yaml").write_text(
        _with_probe_route((REPO / "api_spec.yaml").read_text(encoding="utf-8")),
        encoding="utf-8")
    (root / "copy" / "shared").symlink_to(SHARED)  # beside the copy, as beside the repository
    broken = _break(copy / "docs")
    running = {"tree": (_build(REPO / "mkdocs.yml", root / "site"), root / "site"),
               "broken": (_build(copy / "mkdocs.yml", root / "broken-site"), root / "broken-site")}
    done = {}
    for name, (process, site) in running.items():
        output, _ = process.communicate(timeout=900)
        done[name] = Build(site, process.returncode, output)
    done["broken"].broken = broken
    return done


def _config() -> dict:
    return yaml.safe_load((REPO / "mkdocs.yml").read_text(encoding="utf-8"))


def _i18n(config: dict) -> dict:
    return next(p["i18n"] for p in config["plugins"] if isinstance(p, dict) and "i18n" in p)


def _zh(config: dict) -> dict:
    return next(lang for lang in _i18n(config)["languages"] if lang["locale"] == "zh")


def _items(nav: list) -> list[tuple[str, object]]:
    """Every (title, page or section) of a navigation, depth first."""
    out = []
    for entry in nav:
        (title, value), = entry.items()
        out.append((title, value))
        if isinstance(value, list):
            out.extend(_items(value))
    return out


def _pages(nav: list) -> list[str]:
    return [value for _, value in _items(nav) if isinstance(value, str)]


def _url(page: str) -> str:
    """The directory a page is built to (use_directory_urls): guides/x.md is guides/x/."""
    stem = page.removesuffix(".md")
    for index in ("index", "README"):
        if stem == index or stem.endswith("/" + index):
            return stem[: -len(index)]
    return stem + "/"


def test_the_strict_build_passes_on_the_tree(builds):
    tree = builds["tree"]
    assert tree.returncode == 0, tree.output[-6000:]
    assert "WARNING" not in tree.output, tree.output[-6000:]


def test_a_broken_link_anchor_or_page_fails_the_strict_build(builds):
    broken = builds["broken"]
    assert broken.returncode != 0, broken.output[-6000:]
    assert "Aborted with" in broken.output and "in strict mode" in broken.output
    assert set(broken.broken) == {"link", "anchor", "page"}, broken.broken
    for what, needle in broken.broken.items():
        assert needle in broken.output, (what, needle, broken.output[-6000:])
    warnings = [line for line in broken.output.splitlines() if line.startswith("WARNING")]
    assert warnings and all(any(n in line for n in broken.broken.values()) for line in warnings), \
        "\n".join(warnings)


def test_the_http_api_page_is_rendered_from_the_spec(builds):
    """A route added to the spec is on the page of the build that has it, in both languages."""
    tree, probed = builds["tree"], builds["broken"]
    for url in ("reference/http-api", "zh/reference/http-api"):
        page = probed.page(url)
        assert PROBE_TEXT in page and "/v1/docs-probe/" in page
        assert PROBE_TEXT not in tree.page(url)
    page = tree.page("reference/http-api")
    spec = yaml.safe_load((REPO / "api_spec.yaml").read_text(encoding="utf-8"))
    for route in spec["paths"]:
        assert route.split("{")[0] in page, route


def test_the_event_catalogue_page_follows_the_schemas():
    """A new event type and a new field of a type's schema are on the page made from the
    catalogue that has them, and not on the page of the code's."""
    from marshmallow import Schema, fields, validate

    from events import default_catalogue
    from events.catalogue import Catalogue, EventType
    from rules.glossary import EVENTS

    reference = _reference()
    catalogue = default_catalogue()
    withdrawn = catalogue.get("TeamWithdrawn")
    widened = type(withdrawn.schema.__name__, (withdrawn.schema,),
                   {"docs_probe_note": fields.String(validate=validate.Length(1, 7))})
    probe = EventType("DocsProbeRecorded", Schema.from_dict(
        {"probe_level": fields.Integer(required=True, validate=validate.Range(1, 9))},
        name="DocsProbeData"), ("match",), schema_version=1)
    changed = Catalogue(
        [*(dataclasses.replace(t, schema=widened) if t is withdrawn else t for t in catalogue),
         probe], derived=catalogue.derived)
    before = reference.events_markdown(catalogue)
    after = reference.events_markdown(changed, {**EVENTS, "DocsProbeRecorded": "探针记录"})
    assert "DocsProbeRecorded" not in before and "docs_probe_note" not in before
    assert "### `DocsProbeRecorded` · 探针记录 { #DocsProbeRecorded }" in after
    assert "| `probe_level` | integer | yes | 1–9 |" in after
    section = after.split("{ #TeamWithdrawn }")[1].split("\n### ")[0]
    assert "| `docs_probe_note` | string | no | 1–7 characters |" in section
    assert after.count("\n### ") == before.count("\n### ") + 1


def test_the_generated_pages_hold_the_code(builds):
    """The built reference pages name every event type, every command and every game's
    settings of the code as it is: they are generated, not copied."""
    from events import default_catalogue
    from rules.glossary import EVENTS

    reference = _reference()
    tree = builds["tree"]
    events = tree.page("reference/events")
    for event_type in default_catalogue():
        assert f'id="{event_type.name}"' in events, event_type.name
        if event_type.name in EVENTS:
            assert EVENTS[event_type.name].zh in events, event_type.name
    cli = tree.page("reference/cli")
    for words, parser in reference._commands(reference.cli_parser()):
        assert f'id="{"-".join(words)}"' in cli, words
    settings = tree.page("reference/settings")
    for game in ("SJ2", "SJ3", "GD", "MJO", "MJS", "knockout", "groups", "swiss-teams"):
        assert game in settings, game
    rules = tree.page("rules/shengji-2deck")
    assert 'id="SJ2-9.3"' in rules and 'id="SJ2-18"' in rules


def test_every_page_of_the_navigation_is_built_in_both_languages(builds):
    config = _config()
    site = builds["tree"].site
    en, zh = _pages(config["nav"]), _pages(_zh(config)["nav"])
    assert [p for p in zh if p != SUMMARY] == en, "the 简体中文 navigation is the English one"
    assert SUMMARY in zh and SUMMARY not in en
    for language, pages, prefix in (("en", en, ""), ("zh", zh, "zh/")):
        home = (site / prefix / "index.html").read_text(encoding="utf-8")
        for page in pages:
            built = site / prefix / _url(page) / "index.html"
            assert built.is_file(), (language, page)
            # the navigation of the home page links it
            target = _url(page)
            assert any(f'href="{t}"' in home for t in ((target,) if target else (".", "./"))), \
                (language, page)
    # a page with a translation (page.zh.md) is built from it under /zh/, any other from the
    # English page: the same article
    for page in en:
        article = [_article(site / p / _url(page) / "index.html") for p in ("", "zh")]
        translated = (REPO / "docs" / page.replace(".md", ".zh.md")).is_file()
        assert (article[0] != article[1]) == translated, page


def _article(path: Path) -> str:
    html = path.read_text(encoding="utf-8")
    return html[html.index("<article"):html.index("</article>")]


def test_the_chinese_navigation_is_translated():
    """Every title of the 简体中文 navigation is translated, the games by their glossary
    names (rules/glossary.py)."""
    from rules.glossary import GAMES

    zh = _zh(_config())
    translations = zh["nav_translations"]
    cjk = re.compile(r"[\u3400-\u9fff]")
    for title, _ in _items(zh["nav"]):
        said = translations.get(title, title)
        assert cjk.search(said) or said in ("HTTP API",), title
    for title, _ in _items(_config()["nav"]):
        if (code := title.split(" · ")[0]) in GAMES and " · " in title:
            assert title == f"{code} · {GAMES[code].en}", title
            assert translations[title] == f"{code} · {GAMES[code].zh}", title
