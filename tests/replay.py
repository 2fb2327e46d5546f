"""What every game's simulation test checks of its reads: a read at a past position equals what
was live then, and reads rebuilt from the log alone (a new app: no cache) are byte-identical to
the live ones; and the event played on a temporary server to check them on."""
from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Callable

from checkpoint_checks import assert_checkpoint_folds_equal_full_folds
from clients import admin_client

from service import create_app
from service.simulator.runner import temporary_server


def played_event(simulate: Callable, **options) -> Iterator[tuple]:
    """For a module's fixture: ``simulate(url, token=..., observe=..., **options)`` plays an
    event on a temporary server; yields (outcome, app, database, seen) while the server runs —
    ``seen``: (match id, referee view) before every move."""
    seen = []
    with temporary_server() as server:
        outcome = simulate(server.url, token=server.token,
                           observe=lambda tid, mid, view: seen.append((mid, view)), **options)
        yield outcome, server.app, server.database, seen


def read_bytes(client, paths: list[str]) -> dict[str, bytes]:
    reads = {}
    for path in paths:
        response = client.get(path)
        assert response.status_code == 200, path
        reads[path] = response.data
    return reads


def assert_past_reads_equal_live(client, tid: str, seen: list[tuple[str, dict]], count: int,
                                 seed: int) -> None:
    """``seen``: (match id, referee view) pairs captured live during play."""
    for mid, live in random.Random(seed).sample(seen, count):
        then = client.get(f"/v1/tournaments/{tid}/matches/{mid}?as=referee&at={live['position']}")
        assert then.status_code == 200
        assert then.json == live


def rebuilt_and_live(app, database: str, reads: Callable[[object], dict[str, bytes]]):
    """(rebuilt, live): ``reads(client)`` on a new app over the same database, and on ``app``,
    which folded the log step by step while play went on."""
    live = reads(admin_client(app))
    # from the log alone: not even the checkpoints the live server left beside it
    rebuilt_app = create_app({"DATABASE": database, "CHECKPOINTS": False})
    try:
        return reads(admin_client(rebuilt_app)), live
    finally:
        rebuilt_app.extensions["paiju"].store.close()


def knockout_reads(client, tid: str, matches: list[str], seat: int) -> dict[str, bytes]:
    """Every read of a knockout: bracket, standings, the match list, each match for the referee,
    the public and one seat, and each of its hands."""
    paths = [f"/v1/tournaments/{tid}/bracket", f"/v1/tournaments/{tid}/standings",
             f"/v1/tournaments/{tid}/matches"]
    for mid in matches:
        base = f"/v1/tournaments/{tid}/matches/{mid}"
        paths += [f"{base}?as={v}" for v in ("referee", "public", f"seat:{seat}")]
        hands = client.get(f"{base}?as=referee").json["hands_played"]
        paths += [f"{base}/hands/{n}?as=referee" for n in range(1, hands + 1)]
    return read_bytes(client, paths)


def rebuilt_groups_reads(app, database: str, outcome) -> tuple[dict, dict]:
    """(rebuilt, live), as :func:`rebuilt_and_live`, of every read of a groups-of-four event
    whose tables played two hands or more (``outcome``: its simulation's): groups, standings,
    the match list, each table for the referee, the public and seat 1, and hands 1 and 2 for
    the referee and seat 3."""
    base = f"/v1/tournaments/{outcome.tournament_id}"
    paths = [f"{base}/groups", f"{base}/standings", f"{base}/matches"]
    for mid in (t["match_id"] for s in outcome.groups["stages"] for t in s["tables"]):
        paths += [f"{base}/matches/{mid}?as={v}" for v in ("referee", "public", "seat:1")]
        paths += [f"{base}/matches/{mid}/hands/{n}?as={v}" for n in (1, 2)
                  for v in ("referee", "seat:3")]
    return rebuilt_and_live(app, database, lambda client: read_bytes(client, paths))


def simulate_groups_command(capsys, game: str) -> str:
    """What ``paiju simulate <game>`` prints for a small groups-of-four event (8 players, one
    hand a table, seed 4), checked to end well with stage 1, the final and the podium."""
    from service.cli import main

    assert main(["simulate", game, "--players", "8", "--session-hands", "1", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "stage 1:" in out and "final:" in out and "podium: 1. player-" in out
    return out


class GroupsReplayChecks:
    """The replay checks of a groups-of-four simulation's test module, as the tests of a class
    that sets the numbers (the module's ``played`` fixture: :func:`played_event`): ``PAST``
    states seen in play read again at their positions (drawn with ``PAST_SEED``), and every
    read rebuilt from the log — three event reads and seven a table, of ``TABLES`` tables."""

    PAST: int
    PAST_SEED: int
    TABLES: int

    def test_every_past_state_read_with_at_equals_what_was_live_then(self, played):
        outcome, app, _, seen = played
        assert_past_reads_equal_live(admin_client(app), outcome.tournament_id, seen, self.PAST,
                                     seed=self.PAST_SEED)

    def test_a_fold_from_the_nearest_checkpoint_equals_the_fold_from_version_1(self, played):
        _, _, database, _ = played
        assert assert_checkpoint_folds_equal_full_folds(database, 12, seed=self.PAST_SEED) > 0

    def test_rebuilding_every_projection_from_the_log_gives_the_same_bytes(self, played):
        outcome, app, database, _ = played
        rebuilt, live = rebuilt_groups_reads(app, database, outcome)
        assert rebuilt == live
        assert len(live) == 3 + 7 * self.TABLES
