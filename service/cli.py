"""The ``paiju`` command: serve the API; tokens and the export key; verify, export, verify an
export offline and import it; simulate a tournament."""
from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import threading
from datetime import datetime, timedelta, timezone
from pathlib import Path

from events.export_file import FORMATS
from rules.messages import Message

from .deployment import default_db
from .i18n import catalogue, cli_language
from .tokens import ROLES

DB_HELP = ("the deployment's database: a SQLite file (created if new; default var/paiju.db) or a "
           "postgresql:// URL (after `paiju db upgrade`); default: DATABASE_URL if it is set")


LOG_FORMAT_HELP = ("the lines on standard error: text (the default), or json: one JSON object a "
                   "line (time, level, logger, node, request_id, tournament, route, message), "
                   "and a line per request with its method, path, status and duration_ms. The "
                   "node is PAIJU_NODE if set, else host:port")


LANGUAGE_HELP = ("the language paiju speaks here: zh (简体中文) or en (English); default: "
                 "LC_ALL, LC_MESSAGES or LANG (C or POSIX: English), else zh. Before the command: "
                 "paiju --language en verify …")


def translator(language: str):
    """``say(message)``: a :class:`Message` (or a sentence of the catalogue ``messages``) in
    ``language``, ``zh`` or ``en`` — what every command prints for a person to read. Literal
    sentences only (``say("…")``, ``say(Message("… {n} …", n=n))``): extraction finds those."""
    gettext = catalogue(language).gettext

    def say(message: Message | str) -> str:
        return message.translated(gettext) if isinstance(message, Message) else gettext(message)
    return say


