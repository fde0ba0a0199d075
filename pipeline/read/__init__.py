"""The read stage: a source file's bytes to numbered lines of text, whatever its format, and those lines
to the typed stream the parsers read.

`read_source(path)` and `read_bytes(data, name)` decide the format (PDF, Word .docx, RTF, HTML,
Markdown, plain text), hand the bytes to its reader and return a SourceText; its `stream` (built by
`stream.typed_stream` when first asked for) is its lines as headings, paragraphs, list items, table rows,
contents lines and page numbers.
Nothing here knows rules; `detect` (kind, title, edition) and `manifest` read what a document says
of itself.
"""
from __future__ import annotations

import codecs
import hashlib
from pathlib import Path
from typing import Optional

from ..model import ERROR, WARNING, Problem
from .decode import (
    LINE_END,
    decode,
    holds_run,
    looks_like_html,
    refuse_non_documents,
    remove_controls,
    split_lines,
)
from .source import Line, Link, SourceError, SourceText
from .wrapping import unwrapped, wrap_width

ZIP_MAGIC = b"PK\x03\x04"    # a .docx is a zip archive
UTF8_LABELS = ("utf-8", "utf-8-sig")

__all__ = ["read_source", "read_bytes", "SourceText", "SourceError", "Line", "Link"]


def read_source(path: Path | str, display_name: Optional[str] = None) -> SourceText:
    path = Path(path)
    name = display_name or path.name
    try:
        data = path.read_bytes()
    except OSError as error:
        raise SourceError(Problem(ERROR, name, None, f"cannot read the file: {error.strerror}")) from None
    return read_bytes(data, name)


def read_bytes(data: bytes, name: str) -> SourceText:
    digest = hashlib.sha256(data).hexdigest()
    if data.lstrip()[:5] == b"%PDF-":
        from .pdf import read_pdf  # only the PDF reader imports the PDF library
        lines, problems = read_pdf(data, name)
        return _finished(SourceText(name, tuple(lines), "pdf", "pdf", digest, tuple(problems)))
    if data[:4] == ZIP_MAGIC:
        from .docx import read_docx  # only the DOCX reader imports python-docx; it refuses other zips
        lines, problems = read_docx(data, name)
        return _finished(SourceText(name, tuple(lines), "docx", "docx", digest, tuple(problems)))
    refuse_non_documents(data, name)
    if _looks_like_rtf(data):
        from .rtf import read_rtf  # only the RTF reader imports striprtf
        lines, encoding, problems = read_rtf(data, name)
        return _finished(SourceText(name, tuple(lines), encoding, "rtf", digest, tuple(problems)))
    decoded = decode(data, name)
    # (a file decoded as UTF-8 is its text's UTF-8 bytes: its controls are looked for there, as they are)
    text, control_problems = remove_controls(decoded.text, name, data if decoded.encoding in UTF8_LABELS else None)
    problems = decoded.problems + control_problems
    if looks_like_html(text):
        from .html import html_to_lines  # only the HTML reader imports BeautifulSoup
        lines, anchors, links, removed = html_to_lines(text, name)
        problems.extend(removed)
        return _finished(SourceText(name, tuple(lines), decoded.encoding, "html", digest, tuple(problems),
                                    tuple(anchors), tuple(links)))
    lines = split_lines(text)
    from .markdown import looks_like_markdown, markdown_to_lines, with_dash_tables, with_list_items, without_raw_html
    # (Markdown's headings and bold and pandoc's dash tables looked for in the whole text first: a plain file
    # holds none of their marks, and no line need be tried)
    if ("#" in text or holds_run(text, "*", 2)) and looks_like_markdown([line.text for line in lines]):
        marked, anchors, links = markdown_to_lines(without_raw_html(text), LINE_END.split(text))
        if any(line.text.strip() for line in marked):       # all markup and no words ("# #"): read as text
            return _finished(SourceText(name, tuple(marked), decoded.encoding, "markdown", digest, tuple(problems),
                                        tuple(anchors), tuple(links)))
    if holds_run(text, "-", 3):
        lines = with_dash_tables(lines, lambda cell, _: cell.strip())   # pandoc's plain text draws tables so
    width = wrap_width(lines)
    if width:                   # pandoc's plain text: a paragraph wrapped onto lines of 72 columns
        lines = unwrapped(with_list_items(lines), width, marked_headings=False)
    return _finished(SourceText(name, tuple(lines), decoded.encoding, "text", digest, tuple(problems)))


def _looks_like_rtf(data: bytes) -> bool:
    return data.removeprefix(codecs.BOM_UTF8).lstrip()[:5] == b"{\\rtf"


def _finished(source: SourceText) -> SourceText:
    if not any(line.text.strip() for line in source.lines):
        if any(problem.severity == ERROR for problem in source.problems):
            raise SourceError(next(problem for problem in source.problems if problem.severity == ERROR))
        raise SourceError(Problem(ERROR, source.name, 1, "the file has no text in it"))
    return source


def warn(problems: list[Problem], name: str, line: Optional[int], message: str) -> None:
    problems.append(Problem(WARNING, name, line, message))
