"""A throw-away paiju server in this process (waitress, a temporary database, a free local port)
for what must share the app with the bots — a simulated clock (Guandan's time limits, the team
event's alerts), the tests that read its store — with its timer driven by the requests; and
that simulated clock. A server in a process of its own is server_process.py's."""
from __future__ import annotations

import logging
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path

from events.envelope import utc_timestamp

_TEMPORARY_TIMERS: dict[str, bool] = {}  # the temporary servers running: url -> timer


def runs_timer(url: str) -> bool:
    """Whether the server at ``url`` runs its timer: a :func:`temporary_server` of this process
    as it was started, any other server as ``paiju serve`` starts it (with its timer)."""
    return _TEMPORARY_TIMERS.get(url.rstrip("/"), True)


@dataclass(frozen=True)
class Served:
    url: str
    database: str
    app: object  # the Flask app being served
    token: str   # an admin token of the temporary deployment
    timer: bool = True  # whether its timer runs


@contextmanager
def temporary_server(threads: int = 4, clock: "SimulatedClock | None" = None,
                     timer: bool | None = None) -> Iterator[Served]:
    """A paiju server (waitress, in this process) on a temporary database and a free local
    port, for the duration; ``clock`` gives the times it records and the timer's present
    (default: the system's). ``timer``: the deployment's timer runs, driven by the requests
    (:class:`RequestDrivenTimer`) — by default on the system's clock, not on a simulated one:
    that clock moves with the events of every table, so a table's move limits would pass at
    the pace of the whole room (``timer=True`` where one table plays at a time: Guandan)."""
    from waitress.server import create_server

    from service import create_app

    with tempfile.TemporaryDirectory(prefix="paiju-simulate-") as folder:
        database = str(Path(folder) / "paiju.db")
        # the timer's present (a preview's time too) is the simulated clock's next reading
        now = None if clock is None else (lambda: clock.now + clock.step)
        # a database deleted at the end: waiting for the disk at every commit, or keeping
        # checkpoints for the next start, buys nothing
        app = create_app({"DATABASE": database, "CLOCK": clock, "NOW": now,
                          "SQLITE_SYNCHRONOUS": "OFF", "CHECKPOINTS": False})
        timer = clock is None if timer is None else timer
        if timer:
            app.wsgi_app = RequestDrivenTimer(app.wsgi_app, app.extensions["paiju"].timekeeper)
        token, _ = app.extensions["paiju"].tokens.create("admin", name="paiju simulate")
        server = create_server(app, host="127.0.0.1", port=0, threads=threads)
        stopping = threading.Event()
        worker = threading.Thread(target=_serve_until_closed, args=(server, stopping),
                                  daemon=True)
        worker.start()
        url = f"http://127.0.0.1:{server.effective_port}"
        _TEMPORARY_TIMERS[url] = timer
        try:
            yield Served(url, database, app, token, timer)
        finally:
            _TEMPORARY_TIMERS.pop(url, None)
            server.task_dispatcher.shutdown()  # let running requests finish, then stop
            stopping.set()
            server.close()
            worker.join(timeout=5)
            app.extensions["paiju"].store.close()
            app.extensions["paiju"].cache.close()


class RequestDrivenTimer:
    """The temporary server's timer (service/timekeeping.py): the timekeeper follows the log
    after every write the server answers and fires what is due then and before every read, in
    the request, before its answer — ``paiju serve``'s nudge after each POST, made synchronous.

    On a simulated clock time moves only when an event is recorded, so every deadline fires at
    the first write that reaches it, before the answer to that write: exactly where it falls,
    the same on every run (a scheduler in the background would fire it a little earlier or
    later among the bots' moves). On the system's clock a deadline fires at the first request
    after it, e.g. the read of a table waiting for it. Nothing runs between requests, and the
    lease is this process's own (a throw-away deployment has one): a test may open the same
    database afterwards with an app and timer of its own."""

    def __init__(self, wsgi_app, timekeeper):
        from service.leases import SoleLease

        self.wsgi_app, self.timekeeper = wsgi_app, timekeeper
        timekeeper.lease = SoleLease()
        timekeeper.start()

    def __call__(self, environ, start_response):
        method = environ.get("REQUEST_METHOD")
        if method == "GET":  # only this server writes here: the log is followed after writes
            self._tick(self.timekeeper.fire_due)
        answer = self.wsgi_app(environ, start_response)
        if method == "POST":
            self._tick(self.timekeeper.tick)
        return answer

    @staticmethod
    def _tick(tick) -> None:
        try:
            tick()
        except Exception:  # as the scheduler's job: one bad tick is logged, the next tries again
            logging.getLogger("paiju.timer").exception("timer tick failed")


def _serve_until_closed(server, stopping: threading.Event) -> None:
    """Run the server's loop; closing the server under a ``select`` in progress ends it with
    a bad descriptor, which is the end asked for, not a failure."""
    try:
        server.run()
    except OSError:
        if not stopping.is_set():
            raise


class SimulatedClock:
    """A server clock for simulations: each recorded event is ``seconds_per_event`` later than
    the one before, so that a whole timed event (60-minute rounds, 15-second windows) runs in
    seconds while every time rule is still judged on recorded times."""

    def __init__(self, seconds_per_event: float, start: datetime | None = None):
        self.now = start or datetime(2019, 6, 8, 10, 0, tzinfo=timezone.utc)
        self.step = timedelta(seconds=seconds_per_event)
        self._lock = threading.Lock()

    def __call__(self) -> str:
        with self._lock:
            self.now += self.step
            return utc_timestamp(self.now)

    def advance(self, minutes: float = 0, seconds: float = 0) -> None:
        """Let time pass with no event: a test's way to reach a time limit."""
        with self._lock:
            self.now += timedelta(minutes=minutes, seconds=seconds)