def _said(error: BaseException, say) -> str:
    """An error's words for the reader: said in their language if it carries a Message (the
    simulator's, the migration's), else as it is (another module's English)."""
    if len(error.args) == 1 and isinstance(error.args[0], Message):
        return say(error.args[0])
    return str(error)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="paiju", description=__doc__)
    parser.add_argument("--language", dest="cli_language", choices=["zh", "en"],
                        help=LANGUAGE_HELP)
    commands = parser.add_subparsers(dest="command", required=True)

    serve = commands.add_parser("serve", help="serve the HTTP API (gevent's server in front of "
                                              "a pool of threads: service/serving.py)")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--db", default=default_db(), help=DB_HELP)
    serve.add_argument("--threads", type=int, default=16, help="request worker threads")
    serve.add_argument("--key", help="the export signing key (default: paiju-signing.key beside "
                                     "a SQLite --db, var/paiju-signing.key for PostgreSQL)")
    serve.add_argument("--max-group", type=int, default=512,
                       help="appends that may share one commit (group commit); 1 turns it off")
    serve.add_argument("--no-timer", action="store_true",
                       help="do not run the timer here (another process of the deployment does)")
    serve.add_argument("--webhooks-allow-private", action="store_true",
                       help="accept webhook URLs on private, loopback and link-local addresses "
                            "(a receiver on this machine or network; refused by default)")
    serve.add_argument("--synchronous", choices=["FULL", "NORMAL", "OFF"], default="FULL",
                       help="SQLite's wait for the disk at each commit: FULL (the default) "
                            "loses nothing acknowledged; NORMAL may lose the last commits on a "
                            "power cut; OFF is for a throw-away database (a simulation's)")
    serve.add_argument("--cors-origin", action="append", default=[], metavar="ORIGIN",
                       help="a site (https://club.example) whose pages may read the public "
                            "reads and subscriptions from the browser; repeat for more")
    serve.add_argument("--live-poll-seconds", type=float, default=1.0, metavar="S",
                       help="how often the subscriptions' fan-out reads the log's end when no "
                            "word of a commit came (PostgreSQL: NOTIFY lost); default 1")
    serve.add_argument("--frame-ancestor", action="append", default=[], metavar="ORIGIN",
                       help="a site that may show the bracket and standings pages in a frame "
                            "(embedded in a club's own page); repeat for more")
    serve.add_argument("--language", choices=["zh", "en"],
                       help="the language of pages and problems for a reader who asks for "
                            "none (?lang=, Accept-Language); default zh (简体中文). It is also "
                            "the language of serve's own lines, unless paiju --language (before "
                            "serve) names another")
    serve.add_argument("--log-format", choices=["text", "json"], default="text",
                       help=LOG_FORMAT_HELP)
    serve.add_argument("--metrics-token", type=_metrics_token,
                       default=os.environ.get("PAIJU_METRICS_TOKEN"), metavar="TOKEN",
                       help="a bearer token (16 characters or more) that may read /metrics "
                            "besides admin tokens, for the Prometheus that scrapes it; default: "
                            "PAIJU_METRICS_TOKEN, which keeps it out of the process list")
    serve.set_defaults(run=_serve)

    timer = commands.add_parser("timer", help="run only the timer: fire every deadline of the "
                                "deployment (for WSGI workers started with paiju serve --no-timer "
                                "or another server)")
    timer.add_argument("--db", default=default_db(), help=DB_HELP)
    timer.add_argument("--log-format", choices=["text", "json"], default="text",
                       help=LOG_FORMAT_HELP)
    timer.set_defaults(run=_timer)

    verify = commands.add_parser("verify", help="walk the hash chain of every tournament, or one")
    verify.add_argument("--db", default=default_db(), help=DB_HELP)
    verify.add_argument("--tournament", help="only this tournament")
    verify.set_defaults(run=_verify)

    export = commands.add_parser("export", help="write a tournament's log with its signed "
                                                "manifest (to standard output or --output)")
    export.add_argument("--tournament", required=True)
    export.add_argument("--format", choices=list(FORMATS), default="jsonl")
    export.add_argument("--db", default=default_db(), help=DB_HELP)
    export.add_argument("--key", help="the signing key (default: paiju-signing.key beside --db)")
    export.add_argument("--output", help="a file to write (default: standard output)")
    export.set_defaults(run=_export)

    check = commands.add_parser("verify-export", help="verify an export file offline: every "
                                "line, the hash chain, the manifest and its signature")
    check.add_argument("file")
    check.add_argument("--public-key", required=True,
                       help="the deployment's public key: a PEM file, or a file or text with "
                            "the base64 the /.well-known/paiju-export-key endpoint serves")
    check.set_defaults(run=_verify_export)

    restore = commands.add_parser("import", help="rebuild a database from an export file "
                                  "(verified first; nothing is written if it is not sound)")
    restore.add_argument("file")
    restore.add_argument("--db", required=True, help="the database to write (new, or one "
                                                     "without this tournament)")
    restore.add_argument("--public-key", help="the exporting deployment's public key: the "
                         "manifest's signature is checked too")
    restore.add_argument("--unsigned", action="store_true",
                         help="import without checking the signature (the chain still is)")
    restore.set_defaults(run=_import)

    token = commands.add_parser("token", help="create, list and revoke bearer tokens")
    token_commands = token.add_subparsers(dest="token_command", required=True)
    create = token_commands.add_parser("create", help="a new token; its secret is printed once")
    create.add_argument("--role", required=True, choices=list(ROLES))
    create.add_argument("--tournament", help="the tournament it acts in (all roles but admin)")
    create.add_argument("--match", help="the match of a table or player token")
    create.add_argument("--seat", type=int, help="the seat of a player token (0-3)")
    create.add_argument("--name", help="who holds it (recorded as meta.actor of what it posts)")
    create.add_argument("--expires-in", type=_duration, metavar="DURATION",
                        help="e.g. 90m, 12h, 3d (default: until revoked)")
    create.add_argument("--db", default=default_db(), help=DB_HELP)
    create.set_defaults(run=_token_create)
    listing = token_commands.add_parser("list", help="every token, without its secret")
    listing.add_argument("--db", default=default_db(), help=DB_HELP)
    listing.set_defaults(run=_token_list)
    revoke = token_commands.add_parser("revoke", help="revoke a token at once")
    revoke.add_argument("token_id")
    revoke.add_argument("--db", default=default_db(), help=DB_HELP)
    revoke.set_defaults(run=_token_revoke)

    keys = commands.add_parser("keys", help="the deployment's export signing key")
    key_commands = keys.add_subparsers(dest="keys_command", required=True)
    init = key_commands.add_parser("init", help="make the key if there is none (never replaces "
                                                "one) and print its public half")
    init.add_argument("--db", default=default_db(), help=DB_HELP)
    init.add_argument("--key", help="the key file (default: paiju-signing.key beside --db)")
    init.set_defaults(run=_keys_init)

    entrants = commands.add_parser("entrants", help="a tournament's entrants")
    entrants_commands = entrants.add_subparsers(dest="entrants_command", required=True)
    load = entrants_commands.add_parser(
        "import", help="register the entrants of a CSV file (header team_id,name,player1,…) "
        "as one batch, or none: every bad row is reported with its row and column")
    load.add_argument("file")
    load.add_argument("--tournament", required=True)
    load.add_argument("--db", default=default_db(), help=DB_HELP)
    load.set_defaults(run=_entrants_import)

    db = commands.add_parser("db", help="the PostgreSQL database's schema")
    db_commands = db.add_subparsers(dest="db_command", required=True)
    upgrade = db_commands.add_parser("upgrade", help="create or migrate the schema of a "
                                     "PostgreSQL database (run once, before paiju serve)")
    upgrade.add_argument("--db", default=default_db(), help="a postgresql:// URL")
    upgrade.set_defaults(run=_db_upgrade)

    migrate = commands.add_parser("migrate", help="move a deployment's log and tokens into "
                                  "another database (e.g. SQLite to PostgreSQL), every chain "
                                  "verified before and after")
    migrate.add_argument("--from", dest="source", required=True, help="the database to read")
    migrate.add_argument("--to", dest="target", required=True,
                         help="the database to write: empty, its schema current")
    migrate.set_defaults(run=_migrate)

    simulate = commands.add_parser(
        "simulate", help="play a whole knockout with random legal bots through the HTTP API")
    simulate.add_argument("game", choices=["sj2", "guandan", "mjo", "mjs", "sj3-swiss"])
    simulate.add_argument("--url", help="a running paiju server (default: start a temporary "
                                        "one on a temporary database)")
    simulate.add_argument("--token", default=os.environ.get("PAIJU_TOKEN"),
                          help="with --url: an admin token of that server (default: the "
                               "PAIJU_TOKEN environment variable)")
    simulate.add_argument("--teams", type=_at_least(2),
                          help="pairs in the knockout (default: 8 for sj2, 16 for guandan)")
    simulate.add_argument("--seed", type=int, default=1, help="seeds the deals and the bots")
    simulate.add_argument("--max-hands", type=_at_least(1), help="sj2: match setting maxHands")
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
    simulate.add_argument("--match-minutes", type=_at_least(1),
                          help="guandan: match setting matchMinutes, the time limit at which "
                               "the levels decide (GD-11.2; default 60); with --url the "
                               "minutes are real")
    simulate.add_argument("--overtime-minutes", type=_at_least(1),
                          help="guandan: match setting overtimeMinutes, the overtime after equal "
                               "levels at the limit (GD-11.2; default 30)")
    simulate.add_argument("--third-place", choices=["playoff", "shared"], default="playoff")
    simulate.add_argument("--players", type=_at_least(4), default=16,
                          help="mjo, mjs: players in the groups of four (default 16: 4 tables, "
                               "then a final for mjo, two tables then a final for mjs)")
    simulate.add_argument("--session-hands", type=_at_least(1),
                          help="mjo, mjs: hands per table (default: one round of winds for "
                               "mjo, the seed's four rounds for mjs)")
    simulate.add_argument("--rounds", type=_at_least(1), default=4,
                          help="sj3-swiss: rounds of the team event (default 4, T-6.1)")
    simulate.add_argument("--alert-at-minute", type=_at_least(1),
                          help="sj3-swiss: match setting alertAtMinute, the minute of a "
                               "round's alert, after which the hand in play is the last "
                               "(SJ3-12.1; default 80, before the round's 90 minutes). With "
                               "--url the minutes are real: 1 ends a round in about a minute")
    simulate.set_defaults(run=_simulate, parser=simulate)

    spec = commands.add_parser("spec", help="check, or rewrite, the part of api_spec.yaml made "
                                            "from the event catalogue (service/openapi.py)")
    spec_action = spec.add_mutually_exclusive_group(required=True)
    spec_action.add_argument("--check", action="store_true",
                             help="exit 1 naming every difference: the generated block, and each "
                                  "data schema against its marshmallow schema")
    spec_action.add_argument("--write", action="store_true",
                             help="rewrite the generated block only (the hand-written routes and "
                                  "data schemas stay as they are), then check")
    spec.add_argument("--file", type=Path, default=None, help="default: the api_spec.yaml of paiju")
    spec.set_defaults(run=_spec)

    args = parser.parse_args(argv)
    # serve's --language (the pages' default) is its lines' language too, unless paiju's says
    args.say = translator(cli_language(args.cli_language or getattr(args, "language", None)))
    return args.run(args)


