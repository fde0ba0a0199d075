"""Read and parse time, and traced memory, per document of the sources; other parsers' figures for the CR
as issue 20 quotes them, beside ours.

Each document is timed in a fresh Python process of its own (started by "spawn", so nothing of the
benchmark's process is inherited). Timed one after another in one process, a document's figures depended
on what ran before it: the CR 2026's parse and link took 85-88 ms after the other sources, 53 ms alone
(a heap grown and fragmented by earlier documents, tracemalloc's traces of the one before). The
document's kind and edition are found in this process and handed over; the memory peak is traced after
the timings, so that tracing costs them nothing.
"""
from __future__ import annotations

import tracemalloc
from pathlib import Path

from ..corpus import load_document, source_files
from ..link import link_corpus
from ..model import DocumentInfo
from ..parallel import fresh
from ..parse import parse
from ..read import read_source
from .common import best_of

# Other parsers' figures for the same file, as issue 20 quotes them (measured elsewhere, not here): printed
# beside ours as reference figures only.
PEERS_FILE = "cr-2026-01-16.txt"
HERE = Path(__file__).resolve().parents[2]       # the checkout this module is in
PEERS = (("academyruins-api", "Python", 55), ("rulesraker", "Go", 15))


def run(args) -> None:
    if getattr(args, "against", None):
        against(Path(args.sources) / PEERS_FILE, Path(args.against), max(args.runs, 5))
        print()
    if getattr(args, "peer", None):
        beside_peer(Path(args.sources) / PEERS_FILE, args.peer, max(args.runs, 5))
        print()
    sources = Path(args.sources)
    print(f"{'document':<44} {'KB':>6} {'read ms':>8} {'parse ms':>9} {'+link ms':>9} {'all ms':>7} "
          f"{'peak MB':>8}")
    for path in source_files(sources):
        known, _ = load_document(path, use_cache=False)     # its kind and id, as a build names it
        if known is None:
            continue
        read_ms, parse_ms, link_ms, all_ms, peak = fresh(measure, str(path), known.info, args.runs, concerns=path.name)
        print(f"{path.name:<44} {path.stat().st_size / 1024:>6.0f} {read_ms:>8.1f} {parse_ms:>9.1f} "
              f"{parse_ms + link_ms:>9.1f} {all_ms:>7.1f} {peak:>8.1f}")
        if path.name == PEERS_FILE:
            print("  the same file by other parsers (reference figures quoted in issue 20, not measured here): "
                  + ", ".join(f"{name} ({language}) {ms} ms" for name, language, ms in PEERS))
    print(f"  (best of {args.runs}, each document in a fresh process; read = the file to its lines and their typed"
          " stream;\n   parse excludes reading; +link adds resolving references; all = read, parse and link in one"
          " call;\n   peak = traced Python memory)")


def measure(path: str, info: DocumentInfo, runs: int) -> tuple[float, float, float, float, float]:
    """(read, parse, link, all three in one call: ms best of `runs`; peak traced MB) of one document."""
    source = read_source(path)
    assert source.stream        # built once here: parse times what follows it
    read_ms = best_of(runs, lambda: read_source(path).stream) * 1000
    parse_ms = best_of(runs, lambda: parse(source, info)) * 1000
    document = parse(source, info)
    link_ms = best_of(runs, lambda: link_corpus([document])) * 1000
    all_ms = best_of(runs, lambda: link_corpus([parse(read_source(path), info)])) * 1000
    tracemalloc.start()
    link_corpus([parse(read_source(path), info)])
    peak = tracemalloc.get_traced_memory()[1] / 1e6
    tracemalloc.stop()
    return read_ms, parse_ms, link_ms, all_ms, peak


# Timed in a fresh process of a checkout (PYTHONPATH), with only what every version of the pipeline has:
# read_source, parse, link_corpus and load_document (for the kind and id a build gives the file).
AGAINST_PROBE = """
import gc, sys, time
from pipeline.corpus import load_document
from pipeline.link import link_corpus
from pipeline.parse import parse
from pipeline.read import read_source
path, runs = sys.argv[1], int(sys.argv[2])
info = load_document(path, use_cache=False)[0].info

def best(function):
    walls, cpus = [], []
    for _ in range(runs):
        gc.collect()
        wall, cpu = time.perf_counter(), time.process_time()
        result = function()
        cpus.append(time.process_time() - cpu)
        walls.append(time.perf_counter() - wall)
        del result
    return min(walls) * 1000, min(cpus) * 1000

source = read_source(path)
source.stream
print(*best(lambda: link_corpus([parse(source, info)])), *best(lambda: link_corpus([parse(read_source(path), info)])))
"""


