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


def timed(checkout: Path, argv: list[str]) -> float:
    """Seconds from starting a fresh `rulekb` of `checkout` to its exit."""
    env = dict(os.environ, PYTHONPATH=str(checkout), NO_MKDOCS_2_WARNING="1")
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    started = time.perf_counter()
    result = subprocess.run([sys.executable, "-c", MAIN, *argv], env=env, capture_output=True, cwd=checkout)
    elapsed = time.perf_counter() - started
    if result.returncode != 0:
        raise SystemExit(f"bench: rulekb {' '.join(argv)} of {checkout} failed: {result.stderr.decode()[-800:]}")
    return elapsed


def run(args) -> None:
    sources = str(Path(args.sources).resolve())
    checkouts = {"this": HERE}
    if getattr(args, "against", None):
        checkouts["against"] = Path(args.against).resolve()
    wanted = commands(sources)
    for checkout in checkouts.values():          # untimed: index, corpus and bytecode into their caches
        for argv in wanted.values():
            timed(checkout, argv)
    times: dict[tuple[str, str], list[float]] = {}
    for _ in range(ROUNDS):
        for command, argv in wanted.items():
            for name, checkout in checkouts.items():     # alternately: each round both, one after the other
                times.setdefault((command, name), []).append(timed(checkout, argv))
    header = f"{'command':<28} {'median ms':>10} {'min ms':>8}"
    if "against" in checkouts:
        header += f" {'against ms':>11} {'ratio':>6}"
    print(header)
    for command, argv in wanted.items():
        ours = times[(command, "this")]
        line = f"{'rulekb ' + ' '.join(argv[:2]):<28} {statistics.median(ours) * 1000:>10.0f} {min(ours) * 1000:>8.0f}"
        if "against" in checkouts:
            theirs = times[(command, "against")]
            line += (f" {statistics.median(theirs) * 1000:>11.0f} "
                     f"{statistics.median(ours) / statistics.median(theirs):>6.2f}")
        print(line)
    print(f"  (wall time of a fresh process, median of {ROUNDS}, process start included; aims: search and show "
          f"150 ms, --help 100 ms" + (f"; against = {checkouts['against']}, timed alternately" if
                                        "against" in checkouts else "") + ")")
