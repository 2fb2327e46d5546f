"""Groups of four: players drawn into tables of four by lots, stage after stage, and the ranking
(tournaments.md T-8 for the Ottawa coin sessions, T-7 for the groups format it shares with the
Sichuan game; T-1.4 every draw and tie-break is a recorded ``LotsDrawn``).

A stage is a set of independent tables (each a match stream, one coin session). With the
tournament setting ``advance`` the top ``advance`` of each table go on to the next stage, drawn
again, until a stage of one table — the final, whose order gives the podium (T-7.2 – 7.4).
Without it there is one stage and every player of the event is ranked together by final balance
(T-8.3). A player's coins go with him from stage to stage (setting ``stageCoins``, default
``carry``: the seed gives 20 coins once and 「比赛结束后谁的假币最多谁赢」); ``reset`` starts every
stage afresh (the Sichuan model, T-7.2). A player who withdraws is not drawn again: the next
best at his table goes on in his place. Equal balances share a place; lots (``standingsTie``) separate them where it matters —
for a qualifying place (T-7.2) or a prize place (T-8.3, setting ``prizePlaces``, default 3).

Everything here is pure: the draws and the lots are recorded facts, a table's result comes from
its match stream (folded by the projections).
"""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType

from .mahjong.mjo import Standing, rank_by_coins
from .violations import RuleViolation

TABLE_SIZE = 4
TABLES = "T-8.1"       # tables of four by lots
ADVANCE = "T-7.2"      # the top N of each table advance; ties by a recorded draw
RANKING = "T-8.3"      # one ranking by coins; ties for a prize place by lots

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

    @property
    def tables(self) -> dict[str, DrawnTable]:
        return {t.match_id: t for stage in self.stages for t in stage}

    def table_of(self, stage: int, player: str) -> DrawnTable | None:
        return next((t for t in self.stages[stage - 1] if player in t.players), None)


def check_settings(settings: Mapping) -> None:
    """T-7.2 / T-8.3: ``advance`` 1-3 (or absent: one stage), ``prizePlaces`` 1-64."""
    for key, (rule, low, high, _) in SETTINGS.items():
        value = settings.get(key)
        if value is not None and (type(value) is not int or not low <= value <= high):
            raise RuleViolation(rule, f"setting {key} must be a whole number from {low} to "
                                      f"{high}, not {value!r}")
    for key, (rule, allowed, _) in CHOICES.items():
        if key in settings and settings[key] not in allowed:
            raise RuleViolation(rule, f"setting {key} must be one of {', '.join(allowed)}, "
                                      f"not {settings[key]!r}")


def start(entrants: Sequence[str], settings: Mapping, starting: int = 0) -> Groups:
    """Groups of ``entrants``; ``starting`` is what every player holds before his first table
    plays (MJO-7.1: 20 coins), carried on from stage to stage unless ``stageCoins`` is
    ``reset`` (T-7.2)."""
    check_settings(settings)
    stage_coins = settings.get("stageCoins") or CHOICES["stageCoins"][2]
    return Groups(entrants=tuple(entrants), advance=settings.get("advance"), starting=starting,
                  prize_places=settings.get("prizePlaces") or SETTINGS["prizePlaces"][3],
                  carry=stage_coins == "carry")


# --- stages ----------------------------------------------------------------------------------

