"""What every command group of ``paiju`` shares: the reader's language (``say``), the ``--db``
argument, opening a deployment's database with a sentence (not a traceback) when it cannot be
used, and the small forms of printing a database or a failure."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rules.messages import Message

from ..deployment import default_db
from ..i18n import catalogue

DB_HELP = ("the deployment's database: a SQLite file (created if new; default var/paiju.db) or a "
           "postgresql:// URL (after `paiju db upgrade`); default: DATABASE_URL if it is set")


LOG_FORMAT_HELP = ("the lines on standard error: text (the default), or json: one JSON object a "
                   "line (time, level, logger, node, request_id, tournament, route, message), "
                   "and a line per request with its method, path, status and duration_ms. The "
                   "node is PAIJU_NODE if set, else host:port")


def add_db(parser: argparse.ArgumentParser, help: str = DB_HELP) -> None:
    """``--db``: the deployment's database (DATABASE_URL, else var/paiju.db)."""
    parser.add_argument("--db", default=default_db(), help=help)


def at_least(low: int):
    """An argument type: a whole number, ``low`` or more."""
    def whole_number(text: str) -> int:
        value = int(text)
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}")
        return value
    return whole_number


def translator(language: str):
    """``say(message)``: a :class:`Message` (or a sentence of the catalogue ``messages``) in
    ``language``, ``zh`` or ``en`` — what every command prints for a person to read. Literal
    sentences only (``say("…")``, ``say(Message("… {n} …", n=n))``): extraction finds those."""
    gettext = catalogue(language).gettext

    def say(message: Message | str) -> str:
        return message.translated(gettext) if isinstance(message, Message) else gettext(message)
    return say


def said(error: BaseException, say) -> str:
    """An error's words for the reader: said in their language if it carries a Message (the
    simulator's, the migration's), else as it is (another module's English)."""
    if len(error.args) == 1 and isinstance(error.args[0], Message):
        return say(error.args[0])
    return str(error)


def shown(db: str) -> str:
    """``db`` as it may be printed: a URL without its password."""
    from urllib.parse import urlsplit, urlunsplit

    if "://" not in db:
        return db
    parts = urlsplit(db)
    if parts.password is None:
        return db
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@")
    return urlunsplit(parts._replace(netloc=netloc))


def opened(say, open_it):
    """What ``open_it()`` opens, or None after saying on stderr why the database cannot be
    used (unreachable, schema not current): a message, not a traceback."""
    from events.postgres_store import SchemaNotCurrent
    from events.storage.sqlite_schema import NewerSchema
    from events.store import StoreUnavailable

    try:
        return open_it()
    except (StoreUnavailable, SchemaNotCurrent, NewerSchema) as error:
        print(f"paiju: {said(error, say)}", file=sys.stderr)
        return None


def no_database(db: str, say, command: str = "paiju") -> None:
    told = say(Message("no database at {db}", db=db))
    print(f"{command}: {told}", file=sys.stderr)


def open_existing(db: str, say):
    """The store at ``db``, or None after saying why (no file there; a database that cannot
    be reached or whose schema is not current)."""
    from ..deployment import exists, open_store

    if not exists(db):
        no_database(db, say)
        return None
    return opened(say, lambda: open_store(db))


def cannot_read(path, error: OSError, say) -> None:
    told = say(Message("cannot read {path}: {error}", path=path, error=error))
    print(f"paiju: {told}", file=sys.stderr)


def key_path(db: str) -> Path:
    """The export signing key of the deployment at ``db`` (beside a SQLite file)."""
    from ..app import signing_key_path
    return signing_key_path({"DATABASE": db})


def first_admin_token(tokens, say) -> None:
    """A new deployment has no token, and without one nothing can be written: the first start
    makes an admin token and shows it once (``paiju token create`` makes more). A deployment
    that has had tokens gets none this way, even with every admin token revoked. The header's
    line is the same in every language: it is copied as it stands."""
    if tokens.all():  # not after the first start: revoking a leaked admin token must hold
        return
    secret, token = tokens.create("admin", name="first admin")
    made = say("no admin token existed, so one was made (shown this once; keep it):")
    print(f"paiju: {made}\n  Authorization: Bearer {secret}", flush=True)
