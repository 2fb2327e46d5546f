"""The settings a tournament and its matches take, one table per format and one per game: each
key with the default an omitted key takes, the values the code accepts and the rules it belongs
to. They are read from the tables the code checks settings with (``rules/tournament.py``,
``rules/knockout``, ``rules/groups``, ``rules/swiss`` and each game's settings module), so they
cannot drift from what the server accepts; a setting's rule IDs are those the comment on its
field names in the code, else the settings table of the game's rule text (when the rule texts
are at hand), else the comment just above the field.

The documentation's settings page (docs/gen/reference.py) and the desk's form for a new
tournament (service/api/desk_setup.py) are both made from these tables.
"""
from __future__ import annotations

import dataclasses
import inspect
import os
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

RULE_ID = re.compile(r"\b(SJ2|SJ3|GD|MJO|MJS|T)-(\d+(?:\.\d+)*)")
README_SECTION = re.compile(r"(?:rules )?README §(\d+)")
GAMES = ("SJ2", "SJ3", "GD", "MJO", "MJS")  # the games whose matches take settings


@dataclasses.dataclass(frozen=True)
class Setting:
    """One key of a table. ``kind`` says what it takes: ``choice`` (one of ``values``),
    ``whole`` (a whole number within ``bounds``), ``positive`` (a whole number above 0),
    ``flag`` (true or false), ``seeding`` (``{"seeds": [team id, …]}``), ``match`` (the match
    settings, an object) or ``object``. ``nullable``: null is accepted and means "none"."""
    key: str
    default: object
    rules: tuple[str, ...]
    kind: str
    values: tuple = ()
    bounds: tuple[int, int] | None = None
    nullable: bool = False

    def to_dict(self) -> dict:
        default = dict(self.default) if isinstance(self.default, Mapping) else self.default
        return {"key": self.key, "default": default, "rules": list(self.rules),
                "kind": self.kind, "values": list(self.values),
                "bounds": list(self.bounds) if self.bounds else None, "nullable": self.nullable}


@dataclasses.dataclass(frozen=True)
class Table:
    """A format's tournament settings or a game's match settings; ``rule``: what an unknown key
    is refused under."""
    name: str
    rule: str
    settings: tuple[Setting, ...]

    def to_dict(self) -> dict:
        return {"name": self.name, "rule": self.rule,
                "settings": [s.to_dict() for s in self.settings]}


# --- where the rule IDs come from --------------------------------------------------------------

def field_comments(cls: type) -> dict[str, tuple[str, str]]:
    """Each field of a dataclass -> the comment at the end of its line and the comment lines
    just above it, in the class's source (where the code names the rule of a setting)."""
    comments, above = {}, []
    for line in inspect.getsource(cls).splitlines():
        if re.match(r"^\s+#", line):
            above.append(line.strip().lstrip("#").strip())
        elif found := re.match(r"^\s+(\w+)\s*:[^#=]*=[^#]*(?:#\s*(.*))?$", line):
            comments[found.group(1)] = (found.group(2) or "", " ".join(above))
            above = []
        else:
            above = []
    return comments


def rule_ids(text: str, prefixes: Iterable[str]) -> list[str]:
    """The rule IDs of ``prefixes`` a text names (``README §5`` as it is), each once."""
    wanted = tuple(prefixes)
    found = [m.group(0) for m in RULE_ID.finditer(text) if m.group(1) in wanted]
    found += [f"README §{n}" for n in README_SECTION.findall(text)]
    return list(dict.fromkeys(found))


def key_rules(key: str, comments: Mapping[str, tuple[str, str]], prefixes: tuple[str, ...],
              from_text: Mapping[str, list[str]], field: str | None = None) -> list[str]:
    """A setting's rules: those the comment on its field's line in the code names, else the
    rule text's settings table, else the comment lines just above the field."""
    own, above = comments.get(field or key, ("", ""))
    return (rule_ids(own, prefixes) or list(from_text.get(key, []))
            or rule_ids(above, prefixes))


