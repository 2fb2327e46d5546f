"""The events of the hand in play at a mahjong table (MJO-4, MJO-8, section 10; MJS-9 – MJS-11):
each names its hand (MJO-10), is judged by the hand's own transitions and timed on the recorded
times — the claim kinds' own windows after a discard (MJO-4.5), the time limits the timer
reports (MJO-8.1), the referee's warnings and the Sichuan void declarations."""
from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta

from ..frozen import evolve
from ..match_clock import maybe_moment as _moment
from ..match_clock import timestamp
from ..messages import Message
from ..violations import RuleViolation
from . import conduct, opening
from .claiming import claim, pass_claim, resolve_claims
from .settings import GameSettings
from .table import HandRecord, Table, _must_be_open
from .turns import discard, draw
from .wins_and_kongs import declare_kong, declare_win, exhaustive_draw


def current_hand(t: Table, number: int) -> HandRecord:
    """The hand an event names must be the one in play (``MJO-10``)."""
    _must_be_open(t)
    rec = t.current
    if rec is not None and rec.number == number:
        return rec
    if number <= t.hands_played:
        raise RuleViolation(t.rule("lifecycle"), "hand {number} has ended",
                                                 number=number)
    if rec is not None:
        raise RuleViolation(t.rule("lifecycle"), "hand {number} has not been dealt; hand "
                                                 "{number2} is in play",
                                                 number=number, number2=rec.number)
    raise RuleViolation(t.rule("lifecycle"), "hand {number} has not been dealt",
                                             number=number)


def _window_seconds(rec: HandRecord, settings: GameSettings) -> int:
    """MJO-4.5 after the seed: the window lasts ``claimWindowSeconds`` (the pong call, seed 八
    「碰牌要快，要在3秒之内报出」) — longer while the next seat, who may chow within his
    ``turnSeconds`` from the discard (seed 六 「到自己出牌的时限为15秒（包括吃牌、碰牌)」), has not
    answered and no claim that beats a chow (pong beats chow, 「“碰”比“吃”优先」) has been made:
    the pong is not held up by a chow that can no longer take the tile, and the ponger's 15 s
    from the discard (seed 六, 「包括…碰牌」) are not spent waiting for it. Whether he holds a
    chow does not matter: the window's length must not tell the table (hidden information)."""
    w = rec.state.window
    if w is not None and rec.state.phase == "claims" and not w.made and any(
            "chow" in w.could_claim(s, settings) for s in w.pending):
        return max(settings.claimWindowSeconds, settings.turnSeconds)
    return settings.claimWindowSeconds


def window_closes(rec: HandRecord, settings: GameSettings) -> datetime | None:
    opened = _moment(rec.window_at)
    return None if opened is None else opened + timedelta(seconds=_window_seconds(rec, settings))


def _claim_seconds(rec: HandRecord, settings: GameSettings, kind: str) -> int:
    """How long after the discard a claim of ``kind`` may come (the seed's limits): a pong or
    kong within ``claimWindowSeconds`` (seed 八); a chow within the next player's
    ``turnSeconds`` (seed 六); a win, for which the seed sets no limit, while the window lasts."""
    if kind in ("pong", "kong"):
        return settings.claimWindowSeconds
    if kind == "chow":
        return settings.turnSeconds
    return _window_seconds(rec, settings)


# a claim of each kind, as the claim window's refusal names it ("closed for a pong")
_A_CLAIM = {"win": Message("a win"), "pong": Message("a pong"), "chow": Message("a chow"),
            "kong": Message("a kong")}


def _must_claim_in_time(rec: HandRecord, settings: GameSettings, at: str | None,
                        kind: str) -> None:
    """MJO-4.2 / MJO-4.5 / MJO-8.1: a claim of ``kind`` comes within its time of the discard.
    Only in strict enforcement: a scorer transcribing a physical table records later than
    play."""
    opened, now = _moment(rec.window_at), _moment(at)
    if not settings.strict or rec.state.phase != "claims" or opened is None or now is None:
        return
    seconds = _claim_seconds(rec, settings, kind)
    closes = opened + timedelta(seconds=seconds)
    if now > closes:
        w = rec.state.window
        rule = settings.rule("claimWindow")
        if kind not in _A_CLAIM:     # (the event's schema allows only the four kinds)
            raise RuleViolation(rule, "the claim window on seat {discarder}'s {tile} closed "
                                      "for a {kind} at {iso}, {seconds} s after the discard",
                                      discarder=w.discarder, tile=w.tile, kind=kind,
                                      iso=timestamp(closes), seconds=seconds)
        raise RuleViolation(rule, "the claim window on seat {discarder}'s {tile} closed for "
                                  "{a_claim} at {iso}, {seconds} s after the discard",
                                  discarder=w.discarder, tile=w.tile, a_claim=_A_CLAIM[kind],
                                  iso=timestamp(closes), seconds=seconds)


