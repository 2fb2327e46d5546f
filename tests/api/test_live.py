"""Live subscriptions through the app (issue 18): the log after a position, filtered, as each
token may see it — compared event by event with the reads — and the bad input of the issue.
The same streams over real HTTP, across a restart and across nodes: tests/test_live_processes.py."""
from __future__ import annotations

import json
import random

import pytest
from clients import bearer, client_as, token_for
from sj2_table import Table
from sse import frames, take

from events.envelope import Record
from service.permissions import PUBLIC_EVENTS
from service.visibility import Reader


@pytest.fixture
def app(app):
    app.config["LIVE_HEARTBEAT_SECONDS"] = 0.2
    app.config["LIVE_TOKEN_RECHECK_SECONDS"] = 0.1
    return app


def stream(client, path: str, headers: dict | None = None):
    response = client.get(path, headers=headers or {}, buffered=False)
    assert response.status_code == 200, response.get_data()
    assert response.mimetype == "text/event-stream"
    return frames(response.response), response


def played_hand(client) -> Table:
    """An SJ2 hand of R1-1 dealt, declared and a few cards into its play."""
    table = Table(client)
    table.to_play({0: "2S"}, card="2S")
    rng = random.Random(3)
    for _ in range(6):
        table.play_legal(rng)
    return table


def last_position(client, tid: str) -> int:
    return client.get(f"/v1/tournaments/{tid}/events?limit=1000").get_json()["events"][-1][
        "position"]


def test_the_log_after_a_position_then_each_new_event_in_order(client):
    table = Table(client)
    tid = table.tid
    log = client.get(f"/v1/tournaments/{tid}/events").get_json()["events"]
    received, response = stream(client, f"/v1/tournaments/{tid}/subscribe?after=2")
    caught_up = take(received, len(log) - 2)
    assert [f.id for f in caught_up] == [e["position"] for e in log[2:]]
    assert [f.data for f in caught_up] == log[2:]  # an official gets the envelopes as stored
    dealt = table.deal()
    (new,) = take(received, 1)
    assert (new.id, new.data["id"], new.data["type"]) == (dealt["position"], dealt["id"],
                                                          "HandDealt")
    response.close()


def test_last_event_id_wins_over_after_and_nothing_is_repeated(client):
    table = Table(client)
    head = last_position(client, table.tid)
    received, response = stream(client, f"/v1/tournaments/{table.tid}/subscribe?after=1",
                                {"Last-Event-ID": str(head - 1)})
    (only,) = take(received, 1)
    assert only.id == head
    table.deal()
    assert take(received, 1)[0].id == head + 1
    response.close()


def test_an_idle_subscription_is_kept_open_by_heartbeats(client):
    table = Table(client)
    response = client.get(f"/v1/tournaments/{table.tid}/subscribe?type=ResultRecorded",
                          buffered=False)
    chunks = iter(response.response)
    opening, *beats = [next(chunks) for _ in range(3)]  # nothing matches: only comments follow
    assert opening.startswith(b"retry: ") and beats == [b": heartbeat\n\n"] * 2
    response.close()


def test_filters_by_stream_type_and_match(client):
    table = Table(client)
    table.deal()
    tid = table.tid
    received, response = stream(client, f"/v1/tournaments/{tid}/subscribe?type=TeamRegistered")
    teams = take(received, 2)
    assert {f.data["type"] for f in teams} == {"TeamRegistered"}
    response.close()
    received, response = stream(client, f"/v1/tournaments/{tid}/subscribe?match=R1-1")
    first = take(received, 2)
    assert [f.data["type"] for f in first] == ["MatchStarted", "HandDealt"]
    assert {f.data["stream"] for f in first} == {table.stream}
    response.close()


def viewers(app, tid: str) -> dict:
    """Every kind of reader: the public, each seat's player, the table, the organiser and the
    officials (who read the raw log)."""
    readers = {"public": {}}
    for seat in range(4):
        readers[f"seat {seat}"] = bearer(token_for(app, "player", tid, "R1-1", seat))
    for role in ("table", "organiser", "referee", "auditor"):
        readers[role] = bearer(token_for(app, role, tid, "R1-1" if role == "table" else None))
    return readers


def test_each_reader_gets_exactly_what_the_reads_show_it_at_each_position(client, app):
    """The visibility matrix: for each reader, each event of the log as the subscription
    carries it, against the reads at that position with the same token. No seat ever sees
    another seat's cards while the hand is in play; the public sees no hand in play at all."""
    table = played_hand(client)
    tid, log = table.tid, client.get(f"/v1/tournaments/{table.tid}/events?limit=1000") \
        .get_json()["events"]
    reader_client = app.test_client()
    for name, headers in viewers(app, tid).items():
        received, response = stream(reader_client, f"/v1/tournaments/{tid}/subscribe", headers)
        for event, got in zip(log, take(received, len(log))):
            assert got.id == event["position"]
            if name in ("referee", "auditor"):
                assert got.data == event
                continue
            assert "meta" not in got.data and got.data["type"] == event["type"]
            if event["type"] in PUBLIC_EVENTS:
                assert got.data["data"] == event["data"]
            elif event["stream"] == table.stream and "hand" in event["data"]:
                hand = reader_client.get(f"/v1/tournaments/{tid}/matches/R1-1/hands/"
                                         f"{event['data']['hand']}?at={event['position']}",
                                         headers=headers)
                if name == "public":
                    assert hand.status_code == 401 and "view" not in got.data
                    assert "in play" in got.data["withheld"]
                    continue
                assert got.data["view"] == _hand_of(hand.get_json())
                _no_other_seats_cards(name, got.data["view"])
            else:
                assert "data" not in got.data and got.data["withheld"]
        response.close()


