"""The event log's engines — the envelope and its hash, the stores, their SQL, the storage of
every table (events/storage) — are kept apart from the catalogue of the games' events: no
engine imports the catalogue or a game's rules (only ``rules.messages``, the words of its
refusals), so the storage can be read, upgraded and tested without a game in sight. Read with
``ast`` by tests/unit/test_house.py's reader."""
from __future__ import annotations

from test_house import imports

ENGINES = ("events.envelope", "events.commits", "events.store", "events.memory_store",
           "events.sqlite_store", "events.postgres_store", "events.postgres_writer",
           "events.group_commit", "events.sql_reads", "events.export_file", "events.storage")
MAY_IMPORT = ("events.envelope", "events.commits", "events.store", "events.sql_reads",
              "events.postgres_writer", "events.group_commit", "events.storage",
              "rules.messages")


def _engine(module: str) -> bool:
    return any(module == e or module.startswith(e + ".") for e in ENGINES)


def test_no_engine_of_the_log_imports_the_catalogue_or_a_rule():
    found = sorted(f"{i.source} (line {i.line}) imports {i.target}" for i in imports()
                   if _engine(i.source) and not any(
                       i.target == m or i.target.startswith(m + ".") for m in MAY_IMPORT))
    assert found == []


def test_the_check_sees_the_engines_imports():
    seen = {i.target for i in imports() if i.source == "events.sqlite_store"}
    assert "events.storage.sqlite_schema" in seen and "rules.messages" in seen
