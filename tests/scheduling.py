"""The order in which pytest-xdist's workers take the test modules: the costliest first (longest processing
time first), so that the shared site is built at once and no worker is left with a long module at the end
while the other has finished.

Each test's CPU time (its process's and that of the processes it waited for, never time spent waiting for
the other worker's build) is kept in pytest's cache after a run; the next run under xdist orders the modules
by those times. A test never timed counts as the mean test, so a fresh checkout gets xdist's own order (by
number of tests). It is only an order: what runs is unchanged. It holds when xdist does not reorder the
modules itself (`--no-loadscope-reorder`, as the Makefile asks).
"""
from __future__ import annotations

import json
import os
import time
from collections import defaultdict
from pathlib import Path

import pytest

# conftest's site and the frozen sources' search index (the index the site's build keeps), each made once for the
# session by the first test that asks
SHARED = ("built_site", "sources_index")
FOLDER = "rulekb-test-cpu"    # in pytest's cache: a file per process, {test id: [when timed, CPU seconds]}
_spent: dict[str, float] = {}


def _cpu() -> float:
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def _worker(config) -> str | None:
    workerinput = getattr(config, "workerinput", None)      # set by xdist in its workers only
    return workerinput["workerid"] if workerinput else None


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item):
    before = _cpu()
    try:
        return (yield)
    finally:
        _spent[item.nodeid] = round(_cpu() - before, 3)


def _read(path: Path) -> dict[str, list]:
    try:
        timed = json.loads(path.read_text(encoding="utf-8"))
        return {test: [float(when), float(seconds)] for test, (when, seconds) in timed.items()}
    except (OSError, ValueError, TypeError, AttributeError):
        return {}                   # none yet, or cut short: the times are only a guide


def pytest_sessionfinish(session):
    cache = getattr(session.config, "cache", None)
    if cache is None or not _spent:
        return
    path = cache.mkdir(FOLDER) / f"{_worker(session.config) or 'main'}.json"
    timed = _read(path)
    now = time.time()
    timed.update({test: [now, seconds] for test, seconds in _spent.items()})
    path.write_text(json.dumps(timed), encoding="utf-8")


def recorded(cache) -> dict[str, float]:
    """Each test's CPU seconds, as last timed by any process."""
    newest: dict[str, list] = {}
    for path in sorted(cache.mkdir(FOLDER).glob("*.json")):
        for test, (when, seconds) in _read(path).items():
            if test not in newest or newest[test][0] < when:
                newest[test] = [when, seconds]
    return {test: seconds for test, (_, seconds) in newest.items()}


def scope(nodeid: str) -> str:
    """What xdist's loadscope gives one worker: a module (or a class), whatever the test's parameters say."""
    return nodeid.split("[", 1)[0].rsplit("::", 1)[0]


def costliest_first(items: list, seconds: dict[str, float]) -> list:
    """The items, module by module, the costliest module first; each module's tests in their own order. A module
    that needs the shared site or index (made once for the session by the first module that asks) waits in the queue
    until the modules before it, beside the one that builds it, cover the builder's time: no worker is left
    waiting for the build while there is other work."""
    mean = sum(seconds.values()) / len(seconds) if seconds else 1.0
    groups: dict[str, list] = defaultdict(list)
    for item in items:
        groups[scope(item.nodeid)].append(item)
    cost = {name: sum(seconds.get(item.nodeid, mean) for item in group) for name, group in groups.items()}
    ordered = sorted(groups, key=lambda name: -cost[name])        # stable: equal costs keep collection order
    needs = {name for name, group in groups.items()
             if any(shared in getattr(item, "fixturenames", ()) for item in group for shared in SHARED)}
    builder = next((name for name in ordered if name in needs), None)
    queue, waiting, covered = [], [], 0.0
    for name in ordered:
        if name in needs and name != builder and covered < cost[builder]:
            waiting.append(name)
            continue
        queue.append(name)
        if name != builder and builder is not None:
            covered += cost[name]
            if covered >= cost[builder]:
                queue += waiting
                waiting = []
    return [item for name in queue + waiting for item in groups[name]]


# Each module's CPU seconds in a whole run, as last measured and committed: a fresh clone (CI) has no pytest
# cache, and without them its order would be by number of tests, a module of one costly test (the suite run
# again on a new edition, the wheel) taken last while the other worker has finished.
COMMITTED = Path(__file__).with_name("module_costs.json")


def with_committed(items: list, seconds: dict[str, float], committed: dict[str, float]) -> dict[str, float]:
    """The recorded times, and for a test never timed in a module whose cost is committed, its share of it."""
    untimed: dict[str, list[str]] = defaultdict(list)
    for item in items:
        if item.nodeid not in seconds and scope(item.nodeid) in committed:
            untimed[scope(item.nodeid)].append(item.nodeid)
    filled = dict(seconds)
    for module, tests in untimed.items():
        filled.update({test: committed[module] / len(tests) for test in tests})
    return filled


def _committed() -> dict[str, float]:
    try:
        return {module: float(seconds) for module, seconds in json.loads(COMMITTED.read_text("utf-8")).items()}
    except (OSError, ValueError, TypeError, AttributeError):
        return {}


@pytest.hookimpl(trylast=True)          # after deselection (-m, -k): the order of what runs
def pytest_collection_modifyitems(config, items):
    cache = getattr(config, "cache", None)
    if cache is not None and _worker(config):
        items[:] = costliest_first(items, with_committed(items, recorded(cache), _committed()))
