"""A subscriber's cursor (service/subscriptions.py): once its buffer overflows nothing more is
buffered, so the position it resumes from is the last one it received; a page of history with
nothing for its filter never makes a stream wait for a heartbeat (service/event_stream.py)."""
from __future__ import annotations

from events.envelope import NewEvent
from events.memory_store import InMemoryEventStore
from service.event_stream import EventStream
from service.subscriptions import CATCH_UP_PAGE, Filter, Hub, Subscription


def stored(store: InMemoryEventStore, count: int, type_: str = "TeamRegistered") -> list:
    return store.append("t", [NewEvent(type=type_, stream="tournament-t", data={"n": n})
                              for n in range(count)]).records


def test_after_an_overflow_nothing_more_is_buffered_and_nothing_is_skipped():
    store = InMemoryEventStore()
    r1, r2, r3, r4 = stored(store, 4)
    sub = Subscription(store, "t", Filter(), after=0, live_from=0, capacity=2)
    for record in (r1, r2, r3):  # the third finds the buffer full
        sub.offer(record)
    assert [r.position for r in sub.take()] == [1, 2]
    sub.offer(r4)  # room again, but 3 was lost to this subscriber: 4 must not follow 2
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