def text_settings_rules(text: str, prefix: str) -> dict[str, list[str]]:
    """The ``Rule`` column of the settings table in a game's rule text (key -> rule IDs):
    ``| `maxHands` | 20 | integer | 14.1 |`` is ``SJ2-14.1``; ``README §5`` stays so."""
    section = re.search(r"^## \d+\. Settings\n(.*?)(?=^## )", text, re.M | re.S)
    rules: dict[str, list[str]] = {}
    for row in (section.group(1) if section else "").splitlines():
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        if len(cells) < 4 or not cells[0].startswith("`"):
            continue
        rule = cells[-1]
        ids = [rule] if rule.startswith("README") else [
            f"{prefix}-{n}" for n in re.findall(r"\d+(?:\.\d+)*", rule)]
        for key in re.findall(r"`([^`]+)`", cells[0]):
            rules[key] = ids
    return rules


def rule_texts_directory() -> Path | None:
    """The rule texts (``shared/rules``): ``PAIJU_SHARED_DIR``, else ``shared/`` beside the
    repository, as the documentation finds them; None where a deployment has none."""
    given = os.environ.get("PAIJU_SHARED_DIR")
    shared = Path(given) if given else Path(__file__).resolve().parents[2] / "shared"
    return shared / "rules" if (shared / "rules").is_dir() else None


def texts_settings_rules(directory: Path | None) -> dict[str, dict[str, list[str]]]:
    """Each game's settings table of its rule text (prefix -> key -> rule IDs); empty tables
    without the rule texts."""
    found = {prefix: {} for prefix in GAMES}
    for path in sorted(directory.glob("*.md")) if directory else ():
        text = path.read_text(encoding="utf-8")
        prefix = re.search(r"^Prefix `([A-Z0-9]+)-`", text, re.M)
        if prefix and prefix.group(1) in found:
            found[prefix.group(1)] = text_settings_rules(text, prefix.group(1))
    return found


# --- the tables --------------------------------------------------------------------------------

def tournament_tables() -> dict[str, Table]:
    """The tournament settings of each format that reads any: knockout, groups, the team
    event."""
    from rules import groups, knockout, swiss, tournament

    known = tournament._KNOWN_SETTINGS
    knockout_rows = [Setting(key, default, (rule,), "choice", tuple(values))
                     for key, (rule, values, default) in tournament._CHOICES.items()
                     if key in known["knockout"]]
    knockout_rows += [Setting("seeding", None, (knockout.SEEDING_RULE,), "seeding"),
                      Setting("match", {}, ("T-1.3",), "match")]
    group_rows = [Setting(key, default, (rule,), "whole", bounds=(low, high))
                  for key, (rule, low, high, default) in groups.SETTINGS.items()]
    group_rows += [Setting(key, default, (rule,), "choice", tuple(values))
                   for key, (rule, values, default) in groups.CHOICES.items()]
    group_rows.append(Setting("match", {}, ("T-1.3",), "match"))
    team_rows = [Setting(key, default, (rule,), "whole", bounds=(low, high))
                 for key, (rule, low, high, default) in swiss.WHOLE_NUMBERS.items()]
    team_rows += [Setting(key, default, (rule,), "choice", tuple(values))
                  for key, (rule, values, default) in swiss.CHOICES.items()]
    team_rows.append(Setting("match", {}, (swiss.POINTS,), "match"))
    return {"knockout": Table("knockout", "T-1.3", tuple(knockout_rows)),
            "groups": Table("groups", "T-1.3", tuple(group_rows)),
            swiss.FORMAT: Table(swiss.FORMAT, swiss.SETTINGS, tuple(team_rows))}


