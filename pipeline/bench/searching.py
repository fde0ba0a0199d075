"""The CLI's engine (whoosh) on the question sets: quality and latency."""
from __future__ import annotations

import tempfile
import time
from pathlib import Path

from ..corpus import load_corpus
from ..search.engine import search
from ..search.index import KnowledgeBase
from ..search.indexing import write_search_index
from ..search.quality import measure, read_questions
from .common import percentile

QUESTION_SETS = ("tests/fixtures/search.tsv", "tests/fixtures/search-more.tsv", "tests/fixtures/situations.tsv")


def run(args) -> None:
    corpus = load_corpus(args.sources)
    with tempfile.TemporaryDirectory(prefix="rulekb-index-") as scratch:
        started = time.perf_counter()
        write_search_index(corpus, Path(scratch) / "index")
        print(f"index build:            {time.perf_counter() - started:6.1f} s")
        kb = KnowledgeBase(Path(scratch) / "index")
        for name in args.questions or QUESTION_SETS:
            if not Path(name).is_file():
                print(f"(no question set {name} here: run the bench from the project folder)")
                continue
            questions = read_questions(Path(name))
            quality = measure(lambda query: [r.id for r in search(kb, query, limit=10).results], questions)
            print(quality.line(f"{Path(name).stem}"))
            for miss in quality.misses:
                print(f"  missed: {miss}")
            latencies = []
            for query, _ in questions:
                for _ in range(args.runs):
                    started = time.perf_counter()
                    search(kb, query, limit=10)
                    latencies.append((time.perf_counter() - started) * 1000)
            print(f"  latency: median {percentile(latencies, 0.5):.1f} ms, p95 {percentile(latencies, 0.95):.1f} ms "
                  f"({args.runs} runs of each question)")
        kb.close()
