"""A groups-of-four event (tournaments.md T-7, T-8) played through the HTTP API, as both mahjong
simulations play it (MJO: ``mahjong.py``, MJS: ``sichuan.py``): players registered, every
stage's tables drawn by lots on the server and played, the ties the server waits on broken,
until the standings are final. How a tie is broken is the game's: lots in MJO, dice in MJS.
"""
from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from rules.groups.event import TABLE_SIZE
from rules.groups.stages import stage_sizes
from rules.messages import Message

from .api import Api
from .reports import QUIET, EventOutcome, Progress
from .tables import play_tables

Observer = Callable[[str, str, dict], None]
# (api, tournament, the stage, the groups read, rng) -> the rounds of lots or dice posted
StageTie = Callable[[Api, str, dict, dict, random.Random], int]
# (api, tournament, the standings read, rng) -> the rounds of lots or dice posted
PrizeTie = Callable[[Api, str, dict, random.Random], int]
# (api, the table's match id, its bots' generator) -> the hands it played
TablePlay = Callable[[Api, str, random.Random], int]


@dataclass
class Outcome(EventOutcome):
    groups: dict = field(default_factory=dict)
    lots: int = 0                  # rounds of lots (MJO) or of tie dice (MJS)

    @property
    def podium(self) -> list[dict]:
        return [r for r in self.standings.get("ranking", []) if r["place"] <= 3]


def create_event(api: Api, game: str, seed: int, players: int, settings: dict) -> str:
    """A groups tournament of ``game`` with ``players`` players registered; its id."""
    created = api.call("POST", "/v1/tournaments", {
        "name": f"paiju simulate {game.lower()} (seed {seed})", "game": game, "format": "groups",
        "settings": settings, "simulated": True})
    tid = created["id"]
    api.call("POST", f"/v1/tournaments/{tid}/events", {"events": [
        {"type": "TeamRegistered", "stream": f"tournament-{tid}",
         "data": {"team_id": f"player-{n}", "name": f"Player {n}", "players": [f"player {n}"]}}
        for n in range(1, players + 1)]})
    return tid


def planned_tables(players: int, advance: int | None) -> int:
    """The tables of every stage down to the final (T-8.1, T-7.2)."""
    return sum(size // TABLE_SIZE for size in stage_sizes(players, advance))


def play_event(api: Api, tid: str, rng: random.Random, play_table: TablePlay,
               stage_tie: StageTie, prize_tie: PrizeTie, seed: int = 1,
               tables_at_once: int = 1, progress: Progress = QUIET) -> Outcome:
    """Plays the event stage by stage — ``play_table(api, match id, rng)`` plays a table and
    returns its hands; ``stage_tie`` breaks a tie the stage awaits, ``prize_tie`` one at a
    prize place — and returns the final standings and groups. The tables of a stage play at
    the same time, as at a real event, up to ``tables_at_once`` of them (each on a connection of
    its own); each table's bots draw from a generator of their own, seeded by ``seed`` and the
    table, so the outcome is the same however many play at once. ``progress`` is told of each
    table as it ends."""
    outcome = Outcome(tid)

    def play(table_api: Api, match_id: str, table_rng: random.Random) -> int:
        hands = play_table(table_api, match_id, table_rng)
        progress.played(hands)
        return hands
    base = f"/v1/tournaments/{tid}"
    while True:
        groups = api.call("GET", f"{base}/groups")
        stage = groups["stages"][-1] if groups["stages"] else None
        if stage is not None and not stage["complete"]:
            tables = [t["match_id"] for t in stage["tables"] if not t["completed"]]
            outcome.hands += sum(play_tables(api, tables, play, seed, tables_at_once))
            outcome.tables += len(tables)
            continue
        if stage is not None and stage["awaiting_lots"]:
            outcome.lots += stage_tie(api, tid, stage, groups, rng)
            continue
        if groups["next_stage"] is None:
            break
        api.call("POST", f"{base}/draws", {})
    while not (standings := api.call("GET", f"{base}/standings"))["final"]:
        outcome.lots += prize_tie(api, tid, standings, rng)
    outcome.standings, outcome.groups = standings, api.call("GET", f"{base}/groups")
    return outcome


def table_line(table: dict, extra: str = "", say=str) -> str:
    """A report's line of a table: its hands and each player's score (MJO coins, MJS points)
    in the order of the places, then ``extra`` (said already); ``say``: the reader's words."""
    scores = ", ".join(f"{s['team']} {s['coins']}" for s in
                       sorted(table["seats"], key=lambda s: s["place"]))
    return "  " + say(Message("{match_id} ({hands} hands): {scores}",
                              match_id=table["match_id"], hands=table["hands_played"],
                              scores=scores)) + extra