def _closed_by_play(rec: HandRecord, settings: GameSettings) -> HandRecord:
    """Record enforcement: the next draw or discard shows the window closed with the claims
    made; strict enforcement refuses a move while it is open (MJO-4.5)."""
    if settings.strict or rec.state.phase != "claims":
        return rec
    return evolve(rec, state=resolve_claims(rec.state, {"timedOut": True}))


def draw_tile(rec: HandRecord, t: Table, data: Mapping, at: str | None) -> HandRecord:
    """``TileDrawn`` (MJO-3.2, MJO-2.4)."""
    rec = _closed_by_play(rec, t.settings)
    return evolve(rec, state=draw(rec.state, data))


def discard_tile(rec: HandRecord, t: Table, data: Mapping, at: str | None) -> HandRecord:
    """``TileDiscarded`` (MJO-3.2); a claim window opens at the discard's time (MJO-4.5)."""
    rec = _closed_by_play(rec, t.settings)
    state = discard(rec.state, data)
    return evolve(rec, state=state, discarded_at=at, clock=rec.clock + 1,
                   window_at=at if state.phase == "claims" else None)


def make_claim(rec: HandRecord, t: Table, data: Mapping, at: str | None) -> HandRecord:
    """``Claim`` (MJO-4.1 – 4.5) on the open discard, in time."""
    _must_claim_in_time(rec, t.settings, at, data["kind"])
    claimed = {"seat": data["seat"], "kind": data["kind"], "tiles": data.get("tiles")}
    return evolve(rec, state=claim(rec.state, claimed))


def pass_on_claim(rec: HandRecord, t: Table, data: Mapping, at: str | None) -> HandRecord:
    """``ClaimPassed`` (MJO-4.5, 4.6): the seat will not claim this discard."""
    return evolve(rec, state=pass_claim(rec.state, data))


def close_window(rec: HandRecord, t: Table, data: Mapping, at: str | None) -> HandRecord:
    """``ClaimWindowClosed`` (MJO-4.5, the timer): the window's time is up; the claims made are
    settled by priority (the derived ``ClaimsResolved``). Not before its time in strict
    enforcement."""
    settings, rule = t.settings, t.settings.rule("claimWindow")
    if rec.state.phase != "claims":
        raise RuleViolation(rule, "no claim window is open")
    closes, now = window_closes(rec, settings), _moment(at)
    if settings.strict and closes is not None and now is not None and now < closes:
        w = rec.state.window
        raise RuleViolation(rule, "the claim window on seat {discarder}'s {tile} stays open "
                                  "until {iso}",
                                  discarder=w.discarder, tile=w.tile, iso=timestamp(closes))
    return evolve(rec, state=resolve_claims(rec.state, {"timedOut": True}))


def declare_a_win(rec: HandRecord, t: Table, data: Mapping, at: str | None) -> HandRecord:
    """``Win``: by self-draw (MJO-5.4) on the tile just drawn — or the dealer on his first 14 —
    or, with ``selfDrawn`` false, on the open discard of ``discarder``, as that seat's win claim
    (MJO-4.4). A win on a tile nobody discarded is refused."""
    settings, state = t.settings, rec.state
    if data.get("selfDrawn", True):
        # MJO-3.2 first: only the seat on turn has drawn. The tile drawn is named to nobody —
        # whoever posts the event may not be the seat it names.
        on_turn = state.phase == "discard" and data["seat"] == state.turn
        tile = data.get("tile")
        if on_turn and tile is not None and state.drawn is not None and tile != state.drawn:
            rule = settings.rule("selfDraw")
            raise RuleViolation(rule, "seat {seat} did not draw {tile}: a self-drawn win is on "
                                      "the tile just drawn",
                                      seat=data['seat'], tile=tile)
        after = declare_win(state, {"seat": data["seat"]})
        # MJS-10.3: after a self-drawn win the next player's 30 s run from the win
        moved = after.settings.bloodyBattle and len(after.wins) > len(state.wins)
        return evolve(rec, state=after, discarded_at=at if moved else rec.discarded_at,
                       clock=rec.clock + int(moved))
    w = state.window if state.phase == "claims" else None
    if w is None or (w.discarder, w.tile) != (data["discarder"], data["tile"]):
        rule = settings.rule("claimWin")
        if w is None:
            raise RuleViolation(rule, "seat {seat} cannot win on seat {discarder}'s {tile}: "
                                      "no discard is open to claims",
                                      seat=data['seat'], discarder=data['discarder'],
                                      tile=data['tile'])
        raise RuleViolation(rule, "seat {seat} cannot win on seat {discarder}'s {tile}: the "
                                  "discard open to claims is seat {open_discarder}'s "
                                  "{open_tile}",
                                  seat=data['seat'], discarder=data['discarder'],
                                  tile=data['tile'], open_discarder=w.discarder,
                                  open_tile=w.tile)
    _must_claim_in_time(rec, settings, at, "win")
    return evolve(rec, state=claim(state, {"seat": data["seat"], "kind": "win"}))


