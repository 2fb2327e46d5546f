import postgres
import pytest
from clients import admin_client
from fold_logs import restored_store
from timed import Timed

from events.memory_store import InMemoryEventStore
from events.postgres_store import PostgresEventStore
from events.sqlite_store import SQLiteEventStore
from service import create_app
from service.signing import init_key


@pytest.fixture(autouse=True)
def _commands_speak_english(monkeypatch):
    """The commands a test runs say their sentences in English (C locale), as the tests read
    them, whatever the machine's locale; tests/test_cli_language.py runs them in Chinese."""
    monkeypatch.setenv("LC_ALL", "C.UTF-8")


@pytest.fixture(scope="session")
def postgres_template():
    """The name of a database with the current schema, to copy (tests/postgres.py)."""
    postgres.require_server()
    with postgres.template_database() as name:
        yield name


@pytest.fixture
def postgres_url(postgres_template):
    """The URL of a new PostgreSQL database with the current schema, dropped afterwards."""
    url = postgres.create(postgres_template)
    yield url
    postgres.drop(url)


@pytest.fixture(params=["memory", "sqlite", "postgres"])
def store(request, tmp_path):
    """Every store implementation: the contract suite runs against each."""
    if request.param == "memory":
        s = InMemoryEventStore()
    elif request.param == "sqlite":
        s = SQLiteEventStore(tmp_path / "events.db")
    else:
        s = PostgresEventStore(request.getfixturevalue("postgres_url"))
    yield s
    s.close()


@pytest.fixture
def sqlite_store(tmp_path):
    s = SQLiteEventStore(tmp_path / "events.db")
    yield s
    s.close()


@pytest.fixture(scope="module")
def fold_logs_store(tmp_path_factory):
    """The recorded logs of the five games (tests/fixtures/fold-logs.jsonl.xz) in a SQLite
    store, for a module's tests."""
    store = restored_store(tmp_path_factory.mktemp("fold-logs") / "logs.db")
    yield store
    store.close()


@pytest.fixture(scope="session")
def signer(tmp_path_factory):
    """The export signing key of the test deployments (made once: keys are slow-ish to make
    and a deployment's key never changes)."""
    return init_key(tmp_path_factory.mktemp("key") / "paiju-signing.key")[0]


@pytest.fixture
def app(sqlite_store, signer):
    return create_app(store=sqlite_store, signer=signer)


@pytest.fixture
def client(app):
    """A client with an admin token: tests of the game and tournament rules act as an admin;
    tests/api/test_permissions.py checks what each other role may do."""
    return admin_client(app)


@pytest.fixture
def tournament(client):
    """A created SJ2 knockout tournament; returns its id."""
    response = client.post("/v1/tournaments", json={
        "tournament_id": "ottawa-2006", "name": "渥太华中华文化宫募捐友谊赛", "game": "SJ2",
        "format": "knockout", "date": "2006-12-23", "venue": "中华大厦"})
    assert response.status_code == 201, response.json
    return "ottawa-2006"


@pytest.fixture
def timed(tmp_path, signer):
    """A deployment on a fake clock whose timer the test runs (tests/timed.py)."""
    deployment = Timed(tmp_path / "timed.db", signer)
    yield deployment
    deployment.stop()
