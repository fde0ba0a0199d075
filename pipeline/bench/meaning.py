"""The semantic signal (`search/semantic.py`): what it costs a build, its file, its speed in Python and in
the browser's script under Node, and what it finds alone and fused with the lexical score."""
from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from .. import cache
from ..corpus import load_corpus
from ..search import semantic
from ..search.engine import search
from ..search.entries import entries
from ..search.index import KnowledgeBase
from ..search.indexing import write_search_index
from ..search.quality import answer_rank, read_questions
from .common import percentile

QUESTION_SETS = ("tests/fixtures/situations.tsv", "tests/fixtures/real-questions.tsv")
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
            ids = [fields["id"] for fields in kb.stored()]
            for name in args.questions or QUESTION_SETS:
                if Path(name).is_file():
                    _quality(kb, table, ids, name)
        finally:
            kb.close()


def _quality(kb, table, ids: list[str], name: str) -> None:
    """Top-3 and top-10 of the semantic score alone, and of lexical/best lexical + weight x cosine."""
    questions = read_questions(Path(name)) if not name.endswith("real-questions.tsv") else _real(Path(name))
    weights = (0.0, 1.0, semantic.FUSION_WEIGHT, 3.0)
    alone = [0, 0]
    fused = {weight: [0, 0] for weight in weights}
    for query, answers in questions:
        scores = table.similarities(query)
        best = sorted(range(len(ids)), key=lambda entry: -scores[entry])[:50]
        _count(alone, answer_rank([ids[entry] for entry in best[:10]], answers))
        try:
            lexical = [(result.id, result.score) for result in search(kb, query, limit=50).results]
        except ValueError:
            lexical = []
        top = max((score for _, score in lexical), default=1.0) or 1.0
        where = {entry_id: entry for entry, entry_id in enumerate(ids)}
        for weight in weights:
            combined = {entry_id: score / top + weight * scores[where[entry_id]] for entry_id, score in lexical}
            for entry in best:
                combined.setdefault(ids[entry], weight * scores[entry])
            order = sorted(combined, key=lambda entry_id: -combined[entry_id])
            _count(fused[weight], answer_rank(order[:10], answers))
    n = len(questions)
    line = "  ".join(f"w={weight:g}: {top3}/{top10}" for weight, (top3, top10) in fused.items())
    print(f"{Path(name).stem:<18} top-3/top-10 of {n}: semantic alone {alone[0]}/{alone[1]}; fused {line}")


def _count(counts: list[int], rank) -> None:
    if rank is not None and rank <= 3:
        counts[0] += 1
    if rank is not None and rank <= 10:
        counts[1] += 1


def _real(path: Path) -> list[tuple[str, list[str]]]:
    """The dev part of the real questions (split, question, sections, ...): tuning is done on it only."""
    questions = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            split, query, sections = line.split("\t")[:3]
            if split == "dev":
                questions.append((query, sections.split()))
    return questions
