"""Declaring trump (定主), overcalling (反主) and the window for it: SJ2-4, SJ2-5.1/5.2. The
three-deck reveals (揭牌 / 反揭, SJ3-3) share this state and its checks and live in ``reveals.py``.

Rule IDs refer to ``shared/rules/shengji-2deck.md`` and ``shengji-3deck.md``. :class:`Bidding` is the state of the
declaration phase of one hand; each function takes it and one event's data and returns the next
state, or raises :class:`RuleViolation`. Times are passed in (the events' ``at``); nothing here
reads a clock.

Cards are strings, rank then suit ("2H"); jokers "BJ"/"SJ" have no suit and are never level
cards. ``hand`` is the multiset of cards the seat holds when it shows its card(s) (during the
deal: the cards drawn so far); shown cards stay in the hand (SJ2-4.1).

Simultaneous declarations (SJ2-4.2) — the semantics chosen here:

- a seat that claims its declaration was simultaneous with the standing first declaration posts
  it through :func:`declare_simultaneous`: it is recorded in ``history`` but does not stand;
  this is possible only while nothing but single-card declarations have been made;
- while two or more declarations are in ``history`` and no overcall (``lots_pending``), drawing is
  paused: overcalls and closing the window are rejected (SJ2-4.2);
- the referee's ``LotsDrawn`` → :func:`resolve_lots`: the candidates must be exactly the seats
  with a declaration in ``history``; the winner must be one of them; his declaration stands and
  becomes the first declaration (SJ2-4.6), the others are void and leave ``history``.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Mapping, Sequence

from ..frozen import evolve
from ..match_clock import maybe_timestamp
from ..violations import RuleViolation

SUITS = "SHDC"
JOKERS = ("BJ", "SJ")
LEVEL_RANKS = "23456789TJQKA"


# ---------------------------------------------------------------- small card helpers

def check_seat(seat: int) -> int:
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat <= 3:
        raise ValueError(f"seat must be 0, 1, 2 or 3, not {seat!r}")
    return seat


def is_joker(card: str) -> bool:
    """README §2: "BJ" big joker, "SJ" small joker; they have no suit."""
    return card in JOKERS


def card_suit(card: str) -> str | None:
    """README §2: the suit letter of a suit card (its second character); None for a joker."""
    return None if is_joker(card) else card[1]


def is_level_card(card: str, level: str) -> bool:
    """SJ2-2.2: a card of the level rank in one of the four suits; a joker is not a level card."""
    return (isinstance(card, str) and len(card) == 2 and not is_joker(card)
            and card[0] == level and card[1] in SUITS)


def holds(hand: Sequence[str], cards: Sequence[str]) -> bool:
    """SJ2-4.1 / SJ2-4.3: the hand holds every shown card (as a multiset: a pair needs both copies)."""
    held = Counter(hand)
    return all(held[card] >= count for card, count in Counter(cards).items())


# ---------------------------------------------------------------- state

@dataclass(frozen=True)
class Bid:
    """An accepted declaration (one card, SJ2-4.1, SJ3-3.1) or overcall (a pair, SJ2-4.3; two or
    three identical level cards, SJ3-3.2). ``suit`` None = no-trump (a joker pair, SJ2 only)."""
    seat: int
    cards: tuple[str, ...]
    suit: str | None
    at: datetime

    @property
    def is_declaration(self) -> bool:
        """SJ2-4.1: a single shown card — a first declaration, not an overcall."""
        return len(self.cards) == 1

    def to_dict(self) -> dict:
        return {"seat": self.seat, "cards": list(self.cards), "suit": self.suit, "at": maybe_timestamp(self.at)}


@dataclass(frozen=True)
class Bidding:
    """The declaration phase of one hand (SJ2-4). ``level`` is the hand's level rank ("2".."A").

    ``history`` holds the accepted bids, oldest first (void ones removed, SJ2-4.2);
    ``last_accepted_at`` is the ``at`` of the latest bid that restarts the window (SJ2-4.7).
    Settings: ``window_seconds`` = ``declarationWindowSeconds``,
    ``first_declaration_restarts_window`` = ``firstDeclarationAfterDealRestartsWindow``,
    ``nt_overcallable_by_level_pair`` = ``ntOvercallableByLevelPair`` (SJ2-18).
    """
    level: str
    standing: Bid | None = None
    history: tuple[Bid, ...] = ()
    first_declarer: int | None = None
    no_trump: bool = False
    deal_completed_at: datetime | None = None
    last_accepted_at: datetime | None = None
    closed: bool = False
    window_seconds: int = 15
    first_declaration_restarts_window: bool = True
    nt_overcallable_by_level_pair: bool = True
    # SJ3-3: reveals and counter-reveals by count; the window is the dealer's pause after
    # DrawingEnded, restarted by a counter-reveal only with counterRevealRestartsPause (SJ3-3.6)
    reveals: bool = False
    overcall_restarts_window: bool = True

    def to_dict(self) -> dict:
        return {
            "level": self.level,
            "standing": self.standing.to_dict() if self.standing else None,
            "history": [bid.to_dict() for bid in self.history],
            "first_declarer": self.first_declarer,
            "no_trump": self.no_trump,
            "deal_completed_at": maybe_timestamp(self.deal_completed_at),
            "last_accepted_at": maybe_timestamp(self.last_accepted_at),
            "deadline": maybe_timestamp(deadline(self)),
            "closed": self.closed,
            "lots_pending": lots_pending(self),
            "settings": {
                "pauseSeconds": self.window_seconds,
                "counterRevealRestartsPause": self.overcall_restarts_window,
            } if self.reveals else {
                "declarationWindowSeconds": self.window_seconds,
                "firstDeclarationAfterDealRestartsWindow": self.first_declaration_restarts_window,
                "ntOvercallableByLevelPair": self.nt_overcallable_by_level_pair,
            },
        }


def bidding_for_hand(level: str, settings: Mapping | None = None) -> Bidding:
    """SJ2-18: a fresh declaration phase at ``level`` with the match settings (spec key names;
    omitted keys take the defaults)."""
    if not (isinstance(level, str) and len(level) == 1 and level in LEVEL_RANKS):
        raise ValueError(f"not a level rank: {level!r}")
    settings = settings or {}
    return Bidding(
        level=level,
        window_seconds=settings.get("declarationWindowSeconds", 15),
        first_declaration_restarts_window=settings.get("firstDeclarationAfterDealRestartsWindow", True),
        nt_overcallable_by_level_pair=settings.get("ntOvercallableByLevelPair", True),
    )


# ---------------------------------------------------------------- derived facts

def deadline(b: Bidding) -> datetime | None:
    """SJ2-4.7: when the window closes — None before DealCompleted; then
    max(DealCompleted + w, lastAccepted + w), lastAccepted being the latest accepted overcall
    (or first declaration made after DealCompleted, with the setting)."""
    if b.deal_completed_at is None:
        return None
    window = timedelta(seconds=b.window_seconds)
    if b.last_accepted_at is None:
        return b.deal_completed_at + window
    return max(b.deal_completed_at, b.last_accepted_at) + window


def lots_pending(b: Bidding) -> bool:
    """SJ2-4.2: simultaneous first declarations are waiting for the referee's lots."""
    return len(b.history) >= 2 and all(bid.is_declaration for bid in b.history)


