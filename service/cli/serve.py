"""``paiju serve`` (the HTTP API, gevent's server in front of a pool of threads:
service/serving.py) and ``paiju timer`` (the deployment's deadlines alone)."""
from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import threading
from pathlib import Path

from rules.messages import Message

from .common import LOG_FORMAT_HELP, add_db, first_admin_token, opened, shown


def add(commands) -> None:
    _add_serve(commands)
    _add_timer(commands)


def _add_serve(commands) -> None:
    serve = commands.add_parser("serve", help="serve the HTTP API (gevent's server in front of "
                                              "a pool of threads: service/serving.py)")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    add_db(serve)
    serve.add_argument("--threads", type=int, default=16, help="request worker threads")
    serve.add_argument("--key", help="the export signing key (default: paiju-signing.key beside "
                                     "a SQLite --db, var/paiju-signing.key for PostgreSQL)")
    serve.add_argument("--max-group", type=int, default=512,
                       help="appends that may share one commit (group commit); 1 turns it off")
    serve.add_argument("--no-timer", action="store_true",
                       help="do not run the timer here (another process of the deployment does)")
    serve.add_argument("--no-live-state", action="store_true",
                       help="fold every read and view from the log and its checkpoints, keeping "
                            "no live state of the matches (for comparison; slower)")
    serve.add_argument("--webhooks-allow-private", action="store_true",
                       help="accept webhook URLs on private, loopback and link-local addresses "
                            "(a receiver on this machine or network; refused by default)")
    serve.add_argument("--synchronous", choices=["FULL", "NORMAL", "OFF"], default="FULL",
                       help="SQLite's wait for the disk at each commit: FULL (the default) "
                            "loses nothing acknowledged; NORMAL may lose the last commits on a "
                            "power cut; OFF is for a throw-away database (a simulation's)")
    _add_web_options(serve)
    serve.set_defaults(run=_serve)


def _add_web_options(serve: argparse.ArgumentParser) -> None:
    """What serve's browsers, readers, logs and scrapers are told."""
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


def _add_timer(commands) -> None:
    timer = commands.add_parser("timer", help="run only the timer: fire every deadline of the "
                                "deployment (for WSGI workers started with paiju serve --no-timer "
                                "or another server)")
    add_db(timer)
    timer.add_argument("--log-format", choices=["text", "json"], default="text",
                       help=LOG_FORMAT_HELP)
    timer.set_defaults(run=_timer)


def _metrics_token(text: str) -> str:
    if len(text) < 16 or not text.isascii() or not text.isprintable() or " " in text:
        raise argparse.ArgumentTypeError("16 or more visible ASCII characters, no spaces")
    return text


def _log_to_stderr(log_format: str = "text", node: str | None = None) -> None:
    """What a serving process tells its operator: the timer's firings, checkpoints ignored and
    rebuilt, failures (INFO and above, on standard error), as text or JSON lines, each written
    during a request with the request's id (service/request_log.py)."""
    from ..request_log import configure

    configure(log_format, os.environ.get("PAIJU_NODE") or node)
    # their own chatter (waitress's queue depth, APScheduler's every run of a job) is noise
    logging.getLogger("waitress").setLevel(logging.ERROR)
    logging.getLogger("apscheduler").setLevel(logging.WARNING)


def _config(args) -> dict:
    """The app's settings (service/app.py DEFAULTS) from serve's arguments."""
    from ..i18n import DEFAULT_LANGUAGE

    return {"DATABASE": args.db, "SQLITE_MAX_GROUP": args.max_group,
            "SQLITE_SYNCHRONOUS": args.synchronous, "TIMER": not args.no_timer,
            "PG_POOL_SIZE": args.threads + 4, "SIGNING_KEY": args.key,
            "WEBHOOKS_ALLOW_PRIVATE": args.webhooks_allow_private,
            "CORS_ORIGINS": tuple(args.cors_origin),
            "FRAME_ANCESTORS": tuple(args.frame_ancestor),
            "LIVE_POLL_SECONDS": args.live_poll_seconds, "METRICS_TOKEN": args.metrics_token,
            "LANGUAGE": args.language or DEFAULT_LANGUAGE,
            "LIVE_STATE": False if args.no_live_state else None}


