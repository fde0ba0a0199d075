"""The question fixtures are well formed: every section they expect exists in the frozen documents, every real
question has its source and the source's answer and sits in the part the fixed rule gives it, every abbreviation
says where it is used. Cheap: no search is run, only the frozen corpus read once."""
from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from pipeline.addresses import glossary_id
from pipeline.search.quality import PARTS, answer_rank, part_of, read_questions, read_real_questions, thread_of
from pipeline.search.question import ABBREVIATIONS_FILE

FIXTURES = Path(__file__).resolve().parent / "fixtures"
QUESTION_SETS = ("search.tsv", "search-more.tsv", "situations.tsv", "common-calls.tsv", "real-questions.tsv")
REAL = FIXTURES / "real-questions.tsv"
ADDRESS = re.compile(r"https?://[^\s/]+\.[^\s]+")


@pytest.fixture(scope="module")
def section_ids(frozen_corpus) -> list[str]:
    """Every section and glossary entry of the current documents the tests build from."""
    ids = []
    for document in frozen_corpus.documents:
        ids.extend(section.id for section in document.sections)
        ids.extend(glossary_id(document, entry) for entry in document.glossary)
    return ids


@pytest.mark.parametrize("name", QUESTION_SETS)
def test_every_expected_section_exists_in_the_frozen_documents(name, section_ids):
    known = set(section_ids)
    missing = [(query, answer) for query, answers in read_questions(FIXTURES / name) for answer in answers
               if answer not in known and answer_rank([i for i in section_ids if i.startswith(answer)], [answer]) is None]
    assert not missing, missing[:5]


def test_every_real_question_has_its_source_its_answer_and_the_part_the_rule_gives():
    questions = read_real_questions(REAL)
    assert len(questions) >= 50
    for q in questions:
        where = f"{REAL.name}:{q.line}"
        assert ADDRESS.fullmatch(q.source), where
        assert len(q.question.split()) >= 5 and q.answers and len(q.source_answer.split()) >= 4, where
        assert q.part == part_of(q.source), f"{where}: {q.part}, the rule gives {part_of(q.source)}"
    parts = {part: {thread_of(q.source) for q in questions if q.part == part} for part in PARTS}
    assert not parts["dev"] & parts["test"]
    # about two thirds to tune on, one third to measure
    assert 0.2 <= len([q for q in questions if q.part == "test"]) / len(questions) <= 0.45


def test_a_question_is_asked_once():
    questions = [q.question for q in read_real_questions(REAL)]
    assert len(questions) == len(set(questions))


def test_the_part_follows_the_thread_not_the_address():
    assert thread_of("https://apps.magicjudges.org/forum/topic/unread/31324") == \
        thread_of("https://apps.magicjudges.org./forum/topic/31324/?page=1")
    assert thread_of("https://reddit.example/r/mtgjudge/comments/10qln59/title/j6rwyl6/?context=3") == \
        thread_of("https://other.mirror/r/mtgjudge/comments/10qln59/title/")
    assert thread_of("https://blogs.magicjudges.org/knowledgepool/?p=3650") != \
        thread_of("https://blogs.magicjudges.org/knowledgepool/?p=920")


def test_a_malformed_line_is_an_error_with_file_and_line(tmp_path):
    questions = tmp_path / "questions.tsv"
    questions.write_text("# a comment\nmissed trigger\tipg:2.1\nno sections here\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"questions.tsv:3: 1 columns"):
        read_questions(questions)
    real = tmp_path / "real.tsv"
    real.write_text("dev\ta question\tipg:2.1\thttps://example.org/q\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"real.tsv:1: 4 columns"):
        read_real_questions(real)


def test_a_real_question_file_is_read_part_by_part():
    dev, test = (read_questions(REAL, part) for part in PARTS)
    assert dev and test and len(dev) + len(test) == len(read_questions(REAL))


def test_every_abbreviation_says_where_it_is_used():
    text = ABBREVIATIONS_FILE.read_text(encoding="utf-8")
    keys = tomllib.loads(text)
    cited = {}
    for line in text.splitlines():
        if line.strip() and not line.startswith("#"):
            key, _, rest = line.partition("=")
            cited[key.strip().strip('"')] = rest.partition("  # ")[2].strip()
    assert set(cited) == set(keys)
    source = re.compile(r"https?://|\[[A-Z0-9]+\]|\b(IPG|MTR|CR|JAR)\b|unverified")
    uncited = [key for key, citation in cited.items() if not source.search(citation)]
    assert not uncited, uncited
