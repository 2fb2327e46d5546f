"""A 掼蛋 match, event by event: one game from 2 to A (GD-11.1) — hands one after another with
tribute between them (GD-7), levels and the A rules (GD-6), the match clock of T-5.4 / GD-11.2,
rulings and penalties, in ``strict`` or ``record`` enforcement (rules README §5).

:func:`apply` is the fold step of a GD match stream: ``(match, event type, data, recorded_at)``
→ the next :class:`GDMatch`, or :class:`RuleViolation` naming the rule. The hand itself is the
pure fold of :mod:`.hand`; this module keeps what a match adds around it: which hand is in play
(every hand event names its hand, ``GD-12``) and the record of its tricks; what decides the
levels between hands, the clock's limits and the result is :mod:`.outcome`'s. The time rules as
deadlines — the waits of GD-9 (the timer's ``GDTimeLimitExceeded``, recorded with the hand) and
the limits of GD-11.2 — are :mod:`.deadlines`'.

**Enforcement.** ``record`` (a scorer transcribing a physical table) stores only what the rules
*penalise* (rules README §5); plays the rules simply forbid are refused as in ``strict``. GD
attaches no penalty to a wrong play, tribute or return (the seed names none), so in both modes
every breach is refused and nothing is stored; a consequence for what happened at the table is
the committee's (GD-10.3: ``RulingRecorded``, ``LevelPenaltyAssessed``).

**Clock (T-5.4, GD-11.2; the seed's words over the spec's Interpretation).** The match starts
at ``MatchStarted``'s recorded time; ``TimeLimitReached`` is refused before the limit has passed
on the server's clock. 「60 钟内未打通 A 者，以级数领先者取胜」 compares the levels reached *within*
the 60 minutes: at ``matchMinutes`` (60) the higher level wins at once, and a hand in play does
not count — it is abandoned. Equal → ``overtime``: play goes on (a hand in play with it), and at
``matchMinutes + overtimeMinutes`` (90) the levels decide at once again, a hand in play being
abandoned; still equal → one more hand, the *extra hand*. After it the levels decide
(「以级数领先者取胜」); **Interpretation:** only if they are still equal (both capped at A) does
the team of its first player out win. A team that plays through A (GD-6.3) wins at once, clock
or not.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

from ..frozen import evolve
from ..messages import N_, Message
from ..violations import RuleViolation
from . import hand as hands
from . import sheet

# ``deadlines`` is this engine's (rules.matches.deadlines): re-exported
from .deadlines import deadlines as deadlines
from .deadlines import overrun, restarts_clock
from .hand import OVER, PLAY, GDHand
from .levels import hand_level

# the match's state is match_state.py's (the deadlines and the outcome read it too)
from .match_state import Deal as Deal
from .match_state import GDMatch as GDMatch

# The end of a hand, the clock's limits, penalties and rulings are outcome.py's. SIDES,
# completed, won, level_penalty and lowered are also this engine's for rules/ruling_effects.py.
from .outcome import SIDES as SIDES
from .outcome import apply_pending_penalties, must_be_playing, ruling, time_limit
from .outcome import completed as completed
from .outcome import level_penalty as level_penalty
from .outcome import pending_penalty as pending_penalty
from .outcome import lowered as lowered
from .outcome import won as won
from .seats import team_of
from .settings import KEYS, settings_from

GAME = "GD"
ENFORCEMENT = ("strict", "record")  # rules README §5


# --- starting ---------------------------------------------------------------------------------

def seat_players(players: Mapping[str, list[str]]) -> list[str]:
    """GD-1.1: partners sit opposite — side A at seats 0 and 2, side B at 1 and 3."""
    for side, names in players.items():
        if len(names) != 2:
            raise RuleViolation("GD-1.1", "side {side} has {count} players; a side is two "
                                          "partners",
                                          side=side, count=len(names))
    return [players["A"][0], players["B"][0], players["A"][1], players["B"][1]]


def checked_enforcement(settings: Mapping) -> str:
    """GD section 14 (and README §5 ``enforcement``): only known keys; returns the enforcement."""
    unknown = sorted(key for key in settings if key not in KEYS and key != "enforcement")
    if unknown:
        raise RuleViolation("GD-14", "{unknown} is not a Guandan match setting; the settings "
                                     "are enforcement, {KEYS}",
                                     unknown=', '.join(unknown), KEYS=', '.join(KEYS))
    enforcement = settings.get("enforcement", "strict")
    if enforcement not in ENFORCEMENT:
        raise RuleViolation("GD-14", "setting enforcement is {enforcement!r}; it must be "
                                     "strict or record",
                                     enforcement=enforcement)
    return enforcement


def check_settings(raw: Mapping) -> None:
    """GD section 14: the match settings a tournament gives its matches."""
    checked_enforcement(raw)
    settings_from(raw)


def start(data: Mapping, at: str | None = None) -> GDMatch:
    """MatchStarted: two different teams (side A at seats 0 and 2, GD-1.1), the players and the
    settings (GD section 14); its recorded time ``at`` starts the match clock (T-5.4)."""
    if data["game"] != GAME:
        raise RuleViolation("T-1.1", "{game} matches are not played by the Guandan engine",
                                     game=data['game'])
    if sorted(data["teams"]) != ["A", "B"] or data["teams"]["A"] == data["teams"]["B"]:
        raise RuleViolation("GD-1.1", "a match is between two different teams, sides A and B")
    settings = data.get("settings", {})
    enforcement = checked_enforcement(settings)
    return GDMatch(match_id=data["match_id"], game=GAME, round=data.get("round"),
                   teams=MappingProxyType(dict(data["teams"])), seats=tuple(data["seats"]),
                   settings=settings_from(settings), enforcement=enforcement, started_at=at)


# --- which hand -------------------------------------------------------------------------------

def current_deal(m: GDMatch, number: int) -> Deal:
    """GD-12: a hand event names the hand in play."""
    d = m.hand
    # the common case, decided at once (every hand event asks): the hand named is in play
    if (d is not None and d.number == number and d.void_reason is None
            and d.state.phase != OVER and m.status != "completed"):
        return d
    must_be_playing(m)
    if d is None or number > d.number:
        raise RuleViolation("GD-12", "hand {number} has not been dealt",
                                     number=number)
    if number == d.number and d.phase == "completed":
        raise RuleViolation("GD-5.6", "hand {number} is over: both players of team {SIDES} are "
                                      "out",
                                      number=number, SIDES=SIDES[team_of(d.state.order[-1])])
    if number < d.number or not d.in_play:
        if d.void_reason:
            raise RuleViolation("GD-12", "hand {number} was voided and must be dealt again",
                                         number=number)
        raise RuleViolation("GD-12", "hand {number} has ended", number=number)
    return d


def deal(m: GDMatch, data: Mapping, at: str | None = None) -> GDMatch:
    """GDHandDealt: the next hand (or a voided one again), at the level of the previous hand's
    winners (GD-1.3) with the tribute its going-out order calls for (GD-7.1). Only hand 1 records
    the first-lead draw (GD-8.2); later the tribute decides who leads (GD-7.7)."""
    must_be_playing(m)
    number = data["hand"]
    if m.hand is not None and m.hand.in_play:
        raise RuleViolation("GD-12", "hand {number} is still being played; it must end before "
                                     "the next deal",
                                     number=m.hand.number)
    redeal = m.hand is not None and m.hand.void_reason is not None and m.hand.number == number
    if number != m.next_hand and not redeal:
        raise RuleViolation("GD-12", "the next hand to deal is hand {next_hand}, not {number}",
                                     next_hand=m.next_hand, number=number)
    marked, first = data.get("markedCard"), data.get("firstLeader")
    if m.previous_order is not None and (marked is not None or first is not None):
        raise RuleViolation("GD-8.2", "markedCard and firstLeader record the first hand's draw "
                                      "for the lead; from hand 2 the tribute decides who leads "
                                      "(GD-7.7)")
    state = hands.start_hand(hand_level(m.standing), m.previous_order, m.settings)
    state = hands.deal(state, data["hands"], marked, first)
    return evolve(m, hand=Deal(number, state, m.standing.level_team, state.hands, marked,
                                extra=m.clock == "extraHand", clock=at))


def record_row(m: GDMatch, data: Mapping, at: str | None = None) -> GDMatch:
    """GDHandResultRecorded (``recording: "sheet"``, rules/guandan/sheet.py): the score sheet's
    row of the next hand, at the level and with the tribute a deal would have (GD-1.3,
    GD-7.1), completed as a played hand is (:func:`completed`)."""
    sheet.by_sheet_only(m.settings)
    must_be_playing(m)
    number = data["hand"]
    if number != m.next_hand:
        raise RuleViolation("GD-12", "the next hand to record is hand {next_hand}, not {number}",
                                     next_hand=m.next_hand, number=number)
    state = hands.start_hand(hand_level(m.standing), m.previous_order, m.settings)
    state = sheet.finished_hand(state, data)
    return completed(m, Deal(number, state, m.standing.level_team, ((),) * 4,
                             extra=m.clock == "extraHand", clock=at))


# --- the steps of a hand ----------------------------------------------------------------------

# GD-5.4: the refusal of a seat that is out, by its place (a hand in play has at most two out)
_WENT_OUT = {1: N_("seat {seat} went out 1st: a player who has played his last card plays and "
                   "passes no more this hand"),
             2: N_("seat {seat} went out 2nd: a player who has played his last card plays and "
                   "passes no more this hand"),
             3: N_("seat {seat} went out 3rd: a player who has played his last card plays and "
                   "passes no more this hand")}


def _not_out(d: Deal, seat: int) -> None:
    """GD-5.4: a player who has played his last card is out and acts no more this hand."""
    if d.state.phase == PLAY and seat in d.state.order:
        place = d.state.order.index(seat) + 1
        raise RuleViolation("GD-5.4", Message(_WENT_OUT[place], seat=seat))


# the events of a hand and the pure transition each one is (rules/guandan/hand.py)
_HAND_STEPS: Mapping[str, Callable[[GDHand, Mapping], GDHand]] = MappingProxyType({
    "AntiTributeDeclared": lambda h, e: hands.declare_anti_tribute(h, e["seat"]),
    "TributePaid": lambda h, e: hands.pay_tribute(h, e["seat"], e["card"]),
    "TributeAssigned": lambda h, e: hands.choose_tribute_assignment(h, e["seat"], e["toFirst"]),
    "TributeReturned": lambda h, e: hands.return_tribute(h, e["seat"], e["card"]),
    "GDCardsPlayed": lambda h, e: hands.play(h, e["seat"], e["cards"], e.get("wildAs"),
                                             e.get("readAs")),
    "Passed": lambda h, e: hands.pass_turn(h, e["seat"]),
})


def hand_step(m: GDMatch, event_type: str, data: Mapping, at: str | None = None) -> GDMatch:
    """An event of the hand in play, judged by the pure hand fold; a breach is refused in both
    enforcement modes, GD penalising none (module docstring). One that starts new waits (GD-9)
    starts their clock at its recorded time ``at``."""
    d = current_deal(m, data["hand"])
    # the deal's changes are gathered and made at once: one new Deal per event. A play or a
    # pass (the most of a stream) always starts the next wait (restarts_clock, GD-9.2).
    if event_type == "GDCardsPlayed" or event_type == "Passed":
        if data["seat"] in d.state.order:
            _not_out(d, data["seat"])
        state = _HAND_STEPS[event_type](d.state, data)
        changes = _log_play(d, data, state) if event_type == "GDCardsPlayed" else \
            _log_pass(d, data["seat"], state)
        changes["clock"] = at
    else:
        state = _HAND_STEPS[event_type](d.state, data)
        changes = {"clock": at if restarts_clock(d.state, state) else d.clock}
    d = evolve(d, state=state, **changes)
    if state.phase == OVER:
        return completed(m, d)
    # the time of the event is set with the hand (apply then has nothing left to change)
    return evolve(m, hand=d) if at is None else evolve(m, hand=d, last_event_at=at)


def _log_play(d: Deal, data: Mapping, after: GDHand) -> dict:
    """The play joins the trick in play (a lead opens a new one); a play that ends the hand
    also ends its trick (GD-5.6). Returns the deal's changes."""
    seat, combo = data["seat"], after.trick.top
    trick = d.trick
    if d.state.trick.is_lead:
        trick = {"trick": len(d.tricks) + 1, "leader": seat, "plays": (), "winner": None,
                 "next_leader": None, "jiefeng": False}
    play = {"seat": seat, "cards": tuple(data["cards"]), "reading": combo.reading(),
            "description": combo.describe(), "went_out": not after.hands[seat]}
    trick = {**trick, "plays": trick["plays"] + (play,)}
    if after.phase == OVER:
        return {"tricks": d.tricks + ({**trick, "winner": seat},), "trick": None}
    return {"trick": trick}


