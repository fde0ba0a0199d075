"""Rule documents as real converters write them read like the documents they were made from.

Each fixture in `converted.tar.xz` is one converter's output, unedited: pandoc 2.17 (`-t gfm`,
`-t markdown`, `-t plain`, `-t commonmark` with its tables as raw HTML, `-t markdown_mmd` with a label after
each heading, `-t rtf` with its tables) of the magicjudges IPG, JAR and MTR pages, `pdftohtml -s -i -noframes`
(poppler 22.02) of an official IPG and MTR PDF, and part of the glossary of `pandoc -t plain` of the
2019 CR's DOCX. Each must give the same kind, sections, infractions with their penalties, and words as the
original in tests/fixtures/corpus, complete and without errors; a document whose layout was not
understood must say so with an error, never come out complete.
"""
from __future__ import annotations

import re
import tarfile
from collections import Counter
from pathlib import Path

import pytest

from pipeline import load_document
from pipeline.model import ERROR
from pipeline.read import read_bytes
from pipeline.read.html import html_to_lines
from pipeline.read.wrapping import wrap_width

from conftest import CORPUS, FIXTURES

CONVERTED = FIXTURES / "converted.tar.xz"
# converter output -> the original it was made from
ORIGINALS = {
    "ipg-2020-01-24-magicjudges.gfm.md": "ipg-2020-01-24-magicjudges.html",
    "ipg-2020-01-24-magicjudges.pandoc.md": "ipg-2020-01-24-magicjudges.html",
    "ipg-2020-01-24-magicjudges.plain.txt": "ipg-2020-01-24-magicjudges.html",
    "ipg-2020-01-24-magicjudges.commonmark.md": "ipg-2020-01-24-magicjudges.html",
    "ipg-2020-01-24-magicjudges.mmd.md": "ipg-2020-01-24-magicjudges.html",
    "ipg-2020-01-24-magicjudges.pandoc.rtf": "ipg-2020-01-24-magicjudges.html",
    "mtr-2019-01-21-magicjudges.pandoc.rtf": "mtr-2019-01-21-magicjudges.html",
    "jar-2019-01-21-magicjudges.gfm.md": "jar-2019-01-21-magicjudges.html",
    "jar-2019-01-21-magicjudges.pandoc.md": "jar-2019-01-21-magicjudges.html",
    "jar-2019-01-21-magicjudges.plain.txt": "jar-2019-01-21-magicjudges.html",
    "mtr-2019-01-21-magicjudges.plain.txt": "mtr-2019-01-21-magicjudges.html",
    "ipg-2021-02-05.pdftohtml.html": "ipg-2021-02-05.pdf",
    "mtr-2018-01-19.pdftohtml.html": "mtr-2018-01-19.pdf",
}
GLOSSARY_EXCERPT = "cr-2019-01-25.docx.plain-glossary-a-c.txt"


