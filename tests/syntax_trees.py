"""Our own source files parsed for the tests that read the code (layering, function lengths,
imports, extracted sentences).

CPython 3.11 keeps the AST builder's recursion count in state shared by every thread, so an
``ast.parse`` while another thread parses too (a server left running by an earlier test
compiling a template) can fail with ``SystemError: AST constructor recursion depth mismatch``
(python/cpython#106905, fixed in later releases). The file is unchanged: parsing it again is
right, and a real syntax error still raises."""
from __future__ import annotations

import ast
from pathlib import Path

ATTEMPTS = 5


def parse(source: str, filename: str = "<unknown>") -> ast.Module:
    for attempt in range(ATTEMPTS):
        try:
            return ast.parse(source, filename)
        except SystemError as error:
            if "recursion depth mismatch" not in str(error) or attempt == ATTEMPTS - 1:
                raise
    raise AssertionError("unreachable")


def parse_file(path: Path) -> ast.Module:
    return parse(path.read_text(encoding="utf-8"), str(path))
