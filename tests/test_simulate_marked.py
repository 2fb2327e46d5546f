"""Simulated tournaments are marked (issue 19, T-1.7): ``paiju simulate --url`` creates its
tournament with ``simulated: true``, which the tournament read and the list show and
``?simulated=false`` leaves out; a run that fails archives what it left half-built, or — the
server gone — prints the request that will; and its progress bar counts the matches on standard
error while standard output keeps the report. Against a real server in this process
(runner.temporary_server, its timer driven by the requests), over HTTP."""
from __future__ import annotations

import io
import json
import re
import shlex
import sys
import threading

import pytest
from werkzeug.serving import make_server

from service import create_app
from service.cli import main
from service.simulator import runner
from service.simulator.runner import Api, temporary_server


@pytest.fixture(autouse=True)
def english(monkeypatch):
    """The CLI's words are asserted in English: LC_ALL=C.UTF-8 says English
    (service.i18n.cli_language), whatever the machine's locale; subprocesses inherit it."""
    monkeypatch.setenv("LC_ALL", "C.UTF-8")


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def server():
    with temporary_server() as served:
        yield served


def simulate(served, capsys, stderr=None, monkeypatch=None) -> tuple[int, str, str]:
    """``paiju simulate sj2`` of two teams, one hand, against ``served``."""
    argv = ["simulate", "sj2", "--teams", "2", "--max-hands", "1", "--url", served.url,
            "--token", served.token]
    capsys.readouterr()
    if stderr is None:
        code = main(argv)
        out, err = capsys.readouterr()
        return code, out, err
    with monkeypatch.context() as patched:
        patched.setattr(sys, "stderr", stderr)
        code = main(argv)
    return code, capsys.readouterr().out, stderr.getvalue()


def listed(api: Api, query: str = "") -> list[tuple[str, bool]]:
    return [(t["name"], t["simulated"]) for t in api.pages(f"/v1/tournaments{query}",
                                                           "tournaments")]


def test_a_simulated_tournament_is_marked_and_the_list_can_leave_it_out(server, capsys,
                                                                        monkeypatch):
    code, out, err = simulate(server, capsys, Terminal(), monkeypatch)
    assert code == 0, err
    tid = re.match(r"tournament (\S+): 1 matches, 1 hands, ", out).group(1)
    # the bar: on standard error only, the match counted with its hand
    assert f"paiju: simulate sj2 {tid}: 100%" in err and "1/1 matches" in err
    assert "hands=1" in err and "\r" in err and "\r" not in out
    with Api(server.url, server.token) as api:
        api.call("POST", "/v1/tournaments", {"name": "春季升级赛", "game": "SJ2",
                                             "format": "knockout"})
        assert api.call("GET", f"/v1/tournaments/{tid}")["simulated"] is True
        assert listed(api) == [("paiju simulate sj2 (seed 1)", True), ("春季升级赛", False)]
        assert listed(api, "?simulated=false") == [("春季升级赛", False)]
        assert listed(api, "?simulated=true") == [("paiju simulate sj2 (seed 1)", True)]
        [created] = [e for e in api.call("GET", f"/v1/tournaments/{tid}/events")["events"]
                     if e["type"] == "TournamentCreated"]
        assert created["data"]["simulated"] is True  # a fact of the log, not derived


def test_the_filter_pages_and_refuses_what_is_not_true_or_false(client):
    for n, simulated in enumerate([True, False, True, False]):
        assert client.post("/v1/tournaments", json={
            "tournament_id": f"t{n}", "name": f"t{n}", "game": "SJ2", "format": "knockout",
            "simulated": simulated}).status_code == 201
    first = client.get("/v1/tournaments?simulated=false&limit=1").json
    assert [t["id"] for t in first["tournaments"]] == ["t1"]
    assert "simulated=false" in first["next"]
    assert [t["id"] for t in client.get(first["next"]).json["tournaments"]] == ["t3"]
    bad = client.get("/v1/tournaments?simulated=yes")
    assert bad.status_code == 400
    assert bad.json["errors"] == [{"path": "simulated", "in": "query",
                                   "message": "must be one of true, false"}]
    refused = client.post("/v1/tournaments", json={"name": "x", "game": "SJ2",
                                                   "format": "knockout", "simulated": "yes"})
    assert refused.status_code == 400
    assert refused.json["errors"][0]["path"] == "/simulated"


def _failing_tables(error: Exception):
    def play_tables(*args, **kwargs):
        raise error
    return play_tables


def test_a_failed_run_archives_the_tournament_it_left_half_built(server, capsys, monkeypatch):
    monkeypatch.setattr(runner, "play_tables", _failing_tables(RuntimeError("the bots disagree")))
    code, out, err = simulate(server, capsys)
    assert code == 1 and out == ""
    tid = re.search(r"tournament (\S+) was left half-built, so it is archived", err).group(1)
    assert "paiju simulate: the bots disagree\n" in err
    assert f"its log stays at {server.url}/v1/tournaments/{tid}" in err
    with Api(server.url, server.token) as api:
        assert listed(api) == []
        [shown] = api.call("GET", "/v1/tournaments?archived=true")["tournaments"]
        assert (shown["id"], shown["archived"], shown["simulated"]) == (tid, True, True)
        last = api.call("GET", f"/v1/tournaments/{tid}/events")["events"][-1]
        assert last["type"] == "TournamentArchived"
        assert last["data"] == {"reason": "paiju simulate sj2 failed: the bots disagree"}


def test_a_run_that_loses_its_server_prints_the_request_that_archives_it(tmp_path, capsys,
                                                                         monkeypatch):
    """The server stops mid-run: nothing can be archived now, so the exact request is printed
    (the token left to $PAIJU_TOKEN); posted once the server is back, it hides the tournament."""
    app = create_app({"DATABASE": str(tmp_path / "paiju.db")})
    token, _ = app.extensions["paiju"].tokens.create("admin", name="test")
    http = make_server("127.0.0.1", 0, app, threaded=True)
    serving = threading.Thread(target=http.serve_forever, daemon=True)
    serving.start()
    served = type("Served", (), {"url": f"http://127.0.0.1:{http.server_port}", "token": token})

    def server_gone(*args, **kwargs):
        http.shutdown()
        http.server_close()
        serving.join(timeout=10)
        raise ConnectionRefusedError(111, "Connection refused")
    monkeypatch.setattr(runner, "play_tables", server_gone)
    code, out, err = simulate(served, capsys)
    assert code == 1 and out == ""
    assert "paiju simulate: [Errno 111] Connection refused\n" in err
    tid = re.search(r"tournament (\S+) is left half-built at ", err).group(1)
    command = shlex.split(err.splitlines()[-1])
    assert command[:4] == ["curl", "-X", "POST", f"{served.url}/v1/tournaments/{tid}/events"]
    assert command[4:8] == ["-H", "Authorization: Bearer $PAIJU_TOKEN",
                            "-H", "Content-Type: application/json"]
    assert command[8] == "-d" and len(command) == 10
    client = app.test_client()  # the server back: the printed request posted as it stands
    auth = {"Authorization": f"Bearer {token}"}
    posted = client.post(command[3].removeprefix(served.url), headers=auth,
                         data=command[9], content_type="application/json")
    assert posted.status_code == 201, posted.json
    assert json.loads(command[9])["data"]["reason"] == (
        "paiju simulate sj2 failed: [Errno 111] Connection refused")
    assert client.get("/v1/tournaments", headers=auth).json["tournaments"] == []
    assert client.get(f"/v1/tournaments/{tid}", headers=auth).json["archived"] is True
    app.extensions["paiju"].store.close()
