"""Game settings of the mahjong engine: the few places where MJO (mahjong-ottawa.md) and MJS
(mahjong-sichuan.md) differ are data here, never a copied module.

The defaults are MJO's (its settings table, section 11, and the decisions of its rules); the
MJO preset and the parser of a match's ``MatchStarted.settings`` are in :mod:`.mjo`. A Sichuan
preset would set ``tileCount=108, chow=False``, the three kong flags, ``sevenPairs=True``,
``pairRanks=None``, ``multipleWinners="all"``, ``lastTileDiscard=True`` and MJS rule IDs.

``rule_ids`` maps what a check decides (a key below) to the rule ID of the game, so every
:class:`RuleViolation` names the rule of the game being played.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

# key -> MJO rule ID. The keys are the engine's checks; each game maps them to its own IDs.
MJO_RULE_IDS: Mapping[str, str] = MappingProxyType({
    "tiles": "MJO-1.1",          # the tile set; four of each face
    "firstDealer": "MJO-2.1",    # highest dice roll deals first; ties re-roll
    "dealer": "MJO-2.2",         # who deals next
    "deal": "MJO-2.3",           # dealer 14 tiles, others 13; breaking the wall
    "wall": "MJO-2.4",           # draws follow the recorded wall order
    "firstTurn": "MJO-3.1",      # the dealer opens by discarding (or winning)
    "turn": "MJO-3.2",           # draw after the previous discard; discard after a draw/claim
    "turnAfterClaim": "MJO-3.3",
    "chow": "MJO-4.1",
    "pong": "MJO-4.2",
    "kong": "MJO-4.3",
    "claimWin": "MJO-4.4",
    "claimWindow": "MJO-4.5",
    "winShape": "MJO-5.1",       # four sets and a pair, 14 tiles
    "pair": "MJO-5.2",           # the pair's rank (2-5-8)
    "specialHands": "MJO-5.3",   # seven pairs and other patterns
    "selfDraw": "MJO-5.4",       # self-draw wins (and the dealer's first 14)
    "falseWin": "MJO-5.6",       # an invalid win declaration
    "exhaustive": "MJO-6.1",     # the last tile; no discard after it
    "payments": "MJO-7.2",
    "timeLimits": "MJO-8.1",     # the dealer's first discard, each turn, the pong call
    "settings": "MJO-11",
})

MULTIPLE_WINNERS = ("firstInTurn", "all")
ENFORCEMENT = ("strict", "record")


@dataclass(frozen=True)
class GameSettings:
    """What varies between the mahjong games. Field names are the spec's setting keys where
    the spec has one (MJO section 11, MJS section 12, tournaments.md T-8.2)."""

    game: str = "MJO"
    tileCount: int = 136                   # MJO-1.1 (MJS-1.1: 108)
    chow: bool = True                      # MJO-4.1 (MJS-3.1: no chow)
    kongDirect: bool = False               # MJO-4.3 no kongs at all (MJS-3.4: all three kinds)
    kongAdded: bool = False
    kongConcealed: bool = False
    addedKongLater: bool = False           # MJS-3.4: an added kong only with the tile just drawn
    sevenPairs: bool = False               # MJO-5.3 (MJS-5.3: allowed, fully concealed)
    fourAsTwoPairs: bool = True            # MJS-5.3: four identical tiles count as two pairs
    pairRanks: frozenset[int] | None = frozenset({2, 5, 8})   # MJO-5.2; None = any pair
    multipleWinners: str = "firstInTurn"   # MJO-4.4: firstInTurn | all
    lastTileDiscard: bool = False          # MJO-6.1 (MJS-8.1 lastDiscardWinnable: true)
    dealerRepeatsOnWin: bool = True        # MJO-2.2
    claimWindowSeconds: int = 3            # MJO-4.5: the pong (and kong) call, MJO-4.2
    firstDiscardSeconds: int = 30          # MJO-8.1: the dealer's first discard after the deal
    turnSeconds: int = 15                  # MJO-8.1: previous discard to own discard, chow incl.
    enforcement: str = "strict"            # README §5, MJO-5.6
    startingCoins: int = 20                # MJO-7.1
    sessionHands: int | None = None        # T-8.2
    sessionMinutes: int | None = None      # T-8.2
    sessionRounds: int | None = None       # T-7.2 / MJS-1.4: rounds of winds (圈) per session
    rule_ids: Mapping[str, str] = field(default_factory=lambda: MJO_RULE_IDS, compare=False,
                                     repr=False)

    def rule(self, key: str) -> str:
        """The rule ID of this game for the check named ``key``."""
        return self.rule_ids[key]

    @property
    def strict(self) -> bool:
        return self.enforcement == "strict"

    @property
    def kongs(self) -> bool:
        return self.kongDirect or self.kongAdded or self.kongConcealed
