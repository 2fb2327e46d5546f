"""The play of a Shengji hand (SJ2-8 – SJ2-10, SJ2-12.4; SJ3-6 – SJ3-9, SJ3-11.2, SJ3-11.8):
CardsPlayed as a lead, a throw or a follow, the failed throw's designation (ThrowPenaltyChoice),
tricks won, PlayCorrected, and the move times a time limit counts from
(SJ3TimeLimitExceeded)."""
from __future__ import annotations

from collections import Counter
from datetime import datetime, timedelta
from typing import Mapping

from ..frozen import evolve
from ..match_clock import timestamp
from ..messages import Message, Sentence
from ..violations import RuleViolation
from . import obligations, scoring, words
from .cards import Trump, points, remove_cards
from .combos import Component, check_lead, decompose, judge_mixed_lead, judge_throw
from .following import check_follow, follows_single, must_play_lead_size
from .stated_leads import beatable_components, default_throw_choice, lead_components, throw_options
from .winning import trick_winner
from .hand import MOVE_SECONDS, POINTS_PENALTY, Hand, Trick, in_phase, must_hold, with_holding
from .hand_result import finish


def play(h: Hand, data: Mapping, at: datetime | None = None) -> Hand:
    """CardsPlayed by the seat on turn: a lead (SJ2-8, SJ3-6/7) or a follow (SJ2-9, SJ3-8). A
    follow error left uncorrected is established when the next card is played (SJ2-12.4), or in
    SJ3 when the next trick is led (SJ3-11.2). ``at``: the play's time, the move the next one's
    limit counts from (:func:`move_clock`), set in the same new value as the play."""
    # the checks every play passes are called only when they may refuse it (one play an event)
    if h.phase != "playing":
        in_phase(h, Message("a play"), "playing")
    seat, cards = data["seat"], tuple(data["cards"])
    if h.trick is not None and not h.trick.plays:
        _must_not_await_choice(h)
    _must_be_on_turn(h, seat)
    must_hold(h, seat, cards, "play")
    structure = data.get("structure")
    if structure is not None:
        _must_state_structure_only_when_leading(h, structure)
    if h.pending and (h.trick is None or not h.variant.renege_until_next_lead):
        h = _establish_pending(h)
    if h.trick is None:  # a lead never completes a trick
        return _lead(h, seat, cards, structure, at)
    return _follow(h, seat, cards, at)


def _must_state_structure_only_when_leading(h: Hand, structure) -> None:
    """SJ3-6.6: only a lead states its structure (a follow is read by its best arrangement);
    SJ2-7.3: an SJ2 lead is read by its canonical decomposition."""
    if structure is None or (h.variant.stated_throws and h.trick is None):
        return
    if h.variant.stated_throws:
        raise RuleViolation("SJ3-6.6", "only a lead states a structure: a follow is read by its "
                                       "best arrangement")
    raise RuleViolation("SJ2-7.3", "an SJ2 lead is read by its canonical decomposition; it "
                                   "states no structure")


def _must_not_await_choice(h: Hand) -> None:
    if h.trick is not None and h.trick.awaiting_choice:
        throw = h.trick.throw
        raise RuleViolation("SJ3-7.3", "seat {designator} must first designate what seat "
                                       "{seat} plays for his failed throw (ThrowPenaltyChoice)",
                                       designator=throw['designator'], seat=throw['seat'])


def _must_be_on_turn(h: Hand, seat: int) -> None:
    turn = h.turn()
    if seat != turn:
        rule = h.variant.rule("lead_turn" if h.trick is None else "follow_turn")
        if h.trick is None:
            raise RuleViolation(rule, "it is seat {turn}'s turn to lead, not seat {seat}'s",
                                      turn=turn, seat=seat)
        raise RuleViolation(rule, "it is seat {turn}'s turn to play, not seat {seat}'s",
                                  turn=turn, seat=seat)


