"""The real thing: `paiju serve` in its own process, on a free port, over real HTTP."""
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

# The console script that `pip install` (and so `make run`) puts beside the interpreter.
PAIJU = Path(sys.executable).with_name("paiju")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def server(tmp_path):
    port = free_port()
    db = tmp_path / "served.db"
    assert PAIJU.exists(), f"{PAIJU} is missing: install the package (make test does)"
    subprocess.run([str(PAIJU), "keys", "init", "--db", str(db)], check=True, timeout=60)
    process = subprocess.Popen([str(PAIJU), "serve", "--host", "127.0.0.1", "--port", str(port),
                                "--db", str(db)],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               env={**os.environ, "PYTHONUNBUFFERED": "1"})
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            if request(port, "GET", "/v1/health")[0] == 200:
                break
        except OSError:
            time.sleep(0.1)
    else:
        process.kill()
        pytest.fail("server did not start: " + process.stdout.read())
    yield port, db, process, first_admin_token(process)
    if process.poll() is None:
        process.kill()
        process.wait()


def first_admin_token(process) -> str:
    """A new deployment's first start makes an admin token and prints it, once."""
    for line in process.stdout:
        if "Authorization: Bearer " in line:
            return line.split("Bearer ", 1)[1].strip()
        assert "serving on" not in line, "no admin token was printed before serving"
    raise AssertionError("the server printed no admin token")


def request(port, method, path, body=None, raw=None, headers=None, token=None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        payload = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        hdrs = {"Content-Type": "application/json"} if payload is not None else {}
        hdrs |= {"Authorization": f"Bearer {token}"} if token else {}
        conn.request(method, path, body=payload, headers={**hdrs, **(headers or {})})
        response = conn.getresponse()
        data = response.read()
        return response.status, response.getheader("Content-Type"), data
    finally:
        conn.close()


def test_paiju_serve_drives_over_real_http(server):
    port, db, process, token = server
    status, _, body = request(port, "POST", "/v1/tournaments",
                              {"tournament_id": "jnu-2006", "name": "暨南大学校庆杯", "game": "SJ3", "format": "swiss"})
    assert status == 401  # nothing is written without a token
    status, _, body = request(port, "POST", "/v1/tournaments",
                              {"tournament_id": "jnu-2006", "name": "暨南大学校庆杯", "game": "SJ3", "format": "swiss"},
                              token=token)
    assert status == 201 and json.loads(body)["name"] == "暨南大学校庆杯"
    status, _, body = request(port, "POST", "/v1/tournaments/jnu-2006/events", {
        "type": "TeamRegistered", "stream": "tournament-jnu-2006",
        "data": {"team_id": "hist", "name": "历史系", "players": ["甲", "乙", "丙", "丁"]}},
        token=token)
    assert status == 201 and json.loads(body)["position"] == 2
    status, _, body = request(port, "GET", "/v1/tournaments/jnu-2006/events", token=token)
    assert [e["type"] for e in json.loads(body)["events"]] == ["TournamentCreated", "TeamRegistered"]
    status, _, body = request(port, "GET", "/v1/tournaments/jnu-2006/verify", token=token)
    assert json.loads(body)["ok"] is True
    status, ctype, body = request(port, "GET", "/v1/tournaments/jnu-2006/export?format=jsonl",
                                  token=token)
    assert ctype.startswith("application/x-ndjson") and len(body.splitlines()) == 3  # + manifest
    status, ctype, body = request(port, "POST", "/v1/tournaments/jnu-2006/events", raw=b"{oops",
                                  token=token)
    assert status == 400 and ctype == "application/problem+json"
    status, ctype, body = request(port, "POST", "/v1/tournaments/jnu-2006/events",
                                  raw=b"x" * (1024 * 1024 + 1), token=token)
    assert status == 413 and json.loads(body)["type"] == "urn:paiju:problem:payload-too-large"
    assert db.exists()


def test_sigterm_stops_the_server_cleanly_and_the_log_survives(server, tmp_path):
    port, db, process, token = server
    request(port, "POST", "/v1/tournaments", {"tournament_id": "t", "name": "t", "game": "GD",
                                              "format": "knockout"}, token=token)
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=15) == 0
    result = subprocess.run([str(PAIJU), "verify", "--db", str(db)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and "t: ok, 1 events" in result.stdout
