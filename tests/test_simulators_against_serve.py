"""Every ``paiju simulate`` against a real ``paiju serve`` whose timer runs, as ``make run`` starts
it (issue 19): the bots never post what the server's timer owns — SJ2's declaration windows,
SJ3's dealer's pause and alert, Guandan's time limits — and wait for what the rules make them
wait for. Each event is small by size (two or four teams, one round, one hand a table, a
one-minute SJ3 alert and Guandan limit), ends with its champion or final standings, and leaves a
log that verifies. (And, without a server, what the runner holds back and for what.)

The server is a process of its own on a temporary database (the timer's clock is real: the SJ3
tables wait out the 5-second pause of every hand, SJ3-3.6).
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from service.cli import main
from service.simulator.server_process import free_port, stop, wait_until_ready

READY_SECONDS = 60


@pytest.fixture(scope="module")
def serve(tmp_path_factory):
    """``(url, admin token, database)`` of ``paiju serve`` with its timer on, for the module."""
    folder = tmp_path_factory.mktemp("serve")
    database, port = str(folder / "paiju.db"), free_port()
    log_path = folder / "serve.log"
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "service.cli", "serve", "--db", database, "--port", str(port)],
            stdout=log, stderr=subprocess.STDOUT, env={**os.environ, "PYTHONUNBUFFERED": "1"})
        try:
            try:
                wait_until_ready(process, port, READY_SECONDS)
            except RuntimeError as error:
                pytest.fail(f"paiju serve did not start: {error}\n{_tail(log_path)}")
            yield f"http://127.0.0.1:{port}", _first_admin_token(log_path), database, log_path
        finally:
            stop(process)


def _first_admin_token(log_path: Path) -> str:
    """A new deployment's first start prints an admin token, once, before it serves."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        found = re.search(r"Authorization: Bearer (\S+)", log_path.read_text(errors="replace"))
        if found:
            return found.group(1)
        time.sleep(0.05)
    pytest.fail(f"paiju serve printed no admin token:\n{_tail(log_path)}")


def _tail(log_path: Path) -> str:
    return log_path.read_text(errors="replace")[-3000:]


def simulated(serve, capsys, *argv: str) -> tuple[str, Counter]:
    """What ``paiju simulate … --url`` printed (it must exit 0) and its log's event counts;
    then the whole log verifies (``paiju verify``) and the server is still up."""
    url, token, database, log_path = serve
    code = main(["simulate", *argv, "--url", url, "--token", token])
    out, err = capsys.readouterr()
    assert code == 0, f"{err}\n{out}\n{_tail(log_path)}"
    assert main(["verify", "--db", database]) == 0, capsys.readouterr()
    capsys.readouterr()
    assert "timer tick failed" not in log_path.read_text(errors="replace")
    return out, _events(out)


def _events(out: str) -> Counter:
    """The report's last line, ``events: A 3, B 5``, as counts."""
    line = next(line for line in out.splitlines() if line.startswith("events: "))
    return Counter({name: int(n) for name, n in
                    (item.rsplit(" ", 1) for item in line[len("events: "):].split(", "))})


@pytest.mark.parametrize("teams, seed", [(2, 1), (2, 2), (4, 3)])
def test_sj2_the_timer_closes_every_declaration_window(serve, capsys, teams, seed):
    """The bots leave DeclarationWindowClosed to the timer (declarationWindowSeconds 0: due at
    DealCompleted) and wait for it — before the fix the bots' own came second: 422 SJ2-16."""
    out, events = simulated(serve, capsys, "sj2", "--teams", str(teams), "--max-hands", "2",
                            "--seed", str(seed))
    assert re.search(r"^champion: team-\d+$", out, re.MULTILINE)
    assert re.search(r"^standings: 1\. team-\d+, 2\. team-\d+", out, re.MULTILINE)
    assert events["MatchStarted"] == (1 if teams == 2 else 4)
    assert events["DeclarationWindowClosed"] == events["DealCompleted"] == events["HandDealt"]


