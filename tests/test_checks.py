"""The invariants documents are held to after parsing (pipeline.parse.checks), on documents built by hand:
each broken one is reported with file and line, and an error marks the document incomplete."""
from __future__ import annotations

from pipeline import kinds
from pipeline.model import (
    ERROR,
    SUBHEADING,
    WARNING,
    AppendixRow,
    Block,
    ContentsEntry,
    Document,
    DocumentInfo,
    GlossaryEntry,
    Infraction,
    Penalty,
    PenaltyEvidence,
    SecondPenalty,
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


# --- an IPG's infractions and its Appendix A ------------------------------------------------------------

def ipg(*sections: Section, rows=(), second=(), excerpt=False, appendix_line=200) -> Document:
    info = DocumentInfo(id="ipg", kind="ipg", title="Infraction Procedure Guide", edition=None, source="ipg.txt",
                        excerpt=excerpt)
    evidence = PenaltyEvidence(appendix_line, tuple(rows), tuple(second))
    return Document(info=info, sections=sections, penalty_evidence=evidence)


def infraction(number: str, name: str, penalty: str, line: int) -> Section:
    return Section(id=f"ipg:{number}", number=number, title=f"Game Play Error — {name}", level=2, line=line,
                   kind="infraction", infraction=Infraction("Game Play Error", name, penalty))


def test_infractions_that_agree_with_appendix_a_give_the_quick_reference():
    document = checked(ipg(infraction("2.1", "Missed Trigger", "No Penalty", 50),
                           rows=[AppendixRow("Game Play Errors", "Missed Trigger", "None", 210)]))
    assert document.problems == () and document.info.complete
    assert document.penalties == (Penalty("ipg:2.1", "Game Play Error", "Missed Trigger", "No Penalty"),)


def test_appendix_a_disagreeing_with_an_infraction_is_an_error_at_its_row():
    document = checked(ipg(infraction("2.1", "Missed Trigger", "Warning", 50),
                           rows=[AppendixRow("Game Play Errors", "Missed Trigger", "Game Loss", 210)]))
    [problem] = document.problems
    assert (problem.severity, problem.file, problem.line) == (ERROR, "ipg.txt", 210)
    assert problem.message == ("Appendix A gives 'Missed Trigger' the penalty 'Game Loss' but section 2.1 "
                               "(line 50) says 'Warning'")
    assert document.info.complete is False


def test_a_garbled_penalty_is_repaired_from_appendix_a_and_said_so():
    document = checked(ipg(infraction("2.1", "Missed Trigger", "Definition Warning", 50),
                           rows=[AppendixRow("Game Play Errors", "Missed Trigger", "Warning", 210)]))
    [problem] = document.problems
    assert (problem.severity, problem.line) == (WARNING, 50) and "taken from Appendix A" in problem.message
    assert document.section("2.1").infraction.penalty == "Warning"
    assert document.penalties[0].penalty == "Warning" and document.info.complete


def test_a_penalty_that_is_not_known_and_no_appendix_to_repair_it_is_an_error():
    document = checked(ipg(infraction("2.1", "Missed Trigger", "Definition Warning", 50), appendix_line=None))
    [problem] = document.problems
    assert (problem.severity, problem.file, problem.line) == (ERROR, "ipg.txt", 50)
    assert "'Definition Warning' is not a known penalty" in problem.message and not document.info.complete


def test_two_penalties_in_one_infraction_are_an_error_and_appendix_a_says_which_to_keep():
    document = checked(ipg(infraction("2.1", "Missed Trigger", "Game Loss", 50),
                           rows=[AppendixRow("Game Play Errors", "Missed Trigger", "Warning", 210)],
                           second=[SecondPenalty("2.1", "Warning", 60)]))
    [problem] = document.problems
    assert (problem.severity, problem.line) == (ERROR, 60) and "kept 'Warning', as Appendix A" in problem.message
    assert document.section("2.1").infraction.penalty == "Warning" and not document.info.complete


def test_appendix_a_naming_another_infraction_is_an_error_but_a_warning_in_an_excerpt():
    rows = [AppendixRow("Game Play Errors", "Missed Trigger", "No Penalty", 210),
            AppendixRow("Tournament Errors", "Tardiness", "Game Loss", 211)]
    whole = checked(ipg(infraction("2.1", "Missed Trigger", "No Penalty", 50), rows=rows))
    [problem] = whole.problems
    assert (problem.severity, problem.line) == (ERROR, 211) and "'Tardiness'" in problem.message
    assert whole.penalties[-1] == Penalty(None, "Tournament Error", "Tardiness", "Game Loss")
    excerpt = checked(ipg(infraction("2.1", "Missed Trigger", "No Penalty", 50), rows=rows, excerpt=True))
    assert [problem.severity for problem in excerpt.problems] == [WARNING] and excerpt.info.complete
