"""The team event's rounds: which are paired and played, the next to pair, the teams still in
play, who has met whom and had a bye, the order the pairing ranks them in (T-6.4), and whether
the event has ended (T-6.11)."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..messages import Message
from .event import TeamEvent, _memoised
from .forfeits import excluded
from .scoring import totals


# --- rounds ------------------------------------------------------------------------------------

def round_complete(ev: TeamEvent, number: int) -> bool:
    return all(t in ev.results for m in ev.rounds[number - 1].meetings for t in m.tables)


def next_round(ev: TeamEvent) -> int | None:
    """The round to pair next; None once the last round (setting ``rounds``) is paired or the
    event has ended (T-6.11)."""
    number = len(ev.rounds) + 1
    return number if number <= ev.settings.rounds and ended(ev) is None else None


def played(ev: TeamEvent) -> bool:
    """Every round paired so far has been played (and there is one)."""
    return bool(ev.rounds) and all(round_complete(ev, r.number) for r in ev.rounds)


def complete(ev: TeamEvent) -> bool:
    """Every round of the event has been paired and played."""
    return len(ev.rounds) == ev.settings.rounds and played(ev)


@dataclass(frozen=True)
class Ended:
    """How the event ended (T-6.11): ``rounds`` — its scheduled rounds played; ``teams`` —
    fewer than two teams left in the pairing; ``closed`` — closed by the chief referee.
    ``why``: the rules' sentence (said in the reader's language), or the chief referee's own
    words; ``reason`` is it in English."""

    how: str
    after_round: int
    why: Message | str

    @property
    def reason(self) -> str:
        return str(self.why)


@_memoised("ended")
def ended(ev: TeamEvent) -> Ended | None:
    """T-6.11: the event ends after its scheduled rounds, or earlier when fewer than two teams
    remain in the pairing (once a round has been paired and every round paired is played), or
    when the chief referee closes it (``TeamEventClosed``). None while it goes on."""
    if ev.closed is not None:
        return Ended("closed", ev.closed.after_round, ev.closed.reason)
    if not played(ev):
        return None
    if len(ev.rounds) == ev.settings.rounds:
        return Ended("rounds", len(ev.rounds), Message("all {rounds} rounds played",
                                                       rounds=ev.settings.rounds))
    left = in_play(ev)
    if len(left) < 2:
        return Ended("teams", len(ev.rounds), Message("{count} team(s) left in the pairing "
                                                      "after round {round}; a round needs two",
                                                      count=len(left), round=len(ev.rounds)))
    return None


@_memoised("in play")
def _in_play(ev: TeamEvent) -> tuple[str, ...]:
    gone = excluded(ev)
    return tuple(t for t in ev.entries if t not in ev.withdrawn and t not in gone)


def in_play(ev: TeamEvent) -> list[str]:
    """The teams the next round pairs, in order of registration: not withdrawn, not excluded
    (T-6.7, SJ3-11.9)."""
    return list(_in_play(ev))


def met(ev: TeamEvent) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {t: set() for t in ev.entries}
    for r in ev.rounds:
        for m in r.meetings:
            a, b = m.teams
            out[a].add(b)
            out[b].add(a)
    return out


def had_bye(ev: TeamEvent) -> set[str]:
    return {r.bye for r in ev.rounds if r.bye}


def pairing_order(ev: TeamEvent, teams: Sequence[str]) -> list[str]:
    """T-6.4: the teams best first by T-6.8 (score, tie-breaks 1 and 2); round 1's drawn order
    separates equal teams — the pairing needs no lots of its own."""
    lots = ev.lot_order
    return sorted(teams, key=lambda t: (tuple(-v for v in totals(ev, t).key()), lots.index(t)))
