"""How long a person at a terminal (or a bot calling the command) waits: `rulekb search`, `rulekb show` and
`rulekb --help`, each the wall time of a fresh process, process start included (median of 10).

With `--against DIR` (another checkout of rulekb, e.g. `git worktree add /tmp/before HEAD~5`) the same
commands of that checkout are timed too, alternately with this one's, in the same run: only a ratio measured
so says whether a change made the command faster on a machine whose load changes from minute to minute.
Bytecode is cached for both (as an installed package has it), whatever PYTHONDONTWRITEBYTECODE says;
each command runs once untimed first, so that the search index and the corpus are in the cache.
"""
from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROUNDS = 10
QUESTION = "704.5k"
MAIN = "import sys; from pipeline.cli import main; sys.exit(main(sys.argv[1:]))"
HERE = Path(__file__).resolve().parents[2]       # the checkout this module is in


def commands(sources: str) -> dict[str, list[str]]:
    return {"search": ["search", QUESTION, "--sources", sources],
            "show": ["show", QUESTION, "--sources", sources],
            "--help": ["--help"]}


def timed(checkout: Path, argv: list[str]) -> tuple[float, float]:
    """Seconds from starting a fresh `rulekb` of `checkout` to its exit, and the CPU seconds it used (which a
    busy machine sways less than the wall time)."""
    env = dict(os.environ, PYTHONPATH=str(checkout), NO_MKDOCS_2_WARNING="1")
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    result = subprocess.run([sys.executable, "-c", MAIN, *argv], env=env, capture_output=True, cwd=checkout)
    elapsed = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    if result.returncode != 0:
        raise SystemExit(f"bench: rulekb {' '.join(argv)} of {checkout} failed: {result.stderr.decode()[-800:]}")
    return elapsed, cpu


def run(args) -> None:
    sources = str(Path(args.sources).resolve())
    checkouts = {"this": HERE}
    if getattr(args, "against", None):
        checkouts["against"] = Path(args.against).resolve()
    wanted = commands(sources)
    for checkout in checkouts.values():          # untimed: index, corpus and bytecode into their caches
        for argv in wanted.values():
            timed(checkout, argv)
    times: dict[tuple[str, str], list[tuple[float, float]]] = {}
    for _ in range(ROUNDS):
        for command, argv in wanted.items():
            for name, checkout in checkouts.items():     # alternately: each round both, one after the other
                times.setdefault((command, name), []).append(timed(checkout, argv))
    header = f"{'command':<28} {'median ms':>10} {'min ms':>8} {'CPU ms':>7}"
    if "against" in checkouts:
        header += f" {'against ms':>11} {'CPU ms':>7} {'ratio':>6} {'CPU ratio':>10}"
    print(header)
    for command, argv in wanted.items():
        wall = [figure[0] for figure in times[(command, "this")]]
        cpu = statistics.median(figure[1] for figure in times[(command, "this")])
        line = (f"{'rulekb ' + ' '.join(argv[:2]):<28} {statistics.median(wall) * 1000:>10.0f} {min(wall) * 1000:>8.0f}"
                f" {cpu * 1000:>7.0f}")
        if "against" in checkouts:
            their_wall = statistics.median(figure[0] for figure in times[(command, "against")])
            their_cpu = statistics.median(figure[1] for figure in times[(command, "against")])
            ratio = statistics.median(wall) / their_wall
            line += f" {their_wall * 1000:>11.0f} {their_cpu * 1000:>7.0f} {ratio:>6.2f} {cpu / their_cpu:>10.2f}"
        print(line)
    print(f"  (wall time of a fresh process, median of {ROUNDS}, process start included, and the CPU time it used; "
          f"aims: search and show 150 ms, --help 100 ms of wall time" + (
              f"; against = {checkouts['against']}, timed alternately" if "against" in checkouts else "") + ")")