def _spec(args) -> int:
    from events import default_catalogue

    from . import openapi
    from .app import DEFAULTS

    path = args.file or openapi.SPEC_PATH
    text = path.read_text(encoding="utf-8")
    catalogue, max_batch = default_catalogue(), DEFAULTS["MAX_BATCH"]
    try:
        if args.write:
            made = openapi.rewritten(text, catalogue, max_batch)
            if made != text:
                path.write_text(made, encoding="utf-8")
                print(f"{path}: generated block rewritten")
            text = made
        problems = openapi.check(text, catalogue, max_batch)
    except openapi.SpecMarkersMissing as error:
        print(f"{path}: {error}", file=sys.stderr)
        return 1
    for problem in problems:
        print(f"{path}: {problem}", file=sys.stderr)
    if not problems:
        print(f"{path}: in step with the event catalogue and the routes' request schemas")
    return 1 if problems else 0


def _at_least(low: int):
    def whole_number(text: str) -> int:
        value = int(text)
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}")
        return value
    return whole_number


_DEFAULT_TEAMS = {"sj2": 8, "guandan": 16}  # guandan: seed 001 expects 16-20 teams (T-5.2)


def _simulate(args) -> int:
    from .simulator.runner import report, simulate

    say = args.say
    if args.alert_at_minute is not None and args.game != "sj3-swiss":
        args.parser.error(say("--alert-at-minute is a setting of sj3-swiss tables"))
    timed = {key: value for key, value in (("matchMinutes", args.match_minutes),
                                           ("overtimeMinutes", args.overtime_minutes)) if value}
    if timed and args.game != "guandan":
        args.parser.error(say("--match-minutes and --overtime-minutes are settings of guandan "
                              "matches"))
    if args.game == "mjo":
        return _simulate_mjo(args)
    if args.game == "mjs":
        return _simulate_mjs(args)
    if args.game == "sj3-swiss":
        return _simulate_sj3_swiss(args)

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


