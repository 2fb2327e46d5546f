"""The gen-files script of the site (mkdocs.yml, plugin ``gen-files``): writes the generated
pages into the build's files, never into docs/ —

* reference/cli.md, reference/events.md, reference/settings.md (docs/gen/reference.py);
* rules/*.md: the rule texts of ``shared/rules`` (beside the repository), with an anchor for
  every rule ID, so that a page links ``../rules/shengji-2deck.md#SJ2-9.3``.

The repository this mkdocs.yml belongs to comes first on ``sys.path``: a copy of the tree
documents its own code.
"""
from __future__ import annotations

import sys
from pathlib import Path

import mkdocs_gen_files

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
for path in (str(HERE), str(REPO)):
    if path in sys.path:
        sys.path.remove(path)
    sys.path.insert(0, path)

import reference  # docs/gen/reference.py, found through the path above

rules = reference.RuleTexts()
pages = {
    "reference/cli.md": reference.cli_markdown(),
    "reference/events.md": reference.events_markdown(rules=rules),
    "reference/settings.md": reference.settings_markdown(rules),
    **{f"rules/{name}": text for name, text in rules.pages.items()},
}
for name, text in pages.items():
    with mkdocs_gen_files.open(name, "w", encoding="utf-8") as page:
        page.write(text)
