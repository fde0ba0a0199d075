"""The one way the build runs work on several processes: forked workers that return what they make.

`each(function, items, concerns)` calls `function(item)` for every item on up to one process per core
and gives back the results in the items' order; `Background(function, concerns)` runs one function
beside the caller (the search index while the pages are written); `fresh(function, *args)` calls it once in a
new process that inherits nothing (a benchmark's). The first two are
`concurrent.futures.ProcessPoolExecutor` on forked workers: the function and its items are inherited
at the fork (a corpus is shared, not copied; closures are fine), and only indexes go out and results
come back. A failure in a worker comes back as `WorkFailed` naming what it concerns (a file), with the
worker's traceback; the other workers are then stopped. A worker dies with the process that forked it
(`_die_with`), so a killed build leaves none behind. What a worker's function caches along the way
(a parse) is its own business, never the way its result comes back. Nothing of the pipeline's own is
imported here.
"""
from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import signal
import traceback
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Callable, Iterable, Optional, Sequence

PR_SET_PDEATHSIG = 1


class WorkFailed(Exception):
    """Work on one item failed: `concerns` names it (a file), `error` says what went wrong, `worker_traceback`
    where (in the worker)."""

    def __init__(self, concerns: str, error: str, worker_traceback: str = ""):
        super().__init__(f"{concerns}: {error}")
        self.concerns = concerns
        self.error = error
        self.worker_traceback = worker_traceback


def cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:      # not Linux
        return os.cpu_count() or 1


def each(function: Callable, items: Iterable, concerns: Callable[[object], str],
         workers: Optional[int] = None, runs: bool = False) -> list:
    """`function(item)` for every item, in the items' order, on up to `workers` forked processes (one per core
    by default; in this process when one would do). The first item that fails raises WorkFailed naming it.
    With `runs`, a worker is given neighbouring items together (a quarter of its share at a time), for work
    whose neighbours need the same things loaded; else one item at a time."""
    items = list(items)
    workers = min(workers or cores(), len(items))
    if workers <= 1 or not hasattr(os, "fork"):
        return [_here(function, item, concerns) for item in items]
    results = []
    with _pool(workers, function, items) as pool:
        outcomes = pool.map(_work_on, range(len(items)), chunksize=max(1, len(items) // (4 * workers)) if runs else 1)
        for item in items:
            results.append(_result(_outcome(lambda: next(outcomes), f"{_ENDED}, on this item or one beside it"),
                                   item, concerns))
    return results


def fresh(function: Callable, *args, concerns: str = "the call"):
    """`function(*args)` in a new Python process that inherits nothing of this one (started by "spawn", not
    forked): for a measurement that what this process did before must not sway. `function`, `args` and the
    result must pickle; a failure raises WorkFailed naming `concerns`."""
    spawn = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(1, mp_context=spawn, initializer=_die_with, initargs=(os.getpid(),)) as pool:
        return _result(_outcome(pool.submit(function, *args).result, _ENDED), concerns, str)


class Background:
    """`function()` run in one forked process while this one goes on: `result()` waits for its value (or raises
    WorkFailed naming `concerns`), `stop()` ends it at once."""

    def __init__(self, function: Callable[[], object], concerns: str):
        self.concerns = concerns
        self._pool = _new_pool(1, lambda _: function(), [concerns])
        self._future = self._pool.submit(_work_on, 0)

    def result(self):
        try:
            outcome = _outcome(self._future.result, _ENDED)
        finally:
            self._pool.shutdown(wait=True)
        return _result(outcome, self.concerns, str)

    def stop(self) -> None:
        _stop(self._pool)


# -- in the caller ----------------------------------------------------------------------------------

_ENDED = "its worker process ended abruptly (killed, or out of memory)"


@dataclass(frozen=True)
class _Failure:
    """What a worker sends back instead of a result: plain text, which always pickles."""
    error: str
    worker_traceback: str


def _here(function: Callable, item, concerns: Callable[[object], str]):
    """One item in this process, failing as it would in a worker."""
    try:
        return function(item)
    except Exception as error:
        raise WorkFailed(concerns(item), f"{type(error).__name__}: {error}") from error


def _outcome(get: Callable[[], object], ended: str):
    """A worker's outcome as it arrives; what went wrong on the way is a failure too."""
    try:
        return get()
    except BrokenProcessPool:
        return _Failure(ended, "")
    except Exception as error:      # the result could not come back (it does not pickle)
        return _Failure(f"{type(error).__name__}: {error}", "")


def _result(outcome, item, concerns: Callable[[object], str]):
    if isinstance(outcome, _Failure):
        raise WorkFailed(concerns(item), outcome.error, outcome.worker_traceback)
    return outcome


def _new_pool(workers: int, function: Callable, items: Sequence) -> ProcessPoolExecutor:
    # the workers are forked at the first submit, from this thread: the parent's id is recorded before
    return ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork"), initializer=_start,
                               initargs=(os.getpid(), function, items))


@contextlib.contextmanager
def _pool(workers: int, function: Callable, items: Sequence):
    """A pool for one batch: shut down when it is done, its workers ended at once if the caller fails."""
    pool = _new_pool(workers, function, items)
    try:
        yield pool
    except BaseException:
        _stop(pool)
        raise
    pool.shutdown(wait=True)


def _stop(pool: ProcessPoolExecutor) -> None:
    """End a pool's workers now, not after their current item (Python 3.14 has `terminate_workers`; before it,
    the pool's own table of its processes is the only way to them)."""
    terminate = getattr(pool, "terminate_workers", None)
    if terminate is not None:
        with contextlib.suppress(Exception):
            terminate()
    else:
        for process in list((getattr(pool, "_processes", None) or {}).values()):
            with contextlib.suppress(OSError, ValueError):
                process.kill()
    pool.shutdown(wait=True, cancel_futures=True)


# -- in a worker ------------------------------------------------------------------------------------

_work: tuple[Optional[Callable], Sequence] = (None, ())


def _start(parent: int, function: Callable, items: Sequence) -> None:
    """A worker's first step: die with the parent, and keep the work it inherited."""
    global _work
    _die_with(parent)
    _work = (function, items)


def _work_on(index: int):
    function, items = _work
    try:
        return function(items[index])
    except Exception as error:
        return _Failure(f"{type(error).__name__}: {error}", traceback.format_exc())


def _die_with(parent: int) -> None:
    """Linux: this process gets SIGKILL when the one that forked it ends. The parent may have ended before
    prctl: then this process has been adopted, by init or by a subreaper (so its parent is not always 1),
    and the id it reports now differs from the one recorded before the fork."""
    with contextlib.suppress(OSError, AttributeError, TypeError):
        # the symbols already loaded (libc's among them): ctypes.util.find_library("c") runs `ldconfig -p` in a
        # process of its own, which doubled the CPU time of a worker's start
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:
        os._exit(1)
