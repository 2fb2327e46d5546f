"""The auditor's export, checked offline (`paiju verify-export`), and rebuilt into a new database
(`paiju import`): every kind of tampering is caught at its first position, a broken file is
never imported, and export → import → export gives the same file but for the export time."""
from __future__ import annotations

import json

import pytest
from clients import admin_client
from replay import knockout_reads, read_bytes
from sj2_table import TID, Table

from events.export_file import verify_export
from events.sqlite_store import SQLiteEventStore
from service import create_app
from service.cli import main
from service.signing import init_key, load_public_key


@pytest.fixture(autouse=True)
def english(monkeypatch):
    """The CLI's words are asserted in English: LC_ALL=C.UTF-8 says English
    (service.i18n.cli_language), whatever the machine's locale; subprocesses inherit it."""
    monkeypatch.setenv("LC_ALL", "C.UTF-8")


@pytest.fixture(scope="module")
def source(tmp_path_factory):
    """A database with a played SJ2 hand, another tournament's events between its own, the
    deployment's key, and the export files of both formats."""
    folder = tmp_path_factory.mktemp("source")
    db = str(folder / "paiju.db")
    signer, _ = init_key(folder / "paiju-signing.key")
    app = create_app({"DATABASE": db})
    client = admin_client(app)
    client.post("/v1/tournaments", json={"tournament_id": "other", "name": "o", "game": "SJ2",
                                         "format": "knockout"})
    table = Table(client)
    table.to_play({0: "2S"}, card="2S")
    client.post("/v1/tournaments/other/events", json={  # a gap in TID's positions
        "type": "RulingRecorded", "stream": "tournament-other", "data": {"text": "x", "effect": {}}})
    table.finish_hand(seed=2)
    app.extensions["paiju"].store.close()
    files = {}
    for fmt in ("jsonl", "csv"):
        files[fmt] = folder / f"export.{fmt}"
        assert main(["export", "--tournament", TID, "--db", db, "--format", fmt,
                     "--output", str(files[fmt])]) == 0
    return {"db": db, "files": files, "key": f"{folder / 'paiju-signing.key'}.pub",
            "signer": signer}


def lines_of(path) -> list[str]:
    with open(path, encoding="utf-8", newline="") as file:
        return file.readlines()


def verify(lines, source):
    return verify_export(lines, load_public_key(open(source["key"]).read()))


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_an_untouched_export_verifies_with_the_deployments_key(source, fmt, capsys):
    assert main(["verify-export", str(source["files"][fmt]), "--public-key", source["key"]]) == 0
    out = capsys.readouterr().out
    assert "ok" in out and f"of {TID}" in out
    report = verify(lines_of(source["files"][fmt]), source)
    assert report.ok and report.signature_checked
    assert report.manifest["event_count"] == report.events > 50


def _event_lines(lines: list[str], fmt: str) -> range:
    return range(1 if fmt == "csv" else 0, len(lines) - 1)


def _position(line: str, fmt: str) -> int:
    return json.loads(line)["position"] if fmt == "jsonl" else int(line.split(",", 1)[0])


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_one_changed_byte_is_caught_at_its_position(source, fmt):
    lines = lines_of(source["files"][fmt])
    target = _event_lines(lines, fmt)[40]
    at = _position(lines[target], fmt)
    for old, new in (("QH", "QS"), ('"hand":1', '"hand":2'), (",", ";")):
        if old in lines[target] and (fmt == "csv" or old != ","):
            changed = list(lines)
            changed[target] = changed[target].replace(old, new, 1)
            report = verify(changed, source)
            assert not report.ok and report.first_fault.position == at, (old, report.faults)


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_a_removed_line_is_caught_at_the_line_after_it(source, fmt):
    lines = lines_of(source["files"][fmt])
    target = _event_lines(lines, fmt)[10]
    following = _position(lines[target + 1], fmt)
    report = verify(lines[:target] + lines[target + 1:], source)
    assert not report.ok and report.first_fault.position == following
    assert "missing" in report.first_fault.problem


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_two_swapped_lines_are_caught_at_the_first_of_them(source, fmt):
    lines = lines_of(source["files"][fmt])
    i = _event_lines(lines, fmt)[20]
    swapped = lines[:i] + [lines[i + 1], lines[i]] + lines[i + 2:]
    report = verify(swapped, source)
    assert not report.ok and report.first_fault.position == _position(lines[i + 1], fmt)


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_an_appended_line_is_caught(source, fmt):
    lines = lines_of(source["files"][fmt])
    last_event = lines[-2]
    after_manifest = verify(lines + [last_event], source)
    assert not after_manifest.ok and "after the manifest" in after_manifest.first_fault.problem
    before_manifest = verify(lines[:-1] + [last_event, lines[-1]], source)
    assert not before_manifest.ok
    assert before_manifest.first_fault.position == _position(last_event, fmt)


