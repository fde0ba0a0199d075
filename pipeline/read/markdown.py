"""Turn a Markdown conversion of a rule document into plain lines, as if it were a text file.

Rules sites and apps republish the documents as Markdown: "## 704. State-Based Actions",
"**704.5k** If two or more…", "- Standard", "| Slow Play | Warning |", "[rule 603](#603)".
Headings lose their #s (and get a hint), emphasis and escapes go, links keep their text,
table rows become tab-separated cells. Line numbers stay those of the file. Nothing here
knows rules.
"""
from __future__ import annotations

import html
import re
from typing import Sequence

from .decode import LINE_END, split_lines
from .source import Line, Link
from .wrapping import unwrapped, wrap_width

HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
BULLET = re.compile(r"^(\s*)[-*+]\s+(?=\S)")
TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$")
TABLE_ROW = re.compile(r"^\s*\|.*\|\s*$")
CELL_BORDER = re.compile(r"(?<!\\)\|")          # not an escaped "\|" inside a cell
LINK = re.compile(r"!?\[([^\]]*)\]\(([^)\s]*)(?:\s+\"[^\"]*\")?\)")
EMPHASIS = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1|(?<![\w*])([*_])(?=\S)(.+?)(?<=\S)\3(?![\w*])")
ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")        # any ASCII punctuation may be escaped (pandoc: "shouldn\'t")
CODE = re.compile(r"`([^`]+)`")
PRIVATE = 0xF0000                       # a private-use plane: never in a rule document
SET_ASIDE = re.compile("[\U000F0000-\U000F00FF]")
HEADING_LABEL = re.compile(r"\s+\[([^\[\]\s]+)\]$")    # MultiMarkdown's: the heading's words as an id
THEMATIC_BREAK = re.compile(r"^\s{0,3}(?:[-*_]\s*){3,}$")
BOLD_LINE = re.compile(r"^\s*(\*\*|__)(?=\S)(?:(?!\1).)+(?<=\S)\1\s*$")
# What pandoc writes where Markdown has no syntax of its own: raw HTML (a <div> or <span> around text, a
# table it cannot draw as pipes), its fenced divs (":::: {#ipg .entry-header}"), attributes after a heading
# or a span ("{#mtr1-1 .entry-title}", "[text]{.sc}"). Layout only: the text inside stays.
RAW_HTML = re.compile(r"</?(?:div|span|a|p|br|b|i|u|em|strong|sup|sub|font|img|hr|section|article|header|"
                      r"table|colgroup|col|thead|tbody|tfoot|tr|th|td|caption|center|small|big)\b[^<>]*>", re.I)
FENCED_DIV = re.compile(r"^[ \t]*:{3,}.*$", re.M)
ATTRIBUTES = re.compile(r"(?<=[\])\s])\{[#.][^{}]*\}|(?<=\S)\s*\{#[^{}\s]+(?:\s+[.#][^{}\s]+)*\}\s*$")
SPAN = re.compile(r"\[([^\[\]]*)\]\{[#.][^{}]*\}")
# pandoc's simple and multiline tables: columns under groups of dashes, no pipes ("  -----   -----").
DASH_GROUPS = re.compile(r"^\s*-{3,}(?:\s+-{3,})+\s*$")
DASH_LINE = re.compile(r"^\s*-{3,}\s*$")
LONGEST_TABLE = 400
# A table written as raw HTML (CommonMark writers keep a table they cannot draw with pipes so): each row is
# written again as a pipe-table row, on the line its <tr> starts, its other lines left empty.
HTML_TABLE = re.compile(r"<table\b[^>]*>.*?</table\s*>", re.S | re.I)
HTML_ROW = re.compile(r"<tr\b[^>]*>(.*?)</tr\s*>", re.S | re.I)
HTML_CELL = re.compile(r"<t[dh]\b[^>]*>(.*?)</t[dh]\s*>", re.S | re.I)
BREAKING_TAG = re.compile(r"</?(?:br|p|div|li|ul|ol)\b[^<>]*>", re.I)   # (an inline tag joins the words around it)
ANY_TAG = re.compile(r"<[^<>]*>")
LINK_BROKEN = re.compile(r"\[([^\[\]\n]*?)\\?[ \t]*\n[ \t]*\]\(([^)\s]*)\)")
HARD_BREAK = re.compile(r"(?: {2,}|\\)$")


def looks_like_markdown(lines: list[str]) -> bool:
    """Markdown headings or bold rule numbers at line starts, more than a plain file would have by chance."""
    headings = sum(1 for line in lines if "#" in line and HEADING.match(line))     # (each pattern tried only on
    bold_starts = sum(1 for line in lines if line.startswith("**"))                 # a line holding its mark)
    tables = sum(1 for line in lines if "---" in line and TABLE_RULE.match(line))
    return headings >= 3 or bold_starts >= 10 or (tables >= 1 and headings >= 1)


