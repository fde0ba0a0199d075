"""Turn the raw bytes of a source file into numbered lines of text.

The only module that touches raw bytes. It decodes whatever encoding the file
comes in, splits on every kind of line end, and hands HTML to `html_reader` and
Markdown to `markdown_reader`.
It never interprets the rules themselves.
"""
from __future__ import annotations

import codecs
import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from .model import ERROR, WARNING, Problem

MAX_BYTES = 10 * 1024 * 1024   # the largest real rule document is ~1 MB
LINE_END = re.compile(r"\r\n|\r|\n")
HTML_START = re.compile(rb"<!doctype\s+html|<html[\s>]|<body[\s>]|<h[1-6][\s>]|<p[\s>]|<div[\s>]|<table[\s>]", re.I)


class SourceError(Exception):
    """A file that cannot be read as a rule document at all (the build stops for it)."""

    def __init__(self, problem: Problem):
        super().__init__(str(problem))
        self.problem = problem


@dataclass(frozen=True)
class Line:
    """One line of a source. `hint` says what HTML markup made it ("h2", "li", "tr"), "" for text."""
    number: int
    text: str
    hint: str = ""


@dataclass(frozen=True)
class Link:
    """A hyperlink in an HTML source: where it is, what it says, where it goes."""
    line: int
    text: str
    href: str


@dataclass(frozen=True)
class SourceText:
    name: str                       # file name as shown in messages
    lines: tuple[Line, ...]
    encoding: str
    format: str                     # "text", "html" or "markdown"
    sha256: str
    problems: tuple[Problem, ...] = ()
    anchors: tuple[tuple[str, int], ...] = ()   # HTML id/name -> line
    links: tuple[Link, ...] = ()

    def text_lines(self) -> list[str]:
        return [line.text for line in self.lines]


@dataclass
class _Decoded:
    text: str
    encoding: str
    problems: list = field(default_factory=list)


def read_source(path: Path | str, display_name: Optional[str] = None) -> SourceText:
    path = Path(path)
    name = display_name or path.name
    try:
        data = path.read_bytes()
    except OSError as error:
        raise SourceError(Problem(ERROR, name, None, f"cannot read the file: {error.strerror}"))
    return read_bytes(data, name)


def read_bytes(data: bytes, name: str) -> SourceText:
    _refuse_non_documents(data, name)
    decoded = decode(data, name)
    digest = hashlib.sha256(data).hexdigest()
    if _looks_like_html(decoded.text):
        from .html_reader import html_to_lines   # only the HTML reader imports BeautifulSoup
        lines, anchors, links, removed = html_to_lines(decoded.text)
        fmt = "html"
        for tag in removed:
            decoded.problems.append(Problem(WARNING, name, _first_line_of(decoded.text, f"<{tag}"),
                                            f"removed <{tag}> content: active content is never "
                                            f"taken from a source"))
    else:
        lines, anchors, links = split_lines(decoded.text), (), ()
        fmt = "text"
        from .markdown_reader import looks_like_markdown, markdown_to_lines
        if looks_like_markdown([line.text for line in lines]):
            lines, anchors, links = markdown_to_lines(lines)
            fmt = "markdown"
    if not any(line.text.strip() for line in lines):
        raise SourceError(Problem(ERROR, name, 1, "the file has no text in it"))
    return SourceText(name, tuple(lines), decoded.encoding, fmt, digest,
                      tuple(decoded.problems), tuple(anchors), tuple(links))


def _first_line_of(text: str, needle: str) -> int:
    at = text.lower().find(needle)
    return len(LINE_END.findall(text[:at])) + 1 if at >= 0 else 1


def _refuse_non_documents(data: bytes, name: str) -> None:
    if not data.strip():
        raise SourceError(Problem(ERROR, name, 1, "the file is empty"))
    if len(data) > MAX_BYTES:
        raise SourceError(Problem(ERROR, name, None,
                                  f"the file is {len(data) / 1e6:.1f} MB; a rule document is at most "
                                  f"{MAX_BYTES // (1024 * 1024)} MB, so this is not one"))
    if data.lstrip()[:5] == b"%PDF-":
        raise SourceError(Problem(ERROR, name, 1,
                                  "this is a PDF file; convert it to text first (for example `pdftotext -layout`)"))
    head = data[:4096]
    if b"\x00" in head and not _utf16_bom(data) and not _looks_utf16(head):
        raise SourceError(Problem(ERROR, name, 1, "this is a binary file, not a text or HTML rule document"))


