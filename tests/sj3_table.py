"""A three-deck Shengji (SJ3) table over the HTTP API, for tests: a tournament of two pairs, its
one match started, and helpers to deal chosen cards and bring a hand to the point a test needs.

    table = new_table()                       # match R1-1, side A = "east" at seats 0, 2
    table.to_play({0: "2S QH QH QH", 1: "..."}, card="2S", no={1: "H"})
    table.ok("CardsPlayed", seat=0, cards=["QH", "QH", "QH"])
    table.rejected("CardsPlayed", "SJ3-8.4", seat=1, cards=["9H", "8H", "3H"])
    table.finish_hand(seed=0)                 # the rest of the hand in legal moves, one batch

The server's clock is the test's (``table.clock``): each event a millisecond after the one
before; ``to_play`` lets the dealer's 5-second pause pass before the kitty is taken (SJ3-3.6).
(Hand 1 is played at level 2: a 2 is trump, so it cannot stand for a low card of a plain suit.)
"""
from __future__ import annotations

import json
import random

import sj2_table
from clients import admin_client
from tables import ApiTable, Clock, ok

from events.memory_store import InMemoryEventStore
from projections.shengji_views import match_view
from projections.viewers import Viewer
from rules import matches
from service import create_app
from service.simulator import bots

TID = "sj3-test"
NO_HAND = ("TimeLimitReached", "RulingRecorded", "LatenessRecorded", "PairSeated",
           "LatenessLimitReached")
KITTY_SIZE = 6


def build_deal(fixed: dict[int, str], kitty: str | list[str] | None = None, seed: int = 7,
               no: dict[int, str] | None = None) -> dict:
    """Four hands of 39 and a kitty of 6 from three decks: the fixed cards where given, the rest
    shuffled with ``seed``. ``no`` maps a seat to the suits (letters; "J" for jokers) that the
    shuffled rest must not give it."""
    return sj2_table.build_deal(fixed, kitty, seed, no, decks=3, kitty_size=KITTY_SIZE)


def new_table(settings: dict | None = None, clock: Clock | None = None) -> Table:
    clock = clock or Clock()
    table = Table(admin_client(create_app(store=InMemoryEventStore(clock=clock))), settings)
    table.clock = clock
    return table


class Table(ApiTable):
    """One SJ3 match of a fresh tournament (format swiss, two pairs), played through the API."""

    NO_HAND = NO_HAND

    def __init__(self, client, settings: dict | None = None, tid: str = TID):
        self.client, self.tid = client, tid
        ok(client.post("/v1/tournaments", json={
            "tournament_id": tid, "name": "校庆杯 test", "game": "SJ3", "format": "swiss",
            "settings": {"match": settings or {}}}))
        for team, players in (("east", ["甲", "乙"]), ("west", ["丙", "丁"])):
            ok(client.post(f"/v1/tournaments/{tid}/events", json={
                "type": "TeamRegistered", "stream": f"tournament-{tid}",
                "data": {"team_id": team, "name": team, "players": players}}))
        ok(client.post(f"/v1/tournaments/{tid}/matches",
                       json={"match_id": "R1-1", "teams": {"A": "east", "B": "west"}}))
        self.mid, self.stream, self.hand = "R1-1", f"match-{tid}:R1-1", 1

    # --- getting a hand to a point -------------------------------------------------------------
    def deal(self, fixed: dict[int, str] | None = None, kitty=None, seed: int = 7,
             no: dict[int, str] | None = None, **extra) -> dict:
        self.dealt = build_deal(fixed or {}, kitty, seed, no)
        return self.ok("HandDealt", **self.dealt, **extra)

    def to_play(self, fixed: dict[int, str] | None = None, *, declarer: int = 0,
                card: str | None = None, kitty=None, bury: list[str] | None = None,
                seed: int = 7, no: dict[int, str] | None = None) -> int:
        """Deal, let ``declarer`` reveal ``card`` (a level card he is dealt; a first deal makes
        him the dealer), end the drawing, pause 5 s, take the kitty and bury ``bury`` (default:
        the kitty cards back) — the hand is then at the first lead. Returns the dealer."""
        self.deal(fixed, kitty, seed, no)
        if card is not None:
            self.ok("TrumpDeclared", seat=declarer, card=card)
        self.ok("DrawingEnded")
        self.clock.advance(seconds=5)
        self.ok("KittyTaken")
        dealer = self.hand_view()["dealer"]
        self.ok("KittyBuried", cards=bury if bury is not None else self.dealt["kitty"])
        return dealer

    def play_out(self, seed: int = 0) -> list[tuple[str, dict]]:
        """The bots' moves (seeded) from the match folded here until the hand in play ends,
        each applied locally as the server will: the events to post."""
        rng = random.Random(seed)
        m = self.state()
        events = []
        while m.hand.in_play:
            view = json.loads(json.dumps(match_view(m, Viewer("referee"))))
            event_type, data = bots.next_action(view, rng)
            m = matches.apply(m, event_type, data, None)
            events.append((event_type, data))
        return events

    def finish_hand(self, seed: int = 0) -> dict:
        """Plays legal moves (the simulator's bots, seeded) until the hand ends, posted as one
        batch; returns the referee's view of the finished hand."""
        self.batch(self.play_out(seed))
        return self.hand_view()

    def play_hand(self, seed: int) -> dict:
        """Deals the next hand (shuffled by ``seed``), lets the bots reveal and play it out; its
        result row. The 5-second pause is let pass before the kitty."""
        m = self.state()
        self.hand = m.next_hand if m is not None else 1
        self.deal(seed=seed)
        rng = random.Random(seed)
        while (m := self.state()).hand.phase == "declaring":
            view = json.loads(json.dumps(match_view(m, Viewer("referee"))))
            event_type, data = bots.next_action(view, rng)
            if event_type == "KittyTaken":
                self.clock.advance(seconds=5)
            self.ok(event_type, **{k: v for k, v in data.items() if k != "hand"})
            if event_type == "HandVoided":
                return self.play_hand(seed + 100)
        self.finish_hand(seed)
        return self.hand_view()["result"]
