"""The team event of seed 004 (积分编排, tournaments.md T-6): teams of a leader and two pairs
play three-deck Shengji (SJ3) round after round, each pair against a pair of the opposing team.

A :class:`TeamEvent` is a frozen value folded from the facts of the log (the projection
``projections/team_event.py`` feeds it, in log order):

1. :func:`start` — the entrants (registered, not withdrawn before the first draw) and the
   settings ``rounds``, ``tieBreak2``, ``forfeitScope``, ``pairingMethod`` (and ``match``, the
   tables');
2. :func:`record_pairing` — round 1 drawn by lots (``LotsDrawn{purpose: "pairing"}``, T-6.4),
   each later round paired by scores or by the referee (``RoundPaired``);
3. :func:`record_result` — a table's result, derived by its match stream (never posted);
4. :func:`withdraw` — ``TeamWithdrawn``; :func:`record_tie_lots` — ``standingsTie`` lots;
5. :func:`record_close` — ``TeamEventClosed``, the chief referee's closing (T-6.11).

A round is a set of *meetings*, team against team; a meeting ``R2-3`` is played at two tables,
the matches ``R2-3a`` (pair a against pair a) and ``R2-3b`` (T-6.4: teams name their pairs at
entry — the first two players are pair a, the last two pair b). Everything else — match points,
level differences, forfeits, exclusions, team scores, tie-breaks, the ranking, the next pairing
— is derived here, so a correction recorded later changes everything downstream.

Decisions (the seed's words over the spec's interpretations where they differ; the README and
the notes file list them):

- **Points (T-6.5).** Per table: win 2, draw (equal levels) 1, loss 0; the level difference is
  the pair's final level minus its opponents'. A forfeit gives the opponents 2 points and levels
  4 : 2 (+2 / −2), the forfeiting pair 0. A bye counts as two forfeit wins (2 points and +2 for
  each pair of the team).
- **Repeated forfeits (T-6.7,** 「如连续或间接弃权的队或对子不再安排比赛，并不计算全队团体成绩」**).** On a
  pair's second forfeit (setting ``forfeitScope: pair``, the default) or the team's second
  (``team``: a forfeit in a second round, whichever pair; both pairs forfeiting one round is
  one forfeit — 「连续或间接」 asks for a repeated one) the team is not paired any more and leaves
  the standings; its opponents keep the points they earned against it. A forfeit is a derived
  fact (a table's result), so the exclusion is derived too.
- **Disqualification (SJ3-11.9,** 「重则判取消参赛资格」**).** A pair disqualified at its table (a
  ruling's effect) forfeits that table; its team, which plays only as two pairs, is not paired
  from the next round and leaves the standings like an excluded team.
- **Settings.** ``rounds``, ``tieBreak2``, ``forfeitScope``, ``pairingMethod`` (``nearest``,
  the default, or ``topDown``: :mod:`rules.swiss_pairing`) and ``match`` (the tables' SJ3
  settings, whose ``matchPoints`` must stay 2 / 1 / 0, T-6.5); any other key is refused.
- **Withdrawal (T-6.7 as amended on 2026-12-01).** A team that withdraws (``TeamWithdrawn``) is
  not paired again; a table of it that has no result yet is forfeited by it (as in the
  knockout), and so is every later round it misses, so a second forfeit excludes it as any.
- **The end (T-6.11).** After the scheduled rounds; earlier once fewer than two teams are left
  in the pairing, or when the chief referee closes it (only when the next round cannot be
  paired by the rules). Once it has ended lots may separate the remaining ties.
- **Ranking (T-6.8).** Team score, then tie-break 1 (the better of the two pair totals), then
  tie-break 2 (``bestSingleRoundDiff``: the best level difference of either pair in one round;
  or ``sumOfDiffs``), then recorded lots; until lots separate them, equal teams share a place.

Modules: :mod:`.event` the state, the settings and entries, the start and a table's result;
:mod:`.scoring` a pair's lines (T-6.5) and a team's totals (T-6.8); :mod:`.forfeits` forfeits,
withdrawals and exclusion (T-6.7, SJ3-11.9); :mod:`.rounds` the rounds paired and played, the
teams in play and the end of the event (T-6.11); :mod:`.pairings` pairing a round and recording
it (T-6.4; the pairing algorithms are :mod:`rules.swiss_pairing`); :mod:`.closing` the chief
referee's closing (T-6.11); :mod:`.standings` the ranking and the lots for its ties (T-6.8).
"""
# the team event's public names, as ``from rules import swiss`` reads them (``swiss.propose``, …)
from .closing import (  # noqa: F401
    check_close,
    record_close,
)
from .event import (  # noqa: F401
    CHOICES,
    CLOSING,
    DRAW,
    ENTRANTS,
    FORFEITS,
    FORFEIT_LEVELS,
    FORMAT,
    GAME,
    LOSS,
    MATCH_ID_LENGTH,
    MATCH_POINTS,
    PAIRING,
    PAIRS,
    PLAYERS,
    POINTS,
    ROUNDS,
    SETTINGS,
    SETTING_KEYS,
    STANDINGS,
    WHOLE_NUMBERS,
    WIN,
    Closed,
    Entry,
    Meeting,
    PairResult,
    Round,
    Settings,
    TeamEvent,
    check_entry,
    check_match_points,
    check_settings,
    entry,
    parse_settings,
    record_result,
    start,
)
from .forfeits import (  # noqa: F401
    Exclusion,
    disqualification,
    excluded,
    excluded_after,
    exclusion,
    forfeits,
    second_forfeit,
    withdraw,
)
from .pairings import (  # noqa: F401
    Pairing,
    by_scores,
    check_pairing,
    manual_warnings,
    proposal,
    propose,
    record_pairing,
)
from .rounds import (  # noqa: F401
    Ended,
    complete,
    ended,
    had_bye,
    in_play,
    met,
    next_round,
    pairing_order,
    played,
    round_complete,
)
from .scoring import (  # noqa: F401
    Line,
    Totals,
    bye_line,
    line_of,
    missed_line,
    team_lines,
    totals,
)
from .standings import (  # noqa: F401
    Row,
    check_tie_lots,
    final,
    propose_tie_lots,
    ranked_teams,
    record_tie_lots,
    standings,
    tie_groups,
    tied_with,
)
