"""A whole knockout played by ``paiju simulate``'s bots through real HTTP (a waitress server in
this process): it ends with a champion and a consistent bracket; every state read at a past
position equals what was live then; and rebuilding every projection from the log gives the same
bytes as the live, cached reads."""

import pytest
from checkpoint_checks import assert_checkpoint_folds_equal_full_folds
from clients import admin_client
from replay import assert_past_reads_equal_live, knockout_reads, rebuilt_and_live

from service.simulator.runner import simulate, temporary_server

TEAMS = 8


@pytest.fixture(scope="module")
def played():
    seen = []
    with temporary_server() as server:
        outcome = simulate(server.url, token=server.token, teams=TEAMS, seed=5, match_settings={"maxHands": 2},
                           observe=lambda tid, mid, view: seen.append((mid, view)))
        yield outcome, server.app, server.database, seen


def test_an_eight_team_knockout_ends_with_a_champion_and_a_consistent_bracket(played):
    outcome, *_ = played
    rounds = outcome.bracket["rounds"]
    assert [len(r["matches"]) for r in rounds] == [4, 2, 2]  # the final and the 3rd-place match
    assert all(m["winner"] in m["teams"] for r in rounds for m in r["matches"])
    for before, after in zip(rounds, rounds[1:]):
        winners = {m["winner"] for m in before["matches"] if m["kind"] == "main"}
        main = [t for m in after["matches"] if m["kind"] == "main" for t in m["teams"]]
        assert set(main) == winners
    final = next(m for m in rounds[-1]["matches"] if m["kind"] == "main")
    third = next(m for m in rounds[-1]["matches"] if m["kind"] == "third_place")
    semi_losers = {t for m in rounds[1]["matches"] for t in m["teams"] if t != m["winner"]}
    assert set(third["teams"]) == semi_losers
    assert outcome.champion == final["winner"]
    ranking = outcome.standings["ranking"]
    assert [r["place"] for r in ranking] == [1, 2, 3, 4, 5, 5, 5, 5]
    assert sorted(r["team"] for r in ranking) == sorted(f"team-{n}" for n in range(1, 9))
    assert [r["team"] for r in ranking[:4]] == [
        final["winner"], *(t for t in final["teams"] if t != final["winner"]),
        third["winner"], *(t for t in third["teams"] if t != third["winner"])]
    assert outcome.event_counts["MatchStarted"] == 8
    assert outcome.event_counts["HandDealt"] >= 16


def test_the_timer_closes_every_declaration_window(played):
    """The bots leave the window to the server's timer (declarationWindowSeconds 0: it closes
    at DealCompleted): every DeclarationWindowClosed is the timer's, one a deal."""
    outcome, app, _, _ = played
    client = admin_client(app)
    closed = client.get(f"/v1/tournaments/{outcome.tournament_id}/events"
                        "?type=DeclarationWindowClosed&limit=1000").json["events"]
    assert len(closed) == outcome.event_counts["DealCompleted"] == outcome.hands
    assert {(e["meta"]["actor"], e["meta"]["role"]) for e in closed} == {("timer", "system")}


def test_every_past_state_read_with_at_equals_what_was_live_then(played):
    outcome, app, _, seen = played
    assert_past_reads_equal_live(admin_client(app), outcome.tournament_id, seen, 60, seed=1)


def test_a_fold_from_the_nearest_checkpoint_equals_the_fold_from_version_1(played):
    _, _, database, _ = played
    assert assert_checkpoint_folds_equal_full_folds(database, 25, seed=3) > 0


def test_rebuilding_every_projection_from_the_log_gives_the_same_bytes(played):
    outcome, app, database, _ = played
    tid = outcome.tournament_id
    matches = [m["match_id"] for r in outcome.bracket["rounds"] for m in r["matches"]]
    rebuilt, live = rebuilt_and_live(
        app, database, lambda client: knockout_reads(client, tid, matches, seat=2))
    assert rebuilt == live
    assert len(live) > 8 * 5
