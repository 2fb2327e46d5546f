"""The irregular hands and conduct penalties of the Sichuan game, as the referee records them
during a hand (mahjong-sichuan.md MJS-9, MJS-10; seed 003 「四、懲罰措施」).

* ``WrongTileCount`` — 相公 (MJS-9.1): the player cannot win; at a draw he settles as not ready.
* ``FalseWinDeclared`` — 炸胡 (MJS-9.2): he pays ``falseWinPayment`` (32) to each other player
  still in, play resumes, he may not win in this hand. (In record enforcement a win posted on a
  hand that is not one is a 炸胡 by itself.)
* ``WarningIssued`` — drawing early, peeking at the wall, calling pong or kong without making
  it (MJS-10.2): the first time a warning, the second time the player loses the right to win
  and plays on (弃和陪打); a slow discard (MJS-10.3, also the timer's ``TimeLimitExceeded``): a
  warning. Three warnings in one hand cost 10 points, deducted (MJS-10.3, 10.6).
* ``ConductPenaltyAssessed`` — disclosing one's own hand: −20, deducted (MJS-10.4); naming
  another player's hand: 30 to him (``disclosurePayee: victim``, or to each other player) and
  no more winning in this hand (MJS-10.5).

Counted per player per hand (MJS-10.2 interpretation). A player who has won is still subject to
them (his conduct at the table), but being barred from winning no longer changes anything.
"""
from __future__ import annotations

from collections.abc import Mapping

from ..frozen import evolve
from ..messages import N_, Message
from .hand import Hand, _fail, _must_be_in_play, _seat_arg, bar, charge, false_win
from .wall import SEATS

OFFENCES = ("earlyDraw", "peek", "falsePong", "falseKong")     # MJS-10.2
WARNINGS = (*OFFENCES, "slow")                                  # MJS-10.3: a slow discard
DISCLOSURES = ("ownHand", "otherHand")                          # MJS-10.4, 10.5
WARNINGS_FOR_DEDUCTION = 3        # MJS-10.3: 「如一局中警告次數達到三次，則扣除10分」
WARNING_DEDUCTION = 10
OWN_HAND_DEDUCTION = 20           # MJS-10.4: 「在局分中扣罰20分」
OTHER_HAND_PAYMENT = 30           # MJS-10.5: 「付給他人30分」

_OFFENCE_WORDS = {"earlyDraw": N_("drew early"), "peek": N_("peeked at the wall"),
                  "falsePong": N_("called pong without ponging"),
                  "falseKong": N_("called kong without konging"),
                  "slow": N_("discarded too slowly")}


def _must_be_dealt_and_open(state: Hand) -> None:
    if state.over:
        raise _fail(state.settings, "lifecycle", "the hand is over: the committee rules on what "
                                                 "happened in it (RulingRecorded)")


def _bump(counts: tuple[int, ...], seat: int) -> tuple[int, ...]:
    return tuple(n + (s == seat) for s, n in enumerate(counts))


def warn(state: Hand, data: Mapping) -> Hand:
    """``WarningIssued`` (MJS-10.2, 10.3): a warning — or, for a second offence of MJS-10.2,
    the loss of the right to win — and at the third warning of the hand −10, deducted."""
    settings = state.settings
    seat = _seat_arg(settings, data)
    _must_be_dealt_and_open(state)
    offence = data.get("offence")
    if offence not in WARNINGS:
        raise _fail(settings, "conduct", "a warning is for one of {warnings}, not "
                                         "{offence!r}",
                                         warnings=', '.join(WARNINGS), offence=offence)
    if offence in OFFENCES:
        state = evolve(state, offences=_bump(state.offences, seat))
        if state.offences[seat] > 1:
            return bar(state, seat, settings.rule("conduct"))
    return _warned(state, seat, offence)


def _warned(state: Hand, seat: int, offence: str) -> Hand:
    state = evolve(state, warnings=_bump(state.warnings, seat))
    if state.warnings[seat] == WARNINGS_FOR_DEDUCTION:
        state = charge(state, seat, "MJS-10.3", WARNING_DEDUCTION, (),
                       Message("seat {seat} warned three times in one hand (last: {offence})",
                               seat=seat, offence=Message(_OFFENCE_WORDS[offence])))
    return state


def slow_discard(state: Hand, seat: int) -> Hand:
    """The timer's ``TimeLimitExceeded`` (MJS-10.3): each discard within 30 s; a breach is a
    warning."""
    return _warned(state, seat, "slow")


def disclose(state: Hand, data: Mapping) -> Hand:
    """``ConductPenaltyAssessed`` (MJS-10.4, 10.5): ``ownHand`` — the seat disclosed his own
    hand to mislead: 20 deducted; ``otherHand`` — he named ``victim``'s hand to interfere: he
    pays 30 to the victim (or to each other player, ``disclosurePayee: eachOther``) and may not
    win in this hand."""
    settings = state.settings
    seat = _seat_arg(settings, data)
    _must_be_dealt_and_open(state)
    offence = data.get("offence")
    if offence == "ownHand":
        return charge(state, seat, "MJS-10.4", OWN_HAND_DEDUCTION, (),
                      Message("seat {seat} disclosed his own hand to mislead the others",
                              seat=seat))
    if offence != "otherHand":
        own, other = DISCLOSURES
        raise _fail(settings, "disclosure", "a conduct penalty is for {own} or {other}, "
                                            "not {offence!r}",
                                            own=own, other=other, offence=offence)
    victim = data.get("victim")
    if type(victim) is not int or not 0 <= victim < SEATS or victim == seat:
        raise _fail(settings, "disclosure", "naming another player's hand names that "
                                            "player: victim is another seat than "
                                            "{seat}, not {victim!r}",
                                            seat=seat, victim=victim)
    payees = (victim,) if settings.disclosurePayee == "victim" else \
        tuple(s for s in range(SEATS) if s != seat)
    state = charge(state, seat, "MJS-10.5", OTHER_HAND_PAYMENT, payees,
                   Message("seat {seat} named seat {victim}'s hand to interfere",
                           seat=seat, victim=victim))
    return bar(state, seat, "MJS-10.5")


def wrong_count(state: Hand, data: Mapping) -> Hand:
    """``WrongTileCount`` (MJS-9.1, 相公): the seat holds too many or too few tiles — he
    cannot win; at an exhaustive draw he settles as a not-ready player."""
    settings = state.settings
    seat = _seat_arg(settings, data)
    _must_be_dealt_and_open(state)
    if state.is_out(seat):
        raise _fail(settings, "wrongCount", "seat {seat} has won: his hand is closed",
                                            seat=seat)
    return bar(state, seat, settings.rule("wrongCount"))


def declare_false_win(state: Hand, data: Mapping) -> Hand:
    """``FalseWinDeclared`` (MJS-9.2, 炸胡): the seat declared a win on a hand that is not one
    (the referee's record of it at the table)."""
    settings = state.settings
    seat = _seat_arg(settings, data)
    _must_be_dealt_and_open(state)
    _must_be_in_play(state)
    if state.is_out(seat):
        raise _fail(settings, "falseWin", "seat {seat} has won and is out of the hand",
                                          seat=seat)
    return false_win(state, seat)
