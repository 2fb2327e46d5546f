"""Webhooks from a real ``paiju serve`` (issue 18, item 4): the receiver is down while events are
stored and the service is killed mid-retry; restarted on the same database, it resumes from the
stored cursor, and the receiver, up again, gets every event once the service reaches it, in the
order of the log, each signed with the webhook's secret."""
from __future__ import annotations

import hashlib
import hmac
import http.client
import json
import os
import socket
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

PAIJU = Path(sys.executable).with_name("paiju")
TID = "hooks-serve"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def call(port, method, path, body=None, token=None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        headers = {"Content-Type": "application/json"} if body is not None else {}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        conn.request(method, path, body=json.dumps(body) if body is not None else None,
                     headers=headers)
        response = conn.getresponse()
        return response.status, json.loads(response.read() or b"null")
    finally:
        conn.close()


def start_server(db: Path, port: int):
    process = subprocess.Popen([str(PAIJU), "serve", "--host", "127.0.0.1", "--port", str(port),
                                "--db", str(db), "--webhooks-allow-private"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               env={**os.environ, "PYTHONUNBUFFERED": "1"})
    lines = []
    threading.Thread(target=lambda: lines.extend(process.stdout), daemon=True).start()
    wait_for(lambda: _healthy(port), f"paiju serve to start: {lines}")
    return process, lines


def _healthy(port) -> bool:
    try:
        return call(port, "GET", "/v1/health")[0] == 200
    except OSError:
        return False


def wait_for(condition, what: str, seconds: float = 60):
    """Wait for what another process does (not a timing assertion: the limit only ends a hung
    test)."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"gave up waiting for {what}")
        time.sleep(0.1)


class Receiver:
    def __init__(self, port: int):
        self.requests: list[tuple[dict, bytes]] = []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                receiver.requests.append((dict(self.headers), body))
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def test_a_killed_service_restarted_resumes_every_delivery_in_order(tmp_path):
    assert PAIJU.exists(), f"{PAIJU} is missing: install the package (make test does)"
    db, port, hook_port = tmp_path / "served.db", free_port(), free_port()
    token = subprocess.run([sys.executable, "-c", "import sys; from service.deployment import "
                            "admin_token; print(admin_token(sys.argv[1], 'test'))", str(db)],
                           capture_output=True, text=True, check=True).stdout.strip()
    process, _ = start_server(db, port)
    receiver = None
    try:
        assert call(port, "POST", "/v1/tournaments", {"tournament_id": TID, "name": "春季升级赛",
                                                      "game": "SJ2", "format": "swiss"},
                    token)[0] == 201
        status, hook = call(port, "POST", f"/v1/tournaments/{TID}/webhooks",
                            {"url": f"http://127.0.0.1:{hook_port}/hook",
                             "types": ["TeamRegistered"]}, token)
        assert status == 201, hook

        def register(team_id):
            assert call(port, "POST", f"/v1/tournaments/{TID}/events", {
                "type": "TeamRegistered", "stream": f"tournament-{TID}",
                "data": {"team_id": team_id, "name": f"队 {team_id}",
                         "players": [f"甲{team_id}", f"乙{team_id}"]}}, token)[0] == 201

        def attempts():
            return call(port, "GET", f"/v1/tournaments/{TID}/webhooks/{hook['id']}/deliveries",
                        token=token)[1]["deliveries"]

        register("a")
        register("b")
        wait_for(lambda: len(attempts()) >= 2, "two failed attempts with the receiver down")
        assert {(d["attempt"] > 0, d["delivered"]) for d in attempts()} == {(True, False)}
        process.kill()  # a crash in the middle of the retries
        process.wait()

        receiver = Receiver(hook_port)
        process, _ = start_server(db, port)
        register("c")
        wait_for(lambda: len(receiver.requests) >= 3, "the three events at the receiver")
        register("d")
        wait_for(lambda: len(receiver.requests) >= 4, "the fourth event")

        status, page = call(port, "GET", f"/v1/tournaments/{TID}/events?limit=1000", token=token)
        wanted = [(e["position"], e["id"]) for e in page["events"]
                  if e["type"] == "TeamRegistered"]
        got = [json.loads(body) for _, body in receiver.requests]
        assert [(e["position"], e["id"]) for e in got] == wanted  # each once, in order
        for headers, body in receiver.requests:
            t, v1 = (part.split("=", 1)[1] for part in headers["Paiju-Signature"].split(","))
            assert v1 == hmac.new(hook["secret"].encode(), f"{t}.".encode() + body,
                                  hashlib.sha256).hexdigest()
            assert headers["Paiju-Event-Id"] == json.loads(body)["id"]
        status, stored = call(port, "GET", f"/v1/tournaments/{TID}/webhooks/{hook['id']}",
                              token=token)
        assert (stored["state"], stored["cursor"]) == ("active", wanted[-1][0])
    finally:
        if process.poll() is None:
            process.terminate()
            process.wait(timeout=30)
        if receiver is not None:
            receiver.close()
