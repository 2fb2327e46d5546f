"""The use cases of a deployment, one method each, on the log and nothing else: the HTTP routes,
the CLI, the timer and the tests call the same methods, and each adapter says their refusals in
its own way (service/problems.py: as problems).

A command makes its events from the log as it stands (the tournament, the draw, the round) and
appends them through the one append path (service/appending.py), where the rules judge them
again inside the store's transaction: what a method checks before appending is what needs the
command's own arguments (the round asked for must be the next one), never a rule the log
judges. A method raises only domain errors — a :class:`~rules.RuleViolation` (a
:class:`~.errors.Refusal` when it is about one argument), the append path's
(``TournamentNotFound``, ``EventRuleViolation``, the store's conflicts), ``EntrantsRefused``,
and those of service/application/errors.py.
"""
from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone

from events.catalogue import Catalogue, match_stream, tournament_stream
from events.envelope import NO_STREAM, NewEvent, Record
from events.store import AppendResult, EventStore, WrongExpectedVersion, plan_append
from projections import brackets, groups, team_event
from projections.deadlines import PendingDeadline
from projections.rulings import OverlayLog
from projections.streams import StreamCache
from rules import RuleViolation, swiss
from rules.match_clock import timestamp
from rules.messages import Message
from rules.tournament import Tournament

from .. import entrants
from ..appending import EventRuleViolation, TournamentNotFound, append_events, decide
from . import draws
from .errors import MatchExists, Refusal, TournamentExists
from .starting import match_started

Permit = Callable[[NewEvent], None]  # the adapter's check of who may post an event: raises


def _utc_now() -> datetime:
    return datetime.now(timezone.utc)


@dataclass(frozen=True)
class RulingPreview:
    """A ruling judged and laid over the log, appending nothing: its record as it would be
    stored, and the log with it (``after``) beside the log without it (``before``)."""
    record: Record
    before: object
    after: OverlayLog


