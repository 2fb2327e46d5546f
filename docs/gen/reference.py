"""The generated pages of the documentation site, as Markdown: made from the code at build time
(docs/gen/generate.py writes them through mkdocs-gen-files), never committed.

* ``cli_markdown()``: ``paiju --help`` and every sub-command's ``--help``, from the real argparse
  parser of service/cli/, in English;
* ``events_markdown(catalogue, names)``: every event type of the catalogue with its schema
  version, stream and data fields (from its marshmallow schema), and its Chinese name;
* ``settings_markdown(rules)``: each game's match settings and each format's tournament
  settings, from the tables the code validates with, with defaults and rule IDs;
* ``RuleTexts``: the rule texts of ``shared/rules``, each rule ID given an anchor
  (``rules/shengji-2deck.md#SJ2-9.3``) so that any page can link it.

Pure functions of their arguments (the tests call them with a changed catalogue); the only
imports of paiju happen inside them.
"""
from __future__ import annotations

import argparse
import contextlib
import dataclasses
import inspect
import json
import os
import re
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
# shared/ lies beside the repository (here and in CI); PAIJU_SHARED_DIR may say otherwise
SHARED = Path(os.environ.get("PAIJU_SHARED_DIR") or REPO.parent / "shared")

RULE_ID = re.compile(r"\b(SJ2|SJ3|GD|MJO|MJS|T)-(\d+(?:\.\d+)*)")
README_SECTION = re.compile(r"(?:rules )?README §(\d+)")
# what a rule ID is never linked in: fenced code, code spans, HTML tags (an anchor's id)
UNLINKED = re.compile(r"(^```.*?^```[^\n]*$|`[^`\n]*`|<[^<>\n]+>)", re.M | re.S)
GENERATED = ("<!-- Generated at build time by docs/gen/generate.py ({what}); "
             "edit the code, not this page. -->\n\n")


# --- the rule texts ------------------------------------------------------------------------------

