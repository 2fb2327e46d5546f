"""100,000 events read through the paginated API and through export, in bounded memory.

The whole log as Python objects would take well over 100 MB; the bounds below are a small
fraction of that, so a read path that loads everything fails them.
"""
import tracemalloc

import pytest
from clients import admin_client

from events.envelope import NewEvent

EVENTS = 100_000


@pytest.fixture(scope="module")
def big(tmp_path_factory, signer):
    from events.sqlite_store import SQLiteEventStore
    from service import create_app

    store = SQLiteEventStore(tmp_path_factory.mktemp("big") / "big.db", synchronous="OFF")
    app = create_app(store=store, signer=signer)
    client = admin_client(app)
    client.post("/v1/tournaments", json={"tournament_id": "big", "name": "big", "game": "SJ2",
                                         "format": "knockout"})
    for start in range(0, EVENTS, 2000):
        store.append("big", [NewEvent("CardsPlayed", f"match-{i % 16}", {"seat": i % 4, "cards": ["QH", "QH"], "n": i})
                             for i in range(start, start + 2000)])
    yield client
    store.close()


def peak_megabytes(work) -> tuple[float, object]:
    tracemalloc.start()
    try:
        result = work()
        return tracemalloc.get_traced_memory()[1] / 1e6, result
    finally:
        tracemalloc.stop()


def test_paging_through_100000_events_uses_bounded_memory(big):
    def walk():
        url, count, last = "/v1/tournaments/big/events?limit=1000", 0, 0
        while url:
            body = big.get(url).json
            count += len(body["events"])
            assert body["events"][0]["position"] == last + 1
            last = body["events"][-1]["position"]
            url = body["next"]
        return count

    peak, count = peak_megabytes(walk)
    assert count == EVENTS + 1
    assert peak < 25, f"peak {peak:.1f} MB"


def test_export_of_100000_events_is_streamed(big):
    def export():
        response = big.get("/v1/tournaments/big/export", buffered=False)
        lines = sum(chunk.count(b"\n") for chunk in response.response)
        response.close()
        return lines

    peak, lines = peak_megabytes(export)
    assert lines == EVENTS + 2  # the tournament's creation, the events, the manifest
    assert peak < 10, f"peak {peak:.1f} MB"