def declare_a_kong(rec: HandRecord, t: Table, data: Mapping, at: str | None) -> HandRecord:
    """``KongDeclared`` (MJO-4.3: no kongs in MJO; MJS-3.4); an added kong opens the robbing
    window at the declaration's time (MJS-7.3, section 11: "the claim window is 3 s after a
    discard or an added kong")."""
    state = declare_kong(rec.state, data)
    return evolve(rec, state=state, window_at=at if state.phase == "claims" else None)


def declare_exhaustive_draw(rec: HandRecord, t: Table, data: Mapping,
                            at: str | None) -> HandRecord:
    """``ExhaustiveDrawDeclared`` (MJO-6.1): the player who drew the last tile does not win; the
    hand is drawn. (When he cannot win the draw follows by itself: ``DrawGame``.)"""
    state = rec.state
    rule = t.settings.rule("exhaustive")
    if t.game == "MJS" and t.settings.lastTileDiscard:
        raise RuleViolation(rule, "seat {seat} cannot declare the hand drawn: the player who "
                                  "draws the last tile wins or discards, and the others may "
                                  "win on that discard (lastDiscardWinnable)",
                                  seat=data['seat'])
    if state.phase != "discard" or state.wall_count or data["seat"] != state.turn:
        raise RuleViolation(rule, "seat {seat} cannot declare the hand drawn: only the player "
                                  "who drew the last tile may, instead of winning",
                                  seat=data['seat'])
    return evolve(rec, state=exhaustive_draw(state, data))


def running_limit(rec: HandRecord, settings: GameSettings, seat: int,
                   limit: str) -> tuple[str | None, int]:
    """MJO-8.1: the recorded time ``limit`` runs from for ``seat`` and its seconds — the
    dealer's first discard from the deal; a turn from the previous discard to the seat on turn's
    own (a chow or pong included); a pong call from the discard, for a seat that may pong it
    and has not answered. A limit that does not apply to the seat now is refused."""
    state, rule = rec.state, settings.rule("timeLimits")
    if state.phase not in ("discard", "draw", "claims"):
        raise RuleViolation(rule, "no time limit runs: play waits for the referee's ruling")
    # the dealer's first turn — ended by his first discard, or (MJS-4.1) by his self-drawn win
    # on his first 14, after which the next player's discard clock runs from the win
    opened = not any(h.discards for h in state.seats) and not state.wins
    if limit == "firstDiscard":
        if not (opened and seat == state.dealer) or state.phase in ("exchange", "void"):
            raise RuleViolation(rule, "the first-discard limit is the dealer's (seat {dealer}) "
                                      "before his first discard, once play has opened",
                                      dealer=state.dealer)
        return rec.opened_at or rec.dealt_at, settings.firstDiscardSeconds
    if limit == "discard":
        if opened or seat != state.turn:
            if opened:
                raise RuleViolation(rule, "seat {seat} is not on the turn's clock: the "
                                          "dealer's first discard is",
                                          seat=seat)
            raise RuleViolation(rule, "seat {seat} is not on the turn's clock: seat {turn} is",
                                      seat=seat, turn=state.turn)
        return rec.discarded_at, settings.turnSeconds
    if settings.game == "MJS":   # MJS-10.3: the seed's 30 s per discard is the only limit
        raise RuleViolation(rule, "a Sichuan table times each discard (30 s), not the claims")
    w = state.window if state.phase == "claims" else None
    if w is None or "pong" not in w.may[seat] or w.answered(seat):
        raise RuleViolation(rule, "seat {seat} has no pong to call: no open claim window in "
                                  "which it may still pong",
                                  seat=seat)
    return rec.window_at, settings.claimWindowSeconds


