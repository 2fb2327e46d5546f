"""The ``paiju`` command speaks 简体中文 and English (issue 33, item 5): ``paiju --language zh|en``,
else ``LC_ALL`` / ``LC_MESSAGES`` / ``LANG`` (``C``: English), else Chinese; ``paiju serve
--language`` sets its own lines' language too. Real runs of the command, as an operator runs it:
a process of its own with the environment given here (none of the machine's locale)."""
from __future__ import annotations

import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import postgres
import pytest

from events.envelope import NewEvent
from events.sqlite_store import SQLiteEventStore
from events.storage import postgres_schema, sqlite_schema
from service.simulator.server_process import free_port, stop

REPO = Path(__file__).resolve().parent.parent
LOCALE = ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE")


def paiju(*args: str, timeout: float = 60, **locale: str) -> subprocess.CompletedProcess:
    """``paiju args`` with only ``locale`` of the locale's variables set (no bar drawn)."""
    env = {k: v for k, v in os.environ.items() if k not in LOCALE}
    env.update(locale, PAIJU_PROGRESS="0")
    return subprocess.run([sys.executable, "-m", "service.cli", *args], cwd=REPO, env=env,
                          capture_output=True, text=True, encoding="utf-8", timeout=timeout)


@pytest.fixture
def db(tmp_path) -> tuple[str, str]:
    """A database file with one tournament of three events: (its path, the chain's last hash)."""
    path = tmp_path / "paiju.db"
    store = SQLiteEventStore(path)
    store.append("t1", [NewEvent("X", "match-t1", {"n": i}) for i in range(3)])
    head = store.tournament_head("t1")
    store.close()
    return str(path), head[1]


def test_verify_speaks_chinese_where_the_locale_is_chinese(db):
    path, last_hash = db
    done = paiju("verify", "--db", path, LANG="zh_CN.UTF-8")
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"t1：完好，3 个事件，链头 3 {last_hash}\n"


def test_language_en_overrides_a_chinese_locale(db):
    path, last_hash = db
    done = paiju("--language", "en", "verify", "--db", path, LANG="zh_CN.UTF-8")
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"t1: ok, 3 events, head 3 {last_hash}\n"


def test_the_c_locale_is_english_and_language_zh_overrides_it(db, tmp_path):
    path, last_hash = db
    assert paiju("verify", "--db", path, LANG="C").stdout == \
        f"t1: ok, 3 events, head 3 {last_hash}\n"
    missing = str(tmp_path / "none.db")
    assert paiju("verify", "--db", missing, LC_ALL="C.UTF-8", LANG="zh_CN.UTF-8").stderr == \
        f"paiju: no database at {missing}\n"  # LC_ALL before LANG, as gettext reads them
    said = paiju("--language", "zh", "verify", "--db", missing, LANG="C")
    assert (said.returncode, said.stderr) == (2, f"paiju: {missing} 处没有数据库\n")


def test_without_any_locale_the_default_is_chinese(db):
    path, last_hash = db
    assert paiju("verify", "--db", path).stdout == f"t1：完好，3 个事件，链头 3 {last_hash}\n"


def test_keys_and_tokens_are_told_in_the_readers_language(db, tmp_path):
    path, _ = db
    made = paiju("keys", "init", "--db", path, LANG="zh_CN.UTF-8")
    key = tmp_path / "paiju-signing.key"
    assert re.fullmatch(rf"paiju: 导出签名密钥 [0-9a-f]+ 已生成：{key}；公钥 {key}\.pub\n",
                        made.stderr)
    kept = paiju("--language", "en", "keys", "init", "--db", path, LANG="zh_CN.UTF-8")
    assert "already there (kept)" in kept.stderr
    created = paiju("token", "create", "--role", "organiser", "--tournament", "t1", "--db", path,
                    LANG="zh_CN.UTF-8")
    assert created.stdout.startswith("pj_")  # the secret itself: the same in every language
    assert re.fullmatch(r"paiju: 令牌 \S+（organiser, 赛事 t1）——仅显示这一次，请保密\n",
                        created.stderr)


NEWER = {"zh": "paiju db upgrade: 数据库由更新版本的 paiju 写入（存储结构版本为 {found}；本版只认得 "
                "{known}）\n",
         "en": "paiju db upgrade: the database was written by a newer paiju (store schema {found}; "
               "this one knows {known})\n"}


