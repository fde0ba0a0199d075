"""The Tournament Rules parser (kinds "mtr" and "floor") on the real editions and on hand-made variants.

Expected section lists are built here from the raw files (dot-leader contents lines,
the HTML contents list, simple regexes) or are literal lists checked by hand against
the file, never from the parser's own output.
"""
from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline import kinds
from pipeline.model import BULLET, ERROR, INFO, NUMBERED, PARAGRAPH, SUBHEADING, TABLE_ROW, WARNING, DocumentInfo
from pipeline.parse import PARSERS, parse
from pipeline.parse.mtr import parse_mtr
from pipeline.read import Line, SourceText, read_bytes, read_source
from pipeline.read.shapes import is_contents_line, is_page_number

from conftest import CORPUS, SEEDS

MTR_2026 = CORPUS / "mtr-2026-02-27.txt"
MTR_2019 = CORPUS / "mtr-2019-01-21-magicjudges.html"
MTR_2012 = CORPUS / "mtr-2012-03-20-numegil.txt"
FLOOR_2002 = SEEDS / "000_d5f726d99ad04a53.txt"


def mtr_info(source: str = "mtr.txt") -> DocumentInfo:
    return DocumentInfo(id="mtr", kind="mtr", title="Magic: The Gathering Tournament Rules",
                        edition="2026-02-27", source=source)


def floor_info() -> DocumentInfo:
    return DocumentInfo(id="floor", kind="floor", title="Magic Online DCI Floor Rules",
                        edition="2002-01-01", source=FLOOR_2002.name)


_parsed: dict = {}


def parsed(path):
    """Each real fixture is parsed once per test session (the parser is pure)."""
    if path not in _parsed:
        info = floor_info() if path == FLOOR_2002 else mtr_info(path.name)
        _parsed[path] = parse(read_source(path), info)
    return _parsed[path]


def parse_text(text: str, kind: str = "mtr"):
    info = floor_info() if kind == "floor" else mtr_info()
    return parse(read_bytes(text.encode("utf-8"), "variant.txt"), info)


def numbered(document) -> list[tuple[str, str]]:
    return [(section.number, section.title) for section in document.sections if section.number]


def raw_lines(path) -> list[str]:
    return path.read_bytes().decode("utf-8").replace("\r\n", "\n").split("\n")


# --- registry ---------------------------------------------------------------------------------

def test_parser_is_registered_for_mtr_and_floor():
    assert PARSERS[kinds.BY_ID["mtr"].parser] is parse_mtr
    assert PARSERS[kinds.BY_ID["floor"].parser] is parse_mtr


# --- MTR 2026 (pdftotext) ---------------------------------------------------------------------

def contents_of_2026() -> list[tuple[str, str]]:
    """Every numbered entry of the dot-leader contents list, read straight from the raw file."""
    entries = []
    for line in raw_lines(MTR_2026):
        if not re.search(r"\.{4,} ?\d+$", line):
            continue
        entry = re.sub(r" ?\.{4,} ?\d+$", "", line).strip()
        match = (re.match(r"^(\d+)\. (.+)$", entry) or re.match(r"^(\d+\.\d+) (.+)$", entry)
                 or re.match(r"^(Appendix [A-F])—(.+)$", entry))
        if match:
            entries.append((match.group(1), match.group(2).strip()))
    return entries


def test_mtr_2026_sections_are_exactly_the_contents_list():
    expected = contents_of_2026()
    # grep -cE counts: 10 chapter lines, 87 "N.M" lines and 6 appendix lines end in dot leaders.
    assert len(expected) == 103
    assert numbered(parsed(MTR_2026)) == expected


def test_mtr_2026_hierarchy_chapters_sections_appendices():
    document = parsed(MTR_2026)
    chapter = document.section("1")
    assert (chapter.level, chapter.kind, chapter.parent) == (1, "chapter", None)
    section = document.section("1.12")
    assert (section.level, section.kind, section.parent, section.title) == (
        2, "section", "mtr:1", "Rules Enforcement Levels")
    appendix = document.section("mtr:appendix-a")
    assert (appendix.number, appendix.title, appendix.kind, appendix.level) == (
        "Appendix A", "Changes From Previous Versions", "appendix", 1)
    assert document.section("10.4").parent == "mtr:10"


def test_mtr_2026_reports_no_problems_and_is_complete():
    document = parsed(MTR_2026)
    assert document.problems == ()
    assert document.info.complete


