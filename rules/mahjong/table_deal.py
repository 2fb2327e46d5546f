"""Before each hand of a mahjong table (MJO-2, MJS-2.1, T-8.1): the dice for the first dealer and
for the wall's break (``DiceRolled``), and the deal (``TilesDealt``) of the next hand, or of the
extra hands of a final (T-7.4)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..frozen import evolve
from ..violations import RuleViolation
from .dealer import first_dealer
from .dealing import deal as deal_hand
from .dealing import deal_from_wall as deal_hand_from_wall
from .mjo import Session, start_session
from .mjo import session_over as session_limit_reached
from .table import HandRecord, Table, _must_be_open
from .wall import SEATS, roll_total, second_roller


def still_rolling(rounds: Sequence[Mapping[int, Sequence[int]]]) -> tuple[frozenset[int], Mapping]:
    """MJO-2.1: the seats that roll now and the throws of the round in progress; no seat once
    the first dealer is decided."""
    rolling = frozenset(range(SEATS))
    for number, round_ in enumerate(rounds):
        if set(round_) != rolling:
            return rolling, round_
        totals = {s: sum(d) for s, d in round_.items()}
        best = max(totals.values())
        rolling = frozenset(s for s, total in totals.items() if total == best)
        if len(rolling) == 1:
            return frozenset(), {}
        if number == len(rounds) - 1:
            return rolling, {}
    return rolling, {}


def roll_for_first_dealer(t: Table, data: Mapping) -> Table:
    """``DiceRolled`` ``firstDealer`` (MJO-2.1): every seat rolls two dice once; the highest
    deals first; while several share the highest, exactly those roll again."""
    rule = t.settings.rule("firstDealer")
    seat, dice = data["seat"], tuple(data["dice"])
    roll_total(dice, t.settings, "firstDealer")  # a die shows 1 to 6: first of all
    if t.session is not None:
        raise RuleViolation(rule, "the first dealer is known already: seat {first_dealer}",
                                  first_dealer=t.session.rotation.first_dealer)
    rolling, round_ = still_rolling(t.first_rolls)
    if seat not in rolling:
        raise RuleViolation(rule, "seat {seat} does not roll now: seat(s) {rolling} roll for "
                                  "the deal",
                                  seat=seat, rolling=', '.join(map(str, sorted(rolling))))
    if seat in round_:
        raise RuleViolation(rule, "seat {seat} has already rolled in this round",
                                  seat=seat)
    rounds = t.first_rolls[:-1] + ({**round_, seat: dice},) if round_ else \
        t.first_rolls + ({seat: dice},)
    t = evolve(t, first_rolls=rounds)
    if still_rolling(rounds)[0]:
        return t
    dealer = first_dealer(rounds, t.settings)
    return evolve(t, session=start_session(t.settings, dealer), status="playing")


def roll_to_break_the_wall(t: Table, data: Mapping) -> Table:
    """``DiceRolled`` ``wallBreak`` (MJO-2.3) for the next hand: the dealer throws first; the
    seat his total names throws second. The deal may then be made from the walls with them."""
    rule = t.settings.rule("deal")
    roll_total(data["dice"], t.settings, "deal")
    _must_be_between_hands(t, data["hand"])
    if t.session is None:
        raise RuleViolation(t.settings.rule("firstDealer"), "the dealer is not known yet: the "
                                                            "first dealer is rolled for first")
    if len(t.wall_dice) == 2:
        raise RuleViolation(rule, "the wall is broken with two throws, and both have been made")
    dealer = t.session.dealer
    roller = dealer if not t.wall_dice else second_roller(dealer, sum(t.wall_dice[0][1]))
    if data["seat"] != roller:
        if not t.wall_dice:
            raise RuleViolation(rule, "the first throw to break the wall is seat {roller}'s, "
                                      "not seat {seat}'s",
                                      roller=roller, seat=data['seat'])
        raise RuleViolation(rule, "the second throw to break the wall is seat {roller}'s, not "
                                  "seat {seat}'s",
                                  roller=roller, seat=data['seat'])
    return evolve(t, wall_dice=t.wall_dice + ((roller, tuple(data["dice"])),))


def _must_be_between_hands(t: Table, number: int) -> None:
    _must_be_open(t)
    if t.current is not None:
        raise RuleViolation(t.rule("lifecycle"), "hand {number} is still being played; it must "
                                                 "end before the next deal",
                                                 number=t.current.number)
    if number != t.next_hand:
        raise RuleViolation(t.rule("lifecycle"), "the next hand is hand {next_hand}, not "
                                                 "{number}",
                                                 next_hand=t.next_hand, number=number)


def _session_for_the_deal(t: Table, data: Mapping) -> Session:
    """MJO-2.1 / MJO-2.2: the dealer of the hand — the session's; for hand 1 without dice, the
    dealer the deal names."""
    given = data.get("dealer")
    if t.session is not None:
        if given is not None and given != t.session.dealer:
            raise RuleViolation(t.settings.rule("dealer"), "seat {dealer} deals hand {next_hand}, "
                                                           "not seat {given}",
                                                           dealer=t.session.dealer,
                                                           next_hand=t.next_hand, given=given)
        return t.session
    rule = t.settings.rule("firstDealer")
    if t.first_rolls:
        rolling, round_ = still_rolling(t.first_rolls)
        raise RuleViolation(rule, "the first dealer is not decided yet: seat(s) {rolling} "
                                  "roll (again)",
                                  rolling=', '.join(map(str, sorted(rolling - set(round_)))))
    if given is None:
        raise RuleViolation(rule, "the first dealer is rolled for (DiceRolled, purpose "
                                  "firstDealer) or named by the first deal (dealer)")
    return start_session(t.settings, given)


def deal(t: Table, data: Mapping, at: str | None) -> Table:
    """``TilesDealt`` (MJO-2.3, MJO-2.4): hand ``next_hand`` dealt by the session's dealer —
    from the four hands as dealt, or from the walls and the two wall-break throws."""
    _must_be_between_hands(t, data["hand"])
    session = _session_for_the_deal(t, data)
    dealt = {"dealer": session.dealer}
    if data.get("walls") is not None and t.game == "MJS":
        raise RuleViolation(t.rule("deal"), "a Sichuan deal gives the four hands (and the live "
                                            "wall): its walls are not broken by dice")
    if data.get("walls") is not None:
        dealt.update(walls=data["walls"], dice=_wall_break_throws(t, data))
        state = deal_hand_from_wall(t.settings, dealt)
    else:
        dealt.update(hands=data["hands"], wall=data.get("wall"))
        state = deal_hand(t.settings, dealt)
    record = HandRecord(number=data["hand"], state=state,
                        round_wind=session.rotation.round_wind,
                        balances_before=session.balances, wall_dice=t.wall_dice, dealt_at=at,
                        opened_at=at if state.phase == "discard" else None,
                        tiebreak=session_limit_reached(session))
    return evolve(t, session=session, current=record, wall_dice=(), status="playing")


def _wall_break_throws(t: Table, data: Mapping) -> list[list[int]]:
    """MJO-2.3: the throws given with the walls, or else the ones recorded for this hand; given
    both, they must agree."""
    rule = t.settings.rule("deal")
    recorded = [list(dice) for _, dice in t.wall_dice]
    given = data.get("dice")
    for throw in given or ():
        roll_total(throw, t.settings, "deal")
    if given is None:
        if len(recorded) != 2:
            raise RuleViolation(rule, "a deal from the walls needs the two wall-break throws: "
                                      "give dice or record them (DiceRolled, purpose wallBreak)")
        return recorded
    if recorded and [list(d) for d in given] != recorded:
        raise RuleViolation(rule, "the throws {given} are not the recorded wall-break throws "
                                  "{recorded}",
                                  given=given, recorded=recorded)
    return [list(d) for d in given]
