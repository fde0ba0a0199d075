"""Turn an HTML rule document into lines of plain text, as if it were a text file.

The only module that imports BeautifulSoup. Block elements become lines (with a
hint saying which element made them), table rows become tab-separated cells,
scripts and other active content are removed (and reported), anchors and links
are kept aside so the link stage can resolve them. Nothing here knows rules.
"""
from __future__ import annotations

import bisect
import html
import re

from bs4 import BeautifulSoup, Comment, Doctype, NavigableString, ProcessingInstruction, Tag

from .reader import Line, Link

BLOCK_TAGS = {
    "p", "div", "header", "footer", "section", "article", "aside", "nav", "main", "blockquote",
    "ul", "ol", "dl", "dt", "dd", "table", "thead", "tbody", "tfoot", "caption", "center",
    "form", "fieldset", "figure", "figcaption", "address", "body", "html", "title", "hr", "pre",
}
HEADING_TAGS = {"h1", "h2", "h3", "h4", "h5", "h6"}
ACTIVE_TAGS = {"script", "iframe", "object", "embed", "applet", "frame", "frameset"}
SILENT_TAGS = {"style", "noscript", "template", "head", "meta", "link", "img", "svg", "canvas", "input", "button", "select"}
SPACES = re.compile(r"[ \t\r\n\f\v\u00a0]+")
TEXT_RUN = re.compile(r">([^<]+)<")


class _Walker:
    def __init__(self):
        self.blocks: list[tuple[str, str]] = []     # (text, hint)
        self.buffer: list[str] = []
        self.anchors: list[tuple[str, int]] = []    # (name, index of the next block)
        self.links: list[tuple[int, str, str]] = []  # (block index, text, href)
        self.removed: list[str] = []

    def flush(self, hint: str) -> None:
        text = SPACES.sub(" ", "".join(self.buffer)).strip()
        self.buffer = []
        if text:
            self.blocks.append((text, hint))

    def walk(self, node, hint: str = "") -> None:
        for child in list(node.children):
            if isinstance(child, (Comment, Doctype, ProcessingInstruction)):
                continue
            if isinstance(child, NavigableString):
                self.buffer.append(str(child))
                continue
            if not isinstance(child, Tag):
                continue
            self.visit(child, hint)

    def visit(self, tag: Tag, hint: str) -> None:
        name = tag.name.lower()
        anchor = tag.get("id") or (tag.get("name") if name == "a" else None)
        if anchor:
            self.anchors.append((str(anchor), len(self.blocks) + (1 if self.buffer_has_text() else 0)))
        if name in ACTIVE_TAGS:
            self.removed.append(name)
            return
        if name in SILENT_TAGS:
            return
        if name == "br":
            self.flush(hint)
            return
        if name == "a" and tag.get("href"):
            self.links.append((len(self.blocks), SPACES.sub(" ", tag.get_text(" ")).strip(), str(tag["href"])))
        if name in HEADING_TAGS:
            self.flush(hint)
            self.walk(tag, name)
            self.flush(name)
            return
        if name == "tr":
            self.flush(hint)
            cells = [SPACES.sub(" ", cell.get_text(" ")).strip()
                     for cell in tag.find_all(["td", "th"], recursive=False)]
            for cell in tag.find_all(["td", "th"], recursive=False):
                for link in cell.find_all("a", href=True):
                    self.links.append((len(self.blocks), SPACES.sub(" ", link.get_text(" ")).strip(), str(link["href"])))
            cells = [cell for cell in cells if cell]
            if cells:
                self.blocks.append(("\t".join(cells), "tr"))
            return
        if name == "li":
            self.flush(hint)
            number = _ordered_number(tag)
            if number:
                self.buffer.append(f"{number}. ")   # an <ol> item: its number is part of what a reader sees
            self.walk(tag, "li")
            self.flush("li")
            return
        if name in BLOCK_TAGS:
            self.flush(hint)
            self.walk(tag, hint)
            self.flush(hint)
            return
        self.walk(tag, hint)   # inline element: its text joins the current line

    def buffer_has_text(self) -> bool:
        return bool("".join(self.buffer).strip())


def _ordered_number(item: Tag) -> str:
    """"3" for the third <li> of an <ol> (honouring start= and type=), "" for an unordered list."""
    parent = item.parent
    if parent is None or parent.name != "ol":
        return ""
    position = sum(1 for sibling in item.find_previous_siblings("li"))
    try:
        start = int(parent.get("start", 1))
    except ValueError:
        start = 1
    value = start + position
    kind = parent.get("type", "1")
    if kind in ("a", "A") and 1 <= value <= 26:
        letter = chr(ord("a") + value - 1)
        return letter.upper() if kind == "A" else letter
    return str(value)


def html_to_lines(text: str):
    """Return (lines, anchors, links) for an HTML document."""
    soup = BeautifulSoup(text, "lxml")
    walker = _Walker()
    walker.walk(soup)
    walker.flush("")
    line_of = _LineFinder(text)
    numbers = [line_of(block_text) for block_text, _ in walker.blocks]
    lines = [Line(number, block_text, hint) for number, (block_text, hint) in zip(numbers, walker.blocks)]
    last = numbers[-1] if numbers else 1

    def line_at(index: int) -> int:
        return numbers[index] if index < len(numbers) else last

    anchors = [(name, line_at(index)) for name, index in walker.anchors]
    links = [Link(line_at(index), link_text, href) for index, link_text, href in walker.links]
    removed = sorted(set(walker.removed))   # the reader reports them as problems
    return tuple(lines), tuple(anchors), tuple(links), removed


class _LineFinder:
    """Finds the source line of a block's text, scanning forward through the raw HTML."""

    def __init__(self, raw: str):
        self.newlines = [match.start() for match in re.finditer("\n", raw)]
        self.runs = []
        for match in TEXT_RUN.finditer(raw):
            words = SPACES.sub(" ", html.unescape(match.group(1))).strip()
            if words:
                self.runs.append((bisect.bisect_left(self.newlines, match.start(1)) + 1, words))
        self.position = 0
        self.last_line = 1

    def __call__(self, text: str) -> int:
        probe = text[:12]
        for index in range(self.position, min(len(self.runs), self.position + 400)):
            line, words = self.runs[index]
            if probe in words or words[:12] in text:
                self.position = index + 1
                self.last_line = line
                return line
        return self.last_line
