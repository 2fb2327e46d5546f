"""Memos of derived values by the identity of the immutable state they are derived from.

A read derives some values afresh each time from a state that has not changed since the last
read: a Sichuan hand's ledger and the checks of a drawn hand (MJS-8.2, every wait of every
player tried) are the same for as long as the hand is the same object — and the stream cache
hands out the same object until the next event. Keyed by ``id``, holding the state itself so
that its id cannot be reused while the memo keeps it; bounded, least recently used first out.
States are frozen: a value derived from one never goes stale.
"""
from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from typing import Callable, TypeVar

S = TypeVar("S")
V = TypeVar("V")


def by_identity(size: int) -> Callable[[Callable[[S], V]], Callable[[S], V]]:
    """Memoise a function of one immutable state by the state's identity (``size`` states)."""
    def decorate(derive: Callable[[S], V]) -> Callable[[S], V]:
        held: OrderedDict[int, tuple[S, V]] = OrderedDict()
        lock = threading.Lock()

        @functools.wraps(derive)
        def memoised(state: S) -> V:
            key = id(state)
            with lock:
                found = held.get(key)
                if found is not None and found[0] is state:
                    held.move_to_end(key)
                    return found[1]
            value = derive(state)
            with lock:
                held[key] = (state, value)
                if len(held) > size:
                    held.popitem(last=False)
            return value
        return memoised
    return decorate
