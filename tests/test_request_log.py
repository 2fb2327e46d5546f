"""Request ids and the JSON log (issue 35): an ``X-Request-ID`` a client sends is taken when
well formed — returned, recorded as the events' ``meta.correlation_id``, written in every log
line of the request — and replaced, never echoed, when it is not; ``--log-format json`` writes
one parseable JSON object a line, one line per request among them; the text format keeps
today's lines, the request's id in brackets. Also through a real ``paiju serve``."""
from __future__ import annotations

import http.client
import io
import json
import logging
import os
import subprocess
import sys
import uuid

import pytest
from clients import admin_client

from events.memory_store import InMemoryEventStore
from events.store import StoreUnavailable
from rules.messages import Message
from service import create_app
from service.request_log import JsonFormatter, RequestContext, TextFormatter
from service.simulator.server_process import free_port, stop, wait_until_ready

SENT = "lb-7f3a/9:req=1;edge@fra+a_b~c.d"


@pytest.fixture
def log_lines():
    """The lines the app logs while the test runs, as ``paiju serve --log-format json``
    writes them (call it to read them, parsed)."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(RequestContext("node-a:8000"))
    handler.setFormatter(JsonFormatter())
    root, requests = logging.getLogger(), logging.getLogger("paiju.request")
    level = requests.level
    root.addHandler(handler)
    requests.setLevel(logging.INFO)
    try:
        yield lambda: [json.loads(line) for line in stream.getvalue().splitlines()]
    finally:
        root.removeHandler(handler)
        requests.setLevel(level)


def tournament(client, tid: str = "spring") -> None:
    response = client.post("/v1/tournaments", json={"tournament_id": tid, "name": "春季升级赛",
                                                    "game": "SJ2", "format": "knockout"})
    assert response.status_code == 201, response.get_json()


def is_uuid7(text: str) -> bool:
    try:
        return uuid.UUID(text).version == 7 and str(uuid.UUID(text)) == text
    except ValueError:
        return False


# --- the request's id --------------------------------------------------------------------------

def test_a_well_formed_request_id_is_returned_and_recorded_with_the_events():
    client = admin_client(create_app(store=InMemoryEventStore()))
    tournament(client)
    response = client.post("/v1/tournaments/spring/events", headers={"X-Request-ID": SENT},
                           json={"type": "RulingRecorded", "stream": "tournament-spring",
                                 "data": {"text": "seats as drawn"}})
    assert response.status_code == 201
    assert response.headers["X-Request-Id"] == SENT
    assert response.get_json()["meta"]["correlation_id"] == SENT
    longest = "r" * 128
    assert client.get("/v1/health", headers={"X-Request-ID": longest}).headers[
        "X-Request-Id"] == longest


def test_without_one_each_request_gets_a_uuid7_of_its_own():
    client = create_app(store=InMemoryEventStore()).test_client()
    first, second = (client.get("/v1/health").headers["X-Request-Id"] for _ in range(2))
    assert is_uuid7(first) and is_uuid7(second) and first != second


@pytest.mark.parametrize("sent", ["r" * 129, "two words", "tab\there", "bell\x07", "",
                                  "quote\"d", "a,b", "<script>", "caf\xe9", "back\\slash"],
                         ids=["too-long", "space", "tab", "control", "empty", "quote", "comma",
                              "angle", "latin-1", "backslash"])
def test_a_malformed_request_id_is_replaced_never_echoed(sent, log_lines):
    client = create_app(store=InMemoryEventStore()).test_client()
    response = client.get("/v1/health", headers={"X-Request-ID": sent})
    given = response.headers["X-Request-Id"]
    assert is_uuid7(given) and given != sent
    [line] = [line for line in log_lines() if line["logger"] == "paiju.request"]
    assert line["request_id"] == given
    assert sent not in json.dumps(line) or sent == ""


# --- the JSON log ------------------------------------------------------------------------------

def test_a_json_line_per_request_with_the_id_the_client_sent(log_lines):
    app = create_app(store=InMemoryEventStore())
    client = admin_client(app)
    tournament(client)
    started = len(log_lines())
    response = client.get("/v1/tournaments/spring/bracket", headers={"X-Request-ID": SENT})
    client.get("/v1/tournaments/spring", headers={"X-Request-ID": "second-1"})
    client.get("/nowhere", headers={"X-Request-ID": "third-1"})
    lines = [line for line in log_lines()[started:] if line["logger"] == "paiju.request"]
    assert [line["request_id"] for line in lines] == [SENT, "second-1", "third-1"]
    first = lines[0]
    assert first["level"] == "INFO" and first["node"] == "node-a:8000"
    assert first["tournament"] == "spring"
    assert first["route"] == "/v1/tournaments/<tid>/bracket"
    assert (first["method"], first["path"]) == ("GET", "/v1/tournaments/spring/bracket")
    assert first["status"] == response.status_code == 200
    assert isinstance(first["duration_ms"], (int, float)) and first["duration_ms"] >= 0
    assert first["time"].endswith("Z") and first["message"].startswith("GET ")
    assert (lines[2]["route"], lines[2]["tournament"], lines[2]["status"]) == (None, None, 404)


class AwayStore(InMemoryEventStore):
    def last_position(self) -> int:
        raise StoreUnavailable(Message("the database is unavailable: {error}", error="gone"))


def test_every_line_a_request_writes_carries_its_id(log_lines):
    app = create_app(store=AwayStore())

    @app.get("/v1/explode")  # a route that fails: the 500's line has the traceback
    def explode():
        raise RuntimeError("boom")

    client = app.test_client()
    assert client.get("/v1/health", headers={"X-Request-ID": "away-1"}).status_code == 503
    assert client.get("/v1/explode", headers={"X-Request-ID": "boom-1"}).status_code == 500
    logging.getLogger("paiju.timer").warning("a line of no request")
    lines = log_lines()
    by_id = {}
    for line in lines:
        by_id.setdefault(line["request_id"], []).append(line)
    assert [line["logger"] for line in by_id["away-1"]] == ["paiju", "paiju.request"]
    assert "store unavailable" in by_id["away-1"][0]["message"]
    assert by_id["away-1"][1]["status"] == 503
    assert [line["logger"] for line in by_id["boom-1"]] == ["paiju", "paiju.request"]
    assert "RuntimeError: boom" in by_id["boom-1"][0]["error"]
    assert by_id["boom-1"][0]["route"] == "/v1/explode"
    assert [line["message"] for line in by_id[None]] == ["a line of no request"]


def test_a_json_line_is_ascii_and_parseable_whatever_the_words():
    record = logging.LogRecord("paiju", logging.WARNING, __file__, 1, "队 %s 𠀀 \"引\"\n换行",
                               ("东",), None)
    RequestContext(None).filter(record)
    line = JsonFormatter().format(record)
    assert line.isascii() and "\n" not in line
    assert json.loads(line)["message"] == "队 东 𠀀 \"引\"\n换行"


def test_text_lines_carry_the_request_id_in_brackets():
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(RequestContext())
    handler.setFormatter(TextFormatter())
    logging.getLogger().addHandler(handler)
    try:
        app = create_app(store=AwayStore())
        app.test_client().get("/v1/health", headers={"X-Request-ID": "text-1"})
        logging.getLogger("paiju.timer").warning("outside")
    finally:
        logging.getLogger().removeHandler(handler)
    [inside, outside] = stream.getvalue().splitlines()
    assert " WARNING paiju [text-1]: store unavailable on GET /v1/health" in inside
    assert outside.endswith(" WARNING paiju.timer: outside")  # today's line, unchanged


# --- a real paiju serve --------------------------------------------------------------------------

def test_paiju_serve_log_format_json_writes_a_line_per_request(tmp_path):
    port = free_port()
    out, err = open(tmp_path / "out.log", "wb"), open(tmp_path / "err.log", "wb")
    env = {**os.environ, "PAIJU_NODE": "node-test"}
    process = subprocess.Popen([sys.executable, "-m", "service.cli", "serve", "--db",
                                str(tmp_path / "served.db"), "--port", str(port),
                                "--synchronous", "OFF", "--log-format", "json"],
                               stdout=out, stderr=err, env=env)
    try:
        wait_until_ready(process, port, 60)
        for sent in (SENT, "x" * 200):
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            conn.request("GET", "/v1/tournaments", headers={"X-Request-ID": sent})
            response = conn.getresponse()
            response.read()
            conn.close()
            assert response.status == 200
            assert (response.getheader("X-Request-Id") == SENT) == (sent == SENT)
    finally:
        stop(process)
        out.close()
        err.close()
    lines = [json.loads(line) for line in (tmp_path / "err.log").read_text().splitlines()]
    requests = [line for line in lines if line["logger"] == "paiju.request"
                and line["path"] == "/v1/tournaments"]
    assert len(requests) == 2
    assert requests[0]["request_id"] == SENT and requests[0]["node"] == "node-test"
    assert requests[0]["route"] == "/v1/tournaments" and requests[0]["status"] == 200
    assert is_uuid7(requests[1]["request_id"])
    assert "x" * 129 not in (tmp_path / "err.log").read_text()
    assert all(line["node"] == "node-test" for line in lines)