def _serve(args) -> int:
    import socket

    from ..app import create_app
    from ..metrics import metrics_of, multiprocess_dir, since_start

    _log_to_stderr(args.log_format, f"{socket.gethostname()}:{args.port}")
    say = args.say
    if multiprocess_dir() is not None and not Path(multiprocess_dir()).is_dir():
        refused = say(Message("PROMETHEUS_MULTIPROC_DIR={path} is not a directory: make it "
                              "(empty) before paiju serve starts", path=multiprocess_dir()))
        print(f"paiju: {refused}", file=sys.stderr)
        return 2
    app = opened(say, lambda: create_app(_config(args)))
    if app is None:
        return 2
    metrics = metrics_of(app)  # the start's phases: seconds from the process's start
    metrics.record_phase("opened", since_start())  # the store, the checkpoints, the app
    services = app.extensions["paiju"]
    first_admin_token(services.tokens, say)
    if services.timer is not None:
        services.timer.start()  # fires what passed while the service was down, then plans
        metrics.record_phase("timer-started", since_start())
        _record_when_caught_up(services.timer, metrics, since_start)
    services.webhook_delivery.start()  # from each webhook's stored cursor (the lease's holder)
    try:
        return _listen(args, app, lambda: metrics.record_phase("listening", since_start()))
    finally:
        _close(services)


def _listen(args, app, record_listening) -> int:
    """Serve until stopped: 0, or 2 when the address cannot be listened on."""
    from ..serving import serve

    say = args.say

    def listening():
        record_listening()
        print(say(Message("paiju serving on {url} (database {db})",
                          url=f"http://{args.host}:{args.port}", db=shown(args.db))),
              flush=True)
    try:
        serve(app, args.host, args.port, args.threads, listening)
    except OSError as error:  # the port is taken, or the address is not this machine's
        refused = say(Message("cannot listen on {address}: {error}",
                              address=f"{args.host}:{args.port}",
                              error=error.strerror or error))
        print(f"paiju: {refused}", file=sys.stderr)
        return 2
    return 0


def _close(services) -> None:
    """A serving process's end, in order: nothing written is lost, nobody is left waiting."""
    services.hub.close()  # every subscription told to reconnect elsewhere
    services.webhook_delivery.stop()  # the attempt in flight is recorded first
    if services.timer is not None:
        services.timer.shutdown()
    services.store.close()
    services.cache.close()  # what is queued is written, then the file closes


def _record_when_caught_up(timer, metrics, since_start) -> None:
    """The phase ``timer-caught-up``, once the timer says so (service/scheduler.py)."""
    caught_up = getattr(timer, "caught_up", None)
    if caught_up is None:
        return

    def record():
        caught_up.wait()
        metrics.record_phase("timer-caught-up", since_start())
    threading.Thread(target=record, name="paiju-startup-phase", daemon=True).start()


def _timer(args) -> int:
    """The timer alone, until stopped: the same leader lease as a serving process's timer, so
    any number of timers and servers may run on one database."""
    import socket

    from ..app import create_app

    _log_to_stderr(args.log_format, f"{socket.gethostname()}:timer")
    app = opened(args.say, lambda: create_app({"DATABASE": args.db, "TIMER": True}))
    if app is None:
        return 2
    services = app.extensions["paiju"]
    signal.signal(signal.SIGTERM, _stop_like_ctrl_c)
    services.timer.start()
    print(args.say(Message("paiju timer running on {db}", db=shown(args.db))), flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
    finally:
        services.timer.shutdown()
        services.store.close()
        services.cache.close()
    return 0


def _stop_like_ctrl_c(signum, frame):
    """SIGTERM stops the server as Ctrl-C does, so that the store is closed cleanly."""
    raise KeyboardInterrupt