def inline_text(text: str, links: list, number: int) -> str:
    """Inline Markdown to plain text: links keep their words (and are noted), emphasis and escapes go."""
    def keep_link(match: re.Match) -> str:
        if not match.group(0).startswith("!"):
            links.append(Link(number, match.group(1), match.group(2)))
        return match.group(1)
    # escaped characters are set aside first, so "\*" is never taken for emphasis
    text = ESCAPE.sub(lambda m: chr(PRIVATE + ord(m.group(1))), text)
    text = ATTRIBUTES.sub("", SPAN.sub(r"\1", text))
    text = LINK.sub(keep_link, text)
    text = CODE.sub(r"\1", text)
    for _ in range(2):   # nested emphasis: ***text***
        text = EMPHASIS.sub(lambda m: m.group(2) if m.group(2) is not None else m.group(4), text)
    return SET_ASIDE.sub(lambda m: chr(ord(m.group(0)) - PRIVATE), text)


def heading_text(markup: str, links: list, number: int) -> str:
    """A heading's words, without the label MultiMarkdown writes after them ("# 1.5 Sets [sets]", pandoc's
    identifier: the words from the first letter on)."""
    label = HEADING_LABEL.search(markup)
    if label:
        words = inline_text(markup[:label.start()], [], number)
        letters = _letters_and_digits(words)
        if _letters_and_digits(label.group(1)) in (letters, letters.lstrip("0123456789")):
            markup = markup[:label.start()]
    return inline_text(markup, links, number)


def _letters_and_digits(text: str) -> str:
    return "".join(character for character in text.casefold() if character.isalnum())


def without_raw_html(text: str) -> list[Line]:
    """The Markdown's lines with pandoc's raw HTML tags and fenced-div lines taken out, each line numbered as
    in the file. A tag written across lines ("<a" / "href=…" / "class=…>Manic Vandal</a>") goes with its
    line ends: the text around it stays one paragraph."""
    if ":::" in text:
        text = FENCED_DIV.sub("", text)
    if "<table" in text or "<TABLE" in text:
        text = HTML_TABLE.sub(_as_pipe_rows, text)
    if "\n](" in text:        # a hard line break at the end of a link's words: "[Sets\\" / "](#ipg1-5)"
        text = LINK_BROKEN.sub(lambda m: f"[{m.group(1)}]({m.group(2)})\n", text)
    pieces: list[str] = []
    removed: list[tuple[int, int]] = []          # (where in the new text, how many line ends went)
    kept, position = 0, 0
    for tag in RAW_HTML.finditer(text):
        pieces.append(text[position:tag.start()])
        kept += tag.start() - position
        if "\n" in tag.group(0) or "\r" in tag.group(0):
            removed.append((kept, len(LINE_END.findall(tag.group(0)))))
        position = tag.end()
    pieces.append(text[position:])
    text = "".join(pieces)
    lines = split_lines(text)
    if not removed:
        return lines
    starts = [0] + [end.end() for end in LINE_END.finditer(text)]
    out, gone, at = [], 0, 0
    for line, start in zip(lines, starts):       # the line ends gone before a line's start move it down
        while at < len(removed) and removed[at][0] < start:
            gone += removed[at][1]
            at += 1
        out.append(Line(line.number + gone, line.text))
    return out


def _as_pipe_rows(table: re.Match) -> str:
    """A raw HTML table as pipe-table rows, keeping every line end where it was (line numbers stay the file's)."""
    markup = table.group(0)
    pieces, position = [], 0
    for row in HTML_ROW.finditer(markup):
        pieces.append(_line_ends(markup[position:row.start()]))
        cells = [_cell_words(cell.group(1)) for cell in HTML_CELL.finditer(row.group(1))]
        if any(cells):
            pieces.append("| " + " | ".join(cells) + " |")
        pieces.append(_line_ends(row.group(0)))
        position = row.end()
    pieces.append(_line_ends(markup[position:]))
    return "".join(pieces)


def _cell_words(markup: str) -> str:
    """A cell's words on one line: its tags gone, its entities read, a "|" in it escaped for the pipe row."""
    words = " ".join(html.unescape(ANY_TAG.sub("", BREAKING_TAG.sub(" ", markup))).split())
    return words.replace("|", "\\|")


def _line_ends(text: str) -> str:
    return "".join(end.group(0) for end in LINE_END.finditer(text))


