"""`paiju entrants import FILE --tournament T --db …` on a real database file: all rows in one
batch, or nothing and the report of every bad row."""
import pytest

from events import default_catalogue
from events.sqlite_store import SQLiteEventStore
from projections.tournaments import tournament_view
from service.app import create_app
from service.cli import main


@pytest.fixture(autouse=True)
def english(monkeypatch):
    """The CLI's words are asserted in English: LC_ALL=C.UTF-8 says English
    (service.i18n.cli_language), whatever the machine's locale; subprocesses inherit it."""
    monkeypatch.setenv("LC_ALL", "C.UTF-8")


@pytest.fixture
def db(tmp_path):
    """A deployment's file with an SJ2 knockout, made by the app as paiju serve would."""
    path = str(tmp_path / "paiju.db")
    app = create_app({"DATABASE": path, "CHECKPOINTS": False})
    services = app.extensions["paiju"]
    secret, _ = services.tokens.create("admin")
    client = app.test_client()
    response = client.post("/v1/tournaments", headers={"Authorization": f"Bearer {secret}"},
                           json={"tournament_id": "cup", "name": "杯", "game": "SJ2",
                                 "format": "knockout"})
    assert response.status_code == 201, response.json
    services.store.close()
    services.tokens.close()
    services.cache.close()
    return path


def teams(db):
    store = SQLiteEventStore(db)
    try:
        return tournament_view(store, default_catalogue(), "cup")["teams"], store.last_position()
    finally:
        store.close()


def test_a_good_file_is_registered_in_one_batch(db, tmp_path, capsys):
    csv = tmp_path / "entrants.csv"
    csv.write_bytes(b"\xef\xbb\xbfteam_id,name,player1,player2\r\n" + "".join(
        f"t{i},第{i}队,甲{i},乙{i}\r\n" for i in range(1, 65)).encode("utf-8"))
    assert main(["entrants", "import", str(csv), "--tournament", "cup", "--db", db]) == 0
    assert capsys.readouterr().out == (f"paiju: registered 64 entrants of {csv} in cup "
                                       "(positions 2-65, one batch)\n")
    registered, last = teams(db)
    assert [t["team_id"] for t in registered] == [f"t{i}" for i in range(1, 65)] and last == 65
    store = SQLiteEventStore(db)
    try:
        meta = next(store.read_tournament("cup", type="TeamRegistered")).to_dict()["meta"]
    finally:
        store.close()
    assert meta["role"] == "admin" and meta["source"] == "paiju entrants import entrants.csv"


def test_a_bad_file_prints_every_fault_and_registers_nothing(db, tmp_path, capsys):
    csv = tmp_path / "entrants.csv"
    csv.write_text("team_id,name,player1,player2\nt1,一队,甲,乙\nt2,二队,丙,甲\nt1,三队,丁,戊\n",
                   encoding="utf-8")
    assert main(["entrants", "import", str(csv), "--tournament", "cup", "--db", db]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith(f"{csv}: row 3, player2: T-1.6: player '甲' is already entered")
    assert err[1] == f"{csv}: row 4, team_id: T-1.3: team 't1' is already registered"
    assert err[2] == f"paiju: nothing was registered: 2 fault(s) in {csv}"
    assert teams(db) == ([], 1)


def test_a_gbk_file_is_named(db, tmp_path, capsys):
    csv = tmp_path / "entrants.csv"
    csv.write_bytes("team_id,name,player1,player2\nt1,一队,甲,乙\n".encode("gbk"))
    assert main(["entrants", "import", str(csv), "--tournament", "cup", "--db", db]) == 1
    assert ("row 2, name: the file is not UTF-8; it looks like GBK (save it as CSV UTF-8)"
            in capsys.readouterr().err)


def test_an_unknown_tournament_or_file(db, tmp_path, capsys):
    csv = tmp_path / "entrants.csv"
    csv.write_text("team_id,name,player1,player2\nt1,一队,甲,乙\n", encoding="utf-8")
    assert main(["entrants", "import", str(csv), "--tournament", "nope", "--db", db]) == 1
    assert "no tournament 'nope'" in capsys.readouterr().err
    assert main(["entrants", "import", str(tmp_path / "none.csv"), "--tournament", "cup",
                 "--db", db]) == 2
    assert main(["entrants", "import", str(csv), "--tournament", "cup",
                 "--db", str(tmp_path / "none.db")]) == 2
    assert "no database" in capsys.readouterr().err
