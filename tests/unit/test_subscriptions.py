"""A subscriber's cursor (service/subscriptions.py): once its buffer overflows nothing more is
buffered, so the position it resumes from is the last one it received; a page of history with
nothing for its filter never makes a stream wait for a heartbeat, and streams opened together do
not beat in step (service/event_stream.py)."""
from __future__ import annotations

import threading

from events.envelope import NewEvent
from events.memory_store import InMemoryEventStore
from service.api.live import HALL_GATHER_SECONDS, LOG_GATHER_SECONDS, _gather_seconds
from service.event_stream import HEARTBEAT, NOT_HERE, EventStream
from service.i18n import catalogue
from service.subscriptions import CATCH_UP_PAGE, Filter, Hub, Subscription


def stored(store: InMemoryEventStore, count: int, type_: str = "TeamRegistered") -> list:
    return store.append("t", [NewEvent(type=type_, stream="tournament-t", data={"n": n})
                              for n in range(count)]).records


def test_after_an_overflow_nothing_more_is_buffered_and_nothing_is_skipped():
    store = InMemoryEventStore()
    r1, r2, r3, r4 = stored(store, 4)
    sub = Subscription(store, "t", Filter(), after=0, live_from=0, capacity=2)
    # the third finds the buffer full: False, drop this subscriber
    assert [sub.offer(record) for record in (r1, r2, r3)] == [True, True, False]
    assert [r.position for r in sub.take()] == [1, 2]
    assert sub.offer(r4) is False  # room again, but 3 was lost to it: 4 must not follow 2
    assert sub.take() == [] and sub.overflowed and sub.sent == 2


def test_catching_up_reads_past_pages_with_nothing_for_the_filter():
    store = InMemoryEventStore()
    stored(store, CATCH_UP_PAGE * 2 + 10)
    (wanted,) = stored(store, 1, "TournamentArchived")
    hub = Hub(store, poll_seconds=60)
    sub = hub.subscribe("t", Filter(types=frozenset({"TournamentArchived", "LotsDrawn"})), 0)
    stream = EventStream(hub, sub, lambda r: (r.type, None), heartbeat_seconds=60)
    assert stream.frames() == [f"id: {wanted.position}\ndata: TournamentArchived\n\n".encode()]
    hub.close()


class Ready:
    """A ready flag that never waits: the test pulls the pump by hand."""
    def clear(self): pass
    def wait(self, seconds): return True


class TimedOut:
    """A ready flag that nothing ever sets: each wait times out, and is noted."""
    def __init__(self):
        self.waits: list[float] = []

    def clear(self): pass

    def wait(self, seconds):
        self.waits.append(seconds)
        return False


def test_an_idle_stream_beats_after_each_heartbeat_the_first_at_a_moment_of_its_own():
    store = InMemoryEventStore()
    hub = Hub(store, poll_seconds=60)
    firsts = set()
    for _ in range(20):  # twenty tablets reconnecting at once to a node that restarted
        ready = TimedOut()
        sub = Subscription(store, "t", Filter(), after=0, live_from=0)
        pump = EventStream(hub, sub, lambda r: (r.type, None), heartbeat_seconds=60).pump(ready)
        assert next(pump).startswith(b"retry: ")
        assert [next(pump), next(pump)] == [HEARTBEAT, HEARTBEAT]
        first, second = ready.waits
        assert 0 <= first < 60 and second == 60
        firsts.add(first)
    assert len(firsts) == 20  # out of step: their beats and token checks come apart


def test_a_loop_sends_what_needs_no_thread_itself_and_hands_the_rest_over_in_order():
    store = InMemoryEventStore()
    hub = Hub(store, poll_seconds=60)  # not started: the test offers the events itself
    sub = Subscription(store, "t", Filter(), after=0, live_from=0)
    in_thread: list[str] = []

    def call(work):  # what a loop hands to a worker thread (service/serving.py)
        in_thread.append(work.__name__)
        return work()

    slow = {"TournamentArchived"}  # as a hand's event for a seat: its rendering folds
    stream = EventStream(hub, sub, lambda r: (f"{r.type} {r.position}", None), 60,
                         quick=lambda r: None if r.type in slow else (f"{r.type} {r.position}",
                                                                      None))
    pump = stream.pump(Ready(), call)
    next(pump)  # the opening, in a thread
    assert in_thread == ["opening"]
    for record in stored(store, 2) + stored(store, 1, "TournamentArchived") + stored(store, 1):
        sub.offer(record)
    assert next(pump) == b"id: 1\ndata: TeamRegistered 1\n\nid: 2\ndata: TeamRegistered 2\n\n"
    assert in_thread == ["opening"]  # the two were rendered on the loop: no hop
    assert next(pump) == b"id: 3\ndata: TournamentArchived 3\n\nid: 4\ndata: TeamRegistered 4\n\n"
    assert in_thread == ["opening", "frames"]
    pump.close()


