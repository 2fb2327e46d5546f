"""The ``paiju`` command: serve the API, verify the log, export a tournament, simulate one."""
from __future__ import annotations

import argparse
import signal
import sys
from pathlib import Path

DEFAULT_DB = "var/paiju.db"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="paiju", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

    serve = commands.add_parser("serve", help="serve the HTTP API (waitress, production WSGI)")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--db", default=DEFAULT_DB, help="SQLite database file (created if new)")
    serve.add_argument("--threads", type=int, default=16, help="request worker threads")
    serve.add_argument("--max-group", type=int, default=512,
                       help="appends that may share one commit (group commit); 1 turns it off")
    serve.set_defaults(run=_serve)

    verify = commands.add_parser("verify", help="walk the hash chain of every tournament, or one")
    verify.add_argument("--db", default=DEFAULT_DB)
    verify.add_argument("--tournament", help="only this tournament")
    verify.set_defaults(run=_verify)

    export = commands.add_parser("export", help="write a tournament's log to standard output")
    export.add_argument("--tournament", required=True)
    export.add_argument("--format", choices=["jsonl"], default="jsonl")
    export.add_argument("--db", default=DEFAULT_DB)
    export.set_defaults(run=_export)

    simulate = commands.add_parser(
        "simulate", help="play a whole knockout with random legal bots through the HTTP API")
    simulate.add_argument("game", choices=["sj2", "guandan", "mjo"])
    simulate.add_argument("--url", help="a running paiju server (default: start a temporary "
                                        "one on a temporary database)")
    simulate.add_argument("--teams", type=_at_least(2),
                          help="pairs in the knockout (default: 8 for sj2, 16 for guandan)")
    simulate.add_argument("--seed", type=int, default=1, help="seeds the deals and the bots")
    simulate.add_argument("--max-hands", type=_at_least(1), help="sj2: match setting maxHands")
    simulate.add_argument("--target-level", choices=list("23456789TJQK"),
                          help="sj2: match setting targetLevel")
    simulate.add_argument("--seconds-per-move", type=float,
                          help="guandan: the temporary server records every event this many "
                               "simulated seconds after the one before, the clock on which the "
                               "60- and 90-minute limits pass (default 9). With --url the "
                               "server's time is real: a limit is reached only after 60 real "
                               "minutes, so matches are decided by play (not with --url)")
    simulate.add_argument("--third-place", choices=["playoff", "shared"], default="playoff")
    simulate.add_argument("--players", type=_at_least(4), default=16,
                          help="mjo: players in the groups of four (default 16: 4 tables, a final)")
    simulate.add_argument("--session-hands", type=_at_least(1),
                          help="mjo: hands per table (default: one round of winds)")
    simulate.set_defaults(run=_simulate, parser=simulate)

    args = parser.parse_args(argv)
    return args.run(args)


def _at_least(low: int):
    def whole_number(text: str) -> int:
        value = int(text)
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}")
        return value
    return whole_number


_DEFAULT_TEAMS = {"sj2": 8, "guandan": 16}  # guandan: seed 001 expects 16-20 teams (T-5.2)


def _simulate(args) -> int:
    from .simulator.runner import ApiError, report, simulate, temporary_server

    if args.game == "mjo":
        return _simulate_mjo(args)

    match = {key: value for key, value in (("maxHands", args.max_hands),
                                           ("targetLevel", args.target_level)) if value}
    if match and args.game != "sj2":
        args.parser.error("--max-hands and --target-level are settings of sj2 matches")
    if args.seconds_per_move is not None and args.game != "guandan":
        args.parser.error("--seconds-per-move is the clock of guandan matches")
    if args.seconds_per_move is not None and args.seconds_per_move <= 0:
        args.parser.error("--seconds-per-move must be more than 0")
    if args.seconds_per_move is not None and args.url:
        args.parser.error("--seconds-per-move is the temporary server's simulated clock; the "
                          "server at --url keeps real time")
    teams = args.teams or _DEFAULT_TEAMS[args.game]
    run = lambda url, options: simulate(url, teams, args.seed, match,  # noqa: E731
                                        {"thirdPlace": args.third_place}, game=args.game,
                                        bot_options=options)
    try:
        if args.url:  # real time: the referee posts a limit only once it has really passed
            outcome = run(args.url, {"seconds_per_move": 0} if args.game == "guandan" else {})
        else:
            clock, options = _simulated_clock(args)
            with temporary_server(clock=clock) as server:
                outcome = run(server.url, options)
    except (ApiError, OSError) as error:
        print(f"paiju simulate: {error}", file=sys.stderr)
        return 1
    print(report(outcome))
    return 0 if outcome.champion else 1


