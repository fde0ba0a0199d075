"""The typed stream the read stage hands the parsers: every format's lines as Heading (with its level),
Paragraph, ListItem (with its marker), TableRow (with its cells), ContentsLine, PageNumber and Blank,
each with its line and page; and how a document ends (credits, truncation), settled once for every kind.

Real documents of the corpus where they show it, small made-up sources where a case needs one.
"""
from __future__ import annotations

import io
import pickle
import re
from collections import Counter

import docx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline import load_document
from pipeline.model import ERROR
from pipeline.parse import parse
from pipeline.parse.ending import credits_start
from pipeline.read import Line, SourceText, read_bytes, read_source
from pipeline.read.shapes import BROKEN_AT_DASH, GOES_ON, SUSPENDED, glue
from pipeline.read.stream import (
    Blank,
    ContentsLine,
    Heading,
    ListItem,
    PageNumber,
    Paragraph,
    TableRow,
    build_stream,
)

from conftest import CORPUS, ROOT

WORD = re.compile(r"\w+")


def stream_of_bytes(data: bytes, name: str):
    return read_bytes(data, name).stream


def html_page(body: bytes) -> bytes:
    """An HTML document around `body`, with enough markup to be read as HTML."""
    filler = b"".join(b"<p>Players are responsible for knowing the rules, part %d.</p>" % n for n in range(12))
    return b"<!DOCTYPE html><html><head><title>Rules</title></head><body>" + body + filler + b"</body></html>"


def typed(stream, kind):
    return [element for element in stream if isinstance(element, kind)]


def plain(texts: list[str], format: str = "text", hint: str = "") -> SourceText:
    lines = tuple(Line(number, text, hint if text else "") for number, text in enumerate(texts, start=1))
    return SourceText("made-up.txt", lines, "utf-8", format, "0" * 64)


# --- headings ---------------------------------------------------------------------------------------

def test_html_and_markdown_headings_arrive_as_headings_with_their_level():
    html = stream_of_bytes(html_page(b"<h1>Magic Tournament Rules</h1><p>Intro text here.</p>"
                                     b"<h3>1.1 Tournament Types</h3><p>Text.</p>"), "mtr.html")
    assert [(h.text, h.level) for h in typed(html, Heading)] == [("Magic Tournament Rules", 1),
                                                                  ("1.1 Tournament Types", 3)]
    markdown = stream_of_bytes(b"# Magic Tournament Rules\n\nIntro.\n\n### 1.1 Tournament Types\n\nText.\n\n"
                               b"## 2. Tournament Mechanics\n\nMore.\n", "mtr.md")
    assert [(h.text, h.level, h.line) for h in typed(markdown, Heading)] == [
        ("Magic Tournament Rules", 1, 1), ("1.1 Tournament Types", 3, 5), ("2. Tournament Mechanics", 2, 9)]


def test_word_heading_styles_arrive_as_headings():
    document = docx.Document()
    document.add_heading("Magic Tournament Rules", level=0)
    document.add_heading("1. Tournament Fundamentals", level=1)      # a paragraph each: never joined
    document.add_paragraph("Players are responsible for knowing the rules.")
    document.add_heading("1.1 Tournament Types", level=2)
    data = io.BytesIO()
    document.save(data)
    stream = stream_of_bytes(data.getvalue(), "mtr.docx")
    assert [(h.text, h.level) for h in typed(stream, Heading)] == [
        ("Magic Tournament Rules", 1), ("1. Tournament Fundamentals", 1), ("1.1 Tournament Types", 2)]
    assert [p.text for p in typed(stream, Paragraph)] == ["Players are responsible for knowing the rules."]


def test_pdf_headings_by_font_keep_their_page_and_rank_below_their_chapter():
    stream = read_source(CORPUS / "mtr-2021-07-23.pdf").stream
    headings = {h.text: h for h in typed(stream, Heading)}
    chapter, section = headings["1. Tournament Fundamentals"], headings["1.1 Tournament Types"]
    assert (chapter.page, section.page) == (5, 5) and section.level > chapter.level
    assert all(element.page for element in stream)


def test_markdown_heading_marks_in_a_plain_text_file_are_settled_by_the_reader():
    """Too few marks for the file to be read as Markdown: the stream still takes "## " as a heading's mark,
    so no parser has to look for it again."""
    source = read_bytes(b"Magic Tournament Rules\n\n## 1.1 Tournament Types\n\nA tournament is an event.\n", "mtr.txt")
    assert source.format == "text"
    assert [(h.text, h.level, h.line) for h in typed(source.stream, Heading)] == [("1.1 Tournament Types", 2, 3)]


def test_a_heading_a_pdf_wraps_onto_two_lines_is_one_heading_again():
    lines = ["Common Issues at", "Regular Events", "", "Text of the section, in full sentences."]
    source = plain(lines, "pdf")
    source = SourceText(source.name, tuple(Line(n, t, "h2" if n < 3 else "", 1) for n, t in enumerate(lines, 1)),
                        "utf-8", "pdf", "0" * 64)
    assert [(h.text, h.line) for h in typed(source.stream, Heading)] == [("Common Issues at Regular Events", 1)]
    html = SourceText(source.name, source.lines, "utf-8", "html", "0" * 64)   # two heading elements stay two
    assert len(typed(html.stream, Heading)) == 2


