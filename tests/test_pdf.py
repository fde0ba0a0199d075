"""The PDF reader (pipeline.read.pdf) on the official PDFs of the corpus and on small PDFs built here.

What the parsers rely on: one line per visual line in reading order, page furniture gone, rule
numbers and section headings at line starts with a heading hint, bullets as "• ", blank lines at
paragraph breaks only, and bad input reported (never raised). The expected headings
(tests/fixtures/pdf/expected_headings.json) were read from each PDF's own contents pages with
poppler's pdftotext, independently of the reader under test.
"""
from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

import pytest

from pipeline.read import pdf as pdf_lines
from pipeline.read.pdf import PdfLine, pdf_to_lines

from conftest import CORPUS, FIXTURES
from pdf_tools import make_pdf

pytestmark = pytest.mark.slow             # every PDF of the corpus: outside the fast lane (make fast)

PDF_FIXTURES = FIXTURES / "pdf"
CR_EDITIONS = ["cr-2019-01-25", "cr-2023-04-14"]
IPG_PDFS = ["ipg-2014-09-26.pdf", "ipg-2018-01-19.pdf", "ipg-2021-02-05.pdf"]
MTR_PDFS = ["mtr-2014-07-18.pdf", "mtr-2018-01-19.pdf", "mtr-2021-07-23.pdf"]
ALL_PDFS = IPG_PDFS + MTR_PDFS + [e + ".pdf" for e in CR_EDITIONS]
EXPECTED = json.loads((PDF_FIXTURES / "expected_headings.json").read_text(encoding="utf-8"))
RULE_AT_START = re.compile(r"^(\d{3}\.\d+[a-z]?)")


@cache
def read(name: str) -> tuple[tuple[PdfLine, ...], tuple[str, ...]]:
    lines, problems = pdf_to_lines((CORPUS / name).read_bytes(), name)
    return tuple(lines), tuple(problems)


def read_txt(path: Path) -> list[str]:
    """A CR TXT in any of its encodings and line ends (BOM UTF-8, UTF-8, Windows-1252; CRLF, CR, LF)."""
    raw = path.read_bytes()
    if raw.startswith(b"\xef\xbb\xbf"):
        text = raw[3:].decode("utf-8")
    elif raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        text = raw.decode("utf-16")
    else:
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            text = raw.decode("cp1252")
    return re.split(r"\r\n|\r|\n", text)


def body_lines(lines):
    """Lines outside the contents pages (no dot leaders)."""
    return [line for line in lines if line.text and "...." not in line.text]


# ---------------------------------------------------------------- the real PDFs
@pytest.mark.parametrize("edition", CR_EDITIONS)
def test_cr_rule_numbers_match_txt_of_same_edition(edition):
    txt = {m.group(1) for line in read_txt(CORPUS / f"{edition}.txt") if (m := RULE_AT_START.match(line))}
    lines, problems = read(f"{edition}.pdf")
    pdf = {m.group(1) for line in lines if (m := RULE_AT_START.match(line.text))}
    assert problems == ()
    assert len(txt) > 2000
    assert sorted(txt - pdf) == [] and sorted(pdf - txt) == []


@pytest.mark.parametrize("name", IPG_PDFS)
def test_ipg_every_infraction_heading_starts_a_line(name):
    expected = EXPECTED[name]
    assert len(expected) >= 22                      # 2.1 ... 4.8
    lines = body_lines(read(name)[0])
    for number, title in expected:
        pattern = re.compile(re.escape(number.rstrip(".")) + r"\.?\s+" + re.escape(title) + r"(\s|$)")
        hits = [line for line in lines if pattern.match(line.text)]
        assert hits, f"{name}: no line starts with {number} {title}"
        assert any(line.hint.startswith("h") for line in hits), f"{name}: {number} not hinted as a heading"


