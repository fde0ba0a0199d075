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
from collections import Counter

from bs4 import BeautifulSoup, Comment, Doctype, NavigableString, ProcessingInstruction, Tag

from ..model import ERROR, WARNING, Problem
from .source import Line, Link

BLOCK_TAGS = {
    "p", "div", "header", "footer", "section", "article", "aside", "nav", "main", "blockquote",
    "ul", "ol", "dl", "dt", "dd", "table", "thead", "tbody", "tfoot", "caption", "center",
    "form", "fieldset", "figure", "figcaption", "address", "body", "html", "title", "hr", "pre",
}
HEADING_TAGS = {"h1", "h2", "h3", "h4", "h5", "h6"}
BOLD_TAGS = {"strong", "b"}
# Code: never text. Its content is dropped and reported.
CODE_TAGS = {"script", "style", "template"}
# Embedding elements: nothing of theirs is taken (no src, no plugin), but what the parser put
# inside them is read on as text: lxml makes "<embed>" swallow everything after it, and an
# <object>'s content is the text shown without the plugin.
EMBEDDING_TAGS = {"iframe", "object", "embed", "applet", "frame", "frameset"}
# Not rule text: the document head, images, form controls. But one of them that holds blocks of the
# document (an unclosed <select> or <svg> takes in all that follows) is read as an ordinary block.
SILENT_TAGS = {"noscript", "head", "meta", "link", "img", "svg", "canvas", "input", "select", "math"}
# Raw text: the parser takes what follows as their text, markup and all, until their end tag. One that
# took in markup of the document (never closed) has that markup read as the document's.
RAW_TEXT_TAGS = {"textarea", "title", "xmp", "noembed", "noframes", "plaintext", "iframe"}
SWALLOWED_MARKUP = re.compile(r"<(?:h[1-6]|p|div|li|tr|table|section|article|br)\b", re.I)
SPACES = re.compile(r"[ \t\r\n\f\v\u00a0]+")
TEXT_RUN = re.compile(r">([^<]+)<")
WORD = re.compile(r"\w+")


class _Walker:
    """Walks the element tree without recursion (any depth), turning blocks into lines of text."""

    def __init__(self):
        self.blocks: list[tuple[str, str]] = []     # (text, hint)
        self.buffer: list[str] = []
        self.bold: list[bool] = []                  # for each piece of the buffer: inside <strong>/<b>?
        self.anchors: list[tuple[str, int]] = []    # (name, index of the next block)
        self.links: list[tuple[int, str, str]] = []  # (block index, text, href)
        self.removed: list[str] = []
        self.swallowed: list[str] = []              # elements that took in the document after them

    def flush(self, hint: str) -> None:
        text = SPACES.sub(" ", "".join(self.buffer)).strip()
        if text and not hint and all(bold for piece, bold in zip(self.buffer, self.bold) if piece.strip()):
            hint = "b"                              # a paragraph all in bold: a heading in some documents
        self.buffer = []
        self.bold = []
        if text:
            self.blocks.append((text, hint))

    def walk(self, root) -> None:
        # A stack of pending work: a node to visit with the hint of its block, or a callable to run
        # when an element's children are done (closing its line).
        stack: list = [(child, "", False) for child in reversed(list(root.children))]
        while stack:
            item = stack.pop()
            if callable(item):
                item()
                continue
            node, hint, bold = item
            if isinstance(node, (Comment, Doctype, ProcessingInstruction)):
                continue
            if isinstance(node, NavigableString):
                self.buffer.append(str(node))
                self.bold.append(bold)
                continue
            if isinstance(node, Tag):
                self.visit(node, hint, bold or node.name.lower() in BOLD_TAGS, stack)

    def visit(self, tag: Tag, hint: str, bold: bool, stack: list) -> None:
        name = tag.name.lower()
        anchor = tag.get("id") or (tag.get("name") if name == "a" else None)
        if anchor:
            self.anchors.append((str(anchor), len(self.blocks) + (1 if self.buffer_has_text() else 0)))
        if name in CODE_TAGS:
            if name == "script" or tag.get_text().strip():
                self.removed.append(name)
            return
        if name in SILENT_TAGS:
            if name == "head" or not tag.find(list(BLOCK_TAGS | HEADING_TAGS | {"li", "tr"})):
                return
            self.swallowed.append(name)
            name = "div"                       # it took in the document after it: read that
        if name in RAW_TEXT_TAGS and any(SWALLOWED_MARKUP.search(str(child)) for child in tag.children
                                         if isinstance(child, NavigableString)):
            self.swallowed.append(name)
            self.flush(hint)
            markup = "".join(str(child) for child in tag.children)
            stack.extend((child, hint, bold) for child in reversed(list(_fragment(markup).children)))
            return
        if name == "br":
            self.flush(hint)
            return
        if name in EMBEDDING_TAGS:
            self.removed.append(name)
            name = "div"                       # its content, if any, is read as an ordinary block
        if name == "a" and tag.get("href"):
            self.links.append((len(self.blocks), SPACES.sub(" ", tag.get_text(" ")).strip(), str(tag["href"])))
        if name == "tr":
            self.table_row(tag, hint)
            return
        children = list(tag.children)
        if name in HEADING_TAGS or name == "li" or name in BLOCK_TAGS:
            inner = name if name in HEADING_TAGS else ("li" if name == "li" else hint)
            self.flush(hint)
            if name == "li":
                number = _ordered_number(tag)
                if number:
                    self.buffer.append(f"{number}. ")   # an <ol> item: its number is part of what a reader sees
                    self.bold.append(bold)
            stack.append(lambda inner=inner: self.flush(inner))
            stack.extend((child, inner, bold) for child in reversed(children))
            return
        stack.extend((child, hint, bold) for child in reversed(children))   # inline: its text joins the line

    def table_row(self, tag: Tag, hint: str) -> None:
        self.flush(hint)
        cells = tag.find_all(["td", "th"], recursive=False)
        for cell in cells:
            for link in cell.find_all("a", href=True):
                self.links.append((len(self.blocks), SPACES.sub(" ", link.get_text(" ")).strip(), str(link["href"])))
        texts = [SPACES.sub(" ", _cell_text(cell)).strip() for cell in cells]
        texts = [text for text in texts if text]
        if texts:
            self.blocks.append(("\t".join(texts), "tr"))
        elif tag.get_text().strip():
            self.blocks.append((SPACES.sub(" ", tag.get_text(" ")).strip(), "tr"))   # text outside any cell

    def buffer_has_text(self) -> bool:
        return bool("".join(self.buffer).strip())


