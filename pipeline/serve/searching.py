"""Where /api/search questions are answered: in the server process's own loop, taking turns with the pages.

A search is CPU work (about half a millisecond, `search.ranking`). Answered as they come, a burst of new
questions would hold the loop while pages wait; so the questions wait in a queue, and each turn of the
loop answers them for at most TURN_SECONDS, then lets the pages that came meanwhile go first. Measured
beside it (the clients of `rulekb bench --only serve`, runs paired on the same busy machine): a search
process beside each server process (a pipe, no interpreter lock shared) gave 560-630 answers/s against
890-920 in turns, the pages' p99 alike (26-33 ms, 32-39 ms); a thread gave the pages a p99 of 43-104 ms
(the interpreter lock). No thread, no process, nothing to replace.
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


class SearchTurns:
    """The questions of one server process, answered in turns from the site's newest generation."""

    def __init__(self, site: Site):
        self.site = site
        self.waiting: deque = deque()          # (query, limit, kind, future)
        self.working: Optional[asyncio.Task] = None

    async def answer(self, query: str, limit: int, kind: Optional[str]) -> tuple[int, bytes]:
        """(status, JSON) of a search, once its turn came."""
        future = asyncio.get_running_loop().create_future()
        self.waiting.append((query, limit, kind, future))
        if self.working is None or self.working.done():
            self.working = asyncio.create_task(self._work())
        return await future

    async def _work(self) -> None:
        while self.waiting:
            until = time.perf_counter() + TURN_SECONDS
            generation = self.site.current()
            while self.waiting and time.perf_counter() < until:
                query, limit, kind, future = self.waiting.popleft()
                if future.done():                     # its client went away
                    continue
                try:
                    future.set_result(generation.answer(query, limit, kind))
                except Exception as error:            # a bug: that client gets a 500, the others their answers
                    future.set_exception(error)
            await asyncio.sleep(0)                    # the pages that came meanwhile go first


def watch_parent(parent: int, stop: Callable[[], None]) -> None:
    """Call `stop` once this process's parent is no longer `parent` (it died; whoever adopted this process,
    init or a subreaper, will neither use nor stop it)."""
    def watch():
        while os.getppid() == parent:
            time.sleep(1)
        stop()
    threading.Thread(target=watch, name="rulekb-parent-watch", daemon=True).start()