def first_suit(b: Bidding) -> str | None:
    """SJ2-4.6: the suit of the first declarer's original declaration (None before any)."""
    return b.history[0].suit if b.history else None


def ever_no_trump(b: Bidding) -> bool:
    """SJ2-4.4/4.6: some accepted overcall has made the hand no-trump."""
    return any(bid.suit is None for bid in b.history)


# ---------------------------------------------------------------- checks ("must" rules)

def must_be_open(b: Bidding, at: datetime) -> None:
    """SJ2-4.7 / SJ2-4.9: nothing may be declared or overcalled once the window has closed."""
    if b.closed:
        raise RuleViolation("SJ2-4.7", "the declaration window has closed; no one may declare or overcall")
    limit = deadline(b)
    if limit is not None and at > limit:
        raise RuleViolation("SJ2-4.7", "the declaration window closed at {iso}; this came at "
                                       "{iso2}",
                                       iso=maybe_timestamp(limit), iso2=maybe_timestamp(at))


def must_be_before_the_kitty(b: Bidding, rule: str = "SJ2-4.8") -> None:
    """SJ2-4.8 (seed 000/002 rule 4: 「一方反牌后，继续等待15秒，其他人可以继续反牌；庄家拿起底牌后，
    任何人不得再反牌」): an overcall may come until the dealer takes the kitty — the 15 s are the
    least wait before he may, not a cut-off. The hand reopens a closed window for it."""
    if b.closed:
        raise RuleViolation(rule, "the dealer has taken the kitty; no one may overcall any more")


