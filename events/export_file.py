"""The auditor's export file: a tournament's log, line for line, closed by a signed manifest.

    jsonl   one event per line (the canonical JSON of its whole envelope, hash included), then
            the manifest line ``{"manifest": {...}, "signature": {...}}``
    csv     the header row and one row per event (``data`` and ``meta`` as their canonical JSON
            text), then the manifest line prefixed with ``#paiju-manifest ``

The manifest comes last so that the export streams in one pass over the log. It names the
tournament, the number of events, the first and last position, the chain's final hash, the
export time and the software version, and is signed with the deployment's Ed25519 key (the
signature covers the canonical JSON of the manifest).

:func:`verify_export` needs nothing but the file and the public key: no database, no server.
It rebuilds every event from its line, checks that the line is exactly that event's canonical
form (one changed byte anywhere is found), walks the hash chain, and checks the manifest and its
signature; each fault is reported with the first position at fault.
"""
from __future__ import annotations

import base64
import csv
import hashlib
import io
import json
from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from .envelope import GENESIS_HASH, Record, canonical_json, record_hash

FORMATS = ("jsonl", "csv")
MANIFEST_PREFIX = "#paiju-manifest "  # the csv form's manifest line
COLUMNS = Record._fields


@dataclass(frozen=True)
class Signature:
    algorithm: str  # "Ed25519"
    key_id: str     # the first 16 hex digits of the SHA-256 of the raw public key
    value: str      # base64 of the 64-byte signature

    def to_dict(self) -> dict:
        return {"algorithm": self.algorithm, "key_id": self.key_id, "value": self.value}


Sign = Callable[[bytes], Signature]


def manifest_bytes(manifest: dict) -> bytes:
    """What the signature covers."""
    return canonical_json(manifest).encode("utf-8")


# --- writing -------------------------------------------------------------------------------

def export_lines(records: Iterable[Record], fmt: str, tournament_id: str, exported_at: str,
                 software_version: str, sign: Sign) -> Iterator[str]:
    """The lines of the export file (each ending in a newline), streamed."""
    if fmt not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}")
    count, first, last = 0, None, None
    if fmt == "csv":
        yield _csv_row(COLUMNS)
    for record in records:
        count, last = count + 1, record
        first = first or record
        yield record.to_json_line() + "\n" if fmt == "jsonl" else _csv_row(record)
    manifest = {
        "tournament_id": tournament_id, "format": fmt, "event_count": count,
        "first_position": first.position if first else None,
        "last_position": last.position if last else None,
        "last_hash": last.hash if last else GENESIS_HASH,
        "exported_at": exported_at, "software_version": software_version,
    }
    line = canonical_json({"manifest": manifest, "signature": sign(manifest_bytes(manifest))
                          .to_dict()})
    yield (line if fmt == "jsonl" else MANIFEST_PREFIX + line) + "\n"


def _csv_row(values: Iterable) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerow(values)
    return out.getvalue()


# --- reading and verifying ------------------------------------------------------------------

@dataclass
class Fault:
    line: int                 # 1-based line of the file
    position: int | None      # the first event position at fault, where there is one
    problem: str

    def __str__(self) -> str:
        where = f"position {self.position}" if self.position is not None else "no position"
        return f"line {self.line} ({where}): {self.problem}"


@dataclass
class ExportReport:
    ok: bool
    format: str | None
    manifest: dict | None
    events: int
    faults: list[Fault] = field(default_factory=list)
    signature_checked: bool = False

    @property
    def first_fault(self) -> Fault | None:
        return self.faults[0] if self.faults else None


MANIFEST_KEYS = ("tournament_id", "format", "event_count", "first_position", "last_position",
                 "last_hash", "exported_at", "software_version")
SIGNATURE_KEYS = ("algorithm", "key_id", "value")
_INT_FIELDS = ("position", "version", "schema_version")