class Tournaments:
    """The application: the log (``store``), what its events may be (``catalogue``), the folds
    kept in memory (``cache``), the present (``clock``) and the lots (``rng``)."""

    def __init__(self, store: EventStore, catalogue: Catalogue,
                 cache: StreamCache | None = None,
                 clock: Callable[[], datetime] | None = None,
                 rng: random.Random | None = None):
        self.store, self.catalogue = store, catalogue
        self.cache = cache if cache is not None else StreamCache()
        self.clock = clock or _utc_now
        # lots are drawn by the operating system's randomness: nobody can foresee them
        self.rng = rng or random.SystemRandom()

    # --- the log ------------------------------------------------------------------------------
    def post_events(self, tid: str, events: Sequence[NewEvent]) -> AppendResult:
        """Append ``events`` (already of their schemas) atomically, judged by the rules."""
        return append_events(self.store, self.catalogue, tid, events, self.cache)

    def create_tournament(self, data: dict, meta: dict | None = None) -> AppendResult:
        """``TournamentCreated`` opening the tournament's stream; :class:`TournamentExists` if
        it is open already."""
        tid, event_type = data["tournament_id"], self.catalogue.get("TournamentCreated")
        event = NewEvent(type=event_type.name, stream=tournament_stream(tid), data=data,
                         expected_version=NO_STREAM, meta=meta or {},
                         schema_version=event_type.schema_version)
        try:
            return append_events(self.store, self.catalogue, tid, [event], self.cache,
                                 creating=True)
        except WrongExpectedVersion:  # its stream is not new
            raise TournamentExists(tid) from None
        except EventRuleViolation as error:
            error.field = _setting_at_fault(error.violation, data.get("settings") or {})
            raise

    def import_entrants(self, tid: str, raw: bytes, meta: dict | None = None
                        ) -> tuple[list[entrants.Entry], AppendResult]:
        """The entrants of a CSV file (service/entrants.py) as one batch of
        ``TeamRegistered``, or none: ``EntrantsRefused`` with every bad row."""
        return entrants.register(self.store, self.catalogue, tid, raw, meta or {}, self.cache)

    # --- draws and pairings -------------------------------------------------------------------
    def draw(self, tid: str, round: int | None = None, method: str | None = None,
             meta: dict | None = None) -> AppendResult:
        """The next round drawn by the server, as the tournament's format draws it: a
        knockout round by lots or cards (T-2.1, T-5.5), a groups stage's tables (T-8.1), a
        team event's next round (T-6.4, as :meth:`pair_round` by the rules)."""
        t = self._tournament(tid)
        if t.format == swiss.FORMAT:
            if method not in (None, "lots"):
                raise Refusal("T-6.4", Message("the team event's round 1 is drawn by lots, "
                                               "later rounds by scores"), "method")
            return self.pair_round(tid, draws.Pairing(round=round), meta)
        draw = draws.stage_tables if t.format == "groups" else draws.knockout_round
        data = draw(self.store, self.catalogue, self.cache, tid, self.rng, round, method)
        return self._append(tid, "LotsDrawn", tournament_stream(tid), data, meta)

    def pair_round(self, tid: str, how: draws.Pairing | None = None,
                   meta: dict | None = None) -> AppendResult:
        """A team event's next round (T-6.4): by the rules (round 1 ``LotsDrawn``, later
        rounds ``RoundPaired``), the referee's by hand (``RoundPaired{manual: true}``, stored
        with its warnings), or the proposal with the fewest rematches confirmed."""
        if self._tournament(tid).format != swiss.FORMAT:
            raise RuleViolation("T-6.4", Message("only a team event ({format}) is paired by "
                                                 "scores", format=swiss.FORMAT))
        event_type, data = draws.team_round(self.store, self.catalogue, self.cache, tid,
                                            self.rng, how or draws.Pairing())
        return self._append(tid, event_type, tournament_stream(tid),
                            self.catalogue.get(event_type).load(data), meta)

    def draw_standings_lots(self, tid: str, meta: dict | None = None) -> list[Record]:
        """T-6.8: lots for every tie left in a team event's final standings, one
        ``LotsDrawn{purpose: "standingsTie"}`` appended after the other (each draw's check
        needs the draws before it in the log: a batch is judged on the log before it)."""
        if self._tournament(tid).format != swiss.FORMAT:
            raise RuleViolation("T-6.8", Message("lots between equal teams are drawn here for "
                                                 "a team event ({format})",
                                                 format=swiss.FORMAT))
        found = team_event.propose_tie_lots(self.store, self.catalogue, tid, self.rng,
                                            self.cache)
        if not found:
            raise RuleViolation("T-6.8", Message("no tie is left in the standings"))
        return [record for data in found for record in
                self._append(tid, "LotsDrawn", tournament_stream(tid), data, meta).records]

    # --- matches ------------------------------------------------------------------------------
    def start_match(self, tid: str, match_id: str, teams: dict | None = None,
                    settings: dict | None = None, meta: dict | None = None) -> AppendResult:
        """``MatchStarted`` made from the draw (service/application/starting.py);
        :class:`MatchExists` if the match has started already."""
        data = match_started(self.store, self.catalogue, self.cache, self._tournament(tid),
                             match_id, teams, settings)
        event = NewEvent(type="MatchStarted", stream=match_stream(tid, match_id), data=data,
                         expected_version=NO_STREAM, meta=meta or {})
        try:
            return self.post_events(tid, [event])
        except WrongExpectedVersion:
            raise MatchExists(match_id) from None

    def call_round_time(self, tid: str, number: int, meta: dict | None = None,
                        permit: Permit | None = None) -> AppendResult:
        """SJ3-12.1, T-6.3: the chief referee's alert for round ``number`` — one atomic batch
        of ``TimeLimitReached``, one for every table of the round still being played."""
        calls = team_event.round_time_events(self.store, self.catalogue, tid, number,
                                             self.cache)
        events = [NewEvent(type="TimeLimitReached", stream=match_stream(tid, table),
                           data=data, meta=meta or {}) for table, data in calls]
        return self._post_permitted(tid, events, permit)

    def record_lateness(self, tid: str, number: int, team: str, pair: str, minutes: int,
                        dealer: int | None = None, meta: dict | None = None,
                        permit: Permit | None = None) -> AppendResult:
        """T-6.6: the started minutes ``team``'s pair ``pair`` was late in round ``number``,
        as ``LatenessRecorded`` in that pair's table (its side there)."""
        table, side = team_event.lateness_table(self.store, self.catalogue, tid, number, team,
                                                pair, self.cache)
        data = {"side": side, "minutes": minutes}
        if dealer is not None:
            data["dealer"] = dealer
        event = NewEvent(type="LatenessRecorded", stream=match_stream(tid, table), data=data,
                         meta=meta or {})
        return self._post_permitted(tid, [event], permit)

    # --- rulings and the timer ----------------------------------------------------------------
    def preview_ruling(self, tid: str, event: NewEvent) -> RulingPreview:
        """A proposed ``RulingRecorded`` judged exactly as :meth:`post_events` would judge it
        (the same refusals), at the present of the clock, and laid over the log: nothing is
        appended, nothing of it enters the cache."""
        # the application's clock, never the store's: a simulated store clock steps on every
        # call, so asking it would move the time of the next event recorded
        recorded_at = timestamp(self.clock())
        planned = plan_append(tid, [event], OverlayLog(self.store), recorded_at,
                              lambda log, at: decide(log, self.catalogue, tid, [event], at))
        return RulingPreview(planned.records[0], self.store,
                             OverlayLog(self.store, planned.records))

    def fire_deadline(self, deadline: PendingDeadline) -> AppendResult:
        """The event of a deadline that passed (a window closed, a time limit reached),
        judged by the rules as a referee's would be; a retry of one already fired appends
        nothing (its id is the deadline's)."""
        return self.post_events(deadline.tournament_id, [deadline.event()])

    # --- reads the use cases share --------------------------------------------------------------
    def standings(self, tid: str, at: int | None = None) -> dict | None:
        """The standings as the format ranks: groups by coins (T-8.3), a team event by score
        and tie-breaks (T-6.8), a knockout by the places (T-2.4); None if no tournament
        ``tid`` at ``at``."""
        t = brackets.tournament_at(self.store, self.catalogue, tid, cache=self.cache)
        view = {"groups": groups.standings_view, swiss.FORMAT: team_event.standings_view}.get(
            t.format if t is not None else None, brackets.standings_view)  # a format is for good
        return view(self.store, self.catalogue, tid, at, self.cache)

    def _tournament(self, tid: str) -> Tournament:
        t = brackets.tournament_at(self.store, self.catalogue, tid, cache=self.cache)
        if t is None:
            raise TournamentNotFound(tid)
        return t

    def _append(self, tid: str, event_type: str, stream: str, data: dict,
                meta: dict | None) -> AppendResult:
        event = NewEvent(type=event_type, stream=stream, data=data, meta=meta or {})
        return self.post_events(tid, [event])

    def _post_permitted(self, tid: str, events: list[NewEvent],
                        permit: Permit | None) -> AppendResult:
        for event in events:
            if permit is not None:
                permit(event)
        return self.post_events(tid, events)


def _setting_at_fault(violation: RuleViolation, settings: dict) -> str | None:
    """The field of a refused setting (``/settings/match/rounds``), so a form shows the refusal
    beside its box; None if no setting is at fault. Every settings check names the key at
    fault first in its sentence ("setting rounds must be…", "alertAtMinute is not a …
    setting; the settings are …"): the body's key named earliest is the one."""
    said = str(violation.text)  # the English sentence, its blanks filled
    match = settings.get("match") if isinstance(settings.get("match"), dict) else {}
    fields = [("/settings/match/" + key, key) for key in match]
    fields += [("/settings/" + key, key) for key in settings if key != "match"]
    named = [(found.start(), field) for field, key in fields
             if (found := re.search(rf"(?<![\w.]){re.escape(str(key))}(?![\w])", said))]
    return min(named)[1] if named else None