def test_numbered_list_items_stay_list_items_in_their_section():
    document = parsed(MTR_2026)
    steps = [block for block in document.section("2.3").blocks if block.kind == NUMBERED]
    assert [block.marker for block in steps] == ["1.", "2.", "3.", "4.", "5.", "6.", "7."]
    # The wrapped second line of step 1 joins its item.
    assert steps[0].text == ("If sideboarding is allowed, players may remove cards from their decks and add "
                             "cards from their sideboards.")
    tiebreakers = [block.text for block in document.section("3.1").blocks if block.kind == NUMBERED]
    assert tiebreakers == ["Match points", "Opponents’ match-win percentage", "Game-win percentage",
                           "Opponents’ game-win percentage"]
    assert len([b for b in document.section("9.4").blocks if b.kind == NUMBERED]) == 6
    assert len([b for b in document.section("4.8").blocks if b.kind == NUMBERED]) == 3


def test_wrapped_lines_join_into_one_paragraph():
    blocks = parsed(MTR_2026).section("1.1").blocks
    assert [block.kind for block in blocks] == [PARAGRAPH] * 3
    assert blocks[1].text == (
        "Rated tournaments are further divided into two types: Premier and non-Premier. Premier tournaments "
        "are run by Wizards of the Coast or select Tournament Organizers. They have unique names and features. "
        "Non-Premier tournaments are tournaments that are not explicitly Premier.")


def test_bullets_keep_their_marker_and_wrapped_continuations():
    blocks = parsed(MTR_2026).section("6.3").blocks
    bullets = [block.as_text() for block in blocks if block.kind == BULLET]
    assert "• Magic: The Gathering | Avatar: The Last Airbender™" in bullets
    assert "• Secrets of Strixhaven (effective April 17, 2026)" in bullets
    # A paragraph after a list is not swallowed by the last item.
    following = [block.text for block in blocks if block.kind == PARAGRAPH]
    assert "The following cards are banned in Standard tournaments:" in following


def test_examples_go_to_section_examples_with_their_label():
    examples = parsed(MTR_2026).section("5.2").examples
    assert len(examples) == 2
    assert examples[0].startswith("Example: Before the semifinals of a tournament")
    assert examples[0].endswith("with each player receiving 7 packs.")
    assert examples[1].endswith("The travel award and invitation are a single item and may not be split.")
    assert not any(block.text.startswith("Example:") for block in parsed(MTR_2026).section("5.2").blocks)


def test_subheadings_named_by_the_contents_list_become_subheading_blocks():
    appendix_c = parsed(MTR_2026).section("mtr:appendix-c")
    subheadings = [block.text for block in appendix_c.blocks if block.kind == SUBHEADING]
    for title in ["Match Points", "Game Points", "Match-win percentage", "Game-win percentage",
                  "Opponents’ match-win percentage", "Opponents’ game-win percentages", "Byes"]:
        assert title in subheadings
    levels = [block.text for block in parsed(MTR_2026).section("1.12").blocks if block.kind == SUBHEADING]
    assert levels == ["Regular", "Competitive", "Professional"]


def test_front_matter_and_credits_of_the_2026_pdf_text():
    document = parsed(MTR_2026)
    front = [block.text for block in document.front_matter]
    assert front[:3] == ["MAGIC: THE GATHERING® TOURNAMENT RULES", "Effective February 27, 2026", "Introduction"]
    assert document.front_matter[2].kind == SUBHEADING
    assert front[-1] == "The latest versions are available at https://wpn.wizards.com/en/rules-documents."
    assert document.credits[0].text.startswith("All trademarks are property of Wizards of the Coast LLC")
    assert document.credits[-1].text.endswith("used under license by Wizards of the Coast LLC.")


def test_contents_and_page_numbers_never_reach_the_text():
    document = parsed(MTR_2026)
    texts = [block.text for block in document.front_matter]
    texts += [block.text for section in document.sections for block in section.blocks]
    assert not any("....." in text for text in texts)
    assert not any(re.fullmatch(r"\d{1,2}", text) for text in texts)


def test_references_are_found_in_every_block():
    document = parsed(MTR_2026)
    refs = document.section("2.3").refs
    assert ("2.2", None) in [(ref.number, ref.document) for ref in refs]
    assert ("103.4", "cr") in [(ref.number, ref.document) for ref in refs]
    assert all(ref.line for ref in refs)
    assert "5.2" in [ref.number for ref in document.section("2.10").refs]


def test_flattened_tables_keep_every_row():
    appendix_f = parsed(MTR_2026).section("mtr:appendix-f")
    texts = [block.text for block in appendix_f.blocks]
    assert "Program Rules Enforcement Level" in texts
    assert "World Championship Professional" in texts


# --- MTR 2019 (magicjudges HTML) --------------------------------------------------------------

def html_contents(lines) -> tuple[int, int]:
    """The index range of the HTML contents list: from "Contents" to the first "MTR " heading."""
    texts = [line.text for line in lines]
    start = texts.index("Contents")
    end = next(index for index, text in enumerate(texts) if text.startswith("MTR "))
    return start, end