def test_a_stream_due_its_token_check_asks_a_thread_whatever_is_buffered():
    store = InMemoryEventStore()
    hub = Hub(store, poll_seconds=60)
    sub = Subscription(store, "t", Filter(), after=0, live_from=0)
    stream = EventStream(hub, sub, lambda r: (r.type, None), 60, recheck_seconds=0,
                         still_valid=lambda: "token t1 was revoked; the stream ends",
                         quick=lambda r: (r.type, None))
    sub.offer(stored(store, 1)[0])
    assert stream.quick_frames() is None  # the check reads the token registry
    assert stream.frames() == [b'event: end\ndata: {"reason":"token t1 was revoked; '
                               b'the stream ends"}\n\n']


def test_a_stream_due_its_token_check_asks_it_on_the_loop_where_the_tokens_are_held():
    """With a quick check (service/api/live.py: the tokens the node holds in memory), the
    recheck is made on the event loop: a token still valid sends what is buffered there, and
    is not asked again before the next recheck is due; one revoked ends the stream there; one
    the node does not hold (NOT_HERE) asks a thread, as without a quick check."""
    store = InMemoryEventStore()
    hub = Hub(store, poll_seconds=60)
    answers, asked = [None, "token t1 was revoked; the stream ends"], []

    def quick_check():
        asked.append(answers[0])
        return answers.pop(0)

    def opened(recheck_seconds: float, check) -> tuple[Subscription, EventStream]:
        sub = Subscription(store, "t", Filter(), after=0, live_from=0)
        return sub, EventStream(hub, sub, lambda r: (r.type, None), 60,
                                recheck_seconds=recheck_seconds, still_valid_quick=check,
                                quick=lambda r: (r.type, None))
    sub, stream = opened(0, quick_check)
    first, second = stored(store, 2)
    sub.offer(first)
    assert stream.quick_frames() == [b"id: 1\ndata: TeamRegistered\n\n"]
    sub.offer(second)
    assert stream.quick_frames() == [b'event: end\ndata: {"reason":"token t1 was revoked; '
                                     b'the stream ends"}\n\n'] and stream.over
    assert asked == [None, "token t1 was revoked; the stream ends"]

    sub, stream = opened(3600, lambda: asked.append("again"))  # checked at the start: not due
    sub.offer(first)
    assert stream.quick_frames() == [b"id: 1\ndata: TeamRegistered\n\n"]
    assert asked[2:] == []

    sub, stream = opened(0, lambda: NOT_HERE)
    sub.offer(first)
    assert stream.quick_frames() is None


def test_a_stream_that_ends_with_its_node_says_so_in_the_language_it_was_opened_in():
    """Its last frame is written as the node shuts down, long after the request that opened it:
    in that request's language (service/api/live.py gives its catalogue), English without one."""
    store = InMemoryEventStore()
    hub = Hub(store, poll_seconds=60)
    opened = {language: hub.subscribe("t", Filter(), 0) for language in ("zh", "en")}
    streams = {"zh": EventStream(hub, opened["zh"], lambda r: (r.type, None), 60,
                                 gettext=catalogue("zh").gettext),
               "en": EventStream(hub, opened["en"], lambda r: (r.type, None), 60)}
    hub.close()
    assert streams["zh"].frames() == ['event: end\ndata: {"reason":"本节点正在关闭；请重新连接"}'
                                      '\n\n'.encode()]
    assert streams["en"].frames() == [b'event: end\ndata: {"reason":"the node is shutting down; '
                                      b'reconnect"}\n\n']
    assert streams["zh"].over and streams["en"].over


