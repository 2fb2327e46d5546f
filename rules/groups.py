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

The Sichuan event (seed 003, T-7; game MJS) is the same structure with the seed's choices as
defaults — the top two of each group advance (16 → 8 → 4), every stage starts at 0, prizes to
12th (T-7.5) — and ties broken by recorded dice instead of lots (``TieDiceRolled``: the tied
players roll, the higher totals go first, equal totals roll again; T-7.2, T-7.5). Its final
orders players tied on score by their results in the extra hands the final table plays (T-7.4,
``TableResult.tiebreaks``).

Everything here is pure: the draws, the lots and the dice are recorded facts, a table's result
comes from its match stream (folded by the projections).
"""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType

from .mahjong.mjo import Standing, rank_by_coins
from .multisets import roll_call
from .setting_values import check_values
from .violations import RuleViolation

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
            how = "dice decide (TieDiceRolled)" if g.by_dice else \
                "lots decide (LotsDrawn, purpose standingsTie)"
            raise RuleViolation(ADVANCE, f"{', '.join(tied)} tie at table {table.match_id} for "
                                         f"the last of its {g.advance} qualifying place(s): "
                                         f"{how}")
        out += through
    return out


# --- ties by dice (the Sichuan event, TieDiceRolled) -------------------------------------------

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
        raise RuleViolation(rule, f"stage {stage} has not been drawn")
    if not stage_complete(g, stage):
        raise RuleViolation(rule, f"stage {stage} is still being played: its ties are known "
                                  f"at its end")


def check_tie_dice(g: Groups, data: Mapping) -> None:
    """T-7.2 / T-7.5: a round of dice among players of a completed stage still tied — at a
    table across its last qualifying place, or at a prize place of the ranking — all of them
    and only them."""
    stage = data["round"]
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
    ties = "; ".join(", ".join(part) for _, part in open_) or "none"
    raise RuleViolation(rule, f"dice are rolled by all the players still tied at a qualifying "
                              f"or prize place, and only them: {', '.join(sorted(rolled))} are "
                              f"not such a tie (ties to roll: {ties})")


def record_tie_dice(g: Groups, data: Mapping) -> Groups:
    stage = data["round"]
    rolls = MappingProxyType({p: tuple(d) for p, d in data["rolls"].items()})
    return replace(g, dice={**g.dice, stage: g.dice.get(stage, ()) + (rolls,)})


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
    what = roll_call(seated, field_, {"missing": "not seated", "extra": "not in this stage",
                                      "twice": "seated twice"})
    if what:
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