def _lead(h: Hand, seat: int, cards: tuple[str, ...], structure, at: datetime | None) -> Hand:
    """SJ2-8.2 one class; SJ2-8.3 – 8.5 a throw that fails is penalised and replaced by its
    lowest beatable component. A released lead is not taken back (SJ2-12.5): in record mode a
    lead that mixes classes is judged as a failed throw; in strict mode it is refused. SJ3:
    :func:`_stated_lead`."""
    if h.variant.stated_throws:
        return _stated_lead(h, seat, cards, structure, at)
    number = len(h.tricks) + 1
    played, throw = cards, None
    rule, verdict = _judge_lead(h, seat, cards)
    if verdict is not None and verdict.failed:
        played = verdict.forced
        throw = {**_throw_record(seat, cards, verdict), "rule": rule}
        if verdict.penalty_cards:
            h = evolve(h, penalties=h.penalties + (_throw_penalty(seat, verdict, number, rule),))
    trick = Trick(number, seat, plays=((seat, played),), throw=throw)
    return evolve(h, trick=trick, hands=with_holding(h.hands, seat, remove_cards(h.hands[seat], played)),
                  clock=at)


def _judge_lead(h: Hand, seat: int, cards: tuple[str, ...]):
    """(rule, verdict): a throw judged by SJ2-8.5, a mixed lead in record mode by SJ2-12.5; a
    single component needs no judgement (verdict None) — nor a single card (most leads), one
    class and one component once held."""
    if len(cards) == 1:
        return None, None
    if len(h.trump.classes(cards)) > 1 and not h.settings.strict:
        return "SJ2-12.5", judge_mixed_lead(cards, h.trump, _throw_checkers(h, seat))
    check_lead(cards, h.trump)
    if len(decompose(cards, h.trump)) > 1:
        return "SJ2-8.5", judge_throw(cards, h.trump, _throw_checkers(h, seat))
    return None, None


def _throw_checkers(h: Hand, seat: int) -> list[tuple[str, ...]]:
    """SJ2-8.4 / SJ3-7.2: the hands a throw is checked against (setting throwCheckAgainst)."""
    others = [s for s in range(4) if s != seat]
    if h.settings.throwCheckAgainst == "opponents":
        others = [s for s in others if scoring.side_of(s) != scoring.side_of(seat)]
    return [h.hands[s] for s in others]


def _throw_record(seat: int, attempt, verdict) -> dict:
    return {"seat": seat, "attempt": list(attempt),
            "beaten": [list(c.cards) for c in verdict.beaten],
            "penalty": 10 * verdict.penalty_cards, "forced": list(verdict.forced)}


def _throw_penalty(seat: int, verdict, trick_no: int, rule: str) -> dict:
    """SJ2-8.5 / SJ2-12.2 (and SJ2-12.5 for a wrong lead): 10 points per card of every beatable
    component, against the thrower's side."""
    if rule == "SJ2-12.5":
        reason = Sentence(Message("seat {seat}'s lead mixed classes: {count} component(s) "
                                  "beatable", seat=seat, count=len(verdict.beaten)))
    else:
        reason = _throw_failed(seat, len(verdict.beaten))
    return {"rule": rule, "side": scoring.side_of(seat), "points": 10 * verdict.penalty_cards,
            "trick": trick_no, "source": "engine", "reason": reason}


def _throw_failed(seat: int, beaten: int) -> Sentence:
    return Sentence(Message("seat {seat}'s throw failed: {count} component(s) beatable",
                            seat=seat, count=beaten))


def _stated_lead(h: Hand, seat: int, cards: tuple[str, ...], structure,
                 at: datetime | None) -> Hand:
    """SJ3-6.4, 6.5, 7: a lead is one component, or a throw whose structure is stated. A throw
    with a component an opponent could beat fails (甩错牌): 20 points against the thrower's side
    whatever its size, and the thrower's next seat designates, among the lowest component of each
    type stated, what he plays (SJ3-7.3); with one type there is no choice. Judged by the backend
    in both modes."""
    components = lead_components(cards, h.trump, structure)
    number = len(h.tricks) + 1
    beaten = () if len(components) == 1 else \
        beatable_components(components, h.trump, _throw_checkers(h, seat))  # one: no throw
    if not beaten:
        trick = Trick(number, seat, plays=((seat, cards),), components=components)
        return evolve(h, trick=trick, hands=with_holding(h.hands, seat, remove_cards(h.hands[seat], cards)),
                      clock=at)
    options = throw_options(components)
    designator = scoring.next_seat(seat)
    penalty = {"rule": "SJ3-7.3", "side": scoring.side_of(seat), "points": POINTS_PENALTY,
               "trick": number, "source": "engine", "reason": _throw_failed(seat, len(beaten))}
    throw = {"rule": "SJ3-7.3", "seat": seat, "attempt": list(cards),
             "structure": [list(c.cards) for c in components],
             "beaten": [list(c.cards) for c in beaten], "penalty": POINTS_PENALTY,
             "options": [list(o.cards) for o in options], "designator": designator,
             "forced": None, "chosen": None}
    h = evolve(h, penalties=h.penalties + (penalty,), trick=Trick(number, seat, throw=throw),
               clock=at)
    if len(options) == 1:
        return _forced_lead(h, options[0], "only")
    return h


