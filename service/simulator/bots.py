"""What a table does next in a Shengji match, decided from the referee's view of it (the JSON of
``GET …/matches/{mid}?as=referee``): the dealing machine deals, players declare, the timer
closes the window, the dealer buries, the player on turn plays a random legal card.

Pure: the same view and the same ``rng`` give the same event. The rules' own move generators
make every play legal, so a rejected event means the backend and the rules disagree.

The same bots play three-deck SJ3 (``match["game"]``): they reveal and counter-reveal by count
(SJ3-3), end the drawing and take the kitty (the server judges the 5-second pause on its clock,
SJ3-3.6), lead one component or now and then a throw with its structure stated (SJ3-7.1) —
designating the penalty play when a throw of theirs fails (SJ3-7.3) — and follow by SJ3-8.
"""
from __future__ import annotations

import random
from typing import Mapping

from rules.shengji import obligations
from rules.shengji.cards import Trump, deck
from rules.shengji.random_moves import random_component, random_follow, random_lead
from rules.shengji.stated_leads import lead_components

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
    decks, hand_size = _SIZES[match["game"]]
    if hand is None or hand["phase"] == "completed":
        return deal(match["next_hand"], rng, decks, hand_size)
    if hand["phase"] == "voided":
        return deal(hand["hand"], rng, decks, hand_size)
    if match["game"] == "SJ3":
        return _SJ3_PHASES[hand["phase"]](hand, rng, match["settings"])
    return _PHASES[hand["phase"]](hand, rng)


# game -> (decks, cards per player): SJ2-1.1/1.3, SJ3-1.1/1.3
_SIZES = {"SJ2": (2, 25), "SJ3": (3, 39)}


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


def _burying(hand: Mapping, rng: random.Random, size: int = 8) -> Action:
    cards = hand["seats"][hand["dealer"]]["cards"]
    return "KittyBuried", {"hand": hand["hand"], "cards": rng.sample(cards, hand["kitty"]["size"] or size)}


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


# --- SJ3 -----------------------------------------------------------------------------------------

def _sj3_declaring(hand: Mapping, rng: random.Random, settings: Mapping) -> Action:
    """Reveals while the cards are drawn, then DrawingEnded, then KittyTaken (SJ3-3.6). A hand
    in which nobody revealed — a first deal, or any under ``noRevealRule: redeal`` — is revealed
    now if anyone can, else dealt again (SJ3-3.7)."""
    bidding, number = hand["bidding"], hand["hand"]
    if bidding["deal_completed_at"] is None:
        if len(bidding["history"]) < MAX_BIDS_PER_HAND and rng.random() < 0.6:
            bid = _a_reveal(hand, rng)
            if bid is not None:
                return bid
        return "DrawingEnded", {"hand": number}
    if bidding["standing"] is None and (hand["dealer"] is None
                                        or settings["noRevealRule"] == "redeal"):
        return _a_reveal(hand, rng) or ("HandVoided", {"hand": number, "reason": "no reveal"})
    return "KittyTaken", {"hand": number}


def _a_reveal(hand: Mapping, rng: random.Random) -> Action | None:
    """A reveal (nothing stands) or a counter-reveal by more identical level cards, of another
    suit unless the deal can still be seized, by a seat whose reveal does not stand (SJ3-3)."""
    level, standing = hand["level"], hand["bidding"]["standing"]
    options = []
    for seat_view in hand["seats"]:
        seat, cards = seat_view["seat"], seat_view["cards"]
        level_cards = sorted({c for c in cards if c[0] == level and c not in ("BJ", "SJ")})
        if standing is None:
            options += [("TrumpDeclared", {"hand": hand["hand"], "seat": seat, "card": c})
                        for c in level_cards]
        elif standing["seat"] != seat:
            options += [("TrumpOvercalled", {"hand": hand["hand"], "seat": seat, "cards": [c] * n})
                        for c in level_cards for n in (2, 3)
                        if n > len(standing["cards"]) and cards.count(c) >= n
                        and (hand["dealer"] is None or c[1] != standing["suit"])]
    return rng.choice(sorted(options, key=str)) if options else None


def _sj3_burying(hand: Mapping, rng: random.Random, settings: Mapping) -> Action:
    return _burying(hand, rng, 6)


def _sj3_playing(hand: Mapping, rng: random.Random, settings: Mapping) -> Action:
    trump = Trump(hand["trump"]["level"], hand["trump"]["suit"], hand["trump"]["chain"])
    trick = hand["current_trick"]
    if trick is not None and trick["throw"] is not None and trick["throw"]["forced"] is None:
        throw = trick["throw"]
        return "ThrowPenaltyChoice", {"hand": hand["hand"], "seat": throw["designator"],
                                      "component": rng.choice(throw["options"])}
    seat = hand["turn"]
    cards = hand["seats"][seat]["cards"]
    data = {"hand": hand["hand"], "seat": seat}
    if trick is None:
        play, structure = _an_sj3_lead(cards, trump, rng)
        if structure is not None:
            data["structure"] = structure
    else:
        lead = lead_components(trick["plays"][0]["cards"], trump, trick["structure"])
        play = obligations.random_follow(lead, cards, trump, rng)
    return "CardsPlayed", {**data, "cards": list(play)}


def _an_sj3_lead(cards: list[str], trump: Trump, rng: random.Random):
    """Mostly one component (SJ3-6.4); now and then a throw with its structure stated (SJ3-7.1)
    — a component and a single of another card of its class — which the backend judges
    (SJ3-7.2, 7.3)."""
    component = random_component(cards, trump, rng)
    if rng.random() < 0.1:
        cls = trump.card_class(component[0])
        others = sorted({c for c in cards if trump.card_class(c) == cls and c not in component})
        if others:
            single = rng.choice(others)
            return component + (single,), [list(component), [single]]
    return component, None


# "kitty": the window closed by the timer's DeclarationWindowClosed (SJ3-3.6), the kitty not
# yet taken
_SJ3_PHASES = {"declaring": _sj3_declaring, "kitty": lambda hand, rng, settings: _kitty(hand, rng),
               "burying": _sj3_burying, "playing": _sj3_playing}
