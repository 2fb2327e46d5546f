"""A small Sichuan event played by ``paiju simulate mjs``'s bots through real HTTP (a waitress
server in this process): 8 players in two groups, then a final of four with 换三张 — seeded random
play, bounded by size (two hands a table, and the final's extra hands while players tie for a
podium place). Every state seen holds exactly the 108 tiles, every hand's payments between
players sum to zero and explain the scores, a player who has won never acts again in that hand,
no win holds three suits, every past state read with ``?at=`` equals what was live then, and
rebuilding every read from the log gives the same bytes as the live, cached reads."""
from __future__ import annotations

import pytest
from clients import admin_client
from mj_views import assert_two_stages_to_a_final, hands_seen
from replay import GroupsReplayChecks, played_event, simulate_groups_command

from rules.mahjong.tiles import suit
from service.simulator.sichuan import simulate

PLAY = {"TileDrawn", "TileDiscarded", "Claim", "ClaimPassed", "KongDeclared", "Win",
        "ExchangeTilesSelected", "VoidSuitDeclared"}


@pytest.fixture(scope="module")
def played():
    yield from played_event(simulate, players=8, seed=26, match_settings={"sessionHands": 2})


def test_eight_players_two_groups_then_a_final_with_the_exchange_and_a_podium(played):
    outcome, *_ = played
    stages = assert_two_stages_to_a_final(outcome, 2)
    assert all(t["hands_played"] >= 2 for s in stages for t in s["tables"])
    ranking = outcome.standings["ranking"]
    assert [r["place"] for r in ranking] == list(range(1, 9))
    assert ranking[0]["prize"].startswith("champion: 2000 yuan")
    counts = outcome.event_counts
    assert counts["MatchStarted"] == 3 and counts["ExchangeTilesSelected"] >= 8
    assert counts["VoidSuitDeclared"] == 4 * counts["TilesDealt"]


def test_every_state_holds_the_108_tiles_and_every_point_is_explained(played):
    _, _, _, seen = played
    checked = 0
    for view, hand in hands_seen(seen, 108):
        transfers = [0] * 4
        for p in hand["ledger"]:
            if p["to"] is not None:
                transfers[p["from"]] -= p["amount"]
                transfers[p["to"]] += p["amount"]
        assert sum(transfers) == 0
        for win in hand["wins"]:
            seat = hand["seats"][win["seat"]]
            held = seat["concealed"] + [t for m in seat["melds"] for t in m["tiles"]]
            assert len({suit(t) for t in held + [win["tile"] or held[0]]}) <= 2
        checked += 1
        for row in filter(None, [view["last_result"]]):
            assert sum(row["payments"]) == 0
            counted = [p for p in row["ledger"] if not row["tiebreak"] or p["reason"] == "penalty"]
            after = list(row["balances_before"])        # T-7.4, 7.6: an extra hand's penalties
            for p in counted:
                after[p["from"]] -= p["amount"]
                if p["to"] is not None:
                    after[p["to"]] += p["amount"]
            assert row["balances"] == after
    assert checked > 500


def test_a_player_who_has_won_never_acts_again_in_that_hand(played):
    outcome, app, _, _ = played
    client = admin_client(app)
    out: dict[tuple[str, int], set[int]] = {}
    wins = 0
    for e in _log(client, outcome.tournament_id):
        if e["type"] not in PLAY:
            continue
        key = (e["stream"], e["data"]["hand"])
        assert e["data"]["seat"] not in out.get(key, set()), e
        if e["type"] == "Win" or (e["type"] == "Claim" and e["data"]["kind"] == "win"):
            out.setdefault(key, set()).add(e["data"]["seat"])
            wins += 1
    assert wins > 5


def _log(client, tid: str) -> list[dict]:
    events, after = [], 0
    while True:
        page = client.get(f"/v1/tournaments/{tid}/events?after={after}&limit=1000").json
        events += page["events"]
        if not page["next"]:
            return events
        after = page["events"][-1]["position"]


class TestReplay(GroupsReplayChecks):
    PAST, PAST_SEED, TABLES = 40, 3, 3


def test_paiju_simulate_mjs_prints_the_podium_and_the_prizes(capsys):
    from service.cli import main

    out = simulate_groups_command(capsys, "mjs")
    assert "2000 yuan" in out and "water bottle" in out
    with pytest.raises(SystemExit):
        main(["simulate", "mjs", "--players", "12"])        # 12 → 6: not groups of four