def _probe(checkout: Path, path: Path) -> list[float]:
    """AGAINST_PROBE's four figures for `path`, in a fresh process of `checkout`'s code."""
    import os
    import subprocess
    import sys
    env = dict(os.environ, PYTHONPATH=str(checkout))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    result = subprocess.run([sys.executable, "-c", AGAINST_PROBE, str(path.resolve()), "5"], env=env,
                            capture_output=True, text=True, cwd=checkout)
    if result.returncode != 0:
        raise SystemExit(f"bench: timing {checkout} failed: {result.stderr[-800:]}")
    return [float(figure) for figure in result.stdout.split()[-4:]]


def peer_figure(command: str, path: Path) -> float:
    """The CPU milliseconds another parser's `command` (a command line; the file's path is added at its end)
    prints as the last number of its output: how long its own best run took, timed by itself."""
    import shlex
    import subprocess
    try:
        result = subprocess.run([*shlex.split(command), str(path.resolve())], capture_output=True, text=True)
    except (OSError, ValueError) as error:
        raise SystemExit(f"bench: the peer command {command!r} cannot be run: {error}") from None
    words = result.stdout.split()
    figure = _number(words[-1]) if result.returncode == 0 and words else None
    if figure is None:
        raise SystemExit(f"bench: the peer command {command!r} exited {result.returncode} without a figure in ms "
                         f"as its output's last word: {(result.stderr or result.stdout)[-800:]}")
    return figure


def _number(word: str) -> float | None:
    try:
        return float(word)
    except ValueError:
        return None


def beside_peer(path: Path, command: str, rounds: int) -> None:
    """This checkout's parse + link and read + parse + link of `path` beside another parser's time for the same
    file (`peer_figure`), each round one fresh process of each, one after the other: CPU medians and the ratio's
    range over the rounds. The peer's code stays outside: only its command line comes in."""
    import statistics
    ours, theirs = [], []
    for _ in range(rounds):
        ours.append(_probe(HERE, path))
        theirs.append(peer_figure(command, path))
    peer_ms = statistics.median(theirs)
    print(f"{path.name}: this checkout beside the peer command ({rounds} rounds, alternating, CPU ms)")
    print(f"{'':<30} {'this ms':>8} {'peer ms':>8} {'ratio':>6} {'ratio by round':>15}")
    for index, label in ((1, "parse + link"), (3, "read + parse + link")):
        mine = statistics.median(figure[index] for figure in ours)
        ratios = sorted(this[index] / other for this, other in zip(ours, theirs))
        print(f"{label:<30} {mine:>8.1f} {peer_ms:>8.1f} {mine / peer_ms:>6.2f} "
              f"{f'{ratios[0]:.2f}-{ratios[-1]:.2f}':>15}")


def against(path: Path, checkout: Path, rounds: int) -> None:
    """Parse + link and read + parse + link of one file by this checkout and by `checkout`, each round one
    fresh process of each, one after the other (the medians of the rounds' best-of-5), in wall-clock time and
    in the process's CPU time: on a machine whose cores other work shares, the wall clock also counts the
    waiting for a core (ten times the CPU time at a load of 14 on two cores), the CPU time far less of it."""
    import statistics
    figures: dict[str, list[list[float]]] = {"this": [], "against": []}
    for _ in range(rounds):
        for name, root in (("this", HERE), ("against", checkout.resolve())):
            figures[name].append(_probe(root, path))
    print(f"{path.name}: this checkout against {checkout} ({rounds} rounds, alternating, each a fresh process, "
          f"best of 5)")
    print(f"{'':<30} {'this ms':>8} {'against ms':>11} {'ratio':>6} {'ratio by round':>15}")
    for index, label in ((0, "parse + link (wall clock)"), (1, "parse + link (CPU)"),
                         (2, "read + parse + link (wall clock)"), (3, "read + parse + link (CPU)")):
        ours = statistics.median(figure[index] for figure in figures["this"])
        theirs = statistics.median(figure[index] for figure in figures["against"])
        ratios = sorted(this[index] / other[index] for this, other in zip(figures["this"], figures["against"]))
        print(f"{label:<30} {ours:>8.1f} {theirs:>11.1f} {ours / theirs:>6.2f} "
              f"{f'{ratios[0]:.2f}-{ratios[-1]:.2f}':>15}")