@pytest.mark.parametrize("name", MTR_PDFS)
def test_mtr_section_headings_start_lines(name):
    expected = EXPECTED[name]
    assert len(expected) >= 80
    lines = body_lines(read(name)[0])
    starts = {line.text for line in lines}
    for number, title in expected:
        assert f"{number} {title}" in starts, f"{name}: no line '{number} {title}'"
    heading = next(line for line in lines if line.text == "1.1 Tournament Types")
    assert heading.hint.startswith("h")


@pytest.mark.parametrize("name", ALL_PDFS)
def test_no_page_numbers_left(name):
    lines, problems = read(name)
    assert lines and problems == ()
    # printed page numbers equal the PDF page numbers in these documents
    assert not [line_ for line_ in lines if line_.text == str(line_.page)], "a page number survived"
    by_page: dict[int, list[PdfLine]] = {}
    for line in lines:
        if line.text:
            by_page.setdefault(line.page, []).append(line)
    for page, page_lines in by_page.items():
        for edge in (page_lines[0], page_lines[-1]):
            assert not re.fullmatch(r"\d{1,3}", edge.text), f"page {page}: number {edge.text!r} at the edge"


@pytest.mark.parametrize("name", ALL_PDFS)
def test_line_shape(name):
    lines, _ = read(name)
    assert [line_.number for line_ in lines] == list(range(1, len(lines) + 1))
    pages = [line_.page for line_ in lines]
    assert pages == sorted(pages) and pages[0] >= 1
    for line in lines:
        assert line.text == line.text.strip() and "  " not in line.text
        assert not re.search(r"[\x00-\x1f\ufffe\ud800-\udfff]", line.text)
        assert line.hint in {"", "h1", "h2", "h3", "h4", "li"}
        if line.hint == "li":
            assert line.text.startswith("• ") or line.text == "•"     # an empty list item
        if not line.text:
            assert line.hint == ""
    # blank lines separate paragraphs, never two in a row, never first
    assert lines[0].text
    assert not any(a.text == "" and b.text == "" for a, b in zip(lines, lines[1:]))


def test_ipg_2021_section_2_1_in_reading_order():
    lines = list(read("ipg-2021-02-05.pdf")[0])
    texts = [line_.text for line_ in lines]
    start = texts.index("2.1. Game Play Error — Missed Trigger No Penalty")   # heading + penalty box
    assert lines[start].hint.startswith("h") and lines[start].page == 7
    after = texts[start:start + 40]
    assert after.index("Definition") < after.index(
        "• A triggered ability that requires its controller to choose targets (other than 'target")
    assert lines[start + after.index("Definition")].hint.startswith("h")
    assert "" in after[:3]                                  # a paragraph break after the heading


def test_ipg_2014_penalty_box_is_placed_beside_its_heading():
    texts = [line_.text for line_ in read("ipg-2014-09-26.pdf")[0]]
    start = texts.index("2.1. Game Play Error — Missed Trigger")
    assert [t for t in texts[start + 1:start + 6] if t][:3] == ["Penalty", "Warning*", "Definition"]


@pytest.mark.parametrize("heading, penalty", [
    ("2.2. Game Play Error — Looking at Extra Cards", "Warning"),
    ("3.4. Tournament Error — Insufficient Shuffling", "Warning"),
    ("3.5. Tournament Error — Deck/Decklist Problem", "Game Loss"),     # its box is drawn a little higher
    ("4.8. Unsporting Conduct — Cheating", "Disqualification"),
])
def test_ipg_2014_penalty_boxes_follow_their_heading_not_the_section_above(heading, penalty):
    texts = [line_.text for line_ in read("ipg-2014-09-26.pdf")[0]]
    start = texts.index(heading)
    assert [t for t in texts[start + 1:start + 6] if t][:3] == ["Penalty", penalty, "Definition"]


