"""A small Sichuan event played by ``paiju simulate mjs``'s bots through real HTTP (a waitress
server in this process): 8 players in two groups, then a final of four with 换三张 — seeded random
play, bounded by size (two hands a table, and the final's extra hands while players tie for a
podium place). Every state seen holds exactly the 108 tiles, every hand's payments between
players sum to zero and explain the scores, a player who has won never acts again in that hand,
no win holds three suits, every past state read with ``?at=`` equals what was live then, and
rebuilding every read from the log gives the same bytes as the live, cached reads."""
from __future__ import annotations

from collections import Counter

import pytest
from clients import admin_client
from replay import assert_past_reads_equal_live, read_bytes, rebuilt_and_live

from rules.mahjong.tiles import suit, tile_set
from service.simulator.runner import temporary_server
from service.simulator.sichuan import simulate

FULL = Counter(tile_set(108))
PLAY = {"TileDrawn", "TileDiscarded", "Claim", "ClaimPassed", "KongDeclared", "Win",
        "ExchangeTilesSelected", "VoidSuitDeclared"}


@pytest.fixture(scope="module")
def played():
    seen = []
    with temporary_server() as server:
        outcome = simulate(server.url, players=8, seed=5, token=server.token,
                           match_settings={"sessionHands": 2},
                           observe=lambda tid, mid, view: seen.append((mid, view)))
        yield outcome, server.app, server.database, seen


def test_eight_players_two_groups_then_a_final_with_the_exchange_and_a_podium(played):
    outcome, *_ = played
    stages = outcome.groups["stages"]
    assert [len(s["tables"]) for s in stages] == [2, 1] and stages[1]["final"]
    assert sorted(p["team"] for p in stages[1]["tables"][0]["seats"]) == \
        sorted(stages[0]["qualified"])
    assert all(t["completed"] and t["hands_played"] >= 2 for s in stages for t in s["tables"])
    standings = outcome.standings
    assert standings["final"] and standings["champion"] == standings["ranking"][0]["team"]
    assert [r["place"] for r in standings["ranking"]] == list(range(1, 9))
    assert {r["team"] for r in standings["ranking"][:4]} == set(stages[0]["qualified"])
    assert standings["ranking"][0]["prize"].startswith("champion: 2000 yuan")
    counts = outcome.event_counts
    assert counts["MatchStarted"] == 3 and counts["ExchangeTilesSelected"] >= 8
    assert counts["VoidSuitDeclared"] == 4 * counts["TilesDealt"]


def test_every_state_holds_the_108_tiles_and_every_point_is_explained(played):
    _, _, _, seen = played
    checked = 0
    for _, view in seen:
        hand = view["current_hand"]
        if hand is None:
            continue
        tiles = Counter(hand["wall"])
        for seat in hand["seats"]:
            tiles.update(seat["concealed"])
            tiles.update(t for m in seat["melds"] for t in m["tiles"])
            tiles.update(d["tile"] for d in seat["discards"] if d["claimed_by"] is None)
        assert tiles == FULL
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
        for row in view["history"]:
            assert sum(row["payments"]) == 0
            after = [b + p + d for b, p, d in zip(row["balances_before"], row["payments"],
                                                  row["deductions"], strict=True)]
            assert row["balances"] == (row["balances_before"] if row["tiebreak"] else after)
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


def test_every_past_state_read_with_at_equals_what_was_live_then(played):
    outcome, app, _, seen = played
    assert_past_reads_equal_live(admin_client(app), outcome.tournament_id, seen, 40, seed=3)


def _reads(client, tid: str, tables: list[str]) -> dict[str, bytes]:
    base = f"/v1/tournaments/{tid}"
    paths = [f"{base}/groups", f"{base}/standings", f"{base}/matches"]
    for mid in tables:
        paths += [f"{base}/matches/{mid}?as={v}" for v in ("referee", "public", "seat:1")]
        paths += [f"{base}/matches/{mid}/hands/{n}?as={v}" for n in (1, 2)
                  for v in ("referee", "seat:3")]
    return read_bytes(client, paths)


def test_rebuilding_every_projection_from_the_log_gives_the_same_bytes(played):
    outcome, app, database, _ = played
    tid = outcome.tournament_id
    tables = [t["match_id"] for s in outcome.groups["stages"] for t in s["tables"]]
    rebuilt, live = rebuilt_and_live(app, database, lambda client: _reads(client, tid, tables))
    assert rebuilt == live
    assert len(live) == 3 + 3 * 7


def test_paiju_simulate_mjs_prints_the_podium_and_the_prizes(capsys):
    from service.cli import main

    assert main(["simulate", "mjs", "--players", "8", "--session-hands", "1", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "stage 1:" in out and "final:" in out and "podium: 1. player-" in out
    assert "2000 yuan" in out and "water bottle" in out
    with pytest.raises(SystemExit):
        main(["simulate", "mjs", "--players", "12"])        # 12 → 6: not groups of four
