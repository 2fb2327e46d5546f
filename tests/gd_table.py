"""A 掼蛋 table over the HTTP API, for tests: a knockout tournament of two teams, its one match
started, and helpers to deal chosen cards and bring a hand or the match to the point a test
needs.

    table = Table(client)                        # match R1-1, side A = team "east" at seats 0, 2
    table.deal({0: "BJ BJ SJ SJ"}, leader=0)     # hand 1 (level 2), seat 0 leads
    table.ok("GDCardsPlayed", seat=0, cards=["BJ", "BJ", "SJ", "SJ"])
    table.rejected("Passed", "GD-5.2", seat=0)   # 422 naming the rule, nothing stored
    table.steer([1, 3])                          # the rest of the hand: seats 1, 3 go out first
    table.to_hand({0: "…"}, previous=[1, 3])     # hand 1 played so that 1, 3 go out first,
                                                 # then hand 2 dealt with seat 0's cards fixed

Steering posts the whole rest of a hand as one batch: the cards and the moves are computed with
the pure rules from the match folded locally from its stream, so each move is legal and the
server judges every one of them again.
"""
from __future__ import annotations

import random
from collections.abc import Iterable
from datetime import UTC, datetime

import tables
from tables import ok, two_team_knockout

from rules.guandan import hand as hands
from rules.guandan.moves import legal_plays, random_legal_play
from rules.guandan.procedure import random_deal, stacked_deal
from rules.guandan.tribute import return_choices, tribute_choices

TID = "gd-test"
NO_HAND = ("TimeLimitReached", "RulingRecorded", "LevelPenaltyAssessed")


class Clock(tables.Clock):
    """The server's clock, moved by the test: the match clock (T-5.4, GD-11.2) is measured on
    recorded times."""

    def __init__(self):
        super().__init__(datetime(2019, 6, 8, 10, 0, tzinfo=UTC))


def steered_move(h, order: list[int]):
    """The seat to move in hand state ``h`` and its combination (None: a pass), so that the
    seats of ``order`` go out first, in that order: the next of them to go out leads his biggest
    combination whenever he leads and beats the others' lowest single; the rest pass."""
    target = next(s for s in order if s not in h.order)
    seat = h.turn
    if h.trick.is_lead:
        mine = list(legal_plays(h.hands[seat], h.level))
        return seat, max(mine, key=lambda c: c.size) if seat == target else \
            min((c for c in mine if c.size == 1), key=lambda c: c.key)
    if seat == target:
        return seat, next(iter(legal_plays(h.hands[seat], h.level, h.trick.top)), None)
    return seat, None


def drawn_knockout(client, tid: str = TID, match_settings: dict | None = None) -> None:
    """A Guandan knockout of two teams, east and west, and its round 1 drawn with matching
    cards (T-5.5): match R1-1 (east = side A), not yet started."""
    two_team_knockout(client, tid, "GD", match_settings, cards={"east": "2H", "west": "2D"})


