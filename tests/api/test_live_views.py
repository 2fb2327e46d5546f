"""A table's tablets on their match view stream (issue 39's bad input): a tablet that comes back
with a stale or foreign ``Last-Event-ID`` is shown the table as it stands, and a tablet that
stops reading is dropped with ``event: overflow`` while the appends and the other tablets of
the same seat go on, each view as the match read shows it at that position."""
from __future__ import annotations

import pytest
from clients import bearer, token_for
from sj2_table import Table
from sse import frames, take

from service import visibility
from service.visibility import match_read


@pytest.fixture
def app(app):
    app.config["LIVE_HEARTBEAT_SECONDS"] = 0.2
    app.config["LIVE_TOKEN_RECHECK_SECONDS"] = 0.1
    return app


def stream(client, path: str, headers: dict):
    response = client.get(path, headers=headers, buffered=False)
    assert response.status_code == 200, response.get_data()
    return frames(response.response), response


def pause_and_resume(client, table: Table, n: int) -> dict:
    kind, data = ("MatchClockPaused", {"reason": f"pause {n}"}) if n % 2 == 0 else \
        ("MatchClockResumed", {})
    answer = client.post(f"/v1/tournaments/{table.tid}/events",
                         json={"type": kind, "stream": table.stream, "data": data})
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


@pytest.mark.parametrize("last_event_id", ["1", "999999999"], ids=["stale", "foreign"])
def test_a_tablet_that_reconnects_with_an_old_or_foreign_id_gets_the_view_as_it_stands(
        client, app, last_event_id):
    table = Table(client)
    table.to_play({0: "2S"}, card="2S")
    seat2 = bearer(token_for(app, "player", table.tid, "R1-1", 2))
    path = f"/v1/tournaments/{table.tid}/matches/R1-1"
    received, response = stream(app.test_client(), f"{path}/subscribe",
                                {**seat2, "Last-Event-ID": last_event_id})
    (first,) = take(received, 1)
    now = client.get(path, headers=seat2).get_json()
    assert first.event == "view" and first.data == now
    assert first.id >= now["position"]
    moved = pause_and_resume(client, table, 0)
    (after,) = take(received, 1)
    assert (after.id, after.data) == (moved["position"],
                                      client.get(path, headers=seat2).get_json())
    response.close()


def test_a_tablet_that_stops_reading_is_dropped_and_the_others_get_every_view(client, app,
                                                                            monkeypatch):
    """Both tablets follow seat 1: each view is made once for the two (counted)."""
    made = []
    monkeypatch.setattr(visibility, "match_read",
                        lambda folded, seen: made.append(folded.position) or
                        match_read(folded, seen))
    app.extensions["paiju"].hub.capacity = 3
    table = Table(client)
    table.deal()
    seat1 = bearer(token_for(app, "player", table.tid, "R1-1", 1))
    path = f"/v1/tournaments/{table.tid}/matches/R1-1"
    reading, kept = stream(app.test_client(), f"{path}/subscribe", seat1)
    stopped, dropped = stream(app.test_client(), f"{path}/subscribe", seat1)
    take(reading, 1), take(stopped, 1)  # each has its opening view; then one stops reading
    seen = []
    for n in range(8):  # the buffer holds 3: the 4th event overflows it, appends never wait
        moved = pause_and_resume(client, table, n)
        (frame,) = take(reading, 1)
        assert frame.id == moved["position"]
        seen.append(frame)
    for frame in seen:  # each view as the match read shows that seat at its position
        assert frame.data == client.get(f"{path}?at={frame.id}", headers=seat1).get_json()
    assert made == [f.id for f in seen]  # once an event for the class, however many follow
    rest = list(stopped)
    assert [f.event for f in rest] == ["view"] * 3 + ["overflow"]
    assert [f.data for f in rest[:3]] == [f.data for f in seen[:3]]
    assert rest[-1].data["last_event_id"] == seen[2].id
    kept.close(), dropped.close()