# --- lists and tables -------------------------------------------------------------------------------

def test_list_items_carry_the_marker_their_reader_drew():
    markdown = stream_of_bytes(b"# Title\n\n## Roles\n\n## Types\n\n- Standard\n- *Modern*\n", "x.md")
    assert [(i.marker, i.body) for i in typed(markdown, ListItem)] == [("•", "Standard"), ("•", "Modern")]
    html = stream_of_bytes(html_page(b"<ol start='3'><li>Draw seven cards.</li><li>Shuffle.</li></ol>"
                                     b"<ul><li>Head Judge</li></ul>"), "x.html")
    assert [(i.marker, i.body) for i in typed(html, ListItem)] == [("3.", "Draw seven cards."), ("4.", "Shuffle."),
                                                                    ("", "Head Judge")]


def test_bullets_pdftotext_draws_on_lines_of_their_own_find_their_items_again():
    stream = build_stream([Line(1, "•"), Line(2, "•"), Line(3, ""), Line(4, "Tournament Organizer"),
                           Line(5, "Head Judge")])
    assert [(i.marker, i.body, i.line) for i in typed(stream, ListItem)] == [("•", "Tournament Organizer", 4),
                                                                             ("•", "Head Judge", 5)]


def test_table_rows_carry_their_cells():
    html = stream_of_bytes(html_page(b"<table><tr><th>Infraction</th><th>Penalty</th></tr>"
                                     b"<tr><td>Slow Play</td><td>Warning</td></tr></table>"), "ipg.html")
    markdown = stream_of_bytes(b"# IPG\n\n| Infraction | Penalty |\n|---|---|\n| Slow Play | Warning |\n", "ipg.md")
    for stream in (html, markdown):
        assert [row.cells for row in typed(stream, TableRow)] == [("Infraction", "Penalty"), ("Slow Play", "Warning")]


# --- contents lists and page furniture ---------------------------------------------------------------

def test_dot_leader_lines_are_contents_entries_with_what_they_name():
    stream = build_stream([Line(1, "Contents"), Line(2, "1.1 Tournament Types ............ 5"),
                           Line(3, "1.2 Publishing Tournament"), Line(4, "Information ............ 6"),
                           Line(5, "Byes 49"), Line(6, "1.3 Tournament Roles ........ 7"), Line(7, "")])
    entries = [(c.line, c.entry) for c in typed(stream, ContentsLine)]
    assert entries == [(2, "1.1 Tournament Types"), (3, ""), (4, "1.2 Publishing Tournament Information"),
                       (5, "Byes"), (6, "1.3 Tournament Roles")]
    assert typed(stream, Paragraph)[0].text == "Contents"


def test_a_contents_entry_without_its_leader_in_a_real_pdf_is_an_entry():
    stream = read_source(CORPUS / "mtr-2018-01-19.pdf").stream
    assert [(c.entry, c.page) for c in typed(stream, ContentsLine) if c.text == "Byes 49"] == [("Byes", 3)]


def test_page_numbers_in_a_run_are_furniture_a_number_alone_is_not():
    texts = ["1", "Some text of the first page.", "2", "More text.", "Player", "21", "3", "The end.", "Page 4 of 9"]
    numbers = {n.text: n.in_run for n in typed(build_stream([Line(i, t) for i, t in enumerate(texts, 1)]),
                                               PageNumber)}
    assert numbers == {"1": True, "2": True, "21": False, "3": True, "Page 4 of 9": True}


def test_the_real_mtr_text_has_its_page_numbers_marked_as_furniture():
    stream = read_source(CORPUS / "mtr-2026-02-27.txt").stream
    numbers = typed(stream, PageNumber)
    assert len(numbers) >= 50 and all(number.in_run for number in numbers)
    assert [int(number.text) for number in numbers[:5]] == [1, 2, 3, 4, 5]


# --- the stream as a whole ---------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["cr-2026-01-16.txt", "mtr-2021-07-23.pdf", "ipg-2020-01-24-magicjudges.html",
                                  "jar-2019-01-21-magicjudges.html", "ipg-2024-09-23.txt"])
def test_every_word_of_a_source_is_in_its_stream_once(name):
    source = read_source(CORPUS / name)
    stream = source.stream
    assert Counter(WORD.findall(" ".join(line.text for line in source.lines))) == \
        Counter(WORD.findall(" ".join(element.text for element in stream)))
    assert [element.line for element in stream] == sorted(element.line for element in stream)


@pytest.mark.parametrize("name", ["cr-2011-04-01.txt", "mtr-2021-07-23.pdf", "ipg-2020-01-24-magicjudges.html",
                                  "jar-2019-01-21-magicjudges.html"])
