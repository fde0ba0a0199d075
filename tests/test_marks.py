"""A snippet's marked words: Marks finds what its expression finds, without compiling it per question."""
import random
from pathlib import Path

import pytest

from pipeline.search.engine import marked_excerpt, snippet_pattern
from pipeline.search.marks import Marks, pattern

FIXTURES = Path(__file__).parent / "fixtures" / "corpus"
# Letters that trip a search by lower-casing: a dotted capital I lowers to two characters, a dotless i and a
# long s match "i" and "s" when case is ignored, the Kelvin sign lowers to "k".
ALPHABET = "abcikrsKRS019._ -’éİıſ\u212a"


def expected(stems: tuple[str, ...], text: str) -> list[tuple[int, int]]:
    return [match.span() for match in pattern(stems).finditer(text)]


def test_marks_find_what_the_expression_finds_in_any_text():
    chance = random.Random(20261126)
    for _ in range(4000):
        text = "".join(chance.choice(ALPHABET) for _ in range(chance.randint(0, 40)))
        stems = tuple(sorted({"".join(chance.choice("abcikrs019.") for _ in range(chance.randint(1, 4)))
                              for _ in range(chance.randint(1, 3))}, key=lambda stem: (-len(stem), stem)))
        assert list(Marks(stems).spans(text)) == expected(stems, text), (stems, text)


@pytest.mark.parametrize("marks", [["trigger", "missed"], ["704.5k"], ["rules", "enforcement", "level"],
                                   ["deck", "registration"], ["2hg"], ["play", "draw", "rule"]])
def test_marks_find_what_the_expression_finds_in_the_rules(marks):
    found = snippet_pattern(marks)
    lines = (FIXTURES / "cr-2026-01-16.txt").read_text(encoding="utf-8-sig").splitlines()
    lines += (FIXTURES / "mtr-2026-02-27.txt").read_text(encoding="utf-8").splitlines()
    matched = 0
    for line in lines:
        spans = list(found.spans(line))
        assert spans == expected(found.stems, line), line
        matched += bool(spans)
    assert matched > 0


def test_an_excerpt_starts_before_the_first_marked_word_and_marks_them_all():
    text = "Lorem ipsum " * 30 + "a Missed Trigger, then missed triggers again."
    excerpt = marked_excerpt(text, snippet_pattern(["missed", "trigger"]))
    assert excerpt.startswith("…") and "<mark>Missed</mark> <mark>Trigger</mark>," in excerpt
    assert excerpt.count("<mark>") == 4
    assert marked_excerpt("<b>missed</b>", snippet_pattern(["missed"])) == "&lt;b&gt;<mark>missed</mark>&lt;/b&gt;"