def _hand_of(read: dict) -> dict:
    """The hand read's answer without what it adds about the match (id, version, position)."""
    return {k: v for k, v in read.items() if k not in ("match_id", "version", "position")}


def _no_other_seats_cards(name: str, view: dict) -> None:
    own = int(name.split()[1]) if name.startswith("seat") else None
    for seat in view["seats"]:
        if seat["seat"] != own:
            assert seat["cards"] is None, (name, seat)


def test_a_match_stream_sends_the_view_as_the_match_read_shows_it(client, app):
    """A seat's tablet: the view at once, then after each event that changes it — the deal
    shows its own cards only — and nothing for a tournament event that leaves it as it was."""
    table = Table(client)
    seat1 = bearer(token_for(app, "player", table.tid, "R1-1", 1))
    path = f"/v1/tournaments/{table.tid}/matches/R1-1"
    received, response = stream(app.test_client(), f"{path}/subscribe", seat1)
    (first,) = take(received, 1)
    assert first.event == "view"
    assert first.data == client.get(path, headers=seat1).get_json()
    archived = client.post(f"/v1/tournaments/{table.tid}/events", json={
        "type": "TournamentArchived", "stream": f"tournament-{table.tid}",
        "data": {"reason": "a tournament event that leaves the match as it was"}})
    assert archived.status_code == 201, archived.get_json()
    dealt = table.deal()
    (after,) = take(received, 1)
    assert after.id == dealt["position"]
    assert after.data == client.get(path, headers=seat1).get_json()
    seats = after.data["current_hand"]["seats"]
    assert [s["cards"] is not None for s in seats] == [False, True, False, False]
    response.close()


@pytest.mark.parametrize("query, headers, path", [
    ("", {"Last-Event-ID": "twelve"}, "Last-Event-ID"),
    ("?after=-3", {}, "after"),
    ("?after=12345678901234567890", {}, "after"),
    ("?type=CardsPlayed,NoSuchType", {}, "type"),
    ("?stream=match-elsewhere:R1-1", {}, "stream"),
    ("?match=R9-9", {}, "match"),
    ("?match=R9-9&type=Nope", {}, "match type"),
])
def test_bad_input_is_a_400_naming_it(client, query, headers, path):
    table = Table(client)
    response = client.get(f"/v1/tournaments/{table.tid}/subscribe{query}", headers=headers)
    assert response.status_code == 400, response.get_data()
    assert response.mimetype == "application/problem+json"
    assert [e["path"] for e in response.get_json()["errors"]] == path.split()


def test_another_tournaments_token_is_403_and_an_unknown_tournament_404(client, app):
    table = Table(client)
    other = client_as(app, "player", "another-tournament", "R1-1", 0)
    response = other.get(f"/v1/tournaments/{table.tid}/matches/R1-1/subscribe")
    assert response.status_code == 403
    assert client.get("/v1/tournaments/nowhere/subscribe").status_code == 404
    assert client.get(f"/v1/tournaments/{table.tid}/matches/R9-9/subscribe").status_code == 404


DROPPED = {"en": "this subscriber fell behind and was dropped; reconnect with Last-Event-ID",
           "zh": "本订阅接收落后过多，已被断开；请带上 Last-Event-ID 重新连接"}


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_subscriber_that_does_not_read_is_dropped_and_appends_go_on(client, app, language):
    app.config["LIVE_BUFFER"] = 3
    app.extensions["paiju"].hub.capacity = 3
    table = Table(client)
    received, response = stream(client, f"/v1/tournaments/{table.tid}/subscribe?match=R1-1"
                                        f"&lang={language}")
    take(received, 1)  # MatchStarted: the subscriber is live, then stops reading
    for n in range(8):  # the buffer holds 3: the 4th event overflows it, appends never wait
        kind, data = ("MatchClockPaused", {"reason": f"pause {n}"}) if n % 2 == 0 else \
            ("MatchClockResumed", {})
        answer = client.post(f"/v1/tournaments/{table.tid}/events",
                             json={"type": kind, "stream": table.stream, "data": data})
        assert answer.status_code == 201, answer.get_json()
    rest = list(received)
    assert rest[-1].event == "overflow"
    assert len(rest) == 4 and rest[-1].data == {"reason": DROPPED[language],
                                                "last_event_id": rest[-2].id}
    response.close()


