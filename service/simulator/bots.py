"""What a table does next in a Shengji match, decided from the referee's view of it (the JSON of
``GET …/matches/{mid}?view=referee``): the dealing machine deals, players declare, the timer
closes the window, the dealer buries, the player on turn plays a random legal card.

Pure: the same view and the same ``rng`` give the same event. The rules' own move generators
make every play legal, so a rejected event means the backend and the rules disagree.
"""
from __future__ import annotations

import random
from typing import Mapping

from rules.shengji.cards import Trump, deck
from rules.shengji.combos import random_follow, random_lead

Action = tuple[str, dict]

MAX_BIDS_PER_HAND = 3  # bots stop bidding after this many, so every hand reaches play


def next_action(match: Mapping, rng: random.Random) -> Action | None:
    """The next event for ``match`` (referee view); None once the match is over."""
    if match["status"] == "completed":
        return None
    if match["status"] == "awaiting_lots":
        return "LotsDrawn", {"purpose": "matchTie", "candidates": ["A", "B"],
                             "winner": rng.choice(["A", "B"])}
    hand = match["current_hand"]
    if hand is None or hand["phase"] == "completed":
        return deal(match["next_hand"], rng)
    if hand["phase"] == "voided":
        return deal(hand["hand"], rng)
    return _PHASES[hand["phase"]](hand, rng)


def deal(number: int, rng: random.Random, decks: int = 2, hand_size: int = 25) -> Action:
    """HandDealt: a shuffled deck, dealt in turn, the rest as the kitty in order."""
    cards = list(deck(decks).elements())
    rng.shuffle(cards)
    hands = [cards[seat:4 * hand_size:4] for seat in range(4)]
    return "HandDealt", {"hand": number, "hands": hands, "kitty": cards[4 * hand_size:]}


def _declaring(hand: Mapping, rng: random.Random) -> Action:
    bidding, number = hand["bidding"], hand["hand"]
    # Bids come while the cards are drawn, before DealCompleted: the simulator does not wait
    # out a declaration window after it.
    drawing = bidding["deal_completed_at"] is None
    if drawing and len(bidding["history"]) < MAX_BIDS_PER_HAND and rng.random() < 0.6:
        bid = _a_bid(hand, rng)
        if bid is not None:
            return bid
    if bidding["deal_completed_at"] is None:
        return "DealCompleted", {"hand": number}
    return "DeclarationWindowClosed", {"hand": number}


def _a_bid(hand: Mapping, rng: random.Random) -> Action | None:
    """A declaration (nothing stands) or an overcall (a level pair unless no-trump stands, or a
    joker pair), by a seat other than the standing one (SJ2-4.1, 4.3 – 4.5)."""
    bidding, level = hand["bidding"], hand["level"]
    standing = bidding["standing"]
    options = []
    for seat_view in hand["seats"]:
        seat, cards = seat_view["seat"], seat_view["cards"]
        if standing is None:
            options += [("TrumpDeclared", {"hand": hand["hand"], "seat": seat, "card": c})
                        for c in set(cards) if c[0] == level and c not in ("BJ", "SJ")]
        elif standing["seat"] != seat:
            options += [("TrumpOvercalled", {"hand": hand["hand"], "seat": seat, "cards": [c, c]})
                        for c in set(cards) if cards.count(c) == 2
                        and _may_overcall_with(c, level, bidding)]
    return rng.choice(sorted(options, key=str)) if options else None


def _may_overcall_with(card: str, level: str, bidding: Mapping) -> bool:
    if card in ("BJ", "SJ"):
        return True
    return card[0] == level and not bidding["no_trump"] and not any(
        bid["suit"] is None for bid in bidding["history"])


def _awaiting_dealer(hand: Mapping, rng: random.Random) -> Action:
    return "LotsDrawn", {"purpose": "dealer", "hand": hand["hand"], "candidates": [0, 1, 2, 3],
                         "winner": rng.randrange(4)}


def _kitty(hand: Mapping, rng: random.Random) -> Action:
    return "KittyTaken", {"hand": hand["hand"]}


def _burying(hand: Mapping, rng: random.Random) -> Action:
    cards = hand["seats"][hand["dealer"]]["cards"]
    return "KittyBuried", {"hand": hand["hand"], "cards": rng.sample(cards, hand["kitty"]["size"] or 8)}


def _playing(hand: Mapping, rng: random.Random) -> Action:
    seat = hand["turn"]
    cards = hand["seats"][seat]["cards"]
    trump = Trump(hand["trump"]["level"], hand["trump"]["suit"])
    trick = hand["current_trick"]
    if trick is None:
        play = _a_lead(cards, trump, rng)
    else:
        play = random_follow(trick["plays"][0]["cards"], cards, trump, rng)
    return "CardsPlayed", {"hand": hand["hand"], "seat": seat, "cards": list(play)}


def _a_lead(cards: list[str], trump: Trump, rng: random.Random) -> tuple[str, ...]:
    """Mostly one component; now and then a throw of two singles of one class, which the
    backend judges (SJ2-8.3 – 8.5)."""
    if rng.random() < 0.08:
        by_class: dict[str, list[str]] = {}
        for card in cards:
            by_class.setdefault(trump.card_class(card), []).append(card)
        distinct = [sorted(set(group)) for group in by_class.values() if len(set(group)) >= 2]
        if distinct:
            return tuple(rng.sample(rng.choice(distinct), 2))
    return random_lead(cards, trump, rng)


_PHASES = {"declaring": _declaring, "awaiting_dealer": _awaiting_dealer, "kitty": _kitty,
           "burying": _burying, "playing": _playing}
