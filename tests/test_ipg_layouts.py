"""IPG layouts the corpus does not show, and the self-checks every parsed IPG must pass.

Every document here is made by the test itself: small PDFs (tests/pdf_tools.py) laid out like the
older editions (chapters 3-6, the penalty box printed at the right of the "Definition" line, so
that the text reads "Definition Warning"), and short texts written into tmp_path.

The self-checks (invariants): each infraction has exactly one penalty, a known one; Appendix A
gives every infraction the same penalty, and names no other infraction. A broken one is an ERROR
with file and line (and page, for a PDF) and marks the document incomplete; where one of two
signals is plainly an extraction artefact, the other repairs it, with a WARNING that says so.
"""
from __future__ import annotations

import pytest

from pipeline.corpus import load_document
from pipeline.model import ERROR, SUBHEADING, WARNING, Document, DocumentInfo, Penalty
from pipeline.parse import parse
from pipeline.read import read_bytes

from pdf_tools import make_pdf

WL, GL, ML, DQ, CA = "Warning", "Game Loss", "Match Loss", "Disqualification", "Caution"

# An older edition: its own numbering (3-6), "Caution" among the penalties, "Cheating" a chapter.
CHAPTERS = [
    ("3", "GAME PLAY ERRORS", [("3.1", "Game Play Error — Missed Trigger", WL),
                              ("3.2", "Game Play Error — Drawing Extra Cards", GL),
                              ("3.3", "Game Play Error — Failure to Maintain Game State", CA)]),
    ("4", "TOURNAMENT ERRORS", [("4.1", "Tournament Error — Tardiness", GL),
                                ("4.2", "Tournament Error — Outside Assistance", ML)]),
    ("5", "UNSPORTING CONDUCT", [("5.1", "Unsporting Conduct — Minor", WL),
                                 ("5.2", "Unsporting Conduct — Major", ML)]),
    ("6", "CHEATING", [("6.1", "Cheating — Fraud", DQ)]),
]
OLD_PENALTIES = {number: penalty for _, _, infractions in CHAPTERS for number, _, penalty in infractions}


def appendix_name(heading: str) -> str:
    """How the quick reference names an infraction: "Missed Trigger", but "Unsporting Conduct — Minor"."""
    return heading if heading.startswith("Unsporting") else heading.split("— ")[1]


def older_pdf(label_beside: bool = False, box: dict | None = None, appendix: bool = True) -> bytes:
    """The older layout as a PDF. The penalty box: its label "Penalty" at the right, on the heading's line
    (`label_beside`) or on a line of its own below it; its value at the right of the "Definition" line.
    `box` overrides what a box says ({"4.1": "Stern Talk"})."""
    box = box or {}
    pages: list[list] = []
    page: list = []
    y = 740

    def put(x, font, size, text, step=0):
        nonlocal y
        page.append((x, y, font, size, text))
        y -= step

    def room(needed):
        nonlocal page, y
        if y < needed:
            pages.append(page)
            page, y = [], 740

    put(72, "F2", 16, "MAGIC: THE GATHERING INFRACTION PROCEDURE GUIDE", 30)
    put(72, "F2", 13, "1. INTRODUCTION", 20)
    put(72, "F1", 10, "This guide gives judges the procedures for infractions at tournaments.", 30)
    for number, title, infractions in CHAPTERS:
        room(200)
        put(72, "F2", 13, f"{number}. {title}", 20)
        put(72, "F1", 10, "The infractions of this chapter are listed below.", 30)
        for sub, heading, penalty in infractions:
            room(150)
            if label_beside:
                put(470, "F2", 10, "Penalty")
                put(72, "F2", 12, f"{sub}. {heading}", 22)
            else:
                put(72, "F2", 12, f"{sub}. {heading}", 16)
                put(470, "F2", 10, "Penalty", 16)
            put(470, "F1", 11, box.get(sub, penalty))
            put(72, "F2", 11, "Definition", 17)
            put(72, "F1", 10, f"A player commits the infraction {appendix_name(heading).lower()}.", 22)
            put(72, "F2", 11, "Philosophy", 17)
            put(72, "F1", 10, "Judges apply the penalty to educate the players.", 30)
    if appendix:
        pages.append(page)
        page, y = [], 740
        put(72, "F2", 13, "APPENDIX A — PENALTY QUICK REFERENCE", 22)
        put(400, "F2", 10, "Penalty")
        put(72, "F2", 10, "Infraction", 18)
        for _, title, infractions in CHAPTERS:
            put(72, "F2", 10, title.title(), 16)
            for _, heading, penalty in infractions:
                put(400, "F1", 10, penalty)
                put(72, "F1", 10, appendix_name(heading), 16)
    pages.append(page)
    return make_pdf(pages)


