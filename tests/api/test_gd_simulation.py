"""A 掼蛋 knockout played by ``paiju simulate guandan``'s bots through real HTTP (a waitress
server in this process), with the rounds drawn by matching cards (T-5.5) and the server's timer
posting the time limits on a simulated clock (T-5.4): it ends with a podium and a consistent
bracket; every hand keeps the 108 cards and ends with a full finishing order; every state read
at a past position equals what was live then; rebuilding every projection from the log gives
the same bytes as the live reads; and the reads match the API spec."""
from collections import Counter
from datetime import datetime, timedelta

import pytest
from checkpoint_checks import assert_checkpoint_folds_equal_full_folds
from clients import admin_client
from replay import assert_past_reads_equal_live, knockout_reads, rebuilt_and_live
from spec import assert_response

from rules.guandan.cards import two_decks
from rules.guandan.seats import team_of
from service.simulator.runner import SimulatedClock, report, simulate, temporary_server

TEAMS = 4
# 9 simulated seconds an event, below GD-9's limits (20 s a play, and two payers' tributes within
# the 20 s after the deal), so the timer reports no overrun; 30 + 15 simulated minutes ≈ 200 +
# 100 events: about two hands a match
SECONDS_PER_MOVE = 9
MATCH = {"matchMinutes": 30, "overtimeMinutes": 15}


@pytest.fixture(scope="module")
def played():
    seen = []
    with temporary_server(clock=SimulatedClock(SECONDS_PER_MOVE), timer=True) as server:
        outcome = simulate(server.url, token=server.token, teams=TEAMS, seed=3, game="guandan",
                           match_settings=MATCH,
                           bot_options={"seconds_per_move": SECONDS_PER_MOVE},
                           observe=lambda tid, mid, view: seen.append((mid, view)))
        yield outcome, server.app, server.database, seen


def _matches(outcome) -> list[str]:
    return [m["match_id"] for r in outcome.bracket["rounds"] for m in r["matches"]]


def test_a_four_team_knockout_drawn_by_cards_ends_with_a_podium(played):
    outcome, *_ = played
    rounds = outcome.bracket["rounds"]
    assert [len(r["matches"]) for r in rounds] == [2, 2]  # semi-finals; final and 3rd place
    for rnd in rounds:  # T-5.5: the two teams of a match drew the same rank
        cards = rnd["cards"]
        for m in (m for m in rnd["matches"] if m["kind"] == "main"):
            assert cards[m["teams"][0]][0] == cards[m["teams"][1]][0]
    ranking = outcome.standings["ranking"]
    assert [r["place"] for r in ranking] == [1, 2, 3, 4]
    assert outcome.champion == ranking[0]["team"]
    assert outcome.event_counts["TimeLimitReached"] >= 1
    assert outcome.decided_by and sum(outcome.decided_by.values()) == 4
    assert set(outcome.decided_by) <= {"game", "time", "overtime", "extraHand"}
    text = report(outcome)
    assert "podium:" in text and f"1. {outcome.champion}" in text and "$900" in text
    assert outcome.event_counts["TributePaid"] >= 1


def test_every_hand_keeps_the_108_cards_and_ends_with_a_full_finishing_order(played):
    outcome, app, _, _ = played
    client = admin_client(app)
    tid, hands = outcome.tournament_id, 0
    for mid in _matches(outcome):
        match = client.get(f"/v1/tournaments/{tid}/matches/{mid}?as=referee").json
        assert match["status"] == "completed"
        for n in range(1, match["hands_played"] + 1):
            hand = client.get(f"/v1/tournaments/{tid}/matches/{mid}/hands/{n}?as=public").json
            dealt = Counter(c for s in hand["seats"] for c in s["dealt"])
            held = Counter(c for s in hand["seats"] for c in s["cards"])
            played_cards = Counter(c for t in hand["tricks"] for p in t["plays"]
                                   if not p["pass"] for c in p["cards"])
            assert dealt == two_decks() and held + played_cards == two_decks(), (mid, n)
            places = hand["result"]["places"]
            assert len(set(places)) == len(places)
            if len(places) == 2:  # double down: the other two are not ranked
                assert team_of(places[0]) == team_of(places[1])
            else:
                assert sorted(places) == [0, 1, 2, 3]
            assert hand["order"] == places[:len(hand["order"])]
            assert all(hand["seats"][s]["cards"] == [] for s in hand["order"])
            hands += 1
    assert hands == outcome.hands