class RuleTexts:
    """The rule files of ``shared/rules`` (``README.md`` and one file per rule-ID prefix), with
    an anchor for every rule ID (``- **SJ2-9.3** …``) and every numbered section (``## 9.`` is
    ``SJ2-9``; the README's ``§5`` is ``README-5``), and the page each prefix lives on."""

    def __init__(self, directory: Path = SHARED / "rules"):
        if not directory.is_dir():
            raise FileNotFoundError(f"the rule texts are not at {directory} (shared/ beside the "
                                    "repository, or PAIJU_SHARED_DIR)")
        self.directory = directory
        self.sources = {path.name: path.read_text(encoding="utf-8")
                        for path in sorted(directory.glob("*.md"))}
        self.prefixes: dict[str, str] = {}  # "SJ2" -> "shengji-2deck.md"
        for name, text in self.sources.items():
            if found := re.search(r"^Prefix `([A-Z0-9]+)-`", text, re.M):
                self.prefixes[found.group(1)] = name
        anchored = {name: self._anchored(name, text) for name, text in self.sources.items()}
        self.anchors = {name: set(re.findall(r'<a id="([^"]+)"', page))
                        for name, page in anchored.items()}
        # each rule ID a rule text cites links the rule
        self.pages = {name: self.linked(page, "rules") for name, page in anchored.items()}

    def prefix_of(self, name: str) -> str:
        return next((p for p, page in self.prefixes.items() if page == name), "README")

    def _anchored(self, name: str, text: str) -> str:
        """The text with an anchor before each rule (``- **SJ2-9.3** …``) and each numbered
        section (``## 9. …`` is ``SJ2-9``); a rule stated only in a table's first column (an
        Interpretations index row ``| T-2.6 | … |``) is anchored there."""
        prefix = self.prefix_of(name)
        item = re.compile(r"^(\s*[-*]\s+)\*\*([A-Z0-9]+-\d+(?:\.\d+)*[a-z]?)\*\*")
        row = re.compile(r"^(\|\s*)([A-Z0-9]+-\d+(?:\.\d+)*[a-z]?)(\s*\|)")
        stated = {m.group(2) for line in text.splitlines() if (m := item.match(line))}
        lines = []
        for line in text.splitlines():
            if heading := re.match(r"^(##\s+)(\d+)\.\s", line):
                lines.append(f'<a id="{prefix}-{heading.group(2)}" class="paiju-rule"></a>\n')
            elif found := item.match(line):
                start, rule = found.group(1), found.group(2)
                line = f'{start}<a id="{rule}" class="paiju-rule"></a>' + line[len(start):]
            elif (found := row.match(line)) and found.group(2) not in stated:
                stated.add(found.group(2))
                start = found.group(1)
                line = (f'{start}<a id="{found.group(2)}" class="paiju-rule"></a>'
                        + line[len(start):])
            lines.append(line)
        page = "\n".join(lines) + "\n"
        ids = re.findall(r'<a id="([^"]+)"', page)
        example = next((i for i in ids if "." in i), ids[0] if ids else prefix)
        note = (f"\n!!! note \"Copied from `shared/rules/{name}` at build time\"\n"
                "    The rules contract, as the code cites it: every rule ID and every "
                f"numbered section has an anchor (`rules/{name}#{example}`).\n\n")
        # the note goes under the page's title
        title_end = page.find("\n") + 1 if page.startswith("# ") else 0
        return page[:title_end] + note + page[title_end:]

    def href(self, rule: str, from_dir: str) -> str | None:
        """The link to ``rule`` (``SJ2-9.3``, ``README-5``) from a page in ``from_dir``
        (``reference``), or None if no rule text has that anchor."""
        prefix = rule.rsplit("-", 1)[0]
        page = "README.md" if prefix == "README" else self.prefixes.get(prefix)
        if page is None or rule not in self.anchors.get(page, ()):
            return None
        return f"{os.path.relpath('rules', from_dir)}/{page}#{rule}"

    def linked(self, text: str, from_dir: str) -> str:
        """``text`` (Markdown) with each rule ID that has an anchor made a link, outside code
        (fenced blocks and spans) and HTML tags; ``README §5`` links the README's section 5."""
        def link(match: re.Match) -> str:
            rule = (f"README-{match.group(1)}" if match.re is README_SECTION
                    else match.group(0))
            href = self.href(rule, from_dir)
            return f"[{match.group(0)}]({href})" if href else match.group(0)

        parts = UNLINKED.split(text)
        for i in range(0, len(parts), 2):
            parts[i] = RULE_ID.sub(link, README_SECTION.sub(link, parts[i]))
        return "".join(parts)

    def settings_rules(self, prefix: str) -> dict[str, list[str]]:
        """The ``Rule`` column of a game's settings table in its rule text (key -> rule IDs):
        ``| `maxHands` | 20 | integer | 14.1 |`` is ``SJ2-14.1``; ``README §5`` stays so."""
        from service.settings_tables import text_settings_rules
        return text_settings_rules(self.sources.get(self.prefixes.get(prefix, ""), ""), prefix)


# --- the CLI -----------------------------------------------------------------------------------

class _Parsed(Exception):
    def __init__(self, parser: argparse.ArgumentParser):
        super().__init__()
        self.parser = parser


def cli_parser(main: Callable[[list[str]], object] | None = None) -> argparse.ArgumentParser:
    """The parser ``paiju`` builds: ``service.cli.main`` runs until it would parse its
    arguments, and is stopped there (nothing is run)."""
    if main is None:
        from service.cli import main
    parse_args = argparse.ArgumentParser.parse_args

    def stop(self, *args, **kwargs):
        raise _Parsed(self)

    argparse.ArgumentParser.parse_args = stop
    try:
        main([])
    except _Parsed as parsed:
        return parsed.parser
    finally:
        argparse.ArgumentParser.parse_args = parse_args
    raise RuntimeError("service.cli.main did not parse its arguments")


