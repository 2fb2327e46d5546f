"""A mahjong (MJO) table over the HTTP API, for tests: a groups tournament of four players, its
one table drawn by lots and started, and helpers to deal chosen tiles and bring a hand to the
point a test needs.

    table = Table(client)                      # table S1-T1: east, south, west, north at 0-3
    table.deal({0: "1m 2m 3m ...", 2: "5p 5p"}, wall="7s 8s")   # dealer seat 0
    table.draw_discard(1, "7s")               # seat 1 draws the next wall tile, discards 7s
    table.rejected("Claim", "MJO-4.1", seat=3, kind="chow", tiles=["4p", "6p"])
"""
from __future__ import annotations

from collections import Counter

from clients import admin_client, hand_results
from tables import Clock, ok

from events.memory_store import InMemoryEventStore
from rules.mahjong.tiles import parse_tiles, tile_set
from service import create_app

TID = "mjo-test"
PLAYERS = (("east", "甲"), ("south", "乙"), ("west", "丙"), ("north", "丁"))
TABLE = "S1-T1"
# A claim window long enough that no test's claims arrive late by accident (MJO-4.5 is tested
# with its own setting).
TEST_SETTINGS = {"claimWindowSeconds": 60}


# The faces in the order the filler deals them: ranks three apart in each suit, so that a
# seat's filler tiles make few chows, pairs or claims of their own.
_SPREAD = [f"{r}{s}" for start in (1, 2, 3) for s in "mps" for r in (start, start + 3, start + 6)] \
    + list("ESWNCFP")


def clocked_client(clock: Clock):
    """A client of a fresh server whose store records events at ``clock``'s times."""
    store = InMemoryEventStore()
    store.clock = clock
    return admin_client(create_app(store=store))


def deal_tiles(fixed: dict[int, str], dealer: int = 0, wall: str = "") -> dict:
    """Four hands (dealer 14, others 13) and the live wall: the given tiles where given, every
    other tile of the 136 in a fixed order — four rounds through the faces, ranks three apart —
    so that the rest of each hand is scattered; the wall starts with ``wall``."""
    pool = Counter(tile_set(136))
    given = {s: list(parse_tiles(t)) for s, t in fixed.items()}
    front = list(parse_tiles(wall))
    for tiles in (*given.values(), front):
        pool.subtract(tiles)
    assert min(pool.values()) >= 0, "more than four of a tile"
    copies = [(k, t) for t, n in pool.items() for k in range(n)]
    rest = [t for k, t in sorted(copies, key=lambda kt: (kt[0], _SPREAD.index(kt[1])))]
    hands = []
    for seat in range(4):
        tiles = given.get(seat, [])
        need = (14 if seat == dealer else 13) - len(tiles)
        hands.append(tiles + rest[:need])
        rest = rest[need:]
    return {"dealer": dealer, "hands": hands, "wall": front + rest}


def groups_tournament(client, tid: str = TID, match_settings: dict | None = None,
                      settings: dict | None = None, players=PLAYERS) -> None:
    """A groups MJO tournament with the players registered (not drawn)."""
    ok(client.post("/v1/tournaments", json={
        "tournament_id": tid, "name": "渥太华麻将 test", "game": "MJO", "format": "groups",
        "settings": {"match": {**TEST_SETTINGS, **(match_settings or {})}, **(settings or {})}}))
    ok(client.post(f"/v1/tournaments/{tid}/events", json={"events": [
        {"type": "TeamRegistered", "stream": f"tournament-{tid}",
         "data": {"team_id": team, "name": name, "players": [name]}}
        for team, name in players]}))


def draw_table(client, tid: str = TID, seating=None, match_id: str = TABLE, stage: int = 1):
    ok(client.post(f"/v1/tournaments/{tid}/events", json={
        "type": "LotsDrawn", "stream": f"tournament-{tid}",
        "data": {"purpose": "tables", "round": stage, "tables": [
            {"match_id": match_id, "players": list(seating or [t for t, _ in PLAYERS])}]}}))