TABLES_AT_ONCE = 4  # the tables (matches) of a stage (round) played at the same time


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
    from .progress import SimulationBar
    from .simulator.runner import ApiError, temporary_server
    from .simulator.server_process import server_process

    say = args.say
    progress = SimulationBar(args.game, say)
    try:
        if args.url:
            outcome = run(args.url, _url_token(args), TABLES_AT_ONCE, progress)
        elif clock is None:
            with server_process() as (url, token):
                outcome = run(url, token, TABLES_AT_ONCE, progress)
        else:
            with temporary_server(clock=clock, timer=timer) as server:
                outcome = run(server.url, server.token, 1, progress)
    except (ApiError, OSError, RuntimeError, KeyboardInterrupt) as error:
        progress.close()
        interrupted = isinstance(error, KeyboardInterrupt)
        # the log's reason is English, whoever ran it; the operator reads their language
        failure = "interrupted" if interrupted else str(error)
        told = say("interrupted") if interrupted else _said(error, say)
        print(f"paiju simulate: {told}", file=sys.stderr)
        if args.url and progress.tournament_id:
            _hide_failed(args, progress.tournament_id, failure)
        return 130 if interrupted else 1
    progress.close()
    print(report(outcome, say))
    return 0 if succeeded(outcome) else 1


def _hide_failed(args, tid: str, failure: str) -> None:
    """A failed run against a real server leaves its tournament half-built there: archive it
    (``TournamentArchived``), which leaves it out of the index and the home page while its log
    stays readable. The run made it and knows it failed, so it hides it itself — no one is left
    to clean up by hand — unless the server cannot be reached (the usual reason for the
    failure): then the request to post later is printed, the token left to the shell."""
    import json
    import shlex

    from .simulator.runner import Api, ApiError

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


def _url_token(args) -> str:
    if not args.token:
        args.parser.error(args.say("--url needs an admin token of that server: --token or "
                                   "PAIJU_TOKEN"))
    return args.token


def _simulated_clock(args):
    """Guandan (T-5.4): the temporary server's clock moves ``--seconds-per-move`` per recorded
    event, and its timer appends the limits on that clock (the bots, knowing the step, wait for
    a limit that their next move would pass); other games keep real time."""
    from .simulator.guandan_bots import SECONDS_PER_MOVE
    from .simulator.runner import SimulatedClock

    if args.game != "guandan":
        return None, {}
    seconds = args.seconds_per_move or SECONDS_PER_MOVE
    return SimulatedClock(seconds), {"seconds_per_move": seconds}


def _simulate_mjo(args) -> int:
    """A groups-of-four MJO event: stages of tables down to a final table (T-8, T-7.2)."""
    from .simulator.mahjong import advance_for, report, simulate

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
    from .simulator.sichuan import check_players, report, simulate

    try:
        check_players(args.players)
    except ValueError as error:
        args.parser.error(f"--players: {_said(error, args.say)} (T-7.2)")
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
    from .simulator.runner import SimulatedClock
    from .simulator.swiss import SECONDS_PER_MOVE, report, simulate

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


def _log_to_stderr(log_format: str = "text", node: str | None = None) -> None:
    """What a serving process tells its operator: the timer's firings, checkpoints ignored and
    rebuilt, failures (INFO and above, on standard error), as text or JSON lines, each written
    during a request with the request's id (service/request_log.py)."""
    from .request_log import configure

    configure(log_format, os.environ.get("PAIJU_NODE") or node)
    # their own chatter (waitress's queue depth, APScheduler's every run of a job) is noise
    logging.getLogger("waitress").setLevel(logging.ERROR)
    logging.getLogger("apscheduler").setLevel(logging.WARNING)


def _serve(args) -> int:
    import socket

    from .app import create_app
    from .i18n import DEFAULT_LANGUAGE
    from .metrics import metrics_of, multiprocess_dir, since_start
    from .serving import serve

    _log_to_stderr(args.log_format, f"{socket.gethostname()}:{args.port}")
    say = args.say
    if multiprocess_dir() is not None and not Path(multiprocess_dir()).is_dir():
        refused = say(Message("PROMETHEUS_MULTIPROC_DIR={path} is not a directory: make it "
                              "(empty) before paiju serve starts", path=multiprocess_dir()))
        print(f"paiju: {refused}", file=sys.stderr)
        return 2
    app = _opened(say, lambda: create_app({
        "DATABASE": args.db, "SQLITE_MAX_GROUP": args.max_group,
        "SQLITE_SYNCHRONOUS": args.synchronous, "TIMER": not args.no_timer,
        "PG_POOL_SIZE": args.threads + 4, "SIGNING_KEY": args.key,
        "WEBHOOKS_ALLOW_PRIVATE": args.webhooks_allow_private,
        "CORS_ORIGINS": tuple(args.cors_origin), "FRAME_ANCESTORS": tuple(args.frame_ancestor),
        "LIVE_POLL_SECONDS": args.live_poll_seconds, "METRICS_TOKEN": args.metrics_token,
        "LANGUAGE": args.language or DEFAULT_LANGUAGE}))
    if app is None:
        return 2
    metrics = metrics_of(app)  # the start's phases: seconds from the process's start
    metrics.record_phase("opened", since_start())  # the store, the checkpoints, the app
    services = app.extensions["paiju"]
    _first_admin_token(services.tokens, say)
    if services.timer is not None:
        services.timer.start()  # fires what passed while the service was down, then plans
        metrics.record_phase("timer-started", since_start())
        _record_when_caught_up(services.timer, metrics, since_start)
    services.webhook_delivery.start()  # from each webhook's stored cursor (the lease's holder)

    def listening():
        metrics.record_phase("listening", since_start())
        print(say(Message("paiju serving on {url} (database {db})",
                          url=f"http://{args.host}:{args.port}", db=_shown(args.db))),
              flush=True)
    try:
        serve(app, args.host, args.port, args.threads, listening)
    except OSError as error:  # the port is taken, or the address is not this machine's
        refused = say(Message("cannot listen on {address}: {error}",
                              address=f"{args.host}:{args.port}",
                              error=error.strerror or error))
        print(f"paiju: {refused}", file=sys.stderr)
        return 2
    finally:
        services.hub.close()  # every subscription told to reconnect elsewhere
        services.webhook_delivery.stop()  # the attempt in flight is recorded first
        if services.timer is not None:
            services.timer.shutdown()
        services.store.close()
        services.cache.close()  # what is queued is written, then the file closes
    return 0


