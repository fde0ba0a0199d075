"""One brain, checked as one: the site's search worker, run under Node, against the Python engine.

Both read a question the same way (the rules the build exports from `question.py`) and rank on the
same scores (the whoosh index's, as the build exports them): every question of every question set,
and questions made up by hypothesis from the documents' words, judges' words and punctuation, must
be understood the same (the same suggestion) and answered the same (the same first answers).

Node is Debian's `nodejs` (`.ci/run` installs it); without it these tests are skipped on a developer's
machine and say so, and fail in CI.
"""
from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
from dataclasses import replace
from typing import Optional

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.search.engine import search
from pipeline.search.index import KnowledgeBase
from pipeline.search.quality import read_questions
from pipeline.search.question import QueryError, abbreviations, meanings
from pipeline.search.signals import SIGNALS
from pipeline.site.publish import index_folder, published

from conftest import FIXTURES, ROOT

NODE = shutil.which("node") or shutil.which("nodejs")
WORKER = ROOT / "pipeline" / "site" / "assets" / "search-worker.js"
HARNESS = ROOT / "tests" / "worker_harness.js"
QUESTION_SETS = ("search.tsv", "search-more.tsv", "situations.tsv", "common-calls.tsv", "real-questions.tsv")
COMPARED = 5          # the first answers that must be the same

pytestmark = pytest.mark.node             # the worker under Node: outside the fast lane (make fast)

if NODE is None:
    if os.environ.get("RULEKB_REQUIRE_BROWSER"):
        pytest.fail("the agreement tests need Node (apt-get install nodejs)", pytrace=False)
    pytest.skip("no node on this machine: the worker/engine agreement tests are skipped (apt-get install nodejs)",
                allow_module_level=True)


