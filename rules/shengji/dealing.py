"""The deal and the declarations of a Shengji hand (SJ2-1, SJ2-4, SJ2-5; SJ3-1, SJ3-3, SJ3-4):
HandDealt, TrumpDeclared, TrumpOvercalled, DealCompleted / DrawingEnded, DeclarationWindowClosed
and the lots between declarations or for the dealer — up to trump (and in a first deal the
dealer) fixed. Each function takes the :class:`~rules.shengji.hand.Hand` and one event's data
and returns the next hand, or raises :class:`RuleViolation`."""
from __future__ import annotations

from collections import Counter
from datetime import datetime
from typing import Mapping

from ..frozen import evolve
from ..messages import Message, Sentence
from ..violations import RuleViolation
from . import declaring, reveals, words
from .cards import JOKERS, Trump, deck
from .declaring import Bidding
from .hand import Hand, Variant, in_phase


def deal(number: int, level: str, dealer: int | None, settings, variant: Variant,
         data: Mapping) -> Hand:
    """HandDealt: four hands and the ordered kitty, together exactly the decks of the variant
    (SJ2-1.1 / SJ3-1.1), 25 cards each and 8 in the kitty (SJ2-1.3), 39 and 6 (SJ3-1.3)."""
    hands = tuple(tuple(cards) for cards in data["hands"])
    kitty = tuple(data["kitty"])
    rule = variant.rule("deal")
    for seat, cards in enumerate(hands):
        if len(cards) != variant.hand_size:
            raise RuleViolation(rule, "seat {seat} is dealt {count} cards; each player "
                                      "receives {hand_size}",
                                      seat=seat, count=len(cards), hand_size=variant.hand_size)
    if len(kitty) != variant.kitty_size:
        raise RuleViolation(rule, "the kitty is dealt {count} cards; it holds {kitty_size}",
                                  count=len(kitty), kitty_size=variant.kitty_size)
    _must_be_the_decks([card for cards in hands for card in cards] + list(kitty), variant)
    if variant.reveals_by_count:
        bidding = reveals.bidding_for_reveals(level, settings.counterRevealRestartsPause)
    else:
        bidding = declaring.bidding_for_hand(level, settings.to_dict())
    return Hand(number=number, level=level, dealer=dealer, settings=settings, variant=variant,
                dealt=hands, dealt_kitty=kitty, hands=hands, kitty=kitty, bidding=bidding,
                first_deal=dealer is None, first_drawer=_first_drawer(variant, dealer, data))


def _must_be_the_decks(cards: list[str], variant: Variant) -> None:
    dealt, wanted = Counter(cards), deck(variant.decks)
    if dealt.items() == wanted.items():  # every card as often as the decks hold it
        return
    surplus, missing = dealt - wanted, wanted - dealt
    if surplus or missing:
        parts = []
        if surplus:
            parts.append(Message("too many {cards}", cards=_counted(surplus, wanted)))
        if missing:
            parts.append(Message("missing {cards}", cards=" ".join(sorted(missing.elements()))))
        raise RuleViolation(variant.rule("deck"), "the deal is not exactly {decks} decks of 54 "
                                                  "cards: {faults}",
                            decks=variant.decks, faults=words.joined(parts, words.SEMICOLON))


def _counted(surplus, wanted) -> Message | str:
    return words.joined([Message("{card} ×{count} (the decks hold {held})", card=card,
                                 count=surplus[card] + wanted[card], held=wanted[card])
                         for card in sorted(surplus)], words.COMMA)


# SJ3-1.4 Interpretation: the number a turned card counts (A = 1 … K = 13; a joker is turned again)
_COUNTS = {rank: n for n, rank in enumerate("A23456789TJQK", start=1)}


def first_drawer(turner: int, card: str) -> int:
    """SJ3-1.4 (「任意一家翻牌点，自他开始按逆时针方向来决定由谁先摸第一张牌」): counting from the
    player who turned up ``card`` as 1, the card's number names the first drawer —
    ``(turner + number − 1) mod 4``. A joker has no number: it is turned again."""
    if card in JOKERS:
        raise RuleViolation("SJ3-1.4", "a joker has no number: it is turned again")
    return (turner + _COUNTS[card[0]] - 1) % 4