def test_a_source_builds_its_stream_once_parsed_twice_alike_and_pickles_without_it(name):
    """The read stage's stream is kept with its source: every parser reads the same one and none changes it."""
    source = read_source(CORPUS / name)
    pickled = pickle.dumps(source)
    stream = source.stream
    assert source.stream is stream
    as_built = [repr(element) for element in stream]
    document, _ = load_document(CORPUS / name, use_cache=False)
    assert parse(source, document.info) == parse(source, document.info)
    assert [repr(element) for element in source.stream] == as_built
    assert pickle.dumps(source) == pickled        # no stream in a pickle
    unpickled = pickle.loads(pickled)
    assert unpickled == source and [repr(element) for element in unpickled.stream] == as_built


def test_a_blank_line_is_a_blank_and_indentation_is_kept_aside():
    stream = build_stream([Line(1, "    Indented rule text,"), Line(2, "   "), Line(3, "\tA tabbed line")])
    assert [type(element) for element in stream] == [Paragraph, Blank, Paragraph]
    assert [(element.text, element.indent) for element in stream] == [("Indented rule text,", "    "), ("", ""),
                                                                      ("A tabbed line", "\t")]


def test_the_parsers_read_the_typed_stream_never_the_readers_lines():
    """What is about the format is settled once, in the read stage: no parser looks at a reader's hints or raw
    lines, or for Markdown's marks, pdftotext's split lines, page numbers or dot leaders, again."""
    format_level = re.compile(r"\.hint\b|source\.lines|markdown_heading|rejoin_split_lines|is_page_number"
                              r"|is_contents_line|strip_dot_leader|\^\\s\{0,3\}\(#")
    for path in sorted((ROOT / "pipeline" / "parse").glob("*.py")):
        assert not format_level.search(path.read_text(encoding="utf-8")), path.name


# --- how a document ends, once for every kind ----------------------------------------------------------

def test_the_credits_are_the_trailing_credit_lines_and_what_goes_on_from_them():
    stream = build_stream([Line(1, "1.1 Tournament Types"), Line(2, "A tournament is an event."), Line(3, ""),
                           Line(4, "All trademarks are property of Wizards of the Coast LLC."),
                           Line(5, "© 2026 Viacom International Inc. All Rights Reserved. Nickelodeon and"),
                           Line(6, "characters are trademarks of Viacom International Inc."), Line(7, "12")])
    assert stream[credits_start(stream)].line == 4


def test_a_credit_line_with_the_documents_text_after_it_is_no_credit():
    """A page footer in PDF text: "© Wizards" between two passages of the rules."""
    stream = build_stream([Line(1, "A tournament is an event."), Line(2, "© 2026 Wizards of the Coast"),
                           Line(3, "Players must follow the rules.")])
    assert credits_start(stream) == len(stream)


@pytest.mark.parametrize("name", ["cr-2015-09-26.txt", "ipg-2024-09-23.txt", "mtr-2026-02-27.txt"])
def test_every_kind_reports_a_truncated_file_in_one_problem_where_it_stops(tmp_path, name):
    data = (CORPUS / name).read_bytes()
    cut = data[: len(data) // 2]
    (tmp_path / name).write_bytes(cut)
    document, _ = load_document(tmp_path / name, use_cache=False)
    stops = [p for p in document.problems if "never reaches" in p.message]
    last = len(cut.decode("utf-8", "replace").rstrip().splitlines())
    assert len(stops) == 1 and stops[0].severity == ERROR and not document.info.complete
    assert stops[0].line == last and f"the file stops at line {last}" in stops[0].message
    assert stops[0].message.startswith("the contents list names ")


def test_soft_hyphens_go_before_any_parser_sees_the_text(tmp_path):
    """A converter's &shy; marks where a word may break; it is no part of the word a judge searches for."""
    source = html_page(b"<h1>Magic Tournament Rules</h1><h2>1. Tournament Fundamentals</h2>"
                       b"<h3>1.1 Tournament Types</h3><p>A tour&shy;nament is an event.</p>")
    stream = stream_of_bytes(source, "mtr.html")
    assert "A tournament is an event." in [p.text for p in typed(stream, Paragraph)]
    (tmp_path / "mtr.html").write_bytes(source)
    document, _ = load_document(tmp_path / "mtr.html", use_cache=False)
    assert document.section("1.1").text.startswith("A tournament is an event.")


GLUE_PIECES = st.sampled_from(["turn", "-", "‐", "–", "—", "−", "[", "(", "\"", "”", "’", ")", " ", "\n", "and", "or",
                               "based", "“quoted", "{T}", "_", "x", "2", "é"])


@settings(max_examples=600, deadline=None)
@given(st.lists(GLUE_PIECES, max_size=8).map("".join), st.lists(GLUE_PIECES, max_size=4).map("".join))
def test_glue_reads_only_the_end_of_the_line_before_and_decides_as_a_search_of_all_of_it(before, after):
    # (glue looks at the last characters only: a paragraph that grows line by line is not read again each time)
    whole = ("" if before and after and GOES_ON.match(after) and BROKEN_AT_DASH.search(before)
             and not (before[-1] == "-" and SUSPENDED.match(after)) else " ")
    assert glue(before, after) == whole
    assert glue("a long paragraph " * 50 + "turn-", "based") == ""
