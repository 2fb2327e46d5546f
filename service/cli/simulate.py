"""``paiju simulate``: a whole event played by random legal bots through the HTTP API — a
knockout (sj2, guandan), groups of four (mjo, mjs) or the Swiss team event (sj3-swiss) —
against the server at --url, or a temporary one of its own (service/simulator/)."""
from __future__ import annotations

import argparse
import os
import sys

from rules.messages import Message

from .common import at_least, said

GAMES = ["sj2", "guandan", "mjo", "mjs", "sj3-swiss"]
_DEFAULT_TEAMS = {"sj2": 8, "guandan": 16}  # guandan: seed 001 expects 16-20 teams (T-5.2)
TABLES_AT_ONCE = 4  # the tables (matches) of a stage (round) played at the same time


def add(commands) -> None:
    simulate = commands.add_parser(
        "simulate", help="play a whole knockout with random legal bots through the HTTP API")
    simulate.add_argument("game", choices=GAMES)
    simulate.add_argument("--url", help="a running paiju server (default: start a temporary "
                                        "one on a temporary database)")
    simulate.add_argument("--token", default=os.environ.get("PAIJU_TOKEN"),
                          help="with --url: an admin token of that server (default: the "
                               "PAIJU_TOKEN environment variable)")
    simulate.add_argument("--teams", type=at_least(2),
                          help="pairs in the knockout (default: 8 for sj2, 16 for guandan)")
    simulate.add_argument("--seed", type=int, default=1, help="seeds the deals and the bots")
    _add_match_settings(simulate)
    _add_event_settings(simulate)
    simulate.set_defaults(run=_simulate, parser=simulate)


def _add_match_settings(simulate: argparse.ArgumentParser) -> None:
    """The knockouts' match settings and clocks (sj2, guandan)."""
    simulate.add_argument("--max-hands", type=at_least(1), help="sj2: match setting maxHands")
    simulate.add_argument("--target-level", choices=list("23456789TJQK"),
                          help="sj2: match setting targetLevel")
    simulate.add_argument("--seconds-per-move", type=float,
                          help="guandan: the temporary server records every event this many "
                               "simulated seconds after the one before, the clock on which its "
                               "timer passes the 60- and 90-minute limits (default 9; from 10 "
                               "on, the timer also reports overruns of GD-9's 20-second move "
                               "limits). With --url the server's time is real: a limit is "
                               "reached only after 60 real minutes (--match-minutes), so "
                               "matches are decided by play (not with --url)")
    simulate.add_argument("--match-minutes", type=at_least(1),
                          help="guandan: match setting matchMinutes, the time limit at which "
                               "the levels decide (GD-11.2; default 60); with --url the "
                               "minutes are real")
    simulate.add_argument("--overtime-minutes", type=at_least(1),
                          help="guandan: match setting overtimeMinutes, the overtime after equal "
                               "levels at the limit (GD-11.2; default 30)")
    simulate.add_argument("--third-place", choices=["playoff", "shared"], default="playoff")


def _add_event_settings(simulate: argparse.ArgumentParser) -> None:
    """The groups' and the team event's (mjo, mjs, sj3-swiss)."""
    simulate.add_argument("--players", type=at_least(4), default=16,
                          help="mjo, mjs: players in the groups of four (default 16: 4 tables, "
                               "then a final for mjo, two tables then a final for mjs)")
    simulate.add_argument("--session-hands", type=at_least(1),
                          help="mjo, mjs: hands per table (default: one round of winds for "
                               "mjo, the seed's four rounds for mjs)")
    simulate.add_argument("--rounds", type=at_least(1), default=4,
                          help="sj3-swiss: rounds of the team event (default 4, T-6.1)")
    simulate.add_argument("--alert-at-minute", type=at_least(1),
                          help="sj3-swiss: match setting alertAtMinute, the minute of a "
                               "round's alert, after which the hand in play is the last "
                               "(SJ3-12.1; default 80, before the round's 90 minutes). With "
                               "--url the minutes are real: 1 ends a round in about a minute")


# --- which event -------------------------------------------------------------------------------

def _simulate(args) -> int:
    say = args.say
    if args.alert_at_minute is not None and args.game != "sj3-swiss":
        args.parser.error(say("--alert-at-minute is a setting of sj3-swiss tables"))
    timed = {key: value for key, value in (("matchMinutes", args.match_minutes),
                                           ("overtimeMinutes", args.overtime_minutes)) if value}
    if timed and args.game != "guandan":
        args.parser.error(say("--match-minutes and --overtime-minutes are settings of guandan "
                              "matches"))
    events = {"mjo": _simulate_mjo, "mjs": _simulate_mjs, "sj3-swiss": _simulate_sj3_swiss}
    if args.game in events:
        return events[args.game](args)
    return _simulate_knockout(args, timed)


