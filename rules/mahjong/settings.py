"""Game settings of the mahjong engine: the few places where MJO (mahjong-ottawa.md) and MJS
(mahjong-sichuan.md) differ are data here, never a copied module.

The defaults are MJO's (its settings table, section 11, and the decisions of its rules); the
MJO preset and the parser of a match's ``MatchStarted.settings`` are in :mod:`.mjo`, the Sichuan
preset (MJS, mahjong-sichuan.md) in :mod:`.sichuan`: 108 tiles, no chow, the three kongs with
their payments, seven pairs, any pair, every winner on a discard, the last discard winnable,
and the bloody battle with its void suits, exchange, 过水 and robbed kongs.

``rule_ids`` maps what a check decides (a key below) to the rule ID of the game, so every
:class:`RuleViolation` names the rule of the game being played.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from ..setting_values import choice_fault, whole_number_fault
from ..violations import RuleViolation

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
    "lifecycle": "MJO-10",       # an event this game does not have
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
    # MJO-4.3 no kongs at all (None); MJS-3.4 / 7.1: each kind allowed, paid this much at once
    kongDirect: int | None = None          # by the discarder (MJS: 2)
    kongAdded: int | None = None           # by each other player still in (MJS: 2)
    kongConcealed: int | None = None       # by each other player still in (MJS: 4)
    addedKongLater: bool = False           # MJS-3.4: an added kong only with the tile just drawn
    # MJS-3.4: a concealed kong of any four held on one's turn (false: only on drawing the 4th,
    # seed 003 5c read literally — then four dealt to a non-dealer could never be konged)
    concealedKongLater: bool = True
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
    # --- the Sichuan game (mahjong-sichuan.md); inert in MJO ---
    bloodyBattle: bool = False             # MJS-4.1: a win does not end the hand
    voidSuit: bool = False                 # MJS-2.2: every player declares a void suit
    voidFirstDiscards: bool = False        # MJS-2.2: void-suit tiles are discarded first
    exchangeThree: bool = False            # MJS-2.1: 换三张 before the void suits
    passedWinBar: bool = False             # MJS-5.6: 过水 — a passed win bars discard wins
    robKong: bool = False                  # MJS-7.3: an added kong may be robbed
    falseWinPayment: int | None = None     # MJS-9.2: 炸胡 pays each player still in (None: MJO-5.6)
    genCountsUndeclaredFour: bool = True   # MJS-6.2: four held without a kong is a 根
    cap: int = 32                          # MJS-6.1: the most one payer pays for a win
    drawSettlementValue: str = "highest"   # MJS-8.4: a ready player's highest (or lowest) value
    disclosurePayee: str = "victim"        # MJS-10.5: victim | eachOther
    final: bool = False                    # T-7.4: the event's final table (extra hand on ties)
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
        return any(k is not None for k in (self.kongDirect, self.kongAdded, self.kongConcealed))


@dataclass(frozen=True)
class MatchKeys:
    """The keys a game lets a match set in ``MatchStarted.settings`` (MJO section 11, MJS
    section 12) and the values each takes; the rest of the game is fixed by its preset."""

    choices: Mapping[str, tuple[str, ...]]       # key -> the values allowed
    whole_numbers: Mapping[str, tuple[int, int]]  # key -> (lowest, highest)
    flags: tuple[str, ...]                       # true or false

    @property
    def names(self) -> tuple[str, ...]:
        return (*self.choices, *self.whole_numbers, *self.flags)

    def check(self, raw: Mapping, rule: str) -> None:
        """Refuses (``rule``: the game's settings rule) an unknown key or a value it does not
        take; a session limit may be null (no limit of that kind)."""
        for key, value in raw.items():
            self._check(key, value, rule)

    def _check(self, key: str, value: object, rule: str) -> None:
        if key not in self.names:
            raise RuleViolation(rule, "unknown setting {key!r}; the settings are {names} "
                                      "({rule_})",
                                      key=key, names=', '.join(sorted(self.names)), rule_=rule)
        fault = None
        if key in self.choices:
            fault = choice_fault(key, value, self.choices[key])
        if key in self.whole_numbers and not (value is None and key.startswith("session")):
            fault = whole_number_fault(key, value, *self.whole_numbers[key])
        if fault:
            raise RuleViolation(rule, "{fault} ({rule_})",
                                      fault=fault, rule_=rule)
        if key in self.flags and type(value) is not bool:
            raise RuleViolation(rule, "setting {key} must be true or false, not {value!r} "
                                      "({rule_})",
                                      key=key, value=value, rule_=rule)