def dash_tables(texts: list[str]) -> dict[int, tuple[str, ...]]:
    """The rows of pandoc's simple and multiline tables, by line index: each row's cells cut at the columns
    where the groups of dashes under the header (or above a table without one) start. A dash line itself
    is a row of no cells. A table without a header ends at its closing dash line, one with a header at a
    blank line."""
    rows: dict[int, tuple[str, ...]] = {}
    if "---" not in "\n".join(texts):     # (no group of dashes anywhere: no table)
        return rows
    index = 0
    while index < len(texts):
        if not DASH_GROUPS.match(texts[index]) or index in rows:
            index += 1
            continue
        starts = [match.start() for match in re.finditer(r"-{3,}", texts[index])]
        headed = index > 0 and texts[index - 1].strip() and not DASH_LINE.match(texts[index - 1])
        first = index - 1 if headed else index + 1
        end = index + 1
        while end < len(texts) and end - index < LONGEST_TABLE:
            text = texts[end]
            if DASH_GROUPS.match(text) or DASH_LINE.match(text) or (headed and not text.strip()):
                break
            end += 1
        closed = end < len(texts) and (DASH_GROUPS.match(texts[end]) or DASH_LINE.match(texts[end]))
        if not headed and not closed:
            index += 1
            continue
        for at in range(first, end):
            if at != index:
                text = texts[at]
                rows[at] = tuple(text[start:stop].strip() for start, stop in zip(starts, starts[1:] + [None]))
        rows[index] = ()
        if closed:
            rows[end] = ()
        index = end + 1
    return rows


PLAIN_ITEM = re.compile(r"^-   (?=\S)")     # pandoc's plain text marks a list item as its Markdown does


def with_list_items(source_lines: Sequence[Line]) -> list[Line]:
    """Plain text as pandoc writes it: its "-   " items as list items ("• " and the "li" hint)."""
    return [Line(line.number, "• " + line.text[4:], "li", line.page) if not line.hint and PLAIN_ITEM.match(line.text)
            else line for line in source_lines]


def with_dash_tables(source_lines: Sequence[Line], cell_text=str.strip) -> list[Line]:
    """The lines with the rows of pandoc's dash tables as table rows (hint "tr", cells joined by tabs) and their
    dash lines blank. pandoc's plain text writes its tables so too."""
    tables = dash_tables([line.text for line in source_lines])
    if not tables:
        return list(source_lines)
    out = []
    for index, line in enumerate(source_lines):
        if index not in tables:
            out.append(line)
            continue
        texts = [cell_text(cell, line.number) for cell in tables[index]]
        out.append(Line(line.number, "\t".join(text for text in texts if text), "tr", line.page) if any(texts)
                   else Line(line.number, "", "", line.page))
    return out


def markdown_to_lines(source_lines: list[Line], raw_lines: Sequence[str] = ()):
    """Return (lines, anchors, links) for a Markdown document. `raw_lines`, the lines before their trailing
    spaces went, tell hard line breaks ("  " or a backslash at the end) from wrapped lines."""
    lines: list[Line] = []
    links: list[Link] = []
    source_lines = with_dash_tables(source_lines, lambda cell, number: inline_text(cell, links, number))
    width = wrap_width([line for line in source_lines if not line.text.lstrip().startswith(("|", "<"))])
    if width:
        breaks = frozenset(number for number, raw in enumerate(raw_lines, start=1) if HARD_BREAK.search(raw))
        source_lines = unwrapped(source_lines, width, breaks)
    for line in source_lines:
        raw = line.text
        if line.hint:           # a row of a table drawn with dashes
            lines.append(line)
            continue
        if TABLE_RULE.match(raw) and "-" in raw or THEMATIC_BREAK.match(raw) and raw.strip():
            lines.append(Line(line.number, ""))        # layout only
            continue
        heading = HEADING.match(raw)
        if heading:
            lines.append(Line(line.number, heading_text(heading.group(2), links, line.number),
                              f"h{len(heading.group(1))}"))
            continue
        if TABLE_ROW.match(raw):
            cells = [inline_text(cell.strip(), links, line.number)
                     for cell in CELL_BORDER.split(raw.strip().strip("|"))]
            lines.append(Line(line.number, "\t".join(cell for cell in cells if cell), "tr"))
            continue
        bullet = BULLET.match(raw)
        if bullet:
            lines.append(Line(line.number, "• " + inline_text(raw[bullet.end():], links, line.number), "li"))
            continue
        text = raw[1:].lstrip() if raw.startswith(">") else raw   # a quoted block is text all the same
        text = text[:-1].rstrip() if text.endswith("\\") and not text.endswith("\\\\") else text  # a hard break
        # a line wholly in bold is marked as HTML's <b> would be ("**A player forgets a trigger**")
        hint = "b" if BOLD_LINE.match(text) else ""
        lines.append(Line(line.number, inline_text(text, links, line.number).rstrip(), hint))
    return lines, (), links
