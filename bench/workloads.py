"""The simulated logs the fold benchmarks read, one SQLite database per game, built on first use
by the game's simulator on a temporary server (the same bots as ``paiju simulate``) and kept in
``var/bench-workloads/`` for the next run.

    sj2      a knockout of 4 pairs, the default match settings (up to 20 hands)
    guandan  a knockout of 4 pairs, on the simulated clock of ``paiju simulate guandan``
    mjo      16 players in groups of four, 2 hands a table, then a final
    mjs      8 players, 6 hands a table, then a final
    sj3      a team event of 4 teams over 2 rounds, on the simulated clock of sj3-swiss
"""
from __future__ import annotations

import sqlite3
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

from service.simulator import mahjong, sichuan, swiss  # noqa: E402
from service.simulator.guandan_bots import SECONDS_PER_MOVE  # noqa: E402
from service.simulator.runner import SimulatedClock, simulate, temporary_server  # noqa: E402

GAMES = ("sj2", "sj3", "guandan", "mjo", "mjs")
DEFAULT_DIR = REPO_ROOT / "var" / "bench-workloads"
SEED = 3


def _play(game: str, url: str, token: str) -> None:
    knockout = {"thirdPlace": "playoff"}
    if game == "sj2":
        simulate(url, 4, SEED, {}, knockout, game="sj2", token=token)
    elif game == "guandan":
        simulate(url, 4, SEED, {}, knockout, game="guandan", token=token,
                 bot_options={"seconds_per_move": SECONDS_PER_MOVE})
    elif game == "mjo":
        mahjong.simulate(url, 16, SEED, match_settings={"sessionHands": 2}, token=token)
    elif game == "mjs":
        sichuan.simulate(url, 8, SEED, {"sessionHands": 6}, token=token)
    else:
        swiss.simulate(url, 4, 2, SEED, token=token)


def _clock(game: str) -> SimulatedClock | None:
    """The simulated clocks the CLI gives these games (their time limits are part of play)."""
    return {"guandan": SimulatedClock(SECONDS_PER_MOVE),
            "sj3": SimulatedClock(swiss.SECONDS_PER_MOVE)}.get(game)


def workload(game: str, folder: Path = DEFAULT_DIR) -> Path:
    """The database of ``game``'s workload in ``folder``, simulated first if it is not there."""
    path = folder / f"{game}.db"
    if path.exists():
        return path
    folder.mkdir(parents=True, exist_ok=True)
    print(f"simulating the {game} workload into {path} …", file=sys.stderr, flush=True)
    with temporary_server(clock=_clock(game)) as server:
        _play(game, server.url, server.token)
        source, copy = sqlite3.connect(server.database), sqlite3.connect(path)
        try:
            source.backup(copy)  # the log as it stands, WAL included
        finally:
            copy.close()
            source.close()
    return path
