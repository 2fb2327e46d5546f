"""Every numeric bound of the event schemas is a shape limit the README documents, or a rule of
the game refused 422 naming it (issue 37; tournaments.md T-1.8: a refusal of a domain limit
names its rule). The schemas are walked field by field — nested schemas, lists and the values
of mappings included — and each ``Range`` found must be a row of the README's table of shape
limits (README.md, or the documentation under docs/ it points to); the bounds that are rules of the game have no ``Range`` in any schema (a schema bound
would answer 400 before the rule is asked) and are posted, one value beyond each, to a table of
their game: 422 with the rule, nothing stored."""
from __future__ import annotations

import re
from pathlib import Path

import gd_table
import mj_table
import mjs_table
import pytest
import sj2_table
import sj3_table
from clients import admin_client
from marshmallow import Schema, fields, validate

from events import default_catalogue
from events.memory_store import InMemoryEventStore
from service import create_app

ROOT = Path(__file__).resolve().parents[2]
TABLE_HEAD = "| field | bounds | why it is a shape limit |"
SHEET = {"recording": "sheet"}


# --- the walk ------------------------------------------------------------------------------------

def numeric_bounds(schema: Schema, path: str = "") -> list[tuple[str, object, object]]:
    """(JSON Pointer of the field, with ``*`` for any item, min, max) of every ``Range``."""
    found = []
    for name, field in schema.fields.items():
        found += _field_bounds(field, f"{path}/{field.data_key or name}")
    return found


def _field_bounds(field: fields.Field, path: str) -> list[tuple[str, object, object]]:
    found = [(path, v.min, v.max) for v in field.validators if isinstance(v, validate.Range)]
    if isinstance(field, fields.List):
        found += _field_bounds(field.inner, f"{path}/*")
    elif isinstance(field, fields.Nested):
        found += numeric_bounds(field.schema, path)
    elif isinstance(field, fields.Dict) and field.value_field is not None:
        found += _field_bounds(field.value_field, f"{path}/*")
    return found


def every_bound() -> list[tuple[str, str, object, object]]:
    return [(t.name, path, low, high) for t in default_catalogue()
            for path, low, high in numeric_bounds(t.schema())]


def field_name(path: str) -> str:
    return [part for part in path.split("/") if part and part != "*"][-1]


def documented_shape_limits() -> set[tuple[str, int | None, int | None]]:
    """(field, min, max) of every row of the documentation's table of shape limits (one
    table, in README.md or a page under docs/)."""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    found = [p for p in pages if p.is_file() and TABLE_HEAD in p.read_text(encoding="utf-8")]
    assert len(found) == 1, f"one table of shape limits, not {found}"
    table = found[0].read_text(encoding="utf-8").split(TABLE_HEAD, 1)[1]
    rows = []
    for line in table.splitlines()[2:]:
        if not line.startswith("|"):
            break
        names, bounds = line.split("|")[1:3]
        low, high = re.fullmatch(r"\s*(−?\d+)–(−?\d*)\s*", bounds).groups()
        low, high = (int(v.replace("−", "-")) if v else None for v in (low, high))
        rows += [(name, low, high) for name in re.findall(r"`(\w+)`", names)]
    return set(rows)


def test_the_walk_finds_the_bounds_of_nested_schemas_lists_and_mappings():
    paths = {(t, p) for t, p, _, _ in every_bound()}
    assert {("HandDealt", "/hand"), ("RulingRecorded", "/effects/*/payees/*"),
            ("IrregularityReported", "/seats/*"), ("GDHandResultRecorded", "/order/*")} <= paths


def test_every_numeric_bound_of_the_event_schemas_is_a_documented_shape_limit():
    documented = documented_shape_limits()
    undocumented = sorted({(t, p, low, high) for t, p, low, high in every_bound()
                           if (field_name(p), low, high) not in documented})
    assert undocumented == [], "a schema bound neither documented as a shape limit nor a rule"
    used = {(field_name(p), low, high) for _, p, low, high in every_bound()}
    assert documented - used == set(), "the README documents a shape limit no schema has"


# the bounds that are rules of the game: (event type, field, the rule that refuses beyond)
RULE_BOUNDS = (
    ("HandResultRecorded", "/trick_points", ("SJ2-1.5", "SJ3-1.5")),
    ("HandResultRecorded", "/kitty_points", ("SJ2-1.5", "SJ3-1.5")),
    ("HandResultRecorded", "/multiplier", ("SJ2-11.2", "SJ3-10.2")),
    ("LevelPenaltyAssessed", "/levels", ("GD-1.2",)),
    ("DiceRolled", "/dice/*", ("MJO-2.1", "MJO-2.3", "MJS-2.1")),
    ("TilesDealt", "/dice/*/*", ("MJO-2.3",)),
    ("TieDiceRolled", "/rolls/*/*", ("T-7.2",)),
)


def test_no_rule_of_the_game_is_a_bound_of_a_schema():
    bounded = {(t, p) for t, p, _, _ in every_bound()}
    assert [(t, p) for t, p, _ in RULE_BOUNDS if (t, p) in bounded] == []
    catalogue = default_catalogue()
    for type_name, _, _ in RULE_BOUNDS:
        catalogue.get(type_name)  # still an event type


