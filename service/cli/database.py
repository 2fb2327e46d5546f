"""The database itself: ``paiju db upgrade`` (every table of a SQLite file or a PostgreSQL
database, in place) and ``paiju
migrate`` (a deployment moved into another database, e.g. SQLite to PostgreSQL)."""
from __future__ import annotations

import sys

from rules.messages import Message

from .common import add_db, first_admin_token, no_database, opened, said, shown


def add(commands) -> None:
    db = commands.add_parser("db", help="the database's schema: every table")
    db_commands = db.add_subparsers(dest="db_command", required=True)
    upgrade = db_commands.add_parser("upgrade", help="create or migrate every table of a SQLite "
                                     "file or a PostgreSQL database, in place (PostgreSQL: once, "
                                     "before paiju serve)")
    add_db(upgrade, help="a SQLite file or a postgresql:// URL")
    upgrade.set_defaults(run=_db_upgrade)

    migrate = commands.add_parser("migrate", help="move a deployment's log and tokens into "
                                  "another database (e.g. SQLite to PostgreSQL), every chain "
                                  "verified before and after")
    migrate.add_argument("--from", dest="source", required=True, help="the database to read")
    migrate.add_argument("--to", dest="target", required=True,
                         help="the database to write: empty, its schema current")
    migrate.set_defaults(run=_migrate)


def _db_upgrade(args) -> int:
    """Create or migrate every table of the database, in place; a new deployment's first admin
    token is made here, once (the nodes started after find it)."""
    from events.storage import upgrade
    from events.storage.postgres_schema import SchemaNotCurrent
    from events.storage.sqlite_schema import NewerSchema
    from events.store import StoreUnavailable

    from ..deployment import open_deployment

    say = args.say
    try:
        upgraded = upgrade(args.db)
    except (StoreUnavailable, SchemaNotCurrent, NewerSchema) as error:
        print(f"paiju db upgrade: {said(error, say)}", file=sys.stderr)
        return 2
    if upgraded.changed:
        state = Message("store schema {after} (upgraded from {before}) on {db}",
                        after=upgraded.after, before=upgraded.before, db=shown(args.db))
    else:
        state = Message("store schema {after} (already current) on {db}", after=upgraded.after,
                        db=shown(args.db))
    print(f"paiju: {say(state)}")
    deployment = open_deployment(args.db)
    try:
        first_admin_token(deployment.tokens, say)
    finally:
        deployment.close()
    return 0


def _migrate(args) -> int:
    """Every tournament's log (positions, ids and hashes as stored), the tokens and the
    webhooks, from one database into an empty one; each chain verified on both sides."""
    from events.store import RestoreConflict

    from ..deployment import exists, open_deployment
    from ..migration import MigrationRefused, migrate
    from ..progress import counted

    say = args.say
    if not exists(args.source):
        no_database(args.source, say, "paiju migrate")
        return 2
    source = opened(say, lambda: open_deployment(args.source))
    target = source and opened(say, lambda: open_deployment(args.target))
    if source is None or target is None:
        if source is not None:
            source.close()
        return 2
    try:
        report = migrate(source, target, lambda records: counted(
            records, say("migrated"), say("events"), total=source.store.last_position()))
    except (MigrationRefused, RestoreConflict) as error:
        print(f"paiju migrate: {said(error, say)}", file=sys.stderr)
        return 1
    finally:
        source.close()
        target.close()
    done = say(Message("migrated {events} events of {tournaments} tournaments, {tokens} tokens "
                       "and {webhooks} webhooks from {source} to {target}; every chain "
                       "verified, heads identical", events=report.events,
                       tournaments=report.tournaments, tokens=report.tokens,
                       webhooks=report.webhooks, source=shown(args.source),
                       target=shown(args.target)))
    print(f"paiju: {done}")
    return 0
