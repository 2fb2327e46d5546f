"""Ties in groups of four: dice among the tied players of the Sichuan event (``TieDiceRolled``;
T-7.2, T-7.5) and lots in the coin sessions (``LotsDrawn``, purpose ``standingsTie``; T-7.2,
T-8.3), at a table's qualifying cut or at a prize place of the ranking."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from types import MappingProxyType

from ..violations import RuleViolation
from .event import ADVANCE, PLACES, RANKING, DrawnTable, Groups
from .ranking import _ranking_parts, standings
from .stages import _cut, dice_parts, is_final_stage, player_coins, qualifiers, stage_complete


# --- ties by dice (the Sichuan event, TieDiceRolled) -------------------------------------------

def _open_cut_parts(g: Groups, table: DrawnTable) -> list[tuple[str, ...]]:
    """The parts of the tie at a table's qualifying cut still to roll: those that still
    straddle the last qualifying place (T-7.2)."""
    value, tied, above = _cut(g, table)
    out, start = [], above
    for part in dice_parts(g.dice.get(table.stage, ()), tied) if tied else ():
        if len(part) > 1 and start < g.advance < start + len(part):
            out.append(part)
        start += len(part)
    return out


def _open_ranking_parts(g: Groups, stage: int) -> list[tuple[str, ...]]:
    """T-7.5: the groups of players whose place was settled in ``stage`` — all of the final,
    those who did not qualify from an earlier stage (once its qualifiers are known) — tied at
    a prize place of the ranking, still to roll."""
    players = {p for table in g.stages[stage - 1] for p in table.players}
    if not is_final_stage(g, stage):
        try:
            players -= set(qualifiers(g, stage))
        except RuleViolation:
            return []      # the qualifying places first (T-7.2)
    rows, _ = standings(g)
    return [part for part, place in _ranking_parts(g, rows)
            if len(part) > 1 and place <= g.prize_places and set(part) <= players]


def _must_have_ended(g: Groups, stage: int, rule: str) -> None:
    """Ties of a stage are broken once it has been played to its end (``rule`` cites why)."""
    if not 1 <= stage <= len(g.stages):
        raise RuleViolation(rule, "stage {stage} has not been drawn",
                                  stage=stage)
    if not stage_complete(g, stage):
        raise RuleViolation(rule, "stage {stage} is still being played: its ties are known at "
                                  "its end",
                                  stage=stage)


def check_tie_dice(g: Groups, data: Mapping) -> None:
    """T-7.2 / T-7.5: a round of dice among players of a completed stage still tied — at a
    table across its last qualifying place, or at a prize place of the ranking — all of them
    and only them."""
    stage = data["round"]
    for player, throw in sorted(data["rolls"].items()):
        if any(type(d) is not int or not 1 <= d <= 6 for d in throw):
            raise RuleViolation(ADVANCE, "{player} threw {dice!r}: a throw is two dice of 1 "
                                         "to 6",
                                         player=player, dice=list(throw))
    if not g.by_dice:
        raise RuleViolation(RANKING, "ties in this event are drawn by lots (LotsDrawn, purpose "
                                     "standingsTie), not by dice")
    _must_have_ended(g, stage, ADVANCE)
    rolled = set(data["rolls"])
    open_ = []
    if not is_final_stage(g, stage):
        open_ = [(ADVANCE, part) for table in g.stages[stage - 1]
                 for part in _open_cut_parts(g, table)]
    open_ += [(PLACES, part) for part in _open_ranking_parts(g, stage)]
    if any(set(part) == rolled for _, part in open_):
        return
    rule = open_[0][0] if open_ else ADVANCE if not is_final_stage(g, stage) else PLACES
    rolled_by = ", ".join(sorted(rolled))
    if not open_:
        raise RuleViolation(rule, "dice are rolled by all the players still tied at a "
                                  "qualifying or prize place, and only them: {rolled} are not "
                                  "such a tie (ties to roll: none)",
                                  rolled=rolled_by)
    ties = "; ".join(", ".join(part) for _, part in open_)
    raise RuleViolation(rule, "dice are rolled by all the players still tied at a qualifying "
                              "or prize place, and only them: {rolled} are not such a tie "
                              "(ties to roll: {ties})",
                              rolled=rolled_by, ties=ties)


def record_tie_dice(g: Groups, data: Mapping) -> Groups:
    stage = data["round"]
    rolls = MappingProxyType({p: tuple(d) for p, d in data["rolls"].items()})
    return replace(g, dice={**g.dice, stage: g.dice.get(stage, ()) + (rolls,)})


# --- ties (LotsDrawn, purpose standingsTie) ---------------------------------------------------

def check_tie_lots(g: Groups, data: Mapping) -> None:
    """T-7.2 / T-8.3: lots between players of a completed stage with equal coins — at one
    table when the stage qualifies players for the next, across the stage when it is the
    final ranking — none of them already drawn; the winner is one of them."""
    stage = data["round"]
    if g.by_dice:
        raise RuleViolation(ADVANCE, "ties in this event are broken by dice (TieDiceRolled; "
                                     "seed 003 「打骰子大小決定」), not by lots")
    _must_have_ended(g, stage, RANKING)
    candidates = list(data["candidates"])
    if data["winner"] not in candidates or len(set(candidates)) != len(candidates):
        raise RuleViolation(RANKING, "the lots are drawn among different players and the "
                                     "winner is one of them")
    coins = {}
    for player in candidates:
        table = g.table_of(stage, player)
        if table is None:
            raise RuleViolation(RANKING, "{player} did not play in stage {stage}",
                                         player=player, stage=stage)
        coins[player] = _standing(g, table, player)
    if len(set(coins.values())) != 1:
        shown = ", ".join(f"{p} {c}" for p, (_, c) in coins.items())
        if is_final_stage(g, stage):
            raise RuleViolation(RANKING, "lots only separate players with equal coins: {coins}",
                                         coins=shown)
        raise RuleViolation(RANKING, "lots only separate players with equal coins at one "
                                     "table: {coins}",
                                     coins=shown)
    drawn = set(g.lots.get(stage, ()))
    if drawn & set(candidates):
        raise RuleViolation(RANKING, "{players} already won a draw of these lots",
                                     players=', '.join(sorted(drawn & set(candidates))))
    # Lots are drawn among everyone at that place: leaving one out would rank him by omission.
    tied = _tied_with(g, stage, next(iter(coins.values()))) - drawn
    if tied != set(candidates):
        raise RuleViolation(RANKING, "lots are drawn among all the players tied at that place: "
                                     "{tied}, not {candidates}",
                                     tied=', '.join(sorted(tied)),
                                     candidates=', '.join(candidates))


def _standing(g: Groups, table: DrawnTable, player: str) -> tuple[str | None, int]:
    """What a tie is about: the coins, at the player's table while the stage qualifies players
    (T-7.2), across the stage in the final ranking (T-8.3)."""
    where = None if is_final_stage(g, table.stage) else table.match_id
    return where, player_coins(g, table, player)


def _tied_with(g: Groups, stage: int, standing: tuple[str | None, int]) -> set[str]:
    """The players of ``stage`` with this standing — who have not withdrawn, when the tie is
    for a qualifying place."""
    final = is_final_stage(g, stage)
    return {p for table in g.stages[stage - 1] for p in table.players
            if _standing(g, table, p) == standing and (final or p not in g.withdrawn)}


def record_tie_lots(g: Groups, data: Mapping) -> Groups:
    stage = data["round"]
    return replace(g, lots={**g.lots, stage: g.lots.get(stage, ()) + (data["winner"],)})
