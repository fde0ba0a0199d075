"""A long section's paragraphs weigh in the coverage of a question telling a story (passages.py): the index keeps
each long entry's paragraphs' terms, the ranker mixes the best paragraph's share with the whole text's."""
from __future__ import annotations

import json

import pytest

from pipeline.search import passages
from pipeline.search.index import KnowledgeBase, _stems
from pipeline.search.published import PublishedIndex
from pipeline.search.question import Alternative, tells_story, understand
from pipeline.search.scoring import broad_second, matched_words, ranked
from pipeline.search.signals import SIGNALS
from pipeline.site.publish import index_folder, published

LONG = "\n".join(["The player forgot the trigger of the card. " * 8, "", "A judge issues a warning. " * 8,
                  "The opponent may choose to put it on the stack. " * 8])


@pytest.fixture(scope="module")
def kb(built_site):
    knowledge_base = KnowledgeBase(index_folder(built_site, published(built_site)["generation"]))
    yield knowledge_base
    knowledge_base.close()


def test_only_a_long_text_of_several_paragraphs_has_passages():
    short = "A player draws a card.\nThen another."
    one_paragraph = "word " * 200
    rows = passages.passage_rows([short, LONG, one_paragraph], _stems)
    assert [row[0] for row in rows] == [1]
    assert len(rows[0]) == 1 + 3                       # the blank line is no paragraph
    assert set(rows[0][1].split()) == set(_stems(LONG.split("\n")[0]))
    read = passages.read_rows(rows)
    assert read[1][1] == frozenset(_stems("A judge issues a warning."))


def test_a_paragraph_holds_a_group_by_its_words_or_by_the_entry_s_name():
    terms = [frozenset(["trigger", "forgot"]), frozenset(["warn", "judg"])]
    groups = [[Alternative("trigger", "trigger")], [Alternative("warn", "warning")], [Alternative("shuffl", "shuffle")]]
    weights = [1.0, 2.0, 1.0]
    everything = sum(weights)
    held = 0b111
    said = passages.sayings(groups)
    # the second paragraph holds "warning": 2 of 4
    assert passages.best_share(terms, said, weights, everything, held, outside=0) == 2.0 / 4.0
    # "shuffle" held in the entry's title counts in every paragraph
    assert passages.best_share(terms, said, weights, everything, held, outside=0b100) == 3.0 / 4.0
    # a group the entry does not hold never counts
    assert passages.best_share(terms, said, weights, everything, 0b001, outside=0) == 1.0 / 4.0
    # a phrase is said where a paragraph holds all its words; one of a group's alternatives is enough
    phrase = passages.sayings([[Alternative("addit turn", "additional turn"), Alternative("extra", "extra")]])
    assert passages.best_share([frozenset(["addit", "turn"])], phrase, [1.0], 1.0, 0b1, 0) == 1.0
    assert passages.best_share([frozenset(["extra"])], phrase, [1.0], 1.0, 0b1, 0) == 1.0
    assert passages.best_share([frozenset(["addit"])], phrase, [1.0], 1.0, 0b1, 0) == 0.0


def test_the_mix_weighs_the_best_paragraph_by_the_declared_signal():
    weight = SIGNALS["passage"].weight
    assert 0 < weight < 1
    assert passages.covered(0.8, 0.4) == pytest.approx(0.8 * (1 - weight) + 0.4 * weight)
    assert passages.covered(0.5, 0.5) == pytest.approx(0.5)


def test_a_long_story_counts_a_long_section_by_its_best_paragraph_and_a_short_question_does_not(kb):
    story = ("At a Competitive REL event my opponent cast a spell and forgot the trigger of his creature. Two turns "
             "later he noticed it and called a judge. What is the penalty?")
    question = understand(story, kb)
    assert tells_story(question)
    found, patterns, coverage, _, _ = matched_words(kb, question, None)
    long_ones = [position for position in found if position in kb.passages()]
    assert long_ones
    for position in long_ones:
        pattern = patterns[position]
        assert pattern == (pattern[0], position)            # a pattern of its own
        assert coverage[pattern] <= coverage[pattern[0]] + 1e-12
    assert any(coverage[patterns[p]] < coverage[patterns[p][0]] for p in long_ones)
    for short in ("forgot trigger", "he forgot Bob's trigger"):      # the second tells a story, in 4 words
        question = understand(short, kb)
        assert not question.long
        _, patterns, _, _, _ = matched_words(kb, question, None)
        assert all(isinstance(pattern, int) for pattern in patterns.values())
    assert tells_story(understand("he forgot Bob's trigger", kb))


class Paragraphs:
    """A source of long entries' paragraphs (what broad_second reads of an index)."""

    def __init__(self, counts: dict[int, int]) -> None:
        self.rows = {position: [frozenset({"word"})] * count for position, count in counts.items()}

    def passages(self) -> dict[int, list[frozenset[str]]]:
        return self.rows


def test_a_broad_section_leading_a_story_narrowly_comes_after_the_second(kb):
    """A section of the "broad_second" signal's `least` paragraphs or more first, the second of fewer within its
    `within` share of the score: the second first, for a story only; a broad second, a first not broad or a
    second further behind leave the order as it was."""
    signal = SIGNALS["broad_second"]
    story = understand("Alice attacks with two creatures. Bob forgot his trigger. What is the penalty?", kb)
    assert story.long and tells_story(story)
    short = understand("forgot trigger", kb)
    broad, narrow = signal.least, signal.least - 1
    close = [(0, 1.0), (1, signal.within + 0.01), (2, 0.1)]
    behind = [(0, 1.0), (1, signal.within - 0.01), (2, 0.1)]
    source = Paragraphs({0: broad, 1: narrow})
    assert broad_second(close, story, source) == [close[1], close[0], close[2]]
    assert broad_second(behind, story, source) == behind
    assert broad_second(close, short, source) == close
    assert broad_second(close, story, Paragraphs({0: broad, 1: broad})) == close
    assert broad_second(close, story, Paragraphs({0: narrow})) == close
    assert broad_second(close[:1], story, source) == close[:1]
    assert broad_second(close, story, source, asked={0}) == close          # named by the sentences that ask


def test_a_section_is_named_as_asked_by_an_uncommon_word_of_the_sentences_that_ask_only(kb):
    """Missed Trigger's own name holds "trigger": named where a sentence that asks says it, not where only the
    story does."""
    missed = next(position for position in range(len(kb.facts())) if kb.hit(position, 0).id == "ipg:2.1")
    asking = understand("Is this a missed trigger? Alice attacked with two creatures and Bob passed the turn. "
                        "What is the penalty?", kb)
    telling = understand("Alice attacked with two creatures and forgot the trigger of her card. Bob passed the "
                         "turn. What is the penalty?", kb)
    found = {}
    for name, question in (("asking", asking), ("telling", telling)):
        asked: set[int] = set()
        ranked(kb, question, None, asked=asked)
        found[name] = missed in asked
    assert found == {"asking": True, "telling": False}


def test_the_site_ships_the_index_s_passages(kb, built_site):
    folder = built_site / "search"
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    assert json.loads((folder / manifest["passages"]).read_text(encoding="utf-8")) == kb.passage_rows()
    assert PublishedIndex(folder).passages() == kb.passages()
