"""Reading an SJ2 match and its hands: hidden information by viewer (rules README §5, SJ2-6.3),
state as of any position (``?at=``) equal to a fresh fold of the log, and 404s."""
from __future__ import annotations

import json
import random

import pytest
from clients import admin_client
from sj2_table import TID, Table

from events.memory_store import InMemoryEventStore
from events.sqlite_store import SQLiteEventStore
from service import create_app

MATCH = f"/v1/tournaments/{TID}/matches/R1-1"
SEATS = ("seat:0", "seat:1", "seat:2", "seat:3")


def new_table(settings: dict | None = None) -> Table:
    return Table(admin_client(create_app(store=InMemoryEventStore())), settings)


def hidden_everywhere(view: dict, but: int | None = None) -> None:
    """No seat's cards but seat ``but``'s, and no kitty, in a view of a hand in play."""
    for seat in view["seats"]:
        if seat["seat"] != but:
            assert (seat["cards"], seat["dealt"]) == (None, None), seat
    assert (view["kitty"]["cards"], view["kitty"]["dealt"]) == (None, None)


def at_each_step(table: Table):
    """Deals, declares, buries and plays a trick and a half, yielding the phase at each stop."""
    table.deal({0: "2S"})
    yield "declaring"
    table.ok("TrumpDeclared", seat=0, card="2S")
    table.ok("DealCompleted")
    table.ok("DeclarationWindowClosed")
    yield "kitty"
    table.ok("KittyTaken")
    yield "burying"
    table.ok("KittyBuried", cards=table.dealt["kitty"])
    yield "playing"
    rng = random.Random(1)
    for _ in range(6):
        table.play_legal(rng)
    yield "playing"


# --- hidden information -----------------------------------------------------------------------

def test_public_view_shows_no_cards_and_no_kitty_during_the_hand():
    table = new_table()
    for phase in at_each_step(table):
        for public in (table.hand_view(view="public"), table.match(view="public")["current_hand"]):
            assert (public["phase"], public["viewer"]) == (phase, "public")
            hidden_everywhere(public)
        # without a token (the public itself) a hand in play is not shown at all
        anonymous = table.client.application.test_client()
        assert anonymous.get(f"{MATCH}/hands/1").status_code == 401
        assert anonymous.get(MATCH).json["current_hand"] is None
        # how many cards each holds is public
        counts = [s["card_count"] for s in table.hand_view(view="public")["seats"]]
        assert counts == [len(s["cards"]) for s in table.hand_view()["seats"]]
        assert counts[0] == {"declaring": 25, "kitty": 25, "burying": 33}.get(phase, counts[0])


@pytest.mark.parametrize("seat", [1, 2, 3])
def test_a_seat_sees_only_its_own_cards(seat):
    table = new_table()
    for _ in at_each_step(table):
        own = table.hand_view(view=f"seat:{seat}")
        referee = table.hand_view(view="referee")
        hidden_everywhere(own, but=seat)
        assert own["seats"][seat]["cards"] == referee["seats"][seat]["cards"]
        assert own["seats"][seat]["dealt"] == sorted(table.dealt["hands"][seat], key=sort_key(own))
        assert table.match(view=f"seat:{seat}")["current_hand"]["seats"] == own["seats"]


def sort_key(view):
    from rules.shengji.cards import Trump
    trump = view["trump"]
    if trump is None:
        return None
    return Trump(trump["level"], trump["suit"]).sort_key


def test_the_dealer_sees_his_buried_kitty_and_no_one_else_does():
    table = new_table()
    steps = at_each_step(table)
    next(steps)
    # before the window closes the dealer-to-be sees no kitty
    assert table.hand_view(view="seat:0")["kitty"]["cards"] is None
    next(steps)  # the window has closed: seat 0 is the dealer, the kitty still face down
    assert table.hand_view(view="seat:0")["dealer"] == 0
    assert table.hand_view(view="seat:0")["kitty"]["cards"] is None
    next(steps)  # taken: the 8 cards are in his hand
    dealer = table.hand_view(view="seat:0")
    assert dealer["seats"][0]["card_count"] == 33 and len(dealer["seats"][0]["cards"]) == 33
    next(steps)  # buried (SJ2-6.3: he may look at it at any time)
    for _ in range(2):
        dealer = table.hand_view(view="seat:0")
        assert sorted(dealer["kitty"]["cards"]) == sorted(table.dealt["kitty"])
        assert dealer["kitty"]["dealt"] is None  # the dealt order is not his to see
        for other in ("public", "seat:1", "seat:2", "seat:3"):
            assert table.hand_view(view=other)["kitty"]["cards"] is None, other
        next(steps, None)