# --- the rule bounds, posted ---------------------------------------------------------------------

def new_client(clock=None):
    store = InMemoryEventStore()
    if clock is not None:
        store.clock = clock
    return admin_client(create_app(store=store))


def sj_row(**given) -> dict:
    return {"dealer": 0, "trump": "S", "trick_points": 60, "kitty_points": 10, "multiplier": 0,
            **given}


@pytest.mark.parametrize("given, rule, words", [
    ({"trick_points": 305}, "SJ3-1.5", "3 decks hold 300 points in all"),
    ({"trick_points": 10**12}, "SJ3-1.5", "3 decks hold 300 points in all"),
    ({"trick_points": -5}, "SJ3-1.5", "trick_points -5 is negative"),
    ({"kitty_points": -10}, "SJ3-1.5", "kitty_points -10 is negative"),
    ({"multiplier": 8193}, "SJ3-10.2", "multiplier 8193 is not one"),
    ({"multiplier": -2}, "SJ3-10.2", "multiplier -2 is not one"),
], ids=["sj3-beyond-the-decks", "sj3-far-beyond", "sj3-negative-tricks", "sj3-negative-kitty",
        "sj3-multiplier-high", "sj3-multiplier-negative"])
def test_an_sj3_sheet_row_beyond_the_game_is_refused_with_its_rule(given, rule, words):
    sheet = sj3_table.new_table(SHEET)
    problem = sheet.rejected("HandResultRecorded", rule, **sj_row(**given))
    assert words in problem["detail"]


@pytest.mark.parametrize("given, rule, words", [
    ({"trick_points": 305}, "SJ2-1.5", "2 decks hold 200 points in all"),
    ({"trick_points": -5}, "SJ2-1.5", "trick_points -5 is negative"),
    ({"multiplier": 8193}, "SJ2-11.2", "multiplier 8193 is not one"),
], ids=["sj2-beyond-the-decks", "sj2-negative", "sj2-multiplier"])
def test_an_sj2_sheet_row_beyond_the_game_is_refused_with_its_rule(given, rule, words):
    sheet = sj2_table.Table(new_client(), {"maxHands": 3, **SHEET}, tid="sj2-bounds")
    problem = sheet.rejected("HandResultRecorded", rule, **sj_row(**given))
    assert words in problem["detail"]


@pytest.mark.parametrize("levels", [0, -1, 13])
def test_a_guandan_level_penalty_beyond_the_levels_is_refused_with_gd_1_2(levels):
    table = gd_table.Table(new_client(gd_table.Clock()))
    problem = table.rejected("LevelPenaltyAssessed", "GD-1.2", rule="GD-10.1", side="A",
                             levels=levels)
    assert f"1 to 12 levels (the levels run 2 … A), not {levels}" in problem["detail"]
    table.ok("LevelPenaltyAssessed", rule="GD-10.1", side="A", levels=12)


@pytest.mark.parametrize("dice", [[7, 1], [0, 3], [1, 60]])
def test_a_die_that_is_not_one_is_refused_with_the_rule_of_the_throw(dice):
    table = mj_table.Table(new_client(mj_table.Clock()))
    problem = table.rejected("DiceRolled", "MJO-2.1", purpose="firstDealer", seat=0, dice=dice)
    assert f"a throw is two dice of 1 to 6, not {dice!r}" in problem["detail"] or \
        f"a throw is two dice of 1 to 6, not {tuple(dice)!r}" in problem["detail"]
    for seat, throw in enumerate(([6, 6], [1, 1], [1, 2], [2, 2])):
        table.ok("DiceRolled", purpose="firstDealer", seat=seat, dice=throw)
    table.rejected("DiceRolled", "MJO-2.3", purpose="wallBreak", hand=1, seat=0, dice=dice)
    tiles = mj_table.deal_tiles({})
    everything = [t for h in tiles["hands"] for t in h] + tiles["wall"]
    walls = [everything[34 * k:34 * k + 34] for k in range(4)]
    table.rejected("TilesDealt", "MJO-2.3", walls=walls, dice=[dice, [1, 1]])


def test_an_exchange_die_that_is_not_one_is_refused_with_mjs_2_1():
    table = mjs_table.Table(new_client(mj_table.Clock()), final=True)
    picks = {0: "1m 2m 3m", 1: "1s 2s 3s", 2: "5m 6m 7m", 3: "7p 8p 9p"}
    table.deal(picks)
    for seat in range(4):
        table.ok("ExchangeTilesSelected", seat=seat, tiles=picks[seat].split())
    table.rejected("DiceRolled", "MJS-2.1", purpose="exchange", seat=0, dice=[7, 2], hand=1)
    table.ok("DiceRolled", purpose="exchange", seat=0, dice=[6, 2], hand=1)


def test_a_tie_die_that_is_not_one_is_refused_with_t_7_2():
    table = mjs_table.Table(new_client(mj_table.Clock()))
    before = table.events()
    response = table.post("TieDiceRolled", round=1, rolls={"east": [7, 1], "south": [2, 2]})
    assert (response.status_code, response.json["rule"]) == (422, "T-7.2"), response.json
    assert "east threw [7, 1]: a throw is two dice of 1 to 6" in response.json["detail"]
    assert table.events() == before