def test_head_gives_the_headers_and_leaves_no_subscriber(client, app):
    table = Table(client)
    response = client.head(f"/v1/tournaments/{table.tid}/subscribe")
    assert response.status_code == 200 and response.mimetype == "text/event-stream"
    assert response.get_data() == b""
    assert app.extensions["paiju"].hub.subscriber_count == 0


REVOKED = {"en": "token {} was revoked; the stream ends", "zh": "令牌 {} 已被吊销；订阅就此结束"}


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_stream_ends_when_its_token_is_revoked_saying_so_in_its_readers_language(
        client, app, language):
    """The frame is written after the request that opened the stream has gone: it is said in
    the language that request asked for (Accept-Language)."""
    table = Table(client)
    secret, token = app.extensions["paiju"].tokens.create("referee", table.tid)
    received, response = stream(app.test_client(), f"/v1/tournaments/{table.tid}/subscribe",
                                {**bearer(secret), "Accept-Language": language})
    take(received, 1)
    app.extensions["paiju"].tokens.revoke(token.token_id)
    table.deal()  # the next event: by then the stream has looked the token up again
    rest = list(received)
    assert rest[-1].event == "end"
    assert rest[-1].data == {"reason": REVOKED[language].format(token.token_id)}
    assert all(f.event is None for f in rest[:-1])
    response.close()


def test_lots_drawn_in_a_hand_in_play_reach_the_public_as_the_hand_read_shows_them(client, app):
    """LotsDrawn is public in the tournament's stream (a draw), but lots drawn in a hand (who
    declared first, SJ2-4) are the hand's: withheld from the public while it is in play."""
    table = played_hand(client)
    visibility = app.extensions["paiju"].visibility
    last = client.get(f"/v1/tournaments/{table.tid}/events?limit=1000").get_json()["events"][-1]
    lots = _record(last)._replace(type="LotsDrawn", data=json.dumps(
        {"hand": 1, "purpose": "declaration", "candidates": [0, 2], "winner": 2}))
    seen = visibility.visible(lots, Reader(table.tid, None))
    assert "data" not in seen and "in play" in seen["withheld"]
    draw = next(e for e in client.get(f"/v1/tournaments/{table.tid}/events").get_json()["events"]
                if e["type"] == "LotsDrawn")
    public = json.loads(visibility.render(_record(draw), Reader(table.tid, None)))
    assert public["data"] == draw["data"]  # the bracket's draw: everyone's


def _record(envelope: dict) -> Record:
    return Record(**{**{k: envelope[k] for k in Record._fields if k in envelope},
                     "data": json.dumps(envelope["data"]), "meta": json.dumps(envelope["meta"])})


def test_what_an_event_loop_renders_itself_is_what_a_thread_renders(client, app):
    """render_quick (sent from serving's loop without a worker thread) gives render's text, or
    None when it would need a fold: a hand's event for anyone who does not read the raw log,
    until a thread has rendered it once for that kind of reader."""
    table = played_hand(client)
    visibility = app.extensions["paiju"].visibility
    log = [_record(e) for e in
           client.get(f"/v1/tournaments/{table.tid}/events?limit=1000").get_json()["events"]]
    hand_events = [r for r in log if r.stream == table.stream and '"hand":' in r.data]
    others = [r for r in log if r not in hand_events]
    assert hand_events and others
    tokens = app.extensions["paiju"].tokens
    referee = Reader(table.tid, tokens.lookup(token_for(app, "referee", table.tid)))
    seat = Reader(table.tid, tokens.lookup(token_for(app, "player", table.tid, "R1-1", 1)))
    for reader in (referee, seat, Reader(table.tid, None)):
        for record in others:
            assert visibility.render_quick(record, reader) == visibility.render(record, reader)
    for record in hand_events:
        assert visibility.render_quick(record, referee) == visibility.render(record, referee)
        assert visibility.render_quick(record, seat) is None  # the hand read folds
        text = visibility.render(record, seat)
        assert visibility.render_quick(record, seat) == text  # now it is cached


def test_the_renderings_kept_are_bounded_and_one_evicted_is_made_again_the_same(client, app):
    """Visibility keeps the last ``keep`` renderings, the oldest made going first; one evicted
    is rendered again from the log (a fold for a seat), equal to the first time."""
    table = played_hand(client)
    paiju = app.extensions["paiju"]
    visibility = type(paiju.visibility)(paiju.store, paiju.catalogue, paiju.cache, keep=3)
    log = [_record(e) for e in
           client.get(f"/v1/tournaments/{table.tid}/events?limit=1000").get_json()["events"]]
    seat = Reader(table.tid, paiju.tokens.lookup(token_for(app, "player", table.tid, "R1-1", 1)))
    first = [visibility.render(record, seat) for record in log]
    assert len(log) > 3
    assert [visibility.render_quick(record, seat) is not None for record in log[-3:]] == \
        [True] * 3  # the newest three are kept
    oldest_hand_event = next(r for r in log if r.stream == table.stream and '"hand":' in r.data)
    assert visibility.render_quick(oldest_hand_event, seat) is None  # gone: it needs a fold
    assert [visibility.render(record, seat) for record in log] == first
