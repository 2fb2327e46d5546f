"""A Shengji table over the HTTP API, for tests: a knockout tournament of two teams, its one
match started, and helpers to deal chosen cards and bring a hand to the point a test needs.

    table = Table(client)                     # match R1-1, side A = team "east" at seats 0, 2
    table.to_play({0: "2S QH QH JH JH", 1: "9H 9H 8H 8H 6H 3H"}, card="2S", no={1: "H"})
    table.ok("CardsPlayed", seat=0, cards=["QH", "QH", "JH", "JH"])
    table.rejected("CardsPlayed", "SJ2-9.4", seat=1, cards=["9H", "9H", "6H", "3H"])
    table.finish_hand(seed=0)                 # the rest of the hand in legal moves

(Hand 1 is played at level 2: a 2 is trump, so it cannot stand for a low heart.)
"""
from __future__ import annotations

import random
from collections import Counter

from tables import ApiTable, ok, two_team_knockout

from rules.shengji.cards import Trump, deck
from rules.shengji.random_moves import random_follow, random_lead

TID = "sj2-test"


def cards(text: str | list[str]) -> list[str]:
    return text.split() if isinstance(text, str) else list(text)


def build_deal(fixed: dict[int, str], kitty: str | list[str] | None = None, seed: int = 7,
               no: dict[int, str] | None = None, *, decks: int = 2, kitty_size: int = 8) -> dict:
    """Four hands and a kitty from two decks (25 each and 8; SJ3: three decks, 39 and 6): the
    fixed cards where given, the rest shuffled with ``seed``. ``no`` maps a seat to the suits
    (letters; "J" for jokers) that the shuffled rest must not give it."""
    pool = Counter(deck(decks))
    hand_size = (sum(pool.values()) - kitty_size) // 4
    hands = {seat: cards(fixed.get(seat, "")) for seat in range(4)}
    chosen_kitty = cards(kitty) if kitty is not None else None
    for cs in list(hands.values()) + ([chosen_kitty] if chosen_kitty else []):
        pool.subtract(cs)
    assert min(pool.values()) >= 0, f"the fixed cards are more than {decks} decks hold"
    rest = sorted(pool.elements())
    random.Random(seed).shuffle(rest)
    no = no or {}
    for seat in sorted(range(4), key=lambda s: -len(no.get(s, ""))):  # the fussiest first
        banned = set(no.get(seat, ""))
        fits = [c for c in rest if _suit(c) not in banned]
        take = fits[:hand_size - len(hands[seat])]
        assert len(take) == hand_size - len(hands[seat]), f"cannot fill seat {seat}"
        hands[seat] += take
        for card in take:
            rest.remove(card)
    if chosen_kitty is None:
        chosen_kitty, rest = rest[:kitty_size], rest[kitty_size:]
    assert not rest, "cannot fill the deal"
    return {"hands": [hands[s] for s in range(4)], "kitty": chosen_kitty}


def drawn_knockout(client, tid: str = TID, match_settings: dict | None = None) -> None:
    """A knockout tournament of two teams, east and west, and its round 1 drawn: match R1-1
    (east = side A), not yet started."""
    two_team_knockout(client, tid, "SJ2", match_settings)


def _suit(card: str) -> str:
    return "J" if card in ("BJ", "SJ") else card[1]


class Table(ApiTable):
    """One SJ2 match of a fresh tournament, played through the HTTP API."""

    NO_HAND = ("TimeLimitReached", "RulingRecorded")

    def __init__(self, client, settings: dict | None = None, tid: str = TID):
        self.client, self.tid = client, tid
        match_settings = {"declarationWindowSeconds": 0, **(settings or {})}
        drawn_knockout(client, tid, match_settings)
        ok(client.post(f"/v1/tournaments/{tid}/matches", json={"match_id": "R1-1"}))
        self.mid, self.stream, self.hand = "R1-1", f"match-{tid}:R1-1", 1

    @classmethod
    def attach(cls, client, tid: str = TID) -> Table:
        """The table of match R1-1 of ``tid``, already started (e.g. with other settings)."""
        table = cls.__new__(cls)
        table.client, table.tid = client, tid
        table.mid, table.stream, table.hand = "R1-1", f"match-{tid}:R1-1", 1
        return table

    # --- posting ---------------------------------------------------------------------------
    def body(self, event_type: str, /, hand: int | None = None, **data) -> dict:
        body = super().body(event_type, hand, **data)
        if event_type == "LotsDrawn" and data.get("purpose") == "matchTie":
            body["data"].pop("hand")  # the lots of a tied match are drawn after its last hand
        return body

    # --- getting a hand to a point -------------------------------------------------------------
    def deal(self, fixed: dict[int, str] | None = None, kitty=None, seed: int = 7,
             no: dict[int, str] | None = None):
        self.dealt = build_deal(fixed or {}, kitty, seed, no)
        return self.ok("HandDealt", **self.dealt)

    def to_play(self, fixed: dict[int, str] | None = None, *, declarer: int = 0,
                card: str | None = None, kitty=None, bury: list[str] | None = None,
                seed: int = 7, no: dict[int, str] | None = None) -> int:
        """Deal, let ``declarer`` declare ``card`` (a level card he is dealt; hand 1 makes him
        the dealer), close the window, take the kitty and bury ``bury`` (default: the kitty
        cards back) — the hand is then at the first lead."""
        self.deal(fixed, kitty, seed, no)
        if card is not None:
            self.ok("TrumpDeclared", seat=declarer, card=card)
        self.ok("DealCompleted")
        self.ok("DeclarationWindowClosed")
        self.ok("KittyTaken")
        dealer = self.hand_view()["dealer"]
        self.ok("KittyBuried", cards=bury if bury is not None else self.dealt["kitty"])
        return dealer

    # --- legal play --------------------------------------------------------------------------
    def legal_play(self, rng: random.Random) -> tuple[int, list[str]]:
        """The seat on turn and a legal play for it, from the referee's view: a lead of one
        component (SJ2-8.2, never a throw) or a follow that satisfies SJ2-9."""
        view = self.hand_view()
        seat, trick = view["turn"], view["current_trick"]
        held = view["seats"][seat]["cards"]
        trump = Trump(view["trump"]["level"], view["trump"]["suit"])
        if trick is None:
            return seat, list(random_lead(held, trump, rng))
        return seat, list(random_follow(trick["plays"][0]["cards"], held, trump, rng))

    def play_legal(self, rng: random.Random) -> dict:
        seat, played = self.legal_play(rng)
        return self.ok("CardsPlayed", seat=seat, cards=played)

    def finish_hand(self, seed: int = 0) -> dict:
        """Plays legal moves (seeded) until the hand ends; returns the referee's view of it."""
        rng = random.Random(seed)
        while (view := self.hand_view())["phase"] == "playing":
            self.play_legal(rng)
        return view
