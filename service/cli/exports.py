"""A tournament's log as evidence: ``paiju verify`` walks the hash chains in the database;
``paiju export`` writes a log with its signed manifest; ``paiju verify-export`` checks such a
file offline; ``paiju import`` rebuilds a database from one."""
from __future__ import annotations

import sys
from pathlib import Path

from events.export_file import FORMATS
from rules.messages import Message

from .common import add_db, cannot_read, key_path, open_existing, opened, said, shown


def add(commands) -> None:
    verify = commands.add_parser("verify", help="walk the hash chain of every tournament, or one")
    add_db(verify)
    verify.add_argument("--tournament", help="only this tournament")
    verify.set_defaults(run=_verify)

    export = commands.add_parser("export", help="write a tournament's log with its signed "
                                                "manifest (to standard output or --output)")
    export.add_argument("--tournament", required=True)
    export.add_argument("--format", choices=list(FORMATS), default="jsonl")
    add_db(export)
    export.add_argument("--key", help="the signing key (default: paiju-signing.key beside --db)")
    export.add_argument("--output", help="a file to write (default: standard output)")
    export.set_defaults(run=_export)

    check = commands.add_parser("verify-export", help="verify an export file offline: every "
                                "line, the hash chain, the manifest and its signature")
    check.add_argument("file")
    check.add_argument("--public-key", required=True,
                       help="the deployment's public key: a PEM file, or a file or text with "
                            "the base64 the /.well-known/paiju-export-key endpoint serves")
    check.set_defaults(run=_verify_export)

    restore = commands.add_parser("import", help="rebuild a database from an export file "
                                  "(verified first; nothing is written if it is not sound)")
    restore.add_argument("file")
    restore.add_argument("--db", required=True, help="the database to write (new, or one "
                                                     "without this tournament)")
    restore.add_argument("--public-key", help="the exporting deployment's public key: the "
                         "manifest's signature is checked too")
    restore.add_argument("--unsigned", action="store_true",
                         help="import without checking the signature (the chain still is)")
    restore.set_defaults(run=_import)


# --- verify ------------------------------------------------------------------------------------

def _verify(args) -> int:
    from events.store import verify_records

    from ..progress import bar

    say = args.say
    store = open_existing(args.db, say)
    if store is None:
        return 2
    try:
        # store.verify, each chain's records through one bar (every chain: the log's events)
        ids = [args.tournament] if args.tournament else store.tournament_ids()
        every = None if args.tournament else store.last_position()
        with bar(say("verified"), say("events"), every) as stepped:
            reports = [verify_records(tid, _stepped(store.read_tournament(tid), stepped))
                       for tid in ids]
    finally:
        store.close()
    return 1 if sum(not _said_ok(report, say) for report in reports) else 0


def _said_ok(report, say) -> bool:
    """One chain's line: ok on standard output, an empty or broken one said too; whether ok."""
    tid = report.tournament_id
    if report.checked == 0 and report.ok:
        print(say(Message("{tid}: no events", tid=tid)), file=sys.stderr)
        return False
    if report.ok:
        print(say(Message("{tid}: ok, {checked} events, head {position} {hash}",
                          tid=tid, checked=report.checked,
                          position=report.last_position, hash=report.last_hash)))
        return True
    print(say(Message("{tid}: BROKEN at position {position}: {problem} ({checked} "
                      "events verified before it)", tid=tid,
                      position=report.first_bad_position, problem=report.problem,
                      checked=report.checked)))
    return False


def _stepped(records, shown_bar):
    """``records`` passed through, a step of the bar ``shown_bar`` each."""
    for record in records:
        yield record
        shown_bar.update()


# --- export ------------------------------------------------------------------------------------

def _export(args) -> int:
    from ..signing import SigningKeyError

    say = args.say
    store = open_existing(args.db, say)
    if store is None:
        return 2
    try:
        return _write_export(args, store)
    except SigningKeyError as error:
        print(f"paiju: {said(error, say)}", file=sys.stderr)
        return 2
    finally:
        store.close()


def _write_export(args, store) -> int:
    """The tournament's log up to its head now, signed, to --output or standard output."""
    from events.envelope import utc_timestamp
    from events.export_file import export_lines

    from ..progress import counted
    from ..signing import load_signer
    from ..version import VERSION

    say = args.say
    signer = load_signer(args.key or key_path(args.db))
    head = store.tournament_head(args.tournament)
    if head is None:
        none = say(Message("no events for tournament {tournament}", tournament=args.tournament))
        print(f"paiju: {none}", file=sys.stderr)
        return 1
    records = counted(store.read_tournament(args.tournament, until_position=head[0]),
                      say("exported"), say("events"))
    lines = export_lines(records, args.format, args.tournament, utc_timestamp(), VERSION,
                         signer.sign)
    out = open(args.output, "w", encoding="utf-8", newline="") if args.output else sys.stdout
    try:
        out.writelines(lines)
    finally:
        if args.output:
            out.close()
    done = say(Message("exported {tournament} up to position {position} ({hash})",
                       tournament=args.tournament, position=head[0], hash=head[1]))
    print(f"paiju: {done}", file=sys.stderr)
    return 0


