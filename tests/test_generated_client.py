"""A client generated from api_spec.yaml by a standard generator (issue 20, item 4):
openapi-python-client writes a typed Python package from the document; it compiles, and with
it a table app creates a tournament and posts a TeamRegistered to a real ``paiju serve``, its
event body a typed model of the discriminated ``EventRequest`` (``TeamRegisteredEvent``)."""
from __future__ import annotations

import compileall
import importlib
import re
import subprocess
import sys
from pathlib import Path

from spec import SPEC_PATH
from test_schemathesis import server  # noqa: F401 - the module's real paiju serve

# What the generator says when it leaves a schema out ("Failure to process schema has resulted
# in the removal of ..."): the client still compiles, but a union naming the schema imports a
# module it never wrote, or a model silently lacks a member. Its other warnings leave every
# model in: an error response whose `type` is a const narrowing Problem's string is not parsed
# into a model (its status and body still reach the caller), and ruff is not installed.
DROPPED = re.compile(r"^Unable to (?:parse|process) schema ([^\s:]+)", re.MULTILINE)


def test_a_generated_client_creates_a_tournament_and_registers_a_team(server, tmp_path):  # noqa: F811
    url, token = server
    generator = str(Path(sys.executable).with_name("openapi-python-client"))  # the venv's
    made = subprocess.run([generator, "generate", "--path", str(SPEC_PATH), "--meta", "none",
                           "--output-path", str(tmp_path / "paiju_client")],
                          capture_output=True, text=True, timeout=300, check=False)
    assert made.returncode == 0, made.stdout + made.stderr
    assert DROPPED.findall(made.stdout + made.stderr) == [], made.stdout + made.stderr
    assert compileall.compile_dir(str(tmp_path / "paiju_client"), quiet=1)

    sys.path.insert(0, str(tmp_path))
    try:
        client_module = importlib.import_module("paiju_client")
        create = importlib.import_module("paiju_client.api.tournaments.create_tournament")
        post = importlib.import_module("paiju_client.api.events.post_events")
        models = importlib.import_module("paiju_client.models")
        client = client_module.AuthenticatedClient(base_url=url, token=token)

        created = create.sync_detailed(client=client, body=models.TournamentCreateRequest(
            name="春季升级赛", game=models.TournamentCreateRequestGame.SJ2,  # the spec's enums
            format_=models.TournamentCreateRequestFormat.SWISS))
        assert created.status_code == 201, created.content
        tid = created.parsed.id

        event = models.TeamRegisteredEvent(
            type_="TeamRegistered", stream=f"tournament-{tid}",
            data=models.TeamRegisteredData(team_id="east", name="East", players=["王芳", "李雷"]))
        posted = post.sync_detailed(tid, client=client, body=event)
        assert posted.status_code == 201, posted.content
        envelope = posted.parsed
        assert (envelope.type_, envelope.version, envelope.data.to_dict()["team_id"]) == (
            "TeamRegistered", 2, "east")
    finally:
        sys.path.remove(str(tmp_path))
        for name in [m for m in sys.modules if m.split(".")[0] == "paiju_client"]:
            del sys.modules[name]