@pytest.mark.parametrize("role", ["referee", "committee", "auditor"])
def test_privileged_viewers_see_everything(role):
    table = new_table()
    for phase in at_each_step(table):
        view = table.hand_view(view=role)
        for seat in range(4):
            assert view["seats"][seat]["cards"] is not None
            assert len(view["seats"][seat]["cards"]) == view["seats"][seat]["card_count"]
            assert sorted(view["seats"][seat]["dealt"]) == sorted(table.dealt["hands"][seat])
        assert view["kitty"]["dealt"] == table.dealt["kitty"]  # in dealt order (SJ2-1.4)
        if phase in ("declaring", "kitty", "playing"):
            assert sorted(view["kitty"]["cards"]) == sorted(table.dealt["kitty"])
        all_cards = [c for s in view["seats"] for c in s["cards"]] + view["kitty"]["cards"] + [
            c for t in view["tricks"] + [view["current_trick"] or {"plays": []}]
            for p in t["plays"] for c in p["cards"]]
        assert len(all_cards) == 108


def test_a_finished_hand_is_public():
    table = new_table()
    table.to_play({0: "2S"}, card="2S")
    table.finish_hand(seed=3)
    referee = table.hand_view(view="referee")
    for viewer in ("public",) + SEATS:
        view = table.hand_view(view=viewer)
        assert view["phase"] == "completed"
        assert {k: v for k, v in view.items() if k != "viewer"} == {
            k: v for k, v in referee.items() if k != "viewer"}
    public = table.hand_view(view="public")
    assert [sorted(s["dealt"]) for s in public["seats"]] == [sorted(h) for h in table.dealt["hands"]]
    assert public["kitty"]["cards"] == table.dealt["kitty"]  # buried as dealt
    assert public["kitty"]["dealt"] == table.dealt["kitty"]
    assert public["result"] is not None and public["result"] == table.results()[0]


@pytest.mark.parametrize("bad", ["bogus", "seat:4", "seat:", "Referee", ""])
def test_unknown_viewer_is_400(bad):
    table = new_table()
    table.to_play({0: "2S"}, card="2S")
    for url in (f"{MATCH}/hands/1?as={bad}", f"{MATCH}?as={bad}"):
        response = table.client.get(url)
        assert response.status_code == 400, (url, response.json)
        assert response.mimetype == "application/problem+json"
        assert response.json["type"] == "urn:paiju:problem:validation-failed"
        assert [(e["path"], e["in"]) for e in response.json["errors"]] == [("as", "query")]


def test_a_flagged_follow_does_not_reveal_cards_still_held():
    table = new_table({"enforcement": "record"})
    table.to_play({0: "2S QH QH JH JH", 1: "9H 9H 8H 8H 6H 3H"}, card="2S", no={1: "H"})
    table.ok("CardsPlayed", seat=0, cards=["QH", "QH", "JH", "JH"])
    table.ok("CardsPlayed", seat=1, cards=["9H", "9H", "6H", "3H"])  # breaks SJ2-9.4: flagged
    assert table.hand_view()["pending_correction"]["rule"] == "SJ2-9.4"
    for viewer in ("public", "seat:0", "seat:2", "seat:3"):
        view = table.hand_view(view=viewer)
        assert "8H 8H" not in json.dumps(view), viewer  # seat 1 still holds them, unseen
        assert view["pending_correction"]["rule"] == "SJ2-9.4"  # that he broke it is public
    for viewer in ("seat:1", "referee"):
        message = table.hand_view(view=viewer)["pending_correction"]["message"]
        assert "seat 1 holds the tractor 9H 9H 8H 8H in hearts" in message, viewer
    table.play_legal(random.Random(0))  # established: the same in the follow errors
    assert "message" not in table.hand_view(view="seat:3")["follow_errors"][0]


# --- ?at= ---------------------------------------------------------------------------------------