def _log_pass(d: Deal, seat: int, after: GDHand) -> dict:
    """The pass joins the trick; when every other player holding cards has passed, the trick
    ends: its winner, the next leader and whether by 接风 (GD-5.3, 5.5). Returns the deal's
    changes."""
    trick = {**d.trick, "plays": d.trick["plays"] + ({"seat": seat, "pass": True},)}
    if after.last_trick is None:
        return {"trick": trick}
    leader, jiefeng = after.last_trick
    ended = {**trick, "winner": d.state.trick.top_seat, "next_leader": leader, "jiefeng": jiefeng}
    return {"tricks": d.tricks + (ended,), "trick": None}


def time_overrun(m: GDMatch, data: Mapping, at: str | None = None) -> GDMatch:
    """GDTimeLimitExceeded (GD-9, the timer's): a true report is recorded with the hand
    (deadlines.overrun); with ``autoPassOnTimeout`` an overrun play turn is a pass at that moment
    (GD-9.3), and the next seat's time starts."""
    d = current_deal(m, data["hand"])
    entry = overrun(d, data, at)
    m = evolve(m, hand=evolve(d, overruns=d.overruns + (entry,)))
    if entry["consequence"] == "pass":
        return hand_step(m, "Passed", {"hand": d.number, "seat": data["seat"]}, at)
    return m


