"""The CLI's engine (whoosh) on the question sets: quality and latency. The real questions people asked are
reported part by part: the dev part (tune on it) and the test part (measure only)."""
from __future__ import annotations

import tempfile
import time
from pathlib import Path

from ..corpus import load_corpus
from ..search.engine import search
from ..search.index import KnowledgeBase
from ..search.indexing import write_search_index
from ..search.quality import PARTS, measure, read_questions
from ..search.question import QueryError
from .common import percentile

QUESTION_SETS = ("tests/fixtures/search.tsv", "tests/fixtures/search-more.tsv", "tests/fixtures/situations.tsv",
                 "tests/fixtures/common-calls.tsv")
REAL_QUESTIONS = "tests/fixtures/real-questions.tsv"


def run(args) -> None:
    corpus = load_corpus(args.sources)
    with tempfile.TemporaryDirectory(prefix="rulekb-index-") as scratch:
        started = time.perf_counter()
        write_search_index(corpus, Path(scratch) / "index")
        print(f"index build:            {time.perf_counter() - started:6.1f} s")
        kb = KnowledgeBase(Path(scratch) / "index")
        for name, part in question_sets(args.questions):
            if not Path(name).is_file():
                print(f"(no question set {name} here: run the bench from the project folder)")
                continue
            questions = read_questions(Path(name), part)
            refused: dict[str, str] = {}
            quality = measure(lambda query, refused=refused: answer_ids(kb, query, refused), questions)
            print(quality.line(f"{Path(name).stem}" + (f" ({part})" if part else "")))
            for miss in quality.misses:
                print(f"  missed: {miss}")
            for query, reason in refused.items():
                print(f"  refused (counted as missed): {query[:60]!r}…: {reason}")
            latencies = []
            for query, _ in questions:
                if query in refused:
                    continue
                for _ in range(args.runs):
                    started = time.perf_counter()
                    search(kb, query, limit=10)
                    latencies.append((time.perf_counter() - started) * 1000)
            print(f"  latency: median {percentile(latencies, 0.5):.1f} ms, p95 {percentile(latencies, 0.95):.1f} ms "
                  f"({args.runs} runs of each question)")
        kb.close()


def answer_ids(kb, query: str, refused: dict[str, str]) -> list[str]:
    """The result ids of a question; a question the search refuses (too long, say) answers nothing, and is noted."""
    try:
        return [r.id for r in search(kb, query, limit=10).results]
    except QueryError as error:
        refused[query] = str(error)
        return []


def question_sets(named: list[str] | None) -> list[tuple[str, str | None]]:
    """(file, part) to measure: the sets named on the command line whole, else every set and each part of the
    real questions on its own."""
    if named:
        return [(name, None) for name in named]
    return [(name, None) for name in QUESTION_SETS] + [(REAL_QUESTIONS, part) for part in PARTS]