def contents_of_2019() -> list[tuple[str, str]]:
    lines = read_source(MTR_2019).lines
    start, end = html_contents(lines)
    entries = []
    for line in lines[start:end]:
        match = (re.match(r"^(\d+)\. (.+)$", line.text) or re.match(r"^(\d+\.\d+) (.+)$", line.text)
                 or re.match(r"^(Appendix [A-F]) - (.+)$", line.text))
        if match:
            entries.append((match.group(1), match.group(2)))
    return entries


def test_mtr_2019_html_a_table_ends_the_passage_above_so_a_subheading_may_follow_it():
    # Appendix C: "Match-win percentage", its examples' table, then "Game-win percentage" as the same kind of title.
    blocks = [(block.kind, block.text) for block in parsed(MTR_2019).section("Appendix C").blocks]
    after_table = blocks.index((SUBHEADING, "Game-win percentage"))
    assert (SUBHEADING, "Match-win percentage") in blocks[:after_table] and blocks[after_table - 1][0] == TABLE_ROW


def test_mtr_2019_html_sections_are_the_contents_list():
    expected = contents_of_2019()
    assert len(expected) == 100          # 10 chapters, 84 sections, 6 appendices
    document = parsed(MTR_2019)
    assert sorted(number for number, _ in numbered(document)) == sorted(number for number, _ in expected)
    # One heading differs from its contents entry in this edition; the parser says so (INFO).
    differing = sorted(set(expected) - set(numbered(document)))
    assert differing == [("3.6", "Card Identification and Interpretation")]
    assert document.section("3.6").title == "Card Interpretation"
    notes = [problem for problem in document.problems if problem.severity == INFO]
    assert len(notes) == 1 and "3.6" in notes[0].message


def test_mtr_2019_html_section_after_appendix_f_is_parsed_with_a_warning():
    document = parsed(MTR_2019)
    assert document.sections[-1].number == "4.8"
    assert document.sections[-1].parent == "mtr:4"
    assert document.sections[-1].title == "Reversing Decisions"
    warnings = [problem for problem in document.problems if problem.severity != INFO]
    assert len(warnings) == 1 and "4.8" in warnings[0].message and "backwards" in warnings[0].message
    assert document.info.complete


def test_mtr_2019_html_chapters_come_from_the_contents_list():
    document = parsed(MTR_2019)
    chapter = document.section("6")
    assert (chapter.title, chapter.kind, chapter.level) == ("Constructed Tournament Rules", "chapter", 1)
    assert document.section("6.4").parent == "mtr:6"
    # The chapter comes right before its first section.
    ids = [section.id for section in document.sections]
    assert ids.index("mtr:6") == ids.index("mtr:6.1") - 1


def test_mtr_2019_html_headings_lose_the_mtr_prefix_and_lists_stay_lists():
    document = parsed(MTR_2019)
    assert document.section("1.11").title == "Spectators"
    assert document.section("mtr:appendix-b").title == "Time Limits"
    # An <ol> in the HTML: the reader writes its item numbers, so the steps stay a numbered list.
    steps = [block for block in document.section("2.3").blocks if block.kind == NUMBERED]
    assert [step.marker for step in steps] == ["1.", "2.", "3.", "4.", "5.", "6."]
    examples = [block for block in document.section("4.3").blocks if block.kind == NUMBERED]
    assert [block.marker for block in examples] == ["1.", "2.", "3.", "4.", "5."]
    rows = [block for block in document.section("mtr:appendix-f").blocks if block.kind == TABLE_ROW]
    assert rows[0].cells == ("Program", "Rules Enforcement Level")


# --- MTR 2012 (plain text, CRLF, tabs) -------------------------------------------------------

# Chapter headings of the 2012 file, checked by hand with `grep -nE '^[0-9]+\. '` (the other
# matches of that grep are numbered list items in 2.3, 3.1, 4.3 and 9.4).
CHAPTERS_2012 = [
    ("1", "Tournament Fundamentals"), ("2", "Tournament Mechanics"), ("3", "Tournament Rules"),
    ("4", "Communication"), ("5", "Tournament Violations"), ("6", "Constructed Tournament Rules"),
    ("7", "Limited Tournament Rules"), ("8", "Team Tournament Rules"), ("9", "Two-Headed Giant Tournament Rules"),
    ("10", "Sanctioning Rules"),
]


