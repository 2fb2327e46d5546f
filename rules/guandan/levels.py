"""Levels: upgrade after a hand, playing A, the level of the next hand, the match clock
(guandan.md GD-1.2, GD-1.3, GD-6, GD-11).

The state between hands is a frozen :class:`GDGame`; :func:`complete_hand` takes it and the
hand's going-out order and returns the next state and the :class:`HandOutcome` (the payload of
``HandCompleted``). Teams are indices: 0 = team A (seats 0, 2), 1 = team B (seats 1, 3).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .cards import LEVELS, violation
from .seats import TEAM_NAMES, check_order, is_double_down, partner, team_of
from .settings import GDSettings, settings_from


@dataclass(frozen=True)
class GDGame:
    """GD-1.2/1.3/6.4: both teams' levels, the level team (winner of the previous hand; None
    before hand 1), the failed attempts at A of each team, and the winner once a team is
    through A (GD-6.3)."""
    levels: tuple[str, str] = ("2", "2")
    level_team: int | None = None
    a_failures: tuple[int, int] = (0, 0)
    winner: int | None = None


@dataclass(frozen=True)
class HandOutcome:
    """GD-6: what a finished hand decides (``HandCompleted``)."""
    places: tuple[int, ...]
    winning_team: int
    upgrade: int
    levels: tuple[str, str]
    a_failures: tuple[int, int]
    failed_attempt: bool
    game_winner: int | None


def hand_level(game: GDGame) -> str:
    """GD-1.3: a hand is played at the level of the team that won the previous hand; hand 1 at 2."""
    return "2" if game.level_team is None else game.levels[game.level_team]


def upgrade(order: Iterable[int]) -> tuple[int, int]:
    """GD-6.1: (winning team, levels gained) — the team of the 1st player; +3 with its partner
    2nd (double down), +2 with its partner 3rd, +1 with its partner last."""
    order = check_order(order)
    if is_double_down(order):
        return team_of(order[0]), 3
    return team_of(order[0]), 2 if order[2] == partner(order[0]) else 1


def advance(level: str, steps: int) -> str:
    """GD-6.2: a level ``steps`` higher, capped at A (surplus levels are lost)."""
    return LEVELS[min(LEVELS.index(level) + steps, len(LEVELS) - 1)]


def _replace(pair: tuple, team: int, item) -> tuple:
    return (item, pair[1]) if team == 0 else (pair[0], item)


def complete_hand(game: GDGame, order: Iterable[int],
                  settings: GDSettings | Mapping | None = None) -> tuple[GDGame, HandOutcome]:
    """GD-6.1–6.4: the state after a hand with this going-out order.

    The winner upgrades (GD-6.1, capped GD-6.2) and becomes the level team. A hand played at A
    (the level team's own level) wins the game when the level team finishes 1–2 or 1–3
    (GD-6.3); otherwise it is a failed attempt, and after ``aFailuresBeforeReset`` (default 3)
    the level team goes back to 2 with its counter reset (GD-6.4). Hands played at the other
    team's level neither count nor reset."""
    if game.winner is not None:
        raise violation("GD-11.1", "the game is over: team {TEAM_NAMES} played through "
                                   "A",
                                   TEAM_NAMES=TEAM_NAMES[game.winner])
    order = check_order(order)
    winner, steps = upgrade(order)
    levels, failures, game_winner, failed = game.levels, game.a_failures, None, False
    attempt_team = game.level_team if hand_level(game) == "A" else None
    if attempt_team is not None and winner == attempt_team and steps >= 2:
        game_winner = winner
    else:
        levels = _replace(levels, winner, advance(levels[winner], steps))
        if attempt_team is not None:
            failed = True
            failures = _replace(failures, attempt_team, failures[attempt_team] + 1)
            if failures[attempt_team] >= settings_from(settings).a_failures_before_reset:
                levels = _replace(levels, attempt_team, "2")
                failures = _replace(failures, attempt_team, 0)
    outcome = HandOutcome(order, winner, steps, levels, failures, failed, game_winner)
    return GDGame(levels, winner, failures, game_winner), outcome


def time_limit_result(levels: tuple[str, str], overtime: bool = False) -> int | str:
    """GD-11.2: at the time limit (60 min, or 90 with ``overtime``) the team with the higher level
    reached within it wins (its index); equal → ``"overtime"`` (30 more minutes) after 60
    minutes, ``"extraHand"`` after 90."""
    a, b = (LEVELS.index(level) for level in levels)
    if a != b:
        return 0 if a > b else 1
    return "extraHand" if overtime else "overtime"


def extra_hand_winner(order: Iterable[int]) -> int:
    """GD-11.2 (Interpretation): the extra hand, at equal levels after it, is won by the team of
    its 1st player."""
    return team_of(next(iter(order)))
