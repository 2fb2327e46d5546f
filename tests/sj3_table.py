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
from collections import Counter

from clients import admin_client
from tables import Clock, ok

from events.memory_store import InMemoryEventStore
from projections.shengji_views import match_view
from projections.viewers import Viewer
from rules import matches
from rules.shengji.cards import deck
from service import create_app
from service.simulator import bots

TID = "sj3-test"
NO_HAND = ("TimeLimitReached", "RulingRecorded", "LatenessRecorded")
HAND_SIZE, KITTY_SIZE = 39, 6


def cards(text: str | list[str]) -> list[str]:
    return text.split() if isinstance(text, str) else list(text)


def _suit(card: str) -> str:
    return "J" if card in ("BJ", "SJ") else card[1]


def build_deal(fixed: dict[int, str], kitty: str | list[str] | None = None, seed: int = 7,
               no: dict[int, str] | None = None) -> dict:
    """Four hands of 39 and a kitty of 6 from three decks: the fixed cards where given, the rest
    shuffled with ``seed``. ``no`` maps a seat to the suits (letters; "J" for jokers) that the
    shuffled rest must not give it."""
    pool = Counter(deck(3))
    hands = {seat: cards(fixed.get(seat, "")) for seat in range(4)}
    chosen_kitty = cards(kitty) if kitty is not None else None
    for cs in list(hands.values()) + ([chosen_kitty] if chosen_kitty else []):
        pool.subtract(cs)
    assert min(pool.values()) >= 0, "the fixed cards are more than three decks hold"
    rest = sorted(pool.elements())
    random.Random(seed).shuffle(rest)
    no = no or {}
    for seat in sorted(range(4), key=lambda s: -len(no.get(s, ""))):  # the fussiest first
        banned = set(no.get(seat, ""))
        fits = [c for c in rest if _suit(c) not in banned]
        take = fits[:HAND_SIZE - len(hands[seat])]
        assert len(take) == HAND_SIZE - len(hands[seat]), f"cannot fill seat {seat}"
        hands[seat] += take
        for card in take:
            rest.remove(card)
    if chosen_kitty is None:
        chosen_kitty, rest = rest[:KITTY_SIZE], rest[KITTY_SIZE:]
    assert not rest, "cannot fill the deal"
    return {"hands": [hands[s] for s in range(4)], "kitty": chosen_kitty}


def new_table(settings: dict | None = None, clock: Clock | None = None) -> Table:
    clock = clock or Clock()
    table = Table(admin_client(create_app(store=InMemoryEventStore(clock=clock))), settings)
    table.clock = clock
    return table


class Table:
    """One SJ3 match of a fresh tournament (format swiss, two pairs), played through the API."""

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

    # --- posting ---------------------------------------------------------------------------
    def body(self, event_type: str, /, hand: int | None = None, **data) -> dict:
        if event_type not in NO_HAND:
            data = {"hand": self.hand if hand is None else hand, **data}
        return {"type": event_type, "stream": self.stream, "data": data}

    def post(self, event_type: str, /, hand: int | None = None, **data):
        return self.client.post(f"/v1/tournaments/{self.tid}/events",
                                json=self.body(event_type, hand, **data))

    def ok(self, event_type: str, /, **data) -> dict:
        return ok(self.post(event_type, **data))

    def batch(self, events: list[tuple[str, dict]]) -> None:
        if events:
            ok(self.client.post(f"/v1/tournaments/{self.tid}/events",
                                json={"events": [{"type": t, "stream": self.stream, "data": d}
                                                 for t, d in events]}))

    def rejected(self, event_type: str, rule: str, /, **data) -> dict:
        """Posts an event that must be refused with 422 naming ``rule``; checks that nothing
        was stored."""
        before = self.events()
        response = self.post(event_type, **data)
        assert response.status_code == 422, response.json
        assert response.headers["Content-Type"] == "application/problem+json"
        assert response.json["rule"] == rule, response.json
        assert response.json["detail"].startswith(f"{rule}: ")
        assert self.events() == before
        return response.json

    def bad(self, event_type: str, /, **data) -> dict:
        """Posts an event whose data the schema refuses: 400, nothing stored."""
        before = self.events()
        response = self.post(event_type, **data)
        assert response.status_code == 400, response.json
        assert self.events() == before
        return response.json

    def events(self) -> int:
        return len(self.client.get(f"/v1/tournaments/{self.tid}/events?limit=1000").json["events"])

    # --- reading -----------------------------------------------------------------------------
    def match(self, view: str = "referee", at: int | None = None) -> dict:
        query = f"?as={view}" + (f"&at={at}" if at is not None else "")
        return ok(self.client.get(f"/v1/tournaments/{self.tid}/matches/{self.mid}{query}"))

    def hand_view(self, n: int | None = None, view: str = "referee", at: int | None = None) -> dict:
        query = f"?as={view}" + (f"&at={at}" if at is not None else "")
        return ok(self.client.get(
            f"/v1/tournaments/{self.tid}/matches/{self.mid}/hands/{n or self.hand}{query}"))

    def held(self, seat: int) -> list[str]:
        return self.hand_view()["seats"][seat]["cards"]

    def state(self):
        """The match folded here from its stream with the rules the server uses."""
        m, version = None, 0
        while True:
            page = ok(self.client.get(f"/v1/tournaments/{self.tid}/streams/{self.stream}"
                                      f"?from_version={version + 1}&limit=1000"))
            for e in page["events"]:
                m = matches.apply(m, e["type"], e["data"], e["recorded_at"])
                version = e["version"]
            if not page["next"]:
                return m

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