def test_mtr_2012_sections_are_every_numbered_heading_line():
    texts = [line.rstrip("\r") for line in raw_lines(MTR_2012)]
    sections = [tuple(match.groups()) for match in map(re.compile(r"^(\d+\.\d+) (.+)$").match, texts) if match]
    appendices = [(f"Appendix {m.group(1)}", m.group(2))
                  for m in map(re.compile(r"^Appendix ([A-F])-(.+)$").match, texts) if m]
    assert (len(sections), len(appendices)) == (81, 6)
    document = parsed(MTR_2012)
    assert [pair for pair in numbered(document) if re.fullmatch(r"\d+", pair[0])] == CHAPTERS_2012
    assert [pair for pair in numbered(document) if "." in pair[0]] == sections
    assert [pair for pair in numbered(document) if pair[0].startswith("Appendix")] == appendices
    assert document.problems == ()


def test_mtr_2012_change_note_naming_an_appendix_is_not_a_heading():
    appendix_a = parsed(MTR_2012).section("mtr:appendix-a")
    assert "Appendix E: Avacyn Restored Limited product mix added." in [b.text for b in appendix_a.blocks]


def test_mtr_2012_tab_tables_become_rows_with_cells():
    rows = [block for block in parsed(MTR_2012).section("mtr:appendix-f").blocks if block.kind == TABLE_ROW]
    assert rows[0].cells == ("Players", "Rounds")
    assert rows[-1].cells == ("410+", "10")
    assert parsed(MTR_2012).section("2.3").blocks[1].kind == NUMBERED


def test_mtr_2012_introduction_is_front_matter():
    front = parsed(MTR_2012).front_matter
    assert front[0].text == "Introduction"
    assert front[-1].text.startswith("Tournament fact sheets for specific tournaments")


# --- Magic Online DCI Floor Rules 2002 --------------------------------------------------------

# Every heading of the file, checked by hand against `grep -nE '^[0-9]{3}[a-z]?\. '` plus the three
# unnumbered subheadings at lines 55, 58 and 62: (id, title, level, parent).
FLOOR_SECTIONS = [
    ("floor:100", "General Magic Tournament Rules", 1, None),
    ("floor:101", "Format and Ratings Categories", 2, "floor:100"),
    ("floor:110", "Magic Tournament Mechanics", 1, None),
    ("floor:111", "Match Structure", 2, "floor:110"),
    ("floor:112", "Match Time Limits", 2, "floor:110"),
    ("floor:112a", "Game Clock", 3, "floor:112"),
    ("floor:112a/sideboarding", "Sideboarding", 4, "floor:112a"),
    ("floor:112a/inactivity", "Inactivity", 4, "floor:112a"),
    ("floor:112a/disconnection-policies", "Disconnection Policies", 4, "floor:112a"),
    ("floor:113", "Who Plays First", 2, "floor:110"),
    ("floor:114", "Pregame Procedure", 2, "floor:110"),
    ("floor:115", "Mulligan Rule", 2, "floor:110"),
    ("floor:116", "End-of-Match Procedure", 2, "floor:110"),
    ("floor:117", "Determining a Match Winner", 2, "floor:110"),
    ("floor:120", "Rules For Constructed Tournaments", 1, None),
    ("floor:121", "Deck Size Limits", 2, "floor:120"),
    ("floor:122", "Sideboard Use", 2, "floor:120"),
    ("floor:125", "Standard-Format Deck Construction", 2, "floor:120"),
    ("floor:129", "Block-Format Deck Construction", 2, "floor:120"),
    ("floor:130", "Rules for Limited Tournaments", 1, None),
    ("floor:131", "Deck Size Limits", 2, "floor:130"),
    ("floor:132", "Sideboard Use", 2, "floor:130"),
    ("floor:135", "Rules for Draft Tournaments", 2, "floor:130"),
    ("floor:140", "Rules For Team Tournaments", 1, None),
    ("floor:143", "Team Composition and Identification", 2, "floor:140"),
    ("floor:145", "Team Constructed Tournaments", 2, "floor:140"),
    ("floor:146", "Team Limited Tournaments", 2, "floor:140"),
    ("floor:147", "Team Rochester Draft Tournaments", 2, "floor:140"),
]


def test_floor_rules_sections_and_unnumbered_subheadings():
    document = parsed(FLOOR_2002)
    assert [(s.id, s.title, s.level, s.parent) for s in document.sections] == FLOOR_SECTIONS
    numbered_lines = [line for line in raw_lines(FLOOR_2002) if re.match(r"^\d{3}[a-z]?\. ", line)]
    assert len([s for s in document.sections if s.number]) == len(numbered_lines) == 25
    sideboarding = document.section("floor:112a/sideboarding")
    assert (sideboarding.number, sideboarding.kind, sideboarding.line) == ("", "subheading", 55)
    assert sideboarding.blocks[0].text.startswith("There is a maximum of 6 minutes allowed for sideboarding.")
    assert document.problems == ()