def reopen(b: Bidding) -> Bidding:
    """An overcall after DeclarationWindowClosed but before KittyTaken (SJ2-4.8): the window is
    open again, and closes 15 s after it (SJ2-4.7). SJ3 likewise for a reveal or counter-reveal
    after the pause (SJ3-3.6: the kitty is the cut-off); the pause restarts only with
    ``counterRevealRestartsPause``, so without it the window closes again at once."""
    return evolve(b, closed=False)


def must_not_await_lots(b: Bidding) -> None:
    """SJ2-4.2: while simultaneous declarations wait for lots, drawing and declaring are paused."""
    if lots_pending(b):
        seats = ", ".join(str(bid.seat) for bid in b.history)
        raise RuleViolation("SJ2-4.2", "seats {seats} declared at the same time; lots must "
                                       "decide before anything else is declared",
                                       seats=seats)


def must_be_held_level_card(b: Bidding, card: str, hand: Sequence[str], rule: str = "SJ2-4.1") -> None:
    """SJ2-4.1 / SJ3-3.1: a declaration shows one level card that the player holds (a joker is
    not one)."""
    if not is_level_card(card, b.level):
        raise RuleViolation(rule, "{card} is not a level card: a declaration shows one card of "
                                  "rank {level} (jokers do not count)",
                                  card=card, level=b.level)
    if not holds(hand, [card]):
        raise RuleViolation(rule, "the player does not hold {card}",
                                  card=card)


def must_have_no_standing(b: Bidding) -> None:
    """SJ2-4.1: a declaration is possible only while no declaration stands; after that, overcall."""
    if b.standing is not None:
        raise RuleViolation("SJ2-4.1", "seat {seat}'s declaration already stands; only an "
                                       "overcall with a pair can change trump now",
                                       seat=b.standing.seat)


def must_have_standing(b: Bidding) -> None:
    """SJ2-4.3: an overcall overturns the standing declaration, so one must stand."""
    if b.standing is None:
        raise RuleViolation("SJ2-4.3", "nothing has been declared yet, so there is nothing to overcall; "
                                       "declare with one level card instead")


def must_not_overcall_self(b: Bidding, seat: int, rule: str = "SJ2-4.5") -> None:
    """SJ2-4.5 / SJ3-3.5: the player whose declaration or overcall stands may not overcall it
    (his partner may)."""
    if b.standing is not None and b.standing.seat == seat:
        raise RuleViolation(rule, "seat {seat}'s own declaration stands; a player may not "
                                  "overcall himself until someone else has overcalled him",
                                  seat=seat)


def must_be_overcall_pair(b: Bidding, cards: Sequence[str], hand: Sequence[str]) -> None:
    """SJ2-4.3 / SJ2-7.1: an overcall shows two identical level cards or two identical jokers,
    both held by the player."""
    shown = " ".join(cards)
    if len(cards) != 2 or cards[0] != cards[1]:
        raise RuleViolation("SJ2-4.3", "an overcall shows a pair of two identical cards, not "
                                       "{shown!r}",
                                       shown=shown)
    if not (is_level_card(cards[0], b.level) or is_joker(cards[0])):
        raise RuleViolation("SJ2-4.3", "{shown} is neither a pair of level cards (rank "
                                       "{level}) nor a pair of jokers",
                                       shown=shown, level=b.level)
    if not holds(hand, cards):
        raise RuleViolation("SJ2-4.3", "the player does not hold both cards of {shown}",
                                       shown=shown)


