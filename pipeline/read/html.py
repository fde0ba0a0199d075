"""Turn an HTML rule document into lines of plain text, as if it were a text file.

The only module that imports BeautifulSoup. Block elements become lines (with a
hint saying which element made them), table rows become tab-separated cells,
scripts and other active content are removed (and reported), anchors and links
are kept aside so the link stage can resolve them. Nothing here knows rules.

What a converter's markup says of a line's typography is a hint too, as the PDF reader's fonts are:
- a paragraph all in bold (<b>, <strong>, or a class or style saying font-weight: bold) is "b";
- in a document without heading elements, a paragraph set in a clearly larger font (CSS, <font size>)
  is a heading, "h1" for the largest size;
- a short line (in bold or not) standing alone between empty paragraphs (the spacers of ebook
  converters: <p class="calibre1"></p>, <p>&nbsp;</p>, or two <br>s) is "alone": a heading candidate.
Anchors are transparent: a named anchor never makes or hides a line, except that one between two runs of
text glued together as no author writes ("...Fundamentals<a name="1.1"></a>1.1 Tournament Types") starts
a new line, as the browser's rendering of a converter's styled runs shows it.
"""
from __future__ import annotations

import bisect
import functools
import html
import re
import warnings
from collections import Counter
from dataclasses import dataclass

from bs4 import BeautifulSoup, Comment, Doctype, NavigableString, ProcessingInstruction, Tag, XMLParsedAsHTMLWarning

from ..model import ERROR, WARNING, Problem
from .source import ALONE, Line, Link

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

# Typography a converter gives in CSS or old markup: bold, and sizes relative to the browser's normal size.
CSS_RULE = re.compile(r"([^{}]+)\{([^{}]*)\}")
CLASS_SELECTOR = re.compile(r"[a-zA-Z0-9]*\.([\w-]+)")
CSS_DECLARATION = re.compile(r"([\w-]+)\s*:\s*([^;]+)")
CSS_LENGTH = re.compile(r"(\d+(?:\.\d+)?|\.\d+)\s*(em|rem|%|px|pt)?$")
KEYWORD_SIZES = {"xx-small": 0.6, "x-small": 0.75, "small": 0.83, "medium": 1.0, "large": 1.2, "x-large": 1.5,
                 "xx-large": 2.0, "xxx-large": 3.0}
RELATIVE_SIZES = {"larger": 1.2, "smaller": 0.83}
FONT_SIZES = {1: 0.63, 2: 0.82, 3: 1.0, 4: 1.13, 5: 1.5, 6: 2.0, 7: 3.0}      # <font size=N>
TAG_SIZES = {"big": 1.2, "small": 0.83}
HEADING_SIZE_RATIO = 1.12       # a paragraph's font this much larger than the body text's: a heading
HEADING_MAX_CHARS = 150
MAX_SIZE_LEVELS = 4

# Spacers: an empty paragraph (or two <br>s) is a blank line between paragraphs.
SPACER_TAGS = {"p", "div"}
ALONE_MAX_WORDS = 12
SENTENCE_END = ".!?;,:"
CLOSING_MARKS = "\"'”’)]"
# An anchor between two runs of text glued with no space, the second starting a new line: a capital or a
# digit after a letter, a digit or a closing mark ("Fundamentals" + "1.1 Tournament Types").
GLUED_BEFORE = re.compile(r"[\w\"'”’)\]]$")
GLUED_AFTER = re.compile(r"[A-Z0-9]")
NEIGHBOUR_SCAN = 40             # nodes looked at to find the text after an anchor
# A permalink's mark beside a heading ("1.1 Tournament Types¶"): navigation, not text.
PERMALINK_MARKS = {"¶", "#", "§", "🔗", "⚓"}


@dataclass(frozen=True)
class _Look:
    """How a piece of text is set: in bold or not, and its size (1.0 is the browser's normal size)."""
    bold: bool = False
    size: float = 1.0


class _Styles:
    """Bold and font size as the markup sets them: <style> class rules, style attributes, <b>, <font size>, <big>."""

    def __init__(self, soup):
        self.classes: dict[str, dict[str, str]] = {}
        for style in soup.find_all("style"):
            for selectors, body in CSS_RULE.findall(style.get_text()):
                declarations = _declarations(body)
                for selector in selectors.split(","):
                    match = CLASS_SELECTOR.fullmatch(selector.strip())
                    if match:
                        self.classes.setdefault(match.group(1), {}).update(declarations)

    def look(self, tag: Tag, outer: _Look) -> _Look:
        name = tag.name.lower()
        declarations: dict[str, str] = {}
        for class_name in tag.get("class") or ():
            declarations.update(self.classes.get(class_name, {}))
        if tag.get("style"):
            declarations.update(_declarations(str(tag["style"])))
        bold = outer.bold or name in BOLD_TAGS
        if "font-weight" in declarations:
            bold = _is_bold_weight(declarations["font-weight"])
        size = outer.size * TAG_SIZES.get(name, 1.0)
        if name == "font" and tag.get("size"):
            size = _font_tag_size(str(tag["size"]), size)
        if "font-size" in declarations:
            size = _css_size(declarations["font-size"], size)
        if bold == outer.bold and size == outer.size:
            return outer
        return _Look(bold, size)