def test_floor_rules_numbered_items_stay_in_section_114():
    section = parsed(FLOOR_2002).section("114")
    items = [(block.marker, block.text) for block in section.blocks if block.kind == NUMBERED]
    assert items == [
        ("1.", "Before the second and third games of a match, players may exchange cards in their decks "
               "for cards in their sideboards."),
        ("2.", "Each player draws seven cards."),
        ("3.", "Each player, in turn, decides whether to mulligan (see section 115)."),
    ]
    assert [(ref.number, ref.document) for ref in section.refs] == [("113", None), ("115", None)]


def test_floor_rules_cross_document_references():
    refs = parsed(FLOOR_2002).section("147").refs
    assert [(ref.number, ref.document) for ref in refs if ref.document == "utr"] == [("76", "utr"), ("77", "utr")]


def test_floor_rules_navigation_line_and_copyright_are_kept():
    document = parsed(FLOOR_2002)
    assert document.front_matter[0].text == "Index Table of Contents Terms"
    assert [block.text for block in document.credits] == ["™ & © 2002 Wizards of the Coast, Inc."]
    assert document.section("147").examples[0].startswith("Example: Team 1 and Team 2 are seated")


# --- nothing lost -----------------------------------------------------------------------------

HEADING_LINE = re.compile(r"^(?:MTR\s+)?(Appendix [A-Z]|\d+(?:\.\d+)*[a-z]?)\.?\s*[—–:-]?\s*(.*)$")


def _norm(text: str) -> str:
    return " ".join(text.split())


def export_text(document) -> str:
    parts = [block.as_text() for block in document.front_matter + document.credits]
    for section in document.sections:
        parts.append(f"{section.number} {section.title}")
        parts.extend(block.as_text() for block in section.blocks)
        parts.extend(section.examples)
    return "\n".join(_norm(part) for part in parts)


@pytest.mark.parametrize("path", [MTR_2026, MTR_2019, MTR_2012, FLOOR_2002], ids=lambda p: p.name)
def test_nothing_is_lost(path):
    document = parsed(path)
    blob = export_text(document)
    lines = read_source(path).lines
    skipped = set()
    if path == MTR_2019:
        start, end = html_contents(lines)
        skipped = {index for index in range(start, end)
                   if re.match(r"^(\d+\.|Appendix [A-F] - |Contents$|Appendices$)", lines[index].text)}
    lost = []
    for index, line in enumerate(lines):
        text = _norm(line.text)
        if not text or index in skipped or is_page_number(text) or is_contents_line(text):
            continue
        if text in blob:
            continue
        heading = HEADING_LINE.match(text)
        if heading and _norm(f"{heading.group(1)} {heading.group(2)}") in blob:
            continue
        lost.append((line.number, text))
    assert lost == []


# --- problems ---------------------------------------------------------------------------------

def test_truncated_document_is_incomplete_with_an_error():
    text = "\n".join(raw_lines(MTR_2026)[:1465])        # stops inside 7.1: chapters 7-10 and appendices missing
    document = parse_text(text)
    assert not document.info.complete
    missing = [problem for problem in document.problems if "never reaches" in problem.message]
    assert len(missing) == 1 and missing[0].severity == ERROR
    assert "7.2 Card Use in Limited Tournaments" in missing[0].message
    assert document.sections[-1].number == "7.1"


def test_duplicate_section_number_is_a_warning_and_both_are_kept():
    document = parse_text("1. Basics\n1.1 Types\nSome text.\n1.2 Roles\nMore text.\n"
                          "1.2 Roles Again\nRepeated text.\n")
    assert [section.id for section in document.sections] == ["mtr:1", "mtr:1.1", "mtr:1.2", "mtr:1.2-2"]
    assert any("1.2 appears again" in problem.message and problem.severity == WARNING
               for problem in document.problems)


def test_backwards_numbering_is_a_warning_and_the_section_is_parsed():
    document = parse_text("1. Basics\n1.1 Types\nText.\n1.3 Later\nText.\n1.2 Earlier\nText again.\n")
    assert [section.number for section in document.sections] == ["1", "1.1", "1.3", "1.2"]
    assert [problem.severity for problem in document.problems] == [WARNING]
    assert "backwards" in document.problems[0].message


def test_text_that_is_not_tournament_rules_is_an_error_and_kept():
    document = parse_text("Dear diary,\nToday I played Magic.\nIt was fun.\n")
    assert [problem.severity for problem in document.problems] == [ERROR]
    assert "no numbered sections" in document.problems[0].message
    assert document.sections == ()
    assert [block.text for block in document.front_matter] == ["Dear diary,", "Today I played Magic.", "It was fun."]


