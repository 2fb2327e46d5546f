"""A throw-away ``paiju serve`` for a simulation: a process of its own on a temporary database,
so that the server and the bots each have a core of the machine (one Python process runs one
thread at a time), and the tables of a stage can play at the same time as at a real event.

The in-process :func:`temporary_server.temporary_server` stays for what must share the app — a simulated
clock (Guandan's time limits, the team event's alerts) and the tests that read its store.
"""
from __future__ import annotations

import http.client
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from rules.messages import Message

READY_SECONDS = 60  # a server not answering /v1/health by then has failed to start


@contextmanager
def server_process() -> Iterator[tuple[str, str]]:
    """``(url, admin token)`` of a ``paiju serve`` on a temporary database and a free local
    port, its timer running as ``make run`` runs it (the bots leave the timer's events to it),
    stopped at the end like an operator stops it (SIGTERM: running requests finish, the timer
    stops)."""
    with tempfile.TemporaryDirectory(prefix="paiju-simulate-") as folder:
        database = str(Path(folder) / "paiju.db")
        token = _admin_token(database)
        port = free_port()
        command = [sys.executable, "-c", "from service.cli import main; raise SystemExit(main())",
                   "serve", "--db", database, "--port", str(port),
                   "--synchronous", "OFF", "--threads", "8"]
        log = open(Path(folder) / "serve.log", "wb")
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        try:
            try:
                wait_until_ready(process, port, READY_SECONDS)
            except RuntimeError as error:
                tail = (Path(folder) / "serve.log").read_text(errors="replace")[-2000:]
                why = error.args[0] if len(error.args) == 1 else str(error)
                raise RuntimeError(Message("the simulation's server did not start: {error}\n"
                                           "{tail}", error=why, tail=tail)) from None
            yield f"http://127.0.0.1:{port}", token
        finally:
            stop(process)
            log.close()


def _admin_token(database: str) -> str:
    from service.deployment import admin_token

    return admin_token(database, "paiju simulate")


def stop(process: subprocess.Popen, seconds: float = 30) -> None:
    """SIGTERM, as an operator stops a server (what it acknowledged is written, its streams
    told to reconnect); SIGKILL if it has not stopped within ``seconds``."""
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def free_port() -> int:
    """A local TCP port free now (bench/ starts its servers on one too)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until_ready(process: subprocess.Popen, port: int, seconds: float) -> None:
    """Return once the server ``process`` started on ``port`` answers ``/v1/health`` with 200;
    RuntimeError if it exits first or does not answer within ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(Message("the server exited with code {code}",
                                       code=process.returncode))
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
        try:
            conn.request("GET", "/v1/health")
            response = conn.getresponse()
            response.read()
            if response.status == 200:
                return
        except OSError:
            pass  # not listening yet
        finally:
            conn.close()
        time.sleep(0.1)
    raise RuntimeError(Message("no 200 from /v1/health within {seconds:.0f} s",
                               seconds=seconds))
