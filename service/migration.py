"""Moving a deployment to another database (``paiju migrate``): SQLite to PostgreSQL as an
event outgrows one machine, or back.

The log is copied as stored (positions, ids, hashes; the export's ``restore`` underneath), so
each chain, and so every projection, is identical afterwards; the tokens move by their digests,
so every token still works; the webhooks move with their secrets, cursors and delivery attempts,
so each goes on from the event it had reached. Every chain is verified before anything is written and again in the
new database, and each tournament's head must be the same on both sides.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator

from events.envelope import Record
from rules.messages import Message

from .deployment import Deployment

class MigrationRefused(Exception):
    """Why nothing (more) is migrated: its one argument a :class:`Message` (``str()``: the
    English; ``paiju migrate`` says it in its reader's language)."""


@dataclass(frozen=True)
class MigrationReport:
    tournaments: int
    events: int
    tokens: int
    webhooks: int


def migrate(source: Deployment, target: Deployment,
            counted: Callable[[Iterator[Record]], Iterator[Record]] = iter) -> MigrationReport:
    """``counted`` passes the records through as they are copied (the command's progress)."""
    if target.store.last_position():
        raise MigrationRefused(Message("the target database already holds events: migrate into "
                                       "a database without any (its tokens, if any, are kept)"))
    reports = source.store.verify_all()
    broken = [r for r in reports if not r.ok]
    if broken:
        raise MigrationRefused(Message("the chain of {tournament} is broken at position "
                                       "{position}: {problem}",
                                       tournament=broken[0].tournament_id,
                                       position=broken[0].first_bad_position,
                                       problem=broken[0].problem))
    count = target.store.restore(counted(source.store.read_all()))
    kept = {token.token_id for token in target.tokens.all()}
    moved = [(d, t) for d, t in source.tokens.with_digests() if t.token_id not in kept]
    for token_digest, token in moved:
        target.tokens.adopt(token_digest, token)
    hooks = _move_webhooks(source, target)
    _check_identical(source, target, reports)
    return MigrationReport(len(reports), count, len(moved), hooks)


def _move_webhooks(source: Deployment, target: Deployment) -> int:
    kept = {hook.webhook_id for hook in target.webhooks.every()}
    moving = [hook for hook in source.webhooks.every() if hook.webhook_id not in kept]
    for hook in moving:
        target.webhooks.adopt(hook, source.webhooks.every_attempt(hook.webhook_id))
    return len(moving)


def _check_identical(source: Deployment, target: Deployment, reports) -> None:
    for report in reports:
        moved = target.store.verify(report.tournament_id)
        if not moved.ok or (moved.last_position, moved.last_hash) != (report.last_position,
                                                                      report.last_hash):
            if moved.problem:
                raise MigrationRefused(Message("{tournament} differs after the copy: {problem}",
                                               tournament=report.tournament_id,
                                               problem=moved.problem))
            raise MigrationRefused(Message("{tournament} differs after the copy: another head",
                                           tournament=report.tournament_id))
