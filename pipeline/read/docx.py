"""Read a Word document (.docx) into numbered lines, as the document's plain-text export has them.

    lines, problems = read_docx(data, "cr-2026-01-16.docx")

One line per paragraph of the body, in order, with the text Word shows: its runs, hyperlinks,
field results and tracked insertions (tracked deletions are gone). An empty paragraph is an
empty line: that is where the TXT export has its blank lines, which the CR parser needs
between glossary entries. A line break inside a paragraph (w:br of any type, w:cr) starts
another line, as in the TXT (a glossary entry's senses "1. ..." / "2. ..." are one paragraph
with line breaks), so no two words are ever glued. A tab stays a tab. A table row is one line,
hint "tr", its cells tab-separated (a cell's own paragraphs joined by spaces). The paragraph
styles "Title" and "Heading N" give the hints "h1" and "hN" (the MTR and IPG parsers use
them); nothing else gives a hint.

Line numbers are paragraph ordinals: line N is the body's Nth paragraph (1-based; a table row
counts as one paragraph; the lines a paragraph's line breaks make share its number), so a
problem "at line N" of a DOCX means "paragraph N".

What is not in the text: numbers that Word's automatic list numbering draws (a warning says how
many paragraphs have them), headers, footers, footnotes, comments and text boxes.

A file that is not a zip archive, a damaged or truncated one, a zip without word/document.xml
or whose XML does not parse gives a SourceError saying which. python-docx is imported only here.
"""
from __future__ import annotations

import io
import re
import zipfile

import docx

from ..model import ERROR, INFO, WARNING, Problem
from .decode import MAX_BYTES
from .source import Line, SourceError

__all__ = ["read_docx"]

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
MAIN_PART = re.compile(r"word/document\d*\.xml")   # some Word versions save word/document2.xml
MAX_XML_BYTES = 40 * 1024 * 1024      # the 2026 CR's document.xml is 4.4 MB
# Elements inside a paragraph whose runs are shown text: links, fields, tracked insertions,
# content controls, smart tags. Everything else (w:del, w:moveFrom, properties) is not.
INLINE = {W + name for name in ("hyperlink", "fldSimple", "ins", "moveTo", "smartTag", "customXml",
                                "sdt", "sdtContent", "bdo", "dir")}
BREAKS = {W + "br", W + "cr"}
TABS = {W + "tab", W + "ptab"}
BLOCK_WRAPPERS = {W + "sdt", W + "sdtContent", W + "customXml"}   # body-level content controls


def read_docx(data: bytes, name: str) -> tuple[list[Line], list[Problem]]:
    document = _open(data, name)
    headings = _heading_styles(document)
    lines: list[Line] = []
    number = 0
    for block in _blocks(document.element.body):
        if block.tag == W + "tbl":
            for row in block.iterchildren(W + "tr"):
                number += 1
                lines.append(Line(number, _row_text(row), "tr"))
            continue
        number += 1
        hint = headings.get(block.style or "", "")   # python-docx's CT_P.style: the paragraph's style id
        for part in _paragraph_text(block).split("\n"):
            lines.append(Line(number, part.rstrip(), hint))
    while lines and not lines[-1].text:
        lines.pop()
    return lines, _notes(document.element.body, name)


def _open(data: bytes, name: str):
    def refuse(message: str) -> SourceError:
        return SourceError(Problem(ERROR, name, None, message))
    if len(data) > MAX_BYTES:
        raise refuse(f"the file is {len(data) / 1e6:.1f} MB; a Word rule document is at most "
                     f"{MAX_BYTES // (1024 * 1024)} MB, so this is not one")
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = {info.filename: info for info in archive.infolist()}
    except Exception:  # zipfile raises several kinds on a damaged archive (BadZipFile, EOFError, ...)
        raise refuse("this zip archive (a .docx is one) is damaged or truncated: it cannot be opened") from None
    main = next((member for member in members if MAIN_PART.fullmatch(member)), None)
    if main is None:
        raise refuse("this is a zip archive but not a Word document: it has no word/document.xml")
    if members[main].file_size > MAX_XML_BYTES:
        raise refuse(f"{main} unpacks to {members[main].file_size / 1e6:.0f} MB: not a rule document")
    try:
        document = docx.Document(io.BytesIO(data))
    except ValueError as error:   # python-docx: "... is not a Word file, content type is '...'"
        raise refuse(f"this zip archive is not a Word .docx document: {str(error).partition(', ')[2] or error}") \
            from None
    except Exception as error:  # python-docx and lxml raise many kinds on a damaged package
        raise refuse(f"the Word document is damaged: {error}") from None
    return document


def _heading_styles(document) -> dict[str, str]:
    """Style id -> hint, for the paragraph styles "Title" and "Heading 1".."Heading 6"."""
    hints = {}
    for style in document.styles:
        style_name = style.name or ""
        if style_name == "Title":
            hints[style.style_id] = "h1"
        elif style_name.startswith("Heading ") and style_name[8:].isdigit() and 1 <= int(style_name[8:]) <= 6:
            hints[style.style_id] = "h" + style_name[8:]
    return hints


def _blocks(container):
    """Paragraphs and tables in document order, looking inside body-level content controls."""
    for child in container:
        if child.tag == W + "p" or child.tag == W + "tbl":
            yield child
        elif child.tag in BLOCK_WRAPPERS:
            yield from _blocks(child)


def _paragraph_text(paragraph) -> str:
    out: list[str] = []
    _inline_text(paragraph, out)
    return "".join(out)


def _inline_text(element, out: list[str]) -> None:
    for child in element:
        tag = child.tag
        if tag == W + "r":
            for item in child:
                kind = item.tag
                if kind == W + "t":
                    out.append(item.text or "")
                elif kind in TABS:
                    out.append("\t")
                elif kind in BREAKS:
                    out.append("\n")
                elif kind == W + "noBreakHyphen":
                    out.append("-")
                elif kind == W + "sym":
                    out.append(_symbol(item.get(W + "char") or ""))
        elif tag in INLINE:
            _inline_text(child, out)


def _symbol(code: str) -> str:
    """A w:sym character (a Symbol or Wingdings glyph, written as hex)."""
    try:
        value = int(code, 16)
        return chr(value) if value >= 0x20 else ""
    except (ValueError, OverflowError):
        return ""


def _row_text(row) -> str:
    cells = []
    for cell in row.iterchildren(W + "tc"):
        texts = [" ".join(_paragraph_text(block).split()) if block.tag == W + "p" else
                 " ".join(_row_text(inner).replace("\t", " ") for inner in block.iterchildren(W + "tr"))
                 for block in _blocks(cell)]
        text = " ".join(text for text in texts if text)
        if text:
            cells.append(text)
    return "\t".join(cells)


def _notes(body, name: str) -> list[Problem]:
    problems = []
    numbered = sum(1 for paragraph in body.iter(W + "p") if _is_numbered(paragraph))
    if numbered:
        problems.append(Problem(WARNING, name, None, f"{numbered} paragraphs are numbered by Word's automatic "
                                                     f"list numbering: those numbers are not in the text"))
    if next(body.iter(W + "ins", W + "del"), None) is not None:
        problems.append(Problem(INFO, name, None, "the document has tracked changes: read as if accepted"))
    return problems


def _is_numbered(paragraph) -> bool:
    number_id = paragraph.find(f"{W}pPr/{W}numPr/{W}numId")
    return number_id is not None and number_id.get(W + "val") not in (None, "0")

