"""A Sichuan (MJS) table over the HTTP API, for tests: a groups tournament of eight players, its
first stage drawn by lots as two tables and table S1-T1 started (or the final of four, with
``final``), and helpers to deal chosen tiles, declare the void suits and bring a hand to the
point a test needs. The MJO table helper (mj_table) does the posting and reading.

    table = Table(client)                     # S1-T1: east, south, west, north at seats 0-3
    table.deal({0: "7s", 2: "1m 2m 3m ..."})  # dealer seat 0
    table.voids("mmps")                       # each seat's void suit, seat 0 first
    table.ok("TileDiscarded", seat=0, tile="7s")
    table.rejected("Claim", "MJS-5.6", seat=2, kind="win")
"""
from __future__ import annotations

import mj_table
from mjs_states import deal_data
from tables import ok

TID = "mjs-test"
PLAYERS = (("east", "甲"), ("south", "乙"), ("west", "丙"), ("north", "丁"),
           ("p5", "戊"), ("p6", "己"), ("p7", "庚"), ("p8", "辛"))
TABLE = "S1-T1"
# A claim window long enough that no test's claims arrive late by accident.
TEST_SETTINGS = {"claimWindowSeconds": 60}


def tournament(client, tid: str = TID, match_settings: dict | None = None,
               settings: dict | None = None, players=PLAYERS) -> None:
    """A groups MJS tournament with the players registered (not drawn)."""
    ok(client.post("/v1/tournaments", json={
        "tournament_id": tid, "name": "永修北京商会川麻 test", "game": "MJS", "format": "groups",
        "settings": {"match": {**TEST_SETTINGS, **(match_settings or {})}, **(settings or {})}}))
    ok(client.post(f"/v1/tournaments/{tid}/events", json={"events": [
        {"type": "TeamRegistered", "stream": f"tournament-{tid}",
         "data": {"team_id": team, "name": name, "players": [name]}}
        for team, name in players]}))


class Table(mj_table.Table):
    """Table S1-T1 of a fresh MJS groups tournament of eight (two tables), or — ``final`` —
    the one table of a tournament of four, the final (T-7.4: 换三张, extra hands on ties)."""

    def __init__(self, client, settings: dict | None = None, tid: str = TID,
                 final: bool = False):
        self.client, self.tid = client, tid
        players = PLAYERS[:4] if final else PLAYERS
        tournament(client, tid, settings, players=players)
        tables = [{"match_id": TABLE, "players": [t for t, _ in PLAYERS[:4]]}]
        if not final:
            tables.append({"match_id": "S1-T2", "players": [t for t, _ in PLAYERS[4:]]})
        ok(client.post(f"/v1/tournaments/{tid}/events", json={
            "type": "LotsDrawn", "stream": f"tournament-{tid}",
            "data": {"purpose": "tables", "round": 1, "tables": tables}}))
        body = {"match_id": TABLE, **({"settings": {"final": True}} if final else {})}
        ok(client.post(f"/v1/tournaments/{tid}/matches", json=body))
        self.mid, self.stream, self.hand = TABLE, f"match-{tid}:{TABLE}", 1

    def post(self, event_type: str, /, hand: int | None = None, **data):
        if event_type == "TieDiceRolled":
            return self.client.post(f"/v1/tournaments/{self.tid}/events", json={
                "type": event_type, "stream": f"tournament-{self.tid}", "data": data})
        return super().post(event_type, hand=hand, **data)

    def deal(self, fixed: dict[int, str] | None = None, dealer: int = 0, wall: str = "",
             end: str = "") -> dict:
        """Deals hand ``self.hand`` of the 108 tiles with the given tiles (hand 1 names its
        dealer); the wall starts with ``wall`` and ends with ``end``."""
        self.dealt = deal_data(fixed or {}, dealer, wall, end)
        data = dict(self.dealt)
        if self.hand > 1:
            data.pop("dealer")
        return self.ok("TilesDealt", **data)

    def voids(self, suits: str) -> None:
        """Every seat declares its void suit (``suits``: a letter per seat, seat 0 first)."""
        for seat, suit in enumerate(suits):
            self.ok("VoidSuitDeclared", seat=seat, suit=suit)

    def scores(self) -> list[int]:
        return self.match()["balances"]


def opened(client, fixed: dict[int, str] | None = None, voids: str = "mmmm", wall: str = "",
           end: str = "", settings: dict | None = None, first: str = "9s",
           settle: bool = True) -> Table:
    """Hand 1 dealt (dealer seat 0, who also holds ``first``), the void suits declared, the
    dealer's first discard of ``first`` made and (with ``settle``) any claim window on it
    passed: seat 1 is to draw the wall's first tile."""
    fixed = dict(fixed or {})
    fixed[0] = (fixed.get(0, "") + f" {first}").strip()
    table = Table(client, settings)
    table.deal(fixed, wall=wall, end=end)
    table.voids(voids)
    table.ok("TileDiscarded", seat=0, tile=first)
    if settle:
        table.settle()
    return table


ROBBER = "4p 5p 1s 2s 3s 7s 8s 9s 2p 2p 2p 9s 9s"            # Ex 7: waits on 3p / 6p


def ex7_added_kong(table: Table) -> None:
    """mahjong-sichuan.md Ex 7 up to the added kong: seat 0 pongs 6p (seat 2 passing the win on
    it: 过水), discards 2s, and after three discards (seat 2 has drawn: 过水 lifted) draws the
    fourth 6p and adds it to his pong; the robbing window is open, seat 2 may win."""
    table.deal({0: "6p 6p 1m 2s", 1: "6p", 2: ROBBER}, wall="2m 1s 4s 7s 6p")
    table.voids("smms")
    table.ok("TileDiscarded", seat=0, tile="1m")
    table.settle()
    table.ok("TileDrawn", seat=1, tile="2m")
    table.ok("TileDiscarded", seat=1, tile="6p")
    table.ok("Claim", seat=0, kind="pong", tiles=["6p", "6p"])
    table.settle()                                              # seat 2 passes a win: 过水
    table.ok("TileDiscarded", seat=0, tile="2s")
    for _ in range(3):                                          # seat 2 draws: 过水 lifted
        table.draw_discard()
    table.settle()
    table.ok("TileDrawn", seat=0, tile="6p")
    table.ok("KongDeclared", seat=0, kind="added", tile="6p")


def ex8_kong_replacement_discarded(table: Table) -> None:
    """mahjong-sichuan.md Ex 8 up to the kong's replacement discarded: seat 3 kongs the dealer's
    9m (paid 2 by seat 1) and discards the replacement 4s, on which seat 0 may win."""
    table.deal({1: "9m", 3: "9m 9m 9m", 0: "2s 3s 1p 2p 3p 5p 6p 7p 8s 8s 8s 6p 6p"}, dealer=1,
               end="4s")
    table.voids("mppp")
    table.ok("TileDiscarded", seat=1, tile="9m")
    table.ok("Claim", seat=3, kind="kong", tiles=["9m", "9m", "9m"])
    table.settle()
    table.ok("TileDrawn", seat=3, tile="4s", fromEnd=True)
    table.ok("TileDiscarded", seat=3, tile="4s")
