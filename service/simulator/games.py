"""The games a knockout is simulated in (runner.py): for each, what the knockout and its report
need to know — the tournament's game code, the table bots, the match settings the simulation
plays with, how rounds are drawn, the prizes."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from . import bots as sj2_bots
from . import guandan_bots
from .tables import Action


@dataclass(frozen=True)
class GameSetup:
    """What the knockout needs to know of a game."""
    game: str                                   # the tournament's game (T-1.1)
    next_action: Callable[..., Action | None]   # (referee view, rng, **options) -> next event
    match_settings: Mapping = field(default_factory=dict)  # the simulation's defaults
    draw: Mapping = field(default_factory=dict)  # the body of POST …/draws
    prizes: Mapping[int, str] | None = None     # place -> prize: the report shows a podium
    decisions: bool = False                     # the match list says why each match ended


GAMES: Mapping[str, GameSetup] = {
    # SJ2: the bots bid while the cards are drawn, so the declaration window is not waited out:
    # the timer closes it at DealCompleted
    "sj2": GameSetup("SJ2", sj2_bots.next_action,
                     {"declarationWindowSeconds": 0}),
    # 掼蛋 of seed 001: rounds drawn with matching playing cards (T-5.5)
    "guandan": GameSetup("GD", guandan_bots.next_action,
                         draw={"method": "cards"}, prizes={1: "$900", 2: "$600", 3: "$300"},
                         decisions=True),  # T-5.7 prizes
}
