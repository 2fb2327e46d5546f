"""Reading a mahjong table and its hands: hidden information by viewer (rules README §5 — a
seat's concealed tiles to that seat only, the wall to the officials, a finished hand public),
the state as of any position (``?at=``) equal to what was live then and to a fresh fold of the
log, and 404s."""
from __future__ import annotations

import pytest
from clients import admin_client
from mj_table import TID, Clock, Table, clocked_client, opened

from events.memory_store import InMemoryEventStore
from service import create_app

VIEWERS = ("public", "seat:0", "seat:1", "seat:2", "seat:3", "referee", "committee", "auditor")
WAIT_5M = "1m 2m 3m 4p 5p 6p 7s 8s 9s C C C 5m"
BASE = f"/v1/tournaments/{TID}"


def played(store=None):
    """A hand with a claim window, a pong and a win on a discard; yields at each stop."""
    client = admin_client(create_app(store=store or InMemoryEventStore()))
    table = opened(client, {0: "5p 5p 5m", 1: "5p", 2: WAIT_5M}, wall="E")
    yield table, "after the dealer's first discard"
    table.ok("TileDrawn", seat=1, tile="E")
    yield table, "seat 1 drew"
    table.ok("TileDiscarded", seat=1, tile="5p")
    yield table, "claim window open"
    table.ok("Claim", seat=2, kind="chow", tiles=["4p", "6p"])
    yield table, "a chow called, the pong may still come"
    table.ok("Claim", seat=0, kind="pong", tiles=["5p", "5p"])
    yield table, "the pong called, seat 3 yet to answer"
    table.ok("ClaimPassed", seat=3)
    yield table, "seat 0 ponged"
    table.ok("TileDiscarded", seat=0, tile="5m")
    yield table, "seat 2 may win"
    table.ok("Claim", seat=2, kind="win")
    yield table, "seat 2's win called, seat 1 yet to answer"
    table.ok("ClaimPassed", seat=1)
    yield table, "over"


def views(table: Table) -> dict[str, dict]:
    return {v: table.hand_view(view=v) for v in VIEWERS}


# --- hidden information -------------------------------------------------------------------------

def test_mjo_4_5_the_table_cannot_tell_whether_anyone_may_claim_a_discard():
    """Two deals that differ only in whether seat 2 holds a pair of the dealer's N look the
    same to the public after the discard — a claim window open, waiting for the three others
    (MJO section 10 row 7) — and seat 1's draw is refused the same way in both (MJO-4.5)."""
    views, refusals = [], []
    for seat2, wall in (("N N", "1m N"), ("", "1m N N N")):
        table = opened(clocked_client(Clock()), {2: seat2} if seat2 else {}, wall=wall,
                       settle=False)
        views.append(table.hand_view(view="public"))
        refusals.append(table.rejected("TileDrawn", "MJO-4.5", seat=1, tile="1m")["detail"])
    assert views[0] == views[1]
    assert views[0]["phase"] == "claims" and views[0]["claim_window"]["may"] == {}
    assert refusals[0] == refusals[1]


def test_a_seat_sees_its_own_tiles_the_public_none_the_officials_all():
    for table, stop in played():
        seen = views(table)
        referee = seen["referee"]
        in_play = referee["phase"] != "over"
        for viewer, view in seen.items():
            assert view["viewer"] == viewer
            for seat in view["seats"]:
                mine = viewer == f"seat:{seat['seat']}"
                shown = mine or viewer in ("referee", "committee", "auditor") or not in_play
                own = referee["seats"][seat["seat"]]
                assert seat["concealed"] == (own["concealed"] if shown else None), (stop, viewer)
                assert seat["drawn"] == (own["drawn"] if shown else None), (stop, viewer)
                # public at every moment: counts, melds, the pools in order
                assert seat["tile_count"] == len(own["concealed"])
                assert (seat["melds"], seat["discards"]) == (own["melds"], own["discards"])
            officials = viewer in ("referee", "committee", "auditor") or not in_play
            assert view["wall"] == (referee["wall"] if officials else None), (stop, viewer)
            assert view["wall_count"] == referee["wall_count"]
            assert (view["wins"], view["payments"]) == (referee["wins"], referee["payments"])