def must_keep_no_trump(b: Bidding, seat: int, suit: str | None) -> None:
    """SJ2-4.4 / SJ2-4.6: once no-trump stands, only a joker pair may overcall it — unless setting
    ``ntOvercallableByLevelPair``; even then the first declarer may never return to his original
    suit once the hand has been made no-trump."""
    if suit is None:
        return
    if b.no_trump and not b.nt_overcallable_by_level_pair:
        raise RuleViolation("SJ2-4.4", "the hand is no-trump; only a pair of identical jokers can "
                                       "overcall it now")
    if ever_no_trump(b) and seat == b.first_declarer and suit == first_suit(b):
        raise RuleViolation("SJ2-4.6", "seat {seat} declared first, but once the hand has been "
                                       "made no-trump he may not return to his original suit",
                                       seat=seat)


# ---------------------------------------------------------------- transitions

def _restarts_window(b: Bidding) -> bool:
    """SJ2-4.7 (Interpretation): a first declaration restarts the window when it is accepted after
    DealCompleted and the setting is on."""
    return b.first_declaration_restarts_window and b.deal_completed_at is not None


def declare(b: Bidding, seat: int, card: str, hand: Sequence[str], at: datetime) -> Bidding:
    """SJ2-4.1: with no declaration standing and the window open (SJ2-4.7), a player shows one
    level card he holds; its suit becomes trump and he becomes the first declarer."""
    check_seat(seat)
    must_be_open(b, at)
    must_have_no_standing(b)
    must_be_held_level_card(b, card, hand)
    bid = Bid(seat, (card,), card_suit(card), at)
    return evolve(b, standing=bid, history=(bid,), first_declarer=seat, no_trump=False,
                   last_accepted_at=at if _restarts_window(b) else b.last_accepted_at)


def declare_simultaneous(b: Bidding, seat: int, card: str, hand: Sequence[str], at: datetime) -> Bidding:
    """SJ2-4.2: a seat claims it declared at the same time as the standing first declaration.
    Only while the cards are being drawn (「暂停抓牌，抽签决定，然后继续」: drawing pauses for the
    lots), while nothing but single-card declarations have been made, once per seat; the bid is
    recorded without standing and lots must then decide (:func:`resolve_lots`)."""
    check_seat(seat)
    must_be_open(b, at)
    if b.deal_completed_at is not None:
        raise RuleViolation("SJ2-4.2", "the deal is complete: declarations are simultaneous only "
                                       "while the cards are drawn; overcall with a pair instead")
    if b.standing is None:
        raise RuleViolation("SJ2-4.2", "no declaration stands to be simultaneous with; declare normally")
    if not all(bid.is_declaration for bid in b.history):
        raise RuleViolation("SJ2-4.2", "trump has already been overcalled; a simultaneous declaration "
                                       "can only compete with the first declaration")
    if any(bid.seat == seat for bid in b.history):
        raise RuleViolation("SJ2-4.2", "seat {seat} has already declared in this hand",
                                       seat=seat)
    must_be_held_level_card(b, card, hand)
    bid = Bid(seat, (card,), card_suit(card), at)
    return evolve(b, history=b.history + (bid,),
                   last_accepted_at=at if _restarts_window(b) else b.last_accepted_at)


def resolve_lots(b: Bidding, candidates: Sequence[int], winner: int) -> Bidding:
    """SJ2-4.2: the referee's LotsDrawn between simultaneous declarations. ``candidates`` must be
    exactly the seats with a declaration in ``history``, ``winner`` one of them: his declaration
    stands as the first declaration, the others are void. (Lots are drawn while the cards are
    drawn, before DealCompleted, so the window's clock has not started.)"""
    if not lots_pending(b):
        raise RuleViolation("SJ2-4.2", "no simultaneous declarations are waiting for lots")
    declared = sorted(bid.seat for bid in b.history)
    if sorted(candidates) != declared:
        raise RuleViolation("SJ2-4.2", "the lots must be drawn between exactly the seats that "
                                       "declared at the same time ({declared}), not "
                                       "{candidates}",
                                       declared=declared, candidates=sorted(candidates))
    if winner not in candidates:
        raise RuleViolation("SJ2-4.2", "seat {winner} is not one of the candidates {candidates}",
                                       winner=winner, candidates=list(candidates))
    bid = next(bid for bid in b.history if bid.seat == winner)
    return evolve(b, standing=bid, history=(bid,), first_declarer=winner, no_trump=False)


