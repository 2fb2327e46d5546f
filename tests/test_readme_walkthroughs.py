"""The walkthroughs run (issue 19, item 3; issue 36, item 4): every ```sh block of README.md and
then of the documentation's English pages, in the order of the site's navigation (mkdocs.yml),
pasted into one bash on a fresh server, as a reader does with ``make run`` in another terminal.

The convention, stated in the README's tour and on the site's first pages: a block fenced ```sh
is meant to be pasted, in order after the ones before it, on one fresh ``make run`` — the
README's tour first, then each page of the navigation; a block that must not be (another
machine's setup, PostgreSQL, ``make run`` itself, a synopsis, a stream that never ends) is fenced
```console or ```text. Two more kinds, so that nothing runs twice and nothing is left out:

* ```bash is a *copy* of a block that runs elsewhere, shown where a reader looks for it (the
  quickstart repeats the README's tour): it must be, byte for byte, a ```sh block of README.md
  or of an English page — the quickstart's copies are the README's tour, in order.
* the 简体中文 pages (``page.zh.md``) translate the English ones, commands included: their blocks
  are fenced ```console (never ```sh: the same commands are not run twice), and a translated
  page shows the English page's blocks, in order, with only the comments translated.

The blocks start from the variables the first one sets — ``PAIJU`` (the service), ``TOKEN`` (the
admin token the first start printed), ``T`` — and read ids and positions from earlier answers; a
curl that must succeed says ``--fail-with-body``, one that must be refused goes through the
README's ``refused STATUS``.

Here the server is ``paiju serve`` as ``make run`` starts it (timer on; ``paiju keys init``
first, the database ``var/paiju.db`` of a working directory of its own, beside a ``.venv`` that
is this one), the token made before it starts. The blocks run in one ``bash`` with ``set -euo
pipefail``: a failing command, an unset variable or an HTTP error where a page shows success
stops it, and the test names the block (its file, line and first line) with its output. Every
runnable block of the README and of the English pages is counted, and the count of blocks run
must be that count: a page with a ```sh block that the navigation leaves out fails the test.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from service.deployment import admin_token
from service.simulator.server_process import free_port, stop, wait_until_ready

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"
MKDOCS = ROOT / "mkdocs.yml"
QUICKSTART = "docs/quickstart.md"
RUNNABLE = "sh"            # the info string of the blocks to paste
COPY = "bash"              # a copy of a runnable block: not run twice, must equal one that runs
NOT_RUN = ("console", "text", "json", "python")  # the others the pages use
MARK = "::walkthrough-block:: "  # a line the runner prints before each block (in no answer)
WALKTHROUGH_SECONDS = 300    # only ends a hung run; the blocks take about a minute


@dataclass(frozen=True)
class Block:
    line: int    # line of the opening fence
    text: str
    source: str = "README.md"  # the file, relative to the repository

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


def sh_blocks(text: str, source: str = "README.md", info: str = RUNNABLE) -> list[Block]:
    return [Block(line, body, source) for kind, line, body in fenced_blocks(text) if kind == info]


def relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def read(path: Path) -> str:
    return path.read_text("utf-8")


# --- the pages --------------------------------------------------------------------------------
class _NavLoader(yaml.SafeLoader):
    """mkdocs.yml as data: tags such as !!python/name: (a theme's option) read as None."""


_NavLoader.add_multi_constructor("", lambda loader, suffix, node: None)


def nav_pages() -> list[str]:
    """The Markdown pages of the site's (English) navigation, in order, relative to docs/."""
    config = yaml.load(read(MKDOCS), Loader=_NavLoader)
    found: list[str] = []

    def walk(item) -> None:
        if isinstance(item, str):
            if item.endswith(".md") and "://" not in item:
                found.append(item)
        elif isinstance(item, list):
            for entry in item:
                walk(entry)
        elif isinstance(item, dict):
            for value in item.values():
                walk(value)

    walk(config.get("nav") or [])
    return found


def english_pages() -> list[Path]:
    """Every English page in docs/ (``page.zh.md`` is a translation)."""
    return sorted(path for path in DOCS.rglob("*.md") if not path.name.endswith(".zh.md"))


def chinese_pages() -> list[Path]:
    return sorted(DOCS.rglob("*.zh.md"))


def walkthrough() -> list[Block]:
    """README.md's runnable blocks, then those of each page of the navigation, in its order (a
    generated page, not in docs/, has none)."""
    blocks = sh_blocks(read(README))
    for page in nav_pages():
        path = DOCS / page
        if path.is_file():
            blocks += sh_blocks(read(path), relative(path))
    return blocks


def runnable_blocks_found() -> list[Block]:
    """Every runnable block there is: README.md's and every English page's, in the nav or not."""
    blocks = sh_blocks(read(README))
    for path in english_pages():
        blocks += sh_blocks(read(path), relative(path))
    return blocks


def without_comments(text: str) -> str:
    """A block's commands: whole-line comments dropped, and a comment after a command
    (``  # …``); what a translation may change."""
    kept = []
    for line in text.splitlines():
        if line.lstrip().startswith("#"):
            continue
        kept.append(re.sub(r"\s+#\s.*$", "", line).rstrip())
    return "\n".join(kept)


# --- the checks that need no server -----------------------------------------------------------
def test_every_block_is_marked_runnable_or_not():
    """A block with another info string would be silently skipped: each must say which it is."""
    known = (RUNNABLE, COPY, *NOT_RUN)
    unknown = [(relative(path), line, info)
               for path in (README, *english_pages(), *chinese_pages())
               for info, line, _ in fenced_blocks(read(path)) if info not in known]
    assert not unknown, f"blocks with an info string the test does not know: {unknown}"


def test_the_extraction_reads_fences_and_their_lines():
    text = "intro\n```sh\necho one\n```\n\n  ```console\n  $ make run\n  ```\n```sh\nx=1\necho $x\n```\n"
    assert sh_blocks(text) == [Block(2, "echo one\n"), Block(9, "x=1\necho $x\n")]


def test_the_navigation_is_read_in_order():
    pages = nav_pages()
    assert pages[:2] == ["index.md", "quickstart.md"], pages
    assert "guides/organiser.md" in pages and "games/sj2.md" in pages
    assert pages.index("guides/committee.md") < pages.index("games/sj2.md")


def test_every_runnable_block_is_in_the_walkthrough():
    """The issue's count: the blocks the walkthrough runs are every ```sh block of README.md and
    of the English pages — none on a page the navigation leaves out."""
    found, run = runnable_blocks_found(), walkthrough()
    left_out = sorted({block.source for block in found} - {block.source for block in run})
    assert not left_out, f"pages with ```sh blocks that the navigation leaves out: {left_out}"
    assert len(run) == len(found), (len(run), len(found))
    assert len(run) >= 30, "the walkthroughs are fenced ```sh"


def test_the_chinese_pages_hold_no_runnable_block():
    """A translation's commands are the English page's, which run there: fenced ```console."""
    runnable = [(relative(path), line) for path in chinese_pages()
                for info, line, _ in fenced_blocks(read(path)) if info in (RUNNABLE, COPY)]
    assert not runnable, f"```sh or ```bash blocks in a 简体中文 page: {runnable}"
    assert chinese_pages(), "the 简体中文 pages are docs/*.zh.md"


def test_the_chinese_pages_show_the_english_commands():
    """A translated page shows the English page's blocks, in order, comments aside."""
    for path in chinese_pages():
        english = path.with_name(path.name.replace(".zh.md", ".md"))
        if not english.is_file():
            continue  # a page of the Chinese site only (the summary)
        theirs = [without_comments(body) for _, _, body in fenced_blocks(read(english))]
        ours = [without_comments(body) for _, _, body in fenced_blocks(read(path))]
        assert ours == theirs, f"{relative(path)}: its blocks are not {relative(english)}'s"


def test_a_copy_is_a_block_that_runs():
    """```bash repeats a runnable block where a reader looks for it; the quickstart's copies
    are the README's tour, in order."""
    runnable = {block.text for block in runnable_blocks_found()}
    copies = [block for path in english_pages()
              for block in sh_blocks(read(path), relative(path), COPY)]
    strays = [(block.source, block.line) for block in copies if block.text not in runnable]
    assert not strays, f"```bash blocks that are no ```sh block (fence them ```sh): {strays}"
    tour = [block.text for block in sh_blocks(read(README))]
    quickstart = [block.text for block in sh_blocks(read(ROOT / QUICKSTART), QUICKSTART, COPY)]
    assert quickstart and quickstart == tour[:len(quickstart)] == tour, \
        "the quickstart shows the README's tour, block for block"


# --- the walkthrough on a real server ---------------------------------------------------------
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
    blocks = walkthrough()
    assert len(blocks) == len(runnable_blocks_found()), "every runnable block is in the run"
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
        pytest.fail(f"walkthrough block {failed + 1} of {len(blocks)} ({block.source} line "
                    f"{block.line}: {block.first_line!r}) failed ({code}); its output:\n"
                    f"{by_block.get(failed, output)[-6000:]}\n--- server log:\n{_tail(log_path)}")
    assert sorted(by_block) == list(range(len(blocks))), "every block ran"
    print(f"{len(blocks)} walkthrough blocks ran: " + ", ".join(
        f"{source} {sum(block.source == source for block in blocks)}"
        for source in dict.fromkeys(block.source for block in blocks)))
    log = log_path.read_text(errors="replace")
    assert "Traceback" not in log and "timer tick failed" not in log, _tail(log_path)
