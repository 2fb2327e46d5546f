"""The shape of the house: which package may import which, no import circle between files, no
function over 60 lines, no module of service/ over 500 lines — read from the source with
``ast`` (nothing is imported), so every offender is named at once, whoever wrote it.

The rooms, lowest first (ARCHITECTURE.md, as the code stands): ``rules/`` imports nothing of
ours; ``events/`` imports ``rules/`` (the catalogue's schemas judge data by the rules' tables
and names) and nothing above; ``projections/`` imports ``rules/`` and ``events/``; ``service/``
imports all three. Every import counts, wherever it is written: one deferred into a function,
or under ``if TYPE_CHECKING:``, hides a circle or an upward dependency from the interpreter,
not from the reader, who still cannot understand either file without the other.
"""
from __future__ import annotations

import ast
import functools
import os
from dataclasses import dataclass
from pathlib import Path

import networkx
from syntax_trees import parse, parse_file

REPO = Path(__file__).resolve().parents[2]
ROOMS = ("rules", "events", "projections", "service")  # lowest first
MAY_IMPORT = {  # today's directions: a room imports itself and these
    "rules": set(),
    "events": {"rules"},
    "projections": {"rules", "events"},
    "service": {"rules", "events", "projections"},
}
LONGEST_FUNCTION = 60  # lines, the ``def`` line to the last of its body
LONGEST_SERVICE_MODULE = 500  # lines
OUTSIDE_THE_CODE = {"tests", ".venv", "build", "node_modules", ".git"}


