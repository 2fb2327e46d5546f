"""The rule committee's desk over the HTTP API, for tests (issue 9): raise a dispute, preview a
ruling, record it, resolve the dispute — and the checks every scripted dispute makes: the preview
is the state after recording, the stored events and the export are untouched, and a rebuild from
the log reads byte for byte what the live server reads.

    desk = Desk(client, tid)
    desk.raise_dispute("d1", match_id="R1-1", hand=1, positions=[13], claim="…")
    preview = desk.preview(stream, ruling)       # nothing appended
    recorded = desk.rule(stream, ruling)         # the RulingRecorded envelope
    desk.resolve("d1", recorded["id"], "…")
    desk.assert_preview_is_the_state_after(preview, mid)
"""
from __future__ import annotations

import json

from tables import ok

from events.catalogue import tournament_stream
from projections.matches import load_match


class Desk:
    def __init__(self, client, tid: str):
        self.client, self.tid = client, tid

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
        before = self.log()
        response = self.client.post(f"/v1/tournaments/{self.tid}/rulings/preview",
                                    headers=headers or {}, json={"stream": stream, "data": data})
        assert response.status_code == 200, response.json
        assert self.log() == before, "a preview appends nothing"
        return response.json

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

    def read(self, projection: dict) -> dict | None:
        """The live read of one projection a preview names (None: not found)."""
        base = f"/v1/tournaments/{self.tid}"
        name = projection["projection"]
        path = {"match": f"{base}/matches/{projection.get('match_id')}",
                "hand": f"{base}/matches/{projection.get('match_id')}/hands/"
                        f"{projection.get('hand')}",
                "tournament": base}.get(name, f"{base}/{name}")
        response = self.client.get(path)
        if response.status_code == 404:
            return None
        return ok(response)

    def ruled_state(self, match_id: str):
        """The match as the server folds it, rulings included."""
        s = self.services
        return load_match(s.store, s.catalogue, self.tid, match_id).state

    # --- what every scripted dispute checks -----------------------------------------------------
    def assert_preview_is_the_state_after(self, preview: dict, ignore: tuple[str, ...] = ()):
        """Every projection the preview shows changed reads, now that the ruling is recorded,
        exactly as the preview's ``after`` — but for the members named by ``ignore`` (JSON
        Pointers), which hold the recorded time of the ruling itself."""
        assert preview["projections"], "the preview shows what changes"
        for projection in preview["projections"]:
            live = _without(self.read(projection), ignore)
            assert live == _without(projection["after"], ignore), projection["projection"]

    def assert_history_untouched(self, log_before: list[dict], export_before: list[str]) -> None:
        """The events stored before the ruling are as they were, in the log and in the export:
        a ruling adds events, it never edits one."""
        log_after = self.log()
        assert log_after[:len(log_before)] == log_before
        export_after = self.export()
        assert export_after[:len(export_before)] == export_before


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