def test_a_manifest_resigned_with_another_key_is_caught(source, tmp_path):
    lines = lines_of(source["files"]["jsonl"])
    impostor, _ = init_key(tmp_path / "impostor.key")
    envelope = json.loads(lines[-1])
    envelope["manifest"]["event_count"] -= 1  # to hide a removed last line, say
    envelope["manifest"]["last_position"] = json.loads(lines[-3])["position"]
    envelope["manifest"]["last_hash"] = json.loads(lines[-3])["hash"]
    envelope["signature"] = dict(envelope["signature"],  # even naming the right key id
                                 value=json.loads(_resigned(dict(envelope), impostor))[
                                     "signature"]["value"])
    forged = lines[:-2] + [json.dumps(envelope, sort_keys=True, separators=(",", ":"),
                                      ensure_ascii=False) + "\n"]
    report = verify(forged, source)
    assert not report.ok and any("bad signature" in f.problem for f in report.faults)
    path = tmp_path / "forged.jsonl"
    path.write_text("".join(forged), encoding="utf-8")
    assert main(["verify-export", str(path), "--public-key", source["key"]]) == 1


def test_a_file_without_a_manifest_is_not_an_export(source):
    report = verify(lines_of(source["files"]["jsonl"])[:-1], source)
    assert not report.ok and "no manifest" in report.first_fault.problem


