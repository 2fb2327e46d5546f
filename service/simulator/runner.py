"""Runs a whole knockout through the HTTP API: registers teams, draws each round on the server,
starts every match and plays it with the table bots of its game, until the bracket is decided.

A game is a :class:`GameSetup` in ``GAMES``: the tournament's game code, the bots (a function
from the referee's view of a match to its next event), the match settings the simulation plays with, and how rounds are drawn.

Against ``--url`` it uses a running server; without it, it starts a server of its own on a
temporary database, on a free local port, and stops it at the end.

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
as a referee would. Every ``timer`` argument below: True or False, or None (the default) — the
temporary server's own if ``url`` is one in this process (:func:`runs_timer`), else True.
"""
from __future__ import annotations

import http.client
import json
import logging
import random
import tempfile
import threading
import time
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from functools import partial
from pathlib import Path
from typing import Self, TypeVar
from urllib.parse import urlsplit

from events.envelope import utc_timestamp
from rules.match_clock import moment
from rules.messages import N_, Message

from . import bots as sj2_bots
from . import guandan_bots

Action = tuple[str, dict]
T = TypeVar("T")
HELD_ANSWERS = 16  # the answers the client keeps for conditional reads

# What the timer appends at a deadline (the event types of rules/shengji, guandan and mahjong
# deadlines.py): against a server running its timer, never a bot's to post.
TIMER_EVENTS = frozenset({"DeclarationWindowClosed", "ClaimWindowClosed", "TimeLimitReached",
                          "TimeLimitExceeded", "GDTimeLimitExceeded", "SJ3TimeLimitExceeded",
                          "LatenessLimitReached"})
WAIT_SECONDS = 30.0  # a table waiting longer for the timer (or a pause) has a server without one
POLL_SECONDS = (0.005, 0.1)  # the first and the longest sleep between two reads while waiting


@dataclass(frozen=True)
class GameSetup:
    """What the runner needs to know of a game."""
    game: str                                   # the tournament's game (T-1.1)
    next_action: Callable[..., Action | None]   # (referee view, rng, **options) -> next event
    match_settings: Mapping = field(default_factory=dict)  # the simulation's defaults
    draw: Mapping = field(default_factory=dict)  # the body of POST …/draws
    prizes: Mapping[int, str] | None = None     # place -> prize: the report shows a podium
    decisions: bool = False                     # the match list says why each match ended


GAMES: Mapping[str, GameSetup] = {
    # SJ2: the bots bid while the cards are drawn, so the declaration window is not waited out:
    # the timer closes it at DealCompleted
    "sj2": GameSetup("SJ2", sj2_bots.next_action,
                     {"declarationWindowSeconds": 0}),
    # 掼蛋 of seed 001: rounds drawn with matching playing cards (T-5.5)
    "guandan": GameSetup("GD", guandan_bots.next_action,
                         draw={"method": "cards"}, prizes={1: "$900", 2: "$600", 3: "$300"},
                         decisions=True),  # T-5.7 prizes
}


class ApiError(RuntimeError):
    def __init__(self, method: str, path: str, status: int, body: object):
        super().__init__(f"{method} {path} → {status}: {body}")
        self.status, self.body = status, body


class Api:
    """A small JSON client on one kept-alive connection. It reads as a table app should: a
    ``GET`` it has made before carries the answer's ``ETag`` in ``If-None-Match``, and a
    ``304 Not Modified`` gives back the answer it already holds."""

    def __init__(self, url: str, token: str | None = None):
        self.url, self.token = url, token
        parts = urlsplit(url)
        # the bots read the API's machine fields; what they keep of a refusal (a failed table's
        # reason, in the log) is in English whatever language the deployment speaks
        self.auth = {**({"Authorization": f"Bearer {token}"} if token else {}),
                     "Accept-Language": "en"}
        self.host, self.port = parts.hostname, parts.port or 80
        self.conn = http.client.HTTPConnection(self.host, self.port, timeout=60)
        self.requests = self.not_modified = 0
        # path -> (ETag, the answer), the paths read last: a table's reads, not every page
        self._held: OrderedDict[str, tuple[str, object]] = OrderedDict()

    def call(self, method: str, path: str, body: object | None = None,
             conditional: bool = True) -> dict:
        """``conditional=False``: a GET without ``If-None-Match`` (a clock read, whose ETag
        leaves out the countdown, is read afresh for the server's present)."""
        payload = None if body is None else json.dumps(body, ensure_ascii=False).encode()
        headers = {**self.auth, **({"Content-Type": "application/json"} if payload else {})}
        held = self._held.get(path) if method == "GET" and conditional else None
        if held is not None:
            headers["If-None-Match"] = held[0]
        response, data = self._send(method, path, payload, headers)
        self.requests += 1
        if response.status == 304 and held is not None:
            self.not_modified += 1
            return held[1]
        parsed = json.loads(data) if data else None
        if response.status >= 400:
            raise ApiError(method, path, response.status, parsed)
        if method == "GET" and (etag := response.getheader("ETag")):
            self._hold(path, etag, parsed)
        return parsed

    def _hold(self, path: str, etag: str, answer: object) -> None:
        self._held[path] = (etag, answer)
        self._held.move_to_end(path)
        if len(self._held) > HELD_ANSWERS:
            self._held.popitem(last=False)

    def _send(self, method: str, path: str, payload: bytes | None, headers: dict):
        for attempt in (1, 2):  # a kept-alive connection the server closed: open it again
            try:
                self.conn.request(method, path, payload, headers)
                response = self.conn.getresponse()
                return response, response.read()
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                self.conn.close()
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def pages(self, path: str, name: str) -> list:
        """Every item of a paged read (``name``: its list), following ``next``."""
        items, url = [], path
        while url:
            page = self.call("GET", url)
            items += page[name]
            url = page["next"]
        return items

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> Api:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()


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


