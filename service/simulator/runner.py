"""Runs a whole knockout through the HTTP API (:func:`simulate`): registers teams, draws each
round on the server, starts every match and plays it with the table bots of its game, until the
bracket is decided. It is also the simulators' front, which ``paiju simulate``, the tests and
bench/ import from; the other parts, by concern:

- ``api.py``: the HTTP client the bots read and post with (:class:`Api`, :class:`ApiError`);
- ``temporary_server.py``: a throw-away server in this process (:func:`temporary_server`) and
  the :class:`SimulatedClock` it may record on; ``server_process.py``, one in a process of its
  own;
- ``tables.py``: a table played by its bots (:func:`play_match`), several at once
  (:func:`play_tables`), and the waits for the timer (:func:`held_back`);
- ``games.py``: the games a knockout is played in (``GAMES``); ``mahjong.py``, ``sichuan.py``
  and ``swiss.py`` run the groups and team events;
- ``reports.py``: the outcomes, the progress a run tells, and the reports.

Against ``--url`` a simulation uses a running server; without it, a server of its own on a
temporary database, on a free local port, stopped at the end.

**The timer's events are the timer's.** A server runs its timer (``paiju serve`` but
``--no-timer``; :func:`temporary_server` as it is told): at each deadline it appends the window
closed or the limit passed (rules/*/deadlines.py). A bot whose next event is one of those
(``TIMER_EVENTS``) does not post it — it would race the timer, and lose with a 422 once the
timer's came first — but waits for the timer's, reading the table again (a conditional GET: a
304 costs little) until the table has moved on, bounded by ``WAIT_SECONDS``. A move the rules
make wait is held back the same way: SJ3's kitty is taken only once the dealer's 5-second pause
has ended (SJ3-3.6), which the timer's DeclarationWindowClosed ends. And a move refused because
the table moved on between the bot's read and its post (the timer was first) is decided again
on the new read. Against a server without a timer the bots post the timer's events themselves,
as a referee would. Every ``timer`` argument: True or False, or None (the default) — the
temporary server's own if ``url`` is one in this process (:func:`runs_timer`), else True.
"""
from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Mapping
from functools import partial

from rules.messages import N_

from .api import Api, ApiError
from .games import GAMES, GameSetup
from .reports import QUIET, EventOutcome, Outcome, Progress, cost, count_events, events_line
from .reports import finished, report
from .tables import (TIMER_EVENTS, WAIT_SECONDS, Action, Observer, Reason, Waiting, held_back,
                     play_match, play_tables, post_move, table_rng)
from .temporary_server import (RequestDrivenTimer, Served, SimulatedClock, runs_timer,
                               temporary_server)

__all__ = ["knockout_matches", "simulate", "Api", "ApiError", "GAMES", "GameSetup", "QUIET",
           "EventOutcome", "Outcome", "Progress", "cost", "count_events", "events_line",
           "finished", "report", "TIMER_EVENTS", "WAIT_SECONDS", "Action", "Observer", "Reason",
           "Waiting", "held_back", "play_match", "play_tables", "post_move", "table_rng",
           "RequestDrivenTimer", "Served", "SimulatedClock", "runs_timer", "temporary_server"]


def knockout_matches(teams: int, third_place: str = "playoff") -> int:
    """The matches of a knockout of ``teams``: each puts one team out (T-2.1), so one fewer
    than the teams, and the third-place playoff when there are semi-finals (T-2.3)."""
    return teams - 1 + (third_place == "playoff" and teams >= 4)


def simulate(url: str, teams: int = 8, seed: int = 1, match_settings: dict | None = None,
             tournament_settings: dict | None = None, observe: Observer | None = None,
             game: str = "sj2", bot_options: Mapping | None = None,
             token: str | None = None, matches_at_once: int = 1,
             timer: bool | None = None, progress: Progress = QUIET) -> Outcome:
    """Plays a knockout of ``teams`` pairs of ``game`` (a key of ``GAMES``) to its end; returns
    what happened. ``observe(tournament, match, view)`` sees the referee's view before every
    move; ``bot_options`` go to the game's bots (e.g. Guandan's ``seconds_per_move``);
    ``matches_at_once``: the matches of a round played at the same time; ``timer``: the server
    runs its timer, which closes SJ2's declaration windows and posts Guandan's time limits;
    ``progress`` is told of each match as it ends."""
    setup = GAMES[game]
    started = time.perf_counter()
    with Api(url, token) as api:
        tid = _create(api, setup, game, teams, seed, match_settings, tournament_settings)
        progress.created(tid, N_("matches"), knockout_matches(
            teams, (tournament_settings or {}).get("thirdPlace", "playoff")))
        outcome = Outcome(tid, None, {}, {}, game=game)
        while True:
            bracket = api.call("GET", f"/v1/tournaments/{tid}/bracket")
            pending = [m for r in bracket["rounds"] for m in r["matches"] if m["winner"] is None]
            if not pending and bracket["next_round"] is None and bracket["drawn"]:
                break
            if not pending:
                api.call("POST", f"/v1/tournaments/{tid}/draws", dict(setup.draw))
                continue
            for hands, tributes in play_tables(api, [m["match_id"] for m in pending],
                                               partial(_knockout_match, tid=tid, setup=setup,
                                                       observe=observe, options=bot_options,
                                                       timer=timer, progress=progress),
                                               seed, matches_at_once):
                outcome.hands += hands
                outcome.tributes.update(tributes)
                outcome.matches += 1
        outcome.bracket = api.call("GET", f"/v1/tournaments/{tid}/bracket")
        outcome.standings = api.call("GET", f"/v1/tournaments/{tid}/standings")
        outcome.champion = outcome.bracket["champion"]
        if setup.decisions:
            outcome.decided_by = Counter(m["reason"] for m in api.call(
                "GET", f"/v1/tournaments/{tid}/matches")["matches"] if m["reason"])
        return finished(outcome, api, started)


def _knockout_match(api: Api, match_id: str, rng: random.Random, tid: str, setup: GameSetup,
                    observe: Observer | None, options: Mapping | None,
                    timer: bool | None = None,
                    progress: Progress = QUIET) -> tuple[int, Counter]:
    """Plays one match of the knockout; its hands and (Guandan) its hands by tribute case."""
    last = play_match(api, tid, match_id, setup.next_action, rng, observe, options,
                      timer=timer)
    progress.played(last["hands_played"])
    return last["hands_played"], _tribute_cases(api.pages(last["hand_results"], "hands"))


def _create(api: Api, setup: GameSetup, game: str, teams: int, seed: int,
            match_settings: dict | None, tournament_settings: dict | None) -> str:
    settings = {"match": {**setup.match_settings, **(match_settings or {})},
                **(tournament_settings or {})}
    created = api.call("POST", "/v1/tournaments", {
        "name": f"paiju simulate {game} (seed {seed})", "game": setup.game, "format": "knockout",
        "settings": settings, "simulated": True})
    tid = created["id"]
    api.call("POST", f"/v1/tournaments/{tid}/events", {"events": [
        {"type": "TeamRegistered", "stream": f"tournament-{tid}",
         "data": {"team_id": f"team-{n}", "name": f"Team {n}",
                  "players": [f"player {n}a", f"player {n}b"]}}
        for n in range(1, teams + 1)]})
    return tid


def _tribute_cases(history: list[dict]) -> Counter:
    """Guandan (GD-7.1, 7.5): the completed hands by tribute case, anti-tributes apart."""
    return Counter("anti-tribute" if row["anti_tribute"] else row["tribute"]
                   for row in history if "tribute" in row)
