"""Three-deck reveals (揭牌 / 反揭), SJ3-3: trump is revealed by one level card and
counter-revealed by more identical level cards of another suit (the same suit seizes the deal in
hand 1), until the dealer takes the kitty after a 5-second pause once drawing has ended.

The state is the two-deck declaration phase's :class:`declaring.Bidding` (with ``reveals`` set),
and these functions sit beside ``declaring``'s: each takes it and one event's data and returns
the next state, or raises :class:`RuleViolation` naming the SJ3-3 rule. Times are passed in.
"""
from __future__ import annotations

from datetime import datetime
from typing import Sequence

from ..frozen import evolve
from ..match_clock import maybe_timestamp
from ..violations import RuleViolation
from .declaring import (Bid, Bidding, bidding_for_hand, card_suit, check_seat, deadline, holds,
                        is_joker, is_level_card, must_be_before_the_kitty,
                        must_be_held_level_card, must_not_overcall_self)

# SJ3-3.6 (「当庄家示意摸牌结束，应停顿5秒钟才能拿底牌」): the dealer's pause, fixed by the seed
PAUSE_SECONDS = 5


def bidding_for_reveals(level: str, counter_reveal_restarts_pause: bool = False) -> Bidding:
    """SJ3-3: a fresh reveal phase at ``level``; the window is the 5-second pause after
    DrawingEnded (setting ``counterRevealRestartsPause``)."""
    return evolve(bidding_for_hand(level), window_seconds=PAUSE_SECONDS, reveals=True,
                   first_declaration_restarts_window=False,
                   overcall_restarts_window=counter_reveal_restarts_pause)


def reveal(b: Bidding, seat: int, card: str, hand: Sequence[str], at: datetime) -> Bidding:
    """SJ3-3.1 (揭牌): with nothing revealed, until the dealer takes the kitty (SJ3-3.6), a player
    shows one level card he holds; its suit becomes trump (in hand 1 he becomes the dealer)."""
    check_seat(seat)
    must_be_before_the_kitty(b, rule="SJ3-3.6")
    if b.standing is not None:
        raise RuleViolation("SJ3-3.2", "seat {seat}'s reveal stands; only a counter-reveal "
                                       "with more identical level cards can change trump now",
                                       seat=b.standing.seat)
    must_be_held_level_card(b, card, hand, rule="SJ3-3.1")
    bid = Bid(seat, (card,), card_suit(card), at)
    return evolve(b, standing=bid, history=b.history + (bid,), first_declarer=seat)


def must_be_identical_level_cards(b: Bidding, cards: Sequence[str], hand: Sequence[str]) -> None:
    """SJ3-3.2 (「持两张相同点数反揭…持3张相同的点数再反揭」): a counter-reveal shows two or three
    identical level cards, all held (jokers never: there is no no-trump hand, SJ3-2.2)."""
    shown = " ".join(cards)
    if len(cards) not in (2, 3) or len(set(cards)) != 1:
        raise RuleViolation("SJ3-3.2", "a counter-reveal shows two or three identical level "
                                       "cards, not {shown!r}",
                                       shown=shown)
    if not is_level_card(cards[0], b.level):
        raise RuleViolation("SJ3-3.2", "{shown} are not level cards (rank {level}; jokers "
                                       "never reveal: there is no no-trump hand, SJ3-2.2)",
                                       shown=shown, level=b.level)
    if not holds(hand, cards):
        raise RuleViolation("SJ3-3.2", "the player does not hold {count} × {cards}",
                                       count=len(cards), cards=cards[0])


def must_outnumber(b: Bidding, cards: Sequence[str]) -> None:
    """SJ3-3.4 (反揭原则〈1〉〈2〉): only more cards overturn a reveal; at an equal count the earlier
    stands — a player may not reinforce his card to the count someone else has shown."""
    count = len(b.standing.cards)
    if len(cards) <= count:
        raise RuleViolation("SJ3-3.4", "seat {seat}'s reveal of {count} card(s) stands: "
                                       "{count2} card(s) do not outnumber it, and at an equal "
                                       "count the earlier reveal stands",
                                       seat=b.standing.seat, count=count, count2=len(cards))


def must_change_suit(b: Bidding, suit: str, seize: bool) -> None:
    """SJ3-3.3: a counter-reveal names another suit than the current trump — except in hand 1,
    where the same suit seizes the deal (「第一副牌打2时，还可抢庄，同一门花色也可以」).
    **Interpretation:** for three cards as for two."""
    if not seize and suit == b.standing.suit:
        raise RuleViolation("SJ3-3.3", "{suit} is already trump: after hand 1 a counter-reveal "
                                       "must be of another suit",
                                       suit=suit)