def _forced_lead(h: Hand, component: Component, how: str) -> Hand:
    """SJ3-7.3: the failed throw's designated component is led; the other cards stay in the
    thrower's hand."""
    trick, seat = h.trick, h.trick.throw["seat"]
    throw = {**trick.throw, "forced": list(component.cards), "chosen": how}
    trick = evolve(trick, plays=((seat, component.cards),), components=(component,), throw=throw)
    return evolve(h, trick=trick,
                   hands=with_holding(h.hands, seat, remove_cards(h.hands[seat], component.cards)))


def _options_of(h: Hand) -> tuple[Component, ...]:
    throw = h.trick.throw
    return throw_options(lead_components(throw["attempt"], h.trump, throw["structure"]))


def choose_throw_component(h: Hand, data: Mapping) -> Hand:
    """ThrowPenaltyChoice (SJ3-7.3): the thrower's next seat designates one of the options — the
    lowest component of a type stated in the failed throw."""
    in_phase(h, "ThrowPenaltyChoice", "playing")
    if h.trick is None or not h.trick.awaiting_choice:
        raise RuleViolation("SJ3-7.3", "no failed throw is waiting for a designation")
    throw, seat = h.trick.throw, data["seat"]
    if seat != throw["designator"]:
        raise RuleViolation("SJ3-7.3", "seat {designator}, the thrower's next seat, designates "
                                       "the play, not seat {seat}",
                                       designator=throw['designator'], seat=seat)
    wanted = Counter(data["component"])
    for option in _options_of(h):
        if Counter(option.cards) == wanted:
            return _forced_lead(h, option, "designator")
    raise RuleViolation("SJ3-7.3", "{component} is not one of the options: {options}",
                        component=" ".join(data["component"]),
                        options="; ".join(" ".join(o) for o in throw["options"]))


def default_throw_component(h: Hand) -> Hand:
    """SJ3-7.3 **Interpretation**: the designator did not choose in time — the lowest single,
    else the smallest component, is led."""
    return _forced_lead(h, default_throw_choice(_options_of(h)), "default")


def _follow(h: Hand, seat: int, cards: tuple[str, ...], at: datetime | None) -> Hand:
    """SJ2-9 / SJ3-8: a non-compliant follow is refused in strict mode; in record mode it is
    stored, flagged, and may be corrected before the next card is played (SJ2-12.4) or the next
    trick is led (SJ3-11.2). A wrong number of cards is refused in both modes. The fourth play
    completes the trick (SJ2-10 / SJ3-9), judged as it is stored; after the last trick, the hand
    ends. The trick and the hand are each made once, with the play's time (``at``)."""
    trick, hand = h.trick, h.hands[seat]
    flagged, pending, lead = trick.flagged, h.pending, trick.lead
    if len(cards) != len(lead):
        must_play_lead_size(lead, cards, h.trump, words.seat(seat),
                            rule=h.variant.rule("follow_count"))
    if len(lead) == 1 and follows_single(lead[0], hand, cards[0], h.trump):
        pass  # a single led, followed by one card it allows (most follows: SJ2-9.2, SJ3-8.1)
    else:
        try:
            _check_obligations(h, trick, hand, seat, cards)
        except RuleViolation as violation:
            if h.settings.strict:
                raise
            entry = {"seat": seat, "trick": trick.number,
                     "rule": violation.rule, "message": Sentence(violation.text)}
            flagged, pending = flagged + (entry,), pending + (entry,)
    plays = trick.plays + ((seat, cards),)
    hands = with_holding(h.hands, seat, remove_cards(hand, cards))
    if len(plays) < 4:
        return evolve(h, trick=evolve(trick, plays=plays, flagged=flagged), pending=pending,
                      hands=hands, clock=at)
    winner, won = _judgement(plays, trick.components, h.trump)
    trick = evolve(trick, plays=plays, flagged=flagged, winner=winner, points=won)
    h = evolve(h, trick=None, tricks=h.tricks + (trick,), pending=pending, hands=hands, clock=at)
    if any(hands):
        return h
    return finish(_establish_pending(h))


