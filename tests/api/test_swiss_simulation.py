"""``paiju simulate sj3-swiss`` on a real server: a small team event of three teams (a bye each
round) and two rounds of SJ3 tables played by the bots, one team late; then the rounds, the
standings (JSON and CSV) and every table's read rebuilt from the log alone are byte-identical
to the live ones, and the standings read at past positions are what was served then."""
from __future__ import annotations

from checkpoint_checks import assert_checkpoint_folds_equal_full_folds
from replay import read_bytes, rebuilt_and_live

from service.simulator.runner import SimulatedClock, temporary_server
from service.simulator.swiss import report, simulate


def team_event_reads(client, tid: str) -> dict[str, bytes]:
    base = f"/v1/tournaments/{tid}"
    paths = [f"{base}/rounds", f"{base}/standings", f"{base}/standings?format=csv",
             f"{base}/matches"]
    rounds = client.get(f"{base}/rounds").json["rounds"]
    paths += [f"{base}/matches/{t['match_id']}?as=referee"
              for r in rounds for m in r["meetings"] for t in m["tables"]]
    return read_bytes(client, paths)


def test_a_simulated_team_event_rebuilds_byte_identically():
    with temporary_server(clock=SimulatedClock(3.0)) as server:
        outcome = simulate(server.url, teams=3, rounds=2, seed=5, token=server.token)
        client = server.app.test_client()
        client.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {server.token}"
        tid = outcome.tournament_id
        standings = outcome.standings
        assert standings["final"] is True and standings["rounds_played"] == 2
        assert [r["place"] for r in standings["ranking"]] == [1, 2, 3]
        rounds = outcome.rounds["rounds"]
        assert all(r["bye"] for r in rounds) and len({r["bye"] for r in rounds}) == 2
        assert outcome.event_counts["TimeLimitReached"] >= 2 and outcome.hands >= 4
        for row in standings["ranking"]:   # team score = the pairs' points, byes included
            assert row["score"] == sum(p["points"] for p in row["pairs"])
            assert len(row["byes"]) <= 1
            assert all(len(p["rounds"]) == 2 for p in row["pairs"])
        assert sum(len(row["byes"]) for row in standings["ranking"]) == 2
        (number, team, pair, minutes), = outcome.late   # T-6.6: −30 in hand 1 of round 2
        assert (number, pair, minutes) == (2, "a", 12)
        table = next(t for m in rounds[1]["meetings"] if team in m["teams"]
                     for t in m["tables"] if t["pair"] == "a")
        match = client.get(f"/v1/tournaments/{tid}/matches/{table['match_id']}?as=referee").json
        assert [(e["minutes"], e["consequence"], e["points"]) for e in match["lateness"]] == [
            (12, "firstHandPoints", 30)]
        text = report(outcome)
        assert "final standings" in text and standings["ranking"][0]["team"] in text
        rebuilt, live = rebuilt_and_live(server.app, server.database,
                                         lambda c: _as_admin(c, server.token, tid))
        assert rebuilt == live
        assert assert_checkpoint_folds_equal_full_folds(server.database, 15, seed=5) > 0


def _as_admin(client, token: str, tid: str) -> dict[str, bytes]:
    client.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {token}"
    return team_event_reads(client, tid)
