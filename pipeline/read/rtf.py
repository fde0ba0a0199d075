"""Read an RTF file (the CR was published so in 2009-2011) into numbered lines, as its TXT has them.

    lines, encoding, problems = read_rtf(data, "cr-2009-10-01.rtf")

The library is striprtf (0.0.35): pure Python, no dependencies, maintained, widely used, and
fast enough (0.2 s for the 1.6 MB CR of 2011). The alternatives were worse: rtfparse renders
only encapsulated HTML (a text renderer would have to be written for it), RTFDE reads only the
RTF bodies of Outlook messages, and pandoc (pypandoc-binary) brings a whole program as a binary
of tens of megabytes.

striprtf gets three things wrong that matter here; they are put right around it, without
touching its internals:
- It reads the \\'xx bytes of a font with \\fcharset0 (every font of these files) as
  Windows-1252, whatever the file's \\ansicpg says, and does not know \\ansicpg10000 (Mac Roman,
  the 2009 CR's code page) at all. Word writes those bytes in the file's code page (the 2009 CR
  has \\u8220\\'d2: “ and its Mac Roman fallback). So the code page is read here from the header
  (\\ansicpgN, else \\mac, \\pc, \\pca, \\ansi) and handed to striprtf as its default, the
  \\ansicpgN words are renamed to one it ignores, and \\fcharset0 becomes \\fcharset1 ("the
  default charset"). A byte the code page has no character for becomes U+FFFD, reported.
- It appends a hyperlink field's address to its text ('click("http://...")') when the field is
  written "\\fldinst{": a space after \\fldinst (the same RTF) keeps its pattern from matching.
- A \\uN character beyond U+FFFF comes out as two lone surrogates: they are paired again.

\\par and \\line each end a line (\\sect and \\page leave a blank one), \\tab is a tab. A table row
is one line of tab-separated cells (hint "tr"), as the other readers give it; a bullet and a tab start a list
item (hint "li"). Then, as for a TXT, control characters are removed (and reported) and the
text is split into lines: line N is the Nth line of the text, in these files the Nth paragraph.
striprtf is imported only here.
"""
from __future__ import annotations

import codecs
import re

from striprtf.striprtf import rtf_to_text as strip_rtf

from ..model import ERROR, INFO, WARNING, Problem
from .decode import remove_controls, split_lines
from .source import Line, SourceError

__all__ = ["read_rtf"]

HEADER = re.compile(rb"\\(ansicpg)(-?\d+)|\\(mac|pca|pc|ansi)(?![a-z])")
# A control word, not an escaped backslash followed by the same letters in the text.
ANSICPG = re.compile(r"(?<!\\)\\ansicpg(?=-?\d)")
FCHARSET_ANSI = re.compile(r"(?<!\\)\\fcharset0(?!\d)")
FLDINST = re.compile(r"(?<!\\)\\fldinst\{")
# A table: each cell ends with \cell (its last paragraph's \par just before it, as pandoc writes it), each row
# with \row. The cell's end is marked with a character no document holds, so that a row reads as one line.
PAR_ENDING_CELL = re.compile(r"(?<!\\)\\par(?![a-z])\s?((?:\}\s*)*)(?=\\(?:nest)?cell(?![a-z]))")
CELL_END = re.compile(r"(?<!\\)\\(?:nest)?cell(?![a-z]) ?")
CELL_MARK = "\U000F0001"
# A list item: Word and pandoc write its bullet, then a tab ("\\bullet\\tab", "{\\listtext \\'b7\\tab}").
LIST_ITEM = re.compile(r"[•·▪◦‣○■□●∙]\t\s*(?=\S)")
CHARSETS = {b"mac": "mac_roman", b"pc": "cp437", b"pca": "cp850", b"ansi": "cp1252"}
# Windows code page numbers Python names otherwise (the Mac ones; cpN covers the rest).
CODE_PAGES = {10000: "mac_roman", 10006: "mac_greek", 10007: "mac_cyrillic", 10029: "mac_latin2",
              10079: "mac_iceland", 10081: "mac_turkish", 20127: "ascii", 28591: "latin-1", 65001: "utf-8"}


def read_rtf(data: bytes, name: str) -> tuple[list[Line], str, list[Problem]]:
    """The document's lines, its code page, and what was guessed or removed."""
    problems: list[Problem] = []
    encoding = _code_page(data, name, problems)
    rtf = data.removeprefix(codecs.BOM_UTF8).decode(encoding, errors="replace").lstrip()
    # \ansicpgN becomes a control word every reader ignores (so the space ending it keeps ending it)
    rtf = FLDINST.sub(r"\\fldinst {", FCHARSET_ANSI.sub(r"\\fcharset1", ANSICPG.sub(r"\\rulekbansicpg", rtf)))
    if "\\cell" in rtf:
        rtf = CELL_END.sub(CELL_MARK, PAR_ENDING_CELL.sub(r"\1", rtf))
    try:
        text = strip_rtf(rtf, encoding=encoding, errors="replace")
    except Exception as error:  # striprtf is a one-pass scanner: a malformed file can trip it anywhere
        raise SourceError(Problem(ERROR, name, None, f"cannot read the RTF: {error}")) from None
    text = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    replaced = text.count("\ufffd")
    if replaced:
        problems.append(Problem(WARNING, name, None, f"{replaced} characters are not valid in the file's code "
                                                     f"page {encoding}: read as U+FFFD"))
    text, removed = remove_controls(text, name)
    return [_as_read(line) for line in split_lines(text)], encoding, problems + removed


def _as_read(line: Line) -> Line:
    if CELL_MARK in line.text:
        return _table_row(line)
    item = LIST_ITEM.match(line.text)
    return Line(line.number, "• " + line.text[item.end():], "li", line.page) if item else line


def _table_row(line: Line) -> Line:
    """A table row's cells, tab-separated, as the other readers give a row (a row of empty cells is blank)."""
    cells = [cell.strip() for cell in line.text.split(CELL_MARK)]
    return Line(line.number, "\t".join(cell for cell in cells if cell), "tr" if any(cells) else "", line.page)


def _code_page(data: bytes, name: str, problems: list[Problem]) -> str:
    """The code page the header names (\\ansicpgN wins over \\ansi, \\mac, \\pc, \\pca); Windows-1252 if none."""
    named = None
    for match in HEADER.finditer(data[:1024]):
        if match.group(1):
            number = int(match.group(2))
            candidate = CODE_PAGES.get(number, f"cp{number}")
            try:
                codecs.lookup(candidate)
                return candidate
            except LookupError:
                problems.append(Problem(INFO, name, 1, f"unknown code page \\ansicpg{number}: read as Windows-1252"))
                return "cp1252"
        named = named or CHARSETS[match.group(3)]
    return named or "cp1252"