def _fragment(markup: str):
    """Markup read as a piece of a document's body (no html/head/body of its own around it)."""
    soup = BeautifulSoup(f"<body>{markup}</body>", "lxml")
    return soup.body or soup


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


def html_to_lines(text: str, name: str = ""):
    """Return (lines, anchors, links, problems) for an HTML document.

    Every word of the document's text (outside code and the head) must reach a line: a
    loss is an ERROR naming the line of the first lost words, never only a warning.
    """
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

    anchors = [(anchor, line_at(index)) for anchor, index in walker.anchors]
    links = [Link(line_at(index), link_text, href) for index, link_text, href in walker.links]
    problems = [Problem(WARNING, name, _first_line_of(text, f"<{tag}"),
                        f"removed <{tag}>: active content is never taken from a source")
                for tag in sorted(set(walker.removed))]
    problems.extend(Problem(WARNING, name, _first_line_of(text, f"<{tag}"),
                            f"<{tag}> is never closed and took in the rest of the document: read as text")
                    for tag in sorted(set(walker.swallowed)))
    problems.extend(_lost_text(walker.blocks, text, name))
    return tuple(lines), tuple(anchors), tuple(links), problems


def _cell_text(cell: Tag) -> str:
    """A table cell's text read as a line is: inline elements join the words around them, line-ending
    ones (a <br>, a <p> in the cell) separate them."""
    parts = []
    for node in cell.descendants:
        if isinstance(node, Tag):
            if node.name in BREAKING_TAGS:
                parts.append(" ")
        elif type(node) is NavigableString:    # not a comment, nor a script's or a style's text
            parts.append(str(node))
    return "".join(parts)


# What a reader of the raw document sees as text: no comment, no code, no head, no form control, no
# image; then no tag. Only closed elements are taken out: one never closed loses nothing here.
NOT_TEXT = re.compile(r"<!--.*?-->"
                      r"|<(script|style|template|head|title|select|svg|math|noscript|canvas)\b[^>]*>.*?</\1\s*>"
                      r"|<!\[CDATA\[.*?\]\]>", re.S | re.I)
TAG = re.compile(r"</?([A-Za-z][\w:-]*)[^>]*>|<![^>]*>|<\?[^>]*>")
# Tags that end a line where they are; any other is inline, and its text joins the words around it as a
# browser shows it ("four <a>Dispel</a>s" reads "four Dispels").
BREAKING_TAGS = BLOCK_TAGS | HEADING_TAGS | SILENT_TAGS | EMBEDDING_TAGS | {"li", "tr", "td", "th", "br"}


def _tag_as_text(match: re.Match) -> str:
    name = match.group(1)
    return "" if name and name.lower() not in BREAKING_TAGS else " "


def _lost_text(blocks: list[tuple[str, str]], raw: str, name: str) -> list[Problem]:
    """An ERROR if words of the document's text (read from the raw markup, not from the parser's tree, which
    may have dropped them) are missing from its lines."""
    kept = Counter(WORD.findall(" ".join(block for block, _ in blocks)))
    wanted = Counter(WORD.findall(html.unescape(TAG.sub(_tag_as_text, NOT_TEXT.sub(" ", raw)))))
    lost = wanted - kept
    if not lost:
        return []
    example = " ".join(word for word, _ in lost.most_common(5))
    return [Problem(ERROR, name, _first_line_of(raw, next(iter(lost))),
                    f"{sum(lost.values())} words of the text would be lost reading this HTML (such as: {example})")]


def _first_line_of(text: str, needle: str) -> int:
    at = text.lower().find(needle.lower())
    return text.count("\n", 0, at) + 1 if at >= 0 else 1


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
