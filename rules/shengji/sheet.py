"""Score-sheet recording of a Shengji match (match setting ``recording: "sheet"``, SJ2-18 /
SJ3-15): most tables keep a score sheet, not a card-by-card record. A scorer posts one
``HandResultRecorded`` row per hand — the dealer, the trump, the defenders' points in tricks, the
kitty's points and the multiplier of its capture, the point penalties and the follow errors —
and the hand is scored by the same rules as a hand played card by card
(:func:`.hand_result.scored`), then moves levels and dealer on and may end the match
(``match.with_hand``), so the bracket and the standings follow it unchanged.

**Interpretation (SJ2-18 / SJ3-15: the spec is silent on score sheets).** The row must be one
the rules make possible, else it is refused citing the rule it breaks:

- the hand number is the next hand's (SJ2-16 / SJ3-13), the match is not over (SJ2-14 /
  SJ3-12), no time limit has passed (SJ2-14.4 / SJ3-12.1);
- the dealer: hand 1's (and after a forfeited hand 1 with no nominee) is the sheet's to name
  (SJ2-5.1 / SJ3-4.1); later the rotation's, which a row may repeat but not contradict (SJ2-5.3 /
  SJ3-4.2);
- the trump suit, or ``NT`` (SJ2-3.2; SJ3 plays no no-trump, SJ3-2.2);
- points are counted in fives and never negative (SJ2-1.5 / SJ3-1.5: only 5s, 10s and kings
  count); the trick points and the kitty's together at most what the decks hold (200 / 300: the
  event's schema sets no bound of its own, so a row beyond the decks is refused with this rule); the kitty's at most what
  its 8 / 6 cards can hold (SJ2-1.3 / SJ3-1.3);
- the multiplier: 0 when the kitty is not captured, else one that a winning play can make —
  2^(1+p) for p pairs (SJ2-11.2), ×2 single, ×3 pair, ×4 triple, ×(k+3) and ×(2k+2) for
  tractors (SJ3-10.2); a kitty with no points captured is recorded with its multiplier all the
  same;
- ``follow_errors``: one side per established follow error (SJ2-12.4, each one adjusts P); in SJ3
  each side whose established renege (SJ3-11.2) or light illicit signals (SJ3-11.9) floor the
  outcome (a side counts once); ``kitty_error`` is SJ2's (SJ2-12.3: SJ3 refuses a wrong kitty).

The lateness points of the first hand (T-6.6) are added to the first row as to the first hand
dealt (``match.record_row``). A sheet match has no cards: every card event is refused naming the setting, and a hand
read answers that card-by-card replay is not available (projections).
"""
from __future__ import annotations

from collections.abc import Mapping

from ..violations import RuleViolation
from . import scoring
from .cards import Trump
from .declaring import Bidding
from .hand import Hand, Variant
from .irregularities import add_penalty

SETTING = "recording"
ROW_EVENT = "HandResultRecorded"
POINTS_PER_DECK = 100     # SJ2-1.5 / SJ3-1.5: 200 points in two decks, 300 in three
HIGHEST_CARD_POINTS = 10  # a T or a K


def settings_rule(variant: Variant) -> str:
    return "SJ3-15" if variant.outcome_penalties else "SJ2-18"


def not_by_sheet(settings, variant: Variant, event_type: str) -> None:
    """A card event is refused in a match recorded from score sheets."""
    if settings.by_sheet:
        raise RuleViolation(settings_rule(variant), 'setting {SETTING} is "sheet": this match '
                                                    "is recorded from score sheets, one "
                                                    "{ROW_EVENT} per hand; {event_type} "
                                                    "records cards",
                                                    SETTING=SETTING, ROW_EVENT=ROW_EVENT,
                                                    event_type=event_type)


def by_sheet_only(settings, variant: Variant) -> None:
    """A result row is refused in a match recorded card by card."""
    if not settings.by_sheet:
        raise RuleViolation(settings_rule(variant), 'setting {SETTING} is "cards": this '
                                                    "match's hands are recorded card by card "
                                                    "and scored from their tricks; {ROW_EVENT} "
                                                    'is taken only with {SETTING} "sheet"',
                                                    SETTING=SETTING, ROW_EVENT=ROW_EVENT)