# --- hand-made variants -----------------------------------------------------------------------

@pytest.mark.parametrize("heading", [
    "Appendix A—Changes From Previous Versions",
    "Appendix A-Changes From Previous Versions",
    "Appendix A – Changes From Previous Versions",
    "MTR Appendix A - Changes From Previous Versions",
    "Appendix A: Changes From Previous Versions",
])
def test_appendix_heading_variants(heading):
    document = parse_text(f"1. Basics\n1.1 Types\nSome text.\n{heading}\nOnly recent changes are shown.\n"
                          "Appendix B: New sets added.\n")
    appendix = document.section("mtr:appendix-a")
    assert appendix is not None
    assert (appendix.number, appendix.title, appendix.kind) == (
        "Appendix A", "Changes From Previous Versions", "appendix")
    # A change note naming an appendix is text of the appendix, not a heading.
    assert [block.text for block in appendix.blocks] == ["Only recent changes are shown.",
                                                         "Appendix B: New sets added."]


def test_list_items_that_look_like_chapters_without_a_contents_list():
    document = parse_text(
        "1. Tournament Fundamentals\n\n1.1 Types\nThe steps are:\n\n1. Players shuffle\n\n2. Players draw\n\n"
        "3. Tournament Rules\n\nAfter the list.\n\n2. Tournament Mechanics\n\n2.1 Match Structure\nText.\n")
    assert numbered(document) == [("1", "Tournament Fundamentals"), ("1.1", "Types"),
                                  ("2", "Tournament Mechanics"), ("2.1", "Match Structure")]
    items = [block.marker for block in document.section("1.1").blocks if block.kind == NUMBERED]
    assert items == ["1.", "2.", "3."]


def test_chapter_heading_confirmed_only_by_the_contents_list():
    document = parse_text(
        "1. Basics .......... 1\n1.1 Types .......... 1\n2. Mechanics .......... 2\n2.1 Match .......... 2\n"
        "1. Basics\nIntro text of the chapter.\n1.1 Types\nSteps:\n1. Shuffle\n2. Draw\n"
        "2. Mechanics\nChapter intro.\n2.1 Match\nText.\n")
    assert numbered(document) == [("1", "Basics"), ("1.1", "Types"), ("2", "Mechanics"), ("2.1", "Match")]
    assert [block.text for block in document.section("1.1").blocks if block.kind == NUMBERED] == ["Shuffle", "Draw"]
    assert document.problems == ()


PAGED = """1
SAMPLE RULES
1. Basics
1.1 Start
Players must shuffle their decks before each game and present them to their
opponents, who may shuffle them again. This is how every game of the match
2
begins, and it is the same at every level of the tournament.
1.2 Next
Judges answer questions about the rules and deal with any illegal plays they
see during a match; they do not intervene to prevent illegal plays before
3
they happen, but they do intervene as soon as a rule has been broken.
1.3 End
Every player keeps a record of the match.
4
"""


def test_title_wrapped_over_two_lines_in_contents_and_heading():
    document = parse_text("1. Basics ........ 1\n1.1 A Very Long Section Title That Needs\nTwo Lines ........ 1\n"
                          "1.2 Short ........ 2\n1. Basics\n1.1 A Very Long Section Title That Needs\nTwo Lines\n"
                          "Text.\n1.2 Short\nText.\n")
    assert numbered(document) == [("1", "Basics"), ("1.1", "A Very Long Section Title That Needs Two Lines"),
                                  ("1.2", "Short")]
    assert [block.text for block in document.section("1.1").blocks] == ["Text."]
    assert document.problems == ()


def test_page_number_inside_a_paragraph_is_dropped_and_the_paragraph_joined():
    document = parse_text(PAGED)
    assert [block.text for block in document.section("1.1").blocks] == [
        "Players must shuffle their decks before each game and present them to their opponents, who may "
        "shuffle them again. This is how every game of the match begins, and it is the same at every level "
        "of the tournament."]
    assert len(document.section("1.2").blocks) == 1
    assert [block.text for block in document.front_matter] == ["SAMPLE RULES"]
    assert [block.text for block in document.section("1.3").blocks] == ["Every player keeps a record of the match."]


def test_numbers_alone_on_lines_outside_a_page_sequence_are_kept():
    document = parse_text("1. Basics\n1.1 Points\nGame Points\n21\nGames Played\n10\n")
    assert [block.text for block in document.section("1.1").blocks] == ["Game Points", "21", "Games Played", "10"]


