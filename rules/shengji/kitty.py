"""The kitty of a Shengji hand (SJ2-6, SJ2-12.3; SJ3-3.6, SJ3-4.3, SJ3-5): KittyTaken (in SJ3
the end of the reveals), KittyBuried and KittyCorrected."""
from __future__ import annotations

from datetime import datetime
from typing import Mapping

from ..frozen import evolve
from ..messages import Message, Sentence
from ..violations import RuleViolation
from . import declaring, reveals, scoring
from .cards import missing_cards, remove_cards
from .dealing import fixed_by_reveals, table_time
from .hand import Hand, in_phase, must_hold, with_holding


def take_kitty(h: Hand, data: Mapping, at: datetime | None = None) -> Hand:
    """KittyTaken: the dealer picks up the kitty, only once the window has closed (SJ2-4.8), or
    in SJ3 after the 5-second pause, which fixes trump and, in a first deal, the dealer
    (SJ3-3.6, 3.7, 4.1) — unless DeclarationWindowClosed has fixed them at the pause's end.
    ``seat`` (default the dealer) names who took it: in SJ3 anyone else hands the deal over
    (SJ3-4.3)."""
    if h.variant.reveals_by_count:
        h = h if h.phase == "kitty" else _fix_at_kitty(h, at)
    else:
        declaring.must_be_closed_for_kitty(h.bidding)
        in_phase(h, "KittyTaken", "kitty")
    taker = data.get("seat", h.dealer)
    if taker != h.dealer:
        if not h.variant.reveals_by_count:
            raise RuleViolation(h.variant.rule("lifecycle"), "the dealer, seat {dealer}, takes the "
                                                             "kitty, not seat {taker}",
                                                             dealer=h.dealer, taker=taker)
        return _deal_transferred(h, taker)
    hands = with_holding(h.hands, h.dealer, h.hands[h.dealer] + h.kitty)
    return evolve(h, hands=hands, kitty=(), phase="burying")


def _fix_at_kitty(h: Hand, at: datetime | None) -> Hand:
    """SJ3-3.6, 3.7, 4.1: after the pause the reveals end; the standing reveal fixes trump and,
    in a first deal, the dealer; with none, the kitty's first non-joker card fixes trump — or,
    in a first deal (or under ``noRevealRule: redeal``), the hand must be dealt again."""
    in_phase(h, "KittyTaken", "declaring")
    reveals.must_have_paused(h.bidding, table_time(h, at))
    fixed = fixed_by_reveals(h, reveals.close_at_kitty(h.bidding))
    if fixed is None:
        raise RuleViolation("SJ3-3.7", "no one has revealed trump in hand {number}: there is "
                                       "no dealer or trump, and the hand is dealt again "
                                       "(HandVoided)",
                                       number=h.number)
    return fixed


def _deal_transferred(h: Hand, taker: int) -> Hand:
    """SJ3-4.3 (「庄家不能让庄给其同伴…有意或无意让庄（拿完底牌为准）一旦成立，防家自动上台」):
    established when another seat has taken the kitty — refused in strict mode; in record mode
    the hand ends there (**Interpretation**): the defenders take the deal, no level changes."""
    if h.settings.strict:
        raise RuleViolation("SJ3-4.3", "the dealer, seat {dealer}, takes the kitty; the deal "
                                       "cannot be handed to seat {taker}",
                                       dealer=h.dealer, taker=taker)
    entry = {"rule": "SJ3-4.3", "seat": taker,
             "detail": Sentence(Message("seat {taker} took the kitty of dealer seat {dealer}: "
                                        "the defenders take the deal",
                                        taker=taker, dealer=h.dealer))}
    result = {"ended": "dealTransfer", "rule": "SJ3-4.3", "final_outcome": 0,
              "result": scoring.result_of(0)}
    return evolve(h, irregularities=h.irregularities + (entry,), phase="completed",
                   result=result)


def bury_kitty(h: Hand, data: Mapping) -> Hand:
    """KittyBuried: the dealer buries 8 of his 33 cards (SJ2-6.1; any cards, SJ2-6.2), 6 of 45
    in SJ3 (SJ3-5.1). Another count is rejected in strict mode — and always in SJ3, which has no
    rule to correct it; in SJ2's record mode it is a kitty error (SJ2-12.3), to be put right by
    KittyCorrected before play."""
    in_phase(h, "KittyBuried", "burying")
    cards = tuple(data["cards"])
    must_hold(h, h.dealer, cards, "bury")
    size = h.variant.kitty_size
    if len(cards) != size and (h.settings.strict or not h.variant.kitty_correction):
        raise RuleViolation(h.variant.rule("bury"),
                            "the dealer must bury exactly {size} cards, not {count}",
                            size=size, count=len(cards))
    h = evolve(h, hands=with_holding(h.hands, h.dealer, remove_cards(h.hands[h.dealer], cards)),
                kitty=cards)
    if len(cards) == size:
        return evolve(h, phase="playing")
    flag = {"rule": "SJ2-12.3", "seat": h.dealer,
            "detail": Sentence(Message("the dealer buried {count} cards instead of {size}",
                                       count=len(cards), size=size))}
    return evolve(h, kitty_error=True, irregularities=h.irregularities + (flag,),
                   phase="correcting_kitty")


def correct_kitty(h: Hand, data: Mapping) -> Hand:
    """KittyCorrected (SJ2-12.3): the defenders draw the surplus from the kitty into the dealer's
    hand, or the shortfall from his hand into the kitty; then both hold the right count."""
    in_phase(h, "KittyCorrected", "correcting_kitty")
    to_dealer, to_kitty = tuple(data["to_dealer"]), tuple(data["to_kitty"])
    if missing := missing_cards(h.kitty, to_dealer):
        raise RuleViolation("SJ2-12.3", "the kitty does not hold {missing}",
                                        missing=' '.join(missing))
    must_hold(h, h.dealer, to_kitty, "move to the kitty")
    kitty = remove_cards(h.kitty, to_dealer) + to_kitty
    held = remove_cards(h.hands[h.dealer], to_kitty) + to_dealer
    if len(kitty) != h.variant.kitty_size or len(held) != h.variant.hand_size:
        raise RuleViolation("SJ2-12.3", "after the correction the kitty must hold {kitty_size} "
                                        "cards and the dealer {hand_size}, not {count} and "
                                        "{count2}",
                                        kitty_size=h.variant.kitty_size,
                                        hand_size=h.variant.hand_size, count=len(kitty),
                                        count2=len(held))
    return evolve(h, kitty=kitty, hands=with_holding(h.hands, h.dealer, held), phase="playing")
