"""``paiju entrants import``: a tournament's entrants from a CSV file, as one batch."""
from __future__ import annotations

import os
import sys
from pathlib import Path

from rules.messages import Message

from .common import add_db, cannot_read, open_existing, shown


def add(commands) -> None:
    entrants = commands.add_parser("entrants", help="a tournament's entrants")
    entrants_commands = entrants.add_subparsers(dest="entrants_command", required=True)
    load = entrants_commands.add_parser(
        "import", help="register the entrants of a CSV file (header team_id,name,player1,…) "
        "as one batch, or none: every bad row is reported with its row and column")
    load.add_argument("file")
    load.add_argument("--tournament", required=True)
    add_db(load)
    load.set_defaults(run=_entrants_import)


def _entrants_import(args) -> int:
    """The file's rows registered through the store as one atomic batch (service/entrants.py),
    judged as POST …/entrants judges them; the report of every bad row on stderr, exit 1."""
    say = args.say
    try:
        raw = Path(args.file).read_bytes()
    except OSError as error:
        cannot_read(args.file, error, say)
        return 2
    store = open_existing(args.db, say)
    if store is None:
        return 2
    try:
        registered = _register(args, store, raw)
    finally:
        store.close()
    if registered is None:
        return 1
    found, result = registered
    positions = [r.position for r in result.records]
    done = say(Message("registered {count} entrants of {file} in {tournament} (positions "
                       "{first}-{last}, one batch)", count=len(found), file=args.file,
                       tournament=args.tournament, first=positions[0], last=positions[-1]))
    print(f"paiju: {done}")
    return 0


def _register(args, store, raw: bytes):
    """``(entrants, append result)``, or None after saying why nothing was registered."""
    from events import default_catalogue

    from ..appending import TournamentNotFound
    from ..application import Tournaments
    from ..entrants import EntrantsRefused, report_lines

    say = args.say
    # who recorded them: the operator of this machine, with the database's own rights
    meta = {"actor": f"cli:{os.environ.get('USER') or 'operator'}", "role": "admin",
            "source": f"paiju entrants import {Path(args.file).name}"[:200]}
    try:
        return Tournaments(store, default_catalogue()).import_entrants(args.tournament, raw, meta)
    except TournamentNotFound:
        unknown = say(Message("no tournament {tournament!r} in {db}", tournament=args.tournament,
                              db=shown(args.db)))
        print(f"paiju: {unknown}", file=sys.stderr)
    except EntrantsRefused as refused:
        for line in report_lines(refused.errors, say):
            print(f"{args.file}: {line}", file=sys.stderr)
        nothing = say(Message("nothing was registered: {count} fault(s) in {file}",
                              count=len(refused.errors), file=args.file))
        print(f"paiju: {nothing}", file=sys.stderr)
    return None
