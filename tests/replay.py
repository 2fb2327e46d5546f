"""What every game's simulation test checks of its reads: a read at a past position equals what
was live then, and reads rebuilt from the log alone (a new app: no cache) are byte-identical to
the live ones."""
from __future__ import annotations

import random
from typing import Callable

from clients import admin_client

from service import create_app


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
    rebuilt_app = create_app({"DATABASE": database})
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