def _check_follow(h: Hand, trick: Trick, hand: tuple[str, ...], seat: int,
                  cards: tuple[str, ...]) -> None:
    must_play_lead_size(trick.lead, cards, h.trump, words.seat(seat),
                        rule=h.variant.rule("follow_count"))
    _check_obligations(h, trick, hand, seat, cards)


def _check_obligations(h: Hand, trick: Trick, hand: tuple[str, ...], seat: int,
                       cards: tuple[str, ...]) -> None:
    """SJ2-9.2 – 9.4 / SJ3-8: the follow's obligations, its count checked."""
    player = words.seat(seat)
    if h.variant.stated_throws:
        obligations.check_follow(trick.components, hand, cards, h.trump, player=player)
    else:
        check_follow(trick.lead, hand, cards, h.trump, player=player)


def _judged(trick: Trick, trump: Trump) -> Trick:
    """SJ2-10.1 – 10.4 / SJ3-9: the winner and the trick's point cards."""
    winner, won = _judgement(trick.plays, trick.components, trump)
    return evolve(trick, winner=winner, points=won)


def _judgement(plays, components, trump: Trump) -> tuple[int, int]:
    """The winner of a trick of these plays and its point cards (:func:`_judged`)."""
    index = trick_winner([cards for _, cards in plays], trump, components,
                         in_order=components is not None)
    return plays[index][0], points(card for _, cards in plays for card in cards)


def winning_so_far(trick: Trick, trump: Trump) -> int | None:
    """SJ2-10.3, §17: the seat whose play holds the trick in play so far."""
    if not trick.plays:
        return None
    return trick.plays[_winning_index(trick, trump)][0]


def _winning_index(trick: Trick, trump: Trump) -> int:
    """SJ2-10 by the key component; SJ3-9 (the tricks that carry their stated lead, SJ3-6.6) by
    the components in key order, seed 十六 「先比较拖拉机，三条，单张的级别大小」."""
    return trick_winner([cards for _, cards in trick.plays], trump, trick.components,
                        in_order=trick.components is not None)


def _establish_pending(h: Hand) -> Hand:
    """SJ2-12.4 / SJ3-11.2: follow errors not corrected in time are established."""
    if not h.pending:
        return h
    errors = tuple({**entry, "side": scoring.side_of(entry["seat"])} for entry in h.pending)
    return evolve(h, pending=(), follow_errors=h.follow_errors + errors)


def correct_play(h: Hand, data: Mapping) -> Hand:
    """PlayCorrected (SJ2-12.4, SJ3-11.2; record mode): a flagged follow, replaced by a legal one
    before the next card is played (SJ2) or the next trick is led (SJ3); the error then carries
    no penalty."""
    rule = h.variant.rule("renege")
    if h.settings.strict:
        raise RuleViolation(rule, "in strict mode an illegal play is refused when posted; "
                                  "there is nothing to correct")
    in_phase(h, "PlayCorrected", "playing")
    if data.get("structure") is not None:
        raise RuleViolation(rule, "a correction replaces a follow; it states no structure")
    trick, reopened = _last_trick(h)
    seat, cards = data["seat"], tuple(data["cards"])
    entry = next((p for p in h.pending if p["seat"] == seat), None)
    if entry is None:
        if h.variant.renege_until_next_lead:
            raise RuleViolation(rule, "only a follow error can be corrected, before the next "
                                      "trick is led; seat {seat}'s play in this trick is not one",
                                      seat=seat)
        raise RuleViolation(rule, "only a follow error can be corrected, before the next card "
                                  "is played; seat {seat}'s last play is not one",
                                  seat=seat)
    index = next(i for i, (s, _) in enumerate(trick.plays) if s == seat)
    before = with_holding(h.hands, seat, h.hands[seat] + trick.plays[index][1])
    must_hold(evolve(h, hands=before), seat, cards, "play")
    _check_follow(h, trick, before[seat], seat, cards)
    flagged = tuple(f if f is not entry else {**f, "corrected": True} for f in trick.flagged)
    plays = trick.plays[:index] + ((seat, cards),) + trick.plays[index + 1:]
    trick = evolve(trick, plays=plays, flagged=flagged, winner=None, points=0)
    h = evolve(h, hands=with_holding(before, seat, remove_cards(before[seat], cards)),
                pending=tuple(p for p in h.pending if p is not entry))
    if reopened:  # the correction may change who won the trick just completed
        return evolve(h, tricks=h.tricks[:-1] + (_judged(trick, h.trump),))
    return evolve(h, trick=trick)


