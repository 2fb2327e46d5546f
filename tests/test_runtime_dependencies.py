"""Every library the server and its commands import comes with the runtime install (``make run``
installs paiju without extras): a command of the runtime CLI that needs a test extra's library
(as ``paiju spec --check`` once did with yaml and apispec) fails here, not on an operator's
machine."""
from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from syntax_trees import parse_file

ROOT = Path(__file__).resolve().parent.parent
OURS = {"service", "events", "projections", "rules"}


def imported_modules() -> dict[str, str]:
    """Top-level module -> the first file importing it, of every import in our packages (those
    inside functions too: a command imports its libraries when it runs)."""
    found: dict[str, str] = {}
    for package in sorted(OURS):
        for path in sorted((ROOT / package).rglob("*.py")):
            for node in ast.walk(parse_file(path)):
                if isinstance(node, ast.Import):
                    names = [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    names = [node.module]
                else:
                    continue
                for name in names:
                    found.setdefault(name.split(".")[0], str(path.relative_to(ROOT)))
    return {m: f for m, f in found.items() if m not in OURS and m not in sys.stdlib_module_names}


def normalised(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def runtime_distributions() -> set[str]:
    """paiju's requirements without an extra (as pyproject.toml says them now, whatever the
    installed metadata says), and theirs as installed, all the way down."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = [normalised(Requirement(text).name) for text in project["dependencies"]]
    found: set[str] = set()
    while wanted:
        name = wanted.pop()
        if name in found:
            continue
        found.add(name)
        for text in metadata.requires(name) or []:
            requirement = Requirement(text)
            # an extra's, or one for another Python or platform
            if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
                wanted.append(normalised(requirement.name))
    return found


def test_every_library_our_code_imports_is_a_runtime_requirement():
    providers = metadata.packages_distributions()
    runtime = runtime_distributions()
    missing = {module: where for module, where in imported_modules().items()
               if not {normalised(d) for d in providers.get(module, [module])} & runtime}
    assert missing == {}, "imported, but installed only with an extra: " + ", ".join(
        f"{module} ({where})" for module, where in sorted(missing.items()))
