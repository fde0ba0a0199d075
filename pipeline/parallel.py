"""Work spread over the machine's cores in forked processes that die with the one that started them.

Used where a build has many independent pieces of one kind: parsing a hundred editions, comparing
a hundred pairs of them. The workers put what they make into the cache (`cache`), not back through
a pipe: the caller then reads it as it would any cached result, and a piece that failed in a worker
is simply made again by the caller. Nothing of the pipeline's own is imported here.
"""
from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import multiprocessing
import os
import signal
from typing import Callable, Iterable, Optional


def cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:      # not Linux
        return os.cpu_count() or 1


# What the forked workers do: set just before they are forked (they inherit it; only indexes are sent).
_work: tuple[Callable, list] = (None, [])


def each_in_processes(function: Callable[[object], None], items: Iterable, workers: Optional[int] = None) -> None:
    """Call `function(item)` for every item, in up to `workers` forked processes (one per core by default).
    Exceptions in a worker are swallowed: the caller finds the item's result missing and makes it itself."""
    global _work
    items = list(items)
    workers = min(workers or cores(), len(items))
    if workers <= 1 or not hasattr(os, "fork"):
        for item in items:
            _quietly(function, item)
        return
    _work = (function, items)
    try:
        context = multiprocessing.get_context("fork")
        with context.Pool(workers, initializer=die_with_parent) as pool:
            for _ in pool.imap_unordered(_by_index, range(len(items))):
                pass
    finally:
        _work = (None, [])


def _by_index(index: int) -> None:
    function, items = _work
    _quietly(function, items[index])


def _quietly(function: Callable, item) -> None:
    # the caller makes this item again, and reports what goes wrong then
    with contextlib.suppress(Exception):
        function(item)


def die_with_parent() -> None:
    """Linux: this process gets SIGKILL when its parent dies (a killed build leaves no worker behind)."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
        libc.prctl(1, signal.SIGKILL)           # PR_SET_PDEATHSIG
        if os.getppid() == 1:                   # the parent died before prctl
            os._exit(1)
    except (OSError, AttributeError, TypeError):
        pass