def report_irregularity(m: GDMatch, data: Mapping) -> GDMatch:
    """IrregularityReported (GD-8.4, GD-10): recorded with the hand in play."""
    d = current_deal(m, data["hand"])
    entry = {"kind": "reported", "event": "IrregularityReported", "seat": data.get("seat"),
             "rule": data["rule"], "message": data["detail"]}
    return evolve(m, hand=evolve(d, irregularities=d.irregularities + (entry,)))


def void(m: GDMatch, data: Mapping) -> GDMatch:
    """HandVoided (GD-8.4 Interpretation: a wrong deck voids the hand): it does not count and is
    dealt again with the same number. A level penalty that waited for the end of the hand takes
    effect at once."""
    d = evolve(current_deal(m, data["hand"]), void_reason=data["reason"])
    return apply_pending_penalties(evolve(m, hand=d, finished=m.finished + (d,)))


# --- the fold step ----------------------------------------------------------------------------

_MATCH_EVENTS = {
    "GDHandDealt": deal,
    "TimeLimitReached": time_limit,
    "RulingRecorded": ruling,
    "LevelPenaltyAssessed": level_penalty,
    "GDTimeLimitExceeded": time_overrun,
    sheet.ROW_EVENT: record_row,
}
# what a match recorded from score sheets takes (sheet.py): the rows, and the match's own events
_SHEET_EVENTS = frozenset({"TimeLimitReached", "RulingRecorded", "LevelPenaltyAssessed",
                           sheet.ROW_EVENT})