def _last_trick(h: Hand) -> tuple[Trick | None, bool]:
    """The trick holding the last play: the one in play, or the one just completed."""
    if h.trick is not None and h.trick.plays:
        return h.trick, False
    return (h.tricks[-1], True) if h.tricks else (None, False)


# --- time limits (SJ3-11.8, SJ3-7.3) ----------------------------------------------------------

def move_clock(h: Hand, at: datetime | None) -> Hand:
    """The time a move's limit counts from: KittyTaken (burying and the first lead), each play
    (the next follow, or the lead after a trick), a failed throw and its designation."""
    return evolve(h, clock=at)


def waiting_for(h: Hand) -> tuple[str, int, int] | None:
    """SJ3-11.8 / 7.3: the wait in progress — (kind, seat, seconds): "kitty" (the dealer buries
    and leads, 60 s), "lead" (15 s), "follow" (10 s), "throwChoice" (the designator,
    ``throwChoiceSeconds``); None when nobody is being waited for."""
    if h.phase == "burying" or (h.phase == "playing" and h.trick is None and not h.tricks):
        return "kitty", h.dealer, MOVE_SECONDS["kitty"]
    if h.phase != "playing":
        return None
    if h.trick is None:
        return "lead", h.turn(), MOVE_SECONDS["lead"]
    if h.trick.awaiting_choice:
        return "throwChoice", h.trick.throw["designator"], h.settings.throwChoiceSeconds
    return "follow", h.turn(), MOVE_SECONDS["follow"]


def overrun(h: Hand, data: Mapping, at: datetime | None) -> Hand:
    """SJ3TimeLimitExceeded: only a true report — the seat and kind of the wait in progress, once
    per wait, and in strict mode (the server's clock is the table's) not before the limit has
    passed. A designator's overrun plays the default (SJ3-7.3); the warning or penalty of a
    move's overrun is the match's (it counts per side, SJ3-11.8)."""
    kind, seat = data["kind"], data["seat"]
    rule = "SJ3-7.3" if kind == "throwChoice" else "SJ3-11.8"
    waiting = waiting_for(h)
    if waiting is None or waiting[:2] != (kind, seat):
        if waiting is None:
            now = Message("nobody is being waited for")
        else:
            now = Message("the wait in progress is seat {seat}'s {kind}", seat=waiting[1],
                          kind=waiting[0])
        raise RuleViolation(rule, "seat {seat} has no {kind} wait running: {now}",
                                  seat=seat, kind=kind, now=now)
    if h.overrun_at is not None and h.overrun_at == h.clock:
        raise RuleViolation(rule, "seat {seat}'s overrun of this {kind} has already been "
                                  "reported",
                                  seat=seat, kind=kind)
    if h.settings.strict and at is not None and h.clock is not None and \
            at < h.clock + timedelta(seconds=waiting[2]):
        raise RuleViolation(rule, "seat {seat} has {waiting} s for the {kind}, until {iso}",
                                  seat=seat, waiting=waiting[2], kind=kind,
                                  iso=timestamp(h.clock + timedelta(seconds=waiting[2])))
    h = evolve(h, overrun_at=h.clock)
    if kind == "throwChoice":
        return move_clock(default_throw_component(h), at)
    return h
