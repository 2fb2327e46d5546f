"""A groups-of-four MJO event played by ``paiju simulate mjo``'s bots through real HTTP (a
waitress server in this process): 16 players at 4 tables, then a final table. Seeded random
play, bounded by size (two hands a table). Every state seen holds exactly the 136 tiles, every
hand's coins sum to zero, every past state read with ``?at=`` equals what was live then, and
rebuilding every read from the log gives the same bytes as the live, cached reads."""
from __future__ import annotations

from collections import Counter

import pytest
from clients import admin_client
from replay import assert_past_reads_equal_live, read_bytes, rebuilt_and_live

from rules.mahjong.tiles import tile_set
from service.simulator.mahjong import simulate
from service.simulator.runner import temporary_server

FULL = Counter(tile_set(136))


@pytest.fixture(scope="module")
def played():
    seen = []
    with temporary_server() as server:
        outcome = simulate(server.url, token=server.token, players=16, seed=11, advance=1,
                           match_settings={"sessionHands": 2},
                           observe=lambda tid, mid, view: seen.append((mid, view)))
        yield outcome, server.app, server.database, seen


def test_sixteen_players_four_tables_then_a_final_and_a_podium(played):
    outcome, *_ = played
    stages = outcome.groups["stages"]
    assert [len(s["tables"]) for s in stages] == [4, 1] and stages[1]["final"]
    assert sorted(p["team"] for p in stages[1]["tables"][0]["seats"]) == \
        sorted(stages[0]["qualified"])
    assert all(t["completed"] and t["hands_played"] == 2 for s in stages for t in s["tables"])
    standings = outcome.standings
    assert standings["final"] and standings["champion"] == standings["ranking"][0]["team"]
    assert [r["place"] for r in standings["ranking"][:3]] == [1, 2, 3]
    assert {r["team"] for r in standings["ranking"][:4]} == set(stages[0]["qualified"])
    assert len(standings["ranking"]) == 16
    assert outcome.event_counts["MatchStarted"] == 5 and outcome.event_counts["TilesDealt"] == 10


def test_every_state_holds_the_136_tiles_and_every_hand_pays_zero_in_all(played):
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
        checked += 1
        for row in view["history"]:
            assert sum(row["payments"]) == 0
            assert [b + p for b, p in zip(row["balances_before"], row["payments"],
                                          strict=True)] == row["balances"]
    assert checked > 500


def test_every_past_state_read_with_at_equals_what_was_live_then(played):
    outcome, app, _, seen = played
    assert_past_reads_equal_live(admin_client(app), outcome.tournament_id, seen, 60, seed=2)


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
    assert len(live) == 3 + 5 * 7


def test_paiju_simulate_mjo_prints_the_final_coins_and_the_podium(capsys):
    from service.cli import main

    assert main(["simulate", "mjo", "--players", "8", "--session-hands", "1", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "stage 1:" in out and "final:" in out and "podium: 1. player-" in out
    with pytest.raises(SystemExit):
        main(["simulate", "mjo", "--players", "10"])           # not tables of four (T-8.1)