def _resigned(envelope: dict, signer) -> str:
    from events.export_file import manifest_bytes
    envelope["signature"] = signer.sign(manifest_bytes(envelope["manifest"])).to_dict()
    return json.dumps(envelope, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_every_byte_of_the_manifest_line_counts(source, fmt):
    lines = lines_of(source["files"][fmt])
    prefix = "#paiju-manifest " if fmt == "csv" else ""
    envelope = json.loads(lines[-1].removeprefix(prefix))
    tampered = {
        "another key id": lines[-1].replace(envelope["signature"]["key_id"], "0" * 16),
        "a member added": lines[-1].replace('{"manifest":', '{"manifest":', 1).replace(
            '"signature":', '"note":"approved","signature":', 1),
        "a space": lines[-1].replace('","', '", "', 1),
        "a duplicated member": lines[-1].replace('{"manifest":{', '{"manifest":{"tournament_id":'
                                                 '"FAKE",', 1),
        "the last padding bits": lines[-1].replace(envelope["signature"]["value"],
                                                   envelope["signature"]["value"][:-3] + "B=="),
    }
    for what, line in tampered.items():
        assert line != lines[-1], what
        report = verify(lines[:-1] + [line], source)
        assert not report.ok, what


def test_a_manifest_signed_by_another_key_is_caught_in_csv_too(source, tmp_path):
    lines = lines_of(source["files"]["csv"])
    impostor, _ = init_key(tmp_path / "impostor.key")
    envelope = json.loads(lines[-1].removeprefix("#paiju-manifest "))
    forged = lines[:-1] + ["#paiju-manifest " + _resigned(envelope, impostor) + "\n"]
    report = verify(forged, source)
    assert not report.ok and "not the key given" in report.first_fault.problem


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_newlines_count_too(source, fmt):
    lines = lines_of(source["files"][fmt])
    assert not verify(lines + ["\n"], source).ok                 # a blank line appended
    assert not verify(lines[:-1] + [lines[-1][:-1]], source).ok  # the last newline removed
    report = verify(lines[:3] + [lines[3][:-1] + "\r\n"] + lines[4:], source)
    assert not report.ok and report.first_fault.line == 4


def test_a_changed_csv_header_is_caught_at_line_one(source):
    lines = lines_of(source["files"]["csv"])
    report = verify([lines[0].replace("position", "Position")] + lines[1:], source)
    assert not report.ok and report.first_fault.line == 1


@pytest.mark.parametrize("edit", [('"position":', '"position":"'), ('"version":', '"version":1.0+'),
                                  ('"tournament_id":', '"tournament_id":["x"],"x":')])
def test_lines_of_the_wrong_types_are_reported_not_crashed_on(source, edit):
    lines = lines_of(source["files"]["jsonl"])
    old, new = edit
    lines[7] = lines[7].replace(old, new, 1)
    report = verify(lines, source)
    assert not report.ok and report.first_fault.line == 8


def test_an_import_checks_the_signature_with_the_key_given(source, tmp_path, capsys):
    impostor, _ = init_key(tmp_path / "impostor.key")
    (tmp_path / "impostor.pub").write_text(impostor.public_key_document()["pem"])
    new_db = tmp_path / "never.db"
    assert main(["import", str(source["files"]["jsonl"]), "--db", str(new_db),
                 "--public-key", str(tmp_path / "impostor.pub")]) == 1
    assert "not the key given" in capsys.readouterr().err and not new_db.exists()
    assert main(["import", str(source["files"]["jsonl"]), "--db", str(new_db)]) == 2
    assert "--unsigned" in capsys.readouterr().err and not new_db.exists()


def test_export_import_export_is_the_same_file_but_for_the_export_time(source, tmp_path):
    new_db = str(tmp_path / "imported.db")
    assert main(["import", str(source["files"]["jsonl"]), "--db", new_db,
                 "--public-key", source["key"]]) == 0
    for fmt in ("jsonl", "csv"):
        again = tmp_path / f"again.{fmt}"
        assert main(["export", "--tournament", TID, "--db", new_db, "--format", fmt,
                     "--key", str(source["key"]).removesuffix(".pub"),
                     "--output", str(again)]) == 0
        before, after = lines_of(source["files"][fmt]), lines_of(again)
        assert before[:-1] == after[:-1]
        manifests = [json.loads(f[-1].removeprefix("#paiju-manifest "))["manifest"]
                     for f in (before, after)]
        for manifest in manifests:
            manifest.pop("exported_at")
        assert manifests[0] == manifests[1]
    store = SQLiteEventStore(new_db)
    try:
        assert store.verify(TID).ok
    finally:
        store.close()


def test_an_imported_database_serves_byte_identical_projections(source, tmp_path):
    new_db = str(tmp_path / "imported.db")
    assert main(["import", str(source["files"]["csv"]), "--db", new_db, "--unsigned"]) == 0
    reads = []
    for db in (source["db"], new_db):
        app = create_app({"DATABASE": db})
        client = admin_client(app)
        reads.append({**knockout_reads(client, TID, ["R1-1"], seat=2),
                      **read_bytes(client, [f"/v1/tournaments/{TID}/matches/R1-1?at=60",
                                            f"/v1/tournaments/{TID}/verify"])})
        app.extensions["paiju"].store.close()
    assert reads[0] == reads[1]


def test_a_broken_file_is_refused_before_anything_is_written(source, tmp_path, capsys):
    lines = lines_of(source["files"]["jsonl"])
    broken = tmp_path / "broken.jsonl"
    broken.write_text("".join(lines[:5] + lines[6:]), encoding="utf-8")
    new_db = tmp_path / "never.db"
    assert main(["import", str(broken), "--db", str(new_db), "--unsigned"]) == 1
    assert "nothing was written" in capsys.readouterr().err
    assert not new_db.exists()


def test_importing_a_tournament_the_database_holds_writes_nothing(source, capsys):
    before = SQLiteEventStore(source["db"])
    count = before.last_position()
    before.close()
    assert main(["import", str(source["files"]["jsonl"]), "--db", source["db"],
                 "--public-key", source["key"]]) == 1
    assert "already holds" in capsys.readouterr().err
    after = SQLiteEventStore(source["db"])
    assert after.last_position() == count
    after.close()


def test_verify_export_needs_no_database_and_refuses_a_bad_key(source, tmp_path, capsys):
    bad_key = tmp_path / "not-a-key.pub"
    bad_key.write_text("hello")
    assert main(["verify-export", str(source["files"]["jsonl"]), "--public-key",
                 str(bad_key)]) == 2
    assert "not an Ed25519 public key" in capsys.readouterr().err
    # the key as the well-known endpoint serves it (base64 of its raw bytes) does as well
    served = source["signer"].public_key_document()["public_key"]
    assert main(["verify-export", str(source["files"]["csv"]), "--public-key", served]) == 0