def _commands(parser: argparse.ArgumentParser, words: tuple[str, ...] = ("paiju",)
              ) -> Iterable[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    yield words, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            seen = set()
            for name, sub in action.choices.items():
                if id(sub) not in seen:  # an alias names the same parser
                    seen.add(id(sub))
                    yield from _commands(sub, (*words, name))


@contextlib.contextmanager
def _environment(**values: str):
    saved = {name: os.environ.get(name) for name in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def cli_markdown(parser: argparse.ArgumentParser | None = None) -> str:
    """reference/cli.md: the help of ``paiju`` and of every sub-command, as argparse prints it
    (100 columns, English: the help texts are the code's, argparse's words the C locale's)."""
    parser = parser or cli_parser()
    out = [GENERATED.format(what="the argparse parser of service/cli/"),
           "# Command line: `paiju`\n\n",
           ("Every command and its options, exactly as `paiju … --help` prints them (this page "
            "is generated from the parser of `service/cli/` when the site is built). What "
            "the commands print for a person is said in 简体中文 or English: `paiju --language "
            "zh|en …` before the command, else `LC_ALL` / `LC_MESSAGES` / `LANG` (`C` or "
            "`POSIX`: English), else 简体中文; the help below is the English.\n\n")]
    commands = list(_commands(parser))
    out.append("| Command | What it does |\n|---|---|\n")
    helps = _sub_helps(parser)
    for words, _ in commands[1:]:
        out.append(f"| [`{' '.join(words)}`](#{'-'.join(words)}) | "
                   f"{_cell(helps.get(words, ''))} |\n")
    with _environment(COLUMNS="100", LC_ALL="C", LANGUAGE="C"):
        for words, sub in commands:
            level = "#" * min(len(words) + 1, 4)
            out.append(f"\n{level} `{' '.join(words)}` {{ #{'-'.join(words)} }}\n\n")
            out.append("```text\n" + sub.format_help().rstrip() + "\n```\n")
    return "".join(out)


def _sub_helps(parser: argparse.ArgumentParser) -> dict[tuple[str, ...], str]:
    """Each sub-command's one-line help (what ``paiju --help`` lists), by its words."""
    helps = {}
    for words, sub in _commands(parser):
        for action in sub._actions:
            if isinstance(action, argparse._SubParsersAction):
                for choice in action._choices_actions:
                    helps[(*words, choice.dest)] = choice.help or ""
    return helps


def _cell(text: str) -> str:
    """Text for a Markdown table cell: one line, its pipes escaped (a pipe in a code span
    divides no cells, and its escape would show)."""
    parts = re.split(r"(`[^`]*`)", " ".join(str(text).split()))
    return "".join(part if i % 2 else part.replace("|", "\\|") for i, part in enumerate(parts))


# --- the event catalogue -----------------------------------------------------------------------

FAMILIES = {  # the module of a data schema -> the heading its types are listed under
    "events.tournament_events": "Tournament",
    "events.shengji_events": "Shengji (SJ2, SJ3)",
    "events.mahjong_events": "Mahjong (MJO, MJS)",
    "events.guandan_events": "Guandan (GD)",
    "events.team_event_events": "Team event (swiss-teams)",
    "events.clock_events": "Match clock",
    "events.ruling_events": "Disputes and rulings",
}


def _stream(kind: str) -> str:
    return {"tournament": "`tournament-<tid>`",
            "match": "`match-<tid>:<match id>`"}.get(kind, f"`{kind}-<id>`")


def _code(value: object) -> str:
    """A value as code: a string as it is, anything else as JSON (``true``, ``null``, …)."""
    if isinstance(value, Mapping):
        value = dict(value)
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return f"`{text}`" if "`" not in text else f"`` {text} ``"


def _doc(obj: object) -> str:
    """The first paragraph of a docstring, its ``literals`` in Markdown."""
    doc = inspect.cleandoc(obj.__doc__ or "")  # its own, not one inherited (getdoc's)
    if not doc:
        return ""
    first = " ".join(doc.split("\n\n")[0].split())
    return re.sub(r"``(.+?)``", r"`\1`", first)


def _type_name(field) -> str:
    from marshmallow import fields
    if isinstance(field, fields.List):
        return f"list of {_type_name(field.inner)}"
    if isinstance(field, fields.Tuple):
        return "tuple of " + ", ".join(_type_name(f) for f in field.tuple_fields)
    if isinstance(field, fields.Dict):
        key = _type_name(field.key_field) if field.key_field else "string"
        value = _type_name(field.value_field) if field.value_field else "any"
        return f"object ({key} → {value})"
    if isinstance(field, fields.Nested):
        return "object"
    for kind, name in ((fields.Boolean, "boolean"), (fields.Integer, "integer"),
                       (fields.Number, "number"), (fields.String, "string"),
                       (fields.DateTime, "date-time"), (fields.Date, "date")):
        if isinstance(field, kind):
            return name
    if type(field) is fields.Raw:
        return "any"
    return type(field).__name__


def _bounds(low, high, unit: str = "", low_inclusive=True, high_inclusive=True) -> str:
    if low is not None and high is not None and low_inclusive and high_inclusive:
        return f"{low}–{high}{unit}" if low != high else f"exactly {low}{unit}"
    parts = []
    if low is not None:
        parts.append(f"{'≥' if low_inclusive else '>'} {low}{unit}")
    if high is not None:
        parts.append(f"{'≤' if high_inclusive else '<'} {high}{unit}")
    return ", ".join(parts)


def _constraints(field) -> list[str]:
    """What a field's validators allow, in words (bounds, lengths, choices, patterns)."""
    from marshmallow import fields, validate
    said = []
    container = isinstance(field, (fields.List, fields.Dict, fields.Tuple))
    for validator in field.validators:
        if isinstance(validator, validate.Range):
            said.append(_bounds(validator.min, validator.max, "", validator.min_inclusive,
                                validator.max_inclusive))
        elif isinstance(validator, validate.Length):
            unit = " items" if container else " characters"
            if validator.equal is not None:
                said.append(f"exactly {validator.equal}{unit}")
            else:
                said.append(_bounds(validator.min, validator.max, unit))
        elif isinstance(validator, validate.OneOf):
            said.append("one of " + ", ".join(_code(c) for c in validator.choices))
        elif isinstance(validator, validate.Equal):
            said.append(f"equal to {_code(validator.comparable)}")
        elif hasattr(validator, "regex"):  # marshmallow's Regexp, events.catalogue.FullMatch
            said.append(f"matches `{validator.regex.pattern}`"
                        + (f" ({validator.error})" if isinstance(getattr(validator, "error", None),
                                                                 str) else ""))
        else:
            name = getattr(validator, "__name__", type(validator).__name__).lstrip("_")
            said.append(f"checked by `{name}`" + (f": {d}" if (d := _doc(validator)) else ""))
    if isinstance(field, fields.List) and (inner := _constraints(field.inner)):
        said.append("each item: " + "; ".join(inner))
    if isinstance(field, fields.Dict):
        if field.key_field and (keys := _constraints(field.key_field)):
            said.append("each key: " + "; ".join(keys))
        if field.value_field and (values := _constraints(field.value_field)):
            said.append("each value: " + "; ".join(values))
    return [s for s in said if s]


def _nested(field):
    """The schema of a nested object (a field, or the items of a list), or None."""
    from marshmallow import fields
    if isinstance(field, fields.List):
        return _nested(field.inner)
    if isinstance(field, fields.Nested):
        schema = field.schema
        return schema.fields if hasattr(schema, "fields") else None
    return None


def _field_rows(declared: Mapping, prefix: str = "") -> Iterable[str]:
    from marshmallow import fields, missing
    for name, field in declared.items():
        key = field.data_key or name
        required = "yes" if field.required else "no"
        if field.load_default is not missing and not callable(field.load_default):
            required += f" (default {_code(field.load_default)})"
        notes = _constraints(field)
        if field.allow_none:
            notes.append("may be `null`")
        yield (f"| `{prefix}{key}` | {_type_name(field)} | {required} | "
               f"{_cell('; '.join(notes)) or '—'} |\n")
        if (inner := _nested(field)) is not None:
            suffix = "[]." if isinstance(field, fields.List) else "."
            yield from _field_rows(inner, f"{prefix}{key}{suffix}")


def events_markdown(catalogue=None, names: Mapping | None = None,
                    rules: RuleTexts | None = None) -> str:
    """reference/events.md: the event types of ``catalogue`` (default: the code's,
    ``events.default_catalogue()``), each with its Chinese name from ``names`` (default:
    ``rules.glossary.EVENTS``; a term or a string), version, stream and data fields."""
    if catalogue is None:
        from events import default_catalogue
        catalogue = default_catalogue()
    if names is None:
        from rules.glossary import EVENTS as names
    types = list(catalogue)

    def chinese(name: str) -> str:
        term = names.get(name)
        return getattr(term, "zh", term) or "—"

    families: dict[str, list] = {}
    for event_type in types:
        module = event_type.schema.__module__
        families.setdefault(FAMILIES.get(module, module), []).append(event_type)

    out = [GENERATED.format(what="events.default_catalogue() and its marshmallow schemas"),
           "# Event catalogue\n\n",
           (f"The {len(types)} event types paiju stores, as the code defines them "
            "(`events.default_catalogue()`; this page is generated from it and from each "
            "type's marshmallow schema when the site is built). An event is posted to "
            "`POST /v1/tournaments/{tid}/events` as `{type, stream, data}`: `stream` must be "
            "of the kind given, `data` must match the fields below (400 `validation-failed` "
            "otherwise; unknown fields are refused), and the rules of the game decide the rest "
            "(422 `rule-violation`). Types *recorded by the server* cannot be posted. The "
            "Chinese names are the glossary's (`rules/glossary.py`), the words the pages "
            "use.\n\n")]
    for family, members in families.items():
        out.extend(_event_family(family, members, chinese))
    out.extend(_derived_facts(getattr(catalogue, "derived", {}), chinese))
    page = "".join(out)
    return rules.linked(page, "reference") if rules else page


def _event_family(family: str, members: list, chinese) -> list[str]:
    """One family of event types: its table, then a section per type with its fields."""
    out = [f"## {family}\n\n| Type | 中文 | Version | Stream | Posted by |\n"
           "|---|---|---|---|---|\n"]
    for t in members:
        out.append(f"| [`{t.name}`](#{t.name}) | {chinese(t.name)} | {t.schema_version} | "
                   f"{' or '.join(_stream(k) for k in t.stream_kinds)} | "
                   f"{'a client' if t.postable else 'the server'} |\n")
    out.append("\n")
    for t in members:
        out.extend(_event_section(t, chinese))
    return out


def _event_section(t, chinese) -> list[str]:
    out = [f"### `{t.name}` · {chinese(t.name)} {{ #{t.name} }}\n\n"]
    if description := _doc(t.schema):
        out.append(description + "\n\n")
    where = " or ".join(_stream(k) for k in t.stream_kinds)
    facts = [f"schema version {t.schema_version}"
             + (f" (older versions are upcast: {', '.join(map(str, sorted(t.upcasters)))})"
                if t.upcasters else ""),
             f"stream {where}",
             "posted by a client" if t.postable else "recorded by the server only",
             f"data schema `{t.schema.__name__}`"]
    out.append("*" + "; ".join(facts) + ".*\n\n")
    declared = t.schema().fields
    if declared:
        out.append("| Field | Type | Required | Allowed |\n|---|---|---|---|\n")
        out.extend(_field_rows(declared))
    else:
        out.append("No data: `data` is `{}`.\n")
    out.append("\n")
    return out


def _derived_facts(derived: Mapping, chinese) -> list[str]:
    """What the server computes and never accepts: each with the read that shows it."""
    if not derived:
        return []
    out = ["## Derived facts (never posted)\n\nWhat follows from the events is computed "
           "by the server and read, never posted: posting one of these names is refused, "
           "with the read that shows it.\n\n| Fact | 中文 | Where to read it |\n"
           "|---|---|---|\n"]
    for name, where in sorted(derived.items()):
        out.append(f"| `{name}` | {chinese(name)} | {_cell(_code(where))} |\n")
    return out


# --- the settings ------------------------------------------------------------------------------

@dataclasses.dataclass
class Row:
    key: str
    default: object
    allowed: str
    rules: list[str]


def _allowed(choices=None, bounds=None, flag=False, text=None) -> str:
    if choices is not None:
        return " / ".join(_code(c) for c in choices)
    if bounds is not None:
        return f"a whole number {bounds[0]}–{bounds[1]}"
    if flag:
        return "`true` / `false`"
    return text or "—"


def _table(rows: list[Row], nullable: Iterable[str] = ()) -> str:
    out = ["| Key | Default | Allowed | Rule |\n|---|---|---|---|\n"]
    for row in rows:
        default = row.default
        if isinstance(default, Mapping):
            default = dict(default)
        shown = "none" if default is None else _code(default)
        allowed = row.allowed + (" or `null`" if row.key in nullable else "")
        rule_ids = ", ".join(row.rules) or "—"
        out.append(f"| `{row.key}` | {shown} | {_cell(allowed)} | {rule_ids} |\n")
    return "".join(out) + "\n"


def _settings_table(table, match_said: str = "an object: the match settings below") -> str:
    """A table of service/settings_tables.py as Markdown: what each key allows, in words."""
    from rules import knockout

    def said(s) -> str:
        return {"choice": lambda: _allowed(s.values),
                "whole": lambda: _allowed(bounds=s.bounds),
                "flag": lambda: _allowed(flag=True),
                "positive": lambda: "a positive whole number",
                "seeding": lambda: (f'`{{"seeds": [team id, …]}}`, 1–{knockout.MAX_SEEDS} '
                                    "team ids, best first, each once"),
                "match": lambda: match_said}.get(s.kind, lambda: "an object")()

    rows = [Row(s.key, s.default, said(s), list(s.rules)) for s in table.settings]
    return _table(rows, [s.key for s in table.settings if s.nullable])


def settings_markdown(rules: RuleTexts | None = None) -> str:
    """reference/settings.md: each format's tournament settings and each game's match settings,
    with the defaults a new tournament or match gets, the values the code accepts and the rules
    they belong to (the tables of service/settings_tables.py, which the desk's form shows
    too)."""
    from rules import groups, swiss
    from rules.guandan import settings as gd
    from service import settings_tables

    text_rules = ({p: rules.settings_rules(p) for p in settings_tables.GAMES} if rules else {})
    out = [GENERATED.format(what="the settings tables of rules/"),
           "# Settings\n\n",
           ("The settings a tournament and its matches take, generated when the site is built "
            "from the tables the code checks them with (`rules/tournament.py`, "
            "`rules/knockout`, `rules/groups`, `rules/swiss`, and each game's settings module). "
            "A tournament's `settings` are given in `TournamentCreated` (`POST "
            "/v1/tournaments`); its `settings.match` are the settings of every match it starts "
            "(`MatchStarted.settings`). An omitted key takes the default shown; an unknown key, "
            "or a value that is not allowed, is refused with **422** `rule-violation` naming "
            "the rule the table is checked under.\n\n")]

    # tournament settings, by format
    formats = settings_tables.tournament_tables()
    out.append("## Tournament settings\n\n")
    out.append("### `knockout`\n\nUnknown keys are refused under T-1.3.\n\n")
    out.append(_settings_table(formats["knockout"]))
    out.append("### `groups` (mahjong tables of four)\n\nUnknown keys are refused under "
               "T-1.3. `advance` left out: no later stage.\n\n")
    out.append(_settings_table(formats["groups"]))
    for game, defaults in groups.GAME_DEFAULTS.items():
        out.append(f"A {game} tournament's groups default to "
                   + ", ".join(f"`{k}` {_code(v)}" for k, v in defaults.items())
                   + " (its seed's choices).\n\n")
    out.append(f"### `{swiss.FORMAT}` (the team event, {swiss.GAME})\n\nUnknown keys are "
               f"refused under {swiss.SETTINGS}.\n\n")
    out.append(_settings_table(formats[swiss.FORMAT], f"an object: the {swiss.GAME} match "
                               f"settings; its `matchPoints` stay {_code(swiss.MATCH_POINTS)}"))

    # match settings, by game
    games = settings_tables.match_tables(text_rules)
    out.append("## Match settings\n\nThe keys of `settings.match` (and of "
               "`MatchStarted.settings`) in each game.\n\n")
    for game, title in (("SJ2", "two-deck Shengji, 拖拉机 / 双扣"),
                        ("SJ3", "three-deck Shengji, 升级")):
        out.append(f"### {game} ({title})\n\nRefused under {games[game].rule}.\n\n")
        out.append(_settings_table(games[game]))
    out.append("### GD (掼蛋)\n\nRefused under the rule of each key, or GD-14 for an unknown "
               f"key. `matchMinutes` + `overtimeMinutes` may be at most {gd.MAX_MINUTES} "
               "(GD-11.2).\n\n")
    out.append(_settings_table(games["GD"]))
    for game, title in (("MJO", "136-tile mahjong, Ottawa"), ("MJS", "四川麻将 血战到底")):
        out.append(f"### {game} ({title})\n\nRefused under {games[game].rule}. A `session…` "
                   "limit may be `null`: no limit of that kind.\n\n")
        out.append(_settings_table(games[game]))
    page = "".join(out)
    return rules.linked(page, "reference") if rules else page
