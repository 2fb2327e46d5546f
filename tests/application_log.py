"""A deployment's application (service/application) on an in-memory log, without Flask: the
use cases called as the routes, the CLI and the timer call them, on a clock the test moves and
lots drawn by a seeded random source."""
from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone

from events import default_catalogue
from events.envelope import NewEvent, utc_timestamp
from events.memory_store import InMemoryEventStore
from service.application import Tournaments

CATALOGUE = default_catalogue()


class Clock:
    """The log's clock: each event recorded a millisecond after the one before; ``advance``
    lets a time limit pass."""

    def __init__(self):
        self.now = datetime(2006, 5, 27, 9, 0, tzinfo=timezone.utc)

    def __call__(self) -> str:
        self.now += timedelta(milliseconds=1)
        return utc_timestamp(self.now)

    def advance(self, minutes: float) -> None:
        self.now += timedelta(minutes=minutes)


def application(seed: int = 7) -> Tournaments:
    """The application on a new log; its store's clock (``app.store.clock``) is a
    :class:`Clock`, and the application reads the same present."""
    clock = Clock()
    return Tournaments(InMemoryEventStore(clock=clock), CATALOGUE, clock=lambda: clock.now,
                       rng=random.Random(seed))


def event(type_: str, stream: str, expected_version: int | str | None = None,
          **data) -> NewEvent:
    return NewEvent(type=type_, stream=stream, data=CATALOGUE.get(type_).load(data),
                    expected_version=expected_version)


def tournament(app: Tournaments, tid: str, game: str, format_: str, teams: dict[str, list],
               **settings) -> None:
    """A tournament with ``teams`` (team id → players) registered, in one batch."""
    app.create_tournament({"tournament_id": tid, "name": f"{tid} 杯", "game": game,
                           "format": format_, "settings": settings})
    extra = {"leader": "领队"} if format_ == "swiss-teams" else {}
    app.post_events(tid, [event("TeamRegistered", f"tournament-{tid}", team_id=team,
                                name=f"{team}队", players=players, **extra)
                          for team, players in teams.items()])


def pairs(*names: str) -> dict[str, list]:
    """Teams of two (a Shengji knockout's)."""
    return {n: [f"{n}甲", f"{n}乙"] for n in names}


def fours(*names: str) -> dict[str, list]:
    """Teams of two pairs (a team event's, T-6.2)."""
    return {n: [f"{n}甲", f"{n}乙", f"{n}丙", f"{n}丁"] for n in names}


def singles(count: int) -> dict[str, list]:
    """Players of a groups mahjong tournament, one a team."""
    return {f"p{k}": [f"Player {k}"] for k in range(1, count + 1)}


def log_of(app: Tournaments, tid: str) -> list[tuple[str, str]]:
    """(type, stream) of every event of the tournament, in order."""
    return [(r.type, r.stream) for r in app.store.read_tournament(tid)]