def test_the_claim_window_shows_each_seat_only_its_own_options_and_tiles():
    for table, stop in played():
        if stop != "a chow called, the pong may still come":
            continue
        seen = views(table)
        referee = seen["referee"]["claim_window"]
        assert referee["may"] == {"0": ["pong"], "2": ["chow"], "3": []}
        assert referee["claims"] == [{"seat": 2, "kind": "chow", "tiles": ["4p", "6p"],
                                      "irregular": False}]
        public = seen["public"]["claim_window"]
        assert (public["may"], public["passed"]) == ({}, [])
        assert public["claims"] == [{"seat": 2, "kind": "chow", "tiles": None,
                                     "irregular": None}]        # the call is heard, not shown
        assert seen["seat:0"]["claim_window"]["may"] == {"0": ["pong"]}
        assert seen["seat:2"]["claim_window"]["claims"][0]["tiles"] == ["4p", "6p"]
        assert seen["seat:1"]["claim_window"]["may"] == {}       # the discarder
        return
    pytest.fail("the stop was not reached")


def test_a_finished_hand_is_public_and_shows_its_payments():
    *_, (table, stop) = played()
    assert stop == "over"
    public, referee = table.hand_view(view="public"), table.hand_view()
    assert public["phase"] == "over" and public["seats"] == referee["seats"]
    assert public["wall"] == referee["wall"] and public["wall"] is not None
    assert public["payments"] == [-2, -1, 4, -1]            # Ex 8: seat 2 on the dealer's 5m
    assert public["balances"] == [18, 19, 24, 19] and public["next_dealer"] == 1
    match = table.match(view="public")
    assert match["current_hand"]["hand"] == 1 and table.results()[0]["payments"] == \
        [-2, -1, 4, -1]
    assert match["ranking"][0]["team"] == "west"


# --- the past and a fresh fold --------------------------------------------------------------------

def test_every_read_at_a_past_position_equals_what_was_live_then():
    live = []
    for table, _ in played():
        for viewer in ("public", "seat:2", "referee"):
            match = table.match(view=viewer)
            live.append((viewer, match["position"], match, table.hand_view(view=viewer)))
    for viewer, position, match, hand in live:
        assert table.match(view=viewer, at=position) == match
        assert table.hand_view(view=viewer, at=position) == hand


def test_reads_folded_afresh_from_the_log_are_byte_identical_to_the_live_ones():
    store = InMemoryEventStore()
    *_, (table, _) = played(store)
    paths = [f"{BASE}/matches/S1-T1?as={v}" for v in VIEWERS] + \
        [f"{BASE}/matches/S1-T1/hands/1?as={v}" for v in VIEWERS] + \
        [f"{BASE}/matches", f"{BASE}/groups", f"{BASE}/standings"]
    live = {p: table.client.get(p).data for p in paths}
    fresh = admin_client(create_app(store=store))          # another process: no cache at all
    assert {p: fresh.get(p).data for p in paths} == live


# --- not found --------------------------------------------------------------------------------------

def test_not_found_a_hand_not_dealt_a_table_not_started_or_not_yet_at_a_position():
    client = admin_client(create_app(store=InMemoryEventStore()))
    table = Table(client)
    started_at = table.match()["position"]
    assert client.get(f"{BASE}/matches/S1-T1/hands/1").status_code == 404
    assert client.get(f"{BASE}/matches/S1-T2").status_code == 404
    assert client.get(f"{BASE}/matches/S1-T1?at={started_at - 1}").status_code == 404
    table.deal()
    dealt_at = table.match()["position"]
    assert client.get(f"{BASE}/matches/S1-T1/hands/1?at={dealt_at - 1}").status_code == 404
    assert client.get(f"{BASE}/matches/S1-T1/hands/2").status_code == 404
    assert client.get(f"{BASE}/matches/S1-T1/hands/1?as=seat:4").status_code == 400