def load_pdf(tmp_path, data: bytes, name: str = "ipg-older.pdf") -> Document:
    path = tmp_path / name
    path.write_bytes(data)
    document, problems = load_document(path, use_cache=False)
    assert document is not None, problems
    return document


def parse_text(text: str, name: str = "ipg-hand-made.txt", excerpt: bool = False) -> Document:
    source = read_bytes(text.encode("utf-8"), name)
    info = DocumentInfo(id="ipg", kind="ipg", title="IPG", edition=None, source=name, excerpt=excerpt)
    return parse(source, info)          # the parser, then the checks every document is held to


def problems(document: Document, severity: str) -> list:
    return [problem for problem in document.problems if problem.severity == severity]


def line_of(text: str, wanted: str) -> int:
    """The (1-based) number of the line of `text` that is exactly `wanted`."""
    return text.split("\n").index(wanted) + 1


def penalties(document: Document) -> dict[str, str]:
    return {section.number: section.infraction.penalty for section in document.sections if section.infraction}


# --- the older layout ------------------------------------------------------------------------

@pytest.mark.parametrize("label_beside", [False, True], ids=["label-below-heading", "label-beside-heading"])
def test_older_pdf_takes_the_penalty_from_the_definition_line_and_keeps_its_numbers(tmp_path, label_beside):
    document = load_pdf(tmp_path, older_pdf(label_beside))
    assert penalties(document) == OLD_PENALTIES
    assert [(s.number, s.id, s.parent) for s in document.sections if s.infraction][:4] == [
        ("3.1", "ipg:3.1", "ipg:3"), ("3.2", "ipg:3.2", "ipg:3"), ("3.3", "ipg:3.3", "ipg:3"),
        ("4.1", "ipg:4.1", "ipg:4")]
    assert [s.number for s in document.sections if s.kind == "chapter"] == ["1", "3", "4", "5", "6"]
    # the quick reference is built from the sections, in their order, under their own numbers
    assert list(document.penalties) == [
        Penalty("ipg:3.1", "Game Play Error", "Missed Trigger", WL),
        Penalty("ipg:3.2", "Game Play Error", "Drawing Extra Cards", GL),
        Penalty("ipg:3.3", "Game Play Error", "Failure to Maintain Game State", CA),
        Penalty("ipg:4.1", "Tournament Error", "Tardiness", GL),
        Penalty("ipg:4.2", "Tournament Error", "Outside Assistance", ML),
        Penalty("ipg:5.1", "Unsporting Conduct", "Minor", WL),
        Penalty("ipg:5.2", "Unsporting Conduct", "Major", ML),
        Penalty("ipg:6.1", "Cheating", "Fraud", DQ)]
    assert document.problems == () and document.info.complete


@pytest.mark.parametrize("label_beside", [False, True], ids=["label-below-heading", "label-beside-heading"])
def test_older_pdf_keeps_the_definition_subheading_and_the_title_without_the_box_label(tmp_path, label_beside):
    section = load_pdf(tmp_path, older_pdf(label_beside)).section("3.1")
    assert section.title == "Game Play Error — Missed Trigger"
    assert section.infraction.name == "Missed Trigger"
    assert [block.text for block in section.blocks if block.kind == SUBHEADING] == ["Definition", "Philosophy"]
    assert section.infraction.definition == "A player commits the infraction missed trigger."
    assert section.infraction.philosophy == "Judges apply the penalty to educate the players."


def test_older_layout_as_text_with_column_gaps():
    """pdftotext -layout of such a PDF: the box's label and value are columns after a run of spaces."""
    document = parse_text(
        "5. UNSPORTING CONDUCT\n"
        "5.1. Unsporting Conduct — Minor                                  Penalty\n"
        "Definition                                                       Warning\n"
        "A player takes an action that is disruptive.\n"
        "6. CHEATING\n"
        "6.1. Cheating — Fraud\n"
        "Penalty\n"
        "Definition Disqualification\n"
        "A player knowingly misrepresents draws.\n"
        "APPENDIX A — PENALTY QUICK REFERENCE\n"
        "Infraction                          Penalty\n"
        "Unsporting Conduct — Minor          Warning\n"
        "Fraud                               Disqualification\n")
    assert penalties(document) == {"5.1": WL, "6.1": DQ}
    assert document.section("5.1").infraction.definition == "A player takes an action that is disruptive."
    assert [p.section for p in document.penalties] == ["ipg:5.1", "ipg:6.1"]
    assert document.problems == () and document.info.complete


