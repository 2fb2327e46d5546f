"""Knockout by drawing lots (shared/rules/tournaments.md, T-2; T-5.5 card draw; T-9.2 result-only events).

A :class:`Bracket` is a frozen value folded from the facts of the log, in this order:

1. :func:`start` — the entrants (registered, not withdrawn) and the settings ``byePolicy`` (T-2.2)
   and ``thirdPlace`` (T-2.3);
2. :func:`record_draw` — one ``LotsDrawn{purpose:"pairing"}`` per round (T-1.4, T-2.1)::

       {"purpose": "pairing", "round": 1,
        "matches": [{"match_id": "R1-1", "teams": ["T1", "T2"], "kind": "main"}, ...],
        "byes": ["T3", ...],
        "cards": {"T1": "2H", "T2": "2D", "T3": "3S"}}      # optional, T-5.5 only

   ``purpose`` and ``kind`` may be left out (``"pairing"``, ``"main"``); ``byes`` defaults to none.
3. :func:`record_result` — the winner of a match (the game's ``MatchCompleted``, or ``ResultRecorded``
   for result-only disciplines, T-9.3);
4. :func:`withdraw` — ``TeamWithdrawn`` / a forfeit (T-1.3).

Only :func:`propose_draw` and :func:`propose_card_draw` use randomness, through the ``rng`` passed in;
what they propose is recorded as ``LotsDrawn`` and replay folds the recorded draw, never re-draws.

Decisions (interpretations of T-2 made here):

- **Rounds.** Every round draws the whole field: the winners of the previous round plus its byes.
  The round whose field is two entrants is the **final**; no round follows it.
- **Byes (T-2.2).** ``firstRoundPowerOfTwo``: ``2^ceil(log2 n) - n`` byes, which is the round-1 rule
  and 0 in every later round — unless a withdrawal has broken the power of two, which the same
  formula then restores. ``oddGetsBye``: one bye whenever the field is odd.
- **Third place (T-2.3).** The semi-final round is the round before the final; its main-match losers
  are the semi-final losers. Under ``playoff`` the final round's draw holds exactly two matches: the
  final (main, the two entrants in play) and ``kind: "third_place"`` between the two semi-final
  losers. It has that second match only when the semi-final round had exactly two main matches and
  both losers are still in the event (a loser who withdraws before that draw gives up the match;
  under ``oddGetsBye`` a semi-final round of three has one loser, who is third alone).
  Under ``shared`` there is never a third-place match and the semi-final losers share 3rd.
- **Withdrawal.** A team with an undecided match forfeits it (its opponent wins, the match records
  ``forfeit``). A team still in the field but not yet drawn leaves it and is out in the round it
  would have been drawn in. A semi-final loser awaiting the third-place draw gives it up. A team
  with nothing left to play (already out, or the decided champion) changes nothing.
- **Check-in (T-2.6, interpretation; the seeds are silent).** Setting ``checkIn``: ``off``
  (default: every registered team is drawn, as the seeds do), ``leaveOut`` (round 1 is drawn
  among the teams checked in, ``TeamCheckedIn``; the others are not entrants of the bracket,
  as a team withdrawn before the draw is not) or ``walkover`` (round 1 is drawn among every
  team; then each team not checked in is out by walkover: its opponent wins the match, which
  records the absent team as ``forfeit``; an absent team on a bye, or whose opponent is also
  absent, leaves the field as a team withdrawn after the draw does — out in round 2, whose
  byes restore the power of two). The server's lots (:func:`propose_draw`) give the byes to
  teams present and pair absent teams with present ones while there are any.
- **Seeding (T-2.7, interpretation; default off — the seeds draw by lots).** Setting
  ``seeding: {"seeds": [best, second, …]}``. Each round is still drawn by lots over the whole
  field (T-2.1), with one constraint: in a round of k slots (its main matches and its byes),
  the k best seeds still in play are drawn into different slots — no two of them meet. So
  seeds 1 and 2 can meet only in the final, seeds 1–4 not before the semi-finals (the
  quarters of a bracket), 1–8 not before the quarter-finals. Byes stay lots (T-2.2); a seed
  may draw one. A seed that is not an entrant of the draw (withdrawn, not checked in) is
  passed over and the seeds after it move up.
- **Ranking (T-2.4, T-10.1).** Places are shared on equal standing and the next place skips
  (1, 2, 3, 3, 5, ...). Standing = still in (best), then the later the round a team went out in,
  then the third-place winner before the rest of its round, then — among teams out in the same
  round — a team that withdrew after those that did not. Before the tournament is decided the
  list is provisional: the teams still in share place 1.
- **Places still open (T-10.1).** A provisional place is not a place won: :func:`place_ranges`
  gives each team the band of places it may still end in (the teams still in of eight, before
  any result: 1–8; the round-1 losers: 5–8; the semi-final losers until the third-place match:
  3–4). A band of more than one place that nothing can narrow any more (the round-1 losers of a
  decided knockout) is a place shared: T-2.4's place is its first.
"""
# The rooms: bracket.py (the value, derived state, outcome), draws.py (a round drawn or
# proposed), results.py (results, walkovers, withdrawals).
from .bracket import (  # noqa: F401  (the package's API)
    BYE_POLICIES,
    CARD_RANKS,
    CARD_SUITS,
    CHECK_IN,
    CHECK_IN_RULE,
    JOKERS,
    KINDS,
    MAIN,
    MAX_SEEDS,
    SEEDING_RULE,
    THIRD_PLACE,
    THIRD_PLACE_MATCH,
    Bracket,
    Match,
    Round,
    champion,
    check_seeding,
    expected_byes,
    in_play,
    is_decided,
    next_round,
    place_ranges,
    protected_seeds,
    ranking,
    start,
    unknown_seeds,
)
from .draws import (  # noqa: F401
    card_rank,
    check_draw,
    is_card,
    propose_card_draw,
    propose_draw,
    record_draw,
)
from .results import record_result, walk_over, withdraw  # noqa: F401