def _first_drawer(variant: Variant, dealer: int | None, data: Mapping) -> int | None:
    """SJ3-1.3 / 1.4: the dealer draws first; in a first deal the card turned up decides
    (``turned_by`` and ``turned_card`` of HandDealt, informational)."""
    turned = [key for key in ("turned_by", "turned_card") if key in data]
    if turned and not variant.counts_first_drawer:
        raise RuleViolation(variant.rule("first_drawer"), "{name} deals have no card turned up "
                                                          "for the first drawer",
                                                          name=variant.name)
    if turned and dealer is not None:
        raise RuleViolation("SJ3-1.4", "the dealer, seat {dealer}, draws first: a card is "
                                       "turned up only for the first deal of a match",
                                       dealer=dealer)
    if len(turned) == 1:
        raise RuleViolation("SJ3-1.4", "turned_by and turned_card come together: who turned up "
                                       "which card")
    if turned:
        return first_drawer(data["turned_by"], data["turned_card"])
    return dealer if variant.counts_first_drawer else None


# --- declarations (SJ2-4, SJ2-5; SJ3-3, SJ3-4) -----------------------------------------------

_BEFORE_THE_KITTY = ("declaring", "awaiting_dealer", "kitty")


def _before_the_kitty(h: Hand, event: Message) -> None:
    """SJ2-4.8 / SJ3-3.6: once the dealer has taken the kitty no one may declare or overcall."""
    if h.phase not in _BEFORE_THE_KITTY and h.in_play:
        raise RuleViolation(h.variant.rule("kitty_cut_off"),
                            "the dealer has taken the kitty of hand {number}; {event} is no "
                            "longer possible",
                            number=h.number, event=event)
    in_phase(h, event, *_BEFORE_THE_KITTY)


def declare(h: Hand, data: Mapping, at: datetime) -> Hand:
    """TrumpDeclared (SJ2-4.1, SJ3-3.1), or a declaration made at the same time as the standing
    one and disputed (SJ2-4.2: ``simultaneous``, then lots decide). Once the window has closed
    without a declaration, none is possible (SJ2-4.9). In SJ3 a reveal after the pause, before
    the kitty is taken, opens the window again (SJ3-3.6)."""
    _before_the_kitty(h, Message("a declaration"))
    seat, card = data["seat"], data["card"]
    if h.variant.reveals_by_count:
        if data.get("simultaneous"):
            raise RuleViolation("SJ3-3.1", "the first to show a level card reveals "
                                           "(「谁先揭出该点数的牌」): there are no simultaneous reveals")
        h = _reopened(h) if h.phase == "kitty" else h
        return _bid(h, reveals.reveal(h.bidding, seat, card, h.hands[seat], at))
    if h.phase != "declaring" and h.bidding.standing is None:
        raise RuleViolation("SJ2-4.9", "the window of hand {number} closed without a "
                                       "declaration: kitty card #3 fixed trump",
                                       number=h.number)
    decide = declaring.declare_simultaneous if data.get("simultaneous") else declaring.declare
    return _bid(h, decide(h.bidding, seat, card, h.hands[seat], at))


def overcall(h: Hand, data: Mapping, at: datetime) -> Hand:
    """TrumpOvercalled (SJ2-4.3 – 4.8; SJ3-3.2 – 3.5): until the dealer takes the kitty. In SJ2
    even after the window has closed (seed rule 4: the 15 s are the least wait, the kitty the
    cut-off), which opens it again — trump, and in hand 1 the dealer, are fixed at its next
    close. So in SJ3 after the dealer's pause (seed 004 〈4〉: no counter-reveal once the dealer
    has taken the kitty)."""
    _before_the_kitty(h, Message("an overcall"))
    seat, cards = data["seat"], tuple(data["cards"])
    if h.variant.reveals_by_count:
        h = _reopened(h) if h.phase == "kitty" else h
        return _bid(h, reveals.counter_reveal(h.bidding, seat, cards, h.hands[seat], at,
                                                seize=h.first_deal))
    if h.phase == "kitty" and h.bidding.standing is not None:
        h = _reopened(h)
    return _bid(h, declaring.overcall(h.bidding, seat, cards, h.hands[seat], at))


def _bid(h: Hand, bidding: Bidding) -> Hand:
    return evolve(h, bidding=bidding)


def _reopened(h: Hand) -> Hand:
    """A bid after DeclarationWindowClosed, before KittyTaken (SJ2-4.8, SJ3-3.6): the window is
    open again; trump, and in a first deal the dealer, wait for its next close."""
    return evolve(h, bidding=declaring.reopen(h.bidding), phase="declaring", trump=None,
                   trump_source=None, dealer=None if h.first_deal else h.dealer)


