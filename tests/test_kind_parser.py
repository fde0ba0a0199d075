"""What the IPG, MTR and JAR parsers share around their grammar (pipeline.parse.kind_parser): the lines that hold
no text, a line that could not be read kept with a warning, and the Document they hand back."""
from __future__ import annotations

import pytest

from pipeline.model import PARAGRAPH, WARNING, Block, DocumentInfo
from pipeline.parse import ipg, jar, mtr, parse
from pipeline.parse.blocks import Draft
from pipeline.parse.kind_parser import KindParser, holds_no_text, same_title, short_title, text_lines
from pipeline.read import read_bytes
from pipeline.read.stream import PageNumber, Paragraph, TableRow


def test_a_page_number_holds_no_text_but_one_alone_may_be_a_tables_cell_where_tables_hold_numbers():
    assert holds_no_text(PageNumber("12", 40, 3, in_run=True))
    assert holds_no_text(PageNumber("8", 40, 3, in_run=False))      # after a page break in pdftotext -layout
    assert holds_no_text(PageNumber("12", 40, 3, in_run=True), lone_numbers_are_text=True)
    assert not holds_no_text(PageNumber("21", 40, 3, in_run=False), lone_numbers_are_text=True)   # "Game Points"


# A Markdown table's rule, and pandoc's plain text's horizontal rule between two tables (its tables are rows already).
@pytest.mark.parametrize("rule", ["|---|---|", "| :--- | ---: |", "-" * 72, "---"])
def test_a_tables_rule_holds_no_text(rule):
    assert holds_no_text(Paragraph(rule, 7, None))


def test_the_lines_that_hold_text_are_kept_in_order():
    stream = [Paragraph("1.1 Tournament Types", 1, None), PageNumber("5", 2, 1, in_run=True),
              Paragraph("|---|---|", 3, None), Paragraph("Game Points", 4, None), PageNumber("21", 5, 1)]
    assert [element.line for element in text_lines(stream)] == [1, 4]
    assert [element.line for element in text_lines(stream, lone_numbers_are_text=True)] == [1, 4, 5]


@pytest.mark.parametrize("text", ["- Rated", "-- a dash", "| Slow Play | Warning |", "Missed Trigger\tNone"])
def test_a_line_with_words_is_text(text):
    assert not holds_no_text(TableRow(text, 7, None) if "\t" in text else Paragraph(text, 7, None))


class _Lines(KindParser):
    def keep_unread(self, element):
        self.front.append(Draft(PARAGRAPH, [element.text], element.line))


def test_a_line_that_could_not_be_read_is_a_warning_at_its_line_and_its_text_is_kept():
    parser = _Lines(read_bytes(b"x\n", "hand-made.txt"), DocumentInfo(id="ipg", kind="ipg", title="IPG",
                                                                        edition=None, source="hand-made.txt"))

    element = Paragraph("Odd content", 12, None)
    try:
        raise ValueError(f"cannot read {element.text!r}")
    except ValueError as error:
        parser.could_not_read(element, error)
    document = parser.document([])
    assert [(p.severity, p.line) for p in document.problems] == [(WARNING, 12)]
    assert "ValueError: cannot read 'Odd content'" in document.problems[0].message
    assert document.front_matter == (Block(PARAGRAPH, "Odd content"),)


# Each parser, its reading of one line (KindParser.line) made to fail on one of them.
FAILING = {
    "ipg": (ipg._IpgParser, "1. GENERAL PHILOSOPHY\nJudges are neutral.\nBOOM goes this line.\n"
                            "2. GAME PLAY ERRORS\nErrors happen.\n"),
    "mtr": (mtr._Parser, "1. Tournament Fundamentals\n1.1 Tournament Types\nThere are two.\n"
                         "BOOM goes this line.\n1.2 Publishing\nA text.\n"),
    "jar": (jar._JarParser, "Judging at Regular Rules Enforcement Level\n\nCommon Issues\n"
                            "These are the issues players run into most often at a store.\n"
                            "BOOM goes this line.\n"),
}