# --- the self-checks: each broken one is an error, and the document is incomplete -------------

OLD_TEXT = """MAGIC INFRACTION PROCEDURE GUIDE
3. GAME PLAY ERRORS
3.1. Game Play Error — Missed Trigger
Penalty
Definition Warning
A triggered ability triggers, but the player forgets it.
3.2. Game Play Error — Drawing Extra Cards
Penalty
Definition Game Loss
A player draws more cards than allowed.
4. TOURNAMENT ERRORS
4.1. Tournament Error — Tardiness
Penalty
Definition Game Loss
A player is not in their seat at the start of the round.
APPENDIX A — PENALTY QUICK REFERENCE
Infraction Penalty
Game Play Errors
Missed Trigger Warning
Drawing Extra Cards Game Loss
Tournament Errors
Tardiness Game Loss
"""


def altered(*replacements: tuple[str, str]) -> str:
    text = OLD_TEXT
    for old, new in replacements:
        assert old in text
        text = text.replace(old, new, 1)
    return text


def test_the_hand_made_text_passes_every_check():
    document = parse_text(OLD_TEXT)
    assert penalties(document) == {"3.1": WL, "3.2": GL, "4.1": GL}
    assert document.problems == () and document.info.complete


@pytest.mark.parametrize("box", [
    "Definition Warning\n",                       # no label drawn, only the value beside "Definition"
    "Definition:            Warning\n",           # -layout columns after a label with a colon
    "Penalty\n\nDefinition\n\nWarning\n\n",       # pdftotext's default mode: each cell on a line of its own
    "Definition\nWarning\n",
], ids=["no-label", "columns", "cells-on-lines", "value-below"])
def test_the_box_beside_the_definition_in_other_text_shapes(box):
    document = parse_text(altered(("Penalty\nDefinition Warning\n", box)))
    assert penalties(document) == {"3.1": WL, "3.2": GL, "4.1": GL}
    assert document.section("3.1").infraction.definition == "A triggered ability triggers, but the player forgets it."
    assert [p for p in document.problems if p.severity in (ERROR, WARNING)] == [] and document.info.complete


def test_an_unknown_penalty_is_an_error_with_file_line_and_page(tmp_path):
    # No Appendix A to repair it from: the box of 5.1 (page 2) says "Stern Talk": "Definition Stern Talk".
    document = load_pdf(tmp_path, older_pdf(box={"5.1": "Stern Talk"}, appendix=False))
    errors = problems(document, ERROR)
    section = document.section("5.1")
    assert [(p.file, p.line, p.page) for p in errors] == [("ipg-older.pdf", section.line, 2)]
    assert "5.1" in errors[0].message and "'Definition Stern Talk' is not a known penalty" in errors[0].message
    assert not document.info.complete
    assert penalties(document)["3.1"] == WL          # the others are read as before


def test_no_penalty_at_all_is_an_error():
    text = altered(("Penalty\nDefinition Game Loss\nA player draws", "Definition\nA player draws"),
                   ("Drawing Extra Cards Game Loss\n", ""))
    document = parse_text(text)
    found = [p for p in problems(document, ERROR) if "no penalty found" in p.message]
    assert [(p.file, p.line) for p in found] == [("ipg-hand-made.txt", line_of(text, "3.2. Game Play Error — "
                                                                                       "Drawing Extra Cards"))]
    assert not document.info.complete


def test_two_different_penalties_in_one_section_are_an_error():
    text = altered(("3.1. Game Play Error — Missed Trigger\nPenalty\n",
                    "3.1. Game Play Error — Missed Trigger Game Loss\nPenalty\n"))
    document = parse_text(text)
    errors = problems(document, ERROR)
    two = [p for p in errors if "two different penalties" in p.message]
    assert [(p.file, p.line) for p in two] == [("ipg-hand-made.txt", line_of(text, "Definition Warning"))]
    assert "'Game Loss'" in two[0].message and "'Warning'" in two[0].message
    assert not document.info.complete


def test_appendix_a_disagreeing_with_a_section_is_an_error():
    text = altered(("Missed Trigger Warning\n", "Missed Trigger Game Loss\n"))
    document = parse_text(text)
    errors = problems(document, ERROR)
    assert [(p.file, p.line) for p in errors] == [("ipg-hand-made.txt", line_of(text, "Missed Trigger Game Loss"))]
    assert "Game Loss" in errors[0].message and "3.1" in errors[0].message and "Warning" in errors[0].message
    assert penalties(document)["3.1"] == WL          # the section's own penalty stays; the error says which differs
    assert not document.info.complete