def test_bullets_become_li():
    lines = read("mtr-2021-07-23.pdf")[0]
    item = next(line_ for line_ in lines if line_.text == "• Sanctioning the event.")
    assert item.hint == "li"
    # continuation of a bulleted item is plain body text
    cont = next(i for i, line_ in enumerate(lines) if line_.text.startswith("• Providing all materials necessary"))
    assert lines[cont + 1].text == "tournaments)." and lines[cont + 1].hint == ""


def test_line_end_hyphen_kept_and_lines_not_joined():
    # PDFium glues "DCI-" and "sanctioned" into one line; the reader splits them again
    texts = [line_.text for line_ in read("mtr-2021-07-23.pdf")[0]]
    i = next(i for i, t in enumerate(texts) if t.endswith("final judicial authority at any DCI-"))
    assert texts[i + 1].startswith("sanctioned tournament and all tournament participants")


def test_contents_kept_with_short_dot_leaders():
    texts = [line_.text for line_ in read("mtr-2021-07-23.pdf")[0]]
    assert "1.1 Tournament Types .... 5" in texts
    assert not any("....." in t for t in texts)
    # an ellipsis inside a sentence is not a leader (CR 119.9)
    cr = [line_.text for line_ in read("cr-2023-04-14.pdf")[0]]
    assert any("gains life, . . . .”" in t for t in cr)


def test_page_break_inside_paragraph_has_no_blank_line():
    lines = read("mtr-2021-07-23.pdf")[0]
    i = next(i for i, line_ in enumerate(lines)
             if line_.text.startswith("must clearly indicate this in their marketing"))
    assert lines[i].page == 5 and lines[i + 1].page == 6 and lines[i + 1].text.startswith("as well as any other")


def test_glossary_terms_are_bold_headings():
    texts = {line_.text: line_.hint for line_ in read("cr-2023-04-14.pdf")[0]}
    assert texts["Abandon"].startswith("h") and texts["Glossary"].startswith("h")


# ---------------------------------------------------------------- bad inputs: never raise
@pytest.mark.parametrize("fraction", [0.0, 0.001, 0.05, 0.3, 0.5, 0.9, 0.999])
def test_truncated_pdf_does_not_raise(fraction):
    data = (CORPUS / "ipg-2021-02-05.pdf").read_bytes()
    cut = data[: int(len(data) * fraction)]
    lines, problems = pdf_to_lines(cut, "cut.pdf")
    assert isinstance(lines, list) and isinstance(problems, list)
    assert all(p.startswith("cut.pdf: ") for p in problems)
    if not lines:
        assert problems, "an empty result must say why"