def received(sub: Subscription, count: int, seconds: float = 5.0) -> list[int]:
    import time
    got: list[int] = []
    deadline = time.monotonic() + seconds
    while len(got) < count and time.monotonic() < deadline:
        got += [r.position for r in sub.take()]
        time.sleep(0.01)
    return got


def test_the_fan_out_hands_out_what_the_words_bring_and_reads_the_log_only_for_a_gap():
    store = InMemoryEventStore()
    reads: list[int] = []
    read_all = store.read_all
    store.read_all = lambda after=0, limit=None: reads.append(after) or read_all(after, limit)
    hub = Hub(store, poll_seconds=60)  # no poll in this test: only words wake the fan-out
    sub = hub.subscribe("t", Filter(), after=None)
    first = [r.position for r in stored(store, 1) + stored(store, 2)]
    assert received(sub, 3) == first and reads == []  # the commits' own records
    store.commits.unlisten(hub._on_commit)  # a word lost
    (lost,) = stored(store, 1)
    store.commits.listen(hub._on_commit)
    (after_gap,) = stored(store, 1)  # its word names a position after the one never heard of
    assert received(sub, 2) == [lost.position, after_gap.position]  # nothing lost, in order
    assert reads == [first[-1]]  # read from the log, after the last handed out
    hub.close()


def test_a_gathering_stream_pauses_after_each_write_and_sends_what_came_meanwhile_in_one():
    """A board of the log (service/api/live.py: _gather_seconds): after a write its stream
    pauses, and the events offered during the pause go out in one write, each its own frame."""
    store = InMemoryEventStore()
    hub = Hub(store, poll_seconds=60)  # not started: the test offers the events itself
    sub = Subscription(store, "t", Filter(), after=0, live_from=0)
    first, *meanwhile = stored(store, 3)
    paused: list[float] = []

    def pause(seconds):  # the events of a busy hall arrive while the stream waits
        paused.append(seconds)
        for record in meanwhile:
            sub.offer(record)

    stream = EventStream(hub, sub, lambda r: (r.type, None), 60, gather_seconds=0.05)
    pump = stream.pump(TimedOut(), pause=pause)  # nothing wakes it: only the pause brings more
    next(pump)  # the opening
    sub.offer(first)
    assert next(pump) == b"id: 1\ndata: TeamRegistered\n\n"
    assert next(pump) == b"id: 2\ndata: TeamRegistered\n\nid: 3\ndata: TeamRegistered\n\n"
    assert paused == [0.05]  # after the first write, not after the opening
    pump.close()


def test_a_board_of_the_whole_hall_gathers_longer_than_a_tables_device():
    """A board of the whole log lets a quarter of a second pass after each write (a busy hall's
    moves a few to a write); a subscriber that follows a table's stream (``?match=``, or any
    named streams) hears each move within 50 ms, as a board of the log did before."""
    assert _gather_seconds(Filter()) == HALL_GATHER_SECONDS == 0.25
    assert _gather_seconds(Filter(types=frozenset({"MatchEnded"}))) == HALL_GATHER_SECONDS
    table = Filter(streams=frozenset({"match-t:R1-1", "tournament-t"}))
    assert _gather_seconds(table) == LOG_GATHER_SECONDS == 0.05


def test_a_commit_is_handed_out_by_its_committing_thread_unless_the_fan_out_is_busy():
    """This process's commit is offered to its subscribers (its rendering made first) by the
    thread that committed it, before its append returns: the fan-out's thread is not woken.
    While the fan-out is busy handing out, the commit is left to it, and nothing is lost."""
    store = InMemoryEventStore()
    hub = Hub(store, poll_seconds=60)
    sub = hub.subscribe("t", Filter(), after=None)
    made_by: list[str] = []
    sub.prepare = ("board", lambda record: made_by.append(threading.current_thread().name))
    (first,) = stored(store, 1)
    assert [r.position for r in sub.take()] == [first.position]  # offered before it returned
    assert made_by == [threading.current_thread().name]
    assert not hub._woken.is_set()
    with hub._handing:  # the fan-out busy: the commit wakes it instead (it waits its turn)
        (second,) = stored(store, 1)
        assert sub.take() == []
    assert received(sub, 1) == [second.position]
    assert made_by[-1] == "paiju-fan-out"
    hub.close()
