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

Modules: :mod:`.event` the state, the settings and the seed's choices by game; :mod:`.stages`
the stages, a player's coins, a table's ranking and the qualifiers (T-7.2), with the dice at a
qualifying cut; :mod:`.draw` the draw of a stage's tables (T-8.1); :mod:`.ranking` the ranking,
the prizes and the champion (T-8.3, T-7.4, T-7.5); :mod:`.ties` the dice and the lots that
separate equal players (T-7.2, T-7.5, T-8.3).
"""
# the public names of groups of four, as ``from rules import groups`` reads them (``groups.start``)
from .draw import (  # noqa: F401
    check_table_draw,
    propose_table_draw,
    record_table_draw,
)
from .event import (  # noqa: F401
    ADVANCE,
    CHOICES,
    DICE_TIES,
    GAME_DEFAULTS,
    PLACES,
    PRIZES,
    RANKING,
    SETTINGS,
    TABLES,
    TABLE_PLACE_FIRST,
    TABLE_SIZE,
    DrawnTable,
    Groups,
    TableResult,
    check_settings,
    start,
)
from .ranking import (  # noqa: F401
    Row,
    champion,
    prize,
    standings,
)
from .stages import (  # noqa: F401
    dice_parts,
    is_final_stage,
    next_stage,
    player_coins,
    qualifiers,
    stage_complete,
    stage_field,
    stage_sizes,
    table_ranking,
)
from .ties import (  # noqa: F401
    check_tie_dice,
    check_tie_lots,
    record_tie_dice,
    record_tie_lots,
)
