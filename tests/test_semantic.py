"""The semantic signal: its tokenizer, its table file, and the browser's copy (run under Node) giving
the same vectors and the same order of entries as Python, on real and made-up questions."""
from __future__ import annotations

import json
import random
import struct
import subprocess
import threading
import time
from array import array
from dataclasses import replace

import pytest

from pipeline.search import semantic
from pipeline.search.index import Entry, KnowledgeBase
from pipeline.search.quality import read_questions
from pipeline.site.publish import index_folder, published

from conftest import FIXTURES, ROOT, node_or_skip

SCRIPT = ROOT / "pipeline" / "site" / "assets" / "semantic.js"
HARNESS = ROOT / "tests" / "semantic_harness.js"
COMPARED = 10


def small_table() -> semantic.Table:
    """Four tokens in two dimensions: cat and dog alike, the far from both."""
    tokens = ["cat", "dog", "##s", "the"]
    vectors = bytes(pack(x, y) for x, y in ((7, 1), (6, 2), (0, 0), (-1, 7)))
    return semantic.Table(tokens, array("H", [100, 100, 100, 1]), vectors, dimensions=2)


def pack(low: int, high: int) -> int:
    return (low + 8) | ((high + 8) << 4)


def test_words_are_lower_case_without_accents_split_around_punctuation():
    assert semantic.words("Café, naïve!  “Judge”—A.P.") == ["cafe", ",", "naive", "!", "“", "judge", "”", "—",
                                                           "a", ".", "p", "."]
    assert semantic.words("x\x1fy\u200bz\tw") == ["x", "y", "z", "w"]


def test_wordpieces_take_the_longest_match_and_give_nothing_for_an_unknown_piece():
    vocabulary = {"play": 0, "##ing": 1, "##s": 2, "p": 3, "##l": 4}
    assert semantic.wordpieces("playing", vocabulary) == [0, 1]
    assert semantic.wordpieces("plays", vocabulary) == [0, 2]
    assert semantic.wordpieces("plx", vocabulary) == []
    assert semantic.wordpieces("p" * 101, vocabulary) == []


def test_a_table_file_reads_back_and_ranks_the_entry_of_the_same_meaning_first():
    table = small_table()
    entries = bytes([pack(7, 0), pack(0, 7)])          # an entry about cats, one about something else
    read = semantic.read_table(semantic.table_bytes(table, entries))
    assert read.table.tokens == table.tokens and len(read.entries) == 2
    assert read.table.embed("The dogs") == table.embed("The dogs")
    scores = read.similarities("the dogs")
    assert scores[0] > 0.9 > scores[1]
    assert read.similarity("the dogs", 0) == scores[0]
    assert read.similarities("unknown words only") == [0.0, 0.0]


def test_an_entry_is_read_by_its_names_and_former_names_too_not_by_its_commentary():
    # an infraction's former name says what it is about in few words, where its long text says much else
    entry = Entry(id="ipg:9.9", document="ipg", kind="ipg", number="9.9", section_kind="infraction", title="The",
                  headings="", text="the the", url="", edition="", order=0, former="Cats", commentary="dogs dogs")
    table = small_table()
    texts = [semantic.entry_text(entry), semantic.entry_text(replace(entry, former=""))]
    read = semantic.read_table(semantic.table_bytes(table, table.entry_vectors(texts)))
    scores = read.similarities("cats")
    assert scores[0] > 0.9 > scores[1]
    assert semantic.entry_text(replace(entry, commentary="")) == texts[0]


def test_a_file_that_is_not_a_table_is_refused_clearly():
    with pytest.raises(ValueError, match="bad magic"):
        semantic.read_table(b"{}" * 20)
    data = semantic.table_bytes(small_table(), b"")
    with pytest.raises(ValueError, match="version"):
        semantic.read_table(data[:4] + struct.pack("<I", 99) + data[8:])
    with pytest.raises(ValueError, match="truncated"):
        semantic.read_table(data[:-3])


