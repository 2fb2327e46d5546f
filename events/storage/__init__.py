"""The deployment's database and every table paiju keeps in it — the log, the tokens, the
webhooks and their attempts, the timer's and the deliverer's leases, the quiet marks, the
tokens' change counter — made and upgraded by one versioned list of migrations per backend
(:mod:`.sqlite_schema`, :mod:`.postgres_schema`). The modules that use a table (service/tokens.py,
service/webhooks.py, service/leases.py, projections/quiet_marks.py) make none of their own.

It lives under ``events/`` because the stores open the database and check its version first,
and ``events/`` is the lowest room that touches a database: the tokens (``service/``) and the
quiet marks (``projections/``) may import it from above, and it imports nothing of theirs.
"""
from __future__ import annotations

from dataclasses import dataclass

from . import postgres_schema, sqlite_schema


@dataclass(frozen=True)
class Upgraded:
    backend: str  # "sqlite" or "postgresql"
    before: int   # the schema version found (0: a database paiju had not set up)
    after: int    # the version it is at now, this code's

    @property
    def changed(self) -> bool:
        return self.before != self.after


def upgrade(database: str) -> Upgraded:
    """Bring the database at ``database`` — a SQLite file (made if missing) or a
    ``postgresql://`` URL — to the schema of this code, in place, every table (``paiju db
    upgrade``). Running it again changes nothing. Raises
    :class:`.postgres_schema.SchemaNotCurrent` or :class:`.sqlite_schema.NewerSchema` for a
    database written by a newer paiju, :class:`events.store.StoreUnavailable` for a PostgreSQL
    server that cannot be reached."""
    if postgres_schema.is_postgres_url(database):
        return Upgraded("postgresql", *postgres_schema.upgrade_schema(database))
    return Upgraded("sqlite", *sqlite_schema.upgrade_file(database))