def test_appendix_a_naming_an_infraction_no_section_has_is_an_error():
    text = altered(("Tardiness Game Loss\n", "Tardiness Game Loss\nLoitering Warning\n"))
    document = parse_text(text)
    errors = problems(document, ERROR)
    assert [(p.file, p.line) for p in errors] == [("ipg-hand-made.txt", line_of(text, "Loitering Warning"))]
    assert "Loitering" in errors[0].message
    assert document.penalties[-1] == Penalty(None, "Tournament Error", "Loitering", WL)
    assert not document.info.complete


def test_an_infraction_missing_from_appendix_a_is_an_error():
    text = altered(("Tardiness Game Loss\n", ""))
    document = parse_text(text)
    errors = problems(document, ERROR)
    assert [(p.file, p.line) for p in errors] == [
        ("ipg-hand-made.txt", line_of(text, "4.1. Tournament Error — Tardiness"))]
    assert "4.1" in errors[0].message and "not in Appendix A" in errors[0].message
    assert not document.info.complete


def test_an_appendix_a_with_no_readable_row_is_an_error():
    text = altered(("Missed Trigger Warning\nDrawing Extra Cards Game Loss\nTournament Errors\nTardiness Game Loss\n",
                    "See the table on the next page for the penalties of every infraction.\n"))
    document = parse_text(text)
    errors = problems(document, ERROR)
    assert len(errors) == 1 and "no row" in errors[0].message
    assert errors[0].line == line_of(text, "APPENDIX A — PENALTY QUICK REFERENCE")
    assert not document.info.complete


def test_in_an_excerpt_appendix_a_may_name_sections_it_leaves_out():
    document = parse_text(altered(("4. TOURNAMENT ERRORS\n4.1. Tournament Error — Tardiness\nPenalty\n"
                                   "Definition Game Loss\nA player is not in their seat at the start of the round.\n",
                                   "")), excerpt=True)
    assert problems(document, ERROR) == []
    assert [p.message for p in problems(document, WARNING)] == [
        "Appendix A lists 'Tardiness' (Game Loss) but no infraction section has that name (an excerpt)"]
    assert document.info.complete


# --- repairs: one signal an extraction artefact, the other repairs it, and says so -----------

def test_a_garbled_penalty_is_taken_from_appendix_a_with_a_warning():
    text = altered(("Definition Warning\n", "Definition Wamimg\n"))      # the box's value misread
    document = parse_text(text)
    assert penalties(document)["3.1"] == WL
    assert problems(document, ERROR) == []
    repaired = problems(document, WARNING)
    assert [(p.file, p.line) for p in repaired] == [
        ("ipg-hand-made.txt", line_of(text, "3.1. Game Play Error — Missed Trigger"))]
    assert "penalty of 3.1" in repaired[0].message and "taken from Appendix A" in repaired[0].message
    assert "'Definition Wamimg'" in repaired[0].message
    assert document.info.complete


def test_a_missing_penalty_box_is_taken_from_appendix_a_with_a_warning():
    text = altered(("Penalty\nDefinition Game Loss\nA player is not", "Definition\nA player is not"))
    document = parse_text(text)
    assert penalties(document)["4.1"] == GL
    assert problems(document, ERROR) == []
    repaired = problems(document, WARNING)
    assert len(repaired) == 1 and "4.1" in repaired[0].message and "taken from Appendix A" in repaired[0].message
    assert document.info.complete


def test_a_garbled_penalty_naming_another_penalty_than_appendix_a_is_not_repaired():
    # "Tardy Match Loss" is no penalty, but it still says Match Loss where Appendix A says Game Loss.
    text = altered(("Definition Game Loss\nA player is not", "Tardy Match Loss\nDefinition\nA player is not"))
    document = parse_text(text)
    errors = problems(document, ERROR)
    assert len(errors) == 1 and "4.1" in errors[0].message and "'Tardy Match Loss'" in errors[0].message
    assert not document.info.complete


def test_a_penalty_read_before_its_infraction_in_appendix_a_is_paired_with_a_warning():
    """pdftotext's default mode can put a row's penalty before its name, one cell per line."""
    text = altered(("Missed Trigger Warning\nDrawing Extra Cards Game Loss\n",
                    "Warning\nMissed Trigger\nDrawing Extra Cards\nGame Loss\n"))
    document = parse_text(text)
    assert problems(document, ERROR) == []
    paired = problems(document, WARNING)
    assert [(p.line, "'Missed Trigger'" in p.message) for p in paired] == [(line_of(text, "Missed Trigger"), True)]
    assert document.info.complete
