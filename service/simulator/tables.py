"""One table played by its bots through the HTTP API (:func:`play_match`), and several at once
(:func:`play_tables`): each move read from the referee's view, held back while it is the
timer's to make (:func:`held_back`, :class:`Waiting`), posted, and decided again when the table
moved on meanwhile (:func:`post_move`). Every game's simulation plays its tables here."""
from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Self, TypeVar

from rules.match_clock import moment
from rules.messages import Message

from .api import Api, ApiError
from .temporary_server import runs_timer

Action = tuple[str, dict]
T = TypeVar("T")
# What the timer appends at a deadline (the event types of rules/shengji, guandan and mahjong
# deadlines.py): against a server running its timer, never a bot's to post.
TIMER_EVENTS = frozenset({"DeclarationWindowClosed", "ClaimWindowClosed", "TimeLimitReached",
                          "TimeLimitExceeded", "GDTimeLimitExceeded", "SJ3TimeLimitExceeded",
                          "LatenessLimitReached"})
WAIT_SECONDS = 30.0  # a table waiting longer for the timer (or a pause) has a server without one
POLL_SECONDS = (0.005, 0.1)  # the first and the longest sleep between two reads while waiting
Observer = Callable[[str, str, dict], None]


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