def test_state_at_a_position_equals_a_fresh_fold(tmp_path):
    path = tmp_path / "events.db"
    store = SQLiteEventStore(path)
    table = Table(admin_client(create_app(store=store)))
    live: dict[int, tuple[dict, dict]] = {}  # position -> (hand view, match view) read live

    def record(envelope: dict) -> None:
        live[envelope["position"]] = (table.hand_view(), table.match())

    started = last_position(table)
    record(table.deal({0: "2S", 1: "2H 2H"}))
    record(table.ok("TrumpDeclared", seat=0, card="2S"))
    record(table.ok("TrumpOvercalled", seat=1, cards=["2H", "2H"]))
    for event in ("DealCompleted", "DeclarationWindowClosed", "KittyTaken"):
        record(table.ok(event))
    assert table.hand_view()["dealer"] == 1
    record(table.ok("KittyBuried", cards=table.dealt["kitty"]))
    rng = random.Random(5)
    for _ in range(9):
        record(table.play_legal(rng))
    table.finish_hand(seed=5)
    last_of_hand_1 = last_position(table)
    record_last = (table.hand_view(), table.match())
    live[last_of_hand_1] = record_last
    table.hand = 2
    dealt_2 = table.deal({}, seed=9)
    assert dealt_2["data"]["hand"] == 2

    positions = sorted(live)
    fresh_store = SQLiteEventStore(path)  # a new app on the same file: nothing cached
    fresh = Table.attach(admin_client(create_app(store=fresh_store)))
    try:
        for p in positions:
            hand_live, match_live = live[p]
            for reader in (table, fresh):
                assert reader.hand_view(1, at=p) == hand_live, p
                assert reader.match(at=p) == match_live, p
        # hand 2 did not exist at the end of hand 1, and hand 1 not before its deal
        for reader in (table, fresh):
            assert reader.client.get(f"{MATCH}/hands/2?at={last_of_hand_1}&as=referee") \
                .status_code == 404
            assert reader.client.get(f"{MATCH}/hands/1?at={started}").status_code == 404
            assert reader.match(at=started)["current_hand"] is None
            assert reader.hand_view(2)["phase"] == "declaring"
            assert reader.hand_view(1)["phase"] == "completed"
        # the live reads of the new app equal those of the first one
        assert fresh.hand_view(1) == table.hand_view(1)
        assert fresh.match() == table.match()
    finally:
        fresh_store.close()
        store.close()


def test_at_filters_the_viewer_too():
    table = new_table()
    table.to_play({0: "2S"}, card="2S")
    position = table.play_legal(random.Random(0))["position"]
    table.finish_hand(seed=0)
    then = table.hand_view(view="seat:2", at=position)
    assert then["phase"] == "playing"
    hidden_everywhere(then, but=2)
    assert table.hand_view(view="public")["seats"][1]["dealt"] is not None  # public now


# --- 404 -------------------------------------------------------------------------------------------

def test_reads_of_what_does_not_exist_are_404():
    table = new_table()
    table.to_play({0: "2S"}, card="2S")
    for url in (f"{MATCH}/hands/9", f"{MATCH}/hands/2?as=referee",
                f"/v1/tournaments/{TID}/matches/R9-9", f"/v1/tournaments/{TID}/matches/R9-9/hands/1",
                "/v1/tournaments/nowhere/matches/R1-1", "/v1/tournaments/nowhere/matches/R1-1/hands/1"):
        response = table.client.get(url)
        assert response.status_code == 404, url
        assert response.mimetype == "application/problem+json"
        assert response.json["type"] == "urn:paiju:problem:not-found"
    assert table.client.get(f"{MATCH}/hands/1").status_code == 200


def last_position(table: Table) -> int:
    return table.client.get(f"/v1/tournaments/{TID}/events?limit=1000").json["events"][-1]["position"]


def ok_json(response) -> dict:
    assert response.status_code == 200, response.json
    return response.json


def test_sj2_15_2_earlier_tricks_show_only_the_viewers_own_cards_until_the_hand_ends():
    table = new_table()
    table.to_play({0: "2S"}, card="2S")
    rng = random.Random(4)
    for _ in range(5):  # trick 1 and the lead of trick 2
        table.play_legal(rng)
    seat_view = table.hand_view(view="seat:1")
    done = seat_view["tricks"][0]
    assert [p["cards"] is None for p in done["plays"]] == [p["seat"] != 1 for p in done["plays"]]
    assert done["winner"] is not None and seat_view["current_trick"]["plays"][0]["cards"]
    assert all(p["cards"] for p in table.hand_view(view="referee")["tricks"][0]["plays"])
    table.finish_hand(4)
    finished = table.hand_view(view="seat:1")["tricks"][0]
    assert all(p["cards"] for p in finished["plays"])
