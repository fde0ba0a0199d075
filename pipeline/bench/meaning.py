"""The semantic signal (`search/semantic.py`): what it costs a build, its file, its speed in Python and in
the browser's script under Node, and what it finds alone and fused with the lexical score; and the weight of a long
question's story words (the story signal), of a story's long section's best paragraph (the passage signal) and of
the tournament documents in a story told in the game's words (the game signal) and of the game rules in one told in
a tournament's (the tournament signal), fitted on the same dev questions;
and choosing the document first, measured on them (`document_first`, not declared)."""
from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from .. import cache
from ..corpus import load_corpus
from ..search import semantic
from ..search.engine import search
from ..search.entries import entries
from ..search.index import KnowledgeBase
from ..search.indexing import write_search_index
from ..search.quality import answer_rank, read_questions
from ..search.question import QueryError, understand
from ..search.signals import SIGNALS
from . import document_first
from .common import percentile

QUESTION_SETS = ("tests/fixtures/real-questions.tsv", "tests/fixtures/situations.tsv",
                 "tests/fixtures/common-calls.tsv")
# a long question as people write them: a story, names, what was said, then the question (300 characters)
LONG_QUESTION = ("Player A, Alice, casts a creature spell and attacks with her 2/2. Bob says \"ok, no blocks\" and "
                 "takes two. Then Alice notices she forgot to put a counter on her saga in her precombat main "
                 "phase, and Bob wants to call a judge. What happens now, is that a warning for both of them, "
                 "at Competitive? Thanks.")
NODE_TIMER = """
const semantic = require(process.argv[1]);
const data = require("fs").readFileSync(process.argv[2]);
const table = semantic.read(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength));
const question = process.argv[3], runs = Number(process.argv[4]), times = [];
for (let i = 0; i < runs; i++) {
  const t = performance.now(); table.similarities(question); times.push(performance.now() - t);
}
process.stdout.write(JSON.stringify(times));
"""


def run(args) -> None:
    question = LONG_QUESTION[:300]
    corpus = load_corpus(args.sources)
    found = entries(corpus)
    with tempfile.TemporaryDirectory(prefix="rulekb-semantic-") as scratch:
        cache.use_folder(scratch)                  # a cold distillation: no model outputs cached
        try:
            started, cpu = time.perf_counter(), time.process_time()
            data = semantic.semantic_file(found)
            cold, cold_cpu = time.perf_counter() - started, time.process_time() - cpu
            started = time.perf_counter()
            semantic.semantic_file(found)
            warm = time.perf_counter() - started
        finally:
            cache.use_folder(None)
        path = Path(scratch) / "table.bin"
        path.write_bytes(data)
        print(f"table: {len(data) / 1e6:.2f} MB ({len(found)} entries); build {cold:.1f} s cold "
              f"({cold_cpu:.1f} s of CPU: the model's outputs distilled), {warm:.1f} s warm")
        started = time.perf_counter()
        table = semantic.read_table(data)
        print(f"python: table read in {(time.perf_counter() - started) * 1000:.0f} ms (numpy imported)")
        latencies = []
        for _ in range(args.runs * 20):
            started = time.perf_counter()
            table.similarities(question)
            latencies.append((time.perf_counter() - started) * 1000)
        print(f"python: a {len(question)}-character question: median {percentile(latencies, 0.5):.1f} ms, "
              f"p95 {percentile(latencies, 0.95):.1f} ms")
        node = shutil.which("node") or shutil.which("nodejs")
        script = Path(__file__).resolve().parent.parent / "site" / "assets" / "semantic.js"
        if node:
            done = subprocess.run([node, "-e", NODE_TIMER, str(script), str(path), question, str(args.runs * 20)],
                                  capture_output=True, text=True, check=True)
            times = json.loads(done.stdout)
            print(f"node:   a {len(question)}-character question: median {percentile(times, 0.5):.1f} ms, "
                  f"p95 {percentile(times, 0.95):.1f} ms")
        index = Path(scratch) / "index"
        write_search_index(corpus, index)
        kb = KnowledgeBase(index)
        try:
            search(kb, question)                        # the table and the paragraphs read once, as a CLI does
            latencies = []
            for _ in range(args.runs * 20):
                started = time.perf_counter()
                search(kb, question)
                latencies.append((time.perf_counter() - started) * 1000)
            print(f"engine: a {len(question)}-character question, the whole search (the CLI's answer): median "
                  f"{percentile(latencies, 0.5):.1f} ms, p95 {percentile(latencies, 0.95):.1f} ms")
            _fit(kb, [name for name in args.questions or QUESTION_SETS if Path(name).is_file()])
        finally:
            kb.close()


