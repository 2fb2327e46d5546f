"""A mahjong table's session, event by event: the first dealer by dice, hands one after
another, the rotation of the deal and the rounds of winds, each hand's payments and the running
balances, and the end of the session (mahjong-ottawa.md MJO-2, MJO-7, section 10; tournaments.md
T-8) — MJO's coins, or the Sichuan game's points (mahjong-sichuan.md, MJS; T-7), whose tables
add 换三张 and the void suits before play (:mod:`.opening`), the referee's penalties
(:mod:`.conduct`), payments priced by :mod:`.sichuan`, and in the final the extra hands that
order tied players (T-7.4).

:func:`apply` is the fold step of a table's match stream — ``(table, event type, data,
recorded_at)`` → the next :class:`Table`, or :class:`RuleViolation` naming the rule. The hand
itself is judged by :mod:`.hand`; this module adds what lies around it:

* which hand an event is for (every hand event names it; ``MJO-10``, the lifecycle table);
* the derived facts, applied as soon as they follow: ``ClaimsResolved`` once the claim window is
  decided (MJO-4.5), ``DrawGame`` once the wall is exhausted and nobody can win (MJO-6), and
  ``HandCompleted`` — payments, balances, the next dealer (MJO-7.2, MJO-2.2) — once the hand is
  over; ``SessionCompleted`` after ``sessionHands`` hands, ``sessionRounds`` rounds, or the
  hand in play when the timer posted ``TimeLimitReached`` (T-8.2);
* time, measured on the recorded times of the events, the only clock the rules know: each claim
  kind has its own time after the discard (the seed over MJO-4.5: a pong within
  ``claimWindowSeconds``, a chow within the next player's ``turnSeconds``, a win while the window
  lasts); a ``TimeLimitExceeded`` is recorded only once its limit has passed (MJO-8.1), and
  ``TimeLimitReached`` only ``sessionMinutes`` after the table started (T-8.2).

Enforcement (README §5): ``strict`` refuses what breaks a "must" rule. ``record`` transcribes a
physical table: a win on a hand that is not one waits for the referee (MJO-5.6), and the next
move of play (a draw or a discard) also shows a claim window closed. In both, a window opens
after every discard (and added kong) and stays open until every other seat still in has
answered, a claim made can no longer be beaten, or the timer closes it — never because of what
the seats' tiles allow, which the table does not see.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from types import MappingProxyType

from ..frozen import evolve
from ..match_clock import MatchClock
from ..match_clock import maybe_moment as _moment
from ..violations import RuleViolation
from . import conduct, opening, sichuan
from .actions import due_engine_event
from .claiming import claim, pass_claim, resolve_claims
from .claims import window_decided
from .dealer import first_dealer
from .dealing import deal as deal_hand
from .dealing import deal_from_wall as deal_hand_from_wall
from .hand import Hand
from .mjo import (
    HandOutcome,
    Session,
    complete_hand,
    hand_outcome,
    mjo_settings,
    rank_by_coins,
    start_session,
)
from .mjo import session_over as session_limit_reached
from .settings import GameSettings
from .turns import discard, draw
from .wall import SEATS, roll_total, second_roller
from .wins_and_kongs import declare_kong, declare_win, exhaustive_draw, rule_on_win

LIFECYCLE = "MJO-10"     # the hand lifecycle table: which event, in which hand, when
TABLES = "T-8.1"         # tables of four (T-1.1: a mahjong table of four players)
SESSION = "T-8.2"        # the session's length; the hand in play is finished
FINAL_TIE = "T-7.4"      # the final: an extra hand while players tie for a podium place
PODIUM = 3               # T-7.4: champion, runner-up, third
TEAM_KEYS = tuple(str(s) for s in range(SEATS))   # MatchStarted.teams: seat -> entrant

# game -> the parser of its MatchStarted.settings
PRESETS = MappingProxyType({"MJO": mjo_settings, "MJS": sichuan.sichuan_settings})

# The settings a table shows (MJO section 11, T-8.2), in this order.
SETTING_KEYS = ("enforcement", "startingCoins", "multipleWinners", "claimWindowSeconds",
                "lastTileDiscard", "dealerRepeatsOnWin", "sessionHands", "sessionRounds",
                "sessionMinutes")


@dataclass(frozen=True)
class HandRecord:
    """One hand of the session: the engine's state of it, the balances it started from, the
    wall-break throws, the recorded times of the deal, of the last discard and of the discard
    whose claim window is open (the timer's limits run from them, MJO-8.1), the timer's
    reports, the penalties assessed while it was played, and once over its outcome (the derived
    ``HandCompleted``)."""

    number: int
    state: Hand
    round_wind: str
    balances_before: tuple[int, ...]
    wall_dice: tuple[tuple[int, tuple[int, ...]], ...] = ()
    dealt_at: str | None = None
    discarded_at: str | None = None
    window_at: str | None = None
    time_limits: tuple[Mapping, ...] = ()
    penalties: tuple[Mapping, ...] = ()
    outcome: HandOutcome | None = None
    opened_at: str | None = None   # MJS: play opened after 换三张 and the void suits
    tiebreak: bool = False         # T-7.4: an extra hand of the final, played to order ties
    # MJS-10.3: the discard clock — restarted by each discard (and self-drawn win) — and the
    # (seat, clock) of each slow-discard warning, the timer's or the referee's: one a discard
    clock: int = 0
    slow_warned: frozenset[tuple[int, int]] = frozenset()

    @property
    def in_play(self) -> bool:
        return self.outcome is None


@dataclass(frozen=True)
class Table:
    """A table of four players and its session (T-8). ``status``: ``rolling`` until the first
    dealer is known (MJO-2.1), ``playing``, then ``completed`` (the derived
    ``SessionCompleted``)."""

    match_id: str
    game: str
    round: int | None                  # the stage of a groups tournament
    teams: Mapping[str, str]           # "0".."3" -> entrant (team id)
    seats: tuple[str, ...]             # the players at seats 0-3
    settings: GameSettings
    started_at: str | None = None      # MatchStarted's recorded time: the session's clock, T-8.2
    first_rolls: tuple[Mapping[int, tuple[int, ...]], ...] = ()
    session: Session | None = None     # balances and the rotation, once the first dealer is known
    current: HandRecord | None = None  # the hand in play
    finished: tuple[HandRecord, ...] = ()
    wall_dice: tuple[tuple[int, tuple[int, ...]], ...] = ()   # throws for the next hand
    penalties: tuple[Mapping, ...] = ()
    time_called: int | None = None
    status: str = "rolling"
    rulings: tuple[Mapping, ...] = ()
    match_clock: MatchClock = MatchClock()  # paused and resumed by the referee (rules.match_clock)

    @property
    def hands_played(self) -> int:
        return len(self.finished)

    @property
    def next_hand(self) -> int:
        return self.hands_played + 1

    @property
    def balances(self) -> tuple[int, ...]:
        if self.session is None:
            return (self.settings.startingCoins,) * SEATS
        return self.session.balances

    @property
    def dealer(self) -> int | None:
        return None if self.session is None else self.session.dealer

    @property
    def tiebreaks(self) -> tuple[tuple[int, ...], ...]:
        """T-7.4: per seat, his result in each extra hand of the final, in order."""
        rows = [sichuan.play_result(r.state) for r in self.finished if r.tiebreak]
        return tuple(tuple(row[s] for row in rows) for s in range(SEATS))

    def rule(self, key: str) -> str:
        return self.settings.rule(key)

    def hand_number(self, number: int) -> HandRecord | None:
        """Hand ``number`` as it stands: in play, or as it ended."""
        if self.current is not None and self.current.number == number:
            return self.current
        if 1 <= number <= len(self.finished):
            return self.finished[number - 1]
        return None

    def entrant(self, seat: int) -> str:
        return self.teams[str(seat)]


def _fail(rule: str, message: str) -> RuleViolation:
    return RuleViolation(rule, message)


# --- the start -------------------------------------------------------------------------------

def seat_players(players: Mapping[str, Sequence[str]]) -> list[str]:
    """T-8.1: a table of four single players, ``players[str(seat)]`` at each seat 0-3 (MJO
    entrants are single players, T-1.2)."""
    if sorted(players) != list(TEAM_KEYS):
        raise _fail(TABLES, f"a mahjong table seats four entrants at seats 0, 1, 2 and 3, not "
                            f"{', '.join(sorted(players)) or 'none'}")
    for seat, names in players.items():
        if len(names) != 1:
            raise _fail(TABLES, f"seat {seat} is given {len(names)} players; each seat holds one")
    return [players[key][0] for key in TEAM_KEYS]


def check_settings(raw: Mapping, game: str = "MJO") -> None:
    """MJO section 11: the table settings a tournament gives its tables."""
    PRESETS[game](raw)


def start(data: Mapping, at: str | None = None) -> Table:
    """``MatchStarted`` recorded at ``at``: four entrants at seats 0-3 (T-8.1) and the match
    settings (MJO section 11; an unknown key or a value out of range is refused, ``MJO-11``)."""
    parse = PRESETS.get(data["game"])
    if parse is None:
        raise _fail("T-1.1", f"{data['game']} tables are not played by this engine")
    teams = dict(data["teams"])
    if sorted(teams) != list(TEAM_KEYS):
        raise _fail(TABLES, "a mahjong table names the entrant at each of seats 0, 1, 2 and 3")
    if len(set(teams.values())) != SEATS:
        raise _fail(TABLES, "the four seats of a table hold four different entrants")
    return Table(match_id=data["match_id"], game=data["game"], round=data.get("round"),
                 teams=MappingProxyType(teams), seats=tuple(data["seats"]),
                 settings=parse(data.get("settings") or {}), started_at=at)


def settings_dict(settings: GameSettings) -> dict:
    """The table's settings as they apply (MJO section 11, MJS section 12, T-8.2), defaults
    included."""
    if settings.game == "MJS":
        return sichuan.settings_dict(settings)
    return {key: getattr(settings, key) for key in SETTING_KEYS}


# --- the first dealer and the wall break (DiceRolled) ------------------------------------------

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
    if t.session is not None:
        raise _fail(rule, f"the first dealer is known already: seat {t.session.rotation.first_dealer}")
    seat, dice = data["seat"], tuple(data["dice"])
    roll_total(dice, t.settings, "firstDealer")
    rolling, round_ = still_rolling(t.first_rolls)
    if seat not in rolling:
        raise _fail(rule, f"seat {seat} does not roll now: seat(s) "
                          f"{', '.join(map(str, sorted(rolling)))} roll for the deal")
    if seat in round_:
        raise _fail(rule, f"seat {seat} has already rolled in this round")
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
    _must_be_between_hands(t, data["hand"])
    if t.session is None:
        raise _fail(t.settings.rule("firstDealer"), "the dealer is not known yet: the first "
                                                    "dealer is rolled for first")
    if len(t.wall_dice) == 2:
        raise _fail(rule, "the wall is broken with two throws, and both have been made")
    dealer = t.session.dealer
    roller = dealer if not t.wall_dice else second_roller(dealer, sum(t.wall_dice[0][1]))
    if data["seat"] != roller:
        which = "first" if not t.wall_dice else "second"
        raise _fail(rule, f"the {which} throw to break the wall is seat {roller}'s, not seat "
                          f"{data['seat']}'s")
    return evolve(t, wall_dice=t.wall_dice + ((roller, tuple(data["dice"])),))


# --- the deal --------------------------------------------------------------------------------

def _must_be_open(t: Table) -> None:
    if t.status == "completed":
        raise _fail(SESSION, f"the session is over after {t.hands_played} hand(s)")


def _must_be_between_hands(t: Table, number: int) -> None:
    _must_be_open(t)
    if t.current is not None:
        raise _fail(t.rule("lifecycle"), f"hand {t.current.number} is still being played; it must end "
                               f"before the next deal")
    if number != t.next_hand:
        raise _fail(t.rule("lifecycle"), f"the next hand is hand {t.next_hand}, not {number}")


def _session_for_the_deal(t: Table, data: Mapping) -> Session:
    """MJO-2.1 / MJO-2.2: the dealer of the hand — the session's; for hand 1 without dice, the
    dealer the deal names."""
    given = data.get("dealer")
    if t.session is not None:
        if given is not None and given != t.session.dealer:
            raise _fail(t.settings.rule("dealer"), f"seat {t.session.dealer} deals hand "
                                                    f"{t.next_hand}, not seat {given}")
        return t.session
    rule = t.settings.rule("firstDealer")
    if t.first_rolls:
        rolling, round_ = still_rolling(t.first_rolls)
        raise _fail(rule, f"the first dealer is not decided yet: seat(s) "
                          f"{', '.join(map(str, sorted(rolling - set(round_))))} roll (again)")
    if given is None:
        raise _fail(rule, "the first dealer is rolled for (DiceRolled, purpose firstDealer) or "
                          "named by the first deal (dealer)")
    return start_session(t.settings, given)


def deal(t: Table, data: Mapping, at: str | None) -> Table:
    """``TilesDealt`` (MJO-2.3, MJO-2.4): hand ``next_hand`` dealt by the session's dealer —
    from the four hands as dealt, or from the walls and the two wall-break throws."""
    _must_be_between_hands(t, data["hand"])
    session = _session_for_the_deal(t, data)
    dealt = {"dealer": session.dealer}
    if data.get("walls") is not None and t.game == "MJS":
        raise _fail(t.rule("deal"), "a Sichuan deal gives the four hands (and the live wall): "
                                    "its walls are not broken by dice")
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
    if given is None:
        if len(recorded) != 2:
            raise _fail(rule, "a deal from the walls needs the two wall-break throws: give dice "
                              "or record them (DiceRolled, purpose wallBreak)")
        return recorded
    if recorded and [list(d) for d in given] != recorded:
        raise _fail(rule, f"the throws {given} are not the recorded wall-break throws {recorded}")
    return [list(d) for d in given]


# --- events of the hand in play -----------------------------------------------------------------

def current_hand(t: Table, number: int) -> HandRecord:
    """The hand an event names must be the one in play (``MJO-10``)."""
    _must_be_open(t)
    rec = t.current
    if rec is not None and rec.number == number:
        return rec
    if number <= t.hands_played:
        raise _fail(t.rule("lifecycle"), f"hand {number} has ended")
    if rec is not None:
        raise _fail(t.rule("lifecycle"), f"hand {number} has not been dealt; hand {rec.number} is in play")
    raise _fail(t.rule("lifecycle"), f"hand {number} has not been dealt")


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
        raise _fail(rule, f"the claim window on seat {w.discarder}'s {w.tile} closed for a "
                          f"{kind} at {_iso(closes)}, {seconds} s after the discard")


def _iso(moment: datetime) -> str:
    return moment.isoformat().replace("+00:00", "Z")


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
        raise _fail(rule, "no claim window is open")
    closes, now = window_closes(rec, settings), _moment(at)
    if settings.strict and closes is not None and now is not None and now < closes:
        w = rec.state.window
        raise _fail(rule, f"the claim window on seat {w.discarder}'s {w.tile} stays open until "
                          f"{_iso(closes)}")
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
            raise _fail(rule, f"seat {data['seat']} did not draw {tile}: a self-drawn win is on "
                              f"the tile just drawn")
        after = declare_win(state, {"seat": data["seat"]})
        # MJS-10.3: after a self-drawn win the next player's 30 s run from the win
        moved = after.settings.bloodyBattle and len(after.wins) > len(state.wins)
        return evolve(rec, state=after, discarded_at=at if moved else rec.discarded_at,
                       clock=rec.clock + int(moved))
    w = state.window if state.phase == "claims" else None
    if w is None or (w.discarder, w.tile) != (data["discarder"], data["tile"]):
        rule = settings.rule("claimWin")
        open_ = (f"the discard open to claims is seat {w.discarder}'s {w.tile}" if w else
                 "no discard is open to claims")
        raise _fail(rule, f"seat {data['seat']} cannot win on seat {data['discarder']}'s "
                          f"{data['tile']}: {open_}")
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
        raise _fail(rule, f"seat {data['seat']} cannot declare the hand drawn: the player who "
                          f"draws the last tile wins or discards, and the others may win on "
                          f"that discard (lastDiscardWinnable)")
    if state.phase != "discard" or state.wall_count or data["seat"] != state.turn:
        raise _fail(rule, f"seat {data['seat']} cannot declare the hand drawn: only the player "
                          f"who drew the last tile may, instead of winning")
    return evolve(rec, state=exhaustive_draw(state, data))


def running_limit(rec: HandRecord, settings: GameSettings, seat: int,
                   limit: str) -> tuple[str | None, int]:
    """MJO-8.1: the recorded time ``limit`` runs from for ``seat`` and its seconds — the
    dealer's first discard from the deal; a turn from the previous discard to the seat on turn's
    own (a chow or pong included); a pong call from the discard, for a seat that may pong it
    and has not answered. A limit that does not apply to the seat now is refused."""
    state, rule = rec.state, settings.rule("timeLimits")
    if state.phase not in ("discard", "draw", "claims"):
        raise _fail(rule, "no time limit runs: play waits for the referee's ruling")
    # the dealer's first turn — ended by his first discard, or (MJS-4.1) by his self-drawn win
    # on his first 14, after which the next player's discard clock runs from the win
    opened = not any(h.discards for h in state.seats) and not state.wins
    if limit == "firstDiscard":
        if not (opened and seat == state.dealer) or state.phase in ("exchange", "void"):
            raise _fail(rule, f"the first-discard limit is the dealer's (seat {state.dealer}) "
                              f"before his first discard, once play has opened")
        return rec.opened_at or rec.dealt_at, settings.firstDiscardSeconds
    if limit == "discard":
        if opened or seat != state.turn:
            on_clock = "the dealer's first discard" if opened else f"seat {state.turn}"
            raise _fail(rule, f"seat {seat} is not on the turn's clock: {on_clock} is")
        return rec.discarded_at, settings.turnSeconds
    if settings.game == "MJS":   # MJS-10.3: the seed's 30 s per discard is the only limit
        raise _fail(rule, "a Sichuan table times each discard (30 s), not the claims")
    w = state.window if state.phase == "claims" else None
    if w is None or "pong" not in w.may[seat] or w.answered(seat):
        raise _fail(rule, f"seat {seat} has no pong to call: no open claim window in which it "
                          f"may still pong")
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
        raise _fail(rule, f"seat {seat}'s {limit} limit of {seconds} s runs until "
                          f"{_iso(began + timedelta(seconds=seconds))}")
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
        raise _fail(rule, f"seat {seat} has already been warned for this discard")


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


# --- derived facts ---------------------------------------------------------------------------

def _derived(state: Hand) -> Hand:
    """Apply the derived facts that follow: ``ClaimsResolved`` once every other seat still in
    has answered the window, or a claim made can no longer be beaten by any claim the others
    could make whatever their tiles (MJO-4.5; in both enforcements, so that neither silence
    nor what a hand holds closes a window, and typing order decides nothing) — and
    ``DrawGame``."""
    while not state.over:
        if state.phase == "claims":
            if not window_decided(state.window, state.settings):
                return state
            state = resolve_claims(state, {})
        elif due_engine_event(state) == "DrawGame":
            state = exhaustive_draw(state, {})
        else:
            return state
    return state


def with_hand(t: Table, rec: HandRecord) -> Table:
    """The table after its hand changed: the derived facts that follow, and a finished hand's
    outcome — payments, balances, the next dealer (the derived ``HandCompleted``, MJO-7.2,
    MJO-2.2) — which may end the session (T-8.2)."""
    state = _derived(rec.state)
    rec = evolve(rec, state=state, window_at=rec.window_at if state.phase == "claims" else None)
    if not state.over:
        return evolve(t, current=rec)
    if t.game == "MJS":
        outcome = sichuan.hand_outcome(t.session, state, rec.tiebreak)
    else:
        outcome = hand_outcome(t.session, state)
    session = complete_hand(t.session, state, outcome)
    t = evolve(t, session=session, current=None,
                finished=t.finished + (evolve(rec, outcome=outcome),))
    return maybe_completed(t)


def podium_tie(t: Table) -> bool:
    """T-7.4: whether two players of the final share a place among the first three, by score
    and then by their results in the extra hands played so far."""
    return any(s.tied and s.place <= PODIUM for s in ranking(t))


def maybe_completed(t: Table) -> Table:
    """T-8.2: between hands the session ends after its hands or rounds, or once the timer has
    called time (the hand in play was finished first) — except that the final goes on with an
    extra hand while players tie for a podium place (T-7.4)."""
    if t.current is not None:
        return t
    if t.time_called is not None or (t.session is not None and session_limit_reached(t.session)):
        if t.settings.final and podium_tie(t):
            return t
        return evolve(t, status="completed")
    return t


# --- events of the table ----------------------------------------------------------------------

def roll_dice(t: Table, data: Mapping, at: str | None) -> Table:
    """``DiceRolled``: for the first dealer (MJO-2.1, MJS-1.3), to break the wall (MJO-2.3;
    MJS deals from a dealing machine, MJS-1.2) or for 换三张 (MJS-2.1)."""
    purpose = data["purpose"]
    if purpose == "firstDealer":
        _must_be_open(t)
        return roll_for_first_dealer(t, data)
    if purpose == "wallBreak" and t.game == "MJO":
        return roll_to_break_the_wall(t, data)
    if purpose == "exchange" and t.game == "MJS":
        rec = current_hand(t, data["hand"])
        return with_hand(t, evolve(rec, state=opening.roll_exchange(rec.state, data)))
    raise _fail(t.rule("lifecycle"), f"dice are not rolled for {purpose} at a {t.game} table")


def time_limit(t: Table, data: Mapping, at: str | None) -> Table:
    """``TimeLimitReached`` (T-8.2): the session's time is up; the hand in play is finished,
    then the session ends. Only with ``sessionMinutes`` set, naming it, once, and not before
    it has passed since the table started (the recorded times; compare SJ2-14.4)."""
    _must_be_open(t)
    limit = t.settings.sessionMinutes
    if limit is None or data["limit_minutes"] != limit:
        raise _fail(SESSION, f"this session's time limit is {limit} minutes" if limit else
                             "this session has no time limit (sessionMinutes)")
    if t.time_called is not None:
        raise _fail(SESSION, "the session's time limit has already been reached")
    started, now = _moment(t.started_at), _moment(at)
    if started is not None and now is not None and now < started + timedelta(minutes=limit):
        raise _fail(SESSION, f"the {limit} minutes end at "
                             f"{_iso(started + timedelta(minutes=limit))}, not before")
    return maybe_completed(evolve(t, time_called=limit))


def penalise(t: Table, data: Mapping, at: str | None) -> Table:
    """``CoinPenaltyAssessed`` (MJO-9.3: the committee rules; a Sichuan table has its own
    penalty events, MJS-9, 10): the seat pays ``coins`` to each payee, or loses them; balances
    may go negative (MJO-7.3)."""
    rule = "MJO-9.3"
    if t.status == "completed":
        # The session's coins are its result; what follows is the committee's (T-1.5).
        raise _fail("T-1.5", f"the session is over after {t.hands_played} hand(s): no penalty "
                             f"is assessed at the table any more; the committee rules "
                             f"(RulingRecorded)")
    if t.session is None:
        raise _fail(rule, "the session has not begun: there are no balances to penalise yet")
    number = data.get("hand")
    if number is not None and t.hand_number(number) is None:
        raise _fail(t.rule("lifecycle"), f"hand {number} has not been dealt")
    seat, coins, payees = data["seat"], data["coins"], list(data.get("payees") or ())
    if seat in payees or len(set(payees)) != len(payees):
        raise _fail(rule, "the payees are other seats than the penalised one, each once")
    deltas = [0] * SEATS
    deltas[seat] -= coins * max(len(payees), 1)
    for payee in payees:
        deltas[payee] += coins
    balances = tuple(b + d for b, d in zip(t.session.balances, deltas, strict=True))
    entry = {"hand": number, "rule": data["rule"], "seat": seat, "coins": coins,
             "payees": payees, "reason": data.get("reason"), "deltas": deltas,
             "balances": list(balances)}
    t = evolve(t, session=evolve(t.session, balances=balances),
                penalties=t.penalties + (entry,))
    if t.current is None:
        return t
    # Kept with the hand in play too: its result row must explain every coin (balances_before
    # + payments + these penalties = balances).
    return evolve(t, current=evolve(t.current, penalties=t.current.penalties + (entry,)))


def record_ruling(t: Table, data: Mapping, at: str | None) -> Table:
    """``RulingRecorded`` on the table (MJO-9.3). With ``effect.winValid`` it rules on a win
    waiting for the referee (MJO-5.6, record enforcement): true lets it stand, false withdraws
    it."""
    effect = data.get("effect") or {}
    t = evolve(t, rulings=t.rulings + ({"text": data["text"], "effect": data.get("effect")},))
    if "winValid" not in effect:
        return t
    rule = t.settings.rule("falseWin")
    rec = t.current
    if rec is None or rec.state.phase != "ruling":
        raise _fail(rule, "no win is waiting for a ruling")
    if effect.get("hand", rec.number) != rec.number:
        raise _fail(t.rule("lifecycle"), f"the win waiting for a ruling is in hand {rec.number}")
    return with_hand(t, evolve(rec, state=rule_on_win(rec.state, {"winValid": effect["winValid"]})))


_TABLE_EVENTS = {
    "DiceRolled": roll_dice,
    "TilesDealt": deal,
    "TimeLimitReached": time_limit,
    "CoinPenaltyAssessed": penalise,
    "RulingRecorded": record_ruling,
}


def apply(t: Table | None, event_type: str, data: dict, at: str | None = None) -> Table:
    """The next state of a table's stream after one event recorded at ``at``."""
    if event_type == "MatchStarted":
        if t is not None:
            raise _fail(LIFECYCLE, "the table has already started")
        return start(data, at)
    if t is None:
        raise _fail(LIFECYCLE, "the table has not started (MatchStarted comes first)")
    if event_type in _NOT_AT.get(t.game, ()):
        raise _fail(t.rule("lifecycle"), f"{event_type} is not an event of a {t.game} table")
    if event_type in _TABLE_EVENTS:
        return _TABLE_EVENTS[event_type](t, data, at)
    if event_type == "LotsDrawn":
        raise _fail("T-1.4", f"lots for {data['purpose']} are not drawn at a {t.game} table: "
                             f"the first dealer is rolled for with dice (MJO-2.1)")
    step = _HAND_EVENTS.get(event_type)
    if step is None:
        raise _fail(t.rule("lifecycle"), f"{event_type} is not an event of a {t.game} table")
    rec = current_hand(t, data["hand"])
    return with_hand(t, step(rec, t, data, at))


def ranking(t: Table) -> tuple:
    """MJO-7.4: the table's players (their entrants) by coins, most first; equal balances share
    a place — in the final of the Sichuan event, unless the extra hands order them (T-7.4)."""
    breaks = dict(zip((t.entrant(s) for s in range(SEATS)), t.tiebreaks, strict=True))
    return rank_by_coins({t.entrant(s): b for s, b in enumerate(t.balances)}, tiebreaks=breaks)


def deadlines(t: Table) -> tuple:
    """The table's pending deadlines (``rules.deadlines``): its claim window, the time limit
    of the seat on the clock and the session's time (:mod:`.deadlines`, which reads this
    module's times, hence imported here when asked)."""
    from .deadlines import deadlines as pending
    return pending(t)
