"""`rulekb bench`: the speed, size and search-quality figures, printed (no pass/fail here).

Parse time and peak memory per document, parse+link of the CR, full build and
rebuild times, pages and transferred bytes, index build time, and search accuracy
and latency over the question set in tests/fixtures/search.tsv.
"""
from __future__ import annotations

import gc
import gzip
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Optional

from .ingest import load_corpus, load_document, source_files
from .link import link_corpus
from .parsers import parse
from .reader import read_source

ROOT = Path(__file__).resolve().parent.parent
QUESTIONS = ROOT / "tests" / "fixtures" / "search.tsv"


def best_of(runs: int, function) -> float:
    times = []
    for _ in range(runs):
        gc.collect()
        started = time.perf_counter()
        function()
        times.append(time.perf_counter() - started)
    return min(times)


def bench_parsing(sources: Path, runs: int) -> None:
    print(f"{'document':<44} {'KB':>6} {'read ms':>8} {'parse ms':>9} {'+link ms':>9} {'peak MB':>8}")
    for path in source_files(sources):
        known, _ = load_document(path, use_cache=False)     # its kind and id, as a build names it
        if known is None:
            continue
        info = known.info
        source = read_source(path)
        read_ms = best_of(runs, lambda: read_source(path)) * 1000
        parse_ms = best_of(runs, lambda: parse(source, info)) * 1000
        document = parse(source, info)
        link_ms = best_of(runs, lambda: link_corpus([document])) * 1000
        tracemalloc.start()
        source = read_source(path)
        link_corpus([parse(source, info)])
        peak = tracemalloc.get_traced_memory()[1] / 1e6
        tracemalloc.stop()
        print(f"{path.name:<44} {path.stat().st_size / 1024:>6.0f} {read_ms:>8.1f} {parse_ms:>9.1f} "
              f"{parse_ms + link_ms:>9.1f} {peak:>8.1f}")
    print("  (parse excludes reading; +link = parse plus resolving references; peak = traced Python memory "
          "for read+parse+link)")


def _run_build(sources: Path, out: Path, cache: Path, index: Path) -> float:
    env = dict(os.environ, RULEKB_CACHE=str(cache), NO_MKDOCS_2_WARNING="1")
    started = time.perf_counter()
    result = subprocess.run([sys.executable, "-m", "pipeline", "build", "--sources", str(sources), "--out", str(out),
                             "--index", str(index)], cwd=ROOT, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    if result.returncode != 0:
        print(result.stdout, result.stderr, file=sys.stderr)
        raise SystemExit("bench: the build failed")
    return elapsed


def page_transfer(site: Path, page: str) -> tuple[int, int]:
    """gzip bytes of a page, and of the page plus the CSS and JS it loads before any search."""
    html_file = site / page / "index.html"
    html = html_file.read_bytes()
    total = len(gzip.compress(html, 6))
    page_only = total
    for reference in re.findall(rb'<(?:link[^>]+href|script[^>]+src)="([^"]+)"', html):
        reference = reference.decode()
        if reference.startswith(("http", "//", "data:")):
            continue
        asset = (html_file.parent / reference.split("?")[0]).resolve()
        if asset.is_file() and asset.suffix in (".css", ".js"):
            total += len(gzip.compress(asset.read_bytes(), 6))
    return page_only, total


def bench_build(sources: Path) -> None:
    with tempfile.TemporaryDirectory(prefix="rulekb-bench-") as scratch:
        scratch = Path(scratch)
        copy = scratch / "sources"
        shutil.copytree(sources, copy)
        cache, out, index = scratch / "cache", scratch / "site", scratch / "index"
        full = _run_build(copy, out, cache, index)
        pages = sum(1 for _ in out.rglob("index.html"))
        page_only, with_assets = page_transfer(out, "cr/704")
        print(f"full build (cold cache):        {full:6.1f} s   {pages} pages")
        print(f"CR section page cr/704/:        {page_only / 1024:6.1f} KB gzip (HTML), "
              f"{with_assets / 1024:.1f} KB with its CSS and JS, before search loads")
        again = _run_build(copy, out, cache, index)
        print(f"rebuild, nothing changed:       {again:6.1f} s")
        first = sorted(p for p in copy.iterdir() if p.suffix == ".txt" and p.name.startswith("mtr"))[:1] or \
            sorted(p for p in copy.iterdir() if p.suffix == ".txt")[:1]
        os.utime(first[0])
        touched = _run_build(copy, out, cache, index)
        print(f"rebuild after touching {first[0].name}: {touched:5.1f} s")
        with open(first[0], "a", encoding="utf-8") as handle:
            handle.write("\nThis line was added by the benchmark.\n")
        changed = _run_build(copy, out, cache, index)
        print(f"rebuild after changing {first[0].name}: {changed:5.1f} s  ({changed / full:.0%} of a full build)")


def bench_search(sources: Path, runs: int = 3) -> None:
    from .index import KnowledgeBase, write_index
    from .search import corpus_fingerprint, entries, search
    corpus = load_corpus(sources)
    with tempfile.TemporaryDirectory(prefix="rulekb-index-") as scratch:
        started = time.perf_counter()
        write_index(entries(corpus), Path(scratch) / "index", corpus_fingerprint(corpus))
        print(f"index build:                    {time.perf_counter() - started:6.1f} s")
        kb = KnowledgeBase(Path(scratch) / "index")
        questions = read_questions()
        latencies, top1, top3, reciprocal = [], 0, 0, []
        misses = []
        for query, answers in questions:
            search(kb, query, limit=10)   # warm
            for _ in range(runs):
                started = time.perf_counter()
                answer = search(kb, query, limit=10)
                latencies.append((time.perf_counter() - started) * 1000)
            rank = answer_rank([r.id for r in answer.results], answers)
            top1 += rank == 1
            top3 += rank is not None and rank <= 3
            reciprocal.append(1 / rank if rank else 0)
            if not rank or rank > 3:
                misses.append(f"{query!r} -> {[r.id for r in answer.results[:3]]} (wanted {' '.join(answers)})")
        latencies.sort()
        n = len(questions)
        print(f"search over {n} questions:       top-1 {top1 / n:.0%}, top-3 {top3 / n:.0%}, "
              f"MRR {statistics.mean(reciprocal):.3f}")
        print(f"search latency:                 median {statistics.median(latencies):.1f} ms, "
              f"p95 {latencies[int(len(latencies) * 0.95) - 1]:.1f} ms")
        for miss in misses:
            print(f"  missed: {miss}")


def read_questions(path: Path = QUESTIONS) -> list[tuple[str, list[str]]]:
    questions = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        query, answers = line.split("\t")
        questions.append((query, answers.split()))
    return questions


def answer_rank(ids: list[str], answers: list[str]) -> Optional[int]:
    """1-based rank of the first result that answers (a subrule of an answer counts too)."""
    for rank, result in enumerate(ids, 1):
        for answer in answers:
            if result == answer or (result.startswith(answer) and result[len(answer):][:1].isalpha()
                                    and re.fullmatch(r"[a-z]", result[len(answer):])):
                return rank
    return None


def main(sources: Path, runs: int = 5, parts: tuple[str, ...] = ("parse", "build", "search")) -> int:
    print(f"rulekb benchmark on {sources}/ ({os.cpu_count()} cores, Python {sys.version.split()[0]})\n")
    if "parse" in parts:
        bench_parsing(sources, runs)
        print()
    if "search" in parts:
        bench_search(sources)
        print()
    if "build" in parts:
        bench_build(sources)
    return 0
