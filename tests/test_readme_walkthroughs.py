"""The README's walkthroughs run (issue 19, item 3): every ```sh block of README.md, in order,
pasted into one bash on a fresh server, as a reader does with ``make run`` in another terminal.

The convention, stated at the top of the README's first walkthrough: a block fenced ```sh is
meant to be pasted, in order after the ones before it, on one fresh ``make run``; a block that
must not be (another machine's setup, PostgreSQL, ``make run`` itself, a synopsis, a stream
that never ends) is fenced ```console or ```text. The blocks start from the variables the first
one sets — ``PAIJU`` (the service), ``TOKEN`` (the admin token the first start printed), ``T``
— and read ids and positions from earlier answers; a curl that must succeed says
``--fail-with-body``, one that must be refused goes through the README's ``refused STATUS``.

Here the server is ``paiju serve`` as ``make run`` starts it (timer on; ``paiju keys init``
first, the database ``var/paiju.db`` of a working directory of its own, beside a ``.venv`` that
is this one), the token made before it starts. The blocks run in one ``bash`` with ``set -euo
pipefail``: a failing command, an unset variable or an HTTP error where the README shows success
stops it, and the test names the block (its README line and first line) with its output.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from service.deployment import admin_token
from service.simulator.server_process import free_port, stop, wait_until_ready

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
RUNNABLE = "sh"            # the info string of the blocks to paste
NOT_RUN = ("console", "text", "json", "python")  # the others the README uses
MARK = "::readme-block:: "  # a line the runner prints before each block (in no answer)
WALKTHROUGH_SECONDS = 120    # only ends a hung run; the blocks take about 25 s


@dataclass(frozen=True)
class Block:
    line: int    # README line of the opening fence
    text: str

    @property
    def first_line(self) -> str:
        return next((line for line in self.text.splitlines() if line.strip()), "")


def fenced_blocks(text: str) -> list[tuple[str, int, str]]:
    """Every fenced block of a Markdown text: (info string, line of the opening fence, text)."""
    blocks, lines, i = [], text.splitlines(), 0
    while i < len(lines):
        opening = re.match(r"^(\s*)(```+)(.*)$", lines[i])
        if not opening:
            i += 1
            continue
        indent, fence, info = opening.groups()
        body, j = [], i + 1
        while j < len(lines) and not lines[j].strip().startswith(fence):
            body.append(lines[j][len(indent):] if lines[j].startswith(indent) else lines[j])
            j += 1
        blocks.append((info.strip(), i + 1, "\n".join(body) + "\n"))
        i = j + 1
    return blocks


def sh_blocks(text: str) -> list[Block]:
    return [Block(line, body) for info, line, body in fenced_blocks(text) if info == RUNNABLE]


def test_every_block_is_marked_runnable_or_not():
    """A block with another info string would be silently skipped: each must say which it is."""
    unknown = [(line, info) for info, line, _ in fenced_blocks(README.read_text("utf-8"))
               if info != RUNNABLE and info not in NOT_RUN]
    assert not unknown, f"README blocks with an info string the test does not know: {unknown}"


def test_the_extraction_reads_fences_and_their_lines():
    text = "intro\n```sh\necho one\n```\n\n  ```console\n  $ make run\n  ```\n```sh\nx=1\necho $x\n```\n"
    assert sh_blocks(text) == [Block(2, "echo one\n"), Block(9, "x=1\necho $x\n")]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """``(url, token, working directory, log)`` of ``paiju serve`` as ``make run`` starts it."""
    work = tmp_path_factory.mktemp("readme")
    (work / ".venv").symlink_to(Path(sys.executable).parent.parent)
    (work / "var").mkdir()
    database = "var/paiju.db"
    subprocess.run([sys.executable, "-m", "service.cli", "keys", "init", "--db", database],
                   cwd=work, check=True, capture_output=True)
    token = admin_token(str(work / database), "readme walkthrough")
    port, log_path = free_port(), work / "serve.log"
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONPATH": str(ROOT)}
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "service.cli", "serve", "--db", database, "--port", str(port)],
            cwd=work, stdout=log, stderr=subprocess.STDOUT, env=env)
        try:
            try:
                wait_until_ready(process, port, 60)
            except RuntimeError as error:
                pytest.fail(f"paiju serve did not start: {error}\n{_tail(log_path)}")
            yield f"http://127.0.0.1:{port}", token, work, log_path
        finally:
            stop(process)


def _tail(path: Path, chars: int = 3000) -> str:
    return path.read_text(errors="replace")[-chars:]


def script(blocks: list[Block]) -> str:
    """One bash script: each block after a line that names it, as if pasted one after another."""
    parts = ["set -euo pipefail\n"]
    for index, block in enumerate(blocks):
        parts.append(f"printf '\\n%s\\n' '{MARK}{index}'\n{block.text}")
    return "".join(parts)


def outputs_by_block(output: str) -> dict[int, str]:
    found, index, lines = {}, None, []
    for line in output.split("\n"):
        if line.startswith(MARK):
            if index is not None:
                found[index] = "\n".join(lines)
            index, lines = int(line[len(MARK):]), []
        else:
            lines.append(line)
    if index is not None:
        found[index] = "\n".join(lines)
    return found


def test_the_walkthroughs_run_on_a_fresh_server(server):
    url, token, work, log_path = server
    blocks = sh_blocks(README.read_text("utf-8"))
    assert len(blocks) >= 10, "the README's walkthroughs are fenced ```sh"
    (work / "walkthrough.sh").write_text(script(blocks), "utf-8")
    env = {**os.environ, "PAIJU": url, "TOKEN": token, "PYTHONPATH": str(ROOT)}
    try:
        run = subprocess.run(["bash", "walkthrough.sh"], cwd=work, env=env, text=True,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             timeout=WALKTHROUGH_SECONDS)
        output, code = run.stdout, run.returncode
    except subprocess.TimeoutExpired as expired:
        output = expired.stdout.decode(errors="replace") if isinstance(expired.stdout, bytes) \
            else (expired.stdout or "")
        code = f"still running after {WALKTHROUGH_SECONDS} s"
    by_block = outputs_by_block(output)
    if code != 0:
        failed = max(by_block, default=0)
        block = blocks[failed]
        pytest.fail(f"README.md block {failed + 1} of {len(blocks)} (line {block.line}: "
                    f"{block.first_line!r}) failed ({code}); its output:\n"
                    f"{by_block.get(failed, output)[-6000:]}\n--- server log:\n{_tail(log_path)}")
    assert sorted(by_block) == list(range(len(blocks))), "every block ran"
    log = log_path.read_text(errors="replace")
    assert "Traceback" not in log and "timer tick failed" not in log, _tail(log_path)