def stage_sizes(players: int, advance: int | None) -> list[int]:
    """T-8.1 / T-7.2: the number of players of each stage, from the first to the final."""
    sizes = [players]
    while advance is not None and sizes[-1] > TABLE_SIZE:
        sizes.append(sizes[-1] // TABLE_SIZE * advance)
    return sizes


def _must_seat_in_fours(players: int, advance: int | None) -> None:
    """T-8.1: every stage fills tables of four (with ``advance``, down to a final of four)."""
    if players < TABLE_SIZE:
        raise RuleViolation(TABLES, f"tables of four need at least four players; {players} "
                                    f"entered")
    sizes = stage_sizes(players, advance)
    wrong = next((n for n in sizes if n % TABLE_SIZE), None)
    if wrong is not None:
        steps = " → ".join(map(str, sizes))
        raise RuleViolation(TABLES, f"{players} players cannot sit at tables of four in every "
                                    f"stage ({steps} with advance {advance})")
    if advance is not None and sizes[-1] != TABLE_SIZE:
        raise RuleViolation(ADVANCE, f"with advance {advance} the stages go {sizes} players, "
                                     f"never down to a final table of four")


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
    equal ones."""
    coins = {p: player_coins(g, table, p) for p in (table.players if players is None else players)}
    return rank_by_coins(coins, g.lots.get(table.stage, ()))


def qualifiers(g: Groups, stage: int) -> list[str]:
    """T-7.2: the top ``advance`` of every table of a completed stage, table by table, among
    the players who have not withdrawn. A tie across the last qualifying place must first be
    drawn (``standingsTie``)."""
    if not stage_complete(g, stage):
        raise RuleViolation(ADVANCE, f"stage {stage} is still being played")
    out = []
    for table in g.stages[stage - 1]:
        ranking = table_ranking(g, table, [p for p in table.players if p not in g.withdrawn])
        if len(ranking) < g.advance:
            raise RuleViolation(ADVANCE, f"table {table.match_id} has {len(ranking)} player(s) "
                                         f"left for {g.advance} qualifying place(s): the "
                                         f"committee rules (T-1.5)")
        through = [s.player for s in ranking if s.place <= g.advance]
        if len(through) != g.advance:
            tied = [s.player for s in ranking if s.place == ranking[g.advance - 1].place]
            raise RuleViolation(ADVANCE, f"{', '.join(tied)} tie at table {table.match_id} for "
                                         f"the last of its {g.advance} qualifying place(s): "
                                         f"lots decide (LotsDrawn, purpose standingsTie)")
        out += through
    return out


# --- the draw of a stage (LotsDrawn, purpose tables) ------------------------------------------

def check_table_draw(g: Groups, data: Mapping) -> None:
    """T-8.1: a stage's draw seats exactly its players, four to a table, each once; the stages
    are drawn in order, each once (never again: T-1.4), the next only when the last is decided
    (T-7.2); match ids are new."""
    stage = next_stage(g)
    if stage is None:
        raise RuleViolation(TABLES, "the final stage has been drawn; no stage is left")
    if data["round"] != stage:
        raise RuleViolation(TABLES, f"the next stage to draw is {stage}, not {data['round']}")
    field_ = stage_field(g, stage)
    if stage == 1:
        _must_seat_in_fours(len(field_), g.advance)
    seated = [p for table in data["tables"] for p in table["players"]]
    if sorted(seated) != sorted(field_):
        missing = sorted(set(field_) - set(seated))
        extra = sorted(set(seated) - set(field_))
        twice = sorted({p for p in seated if seated.count(p) > 1})
        what = "; ".join(part for part in (
            f"not seated: {', '.join(missing)}" if missing else "",
            f"not in this stage: {', '.join(extra)}" if extra else "",
            f"seated twice: {', '.join(twice)}" if twice else "") if part)
        raise RuleViolation(TABLES, f"the draw of stage {stage} seats each of its "
                                    f"{len(field_)} players once ({what})")
    used = set(g.tables)
    ids = [table["match_id"] for table in data["tables"]]
    clash = sorted({i for i in ids if i in used or ids.count(i) > 1})
    if clash:
        raise RuleViolation(TABLES, f"table id(s) {', '.join(clash)} are already used")


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


# --- ties (LotsDrawn, purpose standingsTie) ---------------------------------------------------

def check_tie_lots(g: Groups, data: Mapping) -> None:
    """T-7.2 / T-8.3: lots between players of a completed stage with equal coins — at one
    table when the stage qualifies players for the next, across the stage when it is the
    final ranking — none of them already drawn; the winner is one of them."""
    stage = data["round"]
    if not 1 <= stage <= len(g.stages):
        raise RuleViolation(RANKING, f"stage {stage} has not been drawn")
    if not stage_complete(g, stage):
        raise RuleViolation(RANKING, f"stage {stage} is still being played: its ties are "
                                     f"known at its end")
    candidates = list(data["candidates"])
    if data["winner"] not in candidates or len(set(candidates)) != len(candidates):
        raise RuleViolation(RANKING, "the lots are drawn among different players and the "
                                     "winner is one of them")
    coins = {}
    for player in candidates:
        table = g.table_of(stage, player)
        if table is None:
            raise RuleViolation(RANKING, f"{player} did not play in stage {stage}")
        coins[player] = _standing(g, table, player)
    if len(set(coins.values())) != 1:
        shown = ", ".join(f"{p} {c}" for p, (_, c) in coins.items())
        where = "" if is_final_stage(g, stage) else " at one table"
        raise RuleViolation(RANKING, f"lots only separate players with equal coins{where}: "
                                     f"{shown}")
    drawn = set(g.lots.get(stage, ()))
    if drawn & set(candidates):
        raise RuleViolation(RANKING, f"{', '.join(sorted(drawn & set(candidates)))} "
                                     f"already won a draw of these lots")
    # Lots are drawn among everyone at that place: leaving one out would rank him by omission.
    tied = _tied_with(g, stage, next(iter(coins.values()))) - drawn
    if tied != set(candidates):
        raise RuleViolation(RANKING, f"lots are drawn among all the players tied at that "
                                     f"place: {', '.join(sorted(tied))}, not "
                                     f"{', '.join(candidates)}")


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


def standings(g: Groups) -> tuple[list[Row], bool]:
    """T-8.3 / T-7.4 / T-7.5: every player once, best first, and whether the ranking is final.

    The players of the last stage drawn come first, by coins; then those who went out earlier,
    later stages first, then by their place at their table, then by coins. Equal standing
    shares a place (1, 2, 2, 4) unless lots separated it. Final once the last stage is the final
    and complete and no tie touches a prize place."""
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
        rows.append(Row(0, player, coins, stage, table.match_id, place, out_in, False))
    return rows


def _places(rows: list[Row], g: Groups) -> list[Row]:
    """Order and number the rows; the last stage by coins (its lots), earlier stages by table
    place then coins (their lots)."""
    last = len(g.stages)

    def key(row: Row) -> tuple:
        lots = g.lots.get(row.stage, ())
        drawn = lots.index(row.player) if row.player in lots else len(lots)
        by_table = 0 if row.stage == last and is_final_stage(g, last) else row.table_place
        return (-row.stage, by_table, -row.coins, drawn)

    ordered = sorted(rows, key=key)
    keys = [key(r) for r in ordered]
    return [replace(r, place=keys.index(k) + 1, tied=keys.count(k) > 1)
            for r, k in zip(ordered, keys, strict=True)]


def champion(g: Groups) -> str | None:
    rows, final = standings(g)
    return rows[0].player if final and rows and rows[0].place == 1 and not rows[0].tied else None
