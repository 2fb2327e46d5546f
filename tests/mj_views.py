"""What the mahjong simulation tests check of a groups-of-four event they played: the stages
down to the final table, and that every hand seen in play holds exactly the game's tiles."""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from rules.mahjong.tiles import tile_set


def assert_two_stages_to_a_final(outcome, first_stage_tables: int) -> list[dict]:
    """Stage 1 at ``first_stage_tables`` tables, then the final table of the four stage 1
    qualified, who take the top four places; every table completed; the standings final with
    the first as champion. Returns the stages."""
    stages = outcome.groups["stages"]
    assert [len(s["tables"]) for s in stages] == [first_stage_tables, 1] and stages[1]["final"]
    assert sorted(p["team"] for p in stages[1]["tables"][0]["seats"]) == \
        sorted(stages[0]["qualified"])
    assert all(t["completed"] for s in stages for t in s["tables"])
    standings = outcome.standings
    assert standings["final"] and standings["champion"] == standings["ranking"][0]["team"]
    assert {r["team"] for r in standings["ranking"][:4]} == set(stages[0]["qualified"])
    return stages


def hands_seen(seen: list[tuple[str, dict]], tile_count: int) -> Iterator[tuple[dict, dict]]:
    """(view, hand) of every referee view ``seen`` with a hand under way, each hand checked to
    hold the ``tile_count`` tiles, no more, no fewer."""
    full = Counter(tile_set(tile_count))
    for _, view in seen:
        hand = view["current_hand"]
        if hand is not None:
            assert _tiles_in_view(hand) == full
            yield view, hand


def _tiles_in_view(hand: dict) -> Counter:
    """Every tile of a hand in the referee's view: the wall, each seat's concealed tiles and
    melds, and the discards no one claimed (a claimed one is counted in the claimer's meld)."""
    tiles = Counter(hand["wall"])
    for seat in hand["seats"]:
        tiles.update(seat["concealed"])
        tiles.update(t for m in seat["melds"] for t in m["tiles"])
        tiles.update(d["tile"] for d in seat["discards"] if d["claimed_by"] is None)
    return tiles
