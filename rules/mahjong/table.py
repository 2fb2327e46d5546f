"""A mahjong table as its session's state (mahjong-ottawa.md MJO-2, MJO-7, section 10;
tournaments.md T-7, T-8): the :class:`Table` and the record of each hand, the rule IDs of the
table's lifecycle, and its start (``MatchStarted``: the seats, the game's preset and settings).
:mod:`.session` folds its events."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from ..match_clock import MatchClock
from ..violations import RuleViolation
from . import sichuan
from .hand import Hand
from .mjo import HandOutcome, Session, mjo_settings
from .settings import GameSettings
from .wall import SEATS


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


def _must_be_open(t: Table) -> None:
    if t.status == "completed":
        raise RuleViolation(SESSION, "the session is over after {hands_played} hand(s)",
                                     hands_played=t.hands_played)


def seat_players(players: Mapping[str, Sequence[str]]) -> list[str]:
    """T-8.1: a table of four single players, ``players[str(seat)]`` at each seat 0-3 (MJO
    entrants are single players, T-1.2)."""
    if sorted(players) != list(TEAM_KEYS):
        seats = ', '.join(sorted(players))
        if not seats:
            raise RuleViolation(TABLES, "a mahjong table seats four entrants at seats 0, 1, 2 "
                                        "and 3, not none")
        raise RuleViolation(TABLES, "a mahjong table seats four entrants at seats 0, 1, 2 and "
                                    "3, not {seats}",
                                    seats=seats)
    for seat, names in players.items():
        if len(names) != 1:
            raise RuleViolation(TABLES, "seat {seat} is given {count} players; each seat holds "
                                        "one",
                                        seat=seat, count=len(names))
    return [players[key][0] for key in TEAM_KEYS]


def check_settings(raw: Mapping, game: str = "MJO") -> None:
    """MJO section 11: the table settings a tournament gives its tables."""
    PRESETS[game](raw)


def start(data: Mapping, at: str | None = None) -> Table:
    """``MatchStarted`` recorded at ``at``: four entrants at seats 0-3 (T-8.1) and the match
    settings (MJO section 11; an unknown key or a value out of range is refused, ``MJO-11``)."""
    parse = PRESETS.get(data["game"])
    if parse is None:
        raise RuleViolation("T-1.1", "{game} tables are not played by this engine",
                                     game=data['game'])
    teams = dict(data["teams"])
    if sorted(teams) != list(TEAM_KEYS):
        raise RuleViolation(TABLES, "a mahjong table names the entrant at each of seats 0, 1, "
                                    "2 and 3")
    if len(set(teams.values())) != SEATS:
        raise RuleViolation(TABLES, "the four seats of a table hold four different entrants")
    return Table(match_id=data["match_id"], game=data["game"], round=data.get("round"),
                 teams=MappingProxyType(teams), seats=tuple(data["seats"]),
                 settings=parse(data.get("settings") or {}), started_at=at)


def settings_dict(settings: GameSettings) -> dict:
    """The table's settings as they apply (MJO section 11, MJS section 12, T-8.2), defaults
    included."""
    if settings.game == "MJS":
        return sichuan.settings_dict(settings)
    return {key: getattr(settings, key) for key in SETTING_KEYS}