def _simulated_clock(args):
    """Guandan (T-5.4): the temporary server's clock moves ``--seconds-per-move`` per recorded
    event, and the referee bots time the limits by that step; other games keep real time."""
    from .simulator.guandan_bots import SECONDS_PER_MOVE
    from .simulator.runner import SimulatedClock

    if args.game != "guandan":
        return None, {}
    seconds = args.seconds_per_move or SECONDS_PER_MOVE
    return SimulatedClock(seconds), {"seconds_per_move": seconds}


def _simulate_mjo(args) -> int:
    """A groups-of-four MJO event: stages of tables down to a final table (T-8, T-7.2)."""
    from .simulator.mahjong import advance_for, report, simulate
    from .simulator.runner import ApiError, temporary_server

    match = {"sessionHands": args.session_hands} if args.session_hands else {}
    advance = advance_for(args.players)
    if args.players % 4:
        args.parser.error("--players: tables of four need a multiple of four (T-8.1)")
    run = lambda url: simulate(url, args.players, args.seed, advance, match)  # noqa: E731
    try:
        if args.url:
            outcome = run(args.url)
        else:
            with temporary_server() as server:
                outcome = run(server.url)
    except (ApiError, OSError, RuntimeError) as error:
        print(f"paiju simulate: {error}", file=sys.stderr)
        return 1
    print(report(outcome))
    return 0 if outcome.standings.get("final") else 1


def _serve(args) -> int:
    import waitress

    from .app import create_app

    app = create_app({"DATABASE": args.db, "SQLITE_MAX_GROUP": args.max_group})
    signal.signal(signal.SIGTERM, _stop_like_ctrl_c)
    print(f"paiju serving on http://{args.host}:{args.port} (database {args.db})", flush=True)
    try:
        waitress.serve(app, host=args.host, port=args.port, threads=args.threads,
                       ident="paiju", _quiet=True)
    except KeyboardInterrupt:
        pass
    finally:
        app.extensions["paiju"].store.close()
    return 0


def _stop_like_ctrl_c(signum, frame):
    """SIGTERM stops the server as Ctrl-C does, so that the store is closed cleanly."""
    raise KeyboardInterrupt


def _open_existing(path: str):
    from events.sqlite_store import SQLiteEventStore

    if not Path(path).is_file():
        print(f"paiju: no database at {path}", file=sys.stderr)
        return None
    return SQLiteEventStore(path)


def _verify(args) -> int:
    store = _open_existing(args.db)
    if store is None:
        return 2
    try:
        reports = [store.verify(args.tournament)] if args.tournament else store.verify_all()
        failures = 0
        for report in reports:
            tid = report.tournament_id
            if report.checked == 0 and report.ok:
                print(f"{tid}: no events", file=sys.stderr)
                failures += 1
            elif report.ok:
                print(f"{tid}: ok, {report.checked} events, head {report.last_position} "
                      f"{report.last_hash}")
            else:
                failures += 1
                print(f"{tid}: BROKEN at position {report.first_bad_position}: {report.problem} "
                      f"({report.checked} events verified before it)")
        return 1 if failures else 0
    finally:
        store.close()


def _export(args) -> int:
    store = _open_existing(args.db)
    if store is None:
        return 2
    try:
        count = 0
        for record in store.read_tournament(args.tournament):
            sys.stdout.write(record.to_json_line() + "\n")
            count += 1
        if count == 0:
            print(f"paiju: no events for tournament {args.tournament}", file=sys.stderr)
            return 1
        print(f"paiju: exported {count} events of {args.tournament}", file=sys.stderr)
        return 0
    finally:
        store.close()


if __name__ == "__main__":
    sys.exit(main())