def match_tables(text_rules: Mapping[str, Mapping[str, list[str]]] | None = None
                 ) -> dict[str, Table]:
    """Each game's match settings (the keys of ``settings.match`` and of
    ``MatchStarted.settings``); ``text_rules``: the rule texts' settings tables
    (:func:`texts_settings_rules`), where the code names no rule."""
    text_rules = {p: (text_rules or {}).get(p, {}) for p in GAMES}
    return {**_shengji_tables(text_rules), "GD": _guandan_table(text_rules["GD"]),
            **_mahjong_tables(text_rules)}


def _shengji_tables(text_rules: Mapping[str, Mapping[str, list[str]]]) -> dict[str, Table]:
    from rules.shengji import settings as sj

    tables = {}
    for cls, game in ((sj.Settings, "SJ2"), (sj.SJ3Settings, "SJ3")):
        comments = field_comments(cls)
        defaults = sj.parse_settings({}, cls).to_dict()
        rows = []
        for f in dataclasses.fields(cls):
            if f.name in sj._CHOICES[cls]:
                shape = {"kind": "choice", "values": tuple(sj._CHOICES[cls][f.name])}
            elif f.name in sj._WHOLE_NUMBERS[cls]:
                shape = {"kind": "whole", "bounds": tuple(sj._WHOLE_NUMBERS[cls][f.name])}
            elif f.name in sj._FLAGS[cls]:
                shape = {"kind": "flag"}
            else:  # SJ3's matchPoints: a table of its own, no list of values
                shape = {"kind": "object"}
            rows.append(Setting(f.name, defaults[f.name],
                                tuple(key_rules(f.name, comments, (game,), text_rules[game])),
                                nullable=f.name in sj._NULLABLE[cls], **shape))
        tables[game] = Table(game, cls.RULE, tuple(rows))
    return tables


def _guandan_table(text_rules: Mapping[str, list[str]]) -> Table:
    from rules.guandan import match as gd_match
    from rules.guandan import settings as gd

    defaults = {"enforcement": gd_match.checked_enforcement({}),
                **gd.settings_dict(gd.settings_from(None))}
    rows = [Setting("enforcement", defaults["enforcement"],
                    tuple(rule_ids(inspect.getdoc(gd_match.checked_enforcement), ("GD",))
                          or text_rules.get("enforcement", [])),
                    "choice", tuple(gd_match.ENFORCEMENT))]
    for key, (_, rule, allowed) in gd.KEY_FIELDS.items():
        if isinstance(allowed, tuple):
            shape = {"kind": "choice", "values": allowed}
        else:
            shape = {"kind": "flag" if allowed is bool else "positive"}
        rows.append(Setting(key, defaults[key], (rule,), **shape))
    return Table("GD", "GD-14", tuple(rows))


def _mahjong_tables(text_rules: Mapping[str, Mapping[str, list[str]]]) -> dict[str, Table]:
    from rules.mahjong import mjo, sichuan
    from rules.mahjong.settings import GameSettings

    comments = field_comments(GameSettings)
    tables = {}
    for game, module, made in (
            ("MJO", mjo, {k: getattr(mjo.mjo_settings({}), k) for k in mjo.MATCH_KEYS}),
            ("MJS", sichuan, sichuan.settings_dict(sichuan.sichuan_settings({})))):
        keys = module._KEYS
        renamed = getattr(module, "RENAMED_KEYS", {})
        order = list(getattr(module, "SETTING_KEYS", keys.names))
        order += [k for k in keys.names if k not in order]
        rows = []
        for key in order:
            if key in keys.choices:
                shape = {"kind": "choice", "values": tuple(keys.choices[key])}
            elif key in keys.whole_numbers:
                shape = {"kind": "whole", "bounds": tuple(keys.whole_numbers[key])}
            else:
                shape = {"kind": "flag"}
            rows.append(Setting(key, made[key],
                                tuple(key_rules(key, comments, (game, "T"), text_rules[game],
                                                renamed.get(key, key))),
                                nullable=key in keys.whole_numbers and key.startswith("session"),
                                **shape))
        tables[game] = Table(game, getattr(module, game).rule("settings"), tuple(rows))
    return tables