def report_time_limit(rec: HandRecord, t: Table, data: Mapping, at: str | None) -> HandRecord:
    """``TimeLimitExceeded`` (MJO-8.1, 8.2): recorded with the hand, no automatic sanction —
    but only a true report: the limit applies to the seat now and, by the recorded times, has
    passed."""
    seat, limit = data["seat"], data["limit"]
    since, seconds = running_limit(rec, t.settings, seat, limit)
    began, now = _moment(since), _moment(at)
    if t.game == "MJS":
        must_not_be_warned_for_this_discard(rec, t.settings, seat)
    if began is not None and now is not None and now < began + timedelta(seconds=seconds):
        rule = t.settings.rule("timeLimits")
        until = timestamp(began + timedelta(seconds=seconds))
        if limit == "firstDiscard":
            raise RuleViolation(rule, "seat {seat}'s firstDiscard limit of {seconds} s runs "
                                      "until {iso}", seat=seat, seconds=seconds, iso=until)
        if limit == "discard":
            raise RuleViolation(rule, "seat {seat}'s discard limit of {seconds} s runs until "
                                      "{iso}", seat=seat, seconds=seconds, iso=until)
        if limit == "pong":
            raise RuleViolation(rule, "seat {seat}'s pong limit of {seconds} s runs until "
                                      "{iso}", seat=seat, seconds=seconds, iso=until)
        raise RuleViolation(rule, "seat {seat}'s {limit} limit of {seconds} s runs until {iso}",
                                  seat=seat, limit=limit, seconds=seconds, iso=until)
    report = {"seat": seat, "limit": limit, "at": at}
    rec = evolve(rec, time_limits=rec.time_limits + (report,))
    if t.game == "MJS":        # MJS-10.3: a breach is a warning
        rec = evolve(rec, state=conduct.slow_discard(rec.state, seat),
                      slow_warned=rec.slow_warned | {(seat, rec.clock)})
    return rec


def must_not_be_warned_for_this_discard(rec: HandRecord, settings: GameSettings,
                                         seat: int) -> None:
    """MJS-10.3 「每次出牌時間為30秒，違者警告一次」: a slow discard is one warning — the timer's
    report or the referee's, not both."""
    if (seat, rec.clock) in rec.slow_warned:
        rule = settings.rule("timeLimits")
        raise RuleViolation(rule, "seat {seat} has already been warned for this discard",
                                  seat=seat)


def warn(rec: HandRecord, t: Table, data: Mapping, at: str | None) -> HandRecord:
    """``WarningIssued`` (MJS-10.2, 10.3); a slow discard is warned once, by the referee or
    by the timer (``TimeLimitExceeded``)."""
    if data.get("offence") != "slow":
        return evolve(rec, state=conduct.warn(rec.state, data))
    seat = data["seat"]
    must_not_be_warned_for_this_discard(rec, t.settings, seat)
    return evolve(rec, state=conduct.warn(rec.state, data),
                   slow_warned=rec.slow_warned | {(seat, rec.clock)})


def _hand_step(transition):
    """A table step made of a transition of the hand in play."""
    def step(rec: HandRecord, t: Table, data: Mapping, at: str | None) -> HandRecord:
        return evolve(rec, state=transition(rec.state, data))
    return step


def declare_void(rec: HandRecord, t: Table, data: Mapping, at: str | None) -> HandRecord:
    """``VoidSuitDeclared`` (MJS-2.2); the last of the four opens play and the dealer's clock
    (MJS-10.3)."""
    state = opening.declare_void(rec.state, data)
    return evolve(rec, state=state, opened_at=at if state.phase == "discard" else None)


_HAND_EVENTS = {
    "TileDrawn": draw_tile,
    "TileDiscarded": discard_tile,
    "Claim": make_claim,
    "ClaimPassed": pass_on_claim,
    "ClaimWindowClosed": close_window,
    "Win": declare_a_win,
    "KongDeclared": declare_a_kong,
    "ExhaustiveDrawDeclared": declare_exhaustive_draw,
    "TimeLimitExceeded": report_time_limit,
    # the Sichuan game (MJS-2, MJS-9, MJS-10)
    "ExchangeTilesSelected": _hand_step(opening.select_exchange),
    "VoidSuitDeclared": declare_void,
    "WarningIssued": warn,
    "FalseWinDeclared": _hand_step(conduct.declare_false_win),
    "WrongTileCount": _hand_step(conduct.wrong_count),
    "ConductPenaltyAssessed": _hand_step(conduct.disclose),
}


# The events of a table of each game (the others' are refused, MJO-10 / MJS-11)
_MJS_ONLY = frozenset({"ExchangeTilesSelected", "VoidSuitDeclared", "WarningIssued",
                       "FalseWinDeclared", "WrongTileCount", "ConductPenaltyAssessed"})


_NOT_AT = {"MJO": _MJS_ONLY,
           # MJS-9, 10: the Sichuan penalties are their own events
           "MJS": frozenset({"CoinPenaltyAssessed"})}