Observer = Callable[[str, str, dict], None]


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


def play_match(api: Api, tid: str, match_id: str,
               next_action: Callable[..., Action | list[Action] | None],
               rng: random.Random, observe: Observer | None = None,
               bot_options: Mapping | None = None, max_moves: int | None = None,
               timer: bool | None = None) -> dict:
    """Starts the match and lets the bots (``next_action``, from the referee's view) play it
    out; returns its last referee view. Every game's simulation plays its matches here. A move
    is one event or a batch of them (a list), posted in one request. ``timer``: the server runs
    its timer, whose events the bots leave to it (:func:`held_back`); ``observe`` sees each
    view the bots decide on once."""
    started = api.call("POST", f"/v1/tournaments/{tid}/matches", {"match_id": match_id})
    stream, path = started["stream"], f"/v1/tournaments/{tid}/matches/{match_id}?as=referee"
    timer = runs_timer(api.url) if timer is None else timer
    waiting = Waiting(api, tid, match_id)
    moves, observed = 0, None
    while max_moves is None or moves < max_moves:
        view = api.call("GET", path)
        if observe is not None and view is not observed:
            observe(tid, match_id, view)
        observed = view
        action = next_action(view, rng, **(bot_options or {}))
        if action is None:
            return view
        reason = held_back(view, action, timer, waiting.clock)
        if reason is not None:
            waiting.hold(reason)
            waiting.sleep()
            continue
        waiting.clear()
        if post_move(api, tid, _body(action, stream), path, view):
            moves += 1
    raise RuntimeError(Message("match {match_id} did not end in {max_moves} moves",
                               match_id=match_id, max_moves=max_moves))


def runs_timer(url: str) -> bool:
    """Whether the server at ``url`` runs its timer: a :func:`temporary_server` of this process
    as it was started, any other server as ``paiju serve`` starts it (with its timer)."""
    return _TEMPORARY_TIMERS.get(url.rstrip("/"), True)


class Reason(str):
    """What a table waits for (:func:`held_back`): the English sentence, a str as its callers
    read it, with its :class:`Message` (``.message``), said in the reader's language if the
    wait is given up (:meth:`Waiting.hold`)."""

    def __new__(cls, message: Message) -> Self:
        reason = super().__new__(cls, str(message))
        reason.message = message
        return reason


def held_back(view: Mapping, move: Action | list[Action], timer: bool,
              clock: Callable[[], dict] | None = None) -> Reason | None:
    """What the table waits for before ``move`` (a bot's next, at the table ``view`` shows),
    or None: post it now. Against a server running its ``timer``: an event of the timer's
    (``TIMER_EVENTS``), or SJ3's kitty in the dealer's pause — both come from the timer, the
    pause ending with its DeclarationWindowClosed (SJ3-3.6). Without a timer the bots post
    every event themselves, and take the kitty once the pause has passed on the server's clock:
    ``clock()``, the match's clock read (its ``now`` is the time a post would be recorded at)."""
    moves = move if isinstance(move, list) else [move]
    owned = next((event_type for event_type, _ in moves if event_type in TIMER_EVENTS), None)
    if owned is not None:
        return Reason(Message("the server's timer to post {event_type}",
                              event_type=owned)) if timer else None
    if not _in_the_pause(view, moves):
        return None
    if timer:
        return Reason(Message("the end of the dealer's pause (SJ3-3.6): the timer's "
                              "DeclarationWindowClosed"))
    if clock is None:
        return None
    read = clock()
    ends = [c["deadline"] for c in read["clocks"] if c["event_type"] == "DeclarationWindowClosed"]
    if ends and moment(read["now"]) < moment(ends[0]):
        return Reason(Message("the end of the dealer's pause (SJ3-3.6) at {deadline}",
                              deadline=ends[0]))
    return None


def _in_the_pause(view: Mapping, moves: list[Action]) -> bool:
    """SJ3-3.6: ``moves`` take the kitty while the hand is still declaring — after
    DrawingEnded, before the pause has been closed."""
    hand = view.get("current_hand")
    return (hand is not None and hand["phase"] == "declaring"
            and any(event_type == "KittyTaken" for event_type, _ in moves))


