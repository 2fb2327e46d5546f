"""A groups-of-four MJO event played by ``paiju simulate mjo``'s bots through real HTTP (a
waitress server in this process): 16 players at 4 tables, then a final table. Seeded random
play, bounded by size (two hands a table). Every state seen holds exactly the 136 tiles, every
hand's coins sum to zero, every past state read with ``?at=`` equals what was live then, and
rebuilding every read from the log gives the same bytes as the live, cached reads."""
from __future__ import annotations

import pytest
from mj_views import assert_two_stages_to_a_final, hands_seen
from replay import GroupsReplayChecks, played_event, simulate_groups_command

from service.simulator.mahjong import simulate


@pytest.fixture(scope="module")
def played():
    yield from played_event(simulate, players=16, seed=11, advance=1,
                            match_settings={"sessionHands": 2})


def test_sixteen_players_four_tables_then_a_final_and_a_podium(played):
    outcome, *_ = played
    stages = assert_two_stages_to_a_final(outcome, 4)
    assert all(t["hands_played"] == 2 for s in stages for t in s["tables"])
    ranking = outcome.standings["ranking"]
    assert [r["place"] for r in ranking[:3]] == [1, 2, 3] and len(ranking) == 16
    assert outcome.event_counts["MatchStarted"] == 5 and outcome.event_counts["TilesDealt"] == 10


def test_every_state_holds_the_136_tiles_and_every_hand_pays_zero_in_all(played):
    _, _, _, seen = played
    checked = 0
    for view, _ in hands_seen(seen, 136):
        checked += 1
        for row in filter(None, [view["last_result"]]):
            assert sum(row["payments"]) == 0
            assert [b + p for b, p in zip(row["balances_before"], row["payments"],
                                          strict=True)] == row["balances"]
    assert checked > 500


class TestReplay(GroupsReplayChecks):
    PAST, PAST_SEED, TABLES = 60, 2, 5


def test_paiju_simulate_mjo_prints_the_final_coins_and_the_podium(capsys):
    from service.cli import main

    simulate_groups_command(capsys, "mjo")
    with pytest.raises(SystemExit):
        main(["simulate", "mjo", "--players", "10"])           # not tables of four (T-8.1)
