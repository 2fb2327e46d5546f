"""The draw of a stage of groups of four (``LotsDrawn``, purpose ``tables``; T-8.1): tables of
four by lots, the stages in order, each once."""
from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace

from ..messages import N_
from ..multisets import roll_call
from ..violations import RuleViolation
from .event import ADVANCE, TABLE_SIZE, TABLES, DrawnTable, Groups
from .stages import next_stage, stage_field, stage_sizes


def _must_seat_in_fours(players: int, advance: int | None) -> None:
    """T-8.1: every stage fills tables of four (with ``advance``, down to a final of four)."""
    if players < TABLE_SIZE:
        raise RuleViolation(TABLES, "tables of four need at least four players; {players} "
                                    "entered",
                                    players=players)
    sizes = stage_sizes(players, advance)
    wrong = next((n for n in sizes if n % TABLE_SIZE), None)
    if wrong is not None:
        steps = " → ".join(map(str, sizes))
        raise RuleViolation(TABLES, "{players} players cannot sit at tables of four in every "
                                    "stage ({steps} with advance {advance})",
                                    players=players, steps=steps, advance=advance)
    if advance is not None and sizes[-1] != TABLE_SIZE:
        raise RuleViolation(ADVANCE, "with advance {advance} the stages go {sizes} players, "
                                     "never down to a final table of four",
                                     advance=advance, sizes=sizes)


def check_table_draw(g: Groups, data: Mapping) -> None:
    """T-8.1: a stage's draw seats exactly its players, four to a table, each once; the stages
    are drawn in order, each once (never again: T-1.4), the next only when the last is decided
    (T-7.2); match ids are new."""
    stage = next_stage(g)
    if stage is None:
        raise RuleViolation(TABLES, "the final stage has been drawn; no stage is left")
    if data["round"] != stage:
        raise RuleViolation(TABLES, "the next stage to draw is {stage}, not {round}",
                                    stage=stage, round=data['round'])
    field_ = stage_field(g, stage)
    if stage == 1:
        _must_seat_in_fours(len(field_), g.advance)
    seated = [p for table in data["tables"] for p in table["players"]]
    what = roll_call(seated, field_, {"missing": N_("not seated: {names}"),
                                      "extra": N_("not in this stage: {names}"),
                                      "twice": N_("seated twice: {names}")})
    if what:
        raise RuleViolation(TABLES, "the draw of stage {stage} seats each of its {count} "
                                    "players once ({what})",
                                    stage=stage, count=len(field_), what=what)
    used = set(g.tables)
    ids = [table["match_id"] for table in data["tables"]]
    clash = sorted({i for i in ids if i in used or ids.count(i) > 1})
    if clash:
        raise RuleViolation(TABLES, "table id(s) {ids} are already used",
                                    ids=', '.join(clash))


def record_table_draw(g: Groups, data: Mapping) -> Groups:
    tables = tuple(DrawnTable(t["match_id"], data["round"], tuple(t["players"]))
                   for t in data["tables"])
    return replace(g, stages=g.stages + (tables,))


def propose_table_draw(g: Groups, rng: random.Random) -> dict:
    """T-8.1: shuffle the stage's players and seat them in drawn order, four to a table — the
    first drawn at seat 0 of table 1 — as matches ``S<stage>-T<n>``."""
    stage = next_stage(g) or len(g.stages) + 1   # past the final: refused by the check
    order = stage_field(g, stage) if next_stage(g) else []
    if stage == 1:
        _must_seat_in_fours(len(order), g.advance)
    rng.shuffle(order)
    tables = [{"match_id": f"S{stage}-T{k + 1}", "players": order[4 * k:4 * k + 4]}
              for k in range(len(order) // TABLE_SIZE)]
    data = {"purpose": "tables", "round": stage, "tables": tables}
    check_table_draw(g, data)
    return data