class Worker:
    """The search worker in a Node process, asked one question at a time."""

    def __init__(self, search_folder):
        self.process = subprocess.Popen([NODE, str(HARNESS), str(WORKER), str(search_folder)], text=True,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.asked = 0

    def answer(self, query: str, limit: int = 10, language: Optional[str] = None) -> dict:
        self.asked += 1
        self.process.stdin.write(json.dumps({"id": self.asked, "query": query, "limit": limit,
                                             "language": language}) + "\n")
        self.process.stdin.flush()
        message = json.loads(self.process.stdout.readline())
        assert message["id"] == self.asked and not message["answer"].get("failure"), message
        return message["answer"]

    def burst(self, queries: list[str]) -> tuple[list[int], int, dict]:
        """The questions sent as fast typing sends them (each a message of its own, all queued before the first is
        read): (the ids answered, the last question's id, its answer)."""
        requests = []
        for query in queries:
            self.asked += 1
            requests.append({"id": self.asked, "query": query, "limit": 10})
        self.process.stdin.write(json.dumps({"burst": requests}) + "\n")
        self.process.stdin.flush()
        message = json.loads(self.process.stdout.readline())
        return message["answered"], self.asked, message["last"]["answer"]

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(timeout=30)


@pytest.fixture(scope="module")
def worker(built_site):
    running = Worker(built_site / "search")
    yield running
    running.close()


@pytest.fixture(scope="module")
def kb(built_site):
    knowledge_base = KnowledgeBase(index_folder(built_site, published(built_site)["generation"]))
    yield knowledge_base
    knowledge_base.close()


def python_answer(kb, query: str) -> dict:
    try:
        answer = search(kb, query, limit=10)
    except QueryError as error:
        return {"error": str(error), "suggestion": None, "ids": []}
    return {"error": None, "suggestion": answer.suggestion, "ids": [result.id for result in answer.results]}


def worker_answer(worker, query: str) -> dict:
    answer = worker.answer(query)
    return {"error": answer.get("error"), "suggestion": answer.get("suggestion"),
            "ids": [result["id"] for result in answer["results"]]}


def differences(kb, worker, queries) -> list[str]:
    found = []
    for query in queries:
        python, browser = python_answer(kb, query), worker_answer(worker, query)
        if (python["error"], python["suggestion"], python["ids"][:COMPARED]) != (
                browser["error"], browser["suggestion"], browser["ids"][:COMPARED]):
            found.append(f"{query!r}:\n  python {python}\n  worker {browser}")
    return found


@pytest.mark.parametrize("questions", QUESTION_SETS)
def test_the_worker_and_the_engine_answer_every_question_set_alike(kb, worker, questions):
    queries = [query for query, _ in read_questions(FIXTURES / questions)]
    assert not differences(kb, worker, queries), "\n".join(differences(kb, worker, queries))


@pytest.mark.parametrize("query", ["how strict are we with shufling", "is a trial a competitive event",
                                   "the trampel rules"])
def test_an_english_word_is_left_as_typed_and_a_typo_corrected_alike(kb, worker, query):
    """"strict" and "trial" are English, not the documents' (no "strike", no "trail"); "shufling" and "trampel"
    are typos of their words: the worker reads the same kept words (its k-<letter> files) and suggests the same."""
    assert not differences(kb, worker, [query])
    assert "strike" not in (worker_answer(worker, query)["suggestion"] or "")


def test_the_worker_shows_what_to_do_for_an_infraction(worker):
    first = worker.answer("player arrived late for round one")["results"][0]
    assert first["id"] == "ipg:3.1" and first["penalty"] == "Game Loss"
    assert first["action"].startswith("The players are given a time extension")
    assert first["action_label"] == "Remedy"        # the registry's word for the IPG's action (the JAR's: "Fix")


def test_a_sentence_asking_only_what_comes_next_is_left_out_alike(kb, worker):
    story = "At FNM my opponent played a land after he attacked, and I noticed it on my turn."
    queries = [f"{story} What now?", f"{story} Then what?", "What now?", f"{story} Can I respond now?"]
    assert not differences(kb, worker, queries)
    assert worker_answer(worker, queries[0])["ids"] == worker_answer(worker, story)["ids"]


def test_a_long_question_shows_the_same_answering_sentence(kb, worker):
    # a story with names, a card and quoted speech: the sentence of each result holding most of its words, alike
    query = 'Alice cast Ragavan, said "go", and Player B then drew an extra card from the library'
    python = search(kb, query, limit=5).results
    browser = worker.answer(query, limit=5)["results"]
    assert [result.id for result in python] == [result["id"] for result in browser]
    for mine, theirs in zip(python, browser):
        assert html.unescape(re.sub(r"</?mark>", "", mine.snippet)) == "".join(piece[0] for piece in theirs["snippet"])
    assert any(not result.snippet.startswith("Definition") for result in python)       # not only the first words


def test_questions_typed_fast_are_answered_only_for_the_last(worker):
    # each key asks again; a phone working out every stale question would fall behind the typing
    story = "Alice drew an extra card from the library and her opponent called a judge"
    typed = [story[:end] for end in range(40, len(story) + 1, 8)] + [story]
    for query in typed:             # every file they need read: none waits for the network between the messages
        worker.answer(query)
    answered, last, answer = worker.burst(typed)
    assert answered == [last]
    assert [result["id"] for result in answer["results"]] == [result["id"] for result in worker.answer(story)["results"]]


def documents_words(kb) -> list[str]:
    return sorted(word for word, (count, _) in kb.vocabulary.items() if count >= 3 and word.isalpha())


@pytest.fixture(scope="module")
def words(kb):
    return documents_words(kb)


PUNCTUATION = ['"', "“", "”", "'", "’", "?", "!", "(", ")", "-", "*", ":", "AND", "OR", "NOT", ",", "/", "$"]


def question_strategy(words: list[str]):
    said = sorted(meanings())
    pieces = st.one_of(st.sampled_from(words), st.sampled_from(said), st.sampled_from(sorted(abbreviations())),
                       st.sampled_from(PUNCTUATION), st.sampled_from(["at fnm", "at competitive", "cr", "ipg", "mtr"]),
                       st.text("abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=9),
                       st.from_regex(r"[0-9]{1,3}(\.[0-9]{1,2}[a-z]?)?", fullmatch=True))
    return st.lists(pieces, min_size=1, max_size=9).map(" ".join)


def test_made_up_questions_are_understood_and_answered_alike(kb, worker, words):
    made_up = []

    @settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
    @given(question_strategy(words))
    def collect(query):
        made_up.append(query)

    collect()
    assert len(made_up) >= 200
    found = differences(kb, worker, made_up)
    assert not found, "\n".join(found[:10])


def test_a_question_longer_than_the_limit_is_shortened_alike(kb, worker):
    story = " ".join(f"In round {n} my opponent shuffled, cut and we played on." for n in range(30))
    queries = ["Is this a missed trigger? " + story + " Then he forgot his upkeep trigger. What is the penalty?",
               "x" * 2000, "ü" * 1500]
    assert not differences(kb, worker, queries)
    for query in queries:
        python, browser = search(kb, query, limit=10), worker.answer(query)
        assert (browser["query"], browser["notice"]) == (python.query, python.notice) and python.notice
        assert browser["shortened"] is True


LONG = "my opponent forgot to reveal the card he drew for the turn, what do I do now"


def test_a_rule_named_by_number_leads_alike(kb, worker):
    """A section the question names by number (question.cited_sections): read and put first alike."""
    story = "My opponent blocked my trampler with two creatures. Does {} let me assign lethal damage to each?"
    queries = [story.format(named) for named in ("CR 702.19d", "rule 702.19e", "comprehensive rules: 702.19c",
                                                  "MTR 4.2", "section 510", "702.19d or 2.5")]
    assert not differences(kb, worker, queries)
    assert worker_answer(worker, queries[0])["ids"][0] == "cr:702.19d"


def test_a_long_question_reads_its_meaning_in_both(kb, worker, monkeypatch):
    # the semantic signal is in the ranking of both: a long question's answers move with its weight
    assert kb.semantic() is not None
    with_meaning = python_answer(kb, LONG)["ids"]
    assert worker_answer(worker, LONG)["ids"][:COMPARED] == with_meaning[:COMPARED]
    monkeypatch.setitem(SIGNALS, "semantic", replace(SIGNALS["semantic"], weight=0.0))
    assert python_answer(kb, LONG)["ids"] != with_meaning


def test_without_the_semantic_table_the_worker_answers_by_words(kb, built_site, tmp_path, monkeypatch):
    # offline before the table was ever fetched: the worker answers a long question as by words alone
    search_folder = tmp_path / "search"
    shutil.copytree(built_site / "search", search_folder)
    manifest = json.loads((search_folder / "manifest.json").read_text(encoding="utf-8"))
    (search_folder / manifest["semantic"]).unlink()
    offline = Worker(search_folder)
    try:
        answered = worker_answer(offline, LONG)
    finally:
        offline.close()
    monkeypatch.setitem(SIGNALS, "semantic", replace(SIGNALS["semantic"], weight=0.0))
    words_alone = python_answer(kb, LONG)
    assert answered["error"] is None and answered["ids"][:COMPARED] == words_alone["ids"][:COMPARED]
