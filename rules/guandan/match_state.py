"""A 掼蛋 match's state: the hand in play and what the match records around it (its levels,
its clock, its rulings). The fold step that moves it (:mod:`.match`), what decides its levels
and result (:mod:`.outcome`) and its time rules as deadlines (:mod:`.deadlines`) all read it;
it imports none of them."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ..match_clock import MatchClock
from .hand import OVER, GDHand
from .levels import GDGame
from .settings import GDSettings, settings_dict

PHASES = {"tribute": "tribute", "return": "return", "play": "playing", "over": "completed"}


@dataclass(frozen=True)
class Deal:
    """One hand of the match: the pure hand state and what the match records around it.
    ``tricks`` are the ended tricks and ``trick`` the one in play, each a mapping with its
    plays in order (a pass is ``{"seat": s, "pass": True}``)."""
    number: int
    state: GDHand
    level_team: int | None              # whose level the hand is played at (None in hand 1)
    dealt: tuple[tuple[str, ...], ...]  # the four hands as drawn
    marked_card: str | None = None      # hand 1's first-lead draw (GD-8.2)
    extra: bool = False                 # the extra hand of GD-11.2
    tricks: tuple[Mapping, ...] = ()
    trick: Mapping | None = None
    irregularities: tuple[Mapping, ...] = ()
    void_reason: str | None = None  # the referee's words, or the rules' (a Sentence: GD-11.2)
    result: Mapping | None = None
    clock: str | None = None            # match time the GD-9 waits in progress started
    overruns: tuple[Mapping, ...] = ()  # the timer's GDTimeLimitExceeded, recorded (GD-9.3)

    @property
    def phase(self) -> str:
        return "voided" if self.void_reason is not None else PHASES[self.state.phase]

    @property
    def in_play(self) -> bool:
        return self.void_reason is None and self.state.phase != OVER


@dataclass(frozen=True)
class GDMatch:
    match_id: str
    game: str
    round: int | None
    teams: Mapping[str, str]            # side -> team id
    seats: tuple[str, ...]              # the players at seats 0-3
    settings: GDSettings
    enforcement: str = "strict"
    # levels, level team, failed attempts at A, game winner
    standing: GDGame = field(default_factory=GDGame)
    hand: Deal | None = None            # the hand in play, or the last one dealt
    finished: tuple[Deal, ...] = ()     # completed and voided hands, in order
    previous_order: tuple[int, ...] | None = None  # going-out order of the last completed hand
    history: tuple[Mapping, ...] = ()   # one result row per completed hand
    clock: str = "regular"              # "regular" | "overtime" | "extraHand" (GD-11.2)
    limits: tuple[Mapping, ...] = ()    # the TimeLimitReached events, in order
    started_at: str | None = None       # MatchStarted's recorded time: the clock's start (T-5.4)
    last_event_at: str | None = None    # the recorded time of the last event folded
    penalties: tuple[Mapping, ...] = ()
    status: str = "playing"             # "playing" | "completed"
    winner: str | None = None           # side
    reason: str | None = None           # a key of REASONS
    rulings: tuple[Mapping, ...] = ()
    match_clock: MatchClock = MatchClock()  # paused and resumed by the referee (rules.match_clock)

    @property
    def hands_played(self) -> int:
        """Completed hands (one result row each); a voided deal does not count."""
        return len(self.history)

    @property
    def next_hand(self) -> int:
        return self.hands_played + 1

    def settings_view(self) -> dict:
        return {**settings_dict(self.settings), "enforcement": self.enforcement}

    def hand_number(self, number: int) -> Deal | None:
        """Hand ``number`` as it stands: in play, or as it ended (its last deal)."""
        if self.hand is not None and self.hand.number == number:
            return self.hand
        return next((d for d in reversed(self.finished) if d.number == number), None)
