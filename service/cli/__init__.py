"""The ``paiju`` command: serve the API; tokens and the export key; verify, export, verify an
export offline and import it; simulate a tournament."""
from __future__ import annotations

import argparse

from ..i18n import cli_language
from . import database, entrants, exports, serve, simulate, spec, tokens
from .common import translator

# argparse, not click or typer: the same lines with decorators instead of calls, and the help
# (which docs/gen/reference.py prints for the site) would change its form for nothing.
# One module a command group, each adding its sub-commands (``add(commands)``: their arguments,
# and ``run``, the function that carries one out) in the order ``paiju --help`` lists them. A
# new group is a module with an ``add`` here; a new sub-command, a parser in its group's ``add``.
GROUPS = (serve, exports, tokens, entrants, database, simulate, spec)

LANGUAGE_HELP = ("the language paiju speaks here: zh (简体中文) or en (English); default: "
                 "LC_ALL, LC_MESSAGES or LANG (C or POSIX: English), else zh. Before the command: "
                 "paiju --language en verify …")


def parser() -> argparse.ArgumentParser:
    """``paiju`` and every sub-command, with its arguments and help."""
    paiju = argparse.ArgumentParser(prog="paiju", description=__doc__)
    paiju.add_argument("--language", dest="cli_language", choices=["zh", "en"],
                       help=LANGUAGE_HELP)
    commands = paiju.add_subparsers(dest="command", required=True)
    for group in GROUPS:
        group.add(commands)
    return paiju


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    # serve's --language (the pages' default) is its lines' language too, unless paiju's says
    args.say = translator(cli_language(args.cli_language or getattr(args, "language", None)))
    return args.run(args)