def _utf16_bom(data: bytes) -> Optional[str]:
    if data.startswith(codecs.BOM_UTF32_LE) and len(data) % 4 == 0 and data[2:4] == b"\x00\x00":
        return "utf-32"
    if data.startswith(codecs.BOM_UTF32_BE):
        return "utf-32"
    if data.startswith(codecs.BOM_UTF16_LE) or data.startswith(codecs.BOM_UTF16_BE):
        return "utf-16"
    return None


def _looks_utf16(head: bytes) -> Optional[str]:
    """UTF-16 without a BOM: every other byte of ASCII text is NUL."""
    if len(head) < 8:
        return None
    even_nuls = head[0::2].count(0) / max(1, len(head[0::2]))
    odd_nuls = head[1::2].count(0) / max(1, len(head[1::2]))
    if odd_nuls > 0.4 and even_nuls < 0.05:
        return "utf-16-le"
    if even_nuls > 0.4 and odd_nuls < 0.05:
        return "utf-16-be"
    return None


def decode(data: bytes, name: str = "") -> _Decoded:
    """Decode bytes of any encoding seen in the wild, reporting what was guessed."""
    bom_encoding = _utf16_bom(data)
    if bom_encoding:
        try:
            return _Decoded(data.decode(bom_encoding).lstrip("\ufeff"), bom_encoding)
        except UnicodeDecodeError as error:
            line = data[:error.start].count(b"\n" if bom_encoding != "utf-16" else b"\n\x00") + 1
            raise SourceError(Problem(ERROR, name, line, f"the file starts with a {bom_encoding} mark "
                                                          f"but is not valid {bom_encoding}"))
    no_bom = _looks_utf16(data[:4096])
    if no_bom:
        return _Decoded(data.decode(no_bom, errors="replace"), no_bom)
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8):]
        label = "utf-8-sig"
    else:
        label = "utf-8"
    try:
        return _Decoded(data.decode("utf-8"), label)
    except UnicodeDecodeError:
        pass
    if _has_utf8_multibyte(data):
        # Mostly UTF-8 with a stray byte from a legacy code page (old CR files have one in a card name).
        problems = []
        text = _decode_utf8_with_strays(data, name, problems)
        return _Decoded(text, label + "+stray-bytes", problems)
    return _Decoded(_decode_cp1252(data), "windows-1252")


_UTF8_MULTIBYTE = re.compile(rb"[\xc2-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}|[\xf0-\xf4][\x80-\xbf]{3}")


def _has_utf8_multibyte(data: bytes) -> bool:
    return len(_UTF8_MULTIBYTE.findall(data[:200000])) >= 3


def _decode_cp1252(data: bytes) -> str:
    # The five bytes cp1252 leaves undefined map to the same code points as in Latin-1.
    return data.decode("cp1252", errors="latin1_fallback")


def _latin1_fallback(error: UnicodeDecodeError):
    bad = error.object[error.start:error.end]
    return bad.decode("latin-1"), error.end


codecs.register_error("latin1_fallback", _latin1_fallback)


def _cp1252_chunk(chunk: bytes) -> str:
    return chunk.decode("cp1252", errors="latin1_fallback")


def _decode_utf8_with_strays(data: bytes, name: str, problems: list) -> str:
    pieces = []
    position = 0
    while True:
        try:
            pieces.append(data[position:].decode("utf-8"))
            break
        except UnicodeDecodeError as error:
            end = position + error.start
            pieces.append(data[position:end].decode("utf-8"))
            bad = data[end:end + 1]
            pieces.append(_cp1252_chunk(bad))
            line = data[:end].count(b"\n") or data[:end].count(b"\r")
            problems.append(Problem(WARNING, name, line + 1,
                                    f"byte 0x{bad[0]:02x} is not UTF-8; read it as Windows-1252 "
                                    f"{_cp1252_chunk(bad)!r}"))
            position = end + 1
    return "".join(pieces)


def _looks_like_html(text: str) -> bool:
    head = text[:4096].encode("utf-8", "ignore")
    return bool(HTML_START.search(head)) and text.count("<") > 20 and _tag_density(text) > 0.002


def _tag_density(text: str) -> float:
    sample = text[:200000]
    return len(re.findall(r"</?(?:p|div|h[1-6]|br|li|td|tr|a|span|table|ul|em|strong)\b", sample, re.I)) / max(1, len(sample))


def split_lines(text: str) -> list[Line]:
    """Split on CRLF, bare CR and LF alike; drop form feeds (page breaks) and trailing spaces."""
    lines = []
    for number, raw in enumerate(LINE_END.split(text), start=1):
        lines.append(Line(number, raw.replace("\f", "").rstrip()))
    while lines and not lines[-1].text:
        lines.pop()
    return lines
