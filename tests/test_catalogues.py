"""The catalogues are whole (service/i18n.py): every sentence the code says — extracted from the
Python, the templates and the pages' scripts as ``make i18n`` extracts it, not listed here — has
its Chinese and its English entry, keeps the blanks of its English, and is compiled into the
``.mo`` files the package ships. A sentence added without its translation fails here."""
from __future__ import annotations

import re
import string
from io import BytesIO
from pathlib import Path

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_keywords, parse_mapping_cfg
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po
from syntax_trees import parse_file

from service.i18n import TRANSLATIONS

ROOT = Path(__file__).resolve().parent.parent
DOMAINS = {"messages": ("babel.cfg", "MESSAGE_KEYWORDS"), "pages": ("babel-pages.cfg", None)}
IGNORED = (".venv", "tests", "bench", ".git")


def make_keywords(variable: str | None) -> dict:
    """The keywords ``make i18n`` gives pybabel (the Makefile's variable), beside Babel's own."""
    keywords = dict(DEFAULT_KEYWORDS)
    if variable:
        text = (ROOT / "Makefile").read_text()
        value = re.search(rf"^{variable} := ((?:.*\\\n)*.*)$", text, re.M)[1]
        keywords.update(parse_keywords(re.findall(r"-k (\S+)", value)))
    return keywords


def extracted(domain: str) -> set[str]:
    config, variable = DOMAINS[domain]
    with open(ROOT / config) as mapping:
        method_map, options_map = parse_mapping_cfg(mapping)
    found = set()
    for _, _, message, _, _ in extract_from_dir(
            str(ROOT), method_map, options_map, keywords=make_keywords(variable),
            comment_tags=("i18n:",),
            directory_filter=lambda path: not Path(path).name.startswith(IGNORED)):
        found.add(message if isinstance(message, str) else message[0])
    return {m for m in found if m}


def catalogue(language: str, domain: str):
    with open(TRANSLATIONS / language / "LC_MESSAGES" / f"{domain}.po", "rb") as po:
        return read_po(po)


def blanks(text: str) -> set[str]:
    return {f"{name}!{conversion}" for _, name, _, conversion in
            string.Formatter().parse(text) if name is not None}


def offered(message) -> set[str]:
    """The blanks a translation may say besides its sentence's: those the code's comment for
    translators offers (``# i18n: {rule_name} … may be said too``)."""
    return {f"{name}!None" for comment in message.auto_comments
            for name in re.findall(r"\{(\w+)\}", comment)}


@pytest.fixture(scope="module", params=list(DOMAINS))
def domain(request):
    return request.param, extracted(request.param)


def test_the_code_says_something_in_each_domain(domain):
    name, sentences = domain
    assert len(sentences) > (500 if name == "messages" else 100)
    if name == "messages":
        assert "the event breaks {rule_} (the details name what this token may not see; a " \
               "referee's token shows them)" in sentences


def test_every_sentence_has_its_chinese(domain):
    name, sentences = domain
    zh = {m.id: m for m in catalogue("zh", name) if m.id}
    untranslated = sorted(s for s in sentences if s not in zh or not zh[s].string
                          or "fuzzy" in zh[s].flags)
    assert not untranslated, f"{len(untranslated)} sentence(s) of {name} without Chinese " \
                             f"(make i18n, then translate): {untranslated[:10]}"


def test_every_sentence_has_its_english_entry(domain):
    """English is the source: the entry may say the sentence as it is (an empty msgstr)."""
    name, sentences = domain
    en = {m.id for m in catalogue("en", name) if m.id}
    assert sentences <= en, f"not in the English catalogue: {sorted(sentences - en)[:10]}"


@pytest.mark.parametrize("language", ["zh", "en"])
def test_a_translation_keeps_the_blanks_of_its_sentence(domain, language):
    name, _ = domain
    wrong = [(m.id, m.string) for m in catalogue(language, name) if m.id and m.string
             and not blanks(m.id) <= blanks(m.string) <= blanks(m.id) | offered(m)]
    assert not wrong, wrong[:5]


def test_the_chinese_is_chinese(domain):
    """A translation that is the English again (or has no Chinese character) was not made —
    except sentences that are only codes, numbers and punctuation."""
    name, _ = domain
    lazy = [m.id for m in catalogue("zh", name) if m.id and m.string
            and not re.search(r"[\u3400-\u9fff]", m.string)
            and re.search(r"[a-z]{3,}", re.sub(r"\{[^}]*\}", "", m.id))]
    assert not lazy, lazy[:10]


@pytest.mark.parametrize("language", ["zh", "en"])
def test_the_compiled_catalogue_is_the_translated_one(domain, language):
    name, _ = domain
    source = catalogue(language, name)
    compiled_now = BytesIO()
    write_mo(compiled_now, source, use_fuzzy=True)
    with open(TRANSLATIONS / language / "LC_MESSAGES" / f"{name}.mo", "rb") as mo:
        shipped = read_mo(mo)
    compiled_now.seek(0)
    fresh = read_mo(compiled_now)
    assert {m.id: m.string for m in shipped if m.id} == {m.id: m.string for m in fresh if m.id}, \
        "the .mo is older than its .po: make i18n"


def _literal_messages(path: Path, keywords: dict) -> set[str]:
    """The string literals ``path`` gives a keyword's message argument (``RuleViolation(rule,
    "…")``, ``Message("…")``, ``_("…")``), read from its syntax tree."""
    import ast

    found = set()
    for node in ast.walk(parse_file(path)):
        if not isinstance(node, ast.Call):
            continue
        name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
        if name not in keywords:
            continue
        spec = keywords[name]
        index = (spec[0] if isinstance(spec, tuple) and isinstance(spec[0], int) else 1) - 1
        if len(node.args) > index and isinstance(node.args[index], ast.Constant) \
                and isinstance(node.args[index].value, str) and node.args[index].value:
            found.add(node.args[index].value)
    return found


def test_every_sentence_the_python_gives_the_keywords_is_extracted():
    """Babel's extractor drops a call it cannot read (a generator or a dict look-up with a
    comma among its arguments), silently: every literal the syntax tree shows must be found."""
    keywords = make_keywords("MESSAGE_KEYWORDS")
    sentences = extracted("messages")
    written = set()
    for folder in ("rules", "projections", "events", "service"):
        for path in (ROOT / folder).rglob("*.py"):
            written |= _literal_messages(path, keywords)
    assert not written - sentences, sorted(written - sentences)[:10]
