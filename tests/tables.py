"""What every game's test table shares: the server's clock moved by the test, the check that a
request succeeded, and a match played through the HTTP API (:class:`ApiTable`)."""
from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timezone

from clients import hand_results
from rules import matches
from service.simulator.runner import SimulatedClock


class Clock(SimulatedClock):
    """The server's clock in a test: each recorded event a millisecond after the one before;
    ``advance`` lets a time limit pass (limits are measured on recorded times)."""

    def __init__(self, start: datetime = datetime(2006, 12, 23, 9, 30, tzinfo=timezone.utc)):
        super().__init__(0.001, start)


def ok(response) -> dict:
    assert response.status_code in (200, 201), response.json
    return response.json


def two_team_knockout(client, tid: str, game: str, match_settings: dict | None = None,
                      cards: dict | None = None) -> None:
    """A knockout of two teams, east and west, and its round 1 drawn (with ``cards`` when the
    draw is by matching playing cards, T-5.5): match R1-1, east = side A, not yet started."""
    ok(client.post("/v1/tournaments", json={
        "tournament_id": tid, "name": f"{game} test", "game": game, "format": "knockout",
        "settings": {"match": match_settings or {}}}))
    for team, players in (("east", ["甲", "乙"]), ("west", ["丙", "丁"])):
        ok(client.post(f"/v1/tournaments/{tid}/events", json={
            "type": "TeamRegistered", "stream": f"tournament-{tid}",
            "data": {"team_id": team, "name": team, "players": players}}))
    draw = {"purpose": "pairing", "round": 1, "byes": [],
            "matches": [{"match_id": "R1-1", "teams": ["east", "west"]}]}
    ok(client.post(f"/v1/tournaments/{tid}/events", json={
        "type": "LotsDrawn", "stream": f"tournament-{tid}",
        "data": {**draw, **({"cards": cards} if cards else {})}}))


class ApiTable:
    """One match of a test tournament, played through the HTTP API: events posted to its stream
    (of the hand in play, except the types in ``NO_HAND``), refusals checked, the match and its
    hands read, and the match folded here from its stream. A game's table sets ``client``,
    ``tid``, ``mid``, ``stream`` and ``hand`` when it starts its match."""

    NO_HAND: tuple[str, ...] = ()

    # --- posting ---------------------------------------------------------------------------
    def body(self, event_type: str, /, hand: int | None = None, **data) -> dict:
        if event_type not in self.NO_HAND:
            data = {"hand": self.hand if hand is None else hand, **data}
        return {"type": event_type, "stream": self.stream, "data": data}

    def post(self, event_type: str, /, hand: int | None = None, **data):
        return self.client.post(f"/v1/tournaments/{self.tid}/events",
                                json=self.body(event_type, hand, **data))

    def ok(self, event_type: str, /, **data) -> dict:
        return ok(self.post(event_type, **data))

    def batch(self, events: Iterable[tuple[str, dict]]) -> list[dict]:
        """Posts ``events`` (type, data) as one batch; the stored envelopes."""
        body = {"events": [self.body(t, **d) for t, d in events]}
        if not body["events"]:
            return []
        return ok(self.client.post(f"/v1/tournaments/{self.tid}/events", json=body))["events"]

    def rejected(self, event_type: str, rule: str, /, **data) -> dict:
        """Posts an event that must be refused with 422 naming ``rule``; checks that nothing
        was stored."""
        before = self.events()
        response = self.post(event_type, **data)
        assert response.status_code == 422, response.json
        assert response.headers["Content-Type"] == "application/problem+json"
        assert response.json["rule"] == rule, response.json
        assert response.json["detail"].startswith(f"{rule}: ")
        assert self.events() == before
        return response.json

    def bad(self, event_type: str, /, **data) -> dict:
        """Posts an event whose data the schema refuses: 400, nothing stored."""
        before = self.events()
        response = self.post(event_type, **data)
        assert response.status_code == 400, response.json
        assert self.events() == before
        return response.json

    def events(self) -> int:
        return len(self.client.get(f"/v1/tournaments/{self.tid}/events?limit=1000").json["events"])

    # --- reading -----------------------------------------------------------------------------
    def match(self, view: str = "referee", at: int | None = None) -> dict:
        query = f"?as={view}" + (f"&at={at}" if at is not None else "")
        return ok(self.client.get(f"/v1/tournaments/{self.tid}/matches/{self.mid}{query}"))

    def results(self, at: int | None = None) -> list[dict]:
        """The result row of every finished hand (the paged ``GET …/hands``)."""
        return hand_results(self.client, self.tid, self.mid, at)

    def hand_view(self, n: int | None = None, view: str = "referee", at: int | None = None) -> dict:
        query = f"?as={view}" + (f"&at={at}" if at is not None else "")
        return ok(self.client.get(
            f"/v1/tournaments/{self.tid}/matches/{self.mid}/hands/{n or self.hand}{query}"))

    def held(self, seat: int) -> list[str]:
        return self.hand_view()["seats"][seat]["cards"]

    def state(self):
        """The match folded here from its stream, with the rules the server uses (only the
        events since the last call are read: a folded match is a frozen value)."""
        stream, m, version = getattr(self, "_folded", (self.stream, None, 0))
        if stream != self.stream:
            m, version = None, 0
        while True:
            page = ok(self.client.get(f"/v1/tournaments/{self.tid}/streams/{self.stream}"
                                      f"?from_version={version + 1}&limit=1000"))
            for e in page["events"]:
                m = matches.apply(m, e["type"], e["data"], e["recorded_at"])
                version = e["version"]
            if not page["next"]:
                self._folded = (self.stream, m, version)
                return m
