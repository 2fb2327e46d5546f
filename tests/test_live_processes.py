"""Subscriptions over real HTTP against real ``paiju serve`` processes (issue 18): a subscriber
that loses its node to a restart resumes with its last id and gets every event exactly once,
in order; on PostgreSQL, an event appended on one node reaches a subscriber of another."""
from __future__ import annotations

import signal

from pg_nodes import Client, Node, admin_token, cluster, poll, sqlite_node
from sse import HttpSubscriber, take

TID = "live-restart"


def register(client: Client, tid: str, team_id: str) -> dict:
    return client.ok("POST", f"/v1/tournaments/{tid}/events", {
        "type": "TeamRegistered", "stream": f"tournament-{tid}",
        "data": {"team_id": team_id, "name": f"队 {team_id}",
                 "players": [f"甲{team_id}", f"乙{team_id}"]}})


def create(client: Client, tid: str) -> None:
    client.ok("POST", "/v1/tournaments", {"tournament_id": tid, "name": "直播", "game": "SJ2",
                                          "format": "knockout"})


def test_a_subscriber_resumes_across_a_restart_with_nothing_lost_or_repeated(tmp_path):
    with sqlite_node(tmp_path, "first") as (nodes, client, token):
        create(client, TID)
        stored = [register(client, TID, t) for t in ("a", "b")]
        sub = HttpSubscriber(nodes[0].port, f"/v1/tournaments/{TID}/subscribe", token)
        received = take(sub.frames, 3)  # TournamentCreated and both teams, read back
        stored.append(register(client, TID, "c"))
        received += take(sub.frames, 1)  # live
        nodes[0].process.send_signal(signal.SIGTERM)  # a clean stop: the stream says so
        (end,) = take(sub.frames, 1)
        assert end.event == "end" and end.id is None
        assert list(sub.frames) == []  # and closes
        nodes[0].process.wait(timeout=15)
        client.close()

        nodes.append(Node(nodes[0].url, "second", tmp_path))
        nodes[1].wait_ready()
        client = Client(nodes[1].port, token)
        stored += [register(client, TID, t) for t in ("d", "e")]  # while nobody listened
        again = HttpSubscriber(nodes[1].port, f"/v1/tournaments/{TID}/subscribe", token,
                               last_event_id=received[-1].id)
        received += take(again.frames, 2)
        stored.append(register(client, TID, "f"))
        received += take(again.frames, 1)
        again.close()
    log = [e["position"] for e in stored]
    assert [f.id for f in received] == [1] + log
    assert [f.data["id"] for f in received[1:]] == [e["id"] for e in stored]


def test_head_through_the_front_sends_headers_only_and_keeps_the_connection(tmp_path):
    """HEAD of a subscription and of an export through gevent's front (service/serving.py): the
    headers and no body, so the next answer on the same keep-alive connection is read right."""
    with sqlite_node(tmp_path, "head") as (_, client, _token):
        create(client, "live-head")
        for path in ("/v1/tournaments/live-head/subscribe", "/v1/tournaments/live-head/export"):
            status, body = client.request("HEAD", path)
            assert status in (200, 503) and body is None, (path, status, body)
            status, health = client.get("/v1/health")  # the same connection, read right
            assert status == 200 and health["status"] == "ok"
        status, _ = client.request("HEAD", "/v1/tournaments/live-head/subscribe")
        assert status == 200


def test_an_event_appended_on_one_node_reaches_a_subscriber_of_another(postgres_url, tmp_path):
    """By NOTIFY alone: the nodes' fan-out would look at the log's end only after 600 s, and the
    subscriber gives up after 15."""
    token = admin_token(postgres_url)
    with cluster(postgres_url, 2, tmp_path, options=("--live-poll-seconds", "600")) as (a, b):
        on_a = Client(a.port, token)
        create(on_a, "live-nodes")
        sub = HttpSubscriber(b.port, "/v1/tournaments/live-nodes/subscribe?type=TeamRegistered",
                             timeout=15)
        stored = register(on_a, "live-nodes", "a")  # on node A, while B's subscriber waits
        (got,) = take(sub.frames, 1)
        assert (got.id, got.data["id"], got.data["data"]["team_id"]) == \
            (stored["position"], stored["id"], "a")  # the public sees entrants as stored
        assert "meta" not in got.data
        sub.close()
        assert poll(lambda: Client(b.port, token).get("/v1/health")[0] == 200, 5, "B answers")