class Table(tables.ApiTable):
    """One GD match of a fresh tournament, played through the HTTP API."""

    NO_HAND = NO_HAND

    def __init__(self, client, settings: dict | None = None, tid: str = TID):
        self.client, self.tid = client, tid
        drawn_knockout(client, tid, settings)
        ok(client.post(f"/v1/tournaments/{tid}/matches", json={"match_id": "R1-1"}))
        self.mid, self.stream, self.hand = "R1-1", f"match-{tid}:R1-1", 1

    # --- getting a hand to a point -------------------------------------------------------------
    def deal(self, fixed: dict[int, str] | None = None, *, level: str | None = None,
             low_seats: Iterable[int] = (), leader: int | None = None,
             marked: str | None = None, hand: int | None = None) -> dict:
        """Deals hand ``hand`` (default: the next) with ``fixed`` cards at their seats
        (:func:`stacked_deal`; ``low_seats`` get the lowest of the rest) — or, with neither, two
        decks shuffled by the hand's number. Hand 1 records its first-lead draw: ``leader``
        (default 0) drew ``marked`` (default one of his cards)."""
        m = self.state()
        self.hand = hand or (m.next_hand if m is not None else 1)
        level = level or (m.standing.levels[m.standing.level_team]
                          if m.standing.level_team is not None else "2")
        if fixed is None and not low_seats:
            self.dealt = [list(h) for h in random_deal(random.Random(self.hand))]
        else:
            self.dealt = [list(h) for h in stacked_deal(fixed or {}, level, low_seats)]
        data = {"hands": self.dealt}
        if m.previous_order is None:
            leader = 0 if leader is None else leader
            marked = marked or next(c for c in self.dealt[leader] if c not in ("BJ", "SJ", "2H"))
            data.update(markedCard=marked, firstLeader=leader)
        return self.ok("GDHandDealt", **data)

    def settle_tribute(self) -> None:
        """Every payer pays his first allowed card, then every receiver returns his first
        allowed card (GD-7.2, 7.4)."""
        m = self.state()
        h = m.hand.state
        events = []
        for payer in h.plan.payers:
            if h.phase != "tribute":
                break
            card = tribute_choices(h.hands[payer], h.level)[0]
            h = hands.pay_tribute(h, payer, card)
            events.append(("TributePaid", {"seat": payer, "card": card}))
        for payer, receiver in sorted(h.assigned.items()):
            card = return_choices(h.plan, h.hands[receiver], h.paid[payer], h.level,
                                  m.settings)[0]
            h = hands.return_tribute(h, receiver, card)
            events.append(("TributeReturned", {"seat": receiver, "card": card}))
        self.batch(events)

    def steer(self, order: list[int], until_out: int | None = None) -> dict | None:
        """Plays the rest of the hand so that the seats of ``order`` go out first, in that order
        (two seats of a team: double down; three: the fourth is last; :func:`steered_move`).
        Returns the hand's result row — or, with ``until_out``, stops as soon as that seat is
        out and returns None."""
        h = self.state().hand.state
        events = []
        while h.phase == "play" and until_out not in h.order:
            seat, combo = steered_move(h, order)
            if combo is None:
                h = hands.pass_turn(h, seat)
                events.append(("Passed", {"seat": seat}))
            else:
                h = hands.play(h, seat, combo.cards, combo.wild_as)
                events.append(("GDCardsPlayed", {"seat": seat, "cards": list(combo.cards),
                                                  "wildAs": list(combo.wild_as)}))
        assert list(h.order) == order[:len(h.order)], (h.order, order)
        self.batch(events)
        return None if until_out is not None else self.hand_view()["result"]

    def to_hand(self, fixed: dict[int, str] | None = None, *, previous: list[int],
                low_seats: Iterable[int] = ()) -> dict:
        """Plays the current hand (dealing hand 1 first if need be) to the going-out order
        ``previous``, then deals the next hand with ``fixed`` cards; returns the new hand."""
        m = self.state()
        if m.hand is None:
            self.deal()
        elif m.hand.in_play and m.hand.state.phase != "play":
            self.settle_tribute()
        self.steer(previous)
        self.deal(fixed, low_seats=low_seats)
        return self.hand_view()

    def play_hand(self, order: list[int], fixed: dict[int, str] | None = None) -> dict:
        """Deals the next hand, settles its tribute and steers it to the going-out order
        ``order``; returns its result row."""
        self.deal(fixed)
        self.settle_tribute()
        return self.steer(order)

    def finish_hand(self, seed: int = 0, pass_chance: float = 0.3) -> dict:
        """Random legal moves (seeded) until the hand ends; returns the referee's view of it."""
        rng = random.Random(seed)
        h = self.state().hand.state
        events = []
        while h.phase == "play":
            seat = h.turn
            combo = random_legal_play(h.hands[seat], h.level, h.trick.top, rng)
            if combo is None or (not h.trick.is_lead and rng.random() < pass_chance):
                h = hands.pass_turn(h, seat)
                events.append(("Passed", {"seat": seat}))
            else:
                h = hands.play(h, seat, combo.cards, combo.wild_as)
                events.append(("GDCardsPlayed", {"seat": seat, "cards": list(combo.cards),
                                                  "wildAs": list(combo.wild_as)}))
        self.batch(events)
        return self.hand_view()