def counter_reveal(b: Bidding, seat: int, cards: Sequence[str], hand: Sequence[str], at: datetime,
                   seize: bool) -> Bidding:
    """SJ3-3.2–3.6 (反揭): until the dealer takes the kitty, a player other than the one whose
    reveal stands (SJ3-3.5; his partner may, and so may he once overturned) shows more identical
    level cards than stand (SJ3-3.4), of another suit unless the deal can be seized (hand 1,
    SJ3-3.3). Restarts the pause only with ``counterRevealRestartsPause`` (SJ3-3.6)."""
    check_seat(seat)
    must_be_before_the_kitty(b, rule="SJ3-3.6")
    if b.standing is None:
        raise RuleViolation("SJ3-3.2", "nothing has been revealed yet, so there is nothing to "
                                       "counter; reveal with one level card instead")
    must_not_overcall_self(b, seat, rule="SJ3-3.5")
    must_be_identical_level_cards(b, cards, hand)
    must_outnumber(b, cards)
    suit = card_suit(cards[0])
    must_change_suit(b, suit, seize)
    bid = Bid(seat, tuple(cards), suit, at)
    return evolve(b, standing=bid, history=b.history + (bid,),
                   last_accepted_at=at if b.overcall_restarts_window else b.last_accepted_at)


def must_have_paused(b: Bidding, at: datetime | None) -> None:
    """SJ3-3.6 (反揭原则〈4〉): the dealer takes the kitty only after DrawingEnded and a pause of
    5 s (counted again from each counter-reveal with ``counterRevealRestartsPause``)."""
    limit = deadline(b)
    if limit is None:
        raise RuleViolation("SJ3-3.6", "drawing has not ended (DrawingEnded): the kitty cannot be "
                                       "taken yet")
    if at is not None and at < limit:
        raise RuleViolation("SJ3-3.6", "the dealer must pause {window_seconds} s after the end "
                                       "of drawing, until {iso}, before taking the kitty; this "
                                       "came at {iso2}",
                                       window_seconds=b.window_seconds,
                                       iso=maybe_timestamp(limit), iso2=maybe_timestamp(at))


def close_pause(b: Bidding, at: datetime | None) -> Bidding:
    """SJ3-3.6: DeclarationWindowClosed — the dealer's pause after DrawingEnded is over (the
    timer posts it then): only after DrawingEnded, once, and not before the 5 s (counted again
    from each counter-reveal with ``counterRevealRestartsPause``) have passed; ``at`` None: the
    time is not judged (a scorer in record mode)."""
    if b.closed:
        raise RuleViolation("SJ3-3.6", "the dealer's pause is already over")
    limit = deadline(b)
    if limit is None:
        raise RuleViolation("SJ3-3.6", "drawing has not ended (DrawingEnded): the dealer's pause "
                                       "has not begun")
    if at is not None and at < limit:
        raise RuleViolation("SJ3-3.6", "the dealer's pause lasts {window_seconds} s, until "
                                       "{iso}; it cannot end at {iso2}",
                                       window_seconds=b.window_seconds,
                                       iso=maybe_timestamp(limit), iso2=maybe_timestamp(at))
    return evolve(b, closed=True)


def close_at_kitty(b: Bidding) -> Bidding:
    """SJ3-3.6: once the dealer has taken the kitty no one may reveal or counter-reveal."""
    return evolve(b, closed=True)


def trump_at_kitty(b: Bidding, kitty: Sequence[str], first_deal: bool,
                   no_reveal_rule: str) -> tuple[str, str] | None:
    """SJ3-3.1 / 3.7: trump when the kitty is taken — the standing reveal's suit, source
    "reveal"; with no reveal (**Interpretation**, setting ``noRevealRule``) the suit of the
    first non-joker kitty card in dealt order, source "kittyFirstNonJoker" — except in hand 1,
    or under ``redeal``, where there is no trump and the hand is dealt again (None)."""
    if b.standing is not None:
        return b.standing.suit, "reveal"
    if first_deal or no_reveal_rule == "redeal":
        return None
    suits = [card_suit(card) for card in kitty if not is_joker(card)]
    return (suits[0], "kittyFirstNonJoker") if suits else None