def _record_when_caught_up(timer, metrics, since_start) -> None:
    """The phase ``timer-caught-up``, once the timer says so (service/scheduler.py)."""
    caught_up = getattr(timer, "caught_up", None)
    if caught_up is None:
        return

    def record():
        caught_up.wait()
        metrics.record_phase("timer-caught-up", since_start())
    threading.Thread(target=record, name="paiju-startup-phase", daemon=True).start()


def _metrics_token(text: str) -> str:
    if len(text) < 16 or not text.isascii() or not text.isprintable() or " " in text:
        raise argparse.ArgumentTypeError("16 or more visible ASCII characters, no spaces")
    return text


def _timer(args) -> int:
    """The timer alone, until stopped: the same leader lease as a serving process's timer, so
    any number of timers and servers may run on one database."""
    import socket

    from .app import create_app

    _log_to_stderr(args.log_format, f"{socket.gethostname()}:timer")
    app = _opened(args.say, lambda: create_app({"DATABASE": args.db, "TIMER": True}))
    if app is None:
        return 2
    services = app.extensions["paiju"]
    signal.signal(signal.SIGTERM, _stop_like_ctrl_c)
    services.timer.start()
    print(args.say(Message("paiju timer running on {db}", db=_shown(args.db))), flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
    finally:
        services.timer.shutdown()
        services.store.close()
        services.cache.close()
    return 0


def _shown(db: str) -> str:
    """``db`` as it may be printed: a URL without its password."""
    from urllib.parse import urlsplit, urlunsplit

    if "://" not in db:
        return db
    parts = urlsplit(db)
    if parts.password is None:
        return db
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@")
    return urlunsplit(parts._replace(netloc=netloc))


def _first_admin_token(tokens, say) -> None:
    """A new deployment has no token, and without one nothing can be written: the first start
    makes an admin token and shows it once (``paiju token create`` makes more). A deployment
    that has had tokens gets none this way, even with every admin token revoked. The header's
    line is the same in every language: it is copied as it stands."""
    if tokens.all():  # not after the first start: revoking a leaked admin token must hold
        return
    secret, token = tokens.create("admin", name="first admin")
    made = say("no admin token existed, so one was made (shown this once; keep it):")
    print(f"paiju: {made}\n  Authorization: Bearer {secret}", flush=True)


def _stop_like_ctrl_c(signum, frame):
    """SIGTERM stops the server as Ctrl-C does, so that the store is closed cleanly."""
    raise KeyboardInterrupt


def _open_existing(db: str, say):
    """The store at ``db``, or None after saying why (no file there; a database that cannot
    be reached or whose schema is not current)."""
    from .deployment import exists, open_store

    if not exists(db):
        _no_database(db, say)
        return None
    return _opened(say, lambda: open_store(db))


def _no_database(db: str, say, command: str = "paiju") -> None:
    said = say(Message("no database at {db}", db=db))
    print(f"{command}: {said}", file=sys.stderr)


def _opened(say, open_it):
    """What ``open_it()`` opens, or None after saying on stderr why the database cannot be
    used (unreachable, schema not current): a message, not a traceback."""
    from events.postgres_store import SchemaNotCurrent
    from events.store import StoreUnavailable

    try:
        return open_it()
    except (StoreUnavailable, SchemaNotCurrent) as error:
        print(f"paiju: {_said(error, say)}", file=sys.stderr)
        return None


def _verify(args) -> int:
    from events.store import verify_records

    from .progress import bar

    say = args.say
    store = _open_existing(args.db, say)
    if store is None:
        return 2
    try:
        # store.verify, each chain's records through one bar (every chain: the log's events)
        ids = [args.tournament] if args.tournament else store.tournament_ids()
        every = None if args.tournament else store.last_position()
        with bar(say("verified"), say("events"), every) as shown:
            reports = [verify_records(tid, _stepped(store.read_tournament(tid), shown))
                       for tid in ids]
        failures = 0
        for report in reports:
            tid = report.tournament_id
            if report.checked == 0 and report.ok:
                print(say(Message("{tid}: no events", tid=tid)), file=sys.stderr)
                failures += 1
            elif report.ok:
                print(say(Message("{tid}: ok, {checked} events, head {position} {hash}",
                                  tid=tid, checked=report.checked,
                                  position=report.last_position, hash=report.last_hash)))
            else:
                failures += 1
                print(say(Message("{tid}: BROKEN at position {position}: {problem} ({checked} "
                                  "events verified before it)", tid=tid,
                                  position=report.first_bad_position, problem=report.problem,
                                  checked=report.checked)))
        return 1 if failures else 0
    finally:
        store.close()


def _export(args) -> int:
    from events.envelope import utc_timestamp
    from events.export_file import export_lines

    from .progress import counted
    from .signing import SigningKeyError, load_signer
    from .version import VERSION

    say = args.say
    store = _open_existing(args.db, say)
    if store is None:
        return 2
    try:
        signer = load_signer(args.key or _key_path(args.db))
        head = store.tournament_head(args.tournament)
        if head is None:
            none = say(Message("no events for tournament {tournament}",
                               tournament=args.tournament))
            print(f"paiju: {none}", file=sys.stderr)
            return 1
        records = counted(store.read_tournament(args.tournament, until_position=head[0]),
                          say("exported"), say("events"))
        lines = export_lines(records, args.format, args.tournament, utc_timestamp(), VERSION,
                             signer.sign)
        out = open(args.output, "w", encoding="utf-8", newline="") if args.output else sys.stdout
        try:
            out.writelines(lines)
        finally:
            if args.output:
                out.close()
        done = say(Message("exported {tournament} up to position {position} ({hash})",
                           tournament=args.tournament, position=head[0], hash=head[1]))
        print(f"paiju: {done}", file=sys.stderr)
        return 0
    except SigningKeyError as error:
        print(f"paiju: {_said(error, say)}", file=sys.stderr)
        return 2
    finally:
        store.close()


def _stepped(records, shown):
    """``records`` passed through, a step of the bar ``shown`` each."""
    for record in records:
        yield record
        shown.update()


def _key_path(db: str) -> Path:
    from .app import signing_key_path
    return signing_key_path({"DATABASE": db})


def _cannot_read(path, error: OSError, say) -> None:
    said = say(Message("cannot read {path}: {error}", path=path, error=error))
    print(f"paiju: {said}", file=sys.stderr)


def _export_lines(path: str, say):
    """The file's lines as written (newlines kept), read as they are needed; None if the file
    cannot be opened."""
    try:
        file = open(path, encoding="utf-8", newline="")
    except OSError as error:
        _cannot_read(path, error, say)
        return None
    return file


def _public_key(text_or_file: str, say):
    """The key of --public-key (a file, or the key's text), or None after saying why."""
    from .signing import SigningKeyError, load_public_key

    path = Path(text_or_file)
    try:
        return load_public_key(path.read_text() if path.is_file() else text_or_file)
    except SigningKeyError as error:
        print(f"paiju: --public-key: {_said(error, say)}", file=sys.stderr)
        return None


def _verify_export(args) -> int:
    """Offline: no database, no server; the file and the public key alone."""
    from events.export_file import public_key_id

    say = args.say
    key = _public_key(args.public_key, say)
    if key is None:
        return 2
    report = _verified(args.file, key, say)
    if report is None:
        return 2
    if report.ok:
        m = report.manifest
        print(say(Message("{file}: ok, {events} events of {tournament}, positions {first}-{last}, "
                          "last hash {hash}, signed by key {key_id}, exported {exported_at}",
                          file=args.file, events=report.events, tournament=m["tournament_id"],
                          first=m["first_position"], last=m["last_position"],
                          hash=m["last_hash"], key_id=public_key_id(key),
                          exported_at=m["exported_at"])))
        return 0
    print(say(Message("{file}: NOT VERIFIED, first fault at {fault}", file=args.file,
                      fault=report.first_fault)))
    for fault in report.faults[1:20]:
        print("  " + say(Message("also: {fault}", fault=fault)))
    return 1


def _verified(path: str, key, say):
    """The report on the file at ``path`` (streamed: bounded memory), or None if unreadable."""
    from events.export_file import verify_export

    from .progress import counted

    file = _export_lines(path, say)
    if file is None:
        return None
    try:
        with file:
            checked = say(Message("verified {name}", name=Path(path).name))
            return verify_export(counted(file, checked, say("lines")), key)
    except UnicodeDecodeError as error:
        said = say(Message("{path} is not UTF-8: {error}", path=path, error=error))
        print(f"paiju: {said}", file=sys.stderr)
        return None


def _import(args) -> int:
    """Verified in full first (one pass over the file); then written in one transaction (a
    second pass). Without --public-key the signature is only left unchecked if --unsigned
    says so: a chain alone proves no origin."""
    from events.export_file import event_records
    from events.store import RestoreConflict

    from .deployment import open_store
    from .progress import counted

    say = args.say
    if not args.public_key and not args.unsigned:
        give = say("give --public-key (the exporting deployment's key), or --unsigned to import "
                   "on the chain alone")
        print(f"paiju import: {give}", file=sys.stderr)
        return 2
    key = _public_key(args.public_key, say) if args.public_key else None
    if args.public_key and key is None:
        return 2
    report = _verified(args.file, key, say)
    if report is None:
        return 2
    if not report.ok:
        refused = say(Message("{file} is not imported (nothing was written): first fault at "
                              "{fault}", file=args.file, fault=report.first_fault))
        print(f"paiju: {refused}", file=sys.stderr)
        return 1
    store = _opened(say, lambda: open_store(args.db))
    if store is None:
        return 2
    try:
        with _export_lines(args.file, say) as file:
            count = store.restore(counted(event_records(file), say("imported"), say("events"),
                                          total=report.events))
    except RestoreConflict as error:
        refused = say(Message("nothing was imported: {error}", error=_said(error, say)))
        print(f"paiju: {refused}", file=sys.stderr)
        return 1
    finally:
        store.close()
    if not report.signature_checked:
        warning = say("warning: the signature was not checked (--unsigned)")
        print(f"paiju: {warning}", file=sys.stderr)
    done = say(Message("imported {count} events of {tournament} into {db} (chain verified)",
                       count=count, tournament=report.manifest["tournament_id"],
                       db=_shown(args.db)))
    print(f"paiju: {done}")
    return 0


def _duration(text: str) -> timedelta:
    units = {"m": "minutes", "h": "hours", "d": "days"}
    if len(text) < 2 or text[-1] not in units or not text[:-1].isascii() \
            or not text[:-1].isdigit() or int(text[:-1]) == 0:
        raise argparse.ArgumentTypeError("a whole number and m, h or d, e.g. 90m, 12h, 3d")
    return timedelta(**{units[text[-1]]: int(text[:-1])})


def _deployment(db: str, say, create: bool = False):
    """The deployment at ``db`` (its ``tokens`` for the token commands); None (and why, on
    stderr) if there is no database there, unless a token is being created (which may make the
    deployment's file)."""
    from .deployment import exists, open_deployment

    if not create and not exists(db):
        _no_database(db, say)
        return None
    return _opened(say, lambda: open_deployment(db))


def _token_create(args) -> int:
    from events.envelope import utc_timestamp

    from .tokens import TokenError, check_scope

    say = args.say
    try:
        check_scope(args.role, args.tournament, args.match, args.seat)
    except TokenError as error:
        print(f"paiju token create: {_said(error, say)}", file=sys.stderr)
        return 2
    if args.tournament and args.role != "organiser" and not _tournament_exists(args):
        refused = say(Message("no tournament {tournament!r} in {db} (only an organiser token may "
                              "name a tournament it is yet to create)",
                              tournament=args.tournament, db=_shown(args.db)))
        print(f"paiju token create: {refused}", file=sys.stderr)
        return 2
    expires = (utc_timestamp(datetime.now(timezone.utc) + args.expires_in)
               if args.expires_in else None)
    deployment = _deployment(args.db, say, create=True)
    if deployment is None:
        return 2
    try:
        secret, token = deployment.tokens.create(args.role, args.tournament, args.match,
                                                 args.seat, args.name, expires)
    finally:
        deployment.close()
    print(secret)
    made = say(Message("token {token_id} ({scope}) — shown this once; keep it secret",
                       token_id=token.token_id, scope=_scope(token, say)))
    print(f"paiju: {made}", file=sys.stderr)
    return 0


def _tournament_exists(args) -> bool:
    from events.catalogue import tournament_stream

    store = _open_existing(args.db, args.say)
    if store is None:
        return False
    try:
        return store.stream_head(tournament_stream(args.tournament)) is not None
    finally:
        store.close()


def _scope(token, say) -> str:
    """What a token may act on, as a person reads it: its role (as ``--role`` writes it), then
    the tournament, match and seat it is bound to and when it expires."""
    parts = [token.role]
    if token.tournament_id:
        parts.append(say(Message("tournament {tournament}", tournament=token.tournament_id)))
    if token.match_id:
        parts.append(say(Message("match {match}", match=token.match_id)))
    if token.seat is not None:
        parts.append(say(Message("seat {seat}", seat=token.seat)))
    if token.expires_at:
        parts.append(say(Message("expires {at}", at=token.expires_at)))
    return ", ".join(parts)


def _token_list(args) -> int:
    """A token a line: its id first (what ``paiju token revoke`` takes), then its scope, its
    holder, when it was made and whether it still works."""
    say = args.say
    deployment = _deployment(args.db, say)
    if deployment is None:
        return 2
    try:
        for token in deployment.tokens.all():
            if token.revoked_at:
                state = say(Message("revoked {at}", at=token.revoked_at))
            else:
                state = say("active")
            created = say(Message("created {at}", at=token.created_at))
            print(f"{token.token_id}  {_scope(token, say)}  {token.name or '-'}  {created}  "
                  f"{state}")
    finally:
        deployment.close()
    return 0


def _token_revoke(args) -> int:
    say = args.say
    deployment = _deployment(args.db, say)
    if deployment is None:
        return 2
    try:
        token = deployment.tokens.revoke(args.token_id)
    finally:
        deployment.close()
    if token is None:
        unknown = say(Message("no token {token_id}", token_id=args.token_id))
        print(f"paiju token revoke: {unknown}", file=sys.stderr)
        return 2
    revoked = say(Message("token {token_id} revoked at {at}", token_id=token.token_id,
                          at=token.revoked_at))
    print(f"paiju: {revoked}")
    return 0


def _keys_init(args) -> int:
    from .signing import init_key

    path = Path(args.key) if args.key else _key_path(args.db)
    signer, made = init_key(path)
    key_id = signer.public_key_document()["key_id"]
    if made:
        said = Message("export key {key_id} made: {path}; public key {path}.pub",
                       key_id=key_id, path=path)
    else:
        said = Message("export key {key_id} already there (kept): {path}; public key "
                       "{path}.pub", key_id=key_id, path=path)
    print(f"paiju: {args.say(said)}", file=sys.stderr)
    return 0


def _entrants_import(args) -> int:
    """The file's rows registered through the store as one atomic batch (service/entrants.py),
    judged as POST …/entrants judges them; the report of every bad row on stderr, exit 1."""
    from events import default_catalogue

    from .appending import TournamentNotFound
    from .entrants import EntrantsRefused, register, report_lines

    say = args.say
    try:
        raw = Path(args.file).read_bytes()
    except OSError as error:
        _cannot_read(args.file, error, say)
        return 2
    store = _open_existing(args.db, say)
    if store is None:
        return 2
    # who recorded them: the operator of this machine, with the database's own rights
    meta = {"actor": f"cli:{os.environ.get('USER') or 'operator'}", "role": "admin",
            "source": f"paiju entrants import {Path(args.file).name}"[:200]}
    try:
        found, result = register(store, default_catalogue(), args.tournament, raw, meta)
    except TournamentNotFound:
        unknown = say(Message("no tournament {tournament!r} in {db}", tournament=args.tournament,
                              db=_shown(args.db)))
        print(f"paiju: {unknown}", file=sys.stderr)
        return 1
    except EntrantsRefused as refused:
        for line in report_lines(refused.errors, say):
            print(f"{args.file}: {line}", file=sys.stderr)
        nothing = say(Message("nothing was registered: {count} fault(s) in {file}",
                              count=len(refused.errors), file=args.file))
        print(f"paiju: {nothing}", file=sys.stderr)
        return 1
    finally:
        store.close()
    positions = [r.position for r in result.records]
    done = say(Message("registered {count} entrants of {file} in {tournament} (positions "
                       "{first}-{last}, one batch)", count=len(found), file=args.file,
                       tournament=args.tournament, first=positions[0], last=positions[-1]))
    print(f"paiju: {done}")
    return 0


def _db_upgrade(args) -> int:
    """Create or migrate a PostgreSQL database's schema; a new deployment's first admin token
    is made here, once (the nodes started after find it)."""
    from events.postgres_store import SchemaNotCurrent, is_postgres_url, upgrade_schema
    from events.store import StoreUnavailable

    from .deployment import open_deployment

    say = args.say
    if not is_postgres_url(args.db):
        refused = say("--db must be a postgresql:// URL (a SQLite file is set up by paiju serve "
                      "itself)")
        print(f"paiju db upgrade: {refused}", file=sys.stderr)
        return 2
    try:
        before, after = upgrade_schema(args.db)
    except (StoreUnavailable, SchemaNotCurrent) as error:
        print(f"paiju db upgrade: {_said(error, say)}", file=sys.stderr)
        return 2
    if before == after:
        state = Message("store schema {after} (already current) on {db}", after=after,
                        db=_shown(args.db))
    else:
        state = Message("store schema {after} (upgraded from {before}) on {db}", after=after,
                        before=before, db=_shown(args.db))
    print(f"paiju: {say(state)}")
    deployment = open_deployment(args.db)
    try:
        _first_admin_token(deployment.tokens, say)
    finally:
        deployment.close()
    return 0


def _migrate(args) -> int:
    """Every tournament's log (positions, ids and hashes as stored), the tokens and the
    webhooks, from one database into an empty one; each chain verified on both sides."""
    from events.store import RestoreConflict

    from .deployment import exists, open_deployment
    from .migration import MigrationRefused, migrate
    from .progress import counted

    say = args.say
    if not exists(args.source):
        _no_database(args.source, say, "paiju migrate")
        return 2
    source = _opened(say, lambda: open_deployment(args.source))
    target = source and _opened(say, lambda: open_deployment(args.target))
    if source is None or target is None:
        if source is not None:
            source.close()
        return 2
    try:
        report = migrate(source, target, lambda records: counted(
            records, say("migrated"), say("events"), total=source.store.last_position()))
    except (MigrationRefused, RestoreConflict) as error:
        print(f"paiju migrate: {_said(error, say)}", file=sys.stderr)
        return 1
    finally:
        source.close()
        target.close()
    done = say(Message("migrated {events} events of {tournaments} tournaments, {tokens} tokens "
                       "and {webhooks} webhooks from {source} to {target}; every chain "
                       "verified, heads identical", events=report.events,
                       tournaments=report.tournaments, tokens=report.tokens,
                       webhooks=report.webhooks, source=_shown(args.source),
                       target=_shown(args.target)))
    print(f"paiju: {done}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
