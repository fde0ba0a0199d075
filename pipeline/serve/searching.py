"""Where /api/search questions are answered: in the server process's own loop, taking turns with the pages.

A search is CPU work (about half a millisecond, `search.ranking`). Answered as they come, a burst of new
questions would hold the loop while pages wait; so the questions wait in a queue, and each turn of the
loop answers them for as long as the pages took since the last turn (at least TURN_SECONDS, at most
LONGEST_TURN), then lets the pages that came meanwhile go first: when both wait, each has half the process.

Measured with the clients of `rulekb bench --only serve` on one server process, runs paired on the same
busy machine: with a fixed turn of 2 ms, a round of the pages of 50 clients took 15-20 ms and the searches
had 2 ms of it: 280-380 questions/s (p99 390-414 ms), 2,200-2,900 pages/s (p99 41-45 ms); with turns as
long as the pages', 480-490 questions/s (p99 148-182 ms), 2,000-2,100 pages/s (p99 56 ms). Against
turns, a search process beside each server process (a pipe, no interpreter lock shared) gave 560-630
answers/s against 890-920, the pages' p99 alike; a thread gave the pages a p99 of 43-104 ms (the
interpreter lock). No thread, no process, nothing to replace.
"""
from __future__ import annotations

import asyncio
import os
import threading
import time
from collections import deque
from typing import Callable, Optional

from .generation import Site

TURN_SECONDS = 0.002
LONGEST_TURN = 0.010


class SearchTurns:
    """The questions of one server process, answered in turns from the site's newest generation."""

    def __init__(self, site: Site, clock: Callable[[], float] = time.perf_counter):
        self.site = site
        self.clock = clock
        self.waiting: deque = deque()          # (query, limit, kind, language, future)
        self.working: Optional[asyncio.Task] = None

    async def answer(self, query: str, limit: int, kind: Optional[str],
                     language: Optional[str] = None) -> tuple[int, bytes]:
        """(status, JSON) of a search, once its turn came (`language`: the translation chosen, as `rulekb
        search --language`)."""
        future = asyncio.get_running_loop().create_future()
        self.waiting.append((query, limit, kind, language, future))
        if self.working is None or self.working.done():
            self.working = asyncio.create_task(self._work())
        return await future

    async def _work(self) -> None:
        turn = TURN_SECONDS
        while self.waiting:
            until = self.clock() + turn
            generation = self.site.current()
            while self.waiting and self.clock() < until:
                query, limit, kind, language, future = self.waiting.popleft()
                if future.done():                     # its client went away
                    continue
                try:
                    future.set_result(generation.answer(query, limit, kind, language))
                except Exception as error:            # a bug: that client gets a 500, the others their answers
                    future.set_exception(error)
            paused = self.clock()
            await asyncio.sleep(0)                    # the pages that came meanwhile go first
            turn = min(LONGEST_TURN, max(TURN_SECONDS, self.clock() - paused))


def watch_parent(parent: int, stop: Callable[[], None]) -> None:
    """Call `stop` once this process's parent is no longer `parent` (it died; whoever adopted this process,
    init or a subreaper, will neither use nor stop it)."""
    def watch():
        while os.getppid() == parent:
            time.sleep(1)
        stop()
    threading.Thread(target=watch, name="rulekb-parent-watch", daemon=True).start()