class Table:
    """One MJO table of a fresh groups tournament, played through the HTTP API."""

    def __init__(self, client, settings: dict | None = None, tid: str = TID):
        self.client, self.tid = client, tid
        groups_tournament(client, tid, settings)
        draw_table(client, tid)
        ok(client.post(f"/v1/tournaments/{tid}/matches", json={"match_id": TABLE}))
        self.mid, self.stream, self.hand = TABLE, f"match-{tid}:{TABLE}", 1

    # --- posting ---------------------------------------------------------------------------
    def post(self, event_type: str, /, hand: int | None = None, **data):
        body = {"type": event_type, "stream": self.stream, "data": dict(data)}
        if event_type not in ("TimeLimitReached", "RulingRecorded", "LotsDrawn", "DiceRolled",
                              "CoinPenaltyAssessed"):
            body["data"]["hand"] = self.hand if hand is None else hand
        elif hand is not None:
            body["data"]["hand"] = hand
        return self.client.post(f"/v1/tournaments/{self.tid}/events", json=body)

    def ok(self, event_type: str, **data) -> dict:
        return ok(self.post(event_type, **data))

    def rejected(self, event_type: str, rule: str, /, **data) -> dict:
        """Posts an event that must be refused with 422 naming ``rule``; checks nothing was
        stored."""
        before = self.events()
        response = self.post(event_type, **data)
        assert response.status_code == 422, response.json
        assert response.headers["Content-Type"] == "application/problem+json"
        assert response.json["rule"] == rule, response.json
        assert rule in response.json["detail"]
        assert self.events() == before
        return response.json

    def bad_input(self, event_type: str, path: str, /, **data) -> dict:
        """Posts an event whose data does not match its schema: 400 naming ``path``."""
        before = self.events()
        response = self.post(event_type, **data)
        assert response.status_code == 400, response.json
        assert response.headers["Content-Type"] == "application/problem+json"
        assert path in [e["path"] for e in response.json["errors"]], response.json
        assert self.events() == before
        return response.json

    def events(self) -> int:
        return len(self.client.get(
            f"/v1/tournaments/{self.tid}/events?limit=1000").json["events"])

    # --- reading -----------------------------------------------------------------------------
    def match(self, view: str = "referee", at: int | None = None) -> dict:
        query = f"?as={view}" + (f"&at={at}" if at is not None else "")
        return ok(self.client.get(f"/v1/tournaments/{self.tid}/matches/{self.mid}{query}"))

    def results(self, at: int | None = None) -> list[dict]:
        """The result row of every finished hand (the paged ``GET …/hands``)."""
        return hand_results(self.client, self.tid, self.mid, at)

    def hand_view(self, n: int | None = None, view: str = "referee",
                  at: int | None = None) -> dict:
        query = f"?as={view}" + (f"&at={at}" if at is not None else "")
        return ok(self.client.get(
            f"/v1/tournaments/{self.tid}/matches/{self.mid}/hands/{n or self.hand}{query}"))

    def concealed(self, seat: int) -> list[str]:
        return self.hand_view()["seats"][seat]["concealed"]

    # --- getting a hand to a point -------------------------------------------------------------
    def deal(self, fixed: dict[int, str] | None = None, dealer: int = 0, wall: str = "") -> dict:
        """Deals hand ``self.hand`` with the given tiles (hand 1 names its dealer)."""
        self.dealt = deal_tiles(fixed or {}, dealer, wall)
        data = dict(self.dealt)
        if self.hand > 1:
            data.pop("dealer")
        return self.ok("TilesDealt", **data)

    def settle(self) -> None:
        """Every seat yet to answer the open claim window passes, one after another, until it
        closes (the window waits for every other seat still in the hand, MJO-4.5)."""
        while (seat := self.unanswered()) is not None:
            self.ok("ClaimPassed", seat=seat)

    def unanswered(self) -> int | None:
        """The first seat, in turn order after the discarder, that answers the open claim
        window and has not yet; None when no window is open."""
        view = self.hand_view()
        window = view["claim_window"]
        if window is None:
            return None
        out = view.get("out") or [False] * 4            # MJS-4.1: winners do not answer
        answered = set(window["passed"]) | {c["seat"] for c in window["claims"]}
        order = [(window["discarder"] + k) % 4 for k in (1, 2, 3)]
        return next((s for s in order if not out[s] and s not in answered), None)

    def next_tile(self) -> str:
        return self.hand_view()["wall"][0]

    def draw(self, seat: int | None = None) -> str:
        self.settle()
        view = self.hand_view()
        seat = view["turn"] if seat is None else seat
        tile = view["wall"][0]
        self.ok("TileDrawn", seat=seat, tile=tile)
        return tile

    def draw_discard(self, seat: int | None = None, tile: str | None = None) -> str:
        """The seat on turn (or ``seat``) draws the next wall tile and discards ``tile``
        (default: the tile drawn) — unless that was the last tile and the hand is over, or the
        open window was on the last discard and its closing ended the hand (MJS-8.1)."""
        self.settle()
        if self.hand_view()["phase"] == "over":
            return None
        drawn = self.draw(seat)
        view = self.hand_view()
        if view["phase"] == "discard":       # not when the last tile ended the hand (MJO-6.1)
            self.ok("TileDiscarded", seat=view["turn"], tile=tile or drawn)
        return drawn


def opened(client, fixed: dict[int, str] | None = None, wall: str = "",
           settings: dict | None = None, first: str = "N", settle: bool = True) -> Table:
    """Hand 1 dealt (dealer seat 0, who also holds ``first``), the dealer's first discard of
    ``first`` made and (with ``settle``) any claim window on it passed: seat 1 is to draw the
    wall's first tile."""
    fixed = dict(fixed or {})
    fixed[0] = (fixed.get(0, "") + f" {first}").strip()
    table = Table(client, settings)
    table.deal(fixed, wall=wall)
    table.ok("TileDiscarded", seat=0, tile=first)
    if settle:
        table.settle()
    return table