def test_guandan_is_decided_within_its_time_limits(serve, capsys):
    """One match, its limits one real minute each (GD-11.2): decided by play through A, or by
    the levels at the timer's TimeLimitReached, which the bots wait for instead of posting."""
    out, events = simulated(serve, capsys, "guandan", "--teams", "2", "--match-minutes", "1",
                            "--overtime-minutes", "1")
    assert re.search(r"^champion: team-[12]$", out, re.MULTILINE)
    assert "podium:" in out and "$900" in out and "$600" in out
    decided = re.search(r"^matches decided: (\w+) 1$", out, re.MULTILINE)
    assert decided and decided.group(1) in {"game", "time", "overtime", "extraHand"}
    assert events["TimeLimitReached"] <= 2 and events["GDHandDealt"] >= 1


@pytest.mark.parametrize("game", ["mjo", "mjs"])
def test_mahjong_two_tables_then_a_final(serve, capsys, game):
    """Eight players: two tables at once, then the final, one hand a table; every claim window
    is answered by all seats, so the timer's ClaimWindowClosed is never the bots'."""
    out, events = simulated(serve, capsys, game, "--players", "8", "--session-hands", "1",
                            "--seed", "4")
    assert "stage 1:" in out and "final:" in out
    assert re.search(r"^podium: 1\. player-\d+ .*2\. player-\d+ .*3\. player-\d+", out,
                     re.MULTILINE)
    assert events["MatchStarted"] == 3
    assert not events["ClaimWindowClosed"] and not events["TimeLimitExceeded"]


def test_sj3_swiss_the_timer_ends_every_dealers_pause(serve, capsys):
    """Two teams, one round, the alert at minute 1: each hand's kitty is taken only after the
    timer's DeclarationWindowClosed ends the 5-second pause (before the fix: 422 SJ3-3.6), and
    the timer calls each table's alert; the round ends with the hand in play."""
    out, events = simulated(serve, capsys, "sj3-swiss", "--teams", "2", "--rounds", "1",
                            "--alert-at-minute", "1")
    assert "final standings" in out and "final: True" in out
    assert re.search(r"^\s+1 team-[12] ", out, re.MULTILINE)
    assert re.search(r"^\s+2 team-[12] ", out, re.MULTILINE)
    assert events["MatchStarted"] == 2 and events["TimeLimitReached"] == 2
    assert events["DeclarationWindowClosed"] == events["DrawingEnded"] == events["KittyTaken"]
    assert events["HandDealt"] == events["KittyBuried"] >= 2
    assert not events["SJ3TimeLimitExceeded"] and not events["LatenessLimitReached"]


def test_what_a_table_holds_back_and_for_what():
    """runner.held_back, without a server: the timer's events and SJ3's kitty in the pause wait
    for a server's timer; without one the bots post the timer's events and take the kitty once
    the server's present has passed the pause."""
    from service.simulator.runner import held_back

    declaring = {"current_hand": {"phase": "declaring"}}
    close = ("DeclarationWindowClosed", {"hand": 1})
    kitty = ("KittyTaken", {"hand": 1})
    assert "timer to post DeclarationWindowClosed" in held_back(declaring, close, True)
    assert "ClaimWindowClosed" in held_back({}, [("ClaimPassed", {}), ("ClaimWindowClosed", {})],
                                            True)
    assert "pause" in held_back(declaring, kitty, True)
    assert held_back({"current_hand": {"phase": "kitty"}}, kitty, True) is None
    assert held_back(declaring, ("TrumpDeclared", {}), True) is None
    assert held_back(declaring, close, False) is None

    def clock(now: str):
        return lambda: {"now": now, "clocks": [{"event_type": "DeclarationWindowClosed",
                                                "deadline": "2019-06-08T10:00:05.000000Z"}]}
    assert "pause" in held_back(declaring, kitty, False, clock("2019-06-08T10:00:04.999000Z"))
    assert held_back(declaring, kitty, False, clock("2019-06-08T10:00:05.000000Z")) is None