def _simulate_knockout(args, timed: dict) -> int:
    """sj2 or guandan: a knockout of pairs (T-2), its matches' settings from the options."""
    from ..simulator.runner import report, simulate

    say = args.say
    match = {key: value for key, value in (("maxHands", args.max_hands),
                                           ("targetLevel", args.target_level)) if value}
    if match and args.game != "sj2":
        args.parser.error(say("--max-hands and --target-level are settings of sj2 matches"))
    match.update(timed)
    if args.seconds_per_move is not None and args.game != "guandan":
        args.parser.error(say("--seconds-per-move is the clock of guandan matches"))
    if args.seconds_per_move is not None and args.seconds_per_move <= 0:
        args.parser.error(say("--seconds-per-move must be more than 0"))
    if args.seconds_per_move is not None and args.url:
        args.parser.error(say("--seconds-per-move is the temporary server's simulated clock; "
                              "the server at --url keeps real time"))
    teams = args.teams or _DEFAULT_TEAMS[args.game]
    clock, options = _simulated_clock(args)
    if args.url and args.game == "guandan":  # real time: the limits pass in real minutes
        options = {"seconds_per_move": 0}
    run = lambda url, token, at_once, progress: simulate(  # noqa: E731
        url, teams, args.seed, match, {"thirdPlace": args.third_place}, game=args.game,
        bot_options=options, token=token, matches_at_once=at_once, progress=progress)
    return _run_simulation(args, run, report, lambda outcome: outcome.champion, clock)


def _simulated_clock(args):
    """Guandan (T-5.4): the temporary server's clock moves ``--seconds-per-move`` per recorded
    event, and its timer appends the limits on that clock (the bots, knowing the step, wait for
    a limit that their next move would pass); other games keep real time."""
    from ..simulator.guandan_bots import SECONDS_PER_MOVE
    from ..simulator.temporary_server import SimulatedClock

    if args.game != "guandan":
        return None, {}
    seconds = args.seconds_per_move or SECONDS_PER_MOVE
    return SimulatedClock(seconds), {"seconds_per_move": seconds}


def _simulate_mjo(args) -> int:
    """A groups-of-four MJO event: stages of tables down to a final table (T-8, T-7.2)."""
    from ..simulator.mahjong import advance_for, report, simulate

    match = {"sessionHands": args.session_hands} if args.session_hands else {}
    advance = advance_for(args.players)
    if args.players % 4:
        args.parser.error(args.say("--players: tables of four need a multiple of four (T-8.1)"))
    run = lambda url, token, at_once, progress: simulate(  # noqa: E731
        url, args.players, args.seed, advance, match, token=token, tables_at_once=at_once,
        progress=progress)
    return _run_simulation(args, run, report, lambda outcome: outcome.standings.get("final"))


def _simulate_mjs(args) -> int:
    """Seed 003's Sichuan event (T-7): groups of four, the top two of each on, down to a final
    of four with 换三张; ties by dice; the prizes to 12th."""
    from ..simulator.sichuan import check_players, report, simulate

    try:
        check_players(args.players)
    except ValueError as error:
        args.parser.error(f"--players: {said(error, args.say)} (T-7.2)")
    match = {"sessionHands": args.session_hands} if args.session_hands else {}
    run = lambda url, token, at_once, progress: simulate(  # noqa: E731
        url, args.players, args.seed, match, token=token, tables_at_once=at_once,
        progress=progress)
    return _run_simulation(args, run, report, lambda outcome: outcome.standings.get("final"))


def _simulate_sj3_swiss(args) -> int:
    """Seed 004's team event (T-6): 8 teams of two pairs, 4 rounds of SJ3 by default; odd
    ``--teams`` gives a bye each round. The temporary server's clock moves
    ``--seconds-per-move`` (default 3) per recorded event, so each 80-minute alert comes after
    a few hands; that server runs no timer (swiss.py: the shared clock would overrun SJ3's move
    limits), and when every table waits for the dealer's pause its clock is moved on. With
    ``--url`` the server's time is real, and its timer ends each pause."""
    from ..simulator.swiss import SECONDS_PER_MOVE, report, simulate
    from ..simulator.temporary_server import SimulatedClock

    teams = args.teams or 8
    if args.seconds_per_move is not None and (args.url or args.seconds_per_move <= 0):
        args.parser.error(args.say("--seconds-per-move: more than 0, for the temporary server "
                                   "only"))
    if args.alert_at_minute is not None and args.alert_at_minute >= 90:
        args.parser.error(args.say("--alert-at-minute: before the round's 90 minutes "
                                   "(SJ3-12.1)"))
    match = {"alertAtMinute": args.alert_at_minute} if args.alert_at_minute else None
    clock = SimulatedClock(args.seconds_per_move or SECONDS_PER_MOVE)
    idle = None if args.url else (lambda: clock.advance(seconds=clock.step.total_seconds()))
    run = lambda url, token, at_once, progress: simulate(  # noqa: E731
        url, teams, args.rounds, args.seed, token=token, timer=bool(args.url), idle=idle,
        match_settings=match, progress=progress)
    return _run_simulation(args, run, report, lambda outcome: outcome.standings.get("final"),
                           clock, timer=False)


