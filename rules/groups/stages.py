"""The stages of groups of four (T-7.2, T-8.1): their sizes, which is the final, a stage's field
and completion, a player's coins, a table's ranking, and the qualifiers — with the dice that
order a tie at a table's qualifying cut (T-7.2)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..mahjong.mjo import Standing, rank_by_coins
from ..violations import RuleViolation
from .event import ADVANCE, TABLE_SIZE, DrawnTable, Groups, TableResult


# --- stages -----------------------------------------------------------------------------------

def stage_sizes(players: int, advance: int | None) -> list[int]:
    """T-8.1 / T-7.2: the number of players of each stage, from the first to the final."""
    sizes = [players]
    while advance is not None and sizes[-1] > TABLE_SIZE:
        sizes.append(sizes[-1] // TABLE_SIZE * advance)
    return sizes


def is_final_stage(g: Groups, stage: int) -> bool:
    """T-7.4: the final is a stage of one table; with no ``advance`` the only stage is final."""
    return g.advance is None or len(g.stages[stage - 1]) == 1


def stage_complete(g: Groups, stage: int) -> bool:
    return all(_result(g, t).completed for t in g.stages[stage - 1])


def _result(g: Groups, table: DrawnTable) -> TableResult:
    return g.results.get(table.match_id) or TableResult((g.starting,) * TABLE_SIZE, False)


def next_stage(g: Groups) -> int | None:
    """The stage to draw next; None once the final stage has been drawn."""
    if g.stages and is_final_stage(g, len(g.stages)):
        return None
    return len(g.stages) + 1


def stage_field(g: Groups, stage: int) -> list[str]:
    """The players of ``stage``: the entrants for the first, then the qualifiers of the stage
    before it (T-7.2)."""
    if stage == 1:
        return list(g.entrants)
    return qualifiers(g, stage - 1)


def player_coins(g: Groups, table: DrawnTable, player: str) -> int:
    """A player's coins after ``table`` (his table of its stage): its session's balance, plus —
    when the coins carry over (T-8.3) — what he won or lost before it."""
    balance = _result(g, table).balances[table.players.index(player)]
    if not g.carry or table.stage == 1:
        return balance
    before = g.table_of(table.stage - 1, player)
    return balance - g.starting + player_coins(g, before, player)


def table_ranking(g: Groups, table: DrawnTable,
                  players: Sequence[str] | None = None) -> tuple[Standing, ...]:
    """MJO-7.4: a table's players (or ``players`` of them) by coins; the stage's lots order the
    equal ones — or the extra hands of the final (T-7.4) and the dice at a qualifying cut
    (T-7.2)."""
    coins = {p: player_coins(g, table, p) for p in (table.players if players is None else players)}
    result = _result(g, table)
    breaks = {p: result.tiebreaks[table.players.index(p)] for p in coins} \
        if result.tiebreaks else {}
    if g.by_dice and not is_final_stage(g, table.stage):
        # the parts of the table in order; a higher break goes first, so the negated index
        breaks = {p: (-k,) for k, part in enumerate(_table_parts(g, table)) for p in part}
    return rank_by_coins(coins, g.lots.get(table.stage, ()), breaks)


def qualifiers(g: Groups, stage: int) -> list[str]:
    """T-7.2: the top ``advance`` of every table of a completed stage, table by table, among
    the players who have not withdrawn. A tie across the last qualifying place must first be
    drawn (``standingsTie``)."""
    if not stage_complete(g, stage):
        raise RuleViolation(ADVANCE, "stage {stage} is still being played",
                                     stage=stage)
    out = []
    for table in g.stages[stage - 1]:
        ranking = table_ranking(g, table, [p for p in table.players if p not in g.withdrawn])
        if len(ranking) < g.advance:
            raise RuleViolation(ADVANCE, "table {match_id} has {left} player(s) left for "
                                         "{advance} qualifying place(s): the committee rules "
                                         "(T-1.5)",
                                         match_id=table.match_id, left=len(ranking),
                                         advance=g.advance)
        through = [s.player for s in ranking if s.place <= g.advance]
        if len(through) != g.advance:
            tied = [s.player for s in ranking if s.place == ranking[g.advance - 1].place]
            if g.by_dice:
                raise RuleViolation(ADVANCE, "{tied} tie at table {match_id} for the last of "
                                             "its {advance} qualifying place(s): dice decide "
                                             "(TieDiceRolled)",
                                             tied=', '.join(tied), match_id=table.match_id,
                                             advance=g.advance)
            raise RuleViolation(ADVANCE, "{tied} tie at table {match_id} for the last of its "
                                         "{advance} qualifying place(s): lots decide (LotsDrawn, "
                                         "purpose standingsTie)",
                                         tied=', '.join(tied), match_id=table.match_id,
                                         advance=g.advance)
        out += through
    return out


# --- the dice at a table's qualifying cut (T-7.2) ---------------------------------------------

def dice_parts(rounds: Sequence[Mapping[str, Sequence[int]]],
               group: set[str]) -> list[tuple[str, ...]]:
    """T-7.2: the tied ``group`` in ordered parts after the rounds of dice rolled among its
    parts still tied: a round rolled by exactly the players of a part splits it by their
    totals, higher first; equal totals stay together and roll again."""
    parts = [tuple(sorted(group))]
    for rolls in rounds:
        rolled = set(rolls)
        k = next((i for i, part in enumerate(parts) if len(part) > 1 and set(part) == rolled),
                 None)
        if k is None:
            continue
        totals = sorted({sum(rolls[p]) for p in rolled}, reverse=True)
        parts[k:k + 1] = [tuple(sorted(p for p in rolled if sum(rolls[p]) == total))
                          for total in totals]
    return parts


def _cut(g: Groups, table: DrawnTable) -> tuple[int | None, set[str], int]:
    """T-7.2: at a table that qualifies players, the score tied across its last qualifying
    place, the players (who have not withdrawn) tied there, and how many are above them."""
    coins = {p: player_coins(g, table, p) for p in table.players if p not in g.withdrawn}
    order = sorted(coins.values(), reverse=True)
    if g.advance is None or len(order) <= g.advance or order[g.advance] != order[g.advance - 1]:
        return None, set(), 0
    value = order[g.advance - 1]
    return value, {p for p, c in coins.items() if c == value}, sum(c > value for c in order)


def _table_parts(g: Groups, table: DrawnTable) -> list[tuple[str, ...]]:
    """A table's players in ordered parts: by coins, the tie at the qualifying cut by its
    dice (T-7.2); other equal scores stay together (their order is the ranking's, T-7.5)."""
    coins = {p: player_coins(g, table, p) for p in table.players}
    value, tied, _ = _cut(g, table)
    parts = []
    for score in sorted(set(coins.values()), reverse=True):
        group = {p for p, c in coins.items() if c == score}
        if score == value:
            parts += dice_parts(g.dice.get(table.stage, ()), tied)
            group -= tied
        if group:
            parts.append(tuple(sorted(group)))
    return parts