def _declarations(css: str) -> dict[str, str]:
    return {name.lower(): value.strip().lower().removesuffix("!important").strip()
            for name, value in CSS_DECLARATION.findall(css)}


def _is_bold_weight(value: str) -> bool:
    return value in ("bold", "bolder") or (value.isdigit() and int(value) >= 600)


def _css_size(value: str, outer: float) -> float:
    if value in KEYWORD_SIZES:
        return KEYWORD_SIZES[value]
    if value in RELATIVE_SIZES:
        return outer * RELATIVE_SIZES[value]
    match = CSS_LENGTH.match(value)
    if not match:
        return outer
    number, unit = float(match.group(1)), match.group(2) or "px"
    return {"em": outer * number, "%": outer * number / 100, "rem": number, "px": number / 16, "pt": number / 12}[unit]


def _font_tag_size(value: str, outer: float) -> float:
    try:
        number = int(value.strip())
    except ValueError:
        return outer
    if value.strip()[0] in "+-":
        number += 3
    return FONT_SIZES[min(7, max(1, number))]


class _Walker:
    """Walks the element tree without recursion (any depth), turning blocks into lines of text."""

    def __init__(self, styles: _Styles):
        self.styles = styles
        self.blocks: list[tuple[str, str]] = []     # (text, hint)
        self.sizes: list[float] = []                # for each block: the size its text is set in
        self.buffer: list[str] = []
        self.looks: list[_Look] = []                # for each piece of the buffer: how it is set
        self.anchors: list[tuple[str, int]] = []    # (name, index of the next block)
        self.links: list[tuple[int, str, str]] = []  # (block index, text, href)
        self.removed: list[str] = []
        self.swallowed: list[str] = []              # elements that took in the document after them
        self.spacers: set[int] = set()              # an empty paragraph before block i: i
        self.anchor_breaks: list[int] = []          # block i starts where an anchor parted glued text
        self.breaks_in_row = False                  # a <br> and no text since

    def flush(self, hint: str) -> None:
        text = SPACES.sub(" ", "".join(self.buffer)).strip()
        looks = [look for piece, look in zip(self.buffer, self.looks) if piece.strip()]
        if text and not hint and all(look.bold for look in looks):
            hint = "b"                              # a paragraph all in bold: a heading in some documents
        self.buffer = []
        self.looks = []
        if text:
            self.blocks.append((text, hint))
            self.sizes.append(min((look.size for look in looks), default=1.0))

    def close_block(self, hint: str, start: int, spacer: bool) -> None:
        """The end of a block element; one that gave no line at all is a spacer (a blank line)."""
        self.flush(hint)
        if spacer and len(self.blocks) == start:
            self.spacers.add(start)

    def walk(self, root) -> None:
        # A stack of pending work: a node to visit with the hint of its block, or a callable to run
        # when an element's children are done (closing its line).
        stack: list = [(child, "", _Look()) for child in reversed(list(root.children))]
        while stack:
            item = stack.pop()
            if callable(item):
                item()
                continue
            node, hint, look = item
            if isinstance(node, (Comment, Doctype, ProcessingInstruction)):
                continue
            if isinstance(node, NavigableString):
                self.buffer.append(str(node))
                self.looks.append(look)
                if node.strip():
                    self.breaks_in_row = False
                continue
            if isinstance(node, Tag):
                self.visit(node, hint, self.styles.look(node, look), stack)

    def visit(self, tag: Tag, hint: str, look: _Look, stack: list) -> None:
        name = tag.name.lower()
        anchor = tag.get("id") or (tag.get("name") if name == "a" else None)
        if anchor:
            if _is_target(tag) and self.parts_glued_text(tag):
                self.flush(hint)
                self.anchor_breaks.append(len(self.blocks))
            self.anchors.append((str(anchor), len(self.blocks) + (1 if self.buffer_has_text() else 0)))
        if name == "a" and _is_permalink_mark(tag):
            return
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
            stack.extend((child, hint, look) for child in reversed(list(_fragment(markup).children)))
            return
        if name == "br":
            if self.breaks_in_row and not self.buffer_has_text():
                self.spacers.add(len(self.blocks))      # a second <br> in a row: a blank line
            self.flush(hint)
            self.breaks_in_row = True
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
                    self.looks.append(look)
            stack.append(functools.partial(self.close_block, inner, len(self.blocks), name in SPACER_TAGS))
            stack.extend((child, inner, look) for child in reversed(children))
            return
        stack.extend((child, hint, look) for child in reversed(children))   # inline: its text joins the line

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
            self.sizes.append(1.0)
        elif tag.get_text().strip():
            self.blocks.append((SPACES.sub(" ", tag.get_text(" ")).strip(), "tr"))   # text outside any cell
            self.sizes.append(1.0)

    def buffer_has_text(self) -> bool:
        return bool("".join(self.buffer).strip())

    def parts_glued_text(self, anchor: Tag) -> bool:
        """Whether an anchor stands between the line so far and text glued to it that starts a new line."""
        before = "".join(self.buffer)
        if not before.strip() or not GLUED_BEFORE.search(before):
            return False
        after = _text_after(anchor)
        return bool(after) and bool(GLUED_AFTER.match(after))

    def hinted_blocks(self) -> list[tuple[str, str]]:
        """The blocks with the hints typography gives: larger fonts as headings, short lines between spacers."""
        hints = _size_hints(self.blocks, self.sizes)
        return [(text, hints.get(index) or _alone_hint(index, text, hint, self.spacers))
                for index, (text, hint) in enumerate(self.blocks)]


