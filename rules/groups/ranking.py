"""The ranking of groups of four (T-8.3, T-7.4, T-7.5): every player once, by the stage reached,
coins and table place, equal ones by the lots or dice recorded; the prizes and the champion."""
from __future__ import annotations

from dataclasses import dataclass, replace

from .event import PRIZES, TABLE_PLACE_FIRST, Groups
from .stages import _result, dice_parts, is_final_stage, player_coins, stage_complete, table_ranking


# --- the ranking ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Row:
    place: int
    player: str
    coins: int
    stage: int
    table: str
    table_place: int
    eliminated_in: int | None
    tied: bool
    tiebreak: tuple[int, ...] = ()   # T-7.4: the final's extra-hand results


def standings(g: Groups) -> tuple[list[Row], bool]:
    """T-8.3 / T-7.4 / T-7.5: every player once, best first, and whether the ranking is final.

    The players of the last stage drawn come first, by coins; then those who went out earlier,
    later stages first — in the coin sessions (T-8.3 as amended) by final balance, then by
    their place at their table; in the Sichuan event (T-7.5) by their place at their table,
    then by score. Equal standing shares a place (1, 2, 2, 4) unless lots separated it. Final
    once the last stage is the final and complete and no tie touches a prize place."""
    if not g.stages:
        return [], False
    rows: list[Row] = []
    last = len(g.stages)
    moved_on = set()
    for stage in range(last, 0, -1):
        players = [p for t in g.stages[stage - 1] for p in t.players if p not in moved_on]
        rows += _stage_rows(g, stage, players, None if stage == last else stage)
        moved_on |= set(players)
    rows = _places(rows, g)
    decided = is_final_stage(g, last) and stage_complete(g, last)
    prize_tie = any(r.tied and r.place <= g.prize_places for r in rows)
    return rows, decided and not prize_tie


def _stage_rows(g: Groups, stage: int, players: list[str], out_in: int | None) -> list[Row]:
    rows = []
    for player in players:
        table = g.table_of(stage, player)
        place = next(s.place for s in table_ranking(g, table) if s.player == player)
        coins = player_coins(g, table, player)
        result = _result(g, table)
        extra = result.tiebreaks[table.players.index(player)] if result.tiebreaks else ()
        rows.append(Row(0, player, coins, stage, table.match_id, place, out_in, False,
                        tuple(extra)))
    return rows


def _base_key(g: Groups, row: Row) -> tuple:
    """The stage reached first. The final by coins (then its extra hands, T-7.4). Other
    stages: T-8.3 (amended) final balance, then table place; T-7.5 (the Sichuan event) table
    place, then score — group thirds before fourths."""
    last = len(g.stages)
    by_table = 0 if row.stage == last and is_final_stage(g, last) else row.table_place
    if g.game in TABLE_PLACE_FIRST:
        return (-row.stage, by_table, -row.coins, tuple(-x for x in row.tiebreak))
    return (-row.stage, -row.coins, by_table, tuple(-x for x in row.tiebreak))


def _ranking_parts(g: Groups, rows: list[Row]) -> list[tuple[tuple[str, ...], int]]:
    """The rows in ordered parts — equal base keys split by the dice rolled among them
    (T-7.5) — each with the place it starts at."""
    groups: dict[tuple, set[str]] = {}
    stage_of = {}
    for row in sorted(rows, key=lambda r: _base_key(g, r)):
        groups.setdefault(_base_key(g, row), set()).add(row.player)
        stage_of[_base_key(g, row)] = row.stage
    out, place = [], 1
    for key, group in groups.items():
        parts = dice_parts(g.dice.get(stage_of[key], ()), group) if g.by_dice \
            else [tuple(sorted(group))]
        for part in parts:
            out.append((part, place))
            place += len(part)
    return out


def _places(rows: list[Row], g: Groups) -> list[Row]:
    """Order and number the rows (see :func:`_base_key`); equal ones by their stage's lots, or
    the dice rolled among them."""
    dice_part = {}
    if g.by_dice:
        dice_part = {p: k for k, (part, _) in enumerate(_ranking_parts(g, rows)) for p in part}

    def key(row: Row) -> tuple:
        lots = g.lots.get(row.stage, ())
        drawn = lots.index(row.player) if row.player in lots else len(lots)
        return (*_base_key(g, row), dice_part.get(row.player, 0), drawn)

    ordered = sorted(rows, key=key)
    keys = [key(r) for r in ordered]
    return [replace(r, place=keys.index(k) + 1, tied=keys.count(k) > 1)
            for r, k in zip(ordered, keys, strict=True)]


def prize(g: Groups, place: int) -> str | None:
    """T-7.5: the prize of a place in the game's event, if the seed names one."""
    return PRIZES.get(g.game, {}).get(place)


def champion(g: Groups) -> str | None:
    rows, final = standings(g)
    return rows[0].player if final and rows and rows[0].place == 1 and not rows[0].tied else None