def _step(m: GDMatch | None, event_type: str, data: Mapping, at: str | None) -> GDMatch:
    if event_type in _HAND_STEPS and m is not None:  # the most of a stream, checked first
        if m.settings.by_sheet:
            sheet.not_by_sheet(m.settings, event_type)
        return hand_step(m, event_type, data, at)
    if event_type == "MatchStarted":
        if m is not None:
            raise RuleViolation("GD-12", "the match has already started")
        return start(data, at)
    if m is None:
        raise RuleViolation("GD-12", "the match has not started (MatchStarted comes first)")
    if event_type not in _SHEET_EVENTS and event_type != "LotsDrawn":
        sheet.not_by_sheet(m.settings, event_type)
    if event_type in _MATCH_EVENTS:
        return _MATCH_EVENTS[event_type](m, data, at)
    if event_type == "IrregularityReported":
        return report_irregularity(m, data)
    if event_type == "HandVoided":
        return void(m, data)
    if event_type == "LotsDrawn":
        raise RuleViolation("T-1.4", "a Guandan match draws no lots in its stream: hand 1's "
                                     "first lead is drawn with the deal (GDHandDealt markedCard "
                                     "and firstLeader, GD-8.2)")
    raise RuleViolation("GD-12", "{event_type} is not an event of a Guandan match",
                                 event_type=event_type)


def _plain(error: RuleViolation) -> RuleViolation:
    """The pure hand rules end their messages with the rule ID; a problem's detail starts with
    it, so it is said once."""
    text = error.text
    if text.template == "{message_} ({rule_})" and text.params["rule_"] == error.rule:
        said = text.params["message_"]  # the sentence within (not a literal: no msgid)
        return RuleViolation(error.rule, said)
    return error


def apply(m: GDMatch | None, event_type: str, data: dict, at: str | None = None) -> GDMatch:
    """The next state of a GD match stream after one event recorded at ``at``."""
    try:
        m = _step(m, event_type, data, at)
    except RuleViolation as error:
        raise _plain(error) from None
    # the clock's "now" as far as the log goes: a referee device times the limits by it (a
    # step of the hand has set it already: no second copy of the match)
    return m if at is None or m.last_event_at == at else evolve(m, last_event_at=at)