def overcall(b: Bidding, seat: int, cards: Sequence[str], hand: Sequence[str], at: datetime) -> Bidding:
    """SJ2-4.3–4.7: a player overcalls the standing declaration with a pair he holds — identical
    level cards (that suit, the current trump suit included, SJ2-4.3a; the first declarer may so
    return to his original suit, SJ2-4.6) or identical jokers (no-trump, SJ2-4.3b) — until the
    dealer takes the kitty (SJ2-4.8), not over his own bid (SJ2-4.5), and respecting no-trump
    (SJ2-4.4/4.6). Each restarts the 15 s wait (SJ2-4.7)."""
    check_seat(seat)
    must_be_before_the_kitty(b)
    must_not_await_lots(b)
    must_have_standing(b)
    must_not_overcall_self(b, seat)
    must_be_overcall_pair(b, cards, hand)
    suit = card_suit(cards[0])
    must_keep_no_trump(b, seat, suit)
    bid = Bid(seat, tuple(cards), suit, at)
    return evolve(b, standing=bid, history=b.history + (bid,), no_trump=suit is None, last_accepted_at=at)


def deal_completed(b: Bidding, at: datetime) -> Bidding:
    """SJ2-4.7: DealCompleted starts the window's clock; it happens once per hand."""
    if b.deal_completed_at is not None:
        raise RuleViolation("SJ2-4.7", "the deal was already completed at {iso}",
                                       iso=maybe_timestamp(b.deal_completed_at))
    return evolve(b, deal_completed_at=at)


def close_window(b: Bidding, at: datetime) -> Bidding:
    """SJ2-4.7: DeclarationWindowClosed — only after DealCompleted, at or after the deadline, once,
    and not while lots are pending (SJ2-4.2)."""
    if b.closed:
        raise RuleViolation("SJ2-4.7", "the declaration window is already closed")
    limit = deadline(b)
    if limit is None:
        raise RuleViolation("SJ2-4.7", "the deal is not complete, so the declaration window cannot close")
    if at < limit:
        raise RuleViolation("SJ2-4.7", "the declaration window stays open until {iso}; it "
                                       "cannot close at {iso2}",
                                       iso=maybe_timestamp(limit), iso2=maybe_timestamp(at))
    must_not_await_lots(b)
    return evolve(b, closed=True)


def must_be_closed_for_kitty(b: Bidding) -> None:
    """SJ2-4.8: the dealer may take the kitty only after the declaration window has closed."""
    if not b.closed:
        raise RuleViolation("SJ2-4.8", "the declaration window is still open; the kitty may be taken "
                                       "only after it closes")


def trump_at_close(b: Bidding, kitty: Sequence[str]) -> tuple[str | None, str]:
    """SJ2-4.9: trump once the window has closed — the standing bid's suit (None = no-trump),
    source "declaration"; with no declaration, the suit of kitty card #3 (dealt order), or
    no-trump if it is a joker, source "kitty3"."""
    if not b.closed:
        raise ValueError("trump is fixed only once the declaration window has closed (SJ2-4.7)")
    if b.standing is not None:
        return b.standing.suit, "declaration"
    if len(kitty) < 3:
        raise ValueError(f"the kitty has {len(kitty)} cards; SJ2-4.9 needs card #3")
    return card_suit(kitty[2]), "kitty3"


def first_hand_dealer(b: Bidding) -> int | None:
    """SJ2-5.1: in hand 1 the player whose declaration or overcall stands when the window closes
    is the dealer; None if no one declared (the caller applies ``firstHandNoDeclaration``, SJ2-5.2).
    Before the close it names the dealer-to-be."""
    return b.standing.seat if b.standing is not None else None
