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
PEERS = (("academyruins-api", "Python", 55), ("rulesraker", "Go", 15))


def run(args) -> None:
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
