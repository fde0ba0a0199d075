"""A document's contents list found in its typed stream given a heading grammar (pipeline.parse.contents)."""
from __future__ import annotations

import re
from typing import Optional

from pipeline.model import ContentsEntry
from pipeline.parse.contents import Contents, heading_runs, labelled_lists, leader_lines
from pipeline.read.source import Line
from pipeline.read.stream import build_stream

HEADING = re.compile(r"^(\d{1,2}(?:\.\d{1,2})*|Appendix [A-Z])\.?\s*(.*)$")


def numbered(text: str) -> Optional[tuple[str, str]]:
    """A toy grammar: "1.1 Title" and "Appendix A Title"; nothing else is an entry."""
    match = HEADING.match(text)
    return (match.group(1), match.group(2)) if match else None


def with_titles(text: str) -> Optional[tuple[str, str]]:
    """As `numbered`, and a short capitalised line is an unnumbered entry."""
    entry = numbered(text)
    if entry is None and text[:1].isupper() and len(text.split()) <= 3 and not text.endswith("."):
        return "", text
    return entry


def stream(*texts: str):
    return build_stream([Line(number, text) for number, text in enumerate(texts, start=1)])


def found(finder, elements, grammar, **options) -> Contents:
    contents = Contents()
    finder(elements, grammar, contents, **options)
    return contents


def test_dot_leader_lines_are_entries_and_skipped():
    elements = stream("Contents", "1. Basics ..... 3", "1.1 Types ..... 4", "", "1. Basics", "Text.")
    contents = found(leader_lines, elements, numbered)
    assert contents.entries == [ContentsEntry("1", "Basics", 2), ContentsEntry("1.1", "Types", 3)]
    assert contents.skip == {1, 2}


def test_a_number_alone_before_a_leader_line_starts_its_entry():
    elements = stream("Appendix B", "", "Time Limits ..... 47", "Appendix B Time Limits")
    contents = found(leader_lines, elements, numbered, starts_entry=lambda text: text == "Appendix B")
    assert contents.entries == [ContentsEntry("Appendix B", "Time Limits", 3)]
    assert contents.skip == {0, 2}


def test_the_entries_after_a_label_end_where_one_is_named_again():
    elements = stream("Contents", "Introduction", "1. Basics", "", "2. Penalties", "Introduction",
                      "This guide is for judges.", "1. Basics")
    contents = found(labelled_lists, elements, with_titles)
    assert contents.entries == [ContentsEntry("", "Introduction", 2), ContentsEntry("1", "Basics", 3),
                                ContentsEntry("2", "Penalties", 5)]
    assert contents.skip == {0, 1, 2, 4}
    assert [entry.number for entry in contents.unnumbered()] == [""]
    assert list(contents.by_number()) == ["1", "2"]


def test_a_list_of_one_entry_after_a_label_was_the_first_heading():
    elements = stream("Contents", "1. Basics", "This guide is for judges.")
    contents = found(labelled_lists, elements, numbered)
    assert contents.entries == [] and contents.skip == {0}


def test_a_label_after_the_body_has_begun_starts_no_list():
    elements = stream("1. Basics", "Contents", "2. Penalties", "3. Remedies")
    assert found(labelled_lists, elements, numbered).entries == []


def test_a_run_of_headings_whose_numbers_come_back_is_a_contents_list():
    elements = stream("Contents", "1. Basics", "1.1 Types", "1.2 Levels", "2. Penalties", "",
                      "1. Basics", "1.1 Types", "Text.", "1.2 Levels", "Text.")
    contents = found(heading_runs, elements, numbered)
    assert [entry.number for entry in contents.entries] == ["1", "1.1", "1.2", "2"]
    assert contents.skip == {0, 1, 2, 3, 4}


def test_a_run_whose_numbers_never_come_back_is_text():
    elements = stream("1. Shuffle", "2. Present", "3. Cut", "4. Draw", "Text.")
    assert found(heading_runs, elements, numbered).entries == []


def test_a_run_the_kind_refuses_is_text():
    elements = stream("1. A", "2. B", "3. C", "4. D", "", "1. A", "Text.", "2. B", "Text.")
    assert found(heading_runs, elements, numbered).entries != []
    refused = found(heading_runs, elements, numbered, accept=lambda numbers: any("." in n for n in numbers))
    assert refused.entries == [] and refused.skip == set()
