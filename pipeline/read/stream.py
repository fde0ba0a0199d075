"""The typed stream a parser reads: every line of a source as what its format says it is.

pandoc's readers all produce one document tree that its writers consume. Here every reader's lines
(plain text, PDF, HTML, Markdown, Word, RTF) become one stream of

- `Heading` with its level (an HTML or Markdown heading, a Word heading style, a larger PDF or CSS font),
- `Paragraph`, a line of running text (set in bold, or standing alone between a converter's spacers),
- `ListItem` with its marker (a list element, a PDF bullet, a Markdown "-"),
- `TableRow` with its cells,
- `ContentsLine`, an entry of a contents list drawn with dot leaders ("1.1 Tournament Types ..... 5"), or a
  line between two such (an entry that lost its leader, the start of a title wrapped onto two lines),
- `PageNumber`, a line holding only a page number,
- `Blank`, a paragraph break,

each with its source line and page. What is about the format is settled here, once: heading marks
(Markdown's "#" in any text), list and table markup, pdftotext's split lines, a PDF's headings wrapped
onto two lines, dot-leader contents lines, page-number lines and the runs that prove them furniture,
soft hyphens, surrounding whitespace. (The PDF reader has already put its boxes back in place and
dropped running headers; the HTML reader marks converters' spacers.) What a line means in a kind of
document (a rule, an infraction, a contents entry named by its number) is the parsers' to decide.
Nothing here knows rules.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Optional, Sequence

from ..model import without_cycle_collection
from .lines import ALONE, Line
from .pdftotext import LONGEST_SPLIT_OFF, is_split_off, rejoin_split_lines
from .shapes import (
    DOT_LEADER,
    PAGE_NUMBER,
    PAGE_NUMBER_MAX,
    glue,
    looks_like_title,
    page_number_runs,
    strip_dot_leader,
)

SOFT_HYPHEN = "\u00ad"
MARKDOWN_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)(?:\s+#+)?\s*$")
HEADING_HINTS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
BOLD = "bold"
LOOKS = {"b": BOLD, ALONE: ALONE}
PAGE_AFTER_TITLE = re.compile(r"\s+\d{1,3}$")     # a contents entry without its leader: "Byes 49"
ENTRY_MAX = 100
ENTRY_MAX_WORDS = 14
# The marker a reader writes before a list element's text: a bullet ("• ", as the PDF and Markdown readers
# draw every one) or an ordered list's number ("3. ", "b. ", as the HTML reader writes them).
ITEM_MARKER = re.compile(r"([•◦▪‣●■□·○∙])\s+|(\d{1,3}|[A-Za-z])\.\s+")


@dataclass(slots=True)
class Element:
    """One line of a source. `text` is the line as written, without surrounding whitespace (what a parser
    reading every line as text reads); `line` its number in the source; `page` its PDF page (or None);
    `indent` the whitespace the line started with (hard-wrapped text indents a paragraph's first line, a
    tab may stand for a lost bullet)."""
    text: str
    line: int
    page: Optional[int]
    indent: str = ""


@dataclass(slots=True)
class Blank(Element):
    """An empty line: a paragraph ends here."""


@dataclass(slots=True)
class Paragraph(Element):
    """A line of running text. `look` is "bold" for a line wholly in bold, "alone" for a short line a
    converter set apart between empty spacers, "" otherwise."""
    look: str = ""


@dataclass(slots=True)
class Heading(Element):
    """A line the source marks as a heading, `level` 1 (largest) to 6."""
    level: int = 1


@dataclass(slots=True)
class ListItem(Element):
    """An element of a list: `marker` as the reader drew it ("•", "3.", "" for none), `body` the text after it."""
    marker: str = ""
    body: str = ""


@dataclass(slots=True)
class TableRow(Element):
    """A row of a table; `text` is its cells joined by tabs."""
    cells: tuple[str, ...] = ()


@dataclass(slots=True)
class ContentsLine(Element):
    """A contents entry drawn with dot leaders and a page number; `entry` is what it names ("1.1 Tournament
    Types"), without the leader and the page ("" for the first line of an entry wrapped onto the next)."""
    entry: str = ""


@dataclass(slots=True)
class PageNumber(Element):
    """A line holding only a page number. `in_run` when it is one of an increasing run of such lines: then
    it is page furniture for certain (a number alone on a line can also be a table's cell)."""
    in_run: bool = False


def build_stream(lines: Sequence[Line]) -> list[Element]:
    """The typed stream of a source's lines (see the module's docstring)."""
    read = _typed(lines, rejoined=False)
    if read is None:    # pdftotext split a heading's number or a bullet off its line (rare): those rejoined first
        read = _typed(rejoin_split_lines(lines), rejoined=True)
    stream, page_numbers, contents = read
    for position in page_number_runs(page_numbers):
        stream[position].in_run = True
    _between_contents_lines(stream, contents)
    return stream


def _typed(lines: Sequence[Line], rejoined: bool):
    """(the stream, the positions and texts of its page numbers, the positions of its contents lines); None
    when a line is a bullet or a heading's number pdftotext split off (unless the lines were `rejoined`)."""
    stream: list[Element] = []
    page_numbers: list[tuple[int, str]] = []
    contents: list[int] = []
    append = stream.append
    for line in lines:
        raw = line.text
        if not raw:         # (nearly half the lines of a plain text)
            append(Blank("", line.number, line.page))
            continue
        if SOFT_HYPHEN in raw:
            raw = raw.replace(SOFT_HYPHEN, "")      # where a word may break: invisible, never part of the word
        text = raw.strip()
        number, page = line.number, line.page
        if not text:
            append(Blank("", number, page))
            continue
        hint = line.hint
        if len(text) <= LONGEST_SPLIT_OFF and not hint and not rejoined and is_split_off(text):
            return None
        indent = raw[:len(raw) - len(raw.lstrip())] if raw[0].isspace() else ""
        level = HEADING_HINTS.get(hint, 0) if hint else 0
        if text[0] == "#" and (level or hint not in ("li", "tr")):
            marked = MARKDOWN_HEADING.match(text)
            if marked and marked.group(2):
                text = marked.group(2)
                level = level or len(marked.group(1))
        if text[-1].isdigit() and DOT_LEADER.search(text):
            contents.append(len(stream))
            append(ContentsLine(text, number, page, indent, strip_dot_leader(text)))
        elif level:
            append(Heading(text, number, page, indent, level))
        elif len(text) <= PAGE_NUMBER_MAX and (text[0].isdigit() or text[0] in "Pp") and PAGE_NUMBER.match(text):
            page_numbers.append((len(stream), text))
            append(PageNumber(text, number, page, indent))
        elif hint == "li":
            marker = ITEM_MARKER.match(text)
            if marker and marker.end() < len(text):
                append(ListItem(text, number, page, indent, marker.group(1) or marker.group(0).rstrip(),
                                text[marker.end():]))
            else:
                append(ListItem(text, number, page, indent, "", text))
        elif hint == "tr":
            append(TableRow(text, number, page, indent,
                            tuple(cell.strip() for cell in text.split("\t") if cell.strip())))
        else:
            append(Paragraph(text, number, page, indent, LOOKS.get(hint, "") if hint else ""))
    return stream, page_numbers, contents


def _between_contents_lines(stream: list[Element], contents: list[int]) -> None:
    """A line between two dot-leader contents lines is part of the contents list: an entry drawn without its
    leader ("Byes 49"), or the start of a title too long for one line, which the next entry finishes."""
    for before in contents:
        at = _next_kept(stream, before)
        after = _next_kept(stream, at)
        if after >= len(stream) or not isinstance(stream[after], ContentsLine):
            continue
        element = stream[at]
        if not element.text or isinstance(element, ContentsLine):
            continue
        page = PAGE_AFTER_TITLE.search(element.text)
        title = element.text[:page.start()] if page else ""
        if page and looks_like_title(title, ENTRY_MAX, max_words=ENTRY_MAX_WORDS):
            entry = title
        else:
            entry = ""
            stream[after].entry = f"{element.text} {stream[after].entry}".strip()
        stream[at] = ContentsLine(element.text, element.line, element.page, element.indent, entry)


def _next_kept(stream: list[Element], position: int) -> int:
    """The position of the next element after `position` that is not page furniture (len(stream) if none)."""
    position += 1
    while position < len(stream) and isinstance(stream[position], PageNumber) and stream[position].in_run:
        position += 1
    return position


@without_cycle_collection        # (an element a line, and no cycles)
def typed_stream(lines: Sequence[Line], format: str) -> tuple[Element, ...]:
    """The typed stream of a source's lines, in its `format` ("pdf", "text", ...)."""
    stream = build_stream(lines)
    return tuple(_wrapped_headings(stream) if format == "pdf" else stream)


def _wrapped_headings(stream: list[Element]) -> list[Element]:
    """A heading a PDF wraps onto two lines comes as two lines marked alike: one heading again."""
    out: list[Element] = []
    for element in stream:
        before = out[-1] if out else None
        if before is not None and _same_mark(before, element) and not before.text.endswith((".", ":")):
            out[-1] = replace(before, text=before.text + glue(before.text, element.text) + element.text)
            continue
        out.append(element)
    return out


def _same_mark(before: Element, element: Element) -> bool:
    """Two headings of one level, or two bold lines."""
    if isinstance(element, Heading):
        return isinstance(before, Heading) and before.level == element.level
    return (isinstance(element, Paragraph) and element.look == BOLD and isinstance(before, Paragraph)
            and before.look == BOLD)