def test_two_builds_distilling_at_once_run_the_model_once_over_the_missing_tokens(tmp_path, monkeypatch):
    """Two builds at the same moment (the suite's two workers) on an empty outputs' cache: the second waits for
    the first one's outputs and reads them, instead of running the model over the same tokens; both get the same
    vectors."""
    monkeypatch.setenv("RULEKB_MODEL_CACHE", str(tmp_path / "outputs"))
    run = semantic._token_outputs
    ran: list[int] = []
    started = threading.Event()

    def slow_to_run(weights, ids, np, *args):
        ran.extend(ids.tolist())
        started.set()
        time.sleep(0.5)                 # the other build asks meanwhile
        return run(weights, ids, np, *args)
    monkeypatch.setattr(semantic, "_token_outputs", slow_to_run)
    folder = semantic.model_folder()
    vocabulary = (folder / "vocab.txt").read_text(encoding="utf-8").split("\n")
    kept = sorted(vocabulary.index(word) for word in ("the", "to", "judge", "dog", "cat", "trigger"))
    results: list = []
    first = threading.Thread(target=lambda: results.append(semantic._distilled(folder, kept)))
    first.start()
    assert started.wait(timeout=60)
    results.append(semantic._distilled(folder, kept))            # while the first is running the model
    first.join()
    assert sorted(ran) == kept                                      # each token through the model once
    assert results[0] == results[1]


@pytest.fixture(scope="module")
def site_table(built_site):
    manifest = json.loads((built_site / "search" / "manifest.json").read_text(encoding="utf-8"))
    path = built_site / "search" / manifest["semantic"]
    return manifest, path, semantic.read_table(path.read_bytes())


def test_the_build_writes_a_table_of_every_entry_small_enough_for_a_phone(built_site, site_table):
    manifest, path, table = site_table
    assert len(table.entries) == manifest["entries"]
    assert path.stat().st_size < 1_500_000
    folder = index_folder(built_site, published(built_site)["generation"])
    assert (folder / semantic.TABLE_FILE).read_bytes() == path.read_bytes()      # the CLI reads the same file
    kb = KnowledgeBase(folder)
    try:
        ids = [fields["id"] for fields in kb.stored()]
    finally:
        kb.close()
    # the model's meaning survives distillation (a forward pass gone wrong gives noise): an appeal to
    # the head judge finds the MTR's rule on appeals
    scores = table.similarities("I want to appeal the floor judge's ruling")
    best = sorted(range(len(scores)), key=lambda entry: -scores[entry])[:3]
    assert "mtr:2.9" in [ids[entry] for entry in best]


def made_up_questions(table: semantic.Table, count: int = 150) -> list[str]:
    """Questions of the table's words, names, accents, quotes, punctuation, digits and odd spaces."""
    chosen = random.Random(32)
    words = [token for token in table.tokens if token.isalpha() and len(token) > 2]
    extra = ["Ætherling", "naïve", "“he said”", "N.A.P.", "Jürgen's", "½", "İ", "ΣΑΣ", "x\u200by", "—", "7.5",
             "can't", "A/P", "\t", "l'enchantement", "🙂", "ｆｕｌｌ", "ﬁre"]
    questions = []
    for _ in range(count):
        pieces = [chosen.choice(words if chosen.random() < 0.8 else extra) for _ in range(chosen.randint(1, 40))]
        questions.append(" ".join(pieces))
    return questions


@pytest.mark.node
def test_the_browser_gives_the_same_vectors_and_order_as_python(site_table):
    node = node_or_skip("the agreement tests")
    _, path, table = site_table
    questions = [query for name in ("situations.tsv", "search.tsv") for query, _ in read_questions(FIXTURES / name)]
    questions += made_up_questions(table.table)
    done = subprocess.run([node, str(HARNESS), str(SCRIPT), str(path), str(COMPARED)], input=json.dumps(questions),
                          capture_output=True, text=True, timeout=300, check=True)
    answers = json.loads(done.stdout)
    assert len(answers) == len(questions)
    for question, answer in zip(questions, answers):
        assert answer["rows"] == table.table.token_rows(question), question
        assert answer["vector"] == table.table.embed(question), question
        scores = table.similarities(question)
        best = sorted(range(len(scores)), key=lambda entry: (-scores[entry], entry))[:COMPARED]
        assert answer["best"] == best, question
        assert answer["scores"] == pytest.approx([scores[entry] for entry in best], abs=1e-12), question