class Waiting:
    """How long one table has been held back (:func:`held_back`): at most ``WAIT_SECONDS`` on
    end, then a RuntimeError that says what it waited for."""

    def __init__(self, api: Api, tid: str, match_id: str):
        self.api, self.match_id = api, match_id
        self.clock_path = f"/v1/tournaments/{tid}/matches/{match_id}/clock"
        self.since: float | None = None
        self.sleeps = 0

    def clock(self) -> dict:
        """The match's clocks read now (not a held answer: ``now`` is the server's present)."""
        return self.api.call("GET", self.clock_path, conditional=False)

    def hold(self, reason: Reason | str) -> None:
        now = time.monotonic()
        if self.since is None:
            self.since, self.sleeps = now, 0
        elif now - self.since > WAIT_SECONDS:
            raise RuntimeError(Message(
                "match {match_id}: waited {seconds:.0f} s for {reason}, in vain; does the "
                "server at {url} run its timer (paiju serve without --no-timer)?",
                match_id=self.match_id, seconds=WAIT_SECONDS,
                reason=getattr(reason, "message", reason), url=self.api.url))

    def sleep(self) -> None:
        """A short sleep before the next read, longer as the wait goes on."""
        first, longest = POLL_SECONDS
        time.sleep(min(first * 2 ** self.sleeps, longest))
        self.sleeps += 1

    def clear(self) -> None:
        self.since = None


def post_move(api: Api, tid: str, body: dict, path: str, view: Mapping) -> bool:
    """Posts a bot's move, decided on ``view`` (read from ``path``); False if it was refused
    because the table moved on meanwhile — the timer's event came first — so that the bots
    decide again on the new read. Any other refusal is the rules disagreeing: ApiError."""
    try:
        api.call("POST", f"/v1/tournaments/{tid}/events", body)
    except ApiError as error:
        if error.status != 422 or api.call("GET", path)["version"] == view["version"]:
            raise
        return False
    return True


def play_tables(api: Api, match_ids: list[str], play: Callable[[Api, str, random.Random], T],
                seed: int, at_once: int = 1) -> list[T]:
    """Plays the matches ``match_ids`` — ``play(api, match id, rng)``, each with a generator of
    its own seeded by ``seed`` and the match — up to ``at_once`` at the same time, each on a
    connection of its own (counted in ``api.requests``); returns what each ``play`` returned,
    in order. The outcome is the same whatever ``at_once``: a match's moves depend only on its
    own generator and what the server answers."""
    def one(match_id: str) -> tuple[T, int]:
        if at_once == 1:
            return play(api, match_id, table_rng(seed, match_id)), 0
        with Api(api.url, api.token) as own:
            return play(own, match_id, table_rng(seed, match_id)), own.requests
    if at_once == 1:
        results = [one(m) for m in match_ids]
    else:
        with ThreadPoolExecutor(max_workers=at_once, thread_name_prefix="table") as pool:
            results = list(pool.map(one, match_ids))
    api.requests += sum(requests for _, requests in results)
    return [result for result, _ in results]


def table_rng(seed: int, match_id: str) -> random.Random:
    """The bots' generator at one table: the same for the same seed and table, on any
    machine (a string seed is hashed with SHA-512)."""
    return random.Random(f"{seed}/{match_id}")


def _body(action: Action | list[Action], stream: str) -> dict:
    """The request of a bot's move: one event, or a batch (the answers of several seats to a
    claim window, posted by the table at once)."""
    if isinstance(action, list):
        return {"events": [_event(a, stream) for a in action]}
    return _event(action, stream)


def _event(action: Action, stream: str) -> dict:
    event_type, data = action
    return {"type": event_type, "stream": stream, "data": data,
            "meta": {"source": "paiju simulate"}}


def _tribute_cases(history: list[dict]) -> Counter:
    """Guandan (GD-7.1, 7.5): the completed hands by tribute case, anti-tributes apart."""
    return Counter("anti-tribute" if row["anti_tribute"] else row["tribute"]
                   for row in history if "tribute" in row)


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


_TEMPORARY_TIMERS: dict[str, bool] = {}  # the temporary servers running: url -> timer


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


# Every report below is said by ``say`` (a Message or a sentence of the catalogue -> the
# reader's words; ``str``, the default, gives the English): ``paiju simulate`` passes the
# language of its reader (service/cli.py). Ids, event types, codes and figures stay as they are.

def report(outcome: Outcome, say=str) -> str:
    """What the simulation printed: the champion, the bracket round by round, event counts."""
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


def cost(outcome: EventOutcome | Outcome, say=str) -> str:
    """The end of a report's first line: the events logged, the requests, the time taken."""
    return say(Message("{events} events, {requests} requests in {seconds:.1f} s",
                       events=sum(outcome.event_counts.values()), requests=outcome.requests,
                       seconds=outcome.seconds))


def events_line(counts: Counter, say=str) -> str:
    """A report's last line: the events of the log by type."""
    return say(Message("events: {counts}", counts=", ".join(
        f"{t} {n}" for t, n in sorted(counts.items()))))


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