# --- verify-export -----------------------------------------------------------------------------

def _export_lines(path: str, say):
    """The file's lines as written (newlines kept), read as they are needed; None if the file
    cannot be opened."""
    try:
        file = open(path, encoding="utf-8", newline="")
    except OSError as error:
        cannot_read(path, error, say)
        return None
    return file


def _public_key(text_or_file: str, say):
    """The key of --public-key (a file, or the key's text), or None after saying why."""
    from ..signing import SigningKeyError, load_public_key

    path = Path(text_or_file)
    try:
        return load_public_key(path.read_text() if path.is_file() else text_or_file)
    except SigningKeyError as error:
        print(f"paiju: --public-key: {said(error, say)}", file=sys.stderr)
        return None


def _verify_export(args) -> int:
    """Offline: no database, no server; the file and the public key alone."""
    from events.export_file import public_key_id

    say = args.say
    key = _public_key(args.public_key, say)
    if key is None:
        return 2
    report = _verified(args.file, key, say)
    if report is None:
        return 2
    if report.ok:
        m = report.manifest
        print(say(Message("{file}: ok, {events} events of {tournament}, positions {first}-{last}, "
                          "last hash {hash}, signed by key {key_id}, exported {exported_at}",
                          file=args.file, events=report.events, tournament=m["tournament_id"],
                          first=m["first_position"], last=m["last_position"],
                          hash=m["last_hash"], key_id=public_key_id(key),
                          exported_at=m["exported_at"])))
        return 0
    print(say(Message("{file}: NOT VERIFIED, first fault at {fault}", file=args.file,
                      fault=report.first_fault)))
    for fault in report.faults[1:20]:
        print("  " + say(Message("also: {fault}", fault=fault)))
    return 1


def _verified(path: str, key, say):
    """The report on the file at ``path`` (streamed: bounded memory), or None if unreadable."""
    from events.export_file import verify_export

    from ..progress import counted

    file = _export_lines(path, say)
    if file is None:
        return None
    try:
        with file:
            checked = say(Message("verified {name}", name=Path(path).name))
            return verify_export(counted(file, checked, say("lines")), key)
    except UnicodeDecodeError as error:
        told = say(Message("{path} is not UTF-8: {error}", path=path, error=error))
        print(f"paiju: {told}", file=sys.stderr)
        return None


# --- import ------------------------------------------------------------------------------------

def _import(args) -> int:
    """Verified in full first (one pass over the file); then written in one transaction (a
    second pass). Without --public-key the signature is only left unchecked if --unsigned
    says so: a chain alone proves no origin."""
    say = args.say
    if not args.public_key and not args.unsigned:
        give = say("give --public-key (the exporting deployment's key), or --unsigned to import "
                   "on the chain alone")
        print(f"paiju import: {give}", file=sys.stderr)
        return 2
    key = _public_key(args.public_key, say) if args.public_key else None
    if args.public_key and key is None:
        return 2
    report = _verified(args.file, key, say)
    if report is None:
        return 2
    if not report.ok:
        refused = say(Message("{file} is not imported (nothing was written): first fault at "
                              "{fault}", file=args.file, fault=report.first_fault))
        print(f"paiju: {refused}", file=sys.stderr)
        return 1
    return _restore(args, report)


def _restore(args, report) -> int:
    """The verified file's events written into --db in one transaction."""
    from events.export_file import event_records
    from events.store import RestoreConflict

    from ..deployment import open_store
    from ..progress import counted

    say = args.say
    store = opened(say, lambda: open_store(args.db))
    if store is None:
        return 2
    try:
        with _export_lines(args.file, say) as file:
            count = store.restore(counted(event_records(file), say("imported"), say("events"),
                                          total=report.events))
    except RestoreConflict as error:
        refused = say(Message("nothing was imported: {error}", error=said(error, say)))
        print(f"paiju: {refused}", file=sys.stderr)
        return 1
    finally:
        store.close()
    if not report.signature_checked:
        warning = say("warning: the signature was not checked (--unsigned)")
        print(f"paiju: {warning}", file=sys.stderr)
    done = say(Message("imported {count} events of {tournament} into {db} (chain verified)",
                       count=count, tournament=report.manifest["tournament_id"],
                       db=shown(args.db)))
    print(f"paiju: {done}")
    return 0