@pytest.fixture(scope="module")
def converted(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("converted")
    with tarfile.open(CONVERTED, "r:xz") as archive:
        for member in archive.getmembers():
            if member.isfile() and "/" not in member.name:
                (folder / member.name).write_bytes(archive.extractfile(member).read())
    return folder


def words(document) -> Counter:
    text = " ".join(" ".join((section.title, section.text, *section.examples)) for section in document.sections)
    return Counter(re.findall(r"[a-z]{3,}", text.lower()))


@pytest.mark.parametrize("name", sorted(ORIGINALS))
def test_a_converters_output_gives_the_documents_sections_penalties_and_words(converted, name):
    document, problems = load_document(converted / name, use_cache=False)
    original, _ = load_document(CORPUS / ORIGINALS[name], use_cache=False)
    assert document is not None, [str(p) for p in problems]
    assert document.info.kind == original.info.kind
    assert [s.id for s in document.sections] == [s.id for s in original.sections]
    assert [(p.section, p.penalty) for p in document.penalties] == [(p.section, p.penalty) for p in original.penalties]
    assert not words(original) - words(document)            # no word of the original lost
    assert not [str(p) for p in problems if p.severity == ERROR]
    assert document.info.complete


def test_pandoc_markdown_with_raw_html_is_read_as_markdown_not_html(converted):
    """pandoc keeps the <div>s and <span>s it has no Markdown for; the headings are still Markdown's."""
    source = read_bytes((converted / "ipg-2020-01-24-magicjudges.gfm.md").read_bytes(), "ipg.gfm.md")
    assert source.format == "markdown"
    texts = {line.text: line for line in source.lines}
    assert texts["IPG 2.1 Game Play Error - Missed Trigger"].hint == "h1"
    assert not [line for line in source.lines if "<div" in line.text or "</span>" in line.text]
    # a tag written across three lines ('<a' / 'href=…' / 'class="jTip">Manic Vandal</a>') leaves one item
    item = next(line for line in source.lines if "Manic Vandal" in line.text)
    assert item.text.startswith("• C. A player casts Manic Vandal, then forgets its triggered ability by not")
    assert item.number == 587                              # the line the item starts on in the file


def test_pandoc_attributes_spans_escapes_and_fenced_divs_leave_only_the_text(converted):
    source = read_bytes((converted / "ipg-2020-01-24-magicjudges.pandoc.md").read_bytes(), "ipg.pandoc.md")
    text = "\n".join(line.text for line in source.lines)
    assert ":::" not in text and "{#" not in text and "{.jTip}" not in text and "\\'" not in text
    assert "four Dispels not listed" in text
    assert "A judge shouldn't intervene in a game unless they believe a rules violation has occurred," in text


@pytest.mark.parametrize("name", ["ipg-2020-01-24-magicjudges.pandoc.md", "ipg-2020-01-24-magicjudges.plain.txt"])
def test_pandoc_dash_tables_become_table_rows(converted, name):
    """"  1.1. [Definition of Penalties](#ipg1-1)   1.3. [Randomizing a Deck](#ipg1-3)" under dashes: two cells."""
    source = read_bytes((converted / name).read_bytes(), name)
    rows = [line.text.split("\t") for line in source.lines if line.hint == "tr"]
    assert ["1.1. Definition of Penalties", "1.3. Randomizing a Deck"] in rows
    assert ["Missed Trigger", "None"] in rows and ["Cheating", "Disqualification"] in rows
    assert not [line for line in source.lines if re.fullmatch(r"\s*-{3,}(?:\s+-{3,})+\s*", line.text)]


def test_markdown_tables_written_as_raw_html_are_table_rows_on_the_line_of_their_row():
    """A CommonMark writer keeps a table it cannot draw with pipes as HTML: each <tr> is one row of cells (a
    cell's link and line break inside it are its words), and the lines after keep the file's numbers."""
    markdown = ("# IPG 2. Game Play Errors\n\n<table class=\"table\">\n<tbody>\n<tr class=\"odd\">\n"
                "<td>2.1. <a href=\"#ipg2-1\">Game Play Error - Missed Trigger</a></td>\n"
                "<td>2.4. <a href=\"#ipg2-4\">Game Play Error - Mulligan Procedure\nError</a></td>\n</tr>\n"
                "<tr><td></td><td></td></tr>\n<tr><th>Hand &amp; Library | Zone</th><td>Warn<b>ing</b></td></tr>\n"
                "</tbody>\n</table>\n\nGame Play Errors are caused by incorrect play.\n\n## More\n\n## Most\n")
    source = read_bytes(markdown.encode(), "ipg.md")
    assert source.format == "markdown"
    rows = [(line.number, line.text.split("\t")) for line in source.lines if line.hint == "tr"]
    assert rows == [(5, ["2.1. Game Play Error - Missed Trigger", "2.4. Game Play Error - Mulligan Procedure Error"]),
                    (11, ["Hand & Library | Zone", "Warning"])]
    after = next(line for line in source.lines if line.text.startswith("Game Play Errors are"))
    assert after.number == markdown.splitlines().index("Game Play Errors are caused by incorrect play.") + 1
    assert not [line for line in source.lines if "<" in line.text]


@pytest.mark.parametrize("heading, words", [
    ("# 3.4 Tournament Error - Decklist Problem [tournament-error---decklist-problem]",
     "3.4 Tournament Error - Decklist Problem"),
    ("## IPG 1. General Philosophy [ipg-1.-general-philosophy]", "IPG 1. General Philosophy"),
    ("## Penalty Levels [Warning]", "Penalty Levels [Warning]"),          # brackets of its own words stay
    ("## Two-Headed Giant [2HG]", "Two-Headed Giant [2HG]"),
])
def test_a_multimarkdown_heading_label_is_no_part_of_its_words(heading, words):
    source = read_bytes(f"{heading}\n\nText.\n\n## B\n\n## C\n".encode(), "doc.md")
    assert source.lines[0].text == words and source.lines[0].hint.startswith("h")


def test_rtf_table_rows_are_one_line_of_cells_each():
    """Each cell's paragraph ends just before its \\cell (as pandoc writes RTF): a row is one line of cells, a
    row of empty cells a blank line, and the paragraphs around the table stay lines of their own."""
    rtf = (r"{\rtf1\ansi\deff0 {\fonttbl{\f0 Times;}}" "\n"
           r"{\pard \ql \f0 \b \fs36 IPG 2. Game Play Errors\par}" "\n"
           r"{\trowd \trgaph120 \cellx4000\cellx8000" "\n"
           r"{{\pard\intbl \ql \f0 2.1. Game Play Error - Missed Trigger\par}" "\n" r"\cell}" "\n"
           r"{{\pard\intbl \ql \f0 2.4. Game Play Error - Mulligan Procedure Error\par}" "\n" r"\cell}" "\n"
           r"\row}" "\n"
           r"{\trowd \cellx4000\cellx8000 {{\pard\intbl \par}\cell}{{\pard\intbl \par}\cell}\row}" "\n"
           r"{\pard \ql \f0 Game Play Errors are caused by incorrect play.\par}" "\n}")
    source = read_bytes(rtf.encode(), "ipg.rtf")
    assert source.format == "rtf"
    texts = [(line.text, line.hint) for line in source.lines if line.text.strip()]
    assert texts == [("IPG 2. Game Play Errors", ""),
                     ("2.1. Game Play Error - Missed Trigger\t2.4. Game Play Error - Mulligan Procedure Error", "tr"),
                     ("Game Play Errors are caused by incorrect play.", "")]


def test_pandoc_plain_glossary_wrapped_at_72_columns_reads_as_the_txt(converted):
    """Each term and each definition on one line again, as in the TXT of the same edition (the DOCX has curly
    quotes where the TXT has straight ones); "See rule" / "202.3." is one sentence."""
    source = read_bytes((converted / GLOSSARY_EXCERPT).read_bytes(), GLOSSARY_EXCERPT)
    got = [fold(line.text) for line in source.lines if line.text.strip()]
    txt_source = read_bytes((CORPUS / "cr-2019-01-25.txt").read_bytes(), "cr-2019-01-25.txt")
    txt = [fold(line.text) for line in txt_source.lines]
    start = [index for index, line in enumerate(txt) if line == "Abandon"][-1]      # the glossary's
    assert got == [line for line in txt[start:start + len(got) * 2] if line][:len(got)]
    assert "The total amount of mana in a mana cost, regardless of color. See rule 202.3." in got


def fold(text: str) -> str:
    return text.replace("“", '"').replace("”", '"').replace("’", "'").replace("‘", "'").strip()


@pytest.mark.slow          # every text file of the corpus and every pdftotext output, line by line
def test_text_not_wrapped_at_a_fixed_width_is_left_as_it_is(pdftotext_dir):
    """The TXT editions hold a paragraph per line; pdftotext's lines follow the PDF's: neither is unwrapped."""
    for path in [*sorted(CORPUS.glob("*.txt")), *sorted(pdftotext_dir.glob("*.txt"))]:
        data = path.read_bytes()
        source = read_bytes(data, path.name)
        assert wrap_width(source.lines) is None, path.name
        assert [line.number for line in source.lines] == list(range(1, len(source.lines) + 1)), path.name


def test_pdftohtml_boxes_on_one_row_are_one_line():
    """pdftohtml draws a heading's number and its title as two boxes at one height: one line, left to right."""
    html = ('<html><body><div id="page5-div" style="position:relative;width:918px;height:1188px;">'
            '<p style="position:absolute;top:166px;left:135px;white-space:nowrap"><b>Tournament&#160;Types</b></p>\n'
            '<p style="position:absolute;top:166px;left:81px;white-space:nowrap"><b>1.1&#160;</b></p>\n'
            '<p style="position:absolute;top:200px;left:81px;white-space:nowrap">Sanctioned tournaments are rated.</p>\n'
            '<p style="position:absolute;top:230px;left:81px;white-space:nowrap"><b>1.2&#160;</b></p>\n'
            '<p style="position:absolute;top:231px;left:135px;white-space:nowrap"><b>Publishing</b></p>\n'
            '</div></body></html>')
    lines, _, _, problems = html_to_lines(html, "mtr.html")
    texts = [" ".join(line.text.split()) for line in lines if line.text.strip()]
    # the first row's boxes are written right to left, the second's a pixel apart
    assert texts == ["1.1 Tournament Types", "Sanctioned tournaments are rated.", "1.2 Publishing"]
    assert not problems


def test_a_glossary_whose_terms_were_joined_to_their_definitions_is_an_error(tmp_path):
    """pandoc -f markdown of the CR's TXT joins each term with its definition into one paragraph: the glossary
    is not understood, and the document must not come out complete with one 100 KB term."""
    text = (CORPUS / "cr-2026-01-16.txt").read_bytes().decode("utf-8-sig")
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    start = [index for index, line in enumerate(lines) if line.strip() == "Abandon"][-1]   # the glossary's
    joined = lines[:start] + [" ".join(lines[start:start + 2])] + lines[start + 2:]
    (tmp_path / "cr-2026-01-16.txt").write_text("\n".join(joined), encoding="utf-8")
    document, problems = load_document(tmp_path / "cr-2026-01-16.txt", use_cache=False)
    errors = [p for p in problems if p.severity == ERROR and "reads as a passage" in p.message]
    assert [(p.file, p.line) for p in errors] == [("cr-2026-01-16.txt", start + 1)]
    assert not document.info.complete


def test_pdftotext_example_letters_drawn_apart_from_their_items_are_put_back(pdftotext_dir):
    """The 2014 IPG in pdftotext's default mode: "A." / "B." / "C." / "D." / "" / the four examples. Each
    example keeps its letter and stays an example, as the PDF read by its fonts gives them."""
    document, problems = load_document(pdftotext_dir / "ipg-2014-09-26.pdftotext.txt", use_cache=False)
    original, _ = load_document(CORPUS / "ipg-2014-09-26.pdf", use_cache=False)
    assert [len(s.examples) for s in document.sections] == [len(s.examples) for s in original.sections]
    assert [s.examples[0][:40] for s in document.sections if s.examples] == \
        [s.examples[0][:40] for s in original.sections if s.examples]
    assert document.section("2.4").examples[0] == ("A. A player draws eight cards at the start of the game "
                                                   "(instead of seven).")
    assert not words(original) - words(document) - Counter({"level": 1, "experience": 1})   # "experience-level"
    assert document.info.complete


def test_two_penalties_in_one_infraction_stay_an_error_but_appendix_a_says_which_is_kept():
    """pdftotext -raw and pdftohtml write the 2014 IPG's penalty boxes in the order the PDF draws them, one of
    them inside the next section: two penalties there. Still an error; Appendix A's choice is kept."""
    from test_ipg_layouts import altered, line_of, parse_text, problems
    text = altered(("3.2. Game Play Error — Drawing Extra Cards\nPenalty\nDefinition Game Loss\n",
                    "3.2. Game Play Error — Drawing Extra Cards\nPenalty\nDefinition Warning\nPenalty\nGame Loss\n"))
    document = parse_text(text)
    errors = problems(document, ERROR)
    assert [(p.line, "kept 'Game Loss', as Appendix A" in p.message) for p in errors] == [
        (line_of(text, "Game Loss"), True)]
    assert document.section("3.2").infraction.penalty == "Game Loss"
    assert not document.info.complete


def test_a_glossary_with_each_definition_a_paragraph_of_its_own_gives_the_same_terms(tmp_path):
    """pandoc (plain, gfm, markdown) writes the DOCX's term and its definition as two paragraphs, a blank line
    between them; a definition that ends in an exclamation ("… “Start Your Engines!”") is still no term."""
    text = (CORPUS / "cr-2026-01-16.txt").read_bytes().decode("utf-8-sig")
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    start = [index for index, line in enumerate(lines) if line.strip() == "Glossary"][-1]
    end = [index for index, line in enumerate(lines) if line.strip() == "Credits"][-1]
    spaced = lines[:start + 1]
    for index in range(start + 1, end):
        spaced.append(lines[index])
        if lines[index].strip() and not lines[index - 1].strip() and lines[index + 1].strip():
            spaced.append("")                               # a term line, then its definition apart
    (tmp_path / "cr-2026-01-16.txt").write_text("\n".join(spaced + lines[end:]), encoding="utf-8")
    document, problems = load_document(tmp_path / "cr-2026-01-16.txt", use_cache=False)
    original, _ = load_document(CORPUS / "cr-2026-01-16.txt", use_cache=False)
    assert [(g.term, g.text) for g in document.glossary] == [(g.term, g.text) for g in original.glossary]
    assert document.glossary[[g.term for g in document.glossary].index("Speed")].text.startswith("Speed is a value")
    assert not [str(p) for p in problems if p.severity == ERROR]


def test_pdftohtml_small_capitals_are_one_word_and_no_word_is_reported_lost():
    """`pdftohtml -c` writes a heading in small capitals as boxes: each word's first letter in a larger type (its
    box starts higher), then the rest. The words are whole again; a capital letter standing alone stays a word."""
    boxes = [(97, 81, "A"), (101, 94, "PPENDIX&#160;"), (97, 161, "A"), (101, 174, "&#160;"), (97, 177, "—"),
             (101, 195, "&#160;"), (97, 199, "P"), (101, 210, "ENALTY&#160;"), (97, 273, "Q"), (101, 287, "UICK")]
    row = "".join(f'<p style="position:absolute;top:{top}px;left:{left}px;white-space:nowrap"><b>{text}</b></p>\n'
                  for top, left, text in boxes)
    html = ('<html><body><div id="page30-div" style="position:relative;width:918px;height:1188px;">' + row +
            '<p style="position:absolute;top:129px;left:81px;white-space:nowrap">Appendix&#160;B</p>\n'
            '<p style="position:absolute;top:131px;left:160px;white-space:nowrap">TIME LIMITS</p>\n</div></body></html>')
    lines, _, _, problems = html_to_lines(html, "ipg.html")
    texts = [" ".join(line.text.split()) for line in lines if line.text.strip()]
    assert texts == ["APPENDIX A — PENALTY QUICK", "Appendix B TIME LIMITS"]
    assert not problems
