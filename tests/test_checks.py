"""The invariants documents are held to after parsing (pipeline.parse.checks), on documents built by hand:
each broken one is reported with file and line, and an error marks the document incomplete."""
from __future__ import annotations

from pipeline import kinds
from pipeline.model import (
    ERROR,
    SUBHEADING,
    WARNING,
    Block,
    ContentsEntry,
    Document,
    DocumentInfo,
    GlossaryEntry,
    Section,
    TextEnd,
)
from pipeline.parse import parse
from pipeline.parse.checks import CHECKS, checked
from pipeline.read import read_bytes

CUT_MID_SENTENCE = TextEnd(40, mid_sentence=True)


def mtr(*sections: Section, contents=(), end=CUT_MID_SENTENCE, excerpt=False, **more) -> Document:
    info = DocumentInfo(id="mtr", kind="mtr", title="Magic Tournament Rules", edition=None, source="mtr.txt",
                        excerpt=excerpt)
    return Document(info=info, sections=sections, contents=tuple(contents), end=end, **more)


def section(number: str, title: str = "Title", line: int = 10, blocks=()) -> Section:
    return Section(id=f"mtr:{number}", number=number, title=title, level=1, line=line, blocks=tuple(blocks))


def test_every_check_a_kind_declares_exists():
    assert {name for kind in kinds.KINDS for name in kind.checks} <= set(CHECKS)


def test_a_contents_entry_never_reached_is_an_error_at_the_line_where_the_text_stops():
    document = checked(mtr(section("1"), section("1.1"),
                           contents=[ContentsEntry("1", "Fundamentals", 3), ContentsEntry("1.1", "Types", 4),
                                     ContentsEntry("2", "Mechanics", 5)]))
    [problem] = document.problems
    assert (problem.severity, problem.file, problem.line) == (ERROR, "mtr.txt", 40)
    assert problem.message == ("the contents list names 1 section(s) the text never reaches (2 Mechanics): the file "
                               "stops at line 40 (after section 1.1), in the middle of a sentence, so it looks "
                               "truncated")
    assert document.info.complete is False


def test_a_contents_list_the_text_reaches_is_no_problem():
    document = checked(mtr(section("1"), section("Appendix A"),
                           contents=[ContentsEntry("1", "Fundamentals", 3), ContentsEntry("Appendix A", "", 4)]))
    assert document.problems == () and document.info.complete


def test_in_an_excerpt_a_contents_entry_never_reached_is_a_warning_and_still_incomplete():
    document = checked(mtr(section("1"), contents=[ContentsEntry("2", "Mechanics", 5)], excerpt=True,
                           end=TextEnd(12)))
    [problem] = document.problems
    assert problem.severity == WARNING and problem.line == 12 and "in the middle" not in problem.message
    assert document.info.complete is False


def test_a_named_entry_is_found_as_a_subheading_and_a_missing_one_is_a_warning():
    found = mtr(section("1", blocks=[Block(SUBHEADING, "Match Points")]),
                contents=[ContentsEntry("1", "Fundamentals", 3), ContentsEntry("", "Match points", 4)])
    assert checked(found).problems == ()
    missing = checked(mtr(section("1"), contents=[ContentsEntry("", "Introduction", 2)]))
    [problem] = missing.problems
    assert (problem.severity, problem.line) == (WARNING, 2)
    assert problem.message == 'the contents list names "Introduction" but the text has no such heading'
    assert missing.info.complete                 # a renamed subheading is no truncated file


def test_a_closing_part_never_reached_means_the_file_stops_early():
    entries = [ContentsEntry("", "Glossary", 5, closing=True), ContentsEntry("", "Credits", 6, closing=True)]
    glossary = (GlossaryEntry("Abandon", "To turn a scheme face down.", line=30),)
    cut = checked(mtr(section("100"), contents=entries, glossary=glossary))
    [problem] = cut.problems
    assert problem.severity == ERROR and "(Credits)" in problem.message and not cut.info.complete
    whole = mtr(section("100"), contents=entries, glossary=glossary, credits=(Block(SUBHEADING, "Credits"),))
    assert checked(whole).problems == ()


def test_a_truncated_ipg_file_is_reported_through_the_parse_stage():
    text = ("Infraction Procedure Guide\n\nContents\n1. General Philosophy\n2. Game Play Errors\n"
            "3. Tournament Errors\n\n1. GENERAL PHILOSOPHY\n\nJudges are neutral arbiters of the rules and")
    document = parse(read_bytes(text.encode(), "ipg.txt"),
                     DocumentInfo(id="ipg", kind="ipg", title="IPG", edition=None, source="ipg.txt"))
    truncated = [problem for problem in document.problems if "never reaches" in problem.message]
    assert [(problem.severity, problem.file, problem.line) for problem in truncated] == [(ERROR, "ipg.txt", 10)]
    assert "(2 Game Play Errors, 3 Tournament Errors)" in truncated[0].message
    assert "in the middle of a sentence" in truncated[0].message
    assert document.info.complete is False