def test_truncated_pdf_keeps_what_is_there():
    """A download cut in half: the pages still in the file come back, and the reader says so."""
    data = (CORPUS / "cr-2019-01-25.pdf").read_bytes()
    lines, problems = pdf_to_lines(data[: len(data) // 2], "half.pdf")
    assert len(problems) == 1 and "pages recovered" in problems[0] and "of 225 pages" in problems[0]
    txt = {m.group(1) for line in read_txt(CORPUS / "cr-2019-01-25.txt") if (m := RULE_AT_START.match(line))}
    got = {m.group(1) for line in lines if (m := RULE_AT_START.match(line.text))}
    assert got <= txt and len(got) > 0.35 * len(txt)          # nothing invented, much kept
    # cut just before the end: PDFium reads all of it; the missing %%EOF is reported
    lines, problems = pdf_to_lines(data[:-20], "end.pdf")
    assert lines[-1].page == 225 and problems == [
        "end.pdf: the file does not end with %%EOF: it may be truncated (PDFium read what is there)"]


def test_corrupted_bytes_do_not_raise():
    data = bytearray((CORPUS / "mtr-2021-07-23.pdf").read_bytes())
    for offset in range(1000, len(data), 997):          # damage the file all over
        data[offset:offset + 7] = b"garbage"
    lines, problems = pdf_to_lines(bytes(data), "damaged.pdf")
    assert isinstance(lines, list) and all(p.startswith("damaged.pdf: ") for p in problems)
    if not lines:
        assert problems


@pytest.mark.parametrize("data", [b"", b"hello", b"%PDF-1.7\n", b"%PDF-1.4\n%garbage\n" * 50,
                                  b"<html>not a pdf</html>"])
def test_not_a_pdf(data):
    assert pdf_to_lines(data, "x.pdf")[0] == []
    assert pdf_to_lines(data, "x.pdf")[1][0].startswith("x.pdf: cannot open the PDF")


def test_encrypted_pdf_is_reported():
    lines, problems = pdf_to_lines((PDF_FIXTURES / "encrypted.pdf").read_bytes(), "enc.pdf")
    assert lines == [] and len(problems) == 1
    assert problems[0].startswith("enc.pdf: cannot open the PDF: encrypted")


def test_pdf_without_text_is_reported():
    lines, problems = pdf_to_lines(make_pdf([[], []]), "blank.pdf")
    assert lines == [] and problems == ["blank.pdf: page 1-2: no text on any page"]


def test_scanned_pdf_is_reported():
    lines, problems = pdf_to_lines(make_pdf([[]], image=True), "scan.pdf")
    assert lines == []
    assert problems == ["scan.pdf: page 1: no text, only images (a scan? it needs OCR first)"]


def test_wrong_type_raises_type_error():
    with pytest.raises(TypeError):
        pdf_to_lines("not bytes", "x.pdf")  # type: ignore[arg-type]


# ---------------------------------------------------------------- small PDFs built here
def test_built_pdf_furniture_headings_paragraphs_bullets():
    pages = []
    for n in range(1, 6):
        page = [(72, 750, "F1", 9, "Magic Tournament Rules"),          # running header
                (500, 40, "F1", 9, f"Page {n} of 5")]                   # footer with number
        y = 700
        if n == 1:
            page.append((72, y, "F1", 18, "Big Title"))
            y -= 30
        page.append((72, y, "F2", 11, f"{n}.1 Section Heading"))
        y -= 24
        for k in range(3):
            page.append((72, y, "F1", 11, f"Body line {k} of page {n} with enough words to look like text."))
            y -= 13
        y -= 10                                                          # paragraph gap
        page.append((72, y, "F1", 11, "• A bulleted item"))
        y -= 13
        page.append((72, y, "F1", 11, "Second paragraph line with many ordinary words in it."))
        pages.append(page)
    lines, problems = pdf_to_lines(make_pdf(pages), "built.pdf")
    assert problems == []
    texts = [line_.text for line_ in lines]
    assert not any("Magic Tournament Rules" in t or t.startswith("Page ") for t in texts)
    assert texts[0] == "Big Title" and lines[0].hint == "h1"
    heading = lines[texts.index("1.1 Section Heading")]
    assert heading.hint == "h2"
    item = lines[texts.index("• A bulleted item")]
    assert item.hint == "li"
    assert texts[texts.index("• A bulleted item") - 1] == ""           # the gap before it
    assert lines[texts.index("Body line 1 of page 1 with enough words to look like text.")].hint == ""
    assert {line_.page for line_ in lines} == {1, 2, 3, 4, 5}


def test_helpers():
    assert pdf_lines._dot_leaders("1.1 Types.............5") == "1.1 Types .... 5"
    assert pdf_lines._dot_leaders("gain life, . . . .") == "gain life, . . . ."
    assert pdf_lines._normalise("e\ufb03cient  \t x\ufffe") == "efficient x-"
    assert pdf_lines._normalise("\ud835\udc5f\ud835\udc4e\ud835\udc56\ud835\udc60\ud835\udc52") == "raise"
    line = pdf_lines._RawLine(1)
    line.text = "\uf0b7 private-use bullet"
    assert pdf_lines._is_bullet(line)
    line.text = "- not a bullet"
    assert not pdf_lines._is_bullet(line)