def verify_export(lines: Iterable[str], public_key: Ed25519PublicKey | None,
                  progress: Callable[[int], None] | None = None) -> ExportReport:
    """Check an export file line by line, keeping only the chain's state (a long export is
    verified in bounded memory): every event line byte for byte, the chain, then the manifest
    line byte for byte, its fields, and its signature by ``public_key``.

    Without a public key the signature is left unchecked (``signature_checked`` False): the
    auditor's verification always names the key; an import may be told to go without."""
    faults: list[Fault] = []
    chain, fmt, manifest, manifest_line = _ChainWalk(), None, None, None
    for number, line in enumerate(lines, 1):
        if number == 1:
            fmt = "jsonl" if line.startswith("{") else "csv"
            if fmt == "csv":
                if line != _csv_row(COLUMNS):
                    faults.append(Fault(1, None, "the header row was changed"))
                continue
        text = line.removesuffix("\n")
        if text == line:
            faults.append(Fault(number, None, "the line does not end in a newline: the file was "
                                              "cut short or edited"))
        if manifest_line is not None:
            faults.append(Fault(number, None, "a line after the manifest"))
        elif _is_manifest(text, fmt):
            manifest_line = number
            manifest, problem = _parse_manifest(text, fmt, public_key)
            if problem:
                faults.append(Fault(number, chain.next_position_hint, problem))
        else:
            faults += chain.line(number, text, fmt)
            if progress and chain.count % 10_000 == 0:
                progress(chain.count)
    if fmt is None:
        faults.append(Fault(1, None, "the file is empty"))
    elif manifest_line is None:
        faults.append(Fault(number, chain.next_position_hint, "no manifest line: the file is cut "
                                                              "short or not a paiju export"))
    elif manifest is not None:
        faults += _manifest_faults(manifest, chain, fmt, manifest_line)
    faults.sort(key=lambda f: f.line)
    return ExportReport(not faults, fmt, manifest, chain.count, faults, public_key is not None)


def event_records(lines: Iterable[str]) -> Iterator[Record]:
    """The events of an export file already verified (for an import), one at a time."""
    fmt = None
    for number, line in enumerate(lines, 1):
        if number == 1:
            fmt = "jsonl" if line.startswith("{") else "csv"
            if fmt == "csv":
                continue
        text = line.removesuffix("\n")
        if _is_manifest(text, fmt):
            return
        record, problem = _parse(text, fmt)
        if record is None or problem:
            raise ExportError(f"line {number}: {problem}")
        yield record


class ExportError(ValueError):
    """A line of a file that was to be verified already is not a sound event line."""


def _is_manifest(text: str, fmt: str) -> bool:
    return text.startswith(MANIFEST_PREFIX) if fmt == "csv" else text.startswith('{"manifest":')


def _parse(text: str, fmt: str) -> tuple[Record | None, str]:
    """The event a line holds and "", or why the line is not exactly the canonical form of an
    event (the record, where one could be read, or None)."""
    try:
        if fmt == "jsonl":
            raw = json.loads(text)
            if not isinstance(raw, dict) or set(raw) != set(COLUMNS):
                return None, "not an event line: its members are not those of an envelope"
            record = Record(**{**raw, "data": canonical_json(raw["data"]),
                               "meta": canonical_json(raw["meta"])})
        else:
            values = next(csv.reader([text]))
            record = Record(*values)._replace(**{f: int(values[COLUMNS.index(f)])
                                                 for f in _INT_FIELDS})
    except (ValueError, TypeError, KeyError, StopIteration) as error:
        return None, f"not an event line: {error}"
    if not _well_typed(record):
        return None, "not an event line: a member has the wrong type"
    canonical = record.to_json_line() if fmt == "jsonl" else _csv_row(record).rstrip("\n")
    if canonical != text:
        return record, "the line is not the canonical form of its event (it was edited)"
    return record, ""


def _well_typed(r: Record) -> bool:
    return all(type(getattr(r, f)) is int for f in _INT_FIELDS) and all(
        isinstance(getattr(r, f), str) for f in COLUMNS if f not in _INT_FIELDS)


