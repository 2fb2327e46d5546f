"""What a simulation reports: its outcome (:class:`Outcome` for a knockout, :class:`EventOutcome`
for a groups or team event), what it tells whoever watches it as it runs (:class:`Progress`),
the lines every report shares (:func:`cost`, :func:`events_line`), and the knockout's report
(:func:`report`; the groups and team events write theirs beside their runs).

Every report is said by ``say`` (a Message or a sentence of the catalogue -> the reader's
words; ``str``, the default, gives the English): ``paiju simulate`` passes the language of its
reader (service/cli/simulate.py). Ids, event types, codes and figures stay as they are."""
from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field

from rules.messages import Message

from .api import Api
from .games import GAMES, GameSetup


@dataclass
class EventOutcome:
    """What every simulation of a groups or team event reports (the knockout's :class:`Outcome`
    counts matches instead): its standings, the tables and hands played, and what the run cost;
    each event's outcome adds what its report shows."""
    tournament_id: str
    standings: dict = field(default_factory=dict)
    event_counts: Counter = field(default_factory=Counter)
    tables: int = 0
    hands: int = 0
    requests: int = 0
    seconds: float = 0.0


@dataclass
class Outcome:
    tournament_id: str
    champion: str | None
    bracket: dict
    standings: dict
    event_counts: Counter = field(default_factory=Counter)
    matches: int = 0
    hands: int = 0
    requests: int = 0
    seconds: float = 0.0
    game: str = "sj2"
    decided_by: Counter = field(default_factory=Counter)  # match reasons, where the game has them
    tributes: Counter = field(default_factory=Counter)    # hands by tribute case (Guandan)


class Progress:
    """What a run tells whoever watches it — ``paiju simulate``'s progress bar: the tournament
    it made (every simulation's ``created(tournament, unit, planned)``: its unit, ``"matches"``
    or ``"tables"``, and how many it plans, None if not known), then each match or table as it
    ends with the hands it played. It may be told from several tables' threads at once. This
    one does nothing."""

    def created(self, tournament_id: str, unit: str, planned: int | None) -> None:
        pass

    def played(self, hands: int) -> None:
        pass


QUIET = Progress()


def finished(outcome: EventOutcome | Outcome, api: Api, started: float):
    """The outcome of a simulation at its end: the events of its log counted by type, the
    requests it made and the seconds it took since ``started`` (``time.perf_counter()``)."""
    outcome.event_counts = count_events(api, outcome.tournament_id)
    outcome.requests = api.requests
    outcome.seconds = time.perf_counter() - started
    return outcome


def count_events(api: Api, tid: str) -> Counter:
    counts, after = Counter(), 0
    while True:
        page = api.call("GET", f"/v1/tournaments/{tid}/events?after={after}&limit=1000")
        counts.update(e["type"] for e in page["events"])
        if not page["next"]:
            return counts
        after = page["events"][-1]["position"]


def cost(outcome: EventOutcome | Outcome, say=str) -> str:
    """The end of a report's first line: the events logged, the requests, the time taken."""
    return say(Message("{events} events, {requests} requests in {seconds:.1f} s",
                       events=sum(outcome.event_counts.values()), requests=outcome.requests,
                       seconds=outcome.seconds))


def events_line(counts: Counter, say=str) -> str:
    """A report's last line: the events of the log by type."""
    return say(Message("events: {counts}", counts=", ".join(
        f"{t} {n}" for t, n in sorted(counts.items()))))


def report(outcome: Outcome, say=str) -> str:
    """What a knockout's simulation prints: the champion, the bracket round by round, the
    podium where the game has prizes, the events."""
    lines = [say(Message("tournament {tournament}: {matches} matches, {hands} hands, {cost}",
                         tournament=outcome.tournament_id, matches=outcome.matches,
                         hands=outcome.hands, cost=cost(outcome, say))),
             say(Message("champion: {team}", team=outcome.champion)), say("bracket:")]
    for rnd in outcome.bracket["rounds"]:
        if rnd["byes"]:
            title = Message("round {round} (byes: {teams})", round=rnd["round"],
                            teams=", ".join(rnd["byes"]))
        else:
            title = Message("round {round}", round=rnd["round"])
        lines.append("  " + say(title))
        for m in rnd["matches"]:
            teams = {"match_id": m["match_id"], "team": m["teams"][0], "other": m["teams"][1],
                     "winner": m["winner"]}
            if m["kind"] == "third_place":
                line = Message("{match_id} [3rd place]: {team} v {other} → {winner}", **teams)
            else:
                line = Message("{match_id}: {team} v {other} → {winner}", **teams)
            lines.append("    " + say(line))
    lines.append(say(Message("standings: {ranking}", ranking=", ".join(
        f"{r['place']}. {r['team']}" for r in outcome.standings["ranking"]))))
    if GAMES[outcome.game].prizes:
        lines += _podium(outcome, GAMES[outcome.game], say)
    lines.append(events_line(outcome.event_counts, say))
    return "\n".join(lines)


def _podium(outcome: Outcome, setup: GameSetup, say=str) -> list[str]:
    """The prize places (T-2.4; Guandan T-5.7) and how the matches were decided (Guandan:
    ``game`` through A, GD-6.3; ``time`` / ``overtime`` by level at a limit, ``extraHand``,
    GD-11.2): the codes of the reasons and tribute cases as the API writes them."""
    lines = [say("podium:")]
    for row in outcome.standings["ranking"]:
        if row["place"] in setup.prizes:
            lines.append(f"  {row['place']}. {row['team']} ({row['name']}) "
                         f"{setup.prizes[row['place']]}")
    if setup.decisions:
        lines.append(say(Message("matches decided: {reasons}", reasons=", ".join(
            f"{reason} {n}" for reason, n in sorted(outcome.decided_by.items())))))
    if outcome.tributes:
        lines.append(say(Message("hands by tribute: {cases}", cases=", ".join(
            f"{case} {n}" for case, n in sorted(outcome.tributes.items())))))
    return lines