def test_subheading_in_a_floor_rules_section_gets_its_own_anchor():
    document = parse_text("100. General\n101. Formats\nText.\n\n102. Clock\nThe clock runs.\n\n"
                          "Inactivity\nIf a player is inactive for five minutes, that player loses the game.\n\n"
                          "103. Play First\nThe loser chooses.\n", kind="floor")
    inactivity = document.section("floor:102/inactivity")
    assert inactivity is not None and inactivity.parent == "floor:102" and inactivity.kind == "subheading"


def test_mtr_2026_without_its_contents_list_still_finds_every_section():
    # Headings then stand on their own: chapters by their first section, the rest by shape and place.
    text = "\n".join(line for line in raw_lines(MTR_2026) if not re.search(r"\.{4,} ?\d+$", line))
    document = parse_text(text)
    assert numbered(document) == contents_of_2026()
    assert document.problems == ()


def test_mtr_2012_without_blank_lines_still_finds_every_section():
    text = "\n".join(line.rstrip("\r") for line in raw_lines(MTR_2012) if line.strip())
    assert numbered(parse_text(text)) == numbered(parsed(MTR_2012))


def test_markdown_headings_lists_tables_and_examples():
    document = parse_text(
        "# Magic: The Gathering Tournament Rules\n\nEffective today.\n\n## 1. Tournament Fundamentals\n\n"
        "### 1.1 Tournament Types\n\nThere are two types of tournaments.\n\n- Rated\n- Casual\n\n"
        "**Example:** A player does a thing.\n\n### 1.2 Roles\n\n| Role | Who |\n|---|---|\n| Judge | A person |\n\n"
        "## Appendix A — Changes\n\n* 1.1: changed.\n")
    assert numbered(document) == [("1", "Tournament Fundamentals"), ("1.1", "Tournament Types"),
                                  ("1.2", "Roles"), ("Appendix A", "Changes")]
    types = document.section("1.1")
    # the reader turns Markdown into plain lines first: "- Rated" is a "•" item, "**Example:**" plain text
    assert [(block.kind, block.marker, block.text) for block in types.blocks][1:] == [
        (BULLET, "•", "Rated"), (BULLET, "•", "Casual")]
    assert types.examples == ("Example: A player does a thing.",)
    assert document.section("1.2").blocks[0].cells == ("Role", "Who")
    assert document.front_matter[0].kind == SUBHEADING


# --- robustness and speed ---------------------------------------------------------------------

PIECES = st.sampled_from([
    "1. Tournament Fundamentals", "1.1 Tournament Types", "Appendix A—Changes", "MTR Appendix Z - X",
    "MTR 4.8 Reversing Decisions", "2.", "1.", "9.99 Z", "• ", "Example:", "Examples", "101. Format",
    "112a. Game Clock", "Sideboarding", "12", "3", "Contents", "Appendices", "............ 4", "\t", "©",
    "All trademarks", "(see section 2.2)", "rule 103.4", "", " ", "Appendix", "MTR", "0.", "00.0 A",
])
LINE_TEXT = st.lists(st.one_of(PIECES, st.text(max_size=30)), max_size=4).map(" ".join)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(LINE_TEXT, st.sampled_from(["", "", "h1", "h2", "li", "tr"])), max_size=40),
       st.sampled_from(["mtr", "floor"]))
def test_never_raises_on_arbitrary_lines(rows, kind):
    lines = tuple(Line(number, text, hint) for number, (text, hint) in enumerate(rows, start=1))
    source = SourceText("random.txt", lines, "utf-8", "html" if rows and rows[0][1] else "text", "0" * 64)
    info = floor_info() if kind == "floor" else mtr_info("random.txt")
    document = parse(source, info)
    ids = [section.id for section in document.sections]
    assert len(ids) == len(set(ids))


HEADINGS_RIGHT_AFTER_CHAPTERS = {
    "heading tags": lambda number, title, level: f"<h{level}>{number} {title}</h{level}>",
    "paragraphs": lambda number, title, level: f"<p>{number} {title}</p>",
    # A converter's named anchors: <a name="1.1"></a> on the line before each heading, sections in <h4>.
    "named anchors": lambda number, title, level: (f'<a name="{number.rstrip(".")}"></a>'
                                                   f"<h{2 if level == 2 else 4}>{number} {title}</h{2 if level == 2 else 4}>"),
}