class _ChainWalk:
    """The hash chain of one tournament, walked event by event."""

    def __init__(self):
        self.prev_hash, self.count, self.first, self.last = GENESIS_HASH, 0, None, None
        self.versions: dict[str, int] = {}
        self.tournaments: set[str] = set()

    @property
    def next_position_hint(self) -> int | None:
        return self.last.position + 1 if self.last else None

    def line(self, number: int, text: str, fmt: str) -> list[Fault]:
        record, problem = _parse(text, fmt)
        if record is None:
            return [Fault(number, self.next_position_hint, problem)]
        faults = [Fault(number, record.position, problem)] if problem else []
        if (chain_problem := self.step(record)) is not None:
            faults.append(Fault(number, record.position, chain_problem))
        return faults

    def step(self, r: Record) -> str | None:
        problem = None
        if self.last is not None and r.position <= self.last.position:
            problem = f"position {r.position} does not follow {self.last.position}: lines out of order"
        elif r.prev_hash != self.prev_hash:
            problem = ("prev_hash does not match the previous line's hash: a line is missing "
                       "or out of order before it")
        elif record_hash(r) != r.hash:
            problem = "hash does not match the event's content"
        elif r.version != self.versions.get(r.stream, 0) + 1:
            problem = (f"stream {r.stream!r} version {r.version} does not follow "
                       f"{self.versions.get(r.stream, 0)}")
        self.prev_hash, self.count = r.hash, self.count + 1
        self.first = self.first or r
        self.last = r
        self.versions[r.stream] = r.version
        self.tournaments.add(r.tournament_id)
        return problem


def _parse_manifest(text: str, fmt: str, public_key: Ed25519PublicKey | None
                    ) -> tuple[dict | None, str | None]:
    """The manifest of the manifest line, and what is wrong with the line, if anything: it
    must be exactly the canonical line the exporter wrote, with exactly its members, signed by
    ``public_key`` (when given)."""
    body = text.removeprefix(MANIFEST_PREFIX) if fmt == "csv" else text
    try:
        envelope = json.loads(body)
    except json.JSONDecodeError as error:
        return None, f"the manifest line is not JSON: {error}"
    if not isinstance(envelope, dict) or set(envelope) != {"manifest", "signature"}:
        return None, "the manifest line must hold exactly a manifest and its signature"
    manifest, signature = envelope["manifest"], envelope["signature"]
    if not isinstance(manifest, dict) or set(manifest) != set(MANIFEST_KEYS) or \
            not isinstance(signature, dict) or set(signature) != set(SIGNATURE_KEYS) or \
            not all(isinstance(v, str) for v in signature.values()):
        return None, "the manifest or its signature does not have the members an export writes"
    if canonical_json(envelope) != body:
        return manifest, "the manifest line is not in its canonical form (it was edited)"
    if public_key is not None:
        return manifest, _signature_problem(manifest, signature, public_key)
    return manifest, None


def _manifest_faults(manifest: dict, chain: _ChainWalk, fmt: str, line: int) -> list[Fault]:
    faults = []
    expected = {
        "format": fmt, "event_count": chain.count,
        "first_position": chain.first.position if chain.first else None,
        "last_position": chain.last.position if chain.last else None,
        "last_hash": chain.prev_hash if chain.last else GENESIS_HASH,
    }
    for key, value in expected.items():
        if manifest.get(key) != value:
            at = chain.next_position_hint if key in ("event_count", "last_position",
                                                     "last_hash") else None
            faults.append(Fault(line, at, f"the manifest says {key} {manifest.get(key)!r}, "
                                          f"the file has {value!r}"))
    others = sorted(t for t in chain.tournaments if t != manifest.get("tournament_id"))
    if others:
        faults.append(Fault(line, None, f"events of another tournament: {others}"))
    return faults


def public_key_id(public_key: Ed25519PublicKey) -> str:
    """The first 16 hex digits of the SHA-256 of the raw public key."""
    raw = public_key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return hashlib.sha256(raw).hexdigest()[:16]


def _signature_problem(manifest: dict, signature: dict,
                       public_key: Ed25519PublicKey) -> str | None:
    if signature["algorithm"] != "Ed25519":
        return "the manifest carries no Ed25519 signature"
    if signature["key_id"] != public_key_id(public_key):
        return (f"the manifest names key {signature['key_id']}, not the key given "
                f"({public_key_id(public_key)})")
    try:
        raw = base64.b64decode(signature["value"], validate=True)
        if base64.b64encode(raw).decode() != signature["value"]:
            raise ValueError("not the canonical base64 of the signature")
        public_key.verify(raw, manifest_bytes(manifest))
    except (InvalidSignature, ValueError):
        return ("bad signature: the manifest was not signed by this key, or was changed "
                "after signing")
    return None
