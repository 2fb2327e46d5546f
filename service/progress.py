"""The progress bars of the long commands, so that whoever waits sees that they advance and how
far: ``paiju simulate``, ``export``, ``verify``, ``verify-export``, ``import`` and ``migrate``
show a tqdm bar on standard error while they run.

Standard output is never touched: what a command prints there (an export's lines, a report) is
what scripts read. A bar is drawn only where someone watches it — standard error a terminal
(tqdm's ``disable=None``) — so that scripts, pipes, logs and tests get no bar and no carriage
returns. ``PAIJU_PROGRESS=1`` draws it anyway (a log that wants it), ``PAIJU_PROGRESS=0``
never.

A bar's words (what it counts and in what) are the command's, said in its reader's language
(service/cli.py); tqdm's own figures stay as tqdm writes them.
"""
from __future__ import annotations

import os
import sys
import threading
from collections.abc import Iterable, Iterator
from typing import TypeVar

from tqdm import tqdm

T = TypeVar("T")
FORCE = "PAIJU_PROGRESS"  # "1": a bar even off a terminal; "0": none even on one
SIMULATION_FORMAT = "{l_bar}{bar}| {n_fmt}/{total_fmt}{unit} [{elapsed}<{remaining}{postfix}]"


def _disable() -> bool | None:
    """tqdm's ``disable``: None leaves it to whether standard error is a terminal."""
    return {"1": False, "0": True}.get(os.environ.get(FORCE, ""))


def bar(what: str, unit: str, total: int | None = None, **shape) -> tqdm:
    """A bar on the standard error of now (a test's capture, or the terminal); ``what`` and
    ``unit`` as the reader reads them; ``shape``: more of tqdm's arguments."""
    return tqdm(total=total, desc=f"paiju: {what}", unit=f" {unit}", file=sys.stderr,
                disable=_disable(), dynamic_ncols=True, leave=True, **shape)


def counted(items: Iterable[T], what: str, unit: str = "events",
            total: int | None = None) -> Iterator[T]:
    """``items`` passed through, one step of a bar each; ``total`` may be an estimate (the
    log's last position): the bar ends at what was done."""
    with bar(what, unit, total) as shown:
        if shown.disable:  # no bar: not even a call an item
            yield from items
            return
        for item in items:
            yield item
            shown.update()
        if shown.total is not None and shown.n != shown.total:
            shown.total = shown.n


class SimulationBar:
    """``paiju simulate``'s bar (a simulator.runner.Progress; not imported, so that an export
    does not load the simulators): matches (a knockout) or tables (groups, a team event) with the
    hands played so far, their number known from the bracket's or stages' size. Told from the
    threads of the tables playing at once: one lock keeps the count whole. ``say`` gives its
    words in the reader's language (the unit the simulation names is a sentence of the
    catalogue)."""

    def __init__(self, game: str, say=str):
        self.game, self.tournament_id, self.hands = game, None, 0
        self.say = say
        self._hands = say("hands")  # the postfix's name: hands=12
        self._bar: tqdm | None = None
        self._lock = threading.Lock()

    def created(self, tournament_id: str, unit: str, planned: int | None) -> None:
        self.tournament_id = tournament_id
        # no rate: a table takes seconds, and tqdm would show "7.35s/ matches"
        self._bar = bar(f"simulate {self.game} {tournament_id}", self.say(unit), planned,
                        bar_format=SIMULATION_FORMAT if planned else None)
        self._bar.set_postfix({self._hands: 0})

    def played(self, hands: int) -> None:
        with self._lock:
            self.hands += hands
            if self._bar is not None:
                self._bar.set_postfix({self._hands: self.hands}, refresh=False)
                self._bar.update()

    def close(self) -> None:
        """The bar ends where the run ended (its report follows on standard output)."""
        if self._bar is not None:
            self._bar.close()
