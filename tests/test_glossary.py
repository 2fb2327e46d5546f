"""The glossary (rules/glossary.py) against the seeds, the rules' headings and the code.

Where a seed uses a word, that word wins: a term that names its seed is written there (seed
003 is in traditional characters: it is read in simplified ones, as the glossary writes), and
no other spelling the glossary knows of is a seed's word where its own is no seed's. The names
of the rule sections (rules/rule_titles.py) say in Chinese what the headings of shared/rules/
say in parentheses. Every event type, tile, combination and phase a page shows has its term.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import zhconv

from events import default_catalogue
from rules import glossary
from rules.guandan import combos
from rules.mahjong.tiles import KINDS
from rules.rule_titles import TITLES
from service.i18n import catalogue

SHARED = Path(__file__).resolve().parent.parent.parent / "shared"
SEEDS = SHARED / "seeds"
RULES = SHARED / "rules"
SPEC_PREFIX = {"shengji-2deck.md": "SJ2", "shengji-3deck.md": "SJ3", "guandan.md": "GD",
               "mahjong-ottawa.md": "MJO", "mahjong-sichuan.md": "MJS", "tournaments.md": "T"}
CJK = r"[\u3400-\u9fff]"


@pytest.fixture(scope="module")
def seeds() -> dict[str, str]:
    """Each seed's text in simplified characters, by its number."""
    found = {path.name[:3]: zhconv.convert(path.read_text("utf-8"), "zh-hans")
             for path in sorted(SEEDS.glob("*.txt"))}
    assert len(found) == 5, f"the five seeds are expected in {SEEDS}"
    return found


def every_term():
    return [(kind, key, term) for kind, table in glossary.TERMS.items()
            for key, term in table.items()]


def word(term: glossary.Term) -> str:
    """The term without the qualifier the project adds in full-width parentheses
    (拖拉机（两副牌）: the seed's word is 拖拉机)."""
    return term.zh.split("（")[0]


@pytest.mark.parametrize("kind,key,term", every_term(), ids=lambda v: v if isinstance(v, str) else "")
def test_a_term_that_names_its_seed_is_written_there(kind, key, term, seeds):
    if term.seed is not None:
        assert word(term) in seeds[term.seed], \
            f"{kind} {key}: {word(term)} is not the word of seed {term.seed}"


@pytest.mark.parametrize("kind,key,term", every_term(), ids=lambda v: v if isinstance(v, str) else "")
def test_no_other_spelling_is_a_seeds_word_where_the_terms_is_none(kind, key, term, seeds):
    ours = any(word(term) in text for text in seeds.values())
    theirs = sorted({other for other in term.also for text in seeds.values() if other in text})
    assert ours or not theirs, f"{kind} {key}: a seed writes {theirs}, not {word(term)}"


def test_the_seeds_spelling_wins_over_the_common_one(seeds):
    """The cases the seeds decide: seed 004 writes 草花 for clubs, seed 003 炸胡 for a false win
    and 相公 for a wrong count, seed 001 双飞 for two consecutive triples."""
    assert glossary.SUITS["C"].zh == "草花" and "草花" in seeds["004"]
    assert glossary.EVENTS["FalseWinDeclared"].zh == "炸胡" and "炸胡" in seeds["003"]
    assert glossary.EVENTS["WrongTileCount"].zh == "相公" and "相公" in seeds["003"]
    assert glossary.COMBINATIONS["tripleRun"].zh == "双飞" and "双飞" in seeds["001"]


def test_every_event_type_tile_and_combination_has_its_term():
    assert set(glossary.EVENTS) == set(default_catalogue().names())
    assert set(glossary.TILES) == set(KINDS)
    gd_types = {combos.SINGLE, combos.PAIR, combos.TRIPLE, combos.FULL_HOUSE, combos.STRAIGHT,
                combos.PAIR_RUN, combos.TRIPLE_RUN, combos.BOMB, combos.STRAIGHT_FLUSH,
                combos.FOUR_JOKERS}
    assert gd_types <= set(glossary.COMBINATIONS)


def test_tiles_and_cards_are_named_as_players_name_them():
    zh = glossary.terms("zh")
    assert [zh["tile"][f"{n}m"] for n in (1, 5, 9)] == ["一万", "五万", "九万"]
    assert (zh["tile"]["1p"], zh["tile"]["1s"]) == ("一筒", "一条")
    assert "".join(zh["tile"][t] for t in "ESWNCFP") == "东南西北中发白"
    assert (zh["joker"]["BJ"], zh["joker"]["SJ"]) == ("大王", "小王")
    assert glossary.terms("en")["joker"]["BJ"] == "big joker"


def headings():
    """(rule section prefix, its heading) of every numbered section of the rules."""
    for name, prefix in SPEC_PREFIX.items():
        for match in re.finditer(r"^## (\d+)\. (.+)$", (RULES / name).read_text("utf-8"), re.M):
            yield f"{prefix}-{match[1]}", match[2]


def chinese_in_parentheses(heading: str) -> list[str]:
    """The Chinese words a heading gives in parentheses (``Following (跟牌)`` → 跟牌; a list
    ``(流局) — 查花猪`` only its parenthesised word; ``(one 局 = …)`` none: not a name)."""
    return [zhconv.convert(inner, "zh-hans")
            for inner in re.findall(r"\(([^()]*)\)", heading)
            if re.fullmatch(rf"(?:{CJK}|[, ，])+", inner)]


def test_the_rule_sections_are_named_as_the_headings_name_them():
    zh = catalogue("zh")
    checked = 0
    for prefix, heading in headings():
        if prefix not in TITLES:
            continue
        said = zh.gettext(TITLES[prefix])
        assert said != TITLES[prefix], f"{prefix} {TITLES[prefix]!r} has no Chinese name"
        for chinese in chinese_in_parentheses(heading):
            for one in re.split(r"[,，]\s*", chinese):
                assert one in said, f"{prefix}: the heading says {one}, the catalogue {said}"
                checked += 1
    assert checked >= 20  # the headings that give their Chinese word


def test_every_section_a_rule_id_cites_has_a_name():
    cited = set()
    for path in Path(__file__).resolve().parent.parent.joinpath("rules").rglob("*.py"):
        cited |= {m.split(".")[0] for m in
                  re.findall(r'"((?:SJ2|SJ3|GD|MJO|MJS|T)-\d+(?:\.\d+)*)"', path.read_text())}
    assert cited - set(TITLES) == set()
