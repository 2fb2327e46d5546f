import pytest

from events.memory_store import InMemoryEventStore
from events.sqlite_store import SQLiteEventStore
from service import create_app


@pytest.fixture(params=["memory", "sqlite"])
def store(request, tmp_path):
    """Every store implementation: the contract suite runs against each."""
    s = InMemoryEventStore() if request.param == "memory" else SQLiteEventStore(tmp_path / "events.db")
    yield s
    s.close()


@pytest.fixture
def sqlite_store(tmp_path):
    s = SQLiteEventStore(tmp_path / "events.db")
    yield s
    s.close()


@pytest.fixture
def app(sqlite_store):
    return create_app(store=sqlite_store)


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def tournament(client):
    """A created SJ2 knockout tournament; returns its id."""
    response = client.post("/v1/tournaments", json={
        "tournament_id": "ottawa-2006", "name": "渥太华中华文化宫募捐友谊赛", "game": "SJ2",
        "format": "knockout", "date": "2006-12-23", "venue": "中华大厦"})
    assert response.status_code == 201, response.json
    return "ottawa-2006"