@pytest.mark.parametrize("markup", [*HEADINGS_RIGHT_AFTER_CHAPTERS, "plain text"])
def test_a_section_heading_right_after_its_chapter_heading_is_its_own_section(markup):
    """An MTR: the contents list, then "1. Tournament Fundamentals" and "1.1 Tournament Types" with
    nothing between them (in HTML, with or without heading tags or named anchors, and in plain text).
    The contents list ends where a number comes again: 1.1 is a section, and nothing is reported missing."""
    entries = [("1.", "Tournament Fundamentals"), ("1.1", "Tournament Types"), ("1.2", "Publishing Tournament "
               "Information"), ("2.", "Tournament Mechanics"), ("2.1", "Match Structure"), ("2.2", "Play/Draw Rule")]
    texts = {"1.1": "Sanctioned, rated tournaments are divided into two types: Premier and non-Premier.",
             "1.2": "Wizards of the Coast reserves the right.", "2.1": "A match is a series of games.",
             "2.2": "For the first game, a random player chooses."}
    if markup == "plain text":
        lines = ["Magic: The Gathering Tournament Rules", "Effective January 21, 2019", "", "Contents"]
        lines += [f"{n} {t}" for n, t in entries] + [""]
        for number, title in entries:
            lines += [f"{number} {title}"] + ([texts[number], ""] if number in texts else [])
        name, data = "mtr.txt", "\n".join(lines).encode()
    else:
        heading = HEADINGS_RIGHT_AFTER_CHAPTERS[markup]
        contents = "".join(f"<li><a href='#{n.rstrip('.')}'>{n} {t}</a></li>" for n, t in entries)
        body = "".join(heading(n, t, 2 if n.endswith(".") else 3) + (f"<p>{texts[n]}</p>" if n in texts else "")
                       for n, t in entries)
        html = (f"<html><body><h1>Magic: The Gathering Tournament Rules</h1><p>Effective January 21, 2019</p>"
                f"<h2>Contents</h2><ul>{contents}</ul>{body}</body></html>")
        name, data = "mtr.html", html.encode()
    document = parse(read_bytes(data, name), mtr_info(name))
    assert [(s.number, s.kind) for s in document.sections] == [
        ("1", "chapter"), ("1.1", "section"), ("1.2", "section"), ("2", "chapter"), ("2.1", "section"),
        ("2.2", "section")]
    section = document.section("1.1")
    assert section.title == "Tournament Types" and section.parent == "mtr:1"
    assert section.text.startswith("Sanctioned, rated tournaments")
    assert document.section("1").blocks == ()
    assert document.info.complete and not [p for p in document.problems if p.severity != INFO]


def test_a_layout_not_recognised_is_reported_and_marks_the_mtr_incomplete():
    """The 2026 MTR with no contents list and its chapters 5-10 headed "Part 5 - ..." / "Rule 5-1 ..."."""
    lines = MTR_2026.read_text(encoding="utf-8").split("\n")
    body = next(number for number, line in enumerate(lines) if line.startswith("1.1 Tournament Types")
                and "...." not in line)
    out = []
    for number, line in enumerate(lines):
        if number < body and ("...." in line or line.startswith("Appendix")):
            continue
        if number >= body:
            line = re.sub(r"^([5-9]|10)\.(\d{1,2})\s+", r"Rule \1-\2 ", line)
            line = re.sub(r"^([5-9]|10)\.\s+", r"Part \1 - ", line)
        out.append(line)
    document = parse_text("\n".join(out))
    assert not document.info.complete
    problems = [p for p in document.problems if "not recognised" in p.message]
    assert len(problems) == 1 and problems[0].line == document.section("4.9").line and problems[0].file == "mtr.txt"
    assert "Rule 5-1" in document.section(problems[0].message.split("'")[1]).text


def test_the_real_mtr_editions_are_recognised_whole():
    for path in (MTR_2026, MTR_2019, MTR_2012):
        assert not [p for p in parsed(path).problems if "not recognised" in p.message], path.name


def test_a_note_run_into_a_heading_whose_title_ends_in_a_closing_mark_is_a_paragraph_of_its_own():
    # "(2HG)" ends the title the contents list gives: the note starts after its ")", not inside it.
    document = parse_text(
        "Magic: The Gathering Tournament Rules\n\nContents\n"
        "1. Tournament Fundamentals.................................................5\n"
        "1.1 Tournament Types........................................................5\n"
        "Appendix A—Changes From Previous Versions..................................40\n"
        "Appendix B—Recommended Booster Mix for Two-Headed Giant (2HG)..............41\n\n"
        "1. Tournament Fundamentals\n1.1 Tournament Types\nThere are two kinds of tournaments.\n\n"
        "Appendix A—Changes From Previous Versions\nAppendix B: booster mixes for new sets added.\n\n"
        "Appendix B—Recommended Booster Mix for Two-Headed Giant (2HG) (these numbers are guidelines)\n"
        "Each team opens six boosters of the newest set.\n")
    appendix = document.section("Appendix B")
    assert appendix.title == "Recommended Booster Mix for Two-Headed Giant (2HG)"
    assert [block.text for block in appendix.blocks] == ["(these numbers are guidelines)",
                                                         "Each team opens six boosters of the newest set."]
    assert not document.problems
