"""Groups of four, their state: the rule IDs, the seed's choices by game (GAME_DEFAULTS,
DICE_TIES, TABLE_PLACE_FIRST, PRIZES), the settings (T-7.2, T-8.3), the tables drawn and
their results (:class:`Groups`), and the start."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from ..setting_values import check_values

TABLE_SIZE = 4
TABLES = "T-8.1"       # tables of four by lots
ADVANCE = "T-7.2"      # the top N of each table advance; ties by a recorded draw
RANKING = "T-8.3"      # one ranking by coins; ties for a prize place by lots
PLACES = "T-7.5"       # the Sichuan event's places 4-12; remaining ties by dice

# The seed's choices for a game's groups, where they differ from the settings' defaults:
# seed 003 (T-7.2 – 7.5) — the top 2 of each group advance, each stage from 0, prizes to 12th
GAME_DEFAULTS = MappingProxyType({"MJS": MappingProxyType({"advance": 2, "stageCoins": "reset",
                                                           "prizePlaces": 12})})
DICE_TIES = frozenset({"MJS"})     # T-7.2 「打骰子大小決定」: ties by dice, not lots
# T-7.5: the Sichuan event ranks the players out at one stage by their place at their table
# first ("group thirds before fourths, then by score"); the coin sessions by their final balance
# first (T-8.3 as amended on 2026-12-01: stage reached, final balance, then table place)
TABLE_PLACE_FIRST = frozenset({"MJS"})
# T-7.5: the Sichuan event's prizes by place (seed 003 「獎項設置」)
PRIZES = MappingProxyType({"MJS": MappingProxyType({
    1: "champion: 2000 yuan and a certificate", 2: "runner-up: 1200 yuan and a certificate",
    3: "third: 600 yuan and a certificate",
    **{place: "a commemorative water bottle" for place in range(4, 13)}})})

# Tournament settings of the groups format: key -> (rule, low, high, default)
SETTINGS = MappingProxyType({"advance": (ADVANCE, 1, TABLE_SIZE - 1, None),
                             "prizePlaces": (RANKING, 1, 64, 3)})
# key -> (rule, choices, default): whether the coins carry over to the next stage (T-8.3, the
# seed's one session of coins) or every stage starts afresh (T-7.2's interpretation, MJS)
CHOICES = MappingProxyType({"stageCoins": (RANKING, ("carry", "reset"), "carry")})


@dataclass(frozen=True)
class DrawnTable:
    """A table of a stage: its match id and the entrants at seats 0-3, as the lots seated them."""

    match_id: str
    stage: int
    players: tuple[str, ...]

    def teams(self) -> dict[str, str]:
        """``MatchStarted.teams`` of the table: seat -> entrant."""
        return {str(seat): player for seat, player in enumerate(self.players)}


@dataclass(frozen=True)
class TableResult:
    """A table's session as its stream stands: the balances by seat and whether it is over."""

    balances: tuple[int, ...]
    completed: bool
    hands_played: int = 0
    # T-7.4: per seat, the results of the final's extra hands, which order equal scores
    tiebreaks: tuple[tuple[int, ...], ...] = ()


@dataclass(frozen=True)
class Groups:
    entrants: tuple[str, ...]
    advance: int | None = None
    starting: int = 0              # a player's coins when his table starts (MJO-7.1: 20)
    prize_places: int = 3
    carry: bool = True             # stageCoins: a player's coins go on to his next stage
    withdrawn: frozenset[str] = frozenset()   # withdrew after the first draw (T-1.3)
    stages: tuple[tuple[DrawnTable, ...], ...] = ()
    results: Mapping[str, TableResult] = field(default_factory=dict)
    lots: Mapping[int, tuple[str, ...]] = field(default_factory=dict)  # stage -> drawn order
    game: str = "MJO"
    # stage -> the rounds of tie dice, each player -> his two dice (T-7.2, T-7.5)
    dice: Mapping[int, tuple[Mapping[str, tuple[int, ...]], ...]] = field(default_factory=dict)

    @property
    def by_dice(self) -> bool:
        return self.game in DICE_TIES

    @property
    def ranked_by(self) -> tuple[str, ...]:
        """What orders the standings, in order: the stage reached, then T-8.3's final balance
        before the table place (T-7.5 for the Sichuan event: the table place before the
        score); then the final's extra hands (T-7.4) and the lots or dice among equals."""
        middle = ("table_place", "coins") if self.game in TABLE_PLACE_FIRST else \
            ("coins", "table_place")
        return ("stage", *middle)

    @property
    def tables(self) -> dict[str, DrawnTable]:
        return {t.match_id: t for stage in self.stages for t in stage}

    def table_of(self, stage: int, player: str) -> DrawnTable | None:
        return next((t for t in self.stages[stage - 1] if player in t.players), None)


def check_settings(settings: Mapping) -> None:
    """T-7.2 / T-8.3: ``advance`` 1-3 (or absent: one stage), ``prizePlaces`` 1-64."""
    check_values(settings, SETTINGS, CHOICES)


def start(entrants: Sequence[str], settings: Mapping, starting: int = 0,
          game: str = "MJO") -> Groups:
    """Groups of ``entrants``; ``starting`` is what every player holds before his first table
    plays (MJO-7.1: 20 coins), carried on from stage to stage unless ``stageCoins`` is
    ``reset`` (T-7.2). A game's seed may set other defaults (``GAME_DEFAULTS``: MJS)."""
    check_settings(settings)
    settings = {**GAME_DEFAULTS.get(game, {}), **settings}
    stage_coins = settings.get("stageCoins") or CHOICES["stageCoins"][2]
    return Groups(entrants=tuple(entrants), advance=settings.get("advance"), starting=starting,
                  prize_places=settings.get("prizePlaces") or SETTINGS["prizePlaces"][3],
                  carry=stage_coins == "carry", game=game)