def hand_from_row(number: int, level: str, dealer: int | None, settings, variant: Variant,
                  data: Mapping) -> tuple[Hand, tuple[int, int, int]]:
    """The hand a score-sheet row records, not yet scored, and what it counted: the defenders'
    trick points, the kitty's points and the multiplier (for :func:`.hand_result.scored`).
    ``dealer`` is the rotation's (None: the row names it)."""
    dealer = _dealer(dealer, data.get("dealer"), variant)
    trump = _trump(level, data.get("trump"), variant)
    counted = (*_points(data["trick_points"], data["kitty_points"], variant),
               _multiplier(data["multiplier"], variant))
    errors = data.get("follow_errors", ())
    if variant.outcome_penalties:
        errors = sorted(set(errors))  # SJ3-11.2: several offences of a side count once
        if data.get("kitty_error"):
            raise RuleViolation("SJ3-5.1", "an SJ3 kitty is checked when it is buried: a kitty "
                                           "error cannot arise (kitty_error is SJ2-12.3's)")
    h = Hand(number=number, level=level, dealer=dealer, settings=settings, variant=variant,
             dealt=((),) * 4, dealt_kitty=(), hands=((),) * 4, kitty=(),
             bidding=Bidding(level, closed=True), trump=trump,
             trump_source=None if trump is None else "sheet",
             follow_errors=tuple({"side": side, "source": "sheet"} for side in errors),
             kitty_error=bool(data.get("kitty_error")), first_deal=number == 1)
    default_rule = "SJ3-11.1" if variant.outcome_penalties else "SJ2-12.1"
    for given in data.get("penalties", ()):  # SJ2-12.1 / SJ3-11.1, as a referee's are kept
        # a committee's penalty put into the row by a ruling on the hand (T-1.8) says so
        h = add_penalty(h, given.get("rule") or default_rule, given["side"], given["points"],
                        given.get("source", "sheet"), given.get("reason"))
    return h, counted


def _dealer(rotation: int | None, named: int | None, variant: Variant) -> int:
    first, later = ("SJ3-4.1", "SJ3-4.2") if variant.outcome_penalties else ("SJ2-5.1", "SJ2-5.3")
    if rotation is None:
        if named is None:
            raise RuleViolation(first, "the dealer of this hand comes from the declarations, "
                                       "not from the rotation: the row must name it (dealer)")
        return named
    if named is not None and named != rotation:
        raise RuleViolation(later, "seat {rotation} deals this hand by the rotation, not seat "
                                   "{named}",
                                   rotation=rotation, named=named)
    return rotation


def _trump(level: str, suit: str | None, variant: Variant) -> Trump | None:
    if suit is None:
        return None
    if suit == "NT":
        if not variant.no_trump:
            raise RuleViolation("SJ3-2.2", "SJ3 plays no no-trump hand (「不打无将牌」): the "
                                           "trump is a suit")
        return Trump(level, None)
    return Trump(level, suit)


def _points(trick_points: int, kitty_points: int, variant: Variant) -> tuple[int, int]:
    rule = "SJ3-1.5" if variant.outcome_penalties else "SJ2-1.5"
    total = POINTS_PER_DECK * variant.decks
    for name, value in (("trick_points", trick_points), ("kitty_points", kitty_points)):
        if value < 0:
            raise RuleViolation(rule, "{name} {value} is negative: the points are those of the "
                                      "5s, 10s and kings taken",
                                      name=name, value=value)
        if value % 5:
            raise RuleViolation(rule, "{name} {value} is not a multiple of 5: only 5s (5), 10s "
                                      "and kings (10) count",
                                      name=name, value=value)
    if trick_points + kitty_points > total:
        raise RuleViolation(rule, "trick_points {trick_points} and kitty_points {kitty_points} "
                                  "make {trick_points2}: {decks} decks hold {total} points in "
                                  "all",
                                  trick_points=trick_points, kitty_points=kitty_points,
                                  trick_points2=trick_points + kitty_points, decks=variant.decks,
                                  total=total)
    most = variant.kitty_size * HIGHEST_CARD_POINTS
    if kitty_points > most:
        kitty_rule = variant.rule("deal")
        raise RuleViolation(kitty_rule, "kitty_points {kitty_points}: a kitty of {kitty_size} "
                                        "cards holds at most {most} points",
                                        kitty_points=kitty_points, kitty_size=variant.kitty_size,
                                        most=most)
    return trick_points, kitty_points


def multipliers(variant: Variant) -> tuple[int, ...]:
    """The multipliers a winning play of the last trick can give the kitty (0: not captured):
    SJ2-11.2 2^(1+p) for p pairs in a play of at most a hand's cards; SJ3-10.2 ×2 a single, ×3 a
    pair, ×4 a triple, ×(k+3) a tractor of k pairs, ×(2k+2) one of k triples."""
    size = variant.hand_size
    if not variant.outcome_penalties:
        return (0, *(scoring.kitty_multiplier(p) for p in range(size // 2 + 1)))
    found = {scoring.sj3_kitty_multiplier(1, 1), scoring.sj3_kitty_multiplier(2, 1),
             scoring.sj3_kitty_multiplier(3, 1)}
    found |= {scoring.sj3_kitty_multiplier(2, k) for k in range(2, size // 2 + 1)}
    found |= {scoring.sj3_kitty_multiplier(3, k) for k in range(2, size // 3 + 1)}
    return (0, *sorted(found))


def _multiplier(value: int, variant: Variant) -> int:
    allowed = multipliers(variant)
    if value not in allowed:
        rule = "SJ3-10.2" if variant.outcome_penalties else "SJ2-11.2"
        shown = ", ".join(map(str, allowed[1:8]))
        raise RuleViolation(rule, "multiplier {value} is not one a winning play gives the "
                                  "kitty: 0 (not captured) or {shown}, …",
                                  value=value, shown=shown)
    return value
