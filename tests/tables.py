"""What every game's test table shares: the server's clock moved by the test, and the check
that a request succeeded."""
from __future__ import annotations

from datetime import datetime, timezone

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
