"""The rule committee's desk over the HTTP API, for tests (issue 9): raise a dispute, preview a
ruling, record it, resolve the dispute — and the checks every scripted dispute makes: the preview
is the state after recording, the stored events and the export are untouched, and a rebuild from
the log reads byte for byte what the live server reads.

    desk = Desk(client, tid)
    desk.raise_dispute("d1", match_id="R1-1", hand=1, positions=[13], claim="…")
    preview = desk.preview(stream, ruling)       # nothing appended
    recorded = desk.rule(stream, ruling)         # the RulingRecorded envelope
    desk.resolve("d1", recorded["id"], "…")
    desk.assert_preview_is_the_state_after(preview)
    desk.assert_rebuild_reads_as_live()          # a new server on the same log reads the same
"""
from __future__ import annotations

import json

from checkpoint_checks import assert_every_position_reads_as_a_full_fold
from clients import admin_client, hand_results
from tables import ok

from events.catalogue import match_stream_prefix, tournament_stream
from events.sqlite_store import SQLiteEventStore
from projections.matches import load_match
from service import create_app

# the tournament-wide reads of each format (a read the format has not answers 404)
FORMAT_READS = ("bracket", "groups", "rounds", "standings")


class Desk:
    def __init__(self, client, tid: str):
        self.client, self.tid = client, tid
        self._previewed: list[tuple[dict, dict, dict]] = []  # (preview, live reads, headers)

    @property
    def services(self):
        return self.client.application.extensions["paiju"]

    # --- the committee's file ------------------------------------------------------------------
    def post(self, event_type: str, stream: str, data: dict, headers: dict | None = None):
        return self.client.post(f"/v1/tournaments/{self.tid}/events", headers=headers or {},
                                json={"type": event_type, "stream": stream, "data": data})

    def raise_dispute(self, dispute_id: str, claim: str, **about) -> dict:
        return ok(self.post("DisputeRaised", tournament_stream(self.tid),
                            {"dispute_id": dispute_id, "claim": claim, **about}))

    def preview(self, stream: str, data: dict, headers: dict | None = None) -> dict:
        """The preview of a ruling (checked to append nothing); the live reads it may report
        are kept, read as the preview is, for :meth:`assert_preview_is_the_state_after`."""
        before = self.log()
        live = self.reads(self.match_of(stream), headers)
        response = self.client.post(f"/v1/tournaments/{self.tid}/rulings/preview",
                                    headers=headers or {}, json={"stream": stream, "data": data})
        assert response.status_code == 200, response.json
        assert self.log() == before, "a preview appends nothing"
        shown = response.json
        self._previewed.append((shown, live, headers or {}))
        return shown

    def rule(self, stream: str, data: dict) -> dict:
        return ok(self.post("RulingRecorded", stream, data))

    def resolve(self, dispute_id: str, ruling_id: str | None, text: str) -> dict:
        data = {"dispute_id": dispute_id, "text": text}
        data.update({"ruling_event_id": ruling_id} if ruling_id else {"noChange": True})
        return ok(self.post("DisputeResolved", tournament_stream(self.tid), data))

    def refused(self, event_type: str, stream: str, data: dict, status: int,
                rule: str | None = None, headers: dict | None = None) -> dict:
        """Posts an event that must be refused (and its preview, for a ruling, the same way);
        checks that nothing was stored."""
        before = self.log()
        response = self.post(event_type, stream, data, headers)
        assert response.status_code == status, response.json
        assert response.mimetype == "application/problem+json"
        if rule is not None:
            assert response.json["rule"] == rule, response.json
        if event_type == "RulingRecorded":
            previewed = self.client.post(f"/v1/tournaments/{self.tid}/rulings/preview",
                                         headers=headers or {},
                                         json={"stream": stream, "data": data})
            assert previewed.status_code == status, previewed.json
            assert previewed.json.get("rule") == response.json.get("rule")
        assert self.log() == before
        return response.json

    # --- reads -----------------------------------------------------------------------------------
    def log(self) -> list[dict]:
        return ok(self.client.get(f"/v1/tournaments/{self.tid}/events?limit=1000"))["events"]

    def export(self) -> list[str]:
        """The export's event lines (the manifest, which names the export time, left out)."""
        response = self.client.get(f"/v1/tournaments/{self.tid}/export?format=jsonl")
        assert response.status_code == 200
        lines = response.get_data(as_text=True).splitlines()
        return [line for line in lines if "manifest" not in json.loads(line)]

    def disputes(self) -> list[dict]:
        return ok(self.client.get(f"/v1/tournaments/{self.tid}/disputes"))["disputes"]

    def rulings(self, match_id: str | None = None) -> list[dict]:
        query = f"?match={match_id}" if match_id else ""
        return ok(self.client.get(f"/v1/tournaments/{self.tid}/rulings{query}"))["rulings"]

    def read(self, projection: dict, headers: dict | None = None) -> dict | None:
        """The live read of one projection a preview names (None: not found)."""
        base = f"/v1/tournaments/{self.tid}"
        name = projection["projection"]
        path = {"match": f"{base}/matches/{projection.get('match_id')}",
                "hand": f"{base}/matches/{projection.get('match_id')}/hands/"
                        f"{projection.get('hand')}",
                "tournament": base}.get(name, f"{base}/{name}")
        response = self.client.get(path, headers=headers or {})
        if response.status_code == 404:
            return None
        if name != "match":
            return ok(response)
        # the committee's "match" is the match read with the result row of every hand, which
        # the read pages at its ``hand_results``
        match = ok(response)
        del match["hand_results"]
        return {**match, "history": hand_results(self.client, self.tid,
                                                 projection["match_id"], headers=headers)}

    def match_of(self, stream: str) -> str | None:
        """The match id of a match stream of this tournament (None: the tournament's stream)."""
        prefix = match_stream_prefix(self.tid)
        return stream[len(prefix):] if stream.startswith(prefix) else None

    def reads(self, match_id: str | None, headers: dict | None = None) -> dict[tuple, object]:
        """Every live read a preview may report, by (projection, match id, hand): the
        tournament and its format's reads, and — for a match — the match and each of its hands
        dealt (None: not found)."""
        found = {}
        for name in ("tournament", *FORMAT_READS):
            found[(name, None, None)] = self.read({"projection": name}, headers)
        if match_id is not None:
            found[("match", match_id, None)] = self.read(
                {"projection": "match", "match_id": match_id}, headers)
            number = 1
            while (hand := self.read({"projection": "hand", "match_id": match_id,
                                      "hand": number}, headers)) is not None:
                found[("hand", match_id, number)] = hand
                number += 1
        return found

    def ruled_state(self, match_id: str):
        """The match as the server folds it, rulings included."""
        s = self.services
        return load_match(s.store, s.catalogue, self.tid, match_id).state

    # --- what every scripted dispute checks -----------------------------------------------------
    def assert_preview_is_the_state_after(self, preview: dict, ignore: tuple[str, ...] = ()):
        """Now that the ruling is recorded, every projection the preview reports reads
        exactly as the preview said it would: each it shows changed as its ``after``, each it
        names unchanged as it read before the preview — and so does every hand of the match
        ruled on (dealt before, or after the ruling), none missing, none added. But for the
        members named by ``ignore`` (JSON Pointers), which hold the recorded time of the
        ruling itself."""
        assert preview["projections"], "the preview shows what changes"
        made = [(live, headers) for shown, live, headers in self._previewed if shown is preview]
        assert made, "a preview not previewed by this desk: what it read before is unknown"
        (before, headers), = made
        expected = {(p["projection"], p.get("match_id"), p.get("hand")): p["after"]
                    for p in preview["projections"]}
        for name in preview["unchanged"]:
            key = next((k for k in before if k[0] == name), None)
            assert key is not None, f"the preview names {name}, which the desk did not read"
            assert key not in expected, f"{name} is reported both changed and unchanged"
            expected[key] = before[key]
        match_id = self.match_of(preview["stream"])
        now = self.reads(match_id, headers)
        hands = {k for k in (*before, *expected, *now) if k[0] == "hand"}
        for key in hands:
            expected.setdefault(key, before.get(key))   # a hand the preview shows unchanged
        assert {k[0] for k in expected} >= {"tournament"} | ({"match"} if match_id else set())
        for key, after in sorted(expected.items(), key=repr):
            live = now.get(key)  # not read now: a hand no longer dealt
            assert _without(live, ignore) == _without(after, ignore), key

    def assert_history_untouched(self, log_before: list[dict], export_before: list[str]) -> None:
        """The events stored before the ruling are as they were, in the log and in the export:
        a ruling adds events, it never edits one."""
        log_after = self.log()
        assert log_after[:len(log_before)] == log_before
        export_after = self.export()
        assert export_after[:len(export_before)] == export_before

    def assert_rebuild_reads_as_live(self, extra: tuple[str, ...] = ()) -> None:
        """A new server on the same log — no cache: every stream folded from the log again,
        rulings included — answers every read of the tournament byte for byte as the live
        server does (:meth:`every_read`, and ``extra`` paths), as an official and as the
        public sees it."""
        paths = self.every_read() + list(extra)
        public = self.client.application.test_client()
        live = {}
        for who, client in (("admin", self.client), ("public", public)):
            for path in paths:
                response = client.get(path)
                live[(who, path)] = (response.status_code, response.get_data())
        store = self.services.store
        fresh_store = SQLiteEventStore(store.path) if isinstance(store, SQLiteEventStore) \
            else store  # the memory store: the log itself; the new app brings a new cache
        # and through the live server's checkpoints, taken before and after the rulings
        assert_every_position_reads_as_a_full_fold(store, self.services.cache)
        try:
            app = create_app(store=fresh_store, signer=self.services.signer)
            clients = {"admin": admin_client(app), "public": app.test_client()}
            for (who, path), (status, body) in live.items():
                response = clients[who].get(path)
                assert response.status_code == status, (who, path, response.json)
                assert response.get_data() == body, (who, path)
        finally:
            if fresh_store is not store:
                fresh_store.close()

    def every_read(self) -> list[str]:
        """The reads a rebuild must answer as the live server does: the tournament, its
        format's reads, its matches, each match and each hand dealt, the rulings and the
        disputes — now, and around every ruling (just before it and at it), with the
        difference it made to its match. A match's clock is left out: it is read against
        the present."""
        base = f"/v1/tournaments/{self.tid}"
        formats = [f"{base}/{name}" for name in FORMAT_READS
                   if self.client.get(f"{base}/{name}").status_code == 200]
        paths = [base, *formats, f"{base}/matches", f"{base}/rulings", f"{base}/disputes"]
        matches = [self.match_of(m["stream"])
                   for m in ok(self.client.get(f"{base}/matches"))["matches"]]
        for mid in matches:
            paths += [f"{base}/matches/{mid}", f"{base}/rulings?match={mid}",
                      *self._hand_paths(mid)]
        for ruling in self.rulings():
            at = ruling["position"]
            paths += [f"{base}/rulings?at={at}", f"{base}/disputes?at={at}",
                      *(f"{p}?at={when}" for p in formats for when in (at - 1, at))]
            if ruling["match_id"] is not None:
                mid = ruling["match_id"]
                paths += [f"{base}/matches/{mid}?at={at - 1}", f"{base}/matches/{mid}?at={at}",
                          f"{base}/matches/{mid}/diff?from={at - 1}&to={at}",
                          *self._hand_paths(mid, at)]
        return paths

    def _hand_paths(self, match_id: str, at: int | None = None) -> list[str]:
        """The hands of a match dealt (as of ``at``), as an official reads them."""
        base = f"/v1/tournaments/{self.tid}/matches/{match_id}/hands"
        query = "" if at is None else f"?at={at}"
        paths, number = [], 1
        while self.client.get(f"{base}/{number}{query}").status_code == 200:
            paths.append(f"{base}/{number}{query}")
            number += 1
        return paths


def _without(view: dict | None, pointers: tuple[str, ...]) -> dict | None:
    view = json.loads(json.dumps(view))
    for pointer in pointers:
        *parents, last = pointer.strip("/").split("/")
        node = view
        for key in parents:
            node = node.get(key) if isinstance(node, dict) else None
            if node is None:
                break
        if isinstance(node, dict):
            node.pop(last, None)
    return view


def changes_of(preview: dict, projection: str, hand: int | None = None) -> dict[str, tuple]:
    """path -> (before, after) of one projection in a preview (or a diff body)."""
    found = next((p for p in preview["projections"] if p["projection"] == projection
                  and (hand is None or p.get("hand") == hand)), None)
    assert found is not None, f"the preview shows no change of {projection} {hand or ''}"
    return {c["path"]: (c.get("before"), c.get("after")) for c in found["changes"]}