@pytest.mark.parametrize("kind", sorted(FAILING))
def test_every_parser_keeps_a_line_it_could_not_read(kind, monkeypatch):
    cls, text = FAILING[kind]
    reads = cls.line

    def failing(self, index, element):
        if element.text.startswith("BOOM"):
            raise RuntimeError("odd content")
        return reads(self, index, element)
    monkeypatch.setattr(cls, "line", failing)
    document = parse(read_bytes(text.encode(), "hand-made.txt"),
                     DocumentInfo(id=kind, kind=kind, title=kind.upper(), edition=None, source="hand-made.txt"))
    [problem] = [p for p in document.problems if "could not read" in p.message]
    assert (problem.severity, problem.line) == (WARNING, text.splitlines().index("BOOM goes this line.") + 1)
    kept = [block.text for section in document.sections for block in section.blocks]
    assert "BOOM goes this line." in kept


@pytest.mark.parametrize("kind", ["ipg", "mtr", "jar"])
def test_the_credits_read_alike_a_credit_line_a_paragraph_a_line_in_lower_case_going_on_with_it(kind):
    body = {"ipg": "1. GENERAL PHILOSOPHY\nJudges are neutral.\n",
            "mtr": "1. Tournament Fundamentals\n1.1 Tournament Types\nThere are two.\n",
            "jar": "Judging at Regular Rules Enforcement Level\n\nCommon Issues\n"
                   "These are the issues players run into most often at a store.\n"}[kind]
    text = (body + "All trademarks are property of Wizards of the Coast LLC in the U.S.A. and other\n"
            "countries. ©2026 Wizards.\n© 2026 Viacom International Inc. All Rights Reserved.\n")
    document = parse(read_bytes(text.encode(), "hand-made.txt"),
                     DocumentInfo(id=kind, kind=kind, title=kind.upper(), edition=None, source="hand-made.txt"))
    assert [block.text for block in document.credits] == [
        "All trademarks are property of Wizards of the Coast LLC in the U.S.A. and other countries. ©2026 Wizards.",
        "© 2026 Viacom International Inc. All Rights Reserved."]


@pytest.mark.parametrize("kind", ["mtr", "jar"])
def test_where_a_paragraph_is_a_line_one_in_lower_case_goes_on_only_after_an_unfinished_sentence(kind):
    heading = {"mtr": "<h1>Magic: The Gathering Tournament Rules</h1><h2>1. Tournament Fundamentals</h2>"
                      "<h3>1.1 Tournament Types</h3>",
               "jar": "<h1>Judging at Regular Rules Enforcement Level</h1><h2>Common Issues</h2>"}[kind]
    html = (f"<html><body>{heading}<p>Players shuffle their decks before each game of a match.</p>"
            "<p>(Sleeves are allowed.)</p><p>A judge may shuffle the deck of a player</p>"
            "<p>who asks for it, at any time.</p><p>Then the game goes on.</p><p>Nothing else happens.</p>"
            "<p>The match ends.</p>"
            "</body></html>")
    document = parse(read_bytes(html.encode(), "hand-made.html"),
                     DocumentInfo(id=kind, kind=kind, title=kind.upper(), edition=None, source="hand-made.html"))
    assert [block.text for section in document.sections for block in section.blocks][-6:-3] == [
        "Players shuffle their decks before each game of a match.", "(Sleeves are allowed.)",
        "A judge may shuffle the deck of a player who asks for it, at any time."]


# One test of a subheading's shape for the three kinds (their own rules say how its words are capitalised).
@pytest.mark.parametrize("text, short", [
    ("Booster Draft Timing", True), ("FRAMEWORK OF THIS DOCUMENT", True), ("Serious Problems", True),
    ("Players may do this.", False), ("Game Loss,", False), ("Is this a question?", False),
    ("One two three four five six seven", False), ("Communication Policy Violations Between Tournament Organizers", False), ("2024", False),
    ("- Rated", False), ("• Rated", False)])
def test_a_subheading_is_a_short_line_that_ends_like_no_sentence(text, short):
    assert short_title(text) is short


@pytest.mark.parametrize("listed, title, same", [
    ("Game Play Error — Missed Trigger", "GAME PLAY ERROR - MISSED TRIGGER", True),
    ("Tournament Error — Communication Policy Violation", "Tournament Error — Communication", True),  # cut off
    ("Card Use in Limited Events", "Card Use in Limited Tournaments", True),                          # reworded
    ("Randomizing a Deck", "Randomizing a Library", False),
    ("Players", "Players present their decks", False),      # a short title starts a list item's sentence
    ("", "Tournament Types", False)])
def test_a_contents_title_and_a_heading_name_the_same_section(listed, title, same):
    assert same_title(listed, title) is same