def _name(path: Path, root: Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules(root: Path = REPO) -> dict[str, Path]:
    """Every module of the four rooms, by its dotted name (a package by its ``__init__``)."""
    return {_name(path, root): path for room in ROOMS
            for path in sorted((root / room).rglob("*.py"))}


def _python_outside_tests() -> list[Path]:
    """Every Python file of the project but the tests' (folders like .venv not walked)."""
    found = []
    for folder, subfolders, files in os.walk(REPO):
        subfolders[:] = [d for d in subfolders if d not in OUTSIDE_THE_CODE
                         and not d.startswith(".") and d != "__pycache__"]
        found += [Path(folder) / name for name in files if name.endswith(".py")]
    return sorted(found)


@functools.cache
def _tree(path: Path) -> ast.Module:
    """The file's syntax tree, parsed once for every check."""
    return parse_file(path)


@dataclass(frozen=True)
class Import:
    source: str  # the importing module
    target: str  # the module imported (the deepest that is a file of ours)
    line: int

    def __str__(self) -> str:
        return f"{self.source} (line {self.line}) imports {self.target}"


def _absolute(module: str, path: Path, node: ast.ImportFrom) -> str:
    """The dotted name ``from … import`` names, its dots resolved against ``module``."""
    if not node.level:
        return node.module or ""
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    base = package[:len(package) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _ours(dotted: str, modules: dict[str, Path]) -> str | None:
    """The deepest module of ours that ``dotted`` names or lies in (``events.catalogue.X`` ->
    ``events.catalogue``); None for another library's."""
    parts = dotted.split(".")
    for end in range(len(parts), 0, -1):
        if ".".join(parts[:end]) in modules:
            return ".".join(parts[:end])
    return None


def _named(module: str, path: Path, node: ast.AST) -> list[str]:
    """The dotted names an import statement brings in (``from package import module`` names
    the module; ``from module import name``, a name in it)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if isinstance(node, ast.ImportFrom):
        base = _absolute(module, path, node)
        return [f"{base}.{alias.name}" for alias in node.names]
    return []


def imports(ours: dict[str, Path] | None = None) -> list[Import]:
    """Every import of one module of ours by another, wherever in the file it is written."""
    ours = modules() if ours is None else ours
    found = []
    for module, path in ours.items():
        for node in ast.walk(_tree(path)):
            for dotted in _named(module, path, node):
                target = _ours(dotted, ours)
                if target is not None and target != module:
                    found.append(Import(module, target, node.lineno))
    return found


def _room(module: str) -> str:
    return module.split(".")[0]


def upward_imports(found: list[Import] | None = None) -> list[str]:
    return sorted(str(i) for i in (imports() if found is None else found)
                  if _room(i.target) != _room(i.source)
                  and _room(i.target) not in MAY_IMPORT[_room(i.source)])


def import_circles(found: list[Import] | None = None) -> list[list[str]]:
    """Each group of modules that import each other (through any number of files): the
    imports that close it, ``a (line n) imports b``, sorted."""
    found = imports() if found is None else found
    graph = networkx.DiGraph((i.source, i.target) for i in found)
    groups = [group for group in networkx.strongly_connected_components(graph) if len(group) > 1]
    return sorted(sorted({str(i) for i in found if i.source in group and i.target in group})
                  for group in groups)


def functions_over(path: Path, limit: int = LONGEST_FUNCTION) -> list[str]:
    """``path:line name (n lines)`` for every function of ``path`` of more than ``limit`` lines
    (its ``def`` line to the last line of its body, nested functions within it)."""
    found = []
    for node in ast.walk(_tree(path)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            lines = node.end_lineno - node.lineno + 1
            if lines > limit:
                found.append(f"{path}:{node.lineno} {node.name} ({lines} lines)")
    return found


def long_functions() -> list[str]:
    return sorted(found.removeprefix(f"{REPO}/") for path in _python_outside_tests()
                  for found in functions_over(path))


def long_service_modules() -> list[str]:
    found = []
    for path in sorted((REPO / "service").rglob("*.py")):
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > LONGEST_SERVICE_MODULE:
            found.append(f"{path.relative_to(REPO)} ({lines} lines)")
    return found


def test_no_room_imports_a_room_above_it():
    offenders = upward_imports()
    assert not offenders, "\n".join(offenders)


def test_no_import_circle_between_files():
    circles = import_circles()
    assert not circles, "\n\n".join("\n".join(circle) for circle in circles)


def test_no_function_over_60_lines():
    offenders = long_functions()
    assert not offenders, "\n".join(offenders)


def test_no_module_of_service_over_500_lines():
    offenders = long_service_modules()
    assert not offenders, "\n".join(offenders)


# --- the checks themselves can fail -------------------------------------------------------------

def _write(root: Path, files: dict[str, str]) -> dict[str, Path]:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return modules(root)


def test_a_circle_through_a_deferred_or_type_checking_import_is_found(tmp_path):
    ours = _write(tmp_path, {
        "rules/__init__.py": "",
        "rules/match.py": "from .state import Deal\nfrom . import outcome\n",
        "rules/state.py": "class Deal: pass\n",
        "rules/outcome.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                            "    from .match import Deal\n",
        "rules/deadlines.py": "def due():\n    from rules.match import Deal\n",
        "events/__init__.py": "from rules.state import Deal\n",
        "service/__init__.py": "", "projections/__init__.py": "",
    })
    found = imports(ours)
    assert import_circles(found) == [["rules.match (line 2) imports rules.outcome",
                                      "rules.outcome (line 3) imports rules.match"]]
    assert upward_imports(found) == []


def test_an_upward_import_is_found_even_inside_a_function(tmp_path):
    ours = _write(tmp_path, {
        "rules/__init__.py": "", "service/__init__.py": "", "service/app.py": "",
        "events/__init__.py": "", "events/store.py": "import projections.folds\n",
        "projections/__init__.py": "", "projections/folds.py": "",
        "rules/names.py": "def f():\n    from service import app\n",
    })
    assert upward_imports(imports(ours)) == [
        "events.store (line 1) imports projections.folds",
        "rules.names (line 2) imports service.app"]


def test_relative_imports_resolve_against_the_package():
    def resolved(module, file, text):
        return _absolute(module, Path(file), parse(text).body[0])
    assert resolved("service.cli.serve", "serve.py", "from . import x") == "service.cli"
    assert resolved("service.cli", "__init__.py", "from .serve import x") == "service.cli.serve"
    assert resolved("rules.guandan.match", "match.py", "from ..messages import M") == \
        "rules.messages"


def test_a_function_of_61_lines_is_too_long_and_one_of_60_is_not(tmp_path):
    body = "".join(f"    x = {n}\n" for n in range(59))
    path = tmp_path / "m.py"
    path.write_text(f"def sixty():\n{body}\n\ndef sixty_one():\n{body}    return x\n")
    assert functions_over(path) == [f"{path}:63 sixty_one (61 lines)"]