@pytest.mark.parametrize("language", ["zh", "en"])
def test_db_upgrade_refuses_a_file_of_a_newer_paiju_in_the_readers_language(db, language):
    path, _ = db
    newer = sqlite_schema.SCHEMA_VERSION + 1
    with sqlite3.connect(path) as conn:
        conn.execute(f"PRAGMA user_version = {newer}")
    done = paiju("--language", language, "db", "upgrade", "--db", path, LANG="zh_CN.UTF-8")
    told = NEWER[language].format(found=newer, known=sqlite_schema.SCHEMA_VERSION)
    assert (done.returncode, done.stderr) == (2, told)
    # any other command that opens the file says the same, not a traceback
    done = paiju("--language", language, "verify", "--db", path, LANG="zh_CN.UTF-8")
    assert (done.returncode, done.stderr) == (2, told.replace("paiju db upgrade:", "paiju:"))


NOT_UPGRADED = {"zh": "paiju: 数据库没有 paiju 的存储结构（本版 paiju 写入第 {known} 版）：请先运行 "
                      "`paiju db upgrade --db URL`\n",
                "en": "paiju: the database has no paiju schema (this paiju writes {known}): run "
                      "`paiju db upgrade --db URL` first\n"}


@pytest.mark.parametrize("language", ["zh", "en"])
def test_a_postgresql_database_not_upgraded_is_told_in_the_readers_language(postgres_template,
                                                                            language):
    url = postgres.create(None)
    try:
        done = paiju("--language", language, "verify", "--db", url, LANG="zh_CN.UTF-8")
    finally:
        postgres.drop(url)
    assert (done.returncode, done.stderr) == (2, NOT_UPGRADED[language].format(
        known=postgres_schema.SCHEMA_VERSION))


def test_a_language_paiju_does_not_speak_is_refused():
    done = paiju("--language", "xx", "verify", LANG="zh_CN.UTF-8")
    assert done.returncode == 2 and done.stdout == ""
    assert "argument --language: invalid choice: 'xx'" in done.stderr


def test_the_simulation_summary_is_told_in_chinese():
    done = paiju("simulate", "sj2", "--teams", "2", "--max-hands", "1", LANG="zh_CN.UTF-8",
                 timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert re.fullmatch(r"赛事 \S+：1 场比赛，1 局，\d+ 个事件，\d+ 个请求，用时 [\d.]+ 秒",
                        lines[0])
    assert re.fullmatch(r"冠军：team-[12]", lines[1]) and lines[2] == "对阵表："
    assert lines[3] == "  第1轮" and re.fullmatch(r"名次：1\. team-[12], 2\. team-[12]", lines[-2])
    assert lines[-1].startswith("事件：") and "MatchStarted 1" in lines[-1]


@pytest.mark.parametrize("args, made, serving", [
    (["serve", "--language", "en"],
     "paiju: no admin token existed, so one was made (shown this once; keep it):\n",
     "paiju serving on {url} (database {db})\n"),
    (["--language", "zh", "serve", "--language", "en"],
     "paiju: 原先没有管理员令牌，现已生成一个（仅显示这一次，请妥善保存）：\n",
     "paiju 正在 {url} 上提供服务（数据库 {db}）\n"),
], ids=["serve-en", "paiju-zh-serve-en"])
def test_serves_language_is_its_own_lines_unless_paiju_language_says_otherwise(tmp_path, args,
                                                                                 made, serving):
    """``serve --language en`` (the pages' default) speaks English at start-up on a Chinese
    machine; ``paiju --language zh`` before ``serve`` keeps the operator's Chinese."""
    db, port = str(tmp_path / "paiju.db"), free_port()
    env = {k: v for k, v in os.environ.items() if k not in LOCALE}
    env.update(LANG="zh_CN.UTF-8", PYTHONUNBUFFERED="1")
    process = subprocess.Popen([sys.executable, "-m", "service.cli", *args, "--db", db,
                                "--port", str(port)], cwd=REPO, env=env, text=True,
                               encoding="utf-8", stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL)
    try:
        first, header, started = (process.stdout.readline() for _ in range(3))
    finally:
        stop(process)
        process.stdout.close()
    assert first == made
    assert header.startswith("  Authorization: Bearer pj_")  # copied as it stands: never said
    assert started == serving.format(url=f"http://127.0.0.1:{port}", db=db)