# the grid the semantic signal's weight and reach are fitted on (signals.py holds the values chosen)
WEIGHTS = (0.0, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0)
REACHES = (0, 20)
# and the story signal's (a long question's words said only in its story), at the declared semantic weight
STORY_WEIGHTS = (1.0, 0.5, 0.35, 0.25)
# and the passage signal's (a story's long section counted by its best paragraph: passages.py)
PASSAGE_WEIGHTS = (0.0, 0.25, 0.4, 0.5, 0.6, 0.75, 1.0)
# and the game signal's (a story told in the game's words: the tournament documents' sections count this share),
# the tournament signal's (one told in a tournament's: the game rules' sections count this share)
GAME_WEIGHTS = (1.0, 0.75, 0.5, 0.35, 0.25)
TOURNAMENT_WEIGHTS = (1.0, 0.75, 0.35, 0.25, 0.1)


def _fit(kb, names: list[str]) -> None:
    """The ranker's answers to the dev questions of 5 words or more for each weight and reach of the grid
    (short questions do not read the signal): top-3 and top-10 of each set, and the best by top-3 of all
    (MRR breaking ties), that signals.py should declare."""
    declared = SIGNALS["semantic"]
    sets = {Path(name).stem: [(query, answers) for query, answers in _dev(Path(name)) if _long(kb, query)]
            for name in names}
    kept = kb.semantic()
    cached: dict[str, list[float]] = {}

    class Remembered:                   # each question's cosines computed once for the whole grid
        def similarities(self, question: str) -> list[float]:
            if question not in cached:
                cached[question] = kept.similarities(question)
            return cached[question]

    kb._semantic = Remembered()
    scores = {}
    try:
        for reach in REACHES:
            for weight in WEIGHTS:
                SIGNALS["semantic"] = replace(declared, weight=weight, reach=reach)
                scores[weight, reach] = {name: _measured(kb, questions) for name, questions in sets.items()}
    finally:
        SIGNALS["semantic"] = declared
        kb._semantic = kept
    for name, questions in sets.items():
        line = "  ".join(f"w={weight:g}/r={reach}: {found[name][0]}/{found[name][1]}"
                         for (weight, reach), found in scores.items())
        print(f"{name:<18} top-3/top-10 of {len(questions)} long dev questions: {line}")
    best = max(scores, key=lambda key: (sum(found[0] for found in scores[key].values()),
                                        sum(found[2] for found in scores[key].values())))
    print(f"fitted: weight {best[0]:g}, reach {best[1]} (declared in signals.py: weight {declared.weight:g}, "
          f"reach {declared.reach})")
    _fit_weight(kb, sets, "story", STORY_WEIGHTS)
    _fit_weight(kb, sets, "passage", PASSAGE_WEIGHTS)
    _fit_weight(kb, sets, "game", GAME_WEIGHTS)
    _fit_weight(kb, sets, "tournament", TOURNAMENT_WEIGHTS)
    document_first.report(kb, sets)


def _fit_weight(kb, sets: dict, name: str, weights: tuple[float, ...]) -> None:
    """The dev questions' top-3 and top-10 at each weight of one signal (the others as declared), and the best by
    top-3 of all (MRR breaking ties), that signals.py should declare."""
    declared = SIGNALS[name]
    found = {}
    try:
        for weight in weights:
            SIGNALS[name] = replace(declared, weight=weight)
            found[weight] = {set_name: _measured(kb, questions) for set_name, questions in sets.items()}
    finally:
        SIGNALS[name] = declared
    for set_name, questions in sets.items():
        line = "  ".join(f"{name}={weight:g}: {at[set_name][0]}/{at[set_name][1]}" for weight, at in found.items())
        print(f"{set_name:<18} top-3/top-10 of {len(questions)} long dev questions: {line}")
    chosen = max(found, key=lambda weight: (sum(at[0] for at in found[weight].values()),
                                            sum(at[2] for at in found[weight].values())))
    print(f"fitted: {name} weight {chosen:g} (declared in signals.py: {declared.weight:g})")


def _measured(kb, questions) -> tuple[int, int, float]:
    counts = [0, 0]
    reciprocal = 0.0
    for query, answers in questions:
        rank = answer_rank([result.id for result in search(kb, query, limit=10).results], answers)
        _count(counts, rank)
        reciprocal += 1 / rank if rank else 0.0
    return counts[0], counts[1], reciprocal


def _long(kb, query: str) -> bool:
    try:
        return understand(query, kb).long
    except QueryError:
        return False


def _count(counts: list[int], rank) -> None:
    if rank is not None and rank <= 3:
        counts[0] += 1
    if rank is not None and rank <= 10:
        counts[1] += 1


def _dev(path: Path) -> list[tuple[str, list[str]]]:
    """A question set's questions; of the real questions, the dev part only: tuning is done on it."""
    return read_questions(path, "dev" if path.name == "real-questions.tsv" else None)