# --- the run -----------------------------------------------------------------------------------

def _run_simulation(args, run, report, succeeded, clock=None, timer=True) -> int:
    """``run(url, token, tables at once, progress)`` against the server at --url, or a temporary
    one of its own: in a process of its own, the tables of a stage playing at the same time —
    or, when ``clock`` gives the times it records, in this process, one table after another (a
    shared simulated clock would move faster at each of several tables). Its own servers run
    their timer — the one in this process if ``timer`` — and the bots leave the timer's events
    to it. A bar on standard error counts the matches or tables (service/progress.py). Prints
    the report (``report(outcome, say)``, in the reader's language); 0 if
    ``succeeded(outcome)``. A run against --url that fails (or is interrupted) archives the
    tournament it leaves half-built (:func:`_hide_failed`)."""
    from ..progress import SimulationBar
    from ..simulator.api import ApiError

    say = args.say
    progress = SimulationBar(args.game, say)
    try:
        outcome = _run_on_a_server(args, run, progress, clock, timer)
    except (ApiError, OSError, RuntimeError, KeyboardInterrupt) as error:
        progress.close()
        interrupted = isinstance(error, KeyboardInterrupt)
        # the log's reason is English, whoever ran it; the operator reads their language
        failure = "interrupted" if interrupted else str(error)
        told = say("interrupted") if interrupted else said(error, say)
        print(f"paiju simulate: {told}", file=sys.stderr)
        if args.url and progress.tournament_id:
            _hide_failed(args, progress.tournament_id, failure)
        return 130 if interrupted else 1
    progress.close()
    print(report(outcome, say))
    return 0 if succeeded(outcome) else 1


def _run_on_a_server(args, run, progress, clock, timer):
    """What ``run`` returns, played against --url, a server process, or one in this process."""
    from ..simulator.server_process import server_process
    from ..simulator.temporary_server import temporary_server

    if args.url:
        return run(args.url, _url_token(args), TABLES_AT_ONCE, progress)
    if clock is None:
        with server_process() as (url, token):
            return run(url, token, TABLES_AT_ONCE, progress)
    with temporary_server(clock=clock, timer=timer) as server:
        return run(server.url, server.token, 1, progress)


def _url_token(args) -> str:
    if not args.token:
        args.parser.error(args.say("--url needs an admin token of that server: --token or "
                                   "PAIJU_TOKEN"))
    return args.token


def _hide_failed(args, tid: str, failure: str) -> None:
    """A failed run against a real server leaves its tournament half-built there: archive it
    (``TournamentArchived``), which leaves it out of the index and the home page while its log
    stays readable. The run made it and knows it failed, so it hides it itself — no one is left
    to clean up by hand — unless the server cannot be reached (the usual reason for the
    failure): then the request to post later is printed, the token left to the shell."""
    import json
    import shlex

    from ..simulator.api import Api, ApiError

    body = {"type": "TournamentArchived", "stream": f"tournament-{tid}",
            "data": {"reason": f"paiju simulate {args.game} failed: {failure}"[:2000]},
            "meta": {"source": "paiju simulate"}}
    url = args.url.rstrip("/")
    say = args.say
    try:
        with Api(url, args.token) as api:
            api.call("POST", f"/v1/tournaments/{tid}/events", body)
    except (ApiError, OSError) as error:
        left = say(Message("tournament {tid} is left half-built at {url} and could not be "
                           "archived ({error}); to leave it out of the index and the home "
                           "page:", tid=tid, url=url, error=error))
        print(f"paiju simulate: {left}\n"
              f"  curl -X POST {url}/v1/tournaments/{tid}/events -H \"Authorization: Bearer "
              f"$PAIJU_TOKEN\" -H 'Content-Type: application/json' -d "
              f"{shlex.quote(json.dumps(body, ensure_ascii=False))}", file=sys.stderr)
        return
    archived = say(Message("tournament {tid} was left half-built, so it is archived "
                           "(TournamentArchived): out of the index and the home page; its log "
                           "stays at {log}", tid=tid, log=f"{url}/v1/tournaments/{tid}"))
    print(f"paiju simulate: {archived}", file=sys.stderr)
