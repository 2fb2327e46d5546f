"""Real ``paiju serve`` nodes on one PostgreSQL database, for tests/test_postgres_nodes.py: each
node a process of its own (timer on, as ``make run`` starts it), clients over real HTTP with a
keep-alive connection each, and every process killed at the end whatever happens.

    token = admin_token(url)
    with cluster(url, 3, tmp_path) as nodes:      # started, answering /v1/health
        client = Client(nodes[0].port, token)
        status, body = client.post("/v1/tournaments", {...})
        nodes[1].kill()                           # SIGKILL: no clean stop, no lease released
"""
from __future__ import annotations

import contextlib
import http.client
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from service.deployment import admin_token as deployment_admin_token, node_file
from service.simulator.server_process import free_port, wait_until_ready

ROOT = Path(__file__).resolve().parent.parent  # the nodes' working directory (var/ beneath)
READY_SECONDS = 30


def admin_token(url: str) -> str:
    """An admin token made in the database before any node starts (so none prints its own)."""
    return deployment_admin_token(url, "test_postgres_nodes")


def query(url: str, sql: str, params: tuple = ()) -> list[tuple]:
    """One read of the database, on a connection of its own."""
    import psycopg

    with psycopg.connect(url, autocommit=True, connect_timeout=5) as conn:
        return conn.execute(sql, params).fetchall()


def lease(url: str) -> tuple[str, str] | None:
    """(holder, expires_at) of the timer's lease row, None before any timer took it."""
    rows = query(url, "SELECT holder, expires_at FROM timer_lease WHERE name = 'timer'")
    return rows[0] if rows else None


def poll(condition: Callable[[], Any], seconds: float, what: str, every: float = 0.1) -> Any:
    """``condition()``'s first truthy value, tried until ``seconds`` have passed;
    AssertionError naming ``what`` if it never is."""
    deadline = time.monotonic() + seconds
    while True:
        found = condition()
        if found:
            return found
        if time.monotonic() >= deadline:
            raise AssertionError(f"not within {seconds} s: {what}")
        time.sleep(every)


class Node:
    """One ``paiju serve --db URL --port P`` process, its output in a log file."""

    def __init__(self, url: str, name: str, folder: Path, options: tuple[str, ...] = ()):
        self.url, self.name = url, name
        self.port = free_port()
        self.log_path = folder / f"{name}.log"
        self._log = open(self.log_path, "wb")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "service.cli", "serve", "--db", url, "--port", str(self.port),
             *options], cwd=ROOT, stdout=self._log, stderr=subprocess.STDOUT)
        self.killed_at: float | None = None  # time.time() of the SIGKILL

    @property
    def pid(self) -> int:
        return self.process.pid

    def wait_ready(self, seconds: float = READY_SECONDS) -> None:
        try:
            wait_until_ready(self.process, self.port, seconds)
        except RuntimeError as error:
            raise RuntimeError(f"node {self.name} did not start: {error}\n{self.log_tail()}") \
                from None

    def alive(self) -> bool:
        return self.process.poll() is None

    def kill(self) -> None:
        """SIGKILL, as a crash or ``kill -9``: no request finishes, nothing is released."""
        if self.alive():
            os.kill(self.pid, signal.SIGKILL)
            self.killed_at = time.time()
        self.process.wait(timeout=10)

    def log_tail(self, chars: int = 3000) -> str:
        self._log.flush()
        return self.log_path.read_text(errors="replace")[-chars:]

    def close(self) -> None:
        try:
            if self.alive():
                self.process.kill()
            self.process.wait(timeout=10)
        finally:
            self._log.close()


@contextlib.contextmanager
def cluster(url: str, count: int, folder: Path, names: str = "ABCDEFGH",
            options: tuple[str, ...] = ()) -> Iterator[list[Node]]:
    """``count`` nodes started together (each with ``options``) and answering; all killed at
    the end."""
    nodes: list[Node] = []
    with running(nodes, url):
        for name in names[:count]:
            nodes.append(Node(url, name, folder, options))
        for node in nodes:
            node.wait_ready()
        yield nodes


@contextlib.contextmanager
def sqlite_node(folder: Path, name: str) -> Iterator[tuple[list[Node], Client, str]]:
    """One node on a SQLite file of ``folder``, answering: (the nodes — a test may stop it and
    add another on the same file —, an admin client of it, the admin token)."""
    db = str(folder / "paiju.db")
    token = admin_token(db)
    nodes: list[Node] = []
    with running(nodes, db):
        nodes.append(Node(db, name, folder))
        nodes[0].wait_ready()
        yield nodes, Client(nodes[0].port, token), token


@contextlib.contextmanager
def running(nodes: list[Node], url: str) -> Iterator[list[Node]]:
    """Whatever nodes ``nodes`` holds by the end are killed then (a test may add to it), and
    the checkpoint files they left under var/ for this database are removed."""
    try:
        yield nodes
    finally:
        for node in nodes:
            node.close()
        checkpoints = ROOT / node_file(url, "checkpoints")
        for suffix in ("", "-wal", "-shm", "-journal"):
            with contextlib.suppress(FileNotFoundError):
                Path(f"{checkpoints}{suffix}").unlink()


class Client:
    """One client of one node: a keep-alive HTTP connection with the admin token. Not thread
    safe: a thread has its own. Connection errors are the caller's to count."""

    def __init__(self, port: int, token: str, timeout: float = 30):
        self.port, self.token, self.timeout = port, token, timeout
        self.conn: http.client.HTTPConnection | None = None

    def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        if self.conn is None:
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
        headers = {"Authorization": f"Bearer {self.token}"}
        payload = None
        if body is not None:
            payload = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        try:
            self.conn.request(method, path, body=payload, headers=headers)
            response = self.conn.getresponse()
            data = response.read()
        except BaseException:
            self.close()  # the next request opens a new connection
            raise
        if response.getheader("Connection", "").lower() == "close":
            self.close()
        text = data.decode() if data else ""
        return response.status, (json.loads(text) if text else None)

    def get(self, path: str) -> tuple[int, Any]:
        return self.request("GET", path)

    def post(self, path: str, body: Any) -> tuple[int, Any]:
        return self.request("POST", path, body)

    def ok(self, method: str, path: str, body: Any = None) -> Any:
        status, answer = self.request(method, path, body)
        assert status in (200, 201), (method, path, status, answer)
        return answer

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


CONNECTION_ERRORS = (OSError, http.client.HTTPException)  # refused, reset, cut mid-answer