def _is_target(tag: Tag) -> bool:
    """A link target with no text of its own to show: <a name="1.1"></a>, <a id="x">, <span id="y"></span>."""
    if tag.name.lower() == "a":
        return not tag.get("href")
    return tag.name.lower() not in BREAKING_TAGS and not tag.contents


def _is_permalink_mark(tag: Tag) -> bool:
    """<a class="headerlink" href="#s1.1">¶</a>: a mark linking to where it stands, no word of the text."""
    href = str(tag.get("href") or "")
    if href and not href.startswith("#") or len(tag.contents) != 1:
        return False
    return type(tag.contents[0]) is NavigableString and tag.contents[0].strip() in PERMALINK_MARKS


def _text_after(anchor: Tag) -> str:
    """The first characters of text after an anchor, in document order (its own text first)."""
    for count, node in enumerate(anchor.next_elements):
        if count > NEIGHBOUR_SCAN:
            break
        if isinstance(node, Tag) and node.name.lower() in BREAKING_TAGS:
            return ""                                   # a line ends there anyway
        if type(node) is NavigableString and str(node):
            return str(node)
    return ""


def _size_hints(blocks: list[tuple[str, str]], sizes: list[float]) -> dict[int, str]:
    """In a document without heading elements: paragraphs set clearly larger than the body text are headings,
    "h1" for the largest size (as the PDF reader reads fonts)."""
    if any(hint in HEADING_TAGS for _, hint in blocks):
        return {}
    weight: Counter = Counter()
    for (text, _), size in zip(blocks, sizes):
        weight[round(size, 2)] += len(text)
    if not weight:
        return {}
    body = weight.most_common(1)[0][0]
    big = {index: round(size * 20) / 20 for index, ((text, hint), size) in enumerate(zip(blocks, sizes))
           if size >= body * HEADING_SIZE_RATIO and len(text) <= HEADING_MAX_CHARS and hint in ("", "b")}
    levels = {size: min(MAX_SIZE_LEVELS, rank + 1) for rank, size in enumerate(sorted(set(big.values()), reverse=True))}
    return {index: f"h{levels[size]}" for index, size in big.items()}


def _alone_hint(index: int, text: str, hint: str, spacers: set[int]) -> str:
    """"alone" for a short line (in bold or not) with a spacer before and after it that does not end like a
    sentence."""
    if hint not in ("", "b") or index not in spacers or index + 1 not in spacers:
        return hint
    if len(text.split()) > ALONE_MAX_WORDS or text.rstrip(CLOSING_MARKS)[-1:] in SENTENCE_END:
        return hint
    return ALONE if any(character.isalpha() for character in text) else hint


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
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", XMLParsedAsHTMLWarning)     # XHTML (ebook converters) reads as HTML
        soup = BeautifulSoup(text, "lxml")
    small_capitals = _rows_of_positioned_boxes(soup)
    walker = _Walker(_Styles(soup))
    walker.walk(soup)
    walker.flush("")
    line_of = _LineFinder(text)
    numbers = [line_of(block_text) for block_text, _ in walker.blocks]
    lines = [Line(number, block_text, hint) for number, (block_text, hint) in zip(numbers, walker.hinted_blocks())]
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
    problems.extend(_lost_text(walker.blocks, text, name, walker.anchor_breaks, small_capitals))
    return tuple(lines), tuple(anchors), tuple(links), problems