def test_every_past_state_read_with_at_equals_what_was_live_then(played):
    outcome, app, _, seen = played
    assert_past_reads_equal_live(admin_client(app), outcome.tournament_id, seen, 40, seed=1)


def test_a_fold_from_the_nearest_checkpoint_equals_the_fold_from_version_1(played):
    _, _, database, _ = played
    assert assert_checkpoint_folds_equal_full_folds(database, 25, seed=4) > 0


def test_rebuilding_every_projection_from_the_log_gives_the_same_bytes(played):
    outcome, app, database, _ = played
    tid = outcome.tournament_id
    rebuilt, live = rebuilt_and_live(
        app, database, lambda client: knockout_reads(client, tid, _matches(outcome), seat=1))
    assert rebuilt == live
    assert len(live) > 4 * 4


def test_guandan_reads_match_the_api_spec(played):
    outcome, app, _, seen = played
    client = admin_client(app)
    tid = outcome.tournament_id
    mid = _matches(outcome)[0]
    base = f"/v1/tournaments/{tid}/matches/{mid}"
    for view in ("referee", "public", "seat:0"):
        assert_response(client.get(f"{base}?as={view}"), "get",
                        "/v1/tournaments/{tid}/matches/{mid}")
        assert_response(client.get(f"{base}/hands/1?as={view}"), "get",
                        "/v1/tournaments/{tid}/matches/{mid}/hands/{n}")
    for _, live in seen[::25]:  # views in every phase, as they were
        assert_response(client.get(f"/v1/tournaments/{tid}/matches/{live['match_id']}"
                                   f"?as=public&at={live['position']}"),
                        "get", "/v1/tournaments/{tid}/matches/{mid}")
    assert_response(client.get(f"/v1/tournaments/{tid}/matches"), "get",
                    "/v1/tournaments/{tid}/matches")
    assert_response(client.get(f"/v1/tournaments/{tid}/bracket"), "get",
                    "/v1/tournaments/{tid}/bracket")
    assert_response(client.get(f"/v1/tournaments/{tid}/standings"), "get",
                    "/v1/tournaments/{tid}/standings")


def test_paiju_simulate_guandan_prints_the_podium(capsys):
    from service.cli import main

    assert main(["simulate", "guandan", "--teams", "2", "--seconds-per-move", "15"]) == 0
    out = capsys.readouterr().out
    assert "podium:" in out and "1. team-" in out and "matches decided: time 1" in out


def test_the_timer_posts_a_limit_only_once_the_recorded_time_has_passed_it(played):
    """T-5.4 on the server's clock: every TimeLimitReached is the timer's, recorded at or after
    the match's start plus its minutes (the server refuses it otherwise)."""
    outcome, app, _, _ = played
    client = admin_client(app)
    tid = outcome.tournament_id
    limits = client.get(f"/v1/tournaments/{tid}/events?type=TimeLimitReached&limit=1000").json
    assert limits["events"]
    for event in limits["events"]:
        started = client.get(f"/v1/tournaments/{tid}/streams/{event['stream']}?limit=1").json
        start = datetime.fromisoformat(started["events"][0]["recorded_at"])
        minutes = event["data"]["limit_minutes"]
        assert event["meta"]["actor"] == "timer"
        assert datetime.fromisoformat(event["recorded_at"]) >= start + timedelta(minutes=minutes)


@pytest.mark.parametrize("argv", [["simulate", "guandan", "--max-hands", "3"],
                                  ["simulate", "sj2", "--seconds-per-move", "5"],
                                  ["simulate", "guandan", "--seconds-per-move", "0"],
                                  ["simulate", "guandan", "--seconds-per-move", "5", "--url",
                                   "http://127.0.0.1:1"],
                                  ["simulate", "sj2", "--match-minutes", "5"],
                                  ["simulate", "mjo", "--overtime-minutes", "5"],
                                  ["simulate", "guandan", "--alert-at-minute", "5"],
                                  ["simulate", "sj3-swiss", "--alert-at-minute", "90"]])
def test_paiju_simulate_refuses_options_of_the_other_game(argv, capsys):
    from service.cli import main

    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    assert "--" in capsys.readouterr().err