def deal_completed(h: Hand, at: datetime) -> Hand:
    """DealCompleted (SJ2-4.7) starts the declaration window's clock; while lots between
    simultaneous declarations are pending, drawing is paused (SJ2-4.2). DrawingEnded (SJ3-3.6)
    starts the dealer's 5-second pause."""
    in_phase(h, Message("the end of the deal"), "declaring")
    declaring.must_not_await_lots(h.bidding)
    if h.variant.reveals_by_count and h.bidding.deal_completed_at is not None:
        raise RuleViolation("SJ3-3.6", "drawing has already ended")
    return _bid(h, declaring.deal_completed(h.bidding, at))


def close_window(h: Hand, at: datetime) -> Hand:
    """DeclarationWindowClosed (SJ2-4.7): trump is fixed (SJ2-4.9) and, in hand 1, the dealer
    (SJ2-5.1); hand 1 without any declaration is void or waits for lots (SJ2-5.2). SJ3:
    :func:`_close_reveals`."""
    in_phase(h, "DeclarationWindowClosed", "declaring")
    if h.variant.reveals_by_count:
        return _close_reveals(h, at)
    bidding = declaring.close_window(h.bidding, at)
    suit, source = declaring.trump_at_close(bidding, h.dealt_kitty)
    h = evolve(h, bidding=bidding, trump=Trump(h.level, suit), trump_source=source)
    if h.dealer is not None:
        return evolve(h, phase="kitty")
    dealer = declaring.first_hand_dealer(bidding)
    if dealer is not None:
        return evolve(h, dealer=dealer, phase="kitty")
    if h.settings.firstHandNoDeclaration == "redeal":
        return evolve(h, phase="voided", void_reason="noDeclarationFirstHand")
    return evolve(h, phase="awaiting_dealer")


def lots(h: Hand, data: Mapping, at: datetime) -> Hand:
    """LotsDrawn in a hand: between simultaneous declarations (SJ2-4.2) or, in hand 1 without a
    declaration under lotDealer, for the dealer (SJ2-5.2)."""
    if data["purpose"] == "declaration":
        in_phase(h, Message("lots between declarations"), "declaring")
        return _bid(h, declaring.resolve_lots(h.bidding, data["candidates"], data["winner"]))
    in_phase(h, Message("lots for the dealer"), "awaiting_dealer")
    if sorted(data["candidates"]) != [0, 1, 2, 3]:
        raise RuleViolation("SJ2-5.2", "lots for the dealer are drawn among all four seats")
    if data["winner"] not in data["candidates"]:
        raise RuleViolation("SJ2-5.2", "seat {winner} is not one of the candidates",
                                       winner=data['winner'])
    return evolve(h, dealer=data["winner"], phase="kitty")


def table_time(h: Hand, at: datetime | None) -> datetime | None:
    """The pause is judged on the server's clock when it is the table's (strict); a scorer
    transcribing a physical table records at his own pace (None: not judged)."""
    return at if h.settings.strict else None


def fixed_by_reveals(h: Hand, bidding: Bidding) -> Hand | None:
    """SJ3-3.7, 4.1: the standing reveal fixes trump and, in a first deal, the dealer; with none,
    the kitty's first non-joker card fixes trump — None when the hand must be dealt again (a
    first deal, or ``noRevealRule: redeal``)."""
    fixed = reveals.trump_at_kitty(bidding, h.dealt_kitty, h.first_deal, h.settings.noRevealRule)
    if fixed is None:
        return None
    suit, source = fixed
    dealer = h.dealer if h.dealer is not None else bidding.standing.seat
    return evolve(h, bidding=bidding, dealer=dealer, trump_source=source,
                   trump=Trump(h.level, suit, h.settings.trumpChainAdjacency))


def _close_reveals(h: Hand, at: datetime | None) -> Hand:
    """DeclarationWindowClosed in SJ3 (SJ3-3.6, the timer's at the end of the dealer's pause):
    trump is fixed as KittyTaken would fix it, and in a first deal the dealer (SJ3-3.7, 4.1);
    the dealer then takes the kitty. Nobody revealed in a first deal (or under ``noRevealRule:
    redeal``): the hand is void and dealt again (SJ3-3.7)."""
    bidding = reveals.close_pause(h.bidding, table_time(h, at))
    fixed = fixed_by_reveals(h, bidding)
    if fixed is None:
        return evolve(h, bidding=bidding, phase="voided",
                       void_reason=Sentence(Message("SJ3-3.7: no one revealed trump "
                                                    "during the dealer's pause")))
    return evolve(fixed, phase="kitty")