ABSOLUTE = re.compile(r"position\s*:\s*absolute", re.I)
BOX_TOP = re.compile(r"(?:^|;)\s*top\s*:\s*(-?\d+(?:\.\d+)?)px", re.I)
BOX_LEFT = re.compile(r"(?:^|;)\s*left\s*:\s*(-?\d+(?:\.\d+)?)px", re.I)
SMALL_CAPITALS_REST = re.compile(r"[A-Z]{2,}\b")
SAME_ROW_PX = 4.0       # boxes of one printed row start within a few pixels of one another


def _rows_of_positioned_boxes(soup) -> list[str]:
    """pdftohtml draws each text box of a PDF page where it stood ("position:absolute;top:166px;left:81px"),
    so a heading's number and its title, a bullet and its item, a row of a table come as boxes side by side:
    boxes written one after another on one row become one line, left to right (a space between them, but for
    a word in small capitals, whose first letter is a box of its own). Returns the pieces of the words so
    joined, as the raw markup reads them ("A", "PPENDIX")."""
    boxes = [tag for tag in soup.find_all(style=ABSOLUTE) if BOX_TOP.search(tag["style"])]
    row: list[tuple[Tag, float, float]] = []
    pieces: list[str] = []
    for tag in boxes + [None]:
        place = _box_place(tag) if tag is not None else None
        if row and place is not None and tag.parent is row[0][0].parent and _next_sibling_tag(row[-1][0]) is tag \
                and abs(place[0] - row[0][1]) <= SAME_ROW_PX:
            row.append((tag, *place))
            continue
        if len(row) > 1:
            row.sort(key=lambda box: box[2])
            first = row[0][0]
            texts = [tag.get_text() for tag, _, _ in row]
            for index, (other, top, _) in enumerate(row[1:], start=1):
                if top > row[index - 1][1] and _small_capitals(texts[index - 1], texts[index]):
                    pieces += texts[index - 1], WORD.match(texts[index]).group()
                else:
                    first.append(" ")
                for child in list(other.contents):
                    first.append(child.extract())
                other.decompose()
        row = [(tag, *place)] if place is not None else []
    return pieces


def _small_capitals(before: str, after: str) -> bool:
    """Whether two boxes side by side are one word in small capitals: "A", then "PPENDIX" in a smaller type (its
    box starts lower)."""
    return len(before) == 1 and before.isupper() and SMALL_CAPITALS_REST.match(after) is not None


def _box_place(tag: Tag):
    top, left = BOX_TOP.search(tag["style"]), BOX_LEFT.search(tag["style"])
    return (float(top.group(1)), float(left.group(1))) if top and left else None


def _next_sibling_tag(tag: Tag):
    sibling = tag.next_sibling
    while sibling is not None and not isinstance(sibling, Tag):
        if str(sibling).strip():
            return None
        sibling = sibling.next_sibling
    return sibling


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


def _lost_text(blocks: list[tuple[str, str]], raw: str, name: str, anchor_breaks: list[int],
               small_capitals: list[str]) -> list[Problem]:
    """An ERROR if words of the document's text (read from the raw markup, not from the parser's tree, which
    may have dropped them) are missing from its lines.

    Where an anchor parted two glued runs of text, the raw markup reads them as one word ("Fundamentals1"):
    that word is kept too; so are the pieces of a word in small capitals ("A", "PPENDIX")."""
    kept = Counter(WORD.findall(" ".join(block for block, _ in blocks)))
    kept.update(_word_across(blocks[index - 1][0], blocks[index][0]) for index in anchor_breaks
                if 0 < index < len(blocks))
    kept.update(small_capitals)
    wanted = Counter(WORD.findall(html.unescape(TAG.sub(_tag_as_text, NOT_TEXT.sub(" ", raw)))))
    lost = wanted - kept
    if not lost:
        return []
    example = " ".join(word for word, _ in lost.most_common(5))
    return [Problem(ERROR, name, _first_line_of(raw, next(iter(lost))),
                    f"{sum(lost.values())} words of the text would be lost reading this HTML (such as: {example})")]


def _word_across(before: str, after: str) -> str:
    """The word two lines make when glued: "Fundamentals" + "1.1 Tournament" -> "Fundamentals1"."""
    return re.search(r"\w*$", before).group() + re.match(r"\w*", after).group()


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
